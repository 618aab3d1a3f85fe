"""The bridge's sign-in (issue 40), on the wire: a spawned bridge, minimcp's HTTP server behind
Bearer tokens, and a small authorization server on loopback (tests/oauth_server.py); the
browser is tests/interop/oauth_browser.py (``BROWSER``), which logs every tab it opens.

What is checked: one sign-in, in one tab, however many bridges want it (the others wait on
the file lock, a killed holder's sign-in is finished by the next bridge); tokens in a 0600 file
that a restarted bridge reuses; refresh before expiry and on a 401, a new sign-in when refresh
fails; each failure a JSON-RPC error to the host that names its likely fix.
"""

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from urllib.parse import parse_qsl, urlsplit

import pytest

from bridge_harness import BRIDGE, INIT_PARAMS, bridge, upstream  # noqa: F401 - fixtures
from conftest import ROOT
from oauth_server import BROWSER_SCRIPT, AuthServer, protect

sys.path.insert(0, os.path.join(ROOT, "tests", "interop"))
import oauth_browser  # noqa: E402

pytestmark = pytest.mark.skipif(os.name != "posix", reason="BROWSER is an executable script here")


@pytest.fixture
def auth():
    server = AuthServer()
    yield server
    server.close()


@pytest.fixture
def protected(upstream, auth):
    """``protected(**options) -> Upstream``: minimcp's HTTP server behind ``auth``'s tokens (``protect``'s options)."""
    def start(**options):
        server = upstream()
        protect(server, auth, **options)
        return server
    return start


@pytest.fixture
def signin(tmp_path):
    """``signin(mode="follow") -> env``: the browser (``follow``: signs in; ``record``: only opens
    the tab), its log, and the sign-in folder, all under the test's tmp_path."""
    def make(mode="follow"):
        return {"BROWSER": BROWSER_SCRIPT, "OAUTH_BROWSER_MODE": mode, "OAUTH_BROWSER_LOG": str(tmp_path / "tabs"),
                "MINIMCP_OAUTH_DIR": str(tmp_path / "oauth")}
    make.tabs = lambda: (tmp_path / "tabs").read_text().splitlines() if (tmp_path / "tabs").exists() else []
    make.folder = tmp_path / "oauth"
    make.token_file = lambda: _token_file(tmp_path / "oauth")
    return make


def _token_file(folder):
    files = sorted(folder.glob("*.json"))
    assert len(files) == 1, files
    return files[0]


def _until(condition, what, timeout=15.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "never: " + what
        time.sleep(0.02)


def _initialize(host):
    return host.request("initialize", INIT_PARAMS, timeout=30)


def test_a_401_signs_in_once_in_the_browser_and_keeps_the_tokens_in_a_0600_file(bridge, protected, auth, signin):
    server = protected(scope="mcp:read")
    auth.scopes_supported = ["mcp:read", "offline_access"]
    host = bridge(server.url, env=signin())
    assert host.initialize()["serverInfo"]["name"] == "everything"
    assert host.request("tools/call", {"name": "echo", "arguments": {"text": "hi"}})["result"]["content"][0]["text"]
    assert len(signin.tabs()) == 1
    [asked] = auth.of("/authorize")
    assert asked["code_challenge_method"] == "S256" and asked["resource"] == server.url and asked["state"]
    assert asked["scope"] == "mcp:read offline_access"          # the challenge's, and a refresh token asked for
    [registered] = auth.of("/register")
    assert registered["application_type"] == "native" and "refresh_token" in registered["grant_types"]
    assert registered["redirect_uris"] == [asked["redirect_uri"]] and asked["redirect_uri"].startswith(
        "http://127.0.0.1:")
    [exchange] = auth.of("/token")
    assert exchange["code_verifier"] and exchange["resource"] == server.url
    path = signin.token_file()
    assert os.stat(path).st_mode & 0o777 == 0o600 and os.stat(signin.folder).st_mode & 0o777 == 0o700
    record = json.loads(path.read_text())
    assert record["format"] == "minimcp-oauth-1" and record["server"] == server.url
    token = record["token"]["access_token"]
    assert [h.get("authorization") for verb, h, _ in server.requests if verb == "POST"][-2:] == ["Bearer " + token] * 2
    assert host.close() == 0
    assert token not in host.stderr and record["token"]["refresh_token"] not in host.stderr


def test_bridges_that_want_the_same_sign_in_wait_for_the_one_that_opened_the_browser(bridge, protected, auth, signin):
    server = protected()
    first = bridge(server.url, env=signin("record"))
    first.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INIT_PARAMS})
    _until(lambda: signin.tabs(), "the first bridge opened the browser")
    second = bridge(server.url, env=signin("record"))
    second.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INIT_PARAMS})
    assert second.said("another bridge (process %d) is signing in" % first.process.pid, timeout=15)
    oauth_browser.follow(signin.tabs()[0])             # the person finishes the sign-in in the one tab
    assert "result" in first.answer_to(1, timeout=30) and "result" in second.answer_to(1, timeout=30)
    assert len(signin.tabs()) == 1 and len(auth.of("/authorize")) == 1 and len(auth.of("/register")) == 1
    assert second.said("using the sign-in to %s that another bridge stored" % server.url)


