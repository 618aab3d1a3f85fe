"""mcp 2.x's request middleware, and the low-level Server beneath the decorator servers (issue 38).

The official reference servers of 2026.10 (mcp-server-time, -git, -fetch) refuse unknown names
with a middleware (``MCPServer(middleware=[...])``, ``server.middleware.append(fn)``) that reads
``ctx.method`` and ``ctx.params``, awaits ``server.list_tools()`` and raises ``MCPError``; the
SDK's everything-servers subclass ``EventStore`` and register handlers through
``mcp._mcp_server`` (mcp 1.x) and ``mcp._lowlevel_server`` (mcp 2.x). Each test writes such a
server file, serves it with ``python3 minimcp.py serve FILE`` (no SDK installed) and reads the
JSON lines it answers; the answers expected are mcp 2.3.0's (and 1.29.0's) for the same file.
"""

from test_sdk_lowlevel import call, request, serve

REFERENCE_STYLE = '''
    from typing import Any
    from collections.abc import Mapping

    from mcp.server.context import CallNext, HandlerResult, ServerMiddleware, ServerRequestContext
    from mcp.server.mcpserver import MCPServer
    from mcp.shared.exceptions import MCPError
    from mcp.types import INVALID_PARAMS

    seen = []

    def reject_unknown_names(server: MCPServer) -> ServerMiddleware[Any]:
        async def middleware(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
            params = ctx.params if isinstance(ctx.params, Mapping) else {}
            seen.append(ctx.method)
            name = params.get("name")
            if ctx.method == "tools/call" and name not in {t.name for t in await server.list_tools()}:
                raise MCPError(code=INVALID_PARAMS, message=f"Unknown tool: {name}")
            if ctx.method == "prompts/get" and name not in {p.name for p in await server.list_prompts()}:
                raise MCPError(code=INVALID_PARAMS, message=f"Unknown prompt: {name}")
            if name == "boom":
                raise RuntimeError("the middleware failed")
            return await call_next(ctx)
        return middleware

    async def outermost(ctx, call_next):
        result = await call_next(ctx)
        if ctx.method == "tools/call" and ctx.params.get("name") == "trail":
            result["content"][0]["text"] += " via " + ",".join(seen)
        return result

    server = MCPServer("mw", version="1.0", middleware=[outermost], subscriptions=False)
    server.middleware.append(reject_unknown_names(server))

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add."""
        return a + b

    @server.tool()
    def trail() -> str:
        return "trail"

    @server.tool()
    def boom() -> str:
        return "never"

    @server.prompt()
    def greet(who: str) -> str:
        return "hello " + who

    if __name__ == "__main__":
        import asyncio
        asyncio.run(server.run_stdio_async())
'''


def test_middleware_refuses_and_wraps_as_the_sdk_does(tmp_path):
    # each request waits for the one before: the order the middleware sees them in is asserted,
    # and requests sent together run at once (on the SDK's event loop as on minimcp's threads)
    answers, _, stderr = serve(tmp_path, REFERENCE_STYLE, [
        call(1, "add", {"a": 2, "b": 3}), {"after": 1},
        call(2, "nope"), {"after": 2},
        request(3, "prompts/get", {"name": "nope", "arguments": {}}), {"after": 3},
        request(4, "prompts/get", {"name": "greet", "arguments": {"who": "you"}}), {"after": 4},
        call(5, "boom"), {"after": 5},
        call(6, "trail"),
    ])
    assert answers[1]["result"]["structuredContent"] == {"result": 5}
    assert answers[2]["error"] == {"code": -32602, "message": "Unknown tool: nope"}
    assert answers[3]["error"] == {"code": -32602, "message": "Unknown prompt: nope"}
    assert answers[4]["result"]["messages"][0]["content"]["text"] == "hello you"
    assert answers[5]["error"] == {"code": 0, "message": "the middleware failed"}
    # both middleware saw every request (initialize first), the appended one inside the other
    text = answers[6]["result"]["content"][0]["text"]
    assert text.startswith("trail via initialize,tools/call,tools/call,prompts/get,prompts/get,tools/call,"
                           "tools/call"), text


