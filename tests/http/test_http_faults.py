"""The stdlib HTTP server attacked (issue 41): slow loris, the connection and stream caps, a
cancelled call's stream, re-spelled and expired session ids, each against a server spawned on
loopback, as the attacks that found them were run.

The server is a script of its own (``app.run(transport="http", ...)`` with the options a case
needs), so what it does under attack is what a deployment does: its own threads, file
descriptors and timeouts, and nothing shared with the test's process.
"""

import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time

import pytest

from conftest import ROOT
from interop.slow_clients import SlowLoris        # the slow clients stage's attack
from test_http import ACCEPT, ENVELOPE, MODERN
from test_http_framing import read_until_closed

SCRIPT = '''
import json, os, sys
sys.path.insert(0, %(root)r)
from minimcp import Cancelled, Context, MCPServer

app = MCPServer("attacked", state_key="attacked")

@app.tool()
def echo(text: str) -> str:
    return text

@app.tool()
def wait(ctx: Context, flag: str, progress: bool = True) -> str:
    """Run until cancelled; FLAG.started says it runs, FLAG that it was cancelled."""
    open(flag + ".started", "w").close()
    if progress:
        ctx.progress(0, 1)
    try:
        ctx.sleep(60)
    except Cancelled:
        open(flag, "w").close()
        raise
    return "late"

app.run(transport="http", port=0, **json.loads(sys.argv[1]))
'''


class Server:
    """The script above on 127.0.0.1, with ``options`` for ``app.run``; stopped by its fixture."""

    def __init__(self, tmp_path, **options):
        script = tmp_path / "attacked.py"
        script.write_text(SCRIPT % {"root": ROOT})
        env = dict(os.environ, MINIMCP_SESSION_DIR=str(tmp_path / "sessions"))
        self.process = subprocess.Popen([sys.executable, str(script), json.dumps(options)], env=env,
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        line = self.process.stderr.readline().decode()
        assert "serving attacked at http://127.0.0.1:" in line, line + self.process.stderr.read().decode()
        self.port = int(line.rsplit(":", 1)[1].split("/")[0])

    def connect(self, timeout=10):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def post(self, message, headers=None, timeout=10):
        """POST one message on a connection of its own: (status, headers, the body parsed if JSON)."""
        connection = self.connect(timeout)
        try:
            connection.request("POST", "/mcp", body=json.dumps(message).encode(),
                               headers=dict({"Content-Type": "application/json", "Accept": ACCEPT}, **(headers or {})))
            response = connection.getresponse()
            data = response.read()
        finally:
            connection.close()
        kind = response.getheader("Content-Type", "")
        return response.status, response, json.loads(data) if kind == "application/json" and data else data

    def echo(self, timeout=10):
        """A 2026-07-28 echo call: its status, or the error that ended it."""
        try:
            return self.post({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
                "name": "echo", "arguments": {"text": "probe"}, "_meta": ENVELOPE}},
                {"MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call", "Mcp-Name": "echo"}, timeout)[0]
        except (OSError, http.client.HTTPException) as problem:
            return repr(problem)

    def initialize(self):
        status, response, body = self.post({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "attacker", "version": "1"}}})
        assert status == 200, body
        return response.getheader("Mcp-Session-Id")

    def in_session(self, session, message):
        return self.post(message, {"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"})

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
        self.process.stderr.close()


@pytest.fixture
def server(tmp_path):
    started = []

    def start(**options):
        started.append(Server(tmp_path, **options))
        return started[-1]
    yield start
    for running in started:
        running.stop()


