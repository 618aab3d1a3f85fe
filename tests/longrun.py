"""The long fault run (issue 9), one command:

    python3 tests/longrun.py                 # everything, a few minutes
    python3 tests/longrun.py --quick         # smaller sizes, for a smoke test
    python3 tests/longrun.py --only flood,exit --fuzz-iterations 20000 --seed 5

Cases (each on fresh ``examples/everything.py`` processes, checked with the same
invariants as ``tests/core/test_faults.py``: alive, answers ping and tools/list, every
stdout byte a valid JSON-RPC line, every request answered exactly once, none after
a cancel, a clean exit):

* bigline  - a 64 MiB valid line; 256 MiB of garbage without a newline, then one;
             a 64 MiB line under a raised limit; a tool returning 64 MiB. Peak RSS
             (VmHWM, Linux) is measured against the idle process.
* flood    - 20,000 pipelined requests.
* stall    - the client stops reading stdout with thousands of answers pending
             (and cancels queued behind them), then resumes.
* exit     - seconds to exit after stdin EOF (idle, busy), SIGTERM (idle, busy),
             stdout closed by the client.
* sigterm  - SIGTERM the moment an answer arrives, 300 fresh servers
             (``tests/sigterm_storm.py``); any survivor fails.
* fuzz     - many random iterations of ``tests/fuzz.py``.

It prints a table of the figures and exits non-zero if any case failed.
"""

import argparse
import os
import signal
import statistics
import sys
import tempfile
import threading
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import fuzz  # noqa: E402
from fuzz import LINUX, POSIX, Failure, Server, handshake  # noqa: E402

MiB = 1 << 20
BIG_TOOL = """
import sys
sys.path.insert(0, %(root)r)
from minimcp import MCPServer
app = MCPServer("big", max_output_size=None)     # the 64 MiB result is the point


@app.tool()
def echo(text: str) -> str:
    '''Echo.'''
    return text


@app.tool()
def big(mib: int = 64) -> str:
    '''A long text result.'''
    return "x" * (mib << 20)


if __name__ == "__main__":
    app.run()
"""


class Report:
    def __init__(self):
        self.rows = []                   # (case, measure, value)
        self.failures = []

    def add(self, case, measure, value):
        self.rows.append((case, measure, value))
        print("  %-8s %-58s %s" % (case, measure, value))
        sys.stdout.flush()

    def fail(self, case, what):
        self.failures.append((case, what))
        print("  %-8s FAILED: %s" % (case, what))
        sys.stdout.flush()

    def table(self):
        width = max([len(m) for _, m, _ in self.rows] + [10])
        lines = ["", "%-8s  %-*s  %s" % ("case", width, "measure", "value"),
                 "%s  %s  %s" % ("-" * 8, "-" * width, "-" * 24)]
        for case, measure, value in self.rows:
            lines.append("%-8s  %-*s  %s" % (case, width, measure, value))
        lines.append("")
        if self.failures:
            lines.append("%d FAILED:" % len(self.failures))
            lines.extend("  %s: %s" % f for f in self.failures)
        else:
            lines.append("all cases passed")
        return "\n".join(lines)


def mib(kib):
    return "%.1f MiB" % (kib / 1024.0)


def send_garbage(server, total, head=b"", newline=True):
    block = b"x" * MiB
    server.send(head)
    sent = len(head)
    while sent < total:
        size = min(MiB, total - sent)
        server.send(block[:size])
        sent += size
    if newline:
        server.send(b"\n")


def settle(server):
    """The peak RSS once every path a case uses (reader, a worker, the writer) has run once."""
    server.result("ping")
    server.result("tools/call", {"name": "echo", "arguments": {"text": "warm"}})
    return server.peak_rss_kib()


# -- cases ---------------------------------------------------------------------------------------

