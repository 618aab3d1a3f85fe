"""The stdio engine, in process: framing, JSON-RPC errors, bounded input, lifecycle,
batches, logging and shutdown -- asserted as bytes in, JSON lines out.

Issue 2 ("Engine", "Lifecycle", "Logging") and the spec digest sections 3-5 are the
reference for every expectation here.
"""

import json
import threading
import time
import tracemalloc

import pytest

from conftest import HANDSHAKE_VERSIONS, Wire, check_line, load_example, transcript

from minimcp import Context, MCPServer

LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
LATEST_HANDSHAKE = "2025-11-25"


# -- helpers -------------------------------------------------------------------

def line(message):
    """One wire line, compact or not does not matter on input."""
    return json.dumps(message).encode("utf-8") + b"\n"


def req(request_id, method, params=None):
    message = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def note(method, params=None):
    message = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return message


def init(version=LATEST_HANDSHAKE, request_id="init", capabilities=None):
    return req(request_id, "initialize", {"protocolVersion": version, "capabilities": capabilities or {},
                                          "clientInfo": {"name": "pytest", "version": "1"}})


def handshake(version=LATEST_HANDSHAKE):
    """The lines that open a handshake-era session."""
    return [init(version), note("notifications/initialized")]


def echo_server(**options):
    """A server with only an ``echo`` tool."""
    app = MCPServer("echo-only", dialect="minimcp", version="1.2.3", **options)

    @app.tool()
    def echo(text: str) -> str:
        """Return the text."""
        return text

    return app


def only(messages):
    assert len(messages) == 1, "expected exactly one message, got %r" % (messages,)
    return messages[0]


def error_of(message, request_id, code):
    """Assert ``message`` is exactly an error response with that id and code; return its text."""
    assert isinstance(message, dict), message
    assert set(message) == {"jsonrpc", "id", "error"}, message
    assert message["id"] == request_id and type(message["id"]) is type(request_id), message
    assert message["error"]["code"] == code, message
    text = message["error"]["message"]
    assert isinstance(text, str) and text.strip(), message
    return text


def says(text, *words):
    """The error message names what was wrong (any of ``words``, case-insensitive)."""
    lowered = text.lower()
    assert any(word.lower() in lowered for word in words), "%r does not mention any of %r" % (text, words)


def after_handshake(app, lines, version=LATEST_HANDSHAKE):
    """Transcript of a handshake followed by ``lines``; the initialize response is checked and removed."""
    out = transcript(app, handshake(version) + list(lines))
    assert out and out[0].get("id") == "init" and "result" in out[0], out
    return out[1:]


PING_OK = {"jsonrpc": "2.0", "id": "last", "result": {}}
LAST_PING = req("last", "ping")


# -- framing ---------------------------------------------------------------------

def test_crlf_line_endings_are_accepted(everything):
    out = transcript(everything, [b'{"jsonrpc":"2.0","id":1,"method":"ping"}\r\n',
                                  b'{"jsonrpc": "2.0", "id": 2, "method": "ping"}\r\n'])
    assert out == [{"jsonrpc": "2.0", "id": 1, "result": {}}, {"jsonrpc": "2.0", "id": 2, "result": {}}]


def test_blank_and_whitespace_lines_are_ignored(everything):
    out = transcript(everything, [b"\n", b"   \n", b"\t\n", b"\r\n", b" \t \r\n", LAST_PING])
    assert out == [PING_OK]


def test_last_line_without_newline_at_eof_is_answered(everything):
    out = transcript(everything, [b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n',
                                  b'{"jsonrpc":"2.0","id":2,"method":"ping"}'])
    assert out == [{"jsonrpc": "2.0", "id": 1, "result": {}}, {"jsonrpc": "2.0", "id": 2, "result": {}}]


def test_output_is_compact_json_ending_in_a_single_lf(wire):
    wire.initialize()
    wire.call("tools/list")
    wire.call("tools/call", {"name": "add", "arguments": {"a": 2, "b": 3}})
    wire.call("nonexistent/method")
    assert len(wire.raw_lines) >= 4
    for raw in wire.raw_lines:
        assert raw.endswith(b"\n") and not raw.endswith(b"\r\n"), raw[-20:]
        assert raw.count(b"\n") == 1 and b"\r" not in raw, raw[:200]
        parsed = json.loads(raw.decode("utf-8"))
        compact = json.dumps(parsed, separators=(",", ":"), ensure_ascii=False).encode("utf-8") + b"\n"
        assert raw == compact, "not compact JSON: %r" % raw[:200]


