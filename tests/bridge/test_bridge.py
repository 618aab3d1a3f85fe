"""The bridge (issue 39) against minimcp's own HTTP server: a host on the bridge's stdio, the
server over loopback, and what each side sees on the wire.

Eras: a handshake-era session mirrored; a 2026-07-28 host end to end; a handshake-era host
bridged to the server's 2026-07-28 (--protocol). Recovery: a server restarted mid-session,
a server down while a call waits, nothing listening at all.
"""

import time

import pytest

from bridge_harness import INIT_PARAMS, WAIT, Upstream, bridge, upstream  # noqa: F401 - fixtures
from conftest import MODERN, envelope, load_example
import minimcp

ELICIT_ANSWER = {"action": "accept", "content": {"name": "Ada"}}


def direct_error(method, params):
    """The error minimcp itself answers (in process): the bridge must pass it on unchanged."""
    with minimcp.TestClient(load_example("everything").app) as client:
        with pytest.raises(minimcp.MCPError) as raised:
            client.request(method, params)
    error = {"code": raised.value.code, "message": raised.value.message}
    if raised.value.data is not None:
        error["data"] = raised.value.data
    return error


def test_a_handshake_session_is_mirrored_in_order_with_its_session_id(bridge, upstream):
    server = upstream()
    host = bridge(server.url)
    info = host.initialize()
    assert info["protocolVersion"] == "2025-11-25" and info["serverInfo"]["name"] == "everything"
    host.send({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
        "name": "slow", "arguments": {"seconds": 0.3, "steps": 3}, "_meta": {"progressToken": "p7"}}})
    progress = [host.next(lambda m: m.get("method") == "notifications/progress")["params"] for _ in range(3)]
    answer = host.answer_to(7)          # after its progress: one stream, in order
    assert [p["progress"] for p in progress] == [1, 2, 3] and {p["progressToken"] for p in progress} == {"p7"}
    assert answer["result"]["content"][0]["text"] == "done"
    unknown = host.request("tools/call", {"name": "no_such_tool", "arguments": {}})
    assert unknown["error"] == direct_error("tools/call", {"name": "no_such_tool", "arguments": {}})
    missing = host.request("interop/no-such-method", {})
    assert missing["error"]["code"] == -32601 and "interop/no-such-method" in missing["error"]["message"]
    posts = [headers for verb, headers, body in server.requests if verb == "POST"]
    session = posts[1].get("mcp-session-id")
    assert session and "mcp-session-id" not in posts[0]
    assert all(h.get("mcp-session-id") == session and h.get("mcp-protocol-version") == "2025-11-25" for h in posts[1:])
    assert [h.get("mcp-method") for h in posts[:3]] == ["initialize", "notifications/initialized", "tools/call"]
    assert host.close() == 0


def test_the_servers_requests_reach_the_host_and_its_answers_go_back(bridge, upstream):
    server = upstream()
    host = bridge(server.url)
    host.initialize(capabilities={"elicitation": {}, "roots": {"listChanged": True}})
    host.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "elicit", "arguments": {}}})
    question = host.next(lambda m: m.get("method") == "elicitation/create")
    host.send({"jsonrpc": "2.0", "id": question["id"], "result": ELICIT_ANSWER})
    text = host.answer_to(1)["result"]["content"][0]["text"]
    assert "Ada" in text
    answers = [body for verb, headers, body in server.requests if verb == "POST" and "result" in (body or {})]
    assert answers == [{"jsonrpc": "2.0", "id": question["id"], "result": ELICIT_ANSWER}]
    host.request("logging/setLevel", {"level": "debug"})
    host.request("tools/call", {"name": "log", "arguments": {"message": "hello", "level": "warning"}})
    assert [m["params"]["data"] for m in host.notifications("notifications/message")] == ["hello"]


