"""A server whose tool ignores cancellation and blocks without the Context (tests/core/test_process.py)."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from minimcp import MCPServer  # noqa: E402

app = MCPServer("stubborn", shutdown_grace=0.2)      # the grace is all the test waits out


@app.tool()
def block(seconds: float) -> str:
    """Sleep in plain time.sleep: no progress, no cancellation, nothing minimcp can see."""
    sys.stderr.write("block: started\n")
    sys.stderr.flush()
    time.sleep(seconds)
    return "done"


if __name__ == "__main__":
    app.run()
