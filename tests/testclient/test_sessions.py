"""One app, many connections (issue 13): each connection is its own session.

Every test here drives several connections to one ``MCPServer`` at the same
time and checks on the wire that each gets its own answers, progress and
notifications, and that what a tool returns is never edited by shaping.
"""

import collections
import copy
import threading

import pytest

from conftest import Wire
from minimcp import PROTOCOL_VERSIONS, Context, MCPServer, TestClient


def shared_app():
    app = MCPServer("shared", workers=32)
    started = collections.defaultdict(threading.Event)
    stopped = collections.defaultdict(threading.Event)

    @app.tool()
    def whoami(who: int, ctx: Context) -> str:
        """Say which connection asked, with two progress steps."""
        ctx.progress(1, 2)
        ctx.progress(2, 2)
        return "connection %d" % who

    @app.tool()
    def hold(who: int, ctx: Context) -> str:
        """Wait until cancelled."""
        started[who].set()
        try:
            ctx.sleep(30)
        finally:
            stopped[who].set()
        return "late"

    return app, started, stopped


def test_eight_connections_at_once_each_get_their_own_answers():
    app, started, stopped = shared_app()
    wires = [Wire(app) for _ in range(8)]
    for wire in wires:
        wire.initialize()
    barrier = threading.Barrier(len(wires))
    failures = []
    rounds = 25

    def drive(who, wire):
        try:
            barrier.wait(10)
            held = wire.request("tools/call", {"name": "hold", "arguments": {"who": who}})
            for number in range(rounds):          # every connection uses the same ids 2, 3, ...
                request_id = wire.request("tools/call", {"name": "whoami", "arguments": {"who": who},
                                                         "_meta": {"progressToken": "p%d" % number}})
                text = wire.response(request_id, 10)["result"]["content"][0]["text"]
                assert text == "connection %d" % who, text
            assert started[who].wait(10)
            wire.notify("notifications/cancelled", {"requestId": held})
            assert stopped[who].wait(10)           # the cancel reached this connection's call
            assert wire.result("ping") == {}
            assert held not in wire.stash          # ... and it was never answered
            progress = [n["params"]["progressToken"] for n in wire.notifications
                        if n["method"] == "notifications/progress"]
            assert sorted(progress) == sorted(["p%d" % n for n in range(rounds)] * 2), progress
        except BaseException as exc:               # reported below, with the connection
            failures.append((who, repr(exc)))

    threads = [threading.Thread(target=drive, args=(who, wire)) for who, wire in enumerate(wires)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not failures, failures

    app.add_tool(lambda: "new", name="late_tool")  # every initialized connection hears of it
    for wire in wires:
        message = wire.recv(5)
        assert message == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}, message
        assert "late_tool" in [t["name"] for t in wire.result("tools/list")["tools"]]
        wire.close()


def test_two_test_clients_on_one_app_do_not_cross_talk():
    app, _, _ = shared_app()
    first = TestClient(app, timeout=5)
    assert first.call_tool("whoami", {"who": 1})["content"][0]["text"] == "connection 1"
    second = TestClient(app, timeout=5)
    assert second.call_tool("whoami", {"who": 2})["content"][0]["text"] == "connection 2"
    assert first.call_tool("whoami", {"who": 1})["content"][0]["text"] == "connection 1"
    second.close()
    assert first.call_tool("whoami", {"who": 1})["content"][0]["text"] == "connection 1"
    first.close()


def test_a_pipe_and_a_test_client_on_one_app_at_once():
    app, started, stopped = shared_app()
    wire = Wire(app)
    wire.initialize("2025-06-18")
    with TestClient(app, protocol="2026-07-28", timeout=5) as client:
        held = wire.request("tools/call", {"name": "hold", "arguments": {"who": 0}})
        assert started[0].wait(10)
        for number in range(10):
            assert client.call_tool("whoami", {"who": 1})["content"][0]["text"] == "connection 1"
            assert wire.result("tools/call", {"name": "whoami", "arguments": {"who": 0}})["content"][0][
                "text"] == "connection 0"
        assert wire.result("ping") == {}
        wire.notify("notifications/cancelled", {"requestId": held})
        assert stopped[0].wait(10)
        assert client.call_tool("whoami", {"who": 1})["content"][0]["text"] == "connection 1"
    wire.close()


def test_a_second_connection_may_use_another_era():
    app, _, _ = shared_app()
    handshake = Wire(app)
    handshake.initialize("2024-11-05")
    with TestClient(app, protocol="2026-07-28", timeout=5) as modern:
        assert modern.call_tool("whoami", {"who": 9})["resultType"] == "complete"
    response = handshake.result("tools/call", {"name": "whoami", "arguments": {"who": 8}})
    assert "resultType" not in response and response["content"][0]["text"] == "connection 8"
    handshake.close()


CONSTANT_RESULT = {
    "content": [
        {"type": "text", "text": "t", "_meta": {"k": 1}, "annotations": {"audience": ["user"], "lastModified": "x"}},
        {"type": "image", "data": "aGk=", "mimeType": "image/png", "_meta": {"k": 2}},
        {"type": "audio", "data": "aGk=", "mimeType": "audio/wav"},
        {"type": "resource_link", "uri": "file:///a", "name": "a", "title": "A", "icons": [{"src": "x"}]},
        {"type": "resource", "resource": {"uri": "file:///b", "text": "b", "_meta": {"k": 3}}},
    ],
    "structuredContent": {"answer": [1, 2, {"deep": True}]},
    "_meta": {"k": 4},
}
CONSTANT_BLOCKS = {"content": [dict(block) for block in CONSTANT_RESULT["content"]]}   # no structuredContent
CONSTANT_MESSAGES = [{"role": "user", "content": CONSTANT_RESULT["content"][3]},
                     {"role": "assistant", "content": CONSTANT_RESULT["content"][2]}]
CONSTANT_CONTENTS = [{"uri": "fixture://constant", "text": "c", "mimeType": "text/plain", "_meta": {"k": 5}}]


@pytest.mark.parametrize("version", PROTOCOL_VERSIONS)
def test_shaping_never_edits_what_a_handler_returned(version):
    app = MCPServer("constants")
    app.add_tool(lambda: CONSTANT_RESULT, name="constant")
    app.add_tool(lambda: CONSTANT_BLOCKS, name="blocks")
    app.add_prompt(lambda: CONSTANT_MESSAGES, name="constant")
    app.add_resource(lambda: CONSTANT_CONTENTS, "fixture://constant")
    constants = (CONSTANT_RESULT, CONSTANT_BLOCKS, CONSTANT_MESSAGES, CONSTANT_CONTENTS)
    before = copy.deepcopy(constants)
    with TestClient(app, protocol=version) as client:
        for _ in range(2):                       # a second call sees the same constant
            result = client.call_tool("constant")
            blocks = client.call_tool("blocks")
            client.get_prompt("constant")
            client.read_resource("fixture://constant")
    assert constants == before
    if version == "2024-11-05":                  # shaped for the revision all the same
        for shaped in (result, blocks):
            assert [b["type"] for b in shaped["content"]] == ["text", "image", "text", "text", "resource"]
        assert "structuredContent" not in result
