#!/usr/bin/env python3
"""Interop check: drive an MCP stdio server with the official MCP Python SDK client.

Usage (run with a Python that has `mcp==2.3.0` and `jsonschema` installed):

    python python_sdk_client.py [--era legacy|modern|both] [-- SERVER_CMD...]

The default server is `<this python> examples/everything.py`, started in the
repository root.  Every check prints `ok <name>` or `FAIL <name>: why`; the
last line is `N passed, N failed` and the exit status is non-zero on any
failure.

Stages:
  1. handshake.<rev>   initialize at 2024-11-05 / 2025-03-26 / 2025-06-18 /
                       2025-11-25; the server must echo the requested revision.
  2. 2025-11-25.*      the whole fixture over a legacy (initialize) connection.
  3. 2026-07-28.*      the same feature set over the SDK's default path
                       (`server/discover` probe, per-request `_meta`, MRTR).

The server is started through this same file in `--tee` mode (stdlib only),
which relays stdin/stdout unchanged and records every line in both directions,
so the checks can look at the raw wire (JSON-RPC validity of every server
line, ids of cancelled requests, the MRTR round trip, ...).

Internal mode (used by the checks themselves):

    python python_sdk_client.py --tee LOGFILE -- SERVER_CMD...
"""

from __future__ import annotations

import json
import os
import sys
import time

# --------------------------------------------------------------------------
# tee mode: stdlib only, no SDK import (keeps server start-up fast)
# --------------------------------------------------------------------------


def tee_main(log_path: str, cmd: list[str]) -> int:
    import subprocess
    import threading

    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    lock = threading.Lock()
    log = open(log_path, "a", encoding="utf-8")

    def record(direction: str, raw: bytes) -> None:
        newline = raw.endswith(b"\n")
        body = raw[:-1] if newline else raw
        try:
            text = body.decode("utf-8")
            utf8 = True
        except UnicodeDecodeError:
            text = body.decode("utf-8", "replace")
            utf8 = False
        rec = {"d": direction, "t": time.monotonic(), "raw": text, "utf8": utf8, "nl": newline}
        with lock:
            log.write(json.dumps(rec, ensure_ascii=True) + "\n")
            log.flush()

    def client_to_server() -> None:
        src = sys.stdin.buffer
        try:
            while True:
                line = src.readline()
                if not line:
                    break
                record("c2s", line)
                proc.stdin.write(line)
                proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass
        finally:
            try:
                proc.stdin.close()
            except OSError:
                pass

    threading.Thread(target=client_to_server, daemon=True).start()
    out = sys.stdout.buffer
    try:
        while True:
            line = proc.stdout.readline()
            if not line:
                break
            record("s2c", line)
            try:
                out.write(line)
                out.flush()
            except (BrokenPipeError, OSError):
                pass
    finally:
        code = proc.wait()
        with lock:
            log.write(json.dumps({"d": "exit", "t": time.monotonic(), "code": code}) + "\n")
            log.close()
    return code


if len(sys.argv) > 1 and sys.argv[1] == "--tee":
    if len(sys.argv) < 5 or sys.argv[3] != "--":
        sys.stderr.write("usage: python_sdk_client.py --tee LOGFILE -- CMD...\n")
        sys.exit(2)
    _code = tee_main(sys.argv[2], sys.argv[4:])
    try:
        sys.stdout.flush()
    except OSError:
        pass
    # os._exit: the stdin relay thread may still be blocked in read(); a normal
    # interpreter shutdown would then abort with "could not acquire lock".
    os._exit(_code if 0 <= _code < 256 else 1)

# --------------------------------------------------------------------------
# client mode
# --------------------------------------------------------------------------

import argparse  # noqa: E402
import tempfile  # noqa: E402
import traceback  # noqa: E402
import warnings  # noqa: E402
from contextlib import asynccontextmanager  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any, Awaitable, Callable  # noqa: E402

try:
    import anyio
    import jsonschema
    import mcp_types as types
    from mcp import Client
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client
    from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
except ImportError as exc:  # pragma: no cover - environment problem
    print(f"FAIL environment: cannot import the MCP Python SDK / jsonschema ({exc}); run run_python_sdk.sh")
    print("0 passed, 1 failed")
    sys.exit(1)

warnings.filterwarnings("ignore", category=MCPDeprecationWarning)

REPO_ROOT = Path(__file__).resolve().parents[2]
HANDSHAKE_REVISIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MODERN = "2026-07-28"
EXPECTED_TOOLS = {"echo", "add", "fail", "log", "slow", "sample", "ask_roots", "elicit", "touch"}
LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel"
ROOTS = ("file:///tmp/minimcp-interop/root-one", "file:///tmp/minimcp-interop/root-two")
ELICIT_NAME = "Zoë Interop"
CLIENT_INFO = types.Implementation(name="minimcp-interop-python-sdk", version="1.0")
CHECK_TIMEOUT = 30.0


class CheckFailed(Exception):
    pass


def need(cond: Any, why: str) -> None:
    if not cond:
        raise CheckFailed(why)


def describe(exc: BaseException) -> str:
    subs = getattr(exc, "exceptions", None)
    if subs:
        return "; ".join(describe(e) for e in subs)
    if isinstance(exc, CheckFailed):
        return str(exc)
    if isinstance(exc, MCPError):
        return f"MCPError {exc.code}: {exc.message}" + (f" (data={exc.data!r})" if exc.data is not None else "")
    if isinstance(exc, TimeoutError):
        return "timed out" + (f": {exc}" if str(exc) else "")
    text = str(exc).strip().replace("\n", " | ")
    return f"{type(exc).__name__}: {text[:400]}"


