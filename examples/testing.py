"""Testing a server with TestClient (the testclient component): no process, no pipes to set up.

    python3 examples/testing.py            # or: python3 -m pytest examples/testing.py

TestClient serves the app in-process over real pipes and speaks the protocol as a host
would (initialize, or the 2026-07-28 envelope with protocol=), so a test sees exactly the
JSON a host gets. Errors come back as MCPError; progress and log messages are kept.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from minimcp import TestClient  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jobs import app  # noqa: E402  (the server under test: examples/jobs.py)


def test_build_reports_progress_and_finishes():
    with TestClient(app) as client:
        result = client.call_tool("build", {"target": "docs", "steps": 3, "step_seconds": 0})
        assert result["content"][0]["text"] == "built docs in 3 steps"
        assert [p["progress"] for p in client.progress] == [1, 2, 3]


def test_build_needs_a_target():
    with TestClient(app) as client:
        (build,) = client.list_tools()
        assert build["name"] == "build" and build["inputSchema"]["required"] == ["target"]


if __name__ == "__main__":
    test_build_reports_progress_and_finishes()
    test_build_needs_a_target()
    print("2 passed")
