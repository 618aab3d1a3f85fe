#!/usr/bin/env python3
"""An upstream restarted mid-session: the next call through the same bridge succeeds within 15 s.

    python bridge_restart.py --upstream minimcp|sdk    (a Python with mcp==2.3.0 and uvicorn)

The official Python SDK client is the host: it starts `minimcp.py bridge` over stdio, as hosts
start servers, and calls ``echo``. The upstream (minimcp's ``serve --http``, or the SDK's own
server, tests/interop/sdk_everything_http.py) is then killed; a call is made while it is down,
and the upstream starts again on the same port a second later, knowing nothing of the
session. That call must be answered within 15 s of being made, and a next one at once.
Both host eras: a handshake-era session (the bridge opens a new one: 404, initialize again)
and a 2026-07-28 host (nothing to reopen: the bridge retries the refused connection).

Prints ``ok``/``FAIL`` lines and ``N passed, N failed``; exit status 1 on any failure.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from python_sdk_client import (  # noqa: E402
    CLIENT_INFO,
    REPO_ROOT,
    CheckFailed,
    Client,
    Results,
    anyio,
    need,
    only_text,
)
from mcp.client.stdio import StdioServerParameters  # noqa: E402

HERE = Path(__file__).resolve().parent
#: How the bridge is started, as users start it: `python3 minimcp.py bridge URL`.
BRIDGE = ["python3", str(REPO_ROOT / "minimcp.py"), "bridge"]
LIMIT = 15.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Upstream:
    """The upstream server as a process of its own, started (and started again) on one port."""

    def __init__(self, kind: str, port: int, workdir: Path) -> None:
        self.kind, self.port, self.workdir = kind, port, workdir
        self.url = f"http://127.0.0.1:{port}/mcp"
        self.process = None

    def start(self) -> None:
        if self.kind == "minimcp":
            command = ["python3", str(REPO_ROOT / "minimcp.py"), "serve", "--http", f"127.0.0.1:{self.port}",
                       str(REPO_ROOT / "examples" / "everything.py")]
        else:
            command = [sys.executable, str(HERE / "sdk_everything_http.py"), str(self.workdir / "url"), str(self.port)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        start_new_session=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if self.process.poll() is not None:
                    raise CheckFailed(f"the {self.kind} upstream exited with status {self.process.returncode}")
                time.sleep(0.05)
        raise CheckFailed(f"the {self.kind} upstream did not listen on {self.port} within 20 s")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)     # a crash: no drain, no goodbye
            self.process.wait(10)


async def restarted(kind: str, era: str, workdir: Path) -> str:
    upstream = Upstream(kind, free_port(), workdir)
    upstream.start()
    try:
        params = StdioServerParameters(command=BRIDGE[0], args=BRIDGE[1:] + [upstream.url], cwd=str(REPO_ROOT),
                                       env={k: v for k, v in os.environ.items() if k.startswith(("PYTHON", "LANG", "LC_", "PATH"))})
        async with Client(params, mode="legacy" if era == "legacy" else "auto", read_timeout_seconds=30, cache=None,
                          client_info=CLIENT_INFO) as client:
            need(only_text(await client.call_tool("echo", {"text": "before"})) == "before", "echo before the restart")
            upstream.kill()
            outcome = {}

            async def call_while_down() -> None:
                started = time.monotonic()
                outcome["text"] = only_text(await client.call_tool("echo", {"text": "after"}))
                outcome["seconds"] = time.monotonic() - started

            async with anyio.create_task_group() as group:
                group.start_soon(call_while_down)
                await anyio.sleep(1.0)                       # the call waits while the upstream is down
                await anyio.to_thread.run_sync(upstream.start)
            need(outcome.get("text") == "after", f"the call across the restart returned {outcome!r}")
            need(outcome["seconds"] < LIMIT, f"the call across the restart took {outcome['seconds']:.1f} s (> {LIMIT} s)")
            started = time.monotonic()
            need(only_text(await client.call_tool("echo", {"text": "next"})) == "next", "echo after the restart")
            return f"answered {outcome['seconds']:.1f} s after it was made; the next call {time.monotonic() - started:.2f} s"
    finally:
        upstream.kill()


async def amain(kinds: list[str], workdir: Path) -> int:
    results = Results(verbose=False)
    for kind in kinds:
        for era in ("legacy", "modern"):
            await results.run(f"restart.{kind}.{'2025-11-25' if era == 'legacy' else '2026-07-28'}",
                              lambda kind=kind, era=era: restarted(kind, era, workdir), timeout=60)
    print(f"{results.passed} passed, {results.failed} failed", flush=True)
    return 1 if results.failed else 0


def main() -> int:
    import tempfile
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--upstream", choices=("minimcp", "sdk", "both"), default="both")
    args = parser.parse_args()
    kinds = ["minimcp", "sdk"] if args.upstream == "both" else [args.upstream]
    with tempfile.TemporaryDirectory(prefix="minimcp-bridge-restart-") as workdir:
        return anyio.run(amain, kinds, Path(workdir))


if __name__ == "__main__":
    sys.exit(main())