def test_resource_updates_come_on_the_get_stream_and_stop_after_unsubscribe(bridge, upstream):
    server = upstream()
    host = bridge(server.url)
    host.initialize()
    host.request("resources/subscribe", {"uri": "fixture://hello"})
    deadline = time.monotonic() + 10
    while not any(verb == "GET" for verb, _, _ in server.requests):
        assert time.monotonic() < deadline, "no GET stream was opened"
        time.sleep(0.02)
    time.sleep(0.2)                     # the GET is in the server's hands
    host.request("tools/call", {"name": "touch", "arguments": {"uri": "fixture://hello"}})
    update = host.next(lambda m: m.get("method") == "notifications/resources/updated")
    assert update["params"]["uri"] == "fixture://hello"
    host.request("resources/unsubscribe", {"uri": "fixture://hello"})
    host.request("tools/call", {"name": "touch", "arguments": {"uri": "fixture://hello"}})
    host.silent_about(lambda m: m.get("method") == "notifications/resources/updated", 0.5)


def test_a_cancellation_is_passed_on_and_the_request_gets_no_answer(bridge, upstream):
    server = upstream()
    host = bridge(server.url)
    host.initialize()
    host.send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "slow", "arguments": {"seconds": 1.5, "steps": 15}, "_meta": {"progressToken": 3}}})
    host.next(lambda m: m.get("method") == "notifications/progress")
    host.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}})
    assert host.request("tools/call", {"name": "echo", "arguments": {"text": "after"}})["result"]["content"][0][
        "text"] == "after"
    host.silent_about(lambda m: m.get("id") == 3, 2.0)
    cancels = server.posted("notifications/cancelled")
    assert [body["params"]["requestId"] for _, body in cancels] == [3]


def test_a_2026_host_gets_2026_end_to_end(bridge, upstream):
    server = upstream()
    host = bridge(server.url)
    capabilities = {"elicitation": {"form": {}}}
    discovered = host.request("server/discover", {"_meta": envelope(capabilities)})["result"]
    assert MODERN in discovered["supportedVersions"] and discovered["resultType"] == "complete"
    echo = host.request("tools/call", {"name": "echo", "arguments": {"text": "hi"}, "_meta": envelope(capabilities)})
    assert echo["result"]["resultType"] == "complete" and echo["result"]["content"][0]["text"] == "hi"
    asked = host.request("tools/call", {"name": "elicit", "arguments": {}, "_meta": envelope(capabilities)})
    assert asked["result"]["resultType"] == "input_required"      # the host's own round, passed through
    (key, question), = asked["result"]["inputRequests"].items()
    retry = host.request("tools/call", {"name": "elicit", "arguments": {}, "_meta": envelope(capabilities),
                                        "inputResponses": {key: ELICIT_ANSWER},
                                        "requestState": asked["result"]["requestState"]})
    assert "Ada" in retry["result"]["content"][0]["text"]
    headers, body = server.posted("tools/call")[0]
    assert (headers["mcp-protocol-version"], headers["mcp-method"], headers["mcp-name"]) == (MODERN, "tools/call", "echo")
    assert not any("mcp-session-id" in headers for verb, headers, body in server.requests)
    host.send({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {
        "name": "slow", "arguments": {"seconds": 1.5, "steps": 15},
        "_meta": envelope(capabilities, progressToken=9)}})
    host.next(lambda m: m.get("method") == "notifications/progress")
    host.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 9}})
    host.silent_about(lambda m: m.get("id") == 9 or m.get("method") == "notifications/progress", 2.0)
    assert not server.posted("notifications/cancelled"), "2026-07-28 over HTTP cancels by closing the stream"
    assert host.close() == 0


