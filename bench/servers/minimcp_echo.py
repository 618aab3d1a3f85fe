"""Echo server on minimcp (the project under test), imported from the repo root.

Same user code as the other Python servers: ``def echo(text: str) -> str``.
MINIMCP_PATH overrides where minimcp.py is looked for (default: two levels up
from this file, i.e. the repository root).

Environment: MCPBENCH_HTTP_PORT=N serves Streamable HTTP on 127.0.0.1:N instead of
stdio (bench/http_bench.py; under gunicorn the module's ``app`` is the WSGI app), MCPBENCH_MAXMSG=bytes raises ``max_message_size`` (run.py sets it
only for the payload sweep, whose 16 and 64 MiB lines exceed the 16 MiB
default), MCPBENCH_TOOLS=N (filler tools), MCPBENCH_EXTRA=1 (``slow``:
blocking sleep on minimcp's worker pool; ``spin``: polls ``ctx.cancelled``
every 10 ms and writes "MCPBENCH <event> <monotonic ns>" markers to stderr on
entry and when it leaves; ``nap``: ``await asyncio.sleep``, as the SDK's servers wait),
MCPBENCH_WORKERS=N (the worker pool's size).
Under an ASGI server (bench/http_load.py), ``app.asgi`` is the ASGI app.
"""
import os
import sys
import time

sys.path.insert(0, os.environ.get("MINIMCP_PATH")
                or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from minimcp import MCPServer  # noqa: E402

_kw = {}
if os.environ.get("MCPBENCH_MAXMSG"):      # payload sweep only: the default limit is 16 MiB
    _kw["max_message_size"] = int(os.environ["MCPBENCH_MAXMSG"])
# The other servers measured have no limit on what they write: neither has this one
# (an older minimcp.py, measured with --baseline, has no such option at all).
if "max_output_size" in MCPServer.__init__.__code__.co_varnames:
    _kw["max_output_size"] = None
# minimcp's own dialect, as older minimcp.py files (--baseline) serve and as examples/everything.py
# asks for: the mcp2 dialect, MCPServer's default, adds "isError": false to every answer.
if "dialect" in MCPServer.__init__.__code__.co_varnames:
    _kw["dialect"] = "minimcp"
if os.environ.get("MCPBENCH_WORKERS"):
    _kw["workers"] = int(os.environ["MCPBENCH_WORKERS"])
app = MCPServer("minimcp-echo", **_kw)


@app.tool(structured_output=False)        # one text block, as the other servers are asked for
def echo(text: str) -> str:
    """Echo the text back."""
    return text


def _filler(i):
    def filler(x: str) -> str:
        return x
    filler.__name__ = "filler_%05d" % i
    filler.__doc__ = "Filler tool number %d." % i
    app.tool(structured_output=False)(filler)       # no outputSchema, like the other servers' fillers


for _i in range(int(os.environ.get("MCPBENCH_TOOLS", "0") or 0)):
    _filler(_i)


def _marker(event):
    sys.stderr.write("MCPBENCH %s %d\n" % (event, time.monotonic_ns()))
    sys.stderr.flush()


if os.environ.get("MCPBENCH_EXTRA"):
    from minimcp import Context

    @app.tool()
    def slow(seconds: float) -> str:
        """Sleep, then answer."""
        time.sleep(seconds)
        return "slept"

    @app.tool(structured_output=False)
    async def nap(seconds: float) -> str:
        """Sleep without a thread of its own, then answer."""
        import asyncio
        await asyncio.sleep(seconds)
        return "napped"

    @app.tool()
    def spin(seconds: float, ctx: Context) -> str:
        """Poll for cancellation every 10 ms."""
        _marker("enter")
        reason = "cancelled"
        try:
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                if ctx.cancelled:
                    return "cancelled"
                time.sleep(0.01)
            reason = "finished"
            return "done"
        finally:
            _marker(reason)


if __name__ == "__main__":
    if os.environ.get("MCPBENCH_HTTP_PORT"):        # bench/http_bench.py: the stdlib HTTP server
        app.run(transport="http", host="127.0.0.1", port=int(os.environ["MCPBENCH_HTTP_PORT"]))
    else:
        app.run()
