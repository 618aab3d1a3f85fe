"""The bridge's test harness: a spawned bridge driven as its host, and upstreams it talks to.

- ``bridge``: the fixture that starts the bridge. It is the one place that says how the bridge
  is started (``BRIDGE``): ``python3 minimcp.py bridge URL``, as users start it.
- ``Host``: the host's side of a spawned bridge, bytes in and JSON lines out; every line the
  bridge writes on stdout is checked to be one JSON-RPC message.
- ``Upstream``: minimcp's own HTTP server in this process, recording every request it gets.
- ``Scripted``: an HTTP server whose every answer the test writes (a 2026-07-28-only server,
  an SSE stream that breaks off, a 401, a server that says nothing...).
- ``Mute``: a TCP port that takes connections and never says a word (TLS never answered, a
  proxy that never answers CONNECT).
"""

import http.server
import json
import os
import queue
import socket
import socketserver
import subprocess
import threading
import time

import pytest

from conftest import CLI, ROOT, check_line, load_example
import minimcp_http

#: How the bridge is started: ``python3 minimcp.py bridge``, the command line (from cached bytecode).
BRIDGE = CLI + ["bridge"]
# How long a test waits for what it expects from the bridge: a ceiling, not a measure. A bridge
# that signs in starts a browser process and makes several requests first; on a loaded 2-core
# CI machine (load 23) that took more than 10 s.
WAIT = 30.0
INIT_PARAMS = {"protocolVersion": "2025-11-25", "capabilities": {},
               "clientInfo": {"name": "bridge-test-host", "version": "1.0"}}


@pytest.fixture
def bridge():
    """``bridge(url, *options, env=None) -> Host``: a bridge to ``url``, stopped at the test's end."""
    started = []

    def start(url, *options, env=None):
        host = Host(BRIDGE + [url] + list(options), env=env)
        started.append(host)
        return host
    yield start
    for host in started:
        host.kill()


class Host:
    """The host's side of a spawned bridge: it writes JSON lines and reads the bridge's."""

    def __init__(self, argv, env=None, cwd=ROOT):
        environment = dict(os.environ, PYTHONUNBUFFERED="1")
        for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"):
            environment.pop(name, None)            # the tests' own network, unless a test sets one
        environment.update(env or {})
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        env=environment, cwd=cwd)
        self.inbox = queue.Queue()
        self.backlog = []                  # messages read while waiting for another
        self.stderr_lines = []
        self.ids = iter(range(1, 1 << 30))
        self.readers = [threading.Thread(target=self._read, daemon=True),
                        threading.Thread(target=self._read_stderr, daemon=True)]
        for reader in self.readers:
            reader.start()

    def _read(self):
        for line in self.process.stdout:
            try:
                self.inbox.put(check_line(line))
            except AssertionError as exc:  # the test fails with what the bridge wrote
                self.inbox.put(AssertionError("not a JSON-RPC line on stdout: %r (%s)" % (line[:200], exc)))
        self.inbox.put(None)

    def _read_stderr(self):
        for line in self.process.stderr:
            self.stderr_lines.append(line.decode("utf-8", "replace"))

    @property
    def stderr(self) -> str:
        return "".join(self.stderr_lines)

    def said(self, text, timeout=WAIT):
        """Whether the bridge writes ``text`` on stderr within ``timeout`` (it may still be on its way)."""
        deadline = time.monotonic() + timeout
        while text not in self.stderr:
            if time.monotonic() > deadline or not self.readers[1].is_alive():
                return text in self.stderr
            time.sleep(0.01)
        return True

    def send(self, message):
        self.process.stdin.write(json.dumps(message).encode("utf-8") + b"\n")
        self.process.stdin.flush()

    def next(self, predicate=lambda message: True, timeout=WAIT):
        """The first message (backlog first) that ``predicate`` accepts; the others stay in the backlog."""
        for index, message in enumerate(self.backlog):
            if predicate(message):
                return self.backlog.pop(index)
        deadline = time.monotonic() + timeout
        while True:
            try:
                message = self.inbox.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError("no such message within %s s; backlog %r; stderr:\n%s"
                                     % (timeout, self.backlog[-5:], self.stderr))
            if message is None:
                self.inbox.put(None)
                raise AssertionError("the bridge closed stdout; backlog %r; stderr:\n%s" % (self.backlog, self.stderr))
            if isinstance(message, AssertionError):
                raise message
            if predicate(message):
                return message
            self.backlog.append(message)

    def answer_to(self, request_id, timeout=WAIT):
        return self.next(lambda m: "method" not in m and m.get("id") == request_id, timeout)

    def request(self, method, params=None, timeout=WAIT, request_id=None):
        request_id = next(self.ids) if request_id is None else request_id
        message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.answer_to(request_id, timeout)

    def initialize(self, version="2025-11-25", capabilities=None):
        answer = self.request("initialize", dict(INIT_PARAMS, protocolVersion=version,
                                                 capabilities=capabilities or {}))
        assert "result" in answer, answer
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answer["result"]

    def notifications(self, method):
        """The notifications of ``method`` read so far (taken out of the backlog)."""
        found = [m for m in self.backlog if m.get("method") == method and "id" not in m]
        self.backlog = [m for m in self.backlog if m not in found]
        return found

    def silent_about(self, predicate, seconds):
        """Assert no message ``predicate`` accepts comes within ``seconds``."""
        try:
            message = self.next(predicate, timeout=seconds)
        except AssertionError as exc:
            if "no such message" in str(exc):
                return
            raise
        raise AssertionError("unexpected: %r" % (message,))

    def close(self, timeout=10.0):
        """Close the bridge's stdin (the host leaves); its exit status."""
        self.process.stdin.close()
        status = self.process.wait(timeout)
        for reader in self.readers:        # all it wrote is read: stderr is whole
            reader.join(timeout)
        return status

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            try:
                stream.close()
            except (OSError, ValueError):
                pass


