"""Drive examples/everything.py's ``app.asgi`` hosted by a third-party ASGI server (uvicorn, hypercorn, granian).

Usage: asgi_servers.py URL [--workers N]
Checks, with the standard library only (wsgi_servers.py's checks first, then):
  1. a GET stream opens (text/event-stream) and, with one worker, carries a resource update
     the session subscribed to (with several, the subscription may live in another worker);
  2. calls cancelled with notifications/cancelled, each sent on a connection of its own: their
     POST streams end within 5 s (with several workers, a cancel that reaches a worker that
     does not run its call gets there through the session store they share);
  3. DELETE ends the session's GET stream within 5 s (the store is shared across workers).
Prints one line per check and "N passed, N failed"; exits non-zero on any failure.
"""

import http.client
import json
import sys
import threading
import time
from urllib.parse import urlsplit

import wsgi_servers
from wsgi_servers import ACCEPT, post

QUICK = 5.0


def open_stream(url, method, headers, body=None):
    """A request whose response is a stream: (connection, response), the head read."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=20)
    sent = {"Content-Type": "application/json", "Accept": ACCEPT}
    sent.update(headers)
    connection.request(method, parts.path, body=json.dumps(body) if body is not None else None, headers=sent)
    return connection, connection.getresponse()


def ends_within(response, seconds):
    """Whether the stream's body ends (EOF) within ``seconds``, whatever it carries until then."""
    done = threading.Event()

    def drain():
        try:
            while response.read1(65536) if hasattr(response, "read1") else response.read(1):
                pass
        except (OSError, ValueError, AttributeError, http.client.HTTPException):   # (closed under it)
            pass
        done.set()
    threading.Thread(target=drain, daemon=True).start()
    return done.wait(seconds)


def main():
    url = sys.argv[1]
    workers = int(sys.argv[sys.argv.index("--workers") + 1]) if "--workers" in sys.argv else 1
    if wsgi_servers.main() != 0:                     # the WSGI servers' checks, word for word
        return 1
    results = []

    def check(name, ok, detail=""):
        results.append(ok)
        print("%s  %s%s" % ("PASS" if ok else "FAIL", name, (": " + detail) if detail else ""))

    status, headers, _ = post(url, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "asgi", "version": "1"}}})
    session = headers.get("mcp-session-id")
    if not session:
        check("initialize opens a session", False, "status %s" % status)
        return wsgi_servers.finish(results)
    with_session = {"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"}
    post(url, {"jsonrpc": "2.0", "method": "notifications/initialized"}, with_session)

    get, stream = open_stream(url, "GET", dict(with_session, Accept="text/event-stream"))
    check("a GET stream opens", stream.status == 200 and
          stream.getheader("Content-Type", "").startswith("text/event-stream"), "status %s" % stream.status)
    if workers == 1:
        post(url, {"jsonrpc": "2.0", "id": 2, "method": "resources/subscribe",
                   "params": {"uri": "fixture://hello"}}, with_session)
        post(url, {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                   "params": {"name": "touch", "arguments": {"uri": "fixture://hello"}}}, with_session)
        line, deadline = b"", time.monotonic() + QUICK
        while b"resources/updated" not in line and time.monotonic() < deadline:
            line = stream.fp.readline()
        check("the GET stream carries the subscribed resource's update", b"resources/updated" in line)

    for request_id in (4, 5, 6):            # with several workers, some cancels land in another worker
        # A step a second: the first progress turns the answer into a stream within a second (a
        # call that says nothing gets its stream's head only at the first keep-alive, 15 s), and
        # its head read means the call runs, so the cancel cannot come before it.
        connection, slow = open_stream(url, "POST", with_session, {
            "jsonrpc": "2.0", "id": request_id, "method": "tools/call",
            "params": {"name": "slow", "arguments": {"seconds": 60, "steps": 60},
                       "_meta": {"progressToken": request_id}}})
        post(url, {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": request_id}},
             with_session)
        check("a cancelled call's POST stream ends (call %d)" % request_id, ends_within(slow, QUICK))
        connection.close()

    status, _, _ = post(url, None, with_session, method="DELETE")
    check("DELETE ends the session", status == 204, "status %s" % status)
    check("DELETE ends the session's GET stream", ends_within(stream, QUICK))
    get.close()
    return wsgi_servers.finish(results)


if __name__ == "__main__":
    sys.exit(main())
