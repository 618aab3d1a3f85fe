"""``app.asgi`` (issue 42): the Streamable HTTP endpoint as an ASGI 3 application, on the wire.

The app runs behind tests/asgi_driver.py, a small server on asyncio's streams that speaks
plain HTTP/1.1 to ``http.client``: requests in, responses out. Both eras, sessions and
their streams, the security checks, the session table shared with ``app.wsgi``, a session
another replica opened, a client that leaves, and the lifespan events. The real servers
(uvicorn, hypercorn, granian) run in tests/interop/run_asgi.sh.
"""

import contextlib
import json
import socket
import threading

import pytest

from asgi_driver import ASGIServer
from minimcp import Cancelled, Context, MCPServer
from test_http import ACCEPT, ENVELOPE, MODERN, handshake
from test_http_fairness import ASGIEndpoint, WAIT, session_headers, text_of
from test_wsgi_entry import call_wsgi


@pytest.fixture
def served():
    started = []

    def start(app, **options):
        # a minute's keepalive: a stream that ended only at its next keep-alive would fail the test
        started.append(ASGIEndpoint(app, **dict({"keepalive": 60.0}, **options)))
        return started[-1]
    yield start
    for endpoint in started:
        endpoint.close()


def app_with_changes():
    app = MCPServer("asgi", dialect="minimcp")

    @app.tool()
    def echo(text: str) -> str:
        return text

    @app.tool()
    def steps(ctx: Context, count: int = 3) -> str:
        for step in range(count):
            ctx.progress(step + 1, count)
        return "stepped"

    @app.tool()
    def add_tool() -> str:
        app.add_tool(lambda: "new", name="added")
        return "added"
    return app


def open_get(ep, session):
    connection = ep.connect(timeout=WAIT)
    connection.request("GET", "/mcp", headers={"Mcp-Session-Id": session, "Accept": "text/event-stream"})
    response = connection.getresponse()
    assert response.status == 200 and response.getheader("Content-Type") == "text/event-stream"
    return connection, response


def next_event(response) -> dict:
    """The next ``data:`` event of a stream (comments skipped)."""
    while True:
        block = b""
        while not block.endswith(b"\n\n"):
            line = response.fp.readline()
            assert line, "the stream ended"
            block += line
        data = [line[5:].strip() for line in block.split(b"\n") if line.startswith(b"data:")]
        if data:
            return json.loads(b"\n".join(data))


def test_a_handshake_session_its_streams_and_delete(served):
    ep = served(app_with_changes())
    session = handshake(ep)
    status, _, body = ep.post({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                               "params": {"name": "echo", "arguments": {"text": "hi"}}}, session_headers(session))
    assert status == 200 and body["result"]["content"][0]["text"] == "hi"
    # progress comes first, on the call's own stream, then the answer
    status, headers, events = ep.post({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "steps", "arguments": {"count": 3}, "_meta": {"progressToken": "p"}}}, session_headers(session))
    assert status == 200 and headers["content-type"] == "text/event-stream"
    assert [e.get("method") for e in events] == ["notifications/progress"] * 3 + [None]
    assert text_of(events) == "stepped"
    # the GET stream carries what belongs to no request
    connection, stream = open_get(ep, session)
    status, _, body = ep.post({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                               "params": {"name": "add_tool", "arguments": {}}}, session_headers(session))
    assert status == 200
    assert next_event(stream) == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
    # DELETE ends the session, and its GET stream with it
    delete = ep.connect()
    delete.request("DELETE", "/mcp", headers=session_headers(session))
    assert delete.getresponse().status == 204
    assert stream.read() == b""                          # ended, not at its next keep-alive (15 s)
    connection.close()
    status, _, body = ep.post({"jsonrpc": "2.0", "id": 5, "method": "ping"}, session_headers(session))
    assert status == 404


