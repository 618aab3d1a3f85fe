"""Resources, templates, prompts, completion, pagination, list changes, subscriptions."""

import base64
import json
import os
import sys

import pytest

from conftest import HANDSHAKE_VERSIONS, Wire, envelope
from minimcp import MCPServer


def make_server(**options):
    app = MCPServer("res", dialect="minimcp", **options)

    @app.resource("config://app", title="App config", mime_type="application/json", size=12,
                  annotations={"audience": ["user"], "priority": 0.5, "lastModified": "2026-01-01T00:00:00Z"},
                  icons=[{"src": "https://example.com/i.png"}], meta={"k": 1})
    def config() -> str:
        """The configuration."""
        return '{"debug":1}'

    @app.resource("data://blob")
    def blob() -> bytes:
        return b"\x00\x01\xff"

    @app.resource("data://two")
    def two():
        return ["first", {"uri": "data://two#b", "mimeType": "text/x-b", "text": "second"}]

    @app.resource("log://build/{job_id}", mime_type="text/plain")
    def build_log(job_id: int) -> str:
        return "log of job %d (%s)" % (job_id, type(job_id).__name__)

    @app.resource("file:///srv/{+path}")
    def served(path: str) -> str:
        return "path=" + path

    @app.resource("tree://root{/segments*}")
    def tree(segments: list) -> str:
        return "|".join(segments)

    @app.resource("search://items{?q,limit}")
    def search(q: str = "", limit: int = 10) -> str:
        return "q=%s limit=%d" % (q, limit)

    @app.resource("broken://x")
    def broken() -> str:
        raise RuntimeError("disk on fire")

    @app.prompt(title="Review", icons=[{"src": "https://example.com/p.png"}])
    def review(code: str, language: str = "python") -> str:
        """Review some code.

        Args:
            code: the code to review
            language: its language
        """
        return "Review this %s:\n%s" % (language, code)

    @app.prompt()
    def dialogue(topic: str):
        return [{"role": "user", "content": "Tell me about " + topic},
                {"role": "assistant", "content": {"type": "text", "text": "Sure."}},
                "And more?"]

    @app.prompt()
    def bad_role() -> list:
        return [{"role": "system", "content": "nope"}]

    return app


@pytest.fixture
def res():
    wire = Wire(make_server())
    wire.initialize()
    yield wire
    wire.close()


def test_resources_list_fixed_only_in_registration_order(res):
    result = res.result("resources/list")
    assert [r["uri"] for r in result["resources"]] == ["config://app", "data://blob", "data://two", "broken://x"]
    config = result["resources"][0]
    assert config == {"uri": "config://app", "name": "config", "title": "App config",
                      "description": "The configuration.", "mimeType": "application/json", "size": 12,
                      "annotations": {"audience": ["user"], "priority": 0.5,
                                      "lastModified": "2026-01-01T00:00:00Z"},
                      "icons": [{"src": "https://example.com/i.png"}], "_meta": {"k": 1}}
    assert "nextCursor" not in result


def test_templates_list(res):
    templates = res.result("resources/templates/list")["resourceTemplates"]
    assert [t["uriTemplate"] for t in templates] == [
        "log://build/{job_id}", "file:///srv/{+path}", "tree://root{/segments*}", "search://items{?q,limit}"]
    assert templates[0]["mimeType"] == "text/plain" and templates[0]["name"] == "build_log"


@pytest.mark.parametrize("version", HANDSHAKE_VERSIONS)
def test_resource_fields_follow_the_revision(version):
    wire = Wire(make_server())
    wire.initialize(version)
    config = wire.result("resources/list")["resources"][0]
    assert ("title" in config) == (version >= "2025-06-18")
    assert ("_meta" in config) == (version >= "2025-06-18")
    assert ("icons" in config) == (version >= "2025-11-25")
    assert "size" in config                      # every revision defines size
    assert ("lastModified" in config["annotations"]) == (version >= "2025-06-18")
    prompt = wire.result("prompts/list")["prompts"][0]
    assert ("title" in prompt) == (version >= "2025-06-18")
    assert ("icons" in prompt) == (version >= "2025-11-25")
    wire.close()


def test_read_text_with_declared_mime(res):
    result = res.result("resources/read", {"uri": "config://app"})
    assert result == {"contents": [{"uri": "config://app", "mimeType": "application/json", "text": '{"debug":1}'}]}


def test_read_bytes_is_base64_blob(res):
    content = res.result("resources/read", {"uri": "data://blob"})["contents"][0]
    assert base64.b64decode(content["blob"]) == b"\x00\x01\xff"
    assert content["mimeType"] == "application/octet-stream" and "text" not in content


