#!/usr/bin/env python3
"""Every per-message figure of bench/, for minimcp.py now and at an older commit, interleaved in one run.

    python3 bench/vs_rev.py                         # against 82c0ebb, the commit before issue 29's work
    python3 bench/vs_rev.py --rev abc1234 --rounds 5 --out bench/vs_82c0ebb.md
    python3 bench/vs_rev.py --quick                 # one short round (smoke)

The older file is taken with ``git show REV:minimcp.py`` into a temporary directory, the current
one (``--minimcp DIR``, default: the repository) is copied beside it, and both are compiled once.
Both serve bench/servers/minimcp_echo.py from run.py's venv without packages. In every round,
for each era, the two servers run at once and take turns in small pieces, so that both meet the
same load (the machine is shared; its load moves absolute figures by up to 3x within a minute):

  sequential echo p50 / p90 / p99   ``--seq`` calls each, one call each in turn
  pipelined echo calls/s            ``--calls`` each, in ``--bursts`` bursts taken in turn;
                                    also the server's CPU time per call (/proc schedstat)
  1 MiB / 10 MiB echo round trip    5 and 3 of each, in turn
  tools/list with N tools           (legacy era) both started with MCPBENCH_TOOLS=N-1, 5 full
                                    lists each, in turn, for N = 10, 100, 1,000, 10,000
  function calls per echo request   once per revision and era, in process (everything_echo.py's
                                    ``calls_per_request``): the same on an idle machine as on a busy one
  Streamable HTTP p50 / p90 / calls/s  (``--http``) both serving HTTP on loopback; bench/http_bench.py's
                                    sequential latency and its 4-process throughput, in turn

The figure of a round is the piece-wise figure above, the reported figure is its median over
rounds, and ratios are current / old: above 1 is more calls/s, below 1 less time. Each round's
ratio is taken (the two servers of a round met the same load), and their median is the ratio
judged: more than 5% the wrong way is marked **worse**. The ratio of the medians is shown too.
The order of the two is swapped every round.
"""
import argparse
import datetime
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import client          # noqa: E402
import run             # noqa: E402
from everything_echo import calls_per_request, cpu_ns   # noqa: E402

ECHO = os.path.join(HERE, "servers", "minimcp_echo.py")
DEFAULT_REV = "82c0ebb"      # the parent of a3f481f, the first commit that names issue 29
TOOL_COUNTS = (10, 100, 1000, 10000)
WORSE = 0.05

# figure key -> (label, higher is better, digits)
FIGURES = [
    ("seq_p50_us", "sequential echo p50 (µs)", False, 0),
    ("seq_p90_us", "sequential echo p90 (µs)", False, 0),
    ("seq_p99_us", "sequential echo p99 (µs)", False, 0),
    ("pipe_rps", "pipelined echo (calls/s)", True, 0),
    ("pipe_cpu_us", "server CPU per pipelined call (µs)", False, 1),
    ("big_1_ms", "1 MiB echo round trip (ms)", False, 1),
    ("big_10_ms", "10 MiB echo round trip (ms)", False, 1),
] + [("list_%d_ms" % n, "tools/list, %s tools (ms)" % "{:,}".format(n), False, 2) for n in TOOL_COUNTS] + [
    ("http_p50_ms", "HTTP echo p50 (ms)", False, 2),
    ("http_p90_ms", "HTTP echo p90 (ms)", False, 2),
    ("http_rps", "HTTP echo, 4 client processes (calls/s)", True, 0),
]


def place(directory: str, source: bytes, python: str) -> str:
    os.makedirs(directory)
    path = os.path.join(directory, "minimcp.py")
    with open(path, "wb") as f:
        f.write(source)
    subprocess.run([python, "-c", "import py_compile, sys; py_compile.compile(sys.argv[1], doraise=True)", path],
                   check=True, env=client.server_env())
    return directory


def opened(python: str, directory: str, era: str, extra_env: dict = None) -> client.Server:
    srv = client.Server([python, ECHO], dict(extra_env or {}, MINIMCP_PATH=directory), None, era)
    srv.open(60)
    srv.list_tools(120)
    return srv


