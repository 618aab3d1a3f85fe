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
is lost. ``tests/test_process.py`` runs a short storm; ``tests/longrun.py`` a long one.
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
