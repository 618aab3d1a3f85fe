"""The stdio path taken where select() on pipes is missing (Windows), run on Linux by
MINIMCP_NO_SELECT=1 (issue 30, point 10): stdin is a plain stream read by a pool thread,
with no wakeup pipe and no parent watchdog.

These tests set the variable for their own servers, so every run of the suite takes that
path once; .ci/run also runs the stdio wire tests of test_process.py, test_faults.py and
test_operation.py with it set.
"""

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from conftest import EVERYTHING, check_line

pytestmark = pytest.mark.skipif(os.name != "posix", reason="forces the Windows path on POSIX")

# everything.py, with minimcp's debug log on stderr: the line that says which path stdin takes.
SCRIPT = ("import logging, runpy; logging.basicConfig(level=logging.DEBUG); "
          "runpy.run_path(%r, run_name='__main__')" % EVERYTHING)
PLAIN_LINE = "stdin is read without select() (MINIMCP_NO_SELECT=1), as on Windows"
INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}


class Plain:
    """One server process on the plain path, its stdout read by a thread into ``messages``."""

    def __init__(self, plain=True):
        env = dict(os.environ, MINIMCP_NO_SELECT="1" if plain else "0")
        self.proc = subprocess.Popen([sys.executable, "-c", SCRIPT], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env)
        self.messages, self.cond, self.eof = [], threading.Condition(), False
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in iter(self.proc.stdout.readline, b""):
            with self.cond:
                self.messages.append(check_line(raw))
                self.cond.notify_all()
        with self.cond:
            self.eof = True
            self.cond.notify_all()

    def send(self, *messages):
        self.proc.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in messages))
        self.proc.stdin.flush()

    def wait(self, test, timeout=15):
        """The first message for which ``test`` holds."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                found = [m for m in self.messages if isinstance(m, dict) and test(m)]
                if found:
                    return found[0]
                left = deadline - time.monotonic()
                assert left > 0 and not self.eof, self.messages
                self.cond.wait(left)

    def answer(self, request_id):
        return self.wait(lambda m: m.get("id") == request_id and "method" not in m)

    def ended(self, timeout=5):
        status = self.proc.wait(timeout)
        stderr = self.proc.stderr.read().decode("utf-8", "replace")
        return status, stderr

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except (OSError, ValueError):
                pass


@pytest.fixture
def plain():
    started = []

    def make(**options):
        server = Plain(**options)
        started.append(server)
        return server
    yield make
    for server in started:
        server.kill()


def call(request_id, name, arguments, token=None):
    params = {"name": name, "arguments": arguments}
    if token is not None:
        params["_meta"] = {"progressToken": token}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def test_pipelined_calls_cancellation_and_eof_on_the_plain_path(plain):
    server = plain()
    slow = call("slow", "slow", {"seconds": 30, "steps": 300}, token="t")
    server.send(INIT, {"jsonrpc": "2.0", "method": "notifications/initialized"}, slow,
                *[call(n, "echo", {"text": "n%d" % n}) for n in range(1, 101)])
    for n in range(1, 101):                              # all answered while the slow call runs
        assert server.answer(n)["result"]["content"][0]["text"] == "n%d" % n
    server.wait(lambda m: m.get("method") == "notifications/progress")            # it is running
    server.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "slow"}},
                {"jsonrpc": "2.0", "id": "after", "method": "ping"})
    assert server.answer("after")["result"] == {}
    started = time.monotonic()
    server.proc.stdin.close()                            # EOF
    status, stderr = server.ended()
    assert status == 0 and time.monotonic() - started < 3
    assert PLAIN_LINE in stderr and "Traceback" not in stderr, stderr
    answered = [m.get("id") for m in server.messages if "method" not in m]
    assert sorted(answered, key=str) == sorted([0, "after"] + list(range(1, 101)), key=str)   # once each, not "slow"


@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT"])
@pytest.mark.xdist_group("processes")     # signals: with tests/core/test_process.py
def test_sigterm_and_ctrl_c_end_it_promptly_while_a_call_runs(plain, how):
    server = plain()
    server.send(INIT, {"jsonrpc": "2.0", "method": "notifications/initialized"},
                call(1, "slow", {"seconds": 30, "steps": 300}, token="t"))
    server.wait(lambda m: m.get("method") == "notifications/progress")
    started = time.monotonic()
    server.proc.send_signal(getattr(signal, how))
    status, stderr = server.ended()
    assert status == 0 and time.monotonic() - started < 3, (status, stderr)
    assert PLAIN_LINE in stderr and "Traceback" not in stderr, stderr


def test_the_variable_is_what_chooses_the_path(plain):
    server = plain(plain=False)
    server.send(INIT)
    server.answer(0)
    server.proc.stdin.close()
    status, stderr = server.ended()
    assert status == 0 and PLAIN_LINE not in stderr