EVERYTHING_STYLE = '''
    import sys

    from mcp.server.streamable_http import EventCallback, EventMessage, EventStore
    from mcp.server.{module} import {cls}
    from mcp.types import Completion
    {types}

    class InMemoryEventStore(EventStore):
        def __init__(self):
            self.events = []

        async def store_event(self, stream_id, message):
            self.events.append((stream_id, message))
            return str(len(self.events))

        async def replay_events_after(self, last_event_id, send_callback: EventCallback):
            for stream_id, message in self.events[int(last_event_id):]:
                await send_callback(EventMessage(message, last_event_id))
            return None

    event_store = InMemoryEventStore()
    mcp = {cls}(name="everything"{settings})

    @mcp.resource("test://watched")
    def watched() -> str:
        return "watched"

    def record(what):                   # on stderr: each is written before its request is answered
        print("handled " + what, file=sys.stderr, flush=True)

    @mcp.completion()
    async def complete(ref, argument, context):
        return Completion(values=[argument.value + "!", ref.type], total=2, hasMore=False)
    {handlers}

    if __name__ == "__main__":
        mcp.run()
'''
MCP1_HANDLERS = '''
    @mcp._mcp_server.set_logging_level()
    async def set_level(level):
        record("level " + level)

    async def subscribe(uri):
        record("+" + str(uri))

    async def unsubscribe(uri):
        record("-" + str(uri))

    mcp._mcp_server.subscribe_resource()(subscribe)
    mcp._mcp_server.unsubscribe_resource()(unsubscribe)
'''
MCP2_HANDLERS = '''
    async def set_level(ctx, params: SetLevelRequestParams) -> EmptyResult:
        record("level " + params.level)
        return EmptyResult()

    async def subscribe(ctx, params: SubscribeRequestParams) -> EmptyResult:
        record("+" + str(params.uri))
        return EmptyResult()

    async def unsubscribe(ctx, params: UnsubscribeRequestParams) -> EmptyResult:
        record("-" + str(params.uri))
        return EmptyResult()

    mcp._lowlevel_server.add_request_handler("logging/setLevel", SetLevelRequestParams, set_level)
    mcp._lowlevel_server.add_request_handler("resources/subscribe", SubscribeRequestParams, subscribe)
    mcp._lowlevel_server.add_request_handler("resources/unsubscribe", UnsubscribeRequestParams, unsubscribe)
'''
MCP2_TYPES = ("from mcp.server.mcpserver import RequestStateSecurity\n"
              "    from mcp.types import EmptyResult, SetLevelRequestParams, SubscribeRequestParams, "
              "UnsubscribeRequestParams")


def everything(tmp_path, module, cls, handlers, types="", settings=""):
    source = EVERYTHING_STYLE.replace("{module}", module).replace("{cls}", cls).replace("{types}", types)
    source = source.replace("{settings}", ", " + settings if settings else "")
    return serve(tmp_path, source.replace("    {handlers}\n", handlers), [
        request(1, "logging/setLevel", {"level": "debug"}),
        request(2, "resources/subscribe", {"uri": "test://watched"}),
        request(3, "resources/unsubscribe", {"uri": "test://watched"}),
        request(5, "completion/complete", {"ref": {"type": "ref/prompt", "name": "p"},
                                           "argument": {"name": "a", "value": "x"}}),
    ])


def test_mcp1_fastmcp_registers_through_its_lowlevel_server(tmp_path):
    answers, _, stderr = everything(tmp_path, "fastmcp", "FastMCP", MCP1_HANDLERS)
    assert [answers[i].get("result") for i in (1, 2, 3)] == [{}, {}, {}], stderr
    assert answers[0]["result"]["capabilities"]["completions"] == {}
    assert answers[5]["result"] == {"completion": {"values": ["x!", "ref/prompt"], "total": 2, "hasMore": False}}
    # (the three run side by side, as the SDK runs them: in no fixed order)
    assert sorted(line for line in stderr.splitlines() if line.startswith("handled ")) == [
        "handled +test://watched", "handled -test://watched", "handled level debug"]


def test_mcp2_mcpserver_registers_through_its_lowlevel_server(tmp_path):
    answers, _, stderr = everything(tmp_path, "mcpserver", "MCPServer", MCP2_HANDLERS, MCP2_TYPES,
                                    "request_state_security=RequestStateSecurity(keys=[b'k' * 32])")
    assert [answers[i].get("result") for i in (1, 2, 3)] == [{}, {}, {}], stderr
    assert answers[5]["result"] == {"completion": {"values": ["x!", "ref/prompt"], "total": 2, "hasMore": False}}
    # (the three run side by side, as the SDK runs them: in no fixed order)
    assert sorted(line for line in stderr.splitlines() if line.startswith("handled ")) == [
        "handled +test://watched", "handled -test://watched", "handled level debug"]


LOWLEVEL = '''
    import asyncio

    import mcp.server.stdio
    from mcp.server import Server
    from mcp.shared.exceptions import MCPError
    import mcp_types as types

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[types.Tool(name="echo", input_schema={"type": "object"})])

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        return types.CallToolResult(content=[types.TextContent(text=params.name + " " + ctx.method)])

    async def only_echo(ctx, call_next):
        if ctx.method == "tools/call" and ctx.params["name"] != "echo":
            raise MCPError(code=-32602, message="Unknown tool: " + ctx.params["name"])
        result = await call_next(ctx)
        if ctx.method == "tools/list":
            result["tools"].append({"name": "added", "inputSchema": {"type": "object"}})
        return result

    server = Server("low", version="2.0", on_list_tools=list_tools, on_call_tool=call_tool)
    server.middleware.append(only_echo)

    async def run():
        async with mcp.server.stdio.stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    if __name__ == "__main__":
        asyncio.run(run())
'''


def test_lowlevel_server_middleware_wraps_its_handlers(tmp_path):
    answers, _, stderr = serve(tmp_path, LOWLEVEL, [request(1, "tools/list"), call(2, "echo"), call(3, "other")])
    assert [tool["name"] for tool in answers[1]["result"]["tools"]] == ["echo", "added"], stderr
    assert answers[2]["result"]["content"] == [{"type": "text", "text": "echo tools/call"}]
    assert answers[3]["error"] == {"code": -32602, "message": "Unknown tool: other"}
