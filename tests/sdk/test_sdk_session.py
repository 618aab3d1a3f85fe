"""What a tool written for the official SDK does with ``ctx.session`` and ``ctx.elicit``'s answer.

mcp 1.x and 2.x give a tool no ``ctx.sample``: it samples with
``await ctx.session.create_message(...)``, lists roots with ``await ctx.session.list_roots()``,
announces list changes with ``await ctx.session.send_tool_list_changed()``, and reads the
answers' fields as attributes (``result.content.text``, ``result.data.name``). The tests drive
such tools over a pipe, in the dialect `from mcp.server.fastmcp import FastMCP` gets, and play
the client's side of each question.
"""

import dataclasses
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, Wire, envelope
import minimcp
import minimcp_sdk
from minimcp import Context

SDK = minimcp_sdk._sdk_names()          # what `from mcp.types import ...` gives a file under serve
ANSWER = {"role": "assistant", "content": {"type": "text", "text": "hello"}, "model": "m1", "stopReason": "endTurn"}


@dataclasses.dataclass
class Person:
    name: str
    age: int = 0


def sdk_server():
    app = minimcp.FastMCP("sdk")

    @app.tool()
    async def ask_model(prompt: str, ctx: Context) -> str:
        message = SDK["SamplingMessage"](role="user", content=SDK["TextContent"](type="text", text=prompt))
        result = await ctx.session.create_message(messages=[message], max_tokens=50, system_prompt="Be brief")
        return "%s said %s (%s)" % (result.model, result.content.text, result.stop_reason)

    @app.tool()
    async def roots(ctx: Context) -> str:
        result = await ctx.session.list_roots()
        return ",".join(str(root.uri) for root in result.roots)

    @app.tool()
    def can_sample(ctx: Context) -> str:
        capability = SDK["ClientCapabilities"](sampling=SDK["SamplingCapability"]())
        return "yes" if ctx.session.check_client_capability(capability) else "no"

    @app.tool()
    async def announce(ctx: Context) -> str:
        await ctx.session.send_prompt_list_changed()      # say it, though the registry did not change
        return "announced"

    @app.prompt()
    def greet() -> str:
        return "Say hello."

    @app.tool()
    async def who(ctx: Context) -> str:
        result = await ctx.elicit(message="Who are you?", schema=Person)
        if result.action != "accept":
            return result.action
        return "%s, %d" % (result.data.name, result.data.age)
    return app


def call_answering(wire: Wire, name: str, arguments: dict, answer: dict) -> tuple:
    """Call a tool, answer the one request it sends the client; (that request, the tool's text)."""
    request_id = wire.request("tools/call", {"name": name, "arguments": arguments})
    asked = wire.server_request()
    wire.send({"jsonrpc": "2.0", "id": asked["id"], "result": answer})
    return asked, wire.response(request_id)["result"]["content"][0]["text"]


def test_create_message_and_list_roots_as_the_sdk_spells_them():
    wire = Wire(sdk_server())
    wire.initialize("2025-11-25", capabilities={"sampling": {}, "roots": {}})
    asked, text = call_answering(wire, "ask_model", {"prompt": "hi"}, ANSWER)
    assert asked["method"] == "sampling/createMessage"
    assert asked["params"] == {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}],
                               "maxTokens": 50, "systemPrompt": "Be brief"}
    assert text == "m1 said hello (endTurn)"
    asked, text = call_answering(wire, "roots", {}, {"roots": [{"uri": "file:///a"}, {"uri": "file:///b"}]})
    assert asked["method"] == "roots/list" and text == "file:///a,file:///b"
    wire.close()


def test_create_message_in_2026_is_an_input_required_round():
    wire = Wire(sdk_server())
    params = {"name": "ask_model", "arguments": {"prompt": "hi"}}
    first = wire.result("tools/call", dict(params, _meta=envelope({"sampling": {}})))
    assert first["resultType"] == "input_required"
    (key, asked), = first["inputRequests"].items()
    assert asked["method"] == "sampling/createMessage"
    retry = dict(params, inputResponses={key: ANSWER}, requestState=first["requestState"],
                 _meta=envelope({"sampling": {}}))
    assert wire.result("tools/call", retry)["content"][0]["text"] == "m1 said hello (endTurn)"
    # and undeclared, it is the spec's -32021 before anything is asked
    assert wire.error("tools/call", dict(params, _meta=envelope()))["code"] == -32021
    wire.close()


