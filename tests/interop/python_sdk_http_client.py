#!/usr/bin/env python3
"""Interop check: drive minimcp's Streamable HTTP with the official MCP Python SDK client.

Usage (run with a Python that has `mcp==2.3.0` and `jsonschema` installed; run_http_python_sdk.sh
starts the server and passes its URL):

    python python_sdk_http_client.py --url URL --logs DIR [--era legacy|modern|both] [-v]

The server is `tests/interop/http_server.py` serving examples/everything.py; it records every
JSON-RPC message of each HTTP exchange to DIR/<X-Interop-Log header>.jsonl, in the format of the
stdio tee, so the feature checks of python_sdk_client.py (imported from there, not copied) run
unchanged against the HTTP wire, and schema_check.py can validate it afterwards.

Stages (the same as the stdio stage, over the SDK's `streamable_http_client`):
  1. handshake.<rev>   initialize at 2024-11-05 .. 2025-11-25 (and an unknown version).
  2. 2025-11-25.*      the whole fixture over a legacy (initialize) HTTP session.
  3. 2026-07-28.*      the same feature set over the SDK's default path (server/discover
                       probe, per-request _meta, MRTR), each POST standing alone.
Each stage also checks the HTTP layer itself (http-framing): status and Content-Type of every
answer, the Mcp-Session-Id issued at initialize and echoed on every later request, the
MCP-Protocol-Version header, and (2026-07-28) no session at all.

Output: `ok <name>` / `FAIL <name>: why`, then `N passed, N failed`; exit status 1 on any failure.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import python_sdk_client as base  # noqa: E402  (the stdio stage: its checks are reused as they are)
from python_sdk_client import (  # noqa: E402
    CLIENT_INFO,
    HANDSHAKE_REVISIONS,
    MODERN,
    CheckFailed,
    Client,
    ClientSession,
    Fixture,
    Peer,
    Results,
    WireLog,
    anyio,
    check_discover,
    check_wire,
    describe,
    feature_checks,
    find_request,
    need,
    only_text,
    responses_for,
    text_blocks,
    types,
)

from mcp.client.streamable_http import streamable_http_client  # noqa: E402
from mcp.shared._httpx_utils import create_mcp_http_client  # noqa: E402

LOG_HEADER = "X-Interop-Log"


@asynccontextmanager
async def http_transport(url: str, log_name: str):
    """The SDK's streamable HTTP transport, on an httpx client that names this connection's log."""
    async with create_mcp_http_client(headers={LOG_HEADER: log_name}) as http:
        async with streamable_http_client(url, http_client=http) as streams:
            yield streams


def fresh_log(logs: Path, name: str) -> WireLog:
    path = logs / f"{name}.jsonl"
    path.unlink(missing_ok=True)  # the recorder appends; a kept directory may hold an older run
    return WireLog(path)


def check_http(log: WireLog, era: str) -> str:
    """The HTTP layer: statuses, content types, the session id and the version header."""
    recs = [r for r in log.records() if r.get("d") in ("c2s", "s2c")]
    need(recs, "nothing recorded (did the client send the X-Interop-Log header?)")
    problems: list[str] = []
    issued: set[str] = set()
    negotiated = None
    posts = 0
    for r in recs:
        http, m = r.get("http") or {}, r.get("msg")
        if r["d"] == "s2c":
            if http.get("status") not in ("200 OK",) and not (era == "modern" and isinstance(m, dict) and "error" in m):
                problems.append(f"status {http.get('status')!r} for {r['raw'][:80]!r}")
            ctype = (http.get("type") or "").split(";")[0]
            if ctype not in ("application/json", "text/event-stream"):
                problems.append(f"Content-Type {ctype!r}")
            if http.get("session"):
                issued.add(http["session"])
            if isinstance(m, dict) and isinstance(m.get("result"), dict) and "protocolVersion" in m["result"]:
                negotiated = m["result"]["protocolVersion"]
            continue
        posts += 1
        method = m.get("method") if isinstance(m, dict) else None
        if era == "modern":
            if http.get("session"):
                problems.append(f"2026-07-28 {method} carried Mcp-Session-Id")
            if http.get("version") != MODERN:
                problems.append(f"2026-07-28 {method} carried MCP-Protocol-Version {http.get('version')!r}")
            if method and http.get("mcp-method") != method:
                problems.append(f"{method}: Mcp-Method header {http.get('mcp-method')!r}")
            continue
        if method == "initialize":
            if http.get("session"):
                problems.append("initialize carried an Mcp-Session-Id")
            continue
        if not issued:
            problems.append(f"{method or 'answer'} sent before any Mcp-Session-Id was issued")
        elif http.get("session") not in issued:
            problems.append(f"{method or 'answer'} carried an Mcp-Session-Id the server never issued")
        if negotiated and http.get("version") != negotiated:
            problems.append(f"{method or 'answer'} carried MCP-Protocol-Version {http.get('version')!r}, "
                            f"negotiated {negotiated}")
    problems += stream_problems(log)
    if era != "modern":
        need(len(issued) == 1, f"expected one Mcp-Session-Id issued at initialize, saw {len(issued)}")
    need(not problems, f"{len(problems)} problem(s): " + " ; ".join(problems[:5]))
    return f"{posts} POSTs" + ("" if era == "modern" else ", one session id")


class HTTPFixture(Fixture):
    """The stdio stage's checks; only what the transport itself changes is overridden."""

    async def cancellation(self) -> str:
        if not self.modern:
            return await super().cancellation()
        # 2026-07-28 over HTTP: closing the SSE response stream *is* the cancellation; no
        # notifications/cancelled is expected (transports-streamable-http.mdx, "Cancellation").
        # No progress token: nothing is written before the answer, so the server has to probe the
        # connection to see the close (minimcp's disconnect_probe, 0.5 s); the tool runs 4 s.
        args = {"seconds": 4.0, "steps": 8}
        start = time.monotonic()
        with anyio.move_on_after(0.7):
            await self.call("slow", args)
            raise CheckFailed("slow(4 s) finished before the client cancelled it")
        t_abort = time.monotonic()
        await anyio.sleep(max(0.0, 4.0 + 0.8 - (time.monotonic() - start)))
        reqs = find_request(self.log, "tools/call", lambda p: p.get("arguments") == args)
        need(len(reqs) == 1, f"expected one cancelled slow request on the wire, found {len(reqs)}")
        rid = reqs[0][1]["id"]
        resp = responses_for(self.log, rid)
        need(not resp, f"server answered the cancelled request {rid!r}: {resp[0][1]!r}"[:300] if resp else "")
        ends = [r for r in self.log.records() if r.get("d") == "end" and r.get("id") == rid]
        need(ends, f"the response stream of request {rid!r} never ended on the server")
        # No answer went out (above). A server that learns of the close from a failed write has its
        # iterable closed early ("complete" false); one that watches the socket (minimcp's stdlib
        # server and gunicorn show it) ends the iterable itself, having written nothing.
        need(ends[0]["t"] - t_abort < 2.5, f"the server closed the stream {ends[0]['t'] - t_abort:.2f} s after the abort")
        cancels = [m for _, m in self.log.messages("c2s") if isinstance(m, dict) and m.get("method") == "notifications/cancelled"]
        need(only_text(await self.call("echo", {"text": "still alive"})) == "still alive", "echo after cancel failed")
        return (f"request {rid!r}: stream closed by the client, server closed it "
                f"{ends[0]['t'] - t_abort:.2f} s later, no response"
                + ("; client also sent notifications/cancelled" if cancels else ", no notifications/cancelled"))


