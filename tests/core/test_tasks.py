"""Tasks: the 2025-11-25 core task methods and the 2026-07-28 tasks extension."""

import threading
import time

import pytest

from conftest import Wire, envelope
from minimcp import Context, MCPServer

EXT = "io.modelcontextprotocol/tasks"
RELATED = "io.modelcontextprotocol/related-task"
TASK_CAPS = {"extensions": {EXT: {}}}


def task_server(gate=None, **options):
    """The task fixture server; ``gate``: an Event the ``gated`` tool waits for."""
    app = MCPServer("tasks", dialect="minimcp", **options)

    @app.tool(task_support="optional")
    def gated(ctx: Context) -> str:
        return "gated done" if gate is not None and gate.wait(10) else "gate never opened"

    @app.tool(task_support="optional")
    def job(ctx: Context, seconds: float = 0.2, fail: bool = False) -> str:
        ctx.sleep(seconds)
        if fail:
            raise RuntimeError("job failed")
        return "job done"

    @app.tool(task_support="required")
    def must(ctx: Context) -> str:
        return "must done"

    @app.tool()
    def plain() -> str:
        return "plain"

    @app.tool(task_support="optional")
    def asks(ctx: Context) -> str:
        answer = ctx.elicit("Name?", {"type": "object", "properties": {"name": {"type": "string"}}})
        return "hello %s" % answer["content"]["name"]

    @app.tool(task_support="optional")
    def raises_mcp(ctx: Context) -> str:
        from minimcp import MCPError
        raise MCPError(4242, "custom")

    return app


@pytest.fixture
def tw():
    wire = Wire(task_server())
    wire.initialize("2025-11-25", {"elicitation": {}})
    yield wire
    wire.close()


def create(wire, name, arguments=None, ttl=None):
    task = {} if ttl is None else {"ttl": ttl}
    return wire.result("tools/call", {"name": name, "arguments": arguments or {}, "task": task})["task"]


