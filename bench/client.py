#!/usr/bin/env python3
"""Standard-library benchmark client for MCP stdio servers.

Spawns any server command and measures it over local pipes only:

* spawn -> first ``initialize`` (or ``server/discover``) answer and -> first
  ``tools/list`` answer; idle RSS; time from closing stdin to exit, exit code;
* sequential ``tools/call echo`` latency (p50 / p90 / p99);
* pipelined throughput: N requests written by a writer thread without
  waiting, every answer checked by id and content;
* 1 MiB and 10 MiB echo round trips;
* peak RSS (VmHWM from /proc/<pid>/status) after the load and after the large
  payloads; time from closing stdin to exit after all that;
* both eras: the handshake era (``initialize`` 2025-11-25 +
  ``notifications/initialized``) and 2026-07-28 (``server/discover`` + the
  per-request ``params._meta`` envelope).  A server that does not answer
  ``server/discover`` with a result listing 2026-07-28 gets "n/a" there.

Optional sweeps (tools/list vs. number of tools, concurrent slow calls,
payload sizes, cancel-to-stop) need the server to understand the
MCPBENCH_TOOLS / MCPBENCH_EXTRA environment variables (see servers/).

Standalone use (absolute figures, no ratios; run.py does the comparison):

    python3 bench/client.py --quick -- python3 bench/servers/minimcp_echo.py
    python3 bench/client.py --sweeps all --json out.json -- node server.mjs

The exit status is non-zero when a measurement failed (wrong answer, timeout,
crash), so ``--quick`` doubles as a CI smoke test.
"""
import argparse
import collections
import json
import math
import os
import queue
import re
import selectors
import statistics
import subprocess
import sys
import threading
import time

LEGACY_VERSION = "2025-11-25"
MODERN_VERSION = "2026-07-28"
ENVELOPE = {"io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
            "io.modelcontextprotocol/clientCapabilities": {}}
CLIENT_INFO = {"name": "minimcp-bench", "version": "1"}
MiB = 1 << 20
KiB = 1 << 10

ERAS = ("legacy", "modern")

# Variables that change how an interpreter behaves and that a user's MCP host
# would not normally set (this very machine sets the first two globally).
# PYTHONDONTWRITEBYTECODE in particular would make every start of a
# single-file module recompile it.  Scrubbed from every server's environment;
# ``env`` arguments can put any of them back on purpose.
SCRUB_ENV = ("PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED", "PYTHONPATH", "PYTHONHOME",
             "PYTHONSTARTUP", "PYTHONDEVMODE", "PYTHONMALLOC", "PYTHONTRACEMALLOC",
             "PYTHONPROFILEIMPORTTIME", "PYTHONASYNCIODEBUG", "PYTHONWARNINGS",
             "PYTHONPYCACHEPREFIX", "NODE_OPTIONS")


def server_env(env=None):
    full = {k: v for k, v in os.environ.items() if k not in SCRUB_ENV}
    full.update(env or {})
    return full


class BenchError(Exception):
    """A measurement could not be taken (timeout, wrong answer, crash)."""


class NotSupported(BenchError):
    """The server does not speak this era / feature: reported as n/a."""


# ---------------------------------------------------------------------------
# Process plumbing
# ---------------------------------------------------------------------------

def read_proc_status(pid):
    """Return {'rss': kB, 'hwm': kB} from /proc/<pid>/status (None if gone)."""
    out = {}
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    out["rss"] = int(line.split()[1])
                elif line.startswith("VmHWM:"):
                    out["hwm"] = int(line.split()[1])
    except OSError:
        return None
    return out


