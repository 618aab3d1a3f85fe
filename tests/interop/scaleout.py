#!/usr/bin/env python3
"""Scale-out check (issue 16): three gunicorn replicas of examples/everything.py behind nginx.

    python3 tests/interop/scaleout.py --gunicorn VENV/bin/gunicorn --nginx /usr/sbin/nginx --workdir DIR

run_scaleout.sh installs gunicorn and nginx and calls this. Everything listens on
127.0.0.1 only. The replicas share one MINIMCP_STATE_KEY; nginx sends requests
without an Mcp-Session-Id (2026-07-28, and initialize) round-robin and routes
handshake-era sessions by a consistent hash of that header, and names the replica
that answered in an ``X-Upstream`` response header, which is how the checks tell
where each request went. The client side is the standard library only, and every
request has a timeout, so a hang fails the run instead of stalling it.

Checks: a 2026-07-28 MRTR flow whose rounds land on different replicas; a
handshake-era session (progress and an elicitation over SSE, the answer POSTed
back to the same replica); a bounded load run in which every request is answered
once, correctly; a replica killed by SIGKILL while slow calls are in flight, whose
in-flight requests fail promptly (502 or a cut stream) while the others finish
and later requests, handshake sessions included, are served by the survivors.
Every process started here is stopped by PID (its process group) on the way out,
and its PID is written to --pidfile so the calling script's trap can do it too.
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
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
EXAMPLES = os.path.join(REPO, "examples")

HOST_NAME = "mcp.scaleout.test"      # what clients put in Host; the replicas allow it, and nothing else
MODERN = "2026-07-28"
HANDSHAKE = "2025-11-25"
TIMEOUT = 15.0                       # seconds, for every client request
ENVELOPE = {"io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
            "io.modelcontextprotocol/clientInfo": {"name": "scaleout-check", "version": "1"}}
ACCEPT = "application/json, text/event-stream"

NGINX_CONF = """\
worker_processes 1;
daemon off;
pid {dir}/nginx.pid;
error_log {dir}/nginx-error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {dir}/tmp-body;
    proxy_temp_path {dir}/tmp-proxy;
    fastcgi_temp_path {dir}/tmp-fastcgi;
    uwsgi_temp_path {dir}/tmp-uwsgi;
    scgi_temp_path {dir}/tmp-scgi;
{upstreams}
    server {{
        listen 127.0.0.1:{port};
{location}
    }}
}}
"""

# The part of the config the README shows (docs_http_draft.md): keep the two in step.
UPSTREAMS = """\
    # 2026-07-28 requests stand alone: any replica will do.
    upstream mcp_any {{
{servers}
        keepalive 32;
        keepalive_timeout 30s;              # below gunicorn's --keep-alive, so nginx closes first
    }}
    # Handshake-era sessions: one session id, one replica (server-to-client questions wait there).
    upstream mcp_session {{
        hash $http_mcp_session_id consistent;
{servers}
        keepalive 32;
        keepalive_timeout 30s;
    }}
    map $http_mcp_session_id $mcp_pool {{
        ""      mcp_any;
        default mcp_session;
    }}
