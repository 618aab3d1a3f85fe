"""A small Streamable-HTTP-to-stdio bridge, so the conformance suite can reach a stdio server.

minimcp has no HTTP transport yet. Until it has, `run_conformance.sh` puts this bridge in front of
`examples/conformance.py`. It is a relay, not a transport: it maps HTTP requests onto stdio
pipes and JSON-RPC lines back onto HTTP responses, and leaves every protocol decision to the
server behind it. Standard library only; it binds to 127.0.0.1 and nothing else.

    python3 tests/interop/conformance_bridge.py --port 0 --url-file URL_FILE -- python3 examples/conformance.py

What it does:
- `initialize` (POST without `Mcp-Session-Id`) spawns one server process for a new session and
  answers with its `Mcp-Session-Id`; later POSTs of that session go to that process, `DELETE`
  stops it (404 afterwards), and `GET` opens the session's stream for messages that belong to
  no request. A handshake-era POST without a session gets 400.
- Any other POST without a session (2026-07-28: stateless, `_meta` on every request) goes to one
  shared server process, whose pipe commits to 2026-07-28.
- A request is answered on an SSE stream when the client accepts `text/event-stream`, else as
  one JSON body. Client ids (and progress tokens are looked up) are mapped to the bridge's own
  ids so that clients sharing a process never collide; the original id is restored.
- A response that arrives within a second and before anything else for its request is sent as
  one JSON body even when SSE is accepted, so that on 2026-07-28 its status can follow the transport's table:
  -32601 is 404; -32020, -32021, -32022 and parse/invalid-request errors are 400; the rest 200.
  (A -32602 stays 200: the bridge cannot tell an envelope rejection, which the transport
  answers with 400, from a bad argument.) Notifications and responses POSTed get 202.
- Closing a 2026-07-28 response stream sends `notifications/cancelled` for its request (that is
  the cancellation signal on HTTP); in the handshake era a disconnect does not cancel.

Its limits, which the conformance baseline names when a check runs into them:
- No HTTP-layer validation at all: no `Origin`/`Host` check (DNS rebinding), no
  `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` or `Mcp-Param-*` header checks, no
  `Accept`/`Content-Type` checks. Those belong to the real HTTP transport.
- No SSE event ids, priming events, `retry` fields or `Last-Event-ID` resumption; a stream
  closed early loses what was still to come. No batches (a JSON array gets 400).
- A message that names no request (log messages, server-to-client requests, list changes) is
  routed by a rule, not by knowledge: change notifications go to the session's GET stream if
  one is open; everything else goes to the oldest open SSE response of the same process, then
  to the GET stream; with neither, it is dropped (and said so on stderr).
"""

import argparse
import itertools
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODERN_ERRORS_400 = {-32020, -32021, -32022, -32700, -32600}
META_SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId"
# Notifications that belong to a session rather than to one request (go to the GET stream first).
SESSION_NOTIFICATIONS = ("notifications/resources/", "notifications/tools/list_changed",
                         "notifications/prompts/list_changed", "notifications/tasks")


def log(message: str) -> None:
    """The bridge's diagnostics go to stderr, like everything that is not protocol."""
    sys.stderr.write("bridge: %s\n" % message)
    sys.stderr.flush()


class Waiter:
    """One HTTP request waiting for the server's answer; messages for it arrive on `inbox`."""

    def __init__(self, original_id, streaming: bool, listen: bool) -> None:
        self.original_id, self.streaming, self.listen = original_id, streaming, listen
        self.inbox = queue.Queue()


