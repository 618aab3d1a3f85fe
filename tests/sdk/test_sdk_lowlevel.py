"""Servers written with the official SDK's low-level ``Server`` run unchanged under ``serve`` (issue 38).

Each test writes a server file as the SDK's users write it (mcp 1.x's decorators, mcp 2.x's
``on_*`` handlers, the tutorials' ``@server.tool()``), starts it with ``python3 minimcp.py serve
FILE`` (no SDK installed: minimcp stands in for ``mcp`` and ``mcp_types``), writes JSON-RPC lines
to its stdin and reads the JSON lines it answers. The answers expected are the SDK's own, as
mcp 1.29.0 and 2.3.0 give them for the same file (their wording included), but where the
README's table of deliberate differences says otherwise (capabilities, D10).
"""

import importlib.util
import json
import subprocess
import sys
import textwrap
import threading

import pytest

from conftest import SERVE

HELLO = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"}]


def request(request_id, method, params=None):
    message = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def call(request_id, name, arguments=None, **params):
    return request(request_id, "tools/call", dict(params, name=name, arguments=arguments or {}))


def serve(tmp_path, source, messages, python=sys.executable, name="server.py", env=None, arguments=()):
    """Serve ``source`` (a server file) with ``messages``: (answers by id, notifications, its stderr).

    An ``{"after": ID}`` among the messages holds the rest back until request ID is answered,
    for a client that waits, as one must where the order of two requests matters: the server
    runs what it is sent at once, each on its own thread.
    Stdin stays open until every request is answered: its end is the client leaving, which
    cancels what still runs (as in the SDK), and the answers of cancelled calls are never sent.
    """
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    messages = HELLO + list(messages)
    waiting = {m["id"] for m in messages if "id" in m}
    process = subprocess.Popen([python] + SERVE[1:] + [str(path)] + list(arguments), cwd=str(tmp_path),
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    timer = threading.Timer(60, process.kill)       # a hung server fails the test instead of hanging it
    timer.start()

    def send_until_held():
        while messages and "after" not in messages[0]:
            process.stdin.write(json.dumps(messages.pop(0)).encode() + b"\n")
        process.stdin.flush()

    try:
        send_until_held()
        answers, notifications = {}, []
        for line in process.stdout:
            message = json.loads(line)               # stdout holds nothing but JSON-RPC
            if "id" in message and "method" not in message:
                answers[message["id"]] = message
                waiting.discard(message["id"])
            else:
                notifications.append(message)
            if messages and messages[0]["after"] in answers:
                messages.pop(0)
                send_until_held()
            if not waiting:
                break
        process.stdin.close()
        stderr = process.stderr.read().decode()
        process.wait()
    finally:
        timer.cancel()
    assert not waiting, stderr
    return answers, notifications, stderr


def text(answer):
    return [block["text"] for block in answer["result"]["content"]]


SEED = '''
    from mcp.server import Server
    from mcp.server.stdio import stdio_server

    server = Server("my-mcp-server")

    @server.tool()
    async def read_file(path: str) -> str:
        """Read a file's contents."""
        with open(path, 'r') as f:
            return f.read()

    async def main():
        async with stdio_server() as streams:
            await server.run(streams[0], streams[1], server.create_initialization_options())
'''


def test_the_tutorials_server_lists_read_file_and_returns_the_files_text(tmp_path):
    # The issue's example: @server.tool() on a low-level Server, which the SDK refuses; main() is never called.
    (tmp_path / "notes.txt").write_text("first line\nsecond line\n")
    answers, _, _ = serve(tmp_path, SEED, [request(1, "tools/list"),
                                           call(2, "read_file", {"path": str(tmp_path / "notes.txt")})])
    assert answers[0]["result"]["serverInfo"]["name"] == "my-mcp-server"
    [tool] = answers[1]["result"]["tools"]
    assert tool["name"] == "read_file" and tool["description"] == "Read a file's contents."
    assert tool["inputSchema"]["required"] == ["path"]
    assert text(answers[2]) == ["first line\nsecond line\n"] and answers[2]["result"]["isError"] is False


MCP1 = '''
    import asyncio
    from contextlib import asynccontextmanager
    from typing import List, Optional

    import mcp.server.stdio
    import mcp.types as types
    from mcp.server.lowlevel import NotificationOptions, Server
    from mcp.server.lowlevel.helper_types import ReadResourceContents
    from mcp.server.models import InitializationOptions
    from mcp.shared.exceptions import McpError

    @asynccontextmanager
    async def lifespan(server):
        yield {"db": "open", "loop": asyncio.get_running_loop()}

    server = Server("weather", lifespan=lifespan)
    levels = []

    @server.list_tools()
    async def list_tools() -> List[types.Tool]:
        return [
            types.Tool(name="add", description="Add two numbers", inputSchema={
                "type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
                "required": ["a", "b"]}),
            types.Tool(name="forecast", description="A forecast", inputSchema={"type": "object"},
                       outputSchema={"type": "object", "properties": {"celsius": {"type": "number"}},
                                     "required": ["celsius"]}),
            types.Tool(name="context", inputSchema={"type": "object"}),
        ]

    @server.call_tool()
    async def call_tool(name: str, arguments: dict):
        if name == "add":
            return [types.TextContent(type="text", text=str(arguments["a"] + arguments["b"]))]
        if name == "forecast":
            return {"celsius": "warm"} if arguments.get("wrong") else {"celsius": 21.5}
        if name == "context":
            ctx = server.request_context
            await ctx.session.send_log_message(level="info", data="looking", logger="weather")
            await ctx.session.send_progress_notification(ctx.meta.progressToken, 1, 2)
            on_loop = ctx.lifespan_context["loop"] is asyncio.get_running_loop()
            return [types.TextContent(type="text", text="%s %s %s %s" % (
                ctx.request_id, ctx.lifespan_context["db"], on_loop, levels))]
        if name == "refused":
            raise McpError(types.ErrorData(code=-32000, message="not today"))
        if name == "broken":
            raise RuntimeError("the sensor is down")
        return None                      # an unknown tool, as many servers leave it

    @server.list_resources()
    async def list_resources() -> List[types.Resource]:
        return [types.Resource(uri="file:///report.txt", name="report", mimeType="text/plain")]

    @server.read_resource()
    async def read_resource(uri):
        if uri.path == "/report.txt":
            return [ReadResourceContents(content="sunny", mime_type="text/plain")]
        if uri.path == "/raw.bin":
            return b"\\x00\\x01"
        if uri.scheme == "secret":
            raise McpError(types.ErrorData(code=-32002, message="hidden", data={"uri": str(uri)}))
        raise ValueError(f"Unknown resource: {uri}")

    @server.list_prompts()
    async def list_prompts() -> List[types.Prompt]:
        return [types.Prompt(name="brief", arguments=[types.PromptArgument(name="city", required=True)])]

    @server.get_prompt()
    async def get_prompt(name: str, arguments: Optional[dict]) -> types.GetPromptResult:
        if name != "brief":
            raise ValueError(f"Unknown prompt: {name}")
        return types.GetPromptResult(description="A brief", messages=[types.PromptMessage(
            role="user", content=types.TextContent(type="text", text="Weather in " + arguments["city"]))])

    @server.completion()
    async def completion(ref, argument, context):
        if ref.type == "ref/prompt" and argument.name == "city":
            return types.Completion(values=[c for c in ["Oslo", "Osaka"] if c.startswith(argument.value)])
        return None

    @server.set_logging_level()
    async def set_level(level):
        levels.append(level)

    async def run():
        async with mcp.server.stdio.stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, InitializationOptions(
                server_name="weather-example", server_version="0.1.0",
                capabilities=server.get_capabilities(notification_options=NotificationOptions(),
                                                     experimental_capabilities={})))

    if __name__ == "__main__":
        asyncio.run(run())
'''


def test_mcp1_tools_validate_arguments_and_structured_output_as_1x_does(tmp_path):
    answers, _, stderr = serve(tmp_path, MCP1, [
        request(1, "tools/list"), call(2, "add", {"a": 1, "b": 2}), call(3, "add", {"a": 1}),
        call(4, "add", {"a": 1, "b": "2"}), call(5, "forecast"), call(6, "forecast", {"wrong": True}),
        call(7, "refused"), call(8, "broken"), call(9, "nowhere")])
    assert [t["name"] for t in answers[1]["result"]["tools"]] == ["add", "forecast", "context"]
    assert answers[2]["result"] == {"content": [{"type": "text", "text": "3"}], "isError": False}
    assert text(answers[3]) == ["Input validation error: 'b' is a required property"]
    assert text(answers[4]) == ["Input validation error: '2' is not of type 'integer'"]
    assert answers[5]["result"] == {"content": [{"type": "text", "text": '{\n  "celsius": 21.5\n}'}],
                                    "structuredContent": {"celsius": 21.5}, "isError": False}
    assert text(answers[6]) == ["Output validation error: 'warm' is not of type 'number'"]
    assert text(answers[7]) == ["not today"] and text(answers[8]) == ["the sensor is down"]
    assert text(answers[9]) == ["Unexpected return type from tool: NoneType"]
    assert all(answers[i]["result"]["isError"] for i in (3, 4, 6, 7, 8, 9)), stderr


def test_mcp1_says_what_its_initialization_options_say_and_runs_handlers_on_the_scripts_loop(tmp_path):
    answers, notifications, _ = serve(tmp_path, MCP1, [
        request(1, "logging/setLevel", {"level": "warning"}), {"after": 1},   # the call reads what it set
        call(2, "context", _meta={"progressToken": "p1"})])
    initialized = answers[0]["result"]
    assert initialized["serverInfo"] == {"name": "weather-example", "version": "0.1.0"}
    assert {"tools", "resources", "prompts", "completions"} <= set(initialized["capabilities"])
    assert initialized["capabilities"]["tools"] == {"listChanged": False}     # NotificationOptions()
    assert answers[1]["result"] == {}
    # the lifespan's loop is the handler's: asyncio.run(run()) in the script's __main__ block ran both
    assert text(answers[2]) == ["2 open True ['warning']"]
    assert {"jsonrpc": "2.0", "method": "notifications/progress",
            "params": {"progressToken": "p1", "progress": 1, "total": 2}} in notifications
    # the client asked for warning and above: the SDK's session would still send it; minimcp filters
    assert not [n for n in notifications if n["method"] == "notifications/message"]


def test_mcp1_resources_prompts_and_completion_answer_as_1x_does(tmp_path):
    answers, _, _ = serve(tmp_path, MCP1, [
        request(1, "resources/list"), request(2, "resources/read", {"uri": "file:///report.txt"}),
        request(3, "resources/read", {"uri": "file:///raw.bin"}),
        request(4, "resources/read", {"uri": "file:///missing.txt"}),
        request(5, "resources/read", {"uri": "secret://x"}),
        request(6, "prompts/get", {"name": "brief", "arguments": {"city": "Oslo"}}),
        request(7, "prompts/get", {"name": "other"}),
        request(8, "completion/complete", {"ref": {"type": "ref/prompt", "name": "brief"},
                                           "argument": {"name": "city", "value": "Os"}}),
        request(9, "completion/complete", {"ref": {"type": "ref/prompt", "name": "brief"},
                                           "argument": {"name": "day", "value": ""}})])
    assert answers[1]["result"] == {"resources": [{"name": "report", "uri": "file:///report.txt",
                                                   "mimeType": "text/plain"}]}
    assert answers[2]["result"] == {"contents": [{"uri": "file:///report.txt", "mimeType": "text/plain",
                                                  "text": "sunny"}]}
    assert answers[3]["result"] == {"contents": [{"uri": "file:///raw.bin", "mimeType": "application/octet-stream",
                                                  "blob": "AAE="}]}
    assert answers[4]["error"] == {"code": 0, "message": "Unknown resource: file:///missing.txt"}
    assert answers[5]["error"] == {"code": -32002, "message": "hidden", "data": {"uri": "secret://x"}}
    assert answers[6]["result"] == {"description": "A brief", "messages": [
        {"role": "user", "content": {"type": "text", "text": "Weather in Oslo"}}]}
    assert answers[7]["error"] == {"code": 0, "message": "Unknown prompt: other"}
    assert answers[8]["result"] == {"completion": {"values": ["Oslo", "Osaka"]}}
    assert answers[9]["result"] == {"completion": {"values": []}}


MCP2 = '''
    import asyncio
    from typing import Optional

    import mcp.server.stdio
    import mcp_types as types
    from mcp.server import Server, ServerRequestContext
    from mcp.shared.exceptions import MCPError


    async def list_tools(ctx: ServerRequestContext, params: Optional[types.PaginatedRequestParams]) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[types.Tool(
            name="echo", description="Echo", input_schema={"type": "object", "properties": {"text": {"type": "string"}}})])


    async def call_tool(ctx: ServerRequestContext, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name == "echo":
            await ctx.session.send_log_message(level="info", data="echoing")
            said = params.arguments["text"]
            return types.CallToolResult(content=[types.TextContent(type="text", text=said)],
                                        structured_content={"text": said})
        if params.name == "refused":
            raise MCPError(code=-32602, message="no such thing", data="refused")
        raise ValueError(f"Unknown tool: {params.name}")


    async def read_resource(ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        return types.ReadResourceResult(contents=[types.TextResourceContents(uri=params.uri, text="x", mime_type="text/x")])


    server = Server("echo", version="2.0", on_list_tools=list_tools, on_call_tool=call_tool,
                    on_read_resource=read_resource)


    async def run():
        async with mcp.server.stdio.stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())


    if __name__ == "__main__":
        asyncio.run(run())
'''


def test_mcp2_handlers_get_typed_params_and_answer_as_2x_does(tmp_path):
    answers, notifications, stderr = serve(tmp_path, MCP2, [
        request(1, "tools/list"), call(2, "echo", {"text": "hi"}), call(4, "refused"), call(5, "other"), request(6, "resources/read", {"uri": "note://a"}),
        request(7, "prompts/list"), request(8, "resources/list")])
    assert answers[0]["result"]["serverInfo"] == {"name": "echo", "version": "2.0"}
    # the SDK declares resources only with on_list_resources; minimcp offers what it answers (D10)
    assert set(answers[0]["result"]["capabilities"]) == {"tools", "resources", "logging"}
    assert answers[1]["result"]["tools"] == [{"name": "echo", "description": "Echo", "inputSchema": {
        "type": "object", "properties": {"text": {"type": "string"}}}}]
    assert answers[2]["result"] == {"content": [{"type": "text", "text": "hi"}], "structuredContent": {"text": "hi"},
                                    "isError": False}
    assert answers[4]["error"] == {"code": -32602, "message": "no such thing", "data": "refused"}
    assert answers[5]["error"] == {"code": 0, "message": "Unknown tool: other"}
    assert answers[6]["result"] == {"contents": [{"uri": "note://a", "mimeType": "text/x", "text": "x"}]}
    assert answers[7]["error"]["code"] == -32601                      # no prompts: method not found
    # resources are offered (a read handler), but none lists them: as the SDK, no such method
    assert answers[8]["error"] == {"code": -32601, "message": "Method not found", "data": "resources/list"}
    assert {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "echoing"}} \
        in notifications, stderr