def probe_all(server, count, timeout=10):
    """``count`` echo calls at once, each on its own connection: their statuses."""
    statuses = [None] * count

    def one(index):
        statuses[index] = server.echo(timeout)
    threads = [threading.Thread(target=one, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout + 5)
    return statuses


# -- slow clients ------------------------------------------------------------------------------

def test_300_slow_loris_connections_leave_room_for_requests(server):
    # Last round 256 connection slots held 300 of these, and 0 of 20 requests got through.
    running = server(request_timeout=30)        # the deadline is not what saves the probes here
    loris = SlowLoris(running.port, 300)
    try:
        statuses = probe_all(running, 20)
    finally:
        loris.close()
    assert statuses.count(200) >= 18, statuses


def test_a_request_dripped_a_byte_at_a_time_is_cut_off_at_its_deadline(server):
    # Each byte comes well within read_timeout, so only a deadline on the whole request ends it.
    running = server(request_timeout=1.0, read_timeout=30)
    sock = socket.create_connection(("127.0.0.1", running.port), timeout=10)
    started, answer = time.monotonic(), b""
    try:
        sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        sock.settimeout(0.2)
        while time.monotonic() - started < 15:
            try:
                sock.send(b"X")
                data = sock.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                break
            if not data:
                break
            answer += data
    finally:
        sock.close()
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]
    assert b'"code":-32600' in answer and time.monotonic() - started < 15


def test_a_body_dripped_a_byte_at_a_time_is_cut_off_at_its_deadline(server):
    running = server(request_timeout=1.0, read_timeout=30)
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}).encode()
    sock = socket.create_connection(("127.0.0.1", running.port), timeout=10)
    try:
        sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: %s\r\n"
                     b"Content-Length: %d\r\n\r\n" % (ACCEPT.encode(), len(body)))
        dripper_done = threading.Event()

        def drip():
            for byte in body[:-1]:           # never the last byte
                if dripper_done.wait(0.2):
                    return
                try:
                    sock.send(bytes([byte]))
                except OSError:
                    return
        threading.Thread(target=drip, daemon=True).start()
        try:
            answer = read_until_closed(sock, 15)
        finally:
            dripper_done.set()
    finally:
        sock.close()
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]


def test_an_idle_kept_alive_connection_is_closed_after_idle_timeout(server):
    running = server(idle_timeout=0.5, request_timeout=30)
    connection = running.connect()
    connection.request("POST", "/mcp", body=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "echo", "arguments": {"text": "once"}, "_meta": ENVELOPE}}).encode(), headers={
        "Content-Type": "application/json", "Accept": ACCEPT, "MCP-Protocol-Version": MODERN,
        "Mcp-Method": "tools/call", "Mcp-Name": "echo"})
    response = connection.getresponse()
    assert response.status == 200 and response.getheader("Connection") != "close"
    response.read()
    assert read_until_closed(connection.sock, 10) == b""       # closed after 0.5 s of silence, unanswered
    connection.close()


# -- the caps ----------------------------------------------------------------------------------

def test_past_the_connection_cap_every_request_gets_503_with_retry_after(server):
    running = server(max_connections=8, request_timeout=30)
    holders = [socket.create_connection(("127.0.0.1", running.port), timeout=10) for _ in range(8)]
    try:
        for holder in holders:               # each has its thread: a request on it is served
            holder.sendall(b"POST /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n")
            assert holder.recv(65536).startswith(b"HTTP/1.1 404 ")
        refused = []
        for _ in range(20):
            status, response, body = running.post({"jsonrpc": "2.0", "id": 1, "method": "ping"})
            refused.append((status, response.getheader("Retry-After"), body["error"]["code"]))
        assert refused == [(503, "1", -32603)] * 20, refused
    finally:
        for holder in holders:
            holder.close()
    deadline = time.monotonic() + 10         # the holders' threads end as their connections close
    while running.echo() != 200:
        assert time.monotonic() < deadline, "the server did not serve again once the holders left"


def test_get_streams_have_a_cap_of_their_own_and_never_starve_requests(server):
    running = server(max_connections=32, max_streams=4)
    session = running.initialize()
    streams = []
    try:
        for _ in range(6):
            connection = running.connect()
            connection.request("GET", "/mcp", headers={"Mcp-Session-Id": running.initialize(),
                                                       "Accept": "text/event-stream"})
            response = connection.getresponse()
            streams.append((connection, response))
        statuses = [response.status for _, response in streams]
        assert statuses == [200] * 4 + [503] * 2, statuses
        assert streams[-1][1].getheader("Retry-After") == "1"
        assert json.loads(streams[-1][1].read())["error"]["code"] == -32603
        pings = [running.in_session(session, {"jsonrpc": "2.0", "id": 2, "method": "ping"})[0] for _ in range(10)]
        assert pings == [200] * 10 and probe_all(running, 10) == [200] * 10
    finally:
        for connection, _ in streams:
            connection.close()


