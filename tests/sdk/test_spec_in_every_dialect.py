"""What the spec fixes is the same in every dialect (issue 35): a dialect words and lays out
what the spec leaves open; error codes and capabilities are the spec's.

Each test runs against a server built every way a user builds one: ``MCPServer()`` with no
dialect (what a newcomer gets), each ``dialect=`` by name, and the SDK classes a server
written for the official SDK or fastmcp constructs. The tests drive the server over a pipe
and read the lines it writes.
"""

import pytest

from conftest import Wire, envelope
import minimcp
from minimcp import Context, MCPServer

MISSING_CLIENT_CAPABILITY = -32021


def _server(how: str) -> MCPServer:
    if how == "no dialect":
        return MCPServer("probe")
    if how == "minimcp.FastMCP":                    # `from mcp.server.fastmcp import FastMCP` under serve
        return minimcp.FastMCP("probe")
    return MCPServer("probe", dialect=how)


SERVERS = ["no dialect", "minimcp", "mcp2", "mcp1", "fastmcp", "minimcp.FastMCP"]


def asking(how: str) -> MCPServer:
    """A server whose tools each ask the client one thing."""
    app = _server(how)

    @app.tool()
    async def sample(ctx: Context) -> str:
        reply = await ctx.sample("Say hi", max_tokens=5)
        return reply["content"]["text"]

    @app.tool()
    async def roots(ctx: Context) -> str:
        return "%d roots" % len(await ctx.list_roots())

    @app.tool()
    async def elicit(ctx: Context) -> str:
        answer = await ctx.elicit("Your name?", {"type": "object", "properties": {"name": {"type": "string"}}})
        return answer["action"]
    return app


ASKED = {   # tool -> (the method it would send, the capability the client must have declared)
    "sample": ("sampling/createMessage", {"sampling": {}}),
    "roots": ("roots/list", {"roots": {}}),
    "elicit": ("elicitation/create", {"elicitation": {"form": {}}}),
}


def modern_call(wire: Wire, name: str, capabilities: dict) -> dict:
    return wire.call("tools/call", {"name": name, "arguments": {}, "_meta": envelope(capabilities)})


@pytest.mark.parametrize("how", SERVERS)
def test_2026_a_question_the_client_did_not_declare_is_32021(how):
    wire = Wire(asking(how))
    for tool, (method, needs) in ASKED.items():
        others = {kind: {} for kind in ("sampling", "roots", "elicitation") if kind not in needs}
        for declared in ({}, others):                   # nothing at all, or everything but what it needs
            answer = modern_call(wire, tool, declared)
            assert "result" not in answer, (how, tool, declared, answer)   # no input_required round
            assert answer["error"]["code"] == MISSING_CLIENT_CAPABILITY, (how, tool, answer)
            assert answer["error"]["data"] == {"requiredCapabilities": needs}, (how, tool, answer)
    wire.close()


@pytest.mark.parametrize("how", SERVERS)
def test_2026_a_declared_capability_is_asked_as_an_input_request(how):
    # the other side of the rule: what the client declared is asked, the same way in every dialect
    wire = Wire(asking(how))
    for tool, (method, needs) in ASKED.items():
        result = modern_call(wire, tool, needs)["result"]
        assert result["resultType"] == "input_required", (how, tool, result)
        assert [r["method"] for r in result["inputRequests"].values()] == [method]
    wire.close()


# Before 2026-07-28 the spec names no code for it: minimcp says -32021, as 2026-07-28 does, and
# the SDK dialects answer as their SDK does (mcp 2.3.0 a -32600 error, mcp 1.x and fastmcp a
# failed call, each "Sampling not supported" / "Elicitation not supported"); never sent, in any.
HANDSHAKE_REFUSALS = {
    "mcp2": {"sample": {"error": {"code": -32600, "message": "Sampling not supported"}},
             "elicit": {"error": {"code": -32600, "message": "Elicitation not supported"}}},
    "mcp1": {"sample": {"isError": True, "text": "Error executing tool sample: Sampling not supported"},
             "elicit": {"isError": True, "text": "Error executing tool elicit: Elicitation not supported"}},
    "fastmcp": {"sample": {"isError": True, "text": "Error calling tool 'sample': Sampling not supported"},
                "elicit": {"isError": True, "text": "Error calling tool 'elicit': Elicitation not supported"}},
}
HANDSHAKE_REFUSALS.update({"minimcp.FastMCP": HANDSHAKE_REFUSALS["mcp1"]})       # no dialect: minimcp's


