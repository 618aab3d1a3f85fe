"""A seeded random fuzzer over minimcp's line protocol, and the process harness the
fault battery shares (``tests/core/test_faults.py``, ``tests/longrun.py``).

    python3 tests/fuzz.py --iterations 2000 --seed 7

Each batch starts a fresh ``examples/everything.py`` process, feeds it a stream of
lines made by mutating valid transcripts (byte flips, truncation, splicing,
duplicated and reordered lines, random JSON values in params, huge numbers, deep
nesting, odd unicode), answers any request the server sends back, and then checks
the invariants: the process is alive and answers ``ping`` and ``tools/list``; every
byte on its stdout is a valid JSON-RPC line; every request got exactly one response
(at most one if it was cancelled, none for notifications); nothing hung; it exits
promptly with status 0 when stdin closes. Standard library only (pytest optional).
"""

import argparse
import json
import os
import queue
import random
import re
import subprocess
import sys
import threading
import time


HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
EVERYTHING = os.path.join(ROOT, "examples", "everything.py")
MODERN = "2026-07-28"
POSIX = os.name == "posix"
LINUX = sys.platform.startswith("linux")

sys.path.insert(0, HERE)
from wirecheck import check_line  # noqa: E402 - one definition of a valid line, no pytest needed


def envelope(capabilities=None, version=MODERN, **extra):
    """The 2026-07-28 per-request ``_meta``."""
    meta = {"io.modelcontextprotocol/protocolVersion": version,
            "io.modelcontextprotocol/clientCapabilities": capabilities if capabilities is not None else {}}
    meta.update(extra)
    return meta


def encode(message):
    """One client line (bytes pass through unchanged)."""
    if isinstance(message, bytes):
        return message
    try:
        return json.dumps(message, ensure_ascii=False).encode("utf-8") + b"\n"
    except UnicodeEncodeError:           # lone surrogates travel as \ud800 escapes
        return json.dumps(message).encode("ascii") + b"\n"


def key(request_id):
    """Table key for an id: 1 and "1" differ, True is not 1."""
    return (type(request_id).__name__, request_id if not isinstance(request_id, (dict, list))
            else json.dumps(request_id, sort_keys=True))


def valid_id(value):
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


class Failure(AssertionError):
    pass


# -- one server process ---------------------------------------------------------------