def test_read_several_contents_and_explicit_objects(res):
    contents = res.result("resources/read", {"uri": "data://two"})["contents"]
    assert contents == [{"uri": "data://two", "mimeType": "text/plain", "text": "first"},
                        {"uri": "data://two#b", "mimeType": "text/x-b", "text": "second"}]


def test_template_variable_converted_to_annotated_type(res):
    text = res.result("resources/read", {"uri": "log://build/42"})["contents"][0]["text"]
    assert text == "log of job 42 (int)"


def test_template_conversion_failure_is_a_clear_error(res):
    error = res.error("resources/read", {"uri": "log://build/abc"})
    assert error["code"] == -32602 and "job_id" in error["message"] and "abc" in error["message"]


def test_reserved_path_and_segments_and_query_templates(res):
    assert res.result("resources/read", {"uri": "file:///srv/a/b%20c.txt"})["contents"][0]["text"] == \
        "path=a/b c.txt"
    assert res.result("resources/read", {"uri": "tree://root/x/y/z"})["contents"][0]["text"] == "x|y|z"
    assert res.result("resources/read", {"uri": "search://items?q=cat&limit=3"})["contents"][0]["text"] == \
        "q=cat limit=3"


def test_guessed_mime_type():
    app = MCPServer("m", dialect="minimcp")
    app.add_resource(lambda: "<p>x</p>", "page://index.html")
    wire = Wire(app)
    wire.initialize()
    assert wire.result("resources/read", {"uri": "page://index.html"})["contents"][0]["mimeType"] == "text/html"
    wire.close()


def test_unknown_resource_is_32002_in_handshake_era(res):
    error = res.error("resources/read", {"uri": "nope://x"})
    assert error["code"] == -32002 and error["data"] == {"uri": "nope://x"}


def test_unknown_resource_is_32602_in_modern_era():
    wire = Wire(make_server())
    error = wire.error("resources/read", {"uri": "nope://x", "_meta": envelope()})
    assert error["code"] == -32602 and error["data"] == {"uri": "nope://x"}
    wire.close()


def test_resource_function_failure_is_internal_error(res):
    error = res.error("resources/read", {"uri": "broken://x"})
    assert error["code"] == -32603 and "disk on fire" in error["message"]


def test_read_needs_a_string_uri(res):
    assert res.error("resources/read", {"uri": 5})["code"] == -32602


def test_template_parameters_must_match_variables():
    app = MCPServer("m", dialect="minimcp")
    with pytest.raises(ValueError, match="job"):
        @app.resource("log://{job}")
        def wrong(name: str) -> str:
            return name
    with pytest.raises(ValueError, match="extra"):
        @app.resource("log://{job}")
        def needs_more(job: str, extra: str) -> str:
            return job


def test_prompts_list_arguments_from_signature_and_docstring(res):
    prompts = res.result("prompts/list")["prompts"]
    assert [p["name"] for p in prompts] == ["review", "dialogue", "bad_role"]
    assert prompts[0]["arguments"] == [
        {"name": "code", "description": "the code to review", "required": True},
        {"name": "language", "description": "its language", "required": False}]
    assert prompts[0]["description"] == "Review some code."


def test_prompt_get_string_is_one_user_message(res):
    result = res.result("prompts/get", {"name": "review", "arguments": {"code": "x = 1"}})
    assert result["messages"] == [{"role": "user", "content": {"type": "text",
                                                               "text": "Review this python:\nx = 1"}}]


def test_prompt_get_mixed_messages(res):
    messages = res.result("prompts/get", {"name": "dialogue", "arguments": {"topic": "owls"}})["messages"]
    assert messages == [
        {"role": "user", "content": {"type": "text", "text": "Tell me about owls"}},
        {"role": "assistant", "content": {"type": "text", "text": "Sure."}},
        {"role": "user", "content": {"type": "text", "text": "And more?"}}]


def test_prompt_missing_argument_and_unknown_prompt(res):
    error = res.error("prompts/get", {"name": "review", "arguments": {}})
    assert error["code"] == -32602 and "'code'" in error["message"]
    error = res.error("prompts/get", {"name": "nope"})
    assert error["code"] == -32602 and "nope" in error["message"]
    error = res.error("prompts/get", {"name": "review", "arguments": {"code": 5}})
    assert error["code"] == -32602


def test_prompt_with_invalid_role_is_an_error_not_a_crash(res):
    error = res.error("prompts/get", {"name": "bad_role"})
    assert error["code"] == -32603 and "role" in error["message"]
    assert res.result("ping") == {}


