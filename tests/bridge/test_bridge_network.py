"""The bridge (issue 39) against servers whose every answer the test writes: streams that break
off and resume, silences, refusals, headers, proxies, TLS, a server that speaks only 2026-07-28,
a server that never answers the era's probe, connections that stall before HTTP, and how the
bridge ends with its host.
"""

import base64
import os
import signal
import ssl
import subprocess
import sys
import threading
import time

import pytest

from bridge_harness import (BRIDGE, DISCOVERED, Host, bridge, modern_result, mute, released, result,  # noqa: F401
                            scripted)
from conftest import MODERN, ROOT, envelope

TLS_PEM = os.path.join(ROOT, "tests", "bridge_tls.pem")
SESSION = "session-1"
SERVER_INFO = {"name": "scripted", "version": "1"}


def handshake_server(on_call, tools=({"name": "work", "inputSchema": {"type": "object"}},)):
    """A handshake-era server: initialize, a session, no GET stream; ``on_call(request)`` answers calls."""
    def handle(request):
        body = request.body
        if request.command == "DELETE":
            return request.status(204)
        if request.command == "GET":
            return request.status(405)
        if body.get("method") == "initialize":
            return request.json(result(body, {"protocolVersion": body["params"]["protocolVersion"],
                                              "capabilities": {"tools": {}}, "serverInfo": SERVER_INFO}),
                                headers={"Mcp-Session-Id": SESSION})
        if "id" not in body or "method" not in body:
            return request.status(202)
        if body["method"] == "tools/list":
            return request.json(result(body, {"tools": list(tools)}))
        return on_call(request)
    return handle


def test_a_broken_stream_is_resumed_with_last_event_id_after_the_servers_retry(bridge, scripted):
    calls = {}

    def on_call(request):
        if request.command == "POST":
            calls["call"], calls["broken"] = request.body, None
            request.open_stream()
            request.event(event_id="e1", retry=400)            # priming: an id, and how long to wait
            request.event({"jsonrpc": "2.0", "method": "notifications/progress",
                           "params": {"progressToken": "t", "progress": 1}}, event_id="e2")
            calls["broken"] = time.monotonic()                 # the connection ends here, the stream does not

    def handle(request):
        if request.command == "GET" and request.headers.get("Last-Event-ID"):
            request.open_stream()
            request.event(result(calls["call"], {"content": [{"type": "text", "text": "resumed"}]}), event_id="e3")
            time.sleep(3)                                      # the stream stays open: the bridge ends it
            return
        return handshake_server(on_call)(request)
    server = scripted(handle)
    host = bridge(server.url)
    host.initialize()
    host.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": "work", "arguments": {}, "_meta": {"progressToken": "t"}}})
    assert host.next(lambda m: m.get("method") == "notifications/progress")["params"]["progress"] == 1
    started = time.monotonic()
    assert host.answer_to(1)["result"]["content"][0]["text"] == "resumed"
    assert time.monotonic() - started < 2.5, "the bridge waited for the resumed stream to end"
    resumed = [r for r in server.requests if r.command == "GET" and r.headers.get("Last-Event-ID")]
    assert [r.headers["Last-Event-ID"] for r in resumed] == ["e2"]
    assert resumed[0].headers["Mcp-Session-Id"] == SESSION
    waited = resumed[0].arrived - calls["broken"]
    assert 0.35 <= waited < 1.5, "the server's retry asked for 400 ms, the bridge waited %.3f s" % waited


