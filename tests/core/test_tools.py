"""Tools: registration, tools/list, tools/call, result shapes per revision, the fixture's tools.

Everything goes through ``Wire`` (the server's real ``serve()`` on OS pipes) and the
assertions compare the JSON the client receives. Revision-shaping checks read the
official ``schema.json`` of each revision, so "no field the revision does not define"
is checked against the authority rather than against a copy of minimcp's own table.
"""

import asyncio
import base64
import dataclasses
import enum
import json
import logging
import os
import sys
from typing import Dict, List, Optional, Set, Tuple

import pytest

from conftest import HANDSHAKE_VERSIONS, MODERN, Wire, envelope
from minimcp import Audio, Context, EmbeddedResource, Image, MCPError, MCPServer, ResourceLink

try:
    from typing import TypedDict
except ImportError:  # pragma: no cover
    TypedDict = None

SPEC = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))),
                    "shared", "spec")
if not os.path.isdir(SPEC):
    SPEC = "/work/shared/spec"
ALL_REVISIONS = HANDSHAKE_VERSIONS + [MODERN]

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
WAV = b"RIFF\x24\x00\x00\x00WAVEfmt "


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


@dataclasses.dataclass
class Point:
    x: int
    y: int = 0


class Movie(TypedDict):
    title: str
    year: int


# --- connections -------------------------------------------------------------------

class Conn:
    """A client connection at one revision (handshake, or the 2026-07-28 envelope)."""

    def __init__(self, app, version):
        self.version = version
        self.wire = Wire(app)
        self.init = None if version == MODERN else self.wire.initialize(version)

    def _params(self, params):
        params = dict(params or {})
        if self.version == MODERN:
            params["_meta"] = envelope()
        return params

    def call(self, method, params=None, timeout=5.0):
        return self.wire.call(method, self._params(params), timeout)

    def result(self, method, params=None):
        message = self.call(method, params)
        assert "result" in message, message
        return message["result"]

    def tools(self):
        return self.result("tools/list")["tools"]

    def tool(self, name):
        matches = [t for t in self.tools() if t["name"] == name]
        assert len(matches) == 1, matches
        return matches[0]

    def tool_call(self, name, arguments=None):
        params = {"name": name}
        if arguments is not None:
            params["arguments"] = arguments
        return self.call("tools/call", params)

    def tool_result(self, name, arguments=None):
        message = self.tool_call(name, arguments)
        assert "result" in message, message
        result = message["result"]
        if self.version == MODERN:           # the envelope fields are another test file's business
            result = {k: v for k, v in result.items() if k not in ("resultType", "_meta")}
        return result

    def alive(self):
        assert self.wire.call("ping" if self.version != MODERN else "tools/list",
                              None if self.version != MODERN else self._params(None)).get("result") is not None


@pytest.fixture
def connect():
    conns = []

    def open_(app, version="2025-11-25"):
        conn = Conn(app, version)
        conns.append(conn)
        return conn

    yield open_
    for conn in conns:
        if not conn.wire.to_server.closed:
            assert conn.wire.close() == []


def server(*functions, **options):
    app = MCPServer("tools-tests", dialect="minimcp", version="1.0.0")
    for fn in functions:
        app.add_tool(fn, **options)
    return app


def text(value):
    return {"content": [{"type": "text", "text": value}]}


# "-> str" tools, as in the official SDK: the text block, plus {"result": ...} as structured
# content (from 2025-06-18, the first revision with structuredContent) and as outputSchema.


def str_result(value, revision="2025-11-25"):
    return text(value)        # -> str is its text once: no outputSchema, no structuredContent


# --- the official schemas ------------------------------------------------------------

def spec_defs(revision):
    path = os.path.join(SPEC, revision, "schema.json")
    if not os.path.exists(path):
        pytest.skip("no schema.json for %s" % revision)
    with open(path, encoding="utf-8") as handle:
        schema = json.load(handle)
    return schema.get("$defs") or schema["definitions"]


def resolve(defs, node):
    while isinstance(node, dict) and "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[-1]]
    return node


def defined(defs, node):
    return set(resolve(defs, node).get("properties", {}))


def block_definitions(defs):
    """content block type -> its definition, for the blocks CallToolResult.content allows."""
    items = resolve(defs, defs["CallToolResult"]["properties"]["content"]["items"])
    options = [resolve(defs, option) for option in items.get("anyOf", [items])]
    return {option["properties"]["type"]["const"]: option for option in options}


def assert_tool_defined(tool, revision):
    defs = spec_defs(revision)
    tool_def = defs["Tool"]
    extra = set(tool) - defined(defs, tool_def)
    assert not extra, "%s: Tool fields not defined in this revision: %s" % (revision, sorted(extra))
    if "annotations" in tool:
        extra = set(tool["annotations"]) - defined(defs, tool_def["properties"]["annotations"])
        assert not extra, "%s: ToolAnnotations fields not defined: %s" % (revision, sorted(extra))
    for icon in tool.get("icons", []):
        extra = set(icon) - defined(defs, defs["Icon"])
        assert not extra, "%s: Icon fields not defined: %s" % (revision, sorted(extra))