def test_a_handshake_host_is_bridged_to_the_servers_2026(bridge, upstream):
    server = upstream()
    host = bridge(server.url, "--protocol", MODERN)
    info = host.initialize("2025-06-18", capabilities={"elicitation": {}, "sampling": {}})
    assert info["protocolVersion"] == "2025-06-18" and info["serverInfo"]["name"] == "everything"
    assert "extensions" not in info["capabilities"]
    assert not server.posted("initialize") and server.posted("server/discover")
    assert host.request("ping")["result"] == {}
    host.send({"jsonrpc": "2.0", "id": "e", "method": "tools/call", "params": {"name": "elicit", "arguments": {}}})
    question = host.next(lambda m: m.get("method") == "elicitation/create")
    assert "mode" not in question["params"], "2025-06-18 has no elicitation modes"
    host.send({"jsonrpc": "2.0", "id": question["id"], "result": ELICIT_ANSWER})
    answer = host.answer_to("e")
    assert "Ada" in answer["result"]["content"][0]["text"] and "resultType" not in answer["result"]
    first, retry = [body for _, body in server.posted("tools/call")]
    assert first["id"] == "e" and retry["id"] != "e"
    assert list(retry["params"]["inputResponses"].values()) == [ELICIT_ANSWER]
    assert retry["params"]["requestState"]
    assert retry["params"]["_meta"]["io.modelcontextprotocol/clientInfo"]["name"] == "bridge-test-host"
    missing = host.request("resources/read", {"uri": "fixture://nothing-here"})
    assert missing["error"]["code"] == -32002, "a handshake-era host's code for a missing resource"
    host.request("logging/setLevel", {"level": "info"})
    host.request("tools/call", {"name": "log", "arguments": {"message": "seen", "level": "info"}})
    assert [m["params"]["data"] for m in host.notifications("notifications/message")] == ["seen"]
    host.request("resources/subscribe", {"uri": "fixture://hello"})
    host.request("tools/call", {"name": "touch", "arguments": {"uri": "fixture://hello"}})
    update = host.next(lambda m: m.get("method") == "notifications/resources/updated")
    assert update["params"] == {"uri": "fixture://hello"}
    listen = server.posted("subscriptions/listen")[-1][1]
    assert listen["params"]["notifications"]["resourceSubscriptions"] == ["fixture://hello"]


#: How servers of one era refuse the other's first request (the spec leaves most of it to them).
MODERN_ONLY_REFUSALS = {
    "unsupported version (400, -32022)": (400, {"code": -32022, "message": "Unsupported protocol version",
                                                "data": {"supported": [MODERN], "requested": "2025-06-18"}}),
    "no such method (404, -32601)": (404, {"code": -32601, "message": "Method not found: initialize"}),
    "no MCP-Protocol-Version (400, -32020)": (400, {"code": -32020, "message": "Header mismatch: "
                                                     "MCP-Protocol-Version is missing"}),
}
HANDSHAKE_ONLY_REFUSALS = {
    "no session (400, -32000), as the official SDK's": (400, {"code": -32000, "message": "Bad Request: No valid "
                                                              "session ID provided"}),
    "an empty 404": (404, None),
    "no such method (200, -32601)": (200, {"code": -32601, "message": "Method not found"}),
}


def refusing(when, status, error):
    """A ``refuse`` for Upstream: the POSTs ``when(headers, body)`` accepts get ``status`` and ``error``."""
    def refuse(verb, headers, body):
        if verb != "POST" or not when(headers, body):
            return None
        return status, (None if error is None else {"jsonrpc": "2.0", "id": body.get("id"), "error": error})
    return refuse


