"""Real server processes over real pipes: stdout hygiene, exit on EOF and signals,
encoding independence from the locale, and a client that stops reading.

Every wait has a timeout; a hung server is killed and reported, never waited on forever.
"""

import json
import os
import signal
import threading
import time

import pytest

from conftest import ROOT, check_line, spawn

pytestmark = [pytest.mark.skipif(os.name != "posix", reason="POSIX pipes and signals"),
              pytest.mark.xdist_group("processes")]     # with test_operation's storms and orphans

INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "pytest", "version": "1"}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def encode(message):
    return json.dumps(message, ensure_ascii=False).encode("utf-8") + b"\n"


class Server:
    """A spawned server with a background stdout reader (so nothing blocks forever)."""

    def __init__(self, script=None, env=None, read=True):
        self.proc = spawn(env=env) if script is None else spawn(script=script, env=env)
        self.lines = []
        self.cond = threading.Condition()
        self.eof = False
        self.reader = threading.Thread(target=self._read, daemon=True)
        if read:
            self.reader.start()

    def _read(self):
        for raw in iter(self.proc.stdout.readline, b""):
            with self.cond:
                self.lines.append(raw)
                self.cond.notify_all()
        with self.cond:
            self.eof = True
            self.cond.notify_all()

    def send(self, message):
        self.proc.stdin.write(message if isinstance(message, bytes) else encode(message))
        self.proc.stdin.flush()

    def wait_for(self, request_id, timeout=10.0):
        """The response (parsed) carrying ``request_id``."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for raw in self.lines:
                    message = check_line(raw)
                    if isinstance(message, dict) and message.get("id") == request_id and "method" not in message:
                        return message
                remaining = deadline - time.monotonic()
                if self.eof or remaining <= 0:
                    self.kill()
                    raise AssertionError("no response to %r (stdout: %r, eof=%s)"
                                         % (request_id, self.lines, self.eof))
                self.cond.wait(remaining)

    def wait_progress(self, token, timeout=10.0):
        """Wait for a progress notification for ``token``: that call is running."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for raw in self.lines:
                    message = check_line(raw)
                    if isinstance(message, dict) and message.get("method") == "notifications/progress" \
                            and message.get("params", {}).get("progressToken") == token:
                        return message
                remaining = deadline - time.monotonic()
                if self.eof or remaining <= 0:
                    self.kill()
                    raise AssertionError("no progress for %r (stdout: %r, eof=%s)" % (token, self.lines, self.eof))
                self.cond.wait(remaining)

    def handshake(self):
        self.send(INIT)
        result = self.wait_for(0)["result"]
        self.send(INITIALIZED)
        return result

    def exit_after(self, action, timeout):
        """Do ``action``, then return (seconds until the process exited, its status)."""
        start = time.monotonic()
        action()
        if self.reader.is_alive() or self.eof:
            # Its exit closes its stdout, which the reader sees at once; Popen.wait(timeout) alone
            # polls, up to 50 ms apart, and would add most of that to every exit it measures.
            with self.cond:
                self.cond.wait_for(lambda: self.eof, timeout)
        try:
            status = self.proc.wait(max(0.0, start + timeout - time.monotonic()))
        except Exception:
            self.kill()
            raise AssertionError("the server did not exit within %.1fs" % timeout)
        return time.monotonic() - start, status

    def close_stdin(self):
        self.proc.stdin.close()

    def stderr(self):
        if self.reader.is_alive():
            self.reader.join(5)
        return self.proc.stderr.read().decode("utf-8", "replace")

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)

    def finish(self):
        """After exit: every stdout line must be a JSON-RPC message; return them parsed."""
        self.reader.join(5)
        assert self.eof
        return [check_line(raw) for raw in self.lines]


@pytest.fixture
def servers():
    started = []

    def make(script=None, env=None, read=True):
        server = Server(script, env, read)
        started.append(server)
        return server

    yield make
    for server in started:
        server.kill()
        for stream in (server.proc.stdin, server.proc.stdout, server.proc.stderr):
            try:
                stream.close()
            except (OSError, ValueError):
                pass


def assert_quiet(stderr):
    assert "Traceback" not in stderr, stderr
    assert "Exception ignored" not in stderr, stderr
    assert "BrokenPipeError" not in stderr, stderr


# -- stdout holds only protocol lines -------------------------------------------------

