"""lifespan (issue 27), serve for packages, modules and entry points, and Context spelled as the SDKs spell it.

The process-level cases run ``python3 minimcp.py serve`` (as ``conftest.SERVE``: the same program
from cached bytecode) or the script itself and watch stderr, where the lifespan of the fixture
says when it is entered and exited.
"""

import contextlib
import json
import os
import signal
import subprocess
import textwrap

import pytest

from conftest import SERVE, Wire
import minimcp
from minimcp import Context, MCPServer

HELLO = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"}]


def lines(*messages):
    return b"".join(json.dumps(m).encode() + b"\n" for m in messages)


def call(request_id, name, arguments=None):
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
            "params": {"name": name, "arguments": arguments or {}}}


LIFESPAN_SERVER = '''
    import sys
    from contextlib import {kind}contextmanager
    from mcp.server.fastmcp import FastMCP, Context

    @{kind}contextmanager
    {prefix}def lifespan(server):
        sys.stderr.write("entered %s\\n" % server.name)
        sys.stderr.flush()
        if "{fail}":
            raise RuntimeError("no database")
        yield {{"db": "opened"}}
        sys.stderr.write("exited\\n")
        sys.stderr.flush()

    mcp = FastMCP("life", lifespan=lifespan)

    @mcp.tool()
    def where(ctx: Context) -> str:
        return ctx.request_context.lifespan_context["db"]

    if __name__ == "__main__":
        mcp.run()
'''


def lifespan_script(tmp_path, kind="", fail=""):
    script = tmp_path / "server.py"
    script.write_text(textwrap.dedent(LIFESPAN_SERVER.format(
        kind=kind, prefix="async " if kind else "", fail=fail)))
    return script


@pytest.mark.parametrize("kind", ["", "async"])
def test_the_lifespan_is_entered_once_its_value_reaches_tools_and_it_is_exited_on_eof(tmp_path, kind):
    done = subprocess.run(SERVE + [str(lifespan_script(tmp_path, kind))],
                          input=lines(*HELLO, call(1, "where"), call(2, "where")), capture_output=True, timeout=60)
    answers = {m["id"]: m for m in map(json.loads, done.stdout.splitlines())}
    assert answers[1]["result"]["content"][0]["text"] == "opened"
    assert answers[2]["result"]["content"][0]["text"] == "opened"
    stderr = done.stderr.decode()
    assert stderr.count("entered life") == 1 and stderr.count("exited") == 1, stderr
    assert stderr.index("entered") < stderr.index("exited") and done.returncode == 0


