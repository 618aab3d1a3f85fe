"""What the official SDK's own example servers and the official reference servers showed.

tests/interop/run_sdk_examples.sh runs the example servers of the mcp 1.29.0 and 2.3.0 source
distributions, and tests/interop/run_reference_servers.sh the reference servers from PyPI
(mcp-server-time, -git, -fetch), each under its SDK and unchanged under ``python3 minimcp.py
serve``; every difference they found is a test here, a server's source in and the JSON lines
`serve` writes out, compared with what the SDK sent (the server that showed it is named).
No SDK is installed here: `serve` stands in for it.
"""

import pytest

# The same servers' harness and the same skips: Python 3.10 and later, pydantic where they import it.
from test_sdk_generated_classes import HEADERS, call, needs_pydantic, pydantic, pytestmark, serve  # noqa: F401
from test_sdk_lowlevel import converse        # a client that answers the server's questions
from test_sdk_lowlevel import call as lowlevel_call, serve as lowlevel_serve   # low-level servers' JSON lines


def prompt(name: str, arguments: dict = None) -> tuple:
    return ("prompts/get", {"name": name, "arguments": arguments or {}})


# --- the everything-server: ctx.close_sse_stream() ----------------------------------------------

@pytest.mark.parametrize("dialect", ["mcp1", "mcp2", "fastmcp"])
def test_closing_the_sse_stream_is_a_no_op_that_the_tool_goes_on_after(tmp_path, dialect):
    # mcp 1.29.0's and 2.3.0's everything-server, test_reconnection: the SDK closes the call's HTTP
    # stream for the client to poll, and does nothing over stdio; the tool goes on and answers.
    source = HEADERS[dialect] + '''
@mcp.tool()
async def reconnect(ctx: Context) -> str:
    await ctx.info("Before disconnect")
    await ctx.close_sse_stream()
    await ctx.close_standalone_sse_stream()
    await ctx.info("After reconnect")
    return "Reconnection test completed"
'''
    answers = serve(tmp_path, source, [("logging/setLevel", {"level": "info"}), call("reconnect")])
    assert answers[2]["result"]["content"] == [{"type": "text", "text": "Reconnection test completed"}], answers
    assert "isError" not in answers[2]["result"] or answers[2]["result"]["isError"] is False
    logged = [n["params"]["data"] for n in answers[2]["notifications"] if n["method"] == "notifications/message"]
    assert len(logged) == 2


# --- sse-polling-demo: the low-level request context's close_sse_stream -------------------------

# mcp 1.29.0's and 2.3.0's sse-polling-demo (served over HTTP by run_sdk_examples.sh): a low-level
# handler closes its SSE stream at each checkpoint when the context offers that callback.
POLLING_MCP1 = '''
    import mcp.types as types
    from mcp.server.lowlevel import Server

    app = Server("polling")

    @app.call_tool()
    async def call_tool(name: str, arguments: dict) -> list[types.ContentBlock]:
        ctx = app.request_context
        for i in range(1, 4):
            await ctx.session.send_log_message(level="info", data=f"item {i}", related_request_id=ctx.request_id)
            if ctx.close_sse_stream:
                await ctx.close_sse_stream()
        await ctx.close_standalone_sse_stream()
        return [types.TextContent(type="text", text="processed 3 items")]
'''
POLLING_MCP2 = '''
    import mcp.types as types
    from mcp.server import Server, ServerRequestContext


    async def handle_call_tool(ctx: ServerRequestContext, params: types.CallToolRequestParams) -> types.CallToolResult:
        for i in range(1, 4):
            await ctx.session.send_log_message(level="info", data=f"item {i}", related_request_id=ctx.request_id)
            if ctx.close_sse_stream:
                await ctx.close_sse_stream()
        await ctx.close_standalone_sse_stream()
        return types.CallToolResult(content=[types.TextContent(type="text", text="processed 3 items")])


    app = Server("polling", on_call_tool=handle_call_tool)
'''


