"""CORS answers of the HTTP transport, for a browser page on another origin (the MCP Apps host page)."""

import io

from minimcp import MCPServer


def call(app, method, origin, headers=None):
    """One request straight into the WSGI callable; returns (status, headers as a dict of lowercase names)."""
    environ = {"REQUEST_METHOD": method, "PATH_INFO": "/mcp", "HTTP_HOST": "127.0.0.1:8000",
               "SERVER_NAME": "127.0.0.1", "wsgi.input": io.BytesIO(b""), "CONTENT_LENGTH": "0",
               "HTTP_ORIGIN": origin}
    environ.update(headers or {})
    seen = {}

    def start_response(status, response_headers, exc_info=None):
        seen["status"], seen["headers"] = status, {k.lower(): v for k, v in response_headers}
    b"".join(app(environ, start_response))
    return seen["status"], seen["headers"]


def test_a_preflight_from_a_configured_origin_allows_the_mcp_headers():
    app = MCPServer("cors").wsgi_app(allowed_origins=["http://apps-host.test"])
    status, headers = call(app, "OPTIONS", "http://apps-host.test",
                           {"HTTP_ACCESS_CONTROL_REQUEST_METHOD": "POST"})
    assert status.startswith("204")
    assert headers["access-control-allow-origin"] == "http://apps-host.test"
    allowed = {h.strip() for h in headers["access-control-allow-headers"].split(",")}
    assert {"mcp-protocol-version", "mcp-session-id", "content-type"} <= allowed
    assert "mcp-session-id" in headers["access-control-expose-headers"]


def test_an_origin_that_is_not_configured_gets_no_cors_headers():
    # The refusal must not carry Access-Control-Allow-Origin for the refused origin, or the
    # browser would hand that page the answer: CORS is for configured origins only.
    app = MCPServer("cors").wsgi_app(allowed_origins=["http://apps-host.test"])
    for method in ("OPTIONS", "POST", "GET", "DELETE"):
        status, headers = call(app, method, "http://elsewhere.test")
        assert status.startswith("403"), (method, status)
        assert not any(name.startswith("access-control-") for name in headers), (method, headers)