@pytest.mark.xdist_group("processes")     # signals: with tests/core/test_process.py
def test_the_lifespan_is_exited_on_sigterm(tmp_path):
    process = subprocess.Popen(SERVE + [str(lifespan_script(tmp_path))],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert process.stderr.readline() == b"entered life\n"      # before any request is read
        process.stdin.write(lines(*HELLO, call(1, "where")))
        process.stdin.flush()
        assert json.loads(process.stdout.readline())["id"] == 0
        assert json.loads(process.stdout.readline())["result"]["content"][0]["text"] == "opened"
        process.send_signal(signal.SIGTERM)
        assert process.wait(20) == 0
        assert b"exited" in process.stderr.read()
    finally:
        process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            stream.close()


def test_a_failing_lifespan_is_a_clear_start_up_error_and_a_non_zero_exit(tmp_path):
    done = subprocess.run(SERVE + [str(lifespan_script(tmp_path, fail="yes"))],
                          input=lines(*HELLO), capture_output=True, timeout=60)
    stderr = done.stderr.decode()
    assert done.returncode == 1 and done.stdout == b"", (done.returncode, done.stdout)
    assert "lifespan raised RuntimeError, so the server cannot start" in stderr and "no database" in stderr


def test_two_sessions_share_one_lifespan_entered_once():
    entered = []

    class Once:
        def __enter__(self):
            entered.append("in")
            return {"n": len(entered)}

        def __exit__(self, *problem):
            entered.append("out")

    app = MCPServer("shared", lifespan=lambda server: Once())

    @app.tool()
    def n(ctx: Context) -> int:
        assert ctx.lifespan_context is ctx.request_context.lifespan_context      # fastmcp's spelling
        assert ctx.fastmcp is ctx.mcp_server is app
        return ctx.request_context.lifespan_context["n"]
    first, second = Wire(app), Wire(app)
    for wire in (first, second):
        wire.initialize()
        assert wire.result("tools/call", {"name": "n", "arguments": {}})["structuredContent"] == {"result": 1}
    first.close()
    second.close()
    assert entered == ["in"]


def test_optional_and_subscripted_context_parameters_are_the_context():
    app = MCPServer("ctx")

    @app.tool()
    def optional(q: str, ctx: "Context | None" = None) -> str:
        return "%s %s" % (q, type(ctx).__name__)

    @app.tool()
    def subscripted(q: str, ctx: Context[dict] = None) -> str:
        return "%s %s" % (q, ctx.request_context.lifespan_context)
    from typing import Optional

    @app.tool()
    def typing_optional(q: str, ctx: Optional[Context] = None) -> str:
        return "%s %s" % (q, ctx.request_id)
    wire = Wire(app)
    wire.initialize()
    listed = {t["name"]: t for t in wire.result("tools/list")["tools"]}
    for name in ("optional", "subscripted", "typing_optional"):
        assert listed[name]["inputSchema"]["properties"] == {"q": {"type": "string"}}, name
    assert wire.result("tools/call", {"name": "optional", "arguments": {"q": "a"}})["content"][0]["text"] == "a Context"
    assert wire.result("tools/call", {"name": "subscripted", "arguments": {"q": "b"}})["content"][0]["text"] == "b {}"
    assert wire.result("tools/call", {"name": "typing_optional", "arguments": {"q": "c"}})["content"][0]["text"] \
        .startswith("c ")
    wire.close()


def test_the_sdk_only_settings_are_the_sdk_classes_not_minimcps_own():
    app = MCPServer("settings", lifespan=None, host="127.0.0.1", port=9001)
    assert (app.host, app.port) == ("127.0.0.1", 9001)
    for setting in ("log_level", "debug", "dependencies"):    # FastMCP takes them (test_sdk_compat)
        with pytest.raises(TypeError, match=setting):
            MCPServer("settings", **{setting: None})


PACKAGE_SERVER = '''
    from mcp.server.fastmcp import FastMCP
    from .helpers import shout

    mcp = FastMCP("pkg")

    @mcp.tool()
    def loud(text: str) -> str:
        return shout(text)

    def main():
        mcp.run()
'''


@pytest.fixture
def package(tmp_path):
    root = tmp_path / "pkg"
    root.mkdir()
    (root / "__init__.py").write_text("")
    (root / "helpers.py").write_text("def shout(text):\n    return text.upper() + '!'\n")
    (root / "server.py").write_text(textwrap.dedent(PACKAGE_SERVER))
    return tmp_path


@pytest.mark.parametrize("how", [["pkg/server.py"], ["-m", "pkg.server"], ["pkg.server:mcp"], ["-m", "pkg.server:mcp"]])
def test_serve_runs_a_module_of_a_package_with_its_relative_imports(package, how):
    done = subprocess.run(SERVE + how, cwd=str(package),
                          input=lines(*HELLO, call(1, "loud", {"text": "hi"})), capture_output=True, timeout=60)
    answers = {m["id"]: m for m in map(json.loads, done.stdout.splitlines())}
    assert answers[1]["result"]["content"][0]["text"] == "HI!", done.stderr.decode()


def test_serve_entry_runs_an_installed_console_script(package):
    dist = package / "pkg_server-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: pkg-server\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[console_scripts]\npkg-server = pkg.server:main\n")
    environment = dict(os.environ, PYTHONPATH=str(package))
    done = subprocess.run(SERVE + ["--entry", "pkg-server"], cwd=str(package),
                          env=environment, input=lines(*HELLO, call(1, "loud", {"text": "up"})),
                          capture_output=True, timeout=60)
    answers = {m["id"]: m for m in map(json.loads, done.stdout.splitlines())}
    assert answers[1]["result"]["content"][0]["text"] == "UP!", done.stderr.decode()
    missing = subprocess.run(SERVE + ["--entry", "no-such-server"], cwd=str(package),
                             env=environment, capture_output=True, timeout=60)
    assert missing.returncode != 0 and b"no installed console script named 'no-such-server'" in missing.stderr


FACTORY_SERVER = '''
    import functools
    from mcp.server.mcpserver import MCPServer

    def logged(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            return fn(*args, **kwargs)
        return wrapper

    def %s():
        app = MCPServer("built")

        @app.tool()
        @logged
        def double(n: int) -> int:
            return 2 * n
        return app
'''


@pytest.mark.parametrize("shape", ["factory", "main"])
def test_serve_finds_a_server_built_in_a_factory_or_in_main_and_decorated_tools_keep_their_parameters(
        tmp_path, shape):
    source = FACTORY_SERVER % ("create_server" if shape == "factory" else "build")
    if shape == "main":
        source += "\n    def main():\n        build().run()\n"
    script = tmp_path / "server.py"
    script.write_text(textwrap.dedent(source))
    done = subprocess.run(SERVE + [str(script)], capture_output=True, timeout=60,
                          input=lines(*HELLO, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                                      call(2, "double", {"n": 21})))
    answers = {m["id"]: m for m in map(json.loads, done.stdout.splitlines())}
    assert answers[1]["result"]["tools"][0]["inputSchema"]["properties"] == {"n": {"type": "integer"}}, \
        done.stderr.decode()
    assert answers[2]["result"]["structuredContent"] == {"result": 42}


def test_the_sdk_server_class_can_be_subscripted_in_annotations(tmp_path):
    script = tmp_path / "server.py"
    script.write_text(textwrap.dedent('''
        from mcp.server.mcpserver import MCPServer

        def configure(server: MCPServer[dict]) -> None:
            pass

        mcp = MCPServer("typed")
        configure(mcp)
    '''))
    done = subprocess.run(SERVE + [str(script)], capture_output=True, timeout=60,
                          input=lines(*HELLO))
    assert json.loads(done.stdout.splitlines()[0])["result"]["serverInfo"]["name"] == "typed", done.stderr.decode()


# -- mcp 1.x over handshake-era HTTP: one lifespan per session, as mcp 1.x ran it ---------------

