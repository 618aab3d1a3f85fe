#!/usr/bin/env python3
"""Differential check: servers written for the official SDK, on the SDK and on minimcp.

Run by run_sdk_diff.sh with a Python that has the official client (`mcp` 2.3.0) installed:

    python sdk_diff.py --corpus DIR --readme README.md --sdk mcp2=PY --sdk mcp1=PY --sdk fastmcp=PY
                       --mini-python PY --repo REPO [--only NAME] [-v]

Each server in the corpus imports one SDK (its dialect): `mcp.server.mcpserver` (mcp 2.x),
`mcp.server.fastmcp` (mcp 1.x) or `fastmcp`. It is run three ways, each driven over stdio by
the official Python SDK client:

  real     under the real package of its dialect (the --sdk interpreter for that dialect);
  changed  under minimcp, with every SDK import rewritten to import from minimcp;
  serve    under minimcp, unchanged, through `python3 minimcp.py serve FILE` (no SDK installed).

From each run it records tools/list, resources/list, resources/templates/list, prompts/list and
the calls listed in the corpus' cases.json (valid and invalid arguments), then compares real with
changed and real with serve, field by field. A difference fails the check unless a rule of the
README's table of deliberate differences (section "Migrating from the official SDK", rows
`| D<n> | ...`) allows it; a rule here that the README does not list is not applied, and a README
row that no rule here implements fails the run, so the table and this file cannot drift apart.

Prints `ok NAME` / `FAIL NAME: why` per comparison and ends with `N passed, N failed`.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from deliberate import readme_table  # noqa: E402  (the README's table, read the same way everywhere)

try:
    import anyio
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters
    from mcp.shared.exceptions import MCPError
except ImportError as exc:  # pragma: no cover - the shell script installs it
    print(f"FAIL environment: cannot import the MCP Python SDK client ({exc}); run run_sdk_diff.sh")
    print("0 passed, 1 failed")
    sys.exit(1)


DIALECTS = {
    "mcp2": re.compile(r"^\s*(from|import)\s+mcp\.server\.mcpserver\b", re.M),
    "mcp1": re.compile(r"^\s*(from|import)\s+mcp\.server\.fastmcp\b", re.M),
    "fastmcp": re.compile(r"^\s*(from|import)\s+fastmcp\b", re.M),
}


def dialect_of(source: str) -> str:
    found = [name for name, pattern in DIALECTS.items() if pattern.search(source)]
    if len(found) != 1:
        raise ValueError(f"cannot tell the SDK this server is written for (found {found or 'none'})")
    return found[0]


# --------------------------------------------------------------------------
# the "changed" variant: every SDK import imports from minimcp instead
# --------------------------------------------------------------------------

_SDK_IMPORT = re.compile(r"^(?P<indent>\s*)from\s+(?P<module>(?:mcp|fastmcp)(?:\.[\w.]+)?)\s+import\s+"
                         r"(?P<names>\([^)]*\)|[^\n#]+)", re.M)


def change_imports(source: str) -> tuple[str, int]:
    """Rewrite `from mcp... import X` / `from fastmcp... import X` to `from minimcp import X`.

    minimcp answers every name the alias modules export (FastMCP, ToolError, UserMessage,
    TextContent, ...), so the names themselves stay as they are.
    """
    changed = 0

    def rewrite(match: re.Match) -> str:
        nonlocal changed
        changed += 1
        return f"{match.group('indent')}from minimcp import {match.group('names').strip()}"

    result = _SDK_IMPORT.sub(rewrite, source)
    if re.search(r"^\s*import\s+(mcp|fastmcp)\b", result, re.M):
        raise ValueError("a plain `import mcp` / `import fastmcp` has no one-line minimcp equivalent")
    return result, changed


# --------------------------------------------------------------------------
# one run: drive a server with the official client and record what it says
# --------------------------------------------------------------------------


def dump(model) -> object:
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def record(command: list[str], cwd: str, env: dict, cases: list, errlog: Path) -> dict:
    # The servers' stderr (tracebacks of tools that fail on purpose) goes to a log, not the report.
    wrapped = ["/bin/sh", "-c", 'exec "$@" 2>>"$SDK_DIFF_ERRLOG"', "sh", *command]
    env = dict(env, SDK_DIFF_ERRLOG=str(errlog))
    params = StdioServerParameters(command=wrapped[0], args=wrapped[1:], cwd=cwd, env=env)
    out: dict = {}
    async with Client(params, mode="legacy", read_timeout_seconds=30, cache=None) as client:
        async def attempt(key: str, call):
            try:
                out[key] = dump(await call())
            except MCPError as exc:
                out[key] = {"error": {"code": exc.error.code, "message": exc.error.message}}
            except Exception as exc:  # the client refused the answer: record that as the answer
                out[key] = {"client_error": f"{type(exc).__name__}: {exc}"}

        await attempt("tools/list", client.list_tools)
        await attempt("resources/list", client.list_resources)
        await attempt("resources/templates/list", client.list_resource_templates)
        await attempt("prompts/list", client.list_prompts)
        for index, case in enumerate(cases):
            await attempt(*run_case(client, index, case))
    return out


def run_case(client, index: int, case: list, progress=None) -> tuple:
    """(the recording's key, a no-argument coroutine function making the call) for one case,
    ["tool", NAME, ARGS], ["resource", URI] or ["prompt", NAME, ARGS]; shared with sdk_corpus.py
    and sdk_generate.py. A tool call given `progress` (the client's progress callback) asks for
    progress notifications."""
    kind, name, *rest = case
    arguments = rest[0] if rest else {}
    key = f"{index:02d} {kind} {name} {json.dumps(arguments, sort_keys=True)}"
    if kind == "tool":
        return key, lambda: client.call_tool(name, arguments, progress_callback=progress)
    if kind == "resource":
        return key, lambda: client.read_resource(name)
    if kind == "prompt":
        return key, lambda: client.get_prompt(name, arguments)
    raise ValueError(f"unknown case kind {kind!r}")


# --------------------------------------------------------------------------
# the deliberate differences: each rule normalises both sides the same way
# --------------------------------------------------------------------------

SCHEMA_KEYS = ("inputSchema", "outputSchema")


def _walk_schema(node, fn, in_properties=False):
    """Apply fn to every schema object (not to the maps of property names)."""
    if isinstance(node, list):
        return [_walk_schema(item, fn) for item in node]
    if not isinstance(node, dict):
        return node
    if in_properties:
        return {name: _walk_schema(sub, fn) for name, sub in node.items()}
    node = fn(dict(node))
    if not isinstance(node, dict):
        return node
    return {key: _walk_schema(value, fn, key in ("properties", "$defs", "patternProperties"))
            if isinstance(value, (dict, list)) and key not in ("enum", "const", "default", "examples")
            else value for key, value in node.items()}


def _schemas(entry: dict, fn) -> dict:
    entry = dict(entry)
    for key in SCHEMA_KEYS:
        if key in entry:
            entry[key] = fn(entry[key])
    return entry


def _tools(data: dict, fn) -> dict:
    listing = data.get("tools/list")
    if isinstance(listing, dict) and isinstance(listing.get("tools"), list):
        data = dict(data, **{"tools/list": dict(listing, tools=[fn(t) for t in listing["tools"]])})
    return data


def _both(fn):
    """A rule that normalises each side on its own."""
    return lambda real, mini, dialect: (fn(real), fn(mini))


def _drop_titles(schema):
    schema.pop("title", None)
    return schema


def _open_objects(schema):
    if schema.get("additionalProperties") in (True, {}):
        del schema["additionalProperties"]
    return schema


def _inline_refs(schema):
    defs = schema.get("$defs", {}) if isinstance(schema, dict) else {}

    def resolve(node, depth=0):
        if isinstance(node, list):
            return [resolve(item, depth) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/") and depth < 20:
            target = defs.get(ref[len("#/$defs/"):], {})
            merged = dict(target, **{k: v for k, v in node.items() if k != "$ref"})
            return resolve(merged, depth + 1)
        return {k: (v if k in ("enum", "const", "default", "examples") else resolve(v, depth))
                for k, v in node.items() if k != "$defs"}
    return resolve(schema)


def _shortest(data: dict) -> dict:
    data = _tools(data, lambda t: _schemas(t, lambda s: _walk_schema(
        _walk_schema(_inline_refs(s), _drop_titles), _open_objects)))
    listing = data.get("prompts/list")
    if isinstance(listing, dict) and isinstance(listing.get("prompts"), list):
        prompts = [{k: v for k, v in p.items() if not (k == "arguments" and v == [])} for p in listing["prompts"]]
        data = dict(data, **{"prompts/list": dict(listing, prompts=prompts)})
    return data


def rule_shortest_schemas(real, mini, dialect):
    """D1: schemas in their shortest equivalent form (no generated titles, no $defs, no defaults)."""
    return _shortest(real), _shortest(mini)


def _clean_doc(text: str) -> str:
    lines = text.expandtabs().splitlines()
    indent = min((len(line) - len(line.lstrip()) for line in lines[1:] if line.strip()), default=0)
    cleaned = [lines[0].strip()] + [line[indent:].rstrip() for line in lines[1:]] if lines else []
    return "\n".join(cleaned).strip()


_SECTION = re.compile(r"^(Args|Arguments|Parameters|Params|Returns|Return|Raises|Yields|Examples?|Notes?):\s*$", re.M)


def _summary(text: str) -> str:
    cleaned = _clean_doc(text)
    match = _SECTION.search(cleaned)
    return (cleaned[:match.start()] if match else cleaned).strip()


def _docstrings(data: dict, other: dict) -> dict:
    """Summaries for descriptions; parameter descriptions kept only where `other` has them too."""
    def theirs(key, field):
        listing = other.get(key)
        items = listing.get(field, []) if isinstance(listing, dict) else []
        return {i.get("name", i.get("uri")): i for i in items if isinstance(i, dict)}

    def describe(item, counterpart):
        item = dict(item)
        text = item.pop("description", "") or ""
        if text:
            item["description"] = _summary(text)
        if "inputSchema" in item:
            schema = json.loads(json.dumps(item["inputSchema"]))
            known = (counterpart.get("inputSchema") or {}).get("properties") or {}
            for name, prop in (schema.get("properties") or {}).items():
                if isinstance(prop, dict) and "description" not in (known.get(name) or {}):
                    prop.pop("description", None)
            item["inputSchema"] = schema
        if isinstance(item.get("arguments"), list):
            known = {a.get("name"): a for a in counterpart.get("arguments") or []}
            item["arguments"] = [{k: v for k, v in a.items() if k != "description"
                                  or "description" in known.get(a.get("name"), {})} for a in item["arguments"]]
        return item
    out = dict(data)
    for key, field in (("tools/list", "tools"), ("prompts/list", "prompts"), ("resources/list", "resources"),
                       ("resources/templates/list", "resourceTemplates")):
        listing = out.get(key)
        if isinstance(listing, dict) and isinstance(listing.get(field), list):
            counterparts = theirs(key, field)
            out[key] = dict(listing, **{field: [describe(i, counterparts.get(i.get("name", i.get("uri")), {}))
                                                for i in listing[field]]})
    for key, value in list(out.items()):
        if " prompt " in key and isinstance(value, dict) and "description" in value:
            out[key] = dict(value, description=_summary(value["description"] or ""))
            if not out[key]["description"]:
                del out[key]["description"]
    return out


def rule_docstrings(real, mini, dialect):
    """D2: descriptions are the docstring's cleaned summary; `Args:` go to the parameters."""
    return _docstrings(real, mini), _docstrings(mini, real)


def _error_text(data: dict) -> dict:
    out = {}
    for key, value in data.items():
        if isinstance(value, dict) and value.get("isError"):
            value = dict(value, content=[{"type": "text", "text": "<error text>"}])
        elif isinstance(value, dict) and "error" in value:
            value = {"error": {"code": value["error"].get("code")}}
        out[key] = value
    return out


def rule_error_text(real, mini, dialect):
    """D3: the wording of errors (invalid arguments, failures): only their kind is compared."""
    return _error_text(real), _error_text(mini)


def _undeclared(data: dict) -> dict:
    out = dict(data)
    for key, field in (("resources/list", "resources"), ("resources/templates/list", "resourceTemplates"),
                       ("prompts/list", "prompts"), ("tools/list", "tools")):
        value = out.get(key)
        if isinstance(value, dict) and (value.get(field) == [] or value.get("error", {}).get("code") == -32601):
            out[key] = "nothing to list"
    return out


def _call_kind(key: str) -> str:
    """The kind of a call's recording key ("04 resource notes://1 {}" -> "resource")."""
    parts = key.split(" ", 2)
    return parts[1] if len(parts) > 2 and parts[0].isdigit() else ""


def rule_undeclared_lists(real, mini, dialect):
    """D4: no capability (and -32601) for a kind of thing the server has none of: listing it,
    and reading or getting one by name (the SDK answers its own "unknown" error there)."""
    real, mini = _undeclared(real), _undeclared(mini)
    kinds = {"resource": "resources", "prompt": "prompts"}
    for key, answer in mini.items():
        kind = kinds.get(_call_kind(key))
        error = answer.get("error") if isinstance(answer, dict) else None
        theirs = real.get(key)
        if (kind and isinstance(error, dict) and error.get("code") == -32601 and isinstance(theirs, dict)
                and "error" in theirs and _lists_nothing(real, kind) and _lists_nothing(mini, kind)):
            real[key] = answer
    return real, mini


_LISTINGS = {"tools": (("tools/list", "tools"),), "prompts": (("prompts/list", "prompts"),),
             "resources": (("resources/list", "resources"), ("resources/templates/list", "resourceTemplates"))}


def _lists_nothing(data: dict, kind: str) -> bool:
    """Whether every listing of ``kind`` was empty, or -32601 (D4), or not recorded."""
    for key, field in _LISTINGS[kind]:
        value = data.get(key)
        if isinstance(value, dict) and not (value.get(field) == [] or value.get("error", {}).get("code") == -32601):
            return False
    return True


def _declared(data: dict) -> dict:
    """initialize's capabilities without what D10 and D4 leave to the spec: the listChanged and
    subscribe flags, logging and experimental, and the kinds of which nothing is listed."""
    initialize = data.get("initialize")
    capabilities = initialize.get("capabilities") if isinstance(initialize, dict) else None
    if not isinstance(capabilities, dict):
        return data
    kept = {}
    for kind, flags in capabilities.items():
        if kind in ("logging", "experimental") or (kind in _LISTINGS and _lists_nothing(data, kind)):
            continue
        kept[kind] = {k: v for k, v in flags.items() if k not in ("listChanged", "subscribe")} \
            if isinstance(flags, dict) else flags
    return dict(data, initialize=dict(initialize, capabilities=kept))


def _texts(answer: dict) -> list:
    return [b.get("text") for b in answer.get("content") or () if isinstance(b, dict)]


def rule_spec_fixed(real, mini, dialect):
    """D10: what the spec fixes is the spec's in every dialect: capabilities, error codes."""
    real, mini = dict(_declared(real)), dict(_declared(mini))
    for key, answer in list(real.items()):
        other = mini.get(key)
        if not isinstance(answer, dict) or not isinstance(other, dict) or not isinstance(other.get("error"), dict):
            continue
        mine = other["error"]
        if mine.get("code") not in (-32602, -32002, -32603):
            continue
        error = answer.get("error")
        if _call_kind(key) == "resource" and isinstance(error, dict) and (
                mine.get("code") == -32002 or error.get("code") == 0):
            real[key] = dict(answer, error=dict(error, code=mine["code"]))   # a missing resource (0, -32602),
            continue                                                          # a failed read (0)
        if _call_kind(key) == "prompt" and isinstance(error, dict) and error.get("code") == 0 and \
                mine.get("code") == -32603:
            real[key] = dict(answer, error=dict(error, code=-32603))          # a prompt function that raised (0)
            continue
        if mine.get("code") != -32602:
            continue
        if isinstance(error, dict) and error.get("code") == 0:             # an unknown prompt, a missing argument
            real[key] = dict(answer, error=dict(error, code=-32602))
        elif answer.get("isError") and _texts(answer) == [mine.get("message")]:   # an unknown tool
            real[key] = other
    return real, mini


def _strip_fastmcp(node):
    if isinstance(node, list):
        return [_strip_fastmcp(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key == "x-fastmcp-wrap-result":
            continue
        if key == "_meta" and isinstance(value, dict):
            value = {k: v for k, v in value.items() if k != "fastmcp"}
            if not value:
                continue
        out[key] = _strip_fastmcp(value)
    return out


def rule_fastmcp_extras(real, mini, dialect):
    """D5: fastmcp's own additions (its _meta, titles from names, closed inputs, compact JSON text)."""
    if dialect != "fastmcp":
        return real, mini
    real = _strip_fastmcp(real)
    listing = real.get("tools/list")
    if isinstance(listing, dict) and isinstance(listing.get("tools"), list):
        titled = []
        for tool in listing["tools"]:
            tool = dict(tool)
            if tool.get("title") == tool["name"].replace("_", " ").title():
                del tool["title"]
            schema = tool.get("inputSchema")
            if isinstance(schema, dict) and schema.get("additionalProperties") is False:
                tool["inputSchema"] = {k: v for k, v in schema.items() if k != "additionalProperties"}
            titled.append(tool)
        real = dict(real, **{"tools/list": dict(listing, tools=titled)})
    mini = dict(mini)
    for key, value in real.items():
        other = mini.get(key)
        if isinstance(value, dict) and isinstance(other, dict) and "structuredContent" in value \
                and value.get("structuredContent") == other.get("structuredContent"):
            real[key] = {k: v for k, v in value.items() if k != "content"}
            mini[key] = {k: v for k, v in other.items() if k != "content"}
    return real, mini


def _mime(data: dict, other: dict) -> dict:
    out = dict(data)
    for key, field in (("resources/list", "resources"), ("resources/templates/list", "resourceTemplates")):
        listing, theirs = out.get(key), other.get(key)
        if not (isinstance(listing, dict) and isinstance(listing.get(field), list) and isinstance(theirs, dict)):
            continue
        typed = {i.get("name"): i.get("mimeType") for i in theirs.get(field, [])}
        out[key] = dict(listing, **{field: [
            {k: v for k, v in item.items() if not (k == "mimeType" and v == "text/plain" and not typed.get(item.get("name")))}
            for item in listing[field]]})
    return out


def rule_mime_types(real, mini, dialect):
    """D6: resources without a mime_type are typed from their URI and value, not all text/plain."""
    real = _mime(real, mini)
    real, mini = dict(real), dict(mini)
    for key, value in real.items():
        other = mini.get(key)
        if " resource " in key and isinstance(value, dict) and isinstance(other, dict) \
                and len(value.get("contents", [])) == len(other.get("contents", [])):
            contents = []
            for mine, theirs in zip(value["contents"], other["contents"]):
                if mine.get("mimeType") == "text/plain" and "mimeType" in theirs:
                    mine = dict(mine, mimeType=theirs["mimeType"])
                contents.append(mine)
            real[key] = dict(value, contents=contents)
    return real, mini


def rule_resource_lists(real, mini, dialect):
    """D7: a resource function returning a list sends one contents entry per item."""
    real = dict(real)
    for key, value in real.items():
        other = mini.get(key)
        if " resource " not in key or not isinstance(value, dict) or not isinstance(other, dict):
            continue
        contents = value.get("contents", [])
        if len(contents) == 1 and "text" in contents[0]:
            try:
                items = json.loads(contents[0]["text"])
            except ValueError:
                continue
            if isinstance(items, list) and all(isinstance(i, str) for i in items):
                real[key] = dict(value, contents=[dict(contents[0], text=i) for i in items])
    return real, mini


_REPR = re.compile(r'^"<[\w.]+ object at 0x[0-9a-f]+>"$')


def rule_object_text(real, mini, dialect):
    """D8: an annotated class's result is written as JSON of its fields, not as its repr."""
    real, mini = dict(real), dict(mini)
    for key, value in real.items():
        other = mini.get(key)
        if isinstance(value, dict) and isinstance(other, dict) and "structuredContent" in value \
                and value.get("structuredContent") == other.get("structuredContent") \
                and len(value.get("content", [])) == 1 and _REPR.match(value["content"][0].get("text", "")):
            real[key] = {k: v for k, v in value.items() if k != "content"}
            mini[key] = {k: v for k, v in other.items() if k != "content"}
    return real, mini


_TEXT_OUTPUT = {"type": "object", "properties": {"result": {"type": "string"}}, "required": ["result"]}


def rule_text_once(real, mini, dialect):
    """D9: minimcp's own MCPServer (an import changed to minimcp) sends ``-> str`` once: no outputSchema."""
    real = dict(real)
    for key, value in real.items():
        other = mini.get(key)
        if key == "tools/list" and isinstance(value, dict) and isinstance(other, dict):
            theirs = {t.get("name"): t for t in other.get("tools", [])}
            tools = []
            for tool in value.get("tools", []):
                ours = theirs.get(tool.get("name"), {})
                if tool.get("outputSchema") == _TEXT_OUTPUT and "outputSchema" not in ours:
                    tool = {k: v for k, v in tool.items() if k != "outputSchema"}
                tools.append(tool)
            real[key] = dict(value, tools=tools)
        elif isinstance(value, dict) and isinstance(other, dict) and "structuredContent" not in other \
                and set(value.get("structuredContent") or {}) == {"result"} \
                and isinstance(value["structuredContent"]["result"], str):
            real[key] = {k: v for k, v in value.items() if k != "structuredContent"}
    return real, mini


def rule_refused_results(real, mini, dialect):
    """D11: a result that breaks its outputSchema is an isError result, where fastmcp sends it and
    the official client refuses the answer ("Invalid structured content returned by tool ...")."""
    real = dict(real)
    for key, answer in real.items():
        other = mini.get(key)
        refused = isinstance(answer, dict) and str(answer.get("client_error", "")).startswith(
            "RuntimeError: Invalid structured content returned by tool")
        if refused and isinstance(other, dict) and other.get("isError") is True:
            real[key] = dict(other, **({"notifications": answer["notifications"]} if "notifications" in answer else {}))
    return real, mini


RULES = {"D1": rule_shortest_schemas, "D2": rule_docstrings, "D3": rule_error_text,
         "D4": rule_undeclared_lists, "D5": rule_fastmcp_extras, "D6": rule_mime_types,
         "D7": rule_resource_lists, "D8": rule_object_text, "D9": rule_text_once, "D10": rule_spec_fixed,
         "D11": rule_refused_results}


def readme_rules(readme: Path) -> list[str]:
    return list(readme_table(readme))   # deliberate.py: the rows, and where each holds under serve


# --------------------------------------------------------------------------
# comparison
# --------------------------------------------------------------------------


def differences(a, b, path="") -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        found = []
        for key in list(a) + [k for k in b if k not in a]:
            sub = f"{path}/{key}"
            if key not in b:
                found.append(f"{sub}: only in real: {json.dumps(a[key])[:200]}")
            elif key not in a:
                found.append(f"{sub}: only in minimcp: {json.dumps(b[key])[:200]}")
            else:
                found.extend(differences(a[key], b[key], sub))
        return found
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        found = []
        for index, (x, y) in enumerate(zip(a, b)):
            label = x.get("name") if isinstance(x, dict) and isinstance(x.get("name"), str) else index
            found.extend(differences(x, y, f"{path}[{label}]"))
        return found
    if a == b and type(a) is type(b):
        return []
    return [f"{path}: real {json.dumps(a)[:300]} != minimcp {json.dumps(b)[:300]}"]


def compare(real: dict, mini: dict, rules: list[str], dialect: str, differ=differences) -> tuple[list, list[str]]:
    """(remaining differences, rules that explained some); `differ` lists the differences
    (sdk_corpus.answer_differences keeps both values of each)."""
    used = []
    for rule in rules:
        # A rule explains differences; where the dialect already matches the SDK, rewriting one
        # side would make new ones, so a rule is kept only where it leaves fewer.
        before = differ(real, mini)
        explained = RULES[rule](real, mini, dialect)
        if len(differ(*explained)) < len(before):
            real, mini = explained
            used.append(rule)
    return differ(real, mini), used


# --------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", required=True, type=Path)
    parser.add_argument("--readme", required=True, type=Path)
    parser.add_argument("--repo", required=True, type=Path)
    parser.add_argument("--sdk", action="append", default=[], help="DIALECT=PYTHON (mcp2, mcp1, fastmcp)")
    parser.add_argument("--mini-python", required=True)
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--keep", type=Path, help="write every recorded run to this directory")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()

    sdks = dict(item.split("=", 1) for item in args.sdk)
    args.repo, args.corpus, args.readme = args.repo.resolve(), args.corpus.resolve(), args.readme.resolve()
    passed = failed = 0

    def verdict(ok: bool, name: str, why: str = "") -> None:
        nonlocal passed, failed
        if ok:
            passed += 1
            print(f"ok {name}{('  (' + why + ')') if why else ''}")
        else:
            failed += 1
            print(f"FAIL {name}: {why}")
        sys.stdout.flush()

    listed = readme_rules(args.readme)
    unknown = [r for r in listed if r not in RULES]
    verdict(not unknown and bool(listed), "readme.table",
            f"README rows without a rule here: {unknown}" if unknown else
            ("no table of deliberate differences found" if not listed else f"rules {', '.join(listed)}"))
    rules = [r for r in RULES if r in listed]

    cases = json.loads((args.corpus / "cases.json").read_text(encoding="utf-8"))
    servers = sorted(p for p in args.corpus.glob("*.py"))
    verdict(len(servers) >= 15, "corpus.size", f"{len(servers)} servers")
    missing_cases = [p.name for p in servers if p.name not in cases]
    verdict(not missing_cases, "corpus.cases", f"no cases for {missing_cases}" if missing_cases else "")
    minimcp = str(args.repo / "minimcp.py")
    base_env = {k: v for k, v in os.environ.items() if k.startswith(("LANG", "LC_", "PATH", "HOME", "TMP"))}
    base_env["PYTHONUNBUFFERED"] = "1"

    work = Path(tempfile.mkdtemp(prefix="minimcp-sdk-diff."))
    try:
        for server in servers:
            name = server.stem
            if args.only and name not in args.only:
                continue
            source = server.read_text(encoding="utf-8")
            try:
                dialect = dialect_of(source)
            except ValueError as exc:
                verdict(False, f"{name}.dialect", str(exc))
                continue
            if dialect not in sdks:
                verdict(False, f"{name}.{dialect}", f"no --sdk {dialect}=PYTHON given")
                continue
            run_dir = work / name
            run_dir.mkdir()
            shutil.copy(server, run_dir / server.name)
            changed_source, count = change_imports(source)
            (run_dir / "changed").mkdir()
            (run_dir / "changed" / server.name).write_text(changed_source, encoding="utf-8")
            for part in args.repo.glob("minimcp*.py"):        # the core and its component files
                shutil.copy(part, run_dir / "changed" / part.name)
            mini_env = dict(base_env, PYTHONPATH=str(args.repo))
            runs = {
                "real": ([sdks[dialect], server.name], str(run_dir), dict(base_env)),
                "changed": ([args.mini_python, server.name], str(run_dir / "changed"), dict(base_env)),
                "serve": ([args.mini_python, minimcp, "serve", server.name], str(run_dir), mini_env),
            }
            recorded = {}
            for label, (command, cwd, env) in runs.items():
                try:
                    recorded[label] = anyio.run(record, command, cwd, env, cases.get(server.name, []),
                                                run_dir / f"{label}.stderr")
                except BaseException as exc:  # noqa: BLE001 - anyio wraps failures in groups
                    if isinstance(exc, KeyboardInterrupt):
                        raise
                    detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
                    stderr = run_dir / f"{label}.stderr"
                    tail = stderr.read_text(errors="replace")[-1500:] if stderr.exists() else ""
                    verdict(False, f"{name}.{label}", f"could not drive the server ({detail})\n{tail}")
            if args.keep:
                args.keep.mkdir(parents=True, exist_ok=True)
                (args.keep / f"{name}.json").write_text(json.dumps(recorded, indent=1, sort_keys=True))
            if "real" not in recorded:
                continue
            for label in ("changed", "serve"):
                if label not in recorded:
                    continue
                remaining, used = compare(recorded["real"], recorded[label], rules, dialect)
                why = f"{dialect}, {len(recorded['real'])} answers"
                if label == "changed":
                    why += f", {count} import line(s) changed"
                if used:
                    why += f", deliberate differences {', '.join(used)}"
                if remaining:
                    shown = remaining if args.verbose else remaining[:8]
                    more = "" if len(shown) == len(remaining) else f"\n    ... and {len(remaining) - len(shown)} more"
                    verdict(False, f"{name}.{label}", f"{len(remaining)} difference(s) from {dialect}:\n    "
                            + "\n    ".join(shown) + more)
                else:
                    verdict(True, f"{name}.{label}", why)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
