"""The files as users get them: the core, the component files beside it, and the bundle.

``python3 minimcp.py bundle -o FILE`` writes the core and its components as one file; alone
in a folder as minimcp.py it replaces them all: it serves stdio, serves HTTP (serve --http)
and runs a server written for mcp 1.x through serve. One script that builds a default
MCPServer gives the same bytes on the wire under the core alone and under the bundle.
Everything here runs in fresh processes, bytes in and JSON lines out.
"""

import glob
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import urllib.request

import pytest

import minimcp
from conftest import ROOT, check_line

COMPONENTS = list(minimcp._COMPONENT_FILES)
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def bundle(*words, cwd=ROOT, script=None):
    """``python3 minimcp.py bundle WORDS`` (the script form, from ``cwd``)."""
    return subprocess.run([sys.executable, "-B", script or os.path.join(cwd, "minimcp.py"), "bundle"] + list(words),
                          cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)


@pytest.fixture(scope="module")
def bundled(tmp_path_factory):
    """The full bundle, written once: its path."""
    path = tmp_path_factory.mktemp("bundle") / "minimcp_full.py"
    done = bundle("-o", str(path))
    assert done.returncode == 0, done.stderr
    return str(path)


def folder_with(tmp_path, minimcp_py, *examples):
    """A folder holding ``minimcp_py`` as minimcp.py, and examples/ with the named examples."""
    shutil.copy(minimcp_py, str(tmp_path / "minimcp.py"))
    (tmp_path / "examples").mkdir()
    for name in examples:
        source = os.path.join(ROOT, "examples", name)
        (shutil.copytree if os.path.isdir(source) else shutil.copy)(source, str(tmp_path / "examples" / name))
    return tmp_path


def serve_lines(folder, words, lines):
    """Run ``python -B words`` in ``folder`` with the lines on stdin: (status, raw output lines, stderr).

    Stdin stays open until every request is answered: at its end the server cancels what still
    runs and never answers it (as documented), which on a loaded machine can be a quick request.
    """
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    process = subprocess.Popen([sys.executable, "-B"] + words, cwd=str(folder), env=environment,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    timer = threading.Timer(60, process.kill)           # a hung server fails the test instead of hanging it
    timer.start()
    try:
        process.stdin.write(b"".join(json.dumps(line).encode() + b"\n" for line in lines))
        process.stdin.flush()
        waiting, output = {line["id"] for line in lines if "id" in line}, []
        while waiting:
            raw = process.stdout.readline()
            if not raw:
                break
            output.append(raw.rstrip(b"\n"))
            message = json.loads(raw)
            if "method" not in message:
                waiting.discard(message.get("id"))
        process.stdin.close()
        output.extend(process.stdout.read().splitlines())
        stderr = process.stderr.read().decode()
        return process.wait(), output, stderr
    finally:
        timer.cancel()


def test_pyproject_installs_the_core_every_component_file_and_nothing_else_there_is():
    pyproject = open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8").read()
    listed = re.findall(r'"(\w+)"', re.search(r"^py-modules = \[(.*?)\]", pyproject, flags=re.M | re.S).group(1))
    assert listed[:len(COMPONENTS) + 1] == ["minimcp"] + ["minimcp_" + c for c in COMPONENTS]
    assert sorted(listed) == sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(ROOT, "minimcp*.py")))


# -- the bundle --------------------------------------------------------------------------------

def test_a_bundle_says_what_is_in_it_and_brackets_each_part(bundled):
    text = open(bundled, encoding="utf-8").read()
    assert text.startswith("#!/usr/bin/env python3\n# ==== minimcp %s, bundled: minimcp.py (the core) with %s,"
                           % (minimcp.__version__, ", ".join("minimcp_%s.py" % c for c in COMPONENTS)))
    parts = re.findall(r"^# ==== (minimcp\w*\.py)\b", text, flags=re.M)
    assert parts == ["minimcp.py"] + ["minimcp_%s.py" % c for c in COMPONENTS] + ["minimcp.py"]
    for component in COMPONENTS:
        assert "\n# ==== end of minimcp_%s.py\n" % component in text
    assert not re.search(r"^(import minimcp|from minimcp)", text, flags=re.M), "the parts' headers are left out"
    assert text.rstrip("\n").endswith("sys.exit(1)") and "\r" not in text
    assert bundle("-o", "-", "--with", "apps,teleport").returncode == 1


