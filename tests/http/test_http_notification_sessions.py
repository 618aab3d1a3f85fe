"""A POST that carries only a notification opens no session, whatever the notification is called.

Only an ``initialize`` request (one with an id) is answered with an ``Mcp-Session-Id``; an
``initialize`` notification is answered 202 and must leave nothing behind in the app. These
tests call the WSGI app as a server would and count the sessions the app still serves.
"""

import io
import json
from wsgiref.util import setup_testing_defaults

import pytest

from conftest import load_example

MODERN = "2026-07-28"
ENVELOPE = {"io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "notification-test", "version": "1"}}


def post(application, message: dict, headers: dict):
    body = json.dumps(message).encode("utf-8")
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/mcp", "CONTENT_LENGTH": str(len(body)),
               "CONTENT_TYPE": "application/json", "wsgi.input": io.BytesIO(body),
               "HTTP_ACCEPT": "application/json, text/event-stream"}
    environ.update({"HTTP_" + name.upper().replace("-", "_"): value for name, value in headers.items()})
    setup_testing_defaults(environ)                 # HTTP_HOST 127.0.0.1: a loopback host
    seen = {}

    def start_response(status, response_headers, exc_info=None):
        seen["status"], seen["headers"] = status, dict(response_headers)
    data = b"".join(application(environ, start_response))
    return seen["status"], seen["headers"], data


@pytest.mark.parametrize("params, headers", [
    ({}, {}),                                                                   # handshake era, no session yet
    ({"_meta": ENVELOPE}, {"MCP-Protocol-Version": MODERN}),                    # 2026-07-28
], ids=["handshake", "modern"])
def test_an_initialize_notification_leaves_no_session(params, headers):
    app = load_example("everything").app
    endpoint = app.wsgi_app()
    for _ in range(3):
        status, response_headers, data = post(endpoint, {"jsonrpc": "2.0", "method": "initialize",
                                                         "params": params}, headers)
        assert status == "202 Accepted" and data == b"" and "Mcp-Session-Id" not in response_headers
    assert app._live_sessions() == []


def test_other_notifications_leave_no_session_either():
    app = load_example("everything").app
    endpoint = app.wsgi_app()
    status, _, _ = post(endpoint, {"jsonrpc": "2.0", "method": "notifications/cancelled",
                                   "params": {"requestId": 1, "_meta": ENVELOPE}}, {"MCP-Protocol-Version": MODERN})
    assert status == "202 Accepted" and app._live_sessions() == []
