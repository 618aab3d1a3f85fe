"""``minimcp config``: one data table of hosts, and commands that start (issue 30, point 4).

In-process where nothing needs to run (the entry is text), one real start where it does.
"""

import json
import os
import shlex
import subprocess
import sys

import pytest

from conftest import EVERYTHING, ROOT
import minimcp
import minimcp_cli
import minimcp_skills

SDK_SERVER = '''from mcp.server.fastmcp import FastMCP
mcp = FastMCP("weather")

@mcp.tool()
def forecast(city: str) -> str:
    return "sunny in " + city

if __name__ == "__main__":
    mcp.run()
'''


def config(capsys, *words):
    """Run ``minimcp config WORDS`` in this process: (status, stdout, stderr)."""
    status = minimcp.main(["config"] + list(words))
    out, err = capsys.readouterr()
    return status, out, err


def entry_of(host, out):
    """(command, args, env) from what ``config --client host`` printed, read as that host reads it."""
    form = minimcp_cli._HOSTS[host]["format"]
    if form in ("claude mcp add", "codex mcp add"):
        assert out.endswith("\n") and out.count("\n") == 1, out      # one line, for a POSIX shell
        words = shlex.split(out)
        assert words[:3] == form.split()
        head, tail = words[3:words.index("--")], words[words.index("--") + 1:]
        env = dict(head[i + 1].split("=", 1) for i, w in enumerate(head) if w == "--env")
        names = [w for i, w in enumerate(head) if w != "--env" and (i == 0 or head[i - 1] != "--env")]
        if form == "claude mcp add":
            # the name right after --transport stdio, before any --env: Claude Code's -e/--env is
            # variadic and takes the words after it, a name among them (issue 35, point 3)
            assert head[:3] == ["--transport", "stdio", names[2]] and len(names) == 3, head
        else:
            assert len(names) == 1 and head[0] == names[0], head
        return names[-1], tail[0], tail[1:], env
    if form == "goose extensions":
        config_yaml = minimcp_skills._parse_frontmatter("---\n" + out + "---\n", "config.yaml")
        (name, extension), = config_yaml["extensions"].items()
        assert extension["type"] == "stdio" and extension["enabled"] is True and extension["name"] == name
        assert isinstance(extension["timeout"], int)
        return name, extension["cmd"], extension["args"], extension.get("envs", {})
    document = json.loads(out)
    assert list(document) == [form]
    (name, entry), = document[form].items()
    if form == "servers":
        assert entry["type"] == "stdio"
    assert set(entry) <= {"type", "command", "args", "env"}
    return name, entry["command"], entry["args"], entry.get("env", {})


def test_every_host_row_has_its_documentation_and_a_place_per_os():
    assert set(minimcp_cli._HOSTS) == {"claude", "claude-code", "codex", "gemini", "cursor", "vscode", "windsurf", "zed",
                                   "goose"}
    for host, row in minimcp_cli._HOSTS.items():
        assert row["docs"].startswith("https://"), host
        assert set(row["where"]) == {"macOS", "Windows", "Linux"}, host
        assert row["format"] in ("mcpServers", "servers", "context_servers", "goose extensions", "claude mcp add",
                                 "codex mcp add"), host


@pytest.mark.parametrize("host", sorted(minimcp_cli._HOSTS))
def test_each_host_gets_its_own_format_with_absolute_paths_and_env(host, capsys):
    status, out, err = config(capsys, "--client", host, "--name", "fx", "--env", "API_KEY=x y", "--env", "MODE=1",
                              EVERYTHING, "--verbose")
    assert status == 0, err
    name, command, args, env = entry_of(host, out)
    assert name == "fx"
    assert command == os.path.abspath(sys.executable) and os.path.isabs(command)
    assert args == [EVERYTHING, "--verbose"]                     # a native script: run as it is
    assert env == {"API_KEY": "x y", "MODE": "1"}
    row = minimcp_cli._HOSTS[host]
    assert row["docs"] in err and row["title"] in err           # where it goes, and the host's own page
    if not row["format"].endswith(" mcp add"):
        assert all(where in err for where in row["where"].values() if where)