@pytest.mark.parametrize("source", [POLLING_MCP1, POLLING_MCP2], ids=["mcp1", "mcp2"])
def test_a_low_level_handler_closing_its_sse_stream_goes_on_and_the_client_misses_nothing(tmp_path, source):
    answers, notifications, stderr = lowlevel_serve(tmp_path, source, [lowlevel_call(1, "process", {})])
    assert answers[1]["result"]["content"] == [{"type": "text", "text": "processed 3 items"}], (answers, stderr)
    assert answers[1]["result"].get("isError", False) is False
    assert [n["params"]["data"] for n in notifications if n["method"] == "notifications/message"] == \
        ["item 1", "item 2", "item 3"]


# --- a prompt function that raises -------------------------------------------------------------

PROMPT_RAISES = '''
@mcp.prompt()
def embedded(resourceUri: str) -> str:
    raise ValueError(f"not a URL: {resourceUri}")
'''


@pytest.mark.parametrize("dialect, message", [
    ("mcp1", "Error rendering prompt embedded: not a URL: abc"),
    ("mcp2", "Error rendering prompt embedded"),
    ("fastmcp", "Error rendering prompt 'embedded': not a URL: abc"),
])
def test_a_prompt_function_that_raises_is_worded_as_its_sdk_words_it_with_the_spec_code(tmp_path, dialect, message):
    # mcp 1.29.0's everything-server, test_prompt_with_embedded_resource with resourceUri "abc" (its
    # AnyUrl refuses it): mcp 1.x says code 0 "Error rendering prompt NAME: ...", which no JSON-RPC
    # code is; an internal error is -32603 in every dialect (README, D10).
    answers = serve(tmp_path, HEADERS[dialect] + PROMPT_RAISES, [prompt("embedded", {"resourceUri": "abc"})])
    assert answers[1]["error"] == {"code": -32603, "message": message}


# --- an argument its annotation refuses: pydantic's AnyUrl -------------------------------------

FETCH = '''
from typing import Annotated
from pydantic import AnyUrl, Field


@mcp.tool()
async def fetch(url: Annotated[AnyUrl, Field(description="URL to fetch")], raw: bool = False) -> str:
    return "fetched " + str(url)
'''


@needs_pydantic
@pytest.mark.parametrize("dialect, prefix, title", [
    ("mcp2", "Error executing tool fetch: ", "fetchArguments"),
    ("mcp1", "Error executing tool fetch: ", "fetchArguments"),
])
def test_an_argument_its_pydantic_type_refuses_is_invalid_in_that_pydantics_words(tmp_path, dialect, prefix, title):
    # mcp-server-fetch 2026.10.24, fetch(url="abc"): the SDK's pydantic refuses the URL before the
    # tool runs; the server's own pydantic (it imports AnyUrl) words the refusal under serve too.
    answers = serve(tmp_path, HEADERS[dialect] + FETCH, [call("fetch", {"url": "abc"}),
                                                         call("fetch", {"url": "http://example.com/a"})])
    version = ".".join(pydantic.VERSION.split(".")[:2])
    assert answers[1]["result"] == {"content": [{"type": "text", "text": (
        prefix + "1 validation error for %s\nurl\n  Input should be a valid URL, relative URL without a base "
        "[type=url_parsing, input_value='abc', input_type=str]\n"
        "    For further information visit https://errors.pydantic.dev/%s/v/url_parsing" % (title, version))}],
        "isError": True}
    assert answers[2]["result"]["content"] == [{"type": "text", "text": "fetched http://example.com/a"}]


@needs_pydantic
def test_an_argument_its_annotation_refuses_is_an_invalid_argument_not_a_failed_tool():
    # In minimcp's own dialect too: before 2025-11-25 invalid arguments are -32602, from it an
    # isError result that says the arguments were invalid; the tool never runs.
    from typing import Annotated

    from conftest import Wire
    from minimcp import MCPServer
    ran = []

    def fetch(url: Annotated[pydantic.AnyUrl, pydantic.Field(description="URL to fetch")]) -> str:
        ran.append(url)
        return str(url)

    app = MCPServer("urls")
    app.add_tool(fetch)
    for version in ("2025-06-18", "2025-11-25"):
        wire = Wire(app)
        wire.initialize(version)
        answer = wire.call("tools/call", {"name": "fetch", "arguments": {"url": "abc"}})
        if version == "2025-06-18":
            assert answer["error"]["code"] == -32602 and "url_parsing" in answer["error"]["message"], answer
        else:
            assert answer["result"]["isError"] is True
            assert answer["result"]["content"][0]["text"].startswith("Invalid arguments for tool fetch: "), answer
    assert ran == []