def test_the_get_stream_is_reopened_after_a_drop_with_last_event_id(bridge, scripted, released):
    gets = []

    def handle(request):
        if request.command != "GET":
            return handshake_server(lambda call: None)(request)
        gets.append(request)
        if len(gets) > 2:
            return request.status(405)
        request.open_stream()
        said = "before the drop" if len(gets) == 1 else "after it"
        request.event({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": said}},
                      event_id="g%d" % len(gets), retry=100)
        if len(gets) == 2:
            released.wait(60)            # (the first ends here, its connection with it: a drop)
    server = scripted(handle)
    host = bridge(server.url)
    host.initialize()
    for said in ("before the drop", "after it"):
        assert host.next(lambda m: m.get("method") == "notifications/message")["params"]["data"] == said
    assert [r.headers.get("Last-Event-ID") for r in gets] == [None, "g1"]
    assert [r.headers["Mcp-Session-Id"] for r in gets] == [SESSION, SESSION]


def test_a_stream_that_ends_without_an_answer_gets_one_error(bridge, scripted):
    def on_call(request):
        request.open_stream()
        request.event({"jsonrpc": "2.0", "method": "notifications/message",
                       "params": {"level": "info", "data": "working"}})      # then nothing: no id to resume from
    host = bridge(scripted(handshake_server(on_call)).url)
    host.initialize()
    answer = host.request("tools/call", {"name": "work", "arguments": {}})
    assert answer["error"]["code"] == -32603 and "without answering" in answer["error"]["message"]
    assert [m["params"]["data"] for m in host.notifications("notifications/message")] == ["working"]
    host.silent_about(lambda m: "method" not in m, 0.5)


def test_a_silent_answer_is_cut_at_the_idle_timeout_but_one_that_reports_progress_is_not(bridge, scripted):
    def on_call(request):
        request.open_stream()
        if request.body["params"]["name"] == "silent":
            time.sleep(4)
            return
        for step in range(1, 6):                         # 2.5 s in all, never 1 s without a word
            time.sleep(0.5)
            request.event({"jsonrpc": "2.0", "method": "notifications/progress",
                           "params": {"progressToken": 1, "progress": step}})
        request.event(result(request.body, {"content": [{"type": "text", "text": "long and fine"}]}))
    host = bridge(scripted(handshake_server(on_call)).url, "--idle-timeout", "1")
    host.initialize()
    started = time.monotonic()
    silent = host.request("tools/call", {"name": "silent", "arguments": {}})
    assert "--idle-timeout" in silent["error"]["message"] and time.monotonic() - started < 3
    long = host.request("tools/call", {"name": "long", "arguments": {}, "_meta": {"progressToken": 1}})
    assert long["result"]["content"][0]["text"] == "long and fine"


def test_headers_come_from_the_environment_and_a_file_and_logs_name_only_them(bridge, scripted, tmp_path):
    headers_file = tmp_path / "headers"
    headers_file.write_text("# the secrets\nX-File-Token: ${FILE_SECRET}\n\n")
    os.chmod(str(headers_file), 0o600)
    server = scripted(handshake_server(lambda request: request.json(result(request.body, {"content": []}))))
    host = bridge(server.url, "--header", "Authorization: Bearer ${TOKEN}", "--header-file", str(headers_file), "-v",
                  env={"TOKEN": "tok-123", "FILE_SECRET": "fs-456"})
    host.initialize()
    host.request("tools/call", {"name": "work", "arguments": {}})
    assert host.close() == 0
    assert server.requests
    for request in server.requests:
        assert request.headers["Authorization"] == "Bearer tok-123" and request.headers["X-File-Token"] == "fs-456"
    assert "Authorization" in host.stderr and "X-File-Token" in host.stderr
    assert "tok-123" not in host.stderr and "fs-456" not in host.stderr


def test_a_header_naming_a_missing_variable_stops_the_bridge_at_once(bridge, scripted):
    server = scripted(handshake_server(lambda request: None))
    host = bridge(server.url, "--header", "Authorization: Bearer ${MINIMCP_TEST_UNSET_TOKEN}")
    assert host.process.wait(10) != 0
    assert host.said("MINIMCP_TEST_UNSET_TOKEN is not set")
    assert host.process.stdout.read() == b""
    assert not server.requests


def test_a_401_that_is_not_oauths_names_the_fix(bridge, scripted):
    """A server that wants credentials of its own (a Basic challenge; a token given by --header
    that it refuses) gets no sign-in: the host is told which option gives credentials."""
    def handle(request):
        request.json({"error": "unauthorized"}, status=401, headers={"WWW-Authenticate": 'Basic realm="team"'})
    server = scripted(handle)
    for options in ((), ("--header", "Authorization: Bearer ${MINIMCP_TEST_TOKEN}")):
        host = bridge(server.url, *options, env={"MINIMCP_TEST_TOKEN": "stale"})
        answer = host.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                             "clientInfo": {"name": "t", "version": "1"}})
        message = answer["error"]["message"]
        assert "HTTP 401" in message and "--header 'Authorization: Bearer" in message, message
        assert answer["error"]["data"] == {"httpStatus": 401}
    assert {request.path for request in server.requests} == {"/mcp"}      # no metadata was looked for


