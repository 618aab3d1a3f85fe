"""A server that needs nothing but minimcp's core: minimcp.py alone, no component file beside it.

Copy this file next to minimcp.py and any stdio host runs it, in every revision: tools
(progress, logs, questions to the client, tasks), resources, templates, prompts and
completion. The core's tests (tests/core/test_alone.py) serve it from a folder holding the
two files alone, with no .pyc written.
"""

import os
import sys

# A minimcp.py next to this file is the one imported (Python puts the script's folder
# first); else the repository's, one folder up.
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from minimcp import Context, MCPServer  # noqa: E402

app = MCPServer("core", version="1.0.0", instructions="minimcp's core, and nothing else.")
WORDS = ["apple", "apricot", "banana"]


@app.tool()
def shout(text: str) -> str:
    """The text in capitals.

    Args:
        text: what to shout
    """
    return text.upper()


@app.tool()
def divide(a: float, b: float) -> dict:
    """a / b, as structured content."""
    if b == 0:
        raise ValueError("cannot divide by zero")
    return {"quotient": a / b}


@app.tool()
def count_to(n: int, ctx: Context) -> str:
    """Count to n, reporting progress and logging each step."""
    for step in range(1, n + 1):
        ctx.progress(step, n)
        ctx.info("step %d" % step)
    return "counted to %d" % n


@app.tool()
def wait_until_cancelled(ctx: Context) -> str:
    """Wait until the client cancels the call (ctx.sleep wakes at once then, and raises)."""
    ctx.sleep(60)
    return "not cancelled within a minute"


@app.tool()
def ask_name(ctx: Context) -> str:
    """Ask the client for a name (elicitation), and greet it."""
    answer = ctx.elicit("What is your name?", {"type": "object", "properties": {"name": {"type": "string"}},
                                               "required": ["name"]})
    if answer.get("action") != "accept":
        return "no name given"
    return "hello, %s" % answer["content"]["name"]


@app.tool(task_support="optional")
def slow_square(x: int) -> int:
    """x squared; a client may run it as a task (2025-11-25, 2026-07-28)."""
    return x * x


@app.resource("core://motto", mime_type="text/plain")
def motto() -> str:
    return "small core, plugged components"


@app.resource("core://words/{word}", mime_type="text/plain", completions={"word": WORDS})
def word(word: str) -> str:
    return "%s has %d letters" % (word, len(word))


@app.prompt(completions={"topic": WORDS})
def explain(topic: str) -> str:
    """Ask the model to explain a topic."""
    return "Explain %s in one paragraph." % topic


if __name__ == "__main__":
    app.run()
