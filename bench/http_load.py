#!/usr/bin/env python3
"""Streamable HTTP under load: 50 concurrent clients, with keep-alive and without (issue 28).

    python3 bench/http_load.py                      # install the pinned competitors, measure, print Markdown
    python3 bench/http_load.py --out bench/http_load_latest.md
    python3 bench/http_load.py --quick              # 1 s per figure (smoke)

Servers, all started at once on 127.0.0.1 and serving the same echo tool (bench/servers/*_echo.py),
each in a venv of the same base interpreter, installed pinned into a throwaway directory
(``--cache DIR`` keeps and reuses one instead):

  minimcp            the stdlib server (``app.run(transport="http")``);
  minimcp-gunicorn   gunicorn 1 worker x 8 threads, as the README says;
  mcp                the official SDK (mcp, pinned in bench/run.py) on uvicorn: the reference.

The client is the same for all: ``--clients`` threads spread over ``--processes`` processes,
each sending tools/call echo back to back for ``--duration`` seconds, every answer checked.
"keep-alive": each client keeps one connection; "close": each request on a new connection
(``Connection: close``). Figures: p50 and p99 of every request's latency, answered requests per
second, and each as a ratio to the SDK's figure from the same run. The rounds are interleaved
(server order rotated); each figure is the median over rounds. The machine is shared and
noisy: compare the ratios.
"""
import argparse
import datetime
import http.client
import json
import multiprocessing
import os
import platform
import shutil
import statistics
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import http_bench  # noqa: E402  (the servers: build() and Running, installs through run.py)
import run         # noqa: E402

SERVERS = ["minimcp", "minimcp-gunicorn", "mcp"]
REFERENCE = "mcp"
MODES = ("keep-alive", "close")
ERAS = ("handshake", "modern")
TIMEOUT = 30.0


class Client:
    """One client: its session (handshake era), and a connection it keeps or makes anew each time."""

    def __init__(self, port: int, era: str, keep: bool) -> None:
        self.port, self.era, self.keep = port, era, keep
        self.connection = None
        self.session = None
        self.next_id = 1
        if era == "handshake":
            status, headers, body = self.post({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": http_bench.HANDSHAKE, "capabilities": {},
                "clientInfo": {"name": "http-load", "version": "1"}}})
            if status != 200 or "result" not in (body or {}):
                raise http_bench.Failed("initialize: %s %s" % (status, str(body)[:200]))
            self.session = headers.get("mcp-session-id")
            self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def headers(self) -> dict:
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if self.era == "modern":
            headers.update({"MCP-Protocol-Version": http_bench.MODERN, "Mcp-Method": "tools/call",
                            "Mcp-Name": "echo"})
        else:
            headers["MCP-Protocol-Version"] = http_bench.HANDSHAKE
            if self.session:
                headers["Mcp-Session-Id"] = self.session
        if not self.keep:
            headers["Connection"] = "close"
        return headers

    def post(self, message: dict):
        if self.connection is None:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)
        try:
            self.connection.request("POST", "/mcp", body=json.dumps(message).encode(), headers=self.headers())
            response = self.connection.getresponse()
            data = response.read()
        except (http.client.HTTPException, OSError):
            self.connection.close()
            self.connection = None
            raise
        got = {k.lower(): v for k, v in response.getheaders()}
        if response.will_close or not self.keep:
            self.connection.close()
            self.connection = None
        if not data:
            return response.status, got, None
        if got.get("content-type", "").startswith("text/event-stream"):
            for block in data.decode("utf-8").split("\n\n"):
                lines = [line[5:].lstrip() for line in block.split("\n") if line.startswith("data:")]
                event = json.loads("\n".join(lines)) if lines else {}
                if "id" in event and ("result" in event or "error" in event):
                    return response.status, got, event
            return response.status, got, None
        return response.status, got, json.loads(data)

    def echo(self, text: str) -> None:
        params = {"name": "echo", "arguments": {"text": text}}
        if self.era == "modern":
            params["_meta"] = http_bench.ENVELOPE
        request_id, self.next_id = self.next_id, self.next_id + 1
        status, _, body = self.post({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params})
        try:
            ok = status == 200 and body["id"] == request_id and body["result"]["content"][0]["text"] == text
        except (KeyError, IndexError, TypeError):
            ok = False
        if not ok:
            raise http_bench.Failed("tools/call echo: %s %s" % (status, str(body)[:200]))


