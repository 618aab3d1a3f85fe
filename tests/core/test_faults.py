"""The fault battery (issue 9): hostile input and faults against real server processes.

Every case starts a fresh ``examples/everything.py`` process (or a small helper
server written here), feeds it the hostile input and then checks the invariants:

* the process is alive and answers ``ping`` and ``tools/list``;
* every byte it wrote on stdout is a valid JSON-RPC line (``conftest.check_line``);
* every request got exactly one response (none for notifications, none after a
  cancel) with the error code the spec names;
* nothing hung: every read has a timeout, and the process exits promptly with
  status 0 when its stdin closes.

The process harness (``Server``) and the random fuzzer live in ``tests/fuzz.py``;
the full-size cases (64/256 MiB lines, 20,000-request flood, long fuzzing) are in
``tests/longrun.py``.
"""

import collections
import copy
import json
import os
import signal
import sys
import threading
import time

import pytest

import fuzz
from conftest import ROOT, check_line
from fuzz import Failure, Server, envelope, handshake

sys.path.insert(0, ROOT)
import minimcp  # noqa: E402

PARSE, INVALID, NOT_FOUND, PARAMS, INTERNAL = -32700, -32600, -32601, -32602, -32603
RESOURCE_NOT_FOUND, MISSING_CAPABILITY, UNSUPPORTED_VERSION = -32002, -32021, -32022
# Every refusal the spec defines; -32603 (internal error) is not a refusal of bad input.
REFUSALS = [INVALID, NOT_FOUND, PARAMS, RESOURCE_NOT_FOUND, MISSING_CAPABILITY, UNSUPPORTED_VERSION]
CAPS = {"sampling": {}, "roots": {"listChanged": True}, "elicitation": {"form": {}, "url": {}}}
MODERN_CAPS = {"sampling": {}, "roots": {}, "elicitation": {"form": {}, "url": {}},
               "extensions": {"io.modelcontextprotocol/tasks": {}}}
MiB = 1 << 20

POSIX = pytest.mark.skipif(os.name != "posix", reason="POSIX signals, pipes, process groups and symlinks")
LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/<pid> (Linux only)")


@pytest.fixture
def servers():
    """Start servers with ``servers(...)`` (fuzz.Server arguments); all are killed at the end."""
    started = []

    def make(*args, **kwargs):
        server = Server(*args, **kwargs)
        started.append(server)
        return server

    yield make
    for server in started:
        server.kill()


HOSTILE = """
import asyncio, math, os, subprocess, sys, threading
sys.path.insert(0, %(root)r)
from minimcp import MCPServer

app = MCPServer("hostile", dialect="minimcp", max_output_size=None)      # the 16 MiB result case needs no output cap


@app.tool()
def echo(text: str) -> str:
    '''Echo (the liveness check lists it).'''
    return text


@app.tool()
def nan() -> float:
    '''NaN as a structured number.'''
    return float("nan")


@app.tool()
def infinity():
    '''Infinity with no annotation.'''
    return float("inf")


@app.tool()
def nan_inside() -> dict:
    '''NaN deep in a dict.'''
    return {"a": [1, {"b": -math.inf}]}


@app.tool()
def unserialisable():
    '''An object JSON cannot carry.'''
    return object()


@app.tool()
def unserialisable_inside() -> dict:
    '''An object deep in a dict.'''
    return {"x": [object()]}


@app.tool()
def circular() -> dict:
    '''A dict that contains itself.'''
    value = {}
    value["self"] = value
    return value


@app.tool()
def raw_bytes():
    '''Bytes that are not UTF-8.'''
    return b"\\xff\\xfe"


@app.tool()
def too_deep():
    '''A result nested 100,000 deep.'''
    value = []
    for _ in range(100000):
        value = [value]
    return value


@app.tool()
def raises() -> str:
    '''An ordinary exception.'''
    raise ValueError("HOSTILE-RAISE")


@app.tool()
def raises_base(kind: str) -> str:
    '''Exceptions that are not Exception subclasses.'''
    if kind == "SystemExit":
        sys.exit(3)
    if kind == "KeyboardInterrupt":
        raise KeyboardInterrupt()
    if kind == "CancelledError":
        raise asyncio.CancelledError()
    class Odd(BaseException):
        pass
    raise Odd("odd")


@app.tool()
def big(mib: int = 64) -> str:
    '''A long text result.'''
    return "x" * (mib << 20)


@app.tool()
def forge() -> str:
    '''Write a complete, valid JSON-RPC line to fd 1 and sys.stdout, and from a child.'''
    line = '{"jsonrpc":"2.0","id":"FORGED","result":{}}'
    print(line)
    sys.stdout.flush()
    os.write(1, (line + "\\n").encode())
    subprocess.run([sys.executable, "-c", "import os; os.write(1, b'%%s\\\\n')" %% line], check=False)
    return "forged"


@app.tool()
def late_printer() -> str:
    '''A thread that keeps printing after the tool returned.'''
    def chatter():
        for _ in range(200):
            print("STRAY-LATE")
            sys.stdout.flush()
    threading.Thread(target=chatter, daemon=True).start()
    return "started"


@app.tool()
def close_fd1() -> str:
    '''Close file descriptor 1, then print.'''
    os.close(1)
    try:
        print("STRAY-AFTER-CLOSE")
        sys.stdout.flush()
    except (OSError, ValueError):
        pass
    return "closed"


if __name__ == "__main__":
    app.run()
"""