# -- cancellation ----------------------------------------------------------------------------------

def test_a_cancelled_calls_stream_ends_at_once_in_the_handshake_era(server, tmp_path):
    # The keep-alive comes every 60 s: a stream that waited for the answer a cancelled call never
    # gets would still be open when the 2 s read timeout below runs out.
    running = server(keepalive=60)
    session = running.initialize()
    for request_id, progress in ((5, True), (6, False)):
        flag = tmp_path / ("cancelled-%d" % request_id)
        connection = running.connect(timeout=10)
        connection.request("POST", "/mcp", body=json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                                                            "params": {"name": "wait", "arguments": {
                                                                "flag": str(flag), "progress": progress},
                                                                "_meta": {"progressToken": "p"}}}).encode(),
                           headers={"Content-Type": "application/json", "Accept": ACCEPT,
                                    "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"})
        sock = connection.sock
        if progress:                         # the stream has begun: its first event says the call runs
            response = connection.getresponse()
            assert response.fp.readline().startswith(b"event: message"), "no progress event"
        wait_for(tmp_path / ("cancelled-%d.started" % request_id), 10)
        status, _, _ = running.in_session(session, {"jsonrpc": "2.0", "method": "notifications/cancelled",
                                                    "params": {"requestId": request_id, "reason": "enough"}})
        assert status == 202
        sock.settimeout(2.0)                 # the bound, from the 202 on
        try:
            if not progress:                 # cancelled before it said anything: an empty stream
                response = connection.getresponse()
                assert response.status == 200 and response.getheader("Content-Type") == "text/event-stream"
            rest = response.read()
        except socket.timeout:
            raise AssertionError("request %d's stream was still open 2 s after its cancellation" % request_id)
        finally:
            connection.close()
        assert b'"result"' not in rest and b'"error"' not in rest, rest      # never answered
        wait_for(flag, 2.0, "the tool was not cancelled")          # it stops on a thread of its own


def test_a_2026_calls_stream_closed_by_its_client_cancels_the_call_within_2_s(server, tmp_path):
    running = server()
    flag = tmp_path / "cancelled"
    connection = running.connect()
    connection.request("POST", "/mcp", body=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "wait", "arguments": {"flag": str(flag)}, "_meta": dict(ENVELOPE, progressToken="p")}}).encode(),
        headers={"Content-Type": "application/json", "Accept": ACCEPT, "MCP-Protocol-Version": MODERN,
                 "Mcp-Method": "tools/call", "Mcp-Name": "wait"})
    sock = connection.sock
    response = connection.getresponse()
    assert response.fp.readline().startswith(b"event: message")       # it runs
    sock.shutdown(socket.SHUT_RDWR)           # 2026-07-28: closing the stream is the cancellation
    connection.close()
    closed = time.monotonic()
    wait_for(flag, 2.0, "the call ran on 2 s after its client closed the stream")   # (the watch: every 0.5 s)


def wait_for(path, seconds, message=None):
    """Until the server's tool leaves ``path`` behind (a file is what a process of its own can show)."""
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert time.monotonic() < deadline, message or "%s did not appear in %g s" % (path.name, seconds)
        time.sleep(0.01)


# -- sessions ----------------------------------------------------------------------------------

def test_a_deleted_session_stays_deleted_however_its_id_is_spelled(server):
    running = server()
    session = running.initialize()
    ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
    assert running.in_session(session, ping)[0] == 200
    connection = running.connect()
    connection.request("DELETE", "/mcp", headers={"Mcp-Session-Id": session})
    assert connection.getresponse().status == 204
    connection.close()
    spellings = [session, session + ".", session + "==", "~" + session, session.replace("-", "+").replace("_", "/"),
                 session[:20] + "!" + session[20:]]
    statuses = [running.in_session(spelling, ping)[0] for spelling in spellings]
    assert statuses == [404] * len(spellings), list(zip(statuses, spellings))


def test_a_session_past_its_lifetime_is_gone(server):
    running = server(session_lifetime=0)         # expired the second it is issued
    session = running.initialize()
    status, _, body = running.in_session(session, {"jsonrpc": "2.0", "id": 2, "method": "ping"})
    assert status == 404 and "Session not found" in body["error"]["message"], body
