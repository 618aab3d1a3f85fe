"""Serve a directory read-only as file:// resources.

    python3 examples/files.py [DIRECTORY]      (default: the examples directory)

Paths that would leave the directory (``..``, absolute paths, encoded traversal,
symbolic links) are refused.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from minimcp import MCPServer  # noqa: E402

DIRECTORY = sys.argv[1] if len(sys.argv) > 1 and __name__ == "__main__" else os.path.dirname(os.path.abspath(__file__))

app = MCPServer("files", instructions="Read-only access to the files below %s." % DIRECTORY)
app.add_directory(DIRECTORY)

if __name__ == "__main__":
    app.run()
