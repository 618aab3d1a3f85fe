"""The stateless 2026-07-28 revision on the same pipe: discover, envelope, MRTR, listen, eras."""

import json
import time

import pytest

from conftest import Wire, envelope
from minimcp import Context, MCPServer

SERVER_INFO = "io.modelcontextprotocol/serverInfo"
SUB_ID = "io.modelcontextprotocol/subscriptionId"
ALL_CAPS = {"sampling": {}, "roots": {}, "elicitation": {"form": {}, "url": {}}}


def modern(wire, method, params=None, capabilities=None, **meta):
    params = dict(params or {})
    params["_meta"] = envelope(capabilities, **meta)
    return wire.call(method, params)


def test_discover(wire):
    result = modern(wire, "server/discover")["result"]
    assert result["supportedVersions"] == ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    assert result["resultType"] == "complete"
    assert result["ttlMs"] == 0 and result["cacheScope"] == "private"
    assert result["_meta"][SERVER_INFO] == {"name": "everything", "version": "1.0.0"}
    assert set(result["capabilities"]) == {"tools", "resources", "prompts", "completions", "logging", "extensions"}
    assert result["capabilities"]["extensions"] == {"io.modelcontextprotocol/tasks": {}}   # (skills: tests/skills)
    assert result["instructions"].startswith("A test fixture")


def test_discover_does_not_commit_the_pipe(wire):
    modern(wire, "server/discover")
    assert wire.initialize()["protocolVersion"] == "2025-11-25"


def test_discover_then_modern_then_initialize_refused(wire):
    modern(wire, "server/discover")
    assert modern(wire, "tools/list")["result"]["tools"]
    error = wire.error("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                      "clientInfo": {"name": "x", "version": "1"}})
    assert error["code"] == -32022 and "2026-07-28" in error["data"]["supported"]


def test_initialize_then_enveloped_request_refused(wire):
    wire.initialize()
    error = modern(wire, "tools/list")["error"]
    assert error["code"] == -32600 and "initialize" in error["message"]
    assert modern(wire, "server/discover")["result"]["resultType"] == "complete"   # discover: any time
    assert wire.result("tools/list")["tools"]


def test_missing_envelope_keys(wire):
    error = wire.error("tools/list", {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}})
    assert error["code"] == -32602 and "clientCapabilities" in error["message"]
    error = wire.error("tools/list", {"_meta": {"io.modelcontextprotocol/clientCapabilities": {}}})
    assert error["code"] == -32602 and "protocolVersion" in error["message"]
    error = wire.error("server/discover", {})
    assert error["code"] == -32602
    error = wire.error("tools/list", {"_meta": {"io.modelcontextprotocol/protocolVersion": 5,
                                               "io.modelcontextprotocol/clientCapabilities": {}}})
    assert error["code"] == -32602


def test_unsupported_version(wire):
    error = modern(wire, "tools/list", version="2099-01-01")["error"]
    assert error["code"] == -32022
    assert error["data"]["requested"] == "2099-01-01" and "2026-07-28" in error["data"]["supported"]


def test_plain_request_on_a_modern_pipe_is_refused(wire):
    modern(wire, "tools/list")
    error = wire.error("tools/list")
    assert error["code"] == -32602 and "_meta" in error["message"]


def test_removed_methods(wire):
    for method, params in (("ping", {}), ("logging/setLevel", {"level": "info"}),
                           ("resources/subscribe", {"uri": "fixture://hello"}),
                           ("resources/unsubscribe", {"uri": "fixture://hello"}), ("tasks/list", {}),
                           ("tasks/result", {"taskId": "x"})):
        assert modern(wire, method, params)["error"]["code"] == -32601, method


def test_every_result_has_result_type_server_info_and_cache_hints(wire):
    for method, params, cached in (("tools/list", {}, True), ("prompts/list", {}, True),
                                   ("resources/list", {}, True), ("resources/templates/list", {}, True),
                                   ("resources/read", {"uri": "fixture://hello"}, True),
                                   ("tools/call", {"name": "echo", "arguments": {"text": "x"}}, False),
                                   ("prompts/get", {"name": "greet", "arguments": {"name": "x"}}, False),
                                   ("completion/complete", {"ref": {"type": "ref/prompt", "name": "greet"},
                                                            "argument": {"name": "name", "value": "a"}}, False)):
        result = modern(wire, method, params)["result"]
        assert result["resultType"] == "complete", method
        assert result["_meta"][SERVER_INFO]["name"] == "everything", method
        assert ("ttlMs" in result and "cacheScope" in result) == cached, method