def assert_result_defined(result, revision):
    defs = spec_defs(revision)
    extra = set(result) - defined(defs, defs["CallToolResult"])
    assert not extra, "%s: CallToolResult fields not defined: %s" % (revision, sorted(extra))
    blocks = block_definitions(defs)
    for block in result["content"]:
        assert block["type"] in blocks, "%s has no %r content blocks" % (revision, block["type"])
        definition = blocks[block["type"]]
        extra = set(block) - defined(defs, definition)
        assert not extra, "%s: %s block fields not defined: %s" % (revision, block["type"], sorted(extra))
        if "annotations" in block:
            extra = set(block["annotations"]) - defined(defs, definition["properties"]["annotations"])
            assert not extra, "%s: block annotations not defined: %s" % (revision, sorted(extra))
        if block["type"] == "resource":
            union = resolve(defs, definition["properties"]["resource"])
            allowed = set()
            for option in union.get("anyOf", [union]):
                allowed |= defined(defs, option)
            assert not set(block["resource"]) - allowed, block


# --- registration ----------------------------------------------------------------------

def test_decorator_forms_and_add_tool(connect):
    app = MCPServer("reg", dialect="minimcp")

    @app.tool()
    def called(a: int) -> str:
        """With parentheses."""
        return "called %d" % a

    @app.tool
    def bare(a: int) -> str:
        """Without parentheses."""
        return "bare %d" % a

    @app.tool("renamed.tool-1")
    def original_name(a: int) -> str:
        """With a name."""
        return "renamed %d" % a

    def plain(a: int) -> str:
        """Added by call."""
        return "plain %d" % a

    returned = app.add_tool(plain, name="plain_tool", title="Plain", description="Explicit.")
    # The decorators and add_tool hand the function back unchanged.
    assert returned is plain
    assert (called(1), bare(2), original_name(3)) == ("called 1", "bare 2", "renamed 3")

    conn = connect(app)
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}
    assert conn.tools() == [
        {"name": "called", "description": "With parentheses.", "inputSchema": schema},
        {"name": "bare", "description": "Without parentheses.", "inputSchema": schema},
        {"name": "renamed.tool-1", "description": "With a name.", "inputSchema": schema},
        {"name": "plain_tool", "title": "Plain", "description": "Explicit.", "inputSchema": schema},
    ]
    assert conn.tool_result("called", {"a": 1}) == str_result("called 1")
    assert conn.tool_result("bare", {"a": 2}) == str_result("bare 2")
    assert conn.tool_result("renamed.tool-1", {"a": 3}) == str_result("renamed 3")
    assert conn.tool_result("plain_tool", {"a": 4}) == str_result("plain 4")
    assert conn.tool_call("original_name", {"a": 3})["error"]["code"] == -32602


ANNOTATIONS = {"title": "Everything at once", "readOnlyHint": True, "destructiveHint": False,
               "idempotentHint": True, "openWorldHint": False}
ICONS = [{"src": "https://example.com/tool.png", "mimeType": "image/png", "sizes": ["48x48"]},
         {"src": "data:image/svg+xml;base64,PHN2Zy8+", "mimeType": "image/svg+xml", "theme": "dark"}]
META = {"example.com/owner": "tests", "example.com/weight": 3}


def full_app():
    app = MCPServer("full", dialect="minimcp")

    @app.tool(title="Full tool", annotations=ANNOTATIONS, icons=ICONS, meta=META, task_support="optional")
    def full(a: int) -> Dict[str, int]:
        """Has every field."""
        return {"a": a}

    @app.tool()
    def bare(a: int) -> str:
        """Has no optional field."""
        return str(a)
    return app


FULL_TOOL = {
    "name": "full", "title": "Full tool", "description": "Has every field.",
    "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
    "outputSchema": {"type": "object", "properties": {"result": {
        "type": "object", "additionalProperties": {"type": "integer"}}}, "required": ["result"]},
    "annotations": ANNOTATIONS, "icons": ICONS, "execution": {"taskSupport": "optional"}, "_meta": META,
}


