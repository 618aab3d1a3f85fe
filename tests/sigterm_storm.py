"""SIGTERM right after a response, many times over: does any server survive it?

    python3 tests/sigterm_storm.py                 # 300 rounds
    python3 tests/sigterm_storm.py --rounds 1000

Each round starts a fresh echo server, writes ``initialize``, ``initialized`` and one
``tools/call`` in a single write, and sends SIGTERM the moment the call's answer
arrives (which is when a client such as the AI SDK's ``close()`` does). A server
still running ``grace`` seconds later is a survivor: it is killed and counted.

The race this hunts: CPython runs a Python-level signal handler only on the main
thread, between bytecodes. If the signal lands on a worker thread while the main
thread sits in ``read()`` on stdin, the main thread never wakes, and the SIGTERM
is lost. ``tests/core/test_operation.py`` runs short storms with ``forked_storm`` (each server
forked from one helper that imported minimcp once); ``tests/longrun.py`` a long one, each
round a new interpreter.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

SERVER = '''
import sys
sys.path.insert(0, %r)
from minimcp import MCPServer
app = MCPServer("storm")

@app.tool()
def echo(text: str) -> str:
    return text

app.run()
''' % ROOT

OPENING = b"".join(json.dumps(m).encode() + b"\n" for m in (
    {"jsonrpc": "2.0", "id": 0, "method": "initialize",
     "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "storm", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "hi"}}},
))


def one_round(python: str = sys.executable, grace: float = 3.0) -> str:
    """Run one round; return "" when the server exited, or what went wrong."""
    process = subprocess.Popen([python, "-c", SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    try:
        process.stdin.write(OPENING)
        process.stdin.flush()
        while True:                                  # the echo's answer, then SIGTERM at once
            line = process.stdout.readline()
            if not line:
                return "stdout closed before the answer (status %r)" % process.wait(5)
            if json.loads(line).get("id") == 1:
                break
        process.send_signal(signal.SIGTERM)
        try:
            status = process.wait(grace)
        except subprocess.TimeoutExpired:
            return "still running %.1fs after SIGTERM" % grace
        return "" if status == 0 else "exit status %r" % status
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(5)
        for stream in (process.stdin, process.stdout):
            try:
                stream.close()
            except OSError:
                pass


def storm(rounds: int, python: str = sys.executable, grace: float = 3.0) -> list:
    """Run ``rounds`` rounds; return the failures, one string each."""
    failures = []
    for number in range(rounds):
        problem = one_round(python, grace)
        if problem:
            failures.append("round %d: %s" % (number, problem))
    return failures


# The same rounds without paying for a new interpreter each time: one helper process imports
# minimcp and builds the server once, then forks a fresh server process for every round (it
# has no threads of its own to fork). The child serves on two new pipes and, after run()
# returns, leaves as the script above does, through the interpreter's normal exit. The helper
# plays the client: the opening in one write, SIGTERM the moment the answer arrives, then it
# waits for the child's exit. It prints one JSON line per round: [status, seconds] or a problem.

FORKED = SERVER.replace("app.run()\n", "") + r'''
import json, os, select, signal, time

def wait_exit(pid, grace):
    """(exit status, seconds) once the child is gone, or None if it still runs after ``grace``."""
    started = time.monotonic()
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -os.WTERMSIG(status)
            return code, time.monotonic() - started
        if time.monotonic() - started > grace:
            return None
        time.sleep(0.001)                    # (the child is exiting: waitpid has no timeout)

def one_round(opening, answer_id, grace):
    in_read, in_write = os.pipe()
    out_read, out_write = os.pipe()
    sys.stdout.flush()
    pid = os.fork()
    if pid == 0:                             # the server: as if started with these pipes
        os.dup2(in_read, 0)
        os.dup2(out_write, 1)
        for fd in (in_read, in_write, out_read, out_write):
            os.close(fd)
        app.run()
        raise SystemExit(0)                  # through the interpreter's exit, like the script
    os.close(in_read)
    os.close(out_write)
    try:
        os.write(in_write, opening)
        pending = b""
        while True:                          # the answer, then SIGTERM at once
            if not select.select([out_read], [], [], 10)[0]:
                return "no answer within 10 s"
            chunk = os.read(out_read, 65536)
            if not chunk:
                return "stdout closed before the answer"
            pending += chunk
            lines = pending.split(b"\n")
            pending = lines.pop()
            if any(json.loads(line).get("id") == answer_id for line in lines):
                break
        os.kill(pid, signal.SIGTERM)
        ended = wait_exit(pid, grace)
        if ended is None:
            return "still running %.1fs after SIGTERM" % grace
        return list(ended)
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except OSError:
            pass
        os.close(in_write)
        os.close(out_read)

settings = json.loads(sys.argv[1])
app.shutdown_grace = settings["shutdown_grace"]
for number in range(settings["rounds"]):
    result = one_round(settings["opening"].encode("utf-8"), settings["answer_id"], settings["grace"])
    sys.stdout.write(json.dumps(result) + "\n")
'''


def forked_storm(rounds: int, opening: bytes = OPENING, answer_id=1, grace: float = 3.0,
                 python: str = sys.executable, timeout: float = 120.0, shutdown_grace: float = 1.0) -> list:
    """``rounds`` rounds, each server forked from one helper (POSIX); returns, per round,
    ``[exit status, seconds from SIGTERM to exit]`` or a string saying what went wrong.
    ``grace``: how long each exit may take; ``shutdown_grace``: the server's own setting."""
    settings = {"rounds": rounds, "opening": opening.decode("utf-8"), "answer_id": answer_id, "grace": grace,
                "shutdown_grace": shutdown_grace}
    done = subprocess.run([python, "-c", FORKED, json.dumps(settings)], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=timeout)
    results = [json.loads(line) for line in done.stdout.splitlines()]
    if done.returncode != 0 or len(results) != rounds:
        raise AssertionError("the storm helper failed (status %r, %d of %d rounds):\n%s"
                             % (done.returncode, len(results), rounds, done.stderr.decode("utf-8", "replace")))
    return results


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--python", default=sys.executable)
    options = parser.parse_args(argv)
    started = time.monotonic()
    failures = storm(options.rounds, options.python)
    for failure in failures:
        print(failure)
    print("%d rounds in %.0fs: %d survivors or failures" % (options.rounds, time.monotonic() - started,
                                                            len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