TYPES = '''
    import json
    import mcp.types as types
    import mcp_types
    from mcp.server.lowlevel import Server

    server = Server("types")

    @server.list_tools()
    async def list_tools():
        return [types.Tool(name="show", inputSchema={"type": "object"},
                           annotations=types.ToolAnnotations(readOnlyHint=True), meta={"k": 1})]

    @server.call_tool()
    async def call_tool(name, arguments):
        tool = types.Tool(name="t", input_schema={"type": "object"}, title=None)
        block = types.TextContent(type="text", text="hi")
        shown = {
            "same_module": types.TextContent is mcp_types.TextContent,
            "aliases": [tool.inputSchema == tool.input_schema, tool.outputSchema, tool.title],
            "python_names": tool.model_dump(exclude_none=True),
            "wire": tool.model_dump(by_alias=True, exclude_none=True),
            "all": block.model_dump(),
            "json": types.Resource(name="r", uri="file:///r").model_dump(mode="json", exclude_none=True),
            "equal": [block == types.TextContent(type="text", text="hi"), block == types.TextContent(type="text", text="x")],
            "validated": types.CallToolResult.model_validate({"content": [], "isError": True}).isError,
            "error": types.ErrorData(code=1, message="m").model_dump(exclude_none=True),
            "defaults": types.CallToolResult(content=[]).model_dump(by_alias=True, exclude_none=True),
        }
        return [types.TextContent(type="text", text=json.dumps(shown, sort_keys=True))]
'''


