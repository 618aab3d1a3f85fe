"""What the official SDK's own example servers and the official reference servers showed.

tests/interop/run_sdk_examples.sh runs the example servers of the mcp 1.29.0 and 2.3.0 source
distributions, and tests/interop/run_reference_servers.sh the reference servers from PyPI
(mcp-server-time, -git, -fetch), each under its SDK and unchanged under ``python3 minimcp.py
serve``; every difference they found is a test here, a server's source in and the JSON lines
`serve` writes out, compared with what the SDK sent (the server that showed it is named).
No SDK is installed here: `serve` stands in for it.
"""

import sys

import pytest

from test_sdk_generated_classes import HEADERS, call, serve

pytestmark = pytest.mark.skipif(sys.version_info < (3, 10), reason="servers written for the SDKs, which need "
                                "Python 3.10, in the syntax their users write")

try:
    import pydantic
except ImportError:
    pydantic = None
needs_pydantic = pytest.mark.skipif(pydantic is None, reason="pydantic 2 is not installed here (the servers import it)")


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
