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


@pytest.mark.parametrize("how", SERVERS)
def test_handshake_a_question_the_client_did_not_declare_is_never_sent(how):
    wire = Wire(asking(how))
    wire.initialize("2025-11-25", capabilities={})
    for tool, (method, needs) in ASKED.items():
        answer = wire.call("tools/call", {"name": tool, "arguments": {}})
        assert answer["error"]["code"] == MISSING_CLIENT_CAPABILITY, (how, tool, answer)
        assert answer["error"]["data"] == {"requiredCapabilities": needs}
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