def test_everything_fixture_resources_and_prompt(legacy):
    assert legacy.result("resources/read", {"uri": "fixture://hello"})["contents"] == [
        {"uri": "fixture://hello", "mimeType": "text/plain", "text": "Hello, world!"}]
    assert legacy.result("resources/read", {"uri": "fixture://greeting/Zoë"})["contents"][0]["text"] == "Hello, Zoë!"
    message = legacy.result("prompts/get", {"name": "greet", "arguments": {"name": "Ada"}})["messages"][0]
    assert message["role"] == "user" and "Ada" in message["content"]["text"]


# -- completion ------------------------------------------------------------------

def test_completion_for_prompt_argument(legacy):
    result = legacy.result("completion/complete", {"ref": {"type": "ref/prompt", "name": "greet"},
                                                   "argument": {"name": "name", "value": "a"}})
    assert result == {"completion": {"values": ["alice", "anna"], "total": 2, "hasMore": False}}


def test_completion_for_template_variable(legacy):
    result = legacy.result("completion/complete", {
        "ref": {"type": "ref/resource", "uri": "fixture://greeting/{name}"},
        "argument": {"name": "name", "value": "b"}})
    assert result["completion"]["values"] == ["bob"]


def test_completion_literal_enum_callable_and_context():
    import enum
    from typing import Literal

    class Color(enum.Enum):
        RED = "red"
        GREEN = "green"

    app = MCPServer("c", dialect="minimcp")

    @app.prompt()
    def paint(color: Color, finish: Literal["matte", "gloss"], room: str) -> str:
        return "x"

    seen = {}

    @app.completer("paint", "room")
    def rooms(prefix, context):
        seen.update(context)
        return ["room%d" % i for i in range(150) if ("room%d" % i).startswith(prefix)]

    wire = Wire(app)
    wire.initialize()
    complete = lambda arg, value, **extra: wire.result("completion/complete", dict(
        {"ref": {"type": "ref/prompt", "name": "paint"}, "argument": {"name": arg, "value": value}},
        **extra))["completion"]
    assert complete("color", "")["values"] == ["red", "green"]
    assert complete("finish", "g")["values"] == ["gloss"]
    many = complete("room", "", context={"arguments": {"color": "red"}})
    assert len(many["values"]) == 100 and many["total"] == 150 and many["hasMore"] is True
    assert seen == {"color": "red"}
    wire.close()


def test_completion_errors(legacy):
    error = legacy.error("completion/complete", {"ref": {"type": "ref/prompt", "name": "nope"},
                                                 "argument": {"name": "x", "value": ""}})
    assert error["code"] == -32602
    error = legacy.error("completion/complete", {"ref": {"type": "ref/prompt", "name": "greet"},
                                                 "argument": {"name": "nope", "value": ""}})
    assert error["code"] == -32602
    error = legacy.error("completion/complete", {"ref": {"type": "ref/zzz"}, "argument": {"name": "x", "value": ""}})
    assert error["code"] == -32602


def test_completions_capability_only_when_something_completes():
    app = MCPServer("c", dialect="minimcp")
    app.add_prompt(lambda text: text, name="plain")
    wire = Wire(app)
    assert "completions" not in wire.initialize()["capabilities"]
    assert wire.error("completion/complete", {"ref": {"type": "ref/prompt", "name": "plain"},
                                              "argument": {"name": "text", "value": ""}})["code"] == -32601
    wire.close()


# -- pagination -------------------------------------------------------------------

def test_pagination_with_thousands_of_tools():
    app = MCPServer("p", dialect="minimcp", page_size=100)
    for i in range(2500):
        app.add_tool(lambda: "x", name="t%04d" % i)
    wire = Wire(app)
    wire.initialize()
    names, cursor, pages, cursors = [], None, 0, set()
    while True:
        result = wire.result("tools/list", {"cursor": cursor} if cursor else {})
        names += [t["name"] for t in result["tools"]]
        pages += 1
        cursor = result.get("nextCursor")
        if cursor is None:
            break
        assert isinstance(cursor, str) and cursor not in cursors and pages < 25, (pages, cursor)
        cursors.add(cursor)
    assert names == ["t%04d" % i for i in range(2500)] and pages == 25
    assert wire.error("tools/list", {"cursor": "garbage"})["code"] == -32602
    assert wire.error("tools/list", {"cursor": 7})["code"] == -32602
    wire.close()


