#!/usr/bin/env python3
"""Streamable HTTP throughput and latency: minimcp (stdlib server, gunicorn) next to the SDKs.

    python3 bench/http_bench.py                       # install pinned competitors, compare, print Markdown
    python3 bench/http_bench.py --quick               # one short round (smoke)
    python3 bench/http_bench.py --servers minimcp,minimcp-gunicorn --era modern

Every server serves the same echo tool (bench/servers/*_echo.py with MCPBENCH_HTTP_PORT set)
on 127.0.0.1, each from a venv of the same base interpreter, installed pinned by the code of
bench/run.py (same cache). All servers run at once; the rounds are interleaved (order rotated
each round), each figure is the median over rounds, and each is also given as a ratio to the
official SDK's figure from the same run. The machine is shared and noisy: compare ratios.

Figures, per era (handshake = 2025-11-25 with a session; modern = 2026-07-28, every POST alone):
  latency      p50 / p90 of one client sending tools/call echo sequentially on one
               keep-alive connection (a server that closes it costs a new connection each time);
  throughput   answered tools/call per second from --concurrency client processes, each on
               its own keep-alive connection (its own session in the handshake era), for
               --duration seconds; every answer is checked.
"""
import argparse
import datetime
import http.client
import json
import multiprocessing
import os
import platform
import socket
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import client  # noqa: E402
import run     # noqa: E402  (the installs: pinned venvs in the shared cache)

GUNICORN_VERSION = "23.0.0"
ALL_SERVERS = ["minimcp", "minimcp-gunicorn", "mcp", "fastmcp"]
REFERENCE = "mcp"                   # ratios are to the official SDK's figure from the same run
HANDSHAKE, MODERN = "2025-11-25", "2026-07-28"
ERAS = ("handshake", "modern")
ENVELOPE = {"io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "http-bench", "version": "1"}}
TIMEOUT = 30.0


class Failed(Exception):
    """A server did not answer as it must."""


# -- one client connection -------------------------------------------------------------

class Conn:
    """One keep-alive connection to a server, speaking one era (with its own session if handshake)."""

    def __init__(self, port: int, era: str) -> None:
        self.port, self.era = port, era
        self.http = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
        self.session = None
        self.next_id = 1
        if era == "handshake":
            status, headers, body = self.post({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": HANDSHAKE, "capabilities": {},
                "clientInfo": {"name": "http-bench", "version": "1"}}}, {})
            if status != 200 or "result" not in (body or {}):
                raise Failed("initialize: %s %s" % (status, body))
            self.session = headers.get("mcp-session-id")
            status, _, _ = self.post({"jsonrpc": "2.0", "method": "notifications/initialized"}, self.headers())
            if status not in (200, 202):
                raise Failed("notifications/initialized: %s" % status)

    def headers(self) -> dict:
        if self.era == "modern":
            return {"MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call", "Mcp-Name": "echo"}
        headers = {"MCP-Protocol-Version": HANDSHAKE}
        if self.session:
            headers["Mcp-Session-Id"] = self.session
        return headers

    def post(self, message: dict, headers: dict):
        body = json.dumps(message).encode("utf-8")
        all_headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        all_headers.update(headers)
        try:
            self.http.request("POST", "/mcp", body=body, headers=all_headers)
            response = self.http.getresponse()
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            self.http.close()             # a server that closed an idle connection: once more, anew
            self.http.request("POST", "/mcp", body=body, headers=all_headers)
            response = self.http.getresponse()
        data = response.read()
        got = {k.lower(): v for k, v in response.getheaders()}
        if response.will_close:
            self.http.close()
        if not data:
            return response.status, got, None
        if got.get("content-type", "").startswith("text/event-stream"):
            for block in data.decode("utf-8").split("\n\n"):
                lines = [line[5:].lstrip() for line in block.split("\n") if line.startswith("data:")]
                if lines:
                    event = json.loads("\n".join(lines))
                    if "id" in event and ("result" in event or "error" in event):
                        return response.status, got, event
            return response.status, got, None
        return response.status, got, json.loads(data)

    def echo(self, text: str) -> None:
        params = {"name": "echo", "arguments": {"text": text}}
        if self.era == "modern":
            params["_meta"] = ENVELOPE
        request_id = self.next_id
        self.next_id += 1
        status, _, body = self.post({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                                     "params": params}, self.headers())
        try:
            ok = status == 200 and body["id"] == request_id and body["result"]["content"][0]["text"] == text
        except (KeyError, IndexError, TypeError):
            ok = False
        if not ok:
            raise Failed("tools/call echo: %s %s" % (status, str(body)[:300]))

    def close(self) -> None:
        self.http.close()