def test_cache_hints_are_configurable():
    app = MCPServer("c", cache_ttl_ms=60000, cache_scope="public")

    @app.resource("r://x", ttl_ms=5, cache_scope="private")
    def x() -> str:
        return "x"

    wire = Wire(app)
    listed = modern(wire, "resources/list")["result"]
    assert listed["ttlMs"] == 60000 and listed["cacheScope"] == "public"
    read = modern(wire, "resources/read", {"uri": "r://x"})["result"]
    assert read["ttlMs"] == 5 and read["cacheScope"] == "private"
    wire.close()


def test_logging_only_when_the_request_asks(wire):
    modern(wire, "tools/call", {"name": "log", "arguments": {"message": "quiet", "level": "error"}})
    assert not wire.notifications
    modern(wire, "tools/call", {"name": "log", "arguments": {"message": "low", "level": "info"}},
           **{"io.modelcontextprotocol/logLevel": "warning"})
    assert not wire.notifications
    modern(wire, "tools/call", {"name": "log", "arguments": {"message": "loud", "level": "error"}},
           **{"io.modelcontextprotocol/logLevel": "warning"})
    assert [n["params"] for n in wire.notifications] == [{"level": "error", "data": "loud"}]
    error = modern(wire, "tools/list", **{"io.modelcontextprotocol/logLevel": "verbose"})["error"]
    assert error["code"] == -32602


def test_progress_tied_to_the_request(wire):
    response = modern(wire, "tools/call", {"name": "slow", "arguments": {"seconds": 0.1, "steps": 3}},
                      progressToken="p")
    assert response["result"]["content"][0]["text"] == "done"
    assert [n["params"]["progress"] for n in wire.notifications] == [1, 2, 3]


def test_nothing_is_remembered_between_requests(wire):
    modern(wire, "tools/call", {"name": "log", "arguments": {"message": "a", "level": "error"}},
           **{"io.modelcontextprotocol/logLevel": "debug"})
    wire.notifications.clear()
    modern(wire, "tools/call", {"name": "log", "arguments": {"message": "b", "level": "error"}})
    assert not wire.notifications


def test_each_request_is_served_under_its_own_envelope():
    """Repeated envelopes share a peer; any change in one of its fields is seen at once."""
    app = MCPServer("t")

    @app.tool()
    def who(ctx: Context) -> dict:
        return {"caps": ctx.client_capabilities, "info": ctx.client_info}

    info = "io.modelcontextprotocol/clientInfo"
    sent = [({}, {}), ({"roots": {}}, {}), ({"roots": {}}, {}), ({"roots": {}}, {info: {"name": "a"}}),
            ({"roots": {}}, {info: {"name": "b"}}), ({}, {}), ({}, {"io.modelcontextprotocol/logLevel": "error"}),
            ({}, {})]
    wire = Wire(app)
    for capabilities, extra in sent:
        answer = modern(wire, "tools/call", {"name": "who", "arguments": {}}, capabilities, **extra)
        seen = json.loads(answer["result"]["content"][0]["text"])
        assert seen == {"caps": capabilities, "info": extra.get(info, {})}, (capabilities, extra)
    bad = modern(wire, "tools/call", {"name": "who", "arguments": {}}, version="2099-01-01")
    assert bad["error"]["code"] == -32022            # a changed version is checked again, not reused
    wire.close()


def test_trace_context_reaches_the_handler():
    app = MCPServer("t")

    @app.tool()
    def trace(ctx: Context) -> str:
        return "%s %s %s" % (ctx.meta.get("traceparent"), ctx.client_info.get("name"), ctx.protocol_version)

    wire = Wire(app)
    text = modern(wire, "tools/call", {"name": "trace"}, traceparent="00-abc-def-01",
                  **{"io.modelcontextprotocol/clientInfo": {"name": "cli", "version": "1"}})
    assert text["result"]["content"][0]["text"] == "00-abc-def-01 cli 2026-07-28"
    wire.close()


