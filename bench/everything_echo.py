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
(everything.py / echo server), and the server's own CPU time per call (summed over its threads
from /proc/PID/task/*/schedstat), which the machine's load moves far less than the wall-clock
rate, plus its thread count after the round (more than the reader and the pool's watcher means
that the reader stepped aside during the bursts).

The machine is shared: read the ratios, and the load average printed with them.
"""
import argparse
import datetime
import json
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
    """A temporary directory holding minimcp.py (compiled) and examples/everything.py with its skills."""
    top = tempfile.mkdtemp(prefix="minimcp-everything-echo-")
    shutil.copyfile(os.path.join(minimcp_dir, "minimcp.py"), os.path.join(top, "minimcp.py"))
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
        out.append("| server | pipelined calls/s, each round | median | CPU µs per call (median) | threads after |")
        out.append("|---|---|---:|---:|---|")
        for label, rows in servers.items():
            out.append("| %s | %s | %s | %.1f | %s |" % (
                label, " ".join("{:,.0f}".format(r["rps"]) for r in rows),
                "{:,.0f}".format(statistics.median(r["rps"] for r in rows)),
                statistics.median(r["cpu_us_per_call"] for r in rows),
                " ".join(str(r["threads"]) for r in rows)))
        a_rows, b_rows = list(servers.values())
        ratio = statistics.median(r["rps"] for r in b_rows) / statistics.median(r["rps"] for r in a_rows)
        cpu = (statistics.median(r["cpu_us_per_call"] for r in b_rows)
               / statistics.median(r["cpu_us_per_call"] for r in a_rows))
        out.append("")
        out.append("everything.py / echo server: **%.2f×** the calls/s (medians; within 10%%: %s), "
                   "%.2f× the CPU time per call.\n" % (ratio, "yes" if abs(ratio - 1) <= 0.10 else "**no**", cpu))
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
        servers = [("echo server (bench/servers/minimcp_echo.py)", [python, os.path.join(HERE, "servers", "minimcp_echo.py")]),
                   ("examples/everything.py", [python, os.path.join(top, "examples", "everything.py")])]
        eras = client.ERAS if a.era == "both" else (a.era,)
        meta = {"started": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                "machine": run.machine_info(), "load_before": run.loadavg(), "python": pyver,
                "minimcp": run.minimcp_version(python, a.minimcp, top).replace("; sha256 " + top.rsplit("-", 1)[-1], "")}
        result = {era: {label: [] for label, _ in servers} for era in eras}
        t0 = time.time()
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
