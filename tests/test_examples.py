"""The real-world examples, each driven over the wire."""


import pytest

from conftest import Wire, check_line, load_example
from minimcp import MCPError, TestClient


@pytest.fixture(scope="module")
def sqlite_app():
    return load_example("sqlite_explorer").app


def test_sqlite_tables_schema_and_query(sqlite_app):
    with TestClient(sqlite_app) as client:
        assert client.read_resource("sqlite://tables")["contents"][0]["text"] == '["city", "visit"]'
        schema = client.read_resource("sqlite://table/city/schema")["contents"][0]["text"]
        assert schema.startswith("CREATE TABLE city")
        assert client.complete("sqlite://table/{name}/schema", "name", "v")["values"] == ["visit"]
        result = client.call_tool("query", {"sql": "SELECT name FROM city ORDER BY name"})
        assert result["structuredContent"] == {"columns": ["name"], "rows": [["Lisbon"], ["Oslo"], ["Quito"]],
                                               "truncated": False}
        with pytest.raises(MCPError) as raised:
            client.read_resource("sqlite://table/nope/schema")
        assert raised.value.code == -32002


@pytest.mark.parametrize("sql", ["DELETE FROM city", "DROP TABLE city", "INSERT INTO city (name) VALUES ('x')",
                                 "UPDATE city SET name = 'x'", "CREATE TABLE t (x)",
                                 "PRAGMA query_only = OFF; DELETE FROM city"])
def test_sqlite_query_cannot_write(sqlite_app, sql):
    with TestClient(sqlite_app) as client:
        result = client.call_tool("query", {"sql": sql})
        assert result["isError"] is True
        count = client.call_tool("query", {"sql": "SELECT COUNT(*) FROM city"})["structuredContent"]["rows"]
        assert count == [[3]]


def test_sqlite_row_limit_progress_and_prompt(sqlite_app):
    with TestClient(sqlite_app) as client:
        result = client.call_tool("query", {"sql": "SELECT * FROM visit", "max_rows": 10})
        assert len(result["structuredContent"]["rows"]) == 10 and result["structuredContent"]["truncated"] is True
        heavy = "SELECT COUNT(*) FROM visit a, visit b WHERE a.id % 7 = b.id % 11 AND a.id < 150"   # ~45 progresses
        client.call_tool("query", {"sql": heavy})
        assert client.progress and all(p["progress"] > 0 for p in client.progress)
        text = client.get_prompt("draft_query", {"question": "busiest city?"})["messages"][0]["content"]["text"]
        assert "CREATE TABLE visit" in text and "busiest city?" in text


def test_sqlite_long_query_stops_on_cancel():
    app = load_example("sqlite_explorer").app
    app.workers = 1                     # one worker: the next call is answered only once the query stopped
    wire = Wire(app)
    wire.initialize()
    request_id = wire.request("tools/call", {"name": "query", "_meta": {"progressToken": 1}, "arguments": {
        "sql": "SELECT COUNT(*) FROM visit a, visit b, visit c"}})     # minutes, if nothing stops it
    wire.recv(10)                                    # a progress line: the query is running
    wire.notify("notifications/cancelled", {"requestId": request_id})
    quick = wire.request("tools/call", {"name": "query", "arguments": {"sql": "SELECT 1"}})
    assert wire.response(quick, 10)["result"]["content"]
    wire.close()                                     # serve() has returned: its whole output is in
    assert not [line for line in wire.raw_lines      # raw_lines; the cancelled query is never answered
                if check_line(line).get("id") == request_id]


def test_jobs_progress_cancel_and_task():
    app = load_example("jobs").app
    with TestClient(app, log_level="info") as client:
        assert client.call_tool("build", {"target": "x", "steps": 3, "step_seconds": 0.01})["content"][0][
            "text"] == "built x in 3 steps"
        assert [p["progress"] for p in client.progress] == [1, 2, 3]
        assert client.logs[-1]["data"] == "built x"
        task = client.request("tools/call", {"name": "build", "arguments": {"target": "y", "steps": 2,
                                                                           "step_seconds": 0.01}, "task": {}})
        result = client.request("tasks/result", {"taskId": task["task"]["taskId"]})
        assert result["content"][0]["text"] == "built y in 2 steps"
    app = load_example("jobs").app
    app.workers = 1                     # one worker: the next call waits for the cancelled build to stop
    wire = Wire(app)
    wire.initialize()
    request_id = wire.request("tools/call", {"name": "build", "arguments": {"target": "z", "steps": 1000},
                                             "_meta": {"progressToken": "b"}})      # 100 s if not stopped
    wire.recv()
    wire.notify("notifications/cancelled", {"requestId": request_id})
    quick = wire.request("tools/call", {"name": "build", "arguments": {"target": "q", "steps": 1,
                                                                      "step_seconds": 0}})
    assert wire.response(quick, 10)["result"]["content"][0]["text"] == "built q in 1 steps"
    wire.close()                                     # serve() has returned: its whole output is in
    assert not [line for line in wire.raw_lines      # raw_lines; the cancelled build is never answered
                if check_line(line).get("id") == request_id]


def test_quickstart():
    with TestClient(load_example("quickstart").app) as client:
        assert client.call_tool("word_count", {"text": "a b c"})["structuredContent"] == {"result": 3}
    assert len(open(load_example("quickstart").__file__).read().splitlines()) <= 20
