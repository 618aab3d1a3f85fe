#!/usr/bin/env python3
"""One gunicorn with three workers on one host (issue 28): what only several workers can show.

    python3 tests/interop/gunicorn_workers.py --gunicorn PATH --workdir DIR --pidfile FILE

Started by tests/interop/run_gunicorn_workers.sh (which installs gunicorn, pinned). The app
(written to DIR) has a tool that says which worker process answered, and an auth hook with two
tokens. The checks, each on fresh connections so the kernel spreads them over the workers:

1. a client whose clientInfo holds a 4.5 KB icon gets a short session id, and every worker
   serves that session (gunicorn answered 431 to the 8.3 KB id the client info used to make);
2. the holder of the other token gets 404 for that session, from every worker;
3. once all three workers have served the session, DELETE on one is honoured by all
   (MINIMCP_SESSION_DIR: the sqlite3 store), and by a gunicorn started afresh on the same dir;
4. a DELETE answered by one worker ends the session's GET stream held by another within a
   second (measured from the 204 to the stream's end; it used to end at its next keep-alive);
5. GET streams whose clients leave give their threads back at once: with every thread of a
   gunicorn of 1 worker x 4 threads holding one, the clients close them, and a request is
   answered within 5 s (the keep-alive is 15 s: a stream that noticed only when writing it held
   its thread that long, and new requests waited);
6. SIGTERM with a GET stream and a 2026-07-28 subscriptions/listen stream open: the GET stream
   ends, the listen gets its final answer, and gunicorn exits well before its --graceful-timeout
   (15 s here), which it used to wait out on such streams;
7. (issue 41) a session id spelled otherwise (``<id>.``, ``<id>==``, ``~<id>``, ``+/`` for ``-_``)
   is no session on any worker, before and after DELETE: with MINIMCP_SESSION_DIR (check 3), and
   without it, where the workers share the store the state key names (in TMPDIR);
8. a request with two Host headers, or none, gets 400;
9. a session past its session_lifetime (5 s here) gets 404 from every worker, the ones that
   served it included.

Bounded: every request has a timeout, every loop a count; the processes are stopped by PID.
"""
import argparse
import http.client
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TIMEOUT = 10.0
ACCEPT = "application/json, text/event-stream"
ICON = "data:image/png;base64," + "A" * 4500
APP = '''
import json, os, sys
sys.path.insert(0, %(repo)r)
from minimcp import Context, MCPServer

app = MCPServer("workers")

@app.tool()
def worker(ctx: Context) -> str:
    """Which process answered, and for whom."""
    return json.dumps({"pid": os.getpid(), "auth": ctx.auth})

TOKENS = {"Bearer token-a": "alice", "Bearer token-b": "bob"}
wsgi = app.wsgi_app(auth=lambda headers: TOKENS.get(headers.get("authorization"), False))
brief = app.wsgi_app(auth=lambda headers: TOKENS.get(headers.get("authorization"), False), session_lifetime=5)
'''


def log(message: str) -> None:
    sys.stdout.write("[gunicorn-workers %s] %s\n" % (time.strftime("%H:%M:%S"), message))
    sys.stdout.flush()


class Check(Exception):
    """A check that failed."""


def expect(condition, message: str) -> None:
    if not condition:
        raise Check(message)


def post(port, message, headers):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        all_headers = {"Content-Type": "application/json", "Accept": ACCEPT, "Connection": "close"}
        all_headers.update(headers)
        connection.request("POST", "/mcp", body=json.dumps(message).encode(), headers=all_headers)
        response = connection.getresponse()
        data = response.read()
        got = {k.lower(): v for k, v in response.getheaders()}
    finally:
        connection.close()
    return response.status, got, json.loads(data) if data and got.get("content-type") == "application/json" else data


def delete(port, session, token):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        connection.request("DELETE", "/mcp", headers={"Mcp-Session-Id": session, "Authorization": token,
                                                      "Connection": "close"})
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def open_session(port, token="Bearer token-a"):
    status, headers, body = post(port, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "workers-check", "version": "1"}}},
        {"Authorization": token})
    expect(status == 200 and "mcp-session-id" in headers, "initialize: %s %s" % (status, str(body)[:300]))
    return headers["mcp-session-id"]