@pytest.fixture(scope="module")
def scripts(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fault_scripts")
    paths = {}
    paths["tuned"] = fuzz.write_tuned_script(folder)
    paths["hostile"] = str(folder / "hostile.py")
    with open(paths["hostile"], "w") as handle:
        handle.write(HOSTILE % {"root": ROOT})
    return paths


def tuned(servers, scripts, **settings):
    """examples/everything.py with some MCPServer settings changed."""
    return servers(scripts["tuned"], args=[json.dumps(settings)])


def null_codes(server):
    return sorted(r["error"]["code"] for r in server.responses.get(fuzz.key(None), []))


def expect_nulls(server, codes):
    """Exactly ``len(codes)`` responses with id null, with these codes (checked after verify)."""
    server.expect(None, minimum=len(codes), codes=sorted(set(codes)))


def assert_quiet(server):
    text = server.stderr()
    for marker in ("Traceback", "Exception ignored", "BrokenPipeError"):
        assert marker not in text, text[-3000:]


# -- case 1: framing ----------------------------------------------------------------------

def test_framing_invalid_json_invalid_utf8_blank_lines_crlf(servers):
    server = servers()
    handshake(server)
    bad = [b'{"jsonrpc":"2.0","id":"p1","method":"ping"\n',                    # unterminated
           b"{not json}\n", b"\x00\x00\n", b"nul\x00l\n", b"]\n",
           b'{"jsonrpc":"2.0","id":"two","method":"ping"}{"jsonrpc":"2.0","id":"two-b","method":"ping"}\n',
           b'{"jsonrpc":"2.0","id":"trail","method":"ping"} x\n',
           b"\xff\xfe\xfd\n",                                                   # not UTF-8 at all
           b'{"jsonrpc":"2.0","id":"u1","method":"tools/call","params":{"name":"echo",'
           b'"arguments":{"text":"\xc3\x28"}}}\n',                               # invalid sequence
           b'{"jsonrpc":"2.0","id":"u2","method":"tools/call","params":{"name":"echo",'
           b'"arguments":{"text":"\xc0\xaf"}}}\n',                               # overlong encoding
           b'{"jsonrpc":"2.0","id":"u3","method":"tools/call","params":{"name":"echo",'
           b'"arguments":{"text":"\xed\xa0\x80"}}}\n',                           # CESU-8 surrogate
           b'{"jsonrpc":"2.0","id":"u4","method":"ping"}\xe2\x82\n']            # truncated sequence
    for line in bad:
        server.send(line)
    for blank in (b"\n", b"   \n", b"\t \t\n", b"\r\n", b"\n\n\n"):             # nothing at all
        server.send(blank)
    server.send(b'{"jsonrpc":"2.0","id":"crlf","method":"ping"}\r\n')           # CRLF is whitespace
    server.send(b'{"jsonrpc":"2.0","id":"crlf-call","method":"tools/call",'
                b'"params":{"name":"echo","arguments":{"text":"a\\r\\nb"}}}\r\n')
    server.send(b'\xef\xbb\xbf{"jsonrpc":"2.0","id":"bom","method":"ping"}\n')  # a UTF-8 BOM
    for request_id in ("crlf", "crlf-call", "bom"):
        server.expect(request_id)
    expect_nulls(server, [PARSE] * len(bad))
    assert server.wait("crlf")["result"] == {}
    assert server.wait("crlf-call")["result"]["content"][0]["text"] == "a\r\nb"
    server.wait_all()
    server.liveness("legacy")
    server.verify()
    assert null_codes(server) == [PARSE] * len(bad)
    assert not any(raw.endswith(b"\r\n") for raw in server.lines)


@pytest.mark.parametrize("last", ["ping", "tools/call"])
def test_final_line_without_newline_is_answered_before_exit(servers, last):
    server = servers()
    handshake(server)
    server.liveness("legacy")
    params = {"name": "echo", "arguments": {"text": "tail"}} if last == "tools/call" else None
    message = {"jsonrpc": "2.0", "id": "last", "method": last}
    if params:
        message["params"] = params
    server.send(json.dumps(message).encode("utf-8"))                           # no newline, then EOF
    server.expect("last")
    elapsed, _ = server.verify()
    assert elapsed < 2.5
    assert "result" in server.wait("last", 1)


# -- case 2: valid JSON that is not a request -------------------------------------------------

def test_json_values_that_are_not_requests(servers):
    server = servers()
    handshake(server)
    nulls = [1, -5.5, "a string", None, True, [], [1, 2], [[{"jsonrpc": "2.0", "id": "n1", "method": "ping"}]],
             [{"jsonrpc": "2.0", "id": "b1", "method": "ping"}],                # batch outside 2025-03-26
             {}, {"jsonrpc": "2.0"},
             {"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}, {"jsonrpc": "2.0", "id": 1.5, "method": "ping"},
             {"jsonrpc": "2.0", "id": True, "method": "ping"}, {"jsonrpc": "2.0", "id": None, "method": "ping"},
             {"jsonrpc": "2.0", "id": [1], "method": "ping"},
             {"jsonrpc": "1.0", "method": "notifications/initialized"},        # not a valid notification
             {"method": "notifications/initialized"}]
    for value in nulls:
        server.send(value)
    expect_nulls(server, [INVALID] * len(nulls))
    with_id = [({"id": "no-jsonrpc", "method": "ping"}, INVALID),
               ({"jsonrpc": "1.0", "id": "v1", "method": "ping"}, INVALID),
               ({"jsonrpc": 2.0, "id": "v2", "method": "ping"}, INVALID),
               ({"jsonrpc": "2.0", "id": "m-int", "method": 5}, INVALID),
               ({"jsonrpc": "2.0", "id": "m-null", "method": None}, INVALID),
               ({"jsonrpc": "2.0", "id": "m-list", "method": ["ping"]}, INVALID),
               ({"jsonrpc": "2.0", "id": "m-obj", "method": {"name": "ping"}}, INVALID),
               ({"jsonrpc": "2.0", "id": "no-method"}, INVALID),
               ({"jsonrpc": "2.0", "id": "p-list", "method": "ping", "params": [1, 2]}, PARAMS),
               ({"jsonrpc": "2.0", "id": "p-str", "method": "tools/list", "params": "x"}, PARAMS),
               ({"jsonrpc": "2.0", "id": "p-num", "method": "tools/call", "params": 5}, PARAMS)]
    for message, code in with_id:
        server.send(message)
        server.expect(message["id"], codes=[code])
    # responses nobody asked for, and notifications with odd params: silence
    for message in ({"jsonrpc": "2.0", "id": "r1", "result": {}},
                    {"jsonrpc": "2.0", "id": 424242, "error": {"code": -1, "message": "x"}},
                    {"jsonrpc": "2.0", "id": "r3", "error": "not an object"},
                    {"jsonrpc": "2.0", "id": "r4", "result": {}, "error": {"code": 1, "message": "both"}},
                    {"jsonrpc": "2.0", "id": None, "result": {}},
                    {"jsonrpc": "2.0", "method": "notifications/initialized", "params": [1]},
                    {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": "x"},
                    {"jsonrpc": "2.0", "method": "notifications/progress", "params": None}):
        server.send(message)
    server.wait_all()
    server.liveness("legacy")
    server.verify()
    assert null_codes(server) == [INVALID] * len(nulls)
    for never in ("n1", "b1"):
        assert fuzz.key(never) not in server.responses


def test_batches_under_2025_03_26(servers):
    server = servers()
    handshake(server, "2025-03-26")
    server.send([{"jsonrpc": "2.0", "id": "b1", "method": "ping"},
                 {"jsonrpc": "2.0", "method": "notifications/initialized"},
                 {"jsonrpc": "2.0", "id": "b2", "method": "tools/call",
                  "params": {"name": "echo", "arguments": {"text": "in a batch"}}},
                 {"jsonrpc": "2.0", "id": "b3", "method": "nope"},
                 5, [{"jsonrpc": "2.0", "id": "nested", "method": "ping"}]])
    server.expect("b1")
    server.expect("b2")
    server.expect("b3", codes=[NOT_FOUND])
    server.send([])                                                             # empty batch
    server.send([{"jsonrpc": "2.0", "id": "init", "method": "initialize",
                  "params": {"protocolVersion": "2025-03-26", "capabilities": {}}}])
    server.send([{"jsonrpc": "2.0", "method": "notifications/initialized"}])  # notifications only: silence
    server.expect(None, minimum=4, codes=[INVALID])      # 5, the nested array, [], the batched initialize
    server.wait_all()
    server.liveness("legacy")
    server.verify()
    batches = [m for m in (check_line(raw) for raw in server.lines) if isinstance(m, list)]
    assert len(batches) == 1 and sorted(str(m.get("id")) for m in batches[0]) == ["None", "None", "b1", "b2", "b3"]
    assert fuzz.key("nested") not in server.responses and fuzz.key("init") not in server.responses


# -- case 3: unknown methods and the generated table of bad params ------------------------------

def test_unknown_methods_and_notifications(servers):
    server = servers()
    handshake(server)
    for method in ("nope", "", "tools/", "TOOLS/LIST", "rpc.discover", "tools/list/", " ping", "x" * 100000,
                   "\ud800", "notifications/unknown/request"):
        server.request(method, codes=[NOT_FOUND])
    for method in ("notifications/nope", "nope", "", "\ud800", "x" * 100000):
        server.notify(method, {"a": 1})
    server.wait_all()
    server.liveness("legacy")
    server.verify()


BAD_VALUES = [0, -1, 1.5, 2 ** 64, -1e308, "", "x", "\ud800", None, True, [], [1, "a"], {}, {"a": {"b": [None]}}]
VERSION_KEY, CAPS_KEY = "io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientCapabilities"
LEVEL_KEY, INFO_KEY = "io.modelcontextprotocol/logLevel", "io.modelcontextprotocol/clientInfo"

# The parameters of every method in minimcp.METHODS (paths into params), from the schemas.
TABLE_PARAMS = {
    "initialize": [("protocolVersion",), ("capabilities",), ("clientInfo",), ("capabilities", "sampling"),
                   ("capabilities", "roots"), ("capabilities", "elicitation"), ("clientInfo", "name")],
    "ping": [("_meta",)],
    "server/discover": [("_meta",)],
    "tools/list": [("cursor",)],
    "resources/list": [("cursor",)],
    "resources/templates/list": [("cursor",)],
    "prompts/list": [("cursor",)],
    "tools/call": [("name",), ("arguments",), ("arguments", "text"), ("task",), ("task", "ttl"),
                   ("inputResponses",), ("requestState",), ("_meta",), ("_meta", "progressToken")],
    "resources/read": [("uri",), ("inputResponses",), ("requestState",)],
    "resources/subscribe": [("uri",)],
    "resources/unsubscribe": [("uri",)],
    "prompts/get": [("name",), ("arguments",), ("arguments", "name"), ("inputResponses",), ("requestState",)],
    "completion/complete": [("ref",), ("argument",), ("context",), ("ref", "type"), ("ref", "name"),
                            ("ref", "uri"), ("argument", "name"), ("argument", "value"),
                            ("context", "arguments")],
    "logging/setLevel": [("level",)],
    "subscriptions/listen": [("notifications",), ("notifications", "toolsListChanged"),
                             ("notifications", "resourceSubscriptions"), ("notifications", "taskIds")],
    "tasks/get": [("taskId",)],
    "tasks/result": [("taskId",)],
    "tasks/list": [("cursor",)],
    "tasks/cancel": [("taskId",)],
    "tasks/update": [("taskId",), ("inputResponses",)],
    "skills/list": [("cursor",)],
    "skills/get": [("uri",)],
    "resources/directory/read": [("uri",), ("cursor",)],
    "notifications/initialized": [("_meta",)],
    "notifications/cancelled": [("requestId",), ("reason",)],
    "notifications/progress": [("progressToken",), ("progress",), ("total",), ("message",)],
    "notifications/roots/list_changed": [("_meta",)],
    "notifications/tasks/status": [("taskId",), ("status",)],
}
MODERN_ENVELOPE_PATHS = [("_meta", VERSION_KEY), ("_meta", CAPS_KEY), ("_meta", LEVEL_KEY), ("_meta", INFO_KEY)]
# The envelope is read the same way for every method; its fields are varied on these.
ENVELOPE_METHODS = ("server/discover", "tools/list", "tools/call", "resources/read", "prompts/get",
                    "subscriptions/listen", "ping", "notifications/cancelled")
TABLE_VALID = {
    "initialize": {"protocolVersion": "2025-11-25", "capabilities": {"sampling": {}},
                   "clientInfo": {"name": "table", "version": "1"}},
    "tools/call": {"name": "echo", "arguments": {"text": "hi"}},
    "resources/read": {"uri": "fixture://hello"},
    "resources/subscribe": {"uri": "fixture://hello"},
    "resources/unsubscribe": {"uri": "fixture://hello"},
    "prompts/get": {"name": "greet", "arguments": {"name": "bob"}},
    "completion/complete": {"ref": {"type": "ref/prompt", "name": "greet"},
                            "argument": {"name": "name", "value": "a"}, "context": {"arguments": {}}},
    "logging/setLevel": {"level": "info"},
    "skills/get": {"uri": "skill://release-notes/SKILL.md"},
    "resources/directory/read": {"uri": "skill://release-notes"},
    "subscriptions/listen": {"notifications": {"toolsListChanged": True}},
    "notifications/cancelled": {"requestId": "nothing-in-flight"},
    "notifications/progress": {"progressToken": "t", "progress": 1},
}


# minimcp_skills.py's rows of METHODS: the table sends them to the spawned everything.py, which has them.
COMPONENT_METHODS = {"skills/list", "skills/get", "resources/directory/read"}


def test_table_covers_every_method():
    assert set(TABLE_PARAMS) == set(minimcp.METHODS) | COMPONENT_METHODS, \
        set(TABLE_PARAMS) ^ (set(minimcp.METHODS) | COMPONENT_METHODS)


def _set_path(params, path, value):
    target = params
    for part in path[:-1]:
        if not isinstance(target.get(part), dict):
            target[part] = {}
        target = target[part]
    target[path[-1]] = value


def table_rows(era):
    """(method, path, value, params, as_notification) for every method, parameter and bad value."""
    rows = []
    for method in sorted(TABLE_PARAMS):
        notification = method.startswith("notifications/")
        paths = [()] + TABLE_PARAMS[method] + (MODERN_ENVELOPE_PATHS if era == "modern" and
                                                 method in ENVELOPE_METHODS else [])
        for path in paths:
            for value in BAD_VALUES:
                if path == () and value is None:
                    continue                                   # params: null means no params
                params = copy.deepcopy(TABLE_VALID.get(method, {}))
                if era == "modern" and path[:1] != ("_meta",):
                    params["_meta"] = envelope(MODERN_CAPS)
                elif era == "modern":
                    params["_meta"] = envelope(MODERN_CAPS) if len(path) > 1 else None
                if path == ():
                    params = value
                else:
                    _set_path(params, path, value)
                rows.append((method, path, value, params, False))
                if notification:
                    rows.append((method, path, value, params, True))
    return rows


def _table_server(servers, era):
    server = servers(answer_requests=fuzz.canned_answer)
    if era == "legacy":
        handshake(server, "2025-11-25", CAPS)
    return server


def _send_row(server, row_id, method, params, as_notification):
    """Send one table row; a request is expected to get exactly one response.

    The minimum is what makes ``wait_all`` wait: the sentinel ping behind the rows
    is answered by the reader at once, while ``tools/call`` rows still wait for a
    worker, so a minimum of 0 let the table be checked before their answers came
    (issue 20: on a slow Python, the last rows looked unanswered). Only a
    ``subscriptions/listen`` row may stay unanswered: a valid one is a stream.
    """
    message = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    if not as_notification:
        message["id"] = row_id
        server.expect(row_id, minimum=0 if method == "subscriptions/listen" else 1, maximum=1)
    server.send(message)


def test_table_waits_for_rows_that_run_on_a_worker(servers):
    """A row still on a worker is waited for, not checked early (the sentinel ping returns first).

    The row's tool asks the client a question that the test answers only after
    ``wait_all`` has had to time out on it, so the order is fixed by events alone.
    """
    server = servers()
    handshake(server, "2025-11-25", CAPS)
    _send_row(server, "held-row", "tools/call", {"name": "elicit", "arguments": {}}, False)
    server.wait(server.request("ping"), 5.0)
    with server.cond:
        server.cond.wait_for(lambda: server.server_requests, 10.0)
        question = server.server_requests[0]
    assert question["method"] == "elicitation/create"
    with pytest.raises(Failure):
        server.wait_all(timeout=0.3)                   # the row is unanswered: this must not pass
    server.send({"jsonrpc": "2.0", "id": question["id"],
                 "result": {"action": "accept", "content": {"name": "held"}}})
    server.wait_all(timeout=10.0)
    assert len(server.responses[fuzz.key("held-row")]) == 1
    server.verify()


@pytest.mark.parametrize("era", ["legacy", "modern", "uninitialized"])
def test_bad_params_for_every_method(servers, era):
    """Each row is one request (or notification) with one parameter of the wrong type.

    Requests get exactly one response: a result, or a refusal the spec names
    (never -32603, never silence); notifications get nothing. A row that kills the
    server is recorded, and the table goes on in a fresh process.
    """
    rows = table_rows(era)
    state = {"server": _table_server(servers, era)}
    used = [state["server"]]
    sent = []                                  # (server, row id, row)
    problems = collections.OrderedDict()       # (method, path, symptom) -> [values]

    def problem(method, path, symptom, value):
        problems.setdefault((method, "/".join(path) or "params", symptom), []).append(value)

    def send_rows(items, suffix=""):
        """Send rows and a ping behind them; False if the server died on the way."""
        server = state["server"]
        for number, (method, path, value, params, as_notification) in items:
            row_id = "row-%d%s" % (number, suffix)
            _send_row(server, row_id, method, params, as_notification)
            if not as_notification:
                sent.append((server, row_id, (method, path, value, params, False)))
        sentinel = "sentinel-%d%s" % (items[0][0], suffix)  # the reader has taken the rows once answered
        server.request("ping", request_id=sentinel, expect=False)
        server.expect(sentinel, minimum=0, maximum=1)
        try:
            server.wait(sentinel, 5.0)
        except Failure:
            if not server.eof:
                raise
            try:
                server.wait_exit(5)
            except Failure:
                pass
            return False
        for number, (method, path, value, params, as_notification) in items:
            if method != "subscriptions/listen" or as_notification:
                continue
            row_id = "row-%d%s" % (number, suffix)

            def outcome():                      # (answered, opened), or None while neither
                answered = bool(server.responses.get(fuzz.key(row_id)))
                opened = any(n.get("params", {}).get("_meta", {}).get(
                    "io.modelcontextprotocol/subscriptionId") == row_id for n in server.notifications)
                return (answered, opened) if answered or opened else None
            # listen runs on the reader, so its answer or acknowledgement was written before
            # the sentinel's: this returns at once; it waits only if that ever changes.
            answered, opened = server.wait_for(outcome, 5.0, "an answer or acknowledgement for %s" % row_id)
            if opened and not answered:         # a stream was opened: the row is valid; close it
                server.cancel(row_id)
        return True

    def respawn():
        state["server"] = _table_server(servers, era)
        used.append(state["server"])

    numbered = list(enumerate(rows))
    for start in range(0, len(numbered), 16):
        chunk = numbered[start:start + 16]
        if send_rows(chunk):
            continue
        respawn()                               # find the row(s) that kill it, one at a time
        for item in chunk:
            if not send_rows([item], "-alone"):
                dead = state["server"]
                last = dead.stderr().strip().splitlines()[-1:]
                method, path, value, _, as_notification = item[1]
                problem(method, path, "%skilled the server (exit status %s): %s"
                        % ("as a notification, " if as_notification else "", dead.proc.returncode,
                           last[0] if last else ""), value)
                respawn()
    server = state["server"]
    for each in used:
        try:
            each.wait_all(timeout=10.0)
        except Failure:
            pass                                # reported per row below
    for each, row_id, (method, path, value, params, _) in sent:
        if each.proc.poll() is not None and each is not used[-1] and not each.responses.get(fuzz.key(row_id)):
            continue                            # lost to a crash: sent again alone, reported above
        got = each.responses.get(fuzz.key(row_id), [])
        streaming = method == "subscriptions/listen" and each.ledger[fuzz.key(row_id)][1] == 0 and not got
        if len(got) != 1 and not streaming:
            problem(method, path, "%d responses (exactly 1 expected)" % len(got), value)
            continue
        for response in got:
            if "error" in response and response["error"]["code"] not in REFUSALS:
                problem(method, path, "error %s: %s" % (response["error"]["code"],
                                                        response["error"]["message"][:120]), value)
            if method.startswith("notifications/") and "error" not in response:
                problem(method, path, "a notification method sent as a request succeeded", value)
    server.liveness({"uninitialized": None}.get(era, era))
    try:
        server.verify()
    except Failure as exc:
        problem("final process", (), str(exc)[:500], None)
    report = ["%s %s: %s, for %s" % (method, where, symptom, ", ".join(repr(v)[:20] for v in values))
              for (method, where, symptom), values in problems.items()]
    assert not problems, "%d groups of %d rows misbehaved (%s era):\n%s" % (
        len(problems), sum(len(v) for v in problems.values()), era, "\n".join(report))


# -- case 4: lifecycle --------------------------------------------------------------------------

def test_requests_before_initialize_and_a_second_initialize(servers):
    server = servers()
    assert server.result("ping") == {}                                        # ping is always allowed
    for method, params in (("tools/list", None), ("tools/call", {"name": "echo", "arguments": {"text": "x"}}),
                           ("resources/read", {"uri": "fixture://hello"}), ("prompts/list", {}),
                           ("logging/setLevel", {"level": "debug"})):
        server.request(method, params, codes=[PARAMS])                         # digest 6.5: -32602
    server.notify("notifications/initialized")                                # before initialize: ignored
    server.notify("notifications/cancelled", {"requestId": 1})
    server.wait_all()
    result = handshake(server)
    assert result["protocolVersion"] == "2025-11-25"
    again = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}}
    server.request("initialize", again, codes=[INVALID])                      # another revision: refused
    same = dict(again, protocolVersion="2025-11-25")                          # a tester reusing the pipe
    assert server.result("initialize", same)["protocolVersion"] == "2025-11-25"
    server.request("initialize", {"protocolVersion": 5}, codes=[INVALID, PARAMS])
    server.wait_all()
    server.liveness("legacy")
    assert server.result("tools/call", {"name": "echo", "arguments": {"text": "still 2025-11-25"}})
    server.verify()


@pytest.mark.parametrize("capabilities", [
    {"sampling": 5, "roots": [], "elicitation": "yes", "experimental": None},
    {"sampling": {"tools": 7}, "roots": {"listChanged": "maybe"}, "elicitation": {"form": [], "url": 0}},
    {"\ud800": {"\x00": []}, "tasks": {"requests": 1}, "extensions": "x"}], ids=["types", "nested", "odd"])
def test_initialize_with_garbage_capabilities(servers, capabilities):
    server = servers(answer_requests=fuzz.canned_answer)
    for bad in ("x", 5, [], None):
        server.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": bad}, codes=[PARAMS]
                       if bad is not None else None)
    server.wait_all()
    response = server.call("initialize", {"protocolVersion": "2025-11-25", "capabilities": capabilities,
                                          "clientInfo": {"name": [], "version": {}}})
    if "error" in response:                       # refused: a clean handshake must still work
        assert response["error"]["code"] in (INVALID, PARAMS), response
    server.notify("notifications/initialized")
    # whatever it made of them, tools that need client features answer once and never hang
    for name, arguments in (("sample", {"prompt": "p"}), ("ask_roots", {}), ("elicit", {})):
        server.request("tools/call", {"name": name, "arguments": arguments}, codes=[None] + REFUSALS)
    server.wait_all()
    server.liveness("legacy")
    server.verify()