def test_non_ascii_round_trips_as_utf8_bytes(legacy):
    text = "h\u00e9llo \u4e2d\u6587 \u0416 \U0001F600"
    message = legacy.call("tools/call", {"name": "echo", "arguments": {"text": text}})
    assert message["result"]["content"] == [{"type": "text", "text": text}]
    raw = legacy.raw_lines[-1]
    assert text.encode("utf-8") in raw, raw
    assert b"\\u" not in raw, "non-ASCII was escaped instead of written as UTF-8: %r" % raw


def test_raw_newlines_never_appear_inside_a_message(legacy):
    text = "one\ntwo\r\nthree\rfour"
    message = legacy.call("tools/call", {"name": "echo", "arguments": {"text": text}})
    assert message["result"]["content"] == [{"type": "text", "text": text}]
    raw = legacy.raw_lines[-1]
    assert raw.count(b"\n") == 1 and b"\r" not in raw, raw


def test_line_separators_are_not_line_breaks_and_never_written_raw(legacy):
    text = "a\u2028b\u2029c\x85d"
    # Raw U+2028/U+2029/U+0085 inside a JSON string on input: one message, not several.
    legacy.send_raw(json.dumps(req(41, "tools/call", {"name": "echo", "arguments": {"text": text}}),
                               ensure_ascii=False).encode("utf-8") + b"\n")
    message = legacy.response(41)
    assert message["result"]["content"] == [{"type": "text", "text": text}]
    raw = legacy.raw_lines[-1]
    assert "\u2028".encode("utf-8") not in raw and "\u2029".encode("utf-8") not in raw, raw


def test_lone_surrogate_escape_still_yields_a_valid_utf8_line(legacy):
    legacy.send_raw(b'{"jsonrpc":"2.0","id":5,"method":"tools/call",'
                    b'"params":{"name":"echo","arguments":{"text":"x\\ud800y \\u00e9"}}}\n')
    message = legacy.response(5)        # check_line decoded it as strict UTF-8 and parsed it
    assert message["result"]["content"] == [{"type": "text", "text": "x\ud800y \u00e9"}]
    legacy.raw_lines[-1].decode("utf-8")


def test_utf8_bom_before_the_first_message_is_tolerated(everything):
    out = transcript(everything, [b'\xef\xbb\xbf{"jsonrpc":"2.0","id":1,"method":"ping"}\n', LAST_PING])
    assert out == [{"jsonrpc": "2.0", "id": 1, "result": {}}, PING_OK]


def test_concurrent_responses_are_never_interleaved(legacy):
    texts = {}
    for n in range(24):
        texts[1000 + n] = ("%02d" % n) * 40000           # 80 kB each, written from 8 worker threads
        legacy.request("tools/call", {"name": "echo", "arguments": {"text": texts[1000 + n]}}, id=1000 + n)
    for request_id, text in texts.items():
        message = legacy.response(request_id, timeout=20)
        assert message["result"]["content"] == [{"type": "text", "text": text}]


# -- JSON-RPC errors -------------------------------------------------------------------

def test_invalid_json_is_a_parse_error_with_null_id(everything):
    out = transcript(everything, [b'{"jsonrpc":"2.0","id":1,"method":"ping"\n', b"{bad json}\n", LAST_PING])
    assert len(out) == 3 and out[2] == PING_OK
    for message in out[:2]:
        says(error_of(message, None, -32700), "json", "parse")


PING_TEXT = '{"jsonrpc":"2.0","id":1,"method":"ping"}'


@pytest.mark.parametrize("text", ["  " + PING_TEXT, "\t" + PING_TEXT + " \t ", PING_TEXT + PING_TEXT.replace("1", "2"),
                                  PING_TEXT + " x", "{}", " ", "nul", '{"a": NaN}'])
def test_whitespace_and_extra_data_around_a_message_are_judged_as_json_does(everything, text):
    """minimcp parses with json's C scanner directly: the answers must be those of json.loads."""
    try:
        expected = json.loads(text)
    except ValueError as exc:
        expected = exc
    out = transcript(everything, [text.encode() + b"\n", LAST_PING])
    assert out[-1] == PING_OK
    if not text.strip():
        assert out == [PING_OK]                    # a blank line is no message
    elif isinstance(expected, ValueError):
        says(error_of(out[0], None, -32700), "json")
        assert str(expected) in out[0]["error"]["message"]
    elif expected.get("method") == "ping":
        assert out[0] == {"jsonrpc": "2.0", "id": 1, "result": {}}
    else:
        assert out[0]["error"]["code"] == -32600   # {} and {"a": NaN} are objects, not requests


