"""Streamable HTTP (issue 16): HTTP requests in, HTTP responses out, on a real loopback socket.

Each test starts the standard library's threading server (``minimcp_http._serve_http``,
the code behind ``app.run(transport="http")``) on a free port of 127.0.0.1 and
talks to it with ``http.client``.
"""

import contextlib
import http.client
import json
import socket
import threading
import time

import pytest

from conftest import SERVE, load_example
import minimcp
import minimcp_http
from minimcp import Context, MCPServer

MODERN = "2026-07-28"
ENVELOPE = {"io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}, "sampling": {}},
            "io.modelcontextprotocol/clientInfo": {"name": "http-test", "version": "1"}}
ACCEPT = "application/json, text/event-stream"


class Endpoint:
    """A running HTTP server for one app, and a few ways to talk to it."""

    def __init__(self, app, **options):
        self.app = app
        box = {}
        ready = threading.Event()

        def keep(httpd):
            box["httpd"] = httpd
            ready.set()
        self.thread = threading.Thread(target=minimcp_http._serve_http, args=(app, "127.0.0.1", 0),
                                       kwargs=dict(options, ready=keep), daemon=True)
        self.thread.start()
        assert ready.wait(10), "the HTTP server did not start"
        self.httpd = box["httpd"]
        self.port = self.httpd.server_address[1]

    def close(self):
        self.httpd.shutdown()
        self.thread.join(10)

    def connect(self, timeout=10):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def post(self, message, headers=None, raw=None, path="/mcp"):
        """POST one message; returns (status, headers dict, parsed body or SSE events or None)."""
        connection = self.connect()
        body = raw if raw is not None else json.dumps(message).encode("utf-8")
        all_headers = {"Content-Type": "application/json", "Accept": ACCEPT}
        all_headers.update(headers or {})
        connection.request("POST", path, body=body, headers=all_headers)
        response = connection.getresponse()
        return read(response, connection)

    def modern(self, method, params=None, request_id=1, headers=None):
        params = dict(params or {})
        params["_meta"] = dict(ENVELOPE, **params.get("_meta", {}))
        message = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
        sent = {"MCP-Protocol-Version": MODERN, "Mcp-Method": method}
        if method in ("tools/call", "prompts/get"):
            sent["Mcp-Name"] = params.get("name", "")
        if method == "resources/read":
            sent["Mcp-Name"] = params.get("uri", "")
        sent.update(headers or {})
        return self.post(message, {k: v for k, v in sent.items() if v is not None})


def read(response, connection):
    headers = {k.lower(): v for k, v in response.getheaders()}
    data = response.read()
    connection.close()
    if headers.get("content-type", "").startswith("text/event-stream"):
        return response.status, headers, sse_events(data)
    return response.status, headers, json.loads(data) if data else None


def sse_events(data):
    events = []
    for block in data.decode("utf-8").split("\n\n"):
        lines = [line[5:].strip() for line in block.split("\n") if line.startswith("data:")]
        if lines:
            events.append(json.loads("\n".join(lines)))
    return events


@pytest.fixture
def endpoint():
    started = []

    def start(app=None, **options):
        running = Endpoint(app or load_example("everything").app, **options)
        started.append(running)
        return running
    yield start
    for running in started:
        running.close()


def handshake(ep, version="2025-11-25", capabilities=None):
    status, headers, body = ep.post({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": capabilities or {},
        "clientInfo": {"name": "http-test", "version": "1"}}})
    assert status == 200 and body["result"]["protocolVersion"] == version, (status, body)
    session = headers["mcp-session-id"]
    status, _, body = ep.post({"jsonrpc": "2.0", "method": "notifications/initialized"},
                              {"Mcp-Session-Id": session, "MCP-Protocol-Version": version})
    assert status == 202 and body is None
    return session


# -- the handshake era ---------------------------------------------------------------------

