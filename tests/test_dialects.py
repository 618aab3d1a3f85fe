"""Dialects (issue 27): a server is shown to its client and model as the SDK it was written for shows it.

Every expected value here was measured on the real SDKs (mcp 1.30.0, mcp 2.3.0, fastmcp 4.2.3)
with the same functions, driven over stdio at 2025-06-18; the tests drive minimcp over a pipe
and compare the lines that come out.
"""

import json

import pytest

from conftest import Wire
import minimcp
from minimcp import MCPServer

DIALECTS = ["minimcp", "mcp2", "mcp1", "fastmcp"]


class Plain:
    def __init__(self):
        self.x = 1


def build(dialect):
    app = MCPServer("probe", dialect=dialect)

    @app.tool()
    def add(a: int, b: int = 2) -> int:
        """Add two numbers.

        Args:
            a: first addend
        """
        return a + b

    @app.tool()
    def greet(name: str) -> str:
        return "hello " + name

    @app.tool()
    def boom(x: int) -> str:
        raise ValueError("secret detail %d" % x)

    @app.tool()
    def told() -> str:
        raise minimcp.ToolError("told you")

    @app.tool()
    def ints() -> list:
        return [1, 2, 3]

    @app.tool()
    def dicty():
        return {"k": 1, "z": [1, 2]}

    @app.tool()
    def plain():
        return Plain()
    return app


def connect(dialect, app=None):
    wire = Wire(app or build(dialect))
    wire.initialize("2025-06-18")
    return wire


def call(wire, name, arguments=None):
    return wire.call("tools/call", {"name": name, "arguments": arguments or {}})


def text_of(message):
    return message["result"]["content"][0]["text"]


FAILURES = {   # (a tool raising ValueError, a tool raising ToolError), as each SDK words them
    "minimcp": ("secret detail 1", "told you"),
    "mcp2": ("Error executing tool boom", "Error executing tool told: told you"),
    "mcp1": ("Error executing tool boom: secret detail 1", "Error executing tool told: told you"),
    "fastmcp": ("Error calling tool 'boom': secret detail 1", "told you"),
}


@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_failing_tool_is_worded_as_its_sdk_words_it(dialect):
    wire = connect(dialect)
    raised, told = call(wire, "boom", {"x": 1}), call(wire, "told")
    assert raised["result"]["isError"] is True and told["result"]["isError"] is True
    assert (text_of(raised), text_of(told)) == FAILURES[dialect]
    wire.close()


@pytest.mark.parametrize("dialect, expected", [
    ("minimcp", {"content": [{"type": "text", "text": "5"}], "structuredContent": {"result": 5}}),
    ("mcp2", {"content": [{"type": "text", "text": "5"}], "structuredContent": {"result": 5}, "isError": False}),
    ("fastmcp", {"content": [{"type": "text", "text": "5"}], "structuredContent": {"result": 5}, "isError": False,
                 "_meta": {"fastmcp": {"wrap_result": True}}}),
])
def test_results_carry_what_the_sdk_adds(dialect, expected):
    wire = connect(dialect)
    assert call(wire, "add", {"a": 3})["result"] == expected
    wire.close()


@pytest.mark.parametrize("dialect, unknown", [
    ("minimcp", None), ("mcp2", "Unknown tool: nope"), ("mcp1", "Unknown tool: nope"),
    ("fastmcp", "Unknown tool: 'nope'")])
def test_an_unknown_tool(dialect, unknown):
    wire = connect(dialect)
    answer = call(wire, "nope")
    if unknown is None:
        assert answer["error"]["code"] == -32602 and answer["error"]["message"] == "Unknown tool: nope"
    else:
        assert answer["result"] == {"content": [{"type": "text", "text": unknown}], "isError": True}
    wire.close()


@pytest.mark.parametrize("dialect", DIALECTS)
def test_invalid_arguments_and_lax_numbers(dialect):
    wire = connect(dialect)
    lax = call(wire, "add", {"a": "3"})                # pydantic's lax mode takes "3" for an int
    missing = call(wire, "add", {})
    if dialect == "minimcp":
        assert lax["error"]["code"] == -32602 and missing["error"]["code"] == -32602   # (2025-06-18)
    else:
        assert lax["result"]["structuredContent"] == {"result": 5}
        assert missing["result"]["isError"] is True
        prefix = "" if dialect == "fastmcp" else "Error executing tool add: "
        assert text_of(missing).startswith(prefix + "1 validation error for ") and "\na\n" in text_of(missing)
    wire.close()


