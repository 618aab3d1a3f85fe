"""The command line against servers nobody here wrote (issue 18), as real processes.

``handshake_only_server.py`` stands in for the third-party servers: no server/discover,
its own argument names, requests of its own at awkward moments.
"""

import json
import os
import re
import subprocess
import sys
import time

import pytest

from conftest import CLI, EVERYTHING, ROOT, run_command

MINIMCP = os.path.join(ROOT, "minimcp.py")
OTHER = [sys.executable, os.path.join(ROOT, "tests", "handshake_only_server.py")]


def run(*args, timeout=60, argv0=None):
    """The command line as a process of its own."""
    command = [sys.executable, MINIMCP] + list(args)
    started = time.monotonic()
    done = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=timeout, cwd=ROOT)
    done.seconds = time.monotonic() - started
    done.out, done.err = done.stdout.decode(), done.stderr.decode()
    return done


def cli(*args, timeout=None):
    """The command line in this process, against a real server process: one interpreter start
    fewer. Threads' tracebacks (threading.excepthook) land in ``err`` too."""
    import contextlib
    import io
    import minimcp
    out, err = io.StringIO(), io.StringIO()
    started = time.monotonic()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = minimcp.main(list(args))
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 1
            if not isinstance(exc.code, int):
                err.write("%s\n" % exc.code)
    done = subprocess.CompletedProcess(args, status)
    done.seconds = time.monotonic() - started
    done.out, done.err = out.getvalue(), err.getvalue()
    return done


# -- item 1: a server that asks us something late ---------------------------------------

def test_inspect_is_quick_and_clean_against_a_server_that_asks_for_roots_late():
    """The everything server asks roots/list 0.3 s after initialized and won't exit unanswered."""
    done = cli("inspect", "--", *OTHER, "--late-roots")
    assert done.returncode == 0, done.err
    assert "exited" not in done.out + done.err and "stopped it" not in done.err     # it exited cleanly
    assert "Exception in thread" not in done.err and "Traceback" not in done.err
    # quick: the server exited on its own once answered, so no exit grace was waited out (the
    # report would say "stopped it"); a clock would only measure the machine's load


def test_roots_are_offered_only_when_asked_for_and_then_answered(tmp_path):
    done = cli("call", "roots", "--root", str(tmp_path), "--", *OTHER)
    assert done.returncode == 0, done.err
    assert done.out.strip() == "file://" + str(tmp_path).replace(os.sep, "/")


def timed(words):
    """run_command(words) and how long it took (``seconds``), its output as text."""
    started = time.monotonic()
    done = run_command(words)
    done.seconds = time.monotonic() - started
    done.out, done.err = done.stdout.decode(), done.stderr.decode()
    return done


def test_a_server_that_waits_for_an_answer_after_stdin_closed_is_stopped_and_the_report_says_why():
    done = timed(ASK_AT_EOF)                   # the command line waits out its 2 s EXIT_GRACE
    assert "Traceback" not in done.err and "Exception in thread" not in done.err, done.err
    assert "-9" not in done.err
    assert ("minimcp: server was still running 2 s after its stdin closed; minimcp stopped it with SIGTERM "
            "(it asked ping after minimcp had closed its stdin" in done.err), done.err     # (inspect too: stderr)


# -- item 7: selftest on third-party servers --------------------------------------------

# A process of its own (minimcp.py from cached bytecode): 2 s of waits.
SELFTEST = CLI + ["selftest", "--slow-tool", "long-op:duration", "--"] + OTHER + ["--traceback-on-cancel"]


ASK_AT_EOF = CLI + ["inspect", "--"] + OTHER + ["--ask-at-eof"]


