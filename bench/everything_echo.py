#!/usr/bin/env python3
"""The echo tool served from examples/everything.py beside the bare echo server (issue 29).

    python3 bench/everything_echo.py                      # 5 rounds each, both eras, Markdown on stdout
    python3 bench/everything_echo.py --out bench/everything_echo.md --rounds 5

Two servers answer the same ``tools/call echo``:

* ``echo server``: bench/servers/minimcp_echo.py, one tool;
* ``everything.py``: examples/everything.py, whose other tools, resources, templates, prompts,
  task tool and Agent Skills the call never touches.

Both run the same copy of minimcp.py (``--minimcp DIR``, default: the repository), placed with
everything.py and its skills in a temporary directory and compiled once, from one venv without
packages (run.py's "stdlib" venv). Rounds are interleaved: each round starts both servers afresh
(initialize or server/discover, tools/list, 200 sequential calls as warm-up), then sends
``--calls`` pipelined calls to each in ``--bursts`` bursts, the two taking turns burst by burst
(A B A B ..., and B A B A ... in the next round), so that both meet the same load within a tenth
of a second or so. A burst is bench/client.py's ``run_pipelined``: written by a writer thread in
one go, every answer checked by id and text. Reported per server: the round's calls/s (its calls
over the time its bursts took) and the median over rounds, the ratio of the medians
(everything.py / echo server) and the median of each round's own ratio (the two of a round met
the same load, rounds apart did not), and the server's own CPU time per call (summed over its threads
from /proc/PID/task/*/schedstat), which the machine's load moves far less than the wall-clock
rate, plus its thread count after the round (more than the reader and the pool's watcher means
that the reader stepped aside during the bursts).

Last, a figure the load cannot move: the function calls (Python and C, counted with
sys.setprofile) that each server's own code makes per echo request, served from memory on one
thread in the server's interpreter (``calls_per_request``).

The machine is shared: read the ratios, and the load average printed with them.
"""
import argparse
import datetime
import json
import glob
import os
import py_compile
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import client  # noqa: E402
import run     # noqa: E402  (the shared venv cache, machine description, load average)

WARMUP_CALLS = 200


def place(minimcp_dir: str, examples_dir: str, python: str) -> str:
    """A temporary directory holding minimcp.py and its component files (the core compiled) and
    examples/everything.py with its skills."""
    top = tempfile.mkdtemp(prefix="minimcp-everything-echo-")
    for part in glob.glob(os.path.join(minimcp_dir, "minimcp*.py")):
        shutil.copyfile(part, os.path.join(top, os.path.basename(part)))
    os.makedirs(os.path.join(top, "examples"))
    shutil.copyfile(os.path.join(examples_dir, "everything.py"), os.path.join(top, "examples", "everything.py"))
    shutil.copytree(os.path.join(examples_dir, "skills"), os.path.join(top, "examples", "skills"))
    # Compiled by the servers' own interpreter, so neither server pays for a compile at spawn.
    subprocess.run([python, "-c", "import py_compile, sys; py_compile.compile(sys.argv[1], doraise=True)",
                    os.path.join(top, "minimcp.py")], check=True, env=client.server_env())
    return top


def cpu_ns(pid: int) -> int:
    """Nanoseconds on a CPU, summed over the process's threads (first field of each schedstat)."""
    total = 0
    base = "/proc/%d/task" % pid
    for tid in os.listdir(base):
        try:
            with open(os.path.join(base, tid, "schedstat")) as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):     # a thread that ended meanwhile
            pass
    return total