def test_invalid_utf8_is_a_parse_error(everything):
    out = transcript(everything, [b'{"jsonrpc":"2.0","id":1,"method":"\xff\xfe"}\n', b"\xc3\x28\n", LAST_PING])
    assert len(out) == 3 and out[2] == PING_OK
    for message in out[:2]:
        says(error_of(message, None, -32700), "utf-8", "utf8")


@pytest.mark.parametrize("payload", [b"42", b"-1.5", b'"ping"', b"null", b"true", b"[]", b"[[1]]", b"[[]]"])
@pytest.mark.parametrize("session", ["fresh", "initialized"])
def test_non_object_json_is_an_invalid_request(everything, payload, session):
    lines = (handshake() if session == "initialized" else []) + [payload + b"\n", LAST_PING]
    out = transcript(everything, lines)
    if session == "initialized":
        assert out[0]["id"] == "init"
        out = out[1:]
    assert len(out) == 2 and out[1] == PING_OK, out
    text = error_of(out[0], None, -32600)
    says(text, "object", "batch")


@pytest.mark.parametrize("message", [
    {"id": 1, "method": "ping"},
    {"jsonrpc": "1.0", "id": 1, "method": "ping"},
    {"jsonrpc": 2.0, "id": 1, "method": "ping"},
    {"jsonrpc": None, "id": 1, "method": "ping"},
], ids=["missing", "1.0", "number", "null"])
def test_jsonrpc_member_must_be_2_0(everything, message):
    out = transcript(everything, [message, LAST_PING])
    assert len(out) == 2 and out[1] == PING_OK
    says(error_of(out[0], 1, -32600), "jsonrpc")


@pytest.mark.parametrize("method", [5, None, ["ping"], {"name": "ping"}, True])
def test_method_must_be_a_string(everything, method):
    out = transcript(everything, [{"jsonrpc": "2.0", "id": 3, "method": method}, LAST_PING])
    assert len(out) == 2 and out[1] == PING_OK
    says(error_of(out[0], 3, -32600), "method")


def test_request_without_method_is_invalid(everything):
    out = transcript(everything, [{"jsonrpc": "2.0", "id": 4, "params": {}}, LAST_PING])
    assert len(out) == 2 and out[1] == PING_OK
    says(error_of(out[0], 4, -32600), "method")


@pytest.mark.parametrize("bad_id", [{}, {"a": 1}, [1], 1.5, 2.0, True, False, None],
                         ids=["object", "object2", "array", "float", "float-integral", "true", "false", "null"])
def test_id_must_be_string_or_integer(everything, bad_id):
    out = transcript(everything, [{"jsonrpc": "2.0", "id": bad_id, "method": "ping"}, LAST_PING])
    assert len(out) == 2 and out[1] == PING_OK
    says(error_of(out[0], None, -32600), "id")


@pytest.mark.parametrize("good_id", [0, -7, 2 ** 62, "", "a b", "1", "\u00e9"])
def test_ids_are_echoed_exactly(everything, good_id):
    out = transcript(everything, [req(good_id, "ping")])
    assert out == [{"jsonrpc": "2.0", "id": good_id, "result": {}}]
    assert type(out[0]["id"]) is type(good_id)


def test_unknown_method_is_method_not_found_and_names_it(everything):
    out = after_handshake(everything, [req(9, "frobnicate/widgets"), req("s", "tools/frobnicate")])
    assert len(out) == 2
    assert "frobnicate/widgets" in error_of(out[0], 9, -32601)
    assert "tools/frobnicate" in error_of(out[1], "s", -32601)


@pytest.mark.parametrize("params", [[1, 2], "x", 5, True])
def test_params_must_be_an_object(everything, params):
    out = after_handshake(everything, [req(1, "ping", params), req(2, "tools/list", params)])
    assert len(out) == 2
    says(error_of(out[0], 1, -32602), "params")
    says(error_of(out[1], 2, -32602), "params")


def test_unknown_notifications_get_no_output_at_all(everything):
    out = after_handshake(everything, [note("notifications/whatever"), note("frobnicate"),
                                       note("notifications/whatever", {"x": 1}), note("nope", [1, 2]),
                                       LAST_PING])
    assert out == [PING_OK]


