#!/usr/bin/env python3
"""Streamable HTTP under load: 50 concurrent clients, slow calls, open streams and cancels (issues 28, 42).

    python3 bench/http_load.py                      # install the pinned competitors, measure, print Markdown
    python3 bench/http_load.py --out bench/http_load.md
    python3 bench/http_load.py --quick              # short figures (smoke)

Servers, all started at once on 127.0.0.1 and serving the same tools (bench/servers/*_echo.py:
``echo``, and ``nap``, an ``async def`` that awaits ``asyncio.sleep``), each in a venv of the
same base interpreter, installed pinned into a throwaway directory (``--cache DIR`` keeps and
reuses one instead):

  minimcp            the stdlib server (``app.run(transport="http")``);
  minimcp-gunicorn   gunicorn 1 worker x 8 threads, as the README says;
  minimcp-asgi       ``app.asgi`` on uvicorn (pinned), one worker;
  mcp                the official SDK (mcp, pinned in bench/run.py) on uvicorn: the reference.

Figures, each from servers started for it (so one figure's leftovers never weigh on the next):

  load      p50 and p99 of every request's latency and answered requests per second, from
            ``--clients`` clients (threads spread over ``--processes`` processes) each sending
            tools/call echo back to back on a kept-alive connection for ``--duration`` seconds,
            in both eras; the rounds are interleaved (server order rotated), each figure is the
            median over rounds. Default pool (32 workers).
  slow      ``--slow`` concurrent 2026-07-28 calls of nap(2 s), each from a client of its own
            (its own connection and clientInfo): how many were answered within 100 s, the wall
            time until the last, and its p50. minimcp's servers keep the default pool (32
            workers): a worker whose ``async def`` tool awaits gives its place to the next call.
  streams   ``--streams`` handshake sessions each with its GET stream open, then 100 pings from
            those sessions, one after another: streams opened, pings answered, ping p50/p99.
  cancels   ``--cancels`` handshake sessions each with nap(60 s) running or queued (minimcp: the
            default 32 workers, every one busy), then every call cancelled at once
            (notifications/cancelled on a POST of its own): how many POST streams ended within
            30 s, and the time until the last ended.
  fair      one handshake session with 32 nap(10 s) calls running or queued (minimcp: the default
            pool of 32), then another session's echo, 10 times one after another: its p50 and
            the slowest (15 s at most each).
  RSS       each server's resident memory (its process group's), the peak while a figure ran.

Ratios are to the SDK's figure from the same run. The machine is shared and noisy: compare the ratios.
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
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import http_bench  # noqa: E402  (the servers: build() and Running, installs through run.py)
import run         # noqa: E402

SERVERS = ["minimcp", "minimcp-gunicorn", "minimcp-asgi", "mcp"]
UVICORN_VERSION = "0.55.0"           # minimcp-asgi's; the SDK's venv resolves its own (named in the versions line)
FIGURES = ("load", "slow", "streams", "cancels", "fair")
REFERENCE = "mcp"
MODES = ("keep-alive",)
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


# -- the figures of many connections at once: one asyncio client -------------------------------

class Answer:
    """One HTTP exchange's outcome: status, headers (lower-case), body; ``ended`` when its body ended."""
    __slots__ = ("status", "headers", "body", "ended")

    def __init__(self, status=None, headers=None, body=b"", ended=None):
        self.status, self.headers, self.body, self.ended = status, headers or {}, body, ended