class Results:
    def __init__(self, verbose: bool) -> None:
        self.passed = 0
        self.failed = 0
        self.verbose = verbose

    def ok(self, name: str, detail: str = "") -> None:
        self.passed += 1
        print(f"ok {name}" + (f"  ({detail})" if detail else ""), flush=True)

    def fail(self, name: str, why: str) -> None:
        self.failed += 1
        print(f"FAIL {name}: {why}", flush=True)

    async def run(self, name: str, fn: Callable[[], Awaitable[Any]], timeout: float = CHECK_TIMEOUT) -> bool:
        try:
            with anyio.fail_after(timeout):
                detail = await fn()
        except Exception as exc:  # noqa: BLE001 - every failure is reported, never fatal
            if self.verbose:
                traceback.print_exc()
            self.fail(name, describe(exc))
            return False
        self.ok(name, detail if isinstance(detail, str) else "")
        return True


# --------------------------------------------------------------------------
# wire log written by --tee
# --------------------------------------------------------------------------


class WireLog:
    def __init__(self, path: Path) -> None:
        self.path = path

    def records(self) -> list[dict[str, Any]]:
        out = []
        if not self.path.exists():
            return out
        for line in self.path.read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            if rec.get("d") in ("c2s", "s2c"):
                try:
                    rec["msg"] = json.loads(rec["raw"])
                except ValueError:
                    rec["msg"] = None
            out.append(rec)
        return out

    def exit_note(self) -> str:
        codes = [r.get("code") for r in self.records() if r.get("d") == "exit"]
        return f" [server exited with code {codes[-1]}]" if codes else ""

    def messages(self, direction: str) -> list[tuple[float, Any]]:
        return [(r["t"], r["msg"]) for r in self.records() if r.get("d") == direction]


def find_request(log: WireLog, method: str, pred: Callable[[dict], bool]) -> list[tuple[float, dict]]:
    out = []
    for t, m in log.messages("c2s"):
        if isinstance(m, dict) and m.get("method") == method and "id" in m and pred(m.get("params") or {}):
            out.append((t, m))
    return out


def responses_for(log: WireLog, rid: Any) -> list[tuple[float, dict]]:
    return [
        (t, m)
        for t, m in log.messages("s2c")
        if isinstance(m, dict) and "method" not in m and m.get("id") == rid and type(m.get("id")) is type(rid)
    ]


def check_wire(log: WireLog, era: str) -> str:
    """Every line the server wrote must be one valid JSON-RPC 2.0 message."""
    recs = log.records()
    sent_ids: set = set()
    answered: set = set()
    problems: list[str] = []
    count = 0
    for r in recs:
        if r.get("d") == "c2s" and isinstance(r.get("msg"), dict):
            m = r["msg"]
            if "method" in m and "id" in m:
                sent_ids.add(json.dumps(m["id"]))
            continue
        if r.get("d") != "s2c":
            continue
        count += 1
        where = f"line {count} {r['raw'][:120]!r}"
        if not r["utf8"]:
            problems.append(f"{where}: not UTF-8")
        if not r["nl"]:
            problems.append(f"{where}: not newline-terminated")
        m = r.get("msg")
        if m is None:
            problems.append(f"{where}: not JSON")
            continue
        if not isinstance(m, dict):
            problems.append(f"{where}: not a JSON object (batches are not allowed here)")
            continue
        if m.get("jsonrpc") != "2.0":
            problems.append(f"{where}: jsonrpc != '2.0'")
        if "method" in m:
            if not isinstance(m["method"], str):
                problems.append(f"{where}: method not a string")
            if "params" in m and not isinstance(m["params"], dict):
                problems.append(f"{where}: params not an object")
            if "id" in m:
                if era == "modern":
                    problems.append(f"{where}: server sent a request on a 2026-07-28 connection")
                if isinstance(m["id"], bool) or not isinstance(m["id"], (str, int)):
                    problems.append(f"{where}: bad request id")
            extra = set(m) - {"jsonrpc", "method", "params", "id"}
            if extra:
                problems.append(f"{where}: unexpected members {sorted(extra)}")
            continue
        if "id" not in m:
            problems.append(f"{where}: neither request, notification nor response")
            continue
        has_result, has_error = "result" in m, "error" in m
        if has_result == has_error:
            problems.append(f"{where}: response must have exactly one of result/error")
        extra = set(m) - {"jsonrpc", "id", "result", "error"}
        if extra:
            problems.append(f"{where}: unexpected members {sorted(extra)}")
        if has_result:
            if not isinstance(m["result"], dict):
                problems.append(f"{where}: result is not an object")
            elif era == "modern" and m["result"].get("resultType") not in ("complete", "input_required"):
                problems.append(f"{where}: 2026-07-28 result without a valid resultType")
        if has_error:
            e = m["error"]
            if not (isinstance(e, dict) and isinstance(e.get("code"), int) and isinstance(e.get("message"), str)):
                problems.append(f"{where}: malformed error object")
        key = json.dumps(m["id"])
        if m["id"] is not None:
            if key not in sent_ids:
                problems.append(f"{where}: response to an id the client never sent")
            if key in answered:
                problems.append(f"{where}: second response for the same id")
            answered.add(key)
    need(count > 0, "the server wrote nothing to stdout")
    need(not problems, f"{len(problems)} bad line(s): " + " ; ".join(problems[:5]))
    return f"{count} server lines checked"


