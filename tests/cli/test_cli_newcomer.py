"""What a new user meets first (issue 35, points 2, 4 and 5), as real processes on real pipes.

``serve`` owns stdout before the user's file is imported; selftest judges a real slow tool by
its own time; the small things: a clean ``inspect``, a server started in a terminal,
``config`` on a script that still parses its own command line.
"""

import json
import os
import re
import subprocess
import sys
import textwrap

import pytest

from conftest import CLI, ROOT, SERVE, run_command

INITIALIZE = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"}]


def write(tmp_path, name, source):
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    return str(path)


def serve_and_call(words, tool, arguments):
    """``minimcp.py serve WORDS`` on real pipes: initialize, one tools/call, stdin closed.
    Returns (the stdout lines, the answers by id, stderr as text)."""
    lines = INITIALIZE + [{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                           "params": {"name": tool, "arguments": arguments}}]
    done = subprocess.run(SERVE + list(words), input=b"".join(json.dumps(m).encode() + b"\n" for m in lines),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ), timeout=60)
    raw = done.stdout.splitlines()
    answers = {}
    for line in raw:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        answers[message.get("id")] = message
    return raw, answers, done.stderr.decode()


def assert_only_json_rpc(raw, err):
    for line in raw:
        try:
            message = json.loads(line)
        except ValueError:
            raise AssertionError("stdout has a line that is not JSON-RPC: %r\nstderr:\n%s" % (line, err))
        assert isinstance(message, dict) and message.get("jsonrpc") == "2.0", line


# -- point 2: serve owns stdout before the user's file is imported ---------------------------

BANNER_SERVER = '''
    print("Starting server...")                      # above its imports, as many published servers do
    import os
    import sys
    os.system("echo a child process at import")      # descriptor 1, not sys.stdout
    sys.__stdout__.write("the interpreter's own stdout\\n")
    from mcp.server.fastmcp import FastMCP

    mcp = FastMCP("banner")
    print("tools registered")

    @mcp.tool()
    def hello(name: str) -> str:
        print("hello was called")                   # (while serving: stderr, as before)
        return "hello " + name

    if __name__ == "__main__":
        print("main: starting")
        mcp.run()
'''

MAIN_BUILDS_SERVER = '''
    from mcp.server.fastmcp import FastMCP

    def main():
        print("Starting the weather server on stdio")  # a main() that prints, then builds and runs
        mcp = FastMCP("weather")

        @mcp.tool()
        def forecast(city: str) -> str:
            return "sunny in " + city
        mcp.run()
'''


def test_serve_sends_what_a_file_prints_at_import_to_stderr(tmp_path):
    server = write(tmp_path, "banner.py", BANNER_SERVER)
    raw, answers, err = serve_and_call([server], "hello", {"name": "Ada"})
    assert_only_json_rpc(raw, err)
    assert answers[1]["result"]["content"][0]["text"] == "hello Ada", err
    for printed in ("Starting server...", "a child process at import", "the interpreter's own stdout",
                    "tools registered", "hello was called"):
        assert printed in err, err


def test_serve_sends_what_main_prints_before_its_server_starts_to_stderr(tmp_path):
    server = write(tmp_path, "weather.py", MAIN_BUILDS_SERVER)
    raw, answers, err = serve_and_call([server], "forecast", {"city": "Oslo"})
    assert_only_json_rpc(raw, err)
    assert answers[1]["result"]["content"][0]["text"] == "sunny in Oslo", err
    assert "Starting the weather server on stdio" in err


def test_serve_functions_sends_what_a_script_prints_at_import_to_stderr(tmp_path):
    script = write(tmp_path, "wordy.py", '''
        print("loading wordy")

        def word_count(text: str) -> int:
            """Count the words of a text."""
            return len(text.split())
    ''')
    raw, answers, err = serve_and_call(["--functions", script], "word_count", {"text": "one two three"})
    assert_only_json_rpc(raw, err)
    assert answers[1]["result"]["content"][0]["text"] == "3", err
    assert "loading wordy" in err


def test_selftest_finds_stdout_clean_under_serve_of_a_file_that_prints_at_import(tmp_path):
    server = write(tmp_path, "banner.py", BANNER_SERVER)
    done = subprocess.run(CLI + ["selftest", "--"] + SERVE + [server], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=dict(os.environ), timeout=120,
                          cwd=ROOT)
    out = done.stdout.decode()
    assert "PASS  stdout holds only JSON-RPC: every line was one JSON-RPC message" in out, out
    assert done.returncode == 0 and "FAIL" not in out, out


# -- point 4: selftest on a real slow tool ---------------------------------------------------

JOBS = [sys.executable, os.path.join(ROOT, "examples", "jobs.py")]
OTHER = [sys.executable, os.path.join(ROOT, "tests", "handshake_only_server.py")]
SELFTEST_JOBS = CLI + ["selftest", "--slow-tool", "build", "--"] + JOBS