def test_every_list_method_pages():
    app = MCPServer("p", dialect="minimcp", page_size=2)
    for i in range(5):
        app.add_resource(lambda: "x", "r://%d" % i)
        app.add_resource(lambda v: v, "t://%d/{v}" % i)
        app.add_prompt(lambda: "x", name="p%d" % i)
    wire = Wire(app)
    wire.initialize()
    for method, field in (("resources/list", "resources"), ("resources/templates/list", "resourceTemplates"),
                          ("prompts/list", "prompts")):
        first = wire.result(method)
        assert len(first[field]) == 2 and "nextCursor" in first
        second = wire.result(method, {"cursor": first["nextCursor"]})
        assert len(second[field]) == 2
        assert wire.error(method, {"cursor": "mm999"})["code"] == -32602
    wire.close()


# -- list changes and subscriptions ------------------------------------------------

def test_list_changed_after_start(legacy):
    app = legacy.app
    app.add_tool(lambda: "new", name="added_later")
    note = legacy.recv()
    assert note == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
    assert "added_later" in [t["name"] for t in legacy.result("tools/list")["tools"]]
    app.remove_tool("added_later")
    assert legacy.recv()["method"] == "notifications/tools/list_changed"
    app.add_prompt(lambda: "p", name="later")
    assert legacy.recv()["method"] == "notifications/prompts/list_changed"
    app.add_resource(lambda: "r", "later://r")
    assert legacy.recv()["method"] == "notifications/resources/list_changed"


def test_no_list_changed_before_initialize(everything):
    wire = Wire(everything)
    everything.add_tool(lambda: "x", name="early")
    # add_tool() writes any notification in this thread, so it would precede the ping's answer
    assert wire.result("ping") == {}
    assert not wire.notifications and not wire.stash
    wire.close()


def test_subscribe_updated_unsubscribe(legacy):
    assert legacy.result("resources/subscribe", {"uri": "fixture://hello"}) == {}
    legacy.app.notify_resource_updated("fixture://other")        # not subscribed: nothing
    response = legacy.call("tools/call", {"name": "touch", "arguments": {"uri": "fixture://hello"}})
    assert response["result"]["content"][0]["text"] == "touched"
    updates = [n for n in legacy.notifications if n["method"] == "notifications/resources/updated"]
    assert updates == [{"jsonrpc": "2.0", "method": "notifications/resources/updated",
                        "params": {"uri": "fixture://hello"}}]
    assert legacy.result("resources/unsubscribe", {"uri": "fixture://hello"}) == {}
    legacy.notifications.clear()
    legacy.call("tools/call", {"name": "touch", "arguments": {"uri": "fixture://hello"}})
    rest = legacy.close()                # serve() has returned: nothing is still on its way
    assert not [n for n in legacy.notifications + rest if n.get("method") == "notifications/resources/updated"]


def test_resources_capability_advertises_subscribe_and_list_changed(wire):
    caps = wire.initialize()["capabilities"]
    assert caps["resources"] == {"listChanged": True, "subscribe": True}
    assert caps["tools"] == {"listChanged": True} and caps["prompts"] == {"listChanged": True}


# -- the directory helper ------------------------------------------------------------

@pytest.fixture
def tree(tmp_path):
    base = tmp_path / "base"
    (base / "sub").mkdir(parents=True)
    (base / "a.txt").write_text("alpha")
    (base / "sub" / "b.md").write_text("beta")
    (tmp_path / "secret.txt").write_text("SECRET")
    if hasattr(os, "symlink"):
        os.symlink(str(tmp_path / "secret.txt"), str(base / "link.txt"))
        os.symlink(str(tmp_path), str(base / "linkdir"))
    app = MCPServer("files", dialect="minimcp")
    app.add_directory(str(base))
    wire = Wire(app)
    wire.initialize()
    yield wire, "file://" + os.path.realpath(str(base)), tmp_path
    wire.close()


def test_directory_lists_and_reads(tree):
    wire, prefix, _ = tree
    uris = [r["uri"] for r in wire.result("resources/list")["resources"]]
    assert uris == [prefix + "/a.txt", prefix + "/sub/b.md"]
    content = wire.result("resources/read", {"uri": prefix + "/sub/b.md"})["contents"][0]
    assert content["text"] == "beta" and "blob" not in content        # text files are text (issue 18)