# --------------------------------------------------------------------------
# client-side callbacks and notification capture
# --------------------------------------------------------------------------


class Peer:
    """Callbacks the SDK client runs for sampling/roots/elicitation, plus notification capture."""

    def __init__(self) -> None:
        self.notifications: list[tuple[float, Any]] = []
        self.logs: list[types.LoggingMessageNotificationParams] = []
        self.transport_errors: list[Exception] = []
        self.sampling_calls: list[types.CreateMessageRequestParams] = []
        self.elicit_calls: list[types.ElicitRequestParams] = []
        self.roots_calls = 0

    async def message_handler(self, message: Any) -> None:
        if isinstance(message, Exception):
            self.transport_errors.append(message)
        else:
            self.notifications.append((time.monotonic(), message))

    async def logging_callback(self, params: types.LoggingMessageNotificationParams) -> None:
        self.logs.append(params)

    async def sampling_callback(self, context: Any, params: types.CreateMessageRequestParams) -> Any:
        self.sampling_calls.append(params)
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text=f"SDK-SAMPLED-REPLY-{len(self.sampling_calls)}"),
            model="interop-model",
            stop_reason="endTurn",
        )

    async def list_roots_callback(self, context: Any) -> Any:
        self.roots_calls += 1
        return types.ListRootsResult(roots=[types.Root(uri=ROOTS[0], name="one"), types.Root(uri=ROOTS[1], name="two")])

    async def elicitation_callback(self, context: Any, params: types.ElicitRequestParams) -> Any:
        self.elicit_calls.append(params)
        if "decline" in (params.message or "").lower():
            return types.ElicitResult(action="decline")
        return types.ElicitResult(action="accept", content={"name": ELICIT_NAME})

    def of(self, cls: type, since: int = 0) -> list[Any]:
        return [n for _, n in self.notifications[since:] if isinstance(n, cls)]


def text_blocks(result: types.CallToolResult) -> list[str]:
    return [c.text for c in result.content if isinstance(c, types.TextContent)]


def only_text(result: types.CallToolResult) -> str:
    need(not result.is_error, f"isError result: {text_blocks(result)!r}")
    blocks = text_blocks(result)
    need(len(result.content) == 1 and len(blocks) == 1, f"expected exactly one text block, got {result.content!r}")
    return blocks[0]


async def settle(seconds: float = 0.3) -> None:
    await anyio.sleep(seconds)


# --------------------------------------------------------------------------
# connections
# --------------------------------------------------------------------------


def server_params(server_cmd: list[str], log_path: Path) -> StdioServerParameters:
    env = {k: v for k, v in os.environ.items() if k.startswith(("PYTHON", "LANG", "LC_"))}
    return StdioServerParameters(
        command=sys.executable,
        args=[str(Path(__file__).resolve()), "--tee", str(log_path), "--", *server_cmd],
        cwd=str(REPO_ROOT),
        env=env,
    )