@pytest.mark.parametrize("refusal", sorted(MODERN_ONLY_REFUSALS))
def test_auto_bridges_a_handshake_host_to_a_server_that_refuses_initialize_and_speaks_2026(bridge, upstream,
                                                                                            refusal):
    server = upstream(refuse=refusing(lambda headers, body: body.get("method") == "initialize",
                                      *MODERN_ONLY_REFUSALS[refusal]))
    host = bridge(server.url)
    info = host.initialize("2025-06-18")
    assert info["protocolVersion"] == "2025-06-18" and info["serverInfo"]["name"] == "everything"
    assert host.request("tools/call", {"name": "echo", "arguments": {"text": "x"}})["result"]["content"][0][
        "text"] == "x"
    methods = [body["method"] for verb, _, body in server.requests if verb == "POST"
               and body["method"] != "subscriptions/listen"]        # (list changes: its own stream)
    assert methods == ["initialize", "server/discover", "tools/call"], methods
    assert server.posted("tools/call")[0][1]["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] == MODERN


@pytest.mark.parametrize("refusal", sorted(HANDSHAKE_ONLY_REFUSALS))
def test_auto_answers_a_2026_host_s_discover_with_method_not_found_when_the_server_speaks_only_handshake(
        bridge, upstream, refusal):
    server = upstream(refuse=refusing(lambda headers, body: "mcp-session-id" not in headers
                                      and body.get("method") != "initialize", *HANDSHAKE_ONLY_REFUSALS[refusal]))
    host = bridge(server.url)
    refused = host.request("server/discover", {"_meta": envelope()})
    assert refused["error"]["code"] == -32601, refused
    assert host.initialize()["protocolVersion"] == "2025-11-25"       # the host falls back, the bridge mirrors
    assert host.request("tools/call", {"name": "echo", "arguments": {"text": "y"}})["result"]["content"][0][
        "text"] == "y"
    methods = [body["method"] for verb, _, body in server.requests if verb == "POST"]
    assert methods[:3] == ["server/discover", "initialize", "notifications/initialized"], methods


def test_a_handshake_only_server_answers_discover_with_method_not_found(bridge, upstream):
    server = upstream()
    host = bridge(server.url, "--protocol", "handshake")
    refused = host.request("server/discover", {"_meta": envelope()})
    assert refused["error"]["code"] == -32601
    assert host.initialize()["protocolVersion"] == "2025-11-25"


def test_a_server_restarted_mid_session_gets_a_new_session_and_the_call_goes_through(bridge, upstream):
    first = upstream()
    port = first.port
    host = bridge(first.url)
    host.initialize()
    host.request("logging/setLevel", {"level": "warning"})
    first.close()
    second = upstream(port)                   # a new app: a new signing key, the old session unknown
    started = time.monotonic()
    echo = host.request("tools/call", {"name": "echo", "arguments": {"text": "again"}}, timeout=15)
    assert echo["result"]["content"][0]["text"] == "again", echo
    assert time.monotonic() - started < 15
    methods = [body.get("method") for verb, _, body in second.requests if verb == "POST"]
    assert methods[:4] == ["tools/call", "initialize", "notifications/initialized", "logging/setLevel"], methods
    assert methods.count("tools/call") == 2
    reinit = second.posted("initialize")[0][1]
    assert reinit["params"]["clientInfo"]["name"] == "bridge-test-host", "the host's own initialize, replayed"
    assert host.said("the server no longer knows the session (HTTP 404): opening a new one")


def test_a_call_made_while_the_server_is_down_waits_for_it(bridge, upstream):
    first = upstream()
    port = first.port
    host = bridge(first.url)
    host.initialize()
    first.close()
    host.send({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "x"}}})
    time.sleep(1.0)                            # refused meanwhile: the bridge retries with backoff
    upstream(port)
    assert host.answer_to(5, timeout=15)["result"]["content"][0]["text"] == "x"


def test_nothing_listening_is_one_clear_error_after_retry_for(bridge):
    import socket
    with socket.socket() as held:
        # Bound, never listening: connections are refused, and no other test's server (nor a
        # connection's own source port) can take the port meanwhile, as it could once freed.
        held.bind(("127.0.0.1", 0))
        host = bridge("http://127.0.0.1:%d/mcp" % held.getsockname()[1], "--retry-for", "1")
        started = time.monotonic()
        answer = host.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                             "clientInfo": {"name": "t", "version": "1"}})
        assert time.monotonic() - started < 5
        message = answer["error"]["message"]
        assert "refused the connection" in message and "is the server running" in message, message
        host.silent_about(lambda m: True, 0.5)       # exactly one answer
        assert host.close() == 0


def slow_call(request_id, seconds, steps):
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {
        "name": "slow", "arguments": {"seconds": seconds, "steps": steps}, "_meta": {"progressToken": request_id}}}


def test_what_the_host_sends_before_initialize_is_answered_waits_for_the_session(bridge, upstream):
    server = upstream()
    host = bridge(server.url)
    host.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INIT_PARAMS})   # all at once,
    host.send({"jsonrpc": "2.0", "method": "notifications/initialized"})                    # as a script writes
    host.send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "x"}}})
    host.send({"jsonrpc": "2.0", "id": 3, "method": "ping"})
    assert host.answer_to(1)["result"]["serverInfo"]["name"] == "everything"
    assert host.answer_to(2)["result"]["content"][0]["text"] == "x"
    assert host.answer_to(3)["result"] == {}
    posts = [(headers, body) for verb, headers, body in server.requests if verb == "POST"]
    methods = [body["method"] for _, body in posts]     # (the server's threads may take the last two in any order)
    assert methods[:2] == ["initialize", "notifications/initialized"] and sorted(methods[2:]) == ["ping", "tools/call"]
    assert all(headers.get("mcp-session-id") for headers, _ in posts[1:])
    assert host.close() == 0


