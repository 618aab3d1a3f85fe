"""The bridge as users start it: ``python3 minimcp.py bridge URL``, ``config --url``, and the file itself.

Everything here runs the bridge in processes of its own (minimcp_bridge plugs itself into the
minimcp of the process that imports it): bytes in, JSON lines out, and what the command line
prints.
"""

import ast
import json
import os
import shlex
import shutil
import sys

import pytest

from bridge_harness import Host, upstream  # noqa: F401 - a fixture
from conftest import CLI, ROOT, run_command

#: Whether the bridge is its own file here (else a bundle, saved as minimcp.py, holds it).
SPLIT = os.path.isfile(os.path.join(ROOT, "minimcp_bridge.py"))


def bridge_parser() -> tuple:
    """(valued options, flags) of the bridge's own parser, read from its source (not imported)."""
    with open(os.path.join(ROOT, "minimcp_bridge.py" if SPLIT else "minimcp.py"), encoding="utf-8") as source:
        tree = ast.parse(source.read())
    found = {node.targets[0].id: ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
             and getattr(node.targets[0], "id", None) in ("_VALUED", "_FLAGS")}
    return list(found["_VALUED"]), list(found["_FLAGS"])


PARSER = bridge_parser()
#: A stand-in for the bridge's entry point that prints the words it was given, as JSON.
ECHO = ("import json, sys, minimcp, minimcp_bridge, minimcp_cli\n"
        "minimcp_bridge.bridge_main = lambda argv: print(json.dumps(argv)) or 0\n"
        "sys.exit(minimcp_cli.main(sys.argv[1:]))\n")


def words_the_bridge_gets(*words):
    done = run_command([sys.executable, "-c", ECHO] + list(words), timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout)


def test_the_command_line_runs_the_bridge_and_it_serves_the_upstream_on_stdio(upstream):
    server = upstream()
    host = Host(CLI + ["bridge", server.url, "-q"])
    assert host.initialize()["serverInfo"]["name"] == "everything"
    tools = host.request("tools/list", {})["result"]["tools"]
    assert "add" in [tool["name"] for tool in tools]
    assert host.request("tools/call", {"name": "add", "arguments": {"a": 2, "b": 3}})["result"]["content"][0]["text"] \
        == "5"
    assert host.close() == 0


@pytest.mark.skipif(not SPLIT, reason="minimcp_bridge.py is not beside minimcp.py here (a bundle holds the bridge)")
def test_the_bridge_file_still_runs_as_a_script(upstream):
    server = upstream()
    host = Host([sys.executable, os.path.join(ROOT, "minimcp_bridge.py"), server.url, "-q"])
    assert host.initialize()["serverInfo"]["name"] == "everything"
    assert host.request("tools/call", {"name": "add", "arguments": {"a": 1, "b": 1}})["result"]["content"][0]["text"] \
        == "2"
    assert host.close() == 0


@pytest.mark.parametrize("option", PARSER[0])
def test_the_bridge_gets_its_valued_options_and_their_values_as_they_were_written(option):
    # Values that the command line would otherwise read as its own: a command, an option, "--".
    for value in ("inspect", "--json", "--", "-h"):
        words = ["https://example.com/mcp", option, value, "-v"]
        assert words_the_bridge_gets("bridge", *words) == words
        assert words_the_bridge_gets("bridge", "%s=%s" % (option, value), "https://example.com/mcp") \
            == ["%s=%s" % (option, value), "https://example.com/mcp"]


def test_the_command_line_s_options_before_bridge_move_after_it_and_the_rest_stays():
    assert words_the_bridge_gets("--protocol", "2026-07-28", "bridge", "https://example.com/mcp", "--header", "serve") \
        == ["--protocol", "2026-07-28", "https://example.com/mcp", "--header", "serve"]
    assert words_the_bridge_gets("bridge", "--help") == ["--help"]
    assert words_the_bridge_gets("bridge", *PARSER[1]) == PARSER[1]


