"""Worker pool, progress, cancellation, timeouts, and questions to the client (handshake era)."""

import json
import threading
import time

import pytest

from conftest import Wire, check_line
import minimcp
from minimcp import Cancelled, Context, MCPError, MCPServer


def call_slow(wire, seconds=1.0, steps=5, token=None, request_id=None):
    params = {"name": "slow", "arguments": {"seconds": seconds, "steps": steps}}
    if token is not None:
        params["_meta"] = {"progressToken": token}
    return wire.request("tools/call", params, id=request_id)


def test_a_busy_handler_never_holds_up_the_pipe(legacy):
    gate = threading.Event()

    @legacy.app.tool()
    def held() -> str:
        """Block until the test has its answers."""
        return "released" if gate.wait(10) else "never released"

    held_id = legacy.request("tools/call", {"name": "held"})
    # The tool starts on the thread that read it; if that thread kept reading only after
    # the tool returned, these would wait behind the gate and time out.
    assert legacy.result("ping") == {}
    assert legacy.result("tools/list")["tools"]
    assert held_id not in legacy.stash
    gate.set()
    assert legacy.response(held_id)["result"]["content"][0]["text"] == "released"


def test_a_long_call_that_ends_a_burst_still_sends_its_progress_at_once(legacy):
    gate = threading.Event()

    @legacy.app.tool()
    def reports(ctx: Context) -> str:
        """Report progress, then block until the test saw it."""
        ctx.progress(1, 2)
        return "released" if gate.wait(10) else "never released"

    # Two requests in one write: the reader finds the call already buffered behind the
    # ping. The ping's answer may wait for the burst's end, the call's progress may not.
    lines = [{"jsonrpc": "2.0", "id": "p", "method": "ping"},
             {"jsonrpc": "2.0", "id": "r", "method": "tools/call",
              "params": {"name": "reports", "_meta": {"progressToken": "t"}}}]
    legacy.send_raw(b"".join(json.dumps(m).encode() + b"\n" for m in lines))
    try:
        seen = []
        while not any(m.get("method") == "notifications/progress" for m in seen):
            seen.append(legacy.recv(timeout=5))       # raises if nothing comes while the tool blocks
        assert seen[-1]["params"] == {"progressToken": "t", "progress": 1, "total": 2}
    finally:
        gate.set()
    assert legacy.response("r")["result"]["content"][0]["text"] == "released"


def test_independent_calls_run_concurrently(legacy):
    meeting = threading.Barrier(3)

    @legacy.app.tool()
    def meet() -> str:
        """Return only once three calls are running at the same time."""
        try:
            meeting.wait(10)
        except threading.BrokenBarrierError:
            return "alone"
        return "met"

    ids = [legacy.request("tools/call", {"name": "meet"}) for _ in range(3)]
    for request_id in ids:
        assert legacy.response(request_id, timeout=15)["result"]["content"][0]["text"] == "met"


def test_progress_strictly_increasing_and_before_the_response(legacy):
    request_id = call_slow(legacy, seconds=0.3, steps=5, token="tok-1")
    seen = []
    while True:
        message = legacy.recv()
        if message.get("id") == request_id:
            break
        assert message["method"] == "notifications/progress"
        seen.append(message["params"])
    assert [p["progress"] for p in seen] == [1, 2, 3, 4, 5]
    assert all(p["progressToken"] == "tok-1" and p["total"] == 5 and "message" in p for p in seen)
    assert legacy.close() == []         # serve() has returned: nothing came after the response


def test_progress_has_no_message_at_2024_11_05(everything):
    wire = Wire(everything)
    wire.initialize("2024-11-05")
    request_id = call_slow(wire, seconds=0.1, steps=2, token=7)
    wire.response(request_id)
    progress = [n["params"] for n in wire.notifications if n["method"] == "notifications/progress"]
    assert progress and all("message" not in p and p["progressToken"] == 7 for p in progress)
    wire.close()


def test_no_progress_without_token(legacy):
    legacy.response(call_slow(legacy, seconds=0.1, steps=3))
    assert not legacy.notifications


