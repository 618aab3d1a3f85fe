"""Drive examples/everything.py hosted by a third-party WSGI server (waitress, uWSGI) over HTTP.

Usage: wsgi_servers.py URL
Checks, with the standard library's http.client only:
  1. a 2026-07-28 tools/call answered as JSON;
  2. a handshake-era session: initialize (Mcp-Session-Id), initialized (202), a tools/call with
     progress answered as an SSE stream (progress events, then the result), DELETE (204), then 404.
Prints one line per check and "N passed, N failed"; exits non-zero on any failure.
"""

import http.client
import json
import sys
from urllib.parse import urlsplit

MODERN = "2026-07-28"
ACCEPT = "application/json, text/event-stream"


def post(url, message, headers=None, method="POST"):
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=20)
    sent = {"Content-Type": "application/json", "Accept": ACCEPT}
    sent.update(headers or {})
    connection.request(method, parts.path, body=json.dumps(message) if message is not None else None, headers=sent)
    response = connection.getresponse()
    data = response.read()
    headers = {k.lower(): v for k, v in response.getheaders()}
    connection.close()
    if headers.get("content-type", "").startswith("text/event-stream"):
        events = [json.loads(line[5:]) for line in data.decode().splitlines() if line.startswith("data:")]
        return response.status, headers, events
    return response.status, headers, json.loads(data) if data else None


def main():
    url = sys.argv[1]
    results = []

    def check(name, ok, detail=""):
        results.append(ok)
        print("%s  %s%s" % ("PASS" if ok else "FAIL", name, (": " + detail) if detail else ""))

    meta = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}}
    status, _, body = post(url, {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "echo", "arguments": {"text": "hosted"}, "_meta": meta}},
        {"MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call", "Mcp-Name": "echo"})
    text = ((body or {}).get("result") or {}).get("content", [{}])[0].get("text") if isinstance(body, dict) else None
    check("2026-07-28 tools/call", status == 200 and text == "hosted", "status %s, %r" % (status, text))

    status, headers, body = post(url, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "wsgi", "version": "1"}}})
    session = headers.get("mcp-session-id")
    check("initialize opens a session", status == 200 and bool(session), "status %s" % status)
    if not session:
        return finish(results)
    with_session = {"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"}
    status, _, _ = post(url, {"jsonrpc": "2.0", "method": "notifications/initialized"}, with_session)
    check("initialized is accepted", status == 202, "status %s" % status)
    status, headers, events = post(url, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "slow", "arguments": {"seconds": 0.3, "steps": 3}, "_meta": {"progressToken": "p"}}}, with_session)
    methods = [e.get("method") for e in events] if isinstance(events, list) else events
    check("progress streams over SSE, then the result",
          status == 200 and isinstance(events, list) and methods.count("notifications/progress") == 3
          and events[-1].get("result", {}).get("content", [{}])[0].get("text") == "done", repr(methods))
    status, _, _ = post(url, None, with_session, method="DELETE")
    check("DELETE ends the session", status == 204, "status %s" % status)
    status, _, _ = post(url, {"jsonrpc": "2.0", "id": 3, "method": "ping"}, with_session)
    check("the ended session is unknown", status == 404, "status %s" % status)
    return finish(results)


def finish(results):
    passed = sum(1 for r in results if r)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