def test_title_annotations_icons_meta_listed(connect):
    conn = connect(full_app(), "2025-11-25")
    assert conn.tools() == [FULL_TOOL, {
        "name": "bare", "description": "Has no optional field.",
        "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}}]


@pytest.mark.parametrize("revision", ALL_REVISIONS)
def test_tools_list_fields_follow_the_revision(connect, revision):
    defs = spec_defs(revision)
    conn = connect(full_app(), revision)
    full, bare = conn.tools()
    for tool in (full, bare):
        assert_tool_defined(tool, revision)
    # And every field the revision does define is kept.
    expected = {k: v for k, v in FULL_TOOL.items() if k in defined(defs, defs["Tool"])}
    assert full == expected
    assert bare["name"] == "bare" and "inputSchema" in bare


@pytest.mark.parametrize("name", ["", "x" * 129, "has space", "a/b", "caf\u00e9", "a:b", "tab\t", "new\nline"],
                         ids=["empty", "129-chars", "space", "slash", "non-ascii", "colon", "tab", "newline"])
def test_invalid_tool_names_fail_at_registration(name):
    def fine(a: int) -> str:
        return "x"
    app = MCPServer("names", dialect="minimcp")
    with pytest.raises((ValueError, TypeError)):
        app.add_tool(fine, name=name)
    with pytest.raises((ValueError, TypeError)):
        app.tool(name)(fine)
    # Nothing was registered under any name: the server offers no tools.
    wire = Wire(app)
    try:
        assert "tools" not in wire.initialize()["capabilities"]
    finally:
        wire.close()


def test_invalid_function_name_fails_at_registration():
    with pytest.raises(ValueError):
        MCPServer(dialect="minimcp").add_tool(lambda: "x")          # "<lambda>" is not a valid tool name


@pytest.mark.parametrize("name", ["a", "x" * 128, "A-Z_a-z.0-9", "get_weather.v2"])
def test_valid_tool_names(connect, name):
    def fine() -> str:
        return "fine"
    conn = connect(server(fine, name=name))
    assert [t["name"] for t in conn.tools()] == [name]
    assert conn.tool_result(name) == str_result("fine")


def test_duplicate_name_fails_and_keeps_the_first(connect):
    app = MCPServer("dup", dialect="minimcp")

    @app.tool()
    def thing() -> str:
        """First."""
        return "first"

    def other() -> str:
        """Second."""
        return "second"
    with pytest.raises(ValueError) as info:
        app.add_tool(other, name="thing")
    assert "thing" in str(info.value)
    with pytest.raises(ValueError):
        @app.tool
        def thing() -> str:  # noqa: F811 - the duplicate is the point
            return "third"
    conn = connect(app)
    assert [t["description"] for t in conn.tools()] == ["First."]
    assert conn.tool_result("thing") == str_result("first")


def test_tools_list_keeps_registration_order(connect):
    app = MCPServer("order", dialect="minimcp")
    names = ["zeta", "alpha", "mid", "Beta", "_x", "a.b"]
    for name in names:
        app.add_tool(lambda: "x", name=name)
    assert [t["name"] for t in connect(app).tools()] == names


# --- calls: errors and validation ------------------------------------------------------

def needs_int(n: int, point: Point = Point(0), tags: List[int] = []) -> str:
    return "got %d" % n


@pytest.mark.parametrize("revision", ALL_REVISIONS)
def test_unknown_tool_is_invalid_params(connect, revision):
    conn = connect(server(needs_int), revision)
    error = conn.tool_call("no_such_tool", {})["error"]
    assert error["code"] == -32602
    assert "no_such_tool" in error["message"]
    conn.alive()


@pytest.mark.parametrize("revision", ["2024-11-05", "2025-03-26", "2025-06-18"])
def test_invalid_arguments_are_a_protocol_error_before_2025_11_25(connect, revision):
    conn = connect(server(needs_int), revision)
    error = conn.tool_call("needs_int", {"n": "seven"})["error"]
    assert error["code"] == -32602
    assert "arguments.n" in error["message"] and "integer" in error["message"]
    error = conn.tool_call("needs_int", {"n": 1, "point": {"x": 1.5}})["error"]
    assert error["code"] == -32602 and "arguments.point.x" in error["message"]
    error = conn.tool_call("needs_int", {"n": 1, "tags": [1, "2"]})["error"]
    assert error["code"] == -32602 and "arguments.tags[1]" in error["message"]
    error = conn.tool_call("needs_int", {})["error"]
    assert error["code"] == -32602 and "n" in error["message"]


@pytest.mark.parametrize("revision", ["2025-11-25", MODERN])
def test_invalid_arguments_are_a_tool_error_from_2025_11_25(connect, revision):
    conn = connect(server(needs_int), revision)
    for arguments, path in (({"n": "seven"}, "arguments.n"), ({"n": 1, "point": {"x": 1.5}}, "arguments.point.x"),
                            ({"n": 1, "tags": [1, "2"]}, "arguments.tags[1]"), ({}, "arguments")):
        message = conn.tool_call("needs_int", arguments)
        assert "result" in message, message
        result = conn.tool_result("needs_int", arguments)
        assert result["isError"] is True
        assert set(result) == {"content", "isError"}
        assert len(result["content"]) == 1 and result["content"][0]["type"] == "text"
        assert path in result["content"][0]["text"], result
    assert "'n'" in conn.tool_result("needs_int", {})["content"][0]["text"]


@pytest.mark.parametrize("revision", HANDSHAKE_VERSIONS)
def test_arguments_that_are_not_an_object_are_invalid_params(connect, revision):
    conn = connect(server(needs_int), revision)
    for arguments in ([1], "n=1", 3):
        error = conn.call("tools/call", {"name": "needs_int", "arguments": arguments})["error"]
        assert error["code"] == -32602
    error = conn.call("tools/call", {"arguments": {"n": 1}})["error"]          # no name
    assert error["code"] == -32602


def test_arguments_may_be_omitted_for_a_tool_without_parameters(connect):
    def nothing() -> str:
        return "nothing needed"
    conn = connect(server(nothing))
    assert conn.tool_result("nothing") == str_result("nothing needed")
    assert conn.tool_result("nothing", {}) == str_result("nothing needed")


def test_arguments_arrive_converted(connect):
    received = {}

    def convert(color: Color, point: Point, pair: Tuple[int, str], many: Tuple[int, ...], unique: Set[str],
                points: List[Point], palette: Dict[str, Color], maybe: Optional[Color] = None,
                whole: int = 0, real: float = 0.0) -> str:
        received.update(locals())
        return "ok"
    conn = connect(server(convert))
    arguments = {"color": "green", "point": {"x": 3}, "pair": [1, "a"], "many": [1, 2, 3], "unique": ["a", "b"],
                 "points": [{"x": 1, "y": 2}], "palette": {"sky": "red"}, "maybe": "red", "whole": 4.0,
                 "real": 2}
    assert conn.tool_result("convert", arguments) == str_result("ok")
    assert received["color"] is Color.GREEN
    assert received["point"] == Point(3, 0) and type(received["point"]) is Point
    assert received["pair"] == (1, "a") and type(received["pair"]) is tuple
    assert received["many"] == (1, 2, 3) and type(received["many"]) is tuple
    assert received["unique"] == {"a", "b"} and type(received["unique"]) is set
    assert received["points"] == [Point(1, 2)] and type(received["points"][0]) is Point
    assert received["palette"] == {"sky": Color.RED}
    assert received["maybe"] is Color.RED
    assert received["whole"] == 4 and type(received["whole"]) is int
    assert received["real"] == 2.0 and type(received["real"]) is float


# --- results: content ------------------------------------------------------------------

@pytest.mark.parametrize("revision", ALL_REVISIONS)
def test_str_is_one_text_block(connect, revision):
    def greet(name: str) -> str:
        return "h\u00e9llo %s \u2713" % name

    def shout(name: str):
        return name.upper()
    conn = connect(server(greet, shout), revision)
    result = conn.tool_result("greet", {"name": "\u4e16\u754c"})
    assert result == str_result("h\u00e9llo \u4e16\u754c \u2713", revision)
    assert conn.tool_result("shout", {"name": "a"}) == text("A")      # no annotation: no structure
    assert "outputSchema" not in conn.tool("shout")


@pytest.mark.parametrize("revision", ALL_REVISIONS)
def test_image_and_audio_helpers(connect, revision):
    def picture() -> Image:
        return Image(PNG, "image/png")

    def sound():
        return Audio(WAV, "audio/wav")
    conn = connect(server(picture, sound), revision)
    assert conn.tool_result("picture") == {"content": [
        {"type": "image", "data": base64.b64encode(PNG).decode("ascii"), "mimeType": "image/png"}]}
    result = conn.tool_result("sound")
    assert_result_defined(result, revision)
    if revision == "2024-11-05":                        # no audio content in this revision
        assert len(result["content"]) == 1 and result["content"][0]["type"] == "text"
        assert "audio" in result["content"][0]["text"]
    else:
        assert result == {"content": [
            {"type": "audio", "data": base64.b64encode(WAV).decode("ascii"), "mimeType": "audio/wav"}]}


def test_media_helpers_read_files_and_guess_mime(tmp_path, connect):
    path = tmp_path / "pixel.png"
    path.write_bytes(PNG)

    def from_file():
        return Image(path=str(path))
    conn = connect(server(from_file))
    assert conn.tool_result("from_file") == {"content": [
        {"type": "image", "data": base64.b64encode(PNG).decode("ascii"), "mimeType": "image/png"}]}


def test_explicit_content_blocks_pass_through(connect):
    blocks = [{"type": "text", "text": "annotated", "annotations": {"audience": ["user"], "priority": 0.5}},
              {"type": "image", "data": "aGk=", "mimeType": "image/gif"},
              {"type": "resource", "resource": {"uri": "file:///a.txt", "mimeType": "text/plain", "text": "A"}}]

    def one():
        return dict(blocks[0])

    def several():
        return [dict(b) for b in blocks] + ["tail", Image(PNG, "image/png"),
                                           EmbeddedResource("file:///b.bin", blob=b"\x00\x01",
                                                            mime_type="application/octet-stream")]
    conn = connect(server(one, several))
    assert conn.tool_result("one") == {"content": [blocks[0]]}
    assert conn.tool_result("several") == {"content": blocks + [
        {"type": "text", "text": "tail"},
        {"type": "image", "data": base64.b64encode(PNG).decode("ascii"), "mimeType": "image/png"},
        {"type": "resource", "resource": {"uri": "file:///b.bin", "mimeType": "application/octet-stream",
                                          "blob": base64.b64encode(b"\x00\x01").decode("ascii")}}]}


def test_explicit_call_tool_result_passes_through(connect):
    def custom():
        return {"content": [{"type": "text", "text": "soft failure"}], "isError": True}
    assert connect(server(custom)).tool_result("custom") == {
        "content": [{"type": "text", "text": "soft failure"}], "isError": True}


@pytest.mark.parametrize("revision", ALL_REVISIONS)
def test_resource_link(connect, revision):
    def link():
        return ResourceLink("file:///report.pdf", "report", title="The report", mimeType="application/pdf",
                            icons=[{"src": "https://example.com/pdf.png"}])
    conn = connect(server(link), revision)
    result = conn.tool_result("link")
    assert_result_defined(result, revision)
    (block,) = result["content"]
    if revision < "2025-06-18":
        assert block["type"] == "text" and "file:///report.pdf" in block["text"]
    else:
        expected = {"type": "resource_link", "uri": "file:///report.pdf", "name": "report",
                    "title": "The report", "mimeType": "application/pdf",
                    "icons": [{"src": "https://example.com/pdf.png"}]}
        if revision == "2025-06-18":
            del expected["icons"]
        assert block == expected


def test_none_is_empty_content(connect):
    def quiet() -> None:
        return None

    def quieter():
        pass
    conn = connect(server(quiet, quieter))
    # "-> None" is structured as {"result": null}, as in the official SDK; no annotation is not.
    assert conn.tool_result("quiet") == {"content": [], "structuredContent": {"result": None}}
    assert conn.tool("quiet")["outputSchema"] == {"type": "object", "properties": {"result": {"type": "null"}},
                                                  "required": ["result"]}
    assert conn.tool_result("quieter") == {"content": []}
    assert "outputSchema" not in conn.tool("quieter")


@pytest.mark.parametrize("revision", ALL_REVISIONS)
def test_every_content_kind_fits_the_revision_schema(connect, revision):
    def kinds():
        return [{"type": "text", "text": "t", "annotations": {"audience": ["user"], "priority": 1,
                                                              "lastModified": "2025-01-01T00:00:00Z"},
                 "_meta": {"example.com/k": 1}},
                Image(PNG, "image/png"), Audio(WAV, "audio/wav"),
                ResourceLink("file:///x", "x", title="X", description="d", size=3,
                             icons=[{"src": "https://example.com/i.png"}], _meta={"example.com/k": 2}),
                EmbeddedResource("file:///y", text="y", mime_type="text/plain")]
    conn = connect(server(kinds), revision)
    result = conn.tool_result("kinds")
    assert len(result["content"]) == 5
    assert_result_defined(result, revision)


# --- results: structured output -----------------------------------------------------

def structured_app():
    app = MCPServer("structured", dialect="minimcp")

    @app.tool()
    def as_dict(n: int) -> dict:
        return {"n": n, "half": n / 2, "name": "\u00e9"}

    @app.tool()
    def as_list(n: int) -> List[int]:
        return list(range(n))

    @app.tool()
    def as_dataclass(x: int) -> Point:
        return Point(x)

    @app.tool()
    def as_typeddict(year: int) -> Movie:
        return {"title": "Alien", "year": year}

    @app.tool()
    def as_int(n: int) -> int:
        return n * 2

    @app.tool()
    def as_mapping(n: int) -> Dict[str, int]:
        return {"n": n}
    return app


OUTPUT_SCHEMAS = {
    "as_dict": None,                      # a bare dict is not structured (official SDK policy)
    "as_list": {"type": "object", "properties": {"result": {"type": "array", "items": {"type": "integer"}}},
                "required": ["result"]},
    "as_dataclass": {"type": "object", "properties": {"x": {"type": "integer"},
                                                      "y": {"type": "integer", "default": 0}},
                     "required": ["x"]},
    "as_typeddict": {"type": "object", "properties": {"title": {"type": "string"}, "year": {"type": "integer"}},
                     "required": ["title", "year"]},
    "as_int": {"type": "object", "properties": {"result": {"type": "integer"}}, "required": ["result"]},
}

STRUCTURED = [
    ("as_list", {"n": 3}, {"result": [0, 1, 2]}),
    ("as_dataclass", {"x": 4}, {"x": 4, "y": 0}),
    ("as_typeddict", {"year": 1979}, {"title": "Alien", "year": 1979}),
    ("as_int", {"n": 21}, {"result": 42}),
]


@pytest.mark.parametrize("revision", ALL_REVISIONS)
def test_structured_output_per_revision(connect, revision):
    conn = connect(structured_app(), revision)
    tools = {t["name"]: t for t in conn.tools()}
    with_structure = revision >= "2025-06-18"
    for name, schema in OUTPUT_SCHEMAS.items():
        if with_structure and schema is not None:
            assert tools[name]["outputSchema"] == schema, name
        else:
            assert "outputSchema" not in tools[name], name
    result = conn.tool_result("as_dict", {"n": 3})
    assert result == {"content": [{"type": "text", "text": json.dumps(
        {"n": 3, "half": 1.5, "name": "\u00e9"}, indent=2, ensure_ascii=False)}]}
    for name, arguments, structured in STRUCTURED:
        result = conn.tool_result(name, arguments)
        assert_result_defined(result, revision)
        # The text blocks are always there, for clients that ignore structuredContent: one per
        # item of a list, JSON indented by two spaces for anything else.
        if name == "as_list":
            assert result["content"] == [{"type": "text", "text": str(i)} for i in range(3)]
        else:
            plain = structured.get("result", structured) if name == "as_int" else structured
            assert len(result["content"]) == 1 and result["content"][0]["type"] == "text"
            assert result["content"][0]["text"] == json.dumps(plain, indent=2), name
        if with_structure:
            assert result == {"content": result["content"], "structuredContent": structured}, name
        else:
            assert result == {"content": result["content"]}, name


def test_dict_of_str_keys_is_object_shaped_and_not_wrapped(connect):
    # The official SDK (mcp 2.3.0) takes a builtin dict[str, X] as structuredContent as it is,
    # and wraps typing.Dict[str, X] as {"result": ...}: minimcp does the same.
    conn = connect(structured_app())
    schema = conn.tool("as_mapping")["outputSchema"]
    mapping = {"type": "object", "additionalProperties": {"type": "integer"}}
    assert schema == {"type": "object", "properties": {"result": mapping}, "required": ["result"]}
    assert conn.tool_result("as_mapping", {"n": 5}) == {
        "content": [{"type": "text", "text": json.dumps({"n": 5}, indent=2)}],
        "structuredContent": {"result": {"n": 5}}}
    if sys.version_info >= (3, 9):
        def builtin_mapping(n: int) -> "dict[str, int]":
            return {"n": n}
        conn = connect(server(builtin_mapping))
        assert conn.tool("builtin_mapping")["outputSchema"] == mapping
        assert conn.tool_result("builtin_mapping", {"n": 5})["structuredContent"] == {"n": 5}


def test_structured_output_false(connect):
    def listing() -> dict:
        return {"a": [1, 2]}
    conn = connect(server(listing, structured_output=False))
    assert "outputSchema" not in conn.tool("listing")
    result = conn.tool_result("listing")
    assert set(result) == {"content"}
    assert len(result["content"]) == 1 and json.loads(result["content"][0]["text"]) == {"a": [1, 2]}


def test_hand_written_output_schema(connect):
    schema = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0}}, "required": ["n"]}

    def count(value: int):
        return {"n": value}
    conn = connect(server(count, output_schema=schema))
    assert conn.tool("count")["outputSchema"] == schema
    assert conn.tool_result("count", {"value": 2}) == {
        "content": [{"type": "text", "text": json.dumps({"n": 2}, indent=2)}], "structuredContent": {"n": 2}}
    result = conn.tool_result("count", {"value": -1})
    assert result["isError"] is True and "structuredContent" not in result
    assert "n" in result["content"][0]["text"]