def test_a_bad_host_or_env_is_refused(capsys):
    with pytest.raises(SystemExit) as info:
        config(capsys, "--client", "notepad", EVERYTHING)
    assert "claude-code" in str(info.value) and "goose" in str(info.value)
    with pytest.raises(SystemExit) as info:
        config(capsys, "--env", "NOEQUALS", EVERYTHING)
    assert "--env takes KEY=VALUE" in str(info.value)


def _module_form(args, env, script):
    assert args == ["-m", "minimcp", "serve", script]
    assert env["PYTHONPATH"].split(os.pathsep)[0] == ROOT          # minimcp.py's folder, so -m finds it


@pytest.mark.skipif(minimcp_cli._importable("mcp"), reason="the official SDK is installed here")
def test_a_file_written_for_the_sdk_gets_the_serve_form_when_the_sdk_is_missing(tmp_path, capsys):
    server = tmp_path / "weather.py"
    server.write_text(SDK_SERVER)
    status, out, err = config(capsys, "--client", "claude", "--env", "PYTHONPATH=/opt/extra", str(server))
    name, command, args, env = entry_of("claude", out)
    _module_form(args, env, str(server))
    assert env["PYTHONPATH"] == ROOT + os.pathsep + "/opt/extra"  # the user's own is kept, after ours
    assert "imports mcp.server.fastmcp, which %s cannot import" % sys.executable in err


def test_a_file_written_for_the_sdk_runs_as_it_is_where_the_sdk_is_installed(tmp_path, capsys, monkeypatch):
    fake = tmp_path / "site"                                      # an "installed" fastmcp
    (fake / "fastmcp").mkdir(parents=True)
    (fake / "fastmcp" / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(fake))
    server = tmp_path / "weather.py"
    server.write_text(SDK_SERVER.replace("mcp.server.fastmcp", "fastmcp"))
    status, out, err = config(capsys, "--client", "cursor", str(server))
    assert entry_of("cursor", out)[2] == [str(server)] and "through minimcp serve" not in err


def test_a_file_that_does_not_start_itself_and_minimcp_serve_get_the_module_form(tmp_path, capsys):
    library = tmp_path / "tools_demo.py"                           # no app.run(): it only defines the app
    library.write_text("from minimcp import MCPServer\napp = MCPServer('demo')\n")
    status, out, err = config(capsys, "--client", "vscode", str(library))
    _module_form(*entry_of("vscode", out)[2:], str(library))
    assert "no `if __name__ == \"__main__\":` block" in err
    status, out, err = config(capsys, "--client", "zed", os.path.join(ROOT, "minimcp.py"), "serve", str(library))
    name, command, args, env = entry_of("zed", out)
    assert name == "tools_demo"
    _module_form(args, env, str(library))


@pytest.mark.skipif(minimcp_cli._importable("mcp"), reason="the official SDK is installed here")
@pytest.mark.parametrize("host", ["claude", "gemini"])
def test_the_command_config_writes_starts_and_answers(tmp_path, capsys, host):
    """The entry, run as a host runs it: its command, args and env, from / with nothing else in
    the environment. Gemini CLI drops PYTHONPATH from a server's env (issue 35: found by
    tests/interop/run_hosts_cli.sh), so its entry puts minimcp's folder on sys.path itself."""
    server = tmp_path / "weather.py"
    server.write_text(SDK_SERVER)
    status, out, err = config(capsys, "--client", host, str(server))
    name, command, args, env = entry_of(host, out)
    if host == "gemini":
        assert "PYTHONPATH" not in env and args[0] == "-c" and args[2:] == ["serve", str(server)], args
    requests = b"".join(json.dumps(m).encode() + b"\n" for m in (
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
         "params": {"name": "forecast", "arguments": {"city": "Oslo"}}}))
    done = subprocess.run([command] + args, input=requests, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=dict(env), cwd="/", timeout=60)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["id"] for a in answers] == [1, 2], done.stderr
    assert answers[1]["result"]["content"][0]["text"] == "sunny in Oslo"