def test_initialize_version_counter_offer(servers):
    server = servers()
    result = server.result("initialize", {"protocolVersion": "1999-01-01", "capabilities": {}})
    assert result["protocolVersion"] == "2025-11-25"
    server.notify("notifications/initialized")
    server.liveness("legacy")
    server.verify()


# -- case 5: nesting and oversized lines ----------------------------------------------------------

def test_json_nested_100000_deep(servers):
    server = servers()
    handshake(server)
    depth = 100000
    lines = [b"[" * depth + b"]" * depth, b'{"a":' * depth + b"1" + b"}" * depth, b"[" * depth,
             b'{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo","arguments":{"text":"x","deep":'
             + b"[" * depth + b"]" * depth + b"}}}"]
    for line in lines:
        server.send(line + b"\n")
    # with the id first, the server may answer the parse error with it (or with null)
    server.send(b'{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"echo","arguments":'
                b'{"text":"x","deep":' + b"[" * depth + b"]" * depth + b"}}}\n")
    server.expect(None, minimum=len(lines), maximum=len(lines) + 1, codes=[PARSE])
    server.expect("deep", minimum=0, maximum=1, codes=[PARSE])
    # nesting that parses (under the recursion limit) must work or fail cleanly
    for depth in (100, 500, 900):
        server.request("tools/call", {"name": "echo", "arguments": {"text": "ok", "deep": json.loads(
            "[" * depth + "]" * depth)}}, codes=[None] + REFUSALS)
        server.request("tools/call", {"name": "echo", "arguments": {"text": json.loads(
            "[" * depth + "]" * depth)}}, codes=[None] + REFUSALS)
    server.wait_all()
    server.liveness("legacy")
    server.verify(forbid_internal=True)
    assert len(server.responses.get(fuzz.key(None), [])) + len(server.responses.get(fuzz.key("deep"), [])) \
        == len(lines) + 1


