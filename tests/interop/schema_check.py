#!/usr/bin/env python3
"""Validate every message a server wrote against the official MCP JSON Schema.

Usage:

    python schema_check.py [--spec-dir DIR] [--strict] [-v] LOG_OR_DIR...

Each LOG is a wire log written by `python_sdk_client.py --tee LOG -- CMD`
(one JSON record per line: {"d": "c2s"|"s2c"|"exit", "raw": ...}); a
directory stands for every `*.jsonl` below it.  A log may hold several
connections (the tee appends); they are split at each "exit" record.

For each connection the revision is the one negotiated on the wire: the
`protocolVersion` of the `initialize` result (legacy), or the
`io.modelcontextprotocol/protocolVersion` the client put in each request's
`_meta` (2026-07-28 and later); a connection that only sent `server/discover`
is checked against the newest revision.  Every server->client line is then
validated against `<spec>/<revision>/schema.json`, the definition chosen by
message kind and method:

  * result      -> the envelope (JSONRPCResponse / JSONRPCResultResponse, or
                   the revision's `<X>ResultResponse`) plus the result type of
                   the request it answers (tools/list -> ListToolsResult,
                   tools/call -> CallToolResult or, for a task-augmented call,
                   CreateTaskResult, tasks/result -> the underlying request's
                   result, server/discover -> DiscoverResult, ping /
                   subscribe / setLevel -> EmptyResult; 2026-07-28
                   `resultType: "input_required"` -> InputRequiredResult)
  * error       -> JSONRPCError (2024-11-05..2025-06-18) or
                   JSONRPCErrorResponse, plus the code-specific error type
                   where the revision defines one (InvalidParamsError, ...)
  * notification-> the definition whose `method` const matches
                   (ProgressNotification, LoggingMessageNotification, ...)
  * request     -> likewise (CreateMessageRequest, ListRootsRequest,
                   ElicitRequest, PingRequest)

A message the revision has no definition for (a method it does not define,
a response to an id the client never sent) is a failure.

--strict additionally closes every object definition (additionalProperties:
false, except the generic bases, _meta objects and the JSON Schemas tools
carry), so a member that the negotiated revision does not declare -- e.g.
`structuredContent` on a 2024-11-05 connection -- is reported.

The spec directory is, in order: --spec-dir, $MINIMCP_SPEC_DIR,
<repo>/../shared/spec, <repo>/shared/spec.

Output: `ok schema.<log>[#n] ...` / `FAIL schema.<log>[#n]: why` per
connection (`schema-strict.` with --strict), then `N passed, N failed`; exit status 1 on any failure.
Needs `jsonschema` (4.x); otherwise stdlib only.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

try:
    import jsonschema
    from jsonschema.exceptions import best_match
except ImportError:  # pragma: no cover - environment problem
    print("FAIL schema.environment: the jsonschema package is not installed")
    print("0 passed, 1 failed")
    sys.exit(1)

REPO_ROOT = Path(__file__).resolve().parents[2]
PV_KEY = "io.modelcontextprotocol/protocolVersion"

# request method -> result definition, where the name is not simply <Request name minus "Request"> + "Result"
RESULT_OVERRIDES = {
    "ping": "EmptyResult",
    "resources/subscribe": "EmptyResult",
    "resources/unsubscribe": "EmptyResult",
    "logging/setLevel": "EmptyResult",
    "tasks/get": "GetTaskResult",
    "tasks/cancel": "CancelTaskResult",
    "tasks/list": "ListTasksResult",
    "server/discover": "DiscoverResult",
    "subscriptions/listen": "SubscriptionsListenResult",
}


def find_spec_dir(explicit: str | None) -> Path:
    cands = []
    if explicit:
        cands.append(Path(explicit))
    if os.environ.get("MINIMCP_SPEC_DIR"):
        cands.append(Path(os.environ["MINIMCP_SPEC_DIR"]))
    cands += [REPO_ROOT.parent / "shared" / "spec", REPO_ROOT / "shared" / "spec"]
    for c in cands:
        if c.is_dir() and any(c.glob("*/schema.json")):
            return c.resolve()
    raise SystemExit(f"schema_check.py: no spec directory with <rev>/schema.json found (tried {', '.join(map(str, cands))})")


# --strict leaves these open: the generic envelopes/bases, and JSON Schemas that tools carry
OPEN_DEFS = {"Result", "EmptyResult", "Request", "Notification", "JSONRPCRequest", "JSONRPCNotification",
             "JSONRPCResponse", "JSONRPCResultResponse", "MetaObject", "RequestMetaObject", "ResultMetaObject"}
OPEN_MEMBERS = {("Tool", "inputSchema"), ("Tool", "outputSchema")}


def _close_objects(node: object) -> None:
    """--strict: forbid members an object definition does not declare (no member of a later revision leaks)."""
    if isinstance(node, dict):
        if (
            node.get("type") == "object"
            and "properties" in node
            and not any(k in node for k in ("additionalProperties", "allOf", "anyOf", "oneOf", "$ref"))
        ):
            node["additionalProperties"] = False
        for v in node.values():
            _close_objects(v)
    elif isinstance(node, list):
        for v in node:
            _close_objects(v)


class Revision:
    """One revision's schema, with lookups by method / error code."""

    def __init__(self, rev: str, path: Path, strict: bool = False) -> None:
        self.rev = rev
        self.root = json.loads(path.read_text(encoding="utf-8"))
        self.key = "$defs" if "$defs" in self.root else "definitions"
        self.defs: dict = self.root[self.key]
        if strict:
            for name, d in self.defs.items():
                if name in OPEN_DEFS:
                    continue
                saved = {m: d["properties"].pop(m) for (n, m) in OPEN_MEMBERS if n == name and m in d.get("properties", {})}
                _close_objects(d)
                d.get("properties", {}).update(saved)
        self.cls = jsonschema.validators.validator_for(self.root)
        self._validators: dict[str, object] = {}
        self.requests: dict[str, str] = {}
        self.notifications: dict[str, str] = {}
        for name, d in self.defs.items():
            method = ((d.get("properties") or {}).get("method") or {}).get("const")
            if not isinstance(method, str) or name.startswith(("Client", "Server", "JSONRPC")):
                continue
            if name.endswith("Request"):
                self.requests.setdefault(method, name)
            elif name.endswith("Notification"):
                self.notifications.setdefault(method, name)
        # error code -> (definition, whether it describes the whole response or the error object)
        self.error_defs: dict[int, tuple[str, bool]] = {}
        for name, d in self.defs.items():
            props = d.get("properties") or {}
            code = (props.get("code") or {}).get("const")
            if isinstance(code, int) and "message" in props:
                self.error_defs.setdefault(code, (name, False))
                continue
            for part in (props.get("error") or {}).get("allOf") or []:
                code = ((part.get("properties") or {}).get("code") or {}).get("const")
                if isinstance(code, int):
                    self.error_defs.setdefault(code, (name, True))
        self.error_envelope = "JSONRPCErrorResponse" if "JSONRPCErrorResponse" in self.defs else "JSONRPCError"
        self.result_envelope = "JSONRPCResultResponse" if "JSONRPCResultResponse" in self.defs else "JSONRPCResponse"

    def has(self, name: str) -> bool:
        return name in self.defs

    def result_def(self, method: str) -> str | None:
        name = RESULT_OVERRIDES.get(method)
        if name is None and method in self.requests:
            name = self.requests[method][: -len("Request")] + "Result"
        if name == "EmptyResult" and not self.has(name):
            name = "Result"
        return name if name and self.has(name) else None

    def errors(self, name: str, instance: object) -> list[str]:
        v = self._validators.get(name)
        if v is None:
            schema = dict(self.root)
            schema["$ref"] = f"#/{self.key}/{name}"
            v = self.cls(schema)
            self._validators[name] = v
        errs = list(v.iter_errors(instance))
        if not errs:
            return []
        best = best_match(errs)
        where = "/".join(str(p) for p in best.absolute_path) or "(top)"
        return [f"{name}: at {where}: {best.message[:300]}"]