def test_non_increasing_progress_dropped_and_never_after_response():
    app = MCPServer("p", dialect="minimcp")
    holder = {}

    @app.tool()
    def jumpy(ctx: Context) -> str:
        ctx.progress(1)
        ctx.progress(1)          # not above: dropped
        ctx.progress(0.5)        # below: dropped
        ctx.progress(2, 2)
        holder["ctx"] = ctx
        return "ok"

    wire = Wire(app)
    wire.initialize()
    response = wire.call("tools/call", {"name": "jumpy", "_meta": {"progressToken": "t"}})
    assert response["result"]["content"][0]["text"] == "ok"
    assert [n["params"]["progress"] for n in wire.notifications] == [1, 2]
    holder["ctx"].progress(3)     # after the response: never sent
    # progress() writes in this thread, before the ping is even sent: one round trip shows it
    assert wire.result("ping") == {}
    assert [n["params"]["progress"] for n in wire.notifications] == [1, 2]
    wire.close()


def test_cancel_while_running_stops_the_tool_and_sends_nothing(legacy):
    legacy.app.workers = 1              # one worker: echo is answered only once the slow tool stopped
    request_id = call_slow(legacy, seconds=60, steps=6000, token="c")
    legacy.recv()                                        # first progress: it is running
    legacy.notify("notifications/cancelled", {"requestId": request_id, "reason": "user"})
    echo = legacy.request("tools/call", {"name": "echo", "arguments": {"text": "after"}})
    assert legacy.response(echo, 10)["result"]["content"][0]["text"] == "after"
    assert all(n["method"] == "notifications/progress" for n in legacy.notifications)
    assert request_id not in legacy.stash                # nothing was sent for the cancelled call
    again = legacy.request("ping", id=request_id)        # and its id is free again
    assert legacy.response(again)["result"] == {}
    # Proves the absence by the end of serving: nothing more for it, ever, nor progress.
    rest = legacy.close()
    assert not [m for m in rest if m.get("id") == request_id or m.get("method") == "notifications/progress"], rest
    assert request_id not in legacy.stash


def test_cancel_before_start_never_runs():
    app = MCPServer("c", dialect="minimcp", workers=1)
    ran = []
    gate = threading.Event()

    @app.tool()
    def block() -> str:
        gate.wait(5)
        return "unblocked"

    @app.tool()
    def record() -> str:
        ran.append(1)
        return "ran"

    @app.tool()
    def after() -> str:
        return "after"

    wire = Wire(app)
    wire.initialize()
    first = wire.request("tools/call", {"name": "block"})
    second = wire.request("tools/call", {"name": "record"})
    wire.notify("notifications/cancelled", {"requestId": second})
    assert wire.result("ping") == {}                  # the cancel is processed while block still runs
    gate.set()
    assert wire.response(first)["result"]["content"][0]["text"] == "unblocked"
    third = wire.request("tools/call", {"name": "after"})
    # one worker, jobs in order: once the third is answered, the second has been taken and skipped
    assert wire.response(third)["result"]["content"][0]["text"] == "after"
    assert ran == [] and second not in wire.stash
    wire.close()


def test_cancel_unknown_finished_and_initialize_ignored(legacy):
    legacy.notify("notifications/cancelled", {"requestId": 999})
    legacy.notify("notifications/cancelled", {"requestId": {"bad": 1}})
    legacy.notify("notifications/cancelled", {})
    request_id = legacy.request("tools/call", {"name": "echo", "arguments": {"text": "x"}})
    legacy.response(request_id)
    legacy.notify("notifications/cancelled", {"requestId": request_id})
    # The reader handles notifications in order: anything it wrote for them precedes this answer.
    assert legacy.result("ping") == {}
    assert not legacy.stash and not legacy.notifications


def test_cancel_storm():
    app = MCPServer("storm", dialect="minimcp", workers=16, queue_size=1000)

    @app.tool()
    def wait(ctx: Context) -> str:
        ctx.sleep(10)
        return "late"

    @app.tool()
    def quick() -> str:
        return "quick"

    wire = Wire(app)
    wire.initialize()
    ids = [wire.request("tools/call", {"name": "wait"}) for _ in range(300)]
    for request_id in ids:
        wire.notify("notifications/cancelled", {"requestId": request_id})
    assert wire.result("tools/call", {"name": "quick"})["content"][0]["text"] == "quick"
    assert not [k for k in wire.stash if k in ids]     # no cancelled call was answered
    # Every worker is free again (each wait would hold one for 10 s), and every id is reusable.
    again = [wire.request("tools/call", {"name": "quick"}, id=request_id) for request_id in ids[:32]]
    for request_id in again:
        assert wire.response(request_id, 5)["result"]["content"][0]["text"] == "quick"
    # Proves the absence by the end of serving: no cancelled call is ever answered.
    rest = wire.close()
    assert not [m for m in rest if m.get("id") in ids], rest
    assert not [k for k in wire.stash if k in ids]