def warm_up(server):
    """Run every path a case uses once (reader, a worker, the writer) before a memory baseline.

    The peak RSS only grows: what the first tool call allocates (a worker thread, lazy
    imports) must be in the baseline, not counted as the cost of the line under test.
    """
    server.liveness("legacy")
    server.result("tools/call", {"name": "echo", "arguments": {"text": "warm"}})


def _send_garbage(server, total, head=b""):
    block = b"x" * MiB
    server.send(head)
    sent = len(head)
    while sent < total:
        size = min(MiB, total - sent)
        server.send(block[:size])
        sent += size
    server.send(b"\n")


@LINUX
def test_oversized_garbage_line_is_answered_and_not_held(servers):
    """20 MiB of garbage against the default 16 MiB limit: one error, memory below the line size."""
    server = servers()
    handshake(server)
    warm_up(server)
    baseline = server.peak_rss_kib()
    size = 20 * MiB
    _send_garbage(server, size, b'{"jsonrpc":"2.0","id":"huge","method":"tools/call","params":{"name":"echo",'
                                b'"arguments":{"text":"')
    server.expect("huge", codes=[INVALID])
    _send_garbage(server, size)                                   # no id to be found: id null
    server.expect(None, codes=[INVALID, PARSE])
    server.drain(60)
    server.wait_all(30)
    growth = server.peak_rss_kib() - baseline
    server.liveness("legacy")
    server.verify()
    assert growth * 1024 < size, ("peak RSS grew by %.1f MiB for a %d MiB line (limit 16 MiB): the line was "
                                  "held (or copied) whole" % (growth / 1024.0, size // MiB))


@LINUX
def test_oversized_line_is_streamed_past_with_a_small_limit(servers, scripts):
    """With a 1 MiB limit, 24 MiB without a newline then a newline: memory stays near the limit."""
    server = tuned(servers, scripts, max_message_size=MiB)
    handshake(server)
    warm_up(server)
    baseline = server.peak_rss_kib()
    _send_garbage(server, 24 * MiB, b'{"jsonrpc":"2.0","id":7,"method":"ping","params":{"pad":"')
    server.expect(7, codes=[INVALID])
    server.drain(60)
    server.wait(7, 30)
    growth = server.peak_rss_kib() - baseline
    assert growth < 8 * 1024, "peak RSS grew by %.1f MiB with a 1 MiB limit" % (growth / 1024.0)
    exact = b'{"jsonrpc":"2.0","id":"at-limit","method":"tools/call","params":{"name":"echo","arguments":{"text":"'
    tail = b'"}}}'
    server.send(exact + b"y" * (MiB - len(exact) - len(tail)) + tail + b"\n")   # exactly the limit: accepted
    server.expect("at-limit")
    over = exact.replace(b"at-limit", b"over-limit")
    server.send(over + b"y" * (MiB - len(over) - len(tail) + 1) + tail + b"\n")  # one byte more: refused
    server.expect("over-limit", codes=[INVALID])
    server.drain(60)
    server.wait_all(30)
    server.liveness("legacy")
    server.verify()


def test_oversized_line_cut_by_eof(servers, scripts):
    server = tuned(servers, scripts, max_message_size=MiB)
    handshake(server)
    server.liveness("legacy")
    server.send(b'{"jsonrpc":"2.0","id":"cut","method":"ping","params":{"pad":"' + b"z" * (3 * MiB))
    server.expect("cut", minimum=0, codes=[INVALID])
    server.verify()


# -- case 6: floods, duplicate ids, stray responses -------------------------------------------------

def test_flood_of_pipelined_requests(servers):
    server = servers()
    handshake(server)
    for number in range(3000):
        kind = number % 4
        if kind == 0:
            server.request("ping")
        elif kind == 1:
            server.request("tools/list")
        elif kind == 2:
            server.request("tools/call", {"name": "echo", "arguments": {"text": "flood %d" % number}})
        else:
            server.request("resources/read", {"uri": "fixture://greeting/n%d" % number})
    server.drain(60)
    server.wait_all(60)
    server.liveness("legacy")
    server.verify(forbid_internal=True)


def test_duplicate_ids_in_flight_and_id_types(servers):
    server = servers()
    handshake(server)
    server.request("tools/call", {"name": "slow", "arguments": {"seconds": 0.6, "steps": 3}}, request_id="dup")
    server.request("ping", request_id="dup")                                   # in flight: refused (below)
    server.request("tools/call", {"name": "echo", "arguments": {"text": "x"}}, request_id="dup")
    server.request("tools/call", {"name": "slow", "arguments": {"seconds": 0.3, "steps": 1}}, request_id=7)
    server.request("ping", request_id="7")                                     # "7" is not 7
    assert server.wait("7")["result"] == {}
    server.wait_all()
    dup = server.responses[fuzz.key("dup")]
    assert [r.get("error", {}).get("code") for r in dup] == [INVALID, INVALID, None], dup
    assert dup[-1]["result"]["content"][0]["text"] == "done", dup
    server.request("ping", request_id="dup")                                   # finished: usable again
    server.wait_all()
    server.liveness("legacy")
    server.verify()


def test_stray_and_erroneous_client_responses(servers):
    pending = []

    def answer(message):                       # hold the server's requests; the test answers them
        pending.append(message)
        return None

    server = servers(answer_requests=answer)
    handshake(server, capabilities=CAPS)
    for message in ({"jsonrpc": "2.0", "id": 1, "result": {}}, {"jsonrpc": "2.0", "id": "x", "error": {}},
                    {"jsonrpc": "2.0", "id": 99, "error": {"code": "bad", "message": 5}},
                    {"jsonrpc": "2.0", "id": 100, "result": None}):
        server.send(message)                                                   # ids the server never sent
    call = server.request("tools/call", {"name": "sample", "arguments": {"prompt": "p"}},
                          codes=[None] + REFUSALS + [-1])
    server.wait_for(lambda: pending, 5, "the sampling request")   # answer() runs under cond
    assert pending[0]["method"] == "sampling/createMessage", pending
    asked = pending.pop()["id"]
    wrong_type = str(asked) if isinstance(asked, int) else 10 ** 9
    server.send({"jsonrpc": "2.0", "id": wrong_type, "result": {"role": "assistant"}})   # not our id: ignored
    for odd in ([asked], {"id": asked}, 1.5, True, None):          # not ids at all, while ours waits: dropped
        server.send({"jsonrpc": "2.0", "id": odd, "result": {}})
    server.send({"jsonrpc": "2.0", "id": asked, "error": {"code": -1, "message": "the user said no"}})
    server.send({"jsonrpc": "2.0", "id": asked, "result": {"role": "assistant",        # a second answer
                                                           "content": {"type": "text", "text": "late"},
                                                           "model": "m"}})
    response = server.wait(call)
    assert "error" in response or response["result"].get("isError"), response
    call = server.request("tools/call", {"name": "ask_roots", "arguments": {}}, codes=[None] + REFUSALS)
    server.wait_for(lambda: pending, 5, "the roots/list request")
    server.send({"jsonrpc": "2.0", "id": pending.pop()["id"], "result": {"roots": 5}})   # malformed result
    server.wait(call)
    server.wait_all()
    server.liveness("legacy")
    server.verify(forbid_internal=True)


# -- case 7: cancellation ------------------------------------------------------------------------------

def _progress_after(server, tokens, index):
    """Progress notifications for these tokens written after stdout line ``index``."""
    found = []
    for raw in server.lines[index + 1:]:
        message = check_line(raw)
        if isinstance(message, dict) and message.get("method") == "notifications/progress" and \
                message.get("params", {}).get("progressToken") in tokens:
            found.append(message)
    return found


def _line_index(server, request_id):
    for index, raw in enumerate(server.lines):
        message = check_line(raw)
        if isinstance(message, dict) and message.get("id") == request_id and "method" not in message:
            return index
    raise AssertionError("no line for %r" % request_id)


def _clock_call(server, token, modern=False):
    """A second ``slow`` call (20 steps of 50 ms), never cancelled: its progress is the server's
    own clock. Returns a function that waits, from stdout line ``index`` on, for three more of
    its steps: time enough for a call whose cancel had been missed to report progress too.

    An absence is then proved in two parts, neither a guess of a delay: no progress of the
    cancelled call while the clock ran on, and no answer to it until the server's output
    ends (``verify``: at EOF the server waits for whatever still runs, then exits). The
    clock call is cancelled by that EOF: it may be answered once, or not at all.
    """
    meta = envelope({}, progressToken=token) if modern else {"progressToken": token}
    server.request("tools/call", {"name": "slow", "arguments": {"seconds": 1.0, "steps": 20}, "_meta": meta},
                   request_id=token, expect=False)
    server.expect(token, minimum=0)

    def three_more_steps(index):
        server.wait_for(lambda: len(_progress_after(server, {token}, index)) >= 3, 10,
                        "three more steps of the clock call")
    return three_more_steps


def test_cancel_unknown_finished_malformed_and_in_flight(servers):
    server = servers()
    handshake(server)
    server.cancel("never-sent")
    finished = server.request("ping")
    server.wait(finished)
    server.cancel(finished)
    server.expect(finished)                                    # cancelled after its answer: still one
    for params in ({}, {"requestId": None}, {"requestId": {"a": 1}}, {"requestId": [1]}, {"requestId": 1.5},
                   {"requestId": True}, {"reason": 5}, {"requestId": 0, "reason": {"x": 1}}):
        server.notify("notifications/cancelled", params)
    server.request("tools/call", {"name": "slow", "arguments": {"seconds": 1.0, "steps": 20},
                                  "_meta": {"progressToken": "tok"}}, request_id="slow")
    clock = _clock_call(server, "clock")
    server.wait_progress(["tok", "clock"])                     # it runs on a worker: cancel it there
    server.cancel("slow", "no longer needed")
    server.cancel("slow", "twice")
    marker = server.request("ping")
    server.wait(marker)
    index = _line_index(server, marker)
    clock(index)
    server.liveness("legacy")
    server.verify()
    assert fuzz.key("slow") not in server.responses, server.responses[fuzz.key("slow")]
    assert not _progress_after(server, {"tok"}, index), "progress after the cancel was processed"


@LINUX
def test_storm_of_200_cancels(servers):
    server = servers()
    handshake(server)
    cap = minimcp.MCPServer(dialect="minimcp").workers              # the pool's bound
    ids = [server.request("tools/call", {"name": "slow", "arguments": {"seconds": 4, "steps": 40},
                                         "_meta": {"progressToken": "storm-%d" % n}}) for n in range(200)]
    # the pool is full (cap calls running, the rest queued): the cancels hit both kinds
    server.wait_for(lambda: len(server.progress_tokens()) >= min(cap, len(ids)), 20, "a full pool")
    for request_id in ids:
        server.cancel(request_id)
    clock = _clock_call(server, "storm-clock")                 # queued behind the storm: the pool frees up
    marker = server.request("ping")
    server.wait(marker, 5)
    index = _line_index(server, marker)
    server.liveness("legacy")
    clock(index)                                   # (see _clock_call)
    # the pool's bound, plus main, watcher and spare
    assert server.threads() <= cap + 4, "threads after the storm: %d (pool cap %d)" % (server.threads(), cap)
    server.verify()
    assert not any(fuzz.key(i) in server.responses for i in ids)
    assert not _progress_after(server, {"storm-%d" % n for n in range(200)}, index)


def test_cancel_racing_completion(servers):
    server = servers()
    handshake(server)
    for number in range(300):
        request_id = server.request("tools/call", {"name": "echo", "arguments": {"text": "race %d" % number}})
        server.cancel(request_id)                              # 0 or 1 answer, never 2
    for number in range(60):
        request_id = server.request("tools/call", {"name": "slow", "arguments": {"seconds": 0.002 * (number % 5),
                                                                               "steps": 1}})
        if number % 3:
            time.sleep(0.001)                                  # jitter: cancels land before, during, after
        server.cancel(request_id)
    server.drain()
    server.liveness("legacy")
    server.verify()                                # reads to EOF: a late second answer is counted


def test_modern_cancel_and_listen_stream(servers):
    server = servers()
    meta = envelope({})
    server.request("tools/call", {"name": "slow", "arguments": {"seconds": 1.0, "steps": 10},
                                  "_meta": envelope({}, progressToken="m-tok")}, request_id="m-slow")
    server.request("subscriptions/listen", {"notifications": {"toolsListChanged": True}, "_meta": meta},
                   request_id="listen")
    server.request("subscriptions/listen", {"notifications": {"promptsListChanged": True}, "_meta": meta},
                   request_id="listen-kept", expect=False)
    server.expect("listen-kept")                               # closed with a result at EOF
    clock = _clock_call(server, "m-clock", modern=True)
    server.wait_progress(["m-tok", "m-clock"])                 # the call runs, both streams are open
    server.wait_for(lambda: {"listen", "listen-kept"} <= set(
        n["params"]["_meta"].get("io.modelcontextprotocol/subscriptionId") for n in server.notifications
        if n["method"] == "notifications/subscriptions/acknowledged"), 5, "both listens acknowledged")
    server.cancel("m-slow")
    server.cancel("listen")
    marker = server.request("tools/list", {"_meta": meta})     # a round trip: the cancels are processed
    server.wait(marker)
    clock(_line_index(server, marker))                         # (see _clock_call)
    server.liveness("modern")
    server.verify()
    assert fuzz.key("m-slow") not in server.responses
    assert fuzz.key("listen") not in server.responses
    assert not server.server_requests, "requests written in the 2026-07-28 era: %r" % server.server_requests


# -- case 8: a client that stops reading ------------------------------------------------------------------

def both_pipes_full(server, timeout=10.0):
    """Wait until the stall is real: the server's stdout pipe is full (its writer blocks), and
    so is its stdin pipe with more of our writes queued (it stopped reading too).

    The kernel tells how much a pipe holds (FIONREAD, Linux); nothing signals the moment a
    pipe fills, so the counts are looked at every 10 ms until both pipes hold more than half
    their size, writes are queued, and nothing has moved for 50 ms. (A pipe holds its data in
    pages, so "full" is rarely its exact size.) Elsewhere the writer gets a second, as before.
    """
    if not sys.platform.startswith("linux"):
        time.sleep(1.0)
        return
    import array
    import fcntl
    import termios

    def held(stream):
        count = array.array("i", [0])
        fcntl.ioctl(stream.fileno(), termios.FIONREAD, count)
        return count[0], fcntl.fcntl(stream.fileno(), 1032)           # F_GETPIPE_SZ

    deadline, looks = time.monotonic() + timeout, []
    while True:
        (out_held, out_size), (in_held, in_size) = held(server.proc.stdout), held(server.proc.stdin)
        looks = (looks + [(out_held, in_held, server._outbox.unfinished_tasks)])[-6:]
        if (out_held > out_size // 2 and in_held > in_size // 2 and looks[-1][2]
                and len(looks) == 6 and len(set(looks)) == 1):
            return
        assert time.monotonic() < deadline, ("the pipes never filled: stdout %d of %d bytes, stdin %d of %d, %d "
                                             "writes queued" % (out_held, out_size, in_held, in_size, looks[-1][2]))
        time.sleep(0.01)


def test_client_stops_reading_then_resumes(servers):
    server = servers()
    handshake(server)
    server.pause_reading()
    slow = [server.request("tools/call", {"name": "slow", "arguments": {"seconds": 30, "steps": 300}})
            for _ in range(4)]
    for number in range(2000):
        server.request("tools/call", {"name": "echo", "arguments": {"text": "%05d" % number + "y" * 1000}})
    for request_id in slow:
        server.cancel(request_id)
    both_pipes_full(server)
    pending = server._outbox.unfinished_tasks
    assert server.alive()
    server.resume_reading()
    server.drain(30)
    server.wait_all(60)
    server.liveness("legacy")
    started = time.monotonic()
    server.verify()
    assert time.monotonic() - started < 5
    assert not any(fuzz.key(i) in server.responses for i in slow), "a cancelled call was answered"
    assert pending > 0, "the writes never blocked: the test did not fill the pipes"


# -- case 9: exit ---------------------------------------------------------------------------------------------

@POSIX
def test_eof_with_slow_calls_exits_within_grace_and_leaves_no_child(servers):
    server = servers()
    handshake(server)
    slow = [server.request("tools/call", {"name": "slow", "arguments": {"seconds": 60, "steps": 600},
                                          "_meta": {"progressToken": "eof-%d" % number}}, expect=False)
            for number in range(3)]
    server.request("tools/call", {"name": "print_stdout", "arguments": {"text": "child"}})
    server.wait_all()
    server.wait_progress(["eof-%d" % number for number in range(3)])     # all three are running
    for request_id in slow:                       # cancelled by the EOF: answered once, with the stop's error
        server.expect(request_id, codes=[-32603])
    server.close_stdin()
    elapsed, status = server.wait_exit(10)
    assert status == 0
    assert elapsed < 1.0 + 1.5, "exited %.2fs after EOF with slow calls running (grace 1 s)" % elapsed
    server.verify(exited=True)
    if sys.platform.startswith("linux"):
        assert not server.group_members(), "processes left behind: %r" % server.group_members()


def test_eof_right_after_start(servers):
    server = servers()
    server.close_stdin()
    elapsed, status = server.wait_exit(10)
    assert status == 0
    server.verify(exited=True)
    assert server.lines == []
    assert_quiet(server)


@POSIX
@pytest.mark.parametrize("busy", [False, True], ids=["idle", "busy"])
@pytest.mark.xdist_group("processes")     # signals: with tests/core/test_process.py
def test_sigterm_exits_promptly(servers, busy):
    server = servers()
    handshake(server)
    if busy:
        for number in range(3):
            server.expect(server.request("tools/call", {"name": "slow", "arguments": {"seconds": 60, "steps": 600},
                                                        "_meta": {"progressToken": "term-%d" % number}},
                                         expect=False), minimum=0)
        server.wait_progress(["term-%d" % number for number in range(3)])  # all three are running
    server.liveness("legacy")
    start = time.monotonic()
    os.kill(server.pid, signal.SIGTERM)
    _, status = server.wait_exit(10)
    elapsed = time.monotonic() - start
    assert status == 0, status
    assert elapsed < 2.5, "exited %.2fs after SIGTERM" % elapsed
    server.verify(exited=True)
    assert_quiet(server)
    if sys.platform.startswith("linux"):
        assert not server.group_members()


def _read_one_line(stream, timeout):
    import select
    ready, _, _ = select.select([stream], [], [], timeout)
    assert ready, "no line within %.1fs" % timeout
    return stream.readline()


@POSIX
@pytest.mark.parametrize("busy", [False, True], ids=["idle", "busy"])
def test_stdout_closed_by_the_client_quiet_exit(servers, busy):
    server = servers(read=False)
    server.send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                 "params": {"protocolVersion": "2025-11-25", "capabilities": {}}})
    assert check_line(_read_one_line(server.proc.stdout, 10))["id"] == 0
    if busy:
        server.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                     "params": {"name": "slow", "arguments": {"seconds": 60, "steps": 600},
                                "_meta": {"progressToken": "busy"}}})
        progress = check_line(_read_one_line(server.proc.stdout, 10))    # the call is running
        assert progress["method"] == "notifications/progress", progress
    server.proc.stdout.close()                                 # the client is gone
    for number in range(2, 5):
        server.send({"jsonrpc": "2.0", "id": number, "method": "ping"})
    server.drain(5)
    _, status = server.wait_exit(10) if not busy else (None, None)
    if busy:
        server.close_stdin()
        elapsed, status = server.wait_exit(10)
        assert elapsed < 2.5
    assert status == 0, status
    assert_quiet(server)


