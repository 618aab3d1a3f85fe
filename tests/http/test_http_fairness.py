"""HTTP under load (issue 42): no session starves another, and work that stops work gets through.

A session (handshake era), or a 2026-07-28 client, holds at most ``session_share`` of the
worker pool; its other calls wait their turn while another session's call runs at once.
Cancels, pings and the client's answers never need a worker. Each test runs on the stdlib
server and on the ASGI app (tests/asgi_driver.py), on the wire. Nothing is timed: the
calls that hold the pool wait on an Event the test sets at its end, and the other session's
echo must be answered while they still wait (with one shared queue it would wait behind
them and the request would time out).
"""

import json
import threading
import time

import pytest

from asgi_driver import ASGIServer
from minimcp import Context, MCPServer
from test_http import ENVELOPE, MODERN, Endpoint, handshake

WAIT = 20          # seconds: only ever reached when the behaviour is broken


class ASGIEndpoint(Endpoint):
    """``app.asgi_app(**options)`` behind the test's ASGI server, with Endpoint's ways to talk to it."""

    def __init__(self, app, **options):
        self.app = app
        self.server = ASGIServer(app.asgi_app(**options))
        self.port = self.server.port

    def close(self):
        self.server.close()


@pytest.fixture(params=["stdlib", "asgi"])
def serve(request):
    started = []

    def start(app, **options):
        kind = Endpoint if request.param == "stdlib" else ASGIEndpoint
        started.append(kind(app, **options))
        return started[-1]
    yield start
    for endpoint in started:
        endpoint.close()


class Blocking:
    """An app whose ``block`` tool waits for the test's gate; it counts the calls running."""

    def __init__(self, workers: int = 32):
        self.app = MCPServer("fair", dialect="minimcp", workers=workers)
        self.gate = threading.Event()
        self.changed = threading.Condition()
        self.running = self.peak = 0

        @self.app.tool()
        def block(ctx: Context) -> str:
            with self.changed:
                self.running += 1
                self.peak = max(self.peak, self.running)
                self.changed.notify_all()
            try:
                self.gate.wait(WAIT * 2)
            finally:
                with self.changed:
                    self.running -= 1
            return "released"

        @self.app.tool()
        def echo(text: str) -> str:
            return text

    def wait_running(self, count: int) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self.running >= count, WAIT)


def session_headers(session):
    return {"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"}


def call(request_id, name, arguments=None):
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
            "params": {"name": name, "arguments": arguments or {}}}


def in_background(target, count):
    """``target(i)`` for each i on a thread of its own; their results, and the threads."""
    results = {}
    threads = [threading.Thread(target=lambda i=i: results.__setitem__(i, target(i)), daemon=True)
               for i in range(count)]
    for thread in threads:
        thread.start()
    return results, threads


def in_flight(ep, session, request_id) -> bool:
    """Whether a call of that id arrives in the session within WAIT: a ping of the same id is refused
    while it is in flight (and answered before it arrives, so it is asked again until then)."""
    ping, deadline = {"jsonrpc": "2.0", "id": request_id, "method": "ping"}, time.monotonic() + WAIT
    while time.monotonic() < deadline:
        status, _, body = ep.post(ping, session_headers(session))
        if "error" in body:
            return body["error"]["code"] == -32600 and "in flight" in body["error"]["message"]
        time.sleep(0.01)                     # its POST is still on its way: ask again
    return False


def text_of(body):
    """A tool's text from a JSON answer or the last event of a stream."""
    answer = body[-1] if isinstance(body, list) else body
    return answer["result"]["content"][0]["text"]


@pytest.mark.parametrize("share, held", [(None, 8), (0.5, 16)])
def test_a_busy_session_holds_its_share_and_another_session_is_answered_meanwhile(serve, share, held):
    blocking = Blocking(workers=32)
    options = {} if share is None else {"session_share": share}
    ep = serve(blocking.app, **options)
    busy, other = handshake(ep), handshake(ep)
    try:
        results, threads = in_background(
            lambda i: ep.post(call(100 + i, "block"), session_headers(busy)), 32)
        assert blocking.wait_running(held), "the busy session's calls did not start"
        status, _, body = ep.post(call(1, "echo", {"text": "meanwhile"}), session_headers(other))
        assert status == 200 and text_of(body) == "meanwhile"
        assert not results and blocking.running == held, "the busy session's calls were answered first"
    finally:
        blocking.gate.set()
    for thread in threads:
        thread.join(WAIT)
    # 32 workers, a quarter (or half) for one session: the rest waited their turn, and all were answered
    assert blocking.peak == held
    assert sorted(text_of(body) for _, _, body in results.values()) == ["released"] * 32


def modern_call(request_id, name, client, arguments=None):
    params = {"name": name, "arguments": arguments or {},
              "_meta": dict(ENVELOPE, **{"io.modelcontextprotocol/clientInfo": {"name": client, "version": "1"}})}
    return ({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params},
            {"MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call", "Mcp-Name": name})


def test_a_2026_client_holds_its_share_and_another_client_is_answered_meanwhile(serve):
    blocking = Blocking(workers=32)
    ep = serve(blocking.app)
    try:
        results, threads = in_background(lambda i: ep.post(*modern_call(i, "block", "busy-client")), 32)
        assert blocking.wait_running(8), "the busy client's calls did not start"
        status, _, body = ep.post(*modern_call(1, "echo", "other-client", {"text": "meanwhile"}))
        assert status == 200 and text_of(body) == "meanwhile"
        assert not results and blocking.running == 8, "the busy client's calls were answered first"
    finally:
        blocking.gate.set()
    for thread in threads:
        thread.join(WAIT)
    assert blocking.peak == 8 and len(results) == 32


