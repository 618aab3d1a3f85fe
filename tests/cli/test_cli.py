"""The command line, driven as a user would: real processes, real output."""

import contextlib
import json
import os
import select
import subprocess
import sys
import threading

import pytest

from conftest import CLI, EVERYTHING, ROOT, SERVE, run_command

MINIMCP = os.path.join(ROOT, "minimcp.py")
SERVER = [sys.executable, EVERYTHING]


def run(*args, stdin=subprocess.DEVNULL, timeout=60, module=False):
    """The command line as a process of its own (for -m, signals, and the program's exit)."""
    command = [sys.executable] + (["-m", "minimcp"] if module else [MINIMCP]) + list(args)
    return subprocess.run(command, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=timeout, cwd=ROOT)


def cli(*args):
    """The command line in this process (the server it drives is still a real process): one
    interpreter start fewer per call. Same result shape as ``run``."""
    import contextlib
    import io
    import minimcp
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = minimcp.main(list(args))
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else 1
                if not isinstance(exc.code, int):
                    err.write("%s\n" % exc.code)
    finally:
        os.chdir(cwd)
    return subprocess.CompletedProcess(args, status, out.getvalue().encode(), err.getvalue().encode())


# The README's own selftest line, word for word (test_readme runs it as the README has it).
SELFTEST = [sys.executable, "minimcp.py", "selftest", "--", sys.executable, "examples/everything.py"]


def test_version_and_help():
    done = run("--version")                     # the script form, as a process: its exit status
    assert done.returncode == 0 and done.stdout.decode().startswith("minimcp 0.")
    done = cli("--help")
    assert done.returncode == 0
    text = done.stdout.decode()
    for word in ("inspect", "call", "read", "prompt", "complete", "selftest", "config", "serve", "examples:"):
        assert word in text
    assert cli().returncode == 2
    assert run("frobnicate", "--", "x").returncode == 2


def test_python_dash_m_is_the_same_program():
    done = run("--version", module=True)
    assert done.returncode == 0 and done.stdout.decode().startswith("minimcp ")


def test_inspect_shows_everything_and_calls_a_tool():
    done = cli("inspect", "--call", "echo", '{"text": "Hello from minimcp"}', "--", *SERVER)
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr.decode()
    assert "everything 1.0.0 (protocol 2025-11-25)" in out
    for expected in ("tool      echo(text: string)", "resource  fixture://hello", "template  fixture://greeting/{name}",
                     "prompt    greet(name)", "instructions: A test fixture", "call echo -> ok",
                     "Hello from minimcp"):
        assert expected in out, expected
    assert "exited" not in out + done.stderr.decode()            # a clean exit goes unsaid (issue 35)


def test_inspect_json_and_modern_protocol():
    done = cli("inspect", "--json", "--protocol", "2026-07-28", "--", *SERVER)
    report = json.loads(done.stdout.decode())
    assert report["protocolVersion"] == "2026-07-28"
    assert report["tools"][0]["name"] == "echo" and report["tools"][0]["inputSchema"]["required"] == ["text"]
    assert report["resourceTemplates"][0]["uriTemplate"] == "fixture://greeting/{name}"


@pytest.mark.parametrize("args", [["call", "add", "a=2", "b=3", "--"] + SERVER,
                                  ["call", "add", '{"a": 2, "b": 3}', "--"] + SERVER,
                                  ["call", "--"] + SERVER + ["add", "a=2", "b=3"]])
def test_call_forms(args):
    done = cli(*args)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().splitlines()[0] == "5"


def test_call_error_result_exits_1_and_protocol_errors_are_reported():
    done = cli("call", "fail", "message=nope", "--", *SERVER)
    assert done.returncode == 1 and done.stdout.decode().strip() == "nope"
    done = cli("call", "missing_tool", "--", *SERVER)
    assert done.returncode == 1 and "-32602" in done.stderr.decode()


def test_read_prompt_complete():
    assert cli("read", "fixture://greeting/Al", "--", *SERVER).stdout.decode() == "Hello, Al!\n"
    assert cli("read", "--", *SERVER, "fixture://hello").stdout.decode() == "Hello, world!\n"
    assert cli("prompt", "greet", "name=Al", "--", *SERVER).stdout.decode() == "[user] Please greet Al warmly.\n"
    assert cli("complete", "greet", "name", "a", "--", *SERVER).stdout.decode() == "alice\nanna\n"