def test_return_value_not_matching_output_schema_is_a_tool_error(connect):
    app = MCPServer("mismatch", dialect="minimcp")

    @app.tool()
    def wrong_movie() -> Movie:
        return {"title": "No year"}

    @app.tool()
    def wrong_int() -> int:
        return "not a number"
    conn = connect(app)
    for name, word in (("wrong_movie", "year"), ("wrong_int", "integer")):
        result = conn.tool_result(name)
        assert result["isError"] is True, result
        assert set(result) == {"content", "isError"}
        assert result["content"][0]["type"] == "text" and word in result["content"][0]["text"]
    conn.alive()


# --- results: failures ------------------------------------------------------------------

@pytest.mark.parametrize("revision", ALL_REVISIONS)
def test_exception_is_a_tool_error_without_traceback(connect, revision, caplog):
    def explode(what: str) -> str:
        raise RuntimeError("kaput: " + what)

    def silent_failure() -> str:
        raise ValueError()
    conn = connect(server(explode, silent_failure), revision)
    with caplog.at_level(logging.ERROR, logger="minimcp"):
        assert conn.tool_result("explode", {"what": "gears"}) == {
            "content": [{"type": "text", "text": "kaput: gears"}], "isError": True}
        result = conn.tool_result("silent_failure")
        assert result["isError"] is True and result["content"][0]["text"]      # never an empty message
        assert "ValueError" in result["content"][0]["text"]
    wire_bytes = b"".join(conn.wire.raw_lines)
    assert b"Traceback" not in wire_bytes and b"test_tools.py" not in wire_bytes
    # The traceback went to the library's logger (stderr), not to the client.
    assert any(r.name == "minimcp" and r.exc_info for r in caplog.records)