def test_notifications_are_never_answered(everything):
    out = after_handshake(everything, [
        note("notifications/initialized"),
        note("notifications/cancelled", {"requestId": 12345}),
        note("notifications/cancelled", {"requestId": None}),
        note("notifications/cancelled", "garbage"),
        note("notifications/progress", {"progressToken": "t", "progress": 1}),
        note("notifications/roots/list_changed"),
        note("ping"),
        note("tools/list"),
        note("tools/call", {"name": "log", "arguments": {"message": "must not run"}}),
        note("tools/call", {"name": "nope"}),
        note("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}}),
        LAST_PING,
    ])
    assert out == [PING_OK]


def test_responses_to_ids_the_server_never_sent_are_dropped_silently(everything):
    out = after_handshake(everything, [
        {"jsonrpc": "2.0", "id": 99, "result": {}},
        {"jsonrpc": "2.0", "id": "never-sent", "result": {"content": []}},
        {"jsonrpc": "2.0", "id": 7, "error": {"code": -32601, "message": "nope"}},
        {"jsonrpc": "2.0", "id": 8, "error": "not even an object"},
        LAST_PING,
    ])
    assert out == [PING_OK]


def test_duplicate_id_while_in_flight_is_rejected():
    app = MCPServer("dup")
    release = threading.Event()                      # the call stays in flight until the test is done

    @app.tool()
    def held() -> str:
        release.wait(10)
        return "done"

    legacy = Wire(app)
    legacy.initialize()
    legacy.request("tools/call", {"name": "held"}, id=50)
    legacy.request("ping", id=50)                    # read after the call took the id: no wait needed
    duplicate = legacy.recv()
    says(error_of(duplicate, 50, -32600), "50", "in use", "in flight", "duplicate")
    legacy.request("ping", id="50")                   # a string id is a different id
    assert legacy.response("50") == {"jsonrpc": "2.0", "id": "50", "result": {}}
    release.set()
    finished = legacy.response(50)
    assert finished["result"]["content"] == [{"type": "text", "text": "done"}]
    # Once finished, the id is free again.
    assert legacy.response(legacy.request("ping", id=50)) == {"jsonrpc": "2.0", "id": 50, "result": {}}
    legacy.close()


def test_internal_failure_is_32603_without_a_traceback():
    app = MCPServer("broken", dialect="minimcp")

    @app.tool()
    def broken() -> str:
        """Return a result that cannot be written as JSON."""
        return {"content": [{"type": "text", "text": float("nan")}]}

    wire = Wire(app)
    wire.initialize()
    message = wire.call("tools/call", {"name": "broken", "arguments": {}})
    text = error_of(message, message["id"], -32603)
    says(text, "json", "serialis", "serializ")
    assert "Traceback" not in text and 'File "' not in text
    assert wire.call("ping")["result"] == {}
    assert wire.close() == []


# -- bounded input --------------------------------------------------------------------

def _big_echo(request_id_first, size=10 * 1024):
    body = '"params":{"name":"echo","arguments":{"text":"%s"}}' % ("a" * size)
    if request_id_first:
        return ('{"jsonrpc":"2.0","id":7,"method":"tools/call",%s}\n' % body).encode("utf-8")
    return ('{"jsonrpc":"2.0","method":"tools/call",%s,"id":7}\n' % body).encode("utf-8")


def test_oversized_line_is_answered_with_its_own_id():
    wire = Wire(echo_server(max_message_size=1024))
    wire.initialize()
    wire.send_raw(_big_echo(True))
    text = error_of(wire.recv(), 7, -32600)
    says(text, "1024", "large", "size", "long")
    assert wire.call("tools/call", {"name": "echo", "arguments": {"text": "still here"}})["result"] == \
        {"content": [{"type": "text", "text": "still here"}]}
    assert wire.close() == []


def test_oversized_line_without_a_readable_id_gets_null():
    wire = Wire(echo_server(max_message_size=1024))
    wire.initialize()
    wire.send_raw(_big_echo(False))
    says(error_of(wire.recv(), None, -32600), "1024", "large", "size", "long")
    # A nested "id" ahead of the real one is not the request's id.
    wire.send_raw(b'{"jsonrpc":"2.0","params":{"id":5,"text":"' + b"b" * 4096 + b'"},"id":6,"method":"x"}\n')
    says(error_of(wire.recv(), None, -32600), "1024", "large", "size", "long")
    assert wire.call("ping")["result"] == {}
    assert wire.close() == []


def test_message_under_the_limit_is_served():
    wire = Wire(echo_server(max_message_size=1024))
    wire.initialize()
    text = "c" * 900
    wire.send_raw(line(req(3, "tools/call", {"name": "echo", "arguments": {"text": text}})))
    assert wire.response(3)["result"] == {"content": [{"type": "text", "text": text}]}
    wire.close()


def test_oversized_line_is_never_held_whole_in_memory():
    wire = Wire(echo_server(max_message_size=1024))
    wire.initialize()
    chunk = b"z" * (1 << 20)
    tracemalloc.start()                      # fresh start: the peak counts only what follows
    try:
        baseline = tracemalloc.get_traced_memory()[0]
        wire.send_raw(b'{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"echo","arguments":{"text":"')
        for _ in range(48):                                   # a 48 MiB line
            wire.send_raw(chunk)
        wire.send_raw(b'"}}}\n')
        answer = wire.recv(timeout=20)
        peak = tracemalloc.get_traced_memory()[1] - baseline
    finally:
        tracemalloc.stop()
    error_of(answer, 8, -32600)
    assert peak < 16 * (1 << 20), "reading a 48 MiB line peaked at %.1f MiB" % (peak / (1 << 20))
    assert wire.call("ping")["result"] == {}
    wire.close()


@pytest.mark.parametrize("head,opening,closing,tail", [
    (b"", b"[", b"]", b""),
    (b"", b'{"a":', b"}", b"1"),
    (b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":', b"[", b"]", b"}}"),
], ids=["arrays", "objects", "inside-a-request"])
def test_deeply_nested_json_is_a_parse_error_not_a_crash(head, opening, closing, tail):
    wire = Wire(echo_server())
    depth = 100000
    if tail == b"1":
        payload = opening * depth + tail + closing * depth
    else:
        payload = head + opening * depth + closing * depth + tail
    wire.send_raw(payload + b"\n")
    # The id is answered when it can be read before the nesting, as for oversized lines.
    says(error_of(wire.recv(), 1 if head else None, -32700), "nest", "deep", "depth", "recurs")
    assert wire.call("ping")["result"] == {}
    wire.initialize()
    assert wire.call("tools/call", {"name": "echo", "arguments": {"text": "alive"}})["result"]["content"] == \
        [{"type": "text", "text": "alive"}]
    wire.close()


