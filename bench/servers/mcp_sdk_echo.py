"""Echo server on the official Python SDK's decorator API (mcp 2.x ``MCPServer``).

Same user code as every other Python server here: a plain synchronous
``def echo(text: str) -> str``.  ``structured_output=False`` keeps the reply to a
single text block (no outputSchema / structuredContent), like the bare loop.

Environment:
  MCPBENCH_HTTP_PORT=N  serve Streamable HTTP (JSON answers) on 127.0.0.1:N under uvicorn
  MCPBENCH_TOOLS=N  register N extra filler tools (tools/list sweep)
  MCPBENCH_EXTRA=1  register ``slow`` (blocking sleep, runs on the SDK's worker
                    threads) and ``spin`` (async, polls every 10 ms; the SDK
                    cancels the task on notifications/cancelled and the
                    ``finally`` writes the "MCPBENCH <event> <monotonic ns>" markers to stderr),
                    and ``nap`` (``await asyncio.sleep``, bench/http_load.py's slow calls)
"""
import os
import sys
import time

from mcp.server.mcpserver import MCPServer

app = MCPServer("mcp-sdk-echo")


@app.tool(structured_output=False)
def echo(text: str) -> str:
    """Echo the text back."""
    return text


def _filler(i):
    def filler(x: str) -> str:
        return x
    app.add_tool(filler, name="filler_%05d" % i, description="Filler tool number %d." % i,
                 structured_output=False)


for _i in range(int(os.environ.get("MCPBENCH_TOOLS", "0") or 0)):
    _filler(_i)


def _marker(reason):
    sys.stderr.write("MCPBENCH %s %d\n" % (reason, time.monotonic_ns()))
    sys.stderr.flush()


if os.environ.get("MCPBENCH_EXTRA"):
    import anyio

    @app.tool(structured_output=False)
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

    @app.tool(structured_output=False)
    async def spin(seconds: float) -> str:
        """Busy-wait politely, checking for cancellation every 10 ms."""
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
        uvicorn.run(app.streamable_http_app(json_response=True), host="127.0.0.1",
                    port=int(os.environ["MCPBENCH_HTTP_PORT"]), log_level="warning", access_log=False)
    else:
        app.run()
