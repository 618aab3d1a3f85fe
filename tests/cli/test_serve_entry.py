"""``serve --entry NAME ARGS``: an installed server's console script, run as its users run it (issue 27).

The published-server corpus starts every server that has a console script this way, with the
argv its users give it. Each test builds a tiny distribution in ``tmp_path`` (a package and a
``.dist-info`` with ``entry_points.txt``, put on ``PYTHONPATH``: nothing is installed) and talks
to ``python3 minimcp.py serve --entry`` (as ``conftest.SERVE``: the same program from cached
bytecode) over its stdin and stdout.
"""

import json
import os
import subprocess
import textwrap

import pytest

from conftest import SERVE

HELLO = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"}]


def lines(*messages):
    return b"".join(json.dumps(m).encode() + b"\n" for m in messages)


def call(request_id, name, arguments=None):
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
            "params": {"name": name, "arguments": arguments or {}}}


def distribution(site, files, script="pkg-server", target="pkg.server:main"):
    """A distribution ``pkg`` in the folder ``site``: its files, and one console script."""
    for relative, text in files.items():
        path = site / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    dist = site / "pkg-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: pkg\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[console_scripts]\n%s = %s\n" % (script, target))


def serve_entry(site, cwd, arguments, messages=()):
    """Run ``serve --entry ARGUMENTS`` from ``cwd`` with ``site`` on the path: (answers by id, process)."""
    environment = dict(os.environ, PYTHONPATH=str(site))
    done = subprocess.run(SERVE + ["--entry"] + arguments, cwd=str(cwd),
                          env=environment, input=lines(*messages), capture_output=True, timeout=60)
    answers = {}
    for line in done.stdout.splitlines():
        message = json.loads(line)              # stdout holds nothing but JSON-RPC
        answers[message.get("id")] = message
    return answers, done


def test_main_reads_the_arguments_given_after_the_name_and_its_run_serves_stdio(tmp_path):
    # better-mcps-filesystem: main() parses its allowed roots from argv, then calls mcp.run().
    distribution(tmp_path, {"pkg/__init__.py": "", "pkg/server.py": '''
        import argparse
        from fastmcp import FastMCP

        mcp = FastMCP("roots")
        ROOTS = []

        @mcp.tool()
        def roots() -> str:
            return "|".join(ROOTS) or "none"

        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("roots", nargs="*")
            parser.add_argument("--db")
            options = parser.parse_args()
            ROOTS.extend(options.roots + [options.db, parser.prog])
            mcp.run()
    '''})
    answers, done = serve_entry(tmp_path, tmp_path, ["pkg-server", "/srv/a", "/srv/b", "--db", "x.db"],
                                [*HELLO, call(1, "roots")])
    assert answers[1]["result"]["content"][0]["text"] == "/srv/a|/srv/b|x.db|pkg-server", done.stderr.decode()
    assert done.returncode == 0


def test_tools_that_the_packages_submodules_register_on_its_instance_are_served(tmp_path):
    # bugledger-mcp: the package's __init__ imports submodules that register tools and a prompt
    # on the instance of pkg.app; the console script runs pkg.app:main.
    distribution(tmp_path, {
        "pkg/__init__.py": "from . import tools, prompts\n",
        "pkg/app.py": '''
            from fastmcp import FastMCP
            mcp = FastMCP("ledger")

            def main():
                mcp.run(transport="stdio")
        ''',
        "pkg/tools.py": '''
            from .app import mcp

            @mcp.tool
            def record(title: str) -> str:
                return "recorded " + title
        ''',
        "pkg/prompts.py": '''
            from .app import mcp

            @mcp.prompt
            def report(title: str) -> str:
                return "Report " + title
        '''}, target="pkg.app:main")
    answers, done = serve_entry(tmp_path, tmp_path, ["pkg-server"], [
        *HELLO, call(1, "record", {"title": "crash"}),
        {"jsonrpc": "2.0", "id": 2, "method": "prompts/get", "params": {"name": "report", "arguments": {"title": "t"}}}])
    assert answers[1]["result"]["content"][0]["text"] == "recorded crash", done.stderr.decode()
    assert answers[2]["result"]["messages"][0]["content"]["text"] == "Report t"