def test_bridge_help_is_the_bridge_s_and_a_mistake_is_said_by_the_bridge():
    helped = run_command(CLI + ["bridge", "--help"])
    assert helped.returncode == 0 and helped.stdout.decode().startswith("usage: python3 minimcp.py bridge URL")
    for option in PARSER[0]:
        assert option in helped.stdout.decode(), option
    wrong = run_command(CLI + ["bridge", "http://127.0.0.1:9/mcp", "--connect-timeout", "soon"])
    assert wrong.returncode == 1 and wrong.stdout == b""
    assert "minimcp bridge: --connect-timeout takes seconds, not 'soon'" in wrong.stderr.decode()
    listed = run_command(CLI + ["--help"]).stdout.decode()
    assert "  bridge URL " in listed and "config --client HOST --url URL" in listed


@pytest.mark.skipif(not SPLIT, reason="the component files are not here (a bundle holds them)")
def test_without_the_bridge_s_file_the_command_line_names_the_file_to_copy(tmp_path):
    for name in ("minimcp.py", "minimcp_cli.py", "minimcp_testclient.py"):
        shutil.copy(os.path.join(ROOT, name), str(tmp_path / name))
    for words in (["bridge", "https://example.com/mcp"], ["config", "--url", "https://example.com/mcp"]):
        done = run_command([sys.executable, "-B", str(tmp_path / "minimcp.py")] + words, cwd=str(tmp_path))
        assert done.returncode == 1 and done.stdout == b""
        assert "the bridge (python3 minimcp.py bridge URL) is in minimcp_bridge.py, which is not beside minimcp.py" \
            in done.stderr.decode()


def bridge_form(folder):
    """The interpreter's arguments ``config --url`` writes before the URL: the core and the bridge
    imported from ``folder`` (their cached bytecode), isolated from the host's folder and environment."""
    return ["-I", "-S", "-c", "import sys; sys.path.insert(0, %r); import minimcp, minimcp_bridge; "
            "sys.exit(minimcp_bridge.bridge_main())" % folder]


def test_config_url_s_entry_runs_from_cached_bytecode_whatever_the_host_s_folder_and_environment(upstream, tmp_path):
    server = upstream()
    release = tmp_path / "minimcp"          # a copy of the files, as a user keeps them (or one bundle)
    release.mkdir()
    for name in os.listdir(ROOT):
        if name.startswith("minimcp") and name.endswith(".py"):
            shutil.copy(os.path.join(ROOT, name), str(release / name))
    done = run_command([sys.executable, str(release / "minimcp.py"), "config", "--client", "gemini", "--url",
                        server.url], env={"PATH": os.environ.get("PATH", "")})
    assert done.returncode == 0, done.stderr.decode()
    entry = json.loads(done.stdout)["mcpServers"]["127-0-0-1"]
    assert entry["args"] == bridge_form(str(release)) + [server.url] and "env" not in entry
    tag = sys.implementation.cache_tag
    cached = sorted(os.listdir(str(release / "__pycache__")))
    assert "minimcp.%s.pyc" % tag in cached and ("minimcp_bridge.%s.pyc" % tag in cached or not SPLIT), cached
    # The host starts it from a folder of its own that has another minimcp.py and a json.py, with a
    # PYTHONPATH of its own: none of them is what the bridge imports.
    elsewhere = tmp_path / "project"
    elsewhere.mkdir()
    for module in ("minimcp", "json"):
        (elsewhere / (module + ".py")).write_text("raise SystemExit('the host folder\'s %s.py was imported')\n"
                                                  % module)
    host = Host([entry["command"]] + entry["args"] + ["-q"], cwd=str(elsewhere),
                env={"PYTHONPATH": str(elsewhere), "PATH": os.environ.get("PATH", "")})
    assert host.initialize()["serverInfo"]["name"] == "everything"
    assert host.close() == 0, host.stderr


def config(*words, env=None):
    environment = {key: value for key, value in os.environ.items() if "proxy" not in key.lower()}
    environment.update(env or {})
    return run_command(CLI + ["config"] + list(words), env=environment)