class Child:
    """One stdio server process and the HTTP requests waiting on it."""

    _ids = itertools.count(1)

    def __init__(self, command: list, modern: bool) -> None:
        self.modern = modern
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.lock = threading.Lock()
        self.waiters = {}          # bridge id -> Waiter, in arrival order
        self.tokens = {}           # progress token -> bridge id
        self.get_streams = []      # queues of open GET streams
        threading.Thread(target=self._read, daemon=True).start()

    def send(self, message: dict) -> None:
        with self.lock:
            self.process.stdin.write(json.dumps(message, separators=(",", ":")).encode("utf-8") + b"\n")
            self.process.stdin.flush()

    def request(self, message: dict, streaming: bool) -> tuple:
        """Forward a client request under a bridge id; returns (bridge id, Waiter)."""
        bridge_id = "bridge-%d" % next(self._ids)
        waiter = Waiter(message["id"], streaming, message.get("method") == "subscriptions/listen")
        token = ((message.get("params") or {}).get("_meta") or {}).get("progressToken")
        with self.lock:
            self.waiters[bridge_id] = waiter
            if token is not None:
                self.tokens[json.dumps(token)] = bridge_id
        self.send(dict(message, id=bridge_id))
        return bridge_id, waiter

    def forget(self, bridge_id: str) -> None:
        with self.lock:
            self.waiters.pop(bridge_id, None)
            for token in [t for t, b in self.tokens.items() if b == bridge_id]:
                del self.tokens[token]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def _read(self) -> None:
        for line in self.process.stdout:
            try:
                message = json.loads(line)
            except ValueError:
                log("server wrote a line that is not JSON: %r" % line[:200])
                continue
            self._route(message)
        with self.lock:                      # the process ended: wake everyone still waiting
            waiters = list(self.waiters.values())
            streams = list(self.get_streams)
        for waiter in waiters:
            waiter.inbox.put(None)
        for stream in streams:
            stream.put(None)

    def _route(self, message: dict) -> None:
        with self.lock:
            if isinstance(message, dict) and "method" not in message and message.get("id") in self.waiters:
                waiter = self.waiters[message["id"]]
                waiter.inbox.put(("final", dict(message, id=waiter.original_id)))
                return
            params = message.get("params") if isinstance(message, dict) else None
            params = params if isinstance(params, dict) else {}
            meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else {}
            target = None
            if meta.get(META_SUBSCRIPTION) in self.waiters:
                target = self.waiters[meta[META_SUBSCRIPTION]]
                message = dict(message, params=dict(params, _meta=dict(meta, **{
                    META_SUBSCRIPTION: target.original_id})))
            elif message.get("method") == "notifications/progress" and \
                    json.dumps(params.get("progressToken")) in self.tokens:
                target = self.waiters.get(self.tokens[json.dumps(params.get("progressToken"))])
            if target is None:
                open_streams = [w for w in self.waiters.values() if w.streaming and not w.listen]
                session_wide = str(message.get("method", "")).startswith(SESSION_NOTIFICATIONS)
                if self.get_streams and (session_wide or not open_streams):
                    self.get_streams[0].put(("message", message))
                    return
                if open_streams:
                    target = open_streams[0]
            if target is None:
                log("dropped (no open stream): %s" % json.dumps(message)[:200])
                return
            target.inbox.put(("message", message))


class Bridge:
    """The sessions (one Child each) and the shared 2026-07-28 Child."""

    def __init__(self, command: list) -> None:
        self.command = command
        self.lock = threading.Lock()
        self.sessions = {}
        self.modern = None

    def new_session(self) -> tuple:
        session_id = uuid.uuid4().hex
        child = Child(self.command, modern=False)
        with self.lock:
            self.sessions[session_id] = child
        return session_id, child

    def modern_child(self) -> Child:
        with self.lock:
            if self.modern is None or self.modern.process.poll() is not None:
                self.modern = Child(self.command, modern=True)
            return self.modern

    def stop(self) -> None:
        with self.lock:
            children = list(self.sessions.values()) + ([self.modern] if self.modern else [])
            self.sessions.clear()
        for child in children:
            child.stop()


def _is_modern(message: dict) -> bool:
    meta = (message.get("params") or {}).get("_meta") if isinstance(message.get("params"), dict) else None
    return isinstance(meta, dict) and "io.modelcontextprotocol/protocolVersion" in meta