def test_a_2026_request_stands_alone_and_errors_map_to_statuses(served):
    ep = served(app_with_changes())
    status, headers, body = ep.modern("tools/call", {"name": "echo", "arguments": {"text": "modern"}})
    assert status == 200 and body["result"]["content"][0]["text"] == "modern"
    assert "mcp-session-id" not in headers
    status, _, body = ep.modern("no/such", {})
    assert status == 404 and body["error"]["code"] == -32601
    status, _, body = ep.modern("tools/call", {"name": "echo", "arguments": {"text": "x"}},
                                headers={"Mcp-Name": "other"})
    assert status == 400 and body["error"]["code"] == -32020


def test_a_client_that_leaves_cancels_its_2026_call(served):
    app = MCPServer("leaves", dialect="minimcp")
    started, cancelled = threading.Event(), threading.Event()

    @app.tool()
    def wait(ctx: Context) -> str:
        started.set()
        try:
            ctx.sleep(WAIT * 2)
        except Cancelled:
            cancelled.set()
            raise
        return "slept"

    ep = served(app)
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": "wait", "arguments": {}, "_meta": ENVELOPE}}
    body = json.dumps(message).encode("utf-8")
    client = socket.create_connection(("127.0.0.1", ep.port), timeout=WAIT)
    client.sendall(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: %s\r\n"
                    "MCP-Protocol-Version: %s\r\nMcp-Method: tools/call\r\nMcp-Name: wait\r\n"
                    "Content-Length: %d\r\n\r\n" % (ACCEPT, MODERN, len(body))).encode("latin-1") + body)
    assert started.wait(WAIT)
    client.close()
    assert cancelled.wait(WAIT), "the call ran on after its client left"


@pytest.mark.parametrize("headers, status", [
    ([("Host", "evil.example")], 421),
    ([("Host", "127.0.0.1"), ("Host", "127.0.0.1")], 400),
    ([("Origin", "http://evil.example")], 403),
    ([("Content-Type", "text/plain")], 415),
    ([("Accept", "text/html")], 406),
])
def test_the_security_checks_and_refusals_are_the_wsgi_apps(served, headers, status):
    ep = served(app_with_changes())
    connection = ep.connect()
    connection.putrequest("POST", "/mcp", skip_host=True)
    sent = dict([("Host", "127.0.0.1"), ("Content-Type", "application/json"), ("Accept", ACCEPT)])
    for name, _ in headers:
        sent.pop(name, None)
    for name, value in list(sent.items()) + headers + [("Content-Length", "2")]:
        connection.putheader(name, value)
    connection.endheaders(b"{}")
    response = connection.getresponse()
    body = json.loads(response.read())
    assert response.status == status and body["error"]["code"] == -32600, body


def test_a_body_over_the_limit_and_a_missing_token(served, monkeypatch):
    ep = served(app_with_changes(), max_body=100)
    status, _, body = ep.post(None, raw=b'{"jsonrpc": "2.0", "method": "ping", "id": 1, "pad": "%s"}' % (b"x" * 200))
    assert status == 413 and body["error"]["code"] == -32600
    monkeypatch.setenv("MINIMCP_HTTP_TOKEN", "sesame")
    ep = served(app_with_changes())
    status, headers, _ = ep.modern("tools/call", {"name": "echo", "arguments": {"text": "x"}})
    assert status == 401 and headers["www-authenticate"].startswith("Bearer")
    status, _, body = ep.modern("tools/call", {"name": "echo", "arguments": {"text": "x"}},
                                headers={"Authorization": "Bearer sesame"})
    assert status == 200 and body["result"]["content"][0]["text"] == "x"


def test_app_asgi_shares_its_sessions_with_app_wsgi():
    app = app_with_changes()
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "both", "version": "1"}}}
    status, headers, _ = call_wsgi(app.wsgi, json.dumps(initialize).encode("utf-8"), {"Accept": ACCEPT})
    assert status == "200 OK"
    session = headers["Mcp-Session-Id"]
    server = ASGIServer(app.asgi)
    try:
        endpoint = ASGIEndpoint.__new__(ASGIEndpoint)
        endpoint.port = server.port
        status, _, body = endpoint.post({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "echo", "arguments": {"text": "one table"}}}, session_headers(session))
        assert status == 200 and body["result"]["content"][0]["text"] == "one table"
        delete = endpoint.connect()
        delete.request("DELETE", "/mcp", headers=session_headers(session))
        assert delete.getresponse().status == 204
    finally:
        server.close()
    status, _, _ = call_wsgi(app.wsgi, b'{"jsonrpc": "2.0", "id": 3, "method": "ping"}',
                             dict(session_headers(session), Accept=ACCEPT))
    assert status == "404 Not Found"


