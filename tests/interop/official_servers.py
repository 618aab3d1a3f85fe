#!/usr/bin/env python3
"""The official SDK's example servers and the official reference servers, on their SDK and unchanged
under `python3 minimcp.py serve` (issue 38).

Run by run_sdk_examples.sh and run_reference_servers.sh, with a Python that has the official client
(`mcp` 2.3.0) installed:

    python official_servers.py examples  --sdist VERSION=DIR... --base-python PY --work DIR
                                         --minimcp-dir DIR --readme README.md [--only NAME]... [-j N] [-v]
    python official_servers.py reference --group PIN:NAME==VERSION,... --base-python PY --work DIR
                                         --minimcp-dir DIR --readme README.md [--only NAME]... [-j N] [-v]

examples: the servers under `examples/servers/` of each extracted source distribution of `mcp` and the
low-level snippets under `examples/snippets/servers/` (EXCLUDED says which are left out, and why; any
other example runs, so a new pin's new example is measured, not left out unsaid). Each runs in a venv
with that `mcp` and the example's own requirements, as its README starts it (`python -m PACKAGE`, or
`python FILE`), and unchanged in a copy of that venv with `mcp` and whatever only `mcp` needed
uninstalled, as `python3 minimcp.py serve FILE` (FILE: the module of the example's console script, or
the snippet). A module that defines its server but never starts it (a snippet without a `__main__`
block; the everything-server, whose main() serves HTTP only) runs under the SDK through RUN_OBJECT, the
few lines that start that object on stdio as the SDK documents, and under `serve FILE`, which does the same.
The examples that serve Streamable HTTP only (HTTP_ONLY: their main() hands the SDK's ASGI app to
uvicorn) start both ways with `--port 0` (uvicorn binds a port the system picks, and its log names it):
`python -m PACKAGE --port 0`, and `serve FILE --port 0`, which runs the same main() with minimcp's
stand-in for that ASGI app.

reference: each group's packages (pinned) installed with `--no-deps` beside their own requirements,
under the group's SDK pin and without any SDK (sdk_corpus.install_group), each started by its console
script and by `serve --entry SCRIPT ARGS` with the same arguments (REFERENCE).

Both drive every server with the official client (mcp 2.3.0, `Client(mode="legacy")`; over stdio, or
over Streamable HTTP on 127.0.0.1 for HTTP_ONLY, each HTTP server stopped by its PID; sdk_corpus.run_one,
the recording the corpus and the generated servers share, set by DRIVE):
initialize, the four listings (every page, following nextCursor), the server's own calls (CALLS), then
calls made from the reference's listings (sdk_corpus.generated_cases: every tool with arguments its
schema accepts, with none and with a wrong type; every resource; every prompt), every template read
with its variables set to "1", and an unknown tool, resource and prompt. The minimcp run sends the same
calls. Values of the run (clocks, random draws) are masked on both sides (MASKS). The two recordings
are compared field by field after the README's deliberate differences that hold under `serve`
(deliberate.py, as sdk_generate.py applies them: the rows for invalid arguments only to those answers).

Prints one line per server, `identical NAME`, `DIFFERS NAME: N difference(s), the first: ...` or
`SKIPPED NAME: could not start under mcp X: ...` (counted, never a pass), and the servers left out
with the reason; ends with the counts and exits 1 on any difference.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import http.server
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

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import sdk_corpus  # noqa: E402  (installs, recordings, generated calls, masks, field-by-field differences)
import sdk_generate  # noqa: E402  (the deliberate differences that hold under serve)

CALL_TIMEOUT = 30          # seconds for one request (the first waits for the server's imports)
RUN_TIMEOUT = 120          # seconds for one whole recording
MAX_PAGES = 20             # pages of one listing followed before the recording says it does not end

# --------------------------------------------------------------------------
# what runs, and what is left out (examples)
# --------------------------------------------------------------------------

# Examples left out, by folder (examples/servers/NAME) or snippet file (examples/snippets/servers/...).
EXCLUDED = {
    "simple-auth": "HTTP only (an OAuth-protected resource server with its own authorization server): "
                   "needs an OAuth flow, no stdio transport",
    "simple-task": "HTTP only (tasks over Streamable HTTP; its main() takes no stdio), on the SDK's "
                   "experimental tasks API (server.experimental.enable_tasks()), which minimcp does not back",
    "simple-task-interactive": "HTTP only (tasks asking the client over Streamable HTTP; no stdio), on the "
                               "SDK's experimental tasks API, which minimcp does not back",
}

# Examples that serve Streamable HTTP only: their main() hands an ASGI app (mcp 2.x's
# `server.streamable_http_app()`, or a StreamableHTTPSessionManager mounted in Starlette) to uvicorn.
# Both runs start as their README starts them, `--port PORT`, with 0 (driven at the port uvicorn's
# log names: sdk_corpus.serving_http) over HTTP at this path; the tool's log messages are recorded
# with its answer.
HTTP_ONLY = {"simple-streamablehttp": "/mcp", "simple-streamablehttp-stateless": "/mcp", "sse-polling-demo": "/mcp"}

# Third-party modules the examples import without declaring them: under the SDK they come with mcp
# (simple-tool, simple-prompt, simple-resource and simple-pagination 1.29.0 import starlette at the top,
# for their SSE branch; simple-resource imports pydantic's AnyUrl). A user serving them with minimcp
# installs them as the SDK would have; the mini venv keeps them.
UNDECLARED = ("pydantic", "starlette")

# Snippets that define a low-level server (mcp 1.x `from mcp.server.lowlevel import Server`, mcp 2.x
# `from mcp.server import Server`); the FastMCP/MCPServer snippets are the decorator API's, measured by
# run_sdk_diff.sh and run_sdk_generate.sh.
LOWLEVEL = re.compile(r"^\s*from\s+mcp\.server(\.lowlevel)?\s+import\s+[^\n]*\bServer\b", re.M)

# The object a module without a run block defines, by example folder (else the first of these names).
OBJECT_NAMES = ("server", "app", "mcp")

# A module's server object started on stdio under the SDK, as the SDK's docs start each kind: the
# decorator API's run_stdio_async(); the low-level Server's stdio_server() and run(). argv: the
# directory to import from, the dotted module, the object's name.
RUN_OBJECT = r"""
import importlib, sys
sys.path.insert(0, sys.argv[1])
server = getattr(importlib.import_module(sys.argv[2]), sys.argv[3])
import anyio
if hasattr(server, "run_stdio_async"):
    anyio.run(server.run_stdio_async)
