"""Streams end when they should (issue 28): DELETE, a client that leaves, a newer GET; and a call
speaks only on its own POST stream. The stdlib server over a real loopback socket.

The keepalive is a minute in these tests, so a stream that ends only at its next keep-alive
fails them (each read has a timeout of a few seconds); where the server must notice something,
the test waits on an event the server's own code sets.
"""

import json
import socket
import threading

import pytest

import minimcp
import minimcp_http
from minimcp import Context, MCPServer
from test_http import ACCEPT, Endpoint, handshake

QUICK = 5          # seconds: how long a stream may take to end, against a keepalive of 60


@pytest.fixture
def started():
    running = []

    def start(app, **options):
        endpoint = Endpoint(app, **dict({"keepalive": 60.0}, **options))
        running.append(endpoint)
        return endpoint
    yield start
    for endpoint in running:
        endpoint.close()


def open_get(ep, session):
    connection = ep.connect(timeout=QUICK)
    connection.request("GET", "/mcp", headers={"Mcp-Session-Id": session, "Accept": "text/event-stream"})
    sock = connection.sock                               # http.client lets go of it once the response is read
    response = connection.getresponse()
    assert response.status == 200
    assert response.fp.readline() == b": stream open\n" and response.fp.readline() == b"\n"
    connection.sock = sock
    return connection, response


def read_to_end(response) -> bytes:
    """The rest of a stream; raises socket.timeout if it does not end within QUICK seconds."""
    return response.read()


def watch_closes(monkeypatch):
    """{route key: Event} set when the server closes that stream (None: the GET stream)."""
    closed = {}
    original = minimcp_http._HTTPOut.close

    def close(self, key, exchange):
        original(self, key, exchange)
        closed.setdefault(key, threading.Event()).set()
    monkeypatch.setattr(minimcp_http._HTTPOut, "close", close)
    return lambda key: closed.setdefault(key, threading.Event())


def test_delete_ends_the_get_stream_at_once(started):
    from conftest import load_example
    ep = started(load_example("everything").app)
    session = handshake(ep)
    connection, response = open_get(ep, session)
    deleting = ep.connect()
    deleting.request("DELETE", "/mcp", headers={"Mcp-Session-Id": session})
    assert deleting.getresponse().status == 204
    deleting.close()
    assert b"event:" not in read_to_end(response)         # ended, without waiting for a keep-alive
    connection.close()


def test_a_second_get_closes_the_first(started):
    from conftest import load_example
    app = load_example("everything").app
    ep = started(app)
    session = handshake(ep)
    first, first_response = open_get(ep, session)
    second, second_response = open_get(ep, session)
    assert read_to_end(first_response) == b""
    app.add_tool(lambda: "x", name="added_later")          # the newer stream is the one that hears it
    line = second_response.fp.readline()
    while not line.startswith(b"data:"):
        line = second_response.fp.readline()
    assert json.loads(line[5:])["method"] == "notifications/tools/list_changed"
    first.close()
    second.close()


def test_a_client_that_leaves_frees_its_get_stream_at_once(started, monkeypatch):
    from conftest import load_example
    closed = watch_closes(monkeypatch)
    ep = started(load_example("everything").app, disconnect_probe=0.05)    # how often the socket is watched
    session = handshake(ep)
    connection, response = open_get(ep, session)
    connection.sock.shutdown(socket.SHUT_RDWR)
    connection.close()
    assert closed(None).wait(QUICK), "the GET stream stayed open after its client left"


def talking_app():
    """An app whose ``talk`` tool reports progress, waits for ``go``, then reports and logs again."""
    app = MCPServer("talk")
    go, said = threading.Event(), threading.Event()

    @app.tool()
    def talk(ctx: Context) -> str:
        ctx.progress(1, 2)
        assert go.wait(30)
        ctx.progress(2, 2)
        ctx.info("still here")
        said.set()
        return "done"
    return app, go, said


def test_a_calls_messages_never_go_to_the_get_stream(started, monkeypatch):
    # Handshake era: a call whose POST stream has closed runs on (its spec), but its progress and
    # logs go nowhere; before, they were sent on the session's GET stream.
    closed = watch_closes(monkeypatch)
    app, go, said = talking_app()
    ep = started(app, keepalive=0.1)               # even a server that finds the disconnect by writing
    session = handshake(ep)
    get, get_response = open_get(ep, session)
    post = ep.connect(timeout=QUICK)
    post.request("POST", "/mcp", body=json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
        "name": "talk", "arguments": {}, "_meta": {"progressToken": "p"}}}), headers={
        "Content-Type": "application/json", "Accept": ACCEPT, "Mcp-Session-Id": session,
        "MCP-Protocol-Version": "2025-11-25"})
    sock = post.sock
    response = post.getresponse()
    assert response.getheader("Content-Type") == "text/event-stream"
    line = response.fp.readline()
    assert line.startswith(b"event: message"), line
    sock.shutdown(socket.SHUT_RDWR)
    post.close()
    assert closed(minimcp._id_key(7)).wait(QUICK), "the POST stream stayed open after its client left"
    go.set()
    assert said.wait(QUICK)
    app.add_tool(lambda: "x", name="marker")               # the first thing the GET stream hears
    line = get_response.fp.readline()
    while not line.startswith(b"data:"):
        line = get_response.fp.readline()
    assert json.loads(line[5:]) == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
    get.close()