class Server:
    """One spawned server process with line-oriented, timeout-aware pipes."""

    def __init__(self, cmd, env=None, cwd=None, era="legacy"):
        self.cmd = cmd
        self.era = era
        full_env = server_env(env)
        self.t_spawn = time.perf_counter()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, bufsize=0, env=full_env, cwd=cwd)
        self.pid = self.proc.pid
        self.stdin_fd = self.proc.stdin.fileno()
        self.stdout_fd = self.proc.stdout.fileno()
        self._buf = bytearray()
        self._scan = 0
        self._sel = selectors.DefaultSelector()
        self._sel.register(self.stdout_fd, selectors.EVENT_READ)
        self.stderr_tail = collections.deque(maxlen=40)
        self.markers = queue.Queue()
        self._stderr_thread = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_thread.start()
        self._next_id = 0
        self.exit_ms = None
        self.exit_code = None

    # -- stderr: drained always (a full pipe would stall the server) -------
    def _drain_stderr(self):
        fd = self.proc.stderr.fileno()
        pending = b""
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            pending += chunk
            *lines, pending = pending.split(b"\n")
            now = time.monotonic_ns()
            for raw in lines:
                text = raw.decode("utf-8", "replace")
                if text.startswith("MCPBENCH "):
                    parts = text.split()
                    if len(parts) == 3 and parts[2].isdigit():
                        self.markers.put((parts[1], int(parts[2]), now))
                        continue
                self.stderr_tail.append(text[:300])

    def stderr_text(self):
        return "\n".join(self.stderr_tail)

    # -- stdout ------------------------------------------------------------
    def readline(self, timeout):
        """Return the next stdout line (bytes, without newline)."""
        deadline = time.perf_counter() + timeout
        while True:
            i = self._buf.find(b"\n", self._scan)
            if i >= 0:
                line = bytes(self._buf[:i])
                del self._buf[:i + 1]
                self._scan = 0
                return line
            self._scan = len(self._buf)
            remaining = deadline - time.perf_counter()
            if remaining <= 0 or not self._sel.select(remaining):
                raise BenchError("timed out after %.1f s waiting for a line from the server; "
                                 "stderr tail:\n%s" % (timeout, self.stderr_text()))
            chunk = os.read(self.stdout_fd, 4 * MiB)
            if not chunk:
                self.proc.poll()
                raise BenchError("server closed stdout (exit code %s); stderr tail:\n%s"
                                 % (self.proc.returncode, self.stderr_text()))
            self._buf += chunk

    def read_message(self, timeout):
        line = self.readline(timeout)
        try:
            return json.loads(line)
        except ValueError:
            raise BenchError("server wrote a non-JSON line: %r" % line[:200])

    def read_response(self, want_id, timeout):
        """Read until the response with id ``want_id``; skip notifications."""
        deadline = time.perf_counter() + timeout
        while True:
            msg = self.read_message(max(0.001, deadline - time.perf_counter()))
            if "id" in msg and "method" not in msg:
                if msg["id"] == want_id:
                    return msg
                raise BenchError("unexpected response id %r (wanted %r)" % (msg["id"], want_id))
            if "method" in msg and "id" in msg:
                raise BenchError("server sent a request %r; the benchmark client does not "
                                 "answer server requests" % msg["method"])

    # -- stdin -------------------------------------------------------------
    def write(self, data):
        view = memoryview(data)
        while view:
            n = os.write(self.stdin_fd, view)
            view = view[n:]

    def new_id(self):
        self._next_id += 1
        return self._next_id

    def request_bytes(self, method, params=None, rid=None):
        if rid is None:
            rid = self.new_id()
        params = dict(params or {})
        if self.era == "modern":
            params["_meta"] = ENVELOPE
        msg = {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}
        return rid, (json.dumps(msg, separators=(",", ":")) + "\n").encode()

    def request(self, method, params=None, timeout=30.0):
        rid, data = self.request_bytes(method, params)
        self.write(data)
        return self.read_response(rid, timeout)

    def notify(self, method, params=None):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.write((json.dumps(msg, separators=(",", ":")) + "\n").encode())

    # -- lifecycle ---------------------------------------------------------
    def status(self):
        return read_proc_status(self.pid) or {}

    def close(self, timeout=10.0):
        """Close stdin and time the exit precisely (a thread blocks in wait())."""
        done = {}

        def waiter():
            self.proc.wait()
            done["t"] = time.perf_counter()

        t = threading.Thread(target=waiter, daemon=True)
        t.start()
        t0 = time.perf_counter()
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        t.join(timeout)
        if "t" in done:
            self.exit_ms = (done["t"] - t0) * 1000.0
            self.exit_code = self.proc.returncode
        else:
            self.kill()
            t.join(5)
            self.exit_ms = None
            self.exit_code = "killed after %.0f s" % timeout
        self._finish()
        return self.exit_ms, self.exit_code

    def kill(self):
        if self.proc.poll() is None:
            try:
                self.proc.kill()
            except OSError:
                pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            pass

    def _finish(self):
        self._stderr_thread.join(2)
        for f in (self.proc.stdout, self.proc.stderr):
            try:
                f.close()
            except OSError:
                pass
        try:
            self._sel.close()
        except (OSError, ValueError):
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.proc.poll() is None:
            self.kill()
        self._finish()

    # -- MCP conversation ---------------------------------------------------
    def open(self, timeout=60.0):
        """Open the conversation for this era; return seconds since spawn."""
        if self.era == "legacy":
            resp = self.request("initialize", {"protocolVersion": LEGACY_VERSION,
                                               "capabilities": {}, "clientInfo": CLIENT_INFO},
                                timeout)
            t = time.perf_counter() - self.t_spawn
            if "result" not in resp:
                raise BenchError("initialize failed: %r" % resp.get("error"))
            self.notify("notifications/initialized")
            return t
        resp = self.request("server/discover", {}, timeout)
        t = time.perf_counter() - self.t_spawn
        res = resp.get("result")
        if not isinstance(res, dict) or MODERN_VERSION not in (res.get("supportedVersions") or []):
            raise NotSupported("server/discover answered %s" % json.dumps(
                resp.get("error") or resp.get("result"))[:200])
        return t

    def list_tools(self, timeout=60.0):
        """All pages of tools/list; return the tool list."""
        tools, cursor = [], None
        for _ in range(100000):
            params = {"cursor": cursor} if cursor is not None else {}
            resp = self.request("tools/list", params, timeout)
            res = resp.get("result")
            if not isinstance(res, dict):
                raise BenchError("tools/list failed: %r" % resp.get("error"))
            tools.extend(res.get("tools") or [])
            cursor = res.get("nextCursor")
            if cursor is None:
                return tools
        raise BenchError("tools/list never ended")