# -- lifecycle -------------------------------------------------------------------------

@pytest.mark.parametrize("version", HANDSHAKE_VERSIONS)
def test_initialize_echoes_each_handshake_revision(everything, version):
    out = transcript(everything, [init(version)])
    message = only(out)
    assert message["id"] == "init"
    assert message["result"]["protocolVersion"] == version
    assert message["result"]["serverInfo"]["name"] == "everything"
    assert message["result"]["serverInfo"]["version"] == "1.0.0"
    assert isinstance(message["result"]["capabilities"], dict)


@pytest.mark.parametrize("version", ["1999-01-01", "2026-07-28", "2025-01-01", "2099-12-31", "latest", ""])
def test_unknown_version_gets_the_latest_handshake_revision_not_an_error(everything, version):
    message = only(transcript(everything, [init(version)]))
    assert "error" not in message, message
    assert message["result"]["protocolVersion"] == LATEST_HANDSHAKE
    # ... and the session then works under that revision.
    out = after_handshake(everything, [LAST_PING], version=version)
    assert out == [PING_OK]


def test_capabilities_list_only_what_exists():
    result = only(transcript(echo_server(), [init()]))["result"]
    capabilities = result["capabilities"]
    assert "tools" in capabilities
    for absent in ("resources", "prompts", "completions", "tasks", "experimental"):
        assert absent not in capabilities, capabilities
    assert set(capabilities) <= {"tools", "logging"}, capabilities

    empty = only(transcript(MCPServer("empty", dialect="minimcp"), [init()]))["result"]["capabilities"]
    for absent in ("tools", "resources", "prompts", "completions", "tasks"):
        assert absent not in empty, empty


@pytest.mark.parametrize("version", HANDSHAKE_VERSIONS)
def test_everything_capabilities_per_revision(version, everything):
    app = everything
    capabilities = only(transcript(app, [init(version)]))["result"]["capabilities"]
    for present in ("tools", "resources", "prompts", "logging"):
        assert present in capabilities, capabilities
    if version == "2024-11-05":
        assert "completions" not in capabilities, capabilities
    else:
        assert "completions" in capabilities, capabilities


@pytest.mark.parametrize("version,expected", [
    ("2024-11-05", {"name": "srv", "version": "9.9"}),
    ("2025-03-26", {"name": "srv", "version": "9.9"}),
    ("2025-06-18", {"name": "srv", "version": "9.9", "title": "Server Title"}),
    ("2025-11-25", {"name": "srv", "version": "9.9", "title": "Server Title", "description": "What it does",
                    "icons": [{"src": "https://example.com/icon.png", "mimeType": "image/png"}],
                    "websiteUrl": "https://example.com"}),
])
def test_server_info_fields_only_where_the_revision_defines_them(version, expected):
    app = MCPServer("srv", dialect="minimcp", version="9.9", title="Server Title", description="What it does",
                    icons=[{"src": "https://example.com/icon.png", "mimeType": "image/png"}],
                    website_url="https://example.com")
    result = only(transcript(app, [init(version)]))["result"]
    assert result["serverInfo"] == expected


