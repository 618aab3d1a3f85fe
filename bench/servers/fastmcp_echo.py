"""Echo server on FastMCP (the standalone ``fastmcp`` package).

Same user code as the other Python servers: a synchronous
``def echo(text: str) -> str``.  ``output_schema=None`` turns off FastMCP's
wrapped structured result so the reply is one text block.  The banner (and its
update check, which would reach the network) is off: ``show_banner=False`` and
FASTMCP_CHECK_FOR_UPDATES=off.

Environment: MCPBENCH_HTTP_PORT=N (Streamable HTTP with JSON answers on 127.0.0.1:N,
under uvicorn), MCPBENCH_TOOLS=N (filler tools), MCPBENCH_EXTRA=1 (``slow``:
blocking sleep on FastMCP's worker threads; ``spin``: async, polls every 10 ms,
writes the "MCPBENCH <event> <monotonic ns>" markers to stderr when it leaves).
"""
import os
import sys
import time

os.environ.setdefault("FASTMCP_CHECK_FOR_UPDATES", "off")
os.environ.setdefault("FASTMCP_SHOW_SERVER_BANNER", "false")

from fastmcp import FastMCP  # noqa: E402

app = FastMCP("fastmcp-echo")


@app.tool(output_schema=None)
def echo(text: str) -> str:
    """Echo the text back."""
    return text


def _filler(i):
    def filler(x: str) -> str:
        return x
    app.tool(filler, name="filler_%05d" % i, description="Filler tool number %d." % i,
             output_schema=None)


for _i in range(int(os.environ.get("MCPBENCH_TOOLS", "0") or 0)):
    _filler(_i)


def _marker(event):
    sys.stderr.write("MCPBENCH %s %d\n" % (event, time.monotonic_ns()))
    sys.stderr.flush()


if os.environ.get("MCPBENCH_EXTRA"):
    import anyio

    @app.tool(output_schema=None)
    def slow(seconds: float) -> str:
        """Sleep, then answer."""
        time.sleep(seconds)
        return "slept"

    @app.tool(output_schema=None)
    async def spin(seconds: float) -> str:
        """Poll for cancellation every 10 ms."""
        _marker("enter")
        reason = "cancelled"
        try:
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                await anyio.sleep(0.01)
            reason = "finished"
            return "done"
        finally:
            _marker(reason)


if __name__ == "__main__":
    if os.environ.get("MCPBENCH_HTTP_PORT"):        # bench/http_bench.py: Streamable HTTP under uvicorn
        import uvicorn
        uvicorn.run(app.http_app(json_response=True), host="127.0.0.1",
                    port=int(os.environ["MCPBENCH_HTTP_PORT"]), log_level="warning", access_log=False)
    else:
        app.run(show_banner=False)
