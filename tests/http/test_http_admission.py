"""One admission path (issue 28): what HTTP answers is what the session decided, mapped to a status.

Batches, notifications that cannot be accepted, ``{}``, and the media types of the request and
its answer, on the stdlib server over a real loopback socket (``Endpoint`` from test_http).
"""

import json

import pytest

from test_http import ACCEPT, Endpoint, handshake

BATCH = [{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, {"jsonrpc": "2.0", "id": 3, "method": "ping"}]


@pytest.fixture
def ep():
    from conftest import load_example
    running = Endpoint(load_example("everything").app)
    yield running
    running.close()


def post(ep, body, headers, timeout=5):
    """POST raw bytes with exactly these headers; (status, headers, JSON body or raw bytes)."""
    connection = ep.connect(timeout=timeout)
    connection.request("POST", "/mcp", body=body, headers=headers)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    kind = response.getheader("Content-Type", "")
    return response.status, kind, json.loads(data) if kind == "application/json" and data else data


def in_session(session, version, **extra):
    return dict({"Content-Type": "application/json", "Accept": ACCEPT, "Mcp-Session-Id": session,
                 "MCP-Protocol-Version": version}, **extra)


@pytest.mark.parametrize("version", ["2025-06-18", "2025-11-25"])
def test_a_batch_where_batches_do_not_exist_is_refused_at_once(ep, version):
    # Before: 200 and an SSE stream of keep-alives for ever (the refusal went out with id null,
    # which no POST waits for); stdio answers the same batch with -32600 at once, and so must HTTP.
    session = handshake(ep, version)
    status, kind, body = post(ep, json.dumps(BATCH).encode(), in_session(session, version))
    assert (status, kind) == (400, "application/json"), (status, kind, body)
    assert body["id"] is None and body["error"]["code"] == -32600 and "2025-03-26" in body["error"]["message"]
    # the session goes on, and a 2025-03-26 session still answers a batch, as one JSON array
    status, _, body = post(ep, json.dumps({"jsonrpc": "2.0", "id": 9, "method": "ping"}).encode(),
                           in_session(session, version))
    assert (status, body) == (200, {"jsonrpc": "2.0", "id": 9, "result": {}})
    old = handshake(ep, "2025-03-26")
    status, _, body = post(ep, json.dumps(BATCH).encode(), in_session(old, "2025-03-26"))
    assert status == 200 and sorted(answer["id"] for answer in body) == [2, 3], body


def test_an_empty_object_and_invalid_notifications_are_400_not_202(ep):
    session = handshake(ep)
    headers = in_session(session, "2025-11-25")
    for message in ({}, {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": "x"},
                    {"jsonrpc": "2.0", "method": "notifications/roots/list_changed", "params": [1]},
                    {"method": "notifications/initialized"}, {"jsonrpc": "2.0", "id": 4}):
        status, kind, body = post(ep, json.dumps(message).encode(), headers)
        assert (status, kind) == (400, "application/json"), (message, status, body)
        assert body["error"]["code"] == -32600, (message, body)
    status, _, body = post(ep, json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}).encode(),
                           headers)
    assert (status, body) == (202, b"")                 # a valid notification is still accepted


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_a_body_that_is_not_json_is_415(ep, content_type):
    session = handshake(ep)
    headers = in_session(session, "2025-11-25")
    del headers["Content-Type"]
    if content_type is not None:
        headers["Content-Type"] = content_type
    call = {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "x"}}}
    status, _, body = post(ep, json.dumps(call).encode(), headers)
    assert status == 415 and body["error"]["code"] == -32600, body
    status, _, body = post(ep, json.dumps(call).encode(), in_session(session, "2025-11-25",
                           **{"Content-Type": "application/json; charset=utf-8"}))
    assert status == 200 and "result" in body, body     # parameters on the type are fine


@pytest.mark.parametrize("accept", ["text/html", "", "image/png, text/plain"])
def test_an_accept_without_json_or_sse_is_406(ep, accept):
    session = handshake(ep)
    status, _, body = post(ep, json.dumps({"jsonrpc": "2.0", "id": 6, "method": "ping"}).encode(),
                           in_session(session, "2025-11-25", Accept=accept))
    assert status == 406 and body["error"]["code"] == -32600, body
    connection = ep.connect()
    connection.request("GET", "/mcp", headers={"Mcp-Session-Id": session, "Accept": "application/json"})
    response = connection.getresponse()
    assert response.status == 406                        # a GET stream is SSE or nothing
    response.read()
    connection.close()
    for accepted in ("application/json", "text/event-stream", "*/*", "application/*;q=0.9"):
        status, _, _ = post(ep, json.dumps({"jsonrpc": "2.0", "id": 7, "method": "ping"}).encode(),
                            in_session(session, "2025-11-25", Accept=accepted))
        assert status == 200, accepted


ODD_MESSAGES = [{}, BATCH, 5, "x", {"jsonrpc": "2.0", "id": 4},
                {"jsonrpc": "2.0", "id": 11, "method": "no/such/method"},
                {"jsonrpc": "1.0", "id": 13, "method": "ping"},
                # last: a call runs on the pool, so on stdio a refusal sent after it could be answered first
                {"jsonrpc": "2.0", "id": 12, "method": "tools/call", "params": {"name": "no_such_tool"}}]
BAD_NOTIFICATIONS = [{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": "x"},
                     {"jsonrpc": "2.0", "method": "notifications/roots/list_changed", "params": [1]}]


def test_http_answers_each_odd_message_exactly_as_stdio_does(ep):
    # One admission path: the session decides, the transport only picks a status. The same
    # messages, in a 2025-11-25 session on each transport, get the same JSON-RPC answers; a
    # notification it refuses gets none on stdio (JSON-RPC answers no notification) and a 400
    # with the same refusal over HTTP (the transport spec: an error status for input it cannot accept).
    from conftest import load_example, transcript
    opening = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "http-test", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    over_stdio = transcript(load_example("everything").app, opening + BAD_NOTIFICATIONS + ODD_MESSAGES)[1:]
    session = handshake(ep)
    over_http, statuses = [], []
    for message in BAD_NOTIFICATIONS + ODD_MESSAGES:
        status, kind, body = post(ep, json.dumps(message).encode(), in_session(session, "2025-11-25"))
        assert kind == "application/json", (message, status, body)
        over_http.append(body)
        statuses.append(status)
    assert over_http[len(BAD_NOTIFICATIONS):] == over_stdio
    assert [body["error"]["code"] for body in over_http[:len(BAD_NOTIFICATIONS)]] == [-32600, -32600]
    assert statuses == [400] * 7 + [200, 400, 200]      # a malformed message is 400; an error answer is 200
