"""TestClient: the in-memory client users test their own servers with, in either era."""

import pytest

from conftest import load_example
from minimcp import Context, MCPError, MCPServer, TestClient


@pytest.fixture
def app():
    return load_example("everything").app


@pytest.mark.parametrize("protocol", ["2024-11-05", "2025-11-25", "2026-07-28"])
def test_calls_lists_reads_prompts_completion(app, protocol):
    with TestClient(app, protocol=protocol) as client:
        assert client.server_info["name"] == "everything"
        assert "echo" in [t["name"] for t in client.list_tools()]
        assert client.call_tool("echo", {"text": "hé\n"})["content"] == [{"type": "text", "text": "hé\n"}]
        assert client.read_resource("fixture://hello")["contents"][0]["text"] == "Hello, world!"
        assert [t["uriTemplate"] for t in client.list_resource_templates()] == ["fixture://greeting/{name}"]
        assert [r["uri"] for r in client.list_resources()] == [
            "fixture://hello", "skill://release-notes/SKILL.md", "skill://release-notes/templates/release.md"]
        assert "Ada" in client.get_prompt("greet", {"name": "Ada"})["messages"][0]["content"]["text"]
        assert [p["name"] for p in client.list_prompts()] == ["greet"]
        assert client.complete("greet", "name", "a")["values"] == ["alice", "anna"]
        assert client.complete("fixture://greeting/{name}", "name", "b")["values"] == ["bob"]
        with pytest.raises(MCPError) as raised:
            client.call_tool("nope")
        assert raised.value.code == -32602


@pytest.mark.parametrize("protocol", ["2025-11-25", "2026-07-28"])
def test_callbacks_answer_questions_in_both_eras(app, protocol):
    seen = []

    def sampling(params):
        seen.append(params["messages"][0]["content"]["text"])
        return "a reply"

    with TestClient(app, protocol=protocol, sampling=sampling, roots=["file:///one", {"uri": "file:///two"}],
                    elicitation=lambda params: {"action": "accept", "content": {"name": "Ada"}}) as client:
        assert client.call_tool("sample", {"prompt": "hi"})["content"][0]["text"] == "The model said: a reply"
        assert client.call_tool("ask_roots")["content"][0]["text"] == "file:///one\nfile:///two"
        assert client.call_tool("elicit")["content"][0]["text"] == "accept: Ada"
    assert seen == ["hi"]


@pytest.mark.parametrize("protocol", ["2025-11-25", "2026-07-28"])
def test_progress_and_logs_are_captured(app, protocol):
    with TestClient(app, protocol=protocol, log_level="info") as client:
        client.call_tool("slow", {"seconds": 0.05, "steps": 3})
        assert [p["progress"] for p in client.progress] == [1, 2, 3]
        client.call_tool("log", {"message": "hello", "level": "warning"})
        client.call_tool("log", {"message": "hidden", "level": "debug"})
        assert [entry["data"] for entry in client.logs] == ["hello"]


def test_missing_callback_is_a_clear_error(app):
    with TestClient(app) as client:
        with pytest.raises(MCPError) as raised:
            client.call_tool("sample", {"prompt": "x"})
        assert raised.value.code == -32021


def test_a_users_own_server():
    app = MCPServer("mine", dialect="minimcp")

    @app.tool()
    def add(a: int, b: int) -> int:
        return a + b

    @app.tool()
    def ask(ctx: Context) -> str:
        return ctx.elicit("ok?", {"type": "object", "properties": {"ok": {"type": "boolean"}}})["action"]

    with TestClient(app, elicitation=lambda p: {"action": "decline"}) as client:
        assert client.call_tool("add", {"a": 2, "b": 3})["structuredContent"] == {"result": 5}
        assert client.call_tool("ask")["content"][0]["text"] == "decline"
        result = client.call_tool("add", {"a": "x", "b": 1})
        assert result["isError"] is True and "arguments.a" in result["content"][0]["text"]