# -- measurements ----------------------------------------------------------------------------

def latency_times(port: int, era: str, count: int) -> list:
    """The seconds each of ``count`` sequential echo calls took, sorted (after 20 to warm up)."""
    conn = Conn(port, era)
    try:
        for i in range(20):                  # warm-up: caches, JIT-free but lazy imports
            conn.echo("warm %d" % i)
        times = []
        for i in range(count):
            started = time.perf_counter()
            conn.echo("latency %d" % i)
            times.append(time.perf_counter() - started)
    finally:
        conn.close()
    return sorted(times)


def latency(port: int, era: str, count: int) -> dict:
    times = latency_times(port, era, count)
    return {"p50_ms": 1000 * times[len(times) // 2], "p90_ms": 1000 * times[int(len(times) * 0.9)]}


def _load_worker(port, era, go, stop_at, results):
    try:
        conn = Conn(port, era)
        conn.echo("warm")
        go.wait()
        done = 0
        while time.monotonic() < stop_at.value:
            conn.echo("load %d" % done)
            done += 1
        conn.close()
        results.put(("ok", done))
    except Exception as e:                    # reported, and the figure is marked failed
        results.put(("error", "%s: %s" % (type(e).__name__, e)))


def throughput(port: int, era: str, concurrency: int, duration: float) -> dict:
    ctx = multiprocessing.get_context("fork")
    go, results = ctx.Event(), ctx.Queue()
    stop_at = ctx.Value("d", 0.0)
    workers = [ctx.Process(target=_load_worker, args=(port, era, go, stop_at, results), daemon=True)
               for _ in range(concurrency)]
    for w in workers:
        w.start()
    time.sleep(0.5)                           # every worker connected (and initialized) before the clock
    stop_at.value = time.monotonic() + duration
    started = time.monotonic()
    go.set()
    outcomes = [results.get(timeout=duration + TIMEOUT) for _ in workers]
    elapsed = time.monotonic() - started
    for w in workers:
        w.join(5)
    errors = [detail for kind, detail in outcomes if kind == "error"]
    if errors:
        raise Failed("load: %s" % errors[0])
    return {"rps": sum(n for _, n in outcomes) / elapsed}


# -- servers ------------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def build(a, wanted):
    """(specs, versions): each spec is (key, label, argv, env)."""
    os.makedirs(a.cache, exist_ok=True)
    pyver = subprocess.run([a.python, "-c", "import platform; print(platform.python_version())"],
                           capture_output=True, text=True, check=True).stdout.strip()
    versions = {"python": pyver}
    servers = os.path.join(HERE, "servers")
    specs = []
    if "minimcp" in wanted or "minimcp-gunicorn" in wanted:
        stdlib_py, _ = run.ensure_venv(a.cache, a.python, pyver, "stdlib", [], {})
        snap = run.snapshot_minimcp(a.cache, stdlib_py, REPO)
        versions["minimcp"] = run.minimcp_version(stdlib_py, REPO, snap)
        if "minimcp" in wanted:
            specs.append(("minimcp", "minimcp, stdlib server", [stdlib_py, os.path.join(servers, "minimcp_echo.py")],
                          {"MINIMCP_PATH": snap}))
        if "minimcp-gunicorn" in wanted:
            gpy, v = run.ensure_venv(a.cache, a.python, pyver, "gunicorn-" + GUNICORN_VERSION,
                                     ["gunicorn==" + GUNICORN_VERSION], {"gunicorn": GUNICORN_VERSION})
            versions["gunicorn"] = v["gunicorn"]
            specs.append(("minimcp-gunicorn", "minimcp, gunicorn 1×8 threads",
                          [os.path.join(os.path.dirname(gpy), "gunicorn"), "minimcp_echo:app", "--chdir", servers,
                           "--workers", "1", "--threads", "8", "--keep-alive", "60", "--log-level", "warning"],
                          {"MINIMCP_PATH": snap}))
    if "mcp" in wanted:
        py, v = run.ensure_venv(a.cache, a.python, pyver, "mcp-" + run.MCP_VERSION, ["mcp==" + run.MCP_VERSION],
                                {"mcp": run.MCP_VERSION})
        versions["mcp"] = v["mcp"]
        specs.append(("mcp", "mcp %s MCPServer, uvicorn" % run.MCP_VERSION,
                      [py, os.path.join(servers, "mcp_sdk_echo.py")], {}))
    if "fastmcp" in wanted:
        py, v = run.ensure_venv(a.cache, a.python, pyver, "fastmcp-" + run.FASTMCP_VERSION,
                                ["fastmcp==" + run.FASTMCP_VERSION], {"fastmcp": run.FASTMCP_VERSION})
        versions["fastmcp"] = "%s (on mcp %s)" % (v["fastmcp"], v.get("mcp"))
        specs.append(("fastmcp", "fastmcp %s, uvicorn" % run.FASTMCP_VERSION,
                      [py, os.path.join(servers, "fastmcp_echo.py")],
                      {"FASTMCP_CHECK_FOR_UPDATES": "off", "FASTMCP_SHOW_SERVER_BANNER": "false"}))
    return specs, versions


class Running:
    def __init__(self, key, label, argv, env, logdir):
        self.key, self.label = key, label
        self.port = free_port()
        if key == "minimcp-gunicorn":
            argv = argv + ["--bind", "127.0.0.1:%d" % self.port]
        self.logfile = os.path.join(logdir, key + ".log")
        with open(self.logfile, "wb") as log:
            self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                         env=client.server_env(dict(env, MCPBENCH_HTTP_PORT=str(self.port))),
                                         start_new_session=True)

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise Failed("%s exited (%s): %s" % (self.key, self.proc.returncode, self.tail()))
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)               # still importing
        raise Failed("%s did not listen within 60 s: %s" % (self.key, self.tail()))

    def tail(self) -> str:
        with open(self.logfile, "rb") as f:
            return f.read()[-1500:].decode("utf-8", "replace")

    def stop(self) -> None:
        import signal
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)


