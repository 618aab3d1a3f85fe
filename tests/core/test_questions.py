"""Several questions in one round, keys the handler names, tasks that ask, and lifecycle details.

Issue 15 items 2 to 4, on the wire in both eras: a 2026-07-28 retry carries the answers
by key, a handshake-era round is several requests in flight at once, and a task lists
every question still open.
"""

import threading

import pytest

from conftest import Wire, envelope
from minimcp import Context, MCPServer

ALL_CAPS = {"sampling": {}, "roots": {}, "elicitation": {"form": {}}}
TASKS = "io.modelcontextprotocol/tasks"
TASK_CAPS = dict(ALL_CAPS, extensions={TASKS: {}})
NAME_FORM = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
ANSWERS = {"user_name": {"action": "accept", "content": {"name": "Ada"}},
           "greeting": {"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"},
           "client_roots": {"roots": [{"uri": "file:///a"}, {"uri": "file:///b"}]}}


def question_server():
    app = MCPServer("questions", dialect="minimcp")
    runs = []

    @app.tool(task_support="optional")
    def interview(ctx: Context) -> str:
        runs.append(1)
        asked = ctx.questions()
        asked.elicit("What is your name?", NAME_FORM, key="user_name")
        asked.sample("Write a greeting", max_tokens=20, key="greeting")
        asked.list_roots(key="client_roots")
        answers = asked.ask()
        return "%s|%s|%d" % (answers["user_name"]["content"]["name"], answers["greeting"]["content"]["text"],
                             len(answers["client_roots"]))

    @app.tool()
    def named(ctx: Context) -> str:
        return "Hello, %s!" % ctx.elicit("What is your name?", NAME_FORM, key="user_name")["content"]["name"]

    @app.tool()
    def numbered(ctx: Context) -> str:
        first = ctx.elicit("First?", NAME_FORM)["content"]["name"]
        asked = ctx.questions()
        asked.elicit("Second?", NAME_FORM)
        asked.elicit("Third?", NAME_FORM)
        rest = asked.ask()
        return ",".join([first] + [a["content"]["name"] for a in rest.values()] + list(rest))

    @app.tool()
    def clash(ctx: Context) -> str:
        asked = ctx.questions()
        asked.elicit("A?", NAME_FORM, key="same")
        asked.sample("B?", key="same")
        asked.ask()
        return "never"

    @app.tool(task_support="required", ask_first=True)
    def book(ctx: Context) -> str:
        name = ctx.elicit("Who travels?", NAME_FORM, key="user_name")["content"]["name"]
        ctx.start_task()
        city = ctx.elicit("Where to?", NAME_FORM, key="city")["content"]["name"]
        return "%s to %s" % (name, city)

    return app, runs


def modern(wire, method, params=None, capabilities=ALL_CAPS):
    params = dict(params or {})
    params["_meta"] = envelope(capabilities)
    return wire.call(method, params)


def call(wire, name, state=None, responses=None, capabilities=ALL_CAPS):
    params = {"name": name, "arguments": {}}
    if state is not None:
        params.update(requestState=state, inputResponses=responses)
    return modern(wire, "tools/call", params, capabilities)


@pytest.fixture
def qw():
    app, runs = question_server()
    wire = Wire(app)
    wire.runs = runs
    yield wire
    wire.close()


# -- 2026-07-28: one inputRequests map --------------------------------------------------------

def test_three_questions_go_out_in_one_round(qw):
    first = call(qw, "interview")["result"]
    assert first["resultType"] == "input_required"
    methods = {key: request["method"] for key, request in first["inputRequests"].items()}
    assert methods == {"user_name": "elicitation/create", "greeting": "sampling/createMessage",
                       "client_roots": "roots/list"}
    assert first["inputRequests"]["client_roots"]["params"] == {}
    final = call(qw, "interview", first["requestState"], ANSWERS)["result"]
    assert final["resultType"] == "complete" and final["content"][0]["text"] == "Ada|hi|2"
    assert len(qw.runs) == 2


def test_a_partial_answer_asks_only_what_is_missing_and_keeps_the_rest(qw):
    first = call(qw, "interview")["result"]
    partial = {key: ANSWERS[key] for key in ("user_name", "client_roots")}
    second = call(qw, "interview", first["requestState"], partial)["result"]
    assert second["resultType"] == "input_required" and list(second["inputRequests"]) == ["greeting"]
    final = call(qw, "interview", second["requestState"], {"greeting": ANSWERS["greeting"]})["result"]
    assert final["content"][0]["text"] == "Ada|hi|2"