def test_instructions_are_sent_when_given(everything):
    result = only(transcript(everything, [init()]))["result"]
    assert result["instructions"] == "A test fixture that exercises every MCP feature minimcp offers."
    plain = only(transcript(MCPServer("plain", dialect="minimcp"), [init()]))["result"]
    assert "instructions" not in plain
    assert set(plain) == {"protocolVersion", "capabilities", "serverInfo"}


def test_ping_before_initialize(everything):
    assert transcript(everything, [req(1, "ping")]) == [{"jsonrpc": "2.0", "id": 1, "result": {}}]


def test_ping_without_params_and_with_empty_params_after_initialize(everything):
    out = after_handshake(everything, [req(1, "ping"), req(2, "ping", {})])
    assert out == [{"jsonrpc": "2.0", "id": 1, "result": {}}, {"jsonrpc": "2.0", "id": 2, "result": {}}]


def test_requests_before_initialize_are_refused(everything):
    out = transcript(everything, [
        req(1, "tools/list"),
        req(2, "tools/call", {"name": "log", "arguments": {"message": "must not run"}}),
        LAST_PING,
    ])
    assert len(out) == 3 and out[2] == PING_OK, out       # and no notifications/message: the tool never ran
    for request_id, message in zip((1, 2), out):
        assert message["id"] == request_id and "error" in message, message
        assert message["error"]["code"] in (-32600, -32601, -32602), message
        says(message["error"]["message"], "initializ")


def test_second_initialize_is_refused_and_keeps_the_first_session(everything):
    out = transcript(everything, handshake("2025-03-26") + [init("2025-06-18", request_id="again"),
                                                            [req("b1", "ping")]])
    assert out[0]["result"]["protocolVersion"] == "2025-03-26"
    assert out[1]["id"] == "again" and "error" in out[1], out
    says(out[1]["error"]["message"], "initializ")
    # Still a 2025-03-26 session: batches are still accepted.
    assert out[2] == [{"jsonrpc": "2.0", "id": "b1", "result": {}}]
    assert len(out) == 3