def test_types_are_light_models_with_the_sdks_names_aliases_and_dumps(tmp_path):
    answers, _, stderr = serve(tmp_path, TYPES, [request(1, "tools/list"), call(2, "show")])
    assert answers[1]["result"]["tools"] == [{"name": "show", "inputSchema": {"type": "object"},
                                              "annotations": {"readOnlyHint": True}, "_meta": {"k": 1}}]
    shown = json.loads(text(answers[2])[0])
    assert shown == {
        "same_module": True, "aliases": [True, None, None],
        "python_names": {"name": "t", "inputSchema": {"type": "object"}},
        "wire": {"name": "t", "inputSchema": {"type": "object"}},
        "all": {"type": "text", "text": "hi", "annotations": None, "meta": None},
        "json": {"name": "r", "uri": "file:///r"},
        "equal": [True, False], "validated": True,
        "error": {"code": 1, "message": "m"},
        "defaults": {"content": [], "isError": False},
    }, stderr


BARE = '''
    from contextlib import asynccontextmanager
    import mcp.types as types
    from mcp.server.lowlevel import Server

    @asynccontextmanager
    async def lifespan(server):
        yield {"opened": True}

    server = Server("bare", lifespan=lifespan)

    @server.list_tools()
    async def list_tools():
        return [types.Tool(name="ping", inputSchema={"type": "object"})]

    @server.call_tool()
    async def call_tool(name, arguments):
        return [types.TextContent(type="text", text=str(server.request_context.lifespan_context))]
'''


