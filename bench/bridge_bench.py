#!/usr/bin/env python3
"""The bridge next to mcp-remote: start-up, and what a bridge adds to each call (issue 39).

    python3 bench/bridge_bench.py                 # install mcp-remote (pinned), compare, print Markdown
    python3 bench/bridge_bench.py --quick         # a short round (smoke)
    python3 bench/bridge_bench.py --out bench/bridge_latest.md

One upstream for everyone: minimcp's HTTP server with the echo tool (bench/servers/minimcp_echo.py,
MCPBENCH_HTTP_PORT) on 127.0.0.1. The bridges are started as a host starts a stdio server,
from the same environment (client.SCRUB_ENV removed: no PYTHONDONTWRITEBYTECODE, which this
machine sets globally), with the bench's stdio client (client.py) as the host:

  minimcp bridge        the command `config --client claude --url URL` writes, run as the host
                        runs it: python3 -I -S -c "...import minimcp, minimcp_bridge..." URL
                        (the core and the bridge from cached bytecode, no site-packages)
  minimcp.py bridge     python3 minimcp.py bridge URL (minimcp.py, the core, is compiled at
                        every start, as a script is never cached)
  minimcp_bridge.py     python3 minimcp_bridge.py URL (the bridge's file compiled at every start;
                        minimcp.py, which it imports, is not)
  mcp-remote            node .../mcp-remote/dist/proxy.js URL, npm mcp-remote (pinned), as
                        `npx mcp-remote URL` runs it once installed (npx's own start not counted)

Figures, all from one run, rounds interleaved with the order rotated each round:
  start-up      spawn -> initialize answered -> first tools/list answered (median of --reps),
                and the CPU time the bridge used from spawn to exit (getrusage of the waited-for
                child: what load does not change);
  per call      p50 / p90 of sequential tools/call echo through the bridge, and the same calls
                from a direct HTTP client (http_bench.Conn, one keep-alive connection, its own
                session) in the same rounds: a bridge's added latency is its p50 minus the direct p50.
The goals (issue 39): start-up at most a third of mcp-remote's; per-call overhead no worse.
"""
import argparse
import datetime
import json
import os
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import client       # noqa: E402  (the stdio host: spawn timing, sequential calls)
import http_bench   # noqa: E402  (the direct HTTP client)
import run          # noqa: E402  (pinned installs in the shared cache)

MCP_REMOTE_VERSION = "0.15.1"