def test_handshake_session_json_answers_and_sse_for_progress(endpoint):
    ep = endpoint()
    session = handshake(ep)
    assert all(0x21 <= ord(c) <= 0x7E for c in session)
    with_session = {"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"}
    status, headers, body = ep.post({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, with_session)
    assert status == 200 and headers["content-type"] == "application/json"
    assert "echo" in [t["name"] for t in body["result"]["tools"]]
    status, headers, events = ep.post({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "slow", "arguments": {"seconds": 0.2, "steps": 3}, "_meta": {"progressToken": "p"}}}, with_session)
    assert status == 200 and headers["content-type"] == "text/event-stream"
    assert headers["x-accel-buffering"] == "no"
    assert [e.get("method") for e in events] == ["notifications/progress"] * 3 + [None]
    assert events[-1]["id"] == 3 and events[-1]["result"]["content"][0]["text"] == "done"


def test_missing_unknown_and_deleted_sessions(endpoint):
    ep = endpoint()
    status, _, body = ep.post({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    assert status == 400 and body["error"]["code"] == -32600 and "Mcp-Session-Id" in body["error"]["message"]
    status, _, body = ep.post({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, {"Mcp-Session-Id": "nope"})
    assert status == 404 and "Session not found" in body["error"]["message"]
    session = handshake(ep)
    forged = session[:-3] + ("AAA" if not session.endswith("AAA") else "BBB")
    status, _, _ = ep.post({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, {"Mcp-Session-Id": forged})
    assert status == 404
    connection = ep.connect()
    connection.request("DELETE", "/mcp", headers={"Mcp-Session-Id": session})
    assert connection.getresponse().status == 204
    connection.close()
    status, _, _ = ep.post({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, {"Mcp-Session-Id": session})
    assert status == 404
    status, _, body = ep.post({"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                              {"Mcp-Session-Id": handshake(ep), "MCP-Protocol-Version": "2099-01-01"})
    assert status == 400 and "2099-01-01" in body["error"]["message"]


def test_a_session_takes_any_supported_protocol_version_header(endpoint):
    # The client SHOULD send the negotiated version; only an invalid or unsupported one MUST get 400
    # (2025-11-25 transports, Protocol Version Header). The conformance suite sends 2025-03-26 here.
    ep = endpoint()
    session = handshake(ep)
    for version in ("2025-03-26", "2025-06-18", "2025-11-25"):
        status, _, body = ep.post({"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                                  {"Mcp-Session-Id": session, "MCP-Protocol-Version": version})
        assert status == 200 and "tools" in body["result"], (version, status, body)
    connection = ep.connect()
    connection.request("GET", "/mcp", headers={"Mcp-Session-Id": session, "Accept": "text/event-stream",
                                               "MCP-Protocol-Version": "2026-07-28"})
    assert connection.getresponse().status == 400      # not a handshake revision: no session speaks it
    connection.close()


def test_sampling_question_travels_on_the_post_stream_and_the_answer_comes_back_by_post(endpoint):
    ep = endpoint()
    session = handshake(ep, capabilities={"sampling": {}})
    with_session = {"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"}
    connection = ep.connect()
    connection.request("POST", "/mcp", body=json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                                                         "params": {"name": "sample", "arguments": {"prompt": "hi"}}}),
                       headers=dict(with_session, **{"Content-Type": "application/json", "Accept": ACCEPT}))
    response = connection.getresponse()
    assert response.getheader("Content-Type") == "text/event-stream"
    question = None
    while question is None:
        line = response.fp.readline()
        assert line, "the stream ended before the question"
        if line.startswith(b"data:"):
            question = json.loads(line[5:])
    assert question["method"] == "sampling/createMessage"
    status, _, body = ep.post({"jsonrpc": "2.0", "id": question["id"], "result": {
        "role": "assistant", "content": {"type": "text", "text": "sampled!"}, "model": "m"}}, with_session)
    assert status == 202 and body is None
    events = sse_events(response.read())
    connection.close()
    assert events[-1]["id"] == 7 and "sampled!" in events[-1]["result"]["content"][0]["text"]


def test_get_stream_carries_list_changed(endpoint):
    app = load_example("everything").app
    ep = endpoint(app, keepalive=0.2)
    session = handshake(ep)
    connection = ep.connect()
    connection.request("GET", "/mcp", headers={"Mcp-Session-Id": session, "Accept": "text/event-stream"})
    response = connection.getresponse()
    assert response.status == 200 and response.getheader("Content-Type") == "text/event-stream"
    assert response.fp.readline().startswith(b":")            # the stream is open
    app.add_tool(lambda: "x", name="added_later")
    while True:
        line = response.fp.readline()
        assert line, "the GET stream ended"
        if line.startswith(b"data:"):
            assert json.loads(line[5:]) == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
            break
    connection.close()
    connection = ep.connect()
    connection.request("GET", "/mcp")
    assert connection.getresponse().status == 405
    connection.close()


def test_a_replica_with_the_same_key_serves_another_replicas_session(endpoint, monkeypatch, tmp_path):
    monkeypatch.setenv("MINIMCP_SESSION_DIR", str(tmp_path))   # a shared key's deleted ids: kept here
    monkeypatch.setenv("MINIMCP_STATE_KEY", "shared secret")      # as every replica's environment says
    first = endpoint(load_example("everything").app)
    second = endpoint(load_example("everything").app)
    monkeypatch.delenv("MINIMCP_STATE_KEY")
    session = handshake(first)
    status, _, body = second.post({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "echo", "arguments": {"text": "elsewhere"}}}, {"Mcp-Session-Id": session})
    assert status == 200 and body["result"]["content"][0]["text"] == "elsewhere"
    stranger = endpoint(load_example("everything").app)              # another key: an unknown session
    status, _, _ = stranger.post({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, {"Mcp-Session-Id": session})
    assert status == 404


def test_sessions_are_bounded_and_idle_ones_expire(endpoint):
    ep = endpoint(max_sessions=20)
    sessions = [handshake(ep) for _ in range(60)]
    assert len(ep.httpd.get_app().sessions) <= 20
    status, _, body = ep.post({"jsonrpc": "2.0", "id": 2, "method": "ping"}, {"Mcp-Session-Id": sessions[-1]})
    assert status == 200 and body["result"] == {}
    live = len(ep.app._live_sessions())
    assert live <= 21, live                     # the registry forgets the expired sessions too


# -- 2026-07-28 ------------------------------------------------------------------------------

def test_modern_requests_stand_alone(endpoint):
    ep = endpoint()
    status, headers, body = ep.modern("tools/call", {"name": "echo", "arguments": {"text": "hi"}})
    assert status == 200 and body["result"]["content"][0]["text"] == "hi"
    assert body["result"]["resultType"] == "complete" and "mcp-session-id" not in headers
    status, _, body = ep.modern("server/discover")
    assert status == 200 and MODERN in body["result"]["supportedVersions"]
    assert ep.app._live_sessions() == []        # nothing is kept between requests


@pytest.mark.parametrize("headers, code, status", [
    ({"Mcp-Method": None}, -32020, 400),
    ({"Mcp-Method": "tools/list"}, -32020, 400),
    ({"Mcp-Name": "other"}, -32020, 400),
    ({"Mcp-Name": None}, -32020, 400),
    ({"MCP-Protocol-Version": "2099-01-01"}, -32022, 400),
])
def test_modern_header_validation(endpoint, headers, code, status):
    ep = endpoint()
    got, _, body = ep.modern("tools/call", {"name": "echo", "arguments": {"text": "hi"}}, headers=headers)
    assert (got, body["error"]["code"]) == (status, code), body


def test_modern_name_header_may_be_base64_and_unknown_methods_are_404(endpoint):
    ep = endpoint()
    status, _, body = ep.modern("tools/call", {"name": "echo", "arguments": {"text": "b"}},
                                headers={"Mcp-Name": "=?base64?ZWNobw==?="})
    assert status == 200 and body["result"]["content"][0]["text"] == "b"
    status, _, body = ep.modern("no/such/method")
    assert status == 404 and body["error"]["code"] == -32601
    status, _, body = ep.modern("tools/call", {"name": "echo", "arguments": {"text": "x"},
                                               "_meta": {"io.modelcontextprotocol/clientCapabilities": 5}})
    assert status == 400 and body["error"]["code"] == -32602
    status, _, body = ep.post({"jsonrpc": "2.0", "method": "notifications/cancelled",
                               "params": {"requestId": 1}}, {"MCP-Protocol-Version": MODERN})
    assert status == 202 and body is None


def test_mirrored_parameter_headers_are_checked(endpoint):
    app = MCPServer("headers")

    @app.tool(input_schema={"type": "object", "properties": {
        "region": {"type": "string", "x-mcp-header": "Region"}, "count": {"type": "integer", "x-mcp-header": "Count"}}})
    def locate(region: str = "", count: int = 0) -> str:
        return "%s/%d" % (region, count)
    ep = endpoint(app)
    call = {"name": "locate", "arguments": {"region": "eu-west", "count": 3}}
    status, _, body = ep.modern("tools/call", call, headers={"Mcp-Param-Region": "eu-west", "Mcp-Param-Count": "3"})
    assert status == 200 and body["result"]["content"][0]["text"] == "eu-west/3"
    status, _, body = ep.modern("tools/call", call, headers={"Mcp-Param-Region": "us-east", "Mcp-Param-Count": "3"})
    assert status == 400 and body["error"]["code"] == -32020
    status, _, body = ep.modern("tools/call", call, headers={"Mcp-Param-Count": "3"})
    assert status == 400 and body["error"]["code"] == -32020


def test_mrtr_rounds_on_two_replicas_sharing_a_key(endpoint, monkeypatch, tmp_path):
    monkeypatch.setenv("MINIMCP_SESSION_DIR", str(tmp_path))   # a shared key's deleted ids: kept here
    monkeypatch.setenv("MINIMCP_STATE_KEY", "one secret for every replica")
    replicas = [endpoint(load_example("everything").app) for _ in range(2)]
    monkeypatch.delenv("MINIMCP_STATE_KEY")
    status, _, body = replicas[0].modern("tools/call", {"name": "elicit", "arguments": {}})
    result = body["result"]
    assert status == 200 and result["resultType"] == "input_required", body
    (key, question), = result["inputRequests"].items()
    assert question["method"] == "elicitation/create"
    retry = {"name": "elicit", "arguments": {}, "requestState": result["requestState"],
             "inputResponses": {key: {"action": "accept", "content": {"name": "Ada"}}}}
    status, _, body = replicas[1].modern("tools/call", retry, request_id=2)
    assert status == 200 and body["result"]["content"][0]["text"] == "accept: Ada", body
    alone = endpoint(load_example("everything").app)                  # its own random key
    status, _, body = alone.modern("tools/call", retry, request_id=3)
    assert body["error"]["code"] == -32602 and "not issued by this server" in body["error"]["message"]


def waiting_app(name, progress):
    """An app whose ``wait`` tool sleeps until cancelled; events say it started and stopped."""
    app = MCPServer(name)
    started, stopped = threading.Event(), threading.Event()

    @app.tool()
    def wait(ctx: Context) -> str:
        if progress:
            ctx.progress(1, 2)
        started.set()
        try:
            ctx.sleep(30)
        finally:
            stopped.set()
        return "late"
    return app, started, stopped


def post_wait_call(ep, meta):
    """Send a 2026-07-28 ``wait`` call on a connection of its own; returns (connection, its socket)."""
    connection = ep.connect()
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "wait", "_meta": meta}})
    connection.request("POST", "/mcp", body=body, headers={
        "Content-Type": "application/json", "Accept": ACCEPT, "MCP-Protocol-Version": MODERN,
        "Mcp-Method": "tools/call", "Mcp-Name": "wait"})
    return connection, connection.sock


def test_closing_the_stream_cancels_a_modern_request(endpoint):
    app, started, stopped = waiting_app("cancel", progress=True)
    ep = endpoint(app, keepalive=0.1)
    connection, sock = post_wait_call(ep, dict(ENVELOPE, progressToken="t"))
    response = connection.getresponse()
    assert response.getheader("Content-Type") == "text/event-stream"
    assert response.fp.readline().startswith(b"event:")       # the progress event: it runs
    assert started.wait(10)
    sock.shutdown(socket.SHUT_RDWR)
    response.close()
    connection.close()
    assert stopped.wait(10), "closing the stream did not cancel the tool"


def test_a_client_that_goes_away_before_any_event_cancels_a_modern_request(endpoint):
    # No progress token and the default keepalive: nothing is written until the answer, so the
    # server must probe the connection to see the disconnect (the SDKs cancel this way).
    app, started, stopped = waiting_app("cancel-quiet", progress=False)
    ep = endpoint(app, disconnect_probe=0.05)                  # how often it probes (0.5 s by default)
    connection, sock = post_wait_call(ep, ENVELOPE)
    assert started.wait(10)
    sock.shutdown(socket.SHUT_RDWR)
    connection.close()
    assert stopped.wait(5), "a disconnect before the first event did not cancel the tool"


def test_listen_streams_list_changes(endpoint):
    app = load_example("everything").app
    ep = endpoint(app, keepalive=0.05)
    connection = ep.connect()
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen", "params": {
        "notifications": {"toolsListChanged": True}, "_meta": ENVELOPE}})
    connection.request("POST", "/mcp", body=body, headers={
        "Content-Type": "application/json", "Accept": ACCEPT, "MCP-Protocol-Version": MODERN,
        "Mcp-Method": "subscriptions/listen"})
    sock = connection.sock
    response = connection.getresponse()

    def next_event():
        while True:
            line = response.fp.readline()
            assert line, "the stream ended"
            if line.startswith(b"data:"):
                return json.loads(line[5:])
    assert next_event()["method"] == "notifications/subscriptions/acknowledged"
    app.add_tool(lambda: "x", name="added_for_listeners")
    event = next_event()
    assert event["method"] == "notifications/tools/list_changed"
    sock.shutdown(socket.SHUT_RDWR)
    response.close()
    connection.close()
    deadline = time.monotonic() + 10
    while app._live_sessions() and time.monotonic() < deadline:    # the keep-alive finds it gone
        time.sleep(0.05)
    assert app._live_sessions() == []


# -- security and faults ------------------------------------------------------------------------

def test_dns_rebinding_host_and_origin(endpoint):
    ep = endpoint()
    status, _, body = ep.modern("tools/list", headers={"Host": "evil.example:8000"})
    assert status == 421 and body["error"]["code"] == -32600
    status, _, _ = ep.modern("tools/list", headers={"Origin": "https://evil.example"})
    assert status == 403
    status, headers, _ = ep.modern("tools/list", headers={"Origin": "http://localhost:5173"})
    assert status == 200 and headers["access-control-allow-origin"] == "http://localhost:5173"
    allowed = endpoint(allowed_hosts=["mcp.example.com"], allowed_origins=["https://app.example.com"])
    status, _, _ = allowed.modern("tools/list", headers={"Host": "mcp.example.com", "Origin": "https://app.example.com"})
    assert status == 200
    connection = allowed.connect()
    connection.request("OPTIONS", "/mcp", headers={"Host": "mcp.example.com", "Origin": "https://app.example.com",
                                                   "Access-Control-Request-Method": "POST"})
    response = connection.getresponse()
    assert response.status == 204 and "mcp-session-id" in response.getheader("Access-Control-Allow-Headers")
    connection.close()


def test_bearer_token_and_auth_hook(endpoint, monkeypatch):
    monkeypatch.setenv("MINIMCP_HTTP_TOKEN", "s3cret")
    ep = endpoint()
    status, headers, _ = ep.modern("tools/list")
    assert status == 401 and headers["www-authenticate"].startswith("Bearer")
    status, _, _ = ep.modern("tools/list", headers={"Authorization": "Bearer wrong"})
    assert status == 401
    status, _, _ = ep.modern("tools/list", headers={"Authorization": "Bearer s3cret"})
    assert status == 200
    monkeypatch.delenv("MINIMCP_HTTP_TOKEN")
    seen = []
    hooked = endpoint(auth=lambda headers: seen.append(headers.get("x-api-key")) or headers.get("x-api-key") == "k")
    assert hooked.modern("tools/list", headers={"X-Api-Key": "k"})[0] == 200
    assert hooked.modern("tools/list", headers={"X-Api-Key": "no"})[0] == 401
    assert seen == ["k", "no"]


def test_bad_bodies_get_clear_errors_and_the_server_goes_on(endpoint):
    ep = endpoint(max_body=1024)
    status, _, body = ep.post(None, raw=b"{not json", headers={"MCP-Protocol-Version": MODERN})
    assert status == 400 and body["error"]["code"] == -32700
    status, _, body = ep.post(None, raw=b"[1, 2]", headers={"MCP-Protocol-Version": MODERN})
    assert status == 400 and body["error"]["code"] == -32600
    status, _, body = ep.post(None, raw=b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "x": "' + b"a" * 2000 + b'"}')
    assert status == 413 and "limit is 1024" in body["error"]["message"]
    status, _, body = ep.post({"jsonrpc": "2.0", "id": 1, "method": "ping"}, path="/other")
    assert status == 404
    assert ep.modern("tools/list")[0] == 200


def test_a_slow_client_is_cut_off_and_others_are_served(endpoint):
    ep = endpoint(read_timeout=0.2)
    slow = socket.create_connection(("127.0.0.1", ep.port))
    slow.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")            # ... and then nothing
    assert ep.modern("tools/list")[0] == 200                              # served meanwhile
    slow.settimeout(10)
    assert slow.recv(65536) == b""                                        # closed after the read timeout
    slow.close()


def serve_over_http_and_call(script, tool, arguments):
    """``minimcp.py serve --http 127.0.0.1:0 SCRIPT`` (conftest.SERVE), one 2026-07-28 call, then SIGTERM.

    Returns (the "serving" line, the call's result, the exit status, what stdout held).
    """
    import subprocess
    from conftest import ROOT
    process = subprocess.Popen(SERVE + ["--http", "127.0.0.1:0", str(script)],
                               cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        line = ""
        while "serving" not in line:                      # printed once the socket is bound
            line = process.stderr.readline().decode()
            assert line, "the server exited before serving"
        port = int(line.rsplit(":", 1)[1].split("/")[0])
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": tool, "arguments": arguments, "_meta": ENVELOPE}})
        connection.request("POST", "/mcp", body=body, headers={
            "Content-Type": "application/json", "Accept": ACCEPT, "MCP-Protocol-Version": MODERN,
            "Mcp-Method": "tools/call", "Mcp-Name": tool})
        status, _, answer = read(connection.getresponse(), connection)
        assert status == 200, answer
    finally:
        process.terminate()
        code = process.wait(10)
    return line, answer["result"], code, process.stdout.read()


def test_the_command_line_serves_a_script_over_http():
    line, result, code, stdout = serve_over_http_and_call("examples/everything.py", "echo", {"text": "cli"})
    assert "serving everything at http://127.0.0.1:" in line, line
    assert result["content"][0]["text"] == "cli"
    assert code == 0                                          # SIGTERM ends it cleanly
    assert stdout == b""                                      # HTTP mode writes nothing on stdout


@pytest.mark.parametrize("method", ["tasks/get", "tasks/update", "tasks/cancel"])
def test_task_methods_carry_the_task_id_in_mcp_name(endpoint, method):
    # SEP-2663 Routing Headers: the client MUST set Mcp-Name to params.taskId, so a load balancer
    # can route on it; a server that reads the body MUST refuse a mismatch with 400 and -32020.
    ep = endpoint()
    params = {"taskId": "t-1", "inputResponses": {}} if method == "tasks/update" else {"taskId": "t-1"}
    for name in ("t-2", None):
        status, _, body = ep.modern(method, params, headers={"Mcp-Name": name})
        assert (status, body["error"]["code"]) == (400, -32020), (name, body)
    status, _, body = ep.modern(method, params, headers={"Mcp-Name": "=?base64?dC0x?="})
    assert body["error"]["code"] != -32020, body       # the header matches: the task itself is unknown


@pytest.mark.parametrize("meta", [None, {"io.modelcontextprotocol/clientCapabilities": {}},
                                  {"io.modelcontextprotocol/protocolVersion": MODERN}])
def test_a_discover_without_a_whole_envelope_is_a_bad_request(endpoint, meta):
    # RequestParams requires _meta on server/discover as on every request; SEP-2575 answers a
    # missing or incomplete envelope on HTTP with 400 and -32602 (conformance: server-stateless).
    ep = endpoint()
    message = {"jsonrpc": "2.0", "id": 7, "method": "server/discover", "params": {} if meta is None else {"_meta": meta}}
    status, _, body = ep.post(message, {"MCP-Protocol-Version": MODERN, "Mcp-Method": "server/discover"})
    assert (status, body["id"], body["error"]["code"]) == (400, 7, -32602), body
    if meta is None:
        assert "_meta is required" in body["error"]["message"]


def test_initialize_under_the_2026_header_is_a_method_that_does_not_exist(endpoint):
    # 2026-07-28 removed initialize; on HTTP a method the revision does not implement MUST be
    # 404 Not Found with -32601 (SEP-2575; conformance: sep-2575-http-server-method-not-found-404-initialize).
    ep = endpoint()
    status, headers, body = ep.modern("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                                     "clientInfo": {"name": "http-test", "version": "1"}})
    assert (status, body["id"], body["error"]["code"]) == (404, 1, -32601), body
    assert "mcp-session-id" not in headers and ep.app._live_sessions() == []
    handshake(ep)                                  # without the header, initialize still opens a session


def test_a_2026_task_outlives_the_request_that_created_it(endpoint):
    # Every 2026-07-28 POST stands alone, yet SEP-2663 says a tasks/get for the taskId of a
    # CreateTaskResult must resolve; the task must keep running after its creating request ends.
    app = MCPServer("tasks-over-http")
    started, release = threading.Event(), threading.Event()

    @app.tool(task_support="optional")
    def gated() -> str:
        started.set()
        release.wait(10)
        return "released"

    @app.tool(task_support="optional")
    def forever(ctx: Context) -> str:
        while not ctx.cancelled:
            ctx.sleep(0.01)
        return "stopped"

    ep = endpoint(app)
    caps = {"_meta": {"io.modelcontextprotocol/clientCapabilities": {
        "extensions": {"io.modelcontextprotocol/tasks": {}}}}}

    def task_call(name):
        status, _, body = ep.modern("tools/call", dict(caps, name=name, arguments={}))
        assert status == 200 and body["result"]["resultType"] == "task", body
        return body["result"]["taskId"]

    def get(task_id):
        status, _, body = ep.modern("tasks/get", dict(caps, taskId=task_id), headers={"Mcp-Name": task_id})
        assert status == 200 and "result" in body, body
        return body["result"]

    task_id = task_call("gated")
    assert started.wait(10)
    assert get(task_id)["status"] == "working"          # found, and not cancelled with its request
    release.set()
    deadline = time.monotonic() + 10
    while get(task_id)["status"] == "working":           # the worker finishes on its own time
        assert time.monotonic() < deadline, "the task never completed"
        time.sleep(0.01)
    done = get(task_id)
    assert done["status"] == "completed" and done["result"]["content"][0]["text"] == "released"

    other = task_call("forever")
    status, _, body = ep.modern("tasks/cancel", dict(caps, taskId=other), headers={"Mcp-Name": other})
    assert status == 200 and "result" in body, body
    assert get(other)["status"] == "cancelled"


def test_a_listen_stream_hears_a_task_made_by_another_request(endpoint):
    # SEP-2663 delivers notifications/tasks on the subscriptions/listen stream; over HTTP the
    # listen is one POST and the task was made by another, so the task must find that stream.
    app = MCPServer("task-listeners")
    release = threading.Event()

    @app.tool(task_support="optional")
    def gated() -> str:
        release.wait(10)
        return "released"

    ep = endpoint(app, keepalive=0.2)
    meta = dict(ENVELOPE, **{"io.modelcontextprotocol/clientCapabilities": {
        "extensions": {"io.modelcontextprotocol/tasks": {}}}})
    status, _, body = ep.modern("tools/call", {"name": "gated", "arguments": {}, "_meta": meta})
    task_id = body["result"]["taskId"]
    connection = ep.connect()
    connection.request("POST", "/mcp", body=json.dumps({"jsonrpc": "2.0", "id": 9, "method": "subscriptions/listen",
                                                        "params": {"notifications": {"taskIds": [task_id]},
                                                                   "_meta": meta}}),
                       headers={"Content-Type": "application/json", "Accept": ACCEPT, "MCP-Protocol-Version": MODERN,
                                "Mcp-Method": "subscriptions/listen"})
    response = connection.getresponse()

    def next_event():
        deadline = time.monotonic() + 10                 # keep-alives arrive every 0.2 s meanwhile
        while time.monotonic() < deadline:
            line = response.fp.readline()
            assert line, "the stream ended"
            if line.startswith(b"data:"):
                return json.loads(line[5:])
        raise AssertionError("no event on the listen stream")
    acknowledged = next_event()
    assert acknowledged["method"] == "notifications/subscriptions/acknowledged"
    assert acknowledged["params"]["notifications"]["taskIds"] == [task_id]
    release.set()
    event = next_event()
    assert event["method"] == "notifications/tasks" and event["params"]["taskId"] == task_id
    assert event["params"]["status"] == "completed", event
    response.close()
    connection.close()


def test_an_sdk_style_server_runs_streamable_http_through_the_alias(tmp_path):
    script = tmp_path / "sdk_http_server.py"
    script.write_text("from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('sdk-http', port=0)\n\n"
                      "@mcp.tool()\ndef shout(text: str) -> str:\n    return text.upper()\n\n"
                      "if __name__ == '__main__':\n    mcp.run(transport='streamable-http')\n")
    _, result, code, _ = serve_over_http_and_call(script, "shout", {"text": "sdk"})
    assert result["content"][0]["text"] == "SDK" and code == 0


def test_ten_times_max_sessions_abandoned_leak_nothing(endpoint):
    # Ten times the bound (once a thousand against 100: 1.7 s of requests that prove no more).
    import gc
    app = load_example("everything").app
    ep = endpoint(app, max_sessions=20)
    handshake(ep)                                              # warm up: the pool, the first session
    threads_before = threading.active_count()
    for _ in range(200):                                       # initialize, then never come back
        status, headers, _ = ep.post({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "gone", "version": "1"}}})
        assert status == 200 and headers["mcp-session-id"]
    table = ep.httpd.get_app().sessions
    assert len(table) <= 20                                    # the table is bounded ...
    assert len(app._live_sessions()) <= 21                     # ... and so is the registry's list
    gc.collect()
    sessions = sum(1 for o in gc.get_objects() if type(o).__name__ == "_Session" and o.server is app)
    assert sessions <= 30, sessions                            # the evicted ones are gone from memory
    assert threading.active_count() <= threads_before + 2      # no thread per abandoned session
    assert ep.modern("tools/list")[0] == 200                   # and the server goes on


def counting_app(dialect_class):
    entered, exited = [], []

    @contextlib.contextmanager
    def lifespan(server):
        number = len(entered) + 1
        entered.append(number)
        try:
            yield {"session_number": number}
        finally:
            exited.append(number)
    app = dialect_class("per-session", lifespan=lifespan)

    @app.tool()
    def which(ctx: minimcp.Context) -> str:
        return "lifespan %d" % ctx.request_context.lifespan_context["session_number"]
    return app, entered, exited


def http_call(ep, session, name):
    status, _, body = ep.post({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                               "params": {"name": name, "arguments": {}}},
                              {"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"})
    assert status == 200, body
    return body["result"]["content"][0]["text"]


def test_mcp1_servers_enter_the_lifespan_per_http_session_and_exit_it_when_the_session_ends():
    from test_http import Endpoint, handshake
    app, entered, exited = counting_app(minimcp.FastMCP)           # mcp 1.x's class: the mcp1 dialect
    ep = Endpoint(app)
    try:
        first, second = handshake(ep), handshake(ep)
        assert entered == [1, 2] and exited == []
        assert http_call(ep, first, "which") == "lifespan 1" and http_call(ep, second, "which") == "lifespan 2"
        connection = ep.connect()
        connection.request("DELETE", "/mcp", headers={"Mcp-Session-Id": first, "MCP-Protocol-Version": "2025-11-25"})
        assert connection.getresponse().status == 204
        connection.close()
        assert exited == [1] and http_call(ep, second, "which") == "lifespan 2"
    finally:
        ep.close()


def test_other_dialects_enter_the_lifespan_once_for_every_http_session():
    from test_http import Endpoint, handshake
    app, entered, exited = counting_app(minimcp.MCPServer)         # minimcp's own, as mcp 2.x: once per process
    ep = Endpoint(app)
    try:
        first, second = handshake(ep), handshake(ep)
        assert http_call(ep, first, "which") == http_call(ep, second, "which") == "lifespan 1"
        assert entered == [1] and exited == []
    finally:
        ep.close()