def test_a_browser_connection_that_sends_nothing_does_not_hold_up_the_redirect(bridge, protected, auth, signin):
    """Browsers open connections ahead of need; the redirect's listener serves each on its own
    (one left silent would otherwise hold it for the 10 s a request may take)."""
    server = protected()
    host = bridge(server.url, env=signin("record"))
    host.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INIT_PARAMS})
    _until(lambda: signin.tabs(), "the bridge opened the browser")
    redirect = dict(parse_qsl(urlsplit(signin.tabs()[0]).query))["redirect_uri"]
    with socket.create_connection(("127.0.0.1", urlsplit(redirect).port)):     # silent until the end
        person = threading.Thread(target=oauth_browser.follow, args=(signin.tabs()[0],), daemon=True)
        person.start()
        assert "result" in host.answer_to(1, timeout=8)
    person.join(30)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a display is a Linux desktop's question")
def test_with_no_display_and_no_browser_the_url_is_on_stderr_to_open_elsewhere(bridge, protected, auth, signin):
    server = protected()
    env = dict(signin(), BROWSER="", DISPLAY="", WAYLAND_DISPLAY="")   # a headless host: no console browser started
    host = bridge(server.url, env=env)
    host.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INIT_PARAMS})
    assert host.said("no display here to open a browser on (and no BROWSER): open ")
    url = re.search(r"open (http://\S+) where there is one", host.stderr).group(1)
    oauth_browser.follow(url)                            # opened on another machine, the port forwarded
    assert "result" in host.answer_to(1, timeout=30) and not signin.tabs()


def test_a_sign_in_whose_bridge_was_killed_is_finished_by_the_next_in_the_same_tab(bridge, protected, auth, signin):
    server = protected()
    first = bridge(server.url, env=signin("record"))
    first.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INIT_PARAMS})
    _until(lambda: (json.loads(signin.token_file().read_text()).get("pending") or {}).get("opened")
           if list(signin.folder.glob("*.json")) else False, "the sign-in is recorded as open in the browser")
    first.process.send_signal(signal.SIGKILL)              # a host that kills the bridge mid-flow
    first.process.wait(10)
    second = bridge(server.url, env=signin("record"))
    second.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INIT_PARAMS})
    assert second.said("still open in the browser", timeout=15)
    oauth_browser.follow(signin.tabs()[0])             # the tab the first bridge opened, finished now
    assert "result" in second.answer_to(1, timeout=30)
    assert len(signin.tabs()) == 1 and len(auth.of("/authorize")) == 1


def test_a_restarted_bridge_uses_the_stored_token_without_a_browser(bridge, protected, auth, signin):
    server = protected()
    first = bridge(server.url, env=signin())
    first.initialize()
    assert first.close() == 0
    refused = len(server.refused)
    second = bridge(server.url, env=signin())
    second.initialize()
    assert len(signin.tabs()) == 1 and auth.grants() == ["authorization_code"]
    assert len(server.refused) == refused                  # its first request carried the token


def test_an_expired_token_is_refreshed_before_it_is_sent(bridge, protected, auth, signin):
    server = protected()
    first = bridge(server.url, env=signin())
    first.initialize()
    assert first.close() == 0
    auth.expire_access_tokens()                            # an hour later: the server refuses it...
    path = signin.token_file()
    record = json.loads(path.read_text())
    record["token"]["expires_at"] = time.time() - 1        # ...and the bridge knows it has expired
    path.write_text(json.dumps(record))
    refused = len(server.refused)
    second = bridge(server.url, env=signin())
    second.initialize()
    assert auth.grants() == ["authorization_code", "refresh_token"] and len(signin.tabs()) == 1
    assert len(server.refused) == refused                  # refreshed before sending, not after a 401
    assert json.loads(path.read_text())["token"]["refresh_token"] != record["token"]["refresh_token"]   # rotated


