"""minimcp.py alone: what a user who copied only the core gets.

It serves a stdio script in both eras with no .pyc written; every name of a component
says which file to copy, and ``python3 minimcp.py COMMAND`` says where the command line is.
"""

import json
import os
import shutil
import subprocess
import sys

import pytest

import minimcp
from conftest import ROOT, check_line, envelope

CORE = minimcp.__file__
COPY = "copy it there from the same minimcp release, or use one file that holds both (python3 minimcp.py bundle)"


@pytest.fixture
def folder(tmp_path):
    """An empty folder, then minimcp.py (this core) and examples/core.py copied into it."""
    shutil.copy(CORE, str(tmp_path / "minimcp.py"))
    shutil.copy(os.path.join(ROOT, "examples", "core.py"), str(tmp_path / "server.py"))
    return tmp_path


def run(folder, words, lines=()):
    """Run ``python -B words`` in ``folder`` (no .pyc), the lines on its stdin; (status, messages, stderr)."""
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-B"] + words, cwd=str(folder), env=environment, timeout=60,
                          input=b"".join(json.dumps(line).encode() + b"\n" for line in lines),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return done.returncode, [check_line(line + b"\n") for line in done.stdout.splitlines()], done.stderr.decode()


def test_the_core_is_at_most_7000_lines_and_holds_no_component():
    with open(CORE, encoding="utf-8") as source:
        assert source.read().count("\n") <= 7000
    assert minimcp._COMPONENTS == {} and set(minimcp._COMPONENT_FILES) >= {"apps", "skills", "http", "sdk", "cli"}


def test_alone_in_a_folder_it_serves_a_stdio_script_in_both_eras_without_writing_bytecode(folder):
    handshake = [{"jsonrpc": "2.0", "id": 1, "method": "initialize",
                  "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
                 {"jsonrpc": "2.0", "method": "notifications/initialized"},
                 {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "shout", "arguments": {"text": "hi"}}}]
    status, answers, stderr = run(folder, ["server.py"], handshake)
    assert status == 0, stderr
    assert answers[0]["result"]["serverInfo"]["name"] == "core"
    assert answers[1] == {"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "HI"}]}}
    stateless = [{"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": envelope()}},
                 {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                  "params": {"name": "divide", "arguments": {"a": 1, "b": 4}, "_meta": envelope()}}]
    status, answers, stderr = run(folder, ["server.py"], stateless)
    assert status == 0, stderr
    assert "2026-07-28" in answers[0]["result"]["supportedVersions"]
    assert json.loads(answers[1]["result"]["content"][0]["text"]) == {"quotient": 0.25}
    assert sorted(os.listdir(str(folder))) == ["minimcp.py", "server.py"]       # no __pycache__


def test_every_name_of_a_component_says_which_file_to_copy():
    app = minimcp.MCPServer("x")
    with pytest.raises(AttributeError, match=r"MCPServer\.add_skills is in minimcp_skills\.py, which is not beside"):
        app.add_skills(ROOT)
    with pytest.raises(AttributeError, match=r"MCPServer\.wsgi is in minimcp_http\.py.*" + r"\(python3 minimcp\.py bundle\)"):
        app.wsgi
    assert not hasattr(app, "wsgi") and not hasattr(app, "no_such_method")
    with pytest.raises(TypeError, match=r"tool\(\) keyword ui is in minimcp_apps\.py"):
        app.tool(ui="ui://page/one")(lambda: "x")
    with pytest.raises(ValueError, match=r"transport 'http' is in minimcp_http\.py"):
        app.run("http")
    with pytest.raises(ImportError, match=r"minimcp\.TestClient is in minimcp_testclient\.py"):
        from minimcp import TestClient  # noqa: F401
    with pytest.raises(ValueError, match=r"dialect 'mcp1' is in minimcp_sdk\.py"):
        minimcp.MCPServer("y", dialect="mcp1")
    with pytest.raises(ValueError, match="dialect must be one of minimcp, not 'mcp3'"):
        minimcp.MCPServer("y", dialect="mcp3")
    assert not hasattr(minimcp, "no_such_name")
    assert minimcp._COMPONENTS == {}


def test_the_command_line_is_a_file_beside_it_and_bundle_is_the_core_s_own(folder):
    status, answers, stderr = run(folder, ["minimcp.py", "inspect", "--", sys.executable, "server.py"])
    assert status == 2 and answers == []
    assert stderr == ("minimcp: the command line (python3 minimcp.py inspect) is in minimcp_cli.py, which is not "
                      "beside minimcp.py (in %s): %s\n" % (folder, COPY))
    status, answers, stderr = run(folder, ["minimcp.py", "bundle", "-o", "one.py"])
    assert status == 0 and answers == [] and "wrote one.py" in stderr
    with open(str(folder / "one.py"), encoding="utf-8") as bundled:
        text = bundled.read()
    assert "bundled: minimcp.py (the core) with no component" in text
    assert text.count("\n") < open(CORE, encoding="utf-8").read().count("\n") + 20