@pytest.mark.parametrize("dialect", DIALECTS)
def test_descriptions(dialect):
    wire = connect(dialect)
    listed = {t["name"]: t for t in wire.result("tools/list")["tools"]}
    if dialect in ("mcp1", "mcp2"):                    # the docstring as written, "" without one
        assert listed["add"]["description"] == add_doc()
        assert "description" not in listed["add"]["inputSchema"]["properties"]["a"]
        assert listed["greet"]["description"] == ""
    else:
        assert listed["add"]["description"] == "Add two numbers."
        assert listed["add"]["inputSchema"]["properties"]["a"]["description"] == "first addend"
        assert "description" not in listed["greet"]
    if dialect == "fastmcp":                           # its own fields
        assert listed["greet"]["title"] == "Greet" and listed["greet"]["_meta"] == {"fastmcp": {"tags": []}}
        assert listed["greet"]["inputSchema"]["additionalProperties"] is False
    else:
        assert "title" not in listed["greet"]
    wire.close()


def add_doc():
    """The docstring as Python keeps it (3.13 strips its indentation when it compiles)."""
    def add():
        """Add two numbers.

        Args:
            a: first addend
        """
    return add.__doc__


@pytest.mark.parametrize("dialect, ints, dicty", [
    ("minimcp", ["1", "2", "3"], {"content": ['{\n  "k": 1,\n  "z": [\n    1,\n    2\n  ]\n}']}),
    ("mcp2", ["1", "2", "3"], {"content": ['{\n  "k": 1,\n  "z": [\n    1,\n    2\n  ]\n}'], "isError": False}),
    ("fastmcp", ["[1,2,3]"], {"content": ['{"k":1,"z":[1,2]}'], "structuredContent": {"k": 1, "z": [1, 2]},
                              "isError": False}),
])
def test_lists_and_dicts_as_each_sdk_writes_them(dialect, ints, dicty):
    wire = connect(dialect)
    assert [b["text"] for b in call(wire, "ints")["result"]["content"]] == ints
    result = call(wire, "dicty")["result"]
    assert dict(result, content=[b["text"] for b in result["content"]]) == dicty
    wire.close()


@pytest.mark.parametrize("dialect", DIALECTS)
def test_an_object_that_is_not_json(dialect):
    wire = connect(dialect)
    result = call(wire, "plain")["result"]
    if dialect == "minimcp":
        assert result["isError"] is True and "cannot be sent as JSON" in text_of({"result": result})
    else:                                               # pydantic writes the repr() as a JSON string
        text = json.loads(result["content"][0]["text"])
        assert text.startswith("<") and "Plain object at 0x" in text and result["isError"] is False
    wire.close()


def test_minimcp_sends_a_text_result_once_and_the_sdks_twice():
    lean, sdk = connect("minimcp"), connect("mcp2")
    assert call(lean, "greet", {"name": "x"})["result"] == {"content": [{"type": "text", "text": "hello x"}]}
    assert "outputSchema" not in {t["name"]: t for t in lean.result("tools/list")["tools"]}["greet"]
    assert call(sdk, "greet", {"name": "x"})["result"]["structuredContent"] == {"result": "hello x"}
    lean.close()
    sdk.close()


CAPABILITIES = {
    "mcp2": {"prompts": {"listChanged": False}, "resources": {"subscribe": False, "listChanged": False},
             "tools": {"listChanged": False}},
    "mcp1": {"experimental": {}, "prompts": {"listChanged": False},
             "resources": {"subscribe": False, "listChanged": False}, "tools": {"listChanged": False}},
    "fastmcp": {"logging": {}, "prompts": {"listChanged": True},
                "resources": {"subscribe": False, "listChanged": True}, "tools": {"listChanged": True}},
}