# --- content annotations: mcp 1.x also sends the blocks as structuredContent -------------------

CONTENT = '''
from mcp.types import AudioContent, EmbeddedResource, ImageContent, TextContent, TextResourceContents

PNG = "iVBORw0KGgo="


@mcp.tool()
def image() -> list[ImageContent]:
    return [ImageContent(type="image", data=PNG, mimeType="image/png")]


@mcp.tool()
def embedded() -> list[EmbeddedResource]:
    return [EmbeddedResource(type="resource", resource=TextResourceContents(
        uri="test://embedded", mimeType="text/plain", text="inside"))]


@mcp.tool()
def mixed() -> list[TextContent | ImageContent | AudioContent]:
    return [TextContent(type="text", text="both"), ImageContent(type="image", data=PNG, mimeType="image/png")]
'''

# mcp 1.30.0's schemas of these blocks (pydantic's, read from the SDK, in D1's shortest form)
_NULLABLE_META = {"anyOf": [{"type": "object"}, {"type": "null"}], "default": None}


def _items(listed: dict) -> dict:
    schema = listed["outputSchema"]
    assert schema["type"] == "object" and schema["required"] == ["result"]
    assert schema["properties"]["result"]["type"] == "array"
    return schema["properties"]["result"]["items"]


def test_content_annotations_are_also_structured_content_in_mcp1_as_the_sdk_sends_them(tmp_path):
    # mcp 1.29.0's everything-server: test_image_content, test_audio_content, test_embedded_resource and
    # test_multiple_content_types list pydantic's schema of their blocks and send the blocks twice.
    answers = serve(tmp_path, HEADERS["mcp1"] + CONTENT, [("tools/list", {}), call("image"), call("embedded"),
                                                          call("mixed")])
    listed = {t["name"]: t for t in answers[1]["result"]["tools"]}
    image = _items(listed["image"])
    assert image["description"] == "Image content for a message."
    assert image["required"] == ["type", "data", "mimeType"]
    assert image["properties"]["_meta"] == _NULLABLE_META
    assert image["properties"]["type"] == {"const": "image", "type": "string"}
    resource = _items(listed["embedded"])["properties"]["resource"]["anyOf"]
    assert [r["required"] for r in resource] == [["uri", "text"], ["uri", "blob"]]
    assert [m["description"] for m in _items(listed["mixed"])["anyOf"]] == [
        "Text content for a message.", "Image content for a message.", "Audio content for a message."]
    block = {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
    assert answers[2]["result"] == {"content": [block], "isError": False, "structuredContent": {
        "result": [dict(block, annotations=None, _meta=None)]}}
    assert answers[3]["result"]["structuredContent"] == {"result": [{
        "type": "resource", "annotations": None, "_meta": None,
        "resource": {"uri": "test://embedded", "mimeType": "text/plain", "_meta": None, "text": "inside"}}]}
    assert answers[4]["result"]["structuredContent"] == {"result": [
        {"type": "text", "text": "both", "annotations": None, "_meta": None}, dict(block, annotations=None, _meta=None)]}


def test_content_annotations_are_content_only_in_mcp2(tmp_path):
    # mcp 2.3.0's everything-server: the same tools list no outputSchema and send the blocks once.
    source = HEADERS["mcp2"] + CONTENT.replace('mimeType="image/png"', 'mime_type="image/png"').replace(
        'mimeType="text/plain"', 'mime_type="text/plain"')
    answers = serve(tmp_path, source, [("tools/list", {}), call("image")])
    assert all("outputSchema" not in t for t in answers[1]["result"]["tools"])
    assert answers[2]["result"] == {"content": [{"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}],
                                    "isError": False}


# --- mcp 2.3.0's everything-server: resolvers, InputRequiredResult, the tool manager, ctx ------

RESOLVERS = HEADERS["mcp2"] + '''
from typing import Annotated
from pydantic import BaseModel
from mcp.server.mcpserver import Elicit, ElicitationResult, ListRoots, Resolve, Sample
from mcp.types import SamplingMessage, TextContent


class Word(BaseModel):
    who: str


def ask_word() -> Elicit[Word]:
    return Elicit("Who?", Word)


def shout(who: Annotated[Word, Resolve(ask_word)], punctuation: str) -> str:
    return who.who.upper() + punctuation


@mcp.tool()
async def outcome(answer: Annotated[ElicitationResult[Word], Resolve(ask_word)]) -> str:
    return f"elicitation {answer.action}"


@mcp.tool()
def unwrapped(punctuation: str, loud: Annotated[str, Resolve(shout)]) -> str:
    return loud


def ask_model(topic: str) -> Sample:
    return Sample([SamplingMessage(role="user", content=TextContent(type="text", text=topic))], max_tokens=5)


@mcp.tool()
def sampled(topic: str, said: Annotated[object, Resolve(ask_model)], roots: Annotated[object, Resolve(ListRoots)]) -> str:
    return f"{said.content.text} in {roots.roots[0].uri}"
'''


@needs_pydantic
def test_a_resolver_parameter_is_no_argument_and_is_filled_by_asking(tmp_path):
    # test_streaming_elicitation: the parameter is not in the inputSchema; the resolver's Elicit is asked,
    # and the tool gets the whole outcome (ElicitationResult[T]) or the accepted data (T), resolvers
    # taking the tool's arguments by name and other resolved values.
    listed = serve(tmp_path, RESOLVERS, [("tools/list", {})])[1]["result"]["tools"]
    assert {t["name"]: t["inputSchema"].get("properties", {}) for t in listed} == {
        "outcome": {}, "unwrapped": {"punctuation": {"type": "string"}}, "sampled": {"topic": {"type": "string"}}}
    replies = {"elicitation/create": {"action": "accept", "content": {"who": "Grace"}}}
    answer, asked, stderr = converse(tmp_path, RESOLVERS, [
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "outcome", "arguments": {}}}],
        replies, until=1)
    assert answer["result"]["content"] == [{"type": "text", "text": "elicitation accept"}], stderr
    answer, asked, stderr = converse(tmp_path, RESOLVERS, [{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "unwrapped", "arguments": {"punctuation": "!"}}}], replies, until=1)
    assert asked == ["elicitation/create"] and answer["result"]["content"] == [{"type": "text", "text": "GRACE!"}]
    replies = {"sampling/createMessage": {"role": "assistant", "model": "m", "content": {"type": "text", "text": "Ada"}},
               "roots/list": {"roots": [{"uri": "file:///work"}]}}
    answer, asked, stderr = converse(tmp_path, RESOLVERS, [{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "sampled", "arguments": {"topic": "who?"}}}], replies, until=1)
    assert asked == ["sampling/createMessage", "roots/list"], stderr
    assert answer["result"]["content"] == [{"type": "text", "text": "Ada in file:///work"}], stderr


