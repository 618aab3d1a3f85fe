"""A small OAuth 2.1 authorization server on loopback, and a protected upstream, for the bridge's sign-in tests.

- ``AuthServer``: RFC 8414 metadata, RFC 7591 registration, the authorization endpoint (it
  approves at once and redirects, as a person who is signed in already would), the token
  endpoint (authorization code with PKCE S256, refresh tokens rotated, client credentials,
  client_secret_basic / client_secret_post / none), RFC 7009 revocation. It records what it
  was asked, and the test can expire or revoke what it issued.
- ``protect(upstream, auth)``: minimcp's own HTTP server (``bridge_harness.Upstream``) behind
  Bearer tokens of that server: RFC 9728 metadata, 401 with ``WWW-Authenticate`` otherwise.
- ``BROWSER_SCRIPT``: tests/interop/oauth_browser.py, the stand-in browser (``BROWSER=``).
"""

import base64
import hashlib
import http.server
import json
import os
import secrets
import socketserver
import threading
import time
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit

from conftest import ROOT

BROWSER_SCRIPT = os.path.join(ROOT, "tests", "interop", "oauth_browser.py")


class _Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


class AuthServer:
    """An authorization server on 127.0.0.1; its answers follow the attributes set by the test.

    Attributes (set before the bridge signs in):
        expires_in: access token lifetime in seconds.
        refresh: whether refresh tokens are issued.
        auth_methods: ``token_endpoint_auth_methods_supported``.
        scopes_supported, iss_supported, registration: what the metadata offers.
        deny: the authorization endpoint answers ``error=access_denied``.
        issuer_override: the metadata's ``issuer`` (a mismatch test).
        refuse_registration: the registration endpoint answers ``invalid_redirect_uri``.
        clock_offset: seconds added to the time its ``Date`` headers give (a clock skew test).
    """

    def __init__(self) -> None:
        self.expires_in = 3600
        self.refresh = True
        self.auth_methods = ["none", "client_secret_basic", "client_secret_post"]
        self.scopes_supported = None
        self.iss_supported = True
        self.registration = True
        self.deny = False
        self.issuer_override = None
        self.refuse_registration = False
        self.clock_offset = 0
        self.clients = {}                # client_id -> registration
        self.codes = {}
        self.access = {}                 # token -> {"expires_at", "scopes", "resource", "client_id"}
        self.refresh_tokens = {}
        self.requests = []               # (path, params) of every request
        self.lock = threading.Lock()
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def date_time_string(self, timestamp=None):
                return super().date_time_string(time.time() + server.clock_offset)

            def do_GET(self):
                server._dispatch(self, "GET")

            def do_POST(self):
                server._dispatch(self, "POST")
        self.httpd = _Server(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    # -- what the test reads ---------------------------------------------------------------------
    def of(self, path: str) -> list:
        return [params for where, params in self.requests if where == path]

    def grants(self) -> list:
        return [params.get("grant_type") for params in self.of("/token")]

    def valid(self, token: str) -> bool:
        with self.lock:
            issued = self.access.get(token)
        return issued is not None and issued["expires_at"] > time.time()

    def expire_access_tokens(self) -> None:
        with self.lock:
            for issued in self.access.values():
                issued["expires_at"] = 0

    def revoke_all(self) -> None:
        with self.lock:
            self.access.clear()
            self.refresh_tokens.clear()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(10)

    # -- the endpoints ----------------------------------------------------------------------------
    def metadata(self) -> dict:
        document = {"issuer": self.issuer_override or self.url, "authorization_endpoint": self.url + "/authorize",
                    "token_endpoint": self.url + "/token", "revocation_endpoint": self.url + "/revoke",
                    "response_types_supported": ["code"], "code_challenge_methods_supported": ["S256"],
                    "grant_types_supported": ["authorization_code", "refresh_token", "client_credentials"],
                    "token_endpoint_auth_methods_supported": self.auth_methods,
                    "authorization_response_iss_parameter_supported": self.iss_supported}
        if self.registration:
            document["registration_endpoint"] = self.url + "/register"
        if self.scopes_supported is not None:
            document["scopes_supported"] = self.scopes_supported
        return document

    def _dispatch(self, handler, verb: str) -> None:
        parts = urlsplit(handler.path)
        params = dict(parse_qsl(parts.query))
        body = handler.rfile.read(int(handler.headers.get("Content-Length") or 0)) if verb == "POST" else b""
        if handler.headers.get("Content-Type", "").startswith("application/json"):
            params.update(json.loads(body or b"{}"))
        else:
            params.update(parse_qsl(body.decode("utf-8")))
        params["authorization"] = handler.headers.get("Authorization")
        self.requests.append((parts.path, params))
        route = {("GET", "/.well-known/oauth-authorization-server"): self._metadata,
                 ("POST", "/register"): self._register, ("GET", "/authorize"): self._authorize,
                 ("POST", "/token"): self._token, ("POST", "/revoke"): self._revoke}.get((verb, parts.path))
        if route is None:
            return _json(handler, 404, {"error": "not_found"})
        route(handler, params)

    def _metadata(self, handler, params) -> None:
        _json(handler, 200, self.metadata())

    def _register(self, handler, params) -> None:
        if self.refuse_registration:
            return _json(handler, 400, {"error": "invalid_redirect_uri", "error_description": "loopback not allowed"})
        method = params.get("token_endpoint_auth_method") or "client_secret_basic"
        client = {"client_id": "client-" + secrets.token_hex(4), "redirect_uris": params.get("redirect_uris") or [],
                  "token_endpoint_auth_method": method}
        if method != "none":
            client["client_secret"] = secrets.token_hex(8)
        self.clients[client["client_id"]] = client
        _json(handler, 201, client)

    def _authorize(self, handler, params) -> None:
        client = self.clients.get(params.get("client_id"))
        if client is None or params.get("redirect_uri") not in client["redirect_uris"]:
            return _json(handler, 400, {"error": "invalid_request", "error_description": "unknown client or "
                                        "redirect URI"})           # shown in the browser, never redirected
        back = {"state": params.get("state"), "iss": self.url}
        if self.deny:
            back.update(error="access_denied", error_description="the user said no")
        else:
            code = secrets.token_hex(8)
            self.codes[code] = dict(params)
            back["code"] = code
        handler.send_response(302)
        handler.send_header("Location", params["redirect_uri"] + "?" + urlencode(back))
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    def _client_of(self, params):
        """The authenticated client of a token request, or None."""
        client = self.clients.get(params.get("client_id"))
        if client is None:
            return None
        secret = params.get("client_secret")
        basic = params.get("authorization") or ""
        if basic.startswith("Basic "):
            pair = base64.b64decode(basic[6:]).decode("utf-8")
            client_id, _, secret = pair.partition(":")
            if unquote(client_id) != client["client_id"]:
                return None
            secret = unquote(secret)
        if client.get("client_secret") is not None and secret != client["client_secret"]:
            return None
        return client

    def _token(self, handler, params) -> None:
        client = self._client_of(params)
        if client is None:
            return _json(handler, 401, {"error": "invalid_client"})
        grant = params.get("grant_type")
        if grant == "authorization_code":
            asked = self.codes.pop(params.get("code"), None)
            verifier = params.get("code_verifier") or ""
            challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
            if asked is None or asked.get("code_challenge") != challenge or \
                    asked.get("redirect_uri") != params.get("redirect_uri"):
                return _json(handler, 400, {"error": "invalid_grant"})
            scopes = (asked.get("scope") or "").split()
        elif grant == "refresh_token":
            with self.lock:
                previous = self.refresh_tokens.pop(params.get("refresh_token"), None)   # rotated: single use
            if previous is None:
                return _json(handler, 400, {"error": "invalid_grant", "error_description": "unknown refresh token"})
            scopes = previous["scopes"]
        elif grant == "client_credentials":
            scopes = (params.get("scope") or "").split()
        else:
            return _json(handler, 400, {"error": "unsupported_grant_type"})
        token = "at-" + secrets.token_hex(12)
        answer = {"access_token": token, "token_type": "Bearer", "expires_in": self.expires_in,
                  "scope": " ".join(scopes)}
        with self.lock:
            self.access[token] = {"expires_at": time.time() + self.expires_in, "scopes": scopes,
                                  "resource": params.get("resource"), "client_id": client["client_id"]}
            if self.refresh and grant != "client_credentials":
                answer["refresh_token"] = "rt-" + secrets.token_hex(12)
                self.refresh_tokens[answer["refresh_token"]] = {"scopes": scopes}
        _json(handler, 200, answer)

    def _revoke(self, handler, params) -> None:
        with self.lock:
            self.refresh_tokens.pop(params.get("token"), None)
            self.access.pop(params.get("token"), None)
        _json(handler, 200, {})


def _json(handler, status: int, document) -> None:
    data = json.dumps(document).encode("utf-8")
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


def protect(upstream, auth: AuthServer, scope: str = None, resource: str = None, accept=None) -> None:
    """Put ``upstream`` (a ``bridge_harness.Upstream``) behind Bearer tokens of ``auth``:
    RFC 9728 metadata at the path's well-known URL, 401 with a challenge without a valid token.
    ``resource``: the metadata's (a mismatch test); ``scope``: the challenge's; ``accept(token)``:
    whether a token will do (default: ``auth`` issued it and it has not expired)."""
    accept = accept or auth.valid
    inner = upstream.httpd.application
    metadata_path = "/.well-known/oauth-protected-resource/mcp"
    metadata_url = "http://127.0.0.1:%d%s" % (upstream.port, metadata_path)
    upstream.refused = []                # the Authorization header of each request refused

    def guarded(environ, start_response):
        if environ.get("PATH_INFO") == metadata_path:
            data = json.dumps({"resource": resource or upstream.url, "authorization_servers": [auth.url]}).encode()
            start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(data)))])
            return [data]
        header = environ.get("HTTP_AUTHORIZATION") or ""
        if not (header.startswith("Bearer ") and accept(header[7:])):
            upstream.refused.append(header)
            challenge = 'Bearer resource_metadata="%s"' % metadata_url + (', scope="%s"' % scope if scope else "")
            if header:
                challenge += ', error="invalid_token"'
            data = b'{"error": "invalid_token"}'
            start_response("401 Unauthorized", [("WWW-Authenticate", challenge), ("Content-Type", "application/json"),
                                                ("Content-Length", str(len(data)))])
            return [data]
        return inner(environ, start_response)
    upstream.httpd.application = guarded