@pytest.mark.parametrize("dialect", ["mcp2", "mcp1", "fastmcp"])
def test_the_sdks_declare_every_list_and_answer_it_empty(dialect):
    wire = Wire(build(dialect))
    answer = wire.result("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                        "clientInfo": {"name": "t", "version": "1"}})
    assert answer["capabilities"] == CAPABILITIES[dialect]
    assert answer["serverInfo"]["version"] == {"mcp2": "", "mcp1": "1.30.0", "fastmcp": "4.2.3"}[dialect]
    wire.notify("notifications/initialized")
    assert wire.result("resources/list") == {"resources": []}
    assert wire.result("resources/templates/list") == {"resourceTemplates": []}
    assert wire.result("prompts/list") == {"prompts": []}
    wire.close()


def test_minimcp_declares_only_what_it_offers():
    wire = Wire(build("minimcp"))
    answer = wire.result("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                        "clientInfo": {"name": "t", "version": "1"}})
    assert set(answer["capabilities"]) == {"tools", "logging"}
    wire.notify("notifications/initialized")
    assert wire.error("prompts/list")["code"] == -32601
    wire.close()


def resources(dialect):
    app = MCPServer("res", dialect=dialect)

    @app.resource("data://config.json")
    def config() -> str:
        return '{"a": 1}'

    @app.resource("data://list")
    def listed() -> list:
        return ["x", "y"]

    @app.resource("users://{name}/profile")
    def profile(name: str) -> str:
        return "profile of " + name

    @app.prompt()
    def review(code: str) -> str:
        return "Review: " + code
    return app


@pytest.mark.parametrize("dialect, mime, listed, name", [
    ("minimcp", "application/json", ["x", "y"], "J\u00fcrgen"),
    ("mcp2", "text/plain", ['[\n  "x",\n  "y"\n]'], "J\u00fcrgen"),
    ("mcp1", "text/plain", ['[\n  "x",\n  "y"\n]'], "J%C3%BCrgen"),        # mcp 1.x passes it as it came
    ("fastmcp", "text/plain", ['["x", "y"]'], "J\u00fcrgen"),
])
def test_resources_mime_types_lists_and_template_variables(dialect, mime, listed, name):
    wire = connect(dialect, resources(dialect))
    assert wire.result("resources/read", {"uri": "data://config.json"})["contents"][0]["mimeType"] == mime
    assert [c["text"] for c in wire.result("resources/read", {"uri": "data://list"})["contents"]] == listed
    profile = wire.result("resources/read", {"uri": "users://J%C3%BCrgen/profile"})["contents"][0]
    assert profile["text"] == "profile of " + name
    if dialect != "minimcp":
        assert all(r["mimeType"] == "text/plain" for r in wire.result("resources/list")["resources"])
    wire.close()


@pytest.mark.parametrize("dialect, missing_resource, unknown_prompt, missing_argument", [
    ("minimcp", (-32002, "Resource not found: nope://x"), (-32602, "Unknown prompt: nope"),
     (-32602, "prompt 'review': missing required argument 'code'")),
    ("mcp2", (-32602, "Unknown resource: nope://x"), (0, "Unknown prompt: nope"),
     (0, "Missing required arguments: {'code'}")),
    ("mcp1", (0, "Unknown resource: nope://x"), (0, "Unknown prompt: nope"),
     (0, "Missing required arguments: {'code'}")),
    ("fastmcp", (-32602, "Resource not found: 'nope://x'"), (-32602, "Unknown prompt: 'nope'"),
     (-32602, "Missing required arguments: {'code'}")),
])
def test_resource_and_prompt_errors(dialect, missing_resource, unknown_prompt, missing_argument):
    wire = connect(dialect, resources(dialect))
    for (method, params), (code, message) in [
            (("resources/read", {"uri": "nope://x"}), missing_resource),
            (("prompts/get", {"name": "nope"}), unknown_prompt),
            (("prompts/get", {"name": "review", "arguments": {}}), missing_argument)]:
        error = wire.error(method, params)
        assert (error["code"], error["message"]) == (code, message), (method, error)
    wire.close()


def test_an_unknown_dialect_is_refused_by_name():
    with pytest.raises(ValueError, match="dialect must be one of fastmcp, mcp1, mcp2, minimcp"):
        MCPServer("x", dialect="mcp3")


def test_the_sdk_classes_choose_their_dialect():
    assert minimcp.FastMCP("a").dialect.name == "mcp1"
    assert minimcp.MCPServer("b").dialect.name == "mcp2"        # "the mcp 2.x class", as the README says
    assert minimcp.MCPServer("d", dialect="minimcp").dialect.name == "minimcp"
    assert minimcp.FastMCP("c", dialect="fastmcp").dialect.name == "fastmcp"


PYDANTIC_WORDS = {   # as mcp 2.3.0 (and 1.x) and fastmcp 4.2.3 said them, pydantic's version aside
    "mcp2": "Error executing tool add: 2 validation errors for addArguments\na\n  Input should be a valid integer, "
            "unable to parse string as an integer [type=int_parsing, input_value='xxxxxxxxxxxxxxxxxxxxxxxx...xxx"
            "xxxxxxxxxxxxxxxxxxxx', input_type=str]\n    For further information visit https://errors.pydantic.dev/"
            "V/v/int_parsing\nb\n  Input should be a valid integer, got a number with a fractional part "
            "[type=int_from_float, input_value=1.5, input_type=float]\n    For further information visit "
            "https://errors.pydantic.dev/V/v/int_from_float",
    "fastmcp": "1 validation error for call[add]\na\n  Missing required argument [type=missing_argument, "
               "input_value={'b': 1}, input_type=dict]\n    For further information visit "
               "https://errors.pydantic.dev/V/v/missing_argument",
}


@pytest.mark.parametrize("dialect, arguments", [("mcp2", {"a": "x" * 80, "b": 1.5}), ("fastmcp", {"b": 1})])
def test_invalid_arguments_in_pydantics_words(dialect, arguments):
    import re
    wire = connect(dialect)
    text = re.sub(r"pydantic\.dev/\d+\.\d+/", "pydantic.dev/V/", text_of(call(wire, "add", arguments)))
    assert text == PYDANTIC_WORDS[dialect]
    wire.close()


def test_fastmcp_gives_a_plain_annotated_class_no_output_schema():
    class Counts:
        a: int

        def __init__(self):
            self.a = 1
    for dialect, structured in (("fastmcp", None), ("mcp2", {"a": 1})):
        app = MCPServer("c", dialect=dialect)

        @app.tool()
        def counts() -> Counts:
            return Counts()
        wire = connect(dialect, app)
        assert call(wire, "counts")["result"].get("structuredContent") == structured, dialect
        wire.close()


def test_annotations_the_spec_lacks_are_refused_by_minimcp_and_sent_by_the_sdk_dialects():
    def probe() -> str:
        return "x"
    with pytest.raises(ValueError, match="unknown annotation 'idempotent'"):
        MCPServer("strict", dialect="minimcp").tool(annotations={"idempotent": True})(probe)
    app = MCPServer("lenient", dialect="fastmcp")

    @app.tool(annotations={"idempotent": True, "readOnlyHint": True})
    def probe() -> str:
        return "x"
    wire = connect("fastmcp", app)
    assert wire.result("tools/list")["tools"][0]["annotations"] == {"idempotent": True, "readOnlyHint": True}
    wire.close()


def test_fastmcp_dicts_tags_and_optional_arguments_in_pydantics_words():
    app = MCPServer("fm", dialect="fastmcp")

    @app.tool()
    def stats() -> dict:
        return {"n": 1}
    sdk = minimcp.FastMCP("tags", dialect="fastmcp")

    from typing import Optional

    @sdk.tool(tags={"math", "basic"})
    def tagged(scope: Optional[str] = None) -> str:
        return "x"
    wire = connect("fastmcp", app)
    assert {t["name"]: t for t in wire.result("tools/list")["tools"]}["stats"]["outputSchema"] == {"type": "object"}
    assert call(wire, "stats")["result"]["structuredContent"] == {"n": 1}
    wire.close()
    wire = connect("fastmcp", sdk)
    assert wire.result("tools/list")["tools"][0]["_meta"] == {"fastmcp": {"tags": ["basic", "math"]}}
    text = text_of(call(wire, "tagged", {"scope": {"unexpected": 1}}))
    assert text.startswith("1 validation error for call[tagged]\nscope\n  Input should be a valid string "
                           "[type=string_type, input_value={'unexpected': 1}, input_type=dict]"), text
    wire.close()