@needs_pydantic
def test_a_resolvers_question_to_a_client_that_cannot_answer_it_is_the_spec_error_naming_the_resolver(tmp_path):
    # mcp 2.3.0 answers -32021 before asking, naming the capability and the resolver (module:qualname).
    answers = serve(tmp_path, RESOLVERS, [call("outcome")])
    assert answers[1]["error"] == {"code": -32021, "message": "Client did not declare the form elicitation capability "
                                   "required by resolver 'server:ask_word'",
                                   "data": {"requiredCapabilities": {"elicitation": {"form": {}}}}}


INPUT_REQUIRED = HEADERS["mcp2"] + '''
from mcp.server.mcpserver.prompts.base import UserMessage
from mcp.types import ElicitRequest, ElicitRequestFormParams, InputRequiredResult, ListRootsRequest


@mcp.tool()
async def name(ctx: Context) -> str | InputRequiredResult:
    if ctx.input_responses and "user_name" in ctx.input_responses:
        return "Hello"
    ask = ElicitRequest(params=ElicitRequestFormParams(message="Name?", requested_schema={"type": "object"}))
    return InputRequiredResult(input_requests={"user_name": ask}, request_state="round-1")


@mcp.tool()
async def roots(ctx: Context) -> InputRequiredResult:
    caps = ctx.client_capabilities
    return InputRequiredResult(input_requests={"r": ListRootsRequest()} if caps.roots is not None else {})


@mcp.prompt()
async def asking(ctx: Context) -> list[UserMessage] | InputRequiredResult:
    return InputRequiredResult(input_requests={"r": ListRootsRequest()})
'''