def check_streams_let_go(port):
    streams = []
    try:
        for _ in range(4):                           # 1 worker x 4 threads: every thread holds one
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
            connection.request("GET", "/mcp", headers={"Mcp-Session-Id": open_session(port),
                                                       "Authorization": "Bearer token-a",
                                                       "Accept": "text/event-stream"})
            sock = connection.sock
            response = connection.getresponse()
            expect(response.status == 200, "GET stream: %s" % response.status)
            expect(response.read1(64).startswith(b":"), "the GET stream did not open")   # chunked under gunicorn
            streams.append((connection, sock))
    finally:
        for connection, sock in streams:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            connection.close()
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("POST", "/mcp", body=json.dumps({"jsonrpc": "2.0", "id": 9, "method": "ping"}).encode(),
                           headers={"Content-Type": "application/json", "Accept": ACCEPT,
                                    "Authorization": "Bearer token-a", "Mcp-Session-Id": open_session(port)})
        response = connection.getresponse()
        response.read()
    except OSError as problem:
        raise Check("a request waited more than 5 s after 4 GET streams were closed: %s" % problem)
    finally:
        connection.close()
    return time.monotonic() - started


def call_worker(port, session, token, request_id):
    status, _, body = post(port, {"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                                  "params": {"name": "worker", "arguments": {}}},
                           {"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25",
                            "Authorization": token})
    if status == 200:
        return status, json.loads(body["result"]["content"][0]["text"])
    return status, body


class KeptAlive:
    """One keep-alive connection: under gunicorn, every request on it goes to the same worker."""

    def __init__(self, port, session, token="Bearer token-a"):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
        self.headers = {"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25", "Authorization": token}

    def worker(self, request_id):
        """The pid of the worker serving this connection."""
        self.connection.request("POST", "/mcp", body=json.dumps({
            "jsonrpc": "2.0", "id": request_id, "method": "tools/call",
            "params": {"name": "worker", "arguments": {}}}).encode(),
            headers=dict(self.headers, **{"Content-Type": "application/json", "Accept": ACCEPT}))
        response = self.connection.getresponse()
        body = response.read()
        expect(response.status == 200, "tools/call: %s %s" % (response.status, body[:300]))
        return json.loads(json.loads(body)["result"]["content"][0]["text"])["pid"]

    def open_stream(self):
        """GET the session's stream on this connection; the response, its first comment read."""
        self.connection.request("GET", "/mcp", headers=dict(self.headers, Accept="text/event-stream"))
        response = self.connection.getresponse()
        expect(response.status == 200, "GET stream: %s" % response.status)
        expect(response.read1(64).startswith(b":"), "the GET stream did not open")
        return response

    def delete(self):
        self.connection.request("DELETE", "/mcp", headers=self.headers)
        response = self.connection.getresponse()
        response.read()
        return response.status

    def close(self):
        self.connection.close()


def stream_end(holder, response, limit):
    """Read a stream until it ends, with its last chunk (not cut); the time that took, or Check."""
    started = time.monotonic()
    if holder.connection.sock is not None:
        holder.connection.sock.settimeout(limit)
    try:
        while response.read1(4096):
            pass
    except (OSError, http.client.HTTPException) as problem:
        raise Check("the GET stream did not end cleanly within %.0f s (%r)" % (limit, problem))
    return time.monotonic() - started


def check_delete_elsewhere_ends_the_stream(port):
    """GET stream on one worker, DELETE on another: the time from the 204 to the stream's end."""
    session = open_session(port)
    holder = KeptAlive(port, session)
    other = None
    try:
        holder_pid = holder.worker(699)
        deadline, attempt = time.monotonic() + 30, 0   # a worker still importing takes no connections yet
        while other is None and time.monotonic() < deadline:
            attempt += 1                             # fresh connections until one reaches another worker
            other = KeptAlive(port, session)
            if other.worker(700 + attempt) == holder_pid:
                other.close()
                other = None
        expect(other is not None, "in 30 s, %d connections all reached worker %d" % (attempt, holder_pid))
        stream = holder.open_stream()
        expect(other.delete() == 204, "DELETE was not 204")
        return stream_end(holder, stream, 5.0)               # the keep-alive is 15 s: an old stream fails here
    finally:
        holder.close()
        if other is not None:
            other.close()


def open_listen(port):
    """A 2026-07-28 subscriptions/listen stream: (connection, response), its acknowledgement read."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    connection.request("POST", "/mcp", body=json.dumps({
        "jsonrpc": "2.0", "id": 800, "method": "subscriptions/listen", "params": {
            "notifications": {"toolsListChanged": True}, "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": {"name": "workers-check", "version": "1"}}}}).encode(),
        headers={"Content-Type": "application/json", "Accept": ACCEPT, "Authorization": "Bearer token-a",
                 "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "subscriptions/listen"})
    response = connection.getresponse()
    expect(response.status == 200, "subscriptions/listen: %s" % response.status)
    expect(b"acknowledged" in response.read1(4096), "the listen stream was not acknowledged")
    return connection, response


def check_sigterm_with_open_streams(server):
    """SIGTERM to gunicorn with a GET and a listen stream open: (GET ended, listen answered, exited) after."""
    session = open_session(server.port)
    # Every worker has booted (each answered): gunicorn answers its first request while it still
    # starts the others, and a worker that a SIGTERM reaches while it boots, before it has put its
    # own handler in place, loses it and runs on until --graceful-timeout (gunicorn's race; seen
    # 3 times in 200 at load 7, each time an idle worker with one thread, still in its loop).
    serve_on_all_workers(server.port, session, 1)
    holder = KeptAlive(server.port, session)
    listening, listen = open_listen(server.port)
    try:
        stream = holder.open_stream()
        started = time.monotonic()
        # To gunicorn's arbiter, as `kill PID` and `docker stop` send it: it passes it on to its
        # workers. (To the process group, a worker that exits before the arbiter has read its own
        # SIGTERM is replaced by one that boots as the arbiter passes SIGTERM on: the same race.)
        os.kill(server.proc.pid, signal.SIGTERM)
        ended = stream_end(holder, stream, 10.0)
        try:
            rest = listen.read()                     # the connection's timeout: 10 s
        except (OSError, http.client.HTTPException) as problem:
            raise Check("the listen stream did not end cleanly after SIGTERM (%r)" % problem)
        answered = time.monotonic() - started
        expect(b'"id":800,"result"' in rest.replace(b" ", b""), "the listen stream ended unanswered: %r" % rest[-300:])
        try:
            server.proc.wait(12)
        except subprocess.TimeoutExpired:
            raise Check("gunicorn did not exit within 12 s of SIGTERM (--graceful-timeout 15); its log: %s"
                        % server.tail())
        return ended, answered, time.monotonic() - started
    finally:
        holder.close()
        listening.close()


def respellings(session):
    """The same bytes as ``session``, spelled as lenient base64 decoders took them."""
    spellings = [session + ".", session + "==", "~" + session, session[:30] + "." + session[30:]]
    if "-" in session or "_" in session:
        spellings.append(session.replace("-", "+").replace("_", "/"))
    return spellings


def session_with_dash(port):
    """A session whose id has a - or _ (87% of them), so that the standard alphabet spells it otherwise."""
    for _ in range(40):
        session = open_session(port)
        if "-" in session or "_" in session:
            return session
    raise Check("40 session ids without - or _")


def serve_on_all_workers(port, session, first_id):
    """Call the session until all three workers have served it (200 from each)."""
    pids, request_id = set(), first_id
    deadline = time.monotonic() + 60             # a worker still importing takes no connections yet
    while len(pids) < 3 and time.monotonic() < deadline:
        request_id += 1
        status, answer = call_worker(port, session, "Bearer token-a", request_id)
        expect(status == 200 and answer["auth"] == "alice", "a worker refused alice: %s %s" % (status, answer))
        pids.add(answer["pid"])
    expect(len(pids) == 3, "only %d workers answered in 60 s (%d requests)" % (len(pids), request_id - first_id))
    return pids


def statuses(port, spellings, each, first_id):
    """Each spelling sent ``each`` times, on fresh connections (so to every worker): the statuses seen."""
    seen = set()
    for index, spelling in enumerate(spellings):
        for attempt in range(each):
            seen.add(call_worker(port, spelling, "Bearer token-a", first_id + index * each + attempt)[0])
    return seen


def check_spellings_and_delete(port):
    """Re-spelled ids before and after a DELETE: the statuses seen (all must be 404)."""
    session = session_with_dash(port)
    serve_on_all_workers(port, session, 1000)
    before = statuses(port, respellings(session), 10, 1100)
    expect(delete(port, session, "Bearer token-a") == 204, "DELETE was not 204")
    after = statuses(port, [session] + respellings(session), 10, 1200)
    return before, after


def raw_request(port, head):
    """One request of raw bytes; the status line's code."""
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as sock:
        sock.sendall(head)
        answer = sock.recv(65536)
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.") else answer[:80]


def check_hosts(port):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "hosts", "version": "1"}}}).encode()
    rest = (b"Content-Type: application/json\r\nAccept: application/json\r\nAuthorization: Bearer token-a\r\n"
            b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))
    two = raw_request(port, b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.1\r\n" + rest)
    none = raw_request(port, b"POST /mcp HTTP/1.1\r\n" + rest)
    one = raw_request(port, b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n" + rest)
    return two, none, one


class Gunicorn:
    def __init__(self, gunicorn, workdir, pidfile, name, env, workers=3, graceful=5, target="server:wsgi"):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.logfile = os.path.join(workdir, name + ".log")
        with open(self.logfile, "wb") as out:
            self.proc = subprocess.Popen(
                [gunicorn, target, "--chdir", workdir, "--bind", "127.0.0.1:%d" % self.port,
                 "--workers", str(workers), "--threads", "4", "--keep-alive", "5", "--graceful-timeout", str(graceful),
                 "--log-level", "warning"], stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                env=env, start_new_session=True)
        with open(pidfile, "a") as f:
            f.write("%d\n" % self.proc.pid)
        deadline = time.monotonic() + 60
        while True:
            expect(self.proc.poll() is None, "gunicorn exited: %s" % self.tail())
            try:
                status, _, _ = post(self.port, {"jsonrpc": "2.0", "id": 0, "method": "ping"},
                                    {"Authorization": "Bearer token-a"})
                if status in (200, 400):
                    return
            except OSError:
                pass
            expect(time.monotonic() < deadline, "gunicorn did not answer within 60 s: %s" % self.tail())
            time.sleep(0.2)

    def tail(self):
        with open(self.logfile, "rb") as f:
            return f.read()[-2000:].decode("utf-8", "replace")

    def stop(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)


def check_without_session_dir(a, env):
    """Check 7 again with no MINIMCP_SESSION_DIR: the workers share the store their key names, in TMPDIR."""
    scratch = os.path.join(a.workdir, "tmp")
    os.mkdir(scratch)
    bare = dict(env, TMPDIR=scratch)
    del bare["MINIMCP_SESSION_DIR"]
    plain = Gunicorn(a.gunicorn, a.workdir, a.pidfile, "gunicorn-no-session-dir", bare)
    try:
        before, after = check_spellings_and_delete(plain.port)
        two, none, one = check_hosts(plain.port)
    finally:
        plain.stop()
    expect(before == {404} and after == {404}, "re-spelled ids (no MINIMCP_SESSION_DIR): %s before DELETE, %s "
           "after" % (sorted(before), sorted(after)))
    stores = [name for name in os.listdir(scratch) if name.startswith("minimcp-sessions-")]
    expect(len(stores) == 1, "the workers made %s in TMPDIR" % stores)
    log("7. and without MINIMCP_SESSION_DIR: 404 from every worker before and after DELETE (their store: "
        "TMPDIR/%s)" % stores[0])
    expect((two, none, one) == (400, 400, 200), "two Host headers: %s, none: %s, one: %s" % (two, none, one))
    log("8. two Host headers: 400; none: 400 (one: 200)")


def check_lifetime(a, env):
    brief = Gunicorn(a.gunicorn, a.workdir, a.pidfile, "gunicorn-lifetime", env, target="server:brief")
    try:
        opened = time.monotonic()
        session = open_session(brief.port)       # it expires 4 to 5 s from now (a whole second of the clock)
        serve_on_all_workers(brief.port, session, 2000)
        time.sleep(max(0.0, opened + 5.1 - time.monotonic()))      # the time passing is what is tested
        after = statuses(brief.port, [session], 30, 2100)
    finally:
        brief.stop()
    expect(after == {404}, "past session_lifetime, the workers answered %s" % sorted(after))
    log("9. past its session_lifetime of 5 s, the session got 404 from every worker, 30 times out of 30")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--gunicorn", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--pidfile", required=True)
    a = parser.parse_args()
    with open(os.path.join(a.workdir, "server.py"), "w") as f:
        f.write(APP % {"repo": REPO})
    env = dict(os.environ, MINIMCP_STATE_KEY=secrets.token_hex(32),
               MINIMCP_SESSION_DIR=os.path.join(a.workdir, "sessions"))
    server = Gunicorn(a.gunicorn, a.workdir, a.pidfile, "gunicorn", env)
    restarted = None
    try:
        status, headers, body = post(server.port, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "workers-check", "version": "1", "icons": [{"src": ICON}]}}},
            {"Authorization": "Bearer token-a"})
        expect(status == 200 and "mcp-session-id" in headers, "initialize: %s %s" % (status, str(body)[:300]))
        session = headers["mcp-session-id"]
        expect(len(session) < 200, "the session id has %d bytes" % len(session))
        log("1. session id of %d bytes for a client with a 4.5 KB icon" % len(session))

        pids = serve_on_all_workers(server.port, session, 1)
        log("   all three workers (%s) served it" % ", ".join(map(str, sorted(pids))))

        refused = [call_worker(server.port, session, "Bearer token-b", 400 + i)[0] for i in range(30)]
        expect(refused == [404] * 30, "bob using alice's session: %s" % sorted(set(refused)))
        log("2. another identity got 404 for it, 30 times out of 30")

        expect(delete(server.port, session, "Bearer token-a") == 204, "DELETE was not 204")
        after = [call_worker(server.port, session, "Bearer token-a", 500 + i)[0] for i in range(30)]
        expect(after == [404] * 30, "after DELETE, the workers answered %s" % after)
        log("3. after DELETE on one worker, 404 from all, 30 times out of 30")
        before, after = check_spellings_and_delete(server.port)
        expect(before == {404} and after == {404}, "re-spelled ids (MINIMCP_SESSION_DIR): %s before DELETE, "
               "%s after" % (sorted(before), sorted(after)))
        log("7. re-spelled ids: 404 from every worker before and after DELETE (MINIMCP_SESSION_DIR)")
        server.stop()
        restarted = Gunicorn(a.gunicorn, a.workdir, a.pidfile, "gunicorn-again", env)
        status, _ = call_worker(restarted.port, session, "Bearer token-a", 600)
        expect(status == 404, "a gunicorn started afresh served the deleted session: %s" % status)
        log("   and from a gunicorn started afresh on the same MINIMCP_SESSION_DIR")
        waited = check_delete_elsewhere_ends_the_stream(restarted.port)
        expect(waited < 1.0, "the GET stream on another worker ended %.2f s after the DELETE's 204" % waited)
        log("4. DELETE on one worker ended the GET stream held by another %.2f s after its 204" % waited)
        restarted.stop()
        single = Gunicorn(a.gunicorn, a.workdir, a.pidfile, "gunicorn-1x4", env, workers=1)
        try:
            waited = check_streams_let_go(single.port)
        finally:
            single.stop()
        log("5. 4 GET streams closed by their clients, all 4 threads free again: answered in %.2f s" % waited)
        stopping = Gunicorn(a.gunicorn, a.workdir, a.pidfile, "gunicorn-sigterm", env, graceful=15)
        try:
            ended, answered, exited = check_sigterm_with_open_streams(stopping)
        finally:
            stopping.stop()
        expect(exited < 5.0, "gunicorn took %.1f s to exit on SIGTERM with streams open" % exited)
        log("6. SIGTERM with a GET and a listen stream open: the GET ended after %.2f s, the listen was answered "
            "after %.2f s, gunicorn exited after %.2f s (--graceful-timeout 15)" % (ended, answered, exited))
        check_without_session_dir(a, env)
        check_lifetime(a, env)
    except Check as failed:
        log("FAILED: %s" % failed)
        log("gunicorn log: %s" % server.tail())
        return 1
    finally:
        server.stop()
        if restarted is not None:
            restarted.stop()
    log("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