@pytest.mark.parametrize("revision", ALL_REVISIONS)
def test_mcp_error_becomes_that_json_rpc_error(connect, revision):
    def refuse(code: int) -> str:
        raise MCPError(code, "refused on purpose", {"hint": "try later"})

    def refuse_plain() -> str:
        raise MCPError(4242, "no data")
    conn = connect(server(refuse, refuse_plain), revision)
    message = conn.tool_call("refuse", {"code": 4242})
    assert message == {"jsonrpc": "2.0", "id": message["id"],
                       "error": {"code": 4242, "message": "refused on purpose", "data": {"hint": "try later"}}}
    assert conn.tool_call("refuse", {"code": -32001})["error"]["code"] == -32001
    assert conn.tool_call("refuse_plain")["error"] == {"code": 4242, "message": "no data"}
    conn.alive()


def assert_clear_serialisation_failure(message):
    """Either a -32603 error or an isError result, saying the value is not JSON."""
    if "error" in message:
        assert message["error"]["code"] == -32603, message
        said = message["error"]["message"]
    else:
        assert message["result"].get("isError") is True, message
        said = " ".join(b.get("text", "") for b in message["result"]["content"])
    assert "json" in said.lower() or "serialis" in said.lower() or "serializ" in said.lower(), said


def test_values_that_are_not_json_fail_clearly_and_the_server_lives(connect):
    app = MCPServer("unjson", dialect="minimcp")

    @app.tool()
    def an_object():
        return object()

    @app.tool()
    def not_a_number():
        return float("nan")

    @app.tool()
    def nan_structured() -> float:
        return float("inf")

    @app.tool()
    def object_inside() -> dict:
        return {"when": object()}

    @app.tool()
    def bad_block():
        return {"type": "text", "text": object()}

    @app.tool()
    def nan_in_block():
        return {"type": "text", "text": "x", "annotations": {"priority": float("nan")}}

    @app.tool()
    def fine() -> str:
        return "still here"
    conn = connect(app)
    for name in ("an_object", "not_a_number", "nan_structured", "object_inside", "bad_block", "nan_in_block"):
        message = conn.tool_call(name)
        assert_clear_serialisation_failure(message)
        assert conn.tool_result("fine") == str_result("still here"), name
    assert b"NaN" not in b"".join(conn.wire.raw_lines) and b"Infinity" not in b"".join(conn.wire.raw_lines)