def test_a_handlers_own_input_required_result_is_listed_without_that_arm_and_refused_as_the_sdk_refuses_it(tmp_path):
    # The test_input_required_result_* tools and prompt: mcp 2.3.0 lists `-> str | InputRequiredResult` as
    # `-> str` (and `-> InputRequiredResult` with no outputSchema), and before 2026-07-28 answers the
    # result with -32603 "Handler returned an invalid result".
    answers = serve(tmp_path, INPUT_REQUIRED, [("tools/list", {}), call("name"), call("roots"), prompt("asking")])
    listed = {t["name"]: t for t in answers[1]["result"]["tools"]}
    assert listed["name"]["outputSchema"] == {"type": "object", "properties": {"result": {"type": "string"}},
                                              "required": ["result"]}
    assert "outputSchema" not in listed["roots"]
    for index in (2, 3, 4):
        assert answers[index]["error"] == {"code": -32603, "message": "Handler returned an invalid result"}, answers


TOOL_MANAGER = HEADERS["mcp2"] + '''
from mcp.server.mcpserver.prompts.base import Prompt
from mcp.shared.exceptions import MCPError

SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}}, "additionalProperties": False}


@mcp.tool()
def fixed() -> str:
    return "fixed"


mcp._tool_manager._tools["fixed"].parameters = SCHEMA


def _dynamic() -> str:
    return "dynamic"


@mcp.tool()
async def churn(ctx: Context) -> str:
    mcp.add_tool(_dynamic, name="dynamic_tool")
    mcp.remove_tool("dynamic_tool")
    await ctx.notify_tools_changed()
    mcp.add_prompt(Prompt.from_function(_dynamic, name="dynamic_prompt", description="dynamic"))
    mcp.remove_prompt("dynamic_prompt")
    await ctx.notify_prompts_changed()
    return "changed"


@mcp.tool()
async def needs_sampling(ctx: Context) -> str:
    if ctx.session.client_capabilities.sampling is None:
        raise MCPError(code=-32021, message="needs sampling", data={"requiredCapabilities": {"sampling": {}}})
    return "sampled"
'''


def test_the_tool_managers_parameters_replace_the_listing_and_ctx_speaks_mcp_2_3(tmp_path):
    # json_schema_2020_12_tool's inputSchema set through mcp._tool_manager._tools: listed as set, while the
    # call is judged by the function (mcp 2.3.0 takes {"name": {...}} for a function without parameters);
    # test_trigger_tool_change and test_trigger_prompt_change; test_missing_capability's ctx.session.
    answers = serve(tmp_path, TOOL_MANAGER, [("tools/list", {}), call("fixed", {"name": {"unexpected": 1}}),
                                             call("churn"), call("needs_sampling")])
    listed = {t["name"]: t for t in answers[1]["result"]["tools"]}
    assert listed["fixed"]["inputSchema"] == {"type": "object", "properties": {"name": {"type": "string"}},
                                              "additionalProperties": False}
    assert answers[2]["result"]["content"] == [{"type": "text", "text": "fixed"}]
    assert answers[3]["result"]["content"] == [{"type": "text", "text": "changed"}], answers["stderr"]
    # the calls run at once: churn's notifications come before its answer, but perhaps before another's too
    changed = [n["method"] for i in (1, 2, 3, 4) for n in answers[i]["notifications"]]
    assert changed.count("notifications/tools/list_changed") >= 1 and "notifications/prompts/list_changed" in changed
    assert answers[4]["error"] == {"code": -32021, "message": "needs sampling",
                                   "data": {"requiredCapabilities": {"sampling": {}}}}