def test_a_session_another_replica_opened_is_served(served):
    first, replica = MCPServer("r1", state_key="shared"), MCPServer("r2", state_key="shared")

    @replica.tool()
    def echo(text: str) -> str:
        return "replica: " + text
    opened, other = served(first), served(replica)
    session = handshake(opened)                          # resumed there from its signed id alone
    status, _, body = other.post({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "echo", "arguments": {"text": "x"}}}, session_headers(session))
    assert status == 200 and body["result"]["content"][0]["text"] == "replica: x"


def test_lifespan_events_enter_and_exit_the_lifespan():
    seen = []

    @contextlib.contextmanager
    def lifespan(server):
        seen.append("entered")
        yield {"db": "open"}
        seen.append("exited")

    app = MCPServer("life", lifespan=lifespan)
    server = ASGIServer(app.asgi)
    assert seen == ["entered"]
    assert server.lifespan_events == [{"type": "lifespan.startup.complete"}]
    server.close()
    assert seen == ["entered", "exited"]
    assert server.lifespan_events[-1] == {"type": "lifespan.shutdown.complete"}


def test_a_failing_lifespan_fails_the_startup():
    @contextlib.contextmanager
    def lifespan(server):
        raise OSError("no database")
        yield

    server = ASGIServer(MCPServer("broken", lifespan=lifespan).asgi)
    try:
        assert server.startup_failed
        (failed,) = server.lifespan_events
        assert failed["type"] == "lifespan.startup.failed" and "no database" in failed["message"]
    finally:
        server.close()


def test_an_mcp1_server_enters_an_async_lifespan_per_session_off_the_event_loop(served):
    """mcp 1.x entered the lifespan per session: an async one runs its own loop, which it cannot
    do on the server's loop thread, so such a server's steps run on the executor."""
    import minimcp
    entered, exited = [], []

    @contextlib.asynccontextmanager
    async def lifespan(server):
        number = len(entered) + 1
        entered.append(number)
        try:
            yield {"session_number": number}
        finally:
            exited.append(number)
    app = minimcp.FastMCP("per-session", lifespan=lifespan)           # mcp 1.x's class: the mcp1 dialect

    @app.tool()
    def which(ctx: Context) -> str:
        return "lifespan %d" % ctx.request_context.lifespan_context["session_number"]

    ep = served(app)
    first, second = handshake(ep), handshake(ep)
    assert entered == [1, 2] and exited == []
    for session, expected in ((first, "lifespan 1"), (second, "lifespan 2")):
        status, _, body = ep.post({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                                   "params": {"name": "which", "arguments": {}}}, session_headers(session))
        assert status == 200 and text_of(body) == expected, body
    delete = ep.connect()
    delete.request("DELETE", "/mcp", headers=session_headers(session=first))
    assert delete.getresponse().status == 204
    assert exited == [1]


def test_streams_end_when_another_replica_deletes_their_sessions(served, tmp_path):
    """Twenty GET streams on one replica, their sessions deleted on another sharing the store:
    every stream ends (one ticker asks the store for all of them, see _ASGIProbes)."""
    from minimcp_http import SQLiteSessionStore
    store = str(tmp_path)
    first, replica = MCPServer("r1", state_key="shared"), MCPServer("r2", state_key="shared")
    opened = served(first, session_store=SQLiteSessionStore(store))
    other = served(replica, session_store=SQLiteSessionStore(store))
    streams = []
    for _ in range(20):
        session = handshake(opened)
        streams.append((session, open_get(opened, session)))
    for session, (connection, response) in streams:
        assert response.fp.readline() == b": stream open\n"
        delete = other.connect()
        delete.request("DELETE", "/mcp", headers=session_headers(session))
        assert delete.getresponse().status == 204
    for session, (connection, response) in streams:
        assert response.read() == b"\n"              # the rest of the opening comment, then the end
        connection.close()