# --- async tools -----------------------------------------------------------------------

@pytest.mark.parametrize("revision", ALL_REVISIONS)
def test_async_tools(connect, revision):
    app = MCPServer("async", dialect="minimcp")

    @app.tool()
    async def slow_add(a: int, b: int) -> str:
        await asyncio.sleep(0.01)
        return str(a + b)

    @app.tool()
    async def async_version(ctx: Context) -> str:
        await asyncio.sleep(0)
        return ctx.protocol_version

    @app.tool()
    async def async_fail() -> str:
        await asyncio.sleep(0)
        raise RuntimeError("async kaput")

    @app.tool()
    async def async_structured(n: int) -> Movie:
        return {"title": "n", "year": n}
    conn = connect(app, revision)
    names = [t["name"] for t in conn.tools()]
    assert names == ["slow_add", "async_version", "async_fail", "async_structured"]
    assert conn.tool("async_version")["inputSchema"] == {"type": "object", "properties": {}}
    assert conn.tool_result("slow_add", {"a": 2, "b": 3}) == str_result("5", revision)
    assert conn.tool_result("async_version") == str_result(revision, revision)
    assert conn.tool_result("async_fail") == {"content": [{"type": "text", "text": "async kaput"}], "isError": True}
    result = conn.tool_result("async_structured", {"n": 1})
    assert json.loads(result["content"][0]["text"]) == {"title": "n", "year": 1}
    assert ("structuredContent" in result) == (revision >= "2025-06-18")