def test_cancel_racing_completion_yields_at_most_one_response():
    app = MCPServer("race", dialect="minimcp", workers=8)
    app.add_tool(lambda: "ok", name="fast")
    wire = Wire(app)
    wire.initialize()
    ids = []
    for _ in range(200):
        request_id = wire.request("tools/call", {"name": "fast"})
        wire.notify("notifications/cancelled", {"requestId": request_id})
        ids.append(request_id)
    final = wire.request("ping")
    wire.response(final)
    wire.close()                                    # serve() has returned: every answer is written
    # count lines, not the stash (a dict keeps one message per id, so it could never show two)
    answered = [check_line(raw).get("id") for raw in wire.raw_lines]
    answered = [i for i in answered if i in ids]
    assert len(answered) == len(set(answered))      # never twice


def test_flood_is_answered_exactly_once_with_bounded_queue():
    app = MCPServer("flood", dialect="minimcp", workers=4, queue_size=16)
    running = {"now": 0, "most": 0}
    lock = threading.Lock()

    def echo(text: str) -> str:
        with lock:
            running["now"] += 1
            running["most"] = max(running["most"], running["now"])
        try:
            return text
        finally:
            with lock:
                running["now"] -= 1
    app.add_tool(echo)
    wire = Wire(app)
    wire.initialize()
    count = 10000
    payload = b"".join(b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo",'
                       b'"arguments":{"text":"m%d"}}}\n' % (i, i) for i in range(count))
    writer = threading.Thread(target=wire.send_raw, args=(payload,))
    writer.start()
    seen = {}
    for _ in range(count):
        message = wire.recv(20)
        assert message["id"] not in seen
        seen[message["id"]] = message["result"]["content"][0]["text"]
    writer.join()
    assert seen == {i: "m%d" % i for i in range(count)}
    assert 1 <= running["most"] <= 4                 # never more tools at once than workers
    wire.close()


def test_async_handlers_work_with_context():
    import asyncio
    app = MCPServer("async", dialect="minimcp")
    arrived = []
    stopped = threading.Event()

    @app.tool()
    async def nap(seconds: float, ctx: Context) -> str:
        arrived.append(seconds)
        deadline = time.monotonic() + 10
        while len(arrived) < 3 and time.monotonic() < deadline:   # the others are awaited alongside
            await asyncio.sleep(0.005)
        await asyncio.sleep(seconds)
        ctx.info("napped")
        return "slept %s with %d" % (seconds, len(arrived))

    @app.tool()
    async def hang(ctx: Context) -> str:
        ctx.progress(1)
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            stopped.set()
            raise
        return "woke"

    wire = Wire(app)
    wire.initialize()
    ids = [wire.request("tools/call", {"name": "nap", "arguments": {"seconds": 0.05}}) for _ in range(3)]
    for request_id in ids:
        assert wire.response(request_id, timeout=15)["result"]["content"][0]["text"] == "slept 0.05 with 3"
    assert any(n["method"] == "notifications/message" for n in wire.notifications)
    cancel_me = wire.request("tools/call", {"name": "hang", "_meta": {"progressToken": "h"}})
    assert wire.recv()["method"] == "notifications/progress"        # the coroutine is awaiting
    wire.notify("notifications/cancelled", {"requestId": cancel_me})
    assert stopped.wait(5), "the coroutine was not cancelled"
    rest = wire.close()                                              # the end of serving proves it:
    assert not [m for m in rest if m.get("id") == cancel_me], rest   # no answer, ever
    assert cancel_me not in wire.stash


def test_async_calls_that_await_do_not_hold_the_pool():
    """More async calls than workers await at once: a worker whose coroutine awaits gives its place."""
    import asyncio
    app = MCPServer("waits", dialect="minimcp", workers=4)
    count = 40
    arrived = []

    @app.tool()
    async def gather() -> str:
        arrived.append(1)
        deadline = time.monotonic() + 20
        while len(arrived) < count and time.monotonic() < deadline:   # each awaits the others
            await asyncio.sleep(0.005)
        return "%d together" % len(arrived)

    wire = Wire(app)
    wire.initialize()
    ids = [wire.request("tools/call", {"name": "gather"}) for _ in range(count)]
    for request_id in ids:
        assert wire.response(request_id, timeout=30)["result"]["content"][0]["text"] == "%d together" % count
    wire.close()