def test_selftest_passes_on_a_handshake_only_server_with_its_own_duration_argument():
    # --traceback-on-cancel: the server writes a traceback when the cancellation check cancels
    # its call. That is a warning under that check (issue 30, point 1), and fails nothing.
    done = run_command(SELFTEST)
    done.out, done.err = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == 0, done.out + done.err
    assert re.search(r"^WARN  cancellation: the server wrote a traceback on stderr: RuntimeError: long-op \d+ "
                     r"was cancelled$", done.out, flags=re.M), done.out
    assert "Traceback" not in done.err and "Traceback" not in done.out, done.err
    assert "PASS  tools/list: 3 tools" in done.out
    assert "SKIP  server/discover: Method not found (-32601): a handshake-only server" in done.out
    # its duration scaled until one call takes about a second, then judged by that call's time
    assert re.search(r'^PASS  concurrency: 3 calls of long-op \{"duration": [\d.]+\} at once took [\d.]+s, one '
                     r'alone [\d.]+s$', done.out, flags=re.M), done.out
    for check in ("cancellation", "exit on stdin EOF", "stdout holds only JSON-RPC"):
        assert "PASS  " + check in done.out, done.out
    if os.name == "posix":
        assert "PASS  exit on SIGTERM" in done.out
    assert done.out.strip().endswith("passed, 0 failed, 1 skipped, 1 warning")     # the SKIP: discover


def selftest_tools(*server, slow_tool=None, protocol="2025-11-25"):
    """selftest's tools step alone (concurrency and cancellation), in-process: one server, not eight."""
    import io
    import minimcp
    import minimcp_cli
    out = io.StringIO()
    check = minimcp_cli._SelfTest(list(server), protocol, slow_tool, 10.0, out)
    check.check("tools", check.tools, False)
    status = check.finish()
    return status, out.getvalue()


def test_selftest_fails_a_server_that_answers_a_cancelled_call():
    # The cancellation check alone: the concurrency check before it (a second of calls) is
    # the one above, and tells nothing about cancelling.
    import io
    import minimcp
    import minimcp_cli
    out = io.StringIO()
    check = minimcp_cli._SelfTest(OTHER + ["--answer-cancelled"], "2025-11-25", "long-op", 10.0, out)
    client = check.client("2025-11-25")
    try:
        client.connect()
        check.cancellation(client, "long-op", {"duration": 3}, 3.0)
    finally:
        check.done(client)
    assert check.finish() != 0
    assert "FAIL  cancellation: it answered anyway" in out.getvalue(), out.getvalue()


def test_selftest_says_why_a_slow_tool_cannot_be_used(tmp_path):
    status, out = selftest_tools(*OTHER, slow_tool="greet")
    assert ("SKIP  concurrency: greet has no argument that looks like a duration in seconds or ms (name it: "
            "--slow-tool greet:ARGUMENT, or give its arguments: --slow-args JSON)") in out, out


def test_duration_arguments_are_read_from_the_schema():
    import minimcp
    import minimcp_cli

    def tool(**properties):
        return {"inputSchema": {"type": "object", "properties": properties}}
    assert minimcp_cli._duration_arguments(tool(seconds={"type": "number"}), 1) == {"seconds": 1}
    assert minimcp_cli._duration_arguments(tool(durationMs={"type": "integer"}), 1) == {"durationMs": 1000}
    assert minimcp_cli._duration_arguments(tool(delay={"type": "number", "description": "in milliseconds"}), 3) == \
        {"delay": 3000}
    assert minimcp_cli._duration_arguments(tool(text={"type": "string"}), 1) is None
    # --slow-tool NAME:ARGUMENT names it: a number that its name would not give away
    assert minimcp_cli._duration_arguments(tool(n={"type": "integer"}, seconds={"type": "number"}), 2, "n") == {"n": 2}
    assert minimcp_cli._duration_arguments(tool(n={"type": "string"}), 2, "n") is None


def test_the_modern_protocol_against_a_handshake_only_server_gives_a_hint():
    done = cli("inspect", "--protocol", "2026-07-28", "--", *OTHER)
    assert done.returncode == 1
    assert "speaks only the handshake revisions: drop --protocol 2026-07-28" in done.err, done.err
    status, out = selftest_tools(*OTHER, protocol="2026-07-28")
    assert "drop --protocol 2026-07-28" in out and status == 1, out