@pytest.mark.parametrize("how", SERVERS)
def test_handshake_a_question_the_client_did_not_declare_is_never_sent(how):
    wire = Wire(asking(how))
    wire.initialize("2025-11-25", capabilities={})
    for tool, (method, needs) in ASKED.items():
        answer = wire.call("tools/call", {"name": tool, "arguments": {}})
        worded = HANDSHAKE_REFUSALS.get(how, {}).get(tool)
        if worded is None:
            assert answer["error"]["code"] == MISSING_CLIENT_CAPABILITY, (how, tool, answer)
            assert answer["error"]["data"] == {"requiredCapabilities": needs}
        elif "error" in worded:
            assert answer["error"] == worded["error"], (how, tool, answer)
        else:
            assert answer["result"]["isError"] is True, (how, tool, answer)
            assert answer["result"]["content"] == [{"type": "text", "text": worded["text"]}], (how, tool, answer)
    rest = wire.close()
    sent = [m for m in wire.stash.values() if isinstance(m, dict) and "method" in m] + \
        [m for m in rest if "method" in m and "id" in m]
    assert sent == [], (how, sent)                      # no request reached the client


def test_fastmcp_response_type_is_refused_the_same_way():
    # fastmcp's ctx.elicit(message, response_type=...) asks through the same rule
    app = MCPServer("probe", dialect="fastmcp")

    @app.tool()
    async def count(ctx: Context) -> str:
        answer = await ctx.elicit("How many?", response_type=int)
        return str(answer.data)
    wire = Wire(app)
    answer = modern_call(wire, "count", {"sampling": {}})
    assert answer["error"]["code"] == MISSING_CLIENT_CAPABILITY
    assert answer["error"]["data"] == {"requiredCapabilities": {"elicitation": {"form": {}}}}
    wire.close()


# -- capabilities: declared from what the server does ------------------------------------------

SUB_ID = "io.modelcontextprotocol/subscriptionId"
EVERY_NOTIFICATION = {"toolsListChanged": True, "promptsListChanged": True, "resourcesListChanged": True,
                      "resourceSubscriptions": ["probe://note"]}


def offering(how: str) -> MCPServer:
    """A server with one tool, one prompt and one resource."""
    app = _server(how)

    @app.tool()
    def echo(text: str) -> str:
        return text

    @app.prompt()
    def hello() -> str:
        return "Say hello."

    @app.resource("probe://note")
    def note() -> str:
        return "a note"
    return app


def change_everything(app: MCPServer) -> None:
    app.add_tool(lambda: "x", name="later")
    app.add_prompt(lambda: "x", name="later")
    app.add_resource(lambda: "x", "probe://later")
    app.notify_resource_updated("probe://note")


SENT = {"notifications/tools/list_changed", "notifications/prompts/list_changed",
        "notifications/resources/list_changed", "notifications/resources/updated"}


def declared_notifications(capabilities: dict) -> set:
    """The notifications these capabilities promise (listChanged, subscribe)."""
    promised = {"notifications/%s/list_changed" % kind for kind in ("tools", "prompts", "resources")
                if (capabilities.get(kind) or {}).get("listChanged")}
    if (capabilities.get("resources") or {}).get("subscribe"):
        promised.add("notifications/resources/updated")
    return promised