def ensure_mcp_remote(cache: str) -> str:
    """mcp-remote, pinned, in the cache: the path of its proxy.js."""
    d = os.path.join(cache, "node-mcp-remote-%s" % MCP_REMOTE_VERSION)
    proxy = os.path.join(d, "node_modules", "mcp-remote", "dist", "proxy.js")
    ok = os.path.join(d, ".mcpbench-ok")
    if not os.path.exists(ok):
        if os.path.exists(d):
            shutil.rmtree(d)
        os.makedirs(d)
        with open(os.path.join(d, "package.json"), "w") as f:
            json.dump({"name": "mcpbench-mcp-remote", "private": True}, f)
        npm = shutil.which("npm") or sys.exit("\nINSTALL FAILED: npm not found on PATH")
        run.log("npm install mcp-remote@%s" % MCP_REMOTE_VERSION)
        run._run_logged([npm, "install", "--no-audit", "--no-fund", "--save-exact", "--ignore-scripts",
                         "mcp-remote@" + MCP_REMOTE_VERSION], d + ".log", cwd=d)
        with open(os.path.join(d, "node_modules", "mcp-remote", "package.json")) as f:
            got = json.load(f)["version"]
        if got != MCP_REMOTE_VERSION:
            sys.exit("\nINSTALL FAILED: mcp-remote is %s, wanted %s" % (got, MCP_REMOTE_VERSION))
        open(ok, "w").close()
    return proxy


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_upstream(python: str, port: int) -> subprocess.Popen:
    process = subprocess.Popen([python, os.path.join(HERE, "servers", "minimcp_echo.py")],
                               env=client.server_env({"MCPBENCH_HTTP_PORT": str(port)}),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process
        except OSError:
            if process.poll() is not None:
                sys.exit("the upstream exited with status %s" % process.returncode)
            time.sleep(0.05)
    process.kill()
    sys.exit("the upstream did not listen within 20 s")


def config_entry(python: str, url: str) -> list:
    """The command ``config --url`` writes into a host's entry (its interpreter: ``python``)."""
    done = subprocess.run([python, os.path.join(REPO, "minimcp.py"), "config", "--client", "claude", "--name",
                           "bench", "--url", url], capture_output=True, text=True, env=client.server_env({}))
    if done.returncode != 0:
        sys.exit("config --url failed: %s" % done.stderr)
    entry = json.loads(done.stdout)["mcpServers"]["bench"]
    return [entry["command"]] + entry["args"]


def bridges(python: str, node: str, proxy: str, url: str) -> list:
    """(label, command, extra environment) of each bridge compared."""
    return [
        ("minimcp bridge", config_entry(python, url) + ["-q"], {}),
        ("minimcp.py bridge", [python, os.path.join(REPO, "minimcp.py"), "bridge", url, "-q"], {}),
        ("minimcp_bridge.py", [python, os.path.join(REPO, "minimcp_bridge.py"), url, "-q"], {}),
        ("mcp-remote", [node, proxy, url], {}),
    ]


def per_call(label_cmd_env, calls: int, era: str) -> list:
    label, command, env = label_cmd_env
    server = client.Server(command, env, REPO, "legacy" if era == "handshake" else "modern")
    with server:
        server.open(30.0)
        client.run_sequential(server, 20)                  # warm: connections, lazy imports
        return client.run_sequential(server, calls)


def compare(entries: list, port: int, a) -> dict:
    result = {"startup": {label: [] for label, _, _ in entries}, "startup_cpu": {label: [] for label, _, _ in entries},
              "calls": {era: {label: [] for label in ["direct HTTP"] + [e[0] for e in entries]}
                        for era in ("handshake", "modern")}}
    for entry in entries:                              # warm: bytecode caches, node's compile cache
        client.measure_spawn(entry[1], entry[2], REPO, "legacy")
    for rep in range(a.reps):
        for label, command, env in run.rotated(entries, rep):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            result["startup"][label].append(client.measure_spawn(command, env, REPO, "legacy")["list_ms"])
            after = resource.getrusage(resource.RUSAGE_CHILDREN)     # (the bridge is waited for: it is counted)
            result["startup_cpu"][label].append(1000 * (after.ru_utime - before.ru_utime
                                                        + after.ru_stime - before.ru_stime))
    for rnd in range(a.rounds):
        for era in ("handshake", "modern"):
            runs = [("direct HTTP", None)] + [(entry[0], entry) for entry in entries
                                              if era == "handshake" or entry[0] != "mcp-remote"]
            for label, entry in run.rotated(runs, rnd):
                times = (http_bench.latency_times(port, era, a.calls) if entry is None
                         else per_call(entry, a.calls, era))
                result["calls"][era][label].extend(times)
    return result


def summarize(result: dict) -> dict:
    out = {"startup_ms": {}, "calls": {}}
    for label, values in result["startup"].items():
        out["startup_ms"][label] = {"median": statistics.median(values), "min": min(values), "n": len(values),
                                    "cpu_median": statistics.median(result["startup_cpu"][label])}
    for era, by_label in result["calls"].items():
        out["calls"][era] = {}
        for label, times in by_label.items():
            if times:
                times = sorted(times)
                out["calls"][era][label] = {"p50_ms": 1000 * times[len(times) // 2],
                                            "p90_ms": 1000 * times[int(len(times) * 0.9)], "n": len(times)}
    return out


def markdown(summary: dict, meta: dict) -> str:
    start = summary["startup_ms"]
    remote = start["mcp-remote"]["median"]
    lines = ["# The bridge next to mcp-remote", "",
             "%s; Python %s, Node %s, mcp-remote %s; load average %s before, %s after; %s." % (
                 meta["machine"], meta["python"], meta["node"], MCP_REMOTE_VERSION, meta["load_before"],
                 meta["load_after"], meta["when"]),
             "Upstream: minimcp's HTTP server (bench/servers/minimcp_echo.py) on 127.0.0.1. `python3 %s`." % (
                 " ".join(meta["argv"])), "",
             "## Start-up: spawn to the first tools/list answer", "",
             "| bridge | median | min | vs mcp-remote | CPU, spawn to exit (median) |", "|---|---|---|---|---|"]
    for label, figures in start.items():
        lines.append("| %s | %.0f ms | %.0f ms | %.2f× | %.0f ms |" % (
            label, figures["median"], figures["min"], figures["median"] / remote, figures["cpu_median"]))
    for era, by_label in summary["calls"].items():
        direct = by_label["direct HTTP"]["p50_ms"]
        lines += ["", "## Per call, %s era: tools/call echo, sequential" % era, "",
                  "| path | p50 | p90 | added to a direct HTTP call (p50) |", "|---|---|---|---|"]
        for label, figures in by_label.items():
            added = "" if label == "direct HTTP" else "%+.3f ms" % (figures["p50_ms"] - direct)
            lines.append("| %s | %.3f ms | %.3f ms | %s |" % (label, figures["p50_ms"], figures["p90_ms"], added))
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=15, help="start-ups per bridge (default 15)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of calls (default 5)")
    parser.add_argument("--calls", type=int, default=200, help="calls per bridge per round (default 200)")
    parser.add_argument("--quick", action="store_true", help="3 start-ups, 1 round of 50 calls")
    parser.add_argument("--out", help="also write the Markdown here (and the figures as JSON beside it)")
    parser.add_argument("--cache", default=os.environ.get("MCPBENCH_CACHE") or os.path.expanduser("~/.cache/minimcp-bench"))
    a = parser.parse_args()
    if a.quick:
        a.reps, a.rounds, a.calls = 3, 1, 50
    node = shutil.which("node") or sys.exit("node is needed for mcp-remote")
    proxy = ensure_mcp_remote(a.cache)
    pyver = "%d.%d" % sys.version_info[:2]
    python, _ = run.ensure_venv(a.cache, sys.executable, pyver, "stdlib", [], {})
    port = free_port()
    upstream = start_upstream(python, port)
    load_before = run.loadavg()
    try:
        result = compare(bridges(python, node, proxy, "http://127.0.0.1:%d/mcp" % port), port, a)
    finally:
        upstream.terminate()
        upstream.wait(15)
    summary = summarize(result)
    meta = {"machine": run.machine_info(), "python": sys.version.split()[0],
            "node": subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip(),
            "load_before": load_before, "load_after": run.loadavg(), "argv": ["bench/bridge_bench.py"] + sys.argv[1:],
            "when": datetime.datetime.now().strftime("%Y-%m-%d %H:%M")}
    text = markdown(summary, meta)
    sys.stdout.write(text)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text)
        with open(os.path.splitext(a.out)[0] + ".json", "w", encoding="utf-8") as f:
            json.dump({"meta": meta, "summary": summary, "raw": result}, f, indent=1)
    start = summary["startup_ms"]
    ratio = start["minimcp bridge"]["median"] / start["mcp-remote"]["median"]
    calls = summary["calls"]["handshake"]
    direct = calls["direct HTTP"]["p50_ms"]
    ours, theirs = calls["minimcp bridge"]["p50_ms"] - direct, calls["mcp-remote"]["p50_ms"] - direct
    sys.stderr.write("start-up: %.2f of mcp-remote's (goal: at most 0.33); added per call: %.3f ms, mcp-remote "
                     "%.3f ms (goal: no worse)\n" % (ratio, ours, theirs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
