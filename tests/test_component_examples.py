"""Each component's example, run as its README line says: HTTP, the SDK's names, TestClient.

(MCP Apps: examples/sqlite_explorer.py, and Agent Skills: examples/skills/ in
examples/everything.py, are driven in test_examples.py, test_apps.py and test_skills.py.)
"""

import json
import os
import re
import signal
import subprocess
import sys
import urllib.request

from conftest import ROOT, SERVE, check_line

EXAMPLES = os.path.join(ROOT, "examples")
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "ex", "version": "1"}}}


def post(url, message, session=None):
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
               "MCP-Protocol-Version": "2025-06-18"}
    if session:
        headers["Mcp-Session-Id"] = session
    request = urllib.request.Request(url, json.dumps(message).encode(), headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        body = response.read().decode()
        if response.headers.get("Content-Type", "").startswith("text/event-stream"):
            body = [line[5:].strip() for line in body.splitlines() if line.startswith("data:")][-1]
        return response.headers.get("Mcp-Session-Id"), json.loads(body) if body else None


def test_the_http_example_serves_on_a_port_and_stops_on_sigterm():
    server = subprocess.Popen([sys.executable, os.path.join(EXAMPLES, "http_server.py")], env=dict(os.environ, PORT="0"),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        announced = server.stderr.readline().decode()
        url = re.search(r"at (http://127\.0\.0\.1:\d+/mcp)", announced).group(1)
        session, answer = post(url, INITIALIZE)
        assert answer["result"]["serverInfo"]["name"] == "http-demo" and session
        post(url, {"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
        _, answer = post(url, {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                               "params": {"name": "count", "arguments": {"by": 2}}}, session)
        assert answer["result"]["content"][0]["text"] == "ex made it 2 (protocol 2025-06-18)"
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=30) == 0
        assert server.stdout.read() == b""                  # HTTP: nothing ever goes to stdout
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def test_the_sdk_example_runs_unchanged_through_serve():
    lines = [INITIALIZE, {"jsonrpc": "2.0", "method": "notifications/initialized"},
             {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
              "params": {"name": "convert", "arguments": {"value": 2, "unit": "km", "to": "m"}}},
             {"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {"uri": "units://all"}}]
    run = subprocess.run(SERVE + [os.path.join(EXAMPLES, "sdk_server.py")],
                         input=b"".join(json.dumps(line).encode() + b"\n" for line in lines),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    answers = {message["id"]: message for message in (check_line(line + b"\n") for line in run.stdout.splitlines())}
    assert run.returncode == 0, run.stderr
    assert answers[1]["result"]["serverInfo"]["name"] == "sdk-demo"
    converted = answers[2]["result"]          # as mcp 1.x sends a float: text, and structuredContent
    assert converted["content"] == [{"type": "text", "text": "2000.0"}] and converted["structuredContent"] == {"result": 2000.0}
    assert answers[3]["result"]["contents"][0]["text"] == "cm, km, m, mi"


def test_the_testclient_example_passes():
    run = subprocess.run([sys.executable, os.path.join(EXAMPLES, "testing.py")], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, timeout=60)
    assert run.returncode == 0 and run.stdout == b"2 passed\n", run.stderr