def test_selftest_passes_on_the_jobs_example_s_build():
    """build(target, steps=20, step_seconds=0.1): target is filled from the schema, and
    step_seconds is scaled until one call takes about a second (20 steps each)."""
    done = run_command(SELFTEST_JOBS)
    out = done.stdout.decode()
    assert done.returncode == 0 and "FAIL" not in out, out + done.stderr.decode()
    assert re.search(r'^PASS  concurrency: 3 calls of build \{"target": "selftest", "step_seconds": [\d.]+\} at once '
                     r'took [\d.]+s, one alone [\d.]+s$', out, flags=re.M), out
    assert "PASS  cancellation: no response in the " in out and "its progress stopped" in out, out


def selftest_tools(server, slow_tool, slow_args=None):
    """selftest's tools step alone (concurrency and cancellation), in-process: one server, not eight."""
    import io
    import minimcp
    import minimcp_cli
    out = io.StringIO()
    check = minimcp_cli._SelfTest(list(server), "2025-11-25", slow_tool, 30.0, out, slow_args)
    check.check("tools", check.tools, False)
    return check.finish(), out.getvalue()


def selftest_step(server, step):
    """One selftest step, ``step(check, client)``, on a connected client of ``server``: (status, output)."""
    import io
    import minimcp_cli
    out = io.StringIO()
    check = minimcp_cli._SelfTest(list(server), "2025-11-25", "long-op", 10.0, out)
    client = check.client("2025-11-25")
    try:
        client.connect()
        step(check, client)
    finally:
        check.done(client)
    return check.finish(), out.getvalue()


def test_selftest_takes_the_slow_tool_s_arguments_from_slow_args(capsys):
    import minimcp
    arguments = {"target": "docs", "steps": 4, "step_seconds": 0.2}
    status = minimcp.main(["selftest", "--slow-tool", "build", "--slow-args", json.dumps(arguments), "--"] + JOBS)
    out = capsys.readouterr().out
    assert status == 0 and "FAIL" not in out, out
    # as given: the duration is the user's, not scaled
    assert "PASS  concurrency: 3 calls of build %s at once took" % json.dumps(arguments) in out, out


def test_selftest_fails_a_server_whose_calls_run_in_turn():
    status, out = selftest_tools(OTHER + ["--in-turn"], "long-op")
    assert status == 1
    assert re.search(r'^FAIL  concurrency: 3 calls of long-op \{"duration": [\d.]+\} at once took [\d.]+s, one alone '
                     r'[\d.]+s: they ran in turn, not at once$', out, flags=re.M), out


def test_selftest_tells_calls_at_once_by_their_progress_not_by_times_measured_apart():
    """On a loaded machine one call measured alone says little of three measured later: calls
    that each report progress before the first answer ran at once, whatever the clock says
    (here the call alone is said to take 0.01 s, so three taking 2 s would look in turn)."""
    status, out = selftest_step(OTHER, lambda check, client: check.concurrency(
        client, "long-op", {"duration": 1, "steps": 5}, 0.01))
    assert status == 0, out
    assert re.search(r'^PASS  concurrency: 3 calls of long-op \{"duration": 1, "steps": 5\} at once took [\d.]+s, '
                     r'one alone 0.01s$', out, flags=re.M), out


def test_selftest_warns_of_a_cancelled_call_that_runs_on_without_answering():
    """The spec says a cancelled request SHOULD stop; the official everything server's long
    operation runs on, reporting progress (tests/interop/run_selftest_thirdparty.sh): a warning."""
    status, out = selftest_step(OTHER + ["--runs-on-cancel"], lambda check, client: check.cancellation(
        client, "long-op", {"duration": 2, "steps": 5}, 2.0))
    assert status == 0, out
    assert "PASS  cancellation: no response in the 2.00s the call takes, it ran on; server still answers" in out, out
    assert re.search(r"^WARN  cancellation: the cancelled call ran on: its progress came [\d.]+s after the cancel "
                     r"\(a server should stop working on a cancelled request\)$", out, flags=re.M), out


def test_selftest_fills_each_required_argument_with_a_valid_value():
    import minimcp
    import minimcp_cli
    schema = {"type": "object", "required": ["target", "level", "mode", "when", "tags", "size", "ratio", "spec",
                                             "flag", "code"],
              "properties": {
                  "target": {"type": "string", "minLength": 12},
                  "level": {"type": "integer", "minimum": 3, "maximum": 9},
                  "mode": {"enum": ["fast", "slow"]},
                  "when": {"type": "string", "format": "date-time"},
                  "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2},
                  "size": {"anyOf": [{"type": "null"}, {"type": "integer", "exclusiveMinimum": 10}]},
                  "ratio": {"type": "number", "exclusiveMaximum": 1, "minimum": 0},
                  "spec": {"$ref": "#/$defs/Spec"},
                  "flag": {"type": "boolean"},
                  "code": {"type": "string", "maxLength": 3},
                  "optional": {"type": "string"}},
              "$defs": {"Spec": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}}}
    arguments = minimcp_cli._example_arguments(schema)
    assert set(arguments) == set(schema["required"]), arguments
    minimcp.validate(arguments, schema)                       # raises on any invalid value
    assert arguments["mode"] == "fast" and arguments["spec"] == {"name": "selftest"}