# -- case 10: stdout purity and hostile return values -----------------------------------------------------------

def test_print_stdout_three_ways_never_reaches_the_wire(servers):
    server = servers()
    handshake(server)
    for text in ("STRAY-TEXT", '{"jsonrpc":"2.0","id":"FORGED","result":{}}', "multi\nline"):
        response = server.call("tools/call", {"name": "print_stdout", "arguments": {"text": text}})
        assert response["result"]["content"] == [{"type": "text", "text": "printed"}], response
    server.liveness("legacy")
    server.verify()
    assert not any(b"STRAY-TEXT" in raw or b"FORGED" in raw for raw in server.lines)
    assert server.stderr().count("STRAY-TEXT") == 3


def test_hostile_return_values_and_stray_writes(servers, scripts):
    server = servers(scripts["hostile"])
    handshake(server)
    for name in ("nan", "infinity", "nan_inside", "unserialisable", "unserialisable_inside", "circular",
                 "raw_bytes", "too_deep", "raises", "forge", "late_printer", "close_fd1"):
        response = server.call("tools/call", {"name": name, "arguments": {}})
        if name in ("forge", "late_printer", "close_fd1"):
            assert "result" in response and not response["result"].get("isError"), response
        else:                                           # a clear failure, as a result or an error
            assert "error" in response or response["result"].get("isError") is True, response
            text = json.dumps(response)
            assert len(text) < 10000, text[:300]
    server.wait_stderr("STRAY-LATE", 200)         # late_printer's thread has printed everything
    server.liveness("legacy")
    server.verify()
    assert not any(b"FORGED" in raw or b"STRAY" in raw for raw in server.lines)
    assert "FORGED" in server.stderr()