def test_progress_goes_to_stderr():
    done = cli("call", "slow", "seconds=0.1", "steps=2", "--", *SERVER)
    assert done.stdout.decode() == "done\n"
    assert "progress: 1/2" in done.stderr.decode() and "progress: 2/2" in done.stderr.decode()


def test_questions_are_declined_without_a_terminal():
    done = cli("call", "elicit", "--", *SERVER)
    assert done.stdout.decode() == "decline\n"


def test_ctrl_c_sends_cancelled():
    import signal
    import threading
    process = subprocess.Popen(CLI + ["call", "slow", "seconds=20", "steps=200", "--"] + SERVER,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    err, running = [], threading.Event()

    def read_stderr():
        for line in process.stderr:
            err.append(line)
            if line.startswith(b"progress:"):          # the call is running on the server
                running.set()

    reader = threading.Thread(target=read_stderr, daemon=True)
    reader.start()
    try:
        assert running.wait(30), b"".join(err)
        process.send_signal(signal.SIGINT)
        process.wait(15)                               # the 20 s call cannot finish within this
        out = process.stdout.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(5)
    reader.join(5)
    err = b"".join(err)
    assert b"cancelled" in err and b"done" not in out, err


@pytest.mark.parametrize("client,key", [("claude", "mcpServers"), ("cursor", "mcpServers"), ("vscode", "servers")])
def test_config_snippets_use_absolute_paths(client, key):
    done = cli("config", "--client", client, "--name", "fx", "examples/everything.py", "--verbose")
    snippet = json.loads(done.stdout.decode())
    entry = snippet[key]["fx"]
    assert entry["command"] == os.path.abspath(sys.executable)
    assert entry["args"] == [os.path.join(ROOT, "examples", "everything.py"), "--verbose"]
    assert os.path.isabs(entry["command"]) and os.path.isabs(entry["args"][0])
    if client == "vscode":
        assert entry["type"] == "stdio"


def test_selftest_passes_on_the_fixture_and_fails_on_a_broken_server(tmp_path):
    done = run_command(SELFTEST)
    out, err = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == 0, out
    # Issue 30, point 1: the cancellation check raised in a thread of its own, after the PASS
    # lines. The server's stderr is read by selftest, so any traceback here is selftest's.
    assert "Traceback" not in err + out and "Exception in thread" not in err + out, err
    assert "WARN" not in out, out
    assert out.strip().endswith("%d passed, 0 failed, 0 skipped" % (11 if os.name == "posix" else 10))
    for check in ("handshake 2024-11-05", "server/discover", "concurrency", "cancellation", "exit on stdin EOF",
                  "stdout holds only JSON-RPC") + (("exit on SIGTERM",) if os.name == "posix" else ()):
        assert "PASS  " + check in out
    import io
    import minimcp
    import minimcp_cli
    noisy = tmp_path / "noisy.py"
    noisy.write_text("import sys, json\nprint('banner')\nsys.stdout.flush()\n"
                     "for line in sys.stdin:\n    m = json.loads(line)\n"
                     "    if 'id' in m:\n        print(json.dumps({'jsonrpc': '2.0', 'id': m['id'], "
                     "'result': {'protocolVersion': m.get('params', {}).get('protocolVersion'), "
                     "'capabilities': {}, 'serverInfo': {'name': 'n', 'version': '1'}, 'tools': []}}), flush=True)\n")
    out = io.StringIO()                          # one handshake's server is enough to see the banner
    check = minimcp_cli._SelfTest([sys.executable, str(noisy)], "2025-11-25", None, 5.0, out)
    check.check("server/discover", check.discover)
    assert check.finish() == 1
    assert "FAIL  stdout holds only JSON-RPC: 1 bad lines, first: b'banner\\n' (a print() before app.run()?" \
        in out.getvalue(), out.getvalue()


def test_serve_a_script_object_and_plain_functions(tmp_path):
    tools = tmp_path / "mytools.py"
    tools.write_text('def word_count(text: str) -> int:\n    """Count words."""\n    return len(text.split())\n\n'
                     'def shout(text: str = "hi") -> str:\n    return text.upper()\n\n'
                     'if __name__ == "__main__":\n    print("must not run")\n')
    # The script form of serve is test_readme's (its try-it commands); here it is SERVE.
    done = cli("call", "word_count", "text=a b c", "--", *SERVE, "--functions", str(tools))
    assert done.stdout.decode().splitlines()[0] == "3", done.stderr.decode()
    done = cli("inspect", "--json", "--", *SERVE, "--functions", str(tools))
    assert [t["name"] for t in json.loads(done.stdout.decode())["tools"]] == ["word_count", "shout"]
    done = cli("call", "echo", "text=via serve", "--", *SERVE, EVERYTHING + ":app")
    assert done.stdout.decode() == "via serve\n", done.stderr.decode()
    done = cli("call", "word_count", "text=x y", "--", sys.executable, MINIMCP, "serve",
               os.path.join(ROOT, "examples", "quickstart.py"))
    assert done.stdout.decode().splitlines()[0] == "2"
    done = run("serve", str(tools) + ":nothing", module=True)   # a process: serve installs the SDK aliases
    assert done.returncode != 0 and b"MCPServer" in done.stderr


def timer_restarts():
    """A steady call of 1 s under a 0.6 s timeout, then a silent one: (its text, the error)."""
    import time
    from minimcp import Context, MCPError, MCPServer, TestClient
    app = MCPServer("timer")

    @app.tool()
    def steady(ctx: Context) -> str:            # 1 s in all, a progress every 50 ms
        for step in range(20):
            time.sleep(0.05)
            ctx.progress(step + 1, 20)
        return "finished"

    @app.tool()
    def silent(ctx: Context) -> str:
        ctx.sleep(10)                           # ends when the client's timeout cancels it
        return "never"
    with TestClient(app, timeout=0.6) as client:
        text = client.call_tool("steady")["content"][0]["text"]
        try:
            client.call_tool("silent")
        except MCPError as exc:
            return text, exc.message
        return text, None


def test_the_client_s_timer_restarts_on_each_progress_of_its_request():
    """Issue 30, point 3: a long call that keeps reporting progress is not given up on (the
    TypeScript SDK's resetTimeoutOnProgress). In-process: the timer is the clients' own."""
    text, error = timer_restarts()
    assert text == "finished"
    assert error is not None and "no answer to tools/call within 0.6 seconds (the server may still be working" \
        in error, error


@contextlib.contextmanager
def started_first(tmp_path):
    """examples/everything.py, started and answering a ping before the command line starts;
    yields the server command to give the command line: ``cat`` joined to it by two FIFOs
    (a relay here carries the bytes, and stdin's EOF, both ways).

    An interpreter that imports minimcp takes a second or more to start on a busy machine,
    and the command line's timer runs from its first request; ``cat`` starts at once."""
    to_server, from_server = str(tmp_path / "to_server"), str(tmp_path / "from_server")
    os.mkfifo(to_server)
    os.mkfifo(from_server)
    server = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        server.stdin.write(b'{"jsonrpc": "2.0", "id": "started", "method": "ping"}\n')
        server.stdin.flush()
        assert select.select([server.stdout], [], [], 60)[0], "the server did not answer a ping within 60 s"
        assert json.loads(server.stdout.readline())["id"] == "started"

        def forward():                   # the command line's bytes, then its EOF
            with open(to_server, "rb", buffering=0) as source:
                for chunk in iter(lambda: source.read(65536), b""):
                    server.stdin.write(chunk)
                    server.stdin.flush()
            server.stdin.close()

        def back():                      # the server's lines, then its EOF
            with open(from_server, "wb", buffering=0) as sink:
                for chunk in iter(lambda: server.stdout.read1(65536), b""):
                    sink.write(chunk)
        relays = [threading.Thread(target=forward, daemon=True), threading.Thread(target=back, daemon=True)]
        for relay in relays:
            relay.start()
        yield ["sh", "-c", 'cat "$1" & exec cat > "$2"', "sh", from_server, to_server]
        for relay in relays:
            relay.join(10)
    finally:
        server.kill()
        server.wait(10)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="the server is joined to the command line by FIFOs")
def test_a_timeout_names_the_cli_s_own_option(tmp_path):
    # The 1.5 s to wait out are tools/call's alone: the server started before the command line did.
    with started_first(tmp_path) as server:
        done = run_command(CLI + ["call", "slow", "seconds=30", "steps=1", "--timeout", "1.5", "--"] + server)
    err = done.stderr.decode()
    assert done.returncode == 1 and done.stdout.decode() == "", err
    assert "no answer to tools/call within 1.5 seconds (minimcp's own --timeout, not the server's: it may " \
           "still be working on it; give --timeout SECONDS to wait longer)" in err, err