def test_a_command_line_that_builds_the_app_in_a_function_runs_its_subcommand(tmp_path):
    # mcp-changeatlas: `mcp-changeatlas serve` runs a cli main() that builds an mcp 2.x server.
    distribution(tmp_path, {"pkg/__init__.py": "", "pkg/cli.py": '''
        import sys
        from mcp.server.mcpserver import MCPServer

        def build():
            app = MCPServer("atlas")

            @app.tool()
            def changes(since: int) -> int:
                return since + 1
            return app

        def main():
            if sys.argv[1:] != ["serve"]:
                print("usage: pkg-server serve", file=sys.stderr)
                return 2
            build().run(transport="stdio")
    '''}, target="pkg.cli:main")
    answers, done = serve_entry(tmp_path, tmp_path, ["pkg-server", "serve"], [*HELLO, call(1, "changes", {"since": 4})])
    assert answers[1]["result"]["structuredContent"] == {"result": 5}, done.stderr.decode()
    assert done.returncode == 0
    answers, done = serve_entry(tmp_path, tmp_path, ["pkg-server"], HELLO)
    assert done.returncode == 2 and b"usage: pkg-server serve" in done.stderr and answers == {}


@pytest.mark.parametrize("returned, status", [("3", 3), ("'cannot open the database'", 1), ("None", 0)])
def test_what_main_returns_is_the_exit_status_as_under_its_console_script(tmp_path, returned, status):
    # A console script ends with sys.exit(main()): a number is the status, a text goes to stderr with 1.
    distribution(tmp_path, {"pkg/__init__.py": "", "pkg/server.py": "def main():\n    return %s\n" % returned})
    answers, done = serve_entry(tmp_path, tmp_path, ["pkg-server"])
    assert done.returncode == status, done.stderr.decode()
    assert answers == {}
    if status == 1:
        assert done.stderr.decode().strip().splitlines()[-1] == "cannot open the database"


def test_the_installed_module_is_run_not_a_file_of_that_name_in_the_working_directory(tmp_path):
    # agent-toolkit-mcp-server's console script runs a top-level module named `server`: its
    # console script imports the installed one whatever the working directory holds.
    site, work = tmp_path / "site", tmp_path / "work"
    work.mkdir()
    distribution(site, {"server.py": '''
        from mcp.server.fastmcp import FastMCP
        mcp = FastMCP("installed")

        @mcp.tool()
        def which() -> str:
            return "installed"

        def main():
            mcp.run()
    '''}, target="server:main")
    (work / "server.py").write_text("raise SystemExit('the working directory server.py was imported')\n")
    answers, done = serve_entry(site, work, ["pkg-server"], [*HELLO, call(1, "which")])
    assert answers[1]["result"]["content"][0]["text"] == "installed", done.stderr.decode()


def test_an_unknown_console_script_is_a_clear_error(tmp_path):
    distribution(tmp_path, {"pkg/__init__.py": "", "pkg/server.py": "def main():\n    pass\n"})
    answers, done = serve_entry(tmp_path, tmp_path, ["no-such-server"], HELLO)
    assert done.returncode != 0 and answers == {}
    assert b"no installed console script named 'no-such-server'" in done.stderr


@pytest.mark.parametrize("awaited", ["mcp.run_stdio_async()", "mcp.run_async()"])
def test_a_coroutine_main_awaits_the_servers_async_run(tmp_path, awaited):
    # asyncio.run(main()) with main() awaiting the SDK's async run: served on stdio until EOF.
    distribution(tmp_path, {"pkg/__init__.py": "", "pkg/server.py": '''
        import asyncio
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("coroutine-main")

        @mcp.tool()
        def hello(name: str) -> str:
            return "hello " + name

        async def serve():
            await %s

        def main():
            asyncio.run(serve())
        ''' % awaited})
    answers, done = serve_entry(tmp_path, tmp_path, ["pkg-server"], HELLO + [call(1, "hello", {"name": "loop"})])
    assert done.returncode == 0, done.stderr
    assert answers[1]["result"]["content"] == [{"type": "text", "text": "hello loop"}]
