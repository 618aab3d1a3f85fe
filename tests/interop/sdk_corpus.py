#!/usr/bin/env python3
"""Differential corpus of real servers published on PyPI: their SDK against minimcp serve.

Run by run_sdk_corpus.sh with a Python that has the official client (`mcp` 2.3.0) installed:

    python sdk_corpus.py --corpus tests/sdk_corpus/published.json
                         --expected tests/sdk_corpus/expected_differences.txt
                         --repo REPO --python PY --work DIR [--only NAME]... [-j N] [--keep DIR]

For every server of published.json (a package pinned on PyPI, the dialect minimcp serves it
in, how it is started, and a script of calls) it:

1. installs, into throwaway venvs under --work, one reference venv per dialect pin (the pin
   plus every server of that dialect, each `--no-deps`, then their other requirements read from
   the packages' own metadata) and one "mini" venv per group with the same servers and the same
   versions of their other requirements (pydantic included) but no mcp or fastmcp. The
   reference is the pin the dialect emulates, not the range the server declares: a server
   written for an older SDK runs under the pin (the stage names those), unless its "reference"
   field keeps its own pin, with the reason, because it does not work under the dialect's;
2. drives each server over stdio with the official Python SDK client: as its users start it
   (console script or `python -m`) in the reference venv, and unchanged in the mini venv the
   same way through minimcp: `python3 minimcp.py serve --entry SCRIPT ARGS` (the same entry
   point, the same argv) or `serve -m MODULE` (a "serve": "file" field serves the file
   instead). A server marked "volatile": true runs twice under the reference;
3. records initialize (capabilities, server name, instructions), tools/list, resources/list,
   resources/templates/list, prompts/list, the server's script of calls, and calls generated
   from the reference's own listings (every tool with arguments its schema accepts, with none,
   and with a wrong type; every listed resource; every prompt);
4. compares the two recordings field by field. Schemas are compared in their shortest
   equivalent form (no generated titles, $refs inlined), which the issue allows, and what the
   spec fixes as the spec fixes it in every dialect (README D10: capabilities, error codes; D4:
   -32601 for a kind with nothing to list). The fields in
   which a volatile server's two reference runs differ are values of the run (uptimes, ids,
   clocks) and are ignored, printed as "volatile (ignored)" with -v; a server's "mask" patterns
   (clock readings, random draws that two runs may happen to share) are replaced on both sides.

Every difference must be listed in the expected-differences file (server, field glob, reason),
and every listed entry must still match a difference: a stale entry fails too. With
--max-listed-servers N (or MAX_LISTED_SERVERS in the environment) at most N servers may be
listed. Prints a table per server and ends with the summary line and `N passed, N failed`.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import dataclasses
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sdk_diff import (dump, rule_shortest_schemas, rule_spec_fixed, rule_undeclared_lists,  # noqa: E402
                      run_case)                                   # (the shared case and compare code)

import logging  # noqa: E402

import anyio  # noqa: E402
from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402

# The packages that are the SDK: never installed into a mini venv, and dropped from a server's
# requirements before they are installed (the reference venv gets its group's pin instead).
SDK_PACKAGES = {"mcp", "fastmcp"}
# A server that prints banners on stdout makes the client log a traceback per line: the server's
# own stderr log has what matters.
logging.getLogger("mcp").setLevel(logging.CRITICAL)
# Seconds for one request; a server that takes longer is recorded as hung. The first request
# (initialize) waits for the server's imports: math-mcp-ay's sympy and the SDK took over 20 s
# on the loaded 2-core machine. A hung server still ends its recording at RUN_TIMEOUT.
CALL_TIMEOUT = 60
RUN_TIMEOUT = 150          # seconds for one whole recording


def log(*parts) -> None:
    print(*parts, flush=True)


# --------------------------------------------------------------------------
# installing: one reference venv and one mini venv per SDK group
# --------------------------------------------------------------------------

def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def site_packages(python: Path) -> Path:
    found = sorted((python.parent.parent / "lib").glob("python3.*/site-packages"))
    if len(found) != 1:
        raise RuntimeError(f"cannot find the site-packages of {python}")
    return found[0]


def pip(python: Path, args: list[str], logfile: Path) -> None:
    """pip install into the venv of `python`, run by this interpreter's pip: the venvs need none
    of their own (ensurepip costs more than the installs of the small servers)."""
    command = [sys.executable, "-m", "pip", "--python", str(python), "install", "--disable-pip-version-check",
               "--no-input", "--progress-bar", "off", "--no-compile", *args]
    with open(logfile, "a") as handle:
        handle.write("$ " + " ".join(command) + "\n")
        handle.flush()
        done = subprocess.run(command, stdout=handle, stderr=subprocess.STDOUT, timeout=900)
    if done.returncode:
        tail = logfile.read_text(errors="replace")[-2500:]
        raise RuntimeError(f"pip install {' '.join(args)} failed:\n{tail}")


def make_venv(base_python: str, path: Path) -> Path:
    subprocess.run([base_python, "-m", "venv", "--without-pip", str(path)], check=True)
    return path / "bin" / "python"


def group_requirements(python: Path, names: list[str]) -> list[str]:
    """The servers' own requirements (markers evaluated, extras not), less the SDK packages.

    Read from the installed metadata of the venv of `python`; this interpreter evaluates the
    markers, which is right because every venv is made from the same base interpreter.
    """
    from importlib.metadata import distribution, distributions
    try:
        from packaging.requirements import Requirement
    except ImportError:  # pip always carries a copy
        from pip._vendor.packaging.requirements import Requirement
    where = [str(site_packages(python))]
    installed = {_normal(d.metadata["Name"]): d for d in distributions(path=where)}
    out = []
    for name in names:
        dist = installed.get(_normal(name))
        if dist is None:
            raise RuntimeError(f"{name} is not installed in {where[0]}")
        for text in dist.requires or []:
            req = Requirement(text)
            if req.marker is not None and not req.marker.evaluate({"extra": ""}):
                continue
            if _normal(req.name) in SDK_PACKAGES:
                continue
            out.append(str(req))
    return out


def needed_by(python: Path, roots: list[str]) -> tuple[set[str], list[str]]:
    """(normalised names of the installed distributions that `roots` need transitively, leaks).

    The roots' own requirements of mcp/fastmcp are skipped (the SDK is what minimcp replaces);
    any other package that requires one is a leak: the mini venv cannot do without the SDK.
    """
    from importlib.metadata import distributions
    try:
        from packaging.requirements import Requirement
    except ImportError:  # pip always carries a copy
        from pip._vendor.packaging.requirements import Requirement
    installed = {_normal(d.metadata["Name"]): d for d in distributions(path=[str(site_packages(python))])}
    top = {_normal(r) for r in roots}
    keep: set[str] = set()
    leaks: list[str] = []
    todo = [(name, frozenset()) for name in top]
    seen = set()
    while todo:
        name, extras = todo.pop()
        if (name, extras) in seen or name not in installed:
            continue
        seen.add((name, extras))
        keep.add(name)
        for text in installed[name].requires or []:
            req = Requirement(text)
            wanted = [""] + sorted(extras)
            if req.marker is not None and not any(req.marker.evaluate({"extra": e}) for e in wanted):
                continue
            if _normal(req.name) in SDK_PACKAGES:
                if name not in top:
                    leaks.append(f"{name} requires {req}")
                continue
            todo.append((_normal(req.name), frozenset(req.extras)))
    return keep, leaks


def reference_pin(server: dict, corpus: dict) -> str:
    """The SDK the server's reference run uses: the pin of the dialect that minimcp serves it in
    (published.json's "sdks"), whatever range the server itself declares, because that pin is
    what the dialect emulates. A server that does not work under it keeps its own pin, named with
    the reason in its "reference" field ({"pin": ..., "reason": ...})."""
    own = server.get("reference")
    return own["pin"] if own else corpus["sdks"][server["sdk"]]["pin"]


def group_of(server: dict, corpus: dict) -> str:
    """The venv pair a server is installed in: its dialect's, or one for its own pin."""
    if not server.get("reference"):
        return server["sdk"]
    return server["sdk"] + "-own-" + re.sub(r"[^\w.]+", "-", reference_pin(server, corpus))


def declared_outside(python: Path, servers: list[dict], pin: str) -> dict[str, str]:
    """{server name: its own requirement on the SDK} for the servers whose declared range does
    not admit `pin` (written for an older SDK): they run, under the pin, with --no-deps."""
    from importlib.metadata import distributions
    try:
        from packaging.requirements import Requirement
    except ImportError:  # pip always carries a copy
        from pip._vendor.packaging.requirements import Requirement
    sdk, _, version = pin.partition("==")
    installed = {_normal(d.metadata["Name"]): d for d in distributions(path=[str(site_packages(python))])}
    out = {}
    for server in servers:
        for text in installed[_normal(server["package"])].requires or []:
            req = Requirement(text)
            if _normal(req.name) == _normal(sdk) and (req.marker is None or req.marker.evaluate({"extra": ""})) \
                    and not req.specifier.contains(version, prereleases=True):
                out[server["name"]] = str(req)
    return out


def install_group(base_python: str, work: Path, group: str, pin: str, servers: list[dict]) -> dict:
    """Build the group's reference venv, then its mini venv: a copy less the SDK.

    The reference venv gets the servers (--no-deps), their own requirements less mcp/fastmcp,
    and the group's SDK pin. The mini venv is a copy of it from which every distribution that
    the servers and pydantic do not need is uninstalled: the SDK and whatever only the SDK
    needed. So both run the same versions of everything else, and a server that imports a
    package only its SDK brought in fails under minimcp as it would for a user.
    """
    started = time.monotonic()
    logfile = work / f"install-{group}.log"
    pinned = [f"{s['package']}=={s['version']}" for s in servers]
    names = [s["package"] for s in servers]
    ref = make_venv(base_python, work / f"ref-{group}")
    pip(ref, ["--no-deps", *pinned], logfile)
    others = group_requirements(ref, names)
    pip(ref, [pin, *others], logfile)
    mini_dir = work / f"mini-{group}"
    shutil.copytree(ref.parent.parent, mini_dir, symlinks=True)
    mini = mini_dir / "bin" / "python"
    keep, leaks = needed_by(mini, [*names, "pydantic"])
    if leaks:
        raise RuntimeError(f"the servers of {group} need the SDK through their other requirements "
                           f"({'; '.join(sorted(set(leaks)))}), so their mini venv would hold it")
    from importlib.metadata import distributions
    installed = {_normal(d.metadata["Name"]) for d in distributions(path=[str(site_packages(mini))])}
    drop = sorted(installed - keep - {"pip", "setuptools", "wheel"})
    command = [sys.executable, "-m", "pip", "--python", str(mini), "uninstall", "-y", "-q", *drop]
    with open(logfile, "a") as handle:
        handle.write("$ " + " ".join(command) + "\n")
        handle.flush()
        done = subprocess.run(command, stdout=handle, stderr=subprocess.STDOUT, timeout=300)
    if done.returncode:
        raise RuntimeError(f"pip uninstall in {mini_dir} failed:\n{logfile.read_text(errors='replace')[-2000:]}")
    found = subprocess.run([str(mini), "-c", "import importlib.util as u, sys; "
                            "print([n for n in sys.argv[1:] if u.find_spec(n)])", *sorted(SDK_PACKAGES)],
                           capture_output=True, text=True, check=True).stdout.strip()
    if found != "[]":
        raise RuntimeError(f"the mini venv of {group} still has an SDK: {found}")
    return {"ref": ref, "mini": mini, "seconds": time.monotonic() - started, "requirements": others,
            "dropped": drop, "outside": declared_outside(ref, servers, pin)}


# --------------------------------------------------------------------------
# generated calls: from the reference's own listings
# --------------------------------------------------------------------------


def _sample(schema: dict, defs: dict, depth: int = 0):
    """A value the schema accepts (the simplest one), or None when there is no telling."""
    if not isinstance(schema, dict) or depth > 6:
        return "abc"
    if "$ref" in schema:
        return _sample(defs.get(schema["$ref"].rsplit("/", 1)[-1], {}), defs, depth + 1)
    if "default" in schema:
        return schema["default"]
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        options = [o for o in schema.get(key, []) if not (isinstance(o, dict) and o.get("type") == "null")]
        if options:
            return _sample(options[0], defs, depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    if kind == "integer":
        low = schema.get("minimum", schema.get("exclusiveMinimum", 1))
        return max(2, int(low) + (1 if "exclusiveMinimum" in schema else 0))
    if kind == "number":
        return max(2.5, float(schema.get("minimum", 0)))
    if kind == "boolean":
        return True
    if kind == "array":
        low = int(schema.get("minItems", 1))
        return [_sample(schema.get("items", {}), defs, depth + 1) for _ in range(max(low, 1))]
    if kind == "object" or "properties" in schema:
        properties = schema.get("properties", {})
        return {name: _sample(properties.get(name, {}), defs, depth + 1) for name in schema.get("required", [])}
    if kind == "string" or kind is None:
        low = int(schema.get("minLength", 0))
        return "abc" + "x" * max(0, low - 3)
    return "abc"


def _wrong(schema: dict, defs: dict):
    """A value of a type the schema refuses."""
    if isinstance(schema, dict) and "$ref" in schema:
        schema = defs.get(schema["$ref"].rsplit("/", 1)[-1], {})
    kind = schema.get("type") if isinstance(schema, dict) else None
    if kind in ("integer", "number", "boolean"):
        return "not-a-number"
    if kind in ("array", "object"):
        return 12345
    return {"unexpected": ["object"]}


def generated_cases(listings: dict, server: dict) -> list:
    skip = set(server.get("skip_tools", []))
    cases = []
    tools = (listings.get("tools/list") or {}).get("tools") or []
    for tool in tools:
        name = tool.get("name")
        if name in skip or name in server.get("skip_generated", []):
            continue
        schema = tool.get("inputSchema") or {}
        defs = schema.get("$defs", {})
        properties = schema.get("properties") or {}
        required = [r for r in schema.get("required", []) if r in properties]
        valid = {r: _sample(properties[r], defs) for r in required}
        cases.append(["tool", name, valid])
        if required:
            cases.append(["tool", name, {}])
        if properties:
            first = (required or list(properties))[0]
            cases.append(["tool", name, dict(valid, **{first: _wrong(properties[first], defs)})])
    for resource in (listings.get("resources/list") or {}).get("resources") or []:
        if resource.get("uri") not in server.get("skip_resources", []):
            cases.append(["resource", resource["uri"]])
    for prompt in (listings.get("prompts/list") or {}).get("prompts") or []:
        arguments = {a["name"]: "abc" for a in prompt.get("arguments") or [] if a.get("required")}
        cases.append(["prompt", prompt["name"], arguments])
        if arguments:
            cases.append(["prompt", prompt["name"], {}])
    return cases


# --------------------------------------------------------------------------
# one recording
# --------------------------------------------------------------------------


LISTINGS = (("tools/list", "list_tools", "tools"), ("resources/list", "list_resources", "resources"),
            ("resources/templates/list", "list_resource_templates", "resourceTemplates"),
            ("prompts/list", "list_prompts", "prompts"))


def corpus_cases(listings: dict, server: dict) -> list:
    """The calls of a reference run here: the server's script, then those generated from its listings."""
    return [list(c) for c in server.get("calls", [])] + generated_cases(listings, server)


def stopped_because(exc: BaseException, errlog: Path, drive: Drive) -> str:
    """Why a run stopped: the server's own last word on stderr (the exception that stopped it, or
    minimcp's message) first, then what the client saw, then the last lines of that stderr."""
    failure = "".join(traceback.format_exception_only(type(exc), exc)).strip().splitlines()[-1][:300]
    if isinstance(exc, TimeoutError):
        failure = (f"timed out: a request after {drive.call_timeout}s or the recording after "
                   f"{drive.run_timeout}s ({failure})")
    lines = errlog.read_text(errors="replace").strip().splitlines() if errlog.exists() else []
    said = [line.strip() for line in lines if re.match(r"^\s*(\w+\.)*\w*(Error|Exception|Exit)\b|^minimcp: ", line.strip())]
    failure = (said[-1][:300] + "  [" + failure + "]") if said else failure
    return failure + "".join("\n      | " + line[:240] for line in lines[-6:])


@dataclasses.dataclass(frozen=True)
class Drive:
    """How a stage drives its servers; the defaults are this stage's (sdk_generate.py's too).

    official_servers.py follows every page of a listing, sends its own calls, waits less and
    words a failure by the server's last word alone.
    """

    call_timeout: int = CALL_TIMEOUT          # seconds for one request
    run_timeout: int = RUN_TIMEOUT            # seconds for one whole recording
    max_pages: int = 1                        # pages of each listing followed (nextCursor)
    cases: Callable[[dict, dict], list] = corpus_cases    # (listings, server) -> a reference run's calls
    explain: Callable[[BaseException, Path, "Drive"], str] = stopped_because   # (exception, stderr log, drive)


# uvicorn's line once it listens ("Uvicorn running on http://127.0.0.1:PORT"), with the port it
# was given, or the one the system chose for port 0
LISTENING = re.compile(rb"running on https?://[^\s:]+:(\d+)")


@contextlib.asynccontextmanager
async def serving_http(command: list[str], cwd: str, env: dict, errlog: Path, path: str, drive: Drive):
    """A server that serves Streamable HTTP only, started with "{port}" in its command set to 0 (its
    stdout and stderr to errlog); yields its URL once its log says which loopback port it listens
    on, and stops it by its PID when the recording ends. Port 0 has the system choose the port as
    the server binds it: a port picked free beforehand could be taken by another process before
    the server binds it, and a connection to it would then reach that process."""
    with open(errlog, "ab") as log:
        start = log.tell()
        process = subprocess.Popen([a.replace("{port}", "0") for a in command], cwd=cwd, env=env,
                                   stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    try:
        deadline = time.monotonic() + drive.call_timeout      # its imports, then its bind
        while True:
            with open(errlog, "rb") as log:
                log.seek(start)
                listening = LISTENING.search(log.read())
            if listening:
                break
            if process.poll() is not None:
                raise RuntimeError(f"the server exited (status {process.returncode}) before it said it listened")
            if time.monotonic() > deadline:
                raise TimeoutError(f"the server did not say it listened in {drive.call_timeout}s (see {errlog})")
            await anyio.sleep(0.05)
        yield f"http://127.0.0.1:{int(listening.group(1))}{path}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:      # it did not stop at SIGTERM
            process.kill()
            process.wait()


async def record(command: list[str], cwd: str, env: dict, server: dict, errlog: Path,
                 out: dict, cases: list | None, drive: Drive) -> list:
    """Drive one server; fill `out` as answers come (a server that dies keeps what it said).

    With cases None the calls are drive.cases of the listings (the reference run); the cases
    actually sent are returned so the minimcp run sends the same. A server marked "notifications"
    has the log messages and progress notifications that arrive while a call runs recorded with
    its answer, under "notifications". A server with an "http" path serves Streamable HTTP only:
    it is started on a free loopback port (serving_http) and driven at that path; the others on stdio.
    """
    async with contextlib.AsyncExitStack() as stack:
        if server.get("http"):
            target = await stack.enter_async_context(serving_http(command, cwd, env, errlog, server["http"], drive))
        else:
            wrapped = ["/bin/sh", "-c", 'exec "$@" 2>>"$SDK_CORPUS_ERRLOG"', "sh", *command]
            target = StdioServerParameters(command=wrapped[0], args=wrapped[1:], cwd=cwd,
                                           env=dict(env, SDK_CORPUS_ERRLOG=str(errlog)))
        return await _drive(target, server, out, cases, drive)


async def _drive(target, server: dict, out: dict, cases: list | None, drive: Drive) -> list:
    """record's recording, over the transport `target` (stdio parameters, or a URL) names."""
    sent: list = []
    heard: list | None = [] if server.get("notifications") else None

    async def on_log(message) -> None:
        heard.append({"log": dump(message)})

    async def on_progress(progress, total, message) -> None:
        heard.append({"progress": [progress, total, message]})

    listen = {"logging_callback": on_log} if heard is not None else {}
    with anyio.fail_after(drive.run_timeout):
        async with Client(target, mode="legacy", read_timeout_seconds=drive.call_timeout, cache=None,
                          **listen) as client:
            capabilities = client.server_capabilities
            info = client.server_info
            out["initialize"] = {"capabilities": dump(capabilities) if capabilities else None,
                                 "serverInfo.name": getattr(info, "name", None),
                                 "instructions": client.instructions}

            async def attempt(key: str, call) -> None:
                try:
                    out[key] = dump(await call())
                except MCPError as exc:
                    out[key] = {"error": {"code": exc.error.code, "message": exc.error.message}}
                except TimeoutError:
                    out[key] = {"client_error": "no answer in %ds" % drive.call_timeout}
                    raise
                except Exception as exc:  # the client refused the answer: that is the answer
                    out[key] = {"client_error": f"{type(exc).__name__}: {exc}"[:400]}
                if heard:
                    out[key] = dict(out[key], notifications=heard[:])
                    heard.clear()

            listings = {}
            for key, method, field in LISTINGS:
                cursor, page, items = None, 1, []
                while True:
                    label = key if page == 1 else f"{key} page {page}"
                    await attempt(label, lambda: getattr(client, method)(cursor=cursor))
                    items += out[label].get(field) or []
                    cursor = out[label].get("nextCursor")
                    if not cursor or page >= drive.max_pages:
                        break
                    page += 1
                listings[key] = {field: items}
            if cases is None:
                cases = drive.cases(listings, server)
            for index, case in enumerate(cases):
                sent.append(case)
                await attempt(*run_case(client, index, case, on_progress if heard is not None else None))
    return sent


def run_one(command: list[str], cwd: Path, env: dict, server: dict, errlog: Path, cases,
            drive: Drive = Drive()) -> tuple[dict, list, str]:
    """(recording, cases sent, failure text or ''): in a fresh cwd (the server's files written and
    its setup lines run in it), one run."""
    if cwd.exists():
        shutil.rmtree(cwd)
    cwd.mkdir(parents=True)
    (cwd / "home").mkdir()
    for relative, text in (server.get("files") or {}).items():
        target = cwd / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    for line in server.get("setup") or []:
        subprocess.run(["/bin/sh", "-c", line], cwd=cwd, env=env, check=True, capture_output=True)
    out: dict = {}
    sent: list = []
    failure = ""
    try:
        sent = anyio.run(record, command, str(cwd), env, server, errlog, out, cases, drive)
    except BaseException as exc:  # noqa: BLE001 - anyio wraps failures in groups
        if isinstance(exc, KeyboardInterrupt):
            raise
        while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:   # anyio's wrapping: say
            exc = exc.exceptions[0]                                               # what happened inside
        failure = drive.explain(exc, errlog, drive)
        if cases is not None:
            sent = cases
    return out, sent, failure


# --------------------------------------------------------------------------
# comparing
# --------------------------------------------------------------------------


def mask(node, patterns: list, keys: frozenset = frozenset()):
    """`node` with every match of `patterns` replaced, and the values of dict keys in `keys`
    (a timing in structuredContent, say, which a number pattern cannot tell from a result)."""
    if isinstance(node, dict):
        return {k: "<volatile>" if k in keys else mask(v, patterns, keys) for k, v in node.items()}
    if isinstance(node, list):
        return [mask(v, patterns, keys) for v in node]
    if isinstance(node, str):
        for pattern in patterns:
            node = pattern.sub("<volatile>", node)
    elif isinstance(node, (int, float)) and not isinstance(node, bool) \
            and any(p.fullmatch(str(node)) for p in patterns):   # a clock reading in structuredContent
        node = "<volatile>"
    return node


def normalise(real: dict, mini: dict, server: dict) -> tuple[dict, dict]:
    patterns = [re.compile(p) for p in server.get("mask", [])]
    keys = frozenset(server.get("mask_keys", []))
    # What the spec fixes is the same in every dialect (README: D10, and D4 for what is listed),
    # read before masking, which may take an error code for a value of the run.
    real, mini = rule_spec_fixed(real, mini, server["sdk"])
    real, mini = rule_undeclared_lists(real, mini, server["sdk"])
    real, mini = mask(real, patterns, keys), mask(mini, patterns, keys)
    real, mini = rule_shortest_schemas(real, mini, server["sdk"])
    return real, mini


def volatile_fields(result: dict, server: dict) -> list[str]:
    """The fields in which the server's two reference runs differ (the same SDK, the same files,
    the same calls): values of the run itself. Empty when it ran once (not marked volatile)."""
    if "real_again" not in result:
        return []
    first, again = normalise(result["real"], result["real_again"], server)
    return sorted({d["field"] for d in answer_differences(first, again)})


def under(field: str, volatile: list[str]) -> bool:
    """Whether a difference's field is a volatile field or lies inside one."""
    return any(field == v or field.startswith((v + "/", v + "[")) for v in volatile)


_MISSING = object()


def _walk(a, b, path: str, out: list) -> None:
    """Field-by-field, as sdk_diff.differences, but keeping both whole values."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            _walk(a.get(key, _MISSING), b.get(key, _MISSING), f"{path}/{key}", out)
        return
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b)):
            label = x.get("name") if isinstance(x, dict) and isinstance(x.get("name"), str) else index
            _walk(x, y, f"{path}[{label}]", out)
        return
    if a is _MISSING or b is _MISSING or not (a == b and type(a) is type(b)):
        out.append({"field": path, "real": None if a is _MISSING else a, "minimcp": None if b is _MISSING else b,
                    "only": "real" if b is _MISSING else "minimcp" if a is _MISSING else None})


def _is_error(answer) -> bool:
    return isinstance(answer, dict) and ("error" in answer or "client_error" in answer)


def answer_differences(real: dict, mini: dict) -> list[dict]:
    """Field-by-field differences; an answer that is an error on one side only is one difference."""
    found: list = []
    for key in list(real) + [k for k in mini if k not in real]:
        a, b = real.get(key, _MISSING), mini.get(key, _MISSING)
        if a is not _MISSING and b is not _MISSING and _is_error(a) != _is_error(b):
            found.append({"field": f"/{key}", "real": a, "minimcp": b, "only": None})
        else:
            _walk(a, b, f"/{key}", found)
    return found


def describe(difference: dict) -> str:
    def show(value) -> str:
        return json.dumps(value, ensure_ascii=False)[:300]
    if difference.get("only"):
        value = difference["real"] if difference["only"] == "real" else difference["minimcp"]
        return f"{difference['field']}: only in {difference['only']}: {show(value)}"
    if "text" in difference:
        return f"{difference['field']}: {difference['text']}"
    return f"{difference['field']}: real {show(difference['real'])} != minimcp {show(difference['minimcp'])}"


def load_expected(path: Path) -> list[dict]:
    """Lines `SERVER | FIELD-GLOB | REASON`; `#` starts a comment; blank lines are skipped."""
    entries = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = [p.strip() for p in line.split(" | ")]
        if len(parts) != 3 or not all(parts):
            raise SystemExit(f"{path}:{number}: want 'SERVER | FIELD-GLOB | REASON', got {line!r}")
        entries.append({"server": parts[0], "field": parts[1], "reason": parts[2], "line": number, "used": 0})
    return entries


def glob_match(text: str, pattern: str) -> bool:
    """`*` matches any run of characters and `?` one; everything else, brackets too, is literal
    (field paths are full of `tools[name]`, which fnmatch would read as a character class)."""
    regex = "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
    return re.fullmatch(regex, text, re.S) is not None


def selects(selector: str, server: dict) -> bool:
    """An entry's server column: a name, a glob over names, or sdk=GROUP."""
    if selector.startswith("sdk="):
        return glob_match(server["sdk"], selector[4:])
    return glob_match(server["name"], selector)


# --------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------


_LOCATE = r"""
import importlib.util, os, sys
top, *rest = sys.argv[1].split(".")
origin = importlib.util.find_spec(top).origin
if rest:
    base = os.path.join(os.path.dirname(origin), *rest)
    origin = base + ".py" if os.path.isfile(base + ".py") else os.path.join(base, "__init__.py")
if not os.path.isfile(origin):
    sys.exit("no file for %s (%s)" % (sys.argv[1], origin))
print(origin)
"""


def serve_how(server: dict) -> str:
    """How minimcp serves the server: as its users start it. A server started by its console
    script runs through `serve --entry NAME ARGS` (the same entry point, the same argv: a main()
    that reads its roots or its database from argv, or builds the app, runs as it does under its
    SDK); one started with `python -m MODULE` through `serve -m MODULE`. A "serve" field ("file":
    the installed file that defines the app) overrides that."""
    return server.get("serve") or ("entry" if "entry" in server["start"] else "module")


def serve_command(server: dict, mini_python: Path, repo: Path) -> list[str]:
    """The minimcp command line for serve_how(server): "entry", "module" or "file"."""
    minimcp = str(repo / "minimcp.py")
    how = serve_how(server)
    if how == "module":
        module = server["start"].get("module") or server["module"]
        target = module + (":" + server["attr"] if server.get("attr") else "")
        if server["start"].get("args"):
            raise ValueError(f"{server['name']}: serve -m takes no arguments; serve it by its entry or file")
        return [str(mini_python), minimcp, "serve", "-m", target]
    if how == "entry":
        return [str(mini_python), minimcp, "serve", "--entry", server["start"]["entry"],
                *server["start"].get("args", [])]
    # Locate the file without importing anything: importing a submodule runs its package's
    # __init__, which imports the SDK that the mini venv does not have.
    spec = subprocess.run([str(mini_python), "-c", _LOCATE, server["module"]], capture_output=True, text=True)
    if spec.returncode:
        raise RuntimeError(f"module {server['module']} not found in the mini venv: {spec.stderr[-300:]}")
    path = spec.stdout.strip()
    return [str(mini_python), minimcp, "serve", path + (":" + server["attr"] if server.get("attr") else "")]


def reference_command(server: dict, ref_python: Path, cwd: Path) -> list[str]:
    start = server["start"]
    arguments = [a.replace("{cwd}", str(cwd)) for a in start.get("args", [])]
    if "entry" in start:
        return [str(ref_python.parent / start["entry"]), *arguments]
    if "module" in start:
        return [str(ref_python), "-m", start["module"], *arguments]
    raise ValueError(f"{server['name']}: start wants 'entry' or 'module'")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", required=True, type=Path)
    parser.add_argument("--expected", required=True, type=Path)
    parser.add_argument("--repo", required=True, type=Path)
    parser.add_argument("--python", required=True, help="the base interpreter for the venvs (>= 3.11)")
    parser.add_argument("--work", required=True, type=Path)
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("-j", "--jobs", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="write both recordings of every server to this directory")
    parser.add_argument("--max-listed-servers", type=int,
                        default=int(os.environ["MAX_LISTED_SERVERS"]) if os.environ.get("MAX_LISTED_SERVERS") else None)
    parser.add_argument("--report", type=Path, help="write every server's differences to this JSON file")
    parser.add_argument("--reuse-venvs", action="store_true",
                        help="(development) keep the venvs already under --work instead of installing")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    repo = args.repo.resolve()
    corpus = json.loads(args.corpus.read_text(encoding="utf-8"))
    servers = [s for s in corpus["servers"] if not args.only or s["name"] in args.only]
    expected = load_expected(args.expected)
    passed = failed = 0

    def verdict(ok: bool, name: str, why: str = "") -> None:
        nonlocal passed, failed
        passed, failed = passed + ok, failed + (not ok)
        log(f"{'ok' if ok else 'FAIL'} {name}{(': ' if not ok else '  (') + why + ('' if not ok else ')') if why else ''}")

    names = [s["name"] for s in corpus["servers"]]
    verdict(len(set(names)) == len(names), "corpus.names", "unique")
    verdict(len(names) >= 25, "corpus.size", f"{len(names)} published servers")
    unknown = sorted({e["server"] for e in expected} - set(names))
    verdict(not unknown, "expected.servers", f"entries for servers not in the corpus: {unknown}" if unknown else "")

    # 1. install, the groups in parallel
    groups: dict[str, list[dict]] = {}
    pins: dict[str, str] = {}
    for server in servers:
        groups.setdefault(group_of(server, corpus), []).append(server)
        pins[group_of(server, corpus)] = reference_pin(server, corpus)
    venvs: dict[str, dict] = {}
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        def install(group: str, members: list) -> dict:
            ref, mini = args.work / f"ref-{group}" / "bin" / "python", args.work / f"mini-{group}" / "bin" / "python"
            if args.reuse_venvs and ref.exists() and mini.exists():
                return {"ref": ref, "mini": mini, "seconds": 0.0, "outside": declared_outside(ref, members, pins[group])}
            return install_group(args.python, args.work, group, pins[group], members)
        futures = {pool.submit(install, g, members): g for g, members in groups.items()}
        for future in concurrent.futures.as_completed(futures):
            group = futures[future]
            try:
                venvs[group] = future.result()
                verdict(True, f"install.{group}", f"{pins[group]} and {len(groups[group])} "
                        f"server(s) in {venvs[group]['seconds']:.0f}s")
                for name, requirement in sorted(venvs[group]["outside"].items()):
                    log(f"# {name} declares {requirement}; its reference runs {pins[group]}, the pin of its dialect")
            except Exception as exc:  # noqa: BLE001
                verdict(False, f"install.{group}", str(exc))
    log(f"# installed in {time.monotonic() - started:.0f}s")

    # 2. record, servers in parallel
    lock = threading.Lock()
    results: dict[str, dict] = {}
    env_base = {k: v for k, v in os.environ.items() if k.startswith(("LANG", "LC_", "PATH", "TZ"))}
    # No PYTHONDONTWRITEBYTECODE: pip installs with --no-compile, so the first start of each
    # server writes the bytecode of what it imports, and only that.
    env_base.update(PYTHONUNBUFFERED="1", NO_COLOR="1")

    def drive(server: dict) -> None:
        name = server["name"]
        venv = venvs[group_of(server, corpus)]
        base = args.work / "runs" / name
        cwd = base / "cwd"
        # {cwd} in a server's args, env, files or calls: its throwaway directory (the same path in
        # both runs, so paths in answers compare equal).
        server = json.loads(json.dumps(server).replace("{cwd}", str(cwd)))
        env = dict(env_base, HOME=str(cwd / "home"), TMPDIR=str(cwd))
        env.update({k: v.replace("{cwd}", str(cwd)) for k, v in (server.get("env") or {}).items()})
        result = {"server": server}
        try:
            reference = reference_command(server, venv["ref"], cwd)
            real, cases, real_failure = run_one(reference, cwd, env, server, base / "ref.stderr", None)
            result.update(real=real, real_failure=real_failure, cases=cases)
            if server.get("volatile") and not real_failure:
                # The same SDK run again from the same files: what differs between the two runs is
                # a value of the run (a clock, an uptime, an id), measured rather than listed.
                again, _, again_failure = run_one(reference, cwd, env, server, base / "ref-again.stderr", cases)
                result.update(real_again=again, real_again_failure=again_failure)
            command = serve_command(server, venv["mini"], repo)
            result["serve_command"] = command
            mini, _, mini_failure = run_one(command, cwd, env, server, base / "mini.stderr", cases)
            result.update(mini=mini, mini_failure=mini_failure)
        except Exception as exc:  # noqa: BLE001
            result["harness_error"] = f"{type(exc).__name__}: {exc}"
        with lock:
            results[name] = result

    started = time.monotonic()
    ready = [s for s in servers if group_of(s, corpus) in venvs]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        list(pool.map(drive, ready))
    log(f"# recorded {len(ready)} servers in {time.monotonic() - started:.0f}s")

    # 3. compare and judge
    table = []
    listed_servers = set()
    report = {}
    for server in ready:
        name = server["name"]
        result = results[name]
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            (args.keep / f"{name}.json").write_text(json.dumps(
                {k: v for k, v in result.items() if k != "server"}, indent=1, sort_keys=True))
        if "harness_error" in result:
            verdict(False, f"{name}.harness", result["harness_error"])
            continue
        pin = reference_pin(server, corpus)
        if result["real_failure"] or "initialize" not in result["real"]:
            verdict(False, f"{name}.reference", f"the server does not run under {pin}: {result['real_failure']}")
            continue
        if result.get("real_again_failure"):
            verdict(False, f"{name}.reference", f"its second run under {pin} failed: {result['real_again_failure']}")
            continue
        volatile = volatile_fields(result, server)
        real, mini = normalise(result["real"], result["mini"], server)
        found = []
        starts = "initialize" in result["mini"]
        if not starts:
            found.append({"field": "startup", "text": result["mini_failure"] or "no initialize answer"})
        elif result["mini_failure"]:
            found.append({"field": "aborted", "text": result["mini_failure"]})
        if starts:
            found += [d for d in answer_differences(real, mini) if not under(d["field"], volatile)]
        if args.verbose:
            for field in volatile:
                log(f"  {name}: volatile (ignored): {field}")
        mine = [e for e in expected if selects(e["server"], server)]
        unexplained = []
        for difference in found:
            field = difference["field"]
            hits = [e for e in mine if glob_match(field, e["field"])]
            for entry in hits:
                entry["used"] += 1
            if hits:
                listed_servers.add(name)
            else:
                unexplained.append(describe(difference))
        error = "" if starts else result["mini_failure"].splitlines()[0][:200]
        table.append((name, server["sdk"], starts, len(found), len(unexplained), error))
        report[name] = {"sdk": server["sdk"], "reference": pin, "volatile": volatile,
                        "serve_command": " ".join(result.get("serve_command", [])[2:]),
                        "starts": starts, "startup_error": error,
                        "answers": len(real), "differences": found, "unlisted": unexplained}
        if unexplained:
            shown = unexplained if args.verbose else unexplained[:12]
            text = "\n    ".join(shown)
            if len(shown) < len(unexplained):
                text += f"\n    ... and {len(unexplained) - len(shown)} more (-v shows all)"
            verdict(False, name, f"{len(unexplained)} unlisted difference(s) of {len(found)}:\n    {text}")
        else:
            verdict(True, name, f"{server['sdk']}, {len(real)} answers, {len(found)} difference(s), all listed")

    # An entry that matched no difference of any server it selects is stale (checked on full runs:
    # with --only, the servers it was written for may not have run).
    if not args.only:
        stale = [e for e in expected if not e["used"]]
        verdict(not stale, "expected.stale", "".join(
            f"\n    line {e['line']}: {e['server']} | {e['field']} ({e['reason']})" for e in stale)
            if stale else f"{len(expected)} entries, each still matches a difference")
    if args.report:
        args.report.write_text(json.dumps(report, indent=1, ensure_ascii=False))

    if args.max_listed_servers is not None:
        verdict(len(listed_servers) <= args.max_listed_servers, "expected.max_listed_servers",
                f"{len(listed_servers)} servers listed, at most {args.max_listed_servers} allowed")

    log("\n# server                          sdk        starts  diffs  unlisted  startup error")
    for name, sdk, starts, diffs, unlisted, error in table:
        log(f"  {name:32} {sdk:10} {'yes' if starts else 'no':6} {diffs:6} {unlisted:9}  {error}")
    unchanged = sum(1 for row in table if row[2])
    log(f"\n{len(table)} servers, {unchanged} start unchanged under minimcp, "
        f"{len(listed_servers)} servers with listed differences"
        f"{'' if args.max_listed_servers is not None else ' (MAX_LISTED_SERVERS not set: not enforced)'}")
    log(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
