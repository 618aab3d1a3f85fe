"""The stdlib HTTP server (issue 28, point 7): a backlog for its connections, HTTP/1.1 keep-alive,
a drain on SIGTERM that answers every request it started, and clear words at start.

In-process servers on 127.0.0.1:0 where the server's own behaviour is the point; a process of
its own where a signal or the exit status is.
"""

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading

import pytest

from conftest import ROOT, SERVE, load_example
import minimcp
import minimcp_http
from test_http import ACCEPT, ENVELOPE, MODERN, Endpoint


def test_the_listen_backlog_holds_max_connections(tmp_path):
    # The server is bound but not accepting yet (ready() blocks its thread before it serves):
    # every connection must wait in the kernel's queue. Python's default backlog of 5 left the
    # rest of a burst of 50 in SYN retries, the p99 of 1.2-1.9 s the issue measured.
    bound, release = threading.Event(), threading.Event()
    box = {}

    def ready(httpd):
        box["httpd"] = httpd
        bound.set()
        release.wait(30)
    thread = threading.Thread(target=minimcp_http._serve_http, args=(load_example("everything").app, "127.0.0.1", 0),
                              kwargs={"ready": ready, "max_connections": 64}, daemon=True)
    thread.start()
    assert bound.wait(10)
    port = box["httpd"].server_address[1]
    clients = []
    try:
        for _ in range(50):
            clients.append(socket.create_connection(("127.0.0.1", port), timeout=3))
    finally:
        release.set()
        for client in clients:
            client.close()
        box["httpd"].shutdown()
        thread.join(10)
    assert len(clients) == 50


def test_requests_share_one_kept_alive_connection():
    ep = Endpoint(load_example("everything").app)
    try:
        connection = ep.connect()
        for request_id in range(3):
            body = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {
                "name": "echo", "arguments": {"text": "again"}, "_meta": ENVELOPE}})
            connection.request("POST", "/mcp", body=body, headers={      # whitespace around a value is no part of it
                "Content-Type": "application/json", "Accept": ACCEPT, "MCP-Protocol-Version": MODERN,
                "Mcp-Method": "tools/call", "Mcp-Name": "echo  " if request_id == 1 else "echo"})
            if request_id == 0:
                sock = connection.sock
            response = connection.getresponse()
            answer = json.loads(response.read())
            assert response.version == 11 and response.status == 200, (response.version, answer)
            assert answer["result"]["content"][0]["text"] == "again"
            assert connection.sock is sock, "the server closed the connection after a request"
        connection.close()
        raw = socket.create_connection(("127.0.0.1", ep.port), timeout=10)     # and a line too long: 414
        raw.sendall(b"GET /" + b"x" * 70000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert raw.recv(100).startswith(b"HTTP/1.1 414 "), "no 414 for a 70 KB request line"
        raw.close()
    finally:
        ep.close()



def test_an_answer_is_not_held_for_the_clients_ack():
    # The head and the body of an answer are two writes. With Nagle's algorithm on, a kept-alive
    # connection's body waited for the client's delayed ACK of the head: 40 ms per request, every
    # request after the first (bench/vs_82c0ebb.md). The socket the server answers on has TCP_NODELAY.
    bound, seen = threading.Event(), []
    box = {}

    def ready(httpd):
        served = httpd.application

        def recording(environ, start_response):
            sock = environ["minimcp.socket"]
            seen.append(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            return served(environ, start_response)
        httpd.application = recording
        box["httpd"] = httpd
        bound.set()
    thread = threading.Thread(target=minimcp_http._serve_http, args=(load_example("everything").app, "127.0.0.1", 0),
                              kwargs={"ready": ready}, daemon=True)
    thread.start()
    assert bound.wait(10)
    try:
        connection = http.client.HTTPConnection("127.0.0.1", box["httpd"].server_address[1], timeout=10)
        for request_id in range(2):
            body = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {
                "name": "echo", "arguments": {"text": "quick"}, "_meta": ENVELOPE}})
            connection.request("POST", "/mcp", body=body, headers={
                "Content-Type": "application/json", "Accept": ACCEPT, "MCP-Protocol-Version": MODERN,
                "Mcp-Method": "tools/call", "Mcp-Name": "echo"})
            response = connection.getresponse()
            assert json.loads(response.read())["result"]["content"][0]["text"] == "quick"
        connection.close()
    finally:
        box["httpd"].shutdown()
        thread.join(10)
    assert len(seen) == 2 and all(seen), "Nagle's algorithm is on for the connection: %r" % seen