"""

LOCATION = """\
        location /mcp {
            proxy_pass http://$mcp_pool;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_buffering off;                # SSE: every event as soon as it is written
            proxy_cache off;
            proxy_read_timeout 1h;              # quiet SSE streams get a comment every 15 s
            proxy_connect_timeout 2s;
            add_header X-Upstream $upstream_addr always;   # test only: which replica answered
        }"""


def log(message: str) -> None:
    sys.stdout.write("[scaleout %s] %s\n" % (time.strftime("%H:%M:%S"), message))
    sys.stdout.flush()


class Check(Exception):
    """A check that failed."""


def expect(condition, message: str) -> None:
    if not condition:
        raise Check(message)


def free_ports(count: int) -> list:
    """Ports the kernel hands out on loopback, all held at once so they differ."""
    sockets = []
    try:
        for _ in range(count):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            sockets.append(s)
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


# -- processes ------------------------------------------------------------------------

class Processes:
    """Every process started here, each the leader of its own process group."""

    def __init__(self, workdir: str, pidfile: str) -> None:
        self.workdir, self.pidfile = workdir, pidfile
        self.procs = {}

    def start(self, name: str, cmd: list, env=None, cwd=None) -> subprocess.Popen:
        logfile = open(os.path.join(self.workdir, name + ".log"), "wb")
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=logfile, stderr=subprocess.STDOUT,
                                env=env, cwd=cwd, start_new_session=True)
        logfile.close()
        self.procs[name] = proc
        with open(self.pidfile, "a") as f:
            f.write("%d\n" % proc.pid)
        return proc

    def kill(self, name: str) -> None:
        """SIGKILL the whole group: a gunicorn master and its worker die at once, as in a crash."""
        proc = self.procs[name]
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)

    def stop_all(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + 5
        for proc in self.procs.values():
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(5)

    def tail(self, name: str, size: int = 2000) -> str:
        try:
            with open(os.path.join(self.workdir, name + ".log"), "rb") as f:
                return f.read()[-size:].decode("utf-8", "replace")
        except OSError:
            return ""


# -- the client -------------------------------------------------------------------------

class Client:
    """Requests to one port (nginx's, or a replica's), each with a timeout."""

    def __init__(self, port: int) -> None:
        self.port = port

    def connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)

    def send(self, connection, message, headers=None, method="POST"):
        all_headers = {"Host": HOST_NAME, "Content-Type": "application/json", "Accept": ACCEPT}
        all_headers.update(headers or {})
        body = json.dumps(message).encode("utf-8") if message is not None else None
        connection.request(method, "/mcp", body=body, headers=all_headers)
        return connection.getresponse()

    def post(self, message, headers=None, method="POST", connection=None):
        """One exchange; returns (status, lower-case headers, JSON body or list of SSE messages or None)."""
        own = connection is None
        connection = connection or self.connect()
        try:
            response = self.send(connection, message, headers, method)
            got = {k.lower(): v for k, v in response.getheaders()}
            data = response.read()
        finally:
            if own:
                connection.close()
        if got.get("content-type", "").startswith("text/event-stream"):
            return response.status, got, [json.loads(e) for e in sse_data(data.decode("utf-8"))]
        try:
            return response.status, got, json.loads(data) if data else None
        except ValueError:
            return response.status, got, data.decode("utf-8", "replace")


def sse_data(text: str) -> list:
    events = []
    for block in text.split("\n\n"):
        lines = [line[5:].lstrip() for line in block.split("\n") if line.startswith("data:")]
        if lines:
            events.append("\n".join(lines))
    return events


def read_event(response):
    """The next SSE message on a streaming response (comments skipped), or None at its end."""
    lines = []
    while True:
        line = response.readline()
        if not line:
            return None
        line = line.decode("utf-8").rstrip("\r\n")
        if line == "":
            if lines:
                return json.loads("\n".join(lines))
            continue
        if line.startswith("data:"):
            lines.append(line[5:].lstrip())


def modern(name: str, arguments: dict, request_id, extra=None):
    """A 2026-07-28 tools/call: the body with its _meta envelope, and the headers that mirror it."""
    params = {"name": name, "arguments": arguments, "_meta": dict(ENVELOPE)}
    params.update(extra or {})
    headers = {"MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call", "Mcp-Name": name}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}, headers


def served_by(headers: dict):
    """The replica that answered: the last address nginx tried (it skips a dead one and says so)."""
    value = headers.get("x-upstream")
    return value.split(",")[-1].strip() if value else None


def text_of(body) -> str:
    return body["result"]["content"][0]["text"]


# -- the checks ---------------------------------------------------------------------------

def check_host_validation(proxy: Client) -> None:
    connection = proxy.connect()
    try:
        message, headers = modern("echo", {"text": "x"}, 1)
        headers["Host"] = "rebinding.example"
        status, _, _ = proxy.post(message, headers, connection=connection)
    finally:
        connection.close()
    expect(status == 421, "a Host the replicas do not serve got %s, not 421" % status)
    log("ok: a Host outside MINIMCP_ALLOWED_HOSTS gets 421 through the proxy")


def check_mrtr(proxy: Client, replicas: dict) -> None:
    message, headers = modern("elicit", {}, "mrtr-1")
    status, got, body = proxy.post(message, headers)
    first = served_by(got)
    expect(status == 200 and body["result"]["resultType"] == "input_required",
           "round 1: %s %s" % (status, body))
    result = body["result"]
    (key, question), = result["inputRequests"].items()
    expect(question["method"] == "elicitation/create", "round 1 asked %s" % question)
    retry = {"inputResponses": {key: {"action": "accept", "content": {"name": "Ada"}}},
             "requestState": result["requestState"]}
    seen = {first}
    for n in range(2, 2 + len(replicas)):          # round-robin: each retry on the next replica
        message, headers = modern("elicit", {}, "mrtr-%d" % n, retry)
        status, got, body = proxy.post(message, headers)
        expect(status == 200 and text_of(body) == "accept: Ada", "round 2 (#%d): %s %s" % (n, status, body))
        seen.add(served_by(got))
    expect(first in replicas and seen <= set(replicas) and len(seen) == len(replicas),
           "the MRTR rounds did not land on every replica: %s (replicas %s)" % (sorted(seen), sorted(replicas)))
    log("ok: MRTR: input_required on %s, the retry answered on each of %s" % (first, ", ".join(sorted(seen))))


def open_session(proxy: Client, capabilities=None):
    status, got, body = proxy.post({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": HANDSHAKE, "capabilities": capabilities or {},
        "clientInfo": {"name": "scaleout-check", "version": "1"}}})
    expect(status == 200 and body["result"]["protocolVersion"] == HANDSHAKE, "initialize: %s %s" % (status, body))
    session = got.get("mcp-session-id")
    expect(session, "initialize gave no Mcp-Session-Id")
    headers = {"Mcp-Session-Id": session, "MCP-Protocol-Version": HANDSHAKE}
    status, got, _ = proxy.post({"jsonrpc": "2.0", "method": "notifications/initialized"}, headers)
    expect(status == 202, "notifications/initialized: %s" % status)
    return headers, served_by(got)


def check_handshake_session(proxy: Client) -> None:
    headers, home = open_session(proxy, {"elicitation": {}})
    upstreams = {home}
    status, got, body = proxy.post({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, headers)
    expect(status == 200 and "slow" in [t["name"] for t in body["result"]["tools"]], "tools/list: %s" % status)
    upstreams.add(served_by(got))

    status, got, events = proxy.post({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "slow", "arguments": {"seconds": 0.6, "steps": 3}, "_meta": {"progressToken": "p3"}}}, headers)
    upstreams.add(served_by(got))
    expect(status == 200 and got.get("content-type", "").startswith("text/event-stream"),
           "tools/call slow with progress: %s %s" % (status, got.get("content-type")))
    methods = [e.get("method") for e in events]
    expect(methods == ["notifications/progress"] * 3 + [None] and text_of(events[-1]) == "done",
           "progress over SSE: %s" % events)

    # An elicitation: the question arrives on the POST's stream while the call waits on
    # its replica, and the answer, POSTed with the session id, must reach that replica.
    connection = proxy.connect()
    try:
        response = proxy.send(connection, {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
            "name": "elicit", "arguments": {}}}, headers)
        upstreams.add(served_by({"x-upstream": response.getheader("X-Upstream")}))
        expect(response.status == 200, "tools/call elicit: %s" % response.status)
        question = read_event(response)
        expect(question and question.get("method") == "elicitation/create", "expected a question: %s" % question)
        status, got, _ = proxy.post({"jsonrpc": "2.0", "id": question["id"],
                                     "result": {"action": "accept", "content": {"name": "Bo"}}}, headers)
        upstreams.add(served_by(got))
        expect(status == 202, "the answer to the question: %s" % status)
        answer = read_event(response)
        expect(answer and answer.get("id") == 4 and text_of(answer) == "accept: Bo", "elicit answer: %s" % answer)
    finally:
        connection.close()
    expect(len(upstreams) == 1, "one session's requests went to several replicas: %s" % upstreams)

    status, _, _ = proxy.post(None, headers, method="DELETE")
    expect(status == 204, "DELETE: %s" % status)
    status, _, body = proxy.post({"jsonrpc": "2.0", "id": 5, "method": "tools/list"}, headers)
    expect(status == 404, "a deleted session got %s, not 404" % status)
    log("ok: handshake session on %s: progress and an elicitation over SSE, DELETE, then 404" % home)


def check_load(proxy: Client, replicas: dict, total: int = 2000, threads: int = 4, budget: float = 90.0) -> None:
    answers = {}                        # request id -> the text answered (once)
    problems = []
    per_replica = {}
    lock = threading.Lock()
    deadline = time.monotonic() + budget

    def worker(first: int) -> None:
        connection = proxy.connect()   # one keep-alive connection per client thread
        try:
            for n in range(first, total, threads):
                if time.monotonic() > deadline:
                    with lock:
                        problems.append("out of time before request %d" % n)
                    return
                message, headers = modern("echo", {"text": "load %d" % n}, n)
                try:
                    status, got, body = proxy.post(message, headers, connection=connection)
                except (OSError, http.client.HTTPException) as e:
                    connection.close()
                    connection = proxy.connect()
                    with lock:
                        problems.append("request %d: %r" % (n, e))
                    continue
                with lock:
                    if status != 200 or not isinstance(body, dict) or body.get("id") != n:
                        problems.append("request %d: %s %s" % (n, status, str(body)[:200]))
                    elif n in answers:
                        problems.append("request %d answered twice" % n)
                    else:
                        answers[n] = text_of(body)
                    upstream = served_by(got)
                    per_replica[upstream] = per_replica.get(upstream, 0) + 1
        finally:
            connection.close()

    started = time.monotonic()
    pool = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join(budget + TIMEOUT)
    elapsed = time.monotonic() - started
    expect(not any(t.is_alive() for t in pool), "a load thread hung")
    expect(not problems, "load run: %d problems, first: %s" % (len(problems), problems[:5]))
    wrong = [n for n in range(total) if answers.get(n) != "load %d" % n]
    expect(not wrong, "load run: %d requests without their own answer, e.g. %s" % (len(wrong), wrong[:5]))
    expect(set(per_replica) == set(replicas), "the load did not reach every replica: %s" % per_replica)
    log("ok: load: %d echo calls from %d threads in %.1f s (%.0f/s), each answered once, correctly; "
        "per replica %s" % (total, threads, elapsed, total / elapsed,
                            ", ".join("%s=%d" % kv for kv in sorted(per_replica.items()))))


def check_kill(proxy: Client, replicas: dict, processes: Processes) -> None:
    # Handshake sessions opened before the crash: the ones homed on the dead replica must be
    # served by a survivor afterwards (the shared key lets any replica revive a signed id).
    sessions = []
    homes = {}
    while min(homes.get(addr, 0) for addr in replicas) < 2:   # so that some are homed on the victim
        expect(len(sessions) < 60, "60 sessions and still not 2 on every replica: %s" % homes)
        headers, _ = open_session(proxy)
        status, got, _ = proxy.post({"jsonrpc": "2.0", "id": 2, "method": "ping"}, headers)
        expect(status == 200, "ping in a session: %s" % status)
        sessions.append((headers, served_by(got)))
        homes[served_by(got)] = homes.get(served_by(got), 0) + 1

    outcomes = {}                        # key -> (kind, detail, upstream, finished at)
    streaming = {}                       # key -> the replica whose progress events it is receiving
    started = threading.Event()
    lock = threading.Lock()
    n_streams, n_plain = 9, 3

    def streamed(key: str) -> None:
        """A slow call with progress: its headers and first event prove where it is running."""
        connection = proxy.connect()
        try:
            message, headers = modern("slow", {"seconds": 6, "steps": 6}, key,
                                      {"_meta": dict(ENVELOPE, progressToken=key)})
            response = proxy.send(connection, message, headers)
            upstream = served_by({"x-upstream": response.getheader("X-Upstream")})
            if response.status != 200:
                outcome = ("status", response.status, upstream)
            else:
                first = read_event(response)
                with lock:
                    streaming[key] = upstream
                    if len(streaming) == n_streams:
                        started.set()
                last = first
                while last is not None and "result" not in last:
                    last = read_event(response)
                outcome = ("ok", text_of(last), upstream) if last else ("cut", "stream ended early", upstream)
        except (OSError, http.client.HTTPException) as e:
            outcome = ("cut", repr(e), streaming.get(key))
        finally:
            connection.close()
        with lock:
            outcomes[key] = outcome + (time.monotonic(),)

    def plain(key: str) -> None:
        """A slow call without progress. minimcp answers a quiet 2026-07-28 call over SSE after
        0.5 s (its disconnect probe), so a crash is a 502 before that and a cut stream after;
        the response's headers say which replica it is on, before any body."""
        connection = proxy.connect()
        upstream = None
        try:
            message, headers = modern("slow", {"seconds": 6, "steps": 2}, key)
            response = proxy.send(connection, message, headers)
            got = {k.lower(): v for k, v in response.getheaders()}
            upstream = served_by(got)
            if response.status != 200:
                outcome = ("status", response.status, upstream)
            elif got.get("content-type", "").startswith("text/event-stream"):
                last = read_event(response)
                while last is not None and "result" not in last and "error" not in last:
                    last = read_event(response)
                outcome = ("ok", text_of(last), upstream) if last else ("cut", "stream ended early", upstream)
            else:
                outcome = ("ok", text_of(json.loads(response.read())), upstream)
        except (OSError, http.client.HTTPException, ValueError) as e:
            outcome = ("cut", repr(e), upstream)
        except Exception as e:                             # a broken check must fail the stage, not vanish
            outcome = ("crash", repr(e), upstream)
        finally:
            connection.close()
        with lock:
            outcomes[key] = outcome + (time.monotonic(),)

    # The plain calls go first, so they are on their replicas before the streams are all seen.
    threads = [threading.Thread(target=plain, args=("plain-%d" % i,), daemon=True) for i in range(n_plain)]
    threads += [threading.Thread(target=streamed, args=("stream-%d" % i,), daemon=True) for i in range(n_streams)]
    for t in threads:
        t.start()
    expect(started.wait(TIMEOUT), "the slow calls did not all start streaming: %s" % streaming)
    victim_addr = streaming["stream-0"]
    victim = replicas[victim_addr]
    killed_at = time.monotonic()
    processes.kill(victim)
    log("killed %s (%s, process group %d) with %d streams in flight on it"
        % (victim, victim_addr, processes.procs[victim].pid,
           sum(1 for u in streaming.values() if u == victim_addr)))
    for t in threads:
        t.join(TIMEOUT + 5)
    expect(not any(t.is_alive() for t in threads), "a client request hung after the kill")
    expect(len(outcomes) == len(threads), "only %d of %d requests recorded an outcome" % (len(outcomes), len(threads)))
    expect(not any(o[0] == "crash" for o in outcomes.values()), "a check crashed: %s" % outcomes)

    lost = []
    for key, (kind, detail, upstream, finished) in sorted(outcomes.items()):
        on_victim = streaming.get(key, upstream) == victim_addr
        if on_victim:
            expect(kind != "ok", "%s ran on the killed replica but answered %r" % (key, detail))
            expect(kind == "cut" or detail in (502, 504), "%s on the killed replica got %s %s" % (key, kind, detail))
            expect(finished - killed_at < 5, "%s took %.1f s to fail after the kill" % (key, finished - killed_at))
            lost.append("%s: %s" % (key, detail if kind == "status" else "cut"))
        else:
            expect(kind == "ok" and detail == "done" and upstream in replicas,
                   "%s on a surviving replica %s: %s %s" % (key, upstream, kind, detail))
    expect(any(k.startswith("stream") for k in lost), "no in-flight request was lost with the replica?")
    log("ok: kill: lost only the killed replica's in-flight calls (%s); the other %d finished"
        % (", ".join(lost), len(outcomes) - len(lost)))

    survivors = set(replicas) - {victim_addr}
    used = set()
    for n in range(30):
        message, headers = modern("echo", {"text": "after %d" % n}, n)
        status, got, body = proxy.post(message, headers)
        expect(status == 200 and text_of(body) == "after %d" % n, "after the kill, #%d: %s %s" % (n, status, body))
        used.add(served_by(got))
    expect(used == survivors, "after the kill the calls went to %s, not the survivors %s" % (used, survivors))
    moved = 0
    for headers, home in sessions:
        status, got, body = proxy.post({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "echo", "arguments": {"text": "still here"}}}, headers)
        expect(status == 200 and text_of(body) == "still here",
               "a session homed on %s, after the kill: %s %s" % (home, status, body))
        expect(served_by(got) in survivors, "a session was served by %s" % served_by(got))
        moved += home == victim_addr
    expect(moved >= 2, "only %d sessions were homed on the killed replica" % moved)
    log("ok: after the kill: 30 calls served by %s; %d handshake sessions (%d of them homed on the dead "
        "replica) go on" % (", ".join(sorted(used)), len(sessions), moved))