# -- the comparison -----------------------------------------------------------------------------

def compare(running, eras, a):
    samples = {(r.key, era): {"p50_ms": [], "p90_ms": [], "rps": []} for r in running for era in eras}
    status = {}
    for era in eras:                         # a server that cannot speak an era is n/a, not a failure
        for r in running:
            try:
                Conn(r.port, era).echo("probe")
            except (Failed, OSError, http.client.HTTPException) as e:
                status[(r.key, era)] = "n/a: %s" % str(e)[:200]
                run.log("%s, %s era: %s" % (r.key, era, status[(r.key, era)]))
    for round_no in range(a.rounds):
        order = running[round_no % len(running):] + running[:round_no % len(running)]
        for era in eras:
            for r in order:
                if (r.key, era) in status:
                    continue
                try:
                    lat = latency(r.port, era, a.latency_count)
                    thr = throughput(r.port, era, a.concurrency, a.duration)
                except (Failed, OSError, http.client.HTTPException) as e:
                    status[(r.key, era)] = "FAILED: %s" % str(e)[:300]
                    run.log("%s, %s era: %s" % (r.key, era, status[(r.key, era)]))
                    continue
                for name, value in list(lat.items()) + list(thr.items()):
                    samples[(r.key, era)][name].append(value)
                run.log("round %d %-17s %-9s p50 %.2f ms p90 %.2f ms, %.0f req/s"
                        % (round_no + 1, r.key, era, lat["p50_ms"], lat["p90_ms"], thr["rps"]))
    result = {}
    for (key, era), values in samples.items():
        if (key, era) in status:
            result.setdefault(key, {})[era] = {"status": status[(key, era)]}
        else:
            result.setdefault(key, {})[era] = {name: statistics.median(v) for name, v in values.items()}
    return result