@pytest.mark.parametrize("how", SERVERS)
def test_2026_discover_declares_what_listen_streams_deliver(how):
    app = offering(how)
    wire = Wire(app)
    capabilities = wire.result("server/discover", {"_meta": envelope()})["capabilities"]
    assert capabilities["tools"] == {"listChanged": True}
    assert capabilities["prompts"] == {"listChanged": True}
    assert capabilities["resources"] == {"listChanged": True, "subscribe": True}
    assert "logging" in capabilities                      # log messages flow (for a request's logLevel)
    listen_id = wire.request("subscriptions/listen", {"_meta": envelope(), "notifications": EVERY_NOTIFICATION})
    ack = wire.recv()
    assert ack["params"]["notifications"] == EVERY_NOTIFICATION
    change_everything(app)
    got = [wire.recv() for _ in SENT]
    assert {n["method"] for n in got} == SENT == declared_notifications(capabilities)
    assert all(n["params"]["_meta"] == {SUB_ID: listen_id} for n in got)
    wire.close()


@pytest.mark.parametrize("how", SERVERS)
def test_2026_discover_declares_nothing_the_server_does_not_offer(how):
    # the suite's server-stateless checks: prompts/list without the capability is -32601, and
    # each declared capability's methods answer
    app = _server(how)

    @app.tool()
    def echo(text: str) -> str:
        return text
    wire = Wire(app)
    meta = {"_meta": envelope()}
    capabilities = wire.result("server/discover", meta)["capabilities"]
    assert capabilities == {"tools": {"listChanged": True}, "logging": {}}
    assert [t["name"] for t in wire.result("tools/list", meta)["tools"]] == ["echo"]
    for method in ("prompts/list", "resources/list", "resources/templates/list"):
        assert wire.error(method, meta)["code"] == -32601, (how, method)
    wire.request("subscriptions/listen", {"_meta": envelope(), "notifications": EVERY_NOTIFICATION})
    assert wire.recv()["params"]["notifications"] == {"toolsListChanged": True}
    wire.close()


@pytest.mark.parametrize("how", SERVERS)
def test_handshake_initialize_declares_what_the_session_sends(how):
    app = offering(how)
    wire = Wire(app)
    capabilities = wire.initialize("2025-11-25")["capabilities"]
    assert capabilities["tools"] == {"listChanged": True}
    assert capabilities["prompts"] == {"listChanged": True}
    assert capabilities["resources"] == {"listChanged": True, "subscribe": True}
    assert capabilities["logging"] == {}
    assert wire.result("resources/subscribe", {"uri": "probe://note"}) == {}
    change_everything(app)
    got = [wire.recv() for _ in SENT]
    assert {n["method"] for n in got} == SENT == declared_notifications(capabilities)
    wire.close()


# -- error codes: the revision's --------------------------------------------------------------

def failing(how: str) -> MCPServer:
    app = _server(how)

    @app.tool()
    def add(a: int) -> int:
        return a

    @app.prompt()
    def review(code: str) -> str:
        return "Review " + code

    @app.resource("probe://note")
    def note() -> str:
        return "a note"
    return app


FAULTS = {   # what is asked -> the code the spec gives it (2025-06-18 and 2025-11-25, then 2026-07-28)
    "an unknown tool": ("tools/call", {"name": "nope", "arguments": {}}, -32602, -32602),
    "an unknown prompt": ("prompts/get", {"name": "nope"}, -32602, -32602),
    "a missing prompt argument": ("prompts/get", {"name": "review", "arguments": {}}, -32602, -32602),
    "a missing resource": ("resources/read", {"uri": "probe://nope"}, -32002, -32602),
}


@pytest.mark.parametrize("version", ["2025-06-18", "2025-11-25", "2026-07-28"])
@pytest.mark.parametrize("how", SERVERS)
def test_error_codes_are_the_revisions_in_every_dialect(how, version):
    wire = Wire(failing(how))
    modern = version == "2026-07-28"
    if not modern:
        wire.initialize(version)
    for fault, (method, params, legacy_code, modern_code) in FAULTS.items():
        answer = wire.call(method, dict(params, _meta=envelope()) if modern else params)
        assert "error" in answer, (how, version, fault, answer)
        assert answer["error"]["code"] == (modern_code if modern else legacy_code), (how, version, fault, answer)
    if version != "2025-06-18":                         # SEP-1303: invalid arguments are for the model to read
        params = {"name": "add", "arguments": {"a": "many"}}
        answer = wire.call("tools/call", dict(params, _meta=envelope()) if modern else params)
        assert answer["result"]["isError"] is True, (how, version, answer)
    wire.close()