def test_a_server_file_that_never_starts_its_server_is_served_with_its_lifespan(tmp_path):
    # No __main__ block (a host runs `serve FILE`): minimcp runs it on an event loop of its own.
    answers, _, _ = serve(tmp_path, BARE, [request(1, "tools/list"), call(2, "ping")])
    assert answers[0]["result"]["serverInfo"]["name"] == "bare"
    assert text(answers[2]) == ["{'opened': True}"]


@pytest.mark.parametrize("backend", ["asyncio", "trio"])
def test_anyio_run_starts_it_on_the_loop_anyio_runs(tmp_path, backend):
    if importlib.util.find_spec("anyio") is None or importlib.util.find_spec(backend) is None:
        pytest.skip("anyio (and %s) are not installed" % backend)
    source = MCP2.replace("asyncio.run(run())", "anyio.run(run, backend=%r)" % backend).replace(
        "import asyncio", "import anyio")
    answers, _, _ = serve(tmp_path, source, [call(1, "echo", {"text": "on " + backend})])
    assert text(answers[1]) == ["on " + backend]


ASKING = '''
    import asyncio
    import mcp.server.stdio
    import mcp.types as types
    from mcp.server.lowlevel import Server
    from mcp.server.session import ServerSession

    server = Server("asking")

    @server.list_tools()
    async def list_tools():
        return [types.Tool(name="ask", inputSchema={"type": "object"})]

    @server.call_tool()
    async def call_tool(name, arguments):
        session = server.request_context.session
        assert isinstance(session, ServerSession)
        roots = await session.list_roots()
        sampled = await session.create_message(
            messages=[types.SamplingMessage(role="user", content=types.TextContent(type="text", text="name it"))],
            max_tokens=10)
        elicited = await session.elicit("Who?", {"type": "object", "properties": {"who": {"type": "string"}}})
        return [types.TextContent(type="text", text="%s %s %s %s" % (
            roots.roots[0].uri.path, sampled.content.text, elicited.action, elicited.content["who"]))]

    async def run():
        async with mcp.server.stdio.stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    if __name__ == "__main__":
        asyncio.run(run())
'''


