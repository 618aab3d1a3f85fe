"""The wire harness: drive a server in-process through real OS pipes, bytes in, JSON lines out.

Shared by tests/conftest.py and tests/core/conftest.py (the core's tests, which run
minimcp.py alone): nothing here imports minimcp; a test's ``from minimcp import ...``
finds whichever minimcp its conftest put first.
"""

import importlib.util
import itertools
import json
import os
import queue
import subprocess
import sys
import threading
import time

import pytest

from wirecheck import check_line  # noqa: F401 - re-exported for the tests

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EVERYTHING = os.path.join(ROOT, "examples", "everything.py")
HANDSHAKE_VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
MODERN = "2026-07-28"
_module_ids = itertools.count()
__all__ = ["ROOT", "EVERYTHING", "HANDSHAKE_VERSIONS", "MODERN", "CLI", "SERVE", "check_line", "load_example",
           "envelope", "Wire", "transcript", "spawn", "everything", "wire", "legacy"]


def load_example(name="everything"):
    """Import an example as a fresh module (so each test gets its own server object)."""
    path = os.path.join(ROOT, "examples", name + ".py")
    spec = importlib.util.spec_from_file_location("example_%s_%d" % (name, next(_module_ids)), path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def envelope(capabilities=None, version=MODERN, **extra):
    """The 2026-07-28 per-request _meta."""
    meta = {"io.modelcontextprotocol/protocolVersion": version,
            "io.modelcontextprotocol/clientCapabilities": capabilities or {}}
    meta.update(extra)
    return meta


class Wire:
    """One client connection to ``app.serve`` over two OS pipes.

    Every line the server writes is checked: it must end in a single ``\\n`` (no
    ``\\r``), be UTF-8, and parse as one JSON-RPC 2.0 message (or a batch).
    """

    def __init__(self, app):
        self.app = app
        in_r, in_w = os.pipe()
        out_r, out_w = os.pipe()
        self.to_server = os.fdopen(in_w, "wb", buffering=0)
        self._server_in = os.fdopen(in_r, "rb")
        self._server_out = os.fdopen(out_w, "wb")
        self._from_server = os.fdopen(out_r, "rb")
        self.raw_lines = []            # every byte line the server wrote, in order
        self.inbox = queue.Queue()
        self.notifications = []
        self.stash = {}
        self._ids = itertools.count(1)
        self.server_error = None
        self.server_thread = threading.Thread(target=self._serve, daemon=True)
        self.reader_thread = threading.Thread(target=self._read, daemon=True)
        self.server_thread.start()
        self.reader_thread.start()

    def _serve(self):
        try:
            self.app.serve(self._server_in, self._server_out)
        except BaseException as exc:    # surfaced by close()
            self.server_error = exc
        finally:
            self._server_out.close()

    def _read(self):
        for line in self._from_server:
            self.raw_lines.append(line)
            self.inbox.put(line)
        self.inbox.put(None)

    # -- sending ------------------------------------------------------------
    def send_raw(self, data: bytes):
        self.to_server.write(data)

    def send(self, message):
        self.send_raw(json.dumps(message).encode("utf-8") + b"\n")

    def request(self, method, params=None, id=None):
        request_id = next(self._ids) if id is None else id
        message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return request_id

    def notify(self, method, params=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    # -- receiving ----------------------------------------------------------
    def recv(self, timeout=5.0):
        """The next message the server writes (parsed), checking the line format."""
        try:
            line = self.inbox.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("no message from the server within %.1fs" % timeout)
        if line is None:
            raise AssertionError("the server closed its output")
        return check_line(line)

    def response(self, request_id, timeout=5.0):
        """Wait for the response to ``request_id``; notifications seen meanwhile are kept."""
        if request_id in self.stash:
            return self.stash.pop(request_id)
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if isinstance(message, dict) and "method" in message and "id" not in message:
                self.notifications.append(message)
            elif isinstance(message, dict) and "method" in message:
                self.stash[("server", message["id"])] = message
            elif isinstance(message, dict) and message.get("id") == request_id:
                return message
            else:
                key = message.get("id") if isinstance(message, dict) else json.dumps(message)
                self.stash[key] = message

    def server_request(self, timeout=5.0):
        """Wait for a request the server sends to us."""
        for key in list(self.stash):
            if isinstance(key, tuple) and key[0] == "server":
                return self.stash.pop(key)
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if isinstance(message, dict) and "method" in message and "id" in message:
                return message
            if isinstance(message, dict) and "method" in message:
                self.notifications.append(message)
            else:
                self.stash[message.get("id")] = message

    def call(self, method, params=None, timeout=5.0):
        return self.response(self.request(method, params), timeout)

    def result(self, method, params=None, timeout=5.0):
        message = self.call(method, params, timeout)
        assert "result" in message, message
        return message["result"]

    def error(self, method, params=None, timeout=5.0):
        message = self.call(method, params, timeout)
        assert "error" in message, message
        return message["error"]

    def initialize(self, version="2025-11-25", capabilities=None):
        result = self.result("initialize", {"protocolVersion": version, "capabilities": capabilities or {},
                                            "clientInfo": {"name": "pytest", "version": "1"}})
        self.notify("notifications/initialized")
        self.result("ping")        # a round trip: the notification has been processed
        return result

    def silent(self, timeout=0.3):
        """Assert the server writes nothing for ``timeout`` seconds."""
        try:
            line = self.inbox.get(timeout=timeout)
        except queue.Empty:
            return
        raise AssertionError("unexpected message: %r" % line)

    def close(self, timeout=10.0):
        """Close the server's stdin; wait for serve() to return; return what it wrote after."""
        self.to_server.close()
        self.server_thread.join(timeout)
        assert not self.server_thread.is_alive(), "serve() did not return after stdin closed"
        self.reader_thread.join(timeout)
        rest = []
        while True:
            line = self.inbox.get_nowait() if not self.inbox.empty() else None
            if line is None:
                break
            rest.append(check_line(line))
        if self.server_error is not None:
            raise self.server_error
        return rest


def transcript(app, lines, timeout=10.0):
    """Feed raw lines (bytes or JSON-able objects) then EOF; return every message written."""
    wire = Wire(app)
    for line in lines:
        wire.send_raw(line if isinstance(line, bytes) else json.dumps(line).encode("utf-8") + b"\n")
    wire.to_server.close()
    wire.server_thread.join(timeout)
    assert not wire.server_thread.is_alive()
    wire.reader_thread.join(timeout)
    return [check_line(line) for line in wire.raw_lines]


@pytest.fixture
def everything():
    """A fresh ``examples/everything.py`` server object."""
    return load_example("everything").app


@pytest.fixture
def wire(everything):
    """A connection to a fresh everything server (closed at the end of the test)."""
    connection = Wire(everything)
    yield connection
    if not connection.to_server.closed:
        connection.close()


@pytest.fixture
def legacy(wire):
    """A connection initialized at 2025-11-25 with sampling, roots and elicitation declared."""
    wire.initialize("2025-11-25", {"sampling": {}, "roots": {"listChanged": True},
                                   "elicitation": {"form": {}, "url": {}}})
    return wire


def spawn(script=EVERYTHING, env=None, args=()):
    """Start a real server process with pipes on stdin/stdout/stderr."""
    environment = dict(os.environ)
    environment.update(env or {})
    return subprocess.Popen([sys.executable, script] + list(args), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment)


# -- the command line's processes ---------------------------------------------------------
#
# ``python3 minimcp.py ...`` compiles minimcp.py's ~11,000 lines at every start (a script's
# bytecode is never cached): about 0.15 s of CPU before it does anything, a few dozen
# times a run. ``CLI`` starts the same program the way ``python3 -m minimcp`` does (its
# ``__main__`` block, which makes the module its own ``minimcp``) from cached bytecode,
# with minimcp.py's folder first on sys.path and argv[0] its path, as the script form
# has them, whatever the cwd. A test whose point is not the script form uses it; the
# script form keeps tests of its own (test_readme's commands as written, test_cli's
# version, exit status and program name, "serve" in test_cli and test_readme).

#: ``python3 minimcp.py``, from cached bytecode: the command line, its words to follow.
CLI = [sys.executable, "-c", "import runpy, sys; sys.path[0] = %r; "
       "runpy.run_module('minimcp', run_name='__main__', alter_sys=True)" % ROOT]
#: ``python3 minimcp.py serve``, from cached bytecode.
SERVE = CLI + ["serve"]