def _client_process(port, era, keep, threads, ready, go, stop_at, results):
    """``threads`` clients; each puts (latencies, errors) on ``results`` when the time is up."""
    def one():
        latencies, errors = [], []
        try:
            client = Client(port, era, keep)
            client.echo("warm")
        except Exception as e:
            errors.append("%s: %s" % (type(e).__name__, e))
            client = None
        ready.release()
        go.wait()
        while client is not None and time.monotonic() < stop_at.value:
            started = time.perf_counter()
            try:
                client.echo("load")
            except Exception as e:                       # counted, and the figure is marked failed
                errors.append("%s: %s" % (type(e).__name__, e))
                continue
            latencies.append(time.perf_counter() - started)
        results.put((latencies, errors))
    workers = [threading.Thread(target=one) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()


def load(port: int, era: str, keep: bool, clients: int, processes: int, duration: float) -> dict:
    """Every client connected (and initialized) before the clock starts; then ``duration`` seconds."""
    ctx = multiprocessing.get_context("fork")
    ready, go, results = ctx.Semaphore(0), ctx.Event(), ctx.Queue()
    stop_at = ctx.Value("d", 0.0)
    shares = [clients // processes + (1 if i < clients % processes else 0) for i in range(processes)]
    procs = [ctx.Process(target=_client_process, args=(port, era, keep, n, ready, go, stop_at, results), daemon=True)
             for n in shares if n]
    for p in procs:
        p.start()
    for _ in range(clients):
        if not ready.acquire(timeout=TIMEOUT * 2):
            raise http_bench.Failed("the clients did not get ready")
    stop_at.value = time.monotonic() + duration
    started = time.monotonic()
    go.set()
    outcomes = [results.get(timeout=duration + TIMEOUT * 2) for _ in range(clients)]
    elapsed = time.monotonic() - started
    for p in procs:
        p.join(10)
    latencies = sorted(t for lat, _ in outcomes for t in lat)
    errors = [e for _, errs in outcomes for e in errs]
    if errors:
        raise http_bench.Failed("%d errors, the first: %s" % (len(errors), errors[0][:200]))
    if not latencies:
        raise http_bench.Failed("no request was answered")
    return {"p50_ms": 1000 * latencies[len(latencies) // 2],
            "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
            "rps": len(latencies) / elapsed, "requests": len(latencies)}


def compare(running, a) -> dict:
    cases = [(era, mode) for era in a.eras for mode in a.modes]
    samples = {(r.key, c): [] for r in running for c in cases}
    status = {}
    for round_no in range(a.rounds):
        order = running[round_no % len(running):] + running[:round_no % len(running)]
        for era, mode in cases:
            for r in order:
                if (r.key, (era, mode)) in status:
                    continue
                try:
                    figure = load(r.port, era, mode == "keep-alive", a.clients, a.processes, a.duration)
                except (http_bench.Failed, OSError, http.client.HTTPException) as e:
                    status[(r.key, (era, mode))] = "FAILED: %s" % str(e)[:300]
                    run.log("%s %s %s: %s" % (r.key, era, mode, status[(r.key, (era, mode))]))
                    continue
                samples[(r.key, (era, mode))].append(figure)
                run.log("round %d %-17s %-9s %-10s p50 %6.2f ms  p99 %7.2f ms  %5.0f req/s"
                        % (round_no + 1, r.key, era, mode, figure["p50_ms"], figure["p99_ms"], figure["rps"]))
    result = {}
    for (key, case), figures in samples.items():
        name = "%s/%s" % case
        if (key, case) in status:
            result.setdefault(key, {})[name] = {"status": status[(key, case)]}
        else:
            result.setdefault(key, {})[name] = {field: statistics.median(f[field] for f in figures)
                                                for field in ("p50_ms", "p99_ms", "rps")}
    return result


def markdown(running, result, versions, a, meta) -> str:
    lines = ["Streamable HTTP under load, tools/call echo; %s; %s, %d cores; load average %s before, %s after."
             % (meta["when"], meta["machine"], os.cpu_count() or 0, meta["load_before"], meta["load_after"]),
             "minimcp %s. Versions: %s." % (versions.get("minimcp", "?"), ", ".join(
                 "%s %s" % kv for kv in sorted(versions.items()) if kv[0] != "minimcp")),
             "%d concurrent clients (%d processes of threads), back to back for %.0f s per figure; median of %d "
             "interleaved rounds. Ratios (×) are to %s in the same run: below 1 is lower latency, above 1 more "
             "requests/s." % (a.clients, a.processes, a.duration, a.rounds, REFERENCE), ""]
    for era in a.eras:
        for mode in a.modes:
            name = "%s/%s" % (era, mode)
            lines += ["#### %s, %s" % ("2025-11-25 handshake (a session per client)" if era == "handshake"
                                        else "2026-07-28 (every POST stands alone)",
                                        "one kept-alive connection per client" if mode == "keep-alive"
                                        else "a new connection per request"), "",
                      "| server | p50 ms | × %s | p99 ms | × %s | req/s | × %s |" % ((REFERENCE,) * 3),
                      "|---|---:|---:|---:|---:|---:|---:|"]
            ref = result.get(REFERENCE, {}).get(name, {})
            for r in running:
                fig = result[r.key][name]
                if "status" in fig:
                    lines.append("| %s | %s | | | | | |" % (r.label, fig["status"].replace("|", "/")))
                    continue

                def ratio(field):
                    return "%.2f" % (fig[field] / ref[field]) if ref.get(field) else "–"
                lines.append("| %s | %.2f | %s | %.2f | %s | %.0f | %s |" % (
                    r.label, fig["p50_ms"], ratio("p50_ms"), fig["p99_ms"], ratio("p99_ms"), fig["rps"],
                    ratio("rps")))
            lines.append("")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--servers", default=",".join(SERVERS))
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--processes", type=int, default=5, help="client processes the clients are spread over")
    ap.add_argument("--duration", type=float, default=5.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--era", choices=ERAS + ("both",), default="both")
    ap.add_argument("--mode", choices=MODES + ("both",), default="both")
    ap.add_argument("--quick", action="store_true", help="one round of 1 s per figure")
    ap.add_argument("--cache", help="keep the pinned venvs here and reuse them (default: a throwaway directory)")
    ap.add_argument("--python", default=sys.executable, help="base interpreter of every server's venv")
    ap.add_argument("--out", help="also write the Markdown here (and the raw JSON beside it)")
    a = ap.parse_args()
    if a.quick:
        a.rounds, a.duration = 1, 1.0
    a.eras = ERAS if a.era == "both" else (a.era,)
    a.modes = MODES if a.mode == "both" else (a.mode,)
    wanted = [s.strip() for s in a.servers.split(",") if s.strip()]
    if [s for s in wanted if s not in SERVERS]:
        ap.error("servers are among %s" % ", ".join(SERVERS))
    throwaway = a.cache is None
    if throwaway:
        a.cache = tempfile.mkdtemp(prefix="minimcp-http-load-venvs.")
    logdir = tempfile.mkdtemp(prefix="minimcp-http-load.")
    running = []
    try:
        specs, versions = http_bench.build(a, wanted)
        meta = {"when": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                "machine": "%s %s, %s" % (platform.system(), platform.machine(), http_bench.cpu_model()),
                "load_before": "%.2f" % os.getloadavg()[0]}
        for key, label, argv, env in specs:
            running.append(http_bench.Running(key, label, argv, env, logdir))
        for r in running:
            r.wait_ready()
        run.log("serving: %s" % ", ".join("%s on %d" % (r.key, r.port) for r in running))
        result = compare(running, a)
    finally:
        for r in running:
            r.stop()
        shutil.rmtree(logdir, ignore_errors=True)
        if throwaway:
            shutil.rmtree(a.cache, ignore_errors=True)
    meta["load_after"] = "%.2f" % os.getloadavg()[0]
    text = markdown(running, result, versions, a, meta)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")
        with open(os.path.splitext(a.out)[0] + ".json", "w") as f:
            args = {k: v for k, v in vars(a).items() if k != "cache"}
            json.dump({"meta": meta, "versions": versions, "args": args, "result": result}, f, indent=1)
    failed = [k for k, cases in result.items() for fig in cases.values() if fig.get("status", "").startswith("F")]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