def case_bigline(report, options, folder):
    if not LINUX:
        report.add("bigline", "skipped", "needs /proc (Linux)")
        return
    size_valid = (20 if options.quick else 64) * MiB
    size_garbage = (48 if options.quick else 256) * MiB
    # a valid line, too long for the default 16 MiB limit
    with Server() as server:
        handshake(server)
        base = settle(server)
        started = time.monotonic()
        head = b'{"jsonrpc":"2.0","id":"big-valid","method":"tools/call","params":{"name":"echo","arguments":{"text":"'
        send_garbage(server, size_valid - 5, head, newline=False)
        server.send(b'"}}}\n')
        server.expect("big-valid")
        response = server.wait("big-valid", 120)
        seconds = time.monotonic() - started
        peak = server.peak_rss_kib()
        server.liveness("legacy")
        server.verify()
        report.add("bigline", "%d MiB valid line (16 MiB limit): answer" % (size_valid // MiB),
                   response.get("error", {}).get("code", "result"))
        report.add("bigline", "%d MiB valid line: peak RSS (idle %s)" % (size_valid // MiB, mib(base)),
                   "%s (+%s), %.2fs" % (mib(peak), mib(peak - base), seconds))
    # garbage without a newline, then a newline
    with Server() as server:
        handshake(server)
        base = settle(server)
        started = time.monotonic()
        send_garbage(server, size_garbage)
        server.expect(None, codes=[-32600, -32700])
        server.drain(300)
        server.wait_all(120)
        seconds = time.monotonic() - started
        peak = server.peak_rss_kib()
        server.liveness("legacy")
        server.verify()
        report.add("bigline", "%d MiB garbage then newline: peak RSS (idle %s)" % (size_garbage // MiB, mib(base)),
                   "%s (+%s), %.2fs" % (mib(peak), mib(peak - base), seconds))
    # the same valid line under a limit that admits it
    tuned = fuzz.write_tuned_script(folder)
    with Server(tuned, args=['{"max_message_size": %d}' % (size_valid * 2)]) as server:
        handshake(server)
        base = settle(server)
        started = time.monotonic()
        head = b'{"jsonrpc":"2.0","id":"big-ok","method":"tools/call","params":{"name":"echo","arguments":{"text":"'
        send_garbage(server, size_valid - 5, head, newline=False)
        server.send(b'"}}}\n')
        server.expect("big-ok")
        response = server.wait("big-ok", 120)
        seconds = time.monotonic() - started
        peak = server.peak_rss_kib()
        ok = len(response.get("result", {}).get("content", [{}])[0].get("text", "")) == size_valid - 5 - len(head)
        server.liveness("legacy")
        server.verify()
        report.add("bigline", "%d MiB line echoed (limit raised): peak RSS" % (size_valid // MiB),
                   "%s (+%s), %.2fs%s" % (mib(peak), mib(peak - base), seconds, "" if ok else " WRONG RESULT"))
        if not ok:
            report.fail("bigline", "the echoed 64 MiB text came back different")
    # a tool that returns 64 MiB
    script = os.path.join(folder, "big_tool.py")
    with open(script, "w") as handle:
        handle.write(BIG_TOOL % {"root": fuzz.ROOT})
    with Server(script) as server:
        handshake(server)
        base = settle(server)
        started = time.monotonic()
        response = server.call("tools/call", {"name": "big", "arguments": {"mib": size_valid // MiB}}, timeout=120)
        seconds = time.monotonic() - started
        peak = server.peak_rss_kib()
        server.liveness("legacy")
        server.verify()
        report.add("bigline", "tool returning %d MiB: peak RSS" % (size_valid // MiB),
                   "%s (+%s), %.2fs" % (mib(peak), mib(peak - base), seconds))
        if len(response["result"]["content"][0]["text"]) != size_valid:
            report.fail("bigline", "the 64 MiB result came back truncated")


def case_flood(report, options, folder):
    count = 4000 if options.quick else 20000
    with Server() as server:
        handshake(server)
        base = settle(server) if LINUX else 0
        started = time.monotonic()
        for number in range(count):
            kind = number % 5
            if kind == 0:
                server.request("ping")
            elif kind == 1:
                server.request("tools/list")
            elif kind == 2:
                server.request("tools/call", {"name": "echo", "arguments": {"text": "flood %d" % number}})
            elif kind == 3:
                server.request("resources/read", {"uri": "fixture://greeting/n%d" % number})
            else:
                server.request("prompts/get", {"name": "greet", "arguments": {"name": "n%d" % number}})
        server.drain(300)
        server.wait_all(300)
        seconds = time.monotonic() - started
        server.liveness("legacy")
        if LINUX:
            report.add("flood", "%d pipelined requests: peak RSS (idle %s)" % (count, mib(base)),
                       "%s (+%s)" % (mib(server.peak_rss_kib()), mib(server.peak_rss_kib() - base)))
            report.add("flood", "threads after the flood", server.threads())
        server.verify(forbid_internal=True)
        report.add("flood", "%d pipelined requests, each answered once" % count,
                   "%.2fs (%.0f/s)" % (seconds, count / seconds))


def case_stall(report, options, folder):
    pending = 3000 if options.quick else 10000
    with Server() as server:
        handshake(server)
        server.pause_reading()
        slow = [server.request("tools/call", {"name": "slow", "arguments": {"seconds": 60, "steps": 600}})
                for _ in range(4)]
        for number in range(pending):
            server.request("tools/call", {"name": "echo", "arguments": {"text": "%06d" % number + "y" * 1000}})
        for request_id in slow:
            server.cancel(request_id)
        time.sleep(2.0)
        blocked = server._outbox.unfinished_tasks
        alive = server.alive()
        started = time.monotonic()
        server.resume_reading()
        server.drain(300)
        server.wait_all(300)
        seconds = time.monotonic() - started
        server.liveness("legacy")
        server.verify()
        if not alive:
            report.fail("stall", "the server died while its stdout was not read")
        if any(fuzz.key(i) in server.responses for i in slow):
            report.fail("stall", "a cancelled call was answered")
        report.add("stall", "%d answers pending, client paused 2 s: writes blocked" % pending, blocked)
        report.add("stall", "after resuming: all answered once, cancelled ones never", "%.2fs" % seconds)


def _exit_once(kind):
    server = Server()
    try:
        handshake(server)
        if kind.endswith("busy"):
            for _ in range(3):
                server.request("tools/call", {"name": "slow", "arguments": {"seconds": 60, "steps": 600}},
                               expect=False)
            server.request("tools/call", {"name": "print_stdout", "arguments": {"text": "child"}})
            server.wait_all()
        server.liveness("legacy")
        started = time.monotonic()
        if kind.startswith("eof"):
            server.close_stdin()
        elif kind.startswith("sigterm"):
            os.kill(server.pid, signal.SIGTERM)
        seconds, status = server.wait_exit(15)
        seconds = time.monotonic() - started
        leftovers = server.group_members() if LINUX else []
        if status != 0:
            raise Failure("exit status %r" % status)
        if leftovers:
            raise Failure("processes left behind: %r" % leftovers)
        server.verify(exited=True)
        return seconds
    finally:
        server.kill()


def _stdout_closed_once():
    import select
    server = Server(read=False)
    try:
        server.send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                     "params": {"protocolVersion": "2025-11-25", "capabilities": {}}})
        ready, _, _ = select.select([server.proc.stdout], [], [], 10)
        if not ready or not server.proc.stdout.readline():
            raise Failure("no initialize answer")
        started = time.monotonic()
        server.proc.stdout.close()
        for number in range(1, 4):
            server.send({"jsonrpc": "2.0", "id": number, "method": "ping"})
        _, status = server.wait_exit(15)
        seconds = time.monotonic() - started
        if status != 0:
            raise Failure("exit status %r" % status)
        if "Traceback" in server.stderr():
            raise Failure("traceback on stderr: %s" % server.stderr()[-500:])
        return seconds
    finally:
        server.kill()


def case_exit(report, options, folder):
    if not POSIX:
        report.add("exit", "skipped", "needs POSIX signals")
        return
    repeats = 2 if options.quick else 5
    for kind, label in (("eof-idle", "stdin EOF, idle"), ("eof-busy", "stdin EOF, 3 slow calls (grace 1 s)"),
                        ("sigterm-idle", "SIGTERM, idle"), ("sigterm-busy", "SIGTERM, 3 slow calls"),
                        ("stdout-closed", "stdout closed by the client, then a write")):
        times = []
        for _ in range(repeats):
            times.append(_stdout_closed_once() if kind == "stdout-closed" else _exit_once(kind))
        report.add("exit", label, "median %.3fs, max %.3fs (%d runs)" % (statistics.median(times), max(times),
                                                                          repeats))
        limit = 2.5
        if max(times) > limit:
            report.fail("exit", "%s took %.2fs (> %.1fs)" % (label, max(times), limit))


def case_sigterm(report, options, folder):
    """SIGTERM the moment an answer arrives (issue 18): no server may survive it."""
    if not POSIX:
        report.add("sigterm", "skipped", "needs POSIX signals")
        return
    import sigterm_storm
    rounds = 60 if options.quick else 300
    failures = sigterm_storm.storm(rounds)
    report.add("sigterm", "SIGTERM right after an answer", "%d rounds, %d survivors" % (rounds, len(failures)))
    for failure in failures[:5]:
        report.fail("sigterm", failure)


def case_fuzz(report, options, folder):
    iterations = options.fuzz_iterations or (800 if options.quick else 8000)

    class Out:
        def write(self, text):
            if text.startswith("FAILED"):
                print("  fuzz     " + text.rstrip()[:300])

    passed, failed, failures = fuzz.run(iterations=iterations, seed=options.seed, batch=40, out=Out(),
                                        report=os.path.join(folder, "fuzz-failures.json"))
    report.add("fuzz", "%d iterations, seed %d (batches of 40 lines)" % (iterations, options.seed),
               "%d passed, %d failed" % (passed, failed))
    for failure in failures[:5]:
        report.fail("fuzz", "batch seed %d (replay: python3 tests/fuzz.py --replay %d): %s"
                    % (failure["seed"], failure["seed"], failure["error"][:300]))


CASES = [("bigline", case_bigline), ("flood", case_flood), ("stall", case_stall), ("exit", case_exit),
         ("sigterm", case_sigterm), ("fuzz", case_fuzz)]


def main(argv=None):
    parser = argparse.ArgumentParser(description="The long fault run of minimcp (issue 9).")
    parser.add_argument("--quick", action="store_true", help="smaller sizes and counts")
    parser.add_argument("--only", default=None, help="comma-separated cases: " + ",".join(n for n, _ in CASES))
    parser.add_argument("--fuzz-iterations", type=int, default=None, help="default 8000 (800 with --quick)")
    parser.add_argument("--seed", type=int, default=1, help="fuzz seed (default 1)")
    options = parser.parse_args(argv)
    chosen = options.only.split(",") if options.only else [name for name, _ in CASES]
    report = Report()
    print("minimcp long fault run: %s, Python %s" % (", ".join(chosen), sys.version.split()[0]))
    started = time.monotonic()
    folder = tempfile.mkdtemp(prefix="minimcp-longrun-")
    for name, case in CASES:
        if name not in chosen:
            continue
        print("[%s]" % name)
        sys.stdout.flush()
        try:
            case(report, options, folder)
        except (Failure, AssertionError, OSError, KeyError, ValueError) as exc:
            report.fail(name, "%s: %s" % (type(exc).__name__, str(exc)[:1500]))
            traceback.print_exc(limit=3)
    print(report.table())
    print("total %.0fs" % (time.monotonic() - started))
    alive = [t for t in threading.enumerate() if t is not threading.current_thread() and not t.daemon]
    if alive:
        print("threads left in the runner: %r" % alive)
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