def test_cancels_and_pings_get_through_a_full_pool(serve):
    """Every worker busy in one session, and more of its calls queued: the session's pings are
    answered, and its cancels end each call's stream."""
    blocking = Blocking(workers=4)
    ep = serve(blocking.app, session_share=1.0)             # one session may hold the whole pool
    session = handshake(ep, capabilities={"roots": {}})
    try:
        results, threads = in_background(lambda i: ep.post(call(100 + i, "block"), session_headers(session)), 6)
        assert blocking.wait_running(4), "the calls did not start"
        assert all(in_flight(ep, session, 100 + i) for i in range(6)), "the calls did not all arrive"
        status, _, body = ep.post({"jsonrpc": "2.0", "id": 1, "method": "ping"}, session_headers(session))
        assert status == 200 and body == {"jsonrpc": "2.0", "id": 1, "result": {}}
        for i in range(6):                                   # 4 running, 2 waiting for a worker
            status, _, _ = ep.post({"jsonrpc": "2.0", "method": "notifications/cancelled",
                                    "params": {"requestId": 100 + i}}, session_headers(session))
            assert status == 202
        for thread in threads:
            thread.join(WAIT)
        # Each cancelled call's stream ended unanswered while every worker was still held.
        assert len(results) == 6 and all(status == 200 and body == [] for status, _, body in results.values())
        assert not blocking.gate.is_set() and blocking.running == 4
    finally:
        blocking.gate.set()


def test_answers_to_our_questions_need_no_worker(serve):
    """A handler waiting for the client's answer holds the only worker; the answer still arrives."""
    app = MCPServer("asks", dialect="minimcp", workers=1)

    @app.tool()
    def ask(ctx: Context) -> str:
        return "roots: %d" % len(ctx.list_roots())

    ep = serve(app, session_share=1.0)
    session = handshake(ep, capabilities={"roots": {}})
    connection = ep.connect(timeout=WAIT)
    connection.request("POST", "/mcp", body=json.dumps(call(5, "ask")), headers=dict(
        session_headers(session), **{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}))
    response = connection.getresponse()
    event = b""
    while not event.endswith(b"\n\n"):                       # the question, on the call's own stream
        event += response.fp.readline()
    question = json.loads(event.split(b"data: ", 1)[1])
    assert question["method"] == "roots/list"
    status, _, _ = ep.post({"jsonrpc": "2.0", "id": question["id"], "result": {"roots": [
        {"uri": "file:///tmp", "name": "tmp"}]}}, session_headers(session))
    assert status == 202
    rest = response.read().decode("utf-8")
    connection.close()
    assert '"roots: 1"' in rest, rest


class Gathering:
    """An app whose ``gather`` tool, an ``async def``, awaits until ``count`` calls have arrived."""

    def __init__(self, count: int):
        import asyncio
        import time
        self.app = MCPServer("gather", dialect="minimcp")       # the default pool: 32 workers
        arrived = []

        @self.app.tool()
        async def gather() -> str:
            arrived.append(1)
            deadline = time.monotonic() + WAIT
            while len(arrived) < count and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            return "%d together" % len(arrived)


def test_async_calls_that_await_hold_no_worker(serve):
    """100 clients' async calls await together on the default pool of 32: an awaiting call rests."""
    count = 100
    ep = serve(Gathering(count).app)
    results, threads = in_background(lambda i: ep.post(*modern_call(i, "gather", "client-%d" % i)), count)
    for thread in threads:
        thread.join(WAIT * 2)
    assert sorted(text_of(body) for _, _, body in results.values()) == ["%d together" % count] * count


def test_one_sessions_awaiting_calls_leave_its_share_to_its_next(serve):
    """One session's 40 async calls await together, though its share is 8 of the 32 workers."""
    count = 40
    ep = serve(Gathering(count).app)
    session = handshake(ep)
    results, threads = in_background(lambda i: ep.post(call(100 + i, "gather"), session_headers(session)), count)
    for thread in threads:
        thread.join(WAIT * 2)
    assert sorted(text_of(body) for _, _, body in results.values()) == ["%d together" % count] * count


def test_a_cancel_sent_to_another_worker_reaches_the_call(serve, tmp_path):
    """Two workers sharing the store and the key (uvicorn's or gunicorn's --workers, replicas):
    the cancel lands in the one not running the call, and the call's stream still ends, unanswered."""
    from minimcp_http import SQLiteSessionStore
    running, stopped = threading.Event(), threading.Event()
    first, second = MCPServer("w1", state_key="shared"), MCPServer("w2", state_key="shared")

    @first.tool()
    def wait(ctx: Context) -> str:
        running.set()
        try:
            ctx.sleep(WAIT * 2)                # raises Cancelled at once when cancelled
        finally:
            if ctx.cancelled:
                stopped.set()
        return "never cancelled"

    one = serve(first, session_store=SQLiteSessionStore(str(tmp_path)))
    other = serve(second, session_store=SQLiteSessionStore(str(tmp_path)))
    session = handshake(one)
    results, threads = in_background(lambda i: one.post(call(9, "wait"), session_headers(session)), 1)
    assert running.wait(WAIT), "the call did not start"
    status, _, _ = other.post({"jsonrpc": "2.0", "method": "notifications/cancelled",
                               "params": {"requestId": 9, "reason": "changed my mind"}}, session_headers(session))
    assert status == 202
    threads[0].join(WAIT)
    assert stopped.wait(WAIT), "the call never saw the cancel"
    status, _, body = results[0]
    assert status == 200 and body == []        # its stream ended, with nothing on it
