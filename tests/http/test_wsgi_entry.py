"""The names a WSGI server is given: gunicorn accepts only ``module:name`` (or ``module:name()``).

gunicorn refuses ``'server:app.wsgi'`` ("Failed to parse 'app.wsgi' as an attribute
name or function call"), so the app object itself must be the WSGI callable for
``gunicorn 'server:app'`` to work. These tests call it as a WSGI server would.
"""

import io
import json
from wsgiref.util import setup_testing_defaults

from conftest import load_example

MODERN = "2026-07-28"
ENVELOPE = {"io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "wsgi-test", "version": "1"}}


def call_wsgi(application, body: bytes, headers: dict):
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/mcp", "CONTENT_LENGTH": str(len(body)),
               "CONTENT_TYPE": "application/json", "wsgi.input": io.BytesIO(body)}
    environ.update({"HTTP_" + name.upper().replace("-", "_"): value for name, value in headers.items()})
    setup_testing_defaults(environ)                 # SERVER_NAME 127.0.0.1, HTTP_HOST 127.0.0.1
    seen = {}

    def start_response(status, response_headers, exc_info=None):
        seen["status"], seen["headers"] = status, dict(response_headers)
    data = b"".join(application(environ, start_response))
    return seen["status"], seen["headers"], data


def test_the_app_object_is_the_wsgi_callable_gunicorn_can_name():
    app = load_example("everything").app
    message = {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
               "params": {"name": "echo", "arguments": {"text": "via app"}, "_meta": ENVELOPE}}
    headers = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": MODERN,
               "Mcp-Method": "tools/call", "Mcp-Name": "echo"}
    status, response_headers, data = call_wsgi(app, json.dumps(message).encode("utf-8"), headers)
    assert status == "200 OK" and response_headers["Content-Type"] == "application/json", (status, data)
    body = json.loads(data)
    assert body["id"] == 7 and body["result"]["content"][0]["text"] == "via app", body
    # the same endpoint as app.wsgi: one table of sessions, one set of options
    status, _, data = call_wsgi(app.wsgi, json.dumps(message).encode("utf-8"), headers)
    assert status == "200 OK" and json.loads(data)["result"]["content"][0]["text"] == "via app"