def test_directory_file_names_with_percent_and_spaces_read_back(tmp_path):
    base = tmp_path / "odd"
    base.mkdir()
    for name in ("a%41.txt", "two words.txt", "100%.txt"):
        (base / name).write_text("content of " + name)
    app = MCPServer("files", dialect="minimcp")
    app.add_directory(str(base))
    wire = Wire(app)
    wire.initialize()
    listed = {r["name"]: r["uri"] for r in wire.result("resources/list")["resources"]}
    assert sorted(listed) == ["100%.txt", "a%41.txt", "two words.txt"]
    assert listed["a%41.txt"].endswith("/a%2541.txt")
    for name, uri in listed.items():
        assert wire.result("resources/read", {"uri": uri})["contents"][0]["text"] == "content of " + name
    wire.close()


@pytest.mark.parametrize("path", ["../secret.txt", "sub/../../secret.txt", "%2e%2e/secret.txt",
                                  "sub/%2E%2E/%2e%2e/secret.txt", "/etc/passwd", "link.txt",
                                  "linkdir/secret.txt", "..%2fsecret.txt", "sub/./../../secret.txt"])
def test_directory_refuses_escapes(tree, path):
    wire, prefix, _ = tree
    response = wire.call("resources/read", {"uri": prefix + "/" + path})
    assert "error" in response, response
    assert "SECRET" not in json.dumps(response)


def test_directory_symlink_swapped_in_after_listing(tree):
    wire, prefix, tmp_path = tree
    real = os.path.join(prefix[len("file://"):], "a.txt")
    os.remove(real)
    os.symlink(str(tmp_path / "secret.txt"), real)
    response = wire.call("resources/read", {"uri": prefix + "/a.txt"})
    assert "error" in response and "SECRET" not in json.dumps(response)


def test_files_example_serves_its_directory():
    from conftest import load_example
    module = load_example("files")
    wire = Wire(module.app)
    wire.initialize()
    resources = wire.result("resources/list")["resources"]
    assert resources, "examples/files.py lists no files"
    first = wire.result("resources/read", {"uri": resources[0]["uri"]})["contents"][0]
    assert "blob" in first or "text" in first
    wire.close()


def test_directory_serves_source_as_text_and_binaries_as_blobs(tmp_path):
    """Issue 18: add_directory served a .py file as base64, which no model reads."""
    (tmp_path / "tool.py").write_text("print('h\u00e9')\n", encoding="utf-8")
    (tmp_path / "Makefile").write_text("all:\n\techo hi\n")
    (tmp_path / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (tmp_path / "latin1.txt").write_bytes(b"caf\xe9")
    app = MCPServer("files", dialect="minimcp")
    app.add_directory(str(tmp_path))
    wire = Wire(app)
    wire.initialize()
    prefix = "file://" + os.path.realpath(str(tmp_path)).replace(os.sep, "/")
    try:
        read = {name: wire.result("resources/read", {"uri": prefix + "/" + name})["contents"][0]
                for name in ("tool.py", "Makefile", "logo.png", "latin1.txt")}
        assert read["tool.py"]["text"] == "print('h\u00e9')\n"
        assert read["Makefile"]["text"].startswith("all:")
        assert base64.b64decode(read["logo.png"]["blob"]).startswith(b"\x89PNG")
        assert base64.b64decode(read["latin1.txt"]["blob"]) == b"caf\xe9"         # not UTF-8: kept exact
        listed = {r["uri"].rsplit("/", 1)[1]: r for r in wire.result("resources/list")["resources"]}
        assert listed["tool.py"]["mimeType"] == "text/x-python"
    finally:
        wire.close()


def test_a_constant_value_is_a_resource_and_a_bool_variable_reads_as_json_would():
    """``add_resource(value, uri)`` serves a constant; a bool template variable takes true/1/yes and false/0/no."""
    app = MCPServer("constants", dialect="minimcp")
    app.add_resource("hello, constant", "text://greeting")

    @app.resource("flags://{name}/{on}")
    def flag(name: str, on: bool) -> str:
        return "%s=%r" % (name, on)

    wire = Wire(app)
    wire.initialize()
    assert wire.result("resources/read", {"uri": "text://greeting"})["contents"][0]["text"] == "hello, constant"
    assert [r["uri"] for r in wire.result("resources/list")["resources"]] == ["text://greeting"]
    for given, meant in (("yes", True), ("TRUE", True), ("1", True), ("no", False), ("false", False), ("0", False)):
        text = wire.result("resources/read", {"uri": "flags://x/" + given})["contents"][0]["text"]
        assert text == "x=%r" % meant, given
    error = wire.error("resources/read", {"uri": "flags://x/maybe"})
    assert error["code"] == -32602 and "maybe" in error["message"] and "not a boolean" in error["message"]
    wire.close()