def test_a_401_refreshes_the_token_and_the_request_goes_through(bridge, protected, auth, signin):
    server = protected()
    host = bridge(server.url, env=signin())
    host.initialize()
    host.request("ping")                                   # (after notifications/initialized, in the host's order)
    auth.expire_access_tokens()                            # the server's clock says expired, the bridge's not yet
    answer = host.request("tools/call", {"name": "echo", "arguments": {"text": "again"}})
    assert answer["result"]["content"][0]["text"]
    assert auth.grants() == ["authorization_code", "refresh_token"] and len(signin.tabs()) == 1


def test_a_stored_token_that_expired_meanwhile_is_not_taken_for_a_fresh_one(bridge, protected, auth, signin):
    """A bridge that runs for long finds, after a 401, what a bridge since gone stored: a token
    that has expired, with no refresh token. It signs in again (one tab), rather than retrying
    with that token and then calling the server's refusal of it a refusal of a fresh token."""
    server = protected()
    first = bridge(server.url, env=signin())
    first.initialize()
    assert first.close() == 0
    host = bridge(server.url, env=signin())
    host.initialize()                                      # holds the first token
    host.request("ping")                                   # (after notifications/initialized, in the host's order)
    auth.expire_access_tokens()
    path = signin.token_file()
    record = json.loads(path.read_text())
    record["token"].update(access_token="stored-by-a-bridge-since-gone", expires_at=time.time() - 1,
                           refresh_token=None)
    path.write_text(json.dumps(record))
    answer = host.request("tools/call", {"name": "echo", "arguments": {"text": "later"}}, timeout=30)
    assert answer["result"]["content"][0]["text"]
    assert auth.grants() == ["authorization_code", "authorization_code"] and len(signin.tabs()) == 2


def test_a_token_that_cannot_be_refreshed_starts_one_new_sign_in(bridge, protected, auth, signin):
    server = protected()
    host = bridge(server.url, env=signin())
    host.initialize()
    host.request("ping")                                   # (after notifications/initialized, in the host's order)
    auth.revoke_all()                                      # access and refresh tokens both gone
    answer = host.request("tools/call", {"name": "echo", "arguments": {"text": "again"}}, timeout=30)
    assert answer["result"]["content"][0]["text"]
    assert auth.grants() == ["authorization_code", "refresh_token", "authorization_code"]
    assert len(signin.tabs()) == 2 and len(auth.of("/register")) == 1      # the registration is reused


def test_client_credentials_sign_in_without_a_browser(bridge, protected, auth, signin, tmp_path):
    server = protected()
    auth.clients["machine"] = {"client_id": "machine", "client_secret": "s3cret", "redirect_uris": []}
    secret = tmp_path / "secret"
    secret.write_text("s3cret\n")
    secret.chmod(0o600)
    host = bridge(server.url, "--client-credentials", "--client-id", "machine", "--client-secret-file", str(secret),
                  env=signin())
    host.initialize()
    assert auth.grants() == ["client_credentials"] and not signin.tabs()
    assert auth.of("/token")[0]["authorization"].startswith("Basic ")   # the method the server lists first
    assert "s3cret" not in host.stderr