async def _open(port: int, method: str, headers: dict, body: bytes = b""):
    import asyncio
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    lines = ["%s /mcp HTTP/1.1" % method, "Host: 127.0.0.1:%d" % port, "Content-Length: %d" % len(body)]
    lines += ["%s: %s" % item for item in headers.items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
    line = await reader.readline()
    if not line:
        writer.close()
        raise ConnectionError("closed before a status line")
    answer = Answer(int(line.split()[1]))
    while True:
        field = await reader.readline()
        if field in (b"\r\n", b""):
            break
        name, _, value = field.decode("latin-1").partition(":")
        answer.headers[name.strip().lower()] = value.strip()
    return reader, writer, answer


async def _read_body(reader, answer: Answer) -> None:
    if "content-length" in answer.headers:
        answer.body = await reader.readexactly(int(answer.headers["content-length"]))
    elif "chunked" in answer.headers.get("transfer-encoding", "").lower():
        pieces = []
        while True:
            size = int((await reader.readline()).split(b";")[0].strip() or b"0", 16)
            if size == 0:
                await reader.readline()
                break
            pieces.append(await reader.readexactly(size))
            await reader.readexactly(2)
        answer.body = b"".join(pieces)
    else:
        answer.body = await reader.read()
    answer.ended = time.monotonic()


async def _post(port: int, message: dict, headers: dict) -> Answer:
    sent = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    sent.update(headers)
    reader, writer, answer = await _open(port, "POST", sent, json.dumps(message).encode("utf-8"))
    try:
        await _read_body(reader, answer)
    finally:
        writer.close()
    return answer


def _modern(client: str, name: str, arguments: dict, request_id: int = 1):
    meta = dict(http_bench.ENVELOPE, **{"io.modelcontextprotocol/clientInfo": {"name": client, "version": "1"}})
    return ({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
             "params": {"name": name, "arguments": arguments, "_meta": meta}},
            {"MCP-Protocol-Version": http_bench.MODERN, "Mcp-Method": "tools/call", "Mcp-Name": name})


async def _session(port: int, client: str) -> dict:
    """A handshake-era session: initialize, initialized; the headers its requests carry."""
    answer = await _post(port, {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": http_bench.HANDSHAKE, "capabilities": {},
        "clientInfo": {"name": client, "version": "1"}}}, {})
    session = answer.headers.get("mcp-session-id")
    if answer.status != 200 or not session:
        raise http_bench.Failed("initialize: %s %s" % (answer.status, answer.body[:200]))
    headers = {"Mcp-Session-Id": session, "MCP-Protocol-Version": http_bench.HANDSHAKE}
    await _post(port, {"jsonrpc": "2.0", "method": "notifications/initialized"}, headers)
    return headers


async def _batched(make, count: int, batch: int = 50) -> list:
    """``make(i)`` for every i, ``batch`` at a time (setting up, not measuring); exceptions are kept."""
    import asyncio
    done = []
    for start in range(0, count, batch):
        done += await asyncio.gather(*(make(i) for i in range(start, min(count, start + batch))),
                                     return_exceptions=True)
    return done


async def slow_figure(port: int, count: int, seconds: float = 2.0, limit: float = 100.0) -> dict:
    """``count`` concurrent nap(seconds) calls, each from a client of its own: answered, wall time, p50."""
    import asyncio
    started = time.monotonic()

    async def one(i):
        answer = await _post(port, *_modern("load-%d" % i, "nap", {"seconds": seconds}))
        return answer.status == 200 and b'"napped"' in answer.body

    tasks = [asyncio.ensure_future(one(i)) for i in range(count)]
    finished, _ = await asyncio.wait(tasks, timeout=limit)
    answered = [t for t in finished if not t.cancelled() and t.exception() is None and t.result()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"answered": len(answered), "of": count, "wall_s": time.monotonic() - started
            if len(answered) == count else None}


