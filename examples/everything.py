"""The fixture that real MCP clients are tested against: one of everything.

Run it with any MCP host, or see it work with::

    python3 minimcp.py inspect --call echo '{"text": "hi"}' -- python3 examples/everything.py

The names of its tools, resources and prompts are part of the test contract.
"""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from minimcp import Context, MCPServer  # noqa: E402

app = MCPServer("everything", version="1.0.0",
                instructions="A test fixture that exercises every MCP feature minimcp offers.")

NAMES = ["alice", "anna", "bob"]


@app.tool()
def echo(text: str) -> str:
    """Return the text unchanged.

    Args:
        text: the text to send back
    """
    return text


@app.tool()
def add(a: float, b: float) -> float:
    """Add two numbers.

    Args:
        a: first addend
        b: second addend
    """
    total = a + b
    return int(total) if total.is_integer() else total      # 2 + 3 reads "5", not "5.0"


@app.tool()
def fail(message: str = "boom") -> str:
    """Always fail, with the given message.

    Args:
        message: the error message
    """
    raise RuntimeError(message)


@app.tool()
def log(message: str, ctx: Context, level: str = "info") -> str:
    """Send a log notification at the given level.

    Args:
        message: the text to log
        level: debug, info, notice, warning, error, critical, alert or emergency
    """
    ctx.log(level, message)
    return "logged"


@app.tool()
def slow(ctx: Context, seconds: float = 2, steps: int = 5) -> str:
    """Sleep in steps, reporting progress; stops when cancelled.

    Args:
        seconds: total time to sleep
        steps: how many parts to sleep in
    """
    steps = max(1, steps)
    for step in range(1, steps + 1):
        ctx.sleep(seconds / steps)
        ctx.progress(step, steps, "step %d of %d" % (step, steps))
    return "done"


@app.tool()
def sample(prompt: str, ctx: Context) -> str:
    """Ask the client's model to answer a prompt.

    Args:
        prompt: what to ask
    """
    reply = ctx.sample(prompt, max_tokens=100)
    content = reply.get("content")
    blocks = content if isinstance(content, list) else [content]
    text = " ".join(b.get("text", "") for b in blocks if isinstance(b, dict) and b.get("type") == "text")
    return "The model said: " + text


@app.tool()
def ask_roots(ctx: Context) -> str:
    """List the client's roots."""
    return "\n".join(root["uri"] for root in ctx.list_roots())


@app.tool()
def elicit(ctx: Context, message: str = "What is your name?") -> str:
    """Ask the user for their name.

    Args:
        message: the question to show
    """
    answer = ctx.elicit(message, {"type": "object", "properties": {"name": {"type": "string"}},
                                  "required": ["name"]})
    if answer.get("action") == "accept":
        return "accept: %s" % (answer.get("content") or {}).get("name", "")
    return answer.get("action", "cancel")


@app.tool()
def touch(uri: str) -> str:
    """Announce that a resource changed (subscribers get notifications/resources/updated).

    Args:
        uri: the resource URI
    """
    app.notify_resource_updated(uri)
    return "touched"


@app.tool()
def print_stdout(text: str = "stray") -> str:
    """Write to standard output three ways; none of it may reach the protocol stream.

    Args:
        text: what to print
    """
    import subprocess           # here: the tests start this fixture ~100 times, and only this tool needs it

    print(text)
    sys.stdout.flush()
    os.write(1, (text + "\n").encode("utf-8"))
    subprocess.run([sys.executable, "-c", "print(%r)" % text], check=False)
    return "printed"


@app.tool(task_support="optional")
def long_job(ctx: Context, seconds: float = 3) -> str:
    """A long job that can run as a task (2025-11-25 tasks, 2026-07-28 tasks extension).

    Args:
        seconds: how long it works
    """
    steps = 10
    for step in range(1, steps + 1):
        ctx.sleep(seconds / steps)
        ctx.progress(step, steps, "working")
    return "finished after %s seconds" % seconds


@app.resource("fixture://hello", mime_type="text/plain")
def hello() -> str:
    """A fixed greeting."""
    return "Hello, world!"


@app.resource("fixture://greeting/{name}", mime_type="text/plain",
              completions={"name": NAMES})
def greeting(name: str) -> str:
    """A greeting for anyone."""
    return "Hello, %s!" % name


@app.prompt(completions={"name": NAMES})
def greet(name: str) -> str:
    """Greet someone by name.

    Args:
        name: who to greet
    """
    return "Please greet %s warmly." % name


# Agent Skills (SEP-2640): examples/skills/release-notes served as skill:// resources. The one
# line that needs a component (minimcp_skills.py): the core's tests serve all of this file but it.
app.add_skills(os.path.join(os.path.dirname(os.path.abspath(__file__)), "skills"))


if __name__ == "__main__":
    app.run()
