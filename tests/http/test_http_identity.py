"""Sessions and who owns them (issue 28): short signed ids, identities from the auth hook, DELETE
honoured by every worker sharing a store, and the OAuth protected-resource metadata (RFC 9728).
Issue 41: one spelling per session id, a shared store whenever the state key is shared, and the
session lifetime kept by every replica.

Two ``Endpoint``s on one app's state key stand for two workers or replicas; each is a real
stdlib server on 127.0.0.1.
"""

import json

import pytest

from minimcp import Context, MCPServer
from test_http import ACCEPT, Endpoint

ICON = "data:image/png;base64," + "A" * 4500            # the 4.5 KB icon that made an 8.3 KB id


def identity_app(state_key="shared-secret"):
    app = MCPServer("who", state_key=state_key)

    @app.tool()
    def whoami(ctx: Context) -> str:
        return json.dumps(ctx.auth)
    return app


TOKENS = {"Bearer token-a": {"sub": "alice"}, "Bearer token-b": {"sub": "bob"}}


def by_token(headers):
    return TOKENS.get(headers.get("authorization"), False)


@pytest.fixture(autouse=True)
def private_temporary_directory(tmp_path, monkeypatch):
    """A shared state key keeps deleted session ids in a directory of the temporary directory: this test's."""
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))


@pytest.fixture
def started():
    running = []

    def start(app, **options):
        endpoint = Endpoint(app, **options)
        running.append(endpoint)
        return endpoint
    yield start
    for endpoint in running:
        endpoint.close()


def initialize(ep, token=None, info=None):
    headers = {"Authorization": token} if token else {}
    status, response_headers, body = ep.post({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {"sampling": {}, "roots": {"listChanged": True}},
        "clientInfo": info or {"name": "identity-test", "version": "1"}}}, headers)
    assert status == 200, body
    return response_headers["mcp-session-id"]


def call(ep, session, tool, token=None, request_id=2):
    headers = {"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"}
    if token:
        headers["Authorization"] = token
    return ep.post({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                    "params": {"name": tool, "arguments": {}}}, headers)


def test_a_session_id_is_short_and_the_same_size_for_every_client(started):
    ep = started(identity_app())
    plain = initialize(ep)
    iconic = initialize(ep, info={"name": "x" * 2000, "version": "1", "icons": [{"src": ICON}]})
    assert len(plain) == len(iconic) < 200, (len(plain), len(iconic))
    assert "xxxx" not in iconic and all(0x21 <= ord(c) <= 0x7E for c in iconic)
    # another replica: the id alone brings the session back, with the client's capabilities
    app = identity_app()
    seen = {}

    @app.tool()
    def caps(ctx: Context) -> str:
        seen["capabilities"] = ctx.client_capabilities
        return "ok"
    other = started(app)
    status, _, body = call(other, iconic, "caps")
    assert status == 200, body
    assert seen["capabilities"] == {"sampling": {}, "roots": {"listChanged": True}}


def test_a_session_belongs_to_the_identity_that_opened_it(started):
    ep = started(identity_app(), auth=by_token)
    alices = initialize(ep, "Bearer token-a")
    status, _, body = call(ep, alices, "whoami", "Bearer token-a")
    assert status == 200 and json.loads(body["result"]["content"][0]["text"]) == {"sub": "alice"}
    status, _, body = call(ep, alices, "whoami", "Bearer token-b")      # bob holds alice's session id
    assert status == 404 and "Session not found" in body["error"]["message"], body
    replica = started(identity_app(), auth=by_token)                    # nor on another replica
    assert call(replica, alices, "whoami", "Bearer token-b")[0] == 404
    assert call(replica, alices, "whoami", "Bearer token-a")[0] == 200
    status, _, _ = call(ep, alices, "whoami", "Bearer nobody")
    assert status == 401
    # a 2026-07-28 request reads its own identity too
    status, _, body = ep.modern("tools/call", {"name": "whoami", "arguments": {}},
                                headers={"Authorization": "Bearer token-b"})
    assert status == 200 and json.loads(body["result"]["content"][0]["text"]) == {"sub": "bob"}, body