def stream_problems(log: WireLog) -> list[str]:
    """Each server message on the stream the transport spec assigns it.

    A response on the POST that carried its request; progress, log messages and the server's
    requests on the POST of the request they belong to (progress: the one whose progressToken
    it carries); resource updates and list changes, which belong to no request, on the GET
    stream (handshake era) or the subscriptions/listen POST (2026-07-28).
    """
    sent = {json.dumps(m.get("id")): m for _, m in log.messages("c2s") if isinstance(m, dict) and "method" in m}
    problems = []
    for r in log.records():
        m, http = r.get("msg"), r.get("http") or {}
        if r.get("d") != "s2c" or not isinstance(m, dict):
            continue
        carrier = sent.get(json.dumps(http.get("for"))) if http.get("method") == "POST" else None
        method = m.get("method")
        what = method or f"response {m.get('id')!r}"
        if method is None:
            if carrier is None or carrier.get("id") != m.get("id"):
                problems.append(f"{what} on the stream of {http.get('method')} {http.get('for')!r}")
        elif method in ("notifications/resources/updated",) or method.endswith("/list_changed"):
            if carrier is not None and carrier.get("method") != "subscriptions/listen":
                problems.append(f"{what} on the stream of {carrier.get('method')} {carrier.get('id')!r}")
        elif carrier is None:
            problems.append(f"{what} on the {http.get('method')} stream, not on a request's")
        elif method == "notifications/progress":
            token = ((carrier.get("params") or {}).get("_meta") or {}).get("progressToken")
            if (m.get("params") or {}).get("progressToken") != token:
                problems.append(f"progress for another request on the stream of {carrier.get('id')!r}")
    return problems