# -- multi round-trip requests ----------------------------------------------------------

def retry(wire, method, params, state, responses, capabilities=ALL_CAPS):
    params = dict(params, requestState=state, inputResponses=responses)
    return modern(wire, method, params, capabilities)


def test_mrtr_sampling_one_question(wire):
    params = {"name": "sample", "arguments": {"prompt": "Say hi"}}
    first = modern(wire, "tools/call", params, ALL_CAPS)["result"]
    assert first["resultType"] == "input_required" and "ttlMs" not in first
    (key, question), = first["inputRequests"].items()
    assert question["method"] == "sampling/createMessage"
    assert question["params"]["messages"][0]["content"]["text"] == "Say hi"
    assert "id" not in question and "jsonrpc" not in question
    answer = {"role": "assistant", "content": {"type": "text", "text": "Hello!"}, "model": "m"}
    final = retry(wire, "tools/call", params, first["requestState"], {key: answer})["result"]
    assert final["resultType"] == "complete" and "Hello!" in final["content"][0]["text"]
    assert not [m for m in wire.raw_lines if b'"method":"sampling/createMessage","id"' in m or
                (b'"id"' in m and b'"method":"sampling' in m and b'inputRequests' not in m)]


def test_mrtr_roots_and_elicitation(wire):
    params = {"name": "ask_roots", "arguments": {}}
    first = modern(wire, "tools/call", params, ALL_CAPS)["result"]
    (key, question), = first["inputRequests"].items()
    assert question == {"method": "roots/list", "params": {}}
    final = retry(wire, "tools/call", params, first["requestState"], {key: {"roots": [{"uri": "file:///r"}]}})
    assert final["result"]["content"][0]["text"] == "file:///r"
    params = {"name": "elicit", "arguments": {}}
    first = modern(wire, "tools/call", params, ALL_CAPS)["result"]
    (key, question), = first["inputRequests"].items()
    assert question["method"] == "elicitation/create" and question["params"]["mode"] == "form"
    final = retry(wire, "tools/call", params, first["requestState"],
                  {key: {"action": "accept", "content": {"name": "Ada"}}})
    assert final["result"]["content"][0]["text"] == "accept: Ada"


def several_questions_server():
    app = MCPServer("multi")
    calls = []

    @app.tool()
    def interview(ctx: Context, topic: str) -> str:
        calls.append(topic)
        name = ctx.elicit("Name?", {"type": "object", "properties": {"name": {"type": "string"}}})
        roots = ctx.list_roots()
        reply = ctx.sample("About %s for %s" % (topic, name["content"]["name"]), max_tokens=10)
        return "%s|%s|%s" % (name["content"]["name"], len(roots), reply["content"]["text"])

    return app, calls


def test_mrtr_several_questions_replay_the_handler():
    app, calls = several_questions_server()
    wire = Wire(app)
    params = {"name": "interview", "arguments": {"topic": "owls"}}
    answers = [{"action": "accept", "content": {"name": "Ada"}}, {"roots": [{"uri": "file:///a"}]},
               {"role": "assistant", "content": {"type": "text", "text": "hoot"}, "model": "m"}]
    result = modern(wire, "tools/call", params, ALL_CAPS)["result"]
    methods = []
    for answer in answers:
        assert result["resultType"] == "input_required"
        (key, question), = result["inputRequests"].items()
        methods.append(question["method"])
        result = retry(wire, "tools/call", params, result["requestState"], {key: answer})["result"]
    assert methods == ["elicitation/create", "roots/list", "sampling/createMessage"]
    assert result["content"][0]["text"] == "Ada|1|hoot"
    assert calls == ["owls"] * 4
    wire.close()


def test_mrtr_missing_answer_asks_again(wire):
    params = {"name": "sample", "arguments": {"prompt": "x"}}
    first = modern(wire, "tools/call", params, ALL_CAPS)["result"]
    again = retry(wire, "tools/call", params, first["requestState"], {"other": {"x": 1}})["result"]
    assert again["resultType"] == "input_required"
    assert list(again["inputRequests"].values()) == list(first["inputRequests"].values())