else:
    from mcp.server.stdio import stdio_server
    async def main():
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())
    anyio.run(main)
"""

# Per server (its name in the output): calls sent before the generated ones ({stub}: the loopback
# web server's address, {cwd}: the run's directory), and values of the run masked on both sides.
# The HTTP examples' tools with the arguments their READMEs use, smaller: a few log messages a
# tenth of a second apart, and a batch whose SSE stream the server closes at each checkpoint.
NOTIFY = [["tool", "start-notification-stream", {"interval": 0.1, "count": 3, "caller": "ci"}]]
CALLS = {
    "1.29.0/simple-tool": [["tool", "fetch", {"url": "{stub}/page.html"}]],
    "2.3.0/simple-tool": [["tool", "fetch", {"url": "{stub}/page.html"}]],
    **{f"{version}/{name}": NOTIFY for version in ("1.29.0", "2.3.0")
       for name in ("simple-streamablehttp", "simple-streamablehttp-stateless")},
    **{f"{version}/sse-polling-demo": [["tool", "process_batch", {"items": 4, "checkpoint_every": 2}]]
       for version in ("1.29.0", "2.3.0")},
}
WEATHER = ["temperature", "conditions", "humidity", "wind_speed", "timestamp"]
_WEATHER_TEXT = r'"(temperature|conditions|humidity|wind_speed|timestamp)": ("[^"]*"|[-0-9.e]+)'
MASKS = {   # {name: (patterns, structuredContent keys)}: random weather and the clock
    "1.29.0/structured-output-lowlevel": ([_WEATHER_TEXT], WEATHER),
    "2.3.0/structured-output-lowlevel": ([_WEATHER_TEXT], WEATHER),
}

# --------------------------------------------------------------------------
# the reference servers (reference)
# --------------------------------------------------------------------------

_CLOCK = r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)?"
# Commits with fixed authors and dates, the repository's and the server's own: the same hashes in every run.
GIT_ENV = {"GIT_AUTHOR_NAME": "ci", "GIT_AUTHOR_EMAIL": "ci@localhost", "GIT_AUTHOR_DATE": "2026-01-02T03:04:05Z",
           "GIT_COMMITTER_NAME": "ci", "GIT_COMMITTER_EMAIL": "ci@localhost",
           "GIT_COMMITTER_DATE": "2026-01-02T03:04:05Z"}
GIT_REPO = [
    "git init -q -b main repo",
    "printf 'one\\n' > repo/a.txt && git -C repo add a.txt && git -C repo commit -q -m first",
    "printf 'one\\ntwo\\n' > repo/a.txt && printf 'new\\n' > repo/b.txt && git -C repo add b.txt",
]
REFERENCE = {
    "mcp-server-time": {
        "entry": "mcp-server-time", "args": ["--local-timezone", "UTC"],
        "calls": [["tool", "get_current_time", {"timezone": "Europe/Paris"}],
                  ["tool", "get_current_time", {"timezone": "Mars/Olympus"}],
                  ["tool", "convert_time", {"source_timezone": "America/New_York", "time": "14:30",
                                            "target_timezone": "Asia/Tokyo"}],
                  ["tool", "convert_time", {"source_timezone": "UTC", "time": "25:99", "target_timezone": "UTC"}]],
        # the clock: the time now, and today's date and weekday (convert_time converts a time of today)
        "mask": [_CLOCK, r'"day_of_week": "\w+"'], "mask_keys": ["datetime", "day_of_week"]},
    "mcp-server-git": {
        "entry": "mcp-server-git", "args": ["--repository", "{cwd}/repo"], "setup": GIT_REPO,
        "calls": [["tool", "git_status", {"repo_path": "{cwd}/repo"}],
                  ["tool", "git_diff_unstaged", {"repo_path": "{cwd}/repo"}],
                  ["tool", "git_diff_staged", {"repo_path": "{cwd}/repo"}],
                  ["tool", "git_log", {"repo_path": "{cwd}/repo"}],
                  ["tool", "git_show", {"repo_path": "{cwd}/repo", "revision": "HEAD"}],
                  ["tool", "git_branch", {"repo_path": "{cwd}/repo", "branch_type": "local"}],
                  ["tool", "git_create_branch", {"repo_path": "{cwd}/repo", "branch_name": "topic"}],
                  ["tool", "git_checkout", {"repo_path": "{cwd}/repo", "branch_name": "topic"}],
                  ["tool", "git_add", {"repo_path": "{cwd}/repo", "files": ["a.txt"]}],
                  ["tool", "git_commit", {"repo_path": "{cwd}/repo", "message": "second"}],
                  ["tool", "git_log", {"repo_path": "{cwd}/repo", "max_count": 1}],
                  ["tool", "git_status", {"repo_path": "/nonexistent"}]],
        # 2026.8.18's git_show prints a datetime's repr, with its tzinfo object's address
        "mask": [r" at 0x[0-9a-f]+"], "mask_keys": [], "env": GIT_ENV},
    "mcp-server-fetch": {
        # Its network answered by the loopback stub; the mcp 2.x releases refuse private addresses
        # unless allowed (the 1.x ones have no such option).
        "entry": "mcp-server-fetch", "args": [], "args_mcp2": ["--allow-private-ips"],
        "calls": [["tool", "fetch", {"url": "{stub}/page.html"}],
                  ["tool", "fetch", {"url": "{stub}/page.html", "raw": True}],
                  ["tool", "fetch", {"url": "{stub}/page.html", "max_length": 20, "start_index": 5}],
                  ["tool", "fetch", {"url": "{stub}/private/page.html"}],
                  ["tool", "fetch", {"url": "{stub}/missing.html"}],
                  ["prompt", "fetch", {"url": "{stub}/page.html"}]],
        "mask": [], "mask_keys": []},
}

# --------------------------------------------------------------------------
# the loopback web server the fetching servers read from
# --------------------------------------------------------------------------

PAGES = {
    "/robots.txt": ("text/plain", "User-agent: *\nDisallow: /private/\n"),
    "/page.html": ("text/html; charset=utf-8",
                   "<html><head><title>Stub page</title></head><body><article><h1>A heading</h1>"
                   "<p>The first paragraph of the stub page, long enough to be kept as content.</p>"
                   "<p>A second paragraph with <a href='/other.html'>a link</a> and <b>bold</b> text.</p>"
                   "</article></body></html>"),
    "/private/page.html": ("text/html", "<html><body><p>private</p></body></html>"),
}


class _Pages(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        kind, body = PAGES.get(self.path, ("text/plain", "not found"))
        data = body.encode()
        self.send_response(200 if self.path in PAGES else 404)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args) -> None:   # quiet: the servers' calls are not the report
        pass


def start_stub() -> tuple[http.server.ThreadingHTTPServer, str]:
    stub = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Pages)
    threading.Thread(target=stub.serve_forever, daemon=True).start()
    return stub, "http://127.0.0.1:%d" % stub.server_address[1]


# --------------------------------------------------------------------------
# one recording (sdk_corpus.run_one): the listings, every page of them, and these calls
# --------------------------------------------------------------------------

def template_cases(listings: dict) -> list:
    """A read of every template, its variables set to "1"."""
    templates = (listings.get("resources/templates/list") or {}).get("resourceTemplates") or []
    return [["resource", re.sub(r"\{[^}]*\}", "1", t["uriTemplate"])] for t in templates if t.get("uriTemplate")]


def make_cases(listings: dict, server: dict) -> list:
    """The calls from the reference's listings; the indexes of those with invalid arguments go to
    server["invalid"]."""
    cases = [list(c) for c in server.get("calls", [])]
    invalid, seen = set(), set()
    for case in sdk_corpus.generated_cases(listings, {}):
        if case[0] == "tool":            # generated: valid arguments first, then none, then a wrong type
            if case[1] in seen:
                invalid.add(len(cases))
            seen.add(case[1])
        cases.append(case)
    cases += template_cases(listings)
    cases += [["tool", "no_such_tool", {}], ["resource", "missing://nothing"], ["prompt", "no_such_prompt", {}]]
    server["invalid"] = invalid
    return cases


def last_word(exc: BaseException, errlog: Path, drive: sdk_corpus.Drive) -> str:
    """Why a run stopped: the exception ending the server's traceback on stderr, else the client's."""
    return sdk_generate.last_word(errlog, "".join(traceback.format_exception_only(type(exc), exc)).strip())


DRIVE = sdk_corpus.Drive(call_timeout=CALL_TIMEOUT, run_timeout=RUN_TIMEOUT, max_pages=MAX_PAGES,
                         cases=make_cases, explain=last_word)


# --------------------------------------------------------------------------
# the servers of each mode
# --------------------------------------------------------------------------

def _dotted(path: Path) -> tuple[Path, str]:
    """(the directory to import from, the dotted module name) of a file, climbing its packages."""
    directory, parts = path.parent, [path.stem]
    while (directory / "__init__.py").is_file():
        parts.insert(0, directory.name)
        directory = directory.parent
    return directory, ".".join(parts)


def _object_name(path: Path) -> str | None:
    """The name of the server object a module assigns at its top level (OBJECT_NAMES), if any."""
    text = path.read_text(encoding="utf-8")
    return next((n for n in OBJECT_NAMES if re.search(rf"^{n}\s*=\s*\w", text, re.M)), None)


def _runs_itself(path: Path) -> bool:
    """Whether `python FILE` starts the server: the file has a `__main__` block."""
    return bool(re.search(r"^if\s+__name__\s*==\s*['\"]__main__['\"]", path.read_text(encoding="utf-8"), re.M))


def example_servers(version: str, root: Path) -> tuple[list, list]:
    """(servers, [(name, why left out)]) of one extracted source distribution."""
    import tomllib
    servers, left_out = [], []
    for folder in sorted(p for p in (root / "examples" / "servers").iterdir() if p.is_dir()):
        name = f"{version}/{folder.name}"
        if folder.name in EXCLUDED:
            left_out.append((name, EXCLUDED[folder.name]))
            continue
        project = tomllib.loads((folder / "pyproject.toml").read_text(encoding="utf-8"))["project"]
        scripts = list((project.get("scripts") or {}).values())
        packages = [p for p in folder.iterdir() if (p / "__main__.py").is_file()]
        if len(packages) != 1:
            raise SystemExit(f"{folder}: want one package with a __main__.py, found {packages}")
        package = packages[0]
        # serve the module of its console script (else its __main__, where the server is)
        file = package / (scripts[0].partition(":")[0].split(".")[-1] + ".py" if scripts else "__main__.py")
        where, dotted = _dotted(file)
        reference = ["-m", package.name]
        if folder.name == "everything-server":
            # its main() serves Streamable HTTP only: its `mcp` object runs on stdio instead (RUN_OBJECT)
            reference = ["-c", RUN_OBJECT, str(where), dotted, "mcp"]
        server = {"name": name, "sdk": version, "cwd": folder, "file": file, "reference": reference,
                  "requires": [r for r in project.get("dependencies", []) if _req_name(r) != "mcp"]}
        if folder.name in HTTP_ONLY:
            server.update(http=HTTP_ONLY[folder.name], args=["--port", "{port}"], notifications=True)
        servers.append(server)
    snippets = root / "examples" / "snippets" / "servers"
    for file in sorted(snippets.rglob("*.py")):
        if file.name == "__init__.py" or not LOWLEVEL.search(file.read_text(encoding="utf-8")):
            continue
        relative = str(file.relative_to(snippets))
        name = f"{version}/snippet {relative}"
        if relative in EXCLUDED:
            left_out.append((name, EXCLUDED[relative]))
            continue
        where, dotted = _dotted(file)
        obj = _object_name(file)
        if _runs_itself(file):
            reference = [file.name]
        elif obj:
            reference = ["-c", RUN_OBJECT, str(where), dotted, obj]
        else:
            raise SystemExit(f"{file}: neither a __main__ block nor a server object ({OBJECT_NAMES})")
        servers.append({"name": name, "sdk": version, "cwd": file.parent, "file": file, "reference": reference,
                        "requires": []})
    return servers, left_out


def _req_name(requirement: str) -> str:
    """The normalised distribution name of a requirement ("httpx>=0.27" -> "httpx")."""
    return sdk_corpus._normal(re.split(r"[\s<>=!~;\[]", requirement.strip(), maxsplit=1)[0])


def install_examples(base_python: str, work: Path, version: str, requires: list) -> dict:
    """A venv with mcp==version and the examples' requirements; a copy without mcp, keeping only what
    the examples need (their requirements and UNDECLARED, at the versions the SDK's venv has)."""
    started = time.monotonic()
    logfile = work / f"install-{version}.log"
    sdk = sdk_corpus.make_venv(base_python, work / f"sdk-{version}")
    sdk_corpus.pip(sdk, [f"mcp=={version}", *sorted(set(requires))], logfile)
    mini_dir = work / f"mini-{version}"
    shutil.copytree(sdk.parent.parent, mini_dir, symlinks=True)
    mini = mini_dir / "bin" / "python"
    keep, leaks = sdk_corpus.needed_by(mini, sorted({_req_name(r) for r in requires} | set(UNDECLARED)))
    if leaks:
        raise RuntimeError(f"the examples' requirements need the SDK: {'; '.join(sorted(set(leaks)))}")
    from importlib.metadata import distributions
    installed = {sdk_corpus._normal(d.metadata["Name"])
                 for d in distributions(path=[str(sdk_corpus.site_packages(mini))])}
    drop = sorted(installed - keep - {"pip", "setuptools", "wheel"})
    subprocess.run([sys.executable, "-m", "pip", "--python", str(mini), "uninstall", "-y", "-q", *drop],
                   check=True, capture_output=True, timeout=300)
    found = subprocess.run([str(mini), "-c", "import importlib.util as u; print([n for n in "
                            "('mcp', 'mcp_types', 'fastmcp') if u.find_spec(n)])"], capture_output=True, text=True)
    if found.stdout.strip() != "[]":
        raise RuntimeError(f"the mini venv of mcp {version} still has an SDK: {found.stdout.strip()}")
    return {"sdk": sdk, "mini": mini, "seconds": time.monotonic() - started, "dropped": drop}


# --------------------------------------------------------------------------
# running and comparing
# --------------------------------------------------------------------------

def substitute(node, values: dict):
    """`node` with {stub} and {cwd} replaced in every string (calls, setup lines, arguments)."""
    return json.loads(json.dumps(node).replace("{stub}", values["stub"]).replace("{cwd}", values["cwd"]))


def check(server: dict, commands: dict, harness, env_base: dict, stub: str) -> dict:
    """Run one server under its SDK, then under serve in the same fresh directory; compare."""
    base = harness.work / "runs" / re.sub(r"[^\w.-]+", "_", server["name"])
    cwd = base / "cwd"
    server = dict(server, **substitute({k: server.get(k, []) for k in ("calls", "setup", "args")},
                                       {"stub": stub, "cwd": str(cwd)}))
    env = dict(env_base, HOME=str(cwd / "home"), TMPDIR=str(cwd), **server.get("env", {}))
    result = {"name": server["name"]}
    real, cases, failure = sdk_corpus.run_one(commands["reference"], cwd, env, server, base / "sdk.stderr", None,
                                              DRIVE)
    result["real"] = real
    if "initialize" not in real:
        result.update(status="skipped", why=failure or "no answer to initialize")
        return result
    mini, _, mini_failure = sdk_corpus.run_one(commands["serve"], cwd, env, server, base / "serve.stderr", cases,
                                               DRIVE)
    result["mini"] = mini
    patterns = [re.compile(p) for p in server.get("mask", [])]
    keys = frozenset(server.get("mask_keys", []))
    real, mini = sdk_corpus.mask(real, patterns, keys), sdk_corpus.mask(mini, patterns, keys)
    invalid = {harness.key(i, cases[i]) for i in server.get("invalid", set())}
    differences, used = harness.compare(real, mini, invalid, "mcp2" if server["sdk"].startswith("2") else "mcp1")
    if "initialize" not in mini:
        differences.insert(0, {"field": "/initialize", "real": "started", "minimcp": None, "only": None,
                               "text": f"serve did not start: {mini_failure}"})
    elif mini_failure:
        differences.insert(0, {"field": "/", "real": None, "minimcp": None, "only": None,
                               "text": f"the serve run stopped: {mini_failure}"})
    if failure:            # the SDK's run stopped early: its missing answers are differences, said why
        differences.insert(0, {"field": "/", "real": None, "minimcp": None, "only": None,
                               "text": f"the SDK's run stopped: {failure}"})
    result.update(status="differs" if differences else "identical", differences=differences, used=used,
                  answers=len(real))
    return result


def report(result: dict, verbose: bool) -> None:
    name = result["name"]
    if result["status"] == "skipped":
        print(f"SKIPPED {name}: could not start under its SDK: {result['why']}")
    elif result["status"] == "identical":
        print(f"identical {name}  ({result['answers']} answers{sdk_generate.rows_used(result['used'])})")
    else:
        differences = result["differences"]
        print(f"DIFFERS {name}: {len(differences)} difference(s), the first: {sdk_corpus.describe(differences[0])}")
        for difference in differences[1:] if verbose else []:
            print("    " + sdk_corpus.describe(difference))
    sys.stdout.flush()


def plan_examples(args, minimcp: str) -> tuple[list, list, dict]:
    """(servers, left out, {name: {"reference": argv, "serve": argv}}) of the examples, their venvs installed."""
    found = {}
    for item in args.sdist:
        version, _, root = item.partition("=")
        found[version] = example_servers(version, Path(root))
    with concurrent.futures.ThreadPoolExecutor() as pool:
        futures = {v: pool.submit(install_examples, args.base_python, args.work, v,
                                  [r for s in found[v][0] for r in s["requires"]]) for v in found}
        venvs = {v: f.result() for v, f in futures.items()}       # an install that fails fails the run
    for version, venv in venvs.items():
        print(f"# mcp {version}: installed in {venv['seconds']:.0f}s; the serve venv has no "
              f"{', '.join(n for n in venv['dropped'] if n in ('mcp', 'mcp-types'))} "
              f"(and {len(venv['dropped'])} packages in all that only the SDK needed)")
    servers = [s for v in found for s in found[v][0] if not args.only or s["name"] in args.only]
    commands = {}
    for server in servers:
        venv = venvs[server["sdk"]]
        patterns, keys = MASKS.get(server["name"], ([], []))
        server.update(calls=CALLS.get(server["name"], []), mask=patterns, mask_keys=keys)
        in_folder = ["/bin/sh", "-c", 'cd "$0" && exec "$@"', str(server["cwd"])]
        arguments = server.get("args", [])
        commands[server["name"]] = {
            "reference": [*in_folder, str(venv["sdk"]), *server["reference"], *arguments],
            "serve": [*in_folder, str(venv["mini"]), minimcp, "serve", str(server["file"].relative_to(server["cwd"])),
                      *arguments]}
    return servers, [x for v in found for x in found[v][1]], commands


def plan_reference(args, minimcp: str) -> tuple[list, list, dict]:
    """(servers, left out, commands) of the reference servers, each group's venvs installed."""
    groups = []
    for item in args.group:
        pin, _, listed = item.partition(":")
        packages = [dict(zip(("package", "version"), p.split("=="))) for p in listed.split(",")]
        unknown = [p["package"] for p in packages if p["package"] not in REFERENCE]
        if unknown:
            raise SystemExit(f"no entry in REFERENCE for {unknown}")
        groups.append((pin, packages))
    with concurrent.futures.ThreadPoolExecutor() as pool:
        futures = [pool.submit(sdk_corpus.install_group, args.base_python, args.work, f"group{i}", pin, packages)
                   for i, (pin, packages) in enumerate(groups)]
        venvs = [f.result() for f in futures]                     # an install that fails fails the run
    servers, commands = [], {}
    for (pin, packages), venv in zip(groups, venvs):
        print(f"# {pin} and {', '.join(p['package'] + '==' + p['version'] for p in packages)} installed in "
              f"{venv['seconds']:.0f}s; the serve venv has no mcp (and {len(venv['dropped'])} packages in all "
              f"that only the SDK needed)")
        generation = "mcp" + pin.partition("==")[2][0]
        for package in packages:
            name = f"{package['package']} {package['version']}"
            if args.only and package["package"] not in args.only and name not in args.only:
                continue
            spec = dict(REFERENCE[package["package"]], name=name, sdk=pin.partition("==")[2])
            arguments = spec["args"] + spec.get("args_" + generation, [])
            servers.append(spec)
            commands[name] = {"reference": [str(venv["ref"].parent / spec["entry"]), *arguments],
                              "serve": [str(venv["mini"]), minimcp, "serve", "--entry", spec["entry"], *arguments]}
    return servers, [], commands


def run_all(servers: list, commands: dict, harness, jobs: int, verbose: bool) -> list:
    """Every server checked, `jobs` at a time, with the loopback web server up; a line each as it ends."""
    env_base = {k: v for k, v in os.environ.items() if k.startswith(("LANG", "LC_", "PATH"))}
    env_base.update(PYTHONUNBUFFERED="1", NO_COLOR="1", PYTHONHASHSEED="0", TZ="UTC")
    stub, stub_url = start_stub()

    def one(server: dict) -> dict:
        # {cwd} in the command lines: the run's directory, the same in both runs
        cwd = str(harness.work / "runs" / re.sub(r"[^\w.-]+", "_", server["name"]) / "cwd")
        mine = {k: [a.replace("{cwd}", cwd) for a in v] for k, v in commands[server["name"]].items()}
        try:
            return check(server, mine, harness, env_base, stub_url)
        except Exception as exc:  # noqa: BLE001 - the harness itself failed: a difference, loudly
            return {"name": server["name"], "status": "differs", "differences": [
                {"field": "/", "text": f"the harness failed: {type(exc).__name__}: {exc}"}]}
    results = []
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            for result in pool.map(one, servers):
                report(result, verbose)
                results.append(result)
    finally:
        stub.shutdown()
        stub.server_close()
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("examples", "reference"))
    parser.add_argument("--sdist", action="append", default=[], help="VERSION=DIR (examples)")
    parser.add_argument("--group", action="append", default=[],
                        help="PIN:NAME==VERSION,... (reference): packages run under the SDK requirement PIN")
    parser.add_argument("--base-python", required=True, help="the interpreter the venvs are made with")
    parser.add_argument("--work", required=True, type=Path)
    parser.add_argument("--minimcp-dir", required=True, type=Path, help="where minimcp.py (and minimcp_*.py) are")
    parser.add_argument("--readme", required=True, type=Path)
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("-j", "--jobs", type=int, default=4)
    parser.add_argument("--keep", type=Path, help="write both recordings of every server to this directory")
    parser.add_argument("--self-check", action="store_true",
                        help="run the reference in place of serve too: every server must come out identical "
                             "(the masks cover every value of the run)")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    started = time.monotonic()
    harness = sdk_generate.Harness(argparse.Namespace(sdk=[], mini_python=None, repo=args.minimcp_dir,
                                                      readme=args.readme, work=args.work))
    minimcp = str(args.minimcp_dir.resolve() / "minimcp.py")
    if not Path(minimcp).is_file():
        raise SystemExit(f"no minimcp.py in {args.minimcp_dir}")
    servers, left_out, commands = (plan_examples if args.mode == "examples" else plan_reference)(args, minimcp)
    if args.self_check:
        for command in commands.values():
            command["serve"] = command["reference"]
    results = run_all(servers, commands, harness, args.jobs, args.verbose)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        for result in results:
            (args.keep / (re.sub(r"[^\w.-]+", "_", result["name"]) + ".json")).write_text(
                json.dumps(result, indent=1, default=str, ensure_ascii=False))
    for name, why in left_out:
        print(f"left out {name}: {why}")
    counts = {s: sum(r["status"] == s for r in results) for s in ("identical", "differs", "skipped")}
    print(f"\n{len(results)} servers: {counts['identical']} identical, {counts['differs']} differ, "
          f"{counts['skipped']} could not start under their SDK (skipped); {len(left_out)} left out; "
          f"{time.monotonic() - started:.0f}s")
    return 1 if counts["differs"] or not results else 0


if __name__ == "__main__":
    sys.exit(main())