class Handler(BaseHTTPRequestHandler):
    """POST, GET and DELETE on one endpoint path."""

    protocol_version = "HTTP/1.1"
    bridge = None        # set by main()
    path_ok = "/mcp"

    def log_message(self, fmt, *args) -> None:   # quiet: only failures go to stderr
        pass

    def _plain(self, status: int, body: dict = None, headers: dict = None) -> None:
        data = json.dumps(body).encode("utf-8") if body is not None else b""
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if body is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _session(self):
        session_id = self.headers.get("Mcp-Session-Id")
        if session_id is None:
            return None, None
        with self.bridge.lock:
            return session_id, self.bridge.sessions.get(session_id)

    def do_DELETE(self) -> None:
        session_id, child = self._session()
        if child is None:
            return self._plain(404 if session_id else 400)
        with self.bridge.lock:
            self.bridge.sessions.pop(session_id, None)
        child.stop()
        self._plain(200)

    def do_GET(self) -> None:
        session_id, child = self._session()
        if child is None:
            return self._plain(404 if session_id else 405, headers={"Allow": "POST, DELETE"})
        stream = queue.Queue()
        with child.lock:
            child.get_streams.append(stream)
        try:
            self._start_sse({})
            self._pump(stream, None)
        finally:
            with child.lock:
                child.get_streams.remove(stream)

    def do_POST(self) -> None:
        if self.path.split("?")[0] != self.path_ok:
            return self._plain(404)
        try:
            message = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"null")
        except ValueError:
            return self._plain(400, {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
        if not isinstance(message, dict):
            return self._plain(400, {"jsonrpc": "2.0", "id": None, "error": {
                "code": -32600, "message": "the bridge relays one JSON-RPC message per POST (no batches)"}})
        headers = {}
        session_id, child = self._session()
        if session_id is not None and child is None:
            return self._plain(404, {"jsonrpc": "2.0", "id": message.get("id"),
                                     "error": {"code": -32600, "message": "unknown or terminated session"}})
        if child is None:
            if _is_modern(message) or message.get("method") == "server/discover":
                child = self.bridge.modern_child()     # even an enveloped initialize: it is 2026-07-28 traffic
            elif message.get("method") == "initialize":
                session_id, child = self.bridge.new_session()
                headers["Mcp-Session-Id"] = session_id
            else:
                return self._plain(400, {"jsonrpc": "2.0", "id": message.get("id"), "error": {
                    "code": -32600, "message": "Bad Request: Mcp-Session-Id header is required"}})
        if "method" not in message or "id" not in message:      # a notification or a response
            child.send(message)
            return self._plain(202, headers=headers)
        streaming = "text/event-stream" in (self.headers.get("Accept") or "")
        bridge_id, waiter = child.request(message, streaming)
        try:
            first = None
            if streaming:
                try:
                    first = waiter.inbox.get(timeout=1.0)
                except queue.Empty:
                    first = ("comment", None)
            if streaming and first is not None and first[0] != "final":
                # Something comes before the response, or nothing for a second: stream it, at 200.
                self._start_sse(headers)
                if not self._pump(waiter.inbox, first) and child.modern:
                    child.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                                "params": {"requestId": bridge_id, "reason": "HTTP stream closed"}})
            else:
                # A response that comes alone is sent as one JSON body, so that its HTTP status
                # can still say what the JSON-RPC error means (404 for -32601, 400 for -32021...).
                while True:
                    item = first if first is not None else waiter.inbox.get()
                    first = None
                    if item is None:
                        return self._plain(502, {"jsonrpc": "2.0", "id": message["id"], "error": {
                            "code": -32603, "message": "the server process exited"}})
                    if item[0] == "final":
                        return self._plain(self._status(item[1], child), item[1], headers)
        finally:
            child.forget(bridge_id)

    @staticmethod
    def _status(response: dict, child: Child) -> int:
        code = (response.get("error") or {}).get("code") if isinstance(response.get("error"), dict) else None
        if not child.modern:
            return 200
        return 404 if code == -32601 else 400 if code in MODERN_ERRORS_400 else 200

    def _start_sse(self, headers: dict) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Accel-Buffering", "no")
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Connection", "close")     # the stream ends when the body ends
        self.end_headers()
        self.close_connection = True

    def _pump(self, inbox: queue.Queue, first) -> bool:
        """Write SSE events (`first`, then the inbox) until the final response (True) or the client goes away (False)."""
        while True:
            if first is not None:
                item, first = first, None
            else:
                try:
                    item = inbox.get(timeout=1.0)
                except queue.Empty:
                    item = ("comment", None)
            try:
                if item is None:
                    return True
                if item[0] == "comment":              # finds out that the client has gone
                    self.wfile.write(b": keep-alive\n\n")
                else:
                    self.wfile.write(b"event: message\ndata: " + json.dumps(item[1]).encode("utf-8") + b"\n\n")
                self.wfile.flush()
            except OSError:
                return False
            if item[0] == "final":
                return True


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=0, help="loopback port (0: any free one)")
    parser.add_argument("--url-file", help="write the endpoint URL here once listening")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- the stdio server command")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the server command after --")
    Handler.bridge = bridge = Bridge(command)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    url = "http://127.0.0.1:%d/mcp" % server.server_address[1]

    def stop(signum, frame):
        threading.Thread(target=server.shutdown, daemon=True).start()
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    if args.url_file:
        with open(args.url_file + ".tmp", "w") as handle:
            handle.write(url + "\n")
        os.replace(args.url_file + ".tmp", args.url_file)     # readers never see half a URL
    log("listening on %s, serving %s" % (url, " ".join(command)))
    try:
        server.serve_forever()
    finally:
        bridge.stop()
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