def test_mrtr_retry_with_params_the_server_does_not_know_is_served(wire):
    # The spec: servers SHOULD ignore what they do not recognize; only what is asked must match.
    params = {"name": "sample", "arguments": {"prompt": "Say hi"}}
    first = modern(wire, "tools/call", params, ALL_CAPS)["result"]
    (key, _), = first["inputRequests"].items()
    answer = {"role": "assistant", "content": {"type": "text", "text": "Hello!"}, "model": "m"}
    padded = dict(params, futureField={"from": "a newer client"})
    final = retry(wire, "tools/call", padded, first["requestState"], {key: answer, "unasked": {"x": 1}})["result"]
    assert final["resultType"] == "complete" and "Hello!" in final["content"][0]["text"]


def test_mrtr_tampered_mismatched_and_malformed(wire):
    params = {"name": "sample", "arguments": {"prompt": "x"}}
    first = modern(wire, "tools/call", params, ALL_CAPS)["result"]
    state = first["requestState"]
    body, sig = state.split(".")
    tampered = body[:-2] + ("A" if body[-2] != "A" else "B") + body[-1] + "." + sig
    key = list(first["inputRequests"])[0]
    answer = {key: {"role": "assistant", "content": {"type": "text", "text": "y"}, "model": "m"}}
    for bad in (tampered, "garbage", "a.b.c", state + "x", 5):
        error = retry(wire, "tools/call", params, bad, answer)["error"]
        assert error["code"] == -32602, bad
    other = {"name": "sample", "arguments": {"prompt": "different"}}
    assert retry(wire, "tools/call", other, state, answer)["error"]["code"] == -32602
    assert retry(wire, "tools/call", params, state, "not an object")["error"]["code"] == -32602
    assert retry(wire, "tools/call", params, state, {key: "not an object"})["error"]["code"] == -32602


def test_mrtr_expired_state():
    app, _ = several_questions_server()
    app.state_ttl = -1
    wire = Wire(app)
    params = {"name": "interview", "arguments": {"topic": "t"}}
    first = modern(wire, "tools/call", params, ALL_CAPS)["result"]
    key = list(first["inputRequests"])[0]
    error = retry(wire, "tools/call", params, first["requestState"], {key: {"action": "decline"}})["error"]
    assert error["code"] == -32602 and "expired" in error["message"]
    wire.close()


def test_mrtr_state_from_another_server_process_is_rejected():
    app_a, _ = several_questions_server()
    app_b, _ = several_questions_server()
    params = {"name": "interview", "arguments": {"topic": "t"}}
    wire_a, wire_b = Wire(app_a), Wire(app_b)
    first = modern(wire_a, "tools/call", params, ALL_CAPS)["result"]
    key = list(first["inputRequests"])[0]
    error = retry(wire_b, "tools/call", params, first["requestState"], {key: {"action": "decline"}})["error"]
    assert error["code"] == -32602
    wire_a.close()
    wire_b.close()


def test_input_responses_without_state_are_ignored(wire):
    result = modern(wire, "tools/call", {"name": "echo", "arguments": {"text": "x"},
                                         "inputResponses": {"q0": {"action": "accept"}}})["result"]
    assert result["content"][0]["text"] == "x"


def test_undeclared_capability_is_32021(wire):
    error = modern(wire, "tools/call", {"name": "sample", "arguments": {"prompt": "x"}}, {})["error"]
    assert error["code"] == -32021 and error["data"] == {"requiredCapabilities": {"sampling": {}}}
    error = modern(wire, "tools/call", {"name": "elicit", "arguments": {}}, {"sampling": {}})["error"]
    assert error["code"] == -32021 and "elicitation" in error["data"]["requiredCapabilities"]


# -- subscriptions/listen ----------------------------------------------------------------

