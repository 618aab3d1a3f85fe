"""Echo server on the official Python SDK's low-level ``Server`` (mcp 2.x).

Handlers are the SDK's ``on_list_tools`` / ``on_call_tool`` async callables
taking ``(ctx, params)``; the reply is one text block, no structured output.

Environment: MCPBENCH_TOOLS=N (filler tools), MCPBENCH_EXTRA=1 (``slow`` awaits
an async sleep, ``spin`` polls every 10 ms and writes the "MCPBENCH <event> <monotonic ns>" markers
to stderr when it leaves, including when the SDK cancels it).
"""
import os
import sys
import time

import anyio
import mcp.types as types
from mcp.server import Server
from mcp.server.stdio import stdio_server

_STR_ARG = lambda name: {"type": "object", "properties": {name: {"type": "string"}},
                         "required": [name]}
_NUM_ARG = {"type": "object", "properties": {"seconds": {"type": "number"}},
            "required": ["seconds"]}

TOOLS = [types.Tool(name="echo", description="Echo the text back.", input_schema=_STR_ARG("text"))]
for _i in range(int(os.environ.get("MCPBENCH_TOOLS", "0") or 0)):
    TOOLS.append(types.Tool(name="filler_%05d" % _i, description="Filler tool number %d." % _i,
                            input_schema=_STR_ARG("x")))
EXTRA = bool(os.environ.get("MCPBENCH_EXTRA"))
if EXTRA:
    TOOLS.append(types.Tool(name="slow", description="Sleep, then answer.", input_schema=_NUM_ARG))
    TOOLS.append(types.Tool(name="spin", description="Poll for cancellation every 10 ms.",
                            input_schema=_NUM_ARG))


def _marker(event):
    sys.stderr.write("MCPBENCH %s %d\n" % (event, time.monotonic_ns()))
    sys.stderr.flush()


def _text(s):
    return types.CallToolResult(content=[types.TextContent(type="text", text=s)])


async def list_tools(ctx, params):
    return types.ListToolsResult(tools=TOOLS)


async def call_tool(ctx, params):
    args = params.arguments or {}
    if params.name == "echo":
        return _text(args["text"])
    if params.name.startswith("filler_"):
        return _text(args["x"])
    if EXTRA and params.name == "slow":
        await anyio.sleep(float(args["seconds"]))
        return _text("slept")
    if EXTRA and params.name == "spin":
        _marker("enter")
        reason = "cancelled"
        try:
            deadline = time.monotonic() + float(args["seconds"])
            while time.monotonic() < deadline:
                await anyio.sleep(0.01)
            reason = "finished"
            return _text("done")
        finally:
            _marker(reason)
    raise ValueError("unknown tool %r" % params.name)


server = Server("mcp-lowlevel-echo", on_list_tools=list_tools, on_call_tool=call_tool)


async def main():
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