def test_print_stdout_never_reaches_the_protocol_stream(servers):
    server = servers()
    server.handshake()
    server.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                 "params": {"name": "print_stdout", "arguments": {"text": "STRAY-TEXT"}}})
    assert server.wait_for(1)["result"]["content"] == [{"type": "text", "text": "printed"}]
    server.send({"jsonrpc": "2.0", "id": 2, "method": "ping"})
    assert server.wait_for(2)["result"] == {}
    elapsed, status = server.exit_after(server.close_stdin, 10)
    assert status == 0
    messages = server.finish()
    assert [m.get("id") for m in messages] == [0, 1, 2]
    assert not any(b"STRAY-TEXT" in raw for raw in server.lines)
    # print(), os.write(1, ...) and a child process: all three arrive on stderr.
    assert server.stderr().count("STRAY-TEXT") == 3


SCRIPT = """
import logging, os, sys
sys.path.insert(0, %(root)r)
from minimcp import MCPServer

handler = logging.StreamHandler(sys.stdout)          # bound to stdout before serving starts
log = logging.getLogger("user-code")
log.addHandler(handler)
log.setLevel(logging.INFO)
app = MCPServer("stdout-owner")


@app.tool()
def noisy() -> str:
    '''Write to stdout through a logging handler and print().'''
    log.info("LOGGED-TO-STDOUT")
    print("PRINTED-TO-STDOUT")
    return "ok"


if __name__ == "__main__":
    app.run()
    print("AFTER-RUN")
    sys.stdout.flush()
    os.write(1, b"AFTER-FD1\\n")
"""


def test_logging_handler_on_stdout_is_diverted_and_stdout_restored_after_serving(servers, tmp_path):
    script = tmp_path / "owner.py"
    script.write_text(SCRIPT % {"root": ROOT})
    server = servers(str(script))
    server.handshake()
    server.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "noisy", "arguments": {}}})
    assert server.wait_for(1)["result"]["content"] == [{"type": "text", "text": "ok"}]
    elapsed, status = server.exit_after(server.close_stdin, 10)
    assert status == 0
    server.reader.join(5)
    assert server.lines[-2:] == [b"AFTER-RUN\n", b"AFTER-FD1\n"], server.lines
    protocol = [check_line(raw) for raw in server.lines[:-2]]
    assert [m.get("id") for m in protocol] == [0, 1]
    stderr = server.stderr()
    assert "LOGGED-TO-STDOUT" in stderr and "PRINTED-TO-STDOUT" in stderr, stderr


# -- exit ---------------------------------------------------------------------------------

def test_exits_with_status_0_soon_after_stdin_closes_idle(servers):
    server = servers()
    server.handshake()
    server.send({"jsonrpc": "2.0", "id": 1, "method": "ping"})
    server.wait_for(1)
    elapsed, status = server.exit_after(server.close_stdin, 10)
    assert status == 0
    assert elapsed < 1.0, "exited %.2fs after stdin closed (idle)" % elapsed
    server.finish()
    assert_quiet(server.stderr())


def test_exits_within_the_grace_period_while_a_slow_call_runs(servers):
    server = servers()
    server.handshake()
    server.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                 "params": {"name": "slow", "arguments": {"seconds": 60, "steps": 600},
                            "_meta": {"progressToken": "busy"}}})
    server.wait_progress("busy")                # EOF must find the call running
    assert server.proc.poll() is None
    elapsed, status = server.exit_after(server.close_stdin, 15)
    assert status == 0
    assert elapsed < 1.0 + 1.5, "exited %.2fs after stdin closed while busy (grace 1 s)" % elapsed
    server.finish()
    assert_quiet(server.stderr())


@pytest.mark.parametrize("busy", [False, True], ids=["idle", "busy"])
def test_sigterm_ends_the_server_promptly(servers, busy):
    server = servers()
    server.handshake()
    if busy:
        server.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                     "params": {"name": "slow", "arguments": {"seconds": 60, "steps": 600},
                                "_meta": {"progressToken": "busy"}}})
        server.wait_progress("busy")            # SIGTERM must find the call running
    else:
        server.send({"jsonrpc": "2.0", "id": 1, "method": "ping"})
        server.wait_for(1)
    elapsed, status = server.exit_after(lambda: server.proc.send_signal(signal.SIGTERM), 15)
    assert elapsed < 1.0 + 1.5, "exited %.2fs after SIGTERM" % elapsed
    assert status == 0, "SIGTERM should end the server cleanly, got status %r" % status
    server.finish()
    assert_quiet(server.stderr())


