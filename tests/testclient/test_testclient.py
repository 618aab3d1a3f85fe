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


def test_async_handler_replays_through_mrtr():
    app = MCPServer("async-mrtr")

    @app.tool()
    async def ask(ctx: Context) -> str:
        answer = await ctx.elicit("Name?", {"type": "object", "properties": {"name": {"type": "string"}}})
        return "hi " + answer["content"]["name"]

    from minimcp import TestClient
    with TestClient(app, protocol="2026-07-28",
                    elicitation=lambda p: {"action": "accept", "content": {"name": "Ada"}}) as client:
        assert client.call_tool("ask")["content"][0]["text"] == "hi Ada"


def test_the_clients_stop_on_a_cursor_that_comes_back():
    """A server whose pages never end is an error for minimcp's own clients, not a loop for ever."""
    import minimcp as module
    app = module.MCPServer("loops", page_size=1)

    @app.tool()
    def one() -> int:
        return 1

    @app.tool()
    def two() -> int:
        return 2
    real_page = module._page
    try:
        module._page = lambda records, cursor, size: dict(real_page(records, None, size), nextCursor="mm1")
        with module.TestClient(app) as client:
            with pytest.raises(module.MCPError, match="sent the cursor 'mm1' again"):
                client.list_tools()
    finally:
        module._page = real_page


def test_sdk_style_awaited_context_calls():
    """Code written for the official SDK awaits ctx methods; it runs unchanged."""
    app = MCPServer("sdk-style", dialect="minimcp")

    @app.tool()
    async def agent(topic: str, ctx: Context) -> str:
        await ctx.info("starting")
        await ctx.report_progress(1, 2)
        reply = await ctx.sample("about " + topic, max_tokens=10)
        roots = await ctx.list_roots()
        await ctx.report_progress(2, 2)
        plain = ctx.warning("sync use still works")
        assert not plain
        return "%s %d" % (reply["content"]["text"], len(roots))

    from minimcp import TestClient
    with TestClient(app, sampling=lambda p: "sure", roots=["file:///x"], log_level="debug") as client:
        assert client.call_tool("agent", {"topic": "owls"})["content"][0]["text"] == "sure 1"
        assert [p["progress"] for p in client.progress] == [1, 2]
        assert [entry["data"] for entry in client.logs] == ["starting", "sync use still works"]