class Checker:
    def __init__(self, spec_dir: Path, verbose: bool, strict: bool = False) -> None:
        self.spec_dir = spec_dir
        self.verbose = verbose
        self.strict = strict
        self.prefix = "schema-strict" if strict else "schema"
        self.revs: dict[str, Revision] = {}
        self.passed = 0
        self.failed = 0
        self.available = sorted(p.parent.name for p in spec_dir.glob("*/schema.json"))

    def revision(self, rev: str) -> Revision | None:
        if rev not in self.revs:
            path = self.spec_dir / rev / "schema.json"
            if not path.is_file():
                return None
            self.revs[rev] = Revision(rev, path, self.strict)
        return self.revs[rev]

    # ------------------------------------------------------------------
    def negotiated(self, msgs: list[tuple[str, object]]) -> tuple[str | None, str]:
        init_ids = {}
        for d, m in msgs:
            if d == "c2s" and isinstance(m, dict) and m.get("method") == "initialize" and "id" in m:
                init_ids[json.dumps(m["id"])] = m
        if init_ids:
            for d, m in msgs:
                if d == "s2c" and isinstance(m, dict) and "method" not in m and json.dumps(m.get("id")) in init_ids:
                    pv = (m.get("result") or {}).get("protocolVersion") if isinstance(m.get("result"), dict) else None
                    if isinstance(pv, str):
                        return pv, "initialize result"
                    return None, "initialize failed"
            return None, "initialize never answered"
        for d, m in msgs:
            if d == "c2s" and isinstance(m, dict) and "method" in m:
                meta = (m.get("params") or {}).get("_meta") if isinstance(m.get("params"), dict) else None
                if isinstance(meta, dict) and isinstance(meta.get(PV_KEY), str):
                    return meta[PV_KEY], "request _meta"
        if any(d == "c2s" and isinstance(m, dict) and m.get("method") == "server/discover" for d, m in msgs):
            return self.available[-1], "server/discover only (newest revision)"
        return None, "no initialize and no per-request protocolVersion"

    def check_connection(self, label: str, recs: list[dict]) -> None:
        msgs: list[tuple[str, object]] = []
        problems: list[str] = []
        for r in recs:
            if r.get("d") not in ("c2s", "s2c"):
                continue
            try:
                m = json.loads(r["raw"])
            except ValueError:
                m = None
                if r["d"] == "s2c":
                    problems.append(f"not JSON: {r['raw'][:100]!r}")
            msgs.append((r["d"], m))
        s2c = [m for d, m in msgs if d == "s2c"]
        if not s2c:
            if not problems:
                self.ok(label, "no server messages")
            else:
                self.fail(label, problems)
            return
        rev_name, how = self.negotiated(msgs)
        rev = self.revision(rev_name) if rev_name else None
        if rev is None:
            self.fail(label, [f"cannot choose a schema: {how}" + (f" (revision {rev_name!r} not in {self.spec_dir})" if rev_name else "")])
            return

        requests: dict[str, dict] = {}   # client request id -> request
        task_origin: dict[str, str] = {}  # taskId -> method of the task-augmented request
        counts: dict[str, int] = {}
        for d, m in msgs:
            if not isinstance(m, dict):
                continue
            if d == "c2s":
                if "method" in m and "id" in m:
                    requests[json.dumps(m["id"])] = m
                continue
            defs, errs = self.classify(rev, m, requests, task_origin)
            for name in defs:
                counts[name] = counts.get(name, 0) + 1
            for e in errs:
                problems.append(f"{e}  <- {json.dumps(m, ensure_ascii=False)[:160]}")
        detail = f"{rev.rev} via {how}: {len(s2c)} messages"
        if self.verbose:
            detail += " [" + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + "]"
        if problems:
            self.fail(label, problems, detail)
        else:
            self.ok(label, detail)

    def classify(self, rev: Revision, m: dict, requests: dict, task_origin: dict) -> tuple[list[str], list[str]]:
        """Return (definitions validated against, problems)."""
        if "method" in m:
            method = m["method"]
            if "id" in m:
                name = rev.requests.get(method)
                kind = "server->client request"
            else:
                name = rev.notifications.get(method)
                kind = "notification"
            if name is None:
                return [], [f"{rev.rev} defines no {kind} {method!r}"]
            return [name], rev.errors(name, m)
        if "error" in m:
            problems = []
            if m.get("id") is not None and json.dumps(m.get("id")) not in requests:
                problems.append(f"error for id {m.get('id')!r}, which the client never sent as a request")
            used = [rev.error_envelope]
            errs = rev.errors(rev.error_envelope, m)
            code = (m.get("error") or {}).get("code") if isinstance(m.get("error"), dict) else None
            if isinstance(code, int) and code in rev.error_defs:
                name, whole = rev.error_defs[code]
                used.append(name)
                errs += rev.errors(name, m if whole else m["error"])
            return used, problems + errs
        if "result" in m:
            req = requests.get(json.dumps(m.get("id")))
            if req is None:
                return [], [f"result for id {m.get('id')!r}, which the client never sent as a request"]
            method = req["method"]
            params = req.get("params") if isinstance(req.get("params"), dict) else {}
            result = m["result"]
            name: str | None
            if method == "tools/call" and "task" in params and rev.has("CreateTaskResult"):
                name = "CreateTaskResult"
                tid = ((result or {}).get("task") or {}).get("taskId") if isinstance(result, dict) else None
                if isinstance(tid, str):
                    task_origin[tid] = method
            elif method == "tasks/result":
                origin = task_origin.get(str(params.get("taskId")))
                name = rev.result_def(origin) if origin else None
                if name is None:
                    return [], [f"tasks/result for unknown task {params.get('taskId')!r}"]
            else:
                name = rev.result_def(method)
            if name is None:
                return [], [f"{rev.rev} defines no result for request {method!r}"]
            envelope = rev.result_envelope
            resp_def = name[: -len("Result")] + "ResultResponse"
            if rev.has(resp_def):
                envelope = resp_def  # 2026-07-28: the method's own response type (allows InputRequiredResult)
            if isinstance(result, dict) and result.get("resultType") == "input_required" and rev.has("InputRequiredResult"):
                name = "InputRequiredResult"
            used = [envelope, name]
            errs = rev.errors(envelope, m) + rev.errors(name, result)
            return used, errs
        return [], ["neither request, notification, result nor error"]

    # ------------------------------------------------------------------
    def ok(self, label: str, detail: str = "") -> None:
        self.passed += 1
        print(f"ok {self.prefix}.{label}" + (f"  ({detail})" if detail else ""), flush=True)

    def fail(self, label: str, problems: list[str], detail: str = "") -> None:
        self.failed += 1
        head = f"{len(problems)} problem(s)" + (f" [{detail}]" if detail else "")
        shown = problems if self.verbose else problems[:8]
        more = "" if len(shown) == len(problems) else f" ; ... {len(problems) - len(shown)} more"
        print(f"FAIL {self.prefix}.{label}: {head}: " + " ; ".join(shown) + more, flush=True)


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("jsonschema")
    except Exception:  # noqa: BLE001
        return "?"