def test_at_stdin_s_end_the_answers_on_their_way_reach_the_host_before_the_session_is_deleted(bridge, upstream):
    server = upstream()
    host = bridge(server.url)
    host.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INIT_PARAMS})
    host.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    host.send(slow_call(2, 1.0, 4))
    host.send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "y"}}})
    host.process.stdin.close()                       # the host is done writing, and reads on
    assert host.answer_to(1)["result"]["serverInfo"]["name"] == "everything"
    assert host.answer_to(2)["result"]["content"][0]["text"] == "done"
    assert host.answer_to(3)["result"]["content"][0]["text"] == "y"
    assert host.process.wait(WAIT) == 0
    verbs = [(verb, (body or {}).get("method")) for verb, _, body in server.requests]
    assert verbs[-1] == ("DELETE", None) and verbs.count(("POST", "tools/call")) == 2, verbs


def test_at_stdin_s_end_an_answer_still_away_after_the_idle_timeout_is_an_error(bridge, upstream):
    server = upstream()
    host = bridge(server.url, "--idle-timeout", "3")
    host.initialize()
    host.send(slow_call(9, 60.0, 600))              # progress every 0.1 s: never idle, never done in time
    host.next(lambda m: m.get("method") == "notifications/progress")
    host.process.stdin.close()
    started = time.monotonic()
    message = host.answer_to(9)["error"]["message"]
    assert "tools/call had no answer from %s 3 s after the host closed the bridge's input" % server.url in message
    assert 2.5 < time.monotonic() - started < WAIT
    assert host.process.wait(WAIT) == 0
    assert server.requests[-1][0] == "DELETE"


def test_at_stdin_s_end_the_server_s_question_to_the_host_is_refused_and_its_call_answered(bridge, upstream):
    server = upstream()
    host = bridge(server.url)
    host.initialize(capabilities={"elicitation": {}})
    host.send({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "elicit", "arguments": {}}})
    question = host.next(lambda m: m.get("method") == "elicitation/create")
    host.process.stdin.close()                       # it will never answer: the server must not wait for it
    answer = host.answer_to(4)
    assert "the host closed its input" in str(answer), answer
    assert host.process.wait(WAIT) == 0
    refusal = [body for verb, _, body in server.requests
               if verb == "POST" and "method" not in body and body.get("id") == question["id"]]
    assert refusal and refusal[0]["error"]["code"] == -32603, refusal


def test_a_2025_03_26_batch_goes_up_one_by_one_and_its_answers_come_back_as_one(bridge, upstream):
    server = upstream()
    host = bridge(server.url)
    host.initialize("2025-03-26")
    host.send([{"jsonrpc": "2.0", "id": "a", "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "1"}}},
               {"jsonrpc": "2.0", "method": "notifications/roots/list_changed"},
               {"jsonrpc": "2.0", "id": "b", "method": "tools/call", "params": {"name": "no_such_tool", "arguments": {}}},
               {"jsonrpc": "2.0", "id": "c", "method": "ping"},
               {"id": "d", "method": "ping"}])
    reply = host.next(lambda m: isinstance(m, list))
    answers = {answer["id"]: answer for answer in reply}
    assert sorted(answers) == ["a", "b", "c", "d"] and len(reply) == 4
    assert answers["a"]["result"]["content"][0]["text"] == "1"
    assert answers["b"]["error"] == direct_error("tools/call", {"name": "no_such_tool", "arguments": {}})
    assert answers["c"]["result"] == {} and answers["d"]["error"]["code"] == -32600
    bodies = [body for verb, _, body in server.requests if verb == "POST"]
    assert all(isinstance(body, dict) for body in bodies), "the server gets no batch"
    assert sorted(body.get("method") for body in bodies[2:]) == ["notifications/roots/list_changed", "ping",
                                                                 "tools/call", "tools/call"]
    host.send([{"jsonrpc": "2.0", "method": "notifications/roots/list_changed"}])
    host.silent_about(lambda m: True, 1.0)          # a batch of notifications gets no reply
    assert host.close() == 0
