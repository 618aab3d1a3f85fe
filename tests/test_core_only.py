"""The core without its components: ``minimcp.py vendor --without all``, on the wire.

The core-only file is written by the vendor command, imported as a module of its own
(nothing of it is shared with the full minimcp imported by conftest), and serves
examples/core.py, a fixture that needs no component. Every test here runs against both
files: a reach from the core into a component fails it (a NameError or a missing
method in the stripped file), and so does a component that the core's behaviour needs.
The server is driven over real OS pipes, bytes in and JSON lines out (conftest.Wire).
"""

import importlib.util
import json
import os
import re
import subprocess
import sys

import pytest

from conftest import CLI, ROOT, Wire, check_line, envelope, load_example
import minimcp

MINIMCP = os.path.join(ROOT, "minimcp.py")
CORE_TOOLS = ["shout", "divide", "count_to", "wait_until_cancelled", "ask_name", "slow_square"]
COMPONENTS = ["apps", "skills", "http", "testclient", "sdk", "cli"]


def vendor(*args):
    return subprocess.run(CLI + ["vendor"] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=60)


@pytest.fixture(scope="module")
def core_file(tmp_path_factory):
    written = vendor("--without", "all")
    assert written.returncode == 0, written.stderr
    path = tmp_path_factory.mktemp("core_only") / "minimcp.py"
    path.write_bytes(written.stdout)
    return str(path)


