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
    ("minimcp", "Unknown tool: nope"), ("mcp2", "Unknown tool: nope"), ("mcp1", "Unknown tool: nope"),
    ("fastmcp", "Unknown tool: 'nope'")])
def test_an_unknown_tool(dialect, unknown):
    # the SDKs answer an isError result in the same words; the spec makes it a -32602 error
    wire = connect(dialect)
    error = call(wire, "nope")["error"]
    assert (error["code"], error["message"]) == (-32602, unknown)
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


@pytest.mark.parametrize("dialect", DIALECTS)
def test_every_dialect_declares_only_what_it_offers(dialect):
    # the SDKs declare tools, resources and prompts whatever is registered (listChanged: false
    # in mcp 1.x and 2.3.0, while their servers send list_changed all the same); capabilities
    # are the spec's, so every dialect declares what it does (tests/sdk/test_spec_in_every_dialect.py)
    wire = Wire(build(dialect))
    answer = wire.result("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                        "clientInfo": {"name": "t", "version": "1"}})
    assert answer["capabilities"] == {"tools": {"listChanged": True}, "logging": {}}
    assert answer["serverInfo"]["version"] == {"minimcp": "0.0.0", "mcp2": "", "mcp1": "1.30.0",
                                               "fastmcp": "4.2.3"}[dialect]
    wire.notify("notifications/initialized")
    assert wire.error("prompts/list")["code"] == -32601
    assert wire.error("resources/list")["code"] == -32601
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
    # the words are each SDK's; the codes the spec's (the SDKs say 0, or -32602 for a missing
    # resource, which 2025-06-18 numbers -32002)
    ("minimcp", (-32002, "Resource not found: nope://x"), (-32602, "Unknown prompt: nope"),
     (-32602, "prompt 'review': missing required argument 'code'")),
    ("mcp2", (-32002, "Unknown resource: nope://x"), (-32602, "Unknown prompt: nope"),
     (-32602, "Missing required arguments: {'code'}")),
    ("mcp1", (-32002, "Unknown resource: nope://x"), (-32602, "Unknown prompt: nope"),
     (-32602, "Missing required arguments: {'code'}")),
    ("fastmcp", (-32002, "Resource not found: 'nope://x'"), (-32602, "Unknown prompt: 'nope'"),
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
    assert minimcp.MCPServer("b").dialect.name == "minimcp"     # minimcp's own, whatever the build
    assert minimcp.MCPServer("d", dialect="mcp2").dialect.name == "mcp2"
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


@pytest.mark.parametrize("dialect, tool, resource, emptied", [
    # measured: mcp 1.30.0's models keep unknown fields as given; mcp 2.3.0's (fastmcp 4.2.3 uses
    # them) keep only their own, snake_case taken for camelCase, and send {} when none is left
    ("mcp1", {"idempotent": True, "readOnlyHint": True, "open_world_hint": False},
     {"readOnlyHint": True, "priority": 0.5}, {"foo": True}),
    ("mcp2", {"readOnlyHint": True, "openWorldHint": False}, {"priority": 0.5}, {}),
    ("fastmcp", {"readOnlyHint": True, "openWorldHint": False}, {"priority": 0.5}, {}),
])
def test_annotations_the_spec_lacks_are_refused_by_minimcp_and_kept_as_each_sdk_keeps_them(
        dialect, tool, resource, emptied):
    def probe() -> str:
        return "x"
    with pytest.raises(ValueError, match="unknown annotation 'idempotent'"):
        MCPServer("strict", dialect="minimcp").tool(annotations={"idempotent": True})(probe)
    app = MCPServer("lenient", dialect=dialect)
    app.tool(annotations={"idempotent": True, "readOnlyHint": True, "open_world_hint": False})(probe)
    app.tool(name="other", annotations={"foo": True})(probe)
    app.resource("data://r", annotations={"readOnlyHint": True, "priority": 0.5})(probe)
    wire = connect(dialect, app)
    listed = {t["name"]: t.get("annotations") for t in wire.result("tools/list")["tools"]}
    assert listed == {"probe": tool, "other": emptied}
    assert wire.result("resources/list")["resources"][0]["annotations"] == resource
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
    # fastmcp 4.2.3 spells a bare dict out, as pydantic writes it
    assert {t["name"]: t for t in wire.result("tools/list")["tools"]}["stats"]["outputSchema"] == {
        "type": "object", "additionalProperties": True}
    assert call(wire, "stats")["result"]["structuredContent"] == {"n": 1}
    wire.close()
    wire = connect("fastmcp", sdk)
    assert wire.result("tools/list")["tools"][0]["_meta"] == {"fastmcp": {"tags": ["basic", "math"]}}
    text = text_of(call(wire, "tagged", {"scope": {"unexpected": 1}}))
    assert text.startswith("1 validation error for call[tagged]\nscope\n  Input should be a valid string "
                           "[type=string_type, input_value={'unexpected': 1}, input_type=dict]"), text
    wire.close()


def serve_sdk(source, requests, tmp_path):
    """Run ``source`` under ``minimcp.py serve`` (the SDK names come from minimcp's stand-ins)."""
    import subprocess
    import textwrap
    from conftest import SERVE
    script = tmp_path / "server.py"
    script.write_text(textwrap.dedent(source))
    lines = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    lines += [dict(request, jsonrpc="2.0", id=index) for index, request in enumerate(requests, 1)]
    done = subprocess.run(SERVE + [str(script)],
                          input=b"".join(json.dumps(m).encode() + b"\n" for m in lines),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    answers = {m.get("id"): m for m in map(json.loads, done.stdout.splitlines())}
    assert len(answers) == len(lines) - 1, done.stderr.decode(errors="replace")
    return answers


def untyped(dialect):
    app = MCPServer("untyped", dialect=dialect)

    @app.tool()
    def f(a, b=3, c: int = 1) -> str:
        return repr((a, b))
    return app


@pytest.mark.parametrize("dialect, listed", [
    # mcp 1.30.0 and 2.3.0: {"type": "string"} (and a title) for a parameter without an annotation;
    # fastmcp 4.2.3: {} (b also has a title "B"); titles aside, as minimcp lists no titles
    ("mcp1", {"a": {"type": "string"}, "b": {"type": "string", "default": 3}, "c": {"type": "integer", "default": 1}}),
    ("mcp2", {"a": {"type": "string"}, "b": {"type": "string", "default": 3}, "c": {"type": "integer", "default": 1}}),
    ("fastmcp", {"a": {}, "b": {"default": 3}, "c": {"type": "integer", "default": 1}}),
    ("minimcp", {"a": {}, "b": {"default": 3}, "c": {"type": "integer", "default": 1}}),
])
def test_an_unannotated_parameter_is_listed_as_its_sdk_lists_it_and_takes_any_value(dialect, listed):
    wire = connect(dialect, untyped(dialect))
    assert wire.result("tools/list")["tools"][0]["inputSchema"]["properties"] == listed
    # each SDK takes a list and an object there all the same (measured: "([1], {'x': 2})")
    result = call(wire, "f", {"a": [1], "b": {"x": 2}})["result"]
    assert text_of({"result": result}) == "([1], {'x': 2})" and not result.get("isError")
    wire.close()


@pytest.mark.parametrize("dialect, closed", [("mcp1", False), ("mcp2", False), ("fastmcp", True)])
def test_fastmcp_refuses_arguments_a_tool_does_not_name_and_the_mcp_sdks_ignore_them(dialect, closed):
    # fastmcp 4.2.3: additionalProperties false, and {"a": 1, "zz": 2} is an isError result
    # ("Unexpected keyword argument"); mcp 1.30.0 and 2.3.0 list no such key and call f(a=1)
    wire = connect(dialect, untyped(dialect))
    schema = wire.result("tools/list")["tools"][0]["inputSchema"]
    assert schema.get("additionalProperties") is (False if closed else None)
    answer = call(wire, "f", {"a": 1, "zz": 2})
    if closed:
        assert answer["result"]["isError"] is True and "zz" in text_of(answer)
    else:
        assert text_of(answer) == "(1, 3)"
    wire.close()


def test_an_arg_model_base_that_forbids_extras_closes_the_mcp_tools_registered_after_it(tmp_path):
    # mcp-kb-sqlite 0.2.1 does this before its tools; under mcp 2.3.0 they list additionalProperties
    # false, and pydantic refuses an argument they do not name
    answers = serve_sdk('''
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase

        mcp = MCPServer("kb")

        @mcp.tool()
        def before(a: int) -> int:
            return a

        ArgModelBase.model_config = dict(arbitrary_types_allowed=True, extra="forbid")

        @mcp.tool()
        def after(a: int) -> int:
            return a
        ''', [{"method": "tools/list"}, {"method": "tools/call", "params": {"name": "after", "arguments": {"a": 1, "zz": 2}}},
              {"method": "tools/call", "params": {"name": "before", "arguments": {"a": 1, "zz": 2}}}], tmp_path)
    listed = {t["name"]: t["inputSchema"] for t in answers[1]["result"]["tools"]}
    assert listed["after"]["additionalProperties"] is False and "additionalProperties" not in listed["before"]
    assert answers[2]["result"]["isError"] is True and "zz" in answers[2]["result"]["content"][0]["text"]
    assert answers[3]["result"]["structuredContent"] == {"result": 1}


def docstrings():
    app = MCPServer("docs", dialect="fastmcp")

    @app.tool()
    def google(a: int, b: str = "x") -> int:
        """Summary line.

        More detail here.

        Args:
            a: first thing
                continues here
            b (str): second

        Returns:
            the answer
        """
        return a

    @app.tool()
    def numpy_style(weight_kg: float, height_cm: float) -> float:
        """Calculate body surface area.

        Parameters
        ----------
        weight_kg : float
            Weight in kilograms.
            Second line.
        height_cm : float
            Height in cm.

        Returns
        -------
        float
            BSA.
        """
        return 1.0

    @app.tool()
    def sphinx_style(x: int) -> int:
        """Sphinx summary.

        :param x: the x value
        :returns: x
        """
        return x

    @app.tool()
    def no_blank(x: int) -> int:
        """Summary.
        Args:
            x: the x
        """
        return x

    @app.tool()
    def rules(x: int) -> int:
        """Summary.

        Rules:
            a rule

        Tail text.
        """
        return x

    @app.tool()
    def note(x: int) -> int:
        """Summary.

        Note:
            a note

        Tail text.
        """
        return x

    @app.tool()
    def args_first(x: int) -> int:
        """Args:
            x: the x

        After.
        """
        return x

    @app.tool()
    def odd_block(x: int) -> int:
        """Summary.

        Args:
        x: not indented
            deeper

        Tail.
        """
        return x

    @app.tool()
    def fenced(x: int) -> int:
        """Summary.

        ```
        Args:
            x: in a fence
        ```
        """
        return x

    @app.tool()
    def numpy_multi(x: int, y: int) -> int:
        """Summary.

        Parameters
        ----------
        x, y : int
            Both.
        """
        return x

    @app.resource("data://r")
    def res() -> str:
        """Resource summary.

        Returns:
            text
        """
        return "r"
    return app


# fastmcp 4.2.3 (griffe 2.4.1), measured over stdio: (description, {parameter: description})
FASTMCP_DESCRIPTIONS = {
    "google": ("Summary line.\n\nMore detail here.", {"a": "first thing\ncontinues here", "b": "second"}),
    "numpy_style": ("Calculate body surface area.", {"weight_kg": "Weight in kilograms.\nSecond line.",
                                                     "height_cm": "Height in cm."}),
    "sphinx_style": ("Sphinx summary.", {"x": "the x value"}),
    "no_blank": ("Summary.\nArgs:\n    x: the x", {}),          # no blank line above: not a section
    "rules": ("Summary.\n\nRules:\n    a rule\n\nTail text.", {}),   # not one of the admonitions that end it
    "note": ("Summary.", {}),
    "args_first": ("After.", {"x": "the x"}),                  # the first text section
    "odd_block": ("Summary.\n\nArgs:\nx: not indented\n    deeper\n\nTail.", {}),   # an empty section is none
    "fenced": ("Summary.\n\n```\nArgs:\n    x: in a fence\n```", {}),
    "numpy_multi": ("Summary.", {"x": "Both.", "y": "Both."}),
}


def test_fastmcp_reads_docstrings_as_fastmcp_4_reads_them():
    wire = connect("fastmcp", docstrings())
    for tool in wire.result("tools/list")["tools"]:
        described = {n: p["description"] for n, p in tool["inputSchema"]["properties"].items() if "description" in p}
        assert (tool.get("description"), described) == FASTMCP_DESCRIPTIONS[tool["name"]], tool["name"]
    # a resource's docstring is its description as written (dedented), sections and all
    assert wire.result("resources/list")["resources"][0]["description"] == "Resource summary.\n\nReturns:\n    text"
    wire.close()


def with_meta(dialect):
    app = MCPServer("meta", dialect=dialect)

    @app.resource("resource://history", meta={"category": "history", "max_entries": 20})
    def history() -> str:
        return "none yet"

    @app.prompt(meta={"category": "calculation"})
    def batch(batch_size: int = 5) -> str:
        return "Process %s" % batch_size
    return app


def annotated_prompt():
    import typing
    if not hasattr(typing, "Annotated"):
        pytest.skip("typing.Annotated is Python 3.9's")
    Annotated = typing.Annotated
    app = MCPServer("annotated", dialect="fastmcp")

    @app.prompt()
    def batch(batch_size: Annotated[int, "Number of calculations"] = 5,
              kinds: Annotated[list, "Kinds to include"] = None,
              level: Annotated[str, "Complexity level"] = "medium", topic: str = "x") -> str:
        return "Process %s" % batch_size
    return app


SCHEMA_NOTE = "\n\nProvide a value matching the following JSON schema: %s. Encode non-string values as JSON."


@pytest.mark.parametrize("dialect", ["fastmcp", "mcp2", "minimcp"])
def test_fastmcp_puts_a_resource_s_and_a_prompt_s_meta_in_what_they_return(dialect):
    # fastmcp 4.2.3 (mcp-mathematics 2.3.1's meta=): _meta on each content read and on the
    # prompts/get result, without the tags it lists; mcp 2.3.0 sends it only in the listings
    wire = connect(dialect, with_meta(dialect))
    content = wire.result("resources/read", {"uri": "resource://history"})["contents"][0]
    prompt = wire.result("prompts/get", {"name": "batch", "arguments": {}})
    if dialect == "fastmcp":
        assert content["_meta"] == {"category": "history", "max_entries": 20}
        assert prompt["_meta"] == {"category": "calculation"}
    else:
        assert "_meta" not in content and "_meta" not in prompt
    wire.close()


def test_fastmcp_describes_a_prompt_argument_from_annotated_and_says_how_to_write_it():
    # measured on fastmcp 4.2.3 (mcp-mathematics 2.3.1's batch_calculation): Annotated[X, "text"]
    # is the description, and any annotation but str itself adds X's JSON Schema as pydantic writes it
    wire = connect("fastmcp", annotated_prompt())
    arguments = {a["name"]: a.get("description") for a in wire.result("prompts/list")["prompts"][0]["arguments"]}
    assert arguments == {
        "batch_size": "Number of calculations" + SCHEMA_NOTE % '{"type":"integer"}',
        "kinds": "Kinds to include" + SCHEMA_NOTE % '{"items":{},"type":"array"}',
        "level": "Complexity level" + SCHEMA_NOTE % '{"type":"string"}',
        "topic": None}
    wire.close()


def elicits(dialect):
    import dataclasses
    app = MCPServer("ask", dialect=dialect)

    @dataclasses.dataclass
    class Choice:
        operation: str

    @app.tool()
    async def pick(ctx: minimcp.Context) -> dict:
        try:
            answer = await ctx.elicit(message="Pick an operation:", response_type=Choice)
        except Exception as exc:                 # what mcp-mathematics 2.3.1 does with it
            return {"error": str(exc)}
        return {"action": answer.action, "operation": answer.data.operation if answer.data else None}

    @app.tool()
    def count(ctx: minimcp.Context) -> dict:
        answer = ctx.elicit("How many?", response_type=int)
        return {"action": answer.action, "data": answer.data}
    return app


def test_fastmcp_elicits_with_response_type():
    wire = Wire(elicits("fastmcp"))
    wire.initialize("2025-06-18", capabilities={"elicitation": {}})
    # accepted: .data is the class made from the content; a scalar is asked as one "value"
    request = wire.request("tools/call", {"name": "pick", "arguments": {}})
    asked = wire.server_request()
    assert asked["method"] == "elicitation/create" and asked["params"]["message"] == "Pick an operation:"
    assert asked["params"]["requestedSchema"]["properties"] == {"operation": {"type": "string"}}
    wire.send({"jsonrpc": "2.0", "id": asked["id"], "result": {"action": "accept", "content": {"operation": "mean"}}})
    assert wire.response(request)["result"]["structuredContent"] == {"action": "accept", "operation": "mean"}
    request = wire.request("tools/call", {"name": "count", "arguments": {}})
    asked = wire.server_request()
    assert asked["params"]["requestedSchema"] == {"type": "object", "properties": {"value": {"type": "integer"}},
                                                  "required": ["value"]}
    wire.send({"jsonrpc": "2.0", "id": asked["id"], "result": {"action": "decline"}})
    assert wire.response(request)["result"]["structuredContent"] == {"action": "decline", "data": None}
    wire.close()


@pytest.mark.parametrize("dialect", [d for d in DIALECTS if d != "minimcp"])   # (minimcp: below)
def test_no_dialect_elicits_from_a_client_that_did_not_declare_elicitation(dialect):
    # fastmcp 4.2.3 and mcp 1.x send elicitation/create whatever the client declared; the spec
    # forbids it, so every dialect refuses before sending, and a tool that catches the error
    # (as mcp-mathematics 2.3.1 does) reads why: before 2026-07-28, in the SDK's words (what the
    # official client answers the request it should not have had), else minimcp's (-32021)
    wire = connect(dialect, elicits(dialect))          # declares no capabilities
    answer = call(wire, "pick")
    said = json.loads(text_of(answer))["error"]
    assert said == "Elicitation not supported" if dialect != "minimcp" else said.startswith(
        "the client did not declare the elicitation")
    wire.close()


def test_minimcp_takes_no_response_type_it_is_fastmcp_s_spelling():
    # minimcp's own dialect asks with schema= (and refuses a client that did not declare
    # elicitation: test_questions); response_type= is fastmcp's, and the message says where it is
    wire = connect("minimcp", elicits("minimcp"))
    error = json.loads(text_of(call(wire, "pick")))["error"]
    assert error.startswith("ctx.elicit(response_type=...) is fastmcp's spelling") and 'dialect="fastmcp"' in error
    wire.close()


def nested_results(dialect):
    import dataclasses
    from typing import Any, Dict, List, Optional, TypedDict
    app = MCPServer("nested", dialect=dialect)

    @dataclasses.dataclass
    class Plain:
        a: int

    @dataclasses.dataclass
    class Told:
        """Doc of Told.

           Second line.
        """
        a: int

    class Hit(TypedDict):
        """Doc of Hit."""
        b: str

    class Top(TypedDict):
        """Top doc."""
        plain: Plain
        told: Told
        hit: Optional[Hit]
        hits: List[Hit]
        bare: list
        rows: List[list]
        mapping: dict

    @app.tool()
    def top() -> Top:
        return {}

    @app.tool()
    def told() -> Told:
        return Told(1)

    @app.tool()
    def loose() -> Dict[str, Any]:
        return {"n": 1}
    return app


HIT = {"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"], "description": "Doc of Hit."}
TOLD = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}
TOP_PROPERTIES = {   # mcp 1.30.0, mcp 2.3.0 and fastmcp 4.2.3 alike (titles and $defs aside)
    "plain": {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
    "told": dict(TOLD, description="Doc of Told.\n\nSecond line."),
    "hit": {"anyOf": [HIT, {"type": "null"}]},
    "hits": {"type": "array", "items": HIT},
    "bare": {"type": "array", "items": {}},
    "rows": {"type": "array", "items": {"type": "array", "items": {}}},
    "mapping": {"type": "object", "additionalProperties": True}}


@pytest.mark.parametrize("dialect", ["mcp1", "mcp2", "fastmcp"])
def test_output_schemas_are_spelled_as_pydantic_writes_them(dialect):
    # a nested class's docstring is its description (mcp-file-tool 0.1.3), a bare list has items {}
    # (mcp-server-spreadsheet 0.3.3), a bare dict additionalProperties true; mcp 1.x builds the
    # returned class's own model from its fields (no description there), mcp 2.3.0 too for a
    # dataclass but hands pydantic a TypedDict as it is (seeds 1015, 1159), fastmcp 4.2.3 describes both
    wire = connect(dialect, nested_results(dialect))
    listed = {t["name"]: t["outputSchema"] for t in wire.result("tools/list")["tools"]}
    assert listed["top"]["properties"] == TOP_PROPERTIES
    assert listed["top"].get("description") == ("Top doc." if dialect != "mcp1" else None)
    assert listed["told"].get("description") == ("Doc of Told.\n\nSecond line." if dialect == "fastmcp" else None)
    wire.close()


@pytest.mark.parametrize("dialect, schema, structured", [
    # fastmcp 4.2.3 wraps by schema: typing.Dict[str, Any] is an object, so the dict itself is sent
    ("fastmcp", {"type": "object", "additionalProperties": True}, {"n": 1}),
    # mcp 1.30.0 and 2.3.0 wrap typing.Dict (it is not the builtin dict[str, X])
    ("mcp2", {"type": "object", "properties": {"result": {"type": "object", "additionalProperties": True}},
              "required": ["result"]}, {"result": {"n": 1}}),
])
def test_a_typing_dict_result_is_wrapped_as_its_sdk_wraps_it(dialect, schema, structured):
    wire = connect(dialect, nested_results(dialect))
    listed = {t["name"]: t["outputSchema"] for t in wire.result("tools/list")["tools"]}
    assert {k: v for k, v in listed["loose"].items() if k != "x-fastmcp-wrap-result"} == schema
    assert call(wire, "loose")["result"]["structuredContent"] == structured
    wire.close()


def non_finite(dialect):
    app = MCPServer("inf", dialect=dialect)

    @app.tool()
    def nested() -> dict:
        return {"constants": {"inf": float("inf")}, "l": [1]}

    @app.tool()
    def loose():
        return {"a": [1, float("nan")]}

    @app.tool()
    def scalar() -> float:
        return float("-inf")
    return app


NON_FINITE = {   # measured on mcp 1.30.0, mcp 2.3.0 and fastmcp 4.2.3 (pydantic 2.14.4)
    "mcp2": [{"content": [{"type": "text", "text": '{\n  "constants": {\n    "inf": Infinity\n  },\n  "l": [\n    1\n  ]\n}'}],
              "isError": False},
             {"content": [{"type": "text", "text": '{\n  "a": [\n    1,\n    NaN\n  ]\n}'}], "isError": False},
             {"content": [{"type": "text", "text": "-Infinity"}], "structuredContent": {"result": None}, "isError": False}],
    "fastmcp": [{"content": [{"type": "text", "text": "Tool result contains a non-finite float (%s) at %s; JSON cannot "
                              "represent NaN or Infinity" % where}], "isError": True}
                for where in (("inf", "$.constants.inf"), ("nan", "$.a[1]"), ("-inf", "$"))],
}
NON_FINITE["mcp1"] = NON_FINITE["mcp2"]


@pytest.mark.parametrize("dialect", ["mcp1", "mcp2", "fastmcp"])
def test_a_result_holding_inf_or_nan_is_written_as_each_sdk_writes_it(dialect):
    wire = connect(dialect, non_finite(dialect))
    assert [call(wire, name)["result"] for name in ("nested", "loose", "scalar")] == NON_FINITE[dialect]
    wire.close()


def test_minimcp_refuses_a_result_holding_inf():
    wire = connect("minimcp", non_finite("minimcp"))
    answer = call(wire, "nested")["result"]
    assert answer["isError"] is True and "JSON cannot carry" in answer["content"][0]["text"]
    wire.close()
