"""Every code block in the README is executed here, so the manual cannot drift from the code."""

import json
import os
import re
import shlex
import subprocess
import sys

import pytest

from conftest import ROOT
from minimcp import MCPServer, TestClient

README = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
BLOCKS = re.findall(r"^```(\w+)\n(.*?)^```", README, flags=re.S | re.M)
TEST_COMMAND = "python3 -m pip install -r tests/requirements.txt && python3 -m pytest"


def blocks(language):
    return [body for lang, body in BLOCKS if lang == language]


def test_the_readme_has_the_blocks_this_file_checks():
    assert {lang for lang, _ in BLOCKS} == {"sh", "python", "json"}
    assert len(blocks("python")) == 6 and len(blocks("json")) == 1


def test_the_test_command_is_the_one_ci_runs():
    # Running pytest from inside pytest would recurse; CI runs this very command
    # (with each Python as python3), so check that .ci/run still does.
    assert TEST_COMMAND in blocks("sh")[1]
    ci = open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8").read()
    assert '"$py" -m pip install -q -r tests/requirements.txt && "$py" -m pytest' in ci


def shell_lines():
    for body in blocks("sh"):
        for line in body.strip().splitlines():
            if line.strip() and line.strip() != TEST_COMMAND:
                yield line.strip()


@pytest.mark.parametrize("line", list(shell_lines()))
def test_shell_commands_run(line):
    words = shlex.split(line)
    assert words[0] == "python3"
    words = [sys.executable if w == "python3" else w for w in words]
    done = subprocess.run(words, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=120)
    assert done.returncode == 0, (line, done.stdout.decode()[-2000:], done.stderr.decode()[-2000:])
    out = done.stdout.decode()
    if "--call echo" in line:
        assert "Hello from minimcp" in out and "tool      echo(text: string)" in out
    if " config " in line and "claude" in line:
        snippet = json.loads(out)
        documented = json.loads(blocks("json")[0])
        assert snippet.keys() == documented.keys()
        assert snippet["mcpServers"]["everything"].keys() == documented["mcpServers"]["everything"].keys()
        assert os.path.isabs(snippet["mcpServers"]["everything"]["command"])
    if " selftest " in line:
        assert out.strip().endswith("passed, 0 failed")
    if "call add" in line:
        assert out.splitlines()[0] == "5"


def run_block(body):
    namespace = {"__name__": "readme_block"}
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        exec(compile(body, "README.md", "exec"), namespace)
    finally:
        os.chdir(cwd)
    return namespace


def server_of(namespace):
    servers = [v for v in namespace.values() if isinstance(v, MCPServer)]
    assert len(servers) == 1
    return servers[0]


@pytest.mark.parametrize("index", range(6))
def test_python_blocks_run_and_serve(index):
    namespace = run_block(blocks("python")[index])
    app = server_of(namespace)
    with TestClient(app, elicitation=lambda p: {"action": "decline"}) as client:
        tools = {t["name"]: t for t in _safe_list(client)}
        assert app.name in CHECKS or app.name == "greeter"     # greeter's block runs its own test
        if app.name in CHECKS:
            CHECKS[app.name](client, tools)


def _safe_list(client):
    """The tools, or none for a server that offers no tools capability."""
    from minimcp import MCPError
    try:
        return client.list_tools()
    except MCPError as exc:
        assert exc.code == -32601
        return []


def check_notes(client, tools):
    assert client.call_tool("save", {"title": "t", "text": "x"})["content"][0]["text"] == "saved t"
    assert client.read_resource("notes://t")["contents"][0]["text"] == "x"
    assert tools["save"]["inputSchema"]["properties"]["title"]["description"] == "the note's title"


def check_tools(client, tools):
    result = client.call_tool("distance", {"a": {"x": 0, "y": 0}, "b": {"x": 3, "y": 4}})
    assert result["structuredContent"] == {"distance": 5.0, "unit": "m"}
    assert tools["distance"]["inputSchema"]["properties"]["unit"]["enum"] == ["m", "km"]
    assert tools["thumbnail"]["name"] == "thumbnail"
    assert client.call_tool("thumbnail", {"name": "x"})["content"][0]["type"] == "image"
    assert client.call_tool("lookup", {"user_id": 7})["content"][0]["text"] == "user 7"
    with pytest.raises(Exception):
        client.call_tool("lookup", {"user_id": -1})


def check_resources(client, tools):
    assert client.read_resource("log://build/42")["contents"][0]["text"] == "log of job 42"
    uris = [r["uri"] for r in client.list_resources()]
    assert "config://app" in uris and any(u.endswith("/examples/everything.py") for u in uris)


def check_prompts(client, tools):
    messages = client.get_prompt("review", {"code": "x = 1"})["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant"]
    assert client.complete("review", "language", "r")["values"] == ["rust"]
    assert client.complete("review", "code", "fn")["values"] == ["fn main() {}"]


def check_weather(client, tools):
    assert client.call_tool("forecast", {"city": "Oslo"})["content"][0]["text"] == "sunny in Oslo"


CHECKS = {"notes": check_notes, "tools-demo": check_tools, "resources-demo": check_resources,
          "prompts-demo": check_prompts, "weather": check_weather}