def test_minimcp_s_own_sdk_stand_ins_do_not_count_as_the_sdk_installed():
    """A process that ran ``serve`` (or install_sdk_aliases) finds mcp.server.fastmcp, but the
    interpreter a host starts afresh does not: config must still write the serve form."""
    if minimcp_cli._importable("mcp"):
        pytest.skip("the official SDK is installed here")
    finders = list(sys.meta_path)
    modules = dict(sys.modules)
    try:
        minimcp.install_sdk_aliases()
        __import__("mcp.server.fastmcp")
        assert not minimcp_cli._importable("mcp.server.fastmcp")
    finally:
        sys.meta_path[:] = finders
        for name in set(sys.modules) - set(modules):
            del sys.modules[name]


def start_and_call(command, args, env, tool, arguments):
    """Start an entry as a host does (from /, its env only), initialize, call ``tool``: its text."""
    requests = b"".join(json.dumps(m).encode() + b"\n" for m in (
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}))
    done = subprocess.run([command] + args, input=requests, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=dict(env), cwd="/", timeout=60)
    answers = {}
    for line in done.stdout.splitlines():
        message = json.loads(line)
        answers[message.get("id")] = message
    assert 2 in answers, done.stderr.decode()
    return answers[2]["result"]["content"][0]["text"]


OLD_COMMAND_LINE = '''import argparse
import sys
sys.path.insert(0, %r)
from minimcp import MCPServer

app = MCPServer("wc")


@app.tool()
def word_count(text: str) -> int:
    """Count the words of a text."""
    return len(text.split())


def main():
    parser = argparse.ArgumentParser(description="count the words of a file")
    parser.add_argument("file")
    print(word_count(open(parser.parse_args().file).read()))


if __name__ == "__main__":
    main()
''' % ROOT


def test_a_script_whose_main_still_runs_its_old_command_line_is_served_and_config_says_why(tmp_path, capsys):
    """Issue 35: its `python3 wc.py` entry exited with argparse's usage in the host."""
    script = tmp_path / "wc.py"
    script.write_text(OLD_COMMAND_LINE)
    status, out, err = config(capsys, "--client", "claude", str(script))
    name, command, args, env = entry_of("claude", out)
    _module_form(args, env, str(script))
    assert ("%s's `if __name__ == \"__main__\":` block runs its own command line (argparse) and never starts the "
            "server, so the host would get its usage and an exit: the host runs its server object through minimcp "
            "serve instead (or make that block call app.run())" % script) in err, err
    assert start_and_call(command, args, env, "word_count", {"text": "one two three"}) == "3"


def test_a_plain_command_line_script_gets_its_functions_served(tmp_path, capsys):
    script = tmp_path / "plain.py"
    script.write_text('import argparse\n\n\ndef word_count(text: str) -> int:\n    """Count words."""\n'
                      '    return len(text.split())\n\n\nif __name__ == "__main__":\n'
                      '    parser = argparse.ArgumentParser()\n    parser.add_argument("file")\n'
                      '    print(word_count(open(parser.parse_args().file).read()))\n')
    status, out, err = config(capsys, "--client", "cursor", str(script))
    name, command, args, env = entry_of("cursor", out)
    assert args == ["-m", "minimcp", "serve", "--functions", str(script)], args
    assert "runs its own command line (argparse) and defines no server" in err, err
    assert start_and_call(command, args, env, "word_count", {"text": "a b"}) == "2"


def test_a_command_line_that_starts_the_server_runs_as_it_is(tmp_path, capsys):
    script = tmp_path / "wc.py"
    script.write_text(OLD_COMMAND_LINE.replace("    print(word_count(open(parser.parse_args().file).read()))",
                                               "    parser.parse_args()\n    app.run()").replace(
        'parser.add_argument("file")', 'parser.add_argument("--verbose", action="store_true")'))
    status, out, err = config(capsys, "--client", "claude", str(script), "--verbose")
    name, command, args, env = entry_of("claude", out)
    assert args == [str(script), "--verbose"] and "command line" not in err, (args, err)
    assert start_and_call(command, args, env, "word_count", {"text": "x"}) == "1"