def test_async_calls_that_block_still_hold_their_worker():
    """Blocking code in an async def holds its worker (and only its own): no more run than workers."""
    import asyncio
    app = MCPServer("blocks", dialect="minimcp", workers=2)
    running = {"now": 0, "most": 0}
    lock = threading.Lock()
    two_in = threading.Event()

    @app.tool()
    async def block() -> str:
        await asyncio.sleep(0)
        with lock:
            running["now"] += 1
            running["most"] = max(running["most"], running["now"])
            if running["now"] == 2:
                two_in.set()
        two_in.wait(10)             # blocking, inside async def: the loop does not wait in select
        time.sleep(0.01)
        with lock:
            running["now"] -= 1
        return "done"

    wire = Wire(app)
    wire.initialize()
    ids = [wire.request("tools/call", {"name": "block"}) for _ in range(6)]
    for request_id in ids:
        assert wire.response(request_id, timeout=30)["result"]["content"][0]["text"] == "done"
    assert running["most"] == 2
    wire.close()


def test_tool_timeout_answers_with_error_and_cancels():
    app = MCPServer("t", dialect="minimcp")
    observed = {}

    returned, timed_out = threading.Event(), threading.Event()

    @app.tool(timeout=0.2)
    def stuck(ctx: Context) -> str:
        ctx.sleep(60)                   # far past the wire's wait: only the timeout can answer in time
        return "finished"

    @app.tool(timeout=0.2)
    def oblivious(ctx: Context) -> str:
        timed_out.wait(10)              # runs on past its timeout: until the test has seen the error
        try:                            # the timeout's cancel comes just after its error is written:
            ctx.sleep(10)               # wait for that event (10 s only if it never comes)
        except Cancelled:
            pass
        observed["cancelled"] = ctx.cancelled
        returned.set()
        return "finished"

    wire = Wire(app)
    wire.initialize()
    result = wire.result("tools/call", {"name": "stuck"})
    assert result["isError"] is True and "timed out" in result["content"][0]["text"]
    late = wire.request("tools/call", {"name": "oblivious"})
    result = wire.response(late)["result"]
    assert result["isError"] is True
    timed_out.set()
    assert returned.wait(5)
    assert observed == {"cancelled": True}
    wire.close()                        # serve() has returned: every line it will write is written
    answers = [json.loads(line) for line in wire.raw_lines]
    assert [a for a in answers if a.get("id") == late] == [{"jsonrpc": "2.0", "id": late, "result": result}]


def test_eof_with_busy_tools_exits_within_grace():
    app = MCPServer("g", dialect="minimcp", shutdown_grace=0.3)

    running = threading.Event()

    @app.tool()
    def ignores_cancel() -> str:
        running.set()
        time.sleep(5)
        return "late"

    wire = Wire(app)
    wire.initialize()
    wire.request("tools/call", {"name": "ignores_cancel"})
    assert running.wait(5)              # EOF must find it running, not queued
    started = time.monotonic()
    wire.close()
    assert time.monotonic() - started < 1.5


# -- questions to the client -------------------------------------------------------

def test_sampling_round_trip(legacy):
    request_id = legacy.request("tools/call", {"name": "sample", "arguments": {"prompt": "Say hi"}})
    question = legacy.server_request()
    assert question["method"] == "sampling/createMessage"
    params = question["params"]
    assert params["maxTokens"] <= 100
    assert params["messages"] == [{"role": "user", "content": {"type": "text", "text": "Say hi"}}]
    legacy.send({"jsonrpc": "2.0", "id": question["id"], "result": {
        "role": "assistant", "content": {"type": "text", "text": "Hi there"}, "model": "m", "stopReason": "endTurn"}})
    assert "Hi there" in legacy.response(request_id)["result"]["content"][0]["text"]


