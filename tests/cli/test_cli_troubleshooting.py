"""What the command line detects about a server that does not start, and what it says (issue 30,
points 6 and 7). In-process CLI (``minimcp.main``), real server processes."""

import os
import sys

import minimcp
import minimcp_cli
from conftest import ROOT


def cli(capsys, *words):
    status = minimcp.main(list(words))
    out, err = capsys.readouterr()
    return status, out, err


def script(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_a_script_that_never_calls_run_gets_a_hint(tmp_path, capsys, monkeypatch):
    """Point 7: it exits 0 having written nothing; the CLI knew, and said only that the connection closed."""
    monkeypatch.setenv("PYTHONPATH", ROOT)
    server = script(tmp_path, "norun.py", "from minimcp import MCPServer\napp = MCPServer('x')\n\n"
                                          "@app.tool()\ndef hi() -> str:\n    return 'hi'\n")
    status, out, err = cli(capsys, "call", "hi", "--", sys.executable, server)
    assert status == 1
    assert "the server closed the connection before answering initialize" in err
    assert ("the server exited with status 0 having written nothing: does the script call app.run() (under "
            "`if __name__ == \"__main__\":`)? A file that only defines the server runs with `minimcp.py serve "
            "FILE`. See README.md, \"Troubleshooting\"") in err, err


def test_a_server_that_fails_at_start_is_told_apart(tmp_path, capsys):
    server = script(tmp_path, "broken.py", "import sys\nsys.exit(3)\n")
    status, out, err = cli(capsys, "call", "hi", "--", sys.executable, server)
    assert status == 1
    assert "the server exited with status 3 before answering: its stderr, above, says why" in err, err
    assert "app.run()" not in err


def test_a_command_that_cannot_start_names_enoent_and_troubleshooting(capsys):
    import pytest
    with pytest.raises(SystemExit) as info:
        minimcp.main(["inspect", "--", "/no/such/python3", "server.py"])
    message = str(info.value)
    assert message.startswith("minimcp: cannot start /no/such/python3 server.py: ")
    assert "`spawn ... ENOENT`: give the command's absolute path; see README.md, \"Troubleshooting\"" in message


def test_a_print_before_run_is_named_once_with_its_usual_cause(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", ROOT)
    server = script(tmp_path, "noisy.py", "print('loading...')\nprint('ready')\nfrom minimcp import MCPServer\n"
                                          "app = MCPServer('noisy')\n\n@app.tool()\ndef hi() -> str:\n"
                                          "    return 'hi'\n\nif __name__ == '__main__':\n    app.run()\n")
    status, out, err = cli(capsys, "call", "hi", "--", sys.executable, server)
    assert status == 0 and out == "hi\n", err
    lines = [line for line in err.splitlines() if "not JSON-RPC" in line]
    assert lines == ["minimcp: the server wrote a line that is not JSON-RPC: b'loading...\\n' (a print() before "
                     "app.run(), or to stdout from a library? Write to stderr instead; see README.md, "
                     "\"Troubleshooting\")",
                     "minimcp: the server wrote a line that is not JSON-RPC: b'ready\\n'"], err


def test_config_says_where_the_host_shows_the_server_s_stderr(capsys):
    from conftest import EVERYTHING
    for host, row in minimcp_cli._HOSTS.items():
        assert minimcp.main(["config", "--client", host, EVERYTHING]) == 0
        err = capsys.readouterr().err
        assert row["logs"].startswith(row["title"]) or " %s " % row["title"] in row["logs"], row["logs"]
        assert "minimcp: %s; if the server does not start, see README.md, \"Troubleshooting\"\n" % row["logs"] in err, err


def test_config_s_hints_read_as_one_clear_sentence_each(capsys):
    """Issue 35: they read "Claude Code shows the server's stderr in /mcp in a session shows each
    server's state; ...": the host's own words pasted into a sentence that had one already."""
    from conftest import EVERYTHING
    expected = {
        "claude-code": [
            "minimcp: run that command to add 'everything' to Claude Code, which writes it to ~/.claude.json for this "
            "project (for every project: --scope user right after 'claude mcp add'); see "
            "https://docs.anthropic.com/en/docs/claude-code/mcp",
            "minimcp: claude mcp list says whether Claude Code connects to the server, and Claude Code writes the "
            "server's stderr to ~/.cache/claude-cli-nodejs/PROJECT/mcp-logs-NAME/ (Linux); if the server does not "
            "start, see README.md, \"Troubleshooting\""],
        "gemini": [
            "minimcp: merge that into ~/.gemini/settings.json (Windows: %USERPROFILE%\\.gemini\\settings.json), then "
            "restart Gemini CLI; see https://geminicli.com/docs/tools/mcp-server/",
            "minimcp: gemini mcp list says whether Gemini CLI connects to the server, and gemini --debug prints the "
            "server's errors; if the server does not start, see README.md, \"Troubleshooting\""],
        "windsurf": [
            "minimcp: merge that into ~/.codeium/windsurf/mcp_config.json (Windows: "
            "%USERPROFILE%\\.codeium\\windsurf\\mcp_config.json), then restart Windsurf; see "
            "https://docs.windsurf.com/windsurf/cascade/mcp",
            "minimcp: Windsurf shows whether the server runs in the MCP servers panel of Cascade's settings; if the "
            "server does not start, see README.md, \"Troubleshooting\""],
        "vscode": [
            "minimcp: merge that into .vscode/mcp.json in the workspace, or the profile's mcp.json (command 'MCP: Open "
            "User Configuration'), then restart VS Code; see "
            "https://code.visualstudio.com/docs/agents/reference/mcp-configuration",
            "minimcp: VS Code shows the server's stderr when you run the command MCP: List Servers, pick the server, "
            "then Show Output; if the server does not start, see README.md, \"Troubleshooting\""],
    }
    for host, lines in expected.items():
        assert minimcp.main(["config", "--client", host, EVERYTHING]) == 0
        assert capsys.readouterr().err.splitlines() == lines, host