# --- the everything fixture ------------------------------------------------------------

EVERYTHING_TOOLS = {
    "echo": {"name": "echo", "description": "Return the text unchanged.", "inputSchema": {
        "type": "object", "properties": {"text": {"type": "string", "description": "the text to send back"}},
        "required": ["text"]}},
    "add": {"name": "add", "description": "Add two numbers.", "inputSchema": {
        "type": "object", "properties": {"a": {"type": "number", "description": "first addend"},
                                         "b": {"type": "number", "description": "second addend"}},
        "required": ["a", "b"]},
        "outputSchema": {"type": "object", "properties": {"result": {"type": "number"}}, "required": ["result"]}},
    "fail": {"name": "fail", "description": "Always fail, with the given message.", "inputSchema": {
        "type": "object", "properties": {"message": {"type": "string", "default": "boom",
                                                     "description": "the error message"}}}},
    "log": {"name": "log", "description": "Send a log notification at the given level.", "inputSchema": {
        "type": "object", "properties": {
            "message": {"type": "string", "description": "the text to log"},
            "level": {"type": "string", "default": "info",
                      "description": "debug, info, notice, warning, error, critical, alert or emergency"}},
        "required": ["message"]}},
}


def test_everything_lists_its_tools(legacy):
    tools = {t["name"]: t for t in legacy.result("tools/list")["tools"]}
    for name, expected in EVERYTHING_TOOLS.items():
        assert tools[name] == expected
    assert list(tools)[:4] == ["echo", "add", "fail", "log"]