async def streams_figure(port: int, count: int, pings: int = 100) -> dict:
    """``count`` sessions with their GET stream open, then ``pings`` pings: streams opened, ping latency."""
    import asyncio
    sessions = [s for s in await _batched(lambda i: _session(port, "stream-%d" % i), count) if isinstance(s, dict)]
    opened = []

    async def open_stream(i):
        reader, writer, answer = await asyncio.wait_for(_open(port, "GET", dict(
            sessions[i], Accept="text/event-stream")), 10)
        if answer.status == 200:
            opened.append(writer)
        else:
            writer.close()
    await _batched(open_stream, len(sessions))
    times, answered, missed = [], 0, 0
    for i in range(pings):
        if missed >= 5:                             # five in a row unanswered: the rest would be too
            break
        headers = sessions[i % len(sessions)] if sessions else {}
        begun = time.perf_counter()
        try:
            answer = await asyncio.wait_for(_post(port, {"jsonrpc": "2.0", "id": 7, "method": "ping"}, headers), 5)
            if answer.status == 200 and b'"result"' in answer.body:
                answered, missed = answered + 1, 0
                times.append(time.perf_counter() - begun)
                continue
        except (asyncio.TimeoutError, OSError):
            pass
        missed += 1
    for writer in opened:
        writer.close()
    times.sort()
    return {"sessions": len(sessions), "opened": len(opened), "of": count, "pings": answered, "of_pings": pings,
            "ping_p50_ms": 1000 * times[len(times) // 2] if times else None,
            "ping_p99_ms": 1000 * times[min(len(times) - 1, int(len(times) * 0.99))] if times else None}


async def cancels_figure(port: int, count: int, settle: float = 3.0, limit: float = 30.0) -> dict:
    """``count`` sessions each with nap(60) running or queued; all cancelled at once: streams ended, time."""
    import asyncio
    sessions = [s for s in await _batched(lambda i: _session(port, "cancel-%d" % i), count) if isinstance(s, dict)]
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "nap", "arguments": {"seconds": 60}}}

    async def stream(headers):
        sent = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        reader, writer, answer = await _open(port, "POST", dict(sent, **headers), json.dumps(call).encode("utf-8"))
        try:
            await _read_body(reader, answer)
        finally:
            writer.close()
        return answer

    streams = [asyncio.ensure_future(stream(headers)) for headers in sessions]
    await asyncio.sleep(settle)                     # every call started, or queued behind a busy pool
    begun = time.monotonic()
    cancels = [asyncio.ensure_future(_post(port, {"jsonrpc": "2.0", "method": "notifications/cancelled",
                                                  "params": {"requestId": 1, "reason": "bench"}}, headers))
               for headers in sessions]
    finished, _ = await asyncio.wait(streams, timeout=limit)      # (a cancel that waits for a thread waits here too)
    ended = [t.result().ended for t in finished if not t.cancelled() and t.exception() is None]
    for task in streams + cancels:
        task.cancel()
    await asyncio.gather(*streams, *cancels, return_exceptions=True)
    return {"sessions": len(sessions), "ended": len(ended), "of": count,
            "all_ended_s": max(ended) - begun if ended and len(ended) == count else None}