def test_the_handler_names_its_question(qw):
    first = call(qw, "named")["result"]
    assert list(first["inputRequests"]) == ["user_name"]
    final = call(qw, "named", first["requestState"], {"user_name": ANSWERS["user_name"]})["result"]
    assert final["content"][0]["text"] == "Hello, Ada!"


def test_unnamed_questions_are_numbered_in_asking_order(qw):
    first = call(qw, "numbered")["result"]
    assert list(first["inputRequests"]) == ["q0"]
    second = call(qw, "numbered", first["requestState"], {"q0": {"action": "accept", "content": {"name": "a"}}})
    assert sorted(second["result"]["inputRequests"]) == ["q1", "q2"]
    final = call(qw, "numbered", second["result"]["requestState"], {
        "q1": {"action": "accept", "content": {"name": "b"}}, "q2": {"action": "accept", "content": {"name": "c"}}})
    assert final["result"]["content"][0]["text"] == "a,b,c,q1,q2"


def test_two_questions_with_one_key_are_a_tool_error(qw):
    result = call(qw, "clash")["result"]
    assert result["isError"] is True and "share a key" in result["content"][0]["text"]


def test_a_round_needs_every_capability_it_asks_for(qw):
    error = call(qw, "interview", capabilities={"elicitation": {}, "sampling": {}})["error"]
    assert error["code"] == -32021 and error["data"] == {"requiredCapabilities": {"roots": {}}}


# -- handshake era: the same handler, concurrent requests --------------------------------------

def test_handshake_round_is_three_requests_in_flight_at_once(qw):
    qw.initialize("2025-11-25", ALL_CAPS)
    call_id = qw.request("tools/call", {"name": "interview", "arguments": {}})
    asked = [qw.server_request() for _ in range(3)]      # all three arrive before any is answered
    by_method = {request["method"]: request for request in asked}
    assert set(by_method) == {"elicitation/create", "sampling/createMessage", "roots/list"}
    assert len({request["id"] for request in asked}) == 3
    for method, key in (("roots/list", "client_roots"), ("sampling/createMessage", "greeting"),
                        ("elicitation/create", "user_name")):             # answered in another order
        qw.send({"jsonrpc": "2.0", "id": by_method[method]["id"], "result": ANSWERS[key]})
    assert qw.response(call_id)["result"]["content"][0]["text"] == "Ada|hi|2"


def test_handshake_cancel_withdraws_every_open_question(qw):
    qw.initialize("2025-11-25", ALL_CAPS)
    call_id = qw.request("tools/call", {"name": "interview", "arguments": {}})
    asked = [qw.server_request() for _ in range(3)]
    qw.send({"jsonrpc": "2.0", "id": asked[0]["id"], "result": ANSWERS["user_name"]
             if asked[0]["method"] == "elicitation/create" else ANSWERS["client_roots"]
             if asked[0]["method"] == "roots/list" else ANSWERS["greeting"]})
    qw.notify("notifications/cancelled", {"requestId": call_id, "reason": "user"})
    withdrawn = set()
    while len(withdrawn) < 2:
        message = qw.recv()
        assert message.get("id") != call_id, "a cancelled request was answered: %r" % message
        if message.get("method") == "notifications/cancelled":
            withdrawn.add(message["params"]["requestId"])
    assert withdrawn == {asked[1]["id"], asked[2]["id"]}
    assert qw.result("ping") == {}
    assert call_id not in qw.stash


# -- tasks: every open question listed, questions before the task ------------------------------

def modern_task(wire, task_id):
    return modern(wire, "tasks/get", {"taskId": task_id}, TASK_CAPS)["result"]


def wait_for(wire, task_id, predicate):
    deadline = threading.Event()
    for _ in range(500):
        task = modern_task(wire, task_id)
        if predicate(task):
            return task
        deadline.wait(0.01)
    raise AssertionError("the task never got there: %r" % task)


