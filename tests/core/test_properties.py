"""Three properties a mutation check found under-tested (issue 29), each on the wire.

The servers here are plain ``MCPServer`` objects (no example, no component) driven over
two OS pipes by ``conftest.Wire``: bytes in, JSON lines out.

- a tool that ignores cancellation, cancelled while it runs, never has its result written;
- a notification longer than ``max_output_size`` is never written, and the session goes on;
- following ``nextCursor`` never repeats a cursor and lists every name exactly once.
"""

import json
import threading

import pytest

from conftest import HANDSHAKE_VERSIONS, Wire, check_line
from minimcp import Context, MCPServer


# -- a cancelled call that runs on regardless -----------------------------------------------

@pytest.mark.parametrize("version", [HANDSHAKE_VERSIONS[0], HANDSHAKE_VERSIONS[-1]])
def test_a_tool_that_ignores_cancellation_never_has_its_result_written(version):
    """The cancel must find the call running (not queued: that path never runs the tool),
    and the tool must return afterwards: the server then holds a result it must not send."""
    started, cancel_read, returned = threading.Event(), threading.Event(), threading.Event()
    app = MCPServer("stubborn")

    @app.tool()
    def stubborn() -> str:
        """Waits for the test, not for its Context: it never sees the cancellation."""
        started.set()
        assert cancel_read.wait(10), "the test never let the tool return"
        returned.set()
        return "RESULT-AFTER-CANCEL"

    wire = Wire(app)
    try:
        wire.initialize(version)
        call_id = wire.request("tools/call", {"name": "stubborn", "arguments": {}})
        assert started.wait(10), "the tool never started"
        wire.notify("notifications/cancelled", {"requestId": call_id, "reason": "the user gave up"})
        # Lines are taken in order: once the ping after it is answered, the cancel was handled.
        assert wire.result("ping") == {}
        cancel_read.set()
        assert returned.wait(10)
        # A second call of the same tool is answered: the server went on, and the answer to a
        # later request shows the earlier result had its chance to be written.
        started.clear()
        second = wire.request("tools/call", {"name": "stubborn", "arguments": {}})
        answer = wire.response(second)
        assert answer["result"]["content"] == [{"type": "text", "text": "RESULT-AFTER-CANCEL"}]
    finally:
        cancel_read.set()
        rest = wire.close()          # serve() has returned: every line it will write is written
    written = [check_line(line) for line in wire.raw_lines]
    assert not [m for m in written if isinstance(m, dict) and m.get("id") == call_id], written
    assert b"RESULT-AFTER-CANCEL" in b"".join(wire.raw_lines)        # (the second call's, only)
    assert sum(b"RESULT-AFTER-CANCEL" in line for line in wire.raw_lines) == 1
    assert not [m for m in rest if m.get("id") == call_id]


# -- a notification over the output limit ---------------------------------------------------

LIMIT = 4096


def test_a_log_message_over_max_output_size_is_never_written_and_the_session_goes_on():
    app = MCPServer("loud", max_output_size=LIMIT)

    @app.tool()
    def loud(size: int, ctx: Context) -> str:
        """Log a small message, one of ``size`` characters, then another small one."""
        ctx.info("before")
        ctx.info("L" * size)
        ctx.info("after")
        return "logged"

    wire = Wire(app)
    try:
        wire.initialize()
        assert wire.result("logging/setLevel", {"level": "debug"}) == {}
        for size in (LIMIT - 200, LIMIT, LIMIT * 4):      # under the limit, then (with the envelope) over
            wire.notifications.clear()
            result = wire.result("tools/call", {"name": "loud", "arguments": {"size": size}})
            assert result["content"] == [{"type": "text", "text": "logged"}]
            logged = [n["params"]["data"] for n in wire.notifications if n["method"] == "notifications/message"]
            logged = ["L * %d" % len(data) if data.startswith("L") else data for data in logged]    # (short)
            if size < LIMIT:
                assert logged == ["before", "L * %d" % size, "after"]
            else:
                assert logged == ["before", "after"], size
        assert wire.result("ping") == {}
    finally:
        wire.close()
    assert max(len(line) for line in wire.raw_lines) <= LIMIT
    assert sum(b"LLLL" in line for line in wire.raw_lines) == 1        # the one under the limit


# -- pagination -----------------------------------------------------------------------------

LISTS = [("tools/list", "tools", "name"), ("resources/list", "resources", "uri"),
         ("resources/templates/list", "resourceTemplates", "uriTemplate"), ("prompts/list", "prompts", "name")]


def follow(wire, method, field, key, expected):
    """Every page of ``method``; fails on a repeated cursor, and stops after more pages than
    there are items (a cursor that never ends is a failure here, not an endless loop)."""
    names, cursors, cursor = [], [], None
    for _ in range(len(expected) + 2):
        result = wire.result(method, {"cursor": cursor} if cursor is not None else {})
        names += [item[key] for item in result[field]]
        cursor = result.get("nextCursor")
        if cursor is None:
            return names, cursors
        assert isinstance(cursor, str) and cursor, result
        assert cursor not in cursors, "%s repeated the cursor %r after %r" % (method, cursor, cursors)
        cursors.append(cursor)
    raise AssertionError("%s still had a nextCursor after %d pages (cursors %r)" % (method, len(expected) + 2,
                                                                                    cursors))


@pytest.mark.parametrize("count", [1, 3, 10, 12])
def test_following_next_cursor_lists_every_name_once_and_never_repeats_a_cursor(count):
    page_size = 3
    app = MCPServer("pages", page_size=page_size)
    expected = {"tools/list": [], "resources/list": [], "resources/templates/list": [], "prompts/list": []}
    for i in range(count):
        app.add_tool(lambda: "x", name="tool_%02d" % i)
        app.add_resource(lambda: "x", "res://item/%02d" % i)
        app.add_resource(lambda v: v, "tpl://item%02d/{v}" % i)
        app.add_prompt(lambda: "x", name="prompt_%02d" % i)
        expected["tools/list"].append("tool_%02d" % i)
        expected["resources/list"].append("res://item/%02d" % i)
        expected["resources/templates/list"].append("tpl://item%02d/{v}" % i)
        expected["prompts/list"].append("prompt_%02d" % i)
    wire = Wire(app)
    try:
        wire.initialize()
        for method, field, key in LISTS:
            names, cursors = follow(wire, method, field, key, expected[method])
            assert sorted(names) == sorted(expected[method]), (method, names)
            assert len(names) == len(set(names)), (method, names)
            assert len(cursors) == (count - 1) // page_size, (method, cursors)
    finally:
        wire.close()
    assert all(json.loads(line).get("error") is None for line in wire.raw_lines)