@pytest.mark.parametrize("kind", ["SystemExit", "KeyboardInterrupt", "CancelledError", "BaseException"])
def test_tool_raising_a_base_exception_still_gets_one_answer(servers, scripts, kind):
    server = servers(scripts["hostile"])
    handshake(server)
    server.request("tools/call", {"name": "raises_base", "arguments": {"kind": kind}}, request_id="base",
                   codes=[None] + REFUSALS + [INTERNAL])
    try:
        server.wait("base", 3)
    except Failure:
        pass                                            # reported by verify as never answered
    server.liveness("legacy")
    server.verify()


def test_tool_returning_16_mib(servers, scripts):
    """256 times the pipe, and past the 10 MiB default cap (lifted here): the result arrives
    whole and the server goes on. tests/longrun.py (bigline) returns 64 MiB and measures RSS."""
    server = servers(scripts["hostile"])
    handshake(server)
    response = server.call("tools/call", {"name": "big", "arguments": {"mib": 16}}, timeout=60)
    assert len(response["result"]["content"][0]["text"]) == 16 * MiB
    server.liveness("legacy")
    server.verify()


# -- case 11: hostile unicode --------------------------------------------------------------------------------

ODD = ["\U0001F600 \U0010FFFF", "\ud800", "\udfff tail", "lone \udbff", "\x00nul\x00", "\u202eRTL\u202c \u200f",
       "\ufeffbom", "\u2028\u2029\x85", "\uffff\ufffe", "e\u0301\u0301\u0301", "\x1b[2J\x07", "\\\"'"]