@pytest.mark.parametrize("params,word", [
    ({"protocolVersion": "2025-11-25", "capabilities": "garbage", "clientInfo": {"name": "x", "version": "1"}},
     "capabilities"),
    ({"protocolVersion": "2025-11-25", "capabilities": [1], "clientInfo": {"name": "x", "version": "1"}},
     "capabilities"),
    ({"protocolVersion": 20251125, "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}},
     "protocolVersion"),
])
def test_initialize_with_bad_params_is_invalid_params(everything, params, word):
    out = transcript(everything, [req(1, "initialize", params), init(), LAST_PING])
    says(error_of(out[0], 1, -32602), word)
    # A refused initialize does not count: a proper one still succeeds.
    assert out[1]["id"] == "init" and out[1]["result"]["protocolVersion"] == LATEST_HANDSHAKE
    assert out[2:] == [PING_OK]


# -- batches --------------------------------------------------------------------------

def test_batch_at_2025_03_26_gets_one_array_of_responses(everything):
    batch = [req(1, "ping"),
             note("notifications/initialized"),
             req(2, "tools/call", {"name": "echo", "arguments": {"text": "in a batch"}}),
             note("notifications/cancelled", {"requestId": 999}),
             req("three", "nope/nothing")]
    out = after_handshake(everything, [batch], version="2025-03-26")
    answer = only(out)
    assert isinstance(answer, list) and len(answer) == 3, answer
    by_id = {m["id"]: m for m in answer}
    assert by_id[1] == {"jsonrpc": "2.0", "id": 1, "result": {}}
    assert by_id[2]["result"]["content"] == [{"type": "text", "text": "in a batch"}]
    assert by_id["three"]["error"]["code"] == -32601


def test_batch_of_only_notifications_gets_no_output(everything):
    out = after_handshake(everything, [[note("notifications/initialized"),
                                        note("notifications/cancelled", {"requestId": 1}),
                                        {"jsonrpc": "2.0", "id": 77, "result": {}}],
                                       LAST_PING], version="2025-03-26")
    assert out == [PING_OK]


def test_empty_batch_is_invalid_request(everything):
    out = after_handshake(everything, [b"[]\n", LAST_PING], version="2025-03-26")
    assert len(out) == 2 and out[1] == PING_OK
    error_of(out[0], None, -32600)


def test_batch_containing_initialize_is_invalid_request(everything):
    out = after_handshake(everything, [[req(1, "ping"), init(request_id=2)], LAST_PING], version="2025-03-26")
    assert out[-1] == PING_OK and len(out) == 2, out
    answer = out[0]
    errors = [m for m in (answer if isinstance(answer, list) else [answer]) if "error" in m]
    assert any(m["error"]["code"] == -32600 and "initialize" in m["error"]["message"] for m in errors), answer
    assert not any(isinstance(m.get("result"), dict) and "protocolVersion" in m["result"]
                   for m in (answer if isinstance(answer, list) else [answer])), answer


@pytest.mark.parametrize("version", [None, "2024-11-05", "2025-06-18", "2025-11-25"])
def test_arrays_are_invalid_outside_2025_03_26(everything, version):
    lines = [[req(1, "ping"), req(2, "ping")], LAST_PING]
    out = transcript(everything, lines) if version is None else after_handshake(everything, lines, version)
    assert len(out) == 2 and out[1] == PING_OK, out
    says(error_of(out[0], None, -32600), "batch")


# -- logging --------------------------------------------------------------------------

@pytest.mark.parametrize("level", LEVELS)
def test_set_level_accepts_each_rfc5424_level(everything, level):
    out = after_handshake(everything, [req(1, "logging/setLevel", {"level": level})])
    assert out == [{"jsonrpc": "2.0", "id": 1, "result": {}}]


@pytest.mark.parametrize("params", [{"level": "verbose"}, {"level": "INFO"}, {"level": 3}, {}, {"level": None}])
def test_set_level_rejects_invalid_levels(everything, params):
    out = after_handshake(everything, [req(1, "logging/setLevel", params)])
    says(error_of(only(out), 1, -32602), "level")


def _log_calls(wire, levels):
    """Call the ``log`` tool once per level; return the notifications/message params seen."""
    del wire.notifications[:]
    for level in levels:
        request_id = wire.request("tools/call", {"name": "log", "arguments": {"message": "m-" + level,
                                                                            "level": level}})
        assert wire.response(request_id)["result"]["content"] == [{"type": "text", "text": "logged"}]
    found = [n for n in wire.notifications if n["method"] == "notifications/message"]
    assert len(found) == len(wire.notifications), wire.notifications
    return [n["params"] for n in found]


def test_set_level_warning_filters_lower_levels(legacy):
    assert legacy.result("logging/setLevel", {"level": "warning"}) == {}
    assert _log_calls(legacy, ["info"]) == []
    assert _log_calls(legacy, ["error"]) == [{"level": "error", "data": "m-error"}]


def test_set_level_threshold_is_at_or_above(legacy):
    assert legacy.result("logging/setLevel", {"level": "warning"}) == {}
    sent = _log_calls(legacy, LEVELS)
    assert sent == [{"level": level, "data": "m-" + level} for level in LEVELS[3:]]


def test_log_notification_is_sent_before_the_response(legacy):
    request_id = legacy.request("tools/call", {"name": "log", "arguments": {"message": "first", "level": "error"}})
    first = legacy.recv()
    assert first == {"jsonrpc": "2.0", "method": "notifications/message",
                     "params": {"level": "error", "data": "first"}}
    assert legacy.recv()["id"] == request_id


def test_without_set_level_log_messages_are_sent(legacy):
    assert _log_calls(legacy, ["info"]) == [{"level": "info", "data": "m-info"}]


# -- shutdown -------------------------------------------------------------------------

def _closing_time(wire):
    start = time.monotonic()
    wire.to_server.close()
    wire.server_thread.join(10)
    elapsed = time.monotonic() - start
    assert not wire.server_thread.is_alive(), "serve() did not return after stdin closed"
    wire.reader_thread.join(5)
    if wire.server_error is not None:
        raise wire.server_error
    return elapsed


def test_serve_returns_promptly_when_stdin_closes_idle(wire):
    wire.initialize()
    assert wire.call("ping")["result"] == {}
    elapsed = _closing_time(wire)
    assert elapsed < 0.5, "serve() took %.3fs to return after EOF while idle (issue: 50 ms)" % elapsed


def test_serve_returns_promptly_on_eof_before_any_message(everything):
    wire = Wire(everything)
    elapsed = _closing_time(wire)
    assert elapsed < 0.5, elapsed
    assert wire.raw_lines == []


def test_eof_while_slow_tool_runs_returns_within_the_grace(everything):
    wire = Wire(everything)
    wire.initialize()
    wire.request("tools/call", {"name": "slow", "arguments": {"seconds": 30, "steps": 300},
                                "_meta": {"progressToken": "eof"}})
    assert wire.recv()["method"] == "notifications/progress"        # EOF finds it running
    elapsed = _closing_time(wire)
    assert elapsed < everything.shutdown_grace + 1.0, elapsed


def _stubborn_server(grace):
    app = MCPServer("stubborn", dialect="minimcp", shutdown_grace=grace)
    running = threading.Event()                  # the test waits on it: EOF finds the tool running

    @app.tool()
    def stubborn(seconds: float) -> str:
        """Sleep without ever looking at cancellation."""
        running.set()
        time.sleep(seconds)
        return "finished"

    return app, running


def test_shutdown_grace_bounds_the_wait_for_a_busy_handler():
    app, running = _stubborn_server(0.1)
    wire = Wire(app)
    wire.initialize()
    wire.request("tools/call", {"name": "stubborn", "arguments": {"seconds": 6}})
    assert running.wait(5)
    elapsed = _closing_time(wire)
    assert elapsed < 2.0, "serve() waited %.2fs with shutdown_grace=0.1" % elapsed


def test_response_computed_before_eof_is_not_lost(everything):
    """Requests piped in and then EOF (``printf ... | server``) must all be answered.

    A finished handler whose response is still being encoded/written when stdin
    closes must not be dropped by the shutdown.
    """
    text = "\u00e9" * 2000000
    out = after_handshake(everything, [req(1, "tools/call", {"name": "echo", "arguments": {"text": text}})])
    assert len(out) == 1, "the response to the request sent before EOF was lost"
    assert out[0]["id"] == 1 and out[0]["result"]["content"] == [{"type": "text", "text": text}]


def test_eof_answers_every_request_it_cancels(everything):
    """``printf ... | server``: a request the end of input cancels is answered with an error, not lost."""
    wire = Wire(everything)
    wire.initialize()
    request_id = wire.request("tools/call", {"name": "slow", "arguments": {"seconds": 30, "steps": 300},
                                             "_meta": {"progressToken": "eof"}})
    assert wire.recv()["method"] == "notifications/progress"        # EOF finds it running
    _closing_time(wire)
    answers = [check_line(raw) for raw in wire.raw_lines if b'"id"' in raw]
    assert answers[-1] == {"jsonrpc": "2.0", "id": request_id,
                           "error": {"code": -32603, "message": "the server is shutting down"}}


def test_eof_answers_a_handler_still_running_when_the_grace_is_over():
    app, running = _stubborn_server(0.1)
    wire = Wire(app)
    wire.initialize()
    request_id = wire.request("tools/call", {"name": "stubborn", "arguments": {"seconds": 6}})
    assert running.wait(5)
    _closing_time(wire)
    answers = [check_line(raw) for raw in wire.raw_lines]
    assert answers[-1] == {"jsonrpc": "2.0", "id": request_id,
                           "error": {"code": -32603, "message": "the server is shutting down"}}


def test_an_async_call_the_eof_cancels_before_it_starts_never_runs():
    """Queued behind a busy worker when input ends: cancelled before its first step, and answered.

    (It once ran on, uncancelled, through the whole grace: its cancel had come before it
    could listen for one.)
    """
    app = MCPServer("queued", dialect="minimcp", workers=1, shutdown_grace=30.0)
    busy, started = threading.Event(), []

    @app.tool()
    def hold(ctx: Context) -> str:
        """Hold the only worker until the stop cancels it."""
        busy.set()
        ctx.sleep(60)                    # wakes with Cancelled when the stop cancels it
        return "held"

    @app.tool()
    async def queued() -> str:
        started.append(True)
        return "ran"

    wire = Wire(app)
    wire.initialize()
    held = wire.request("tools/call", {"name": "hold", "arguments": {}})
    assert busy.wait(5)
    waiting = wire.request("tools/call", {"name": "queued", "arguments": {}})
    assert wire.result("ping") == {}             # answered by the reader: the call before it was read
    _closing_time(wire)
    answers = {message["id"]: message for message in map(check_line, wire.raw_lines) if "id" in message}
    assert started == [], "the queued call ran after the stop had cancelled it"
    assert answers[waiting]["error"] == {"code": -32603, "message": "the server is shutting down"}
    assert answers[held]["error"] == {"code": -32603, "message": "the server is shutting down"}


def test_handler_finishing_within_the_grace_still_answers():
    wire = Wire(_stubborn_server(5.0)[0])
    wire.initialize()
    request_id = wire.request("tools/call", {"name": "stubborn", "arguments": {"seconds": 0.3}})
    elapsed = _closing_time(wire)
    assert elapsed < 4.0, elapsed
    answers = [check_line(raw) for raw in wire.raw_lines]
    assert answers[-1] == {"jsonrpc": "2.0", "id": request_id,
                           "result": {"content": [{"type": "text", "text": "finished"}]}}