STUBBORN = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "stubborn_server.py")


@pytest.mark.parametrize("how", ["sigterm", "eof"])
def test_a_tool_blocking_the_thread_that_read_it_does_not_delay_the_end(servers, how):
    # The call runs on the thread that read it, and sends nothing while it blocks, so only
    # the watcher can notice the signal or the end of input and pass reading on.
    server = servers(script=STUBBORN)
    server.handshake()
    server.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "block", "arguments": {"seconds": 60}}})
    assert server.proc.stderr.readline().strip() == b"block: started"
    action = (lambda: server.proc.send_signal(signal.SIGTERM)) if how == "sigterm" else server.close_stdin
    elapsed, status = server.exit_after(action, 15)
    assert status == 0, status
    assert elapsed < 0.2 + 1.5, "exited %.2fs after %s while a tool blocked (grace 0.2 s)" % (elapsed, how)
    assert_quiet(server.stderr())


def test_sigint_ends_the_server_quietly(servers):
    server = servers()
    server.handshake()
    elapsed, status = server.exit_after(lambda: server.proc.send_signal(signal.SIGINT), 15)
    assert elapsed < 2.5, elapsed
    assert status == 0, status
    server.finish()
    assert_quiet(server.stderr())


def test_requests_piped_before_eof_are_all_answered(servers):
    """``printf 'init\\ncall\\n' | server``: every request gets its response before the exit."""
    server = servers()
    text = "\u00e9" * 2000000
    server.send(encode(INIT) + encode(INITIALIZED) +
                encode({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                        "params": {"name": "echo", "arguments": {"text": text}}}) +
                encode({"jsonrpc": "2.0", "id": 2, "method": "ping"}))
    elapsed, status = server.exit_after(server.close_stdin, 15)
    assert status == 0
    messages = server.finish()
    assert sorted(m["id"] for m in messages) == [0, 1, 2], [str(m)[:100] for m in messages]
    assert [m for m in messages if m["id"] == 1][0]["result"]["content"] == [{"type": "text", "text": text}]


# -- encoding ------------------------------------------------------------------------------

def test_non_ascii_round_trips_under_an_ascii_locale(servers):
    server = servers(env={"LANG": "C", "LC_ALL": "C", "PYTHONIOENCODING": "ascii"})
    server.handshake()
    text = "h\u00e9llo \u4e2d\u6587 \u0416 \U0001F600 \u2028"
    server.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                 "params": {"name": "echo", "arguments": {"text": text}}})
    assert server.wait_for(1)["result"]["content"] == [{"type": "text", "text": text}]
    raw = [r for r in server.lines if b'"id":1' in r][0]
    assert "h\u00e9llo \u4e2d\u6587".encode("utf-8") in raw, raw
    elapsed, status = server.exit_after(server.close_stdin, 10)
    assert status == 0
    assert_quiet(server.stderr())


# -- a client that stops reading ------------------------------------------------------------

def test_closed_stdout_ends_the_server_quietly_on_its_next_write(servers):
    server = servers(read=False)
    server.send(INIT)
    assert check_line(server.proc.stdout.readline())["id"] == 0
    server.send(INITIALIZED)
    server.proc.stdout.close()                 # the client stops reading

    def write_something():
        server.send({"jsonrpc": "2.0", "id": 1, "method": "ping"})
        try:
            server.send({"jsonrpc": "2.0", "id": 2, "method": "ping"})
        except (BrokenPipeError, OSError):
            pass                               # it may already be gone

    elapsed, status = server.exit_after(write_something, 10)
    assert status == 0, status
    assert elapsed < 2.5, "exited %.2fs after its write failed" % elapsed
    assert_quiet(server.stderr())


def test_closed_stdout_then_eof_ends_the_server_quietly(servers):
    server = servers(read=False)
    server.send(INIT)
    assert check_line(server.proc.stdout.readline())["id"] == 0
    server.proc.stdout.close()                 # the client stops reading, writes nothing more
    elapsed, status = server.exit_after(server.close_stdin, 10)
    assert status == 0, status
    assert elapsed < 2.5, elapsed
    assert_quiet(server.stderr())