@pytest.mark.parametrize("env", [None, {"LANG": "C", "LC_ALL": "C", "PYTHONIOENCODING": "ascii"}],
                         ids=["default", "ascii-locale"])
def test_hostile_unicode_round_trips(servers, env):
    server = servers(env=env, answer_requests=fuzz.canned_answer)
    handshake(server, capabilities=CAPS)
    for text in ODD:
        response = server.call("tools/call", {"name": "echo", "arguments": {"text": text}})
        assert response["result"]["content"][0]["text"] == text, (text, response)
        assert server.result("ping", None) == {}
        server.request("ping", request_id=text)                                 # odd ids come back as sent
        assert server.wait(text)["result"] == {}
        prompt = server.result("prompts/get", {"name": "greet", "arguments": {"name": text}})
        assert text in prompt["messages"][0]["content"]["text"]
    server.request("tools/call", {"name": "echo\ud800", "arguments": {}}, codes=[PARAMS])
    server.request("\ud800/\u202e", codes=[NOT_FOUND])
    server.request("resources/read", {"uri": "fixture://\ud800"}, codes=[RESOURCE_NOT_FOUND, PARAMS])
    server.request("tools/call", {"name": "slow", "arguments": {"seconds": 0.05, "steps": 2},
                                  "_meta": {"progressToken": "\ud800\u202e"}})
    server.request("tools/call", {"name": "log", "arguments": {"message": "\ud800\x00\u2028", "level": "error"}})
    server.request("tools/call", {"name": "print_stdout", "arguments": {"text": "\u00e9\ud800\u202e"}},
                   codes=[None] + REFUSALS)
    server.request("tools/call", {"name": "echo", "arguments": {"text": "\ud800" * 100000 + "\U0001F600" * 100000}})
    server.wait_all()
    server.liveness("legacy")
    server.verify(forbid_internal=True)
    tokens = [n["params"]["progressToken"] for n in server.notifications if n["method"] == "notifications/progress"]
    assert tokens and set(tokens) == {"\ud800\u202e"}, tokens
    logged = [n["params"]["data"] for n in server.notifications if n["method"] == "notifications/message"]
    assert "\ud800\x00\u2028" in logged, logged


# -- case 12: 2026-07-28 envelope and MRTR -----------------------------------------------------------------------

def test_modern_envelope_errors(servers):
    server = servers()
    bad_envelopes = [None, 5, "x", [], {}, {VERSION_KEY: "2026-07-28"}, {CAPS_KEY: {}},
                     {VERSION_KEY: 2026, CAPS_KEY: {}}, {VERSION_KEY: None, CAPS_KEY: {}},
                     {VERSION_KEY: ["2026-07-28"], CAPS_KEY: {}}, {VERSION_KEY: {"v": 1}, CAPS_KEY: {}},
                     {VERSION_KEY: "2026-07-28", CAPS_KEY: []}, {VERSION_KEY: "2026-07-28", CAPS_KEY: "all"},
                     {VERSION_KEY: "2026-07-28", CAPS_KEY: None},
                     dict(envelope(), **{LEVEL_KEY: "loud"}), dict(envelope(), **{LEVEL_KEY: 3}),
                     dict(envelope(), **{LEVEL_KEY: ["debug"]}), dict(envelope(), **{LEVEL_KEY: {"l": 1}})]
    for phase in ("unpinned", "pinned"):
        for meta in bad_envelopes:
            for method in ("tools/list", "server/discover", "tools/call"):
                params = {"name": "echo", "arguments": {"text": "x"}} if method == "tools/call" else {}
                if meta is not None:
                    params["_meta"] = meta
                server.request(method, params, codes=[PARAMS])
        for version in ("2099-01-01", "2025-11-25", "", "2026-07-28 ", "2026-07-28\x00", "\ud800"):
            for method in ("tools/list", "server/discover"):
                request_id = server.request(method, {"_meta": envelope(version=version)},
                                            codes=[UNSUPPORTED_VERSION])
                error = server.wait(request_id)["error"]
                assert error.get("data", {}).get("requested") == version, error
                assert "2026-07-28" in error["data"]["supported"], error
        server.wait_all()
        if phase == "unpinned":
            server.result("tools/list", {"_meta": dict(envelope(), **{INFO_KEY: [1], "traceparent": 5})})
    server.request("tools/list", codes=[PARAMS])                        # no envelope on a modern pipe
    server.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}},
                   codes=[UNSUPPORTED_VERSION, INVALID])
    server.wait_all()
    server.liveness("modern")
    server.verify()


def test_enveloped_request_on_a_legacy_pipe(servers):
    server = servers()
    handshake(server)
    server.request("tools/list", {"_meta": envelope()}, codes=[INVALID])
    assert "result" in server.call("server/discover", {"_meta": envelope()})   # discover: at any time
    server.wait_all()
    server.liveness("legacy")
    server.verify()


def _ask(server, message="Who?", caps=None, **extra):
    params = {"name": "elicit", "arguments": {"message": message},
              "_meta": envelope(MODERN_CAPS if caps is None else caps)}
    params.update(extra)
    return server.call("tools/call", params, codes=[None] + REFUSALS)


def test_modern_request_state_tampered_replayed_and_foreign(servers):
    server = servers()
    first = _ask(server)["result"]
    assert first["resultType"] == "input_required", first
    (question,) = first["inputRequests"]
    state = first["requestState"]
    answer = {question: {"action": "accept", "content": {"name": "Ann"}}}
    done = _ask(server, inputResponses=answer, requestState=state)["result"]
    assert done["content"][0]["text"] == "accept: Ann", done
    replay = _ask(server, inputResponses=answer, requestState=state)      # replayed: same answer or refused
    assert "error" in replay and replay["error"]["code"] == PARAMS or \
        replay["result"]["content"][0]["text"] == "accept: Ann", replay
    body, _, signature = state.partition(".")
    flip = lambda text, at: text[:at] + ("A" if text[at] != "A" else "B") + text[at + 1:]   # noqa: E731
    tampered = [flip(state, 3), flip(state, len(body) + 2), state[:-1], state + ".", "." + state, body,
                "." + signature, "", "..", "a.b", "!!!.???", state.replace(".", "", 1), state + state,
                "x" * 100000 + "." + signature]
    for bad in tampered:
        response = _ask(server, inputResponses=answer, requestState=bad)
        assert response.get("error", {}).get("code") == PARAMS, (bad[:60], response)
    for bad in (5, {}, [], True, {"state": state}):
        response = _ask(server, inputResponses=answer, requestState=bad)
        assert response.get("error", {}).get("code") == PARAMS, (bad, response)
    other_params = _ask(server, message="Someone else?", inputResponses=answer, requestState=state)
    assert other_params.get("error", {}).get("code") == PARAMS, other_params
    for method, params in (("tools/call", {"name": "echo", "arguments": {"text": "x"}}),
                           ("prompts/get", {"name": "greet", "arguments": {"name": "x"}}),
                           ("resources/read", {"uri": "fixture://hello"})):
        params = dict(params, requestState=state, inputResponses=answer, _meta=envelope(MODERN_CAPS))
        server.request(method, params, codes=[PARAMS])
    for bad in ([], "x", 5, {question: 5}, {question: [1]}, {question: None}):
        response = _ask(server, inputResponses=bad, requestState=state)
        assert response.get("error", {}).get("code") == PARAMS, (bad, response)
    # the state from another process of the same server is foreign
    other = servers()
    response = _ask(other, inputResponses=answer, requestState=state)
    assert response.get("error", {}).get("code") == PARAMS, response
    server.wait_all()
    server.liveness("modern")
    server.verify(forbid_internal=True)
    other.liveness("modern")
    other.verify(forbid_internal=True)
    assert not server.server_requests