SCRIPT = '''
import os, sys, threading
sys.path.insert(0, %(root)r)
from minimcp import MCPServer, Context, Cancelled

app = MCPServer("drain", shutdown_grace=%(grace)s)

@app.tool()
def slow(ctx: Context, seconds: float) -> str:
    ctx.progress(0, 1)
    try:
        ctx.sleep(seconds)
    except Cancelled:
        return "cancelled"
    return "finished"

@app.tool()
def held(ctx: Context, flag: str) -> str:
    ctx.progress(0, 1)
    try:
        while not os.path.exists(flag):  # the test creates it once the drain has begun
            ctx.sleep(0.01)
    except Cancelled:
        return "cancelled"
    return "finished"

@app.tool()
def stubborn(ctx: Context) -> str:
    ctx.progress(0, 1)
    threading.Event().wait(60)          # never looks at its cancellation
    return "late"

app.run(transport="http", port=0, drain_seconds=%(drain)s)
'''


class Served:
    def __init__(self, tmp_path, drain, grace=1.0):
        script = tmp_path / "drain_server.py"
        script.write_text(SCRIPT % {"root": ROOT, "drain": drain, "grace": grace})
        self.process = subprocess.Popen([sys.executable, str(script)], stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.line = self.process.stderr.readline().decode()
        assert "serving drain at http://127.0.0.1:" in self.line, self.line   # app.run says where
        self.port = int(self.line.rsplit(":", 1)[1].split("/")[0])

    def call(self, tool, arguments, request_id=5):
        """Start a tool; returns (connection, response) once its progress event arrived."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
        body = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {
            "name": tool, "arguments": arguments, "_meta": dict(ENVELOPE, progressToken="p")}})
        connection.request("POST", "/mcp", body=body, headers={
            "Content-Type": "application/json", "Accept": ACCEPT, "MCP-Protocol-Version": MODERN,
            "Mcp-Method": "tools/call", "Mcp-Name": tool})
        response = connection.getresponse()
        assert response.status == 200 and response.getheader("Content-Type") == "text/event-stream"
        assert response.fp.readline().startswith(b"event: message")        # the progress: it runs
        return connection, response

    def stop(self):
        try:
            code = self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait(10)
        stderr = self.process.stderr.read().decode()
        self.process.stdout.close()
        self.process.stderr.close()
        return code, stderr


def last_event(data: bytes) -> dict:
    events = [json.loads(line[5:]) for line in data.split(b"\n") if line.startswith(b"data:")]
    return events[-1]


@pytest.mark.xdist_group("processes")     # signals: with tests/core/test_process.py
def test_sigterm_lets_a_started_request_finish(tmp_path):
    # The call finishes only once the drain has begun (the two idle connections are closed,
    # which the drain does first): a drain that cancelled it would answer "cancelled".
    served = Served(tmp_path, drain=20)
    flag = tmp_path / "go"
    try:
        connection, response = served.call("held", {"flag": str(flag)})
        slow_head = socket.create_connection(("127.0.0.1", served.port), timeout=20)
        slow_head.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")    # a head that never ends
        kept = http.client.HTTPConnection("127.0.0.1", served.port, timeout=20)   # and an idle kept-alive one
        kept.request("GET", "/nowhere")
        kept.getresponse().read()
        served.process.send_signal(signal.SIGTERM)
        assert slow_head.recv(100) == b"" and kept.sock.recv(100) == b""     # closed, not waited for
        flag.write_text("")
        answer = last_event(response.read())
        connection.close()
        assert answer["id"] == 5 and answer["result"]["content"][0]["text"] == "finished", answer
        slow_head.close()
        kept.close()
    finally:
        flag.write_text("")
        code, stderr = served.stop()
    with pytest.raises(OSError):                               # gone: it accepts nothing more
        socket.create_connection(("127.0.0.1", served.port), timeout=3).close()
    assert code == 0 and "Traceback" not in stderr, stderr


@pytest.mark.xdist_group("processes")     # signals: with tests/core/test_process.py
def test_sigterm_past_the_drain_cancels_and_still_answers(tmp_path):
    served = Served(tmp_path, drain=0.2, grace=0.5)     # the grace is what the stubborn call waits out
    try:
        heeding, heeding_response = served.call("slow", {"seconds": 60.0}, 5)
        stubborn, stubborn_response = served.call("stubborn", {}, 6)
        served.process.send_signal(signal.SIGTERM)
        answer = last_event(heeding_response.read())           # a tool that heeds the cancel answers
        assert answer["id"] == 5 and answer["result"]["content"][0]["text"] == "cancelled", answer
        answer = last_event(stubborn_response.read())          # one that does not: the server answers
        assert answer["id"] == 6 and answer["error"]["code"] == -32603, answer
        assert "shutting down" in answer["error"]["message"]
        heeding.close()
        stubborn.close()
    finally:
        code, stderr = served.stop()
    assert code == 0 and "Traceback" not in stderr, stderr


def test_a_taken_port_is_a_message_not_a_traceback():
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen(1)
    port = holder.getsockname()[1]
    try:
        result = subprocess.run(SERVE + ["--http", "127.0.0.1:%d" % port,
                                 "examples/everything.py"], cwd=ROOT, stdin=subprocess.DEVNULL,
                                capture_output=True, timeout=30, env=dict(os.environ, PYTHONWARNINGS="ignore"))
    finally:
        holder.close()
    stderr = result.stderr.decode()
    assert result.returncode == 1 and "Traceback" not in stderr, stderr
    assert "127.0.0.1:%d" % port in stderr and "port is taken" in stderr, stderr


def _ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.mark.skipif(not _ipv6_loopback(), reason="this machine has no IPv6 loopback")
def test_serve_http_takes_an_ipv6_host_in_brackets():
    # serve --http [::1]:PORT, as its usage line says; the bracketed host used to be bound as IPv4
    # ("Address family for hostname not supported").
    process = subprocess.Popen(SERVE + ["--http", "[::1]:0", "examples/everything.py"],
                               cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        line = process.stderr.readline().decode()
        assert "at http://[::1]:" in line, line + process.stderr.read().decode()
        port = int(line.rsplit(":", 1)[1].split("/")[0])
        connection = http.client.HTTPConnection("::1", port, timeout=10)
        connection.request("POST", "/mcp", body=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                                             "params": {"protocolVersion": "2025-11-25",
                                                                        "capabilities": {},
                                                                        "clientInfo": {"name": "v6", "version": "1"}}}),
                           headers={"Content-Type": "application/json", "Accept": ACCEPT})
        response = connection.getresponse()
        assert response.status == 200 and json.loads(response.read())["result"]["protocolVersion"] == "2025-11-25"
        connection.close()
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(20) == 0
        process.stdout.close()
        process.stderr.close()


@pytest.mark.xdist_group("processes")     # signals: with tests/core/test_process.py
def test_sigterm_ends_get_and_listen_streams_at_once_and_answers_the_listen(tmp_path):
    # Neither stream ever finishes on its own: a drain that waited for them took all of
    # drain_seconds (20 s here). The listen gets its final answer, as at a stop.
    import time
    served = Served(tmp_path, drain=20)
    try:
        opening = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
        opening.request("POST", "/mcp", body=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
            headers={"Content-Type": "application/json", "Accept": ACCEPT})
        reply = opening.getresponse()
        session = reply.getheader("Mcp-Session-Id")
        reply.read()
        opening.close()
        get = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
        get.request("GET", "/mcp", headers={"Mcp-Session-Id": session, "Accept": "text/event-stream"})
        get_response = get.getresponse()
        assert get_response.status == 200 and get_response.fp.readline() == b": stream open\n"
        listen = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
        listen.request("POST", "/mcp", body=json.dumps({"jsonrpc": "2.0", "id": 3, "method": "subscriptions/listen",
                                                        "params": {"notifications": {"toolsListChanged": True},
                                                                   "_meta": ENVELOPE}}),
                       headers={"Content-Type": "application/json", "Accept": ACCEPT, "MCP-Protocol-Version": MODERN,
                                "Mcp-Method": "subscriptions/listen"})
        listen_response = listen.getresponse()
        assert listen_response.fp.readline().startswith(b"event: message")     # acknowledged: it is open
        sent = time.monotonic()
        served.process.send_signal(signal.SIGTERM)
        assert b"event:" not in get_response.read()            # each read times out after 10 s
        answer = last_event(listen_response.read())
        assert answer["id"] == 3 and answer["result"]["resultType"] == "complete", answer
        assert served.process.wait(10) == 0
        assert time.monotonic() - sent < 5.0, "the drain waited %.1f s on the streams" % (time.monotonic() - sent)
        get.close()
        listen.close()
    finally:
        code, stderr = served.stop()
    assert code == 0 and "Traceback" not in stderr, stderr


# -- the lifespan around HTTP serving (issue 41: each of these survived a mutation) ------------------

LIFESPAN_SCRIPT = '''
import contextlib, sys
sys.path.insert(0, %(root)r)
from minimcp import MCPServer

@contextlib.contextmanager
def lifespan(server):
    sys.stderr.write("entering\\n")
    sys.stderr.flush()
    raise RuntimeError("no database")
    yield

app = MCPServer("life", lifespan=lifespan)
app.run(transport="http", port=0)
'''


def test_a_failing_lifespan_stops_http_serving_before_it_starts(tmp_path):
    # The lifespan is entered before the socket is bound: a server whose lifespan fails exits 1 with
    # the cause, instead of listening and answering every request 500.
    script = tmp_path / "failing.py"
    script.write_text(LIFESPAN_SCRIPT % {"root": ROOT})
    process = subprocess.Popen([sys.executable, str(script)], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    try:
        stderr = b""
        for line in process.stderr:          # until it exits, or says it serves (then it is a failure)
            stderr += line
            assert b"serving" not in line, "it serves with a failed lifespan: %s" % stderr.decode()
        assert process.wait(20) == 1, stderr.decode()
    finally:
        process.kill()
        process.wait()
        process.stdout.close()
        process.stderr.close()
    text = stderr.decode()
    assert "lifespan raised RuntimeError, so the server cannot start" in text and "no database" in text, text


def test_the_lifespan_is_exited_when_http_serving_ends():
    # In-process, where no atexit hook can stand in for run()'s own exit.
    import contextlib
    import time
    events = []

    @contextlib.contextmanager
    def lifespan(server):
        events.append("entered")
        yield {"db": "open"}
        events.append("exited")
    app = minimcp.MCPServer("life", lifespan=lifespan)

    @app.tool()
    def db(ctx: minimcp.Context) -> str:
        return ctx.request_context.lifespan_context["db"]
    box, ready = {}, threading.Event()

    def keep(httpd):
        box["httpd"] = httpd
        ready.set()
    runner = threading.Thread(target=app.run, kwargs={"transport": "http", "port": 0, "ready": keep}, daemon=True)
    runner.start()
    assert ready.wait(10) and events == ["entered"]      # entered before the server was bound
    connection = http.client.HTTPConnection("127.0.0.1", box["httpd"].server_address[1], timeout=10)
    connection.request("POST", "/mcp", body=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "db", "arguments": {}, "_meta": ENVELOPE}}), headers={
        "Content-Type": "application/json", "Accept": ACCEPT, "MCP-Protocol-Version": MODERN,
        "Mcp-Method": "tools/call", "Mcp-Name": "db"})
    assert json.loads(connection.getresponse().read())["result"]["content"][0]["text"] == "open"
    connection.close()
    box["httpd"].shutdown()
    runner.join(20)
    assert not runner.is_alive() and events == ["entered", "exited"], events


def test_a_sessions_own_lifespan_outlives_the_call_a_delete_cancels():
    # mcp 1.x's servers enter the lifespan for each handshake-era session. DELETE cancels the
    # session's call and ends the session; its lifespan is exited once the call has finished,
    # not under a call still cleaning up with what the lifespan opened.
    import contextlib
    from test_http import Endpoint, handshake
    closed, started, seen = threading.Event(), threading.Event(), []

    @contextlib.contextmanager
    def lifespan(server):
        try:
            yield {"db": "open"}
        finally:
            closed.set()
    app = minimcp.FastMCP("per-session", lifespan=lifespan)       # mcp 1.x's class: a lifespan per session
    app.shutdown_grace = 10.0                                      # the call's cleanup is well within it

    @app.tool()
    def hold(ctx: minimcp.Context) -> str:
        started.set()
        try:
            ctx.sleep(30)
        except minimcp.Cancelled:
            pass
        seen.append(closed.wait(0.5))       # cleaning up: the lifespan must still be open
        return "done"
    ep = Endpoint(app)
    try:
        session = handshake(ep)
        with_session = {"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"}
        caller = threading.Thread(target=ep.post, args=({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                                                          "params": {"name": "hold", "arguments": {}}}, with_session),
                                  daemon=True)
        caller.start()
        assert started.wait(10)
        connection = ep.connect()
        connection.request("DELETE", "/mcp", headers=with_session)
        assert connection.getresponse().status == 204
        connection.close()
        assert seen == [False], "the session's lifespan was exited while its cancelled call still ran"
        assert closed.is_set()                                     # and exited once it had finished
        caller.join(10)
    finally:
        ep.close()