async def handshake_at(url: str, logs: Path, requested: str, expect: tuple[str, ...]) -> str:
    """Initialize at `requested` through ClientSession over HTTP (Client(mode='legacy') offers 2025-11-25)."""
    name = f"handshake-{requested}"
    wire = fresh_log(logs, name)
    async with http_transport(url, name) as (read, write):
        async with ClientSession(read, write, read_timeout_seconds=10, client_info=CLIENT_INFO) as session:
            result = await session.send_request(
                types.InitializeRequest(
                    params=types.InitializeRequestParams(
                        protocol_version=requested,
                        capabilities=types.ClientCapabilities(),
                        client_info=CLIENT_INFO,
                    )
                ),
                types.InitializeResult,
            )
            need(result.protocol_version in expect,
                 f"requested {requested}, server answered protocolVersion {result.protocol_version!r}")
            need(result.server_info and result.server_info.name, "initialize result has no serverInfo.name")
            session.adopt(result)
            await session.send_notification(types.InitializedNotification())
            tools = await session.list_tools()
            need({"echo"} <= {t.name for t in tools.tools}, "tools/list after initialize lacks 'echo'")
            res = await session.call_tool("echo", {"text": f"at {requested}"})
            need(text_blocks(res) == [f"at {requested}"], f"echo at {requested} returned {res.content!r}")
    check_wire(wire, "legacy")
    check_http(wire, "legacy")
    init_reqs = find_request(wire, "initialize", lambda p: True)
    need(len(init_reqs) == 1, "initialize request not found on the wire")
    init = responses_for(wire, init_reqs[0][1]["id"])
    need(init and "result" in init[0][1], "initialize response not found on the wire")
    need("resultType" not in init[0][1]["result"], "initialize result carries the 2026-only 'resultType'")
    return f"protocolVersion {result.protocol_version} over HTTP"


async def stage_features(results: Results, url: str, logs: Path, era: str) -> None:
    prefix = "2025-11-25" if era == "legacy" else MODERN
    log = fresh_log(logs, era)
    peer = Peer()
    fx = HTTPFixture(None, peer, log, era)  # type: ignore[arg-type]
    checks = feature_checks(fx)
    done = 0
    connected = False
    try:
        client = Client(
            http_transport(url, era),
            mode="legacy" if era == "legacy" else "auto",
            read_timeout_seconds=20,
            cache=None,  # every call must reach the server
            client_info=CLIENT_INFO,
            sampling_callback=peer.sampling_callback,
            list_roots_callback=peer.list_roots_callback,
            elicitation_callback=peer.elicitation_callback,
            logging_callback=peer.logging_callback,
            message_handler=peer.message_handler,
        )
        async with client:
            fx.c = client
            connected = True

            async def connect_check() -> str:
                need(client.protocol_version == prefix, f"negotiated {client.protocol_version!r}, wanted {prefix}")
                if era == "modern":
                    return check_discover(log)
                info = client.server_info
                return f"server {info.name} {info.version}" if info else ""

            await results.run(f"{prefix}.connect", connect_check)
            for name, fn in checks:
                done += 1
                await results.run(f"{prefix}.{name}", fn)
    except Exception as exc:  # noqa: BLE001 - connect/teardown failure: report, keep going
        results.fail(f"{prefix}.connect" if not connected else f"{prefix}.session", describe(exc))
        for name, _ in checks[done:]:
            results.fail(f"{prefix}.{name}", "not run (connection failed)")
    await results.run(f"{prefix}.http-is-jsonrpc", lambda: base._async(check_wire, log, era))
    await results.run(f"{prefix}.http-framing", lambda: base._async(check_http, log, era))


async def amain(args: argparse.Namespace) -> int:
    results = Results(args.verbose)
    logs = Path(args.logs)
    logs.mkdir(parents=True, exist_ok=True)
    print(f"# server: {args.url}; wire logs in {logs}", flush=True)
    if args.era in ("legacy", "both"):
        for rev in HANDSHAKE_REVISIONS:
            await results.run(f"handshake.{rev}", lambda rev=rev: handshake_at(args.url, logs, rev, (rev,)))
        await results.run("handshake.unknown-version-counter-offer",
                          lambda: handshake_at(args.url, logs, "2023-01-01", ("2025-11-25",)))
        await stage_features(results, args.url, logs, "legacy")
    if args.era in ("modern", "both"):
        await stage_features(results, args.url, logs, "modern")
    print(f"{results.passed} passed, {results.failed} failed", flush=True)
    return 1 if results.failed else 0


def main() -> int:
    p = argparse.ArgumentParser(description="MCP Python SDK streamable HTTP client interop check")
    p.add_argument("--url", required=True, help="the MCP endpoint, e.g. http://127.0.0.1:PORT/mcp")
    p.add_argument("--logs", required=True, metavar="DIR", help="the directory the server records the wire to")
    p.add_argument("--era", choices=("legacy", "modern", "both"), default="both")
    p.add_argument("-v", "--verbose", action="store_true", help="print tracebacks of failing checks")
    return anyio.run(amain, p.parse_args())


if __name__ == "__main__":
    sys.exit(main())