def connections(path: Path) -> list[list[dict]]:
    conns: list[list[dict]] = [[]]
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        conns[-1].append(rec)
        if rec.get("d") == "exit":
            conns.append([])
    return [c for c in conns if any(r.get("d") in ("c2s", "s2c") for r in c)]


def main() -> int:
    p = argparse.ArgumentParser(description="validate server messages in wire logs against the MCP schema")
    p.add_argument("logs", nargs="+", help="wire log files (*.jsonl) or directories holding them")
    p.add_argument("--spec-dir", help="directory with <revision>/schema.json (default: $MINIMCP_SPEC_DIR or <repo>/../shared/spec)")
    p.add_argument("-v", "--verbose", action="store_true", help="list every problem and the definitions used")
    p.add_argument("--strict", action="store_true",
                   help="also reject object members the revision does not declare (the schemas allow extra members;"
                        " this catches fields of a later revision leaking into an older one)")
    args = p.parse_args()
    checker = Checker(find_spec_dir(args.spec_dir), args.verbose, args.strict)
    print(f"# schemas: {checker.spec_dir} (revisions {', '.join(checker.available)}); jsonschema {_version()}", flush=True)
    files: list[tuple[str, Path]] = []
    for arg in args.logs:
        a = Path(arg)
        if a.is_dir():
            files += [(str(f.relative_to(a.parent)), f) for f in sorted(a.rglob("*.jsonl"))]
        elif a.is_file():
            files.append((a.name, a))
        else:
            checker.fail(arg, ["no such log file or directory"])
    if not files and not checker.failed:
        checker.fail("logs", ["no *.jsonl wire logs found in " + " ".join(args.logs)])
    for label, f in files:
        label = label[: -len(".jsonl")] if label.endswith(".jsonl") else label
        conns = connections(f)
        if not conns:
            checker.fail(label, ["log holds no messages"])
        for i, recs in enumerate(conns):
            checker.check_connection(label if len(conns) == 1 else f"{label}#{i + 1}", recs)
    print(f"{checker.passed} passed, {checker.failed} failed", flush=True)
    return 1 if checker.failed else 0


if __name__ == "__main__":
    sys.exit(main())