def wait_status(wire, task_id, statuses, timeout=10):
    """Poll tasks/get, the way the spec tells a client to follow a task, until one of ``statuses``.

    Each poll is a round trip; the pause between polls is the polling interval, and
    the bound only ends a wait for a task that never gets there.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        task = wire.result("tasks/get", {"taskId": task_id})
        if task["status"] in statuses:
            return task
        time.sleep(0.02)
    raise AssertionError("task never reached %s" % statuses)


def status_notification(wire, task_id, status, timeout=5):
    """Wait for notifications/tasks/status with ``status`` for the task.

    It is written by the worker that ends the task, with no order relative to the
    answers other threads write (tasks/result, tasks/get), so it is waited for.
    """
    def seen():
        return any(n["method"] == "notifications/tasks/status" and n["params"]["taskId"] == task_id
                   and n["params"]["status"] == status for n in wire.notifications)
    deadline = time.monotonic() + timeout
    while not seen():
        message = wire.recv(max(0.01, deadline - time.monotonic()))
        if "method" in message and "id" not in message:
            wire.notifications.append(message)
        else:                            # kept where Wire.response() looks for it
            wire.stash[("server", message["id"]) if "method" in message else message.get("id")] = message


def test_capability_and_execution_field(tw):
    app = task_server()
    wire = Wire(app)
    caps = wire.initialize("2025-11-25")["capabilities"]
    assert caps["tasks"] == {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}
    tools = {t["name"]: t for t in wire.result("tools/list")["tools"]}
    assert tools["job"]["execution"] == {"taskSupport": "optional"}
    assert tools["must"]["execution"] == {"taskSupport": "required"}
    assert "execution" not in tools["plain"]
    wire.close()
    wire = Wire(app)
    caps = wire.initialize("2025-06-18")["capabilities"]
    assert "tasks" not in caps and "execution" not in str(wire.result("tools/list"))
    wire.close()
    plain = MCPServer("p", dialect="minimcp")
    plain.add_tool(lambda: "x", name="x")
    wire = Wire(plain)
    assert "tasks" not in wire.initialize("2025-11-25")["capabilities"]
    wire.close()


def test_create_poll_result():
    gate = threading.Event()
    tw = Wire(task_server(gate))
    tw.initialize("2025-11-25")
    task = create(tw, "gated")
    assert task["status"] == "working" and len(task["taskId"]) >= 24
    assert set(task) >= {"taskId", "status", "createdAt", "lastUpdatedAt", "ttl", "pollInterval"}
    assert task["createdAt"].endswith("Z") and "T" in task["createdAt"]
    waiting = tw.request("tasks/result", {"taskId": task["taskId"]})
    assert tw.result("tasks/get", {"taskId": task["taskId"]})["status"] == "working"
    assert waiting not in tw.stash                               # it blocks while the task works
    gate.set()
    result = tw.response(waiting)
    assert result["result"]["content"] == [{"type": "text", "text": "gated done"}]
    assert result["result"]["_meta"][RELATED] == {"taskId": task["taskId"]}
    assert tw.result("tasks/get", {"taskId": task["taskId"]})["status"] == "completed"
    status_notification(tw, task["taskId"], "completed")
    statuses = [n["params"]["status"] for n in tw.notifications if n["method"] == "notifications/tasks/status"
                and n["params"]["taskId"] == task["taskId"]]
    assert statuses[-1] == "completed", statuses
    tw.close()


def test_reader_stays_free_while_tasks_result_waits():
    gate = threading.Event()                 # the task runs until the ping has been answered
    tw = Wire(task_server(gate))
    try:
        tw.initialize("2025-11-25", {"elicitation": {}})
        task = create(tw, "gated")
        waiting = tw.request("tasks/result", {"taskId": task["taskId"]})
        assert tw.result("ping") == {}
        assert waiting not in tw.stash
        gate.set()
        assert tw.response(waiting)["result"]["content"][0]["text"] == "gated done"
    finally:
        gate.set()
        tw.close()


def test_tool_error_makes_the_task_failed(tw):
    task = create(tw, "job", {"seconds": 0, "fail": True})
    assert wait_status(tw, task["taskId"], {"failed"})["status"] == "failed"
    result = tw.result("tasks/result", {"taskId": task["taskId"]})
    assert result["isError"] is True and "job failed" in result["content"][0]["text"]


def test_jsonrpc_error_comes_back_from_tasks_result(tw):
    task = create(tw, "raises_mcp")
    error = tw.error("tasks/result", {"taskId": task["taskId"]})
    assert error["code"] == 4242


def test_list_pages_and_unknown_ids(tw):
    ids = {create(tw, "job", {"seconds": 0})["taskId"] for _ in range(3)}
    listed = {t["taskId"] for t in tw.result("tasks/list")["tasks"]}
    assert ids <= listed
    for method in ("tasks/get", "tasks/result", "tasks/cancel"):
        assert tw.error(method, {"taskId": "nope"})["code"] == -32602
    assert tw.error("tasks/list", {"cursor": "bad"})["code"] == -32602


def test_cancel_during_and_after(tw):
    task = create(tw, "job", {"seconds": 5})
    cancelled = tw.result("tasks/cancel", {"taskId": task["taskId"]})
    assert cancelled["status"] == "cancelled" and cancelled["taskId"] == task["taskId"]
    tw.call("tasks/result", {"taskId": task["taskId"]})      # answered once the worker has let go of it
    assert tw.result("tasks/get", {"taskId": task["taskId"]})["status"] == "cancelled"
    assert tw.error("tasks/cancel", {"taskId": task["taskId"]})["code"] == -32602
    done = create(tw, "job", {"seconds": 0})
    wait_status(tw, done["taskId"], {"completed"})
    assert tw.error("tasks/cancel", {"taskId": done["taskId"]})["code"] == -32602


def test_task_support_rules(tw):
    assert tw.error("tools/call", {"name": "plain", "task": {}})["code"] == -32601
    assert tw.error("tools/call", {"name": "must"})["code"] == -32601
    task = create(tw, "must")
    assert tw.result("tasks/result", {"taskId": task["taskId"]})["content"][0]["text"] == "must done"
    assert tw.result("tools/call", {"name": "job", "arguments": {"seconds": 0}})["content"][0]["text"] == "job done"


def test_input_required_while_waiting_on_the_client(tw):
    task = create(tw, "asks")
    question = tw.server_request()
    assert question["method"] == "elicitation/create"
    assert question["params"]["_meta"][RELATED] == {"taskId": task["taskId"]}
    assert tw.result("tasks/get", {"taskId": task["taskId"]})["status"] == "input_required"
    tw.send({"jsonrpc": "2.0", "id": question["id"], "result": {"action": "accept", "content": {"name": "Ada"}}})
    assert tw.result("tasks/result", {"taskId": task["taskId"]})["content"][0]["text"] == "hello Ada"


def past(moment):
    """Sleep until time.time() is past ``moment`` (a task expires once the clock is past its
    creation plus its ttl, on the server's time.time(); 10 ms more for the clock's grain)."""
    time.sleep(max(0.0, moment + 0.01 - time.time()))
    assert time.time() > moment


def test_ttl_expiry_drops_finished_tasks():
    wire = Wire(task_server(task_ttl_ms=100))
    wire.initialize("2025-11-25")
    task = create(wire, "job", {"seconds": 0}, ttl=50)
    created = time.time()                # the task was created before this (its ttl counts from then)
    assert task["ttl"] == 50
    # it ends (a result), or has already ended and expired (-32602): 50 ms is no time on a loaded
    # machine (CI at load 28 saw it expire before a tasks/get could see it completed)
    wire.call("tasks/result", {"taskId": task["taskId"]})
    past(created + 0.05)                 # the event is the clock itself: past the 50 ms ttl
    assert wire.error("tasks/get", {"taskId": task["taskId"]})["code"] == -32602
    capped = create(wire, "job", {"seconds": 0}, ttl=10 ** 9)
    assert capped["ttl"] == 100
    ids = [capped["taskId"]] + [create(wire, "job", {"seconds": 0})["taskId"] for _ in range(50)]
    created = time.time()                # the last was created before this
    for task_id in ids:                  # each has ended (a result), or already ended and expired (-32602)
        wire.call("tasks/result", {"taskId": task_id})
    past(created + 0.1)                  # the event is the clock itself: past every 100 ms ttl
    assert wire.result("tasks/list")["tasks"] == []   # every expired task is forgotten
    wire.close()


def test_many_concurrent_tasks(tw):
    ids = [create(tw, "job", {"seconds": 0.3})["taskId"] for _ in range(20)]
    assert len(set(ids)) == 20
    for task_id in ids:
        assert tw.result("tasks/result", {"taskId": task_id}, timeout=10)["content"][0]["text"] == "job done"


# -- 2026-07-28 extension -----------------------------------------------------------

def modern(wire, method, params=None, capabilities=None):
    params = dict(params or {})
    params["_meta"] = envelope(capabilities)
    return wire.call(method, params)


def modern_status(wire, task_id, statuses, timeout=10):
    """Poll tasks/get (2026-07-28) until one of ``statuses``; see ``wait_status``."""
    deadline = time.monotonic() + timeout
    while True:
        task = modern(wire, "tasks/get", {"taskId": task_id}, TASK_CAPS)["result"]
        assert task["resultType"] == "complete", task
        if task["status"] in statuses:
            return task
        assert time.monotonic() < deadline, "task never reached %s: %r" % (statuses, task)
        time.sleep(0.02)


def test_modern_task_lifecycle():
    wire = Wire(task_server())
    created = modern(wire, "tools/call", {"name": "job", "arguments": {"seconds": 0.2}}, TASK_CAPS)["result"]
    assert created["resultType"] == "task" and created["status"] == "working"
    assert set(created) >= {"taskId", "createdAt", "lastUpdatedAt", "ttlMs", "pollIntervalMs"}
    assert "ttl" not in created and "task" not in created
    task = modern_status(wire, created["taskId"], {"completed"})
    assert task["result"]["content"][0]["text"] == "job done"
    for method in ("tasks/result", "tasks/list"):
        assert modern(wire, method, {"taskId": created["taskId"]})["error"]["code"] == -32601
    wire.close()


def test_modern_plain_call_without_the_extension():
    wire = Wire(task_server())
    result = modern(wire, "tools/call", {"name": "job", "arguments": {"seconds": 0}})["result"]
    assert result["resultType"] == "complete" and result["content"][0]["text"] == "job done"
    error = modern(wire, "tools/call", {"name": "must"})["error"]
    assert error["code"] == -32021 and EXT in error["data"]["requiredCapabilities"]["extensions"]
    wire.close()


def test_modern_failed_is_only_for_jsonrpc_errors():
    wire = Wire(task_server())
    created = modern(wire, "tools/call", {"name": "job", "arguments": {"seconds": 0, "fail": True}}, TASK_CAPS)
    task_id = created["result"]["taskId"]
    task = modern_status(wire, task_id, {"completed", "failed", "cancelled"})
    assert task["status"] == "completed" and task["result"]["isError"] is True
    created = modern(wire, "tools/call", {"name": "raises_mcp"}, TASK_CAPS)
    task = modern_status(wire, created["result"]["taskId"], {"completed", "failed", "cancelled"})
    assert task["status"] == "failed" and task["error"]["code"] == 4242
    wire.close()


def test_modern_input_required_and_update():
    wire = Wire(task_server())
    caps = dict(TASK_CAPS, elicitation={})
    task_id = modern(wire, "tools/call", {"name": "asks"}, caps)["result"]["taskId"]
    task = modern_status(wire, task_id, {"input_required"})
    (key, question), = task["inputRequests"].items()
    assert question["method"] == "elicitation/create"
    ack = modern(wire, "tasks/update", {"taskId": task_id, "inputResponses": {
        "unknown-key": {"action": "decline"}, key: {"action": "accept", "content": {"name": "Bo"}}}}, TASK_CAPS)["result"]
    assert ack["resultType"] == "complete"
    task = modern_status(wire, task_id, {"completed"})
    assert task["result"]["content"][0]["text"] == "hello Bo"
    assert modern(wire, "tasks/update", {"taskId": task_id, "inputResponses": "x"}, TASK_CAPS)["error"]["code"] == -32602
    wire.close()


def test_modern_cancel_is_an_ack_and_listen_streams_tasks():
    wire = Wire(task_server())
    task_id = modern(wire, "tools/call", {"name": "job", "arguments": {"seconds": 5}}, TASK_CAPS)["result"]["taskId"]
    listen = wire.request("subscriptions/listen", {"_meta": envelope(TASK_CAPS),
                                                   "notifications": {"taskIds": [task_id, "unknown"]}})
    ack = wire.recv()
    assert ack["params"]["notifications"] == {"taskIds": [task_id]}
    assert modern(wire, "tasks/cancel", {"taskId": task_id}, TASK_CAPS)["result"]["resultType"] == "complete"
    note = [n for n in wire.notifications if n["method"] == "notifications/tasks"]
    if not note:
        note = [wire.recv()]
    assert note[0]["params"]["status"] == "cancelled" and note[0]["params"]["taskId"] == task_id
    assert note[0]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == listen
    assert modern(wire, "tasks/cancel", {"taskId": task_id}, TASK_CAPS)["result"] == {
        "resultType": "complete", "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "tasks", "version": "0.0.0"}}}
    error = wire.error("subscriptions/listen", {"_meta": envelope(), "notifications": {"taskIds": [task_id]}})
    assert error["code"] == -32021
    wire.close()


def test_everything_long_job_plain_and_as_task(legacy):
    result = legacy.result("tools/call", {"name": "long_job", "arguments": {"seconds": 0.1}})
    assert result["content"][0]["text"].startswith("finished")
    task = legacy.result("tools/call", {"name": "long_job", "arguments": {"seconds": 0.1}, "task": {}})["task"]
    assert legacy.result("tasks/result", {"taskId": task["taskId"]})["content"][0]["text"].startswith("finished")
