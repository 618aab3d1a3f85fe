"""What a new user meets first (issue 35, points 2, 4 and 5), as real processes on real pipes.

``serve`` owns stdout before the user's file is imported; selftest judges a real slow tool by
its own time; the small things: a clean ``inspect``, a server started in a terminal,
``config`` on a script that still parses its own command line.
"""

import json
import os
import subprocess
import sys
import textwrap

from conftest import CLI, ROOT, SERVE, environ_snapshot

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
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environ_snapshot(), timeout=60)
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
                          stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=environ_snapshot(), timeout=120,
                          cwd=ROOT)
    out = done.stdout.decode()
    assert "PASS  stdout holds only JSON-RPC: every line was one JSON-RPC message" in out, out
    assert done.returncode == 0 and "FAIL" not in out, out