# -- point 5: the small things ------------------------------------------------------------------

def test_a_successful_inspect_says_nothing_of_the_server_s_clean_exit():
    done = subprocess.run([sys.executable, os.path.join(ROOT, "minimcp.py"), "inspect", "--",
                           sys.executable, os.path.join(ROOT, "examples", "everything.py")],
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60, cwd=ROOT)
    out, err = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == 0 and "tool      echo(text: string)" in out, err
    assert "exited" not in out and err == "", (out, err)


def test_inspect_still_says_when_a_server_exits_badly_after_its_stdin_closed(tmp_path):
    server = write(tmp_path, "bad_exit.py", '''
        import sys
        sys.path.insert(0, %r)
        from minimcp import MCPServer
        app = MCPServer("bad-exit")
        app.run()
        sys.exit(3)
    ''' % ROOT)
    done = subprocess.run(CLI + ["inspect", "--", sys.executable, server], stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60, env=dict(os.environ))
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr.decode() == "minimcp: server exited with status 3 after its stdin closed\n"


@pytest.mark.skipif(os.name != "posix", reason="a pseudo-terminal for stdin")
def test_a_server_started_in_a_terminal_says_what_it_waits_for_and_how_to_try_it():
    import pty
    import select
    master, slave = pty.openpty()
    server = subprocess.Popen([sys.executable, "examples/everything.py"], stdin=slave, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, cwd=ROOT, env=dict(os.environ))
    os.close(slave)
    try:
        said = b""
        while not said.endswith(b"\n") and select.select([server.stderr], [], [], 30)[0]:
            chunk = os.read(server.stderr.fileno(), 4096)
            if not chunk:
                break
            said += chunk
        os.write(master, b"\x04")                 # Ctrl-D: the end of input, as the hint says
        assert server.wait(30) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
        os.close(master)
    assert said.decode() == ("minimcp: everything is an MCP server: it waits for a client's JSON-RPC on stdin (a host "
                             "starts it), so it shows nothing here (Ctrl-D stops it). To try it: python3 minimcp.py "
                             "inspect -- python3 examples/everything.py\n")
    assert server.stdout.read() == b""


def _troubleshooting_snippet():
    """The Python block of the README's Troubleshooting section, dedented."""
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    section = text[text.index("### Troubleshooting"):]
    section = section[:section.index("\n## ")]
    block = re.search(r"```python\n(.*?)```", section, flags=re.S).group(1)
    return textwrap.dedent(block)


def test_the_troubleshooting_fix_for_isolated_mode_finds_minimcp_next_to_the_script(tmp_path):
    """python3 -I (and PYTHONSAFEPATH=1 on 3.11+) leave the script's folder off sys.path."""
    import glob
    import shutil
    for part in glob.glob(os.path.join(ROOT, "minimcp*.py")):     # the core, and the command line's files
        shutil.copy(part, str(tmp_path / os.path.basename(part)))
    body = 'app = MCPServer("isolated")\n\nif __name__ == "__main__":\n    app.run()\n'
    plain = write(tmp_path, "plain.py", "from minimcp import MCPServer\n" + body)
    fixed = write(tmp_path, "fixed.py", _troubleshooting_snippet() + body)
    request = json.dumps(INITIALIZE[0]).encode() + b"\n"
    modes = [([sys.executable, "-I"], {})]
    if sys.version_info >= (3, 11):
        modes.append(([sys.executable], {"PYTHONSAFEPATH": "1"}))
    for interpreter, extra in modes:
        environment = dict({k: v for k, v in dict(os.environ).items() if k != "PYTHONPATH"}, **extra)
        for words in ([plain], [fixed], [str(tmp_path / "minimcp.py"), "serve", plain]):
            done = subprocess.run(interpreter + words, input=request, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  cwd="/", env=environment, timeout=60)
            if words == [plain]:                  # what the README explains
                assert b"No module named 'minimcp'" in done.stderr, (interpreter, extra, done.stderr)
            else:                                 # and its two fixes
                assert json.loads(done.stdout)["result"]["serverInfo"]["name"] == "isolated", done.stderr


def test_the_readme_names_one_fastmcp_version_the_one_the_tests_pin():
    """Issue 35: it named FastMCP 4.1.6 in one place and 4.2.3 in another."""
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    named = set(re.findall(r"fastmcp[ =]*v?(\d+\.\d+\.\d+)", readme, flags=re.I))
    pinned = set()
    for stage in ("run_sdk_diff.sh", "run_sdk_corpus.sh"):
        text = open(os.path.join(ROOT, "tests", "interop", stage), encoding="utf-8").read()
        pinned |= set(re.findall(r'FASTMCP_VERSION="([\d.]+)"', text)) | set(re.findall(r"fastmcp: fastmcp==([\d.]+)",
                                                                                           text))
    assert len(pinned) == 1 and named == pinned, (named, pinned)