def test_config_url_writes_the_entry_that_runs_the_bridge_and_it_serves(upstream, tmp_path):
    server = upstream()
    headers = tmp_path / "headers.txt"
    headers.write_text("X-Team: ${TEAM}\n")
    # (the header file by a relative path, from the folder it is in)
    environment = {key: value for key, value in os.environ.items() if "proxy" not in key.lower()}
    environment["TEAM"] = "blue"
    done = run_command(CLI + ["config", "--client", "claude", "--url", server.url,
                              "--header", "Authorization: Bearer ${MCP_TOKEN}", "--header-file", "headers.txt",
                              "--env", "MCP_TOKEN=t0ken", "--retry-for", "5"], cwd=str(tmp_path), env=environment)
    assert done.returncode == 0, done.stderr.decode()
    entry = json.loads(done.stdout)["mcpServers"]["127-0-0-1"]           # named after the URL's host
    assert entry["command"] == os.path.abspath(sys.executable)
    assert entry["args"] == bridge_form(ROOT) + [server.url, "--header", "Authorization: Bearer ${MCP_TOKEN}",
                                                 "--header-file", str(headers), "--retry-for", "5"]
    assert entry["env"] == {"MCP_TOKEN": "t0ken", "TEAM": "blue"}         # what the ${NAME}s need, no secret in argv
    assert "TEAM's value, from this environment, is in the entry's env" in done.stderr.decode()
    # The host's start, as the entry says: its command, its args, its env (and nothing of ours).
    host = Host([entry["command"]] + entry["args"] + ["-q"], env=dict(entry["env"], PATH=os.environ.get("PATH", "")))
    assert host.initialize()["serverInfo"]["name"] == "everything"
    assert host.request("tools/call", {"name": "add", "arguments": {"a": 20, "b": 22}})["result"]["content"][0][
        "text"] == "42"
    assert host.close() == 0
    posted = [headers for verb, headers, body in server.requests if verb == "POST"]
    assert posted[0]["authorization"] == "Bearer t0ken" and posted[0]["x-team"] == "blue"


def test_config_url_names_what_it_cannot_write():
    unset = config("--url", "https://mcp.example.com/mcp", "--header", "Authorization: Bearer ${NOT_SET_HERE}")
    assert unset.returncode == 1 and unset.stdout == b""
    assert "${NOT_SET_HERE}, which is not set here: give its value with --env NOT_SET_HERE=VALUE" \
        in unset.stderr.decode()
    wrong = config("--url", "https://mcp.example.com/mcp", "--connect-timout", "3")
    assert wrong.returncode == 1 and "minimcp bridge: unknown option --connect-timout" in wrong.stderr.decode()
    scheme = config("--url", "mcp.example.com/mcp")
    assert scheme.returncode == 1 and "--url takes the server's http:// or https:// URL" in scheme.stderr.decode()


def test_config_url_for_a_command_line_host_names_it_and_carries_the_proxy():
    done = config("--client", "claude-code", "--url", "https://mcp.example.com:8443/mcp", "--name", "remote",
                  "--protocol", "2026-07-28", env={"HTTPS_PROXY": "http://proxy.internal:3128"})
    assert done.returncode == 0, done.stderr.decode()
    assert shlex.split(done.stdout.decode()) == [
        "claude", "mcp", "add", "--transport", "stdio", "remote", "--env", "HTTPS_PROXY=http://proxy.internal:3128",
        "--", os.path.abspath(sys.executable)] + bridge_form(ROOT) + ["https://mcp.example.com:8443/mcp", "--protocol",
                                                                      "2026-07-28"]
    assert "the proxy settings here (HTTPS_PROXY) are in the entry's env too" in done.stderr.decode()


def test_a_command_line_host_s_line_quotes_the_bridge_s_c_line_for_the_shell_it_is_pasted_into():
    import minimcp_cli
    python = "C:\\Python 3\\python.exe"
    code = bridge_form("C:\\Users\\me\\minimcp")[3]
    words = ["codex", "mcp", "add", "r", "--", python] + bridge_form("C:\\Users\\me\\minimcp") + [
        "https://mcp.example.com/mcp"]
    assert shlex.split(minimcp_cli._shell_words(words, windows=False)) == words
    line = minimcp_cli._shell_words(words, windows=True)     # one double-quoted word each: cmd.exe, PowerShell
    assert line == 'codex mcp add r -- "%s" -I -S -c "%s" https://mcp.example.com/mcp' % (python, code), line
