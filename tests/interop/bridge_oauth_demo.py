#!/usr/bin/env python3
"""The bridge signing in to the official SDK's OAuth demo (simple-auth), as hosts start it.

    bridge_oauth_demo.py sign-in RS_URL WORK     two bridges at once, then a restarted one
    bridge_oauth_demo.py refresh RS_URL AS_URL WORK   an expired access token, refreshed

run_bridge_oauth.sh starts the demo's authorization server and resource server (its MCP
server, behind tokens it checks by introspection, RFC 8707 audience included) and runs this.
Each bridge is `python3 minimcp.py bridge URL`, driven over stdio by a host (the conformance
driver's); BROWSER is oauth_browser.py, which submits the demo's login form as a person would,
and logs every tab it opens. Prints ``ok NAME`` / ``FAIL NAME: why`` per check and a summary.
"""

import json
import os
import sys
import threading
import time
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bridge_conformance_client import Failed, Host, need_result  # noqa: E402

results = []


def check(name: str, ok: bool, why: str = "") -> None:
    results.append(ok)
    print("ok %s" % name if ok else "FAIL %s: %s" % (name, why), flush=True)


def environment(work: str) -> dict:
    return dict(os.environ, BROWSER=os.path.join(HERE, "oauth_browser.py"),
                OAUTH_BROWSER_LOG=os.path.join(work, "tabs"), MINIMCP_OAUTH_DIR=os.path.join(work, "oauth"))


def tabs(work: str) -> list:
    path = os.path.join(work, "tabs")
    return open(path).read().splitlines() if os.path.exists(path) else []


def token_file(work: str) -> str:
    folder = os.path.join(work, "oauth")
    files = [os.path.join(folder, name) for name in os.listdir(folder) if name.endswith(".json")]
    if len(files) != 1:
        raise Failed("%d token files in %s" % (len(files), folder))
    return files[0]


def session(host: Host) -> str:
    """connect, then call the demo's get_time tool: its text."""
    host.connect()
    result = need_result("tools/call get_time", host.call("tools/call", {"name": "get_time", "arguments": {}}))
    return json.dumps(result)


def sign_in(url: str, work: str) -> None:
    try:
        _sign_in(url, work)
    except Failed as exc:
        check("sign-in", False, str(exc))


def _sign_in(url: str, work: str) -> None:
    env = environment(work)
    hosts = [Host(url, "handshake", [], env) for _ in range(2)]        # started together, as a host does
    outcomes = [None, None]

    def run(index: int) -> None:
        try:
            outcomes[index] = session(hosts[index])
        except Failed as exc:
            outcomes[index] = exc
    threads = [threading.Thread(target=run, args=(index,)) for index in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    for host in hosts:
        host.close()
    both = all(isinstance(outcome, str) and "current_time" in outcome for outcome in outcomes)
    check("two-bridges-connect", both, repr(outcomes))
    check("two-bridges-one-sign-in", len(tabs(work)) == 1, "%d browser tabs: %r" % (len(tabs(work)), tabs(work)))
    path = token_file(work)
    mode, folder = os.stat(path).st_mode & 0o777, os.stat(os.path.dirname(path)).st_mode & 0o777
    check("token-file-0600", mode == 0o600 and folder == 0o700, "file %o, folder %o" % (mode, folder))
    before = json.load(open(path))["token"]["access_token"]
    host = Host(url, "handshake", [], env)
    try:
        outcome = session(host)
    except Failed as exc:
        outcome = exc
    host.close()
    after = json.load(open(path))["token"]["access_token"]
    check("restart-without-browser", isinstance(outcome, str) and len(tabs(work)) == 1 and before == after,
          "%r, %d tabs, token %s" % (outcome, len(tabs(work)), "kept" if before == after else "replaced"))


def active(auth_url: str, token: str) -> bool:
    """What the demo's authorization server says of ``token`` (RFC 7662 introspection)."""
    data = urllib.parse.urlencode({"token": token}).encode("ascii")
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(urllib.request.Request(auth_url + "/introspect", data=data), timeout=10) as response:
        return bool(json.load(response).get("active"))


def refresh(url: str, auth_url: str, work: str) -> None:
    host = Host(url, "handshake", [], environment(work))
    try:
        session(host)
        path = token_file(work)
        first = json.load(open(path))["token"]
        deadline = time.monotonic() + 120
        while active(auth_url, first["access_token"]):          # until the server says it has expired
            if time.monotonic() > deadline:
                raise Failed("the access token never expired")
            time.sleep(0.5)
        result = need_result("tools/call get_time", host.call("tools/call", {"name": "get_time", "arguments": {}}))
        now = json.load(open(path))["token"]
        ok = ("current_time" in json.dumps(result) and len(tabs(work)) == 1 and now["obtained_by"] == "refresh_token"
              and now["access_token"] != first["access_token"] and now["refresh_token"] != first["refresh_token"])
        check("expired-token-refreshed-without-browser", ok, "%d tabs, token obtained by %s"
              % (len(tabs(work)), now.get("obtained_by")))
    except Failed as exc:
        check("expired-token-refreshed-without-browser", False, str(exc))
    finally:
        host.close()


def main(argv: list) -> int:
    if argv[:1] == ["sign-in"] and len(argv) == 3:
        sign_in(argv[1], argv[2])
    elif argv[:1] == ["refresh"] and len(argv) == 4:
        refresh(argv[1], argv[2], argv[3])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