def test_logout_revokes_the_token_and_forgets_the_sign_in(bridge, protected, auth, signin):
    server = protected()
    host = bridge(server.url, env=signin())
    host.initialize()
    assert host.close() == 0
    path = signin.token_file()
    refresh = json.loads(path.read_text())["token"]["refresh_token"]
    done = subprocess.run(BRIDGE + [server.url, "--logout"], env=dict(os.environ, **signin()),
                          stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
    assert done.returncode == 0 and done.stdout == b""
    assert b"signed out of " + server.url.encode() in done.stderr
    assert not path.exists() and [r["token"] for r in auth.of("/revoke")] == [refresh] and not auth.refresh_tokens


# -- failures: a JSON-RPC error that says why, never a hang -------------------------------------

def _refused(host):
    answer = _initialize(host)
    assert "error" in answer, answer
    return answer["error"]["message"]


def test_metadata_for_another_resource_is_refused(bridge, protected, auth, signin):
    server = protected(resource="https://evil.example.com/mcp")
    message = _refused(bridge(server.url, env=signin()))
    assert "sign-in failed" in message and "https://evil.example.com/mcp" in message and "refusing" in message
    assert not auth.requests and not signin.tabs()


def test_authorization_server_metadata_naming_another_issuer_is_refused(bridge, protected, auth, signin):
    server = protected()
    auth.issuer_override = "https://elsewhere.example"
    message = _refused(bridge(server.url, env=signin()))
    assert "names the issuer 'https://elsewhere.example'" in message and "RFC 8414" in message
    assert not auth.of("/register") and not signin.tabs()


def test_an_unreachable_authorization_server_names_the_fix(bridge, protected, auth, signin):
    import socket
    server = protected()
    with socket.socket() as held:
        # The server names, as its authorization server, a port bound and never listening: refused,
        # and, unlike a closed server's port, not free for another test's server to take meanwhile.
        held.bind(("127.0.0.1", 0))
        auth.url = "http://127.0.0.1:%d" % held.getsockname()[1]
        message = _refused(bridge(server.url, env=signin()))
    assert "refused the connection" in message and "is the server running?" in message, message


def test_no_answer_from_the_browser_ends_with_the_redirect_uri_to_check(bridge, protected, auth, signin):
    server = protected()
    host = bridge(server.url, "--login-timeout", "1", env=signin("record"))
    message = _refused(host)
    assert "no answer from the browser within 1 s" in message and "http://127.0.0.1:" in message
    assert "--callback-port" in message
    assert "pending" not in json.loads(signin.token_file().read_text())       # nothing left to take over


def test_a_denied_sign_in_is_told_to_the_host(bridge, protected, auth, signin):
    server = protected()
    auth.deny = True
    message = _refused(bridge(server.url, env=signin()))
    assert "access_denied" in message and "denied or cancelled" in message, message
    assert not auth.of("/token")


def test_a_server_that_refuses_every_token_gets_one_sign_in_not_a_loop_of_tabs(bridge, protected, auth, signin):
    server = protected(accept=lambda token: False)          # tokens for another audience, or a clock far off
    auth.clock_offset = -600
    host = bridge(server.url, env=signin())
    message = _refused(host)
    assert "refused the token %s just issued" % auth.url in message and "another resource" in message, message
    told = re.search(r"or the clocks differ \(this machine's is (\d+) s off the authorization server's\)", message)
    assert told and abs(int(told.group(1)) - 600) <= 1, message            # Date headers count whole seconds
    assert host.said("s ahead of the authorization server's: tokens may look expired")
    assert abs(int(re.search(r"this machine's clock is (\d+) s ahead", host.stderr).group(1)) - 600) <= 1
    assert len(signin.tabs()) == 1 and auth.grants() == ["authorization_code"]


def test_a_registration_refused_or_not_offered_says_to_register_a_client(bridge, protected, auth, signin):
    server = protected()
    auth.refuse_registration = True
    message = _refused(bridge(server.url, env=signin()))
    assert "refused to register this client (invalid_redirect_uri: loopback not allowed)" in message
    assert "--client-id ID and --callback-port" in message
    auth.registration = False
    message = _refused(bridge(server.url, env=signin()))
    assert "offers neither client registration (RFC 7591) nor client ID metadata documents" in message
    assert "--client-id ID" in message and not signin.tabs()


def test_a_callback_port_that_is_taken_is_named(bridge, protected, auth, signin):
    server = protected()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        message = _refused(bridge(server.url, "--callback-port", str(port), env=signin()))
    assert "cannot take the loopback port %d" % port in message and "another --callback-port" in message
    assert not signin.tabs()


def test_a_client_secret_is_never_taken_from_the_command_line(upstream, tmp_path):
    server = upstream()
    done = subprocess.run(BRIDGE + [server.url, "--client-id", "c", "--client-secret", "plain"], capture_output=True,
                          stdin=subprocess.DEVNULL, timeout=30, env=dict(os.environ, MINIMCP_OAUTH_DIR=str(tmp_path)))
    assert done.returncode != 0 and b"visible to every user" in done.stderr and not server.requests


# -- the token file and its lock, in processes of their own ------------------------------------------
#
# minimcp_bridge is never imported into pytest's process: it plugs itself into the minimcp of
# the process that imports it, and only the processes that run the bridge import it.

def _python(code: str, *args, stdin=None) -> subprocess.Popen:
    """A Python process running ``code`` (minimcp_bridge importable: minimcp is imported first,
    and a bundle saved as minimcp.py then answers for it), its stdout a pipe of lines."""
    return subprocess.Popen([sys.executable, "-c", "import sys; sys.path.insert(0, %r); import minimcp\n" % ROOT + code]
                            + list(args), stdin=stdin, stdout=subprocess.PIPE, universal_newlines=True)


def _output(code: str, *args) -> list:
    """The JSON lines ``code`` printed, once it exited (with status 0)."""
    process = _python(code, *args)
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 0, out
    return [json.loads(line) for line in out.splitlines()]


_UMASK = """
import json, os, minimcp_bridge
store = minimcp_bridge.TokenStore(sys.argv[1], "https://example.com/mcp", "registered")
os.umask(0)
store.save({"token": {"access_token": "a"}})
store.save({"token": {"access_token": "b"}})          # replaced whole, 0600 from its first byte
print(json.dumps([os.stat(store.path).st_mode & 0o777, os.stat(sys.argv[1]).st_mode & 0o777,
                  store.load()["token"], sorted(os.listdir(sys.argv[1])), os.path.basename(store.path)]))
"""


def test_the_token_file_is_0600_whatever_the_umask(tmp_path):
    [(mode, folder, token, files, name)] = _output(_UMASK, str(tmp_path / "oauth"))
    assert mode == 0o600 and folder == 0o700 and token == {"access_token": "b"} and files == [name]


_HOLDER = """
import time, minimcp_bridge
lock = minimcp_bridge.FileLock(sys.argv[1])
assert lock.acquire(5)
print("locked", flush=True)
time.sleep(60)
"""
_CONTENDER = """
import minimcp_bridge
lock, waited = minimcp_bridge.FileLock(sys.argv[1]), []
print(lock.acquire(0.3, on_wait=lambda: waited.append(True)), waited, flush=True)
sys.stdin.readline()                                   # the holder is dead now
print(lock.acquire(5), flush=True)
other = minimcp_bridge.FileLock(sys.argv[1])
print(other.acquire(0.1), flush=True)
lock.release()
print(other.acquire(1), flush=True)
"""


def test_a_killed_holder_leaves_no_stale_lock(tmp_path):
    path = str(tmp_path / "server.lock")
    holder = _python(_HOLDER, path)
    assert holder.stdout.readline() == "locked\n"
    contender = _python(_CONTENDER, path, stdin=subprocess.PIPE)
    try:
        assert contender.stdout.readline() == "False [True]\n"        # held: it waited, and was told so
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
        out, _ = contender.communicate("go\n", timeout=30)
        assert out.split() == ["True", "False", "True"]                 # the OS dropped the dead holder's lock
    finally:
        for process in (holder, contender):
            process.kill()
            process.wait(10)
            process.stdout.close()


_WINDOWS = """
import json, os, minimcp_bridge
held, calls = {}, []

class FakeMsvcrt:
    # msvcrt.locking as Windows behaves: a one-byte lock at the file's offset 0, refused
    # (OSError) while another handle holds it, released by LK_UNLCK.
    LK_NBLCK, LK_UNLCK = 2, 0

    @staticmethod
    def locking(fd, mode, nbytes):
        calls.append((mode, nbytes, os.lseek(fd, 0, os.SEEK_CUR)))
        key = os.fstat(fd).st_ino
        if mode == FakeMsvcrt.LK_NBLCK:
            if key in held:
                raise OSError(36, "Resource deadlock avoided")
            held[key] = fd
        elif held.pop(key) != fd:
            raise AssertionError("unlocked by another handle")
sys.modules["msvcrt"] = FakeMsvcrt
first, second = minimcp_bridge.FileLock(sys.argv[1], windows=True), minimcp_bridge.FileLock(sys.argv[1], windows=True)
steps = [first.acquire(1), second.acquire(0.2)]
first.release()
steps.append(second.acquire(1))
second.release()
print(json.dumps([steps, len(held), sorted(set(calls))]))
"""


def test_the_windows_lock_takes_turns_through_msvcrt(tmp_path):
    [(steps, still_held, calls)] = _output(_WINDOWS, str(tmp_path / "server.lock"))
    assert steps == [True, False, True] and still_held == 0
    assert calls == [[0, 1, 0], [2, 1, 0]]                 # one byte at offset 0, locked and unlocked
