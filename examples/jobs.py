"""A long-running job: progress, cancellation, a timeout, and a task.

    python3 examples/jobs.py

``build`` reports progress as it goes and stops as soon as the client cancels;
clients that speak tasks (2025-11-25 ``task``, or the 2026-07-28 tasks extension)
can start it as a task and poll it instead of waiting on the call.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from minimcp import Context, MCPServer  # noqa: E402

app = MCPServer("jobs", version="1.0.0")


@app.tool(task_support="optional", timeout=600)
def build(target: str, ctx: Context, steps: int = 20, step_seconds: float = 0.1) -> str:
    """Build a target step by step.

    Args:
        target: what to build
        steps: how many steps the build takes
        step_seconds: how long each step takes
    """
    for step in range(1, steps + 1):
        ctx.sleep(step_seconds)                      # wakes at once on cancellation
        ctx.progress(step, steps, "building %s: step %d of %d" % (target, step, steps))
    ctx.info("built %s" % target)
    return "built %s in %d steps" % (target, steps)


if __name__ == "__main__":
    app.run()