def test_delete_ends_a_post_stream_still_waiting_for_its_answer(started):
    app, go, said = talking_app()
    ep = started(app)
    session = handshake(ep)
    post = ep.connect(timeout=QUICK)
    post.request("POST", "/mcp", body=json.dumps({"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {
        "name": "talk", "arguments": {}, "_meta": {"progressToken": "p"}}}), headers={
        "Content-Type": "application/json", "Accept": ACCEPT, "Mcp-Session-Id": session})
    response = post.getresponse()
    assert response.fp.readline().startswith(b"event: message")
    deleting = ep.connect()
    deleting.request("DELETE", "/mcp", headers={"Mcp-Session-Id": session})
    rest = read_to_end(response)                            # ends now: the session is gone
    assert b'"result"' not in rest, rest
    go.set()                  # the 204 waits (up to shutdown_grace) for the call the DELETE cancelled
    assert deleting.getresponse().status == 204
    deleting.close()
    post.close()


def test_a_delete_on_another_worker_ends_the_get_stream_within_a_second(started, tmp_path):
    # Two workers (two servers in one process, each with its own session table) share a session
    # store, as gunicorn workers under MINIMCP_SESSION_DIR do. Worker B holds the GET stream;
    # worker A answers the DELETE. Before, B's stream went on until its next keep-alive.
    import time
    from conftest import load_example
    app = load_example("everything").app
    a = started(app, session_store=minimcp_http.SQLiteSessionStore(str(tmp_path)))
    b = started(app, session_store=minimcp_http.SQLiteSessionStore(str(tmp_path)), revocation_probe=0.05)   # how often B asks
    session = handshake(a)
    connection, response = open_get(b, session)            # B serves it from the signed id alone
    deleting = a.connect()
    deleting.request("DELETE", "/mcp", headers={"Mcp-Session-Id": session})
    assert deleting.getresponse().status == 204
    answered = time.monotonic()
    deleting.close()
    assert b"event:" not in read_to_end(response)
    assert time.monotonic() - answered < 1.0, "B's GET stream took %.2f s to end" % (time.monotonic() - answered)
    status, _, _ = b.post({"jsonrpc": "2.0", "id": 3, "method": "ping"},
                          {"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"})
    assert status == 404
    connection.close()


class _FakeGunicornWorker:
    """Stands for gunicorn's worker: its SIGTERM handler is a bound method, and SIGTERM clears ``alive``."""
    alive = True

    def handle_exit(self, signum, frame):
        self.alive = False


_FakeGunicornWorker.__module__ = "gunicorn.workers.fake"


def test_a_get_stream_ends_when_a_gunicorn_worker_is_told_to_stop(started):
    # gunicorn's SIGTERM sets its worker's alive to False, then waits --graceful-timeout for the
    # requests it runs; a GET stream never finishes on its own. (The real gunicorn: the
    # gunicorn workers stage.)
    import os
    import signal
    from conftest import load_example
    worker = _FakeGunicornWorker()
    previous = signal.signal(signal.SIGTERM, worker.handle_exit)
    try:
        ep = started(load_example("everything").app, disconnect_probe=0.05)   # how often it looks
        session = handshake(ep)
        connection, response = open_get(ep, session)
        os.kill(os.getpid(), signal.SIGTERM)
        assert not worker.alive
        assert b"event:" not in read_to_end(response)          # within QUICK, not at a keep-alive
        connection.close()
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_a_delete_on_another_worker_ends_a_post_stream_waiting_there(started, tmp_path):
    # As a DELETE on the same worker does (test_delete_ends_a_post_stream_still_waiting_for_its_answer),
    # one on worker A ends the call's stream on worker B without its answer, within a second of the 204.
    import time
    app, go, said = talking_app()
    a = started(app, session_store=minimcp_http.SQLiteSessionStore(str(tmp_path)))
    b = started(app, session_store=minimcp_http.SQLiteSessionStore(str(tmp_path)), disconnect_probe=0.05)
    session = handshake(a)
    post = b.connect(timeout=QUICK)
    post.request("POST", "/mcp", body=json.dumps({"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {
        "name": "talk", "arguments": {}, "_meta": {"progressToken": "p"}}}), headers={
        "Content-Type": "application/json", "Accept": ACCEPT, "Mcp-Session-Id": session})
    response = post.getresponse()
    assert response.fp.readline().startswith(b"event: message")        # the call runs on B
    deleting = a.connect()
    deleting.request("DELETE", "/mcp", headers={"Mcp-Session-Id": session})
    assert deleting.getresponse().status == 204
    answered = time.monotonic()
    deleting.close()
    rest = read_to_end(response)
    assert time.monotonic() - answered < 1.0, "B's POST stream took %.2f s to end" % (time.monotonic() - answered)
    assert b'"result"' not in rest, rest
    go.set()
    post.close()