# -- item 8: smaller CLI problems ---------------------------------------------------------

def test_help_after_a_command_prints_the_usage():
    for args in (["inspect", "--help"], ["call", "-h"], ["selftest", "--help", "--", "x"]):
        done = cli(*args)
        assert done.returncode == 0 and done.out.startswith("usage: "), (args, done.err)
        assert "cannot start" not in done.err


def test_options_may_come_before_the_command():
    done = cli("--protocol", "2025-06-18", "--json", "inspect", "--", *OTHER)
    assert done.returncode == 0, done.err
    assert json.loads(done.out)["protocolVersion"] == "2025-06-18"


def test_key_value_text_for_a_string_parameter_stays_text():
    done = cli("call", "greet", "name=1", "--", *OTHER)
    assert done.returncode == 0, done.err
    assert done.out == "Hi 1!\n"
    done = cli("call", "add", "a=2", "b=3", "--", sys.executable, EVERYTHING)      # numbers stay numbers
    assert done.out.splitlines()[0] == "5"


def test_log_notifications_are_shown_on_stderr():
    done = cli("call", "greet", "name=Ada", "--", *OTHER)
    assert "log [info] greeter: greeting Ada" in done.err
    assert "greeting" not in done.out


def test_the_installed_command_names_itself(tmp_path):
    script = tmp_path / "bin" / "minimcp"                # what pip's console-script wrapper does
    script.parent.mkdir()
    script.write_text("import sys\nfrom minimcp import main\nsys.exit(main())\n")
    done = subprocess.run([sys.executable, str(script), "--help"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=dict(os.environ, PYTHONPATH=ROOT), timeout=60)
    text = done.stdout.decode()
    assert done.returncode == 0 and "usage: minimcp COMMAND" in text and "python3 minimcp.py" not in text
    assert "python3 minimcp.py" in run("--help").out


def test_inspect_shows_optional_and_union_types():
    done = cli("inspect", "--", *OTHER)
    assert "greet(name: string, formal?: boolean | null)" in done.out, done.out
    done = cli("inspect", "--", sys.executable, EVERYTHING)
    assert ": any" not in done.out.replace("value?: any", ""), done.out


# -- item 5: config writes what works in the host ------------------------------------------

def test_config_for_minimcp_serve_uses_absolute_paths_and_the_served_script_name(tmp_path, monkeypatch):
    notes = tmp_path / "notes.py"
    notes.write_text("from minimcp import MCPServer\napp = MCPServer('notes')\n")
    # config only writes text: in-process, from tmp_path as the cwd (relative names are its)
    monkeypatch.chdir(tmp_path)
    done = cli("config", "--client", "claude", "minimcp.py", "serve", "notes.py:app")
    # minimcp.py is not in tmp_path: the script must exist, so copy it there first
    assert done.returncode != 0 and "no such script: minimcp.py" in done.err
    (tmp_path / "minimcp.py").write_bytes(open(MINIMCP, "rb").read())
    for served in (["notes.py:app"], ["--functions", "notes.py"], ["--http", "8000", "notes.py:app"]):
        done = cli("config", "--client", "claude", "minimcp.py", "serve", *served)
        assert done.returncode == 0, done.err
        servers = json.loads(done.out)["mcpServers"]
        assert list(servers) == ["notes"]
        args = servers["notes"]["args"]
        # issue 30: the module form, whose bytecode is cached, with minimcp.py's folder on the path
        assert args[:3] == ["-m", "minimcp", "serve"]
        assert servers["notes"]["env"] == {"PYTHONPATH": str(tmp_path)}
        script = str(tmp_path / "notes.py")
        expected = {"notes.py:app": [script + ":app"], "--functions": ["--functions", script],
                    "--http": ["--http", "8000", script + ":app"]}[served[0]]
        assert args[3:] == expected


def test_config_for_a_missing_script_fails():
    done = cli("config", "--client", "claude", "examples/no_such_server.py")
    assert done.returncode != 0 and "no such script" in done.err and done.out == ""