def test_roots_round_trip_and_cache(legacy):
    request_id = legacy.request("tools/call", {"name": "ask_roots"})
    question = legacy.server_request()
    assert question["method"] == "roots/list"
    legacy.send({"jsonrpc": "2.0", "id": question["id"], "result": {"roots": [
        {"uri": "file:///a", "name": "A"}, {"uri": "file:///b"}]}})
    assert legacy.response(request_id)["result"]["content"][0]["text"] == "file:///a\nfile:///b"
    # cached: no second question
    assert legacy.result("tools/call", {"name": "ask_roots"})["content"][0]["text"] == "file:///a\nfile:///b"
    legacy.notify("notifications/roots/list_changed")
    request_id = legacy.request("tools/call", {"name": "ask_roots"})
    question = legacy.server_request()
    legacy.send({"jsonrpc": "2.0", "id": question["id"], "result": {"roots": [{"uri": "file:///c"}]}})
    assert legacy.response(request_id)["result"]["content"][0]["text"] == "file:///c"


def test_elicitation_accept_and_decline(legacy):
    request_id = legacy.request("tools/call", {"name": "elicit", "arguments": {"message": "Name?"}})
    question = legacy.server_request()
    assert question["method"] == "elicitation/create"
    assert question["params"]["message"] == "Name?" and question["params"]["mode"] == "form"
    assert question["params"]["requestedSchema"]["properties"]["name"]["type"] == "string"
    legacy.send({"jsonrpc": "2.0", "id": question["id"], "result": {"action": "accept", "content": {"name": "Ada"}}})
    assert legacy.response(request_id)["result"]["content"][0]["text"] == "accept: Ada"
    request_id = legacy.request("tools/call", {"name": "elicit"})
    question = legacy.server_request()
    legacy.send({"jsonrpc": "2.0", "id": question["id"], "result": {"action": "decline"}})
    assert legacy.response(request_id)["result"]["content"][0]["text"] == "decline"


def test_client_error_response_raises_in_handler(legacy):
    request_id = legacy.request("tools/call", {"name": "sample", "arguments": {"prompt": "x"}})
    question = legacy.server_request()
    legacy.send({"jsonrpc": "2.0", "id": question["id"], "error": {"code": -1, "message": "user rejected"}})
    response = legacy.response(request_id)
    assert response["error"]["code"] == -1 and response["error"]["message"] == "user rejected"


def test_question_timeout_sends_cancel_and_raises():
    app = MCPServer("q", dialect="minimcp", request_timeout=0.2)

    @app.tool()
    def ask(ctx: Context) -> str:
        try:
            ctx.sample("x", max_tokens=5)
        except MCPError as exc:
            return "gave up: " + exc.message
        return "answered"

    wire = Wire(app)
    wire.initialize(capabilities={"sampling": {}})
    request_id = wire.request("tools/call", {"name": "ask"})
    question = wire.server_request()
    response = wire.response(request_id)
    assert response["result"]["content"][0]["text"].startswith("gave up")
    cancels = [n for n in wire.notifications if n["method"] == "notifications/cancelled"]
    assert cancels and cancels[0]["params"]["requestId"] == question["id"]
    wire.close()


def test_cancelling_the_tool_wakes_its_question_at_once(legacy):
    request_id = legacy.request("tools/call", {"name": "sample", "arguments": {"prompt": "x"}})
    question = legacy.server_request()
    legacy.notify("notifications/cancelled", {"requestId": request_id})
    note = legacy.recv()                # within recv's 5 s, while the question would wait 300 s
    assert note["method"] == "notifications/cancelled" and note["params"]["requestId"] == question["id"]
    assert note["params"]["reason"] == "the request was cancelled", note   # woken by the cancel
    assert legacy.close() == []         # serve() has returned: nothing more, no answer to the call


def test_undeclared_capability_raises_without_sending(wire):
    wire.initialize(capabilities={})
    for tool in ("sample", "ask_roots", "elicit"):
        response = wire.call("tools/call", {"name": tool, "arguments": {"prompt": "x"} if tool == "sample" else {}})
        assert "error" in response and response["error"]["code"] == -32021, response
        assert response["error"]["data"]["requiredCapabilities"]
    wire.close()                        # serve() has returned: its whole output is in raw_lines
    sent = [check_line(line) for line in wire.raw_lines]
    assert not [m for m in sent if "method" in m and "id" in m], sent        # no request to the client