def test_a_bundle_bundles_itself_and_takes_what_a_chosen_component_imports(bundled, tmp_path):
    shutil.copy(bundled, str(tmp_path / "minimcp.py"))
    again = bundle("-o", "again.py", cwd=str(tmp_path))
    assert again.returncode == 0, again.stderr
    assert open(str(tmp_path / "again.py"), "rb").read() == open(bundled, "rb").read()
    chosen = bundle("-o", "cli.py", "--with", "cli", cwd=str(tmp_path))
    assert chosen.returncode == 0 and b"cli imports testclient, which is bundled too" in chosen.stderr
    assert re.findall(r"^# ==== (minimcp_\w+\.py)", open(str(tmp_path / "cli.py")).read(), flags=re.M) == [
        "minimcp_testclient.py", "minimcp_cli.py"]
    unknown = bundle("-o", "x.py", "--with", "apps,teleport", cwd=str(tmp_path))
    assert unknown.returncode == 1 and b"no component teleport" in unknown.stderr
    assert not os.path.exists(str(tmp_path / "x.py"))


def test_a_component_file_of_another_release_is_not_bundled(tmp_path):
    for name in ["minimcp.py"] + ["minimcp_%s.py" % c for c in COMPONENTS]:
        shutil.copy(os.path.join(ROOT, name), str(tmp_path / name))
    skills = tmp_path / "minimcp_skills.py"
    skills.write_text(skills.read_text().replace('__version__ = "%s"' % minimcp.__version__, '__version__ = "0.0.1"'))
    done = bundle("-o", "x.py", cwd=str(tmp_path))
    assert done.returncode == 1 and b"minimcp_skills.py is not minimcp %s's" % minimcp.__version__.encode() in done.stderr
    imported = subprocess.run([sys.executable, "-B", "-c", "import minimcp_skills"], cwd=str(tmp_path),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    assert b"ImportError: minimcp_skills.py is minimcp 0.0.1's, but " in imported.stderr


def test_the_bundle_alone_serves_stdio(bundled, tmp_path):
    folder = folder_with(tmp_path, bundled, "everything.py", "skills")
    status, lines, stderr = serve_lines(folder, ["examples/everything.py"], [
        INIT, INITIALIZED, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "hi"}}},
        {"jsonrpc": "2.0", "id": 3, "method": "skills/list"}])
    answers = {answer["id"]: answer for answer in (check_line(line + b"\n") for line in lines)}   # (calls run at once)
    assert status == 0, stderr
    assert sorted(answers) == [1, 2, 3]
    assert answers[2]["result"]["content"] == [{"type": "text", "text": "hi"}]
    assert [skill["uri"] for skill in answers[3]["result"]["skills"]] == ["skill://release-notes/SKILL.md"]
    assert sorted(os.listdir(str(folder))) == ["examples", "minimcp.py"]      # nothing else was needed


def test_the_bundle_alone_runs_an_mcp_1x_server_through_serve(bundled, tmp_path):
    folder = folder_with(tmp_path, bundled, "sdk_server.py")
    status, lines, stderr = serve_lines(folder, ["minimcp.py", "serve", "examples/sdk_server.py"], [
        INIT, INITIALIZED, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}])
    answers = [check_line(line + b"\n") for line in lines]
    assert status == 0, stderr
    assert answers[0]["result"]["serverInfo"]["version"] == "1.30.0"           # mcp 1.x's dialect
    assert answers[1]["result"]["tools"]