class Server:
    """A real server process over pipes, with every read and write off the main thread.

    * stdout is read by a thread into ``lines`` (raw) and ``responses`` (by id);
      ``pause_reading()`` / ``resume_reading()`` imitate a client that stops reading.
    * stderr is drained by a thread (a full stderr pipe must never stall the server).
    * writes go through a writer thread, so the test never blocks on a full stdin.
    * ``answer_requests``: a function(message) -> reply for requests the server sends.
    * ``ledger``: what each request id must get (see ``expect``), checked by ``verify``.
    """

    def __init__(self, script=EVERYTHING, args=(), env=None, python=None, answer_requests=None,
                 read=True):
        environment = dict(os.environ)
        environment.update(env or {})
        kwargs = {}
        if POSIX:
            kwargs["start_new_session"] = True          # its own group: children can be found
        self.started = time.monotonic()
        self.proc = subprocess.Popen([python or sys.executable, script] + list(args), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment,
                                     **kwargs)
        self.pid = self.proc.pid
        self.lines = []                  # every raw stdout line, in order
        self.responses = {}              # key(id) -> [message, ...]
        self.server_requests = []
        self.notifications = []
        self.bad_lines = []              # (raw, problem) for lines that failed check_line
        self.cond = threading.Condition()
        self.eof = False
        self.ledger = {}                 # key(id) -> [id, minimum, maximum, codes]
        self.null_allowed = 0            # responses with id null we expect (parse errors ...)
        self.answer_requests = answer_requests
        self.write_error = None
        self._ids = iter(range(1, 1 << 62))
        self._live = 0
        self._reading = threading.Event()
        if read:
            self._reading.set()
        self._outbox = queue.Queue()
        self._stderr = []
        self._threads = [threading.Thread(target=self._read_stdout, daemon=True),
                         threading.Thread(target=self._read_stderr, daemon=True),
                         threading.Thread(target=self._write_stdin, daemon=True)]
        for thread in self._threads:
            thread.start()

    # -- threads ---------------------------------------------------------------
    def _read_stdout(self):
        self._reading.wait()
        stream = self.proc.stdout
        while True:
            self._reading.wait()
            try:
                raw = stream.readline()
            except (OSError, ValueError):
                raw = b""
            if not raw:
                break
            try:
                message = check_line(raw)
            except Exception as exc:                   # recorded; verify() fails on it
                message = None
                problem = "%s: %s" % (type(exc).__name__, exc)
            reply = None
            with self.cond:
                self.lines.append(raw)
                if message is None:
                    self.bad_lines.append((raw[:300], problem))
                else:
                    for item in message if isinstance(message, list) else [message]:
                        if "method" in item and "id" in item:
                            self.server_requests.append(item)
                            if self.answer_requests is not None:
                                reply = self.answer_requests(item)
                        elif "method" in item:
                            self.notifications.append(item)
                        else:
                            self.responses.setdefault(key(item.get("id")), []).append(item)
                self.cond.notify_all()
            if reply is not None:
                self.send(reply)
        with self.cond:
            self.eof = True
            self.cond.notify_all()

    def _read_stderr(self):
        while True:
            try:
                chunk = self.proc.stderr.read1(65536) if hasattr(self.proc.stderr, "read1") \
                    else os.read(self.proc.stderr.fileno(), 65536)
            except (OSError, ValueError):
                break
            if not chunk:
                break
            with self.cond:                             # wait_stderr() waits on this
                self._stderr.append(chunk)
                self.cond.notify_all()

    def _write_stdin(self):
        while True:
            data = self._outbox.get()
            try:
                if data is None:
                    self.proc.stdin.close()
                    return
                self.proc.stdin.write(data)
                if self._outbox.qsize() == 0:
                    self.proc.stdin.flush()
            except (OSError, ValueError) as exc:       # the server is gone or stopped reading for good
                self.write_error = exc
            finally:
                self._outbox.task_done()

    # -- sending ---------------------------------------------------------------
    def send(self, message):
        """Queue one message (a dict/list is JSON-encoded with a newline; bytes go as they are)."""
        self._outbox.put(encode(message))

    def drain(self, timeout=30.0):
        """Wait until everything queued has been written to the pipe."""
        deadline = time.monotonic() + timeout
        done = self._outbox.all_tasks_done            # notified by task_done() when the count hits 0
        with done:
            while self._outbox.unfinished_tasks:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise Failure("the server stopped reading its stdin (%d writes pending after %.0fs)"
                                  % (self._outbox.unfinished_tasks, timeout))
                done.wait(left)

    def expect(self, request_id, minimum=1, maximum=None, codes=None):
        """Record that ``request_id`` must get between minimum and maximum responses.

        ``codes``: the error codes allowed (None: a result or any error; a list that
        contains None allows a result as well).
        """
        if maximum is None:
            maximum = max(minimum, 1)
        entry = self.ledger.get(key(request_id))
        if entry is None:
            self.ledger[key(request_id)] = [request_id, minimum, maximum, codes]
        else:
            entry[1] += minimum
            entry[2] += maximum
            entry[3] = None if entry[3] is None or codes is None else sorted(set(entry[3]) | set(codes), key=str)

    def cancelled(self, request_id):
        """The request was cancelled: it may have been answered before the cancel, never twice."""
        entry = self.ledger.get(key(request_id))
        if entry is not None:
            entry[1] = 0

    def request(self, method, params=None, request_id=None, codes=None, expect=True):
        """Send a request and record that it must be answered exactly once; returns its id."""
        if request_id is None:
            request_id = next(self._ids)
        message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        if expect:
            self.expect(request_id, codes=codes)
        return request_id

    def notify(self, method, params=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def cancel(self, request_id, reason="test"):
        self.notify("notifications/cancelled", {"requestId": request_id, "reason": reason})
        self.cancelled(request_id)

    def next_id(self):
        return next(self._ids)

    # -- receiving ----------------------------------------------------------------
    def wait(self, request_id, timeout=10.0):
        """The first response to ``request_id`` (parsed); fails after ``timeout``."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                got = self.responses.get(key(request_id))
                if got:
                    return got[0]
                left = deadline - time.monotonic()
                if left <= 0 or self.eof:
                    raise Failure("no response to %r within %.1fs (%s); last lines: %r%s"
                                  % (request_id, timeout, "the server closed stdout" if self.eof
                                     else "alive" if self.alive() else "dead",
                                     [l[:200] for l in self.lines[-3:]],
                                     "; stderr tail: " + self.stderr()[-600:] if self.eof else ""))
                self.cond.wait(min(left, 0.5))

    def call(self, method, params=None, timeout=10.0, codes=None):
        return self.wait(self.request(method, params, codes=codes), timeout)

    def result(self, method, params=None, timeout=10.0):
        response = self.call(method, params, timeout)
        if "result" not in response:
            raise Failure("%s failed: %r" % (method, response))
        return response["result"]

    def error(self, method, params=None, timeout=10.0):
        response = self.call(method, params, timeout)
        if "error" not in response:
            raise Failure("%s did not fail: %r" % (method, response))
        return response["error"]

    def wait_all(self, timeout=20.0, skip=()):
        """Wait until every request in the ledger (but ``skip``) has its minimum number of responses."""
        deadline = time.monotonic() + timeout
        skipped = set(key(i) for i in skip)
        with self.cond:
            while True:
                missing = [entry[0] for k, entry in self.ledger.items()
                           if k not in skipped and len(self.responses.get(k, ())) < entry[1]]
                if not missing:
                    return
                left = deadline - time.monotonic()
                if left <= 0 or self.eof:
                    raise Failure("%d request(s) never answered within %.1fs (eof=%s): %r"
                                  % (len(missing), timeout, self.eof, missing[:20]))
                self.cond.wait(min(left, 0.5))

    def wait_for(self, predicate, timeout=10.0, what="the condition"):
        """Wait until ``predicate()`` (called under ``cond``) is true; returns its value.

        Every change the reader threads make (a line, a response, a notification, a
        server request, stderr output, EOF) notifies ``cond``, so this waits on the
        event itself, never on a guess of how long it takes.
        """
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                value = predicate()
                if value:
                    return value
                left = deadline - time.monotonic()
                if left <= 0 or self.eof:
                    raise Failure("%s did not happen within %.1fs (%s); last lines: %r"
                                  % (what, timeout, "the server closed stdout" if self.eof else
                                     "alive" if self.alive() else "dead", [l[:200] for l in self.lines[-3:]]))
                self.cond.wait(left)

    def progress_tokens(self):
        """The progress tokens seen so far (call under ``cond``, or accept a snapshot)."""
        return set(n.get("params", {}).get("progressToken") for n in list(self.notifications)
                   if n.get("method") == "notifications/progress")

    def wait_progress(self, tokens, timeout=10.0):
        """Wait for a progress notification for each of ``tokens``: those calls are running."""
        wanted = set(tokens)
        self.wait_for(lambda: wanted <= self.progress_tokens(), timeout,
                      "progress for %r" % sorted(wanted, key=str)[:5])

    def wait_stderr(self, text, count=1, timeout=10.0):
        """Wait until ``text`` has appeared ``count`` times on the server's stderr."""
        self.wait_for(lambda: self.stderr().count(text) >= count, timeout,
                      "%d x %r on stderr" % (count, text))

    def wait_lines(self, count, timeout=10.0):
        deadline = time.monotonic() + timeout
        with self.cond:
            while len(self.lines) < count:
                left = deadline - time.monotonic()
                if left <= 0 or self.eof:
                    raise Failure("expected %d lines, got %d" % (count, len(self.lines)))
                self.cond.wait(min(left, 0.5))

    def pause_reading(self):
        self._reading.clear()

    def resume_reading(self):
        self._reading.set()

    def stderr(self):
        return b"".join(self._stderr).decode("utf-8", "replace")

    # -- the process ----------------------------------------------------------------
    def alive(self):
        return self.proc.poll() is None

    def peak_rss_kib(self):
        """VmHWM (peak resident set) of the process in KiB; Linux only."""
        with open("/proc/%d/status" % self.pid) as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        raise Failure("no VmHWM in /proc/%d/status" % self.pid)

    def rss_kib(self):
        with open("/proc/%d/status" % self.pid) as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def threads(self):
        return len(os.listdir("/proc/%d/task" % self.pid))

    def group_members(self):
        """Processes still in the server's process group (its children), Linux only."""
        members = []
        for name in os.listdir("/proc"):
            if not name.isdigit() or int(name) == self.pid:
                continue
            try:
                with open("/proc/%s/stat" % name) as handle:
                    stat = handle.read()
            except OSError:
                continue
            fields = stat[stat.rfind(")") + 2:].split()
            if len(fields) > 2 and fields[2] == str(self.pid) and fields[0] != "Z":
                members.append(int(name))
        return members

    def close_stdin(self):
        self._outbox.put(None)

    def wait_exit(self, timeout=10.0):
        """Wait for the process to end; returns (seconds, status); kills it and fails on a hang."""
        start = time.monotonic()
        deadline = start + timeout
        if self._reading.is_set():
            # Its exit closes its stdout, which the reader sees at once; Popen.wait(timeout) alone
            # polls, up to 50 ms apart, and would add most of that to every exit it measures.
            with self.cond:
                self.cond.wait_for(lambda: self.eof, timeout)
        try:
            status = self.proc.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.kill()
            raise Failure("the server did not exit within %.1fs" % timeout)
        return time.monotonic() - start, status

    def kill(self):
        if self.proc.poll() is None:
            try:
                if POSIX:
                    os.killpg(self.pid, 9)
                else:
                    self.proc.kill()
            except OSError:
                pass
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                pass
        self._reading.set()
        for thread in self._threads[:2]:
            thread.join(2)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except (OSError, ValueError):
                pass

    # -- the invariants ---------------------------------------------------------------
    def liveness(self, era=None, timeout=10.0, tool="echo"):
        """The server answers ping and tools/list (in the era it is pinned to)."""
        if not self.alive():
            raise Failure("the server died (status %s); stderr tail: %s"
                          % (self.proc.returncode, self.stderr()[-2000:]))
        self._live += 1
        tag = "liveness-%d-" % self._live
        ping = self.wait(self.request("ping", request_id=tag + "ping"), timeout)
        if era == "modern":
            if "error" not in ping:          # ping is not part of 2026-07-28
                raise Failure("ping on a 2026-07-28 connection: %r" % ping)
        elif ping.get("result") != {} and (era == "legacy" or "error" not in ping):
            raise Failure("ping: %r" % (ping,))
        plain = self.wait(self.request("tools/list", request_id=tag + "plain"), timeout)
        modern = self.wait(self.request("tools/list", {"_meta": envelope()}, request_id=tag + "modern"), timeout)
        if tool is None:                     # a server without tools: answered is enough
            return
        chosen = {"legacy": plain, "modern": modern}.get(era)
        candidates = [chosen] if chosen is not None else [plain, modern]
        if not any(tool in [t.get("name") for t in (c.get("result") or {}).get("tools", [])]
                   for c in candidates):
            raise Failure("tools/list failed: %r / %r" % (plain, modern))

    def verify(self, exit_timeout=5.0, forbid_internal=False, exited=False):
        """Close stdin, wait for a clean exit, then check every line and the ledger.

        Returns (seconds to exit after EOF, the parsed messages).
        """
        problems = []
        elapsed = 0.0
        if not exited:
            self.close_stdin()
            try:
                elapsed, status = self.wait_exit(exit_timeout)
            except Failure as exc:
                raise Failure("%s; stderr tail: %s" % (exc, self.stderr()[-1500:]))
            if status != 0:
                problems.append("exit status %r after stdin closed" % status)
        for thread in self._threads[:2]:
            thread.join(10)
        with self.cond:
            if self.bad_lines:
                problems.append("invalid stdout line(s): %r" % self.bad_lines[:3])
            for k, got in self.responses.items():
                entry = self.ledger.get(k)
                if entry is None:
                    if k == key(None):
                        if len(got) > self.null_allowed:
                            problems.append("%d responses with id null, expected at most %d: %r"
                                            % (len(got), self.null_allowed, got[:3]))
                        continue
                    problems.append("response(s) for an id never sent: %r" % got[:2])
                    continue
                request_id, minimum, maximum, codes = entry
                if not minimum <= len(got) <= maximum:
                    problems.append("id %r got %d response(s), expected %s: %r"
                                    % (request_id, len(got), minimum if minimum == maximum
                                       else "%d..%d" % (minimum, maximum), [str(g)[:200] for g in got]))
                for response in got:
                    code = response["error"]["code"] if "error" in response else None
                    if codes is not None and code not in codes:
                        problems.append("id %r: code %r, expected one of %r: %s"
                                        % (request_id, code, codes, str(response)[:300]))
                    elif forbid_internal and code == -32603:
                        problems.append("id %r: internal error: %s" % (request_id, str(response)[:300]))
            for k, entry in self.ledger.items():
                if entry[1] > 0 and k not in self.responses:
                    problems.append("id %r was never answered" % (entry[0],))
        if problems:
            raise Failure("\n".join(problems[:20]) + ("\n... %d more" % (len(problems) - 20)
                                                      if len(problems) > 20 else ""))
        return elapsed, [check_line(raw) for raw in self.lines]

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.kill()
        return False


TUNED_SCRIPT = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("everything_tuned", %(everything)r)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
for name, value in json.loads(sys.argv[1]).items():
    setattr(module.app, name, value)
module.app.run()
"""


def write_tuned_script(folder):
    """A script that runs examples/everything.py with MCPServer settings from argv[1] (JSON)."""
    path = os.path.join(str(folder), "everything_tuned.py")
    with open(path, "w") as handle:
        handle.write(TUNED_SCRIPT % {"everything": EVERYTHING})
    return path


def handshake(server, version="2025-11-25", capabilities=None):
    """initialize + notifications/initialized, with a round trip so both are processed."""
    result = server.result("initialize", {"protocolVersion": version, "capabilities": capabilities or {},
                                          "clientInfo": {"name": "fuzz", "version": "1"}})
    server.notify("notifications/initialized")
    server.result("ping")
    return result


def canned_answer(message):
    """Answer a request the server sent (legacy sampling, roots, elicitation, ping)."""
    method = message.get("method")
    results = {"ping": {}, "roots/list": {"roots": [{"uri": "file:///tmp", "name": "tmp"}]},
               "elicitation/create": {"action": "accept", "content": {"name": "fuzz"}},
               "sampling/createMessage": {"role": "assistant", "content": {"type": "text", "text": "hi"},
                                          "model": "fuzz"}}
    if method in results:
        return {"jsonrpc": "2.0", "id": message["id"], "result": results[method]}
    return {"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "no"}}


# -- the fuzzer ---------------------------------------------------------------------------

CAPS = {"sampling": {}, "roots": {"listChanged": True}, "elicitation": {"form": {}, "url": {}}}
SAFE_TOOLS = [("echo", {"text": "hello"}), ("add", {"a": 2, "b": 3}), ("fail", {"message": "x"}),
              ("log", {"message": "m", "level": "warning"}), ("touch", {"uri": "fixture://hello"}),
              ("sample", {"prompt": "p"}), ("ask_roots", {}), ("elicit", {"message": "who?"}),
              ("slow", {"seconds": 0.05, "steps": 2}), ("print_stdout", {"text": "fuzz"})]
ODD_TEXT = ["\U0001F600", "\ud800", "\udfff", "\x00", "\u202e", "\u2028", "\u2029", "\x85", "\ufeff", "\uffff",
            "e\u0301" * 20, "\u0000\u0001\u001f", "\\", '"', "\u4e2d\u6587", "\U0010ffff", "\r\n", "\t"]
def _method_names():
    sys.path.insert(0, ROOT)
    try:
        import minimcp
        return sorted(minimcp.METHODS) + ["nope", "", "tools/", "rpc.discover"]
    except ImportError:                  # pragma: no cover
        return ["ping", "tools/list", "tools/call", "initialize", "notifications/cancelled", "nope"]


METHOD_NAMES = _method_names()
HUGE = [10 ** 400, -10 ** 400, 2 ** 63, -2 ** 63 - 1, 2 ** 64, 1e308, -1e308, 5e-324, 0.1, -0.0]
# numbers written as JSON text: beyond float range, beyond Python's int-to-str digit limit (3.11+)
HUGE_TEXT = ["1e400", "-1e999", "1" + "0" * 5000, "-" + "9" * 4301, "123456789" * 100, "1.5e-400", "-0", "1E+2"]


def _random_value(rng, depth=0):
    choice = rng.randrange(12 if depth < 4 else 8)
    if choice == 0:
        return None
    if choice == 1:
        return rng.choice([True, False])
    if choice == 2:
        return rng.randrange(-10, 10)
    if choice == 3:
        return rng.choice(HUGE)
    if choice == 4:
        return rng.random() * rng.choice([1, 1e10, 1e-10])
    if choice == 5:
        return "".join(rng.choice(ODD_TEXT) for _ in range(rng.randrange(1, 6)))
    if choice == 6:
        return rng.choice(["", "x", "echo", "fixture://hello", "2026-07-28", "2025-11-25", "ref/prompt"])
    if choice == 7:
        return "a" * rng.choice([0, 1, 100, 10000])
    if choice in (8, 9):
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(["a", "name", "uri", "_meta", "text", "\ud800", ""]): _random_value(rng, depth + 1)
            for _ in range(rng.randrange(4))}


def _deep(rng):
    depth = rng.choice([50, 500, 990, 1000, 1100, 3000, 20000])
    opener, closer = rng.choice([("[", "]"), ('{"a":', "}")])
    return opener * depth + "1" + closer * depth


class Transcripts:
    """Valid client lines for both eras, the material the mutations start from."""

    def __init__(self, rng):
        self.rng = rng
        self.ids = iter(range(1000, 1 << 40))

    def legacy_opening(self):
        version = self.rng.choice(["2025-11-25", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"])
        return [{"jsonrpc": "2.0", "id": next(self.ids), "method": "initialize",
                 "params": {"protocolVersion": version, "capabilities": CAPS,
                            "clientInfo": {"name": "fuzz", "version": "1"}}},
                {"jsonrpc": "2.0", "method": "notifications/initialized"}]

    def request(self, modern):
        rng = self.rng
        kind = rng.randrange(9)
        if kind < 4:
            name, arguments = rng.choice(SAFE_TOOLS)
            method, params = "tools/call", {"name": name, "arguments": dict(arguments)}
        elif kind == 4:
            method, params = "resources/read", {"uri": rng.choice(["fixture://hello", "fixture://greeting/bob",
                                                                   "fixture://nope"])}
        elif kind == 5:
            method, params = "prompts/get", {"name": "greet", "arguments": {"name": "bob"}}
        elif kind == 6:
            method, params = "completion/complete", {"ref": {"type": "ref/prompt", "name": "greet"},
                                                     "argument": {"name": "name", "value": "a"}}
        elif kind == 7:
            method, params = rng.choice(["tools/list", "resources/list", "prompts/list",
                                         "resources/templates/list"]), {}
        else:
            method, params = ("server/discover", {}) if modern else ("ping", None)
        if modern:
            params = dict(params or {}, _meta=envelope(CAPS if rng.random() < 0.7 else {}))
        elif rng.random() < 0.2:
            params = dict(params or {}, _meta={"progressToken": next(self.ids)})
        message = {"jsonrpc": "2.0", "id": next(self.ids), "method": method}
        if params is not None:
            message["params"] = params
        return message

    def session(self, length):
        modern = self.rng.random() < 0.5
        lines = [] if modern else self.legacy_opening()
        for _ in range(length):
            message = self.request(modern)
            lines.append(message)
            if self.rng.random() < 0.1:
                lines.append({"jsonrpc": "2.0", "method": "notifications/cancelled",
                              "params": {"requestId": message["id"], "reason": "fuzz"}})
        return lines


def _mutate_value(rng, message):
    """Replace one value somewhere inside the message by a random JSON value."""
    message = json.loads(json.dumps(message))
    target, path = message, []
    while isinstance(target, (dict, list)) and target and rng.random() < 0.75:
        keys = list(target) if isinstance(target, dict) else list(range(len(target)))
        chosen = rng.choice(keys)
        if not isinstance(target[chosen], (dict, list)) or rng.random() < 0.3:
            target[chosen] = _random_value(rng)
            return message
        target = target[chosen]
    if isinstance(target, dict):
        target[rng.choice(["id", "method", "params", "jsonrpc", "extra", "_meta", "name"])] = _random_value(rng)
    return message


def mutate(rng, lines):
    """Apply one random mutation to a transcript (a list of dicts or bytes); returns new lines."""
    lines = list(lines)
    if not lines:
        return lines
    index = rng.randrange(len(lines))
    op = rng.randrange(14)
    if op == 0:                                        # random JSON value somewhere in a message
        if isinstance(lines[index], dict):
            lines[index] = _mutate_value(rng, lines[index])
    elif op == 1:                                      # byte flips
        data = bytearray(encode(lines[index])[:-1])
        for _ in range(rng.randrange(1, 4)):
            if data:
                data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        lines[index] = bytes(data).replace(b"\n", b" ") + b"\n"
    elif op == 2:                                      # truncation
        data = encode(lines[index])
        lines[index] = data[:rng.randrange(max(1, len(data) - 1))].replace(b"\n", b"") + b"\n"
    elif op == 3:                                      # splicing two lines
        other = encode(rng.choice(lines))
        data = encode(lines[index])
        cut_a, cut_b = rng.randrange(len(data)), rng.randrange(len(other))
        lines[index] = (data[:cut_a] + other[cut_b:]).replace(b"\n", b"") + b"\n"
    elif op == 4:                                      # duplicated line
        lines.insert(index, lines[index])
    elif op == 5:                                      # reordered lines
        other = rng.randrange(len(lines))
        lines[index], lines[other] = lines[other], lines[index]
    elif op == 6:                                      # huge numbers
        if isinstance(lines[index], dict):
            message = json.loads(json.dumps(lines[index]))
            marker = "\u0000HUGE\u0000"
            if rng.random() < 0.4:
                message["id"] = marker
            else:
                params = message.get("params") if isinstance(message.get("params"), dict) else {}
                arguments = params.get("arguments") if isinstance(params.get("arguments"), dict) else params
                if arguments:
                    arguments[rng.choice(list(arguments))] = marker
            text = json.dumps(message).replace(json.dumps(marker), rng.choice(HUGE_TEXT))
            lines[index] = text.encode("utf-8") + b"\n"
    elif op == 7:                                      # deep nesting, valid or not
        if isinstance(lines[index], dict):
            message = json.dumps(lines[index])
            deep = _deep(rng)
            if '"arguments": {' in message:
                message = message.replace('"arguments": {', '"arguments": {"deep": %s, ' % deep, 1)
            else:
                message = message[:-1] + ', "deep": %s}' % deep
            lines[index] = message.encode("utf-8") + b"\n"
        else:
            lines[index] = _deep(rng).encode("ascii") + b"\n"
    elif op == 8:                                      # odd unicode in a string value
        if isinstance(lines[index], dict):
            text = json.dumps(lines[index], ensure_ascii=rng.random() < 0.5)
            odd = json.dumps("".join(rng.choice(ODD_TEXT) for _ in range(rng.randrange(1, 8))),
                             ensure_ascii=rng.random() < 0.5)[1:-1]
            spots = [i for i, c in enumerate(text) if c == '"']
            if spots:
                at = rng.choice(spots[1::2] or spots)
                text = text[:at] + odd + text[at:]
            lines[index] = text.encode("utf-8", "surrogatepass").replace(b"\n", b"\\n") + b"\n"
    elif op == 9:                                      # raw invalid bytes
        data = encode(lines[index])
        at = rng.randrange(len(data))
        junk = rng.choice([b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\x00", b"\xe2\x82", b"\r", b"\x1b[2J"])
        lines[index] = (data[:at] + junk + data[at:]).replace(b"\n", b"") + b"\n"
    elif op == 10:                                     # blank, whitespace, CRLF
        lines.insert(index, rng.choice([b"\n", b"   \n", b"\t\r\n", b"\r\n"]))
        if isinstance(lines[index + 1], dict) and rng.random() < 0.5:
            lines[index + 1] = encode(lines[index + 1])[:-1] + b"\r\n"
    elif op == 11:                                     # not a request at all
        lines.insert(index, encode(rng.choice([1, "x", None, [], [1, [2]], {}, {"jsonrpc": "2.0"},
                                               {"jsonrpc": "2.0", "id": 5, "result": {}},
                                               {"jsonrpc": "2.0", "id": "s1", "error": {"code": 1}},
                                               [{"jsonrpc": "2.0", "id": 77, "method": "ping"}]])))
    elif op == 12:                                     # an id of another type
        if isinstance(lines[index], dict):
            message = dict(lines[index])
            message["id"] = rng.choice([None, 1.5, True, {"a": 1}, [1], "", "\ud800", 0, -1])
            lines[index] = message
    else:                                              # another method of the table, as request or notification
        if isinstance(lines[index], dict):
            message = dict(lines[index])
            message["method"] = rng.choice(METHOD_NAMES)
            if rng.random() < 0.3:
                message.pop("id", None)
            elif "id" not in message:
                message["id"] = rng.randrange(1 << 20, 1 << 21)
            lines[index] = message
    return lines


_ID_IN_TEXT = re.compile(r'"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)')


def _expectations(server, lines):
    """What each fuzzed line may earn: a lenient, exact-once ledger."""
    sent = {}
    cancelled = set()
    for line in lines:
        if isinstance(line, bytes):
            try:
                message = json.loads(line.decode("utf-8"))
            except (ValueError, RecursionError):
                server.null_allowed += 1          # one parse error, with id null or the id it can see
                match = _ID_IN_TEXT.search(line.decode("utf-8", "replace"))
                if match:
                    try:
                        seen = json.loads(match.group(1))
                    except ValueError:
                        seen = None
                    if valid_id(seen):
                        server.expect(seen, minimum=0, maximum=1)
                continue
        else:
            message = line
        if isinstance(message, list):           # batches: one error (or one array) at most
            server.null_allowed += 1
            for item in message:
                if isinstance(item, dict) and valid_id(item.get("id")):
                    server.expect(item["id"], minimum=0, maximum=1)
            continue
        if not isinstance(message, dict):
            server.null_allowed += 1
            continue
        if message.get("method") == "notifications/cancelled" and "id" not in message:
            params = message.get("params")
            if isinstance(params, dict) and valid_id(params.get("requestId")):
                cancelled.add(key(params["requestId"]))
            continue
        request_id = message.get("id")
        if "id" in message and valid_id(request_id):
            entry = sent.setdefault(key(request_id), [request_id, 0])
            if "method" in message or not ("result" in message or "error" in message):
                entry[1] += 1
        elif "id" in message or "method" not in message or message.get("jsonrpc") != "2.0" \
                or not isinstance(message.get("method"), str):
            server.null_allowed += 1
    for k, (request_id, count) in sent.items():
        if count == 0:
            continue
        if k in cancelled:
            server.expect(request_id, minimum=0, maximum=count)
        else:
            # a response-shaped line with a known id gets nothing; every request gets one
            server.expect(request_id, minimum=0 if count > 1 else 1, maximum=count)


def fuzz_batch(rng, batch_size, python=None, log=None):
    """One server process, one batch of mutated lines; returns None or a failure report."""
    transcripts = Transcripts(rng)
    lines = transcripts.session(batch_size)
    for _ in range(batch_size):
        lines = mutate(rng, lines)
    server = Server(python=python, answer_requests=canned_answer)
    try:
        _expectations(server, lines)
        for line in lines:
            server.send(line)
        server.drain()
        try:
            server.wait_all(timeout=15.0)
        except Failure as exc:
            # a request whose own answer the fuzz ledger cannot predict (for example a
            # duplicate id) is judged only by the exact-once rule below
            if server.eof or not server.alive():
                raise
            del exc
        era = None
        server.liveness(era)
        server.verify(exit_timeout=5.0)
        return None
    except Failure as exc:
        return {"error": str(exc), "lines": [encode(l)[:2000].decode("utf-8", "replace") for l in lines],
                "stderr": server.stderr()[-3000:]}
    finally:
        server.kill()


def run(iterations=200, seed=0, batch=40, python=None, out=sys.stdout, report=None, time_limit=None):
    """Run ``iterations`` mutations in batches of ``batch`` lines per server process.

    Returns (passed_batches, failed_batches, failures).
    """
    rng = random.Random(seed)
    passed, failed, failures = 0, 0, []
    done = 0
    started = time.monotonic()
    while done < iterations:
        size = min(batch, iterations - done)
        batch_seed = rng.randrange(1 << 30)
        failure = fuzz_batch(random.Random(batch_seed), size, python=python)
        done += size
        if failure is None:
            passed += 1
        else:
            failed += 1
            failure["seed"] = batch_seed
            failures.append(failure)
            out.write("FAILED batch seed %d: %s\n" % (batch_seed, failure["error"][:500]))
        if time_limit is not None and time.monotonic() - started > time_limit:
            break
    if report and failures:
        with open(report, "w") as handle:
            json.dump(failures, handle, indent=1)
    out.write("fuzz: %d iterations in %d batches, seed %d, %.1fs: %d passed, %d failed\n"
              % (done, passed + failed, seed, time.monotonic() - started, passed, failed))
    return passed, failed, failures


def replay(batch_seed, batch=40, python=None):
    """Re-run one failed batch by its seed (printed by ``run``)."""
    return fuzz_batch(random.Random(batch_seed), batch, python=python)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=400, help="mutations in all (default 400)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--batch", type=int, default=40, help="mutated lines per server process (default 40)")
    parser.add_argument("--python", default=None, help="interpreter that runs the server")
    parser.add_argument("--report", default=None, help="write failing batches (lines, stderr) as JSON here")
    parser.add_argument("--replay", type=int, default=None, help="re-run one batch seed and print it")
    options = parser.parse_args(argv)
    if options.replay is not None:
        failure = replay(options.replay, options.batch, options.python)
        print(json.dumps(failure, indent=1) if failure else "batch %d passed" % options.replay)
        return 1 if failure else 0
    passed, failed, _ = run(options.iterations, options.seed, options.batch, options.python,
                            report=options.report)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