@pytest.mark.parametrize("declared, expected", [({"sampling": {}}, "yes"), ({"roots": {}}, "no")])
def test_check_client_capability(declared, expected):
    wire = Wire(sdk_server())
    wire.initialize("2025-11-25", capabilities=declared)
    assert wire.result("tools/call", {"name": "can_sample", "arguments": {}})["content"][0]["text"] == expected
    wire.close()


def test_send_prompt_list_changed_reaches_a_listen_stream():
    wire = Wire(sdk_server())
    wire.request("subscriptions/listen", {"_meta": envelope(), "notifications": {"promptsListChanged": True}})
    assert wire.recv()["method"] == "notifications/subscriptions/acknowledged"
    assert wire.result("tools/call", {"name": "announce", "arguments": {}, "_meta": envelope()})["content"][0][
        "text"] == "announced"
    assert [n["method"] for n in wire.notifications] == ["notifications/prompts/list_changed"]
    wire.close()


def test_an_elicited_answer_has_the_sdks_action_and_data():
    wire = Wire(sdk_server())
    wire.initialize("2025-11-25", capabilities={"elicitation": {}})
    asked, text = call_answering(wire, "who", {}, {"action": "accept", "content": {"name": "Ada", "age": 36}})
    assert asked["params"]["requestedSchema"]["properties"]["name"] == {"type": "string"}
    assert text == "Ada, 36"
    _, text = call_answering(wire, "who", {}, {"action": "decline"})
    assert text == "decline"
    wire.close()


def test_the_answer_is_still_the_dict_minimcp_documents():
    app = minimcp.MCPServer("lean", dialect="minimcp")

    @app.tool()
    def who(ctx: Context) -> str:
        answer = ctx.elicit("Who are you?", Person)
        return "%r %r" % (answer == {"action": "accept", "content": {"name": "Ada"}}, answer.data)
    wire = Wire(app)
    wire.initialize("2025-11-25", capabilities={"elicitation": {}})
    _, text = call_answering(wire, "who", {}, {"action": "accept", "content": {"name": "Ada"}})
    assert text == "True Person(name='Ada', age=0)"
    wire.close()


@pytest.mark.skipif(sys.version_info < (3, 9), reason="the fixture imports typing.Annotated (3.9), as SDK servers "
                    "may: the SDK it is written for needs 3.10")
def test_the_sdk_conformance_fixture_runs_under_serve():
    # tests/interop/conformance_sdk_server.py imports the SDK's names only; serve stands in for them
    pytest.importorskip("pydantic", reason="the fixture's elicitation models are pydantic's, as the SDK's are")
    fixture = os.path.join(ROOT, "tests", "interop", "conformance_sdk_server.py")
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "test_missing_capability", "arguments": {}, "_meta": envelope()}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "test_sampling", "arguments": {"prompt": "hi"}, "_meta": envelope({"sampling": {}})}},
    ]
    server = subprocess.Popen([sys.executable, os.path.join(ROOT, "minimcp.py"), "serve", fixture], cwd=ROOT,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        server.stdin.write("".join(json.dumps(line) + "\n" for line in lines))
        server.stdin.flush()             # stdin stays open: at its end the server cancels what still runs
        answers = {m["id"]: m for m in (json.loads(server.stdout.readline()) for _ in lines)}
    finally:
        server.stdin.close()
        stderr = server.stderr.read()
        server.wait(30)
    assert answers[1]["error"]["code"] == -32021, stderr
    assert answers[1]["error"]["data"] == {"requiredCapabilities": {"sampling": {}}}
    assert answers[2]["result"]["resultType"] == "input_required", stderr
    assert list(answers[2]["result"]["inputRequests"].values())[0]["params"]["messages"] == [
        {"role": "user", "content": {"type": "text", "text": "hi"}}]