def stdio_round(python: str, dirs: list, era: str, a) -> list:
    """Sequential, pipelined and big echoes, the servers (both up) taking turns piece by piece."""
    servers = []
    try:
        for d in dirs:
            srv = opened(python, d, era)
            servers.append(srv)
            client.run_sequential(srv, 200, 60)              # warm-up
        out = [{} for _ in servers]
        lat = [[] for _ in servers]
        for k in range(a.seq):                     # one call each in turn: a pair meets the same load
            for i, srv in enumerate(servers):
                rid, data = srv.request_bytes("tools/call", {"name": "echo", "arguments": {"text": "seq-%d" % k}})
                t0 = time.perf_counter()
                srv.write(data)
                line = srv.readline(60)
                lat[i].append(time.perf_counter() - t0)
                resp = json.loads(line)
                if resp.get("id") != rid or client.echo_text(resp) != "seq-%d" % k:
                    raise client.BenchError("sequential echo came back wrong: %r" % line[:200])
        spent, used = [0.0] * len(servers), [0] * len(servers)
        per_burst = max(1, a.calls // a.bursts)
        for _ in range(a.bursts):
            for i, srv in enumerate(servers):
                before = cpu_ns(srv.pid)
                spent[i] += per_burst / client.run_pipelined(srv, per_burst, 120)
                used[i] += cpu_ns(srv.pid) - before
        big = {1: [[] for _ in servers], 10: [[] for _ in servers]}
        for mib, reps in ((1, a.big1), (10, a.big10)):
            for _ in range(reps):
                for i, srv in enumerate(servers):
                    big[mib][i].append(client.run_big_echo(srv, mib * client.MiB) * 1000)
        for i, srv in enumerate(servers):
            lat[i].sort()
            out[i].update({"seq_p50_us": client.percentile(lat[i], 50) * 1e6,
                           "seq_p90_us": client.percentile(lat[i], 90) * 1e6,
                           "seq_p99_us": client.percentile(lat[i], 99) * 1e6,
                           "pipe_rps": per_burst * a.bursts / spent[i],
                           "pipe_cpu_us": used[i] / 1000.0 / (per_burst * a.bursts),
                           "big_1_ms": statistics.median(big[1][i]), "big_10_ms": statistics.median(big[10][i])})
            _, code = srv.close()
            if code != 0:
                raise client.BenchError("a server exited %s after the calls" % code)
        return out
    finally:
        for srv in servers:
            srv.__exit__(None, None, None)


def list_round(python: str, dirs: list, counts, reps: int = 5) -> list:
    """tools/list (every page) with N tools, both servers up, one list each in turn."""
    out = [{} for _ in dirs]
    for n in counts:
        servers = []
        try:
            for d in dirs:
                servers.append(opened(python, d, "legacy", {"MCPBENCH_TOOLS": str(n - 1)}))
            times = [[] for _ in servers]
            for _ in range(reps):
                for i, srv in enumerate(servers):
                    t0 = time.perf_counter()
                    tools = srv.list_tools(120)
                    times[i].append((time.perf_counter() - t0) * 1000)
                    if len(tools) != n:
                        raise client.BenchError("listed %d tools, expected %d" % (len(tools), n))
            for i, srv in enumerate(servers):
                out[i]["list_%d_ms" % n] = statistics.median(times[i])
                srv.close()
        finally:
            for srv in servers:
                srv.__exit__(None, None, None)
    return out


def http_round(python: str, dirs: list, era: str, a, logdir: str) -> list:
    import http_bench
    running = [http_bench.Running("minimcp-%d" % i, "minimcp", [python, ECHO], {"MINIMCP_PATH": d}, logdir)
               for i, d in enumerate(dirs)]
    try:
        for r in running:
            r.wait_ready()
        http_era = "handshake" if era == "legacy" else "modern"
        out = []
        for r in running:
            http_bench.latency(r.port, http_era, 20)          # warm-up
        for r in running:
            lat = http_bench.latency(r.port, http_era, a.http_latency)
            out.append({"http_p50_ms": lat["p50_ms"], "http_p90_ms": lat["p90_ms"]})
        for i, r in enumerate(running):
            out[i]["http_rps"] = http_bench.throughput(r.port, http_era, 4, a.http_duration)["rps"]
        return out
    finally:
        for r in running:
            r.stop()


def render(result: dict, meta: dict, a) -> str:
    out = ["### Per-message figures: minimcp.py now against %s — %s" % (meta["rev"], meta["started"]), ""]
    out.append("- machine: %s; load average %s before, %s after" % (meta["machine"], meta["load_before"],
                                                                  meta["load_after"]))
    out.append("- current: %s; old: `git show %s:minimcp.py` (%s); Python %s in a venv without packages"
               % (meta["current"], meta["rev"], meta["rev_subject"], meta["python"]))
    out.append("- %d rounds, the order of the two swapped each round; per round and era: %s sequential calls "
               "(one each in turn), %s pipelined calls in %d bursts, 1 MiB ×%d and 10 MiB ×%d, the two servers up at "
               "once and taking turns piece by piece; tools/list: 5 lists each in turn%s"
               % (a.rounds, "{:,}".format(a.seq), "{:,}".format(a.calls), a.bursts, a.big1, a.big10,
                  "; HTTP: %d sequential calls, then %.0f s of 4 client processes, each server in turn"
                  % (a.http_latency, a.http_duration) if a.http else ""))
    out.append("- command: `python3 bench/vs_rev.py%s`" % (" " + " ".join(a.argv) if a.argv else ""))
    out.append("- figures are medians over rounds; ratios are current / old; the one judged is the median of "
               "the rounds' own ratios (the two servers of a round met the same load); **worse** = more than "
               "%d%% the wrong way" % round(WORSE * 100))
    out.append("")
    worse = []
    for era, rows in result.items():
        out.append("#### %s era\n" % era)
        out.append("| figure | old (%s) | current | ratio of medians | median of the rounds' ratios | "
                   "each round (current / old) |" % meta["rev"])
        out.append("|---|---:|---:|---:|---:|---|")
        for key, label, higher, digits in FIGURES:
            cur = [r[key] for r in rows["current"] if key in r]
            old = [r[key] for r in rows["old"] if key in r]
            if not cur or not old:
                continue
            mc, mo = statistics.median(cur), statistics.median(old)
            # The two of a round met the same load: the median of the rounds' own ratios is the figure
            # judged; the ratio of the medians is given beside it.
            paired = statistics.median(c / o for c, o in zip(cur, old))
            ratio = mc / mo
            bad = paired < 1 - WORSE if higher else paired > 1 + WORSE
            if bad:
                worse.append("%s, %s era" % (label, era))
            fmt = "{:,.%df}" % digits
            out.append("| %s | %s | %s | %.3f | %.3f%s | %s |" % (
                label, fmt.format(mo), fmt.format(mc), ratio, paired, " **worse**" if bad else "",
                " ".join("%.2f" % (c / o) for c, o in zip(cur, old))))
        counts = meta.get("calls_per_request", {}).get(era)
        if counts:
            out.append("")
            out.append("Function calls per echo request, counted in process on one thread (sys.setprofile; the "
                       "load cannot move it): old %.1f, current %.1f." % (counts["old"], counts["current"]))
        out.append("")
    out.append("Worse by more than %d%%: %s." % (round(WORSE * 100), ", ".join(worse) if worse else "none"))
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rev", default=DEFAULT_REV, help="the older commit (default %s)" % DEFAULT_REV)
    ap.add_argument("--minimcp", default=REPO, help="directory holding the current minimcp.py")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--era", choices=client.ERAS + ("both",), default="both")
    ap.add_argument("--seq", type=int, default=2000, help="sequential calls per server, round and era")
    ap.add_argument("--calls", type=int, default=10000, help="pipelined calls per server, round and era")
    ap.add_argument("--bursts", type=int, default=10)
    ap.add_argument("--big1", type=int, default=5)
    ap.add_argument("--big10", type=int, default=3)
    ap.add_argument("--no-lists", dest="lists", action="store_false", help="leave out the tools/list figures")
    ap.add_argument("--http", action="store_true", help="also the Streamable HTTP figures")
    ap.add_argument("--http-latency", type=int, default=300)
    ap.add_argument("--http-duration", type=float, default=2.0)
    ap.add_argument("--quick", action="store_true", help="one short round (smoke)")
    ap.add_argument("--python", default=sys.executable, help="base interpreter of the servers' venv")
    ap.add_argument("--cache", default=os.environ.get("MCPBENCH_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "minimcp-bench"))
    ap.add_argument("--out", help="also write the Markdown here (and the raw JSON beside it)")
    a = ap.parse_args()
    a.argv = sys.argv[1:]
    if a.quick:
        a.rounds, a.seq, a.calls, a.bursts, a.big1, a.big10 = 1, 200, 2000, 4, 1, 1
        a.http_latency, a.http_duration = 50, 0.5
    old_source = subprocess.run(["git", "-C", REPO, "show", "%s:minimcp.py" % a.rev], capture_output=True,
                                check=True).stdout
    subject = subprocess.run(["git", "-C", REPO, "log", "-1", "--format=%h %s", a.rev], capture_output=True,
                             text=True, check=True).stdout.strip()
    pyver = subprocess.run([a.python, "-c", "import platform; print(platform.python_version())"],
                           capture_output=True, text=True, check=True).stdout.strip()
    os.makedirs(a.cache, exist_ok=True)
    python, _ = run.ensure_venv(a.cache, a.python, pyver, "stdlib", [], {})
    top = tempfile.mkdtemp(prefix="minimcp-vs-rev-")
    try:
        with open(os.path.join(a.minimcp, "minimcp.py"), "rb") as f:
            current = place(os.path.join(top, "current"), f.read(), python)
        old = place(os.path.join(top, "old"), old_source, python)
        version = run.minimcp_version(python, a.minimcp, current)
        meta = {"rev": a.rev, "rev_subject": subject[:90].replace("|", "/"), "python": pyver,
                "current": version.split("; sha256")[0] + (")" if "; sha256" in version else ""),
                "started": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                "machine": run.machine_info(), "load_before": run.loadavg()}
        eras = client.ERAS if a.era == "both" else (a.era,)
        labels = ["current", "old"]
        result = {era: {"current": [], "old": []} for era in eras}
        t0 = time.time()
        meta["calls_per_request"] = {era: {x: calls_per_request(python, current if x == "current" else old, ECHO, era)
                                           for x in labels} for era in eras}
        for r in range(a.rounds):
            order = labels if r % 2 == 0 else labels[::-1]
            dirs = [current if x == "current" else old for x in order]
            for era in eras:
                rows = stdio_round(python, dirs, era, a)
                if a.lists and era == "legacy":
                    for row, extra in zip(rows, list_round(python, dirs, (10, 1000) if a.quick else TOOL_COUNTS)):
                        row.update(extra)
                if a.http:
                    for row, extra in zip(rows, http_round(python, dirs, era, a, top)):
                        row.update(extra)
                for x, row in zip(order, rows):
                    result[era][x].append(row)
                c, o = result[era]["current"][-1], result[era]["old"][-1]
                run.log("round %d %s: pipelined %.0f / %.0f calls/s, p50 %.0f / %.0f µs (current / old)"
                        % (r + 1, era, c["pipe_rps"], o["pipe_rps"], c["seq_p50_us"], o["seq_p50_us"]))
        meta["load_after"] = run.loadavg()
    finally:
        shutil.rmtree(top, ignore_errors=True)
    md = render(result, meta, a) + "\n\n_(run took %.0f s)_\n" % (time.time() - t0)
    print(md)
    if a.out:
        with open(a.out, "w") as f:
            f.write(md)
        with open(os.path.splitext(a.out)[0] + ".json", "w") as f:
            json.dump({"meta": meta, "results": result}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