def test_url_elicitation_and_completion_notification():
    app = MCPServer("u", dialect="minimcp")

    @app.tool()
    def login(ctx: Context) -> str:
        answer = ctx.elicit_url("Sign in", "https://example.com/login")
        ctx.server.elicitation_complete(answer["elicitationId"])
        return answer["action"]

    wire = Wire(app)
    wire.initialize(capabilities={"elicitation": {"url": {}}})
    request_id = wire.request("tools/call", {"name": "login"})
    question = wire.server_request()
    assert question["params"]["mode"] == "url" and question["params"]["url"] == "https://example.com/login"
    elicitation_id = question["params"]["elicitationId"]
    wire.send({"jsonrpc": "2.0", "id": question["id"], "result": {"action": "accept"}})
    assert wire.response(request_id)["result"]["content"][0]["text"] == "accept"
    done = [n for n in wire.notifications if n["method"] == "notifications/elicitation/complete"]
    assert done == [{"jsonrpc": "2.0", "method": "notifications/elicitation/complete",
                     "params": {"elicitationId": elicitation_id}}]
    wire.close()


def test_sampling_with_tools_needs_the_declared_capability():
    app = MCPServer("s", dialect="minimcp")

    @app.tool()
    def agent(ctx: Context) -> str:
        result = ctx.sample("go", max_tokens=10, tools=[{"name": "t", "inputSchema": {"type": "object"}}],
                            tool_choice={"mode": "auto"})
        return result["model"]

    wire = Wire(app)
    wire.initialize(capabilities={"sampling": {}})
    assert wire.error("tools/call", {"name": "agent"})["code"] == -32021
    wire.close()
    wire = Wire(app)
    wire.initialize(capabilities={"sampling": {"tools": {}}})
    request_id = wire.request("tools/call", {"name": "agent"})
    question = wire.server_request()
    assert question["params"]["tools"][0]["name"] == "t" and question["params"]["toolChoice"] == {"mode": "auto"}
    wire.send({"jsonrpc": "2.0", "id": question["id"], "result": {
        "role": "assistant", "content": {"type": "text", "text": "x"}, "model": "gpt", "stopReason": "endTurn"}})
    assert wire.response(request_id)["result"]["content"][0]["text"] == "gpt"
    wire.close()


def test_server_ping_to_client(legacy):
    app = legacy.app

    @app.tool()
    def ping_client(ctx: Context) -> str:
        return "pong %s" % ctx.ping()

    legacy.notify("notifications/tools/list_changed")     # unknown to the server: ignored
    request_id = legacy.request("tools/call", {"name": "ping_client"})
    question = legacy.server_request()
    assert question["method"] == "ping" and "params" not in question
    legacy.send({"jsonrpc": "2.0", "id": question["id"], "result": {}})
    assert legacy.response(request_id)["result"]["content"][0]["text"] == "pong {}"



class _CountingOut:
    """An output stream that records each write, so a test can see how answers were batched."""

    def __init__(self):
        self.writes = []

    def write(self, data):
        self.writes.append(bytes(data))
        return len(data)

    def flush(self):
        pass


def test_a_pipelined_burst_is_answered_in_a_few_writes(monkeypatch):
    import json
    import os
    # The pool's watcher hands reading on when a call has run a whole STALL period, which a
    # loaded machine can make of any call (the thread is simply not scheduled), and every
    # hand-over writes what was held. Held off, the writes are the corking's alone.
    monkeypatch.setattr(minimcp._WorkerPool, "STALL", 3600.0)
    app = MCPServer("burst", dialect="minimcp")

    @app.tool()
    def echo(text: str) -> str:
        return text

    read_end, write_end = os.pipe()
    out = _CountingOut()
    lines = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}]
    lines += [{"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": "echo", "arguments": {
        "text": "n%d" % i}}} for i in range(1, 301)]
    os.write(write_end, b"".join(json.dumps(m).encode() + b"\n" for m in lines))   # one burst, then EOF
    os.close(write_end)
    with os.fdopen(read_end, "rb") as instream:
        app.serve(instream, out)
    answers = [check_line(line) for chunk in out.writes for line in chunk.splitlines(True)]
    assert [a["id"] for a in answers] == list(range(301))              # each once, in order
    assert all(a["result"]["content"][0]["text"] == "n%d" % a["id"] for a in answers[1:])
    # Held output goes out once CORKED_BYTES wait, and at the burst's end: about 24 KB here.
    most = 2 + sum(map(len, out.writes)) // minimcp._LineWriter.CORKED_BYTES
    assert len(out.writes) <= most, "%d writes for 301 answers" % len(out.writes)
