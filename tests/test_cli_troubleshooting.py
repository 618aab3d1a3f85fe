"""What the command line detects about a server that does not start, and what it says (issue 30,
points 6 and 7). In-process CLI (``minimcp.main``), real server processes."""

import os
import sys

import minimcp
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
    for host, row in minimcp._HOSTS.items():
        assert minimcp.main(["config", "--client", host, EVERYTHING]) == 0
        err = capsys.readouterr().err
        assert "%s shows the server's stderr in %s; if it does not start, see README.md, \"Troubleshooting\"" \
            % (row["title"], row["logs"]) in err, err