def echo_text(resp):
    res = resp.get("result")
    if not isinstance(res, dict):
        raise BenchError("tools/call failed: %r" % (resp.get("error"),))
    content = res.get("content") or []
    if res.get("isError") or len(content) != 1 or content[0].get("type") != "text":
        raise BenchError("unexpected tools/call result: %s" % json.dumps(res)[:300])
    return content[0]["text"]


def percentile(sorted_values, p):
    if not sorted_values:
        return None
    k = max(0, min(len(sorted_values) - 1, int(math.ceil(p / 100.0 * len(sorted_values))) - 1))
    return sorted_values[k]


def median(values):
    values = [v for v in values if isinstance(v, (int, float))]
    return statistics.median(values) if values else None


def payload(size):
    unit = b"abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-_"
    return (unit * (size // len(unit) + 1))[:size].decode()


def _writer(srv, data, errors):
    try:
        srv.write(data)
    except OSError as exc:  # the server died: the reader reports it
        errors.append(exc)


# ---------------------------------------------------------------------------
# Measurements (one repetition each; the caller aggregates)
# ---------------------------------------------------------------------------

def measure_spawn(cmd, env=None, cwd=None, era="legacy", idle_s=0.3, timeout=60.0):
    """spawn -> first open answer -> first tools/list; idle RSS; exit on EOF."""
    srv = Server(cmd, env, cwd, era)
    with srv:
        t_open = srv.open(timeout)
        tools = srv.list_tools(timeout)
        t_list = time.perf_counter() - srv.t_spawn
        if not any(t.get("name") == "echo" for t in tools):
            raise BenchError("tools/list has no echo tool")
        time.sleep(idle_s)
        st = srv.status()
        exit_ms, code = srv.close()
    return {"open_ms": t_open * 1000, "list_ms": t_list * 1000,
            "rss_idle_kb": st.get("rss"), "hwm_idle_kb": st.get("hwm"),
            "exit_idle_ms": exit_ms, "exit_idle_code": code}


def run_sequential(srv, n, timeout=30.0):
    lat = []
    reqs = [srv.request_bytes("tools/call", {"name": "echo", "arguments": {"text": "seq-%d" % i}})
            for i in range(n)]
    for i, (rid, data) in enumerate(reqs):
        t0 = time.perf_counter()
        srv.write(data)
        line = srv.readline(timeout)
        lat.append(time.perf_counter() - t0)
        resp = json.loads(line)
        if resp.get("id") != rid or echo_text(resp) != "seq-%d" % i:
            raise BenchError("sequential echo %d came back wrong: %s" % (i, line[:200]))
    lat.sort()
    return lat


def run_pipelined(srv, n, timeout=120.0):
    """Write n echo calls from a writer thread; read and check all answers."""
    expect = {}
    chunks = []
    for i in range(n):
        rid, data = srv.request_bytes("tools/call", {"name": "echo",
                                                     "arguments": {"text": "pipe-%d" % i}})
        expect[rid] = "pipe-%d" % i
        chunks.append(data)
    blob = b"".join(chunks)
    errors = []
    lines = []
    w = threading.Thread(target=_writer, args=(srv, blob, errors), daemon=True)
    t0 = time.perf_counter()
    w.start()
    for _ in range(n):
        lines.append(srv.readline(timeout))
    elapsed = time.perf_counter() - t0
    w.join(timeout)
    seen = set()
    for line in lines:
        resp = json.loads(line)
        rid = resp.get("id")
        if rid not in expect or rid in seen:
            raise BenchError("pipelined: unexpected or duplicate id %r" % (rid,))
        if echo_text(resp) != expect[rid]:
            raise BenchError("pipelined: wrong text for id %r" % (rid,))
        seen.add(rid)
    return n / elapsed


def run_big_echo(srv, size, timeout=300.0):
    """One echo round trip of ``size`` bytes of text; returns seconds."""
    text = payload(size)
    rid, data = srv.request_bytes("tools/call", {"name": "echo", "arguments": {"text": text}})
    errors = []
    w = threading.Thread(target=_writer, args=(srv, data, errors), daemon=True)
    t0 = time.perf_counter()
    w.start()
    line = srv.readline(timeout)
    elapsed = time.perf_counter() - t0
    w.join(timeout)
    resp = json.loads(line)
    if resp.get("id") != rid:
        raise BenchError("big echo: wrong id")
    if echo_text(resp) != text:
        raise BenchError("big echo (%d bytes): text came back different" % size)
    return elapsed


def measure_load(cmd, env=None, cwd=None, era="legacy", n_seq=2000, n_pipe=10000,
                 big=((MiB, 5), (10 * MiB, 3)), timeout=60.0):
    """One process: sequential, pipelined, big payloads; RSS after each; exit."""
    out = {}
    srv = Server(cmd, env, cwd, era)
    with srv:
        srv.open(timeout)
        srv.list_tools(timeout)
        # one warm-up call, and the size of one echo reply on the wire
        rid, data = srv.request_bytes("tools/call", {"name": "echo", "arguments": {"text": "hi"}})
        srv.write(data)
        line = srv.readline(timeout)
        if echo_text(json.loads(line)) != "hi":
            raise BenchError("echo did not echo")
        out["reply_bytes"] = len(line) + 1
        lat = run_sequential(srv, n_seq, timeout)
        out["seq_p50_us"] = percentile(lat, 50) * 1e6
        out["seq_p90_us"] = percentile(lat, 90) * 1e6
        out["seq_p99_us"] = percentile(lat, 99) * 1e6
        out["pipe_rps"] = run_pipelined(srv, n_pipe, max(timeout, 120.0))
        out["hwm_load_kb"] = srv.status().get("hwm")
        for size, reps in big:
            times = [run_big_echo(srv, size) for _ in range(reps)]
            out["big_%d_ms" % size] = statistics.median(times) * 1000
        st = srv.status()
        out["hwm_big_kb"] = st.get("hwm")
        out["rss_end_kb"] = st.get("rss")
        exit_ms, code = srv.close()
        out["exit_load_ms"] = exit_ms
        out["exit_load_code"] = code
    return out


# ---------------------------------------------------------------------------
# Sweeps
# ---------------------------------------------------------------------------

def sweep_tools(cmd, env=None, cwd=None, era="legacy", counts=(10, 100, 1000, 10000), reps=5,
                timeout=120.0):
    """tools/list time against the number of registered tools (echo + fillers)."""
    rows = []
    for n in counts:
        e = dict(env or {})
        e["MCPBENCH_TOOLS"] = str(n - 1)
        srv = Server(cmd, e, cwd, era)
        with srv:
            srv.open(timeout)
            tools = srv.list_tools(timeout)
            first = (time.perf_counter() - srv.t_spawn) * 1000
            if len(tools) != n:
                raise BenchError("tools sweep: listed %d tools, expected %d" % (len(tools), n))
            times = []
            for _ in range(reps):
                t0 = time.perf_counter()
                srv.list_tools(timeout)
                times.append((time.perf_counter() - t0) * 1000)
            st = srv.status()
            srv.close()
        rows.append({"tools": n, "spawn_to_list_ms": first, "list_ms": statistics.median(times),
                     "rss_kb": st.get("rss")})
    return rows


def sweep_concurrency(cmd, env=None, cwd=None, era="legacy", levels=(1, 2, 4, 8, 16, 32, 64),
                      seconds=0.2, timeout=60.0):
    """k concurrent calls of a tool sleeping ``seconds``: wall time until all answered."""
    e = dict(env or {})
    e["MCPBENCH_EXTRA"] = "1"
    rows = []
    srv = Server(cmd, e, cwd, era)
    with srv:
        srv.open(timeout)
        names = {t.get("name") for t in srv.list_tools(timeout)}
        if "slow" not in names:
            raise NotSupported("no slow tool")
        for k in levels:
            ids = set()
            chunks = []
            for _ in range(k):
                rid, data = srv.request_bytes("tools/call", {"name": "slow",
                                                             "arguments": {"seconds": seconds}})
                ids.add(rid)
                chunks.append(data)
            t0 = time.perf_counter()
            srv.write(b"".join(chunks))
            got = []
            for _ in range(k):
                resp = srv.read_message(timeout)
                got.append(time.perf_counter() - t0)
                if resp.get("id") not in ids or echo_text(resp) != "slept":
                    raise BenchError("slow call answered wrong: %s" % json.dumps(resp)[:200])
                ids.discard(resp.get("id"))
            rows.append({"concurrent": k, "wall_ms": got[-1] * 1000,
                         "first_ms": got[0] * 1000,
                         "rounds": round(got[-1] / seconds, 2)})
        srv.close()
    return rows


def sweep_payload(cmd, env=None, cwd=None, era="legacy",
                  sizes=(KiB, 16 * KiB, 256 * KiB, MiB, 4 * MiB, 16 * MiB, 64 * MiB),
                  timeout=300.0):
    """Echo round trip per payload size; a fresh process per size for its peak RSS."""
    rows = []
    for size in sizes:
        srv = Server(cmd, env, cwd, era)
        with srv:
            srv.open(timeout)
            run_big_echo(srv, 16, timeout)      # warm-up: lazy pools/threads start here
            before = srv.status().get("hwm")
            reps = 9 if size <= 256 * KiB else 3 if size <= 4 * MiB else 1
            try:
                times = [run_big_echo(srv, size, timeout) for _ in range(reps)]
            except BenchError as exc:
                rows.append({"bytes": size, "ms": None, "error": str(exc).splitlines()[0][:120],
                             "hwm_idle_kb": before, "hwm_kb": None})
                continue
            after = srv.status().get("hwm")
            srv.close()
        rows.append({"bytes": size, "ms": statistics.median(times) * 1000,
                     "hwm_idle_kb": before, "hwm_kb": after})
    return rows


def _next_marker(srv, want, timeout):
    deadline = time.perf_counter() + timeout
    while True:
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            raise BenchError("no %r marker from the tool within %.1f s" % (want, timeout))
        try:
            event, ns, recv_ns = srv.markers.get(timeout=remaining)
        except queue.Empty:
            continue
        if event in want:
            return event, ns, recv_ns


def sweep_cancel(cmd, env=None, cwd=None, era="legacy", reps=10, timeout=30.0):
    """Cancel-to-stop: write notifications/cancelled for a running ``spin`` call
    (which polls for cancellation every 10 ms) and time until the tool's own
    stderr marker says it left.  Times are CLOCK_MONOTONIC on both sides, so the
    server's stamp is comparable with ours; the receipt time of the marker line
    is kept as a cross-check.  Also records whether a reply still came."""
    e = dict(env or {})
    e["MCPBENCH_EXTRA"] = "1"
    rows = []
    srv = Server(cmd, e, cwd, era)
    with srv:
        srv.open(timeout)
        names = {t.get("name") for t in srv.list_tools(timeout)}
        if "spin" not in names:
            raise NotSupported("no spin tool")
        for i in range(reps):
            rid, data = srv.request_bytes("tools/call", {"name": "spin",
                                                         "arguments": {"seconds": 5.0}})
            srv.write(data)
            _next_marker(srv, ("enter",), timeout)
            time.sleep(0.025 + 0.01 * (i % 5) / 5.0)   # vary the phase against the 10 ms poll
            params = {"requestId": rid, "reason": "benchmark"}
            t_cancel = time.monotonic_ns()
            srv.notify("notifications/cancelled", params)
            event, ns, recv_ns = _next_marker(srv, ("cancelled", "finished"), timeout)
            replied = False
            try:
                msg = srv.read_message(0.2)
                replied = msg.get("id") == rid
            except BenchError:
                pass
            rows.append({"stop_ms": (ns - t_cancel) / 1e6, "seen_ms": (recv_ns - t_cancel) / 1e6,
                         "how": event, "replied": replied})
        srv.close()
    return rows


# ---------------------------------------------------------------------------
# Import cost
# ---------------------------------------------------------------------------

_IMPORTTIME = re.compile(r"^import time:\s+(\d+)\s+\|\s+(\d+)\s+\|( *)(\S+)")


def _importtime_modules(python, stmt, env):
    out = subprocess.run([python, "-X", "importtime", "-c", stmt], capture_output=True,
                         text=True, env=env, timeout=120)
    if out.returncode != 0:
        raise BenchError("import failed: %s" % out.stderr[-500:])
    mods = []
    for line in out.stderr.splitlines():
        m = _IMPORTTIME.match(line)
        if m and len(m.group(3)) == 1:
            mods.append((m.group(4), int(m.group(2))))
    return mods


def import_cost_us(python, stmt, env=None, reps=5):
    """Median over reps of the summed cumulative us of the top-level imports
    that ``stmt`` adds over a bare interpreter start (for ``import X`` that is
    X's own cumulative figure)."""
    full_env = server_env(env)
    base = {name for name, _ in _importtime_modules(python, "pass", full_env)}
    totals = []
    for _ in range(reps):
        mods = _importtime_modules(python, stmt, full_env)
        totals.append(sum(us for name, us in mods if name not in base))
    return statistics.median(totals)


def node_import_cost_us(node, specifiers, cwd, reps=5):
    code = ("const t=process.hrtime.bigint();" +
            "".join("await import(%s);" % json.dumps(s) for s in specifiers) +
            "console.log(String((process.hrtime.bigint()-t)/1000n));")
    totals = []
    for _ in range(reps):
        out = subprocess.run([node, "--input-type=module", "-e", code], capture_output=True,
                             text=True, cwd=cwd, env=server_env(), timeout=120)
        if out.returncode != 0:
            raise BenchError("node import failed: %s" % out.stderr[-500:])
        totals.append(int(out.stdout.strip().splitlines()[-1]))
    return statistics.median(totals)


# ---------------------------------------------------------------------------
# Standalone CLI
# ---------------------------------------------------------------------------

def profile(quick):
    if quick:
        return {"spawn_reps": 3, "load_reps": 1, "n_seq": 200, "n_pipe": 1000,
                "big": ((MiB, 2), (10 * MiB, 1))}
    return {"spawn_reps": 10, "load_reps": 3, "n_seq": 2000, "n_pipe": 10000,
            "big": ((MiB, 5), (10 * MiB, 3))}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="CI smoke: few repetitions")
    ap.add_argument("--era", choices=("legacy", "modern", "both"), default="both")
    ap.add_argument("--spawn-reps", type=int)
    ap.add_argument("--load-reps", type=int)
    ap.add_argument("--seq", type=int, help="sequential calls per repetition")
    ap.add_argument("--pipeline", type=int, help="pipelined requests per repetition")
    ap.add_argument("--sweeps", default="", help="comma list of tools,concurrency,payload,"
                    "cancel or 'all'")
    ap.add_argument("--env", action="append", default=[], metavar="K=V")
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("cmd", nargs=argparse.REMAINDER, help="-- server command")
    a = ap.parse_args(argv)
    cmd = a.cmd[1:] if a.cmd[:1] == ["--"] else a.cmd
    if not cmd:
        ap.error("give the server command after --")
    env = dict(kv.split("=", 1) for kv in a.env)
    p = profile(a.quick)
    for k, v in (("spawn_reps", a.spawn_reps), ("load_reps", a.load_reps), ("n_seq", a.seq),
                 ("n_pipe", a.pipeline)):
        if v is not None:
            p[k] = v
    eras = ERAS if a.era == "both" else (a.era,)
    results = {"cmd": cmd, "profile": {k: v for k, v in p.items() if k != "big"}, "eras": {}}
    failed = False
    for era in eras:
        r = {}
        try:
            spawns = [measure_spawn(cmd, env, era=era) for _ in range(p["spawn_reps"])]
            loads = [measure_load(cmd, env, era=era, n_seq=p["n_seq"], n_pipe=p["n_pipe"],
                                  big=p["big"]) for _ in range(p["load_reps"])]
            for rows in (spawns, loads):
                for key in rows[0]:
                    vals = [row[key] for row in rows]
                    r[key] = median(vals) if key.endswith(("_ms", "_us", "_kb", "_rps", "bytes")) \
                        else sorted(set(map(str, vals)))
        except NotSupported as exc:
            r = {"n/a": str(exc)}
        except BenchError as exc:
            r = {"error": str(exc)}
            failed = True
        results["eras"][era] = r
        print("== %s era" % era)
        for k, v in r.items():
            print("  %-16s %s" % (k, ("%.1f" % v) if isinstance(v, float) else v))
    sweeps = [s for s in a.sweeps.split(",") if s]
    if "all" in sweeps:
        sweeps = ["tools", "concurrency", "payload", "cancel"]
    fns = {"tools": sweep_tools, "concurrency": sweep_concurrency, "payload": sweep_payload,
           "cancel": sweep_cancel}
    results["sweeps"] = {}
    for s in sweeps:
        try:
            rows = fns[s](cmd, env)
        except NotSupported as exc:
            rows = {"n/a": str(exc)}
        except BenchError as exc:
            rows = {"error": str(exc)}
            failed = True
        results["sweeps"][s] = rows
        print("== sweep %s" % s)
        for row in (rows if isinstance(rows, list) else [rows]):
            print("  ", row)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