def test_everything_echo(legacy):
    for value in ("hi", "", "multi\nline \u00e9 \U0001f600", " spaced "):
        assert legacy.result("tools/call", {"name": "echo", "arguments": {"text": value}}) == str_result(value)


def test_everything_add(legacy):
    assert legacy.result("tools/call", {"name": "add", "arguments": {"a": 2, "b": 3}}) == {
        "content": [{"type": "text", "text": "5"}], "structuredContent": {"result": 5}}
    assert legacy.result("tools/call", {"name": "add", "arguments": {"a": 2.5, "b": 1}}) == {
        "content": [{"type": "text", "text": "3.5"}], "structuredContent": {"result": 3.5}}
    result = legacy.result("tools/call", {"name": "add", "arguments": {"a": "2", "b": 3}})
    assert result["isError"] is True and "arguments.a" in result["content"][0]["text"]


@pytest.mark.parametrize("revision", ["2024-11-05", "2025-03-26"])
def test_everything_add_without_structured_output(wire, revision):
    wire.initialize(revision)
    tools = {t["name"]: t for t in wire.result("tools/list")["tools"]}
    assert "outputSchema" not in tools["add"]
    assert wire.result("tools/call", {"name": "add", "arguments": {"a": 2, "b": 3}}) == text("5")


def test_everything_fail(legacy):
    assert legacy.result("tools/call", {"name": "fail", "arguments": {}}) == {
        "content": [{"type": "text", "text": "boom"}], "isError": True}
    assert legacy.result("tools/call", {"name": "fail", "arguments": {"message": "nope"}}) == {
        "content": [{"type": "text", "text": "nope"}], "isError": True}


def test_everything_log(legacy):
    request_id = legacy.request("tools/call", {"name": "log", "arguments": {"message": "hello", "level": "warning"}})
    response = legacy.response(request_id)
    assert response == {"jsonrpc": "2.0", "id": request_id, "result": str_result("logged")}
    notification = {"jsonrpc": "2.0", "method": "notifications/message",
                    "params": {"level": "warning", "data": "hello"}}
    assert legacy.notifications == [notification]
    lines = [json.loads(line) for line in legacy.raw_lines]
    assert lines.index(notification) < lines.index(response)     # the log comes before the answer

    legacy.notifications.clear()
    assert legacy.result("tools/call", {"name": "log", "arguments": {"message": "plain"}}) == str_result("logged")
    assert legacy.notifications == [{"jsonrpc": "2.0", "method": "notifications/message",
                                     "params": {"level": "info", "data": "plain"}}]

    legacy.notifications.clear()
    assert legacy.result("logging/setLevel", {"level": "error"}) == {}
    assert legacy.result("tools/call", {"name": "log", "arguments": {"message": "hidden"}}) == str_result("logged")
    assert legacy.notifications == []
    assert legacy.result("tools/call", {"name": "log", "arguments": {"message": "loud", "level": "critical"}}) \
        == str_result("logged")
    assert legacy.notifications == [{"jsonrpc": "2.0", "method": "notifications/message",
                                     "params": {"level": "critical", "data": "loud"}}]


def test_a_partial_and_a_callable_object_are_tools(connect):
    """Callables without a code object of their own are read through inspect (partials, instances)."""
    import functools

    def scale(x: float, factor: float) -> float:
        return x * factor

    class Greeter:
        def __call__(self, name: str, punctuation: str = "!") -> str:
            return "hello " + name + punctuation

    app = MCPServer("callables", dialect="minimcp")
    app.add_tool(functools.partial(scale, factor=3.0), name="triple", structured_output=False)
    app.add_tool(Greeter(), name="greet", structured_output=False)
    conn = connect(app)
    triple = conn.tool("triple")["inputSchema"]
    assert triple["required"] == ["x"] and triple["properties"]["factor"]["default"] == 3.0
    assert conn.tool_result("triple", {"x": 2}) == text("6.0")
    greet = conn.tool("greet")["inputSchema"]
    assert greet["required"] == ["name"] and set(greet["properties"]) == {"name", "punctuation"}
    assert conn.tool_result("greet", {"name": "Ada"}) == text("hello Ada!")
    assert conn.call("tools/call", {"name": "triple", "arguments": {"x": "two"}})["result"]["isError"] is True