def test_modern_request_state_expires(servers, scripts):
    ttl = 0.01
    server = tuned(servers, scripts, state_ttl=ttl)
    first = _ask(server)["result"]
    answered = time.time()
    (question,) = first["inputRequests"]
    # The event is the clock itself. A state is sealed with its end in whole seconds, at most
    # int(sealed + ttl), and sealed before it was answered: once the clock is past
    # int(answered + ttl), the state's life is over (under a second from now, not two).
    end = int(answered + ttl)
    time.sleep(max(0.0, end + 0.01 - time.time()))
    assert time.time() > end
    response = _ask(server, inputResponses={question: {"action": "accept", "content": {"name": "Late"}}},
                    requestState=first["requestState"])
    assert response.get("error", {}).get("code") == PARAMS, response
    server.liveness("modern")
    server.verify()


def test_modern_input_responses_for_questions_never_asked(servers):
    server = servers()
    stray = {"q0": {"action": "accept", "content": {"name": "Nobody"}}, "zz": {"roots": []}}
    echo = server.result("tools/call", {"name": "echo", "arguments": {"text": "plain"}, "inputResponses": stray,
                                        "_meta": envelope(MODERN_CAPS)})
    assert echo["content"][0]["text"] == "plain", echo
    asked = _ask(server, inputResponses=stray)["result"]                  # answers without a state: asked again
    assert asked["resultType"] == "input_required", asked
    again = _ask(server, inputResponses={"wrong-key": {"action": "accept"}},
                 requestState=asked["requestState"])["result"]
    assert again["resultType"] == "input_required", again               # missing answer: ask again
    (question,) = asked["inputRequests"]
    odd = _ask(server, inputResponses={question: {"action": 5, "content": []}}, requestState=asked["requestState"])
    assert "result" in odd or odd["error"]["code"] in REFUSALS, odd
    for name, caps, arguments, answer in (
            ("sample", {"sampling": {}}, {"prompt": "p"}, {"content": 5}),
            ("ask_roots", {"roots": {}}, {}, {"roots": 5}),
            ("elicit", {}, {}, None)):                                    # capability missing: -32021
        params = {"name": name, "arguments": arguments, "_meta": envelope(caps)}
        response = server.call("tools/call", params, codes=[None, PARAMS, MISSING_CAPABILITY])
        if answer is None:
            assert response["error"]["code"] == MISSING_CAPABILITY, response
            continue
        result = response["result"]
        (key,) = result["inputRequests"]
        server.call("tools/call", dict(params, inputResponses={key: answer}, requestState=result["requestState"]),
                    codes=[None] + REFUSALS)
    server.request("tools/list", {"requestState": "junk", "inputResponses": {"q0": {}}, "_meta": envelope()})
    server.wait_all()
    server.liveness("modern")
    server.verify(forbid_internal=True)
    assert not server.server_requests


# -- case 13: path safety of the directory helper -----------------------------------------------------------------

@pytest.fixture
def tree(tmp_path):
    base = tmp_path / "base"
    (base / "sub").mkdir(parents=True)
    (base / "a.txt").write_text("alpha")
    (base / "sub" / "b.md").write_text("beta")
    (tmp_path / "secret.txt").write_text("SECRET")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "b.md").write_text("SECRET")
    if hasattr(os, "symlink"):
        os.symlink(str(tmp_path / "secret.txt"), str(base / "link.txt"))
        os.symlink(str(tmp_path / "outside"), str(base / "linkdir"))
    return base, tmp_path


def _files_server(servers, base):
    server = servers(os.path.join(ROOT, "examples", "files.py"), args=[str(base)])
    handshake(server)
    return server, "file://" + os.path.realpath(str(base)).replace(os.sep, "/")


ESCAPES = ["../secret.txt", "sub/../../secret.txt", "%2e%2e/secret.txt", "%2E%2E%2Fsecret.txt",
           "sub/%2e%2e/%2e%2e/secret.txt", "..%2fsecret.txt", "..%5csecret.txt", "..\\secret.txt",
           "sub\\..\\..\\secret.txt", "%252e%252e/secret.txt", "./../secret.txt", "sub/./../../secret.txt",
           "/etc/passwd", "//etc/passwd", "%2fetc%2fpasswd", "C:/Windows/win.ini", "C:%5cWindows",
           "link.txt", "linkdir/b.md", "linkdir/../../secret.txt", "a.txt%00.png", "a.txt\x00", "%00",
           "sub/", "sub", ".", "", "...", "a.txt/..", "sub//b.md", "\u2025/secret.txt",
           "%c0%ae%c0%ae/secret.txt", "%ff", "a" * 5000, "sub/" * 2000 + "b.md"]


@POSIX
def test_directory_helper_refuses_escapes_over_the_wire(servers, tree):
    base, _ = tree
    server, prefix = _files_server(servers, base)
    uris = [prefix + "/" + path for path in ESCAPES] + [
        "file:///etc/passwd", "file://localhost" + prefix[len("file://"):] + "/../secret.txt",
        prefix + "/../secret.txt", prefix + "/..", prefix + "/a.txt?x=../../secret.txt", prefix + "/a.txt#..",
        prefix.upper() + "/a.txt", prefix + "/sub/b.md/../../../secret.txt"]
    for uri in uris:
        server.request("resources/read", {"uri": uri}, codes=[None] + REFUSALS + [INTERNAL])
    good = server.result("resources/read", {"uri": prefix + "/sub/b.md"})
    assert good["contents"], good
    server.wait_all()
    server.liveness(tool=None)
    server.verify()
    assert not any(b"SECRET" in raw or b"U0VDUkVU" in raw or b"root:" in raw for raw in server.lines)


@POSIX
def test_directory_helper_symlink_swapped_in_after_the_check(servers, tree):
    base, outside = tree
    server, prefix = _files_server(servers, base)
    stop = threading.Event()
    real_file, real_dir = str(base / "a.txt"), str(base / "sub")

    errors = []

    def swap():                                   # a file and a directory become links out, and back
        secret, elsewhere = str(outside / "secret.txt"), str(outside / "outside")
        try:
            while not stop.is_set():
                os.symlink(secret, real_file + ".tmp")
                os.replace(real_file + ".tmp", real_file)             # atomic: the file is now a link
                os.rename(real_dir, real_dir + ".real")
                os.symlink(elsewhere, real_dir)                        # the directory is now a link
                with open(real_file + ".tmp", "w") as handle:
                    handle.write("alpha")
                os.replace(real_file + ".tmp", real_file)
                os.unlink(real_dir)
                os.rename(real_dir + ".real", real_dir)
        except OSError as exc:                    # pragma: no cover - reported below
            errors.append(exc)

    swapper = threading.Thread(target=swap, daemon=True)
    swapper.start()
    try:
        for number in range(300):
            uri = prefix + ("/a.txt" if number % 2 else "/sub/b.md")
            server.request("resources/read", {"uri": uri}, codes=[None] + REFUSALS + [INTERNAL])
        server.wait_all(30)
    finally:
        stop.set()
        swapper.join(5)
    assert not errors, errors
    server.liveness(tool=None)
    server.verify()
    assert not any(b"SECRET" in raw or b"U0VDUkVU" in raw for raw in server.lines)


@POSIX
def test_directory_helper_fifo_does_not_hang(servers, tree):
    base, _ = tree
    os.mkfifo(str(base / "pipe"))
    server, prefix = _files_server(servers, base)
    server.request("resources/read", {"uri": prefix + "/pipe"}, request_id="fifo",
                   codes=[None] + REFUSALS + [INTERNAL])
    try:
        server.wait("fifo", 3)
    except Failure:
        pass                                      # reported by verify as never answered
    server.liveness(tool=None)
    server.verify()


# -- the fuzzer, bounded ---------------------------------------------------------------------------------------------

def short_fuzz():
    """280 mutations, 7 server processes, one after another: 2 s or so of waits."""
    lines = []

    class Out:
        def write(self, text):
            lines.append(text)

    passed, failed, failures = fuzz.run(iterations=280, seed=20261130, batch=40, out=Out(), time_limit=12)
    return lines, failed, failures


def test_fuzzer_short_run():
    lines, failed, failures = short_fuzz()
    assert failed == 0, "".join(lines) + "\n" + "\n\n".join(
        "seed %d: %s\nlines: %s" % (f["seed"], f["error"][:800], [l[:200] for l in f["lines"]][:50])
        for f in failures[:2])