def converse(tmp_path, source, messages, replies, until):
    """Serve ``source``, send ``messages`` (after an initialize that declares roots, sampling and
    elicitation), answer the server's requests from ``replies`` (by method) until the answer to
    request ``until`` arrives: (that answer, the methods the server asked, its stderr)."""
    path = tmp_path / "server.py"
    path.write_text(textwrap.dedent(source))
    process = subprocess.Popen([sys.executable] + SERVE[1:] + [str(path)], cwd=str(tmp_path),
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    timer = threading.Timer(60, process.kill)
    timer.start()
    hello = dict(HELLO[0], params=dict(HELLO[0]["params"], capabilities={
        "roots": {}, "sampling": {}, "elicitation": {}}))

    def send(message):
        process.stdin.write(json.dumps(message).encode() + b"\n")
        process.stdin.flush()
    try:
        for message in [hello, HELLO[1]] + list(messages):
            send(message)
        asked, answer = [], None
        for line in process.stdout:
            message = json.loads(line)
            if message.get("method") in replies:             # the server asks (its ids are its own)
                asked.append(message["method"])
                send({"jsonrpc": "2.0", "id": message["id"], "result": replies[message["method"]]})
            elif message.get("id") == until and "method" not in message:
                answer = message
                break
        process.stdin.close()
        stderr = process.stderr.read().decode()
        process.wait()
    finally:
        timer.cancel()
    return answer, asked, stderr


REPLIES = {"roots/list": {"roots": [{"uri": "file:///work/repo", "name": "repo"}]},
           "sampling/createMessage": {"role": "assistant", "model": "m", "content": {"type": "text", "text": "Ada"}},
           "elicitation/create": {"action": "accept", "content": {"who": "Grace"}}}


def test_a_handler_asks_the_client_through_request_context_session(tmp_path):
    # roots/list, sampling/createMessage and elicitation/create go to the client while the
    # handler awaits them on the script's loop; the client's answers come back as the SDK's models.
    answer, asked, stderr = converse(tmp_path, ASKING, [call(1, "ask")], REPLIES, until=1)
    assert asked == ["roots/list", "sampling/createMessage", "elicitation/create"], stderr
    assert text(answer) == ["/work/repo Ada accept Grace"], stderr


LISTING_ROOTS = ASKING.replace('''        return [types.Tool(name="ask", inputSchema={"type": "object"})]''', '''        roots = await server.request_context.session.list_roots()
        return [types.Tool(name="in_" + root.name, inputSchema={"type": "object"}) for root in roots.roots]''')


def test_a_list_handler_may_ask_the_client_too(tmp_path):
    # tools/list is answered on the thread that reads the connection; a handler that waited
    # there for the client's roots would wait for an answer nobody read.
    answer, asked, stderr = converse(tmp_path, LISTING_ROOTS, [request(1, "tools/list")], REPLIES, until=1)
    assert asked == ["roots/list"] and answer["result"]["tools"][0]["name"] == "in_repo", stderr


SUBSCRIBING = '''
    import asyncio
    import mcp.server.stdio
    import mcp.types as types
    from mcp.server.lowlevel import Server

    server = Server("subscribing")
    seen = []

    @server.subscribe_resource()
    async def subscribe(uri):
        seen.append("subscribed " + str(uri))

    @server.unsubscribe_resource()
    async def unsubscribe(uri):
        seen.append("unsubscribed " + str(uri))

    @server.progress_notification()
    async def progress(token, value, total, message):
        seen.append("progress %s %s/%s %s" % (token, value, total, message))

    @server.list_tools()
    async def list_tools():
        return [types.Tool(name="touch", inputSchema={"type": "object"})]

    @server.call_tool()
    async def call_tool(name, arguments):
        await server.request_context.session.send_resource_updated("file:///watched")
        return [types.TextContent(type="text", text="; ".join(seen))]

    async def run():
        async with mcp.server.stdio.stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    if __name__ == "__main__":
        asyncio.run(run())
'''


def test_subscriptions_and_the_clients_progress_reach_their_handlers(tmp_path):
    answers, notifications, stderr = serve(tmp_path, SUBSCRIBING, [
        request(1, "resources/subscribe", {"uri": "file:///watched"}), {"after": 1},
        {"jsonrpc": "2.0", "method": "notifications/progress",
         "params": {"progressToken": "t", "progress": 1, "total": 4, "message": "uploading"}},
        call(2, "touch"), {"after": 2},          # touched while subscribed, then no more
        request(3, "resources/unsubscribe", {"uri": "file:///watched"}), {"after": 3}, call(4, "touch")])
    assert answers[1]["result"] == {} and answers[3]["result"] == {}
    assert text(answers[2]) == ["subscribed file:///watched; progress t 1/4 uploading"], stderr
    assert text(answers[4])[0].endswith("; unsubscribed file:///watched")
    updated = [n for n in notifications if n["method"] == "notifications/resources/updated"]
    assert updated == [{"jsonrpc": "2.0", "method": "notifications/resources/updated",
                        "params": {"uri": "file:///watched"}}]          # once: the second touch is unsubscribed


def test_tool_annotations_and_prompt_messages_read_as_the_sdks_models(tmp_path):
    source = TYPES.replace('''        shown = {''', '''        annotations = types.ToolAnnotations(readOnlyHint=True)
        message = types.PromptMessage(role="assistant", content=types.TextContent(type="text", text="x"))
        shown = {
            "annotations": [annotations.readOnlyHint, annotations.read_only_hint, annotations.destructiveHint,
                            annotations.model_dump(exclude_none=True)],
            "message": [message.role, message.model_dump()],''')
    answers, _, stderr = serve(tmp_path, source, [call(1, "show")])
    shown = json.loads(text(answers[1])[0])
    assert shown["annotations"] == [True, True, None, {"readOnlyHint": True}], stderr
    assert shown["message"] == ["assistant", {"role": "assistant", "content": {"type": "text", "text": "x"}}]


def test_a_method_of_a_kind_the_server_does_not_offer_is_worded_as_the_sdk_words_it(tmp_path):
    # the SDK's example servers and mcp-server-time offer tools only: prompts/list is -32601
    # "Method not found" there; the code is the spec's in every dialect, the wording the dialect's
    answers, _, _ = serve(tmp_path, '''
        import asyncio
        from mcp.server.lowlevel import Server
        from mcp.server.stdio import stdio_server
        import mcp.types as types

        server = Server("only-tools")

        @server.list_tools()
        async def list_tools():
            return [types.Tool(name="noop", description="Nothing.", inputSchema={"type": "object"})]

        async def main():
            async with stdio_server() as (read, write):
                await server.run(read, write, server.create_initialization_options())

        if __name__ == "__main__":
            asyncio.run(main())
    ''', [request(1, "prompts/list"), request(2, "resources/read", {"uri": "file:///x"})])
    assert answers[1]["error"] == {"code": -32601, "message": "Method not found"}
    assert answers[2]["error"] == {"code": -32601, "message": "Method not found"}
    own, _, _ = serve(tmp_path, '''
        from minimcp import MCPServer
        app = MCPServer("only-tools")

        @app.tool()
        def noop() -> str:
            """Nothing."""
            return ""
    ''', [request(1, "prompts/list")], name="own.py")
    assert own[1]["error"] == {"code": -32601, "message": "Method not found: prompts/list (this server offers no prompts)"}



SLOW_LOW_LEVEL_LIST = '''
    import asyncio
    import mcp.types as types
    from mcp.server.lowlevel import Server

    server = Server("slow-list")


    @server.list_tools()
    async def list_tools() -> list:
        await asyncio.sleep(0.3)                 # still listing when the client's input ends
        return [types.Tool(name="t", inputSchema={"type": "object"})]
'''

SLOW_MIDDLEWARE = '''
    import asyncio
    from mcp.server.mcpserver import MCPServer


    async def passing(ctx, call_next):
        await asyncio.sleep(0.3)                 # still passing it on when the client's input ends
        return await call_next(ctx)

    app = MCPServer("slow-middleware", middleware=[passing])


    @app.prompt()
    def ask() -> str:
        return "ask"
'''


@pytest.mark.parametrize("source, method, listed", [(SLOW_LOW_LEVEL_LIST, "tools/list", ("tools", "t")),
                                                    (SLOW_MIDDLEWARE, "prompts/list", ("prompts", "ask"))],
                         ids=["low-level list", "middleware"])
def test_a_list_its_author_answers_is_answered_when_input_ends_while_it_runs(tmp_path, source, method, listed):
    # A list the core answers on the reading thread is handed to a thread of its own when the
    # author's handler (or middleware) may wait. Input ending at once (printf ... | server)
    # cancels it as any call in flight, and it is answered once: its list if it was done, else
    # the stop's error. (The low-level list was lost, unanswered, one run in twenty with no wait
    # and every run with this one: nobody waited for its thread, and the process ended first;
    # the middleware's, which was in flight, now goes the same way.)
    (tmp_path / "server.py").write_text(textwrap.dedent(source))
    lines = HELLO + [request(1, method)]
    done = subprocess.run(SERVE + [str(tmp_path / "server.py")], cwd=str(tmp_path), timeout=60,
                          input=b"".join(json.dumps(m).encode() + b"\n" for m in lines),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    answers = {m.get("id"): m for m in map(json.loads, done.stdout.splitlines())}
    assert done.returncode == 0 and set(answers) == {0, 1}, (done.stdout, done.stderr.decode())
    assert len(done.stdout.splitlines()) == 2, done.stdout
    if "result" in answers[1]:
        assert [entry["name"] for entry in answers[1]["result"][listed[0]]] == [listed[1]]
    else:
        assert answers[1]["error"] == {"code": -32603, "message": "the server is shutting down"}, answers[1]