# -- upstreams ------------------------------------------------------------------------------

class Upstream:
    """minimcp's own HTTP server in this process (a fresh app each time), recording each request."""

    def __init__(self, port=0, app=None, refuse=None, **options):
        """``refuse(verb, headers, body) -> (status, message or None) or None``: an answer that
        stands in for the app's (a server of one era only), None to let the app answer."""
        self.app = app or load_example("everything").app
        self.requests = []                  # (method, headers with lower-case names, parsed body or None)
        box, ready = {}, threading.Event()

        def keep(httpd):
            inner = httpd.application

            def recording(environ, start_response):
                body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
                import io
                environ["wsgi.input"] = io.BytesIO(body)
                headers = {key[5:].replace("_", "-").lower(): value for key, value in environ.items()
                           if key.startswith("HTTP_")}
                self.requests.append((environ["REQUEST_METHOD"], headers, json.loads(body) if body else None))
                refused = refuse(*self.requests[-1]) if refuse is not None else None
                if refused is not None:
                    status, message = refused
                    data = json.dumps(message).encode("utf-8") if message is not None else b""
                    start_response("%d Refused" % status, [("Content-Type", "application/json"),
                                                           ("Content-Length", str(len(data)))])
                    return [data]
                return inner(environ, start_response)
            httpd.application = recording
            box["httpd"] = httpd
            ready.set()
        self.thread = threading.Thread(target=minimcp_http._serve_http, args=(self.app, "127.0.0.1", port),
                                       kwargs=dict(options, ready=keep), daemon=True)
        self.thread.start()
        assert ready.wait(10), "the HTTP server did not start"
        self.httpd = box["httpd"]
        self.port = self.httpd.server_address[1]
        self.url = "http://127.0.0.1:%d/mcp" % self.port

    def posted(self, method):
        """(headers, body) of each POST of ``method`` so far."""
        return [(headers, body) for verb, headers, body in self.requests
                if verb == "POST" and isinstance(body, dict) and body.get("method") == method]

    def close(self):
        self.httpd.shutdown()
        self.thread.join(10)


@pytest.fixture
def upstream():
    """``upstream(port=0, **options) -> Upstream``, closed at the test's end."""
    started = []

    def start(*args, **options):
        running = Upstream(*args, **options)
        started.append(running)
        return running
    yield start
    for running in started:
        running.close()


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"           # every answer ends with its connection: SSE needs no framing

    def log_message(self, *args):
        pass

    def _any(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.body = json.loads(self.rfile.read(length)) if length else None
        self.arrived = time.monotonic()
        self.server.scripted.requests.append(self)
        self.server.scripted.handle(self)

    do_GET = do_POST = do_DELETE = _any

    # what a script answers with
    def json(self, message, status=200, headers=None):
        data = json.dumps(message).encode("utf-8") if message is not None else b""
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def status(self, status, headers=None):
        self.send_response(status)
        self.send_header("Content-Length", "0")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()

    def open_stream(self, headers=None):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.flush()

    def event(self, message=None, event_id=None, retry=None, comment=None):
        lines = []
        if comment is not None:
            lines.append(":" + comment)
        if event_id is not None:
            lines.append("id: %s" % event_id)
        if retry is not None:
            lines.append("retry: %d" % retry)
        lines.append("data: " + (json.dumps(message) if message is not None else ""))
        self.wfile.write(("\n".join(lines) + "\n\n").encode("utf-8"))
        self.wfile.flush()


class _Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


class Scripted:
    """An HTTP server on 127.0.0.1 whose answers ``handle(request)`` writes (see _Handler's helpers)."""

    def __init__(self, handle, port=0):
        self.handle = handle
        self.requests = []
        self.httpd = _Server(("127.0.0.1", port), _Handler)
        self.httpd.scripted = self
        self.port = self.httpd.server_address[1]
        self.url = "http://127.0.0.1:%d/mcp" % self.port
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def of(self, method):
        return [r for r in self.requests if isinstance(r.body, dict) and r.body.get("method") == method]

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(10)


@pytest.fixture
def scripted():
    """``scripted(handle) -> Scripted``, closed at the test's end."""
    started = []

    def start(handle, **options):
        running = Scripted(handle, **options)
        started.append(running)
        return running
    yield start
    for running in started:
        running.close()


def result(message, result_value):
    return {"jsonrpc": "2.0", "id": message["id"], "result": result_value}


def modern_result(message, value):
    return result(message, dict(value, resultType="complete"))


DISCOVERED = {"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {"listChanged": True}},
              "ttlMs": 0, "cacheScope": "public",
              "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "modern-only", "version": "9"}}}


@pytest.fixture
def released():
    """An event set at the test's end: a scripted answer that must never come waits on it."""
    event = threading.Event()
    yield event
    event.set()


class Mute:
    """A TCP port on 127.0.0.1 that takes connections and never says a word. It never accepts:
    the kernel completes each TCP handshake into the listen queue and keeps what the client sends."""

    def __init__(self):
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]

    def first_bytes(self):
        """What each connection made so far sent first (its bytes up to 4 KiB), in order."""
        self.listener.setblocking(False)
        sent = []
        while True:
            try:
                connection, _ = self.listener.accept()
            except BlockingIOError:
                return sent
            with connection:
                connection.settimeout(5)
                sent.append(connection.recv(4096))

    def close(self):
        self.listener.close()


@pytest.fixture
def mute():
    """``mute() -> Mute``, closed at the test's end."""
    started = []

    def start():
        started.append(Mute())
        return started[-1]
    yield start
    for listener in started:
        listener.close()