# -- main -----------------------------------------------------------------------------------

def wait_ready(client: Client, proc: subprocess.Popen, name: str, processes: Processes) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise Check("%s exited with %s:\n%s" % (name, proc.returncode, processes.tail(name)))
        try:
            message, headers = modern("echo", {"text": "ready?"}, 0)
            status, _, body = client.post(message, headers)
            if status == 200 and text_of(body) == "ready?":
                return
            raise Check("%s answered %s %s" % (name, status, body))
        except (OSError, http.client.HTTPException):
            time.sleep(0.1)               # not listening yet: gunicorn is importing the app
    raise Check("%s did not answer within 30 s:\n%s" % (name, processes.tail(name)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gunicorn", required=True)
    parser.add_argument("--nginx", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--pidfile", required=True)
    parser.add_argument("--requests", type=int, default=2000)
    a = parser.parse_args()

    processes = Processes(a.workdir, a.pidfile)
    os.chmod(a.workdir, 0o755)            # nginx's workers (user nobody) reach their temp paths
    ports = free_ports(4)
    proxy_port, replica_ports = ports[0], ports[1:]
    env = dict(os.environ, MINIMCP_STATE_KEY=secrets.token_hex(32), MINIMCP_ALLOWED_HOSTS=HOST_NAME,
               TMPDIR=a.workdir)           # where the replicas' shared key keeps deleted session ids
    env.pop("MINIMCP_HTTP_TOKEN", None)
    replicas = {}                          # "127.0.0.1:port" -> process name
    try:
        for i, port in enumerate(replica_ports):
            name = "replica-%d" % (i + 1)
            proc = processes.start(name, [a.gunicorn, "everything:app", "--chdir", EXAMPLES,
                                          "--bind", "127.0.0.1:%d" % port, "--workers", "1", "--threads", "8",
                                          "--keep-alive", "60", "--graceful-timeout", "3", "--log-level", "warning"],
                                   env=env)
            replicas["127.0.0.1:%d" % port] = name
        servers = "\n".join("        server %s max_fails=1 fail_timeout=30s;" % addr for addr in replicas)
        conf = NGINX_CONF.format(dir=a.workdir, port=proxy_port, upstreams=UPSTREAMS.format(servers=servers),
                                 location=LOCATION)
        conf_path = os.path.join(a.workdir, "nginx.conf")
        with open(conf_path, "w") as f:
            f.write(conf)
        test = subprocess.run([a.nginx, "-t", "-q", "-p", a.workdir, "-e", os.path.join(a.workdir, "nginx-t.log"),
                               "-c", conf_path], capture_output=True, text=True)
        if test.returncode != 0:
            raise Check("nginx refused its config:\n%s%s" % (test.stdout, test.stderr))
        nginx = processes.start("nginx", [a.nginx, "-p", a.workdir, "-e", os.path.join(a.workdir, "nginx-error.log"),
                                          "-c", conf_path])
        for addr, name in replicas.items():
            wait_ready(Client(int(addr.rsplit(":", 1)[1])), processes.procs[name], name, processes)
        proxy = Client(proxy_port)
        wait_ready(proxy, nginx, "nginx", processes)
        log("three gunicorn replicas (%s) behind nginx on 127.0.0.1:%d"
            % (", ".join(sorted(replicas)), proxy_port))

        check_host_validation(proxy)
        check_mrtr(proxy, replicas)
        check_handshake_session(proxy)
        check_load(proxy, replicas, total=a.requests)
        check_kill(proxy, replicas, processes)
        log("all scale-out checks passed")
        return 0
    except Check as failure:
        log("FAILED: %s" % failure)
        for name in processes.procs:
            text = processes.tail(name, 1500)
            if text.strip():
                sys.stdout.write("--- %s.log (tail)\n%s\n" % (name, text))
        error_log = os.path.join(a.workdir, "nginx-error.log")
        if os.path.exists(error_log):
            with open(error_log, "rb") as f:
                sys.stdout.write("--- nginx-error.log (tail)\n%s\n" % f.read()[-1500:].decode("utf-8", "replace"))
        return 1
    finally:
        processes.stop_all()


if __name__ == "__main__":
    sys.exit(main())