def test_delete_is_honoured_by_every_worker_sharing_the_session_dir(started, tmp_path, monkeypatch):
    monkeypatch.setenv("MINIMCP_SESSION_DIR", str(tmp_path / "sessions"))
    one, two = started(identity_app()), started(identity_app())
    session = initialize(one)
    assert call(two, session, "whoami")[0] == 200                     # worker two serves worker one's session
    connection = two.connect()
    connection.request("DELETE", "/mcp", headers={"Mcp-Session-Id": session})
    assert connection.getresponse().status == 204
    connection.close()
    assert call(one, session, "whoami")[0] == 404                     # before: 200 for up to 24 hours
    restarted = started(identity_app())                               # and after a restart
    assert call(restarted, session, "whoami")[0] == 404


def test_a_pluggable_store_is_asked(started):
    class Store:
        def __init__(self):
            self.revoked = set()

        def revoke(self, session_id):
            self.revoked.add(session_id)

        def is_revoked(self, session_id):
            return session_id in self.revoked
    store = Store()
    one, two = started(identity_app(), session_store=store), started(identity_app(), session_store=store)
    session = initialize(one)
    connection = one.connect()
    connection.request("DELETE", "/mcp", headers={"Mcp-Session-Id": session})
    assert connection.getresponse().status == 204
    connection.close()
    assert store.revoked == {session} and call(two, session, "whoami")[0] == 404


@pytest.mark.parametrize("where", ["wsgi_app", "constructor"])
def test_protected_resource_metadata_is_served_and_named_in_the_challenge(started, where):
    metadata = {"authorization_servers": ["https://auth.example.com"], "scopes_supported": ["mcp"]}
    if where == "constructor":                  # MCPServer(resource_metadata=...), as the issue spells it
        app = MCPServer("who", resource_metadata=metadata)

        @app.tool()
        def whoami() -> str:
            return "x"
        ep = started(app, auth=by_token)
    else:
        ep = started(identity_app(), auth=by_token, resource_metadata=metadata)
    base = "http://127.0.0.1:%d" % ep.port
    for path in ("/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"):
        connection = ep.connect()
        connection.request("GET", path, headers={"Host": "127.0.0.1:%d" % ep.port})
        response = connection.getresponse()
        document = json.loads(response.read())
        connection.close()
        assert response.status == 200 and response.getheader("Content-Type") == "application/json"
        assert document == dict(metadata, resource=base + "/mcp"), document
    connection = ep.connect()
    connection.request("POST", "/mcp", body=b"{}", headers={"Content-Type": "application/json", "Accept": ACCEPT,
                                                           "Host": "127.0.0.1:%d" % ep.port})
    response = connection.getresponse()
    response.read()
    connection.close()
    assert response.status == 401
    challenge = response.getheader("WWW-Authenticate")
    assert challenge.startswith("Bearer ") and \
        'resource_metadata="%s/.well-known/oauth-protected-resource"' % base in challenge, challenge