def markdown(running, eras, result, versions, a, meta) -> str:
    lines = ["Streamable HTTP, tools/call echo; %s; %s, %d cores; load average %s before, %s after."
             % (meta["when"], meta["machine"], os.cpu_count() or 0, meta["load_before"], meta["load_after"]),
             "minimcp %s. Versions: %s." % (versions.get("minimcp", "?"), ", ".join(
                 "%s %s" % kv for kv in sorted(versions.items()) if kv[0] != "minimcp")),
             "Median of %d interleaved rounds; latency over %d sequential calls on one connection; throughput "
             "from %d client processes, one keep-alive connection each, %.0f s per figure. "
             "Ratios (×) are to %s in the same run: above 1 is more requests/s, below 1 is lower latency."
             % (a.rounds, a.latency_count, a.concurrency, a.duration, REFERENCE), ""]
    for era in eras:
        lines += ["#### %s era" % ("2025-11-25 handshake (one session per connection)" if era == "handshake"
                                     else "2026-07-28 (every POST stands alone)"), "",
                  "| server | throughput req/s | × %s | p50 ms | × %s | p90 ms | × %s |" % ((REFERENCE,) * 3),
                  "|---|---:|---:|---:|---:|---:|---:|"]
        ref = result.get(REFERENCE, {}).get(era, {})
        for r in running:
            fig = result[r.key][era]
            if "status" in fig:
                lines.append("| %s | %s | | | | | |" % (r.label, fig["status"].replace("|", "/")))
                continue

            def ratio(name):
                return "%.2f" % (fig[name] / ref[name]) if name in ref and ref[name] else "–"
            lines.append("| %s | %.0f | %s | %.2f | %s | %.2f | %s |" % (
                r.label, fig["rps"], ratio("rps"), fig["p50_ms"], ratio("p50_ms"), fig["p90_ms"], ratio("p90_ms")))
        lines.append("")
    return "\n".join(lines)


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--servers", default=",".join(ALL_SERVERS))
    ap.add_argument("--era", choices=ERAS + ("both",), default="both")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--concurrency", type=int, default=4)
    ap.add_argument("--duration", type=float, default=3.0)
    ap.add_argument("--latency-count", type=int, default=300)
    ap.add_argument("--quick", action="store_true", help="one short round")
    ap.add_argument("--cache", default=os.environ.get("MCPBENCH_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "minimcp-bench"))
    ap.add_argument("--python", default=sys.executable, help="base interpreter of every server's venv")
    ap.add_argument("--out", help="also write the Markdown here (and the raw JSON beside it)")
    a = ap.parse_args()
    if a.quick:
        a.rounds, a.duration, a.latency_count = 1, 1.0, 50
    wanted = [s.strip() for s in a.servers.split(",") if s.strip()]
    bad = [s for s in wanted if s not in ALL_SERVERS]
    if bad:
        ap.error("unknown server(s): %s" % ", ".join(bad))
    eras = ERAS if a.era == "both" else (a.era,)
    specs, versions = build(a, wanted)
    import tempfile
    logdir = tempfile.mkdtemp(prefix="minimcp-http-bench.")
    running = []
    meta = {"when": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "machine": "%s %s, %s" % (platform.system(), platform.machine(), cpu_model()),
            "load_before": "%.2f" % os.getloadavg()[0]}
    try:
        for key, label, argv, env in specs:
            running.append(Running(key, label, argv, env, logdir))
        for r in running:
            r.wait_ready()
        run.log("serving: %s" % ", ".join("%s on %d" % (r.key, r.port) for r in running))
        result = compare(running, eras, a)
    finally:
        for r in running:
            r.stop()
    meta["load_after"] = "%.2f" % os.getloadavg()[0]
    text = markdown(running, eras, result, versions, a, meta)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")
        with open(os.path.splitext(a.out)[0] + ".json", "w") as f:
            json.dump({"meta": meta, "versions": versions, "args": vars(a), "result": result}, f, indent=1)
    failed = [k for k, eras_ in result.items() for e, fig in eras_.items() if fig.get("status", "").startswith("F")]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