def one_round(servers: list, env: dict, era: str, calls: int, bursts: int) -> list:
    """One round: a fresh process per server, all up at once; ``bursts`` pipelined bursts each, in turn.

    The servers take turns burst by burst (A B A B ...), so each burst of one has the machine's
    load of a moment ago for the other's; a server waits on its stdin while the other works.
    Returns, per server: calls/s over its bursts, its CPU time per call, its threads after.
    """
    opened = []
    try:
        for cmd in servers:
            srv = client.Server(cmd, env, None, era)
            opened.append(srv)
            srv.open(60)
            names = {t.get("name") for t in srv.list_tools(60)}
            if "echo" not in names:
                raise client.BenchError("no echo tool in %s" % sorted(names))
            client.run_sequential(srv, WARMUP_CALLS, 60)
        per_burst = max(1, calls // bursts)
        spent = [0.0] * len(opened)
        used = [0] * len(opened)
        for _ in range(bursts):
            for i, srv in enumerate(opened):
                before = cpu_ns(srv.pid)
                spent[i] += per_burst / client.run_pipelined(srv, per_burst, 120)
                used[i] += cpu_ns(srv.pid) - before
        rows = []
        for i, srv in enumerate(opened):
            threads = len(os.listdir("/proc/%d/task" % srv.pid))
            _, code = srv.close()
            if code != 0:
                raise client.BenchError("exit code %s after the calls" % code)
            rows.append({"rps": per_burst * bursts / spent[i],
                         "cpu_us_per_call": used[i] / 1000.0 / (per_burst * bursts), "threads": threads})
        return rows
    finally:
        for srv in opened:
            srv.__exit__(None, None, None)


# Run inside a server's own interpreter: load the script as a module (its app.run() is under
# __main__), serve N echo calls from memory on one thread and count the function calls made.
_COUNT_CALLS = r"""
import importlib.util, io, json, sys
import minimcp
minimcp._WorkerPool.STALL = 60.0          # the reader never steps aside: one thread, the same path each time
spec = importlib.util.spec_from_file_location("served", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
era, n = sys.argv[2], int(sys.argv[3])
meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
lines = [] if era == "modern" else [
    {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25",
     "capabilities": {}, "clientInfo": {"name": "count", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"}]
def calls(first, count):
    out = []
    for i in range(first, first + count):
        params = {"name": "echo", "arguments": {"text": "pipe-%d" % i}}
        if era == "modern":
            params["_meta"] = meta
        out.append({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": params})
    return out
encode = lambda messages: b"".join(json.dumps(m, separators=(",", ":")).encode() + b"\n" for m in messages)
class Sink(io.RawIOBase):
    def writable(self):
        return True
    def write(self, data):
        return len(data)
counted, on = [0], [False]
def profile(frame, event, arg):
    if on[0] and event in ("call", "c_call"):
        counted[0] += 1
import threading
threading.setprofile(profile)             # before the pool's threads start (they are kept between serves)
sys.setprofile(profile)
module.app.serve(io.BytesIO(encode(lines + calls(1, 200))), Sink())      # warm: lazy imports, caches
data = encode(lines + calls(1, n))
on[0] = True
module.app.serve(io.BytesIO(data), Sink())
on[0] = False
print(counted[0] / n)
"""


def calls_per_request(python: str, top: str, script: str, era: str, n: int = 2000) -> float:
    """Function calls (Python and C) per pipelined echo request, counted in the server's own code.

    Load-independent: the same number on an idle machine as on a busy one. Includes the
    handshake once (spread over ``n``) and the reading and writing of the in-memory streams.
    """
    out = subprocess.run([python, "-c", _COUNT_CALLS, script, era, str(n)], capture_output=True, text=True,
                         env=client.server_env({"PYTHONPATH": top, "MINIMCP_PATH": top}), timeout=300)
    if out.returncode != 0:
        raise client.BenchError("counting calls failed: %s" % out.stderr[-800:])
    return float(out.stdout.split()[-1])


def render(result: dict, a, meta: dict) -> str:
    out = ["### echo on examples/everything.py beside the echo server — %s" % meta["started"], ""]
    out.append("- machine: %s; load average %s before, %s after" % (meta["machine"], meta["load_before"],
                                                                  meta["load_after"]))
    out.append("- minimcp.py: %s; Python %s in a venv without packages" % (meta["minimcp"], meta["python"]))
    out.append("- %d rounds per era; each starts both servers afresh (%d sequential warm-up calls each), then "
               "sends each %s pipelined `tools/call echo` in %d bursts, the two servers taking turns burst by "
               "burst (A B A B ..., B A B A ... in the next round)"
               % (a.rounds, WARMUP_CALLS, "{:,}".format(a.calls), a.bursts))
    out.append("- command: `python3 bench/everything_echo.py%s`" % (" " + " ".join(a.argv) if a.argv else ""))
    out.append("")
    for era, servers in result.items():
        out.append("#### %s era\n" % era)
        out.append("| server | pipelined calls/s, each round | median | CPU µs per call (median) | threads after "
                   "| function calls per request |")
        out.append("|---|---|---:|---:|---|---:|")
        for label, rows in servers.items():
            out.append("| %s | %s | %s | %.1f | %s | %.1f |" % (
                label, " ".join("{:,.0f}".format(r["rps"]) for r in rows),
                "{:,.0f}".format(statistics.median(r["rps"] for r in rows)),
                statistics.median(r["cpu_us_per_call"] for r in rows),
                " ".join(str(r["threads"]) for r in rows), meta["calls_per_request"][era][label]))
        a_rows, b_rows = list(servers.values())
        ratio = statistics.median(r["rps"] for r in b_rows) / statistics.median(r["rps"] for r in a_rows)
        cpu = (statistics.median(r["cpu_us_per_call"] for r in b_rows)
               / statistics.median(r["cpu_us_per_call"] for r in a_rows))
        # The two servers of a round met the same load; rounds apart did not (their rates differ up to 3x).
        paired = [b["rps"] / x["rps"] for x, b in zip(a_rows, b_rows)]
        out.append("")
        out.append("everything.py / echo server: **%.2f×** the calls/s (ratio of the medians; within 10%%: %s); "
                   "each round's own ratio %s, their median **%.2f×** (within 10%%: %s); %.2f× the CPU time per "
                   "call.\n" % (ratio, "yes" if abs(ratio - 1) <= 0.10 else "**no**",
                               " ".join("%.2f" % x for x in paired), statistics.median(paired),
                               "yes" if abs(statistics.median(paired) - 1) <= 0.10 else "**no**", cpu))
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--calls", type=int, default=10000, help="pipelined calls per server and round")
    ap.add_argument("--bursts", type=int, default=10, help="the round's calls are sent in this many bursts, in turn")
    ap.add_argument("--era", choices=client.ERAS + ("both",), default="both")
    ap.add_argument("--minimcp", default=REPO, help="directory holding minimcp.py")
    ap.add_argument("--examples", default=os.path.join(REPO, "examples"),
                    help="directory holding everything.py and skills/")
    ap.add_argument("--python", default=sys.executable, help="base interpreter of the servers' venv")
    ap.add_argument("--cache", default=os.environ.get("MCPBENCH_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "minimcp-bench"))
    ap.add_argument("--out", help="also write the Markdown here (and the raw JSON beside it)")
    a = ap.parse_args()
    a.argv = sys.argv[1:]
    pyver = subprocess.run([a.python, "-c", "import platform; print(platform.python_version())"],
                           capture_output=True, text=True, check=True).stdout.strip()
    os.makedirs(a.cache, exist_ok=True)
    python, _ = run.ensure_venv(a.cache, a.python, pyver, "stdlib", [], {})
    top = place(a.minimcp, a.examples, python)
    try:
        env = {"MINIMCP_PATH": top}
        servers = [("echo server (bench/servers/minimcp_echo.py)",
                    [python, os.path.join(HERE, "servers", "minimcp_echo.py")]),
                   ("examples/everything.py", [python, os.path.join(top, "examples", "everything.py")])]
        eras = client.ERAS if a.era == "both" else (a.era,)
        meta = {"started": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                "machine": run.machine_info(), "load_before": run.loadavg(), "python": pyver,
                # (the version names the git commit; the temporary directory's name is no hash)
                "minimcp": run.minimcp_version(python, a.minimcp, top).replace(
                    "; sha256 " + top.rsplit("-", 1)[-1], "")}
        result = {era: {label: [] for label, _ in servers} for era in eras}
        t0 = time.time()
        meta["calls_per_request"] = {era: {label: calls_per_request(python, top, cmd[-1], era)
                                           for label, cmd in servers} for era in eras}
        for r in range(a.rounds):
            for era in eras:
                order = run.rotated(servers, r)
                rows = one_round([cmd for _, cmd in order], env, era, a.calls, a.bursts)
                for (label, _), row in zip(order, rows):
                    result[era][label].append(row)
                    run.log("round %d %-8s %-45s %8.0f calls/s  %.1f µs CPU/call  %d threads"
                            % (r + 1, era, label, row["rps"], row["cpu_us_per_call"], row["threads"]))
        meta["load_after"] = run.loadavg()
    finally:
        shutil.rmtree(top, ignore_errors=True)
    md = render(result, a, meta) + "\n_(run took %.0f s)_\n" % (time.time() - t0)
    print(md)
    if a.out:
        with open(a.out, "w") as f:
            f.write(md)
        with open(os.path.splitext(a.out)[0] + ".json", "w") as f:
            json.dump({"meta": meta, "results": result}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