@asynccontextmanager
async def open_client(server_cmd: list[str], log_path: Path, peer: Peer, mode: str):
    client = Client(
        server_params(server_cmd, log_path),
        mode=mode,
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
        yield client


# --------------------------------------------------------------------------
# stage 1: handshake at each legacy revision
# --------------------------------------------------------------------------


async def handshake_at(server_cmd: list[str], workdir: Path, requested: str, expect: tuple[str, ...]) -> str:
    """Initialize at `requested` through ClientSession (Client(mode='legacy') always offers 2025-11-25)."""
    log = workdir / f"handshake-{requested}.jsonl"
    async with stdio_client(server_params(server_cmd, log)) as (read, write):
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
            need(
                result.protocol_version in expect,
                f"requested {requested}, server answered protocolVersion {result.protocol_version!r}"
                f" (expected {' or '.join(expect)})",
            )
            need(result.server_info and result.server_info.name, "initialize result has no serverInfo.name")
            session.adopt(result)
            await session.send_notification(types.InitializedNotification())
            # the connection must be usable at that revision (the SDK validates results against it)
            tools = await session.list_tools()
            need({"echo"} <= {t.name for t in tools.tools}, "tools/list after initialize lacks 'echo'")
            res = await session.call_tool("echo", {"text": f"at {requested}"})
            need(text_blocks(res) == [f"at {requested}"], f"echo at {requested} returned {res.content!r}")
    wire = WireLog(log)
    check_wire(wire, "legacy")
    init_reqs = find_request(wire, "initialize", lambda p: True)
    need(len(init_reqs) == 1, "initialize request not found on the wire")
    init = responses_for(wire, init_reqs[0][1]["id"])
    need(init and "result" in init[0][1], "initialize response not found on the wire")
    need("resultType" not in init[0][1]["result"], "initialize result carries the 2026-only 'resultType'")
    return f"server: {result.server_info.name} {result.server_info.version}, protocolVersion {result.protocol_version}"


async def stage_handshake(results: Results, server_cmd: list[str], workdir: Path) -> None:
    for rev in HANDSHAKE_REVISIONS:
        await results.run(f"handshake.{rev}", lambda rev=rev: handshake_at(server_cmd, workdir, rev, (rev,)))
    # normative counter-offer: unsupported version -> the server's own (latest) legacy version, not an error
    await results.run(
        "handshake.unknown-version-counter-offer",
        lambda: handshake_at(server_cmd, workdir, "2023-01-01", ("2025-11-25",)),
    )


# --------------------------------------------------------------------------
# the feature set, shared by stages 2 and 3
# --------------------------------------------------------------------------


class Fixture:
    def __init__(self, client: Client, peer: Peer, log: WireLog, era: str) -> None:
        self.c = client
        self.peer = peer
        self.log = log
        self.era = era  # "legacy" | "modern"
        self.tools: dict[str, types.Tool] = {}

    @property
    def modern(self) -> bool:
        return self.era == "modern"

    async def call(self, name: str, args: dict | None = None, **kw: Any) -> types.CallToolResult:
        return await self.c.call_tool(name, args or {}, **kw)

    # ---- basic ----------------------------------------------------------
    async def ping(self) -> str:
        res = await self.c.send_ping()
        need(isinstance(res, types.EmptyResult), f"unexpected ping result {res!r}")
        return ""

    async def tools_list(self) -> str:
        res = await self.c.list_tools()
        self.tools = {t.name: t for t in res.tools}
        missing = EXPECTED_TOOLS - set(self.tools)
        need(not missing, f"missing tools {sorted(missing)}")
        for t in res.tools:
            need(t.input_schema.get("type") == "object", f"tool {t.name}: inputSchema.type != 'object'")
        echo = self.tools["echo"].input_schema
        need(echo.get("properties", {}).get("text", {}).get("type") == "string", "echo.text is not a string property")
        need("text" in (echo.get("required") or []), "echo.text is not required")
        add = self.tools["add"]
        need(isinstance(add.output_schema, dict), "add has no outputSchema")
        need(add.output_schema.get("type") == "object", "add.outputSchema.type != 'object'")
        jsonschema.Draft202012Validator.check_schema(add.output_schema)
        for name in ("sample", "touch", "log"):
            req = self.tools[name].input_schema.get("required") or []
            want = {"sample": "prompt", "touch": "uri", "log": "message"}[name]
            need(want in req, f"{name}.{want} is not required")
        need("message" not in (self.tools["fail"].input_schema.get("required") or []), "fail.message must be optional")
        return f"{len(res.tools)} tools"

    async def echo(self) -> str:
        samples = [
            "hello",
            'double "quotes", single \'quotes\' and a back\\slash',
            "line one\nline two\r\nline three\n",
            "tab\there, NUL-free control \u0001 char",
            "unicode: Zoë ☃ 日本語 🎉 \u2028 separator",
            '{"looks": ["like", "json"]}',
            "",
        ]
        for s in samples:
            got = only_text(await self.call("echo", {"text": s}))
            need(got == s, f"echo round-trip mismatch: sent {s!r}, got {got!r}")
        return f"{len(samples)} strings round-tripped"

    async def add(self) -> str:
        schema = self.tools["add"].output_schema if "add" in self.tools else None
        if schema is None:
            schema = {t.name: t for t in (await self.c.list_tools()).tools}["add"].output_schema
        need(schema, "add has no outputSchema")
        notes = []
        for a, b in ((2, 3), (0.5, 0.25), (-7, 7)):
            res = await self.call("add", {"a": a, "b": b})
            text = only_text(res)
            try:
                value = float(text)
            except ValueError:
                raise CheckFailed(f"add({a}, {b}) text block {text!r} is not a number") from None
            need(value == a + b, f"add({a}, {b}) text {text!r} != {a + b}")
            if (a, b) == (2, 3) and text != "5":
                notes.append(f"2+3 rendered as {text!r}")
            sc = res.structured_content
            need(isinstance(sc, dict) and set(sc) == {"result"}, f"structuredContent {sc!r} is not {{'result': ...}}")
            need(sc["result"] == a + b, f"structuredContent.result {sc['result']!r} != {a + b}")
            jsonschema.validate(sc, schema)
        return "; ".join(notes)

    async def fail(self) -> str:
        res = await self.call("fail", {})
        need(res.is_error is True, f"fail: isError is {res.is_error!r}")
        need(any("boom" in t for t in text_blocks(res)), f"fail: default message 'boom' missing from {res.content!r}")
        res = await self.call("fail", {"message": "kaputt ✗ 42"})
        need(res.is_error is True, "fail(message): isError is not true")
        need(any("kaputt ✗ 42" in t for t in text_blocks(res)), f"fail: message missing from {res.content!r}")
        return ""

    async def print_stdout(self) -> str:
        """Fixture extra: a tool that prints to stdout 3 ways; the stdout-is-jsonrpc check then sees the wire."""
        if "print_stdout" not in self.tools:
            return "skipped: fixture has no print_stdout tool"
        need(only_text(await self.call("print_stdout", {"text": "stray-output"})) == "printed", "print_stdout result")
        need(only_text(await self.call("echo", {"text": "after print"})) == "after print", "echo after print_stdout")
        stray = [r for r in self.log.records() if r.get("d") == "s2c" and "stray-output" in r["raw"]]
        need(not stray, f"stray output reached the protocol stream: {stray[0]['raw'][:80]!r}" if stray else "")
        return ""

    async def long_job(self) -> str:
        """The task-capable tool, as a plain call (the SDK 2.x client does not speak tasks)."""
        need("long_job" in self.tools, "long_job missing from tools/list")
        text = only_text(await self.call("long_job", {"seconds": 0.1}))
        need(text.startswith("finished after 0.1"), f"long_job returned {text!r}")
        return ""

    async def unknown_tool(self) -> str:
        try:
            res = await self.call("no_such_tool_xyz", {})
        except MCPError as e:
            need(e.code == -32602, f"unknown tool: error code {e.code} (expected -32602 Invalid params)")
            return f"JSON-RPC error {e.code}"
        need(res.is_error is True, "unknown tool returned a successful result")
        return "isError result (spec prefers a -32602 JSON-RPC error)"

    async def progress(self) -> str:
        seen: list[tuple[float, float | None, str | None]] = []

        async def on_progress(p: float, total: float | None, message: str | None) -> None:
            seen.append((p, total, message))

        res = await self.call("slow", {"seconds": 0.5, "steps": 5}, progress_callback=on_progress)
        need(only_text(res) == "done", "slow did not return 'done'")
        await settle(0.1)
        values = [p for p, _, _ in seen]
        need(len(seen) == 5, f"expected 5 progress notifications, got {len(seen)}: {values}")
        need(all(b > a for a, b in zip(values, values[1:])), f"progress not strictly increasing: {values}")
        need(values == [1, 2, 3, 4, 5], f"progress values {values} != [1..5]")
        need(all(t == 5 for _, t, _ in seen), f"total != steps: {[t for _, t, _ in seen]}")
        # progress must use the token the client sent
        reqs = find_request(self.log, "tools/call", lambda p: p.get("arguments") == {"seconds": 0.5, "steps": 5})
        need(reqs, "could not find the slow request on the wire")
        token = reqs[-1][1]["params"]["_meta"]["progressToken"]
        wire = [
            m
            for _, m in self.log.messages("s2c")
            if isinstance(m, dict) and m.get("method") == "notifications/progress"
        ]
        need(all(m["params"].get("progressToken") == token for m in wire), "progress with a foreign progressToken")
        return f"progress {values}, total 5"

    async def cancellation(self) -> str:
        args = {"seconds": 2.2, "steps": 11}
        got: list[float] = []

        async def on_progress(p: float, total: float | None, message: str | None) -> None:
            got.append(p)

        start = time.monotonic()
        with anyio.move_on_after(0.7):
            await self.call("slow", args, progress_callback=on_progress)
            raise CheckFailed("slow(2.2 s) finished before the client cancelled it")
        # wait past the time the tool would have finished, then inspect the wire
        await anyio.sleep(max(0.0, 2.2 + 0.8 - (time.monotonic() - start)))
        reqs = find_request(self.log, "tools/call", lambda p: p.get("arguments") == args)
        need(len(reqs) == 1, f"expected one cancelled slow request on the wire, found {len(reqs)}")
        rid = reqs[0][1]["id"]
        cancels = [
            (t, m)
            for t, m in self.log.messages("c2s")
            if isinstance(m, dict)
            and m.get("method") == "notifications/cancelled"
            and (m.get("params") or {}).get("requestId") == rid
        ]
        need(cancels, f"the SDK did not send notifications/cancelled for id {rid!r}")
        resp = responses_for(self.log, rid)
        if resp:
            raise CheckFailed(f"server answered the cancelled request {rid!r}: {resp[0][1]!r}"[:300])
        t_cancel = cancels[0][0]
        late = [
            m
            for t, m in self.log.messages("s2c")
            if t > t_cancel + 0.25
            and isinstance(m, dict)
            and m.get("method") == "notifications/progress"
            and (m.get("params") or {}).get("progressToken") == rid
        ]
        need(not late, f"{len(late)} progress notification(s) for the cancelled request after the cancel")
        # server still serves
        need(only_text(await self.call("echo", {"text": "still alive"})) == "still alive", "echo after cancel failed")
        return f"request {rid!r} cancelled after {len(got)} progress step(s), no response"

    async def concurrency(self) -> str:
        outs: list[str] = []

        async def one() -> None:
            outs.append(only_text(await self.call("slow", {"seconds": 1, "steps": 2})))

        start = time.monotonic()
        async with anyio.create_task_group() as tg:
            for _ in range(3):
                tg.start_soon(one)
        elapsed = time.monotonic() - start
        need(outs == ["done"] * 3, f"results {outs!r}")
        need(elapsed < 2.5, f"three 1 s calls took {elapsed:.2f} s (not concurrent)")
        return f"{elapsed:.2f} s"

    # ---- client features ------------------------------------------------
    async def sampling(self) -> str:
        before = len(self.peer.sampling_calls)
        prompt = "Say hi to the interop test ✓"
        text = only_text(await self.call("sample", {"prompt": prompt}))
        calls = self.peer.sampling_calls[before:]
        need(len(calls) == 1, f"sampling callback ran {len(calls)} times (expected 1)")
        p = calls[0]
        need(len(p.messages) == 1, f"{len(p.messages)} sampling messages (expected 1)")
        msg = p.messages[0]
        need(msg.role == "user", f"sampling message role {msg.role!r}")
        content = msg.content if not isinstance(msg.content, list) else msg.content[0]
        need(isinstance(content, types.TextContent) and content.text == prompt, f"sampling content {content!r}")
        need(p.max_tokens <= 100, f"maxTokens {p.max_tokens} > 100")
        reply = f"SDK-SAMPLED-REPLY-{len(self.peer.sampling_calls)}"
        need(reply in text, f"tool result {text!r} does not contain the client's reply {reply!r}")
        return self._mrtr_evidence("sample")

    async def roots(self) -> str:
        before = self.peer.roots_calls
        text = only_text(await self.call("ask_roots", {}))
        need(self.peer.roots_calls == before + 1, "roots callback did not run exactly once")
        for uri in ROOTS:
            need(uri in text, f"root {uri} missing from {text!r}")
        return self._mrtr_evidence("ask_roots")

    async def elicitation(self) -> str:
        before = len(self.peer.elicit_calls)
        text = only_text(await self.call("elicit", {"message": "What is your name?"}))
        calls = self.peer.elicit_calls[before:]
        need(len(calls) == 1, f"elicitation callback ran {len(calls)} times")
        p = calls[0]
        need(getattr(p, "mode", "form") in (None, "form"), f"elicitation mode {getattr(p, 'mode', None)!r}")
        schema = p.requested_schema
        need(schema.get("type") == "object", f"requestedSchema.type {schema.get('type')!r}")
        need(schema.get("properties", {}).get("name", {}).get("type") == "string", "requestedSchema lacks string 'name'")
        need("accept" in text and ELICIT_NAME in text, f"accept result {text!r} lacks 'accept' and the name")
        text = only_text(await self.call("elicit", {"message": "Please decline this"}))
        need("decline" in text and ELICIT_NAME not in text, f"decline result {text!r}")
        return self._mrtr_evidence("elicit")

    def _mrtr_evidence(self, tool: str) -> str:
        """On 2026-07-28 the answer must come through InputRequiredResult + retry, not a server request."""
        if not self.modern:
            srv_reqs = [
                m for _, m in self.log.messages("s2c") if isinstance(m, dict) and "method" in m and "id" in m
            ]
            need(srv_reqs, "no server->client request seen on the wire")
            return "server->client request"
        calls = find_request(self.log, "tools/call", lambda p: p.get("name") == tool)
        need(len(calls) >= 2, f"expected the first call plus an MRTR retry, saw {len(calls)} tools/call for {tool}")
        first, retry = calls[-2][1], calls[-1][1]
        resp = responses_for(self.log, first["id"])
        need(resp and resp[0][1].get("result", {}).get("resultType") == "input_required", "no input_required result")
        ir = resp[0][1]["result"]
        need(retry["id"] != first["id"], "retry reused the JSON-RPC id")
        need("inputResponses" in retry["params"], "retry carries no inputResponses")
        if "requestState" in ir:
            need(retry["params"].get("requestState") == ir["requestState"], "requestState not echoed byte-for-byte")
        need(set(retry["params"]["inputResponses"]) == set(ir.get("inputRequests") or {}), "inputResponses keys differ")
        return f"MRTR: inputRequests {sorted(ir.get('inputRequests') or {})}"

    # ---- resources ------------------------------------------------------
    async def resources_list(self) -> str:
        res = await self.c.list_resources()
        hello = [r for r in res.resources if str(r.uri) == "fixture://hello"]
        need(hello, f"fixture://hello not listed: {[str(r.uri) for r in res.resources]}")
        need(hello[0].mime_type == "text/plain", f"mimeType {hello[0].mime_type!r}")
        return ""

    async def resources_read(self) -> str:
        res = await self.c.read_resource("fixture://hello")
        need(len(res.contents) == 1, f"{len(res.contents)} contents")
        c = res.contents[0]
        need(isinstance(c, types.TextResourceContents), f"not text contents: {c!r}")
        need(c.text == "Hello, world!", f"text {c.text!r}")
        need(str(c.uri) == "fixture://hello", f"uri {c.uri!r}")
        return ""

    async def templates(self) -> str:
        res = await self.c.list_resource_templates()
        uts = [t.uri_template for t in res.resource_templates]
        need("fixture://greeting/{name}" in uts, f"template not listed: {uts}")
        for name in ("Ada", "bob-42"):
            got = await self.c.read_resource(f"fixture://greeting/{name}")
            text = got.contents[0].text if got.contents else None
            need(text == f"Hello, {name}!", f"greeting/{name} -> {text!r}")
        return ""

    async def unknown_resource(self) -> str:
        want = -32602 if self.modern else -32002
        try:
            res = await self.c.read_resource("fixture://does-not-exist")
        except MCPError as e:
            need(e.code == want, f"error code {e.code} (expected {want})")
            return f"{e.code} {e.message}"
        raise CheckFailed(f"read of an unknown resource succeeded: {res!r}"[:300])

    async def subscriptions(self) -> str:
        uri = "fixture://hello"
        if self.modern:
            async with self.c.listen(resource_subscriptions=[uri]) as sub:
                need(uri in (sub.honored.resource_subscriptions or []), f"listen ack did not honour {uri}")
                need(only_text(await self.call("touch", {"uri": uri})) == "touched", "touch result")
                with anyio.fail_after(3):
                    event = await sub.__anext__()
                need(getattr(event, "uri", None) == uri, f"unexpected event {event!r}")
                sid = sub.subscription_id
            tagged = [
                m
                for _, m in self.log.messages("s2c")
                if isinstance(m, dict) and m.get("method") == "notifications/resources/updated"
            ]
            need(tagged, "no notifications/resources/updated on the wire")
            meta = (tagged[-1].get("params") or {}).get("_meta") or {}
            need(meta.get("io.modelcontextprotocol/subscriptionId") == sid, f"updated not tagged with {sid!r}")
            await settle()
            n = len(self.peer.of(types.ResourceUpdatedNotification))
            need(only_text(await self.call("touch", {"uri": uri})) == "touched", "touch result")
            await settle(0.5)
            need(len(self.peer.of(types.ResourceUpdatedNotification)) == n, "updated delivered after the listen ended")
            return f"subscriptions/listen id {sid!r}"
        await self.c.subscribe_resource(uri)
        n = len(self.peer.notifications)
        need(only_text(await self.call("touch", {"uri": uri})) == "touched", "touch result")
        with anyio.fail_after(3):
            while not self.peer.of(types.ResourceUpdatedNotification, n):
                await anyio.sleep(0.02)
        ups = self.peer.of(types.ResourceUpdatedNotification, n)
        need(len(ups) == 1 and str(ups[0].params.uri) == uri, f"updated notifications {ups!r}")
        await self.c.unsubscribe_resource(uri)
        n = len(self.peer.notifications)
        need(only_text(await self.call("touch", {"uri": uri})) == "touched", "touch result after unsubscribe")
        await settle(0.5)
        need(not self.peer.of(types.ResourceUpdatedNotification, n), "updated sent after unsubscribe")
        return ""

    # ---- prompts / completion --------------------------------------------
    async def prompts(self) -> str:
        res = await self.c.list_prompts()
        greet = [p for p in res.prompts if p.name == "greet"]
        need(greet, f"prompt greet not listed: {[p.name for p in res.prompts]}")
        args = {a.name: a for a in (greet[0].arguments or [])}
        need("name" in args and args["name"].required is True, "greet.name is not a required argument")
        got = await self.c.get_prompt("greet", {"name": "Ada Lovelace ✓"})
        need(got.messages, "no messages")
        m = got.messages[0]
        need(m.role == "user", f"role {m.role!r}")
        need(isinstance(m.content, types.TextContent) and "Ada Lovelace ✓" in m.content.text, f"content {m.content!r}")
        return ""

    async def prompt_missing_argument(self) -> str:
        try:
            await self.c.get_prompt("greet", {})
        except MCPError as e:
            need(e.code == -32602, f"missing required argument: error {e.code} (expected -32602)")
        else:
            raise CheckFailed("prompts/get without the required argument succeeded")
        return ""

    async def completion(self) -> str:
        ref = types.PromptReference(type="ref/prompt", name="greet")
        for prefix, want in (("a", ["alice", "anna"]), ("b", ["bob"]), ("an", ["anna"]), ("z", [])):
            res = await self.c.complete(ref, {"name": "name", "value": prefix})
            need(sorted(res.completion.values) == want, f"prefix {prefix!r}: {res.completion.values} != {want}")
        return ""

    # ---- logging ------------------------------------------------------------
    async def _log_call(self, level: str, message: str, threshold: str | None) -> list[Any]:
        n = len(self.peer.logs)
        kw: dict[str, Any] = {}
        if self.modern and threshold is not None:
            kw["meta"] = {LOG_LEVEL_KEY: threshold}
        need(only_text(await self.call("log", {"message": message, "level": level}, **kw)) == "logged", "log result")
        await settle()
        return self.peer.logs[n:]

    async def logging(self) -> str:
        if not self.modern:
            await self.c.set_logging_level("debug")
        msg = "log line ✓ with \"quotes\"\nand a newline"
        got = await self._log_call("info", msg, "debug")
        need(len(got) == 1, f"{len(got)} notifications/message (expected 1)")
        need(got[0].level == "info" and got[0].data == msg, f"got level={got[0].level!r} data={got[0].data!r}")
        got = await self._log_call("warning", "warn-msg", "debug")
        need(len(got) == 1 and got[0].level == "warning" and got[0].data == "warn-msg", f"warning: {got!r}")
        if self.modern:
            got = await self._log_call("error", "no-opt-in", None)
            need(not got, "log notification sent to a request that carried no logLevel")
        return ""

    async def set_level(self) -> str:
        if not self.modern:
            await self.c.set_logging_level("warning")
        got = await self._log_call("info", "filtered-out", "warning")
        need(not got, f"info message delivered below threshold 'warning': {got!r}")
        got = await self._log_call("error", "passes-filter", "warning")
        need(len(got) == 1 and got[0].level == "error" and got[0].data == "passes-filter", f"error: {got!r}")
        if not self.modern:
            try:
                await self.c.set_logging_level("loud")  # type: ignore[arg-type]
            except MCPError as e:
                need(e.code == -32602, f"invalid level: error {e.code} (expected -32602)")
            except Exception:  # noqa: BLE001 - the SDK may refuse to send it at all
                pass
            await self.c.set_logging_level("debug")
        return "logging/setLevel" if not self.modern else "per-request _meta logLevel"

    async def unknown_method(self) -> str:
        try:
            await self.c.session.send_request(types.Request(method="interop/no-such-method", params=None), types.EmptyResult)
        except MCPError as e:
            need(e.code == -32601, f"error code {e.code} (expected -32601)")
            return f"{e.code} {e.message}"
        raise CheckFailed("unknown method returned a result")

    async def transport_clean(self) -> str:
        need(not self.peer.transport_errors, f"transport errors: {[describe(e) for e in self.peer.transport_errors]}")
        return ""


def feature_checks(fx: Fixture) -> list[tuple[str, Callable[[], Awaitable[Any]]]]:
    checks: list[tuple[str, Callable[[], Awaitable[Any]]]] = []
    if not fx.modern:
        checks.append(("ping", fx.ping))
    checks += [
        ("tools/list", fx.tools_list),
        ("tool.echo", fx.echo),
        ("tool.add+outputSchema", fx.add),
        ("tool.fail", fx.fail),
        ("tool.unknown", fx.unknown_tool),
        ("tool.print_stdout", fx.print_stdout),
        ("tool.long_job", fx.long_job),
        ("progress", fx.progress),
        ("cancellation", fx.cancellation),
        ("concurrency", fx.concurrency),
        ("sampling", fx.sampling),
        ("roots", fx.roots),
        ("elicitation", fx.elicitation),
        ("resources/list", fx.resources_list),
        ("resources/read", fx.resources_read),
        ("resources/templates", fx.templates),
        ("resources/read-unknown", fx.unknown_resource),
        ("subscriptions" if fx.modern else "subscribe-touch-unsubscribe", fx.subscriptions),
        ("prompts", fx.prompts),
        ("prompts.missing-argument", fx.prompt_missing_argument),
        ("completion", fx.completion),
        ("notifications/message", fx.logging),
        ("log-level-filter" if fx.modern else "logging/setLevel-filter", fx.set_level),
        ("unknown-method", fx.unknown_method),
        ("no-transport-errors", fx.transport_clean),
    ]
    return checks


async def stage_features(results: Results, server_cmd: list[str], workdir: Path, era: str) -> None:
    prefix = "2025-11-25" if era == "legacy" else MODERN
    log_path = workdir / f"{era}.jsonl"
    log = WireLog(log_path)
    peer = Peer()
    fx = Fixture(None, peer, log, era)  # type: ignore[arg-type]
    checks = feature_checks(fx)
    done = 0
    connected = False
    try:
        async with open_client(server_cmd, log_path, peer, "legacy" if era == "legacy" else "auto") as client:
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
        results.fail(f"{prefix}.connect" if not connected else f"{prefix}.session", describe(exc) + log.exit_note())
        for name, _ in checks[done:]:
            results.fail(f"{prefix}.{name}", "not run (connection failed)")
    await results.run(f"{prefix}.stdout-is-jsonrpc", lambda: _async(check_wire, log, era))


async def _async(fn: Callable[..., Any], *args: Any) -> Any:
    return fn(*args)


def check_discover(log: WireLog) -> str:
    c2s = [m for _, m in log.messages("c2s") if isinstance(m, dict)]
    need(c2s and c2s[0].get("method") == "server/discover", "the SDK did not open with server/discover")
    need(not any(m.get("method") == "initialize" for m in c2s), "the SDK fell back to initialize")
    disc = c2s[0]
    resp = responses_for(log, disc["id"])
    need(resp and "result" in resp[0][1], f"no discover result: {resp!r}"[:300])
    r = resp[0][1]["result"]
    need(MODERN in r.get("supportedVersions", []), f"supportedVersions {r.get('supportedVersions')!r}")
    need(r.get("resultType") == "complete", f"discover resultType {r.get('resultType')!r}")
    need(isinstance(r.get("ttlMs"), int) and r.get("cacheScope") in ("public", "private"), "discover lacks cache hints")
    need(isinstance(r.get("capabilities"), dict), "discover lacks capabilities")
    return f"discover -> supportedVersions {r['supportedVersions']}"


# --------------------------------------------------------------------------


async def amain(args: argparse.Namespace, server_cmd: list[str]) -> int:
    results = Results(args.verbose)
    with tempfile.TemporaryDirectory(prefix="minimcp-interop-") as tmp:
        workdir = Path(args.keep_logs) if args.keep_logs else Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        print(f"# server: {' '.join(server_cmd)} (cwd {REPO_ROOT}); wire logs in {workdir}", flush=True)
        if args.era in ("legacy", "both"):
            await stage_handshake(results, server_cmd, workdir)
            await stage_features(results, server_cmd, workdir, "legacy")
        if args.era in ("modern", "both"):
            await stage_features(results, server_cmd, workdir, "modern")
    print(f"{results.passed} passed, {results.failed} failed", flush=True)
    return 1 if results.failed else 0


def main() -> int:
    argv = sys.argv[1:]
    server_cmd: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, server_cmd = argv[:i], argv[i + 1 :]
    p = argparse.ArgumentParser(description="MCP Python SDK client interop check")
    p.add_argument("--era", choices=("legacy", "modern", "both"), default="both")
    p.add_argument("--keep-logs", metavar="DIR", help="write the wire logs to DIR and keep them")
    p.add_argument("-v", "--verbose", action="store_true", help="print tracebacks of failing checks")
    args = p.parse_args(argv)
    if not server_cmd:
        server_cmd = [sys.executable, "examples/everything.py"]
    return anyio.run(amain, args, server_cmd)


if __name__ == "__main__":
    sys.exit(main())