def test_the_bundle_alone_serves_http_and_bridges_a_stdio_host_to_it(bundled, tmp_path):
    folder = folder_with(tmp_path, bundled, "everything.py", "skills")
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    process = subprocess.Popen([sys.executable, "-B", "minimcp.py", "serve", "--http", "127.0.0.1:0",
                                "examples/everything.py"], cwd=str(folder), env=environment,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        announced = b""
        while b"/mcp\n" not in announced:                # the line that says where it listens
            line = process.stderr.readline()
            assert line, (announced, process.poll())
            announced += line
        url = re.search(rb"(http://[^ ]+/mcp)", announced).group(1).decode()
        request = urllib.request.Request(url, data=json.dumps(INIT).encode(), method="POST", headers={
            "Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
        with urllib.request.urlopen(request, timeout=30) as response:
            assert response.status == 200 and response.headers["Mcp-Session-Id"]
            body = response.read().decode()
        answer = json.loads(body[body.index("{"):body.rindex("}") + 1])
        assert answer["result"]["serverInfo"]["name"] == "everything"
        # The bridge, as a host starts it: initialize, its answer, then the rest (a host waits for it).
        bridge = subprocess.Popen([sys.executable, "-B", "minimcp.py", "bridge", url, "-q"], cwd=str(folder),
                                  env=environment, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        bridge.stdin.write(json.dumps(INIT).encode() + b"\n")
        bridge.stdin.flush()
        assert check_line(bridge.stdout.readline())["result"]["serverInfo"]["name"] == "everything"
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "b"}}}
        bridge.stdin.write(b"".join(json.dumps(message).encode() + b"\n" for message in (INITIALIZED, call)))
        bridge.stdin.flush()
        assert check_line(bridge.stdout.readline())["result"]["content"] == [{"type": "text", "text": "b"}]
        out, err = bridge.communicate(timeout=60)             # stdin's end: the bridge ends with its host
        assert bridge.returncode == 0 and out == b"", err
    finally:
        process.terminate()
        process.communicate(timeout=30)


# -- one behaviour per script ------------------------------------------------------------------

DEFAULT_SERVER = '''
import sys
from minimcp import MCPServer

app = MCPServer("same", version="1.0.0")


@app.tool()
def divide(a: float, b: float) -> float:
    """Divide a by b.

    Args:
        a: the dividend
        b: the divisor, not zero
    """
    if b == 0:
        raise ValueError("cannot divide by zero")
    return a / b


if __name__ == "__main__":
    app.run()
'''


def test_a_default_server_says_the_same_bytes_under_the_core_alone_and_under_the_bundle(bundled, tmp_path):
    lines = [INIT, INITIALIZED, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
             {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "divide", "arguments": {"a": 1, "b": 0}}},
             {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "divide", "arguments": {"a": "x", "b": 1}}}]
    outputs = {}
    for name, source in (("core", os.path.join(ROOT, "minimcp.py")), ("bundle", bundled)):
        folder = tmp_path / name
        folder.mkdir()
        shutil.copy(source, str(folder / "minimcp.py"))
        (folder / "server.py").write_text(DEFAULT_SERVER)
        status, output, stderr = serve_lines(folder, ["server.py"], lines)
        assert status == 0, stderr
        outputs[name] = sorted(output, key=lambda line: check_line(line + b"\n")["id"])   # (calls run at once)
    assert outputs["core"] == outputs["bundle"]
    listed, failed, invalid = [check_line(line + b"\n")["result"] for line in outputs["core"][1:]]
    tool = listed["tools"][0]
    assert tool["description"] == "Divide a by b."                              # the docstring's summary
    assert tool["inputSchema"]["properties"]["b"]["description"] == "the divisor, not zero"     # its Args:
    assert failed == {"content": [{"type": "text", "text": "cannot divide by zero"}], "isError": True}
    assert invalid["isError"] is True and "arguments.a: expected number" in invalid["content"][0]["text"]


def module_attributes(component: str) -> list:
    """The names of the table ``minimcp.NAME`` reads for ``component`` (not its methods, keywords, dialects)."""
    if not minimcp._COMPONENT_FILES[component].split():
        return []                        # (the bridge: run by the command line, imported only where it runs)
    import minimcp_sdk  # noqa: F401 - the SDK's names are built by it
    for loaded, provided in minimcp._COMPONENT_FILES.items():
        if provided.split():
            minimcp._component(loaded)
    plugged = minimcp._COMPONENTS[component][1]
    return [name for name in minimcp._COMPONENT_FILES[component].split() if name not in minimcp._DIALECTS
            and name not in minimcp._PLUGGED and name not in minimcp._TOOL_OPTIONS and name not in minimcp._TRANSPORTS
            and (name in plugged or component == "sdk")]


@pytest.mark.parametrize("component", COMPONENTS)
def test_a_name_of_the_table_imports_its_file_in_a_fresh_process(component):
    names = module_attributes(component)
    if not names:
        pytest.skip("%s provides no module attribute" % component)
    code = "import minimcp\nfor name in %r:\n    value = getattr(minimcp, name)\n    print(name, getattr(value, " \
           "'__module__', None))\n" % names
    done = subprocess.run([sys.executable, "-B", "-c", code], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    lines = done.stdout.decode().splitlines()
    assert [line.split()[0] for line in lines] == names
    assert all(line.split()[1] in ("minimcp_" + component, "builtins", "None") for line in lines), lines