def modern_server(on_call=None, listen=None):
    """A server that speaks only 2026-07-28: initialize is an unknown method (404, -32601)."""
    def handle(request):
        body = request.body
        if request.command != "POST":
            return request.status(405)
        method = body.get("method")
        if method == "initialize":
            return request.json({"jsonrpc": "2.0", "id": body["id"], "error": {
                "code": -32601, "message": "Method not found: initialize (this server speaks 2026-07-28)"}}, status=404)
        if method == "server/discover":
            return request.json(result(body, DISCOVERED))
        if method == "subscriptions/listen" and listen is not None:
            return listen(request)
        return on_call(request)
    return handle


def test_auto_translates_for_a_server_that_speaks_only_2026(bridge, scripted):
    rounds = []

    def on_call(request):
        body = request.body
        rounds.append(body)
        if len(rounds) == 1:                   # state only: the bridge retries at once, echoing it
            return request.json(result(body, {"resultType": "input_required", "requestState": "st-1"}))
        return request.json(modern_result(body, {"content": [{"type": "text", "text": "ok"}], "_meta": {
            "io.modelcontextprotocol/serverInfo": SERVER_INFO}}))

    def listen(request):
        request.open_stream()
        sid = {"io.modelcontextprotocol/subscriptionId": request.body["id"]}
        request.event({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                       "params": {"notifications": request.body["params"]["notifications"], "_meta": sid}})
        time.sleep(0.3)
        request.event({"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {"_meta": sid}})
        time.sleep(3)
    host = bridge(scripted(modern_server(on_call, listen)).url)
    info = host.initialize("2025-03-26", capabilities={"roots": {"listChanged": True}})
    assert info == {"protocolVersion": "2025-03-26", "capabilities": {"tools": {"listChanged": True}},
                    "serverInfo": {"name": "modern-only", "version": "9"}}
    changed = host.next(lambda m: m.get("method") == "notifications/tools/list_changed")
    assert changed == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
    answer = host.request("tools/call", {"name": "work", "arguments": {}})
    assert answer["result"] == {"content": [{"type": "text", "text": "ok"}]}
    first, retry = rounds
    assert retry["params"]["requestState"] == "st-1" and "inputResponses" not in retry["params"]
    assert first["id"] != retry["id"]
    meta = first["params"]["_meta"]
    assert meta["io.modelcontextprotocol/protocolVersion"] == MODERN
    assert meta["io.modelcontextprotocol/clientCapabilities"] == {"roots": {}}


def test_tool_parameters_are_mirrored_into_headers_and_invalid_tools_left_out(bridge, scripted):
    tools = [
        {"name": "query", "inputSchema": {"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "options": {"type": "object", "properties": {"dry": {"type": "boolean", "x-mcp-header": "Dry"}}},
            "count": {"type": "integer", "x-mcp-header": "Count"}}}},
        {"name": "on-a-number", "inputSchema": {"type": "object", "properties": {
            "ratio": {"type": "number", "x-mcp-header": "Ratio"}}}},
        {"name": "in-an-array", "inputSchema": {"type": "object", "properties": {
            "items": {"type": "array", "items": {"type": "string", "x-mcp-header": "Item"}}}}},
        {"name": "twice", "inputSchema": {"type": "object", "properties": {
            "a": {"type": "string", "x-mcp-header": "Same"}, "b": {"type": "string", "x-mcp-header": "same"}}}},
    ]

    def on_call(request):
        if request.body["method"] == "tools/list":
            return request.json(modern_result(request.body, {"tools": tools, "ttlMs": 0, "cacheScope": "public"}))
        return request.json(modern_result(request.body, {"content": []}))
    server = scripted(modern_server(on_call))
    host = bridge(server.url)
    listed = host.request("tools/list", {"_meta": envelope()})["result"]["tools"]
    assert [tool["name"] for tool in listed] == ["query"]
    for name in ("on-a-number", "in-an-array", "twice"):
        assert host.said("%r is left out of tools/list" % name)
    host.request("tools/call", {"name": "query", "arguments": {"region": "日本", "options": {"dry": True}, "count": 42},
                                "_meta": envelope()})
    host.request("tools/call", {"name": "query", "arguments": {"region": "us-west1"}, "_meta": envelope()})
    first, second = [r.headers for r in server.of("tools/call")]
    assert first["Mcp-Param-Region"] == "=?base64?%s?=" % base64.b64encode("日本".encode()).decode()
    assert (first["Mcp-Param-Dry"], first["Mcp-Param-Count"], first["Mcp-Name"]) == ("true", "42", "query")
    assert second["Mcp-Param-Region"] == "us-west1" and "Mcp-Param-Dry" not in second


@pytest.mark.xdist_group("processes")     # signals: with tests/core/test_process.py
def test_the_bridge_deletes_its_session_when_the_host_leaves_or_sigterm_comes(bridge, scripted):
    server = scripted(handshake_server(lambda request: None))
    for leave in ("eof", "sigterm"):
        host = bridge(server.url)
        host.initialize()
        started = time.monotonic()
        if leave == "eof":
            assert host.close() == 0
        else:
            host.process.send_signal(signal.SIGTERM)
            assert host.process.wait(10) == 0
        assert time.monotonic() - started < 3
    deletes = [r for r in server.requests if r.command == "DELETE"]
    assert [r.headers["Mcp-Session-Id"] for r in deletes] == [SESSION, SESSION]


MIDDLE = """
import os, subprocess, sys
# Start the bridge on pipes the test holds, print its pid, then die without closing them:
# the bridge's stdin never ends, only its parent does.
bridge = subprocess.Popen(sys.argv[1:], stdin=int(os.environ["IN_FD"]), stdout=int(os.environ["OUT_FD"]))
print(bridge.pid, flush=True)
sys.stdin.readline()
os._exit(0)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="an orphan is seen through getppid() on POSIX")
@pytest.mark.xdist_group("processes")     # signals: with tests/core/test_process.py
def test_the_bridge_exits_when_its_parent_dies(scripted):
    import select
    server = scripted(handshake_server(lambda request: None))
    in_read, in_write = os.pipe()
    out_read, out_write = os.pipe()
    middle = subprocess.Popen([sys.executable, "-c", MIDDLE] + BRIDGE + [server.url], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, pass_fds=(in_read, out_write),
                              env=dict(os.environ, IN_FD=str(in_read), OUT_FD=str(out_write)))
    os.close(in_read)
    os.close(out_write)
    pid = int(middle.stdout.readline())
    try:
        os.write(in_write, b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":'
                           b'"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n')
        assert select.select([out_read], [], [], 10)[0] and b'"result"' in os.read(out_read, 65536)
        middle.stdin.write(b"die\n")
        middle.stdin.flush()
        middle.wait(10)
        deadline = time.monotonic() + 10
        while select.select([out_read], [], [], max(0, deadline - time.monotonic()))[0]:
            if not os.read(out_read, 65536):
                break                      # its stdout closed: it exited
        else:
            raise AssertionError("the bridge still runs 10 s after its parent died")
        assert [r.headers["Mcp-Session-Id"] for r in server.requests if r.command == "DELETE"] == [SESSION]
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
        os.close(in_write)
        os.close(out_read)


def test_the_proxy_comes_from_the_environment_and_no_proxy_bypasses_it(bridge, scripted):
    def proxy(request):                  # plays the proxy and the server behind it
        handshake_server(lambda r: None)(request)
    through = scripted(proxy)
    target = "http://mcp.bridge.test/mcp"          # .test never resolves: only a proxy can reach it
    host = bridge(target, env={"HTTP_PROXY": "http://user:secret@127.0.0.1:%d" % through.port, "NO_PROXY": ""})
    host.initialize()
    assert host.close() == 0
    posted = through.of("initialize")[0]
    assert posted.path == target, "a proxy is sent the absolute URL"
    assert posted.headers["Proxy-Authorization"] == "Basic " + base64.b64encode(b"user:secret").decode()
    assert "secret" not in host.stderr
    host = bridge(target, "--retry-for", "0", env={"HTTP_PROXY": "http://127.0.0.1:%d" % through.port,
                                                   "NO_PROXY": "bridge.test"})
    answer = host.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                         "clientInfo": {"name": "t", "version": "1"}}, timeout=30)
    assert "cannot resolve mcp.bridge.test" in answer["error"]["message"], answer
    assert len(through.of("initialize")) == 1


def test_tls_is_verified_against_the_system_store_and_ca_file(bridge, scripted):
    server = scripted(handshake_server(lambda request: request.json(result(request.body, {"content": []}))))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(TLS_PEM)
    server.httpd.socket = context.wrap_socket(server.httpd.socket, server_side=True)
    url = "https://127.0.0.1:%d/mcp" % server.port
    untrusted = bridge(url).request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                                   "clientInfo": {"name": "t", "version": "1"}})
    message = untrusted["error"]["message"]
    assert "not trusted" in message and "--ca-file" in message and "never turned off" in message, message
    host = bridge(url, "--ca-file", TLS_PEM)
    assert host.initialize()["serverInfo"] == SERVER_INFO
    assert host.request("tools/call", {"name": "work", "arguments": {}})["result"] == {"content": []}


HOST_INIT = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}


@pytest.mark.parametrize("status, fix", [
    (403, "forbidden: the credentials lack access to this server"),
    (404, "check the URL's path (MCP endpoints are often /mcp)"),
    (405, "is it a Streamable HTTP MCP endpoint? (the old HTTP+SSE transport's /sse URL is not supported)"),
])
def test_an_http_refusal_is_one_error_that_names_its_likely_fix(bridge, scripted, status, fix):
    server = scripted(lambda request: request.status(status))
    host = bridge(server.url)
    message = host.request("initialize", HOST_INIT)["error"]["message"]
    assert "HTTP %d from %s" % (status, server.url) in message and fix in message, message
    host.silent_about(lambda m: True, 0.5)           # exactly one answer
    assert host.close() == 0


def test_a_proxy_that_refuses_the_tunnel_is_named_as_the_cause(bridge, scripted):
    proxy = scripted(lambda request: request.status(403))      # (CONNECT: answered 501 by the handler)
    host = bridge("https://mcp.bridge.test/mcp", "--retry-for", "0",
                  env={"HTTPS_PROXY": "http://127.0.0.1:%d" % proxy.port, "NO_PROXY": ""})
    message = host.request("initialize", HOST_INIT)["error"]["message"]
    assert "refused to open a tunnel to mcp.bridge.test:443" in message and "HTTPS_PROXY" in message, message
    assert host.close() == 0


def keep_silent(request, released, how):
    """Accept a request and never answer it, in one of three ways, until the test ends."""
    if how == "no status line":
        released.wait(60)
        return
    request.open_stream()
    if how == "a stream that goes quiet":
        request.event(event_id="prime-1", retry=100)          # as the SDKs prime a stream, then nothing
        released.wait(60)
        return
    try:                                                       # "keep-alives only": alive, never an answer
        while not released.wait(0.2):
            request.wfile.write(b": keep-alive\n\n")
            request.wfile.flush()
    except OSError:
        pass                                                   # the bridge hung up


SILENCES = ("no status line", "a stream that goes quiet", "keep-alives only")


@pytest.mark.parametrize("how", SILENCES)
def test_a_2026_host_s_discover_that_the_server_never_answers_gets_method_not_found_and_initialize_follows(
        bridge, scripted, released, how):
    """--protocol auto, a 2026-07-28 host: the server's silence on server/discover would keep the
    host from its initialize for --idle-timeout (300 s); within --connect-timeout it is -32601."""
    def handle(request):
        if request.command == "POST" and request.body.get("method") == "server/discover":
            return keep_silent(request, released, how)
        return handshake_server(lambda call: call.json(result(call.body, {"content": []})))(request)
    server = scripted(handle)
    host = bridge(server.url, "--connect-timeout", "1")
    refused = host.request("server/discover", {"_meta": envelope()}, timeout=10)   # a host's deadline, not 300 s
    assert refused["error"]["code"] == -32601, refused
    message = refused["error"]["message"]
    assert "no answer" in message and "1 s (--connect-timeout)" in message and "--protocol handshake" in message
    assert host.initialize()["serverInfo"] == SERVER_INFO                           # the host falls back: mirrored
    assert host.request("tools/call", {"name": "work", "arguments": {}})["result"] == {"content": []}
    assert len(server.of("server/discover")) == 1
    host.silent_about(lambda m: "method" not in m, 0.3)                             # one answer each


@pytest.mark.parametrize("protocol", ["auto", "2026-07-28"])
def test_a_handshake_host_s_initialize_is_answered_when_the_server_never_answers_the_bridge_s_discover(
        bridge, scripted, released, protocol):
    """The bridge's own probe (after a refused initialize, or always with --protocol 2026-07-28)
    waits --connect-timeout, then the host's initialize has its one answer: the server's refusal
    of it, or what to change."""
    refusal = {"code": -32601, "message": "Method not found: initialize"}

    def handle(request):
        method = request.body.get("method") if request.command == "POST" else None
        if method == "server/discover":
            return keep_silent(request, released, "no status line")
        if method == "initialize":
            return request.json({"jsonrpc": "2.0", "id": request.body["id"], "error": refusal}, status=404)
        request.status(405)
    server = scripted(handle)
    host = bridge(server.url, "--connect-timeout", "1", "--protocol", protocol)
    answer = host.request("initialize", HOST_INIT, timeout=10)
    if protocol == "auto":
        assert answer["error"] == refusal                  # neither era: the server's own answer to initialize
        assert host.said("no answer to server/discover within 1 s (--connect-timeout)")
    else:
        message = answer["error"]["message"]
        assert "no answer to server/discover within 1 s (--connect-timeout)" in message, message
        assert "drop --protocol 2026-07-28" in message, message
    host.silent_about(lambda m: True, 0.3)
    assert host.close() == 0


@pytest.mark.parametrize("stall", ["TLS never answered", "a proxy that never answers CONNECT"])
def test_a_connection_that_stalls_before_http_is_cut_at_the_connect_timeout_and_names_its_fix(bridge, mute, stall):
    listener = mute()
    if stall == "TLS never answered":
        url, env = "https://127.0.0.1:%d/mcp" % listener.port, {}
        fix, first = "is the URL https on a port that speaks plain http", b"\x16"       # a TLS ClientHello
    else:
        url, env = "https://mcp.bridge.test/mcp", {"HTTPS_PROXY": "http://127.0.0.1:%d" % listener.port,
                                                     "NO_PROXY": ""}
        fix, first = "check HTTPS_PROXY and NO_PROXY", b"CONNECT mcp.bridge.test:443 "
    host = bridge(url, "--connect-timeout", "1", env=env)
    for attempt in (1, 2):                                 # each request its one answer; the bridge goes on
        message = host.request("initialize", HOST_INIT, timeout=10)["error"]["message"]
        assert "within the connect timeout (1 s, --connect-timeout)" in message and fix in message, message
    host.silent_about(lambda m: True, 0.3)
    assert host.close() == 0
    sent = listener.first_bytes()
    assert len(sent) == 2 and all(data.startswith(first) for data in sent), sent