def test_listen_acknowledges_then_streams_only_what_was_asked(wire):
    listen_id = wire.request("subscriptions/listen", {"_meta": envelope(), "notifications": {
        "toolsListChanged": True, "resourceSubscriptions": ["fixture://hello"], "unknownKind": True}})
    ack = wire.recv()
    assert ack["method"] == "notifications/subscriptions/acknowledged"
    assert ack["params"] == {"notifications": {"toolsListChanged": True,
                                               "resourceSubscriptions": ["fixture://hello"]},
                             "_meta": {SUB_ID: listen_id}}
    wire.app.add_tool(lambda: "x", name="later")
    note = wire.recv()
    assert note == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed",
                    "params": {"_meta": {SUB_ID: listen_id}}}
    wire.app.add_prompt(lambda: "x", name="later")          # not asked for: nothing
    wire.app.notify_resource_updated("fixture://other")     # not listed: nothing
    # Both write (if at all) in this thread, before the call below is sent: whatever they
    # wrote comes before its answer, and would be in wire.notifications, checked below.
    response = modern(wire, "tools/call", {"name": "touch", "arguments": {"uri": "fixture://hello"}})
    assert response["result"]["content"][0]["text"] == "touched"
    assert wire.notifications == [{"jsonrpc": "2.0", "method": "notifications/resources/updated",
                                   "params": {"uri": "fixture://hello", "_meta": {SUB_ID: listen_id}}}]


def test_several_listens_and_cancel_ends_one(wire):
    first = wire.request("subscriptions/listen", {"_meta": envelope(), "notifications": {"toolsListChanged": True}})
    wire.recv()
    second = wire.request("subscriptions/listen", {"_meta": envelope(), "notifications": {"toolsListChanged": True}})
    wire.recv()
    wire.app.add_tool(lambda: "x", name="one")
    ids = sorted(wire.recv()["params"]["_meta"][SUB_ID] for _ in range(2))
    assert ids == [first, second]
    wire.notify("notifications/cancelled", {"requestId": first})
    modern(wire, "tools/list")               # a round trip: the cancel has been processed
    wire.app.add_tool(lambda: "x", name="two")
    assert wire.recv()["params"]["_meta"][SUB_ID] == second
    rest = wire.close()                      # serve() has returned: nothing is still on its way
    assert [m for m in rest if "method" in m] == [], rest          # (the second listen ends with a result)


def test_listen_gets_a_final_result_when_the_server_stops(wire):
    listen_id = wire.request("subscriptions/listen", {"_meta": envelope(), "notifications": {}})
    assert wire.recv()["params"]["notifications"] == {}
    rest = wire.close()
    assert rest == [{"jsonrpc": "2.0", "id": listen_id, "result": {
        "_meta": {SUB_ID: listen_id, SERVER_INFO: {"name": "everything", "version": "1.0.0"}},
        "resultType": "complete"}}]


def test_full_modern_session_transcript(wire):
    discover = modern(wire, "server/discover")["result"]
    assert "2026-07-28" in discover["supportedVersions"]
    tools = modern(wire, "tools/list")["result"]["tools"]
    assert "execution" not in json.dumps(tools)
    assert modern(wire, "tools/call", {"name": "add", "arguments": {"a": 2, "b": 3}})["result"][
        "structuredContent"] == {"result": 5}
    assert modern(wire, "tools/call", {"name": "fail", "arguments": {}})["result"]["isError"] is True
    assert modern(wire, "tools/call", {"name": "nope", "arguments": {}})["error"]["code"] == -32602
    assert modern(wire, "resources/read", {"uri": "fixture://greeting/Bo"})["result"]["contents"][0][
        "text"] == "Hello, Bo!"
    assert modern(wire, "prompts/get", {"name": "greet", "arguments": {"name": "Bo"}})["result"]["messages"]
    assert modern(wire, "nope/nope")["error"]["code"] == -32601



def test_server_info_follows_the_app_after_it_changes():
    app = MCPServer("renamed", version="1.0.0")

    @app.tool()
    def echo(text: str) -> str:
        return text

    wire = Wire(app)
    first = modern(wire, "tools/call", {"name": "echo", "arguments": {"text": "a"}})["result"]
    assert first["_meta"][SERVER_INFO] == {"name": "renamed", "version": "1.0.0"}
    app.version, app.title = "2.0.0", "Renamed"
    second = modern(wire, "tools/call", {"name": "echo", "arguments": {"text": "b"}})["result"]
    assert second["_meta"][SERVER_INFO] == {"name": "renamed", "version": "2.0.0", "title": "Renamed"}
    wire.close()