def test_a_task_stays_input_required_until_every_question_is_answered(qw):
    task_id = call(qw, "interview", capabilities=TASK_CAPS)["result"]["taskId"]
    task = wait_for(qw, task_id, lambda t: t["status"] == "input_required" and len(t.get("inputRequests", ())) == 3)
    keys = {request["method"]: key for key, request in task["inputRequests"].items()}
    answer = {keys["elicitation/create"]: ANSWERS["user_name"], keys["roots/list"]: ANSWERS["client_roots"]}
    ack = modern(qw, "tasks/update", {"taskId": task_id, "inputResponses": answer}, TASK_CAPS)["result"]
    assert ack["resultType"] == "complete" and "status" not in ack
    task = modern_task(qw, task_id)
    assert task["status"] == "input_required" and list(task["inputRequests"]) == [keys["sampling/createMessage"]]
    modern(qw, "tasks/update", {"taskId": task_id, "inputResponses": {
        keys["sampling/createMessage"]: ANSWERS["greeting"]}}, TASK_CAPS)
    task = wait_for(qw, task_id, lambda t: t["status"] == "completed")
    assert task["result"]["content"][0]["text"] == "Ada|hi|2" and "inputRequests" not in task


def test_questions_before_the_task_then_the_task(qw):
    first = call(qw, "book", capabilities=TASK_CAPS)["result"]
    assert first["resultType"] == "input_required" and "taskId" not in first
    assert list(first["inputRequests"]) == ["user_name"]
    created = call(qw, "book", first["requestState"], {"user_name": ANSWERS["user_name"]}, TASK_CAPS)["result"]
    assert created["resultType"] == "task" and "requestState" not in created and "inputRequests" not in created
    task = wait_for(qw, created["taskId"], lambda t: t["status"] == "input_required")
    (key, request), = task["inputRequests"].items()
    assert request["params"]["message"] == "Where to?"
    modern(qw, "tasks/update", {"taskId": created["taskId"], "inputResponses": {
        key: {"action": "accept", "content": {"name": "Oslo"}}}}, TASK_CAPS)
    task = wait_for(qw, created["taskId"], lambda t: t["status"] == "completed")
    assert task["result"]["content"][0]["text"] == "Ada to Oslo"


def test_ask_first_in_the_handshake_era_is_a_task_from_the_start(qw):
    qw.initialize("2025-11-25", ALL_CAPS)
    created = qw.result("tools/call", {"name": "book", "arguments": {}, "task": {}})
    task_id = created["task"]["taskId"]
    for answer in ("Ada", "Oslo"):
        request = qw.server_request()
        assert request["params"]["_meta"]["io.modelcontextprotocol/related-task"] == {"taskId": task_id}
        qw.send({"jsonrpc": "2.0", "id": request["id"], "result": {"action": "accept", "content": {"name": answer}}})
    result = qw.result("tasks/result", {"taskId": task_id})
    assert result["content"][0]["text"] == "Ada to Oslo"


def test_task_methods_without_the_extension_are_32021_before_anything_else(qw):
    for method, params in (("tasks/get", {"taskId": "gate-test"}), ("tasks/cancel", {"taskId": "gate-test"}),
                           ("tasks/update", {"taskId": "gate-test", "inputResponses": {}}),
                           ("tasks/get", {})):
        error = modern(qw, method, params)["error"]
        assert error["code"] == -32021, (method, error)
        assert error["data"] == {"requiredCapabilities": {"extensions": {TASKS: {}}}}
    assert modern(qw, "tasks/get", {"taskId": "gate-test"}, TASK_CAPS)["error"]["code"] == -32602


# -- lifecycle and error details ----------------------------------------------------------------

def test_a_handshake_version_in_the_envelope_says_to_use_initialize(qw):
    params = {"_meta": envelope({}, version="2025-11-25")}
    error = qw.call("tools/list", params)["error"]
    assert error["code"] == -32022 and "initialize" in error["message"]
    assert "Unsupported" not in error["message"] and "2025-11-25" in error["data"]["supported"]


def test_error_data_never_says_none(qw):
    modern(qw, "tools/list")
    error = qw.call("initialize", {"capabilities": {}})["error"]
    assert "None" not in str(error) and "requested" not in error["data"]
    error = qw.call("tools/list", {"_meta": envelope({}, version=None)})["error"]
    assert "None" not in str(error), error


def test_params_null_is_absent_params(qw):
    qw.initialize()
    for method in ("tools/list", "ping"):
        qw.send({"jsonrpc": "2.0", "id": method, "method": method, "params": None})
        assert "result" in qw.response(method), method


def test_initialize_again_on_the_same_pipe(qw):
    first = qw.initialize("2025-06-18")
    again = qw.result("initialize", {"protocolVersion": "2025-06-18", "capabilities": {"roots": {}},
                                     "clientInfo": {"name": "again", "version": "2"}})
    assert again == first
    error = qw.error("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}})
    assert error["code"] == -32600 and "2025-06-18" in error["message"]
    assert qw.result("tools/list")["tools"]