@pytest.fixture(scope="module")
def core_module(core_file):
    spec = importlib.util.spec_from_file_location("minimcp_core_only", core_file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(params=["full", "core-only"])
def module(request):
    return minimcp if request.param == "full" else request.getfixturevalue("core_module")


def core_app(module):
    """examples/core.py, its ``from minimcp import ...`` given ``module``."""
    saved = sys.modules["minimcp"]
    sys.modules["minimcp"] = module
    try:
        app = load_example("core").app
    finally:
        sys.modules["minimcp"] = saved
    assert type(app).__module__ == module.__name__
    return app


@pytest.fixture
def core(module):
    connection = Wire(core_app(module))
    yield connection
    if not connection.to_server.closed:
        connection.close()


# -- the file itself --------------------------------------------------------------------

def test_the_core_only_file_names_what_it_leaves_out(core_file, core_module):
    text = open(core_file, encoding="utf-8").read()
    full = open(MINIMCP, encoding="utf-8").read()
    assert core_module.__version__ == minimcp.__version__
    assert len(text) < 0.65 * len(full)
    first_paragraphs = core_module.__doc__.split("\n\n")[:3]
    assert any("leaves out the components " + ", ".join(sorted(COMPONENTS)) in p.replace("\n", " ")
               for p in first_paragraphs), first_paragraphs
    assert core_module._COMPONENTS == {} and set(core_module._LEFT_OUT) >= {"add_skills", "wsgi", "TestClient"}
    banners = re.findall(r"^# (.*) #+$", text, flags=re.M)
    assert banners[-1].startswith("Transport: newline-delimited JSON") and not any(
        banner.startswith(("MCP Apps", "Agent Skills", "Transport: Streamable", "Clients", "The official SDK",
                           "Command line")) for banner in banners)
    assert set(core_module.__all__) == set(minimcp.__all__) - {
        "inline_page", "apps_supported", "APP_MIME_TYPE", "APPS_EXTENSION", "TestClient", "main"}
    assert b"\r" not in open(core_file, "rb").read()


def test_a_name_of_a_left_out_component_says_which_component(core_module):
    app = core_module.MCPServer("x")
    with pytest.raises(AttributeError, match="add_skills belongs to minimcp's skills component .Agent Skills"):
        app.add_skills(ROOT)
    with pytest.raises(AttributeError, match="http component"):
        app.wsgi
    with pytest.raises(TypeError, match="tool\\(\\) keyword ui belongs to minimcp's apps component"):
        app.tool(ui="ui://page/one")(lambda: "x")
    with pytest.raises(ValueError, match="transport http belongs to minimcp's http component"):
        app.run("http")
    with pytest.raises(ImportError, match="TestClient belongs to minimcp's testclient component"):
        core_module.TestClient
    assert not hasattr(app, "no_such_method") and not hasattr(core_module, "no_such_name")


def test_vendor_refuses_unknown_components_and_keeps_what_others_need():
    unknown = vendor("--without", "apps,teleport")
    assert unknown.returncode == 1 and b"no component teleport" in unknown.stderr and not unknown.stdout
    without_clients = vendor("--without", "testclient")
    assert without_clients.returncode == 0
    assert b"cli needs testclient, so it is left out too" in without_clients.stderr
    assert b"# Command line" not in without_clients.stdout and b"# Agent Skills" in without_clients.stdout
    assert vendor().stdout == open(MINIMCP, "rb").read()          # leaving nothing out: the file itself


def test_a_user_copies_the_core_file_next_to_a_script(core_file, tmp_path):
    (tmp_path / "minimcp.py").write_bytes(open(core_file, "rb").read())
    (tmp_path / "server.py").write_bytes(open(os.path.join(ROOT, "examples", "core.py"), "rb").read())
    lines = [{"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "t", "version": "1"}}},
             {"jsonrpc": "2.0", "method": "notifications/initialized"},
             {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "shout", "arguments": {"text": "hi"}}}]
    run = subprocess.run([sys.executable, "-B", str(tmp_path / "server.py")], cwd=str(tmp_path), timeout=60,
                         input=b"".join(json.dumps(line).encode() + b"\n" for line in lines),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    answers = [check_line(line + b"\n") for line in run.stdout.splitlines()]
    assert run.returncode == 0, run.stderr
    assert answers[0]["result"]["serverInfo"]["name"] == "core"
    assert answers[1] == {"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "HI"}]}}
    script = subprocess.run([sys.executable, "-B", str(tmp_path / "minimcp.py"), "--help"], timeout=60,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert script.returncode == 1 and b"leaves out the command line" in script.stderr and not script.stdout


# -- the core's wire behaviour, in both files -------------------------------------------

@pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"])
def test_every_handshake_revision(core, version):
    result = core.initialize(version)
    assert result["protocolVersion"] == version
    capabilities = result["capabilities"]
    assert {"tools", "resources", "prompts", "logging"} <= set(capabilities) and "extensions" not in capabilities
    assert [tool["name"] for tool in core.result("tools/list")["tools"]] == CORE_TOOLS
    call = core.result("tools/call", {"name": "shout", "arguments": {"text": "core"}})
    assert call["content"] == [{"type": "text", "text": "CORE"}]


def test_the_stateless_revision(core):
    discovered = core.result("server/discover", {"_meta": envelope()})
    assert "2026-07-28" in discovered["supportedVersions"]
    call = core.result("tools/call", {"name": "divide", "arguments": {"a": 1, "b": 4}, "_meta": envelope()})
    assert json.loads(call["content"][0]["text"]) == {"quotient": 0.25} and call["resultType"] == "complete"
    assert set(discovered["capabilities"].get("extensions", {})) == {"io.modelcontextprotocol/tasks"}


def test_bad_input_gets_errors_and_the_server_goes_on(core):
    core.initialize("2025-11-25")
    core.send_raw(b'{"jsonrpc": "2.0", "id": 7, "method": \n')
    assert core.recv()["error"]["code"] == -32700
    assert core.error("skills/list")["code"] == -32601
    assert core.error("tools/call", {"name": "nope", "arguments": {}})["code"] == -32602
    invalid = core.result("tools/call", {"name": "shout", "arguments": {"text": 5}})
    assert invalid["isError"] is True and "arguments.text: expected string" in invalid["content"][0]["text"]
    failed = core.result("tools/call", {"name": "divide", "arguments": {"a": 1, "b": 0}})
    assert failed["isError"] is True and "cannot divide by zero" in failed["content"][0]["text"]
    assert core.result("ping") == {}


def test_progress_and_logs_reach_the_client(core):
    core.initialize("2025-11-25")
    assert core.result("logging/setLevel", {"level": "info"}) == {}
    result = core.result("tools/call", {"name": "count_to", "arguments": {"n": 3}, "_meta": {"progressToken": "p"}})
    assert result["content"][0]["text"] == "counted to 3"
    progress = [n["params"]["progress"] for n in core.notifications if n["method"] == "notifications/progress"]
    logs = [n["params"]["data"] for n in core.notifications if n["method"] == "notifications/message"]
    assert progress == [1, 2, 3] and logs == ["step 1", "step 2", "step 3"]


def test_a_cancelled_call_is_never_answered(core):
    core.initialize("2025-11-25")
    waiting = core.request("tools/call", {"name": "wait_until_cancelled", "arguments": {}})
    core.result("ping")                                      # the call has been read and is running
    core.notify("notifications/cancelled", {"requestId": waiting, "reason": "test"})
    assert core.result("tools/call", {"name": "shout", "arguments": {"text": "after"}})["content"][0]["text"] == "AFTER"
    rest = core.close()
    assert waiting not in core.stash and all(message.get("id") != waiting for message in rest)


def test_elicitation_asks_the_client(core):
    core.initialize("2025-11-25", {"elicitation": {"form": {}}})
    asking = core.request("tools/call", {"name": "ask_name", "arguments": {}})
    question = core.server_request()
    assert question["method"] == "elicitation/create" and question["params"]["mode"] == "form"
    core.send({"jsonrpc": "2.0", "id": question["id"], "result": {"action": "accept", "content": {"name": "Ada"}}})
    assert core.response(asking)["result"]["content"][0]["text"] == "hello, Ada"


def test_a_tool_runs_as_a_task(core):
    core.initialize("2025-11-25")
    task = core.result("tools/call", {"name": "slow_square", "arguments": {"x": 12}, "task": {}})["task"]
    result = core.result("tasks/result", {"taskId": task["taskId"]})
    assert result["content"][0]["text"] == "144"
    assert core.result("tasks/get", {"taskId": task["taskId"]})["status"] == "completed"


def test_resources_templates_prompts_and_completion(core):
    core.initialize("2025-11-25")
    assert core.result("resources/read", {"uri": "core://motto"})["contents"][0]["text"].startswith("small core")
    templates = core.result("resources/templates/list")["resourceTemplates"]
    assert [template["uriTemplate"] for template in templates] == ["core://words/{word}"]
    assert core.result("resources/read", {"uri": "core://words/kiwi"})["contents"][0]["text"] == "kiwi has 4 letters"
    prompt = core.result("prompts/get", {"name": "explain", "arguments": {"topic": "seams"}})
    assert prompt["messages"][0]["content"]["text"] == "Explain seams in one paragraph."
    completed = core.result("completion/complete", {"ref": {"type": "ref/prompt", "name": "explain"},
                                                    "argument": {"name": "topic", "value": "ap"}})
    assert completed["completion"]["values"] == ["apple", "apricot"]