def test_the_readmes_introspection_hook_binds_sessions_to_the_token_subject(started):
    # The README's RFC 7662 example, run as written against a stand-in introspection endpoint.
    import re
    import threading
    from http.server import BaseHTTPRequestHandler, HTTPServer
    from urllib.parse import parse_qs
    from conftest import ROOT
    readme = open(ROOT + "/README.md", encoding="utf-8").read()
    block = next(b for b in re.findall(r"^```python\n(.*?)^```", readme, flags=re.S | re.M) if "def introspect" in b)
    asked = []

    class Introspection(BaseHTTPRequestHandler):
        def do_POST(self):
            form = parse_qs(self.rfile.read(int(self.headers["Content-Length"])).decode())
            asked.append(self.headers["Authorization"])
            token = form["token"][0]
            claims = {"active": token in ("tok-a", "tok-b"), "scope": "mcp read", "sub": token[-1]}
            body = json.dumps(claims).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            return None
    authority = HTTPServer(("127.0.0.1", 0), Introspection)
    threading.Thread(target=authority.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()  # its shutdown()
    try:
        namespace = {"__name__": "readme_introspection"}
        exec(compile(block.replace("https://auth.example.com/oauth2/introspect",
                                   "http://127.0.0.1:%d/introspect" % authority.server_address[1]),
                     "README.md", "exec"), namespace)
        wsgi = namespace["wsgi"]
        ep = started(namespace["app"], auth=wsgi.auth, resource_metadata=wsgi.resource_metadata)
        session = initialize(ep, "Bearer tok-a")
        status, _, body = call(ep, session, "whoami", "Bearer tok-a")
        assert status == 200 and body["result"]["content"][0]["text"] == "a", body
        assert call(ep, session, "whoami", "Bearer tok-b")[0] == 404
        assert call(ep, session, "whoami", "Bearer tok-x")[0] == 401
        assert asked and all(value.startswith("Basic ") for value in asked)
    finally:
        authority.shutdown()
        authority.server_close()


# -- issue 41: a deleted session never comes back ---------------------------------------------

def respellings(session):
    """What lenient base64 decoders took for ``session``: the same bytes, spelled otherwise."""
    spellings = [session + ".", session + "=", session + "==", "~" + session, session[:30] + "." + session[30:],
                 session + " x", session + "," + session]
    if "-" in session or "_" in session:
        spellings.append(session.replace("-", "+").replace("_", "/"))   # the standard alphabet
    return spellings


def delete(ep, session):
    connection = ep.connect()
    connection.request("DELETE", "/mcp", headers={"Mcp-Session-Id": session})
    status = connection.getresponse().status
    connection.close()
    return status


def session_with_dash_or_underscore(ep):
    for _ in range(40):                          # 87% of ids have one: the standard alphabet's +/ then differ
        session = initialize(ep)
        if "-" in session or "_" in session:
            return session
    raise AssertionError("40 session ids without - or _")


@pytest.mark.parametrize("session_dir", [True, False], ids=["MINIMCP_SESSION_DIR", "derived-from-the-key"])
def test_a_session_id_has_one_spelling_and_a_deleted_one_stays_deleted(started, tmp_path, monkeypatch, session_dir):
    if session_dir:
        monkeypatch.setenv("MINIMCP_SESSION_DIR", str(tmp_path / "sessions"))
    else:
        monkeypatch.delenv("MINIMCP_SESSION_DIR", raising=False)
    one, two = started(identity_app()), started(identity_app())     # two workers sharing the key
    session = session_with_dash_or_underscore(one)
    assert call(one, session, "whoami")[0] == call(two, session, "whoami")[0] == 200
    for spelling in respellings(session):        # not the session, even while it lives
        assert [call(ep, spelling, "whoami")[0] for ep in (one, two)] == [404, 404], spelling
    assert delete(two, session) == 204
    for spelling in [session] + respellings(session):
        assert [call(ep, spelling, "whoami")[0] for ep in (one, two, started(identity_app()))] == [404] * 3, spelling
    if not session_dir:                          # the store the key named, in this test's temporary directory
        (store,) = [path for path in tmp_path.iterdir() if path.name.startswith("minimcp-sessions-")]
        assert (store / "minimcp-sessions.sqlite3").exists() and store.stat().st_mode & 0o777 == 0o700


def test_a_key_of_the_processs_own_keeps_deletions_in_memory(started, tmp_path, monkeypatch):
    monkeypatch.delenv("MINIMCP_SESSION_DIR", raising=False)
    monkeypatch.delenv("MINIMCP_STATE_KEY", raising=False)
    ep = started(identity_app(state_key=None))
    session = initialize(ep)
    assert delete(ep, session) == 204 and call(ep, session, "whoami")[0] == 404
    assert not any(path.name.startswith("minimcp-sessions-") for path in tmp_path.iterdir())


def test_a_directory_for_deleted_ids_that_others_may_use_is_refused(tmp_path, monkeypatch):
    monkeypatch.delenv("MINIMCP_SESSION_DIR", raising=False)
    app = identity_app()
    app.wsgi_app(session_store=None)             # makes the key's directory
    (store,) = [path for path in tmp_path.iterdir() if path.name.startswith("minimcp-sessions-")]
    store.chmod(0o777)                           # as another user could have made it, writable by all
    with pytest.raises(RuntimeError, match="MINIMCP_SESSION_DIR"):
        app.wsgi_app()


class Clock:
    """``minimcp.time`` with a wall clock that a test moves on (the monotonic one untouched)."""

    def __init__(self):
        import time
        self.real, self.offset = time, 0.0

    def time(self):
        return self.real.time() + self.offset

    def __getattr__(self, name):
        return getattr(self.real, name)


def test_a_session_past_its_lifetime_is_gone_on_every_replica_its_own_first(started, monkeypatch):
    import minimcp
    import minimcp_http
    clock = Clock()
    for module in (minimcp, minimcp_http):        # the core's clock and the HTTP component's (its own import)
        monkeypatch.setattr(module, "time", clock)
    holder = started(identity_app(), session_lifetime=60, keepalive=0.1)
    other, fresh = started(identity_app()), started(identity_app())
    session = initialize(holder)
    assert call(holder, session, "whoami")[0] == call(other, session, "whoami")[0] == 200
    stream = holder.connect()
    stream.request("GET", "/mcp", headers={"Mcp-Session-Id": session, "Accept": "text/event-stream"})
    response = stream.getresponse()
    assert response.status == 200 and response.fp.readline() == b": stream open\n"
    clock.offset = 61.0                          # a minute later: past the id's expiry
    assert response.read().count(b"event:") == 0           # the GET stream ended with its session
    stream.close()
    for ep in (holder, other, fresh):            # the replica that opened it, one that served it, a new one
        status, _, body = call(ep, session, "whoami")
        assert status == 404 and "Session not found" in body["error"]["message"], (ep.port, body)


def test_an_expired_session_is_refused_before_anything_is_made_for_it(started, monkeypatch):
    # mcp 1.x's servers enter their lifespan for each session: a replica must not enter one for an
    # id that has expired (nor serve it).
    import contextlib
    import minimcp
    entered = []

    def per_session_app():
        @contextlib.contextmanager
        def lifespan(server):
            entered.append(server)
            yield {}
        app = minimcp.FastMCP("who", lifespan=lifespan)
        app.tool()(lambda: "ok", name="whoami")
        return app
    monkeypatch.setenv("MINIMCP_STATE_KEY", "shared-secret")
    ep = started(per_session_app(), session_lifetime=0)     # expired the second it is issued
    session = initialize(ep)
    assert call(ep, session, "whoami")[0] == 404 and len(entered) == 1
    assert call(started(per_session_app()), session, "whoami")[0] == 404
    assert len(entered) == 1, "a lifespan was entered for an expired session"


def test_several_processes_with_keys_of_their_own_are_told_to_share_one(monkeypatch, caplog):
    import io
    monkeypatch.delenv("MINIMCP_STATE_KEY", raising=False)
    wsgi = identity_app(state_key=None).wsgi_app()
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}).encode()
    environ = {"REQUEST_METHOD": "POST", "PATH_INFO": "/mcp", "HTTP_HOST": "127.0.0.1", "SERVER_PROTOCOL": "HTTP/1.1",
               "CONTENT_TYPE": "application/json", "HTTP_ACCEPT": ACCEPT, "CONTENT_LENGTH": str(len(body)),
               "wsgi.multiprocess": True}                 # as gunicorn --workers 3 says
    for _ in range(2):
        b"".join(wsgi(dict(environ, **{"wsgi.input": io.BytesIO(body)}), lambda status, headers: None))
    warnings = [record.getMessage() for record in caplog.records if "MINIMCP_STATE_KEY" in record.getMessage()]
    assert len(warnings) == 1, warnings                   # said once, not per request