async def fair_figure(port: int, calls: int = 32, echoes: int = 10, settle: float = 2.0) -> dict:
    """One session's ``calls`` long calls, then another session's echo: how long it waits."""
    import asyncio
    busy, other = await _session(port, "busy"), await _session(port, "other")
    streams = [asyncio.ensure_future(_post(port, {"jsonrpc": "2.0", "id": 100 + i, "method": "tools/call", "params": {
        "name": "nap", "arguments": {"seconds": 10}}}, busy)) for i in range(calls)]
    await asyncio.sleep(settle)                     # the busy session's calls hold what they can
    times = []
    try:
        for i in range(echoes):
            begun = time.perf_counter()
            answer = await asyncio.wait_for(_post(port, {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
                "name": "echo", "arguments": {"text": "meanwhile"}}}, other), 15)
            if answer.status != 200 or b"meanwhile" not in answer.body:
                raise http_bench.Failed("echo: %s %s" % (answer.status, answer.body[:200]))
            times.append(time.perf_counter() - begun)
    except asyncio.TimeoutError:
        pass
    finally:
        for task in streams:
            task.cancel()
        await asyncio.gather(*streams, return_exceptions=True)
    times.sort()
    return {"answered": len(times), "of": echoes, "echo_p50_ms": 1000 * times[len(times) // 2] if times else None,
            "echo_max_ms": 1000 * times[-1] if times else None}


class PeakRSS:
    """The peak resident memory of each server's process group while a figure runs (Linux /proc)."""

    def __init__(self, running) -> None:
        self.running, self.peak, self.stop = running, {r.key: 0 for r in running}, threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()

    def _sample(self) -> None:
        while not self.stop.wait(0.2):
            for r in self.running:
                self.peak[r.key] = max(self.peak[r.key], group_rss(r.proc.pid))

    def finish(self) -> dict:
        self.stop.set()
        self.thread.join()
        return {key: kib / 1024.0 for key, kib in self.peak.items()}


def group_rss(pgid: int) -> int:
    """KiB resident in every process of group ``pgid``."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[2]) != pgid:
                continue
            with open("/proc/%s/status" % entry) as f:
                total += next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
        except (OSError, ValueError, StopIteration, IndexError):
            continue
    return total


def concurrent_figure(figure: str, running, a) -> tuple:
    """One of slow, streams, cancels, measured on each server in turn: ({key: figure}, {key: peak RSS MiB})."""
    import asyncio
    result, rss = {}, {}
    for r in running:
        watch = PeakRSS([r])
        try:
            if figure == "slow":
                result[r.key] = asyncio.run(slow_figure(r.port, a.slow))
            elif figure == "streams":
                result[r.key] = asyncio.run(streams_figure(r.port, a.streams))
            elif figure == "fair":
                result[r.key] = asyncio.run(fair_figure(r.port))
            else:
                result[r.key] = asyncio.run(cancels_figure(r.port, a.cancels))
        except Exception as e:                        # reported as the figure, never a traceback instead
            result[r.key] = {"status": "FAILED: %s: %s" % (type(e).__name__, str(e)[:200])}
        rss[r.key] = watch.finish()[r.key]
        run.log("%s %-17s %s  peak RSS %.0f MiB" % (figure, r.key, result[r.key], rss[r.key]))
    return result, rss


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


def _ratio(value, reference, digits: str = "%.2f") -> str:
    return digits % (value / reference) if value and reference else "–"


def markdown(labels: dict, result: dict, versions: dict, a, meta: dict) -> str:
    keys = [k for k in a.servers if k in labels]
    lines = ["Streamable HTTP under load; %s; %s, %d cores; load average %s before, %s after."
             % (meta["when"], meta["machine"], os.cpu_count() or 0, meta["load_before"], meta["load_after"]),
             "minimcp %s. Versions: %s." % (versions.get("minimcp", "?"), ", ".join(
                 "%s %s" % kv for kv in sorted(versions.items()) if kv[0] != "minimcp")),
             "Ratios (×) are to %s in the same run. Each figure's servers were started for it." % REFERENCE, ""]
    load = result.get("load")
    if load:
        lines += ["#### %d clients, tools/call echo back to back, one kept-alive connection each (%d s, median of %d "
                  "interleaved rounds; default pool)" % (a.clients, a.duration, a.rounds), "",
                  "| server | era | p50 ms | × %s | p99 ms | × %s | req/s | × %s |" % ((REFERENCE,) * 3),
                  "|---|---|---:|---:|---:|---:|---:|---:|"]
        for era in a.eras:
            name = "%s/keep-alive" % era
            ref = load.get(REFERENCE, {}).get(name, {})
            for key in keys:
                fig = load.get(key, {}).get(name, {})
                if "p50_ms" not in fig:
                    lines.append("| %s | %s | %s | | | | | |" % (labels[key], era, fig.get("status", "–")))
                    continue
                lines.append("| %s | %s | %.2f | %s | %.2f | %s | %.0f | %s |" % (
                    labels[key], era, fig["p50_ms"], _ratio(fig["p50_ms"], ref.get("p50_ms")), fig["p99_ms"],
                    _ratio(fig["p99_ms"], ref.get("p99_ms")), fig["rps"], _ratio(fig["rps"], ref.get("rps"))))
        lines.append("")
    rows = []
    for key in keys:
        cells = [labels[key]]
        slow = result.get("slow", {}).get(key)
        if slow is None:
            cells.append("–")
        elif "status" in slow:
            cells.append(slow["status"])
        else:
            cells.append("%d of %d%s" % (slow["answered"], slow["of"], ", all in %.1f s" % slow["wall_s"]
                                         if slow["wall_s"] else " in 100 s"))
        streams = result.get("streams", {}).get(key)
        if streams is None:
            cells += ["–", "–"]
        elif "status" in streams:
            cells += [streams["status"], ""]
        else:
            cells.append("%d of %d open, %d of %d pings" % (streams["opened"], streams["of"], streams["pings"],
                                                          streams["of_pings"]))
            cells.append("%.1f / %.1f" % (streams["ping_p50_ms"], streams["ping_p99_ms"])
                         if streams["ping_p50_ms"] is not None else "none answered")
        cancels = result.get("cancels", {}).get(key)
        if cancels is None:
            cells.append("–")
        elif "status" in cancels:
            cells.append(cancels["status"])
        else:
            cells.append("%d of %d%s" % (cancels["ended"], cancels["of"], ", the last after %.2f s"
                                         % cancels["all_ended_s"] if cancels["all_ended_s"] is not None
                                         else " within 30 s"))
        fair = result.get("fair", {}).get(key)
        if fair is None:
            cells.append("–")
        elif "status" in fair:
            cells.append(fair["status"])
        elif fair["answered"]:
            cells.append("%d of %d, p50 %.1f ms, slowest %.1f ms" % (fair["answered"], fair["of"], fair["echo_p50_ms"],
                                                                    fair["echo_max_ms"]))
        else:
            cells.append("none within 15 s")
        cells.append(" / ".join("%.0f" % result.get("rss", {}).get(figure, {}).get(key, 0)
                                for figure in ("load", "slow", "streams", "cancels")))
        rows.append("| " + " | ".join(cells) + " |")
    lines += ["#### Many connections at once: %d concurrent nap(2 s) calls (2026-07-28, a client each); %d GET "
              "streams, then 100 pings; %d calls cancelled at once" % (a.slow, a.streams, a.cancels), "",
              "| server | slow calls answered | streams, pings | ping p50 / p99 ms | cancelled streams ended "
              "| another session's echo, 32 long calls running | peak RSS MiB (load / slow / streams / cancels) |",
              "|---|---|---|---:|---|---|---|"] + rows + [""]
    return "\n".join(lines)


def specs_for(a, wanted: list) -> tuple:
    """(specs, versions): http_bench's servers, and minimcp's ASGI app on uvicorn."""
    specs, versions = http_bench.build(a, [w for w in wanted if w != "minimcp-asgi"] +
                                       (["minimcp"] if "minimcp-asgi" in wanted else []))
    if "minimcp-asgi" in wanted:
        snap = dict((k, env) for k, _, _, env in specs)["minimcp"]["MINIMCP_PATH"]
        if "minimcp" not in wanted:
            specs = [spec for spec in specs if spec[0] != "minimcp"]
        pyver = versions["python"]
        py, v = run.ensure_venv(a.cache, a.python, pyver, "uvicorn-" + UVICORN_VERSION,
                                ["uvicorn==" + UVICORN_VERSION], {"uvicorn": UVICORN_VERSION})
        versions["uvicorn (minimcp-asgi)"] = v["uvicorn"]
        servers = os.path.join(http_bench.HERE, "servers")
        specs.append(("minimcp-asgi", "minimcp, app.asgi on uvicorn", [
            "sh", "-c", 'exec "$0" -m uvicorn minimcp_echo:app.asgi --app-dir "$1" --host 127.0.0.1 '
            '--port "$MCPBENCH_HTTP_PORT" --log-level warning --no-access-log', py, servers],
            {"MINIMCP_PATH": snap}))
    if "mcp" in wanted:
        sdk_python = [argv[0] for key, _, argv, _ in specs if key == "mcp"][0]
        found = subprocess.run([sdk_python, "-c", "import importlib.metadata as m; print(m.version('uvicorn'))"],
                               capture_output=True, text=True)
        versions["uvicorn (mcp)"] = found.stdout.strip() or "?"
    return specs, versions


def start(specs, logdir: str) -> list:
    running = []
    try:
        for key, label, argv, env in specs:
            running.append(http_bench.Running(key, label, argv, dict(env, MCPBENCH_EXTRA="1"), logdir))
        for r in running:
            r.wait_ready()
    except BaseException:
        for r in running:
            r.stop()
        raise
    return running


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--servers", default=",".join(SERVERS))
    ap.add_argument("--figures", default=",".join(FIGURES))
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--processes", type=int, default=5, help="client processes the clients are spread over")
    ap.add_argument("--duration", type=float, default=5.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--era", choices=ERAS + ("both",), default="both")
    ap.add_argument("--slow", type=int, default=1000, help="concurrent nap(2 s) calls")
    ap.add_argument("--streams", type=int, default=300, help="GET streams held open")
    ap.add_argument("--cancels", type=int, default=200, help="running calls cancelled at once")
    ap.add_argument("--quick", action="store_true", help="one round of 1 s; 100 slow calls, 30 streams, 20 cancels")
    ap.add_argument("--cache", help="keep the pinned venvs here and reuse them (default: a throwaway directory)")
    ap.add_argument("--python", default=sys.executable, help="base interpreter of every server's venv")
    ap.add_argument("--out", help="also write the Markdown here (and the raw JSON beside it)")
    a = ap.parse_args()
    if a.quick:
        a.rounds, a.duration, a.slow, a.streams, a.cancels = 1, 1.0, 100, 30, 20
    a.eras = ERAS if a.era == "both" else (a.era,)
    a.modes = ("keep-alive",)
    a.servers = [s.strip() for s in a.servers.split(",") if s.strip()]
    figures = [f.strip() for f in a.figures.split(",") if f.strip()]
    if [s for s in a.servers if s not in SERVERS] or [f for f in figures if f not in FIGURES]:
        ap.error("servers are among %s; figures among %s" % (", ".join(SERVERS), ", ".join(FIGURES)))
    throwaway = a.cache is None
    if throwaway:
        a.cache = tempfile.mkdtemp(prefix="minimcp-http-load-venvs.")
    logdir = tempfile.mkdtemp(prefix="minimcp-http-load.")
    result = {"rss": {}}
    try:
        specs, versions = specs_for(a, a.servers)
        labels = {key: label for key, label, _, _ in specs}
        meta = {"when": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                "machine": "%s %s, %s" % (platform.system(), platform.machine(), http_bench.cpu_model()),
                "load_before": "%.2f" % os.getloadavg()[0]}
        for figure in figures:
            running = start(specs, logdir)
            try:
                run.log("%s: serving %s" % (figure, ", ".join("%s on %d" % (r.key, r.port) for r in running)))
                if figure == "load":
                    watch = PeakRSS(running)
                    result["load"] = compare(running, a)
                    result["rss"]["load"] = watch.finish()
                else:
                    result[figure], result["rss"][figure] = concurrent_figure(figure, running, a)
            finally:
                for r in running:
                    r.stop()
    finally:
        shutil.rmtree(logdir, ignore_errors=True)
        if throwaway:
            shutil.rmtree(a.cache, ignore_errors=True)
    meta["load_after"] = "%.2f" % os.getloadavg()[0]
    text = markdown(labels, result, versions, a, meta)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")
        with open(os.path.splitext(a.out)[0] + ".json", "w") as f:
            args = {k: v for k, v in vars(a).items() if k != "cache"}
            json.dump({"meta": meta, "versions": versions, "args": args, "result": result}, f, indent=1)
    failed = [k for cases in result.get("load", {}).values() for k, fig in cases.items()
              if fig.get("status", "").startswith("F")]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
