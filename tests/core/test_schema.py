"""inputSchema from type hints, docstrings and defaults; the built-in validator.

Schemas are read back through ``tools/list`` on a real pipe and arguments are sent
through ``tools/call``, so each rule is checked where a client sees it. The validator
(``minimcp.validate``) is also exercised directly, keyword by keyword, with a failing
case whose message must start with the JSON path of the offending value.
"""

import dataclasses
import enum
import json
import sys
import typing
from typing import Any, Dict, FrozenSet, List, Optional, Set, Tuple, Union

import pytest

from conftest import Wire
import minimcp
from minimcp import Context, MCPServer

try:
    from typing import Literal, TypedDict
except ImportError:  # pragma: no cover - Python 3.8 has both; kept for clarity
    Literal = TypedDict = None

Annotated = getattr(typing, "Annotated", None)          # 3.9+

# --- module-level types used by the tests (real modules define them like this) ---


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Priority(enum.IntEnum):
    LOW = 1
    HIGH = 2


@dataclasses.dataclass
class Point:
    x: int
    y: int = 0
    tags: List[str] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Segment:
    start: Point
    end: Point
    label: Optional[str] = None


class Movie(TypedDict):
    title: str
    year: int


class MovieFilter(TypedDict, total=False):
    title: str
    year: int


class Widget:
    """A plain class: no JSON Schema can describe it."""


# Tools annotated "-> str" carry {"result": ...} as structuredContent, as in the official SDK.
OK = {"content": [{"type": "text", "text": "ok"}]}           # -> str: the text once


# --- helpers --------------------------------------------------------------------

@pytest.fixture
def connect():
    """Open initialized connections to servers; all are closed (and checked) at the end."""
    wires = []

    def open_(app, version="2025-11-25"):
        wire = Wire(app)
        wires.append(wire)
        wire.initialize(version)
        return wire

    yield open_
    for wire in wires:
        if not wire.to_server.closed:
            assert wire.close() == []


def listed_tools(connect, app, version="2025-11-25"):
    wire = connect(app, version)
    return {tool["name"]: tool for tool in wire.result("tools/list")["tools"]}


def probe_tool(annotation, default=None, has_default=False, received=None):
    """A one-parameter tool ``probe(x)`` whose parameter is annotated with ``annotation``."""
    def probe(x):
        if received is not None:
            received.append(x)
        return "ok"
    probe.__annotations__ = {"x": annotation, "return": str}
    if has_default:
        probe.__defaults__ = (default,)
    return probe


def app_with(*functions, **options):
    app = MCPServer("schema-tests", dialect="minimcp")
    for fn in functions:
        app.add_tool(fn, **options)
    return app


def call(wire, name, arguments):
    return wire.result("tools/call", {"name": name, "arguments": arguments})


def assert_invalid(result, path):
    """A 2025-11-25 invalid-arguments result: isError, one text block naming ``path``."""
    assert result.get("isError") is True, result
    assert [block["type"] for block in result["content"]] == ["text"], result
    assert path in result["content"][0]["text"], result
    assert "structuredContent" not in result


# --- one annotation at a time: schema on the wire, a good and a bad value -------

X_STRING = {"type": "string"}
X_INT = {"type": "integer"}

HINT_CASES = [
    # id, annotation, expected schema of x, a value accepted, a value rejected, path in the message
    ("str", str, X_STRING, "hi", 1, "arguments.x"),
    ("int", int, X_INT, 3, 1.5, "arguments.x"),
    ("int-not-bool", int, X_INT, -7, True, "arguments.x"),
    ("float", float, {"type": "number"}, 1.25, "1.25", "arguments.x"),
    ("float-not-bool", float, {"type": "number"}, 2, False, "arguments.x"),
    ("bool", bool, {"type": "boolean"}, False, 0, "arguments.x"),
    ("None", None, {"type": "null"}, None, 0, "arguments.x"),
    ("NoneType", type(None), {"type": "null"}, None, "", "arguments.x"),
    ("list", list, {"type": "array"}, [1, "a", None], {"a": 1}, "arguments.x"),
    ("List[int]", List[int], {"type": "array", "items": X_INT}, [1, 2], [1, "2"], "arguments.x[1]"),
    ("tuple", tuple, {"type": "array"}, [1, "a"], "ab", "arguments.x"),
    ("Tuple[int, ...]", Tuple[int, ...], {"type": "array", "items": X_INT}, [1, 2, 3], [1, 2.5],
     "arguments.x[1]"),
    ("Tuple[int, str]", Tuple[int, str],
     {"type": "array", "prefixItems": [X_INT, X_STRING], "minItems": 2, "maxItems": 2},
     [1, "a"], [1, 2], "arguments.x[1]"),
    ("Tuple[int, str]-too-short", Tuple[int, str],
     {"type": "array", "prefixItems": [X_INT, X_STRING], "minItems": 2, "maxItems": 2},
     [1, "a"], [1], "arguments.x"),
    ("Tuple[int, str]-too-long", Tuple[int, str],
     {"type": "array", "prefixItems": [X_INT, X_STRING], "minItems": 2, "maxItems": 2},
     [1, "a"], [1, "a", "b"], "arguments.x"),
    ("set", set, {"type": "array", "uniqueItems": True}, [1, 2], [1, 1], "arguments.x"),
    ("Set[str]", Set[str], {"type": "array", "items": X_STRING, "uniqueItems": True},
     ["a", "b"], ["a", "a"], "arguments.x"),
    ("FrozenSet[int]", FrozenSet[int], {"type": "array", "items": X_INT, "uniqueItems": True},
     [1], ["1"], "arguments.x[0]"),
    ("dict", dict, {"type": "object"}, {"a": [1]}, [["a", 1]], "arguments.x"),
    ("Dict[str, int]", Dict[str, int], {"type": "object", "additionalProperties": X_INT},
     {"a": 1, "b": 2}, {"a": 1, "b": "2"}, "arguments.x.b"),
    ("Optional[int]", Optional[int], {"anyOf": [X_INT, {"type": "null"}]}, None, "3", "arguments.x"),
    ("Optional[int]-value", Optional[int], {"anyOf": [X_INT, {"type": "null"}]}, 3, 3.5,
     "arguments.x"),
    ("Union[int, str]", Union[int, str], {"anyOf": [X_INT, X_STRING]}, "a", 1.5, "arguments.x"),
    ("Literal[str]", Literal["fast", "slow"], {"enum": ["fast", "slow"], "type": "string"},
     "slow", "medium", "arguments.x"),
    ("Literal[int]", Literal[1, 2, 3], {"enum": [1, 2, 3], "type": "integer"}, 2, True,
     "arguments.x"),
    ("Enum", Color, {"enum": ["red", "green"], "type": "string"}, "green", "GREEN", "arguments.x"),
    ("IntEnum", Priority, {"enum": [1, 2], "type": "integer"}, 2, 3, "arguments.x"),
    ("TypedDict", Movie,
     {"type": "object", "properties": {"title": X_STRING, "year": X_INT}, "required": ["title", "year"]},
     {"title": "Alien", "year": 1979}, {"title": "Alien"}, "arguments.x"),
    ("TypedDict-bad-field", Movie,
     {"type": "object", "properties": {"title": X_STRING, "year": X_INT}, "required": ["title", "year"]},
     {"title": "Alien", "year": 1979}, {"title": "Alien", "year": "1979"}, "arguments.x.year"),
    ("TypedDict-total-False", MovieFilter,
     {"type": "object", "properties": {"title": X_STRING, "year": X_INT}},
     {}, {"year": "1979"}, "arguments.x.year"),
    ("dataclass", Point,
     {"type": "object", "properties": {"x": X_INT, "y": {"type": "integer", "default": 0},
                                       "tags": {"type": "array", "items": X_STRING}},
      "required": ["x"]},
     {"x": 1}, {"y": 2}, "arguments.x"),
    ("dataclass-bad-field", Point,
     {"type": "object", "properties": {"x": X_INT, "y": {"type": "integer", "default": 0},
                                       "tags": {"type": "array", "items": X_STRING}},
      "required": ["x"]},
     {"x": 1, "tags": ["a"]}, {"x": 1, "tags": ["a", 2]}, "arguments.x.tags[1]"),
    ("Any", Any, {}, {"anything": [1, None]}, None, None),
]


@pytest.mark.parametrize("annotation, expected, good, bad, path",
                         [case[1:] for case in HINT_CASES], ids=[case[0] for case in HINT_CASES])
def test_annotation_schema_and_validation(connect, annotation, expected, good, bad, path):
    app = app_with(probe_tool(annotation))
    wire = connect(app)
    tool = {t["name"]: t for t in wire.result("tools/list")["tools"]}["probe"]
    assert tool["inputSchema"] == {"type": "object", "properties": {"x": expected}, "required": ["x"]}
    assert call(wire, "probe", {"x": good}) == OK
    if path is not None:
        assert_invalid(call(wire, "probe", {"x": bad}), path)


def test_missing_required_parameter_is_named(connect):
    wire = connect(app_with(probe_tool(int)))
    result = call(wire, "probe", {})
    assert_invalid(result, "arguments")
    assert "'x'" in result["content"][0]["text"] or '"x"' in result["content"][0]["text"]


def test_nested_dataclass_schema_and_path(connect):
    def measure(segment: Segment) -> str:
        return "ok"
    wire = connect(app_with(measure))
    schema = {t["name"]: t for t in wire.result("tools/list")["tools"]}["measure"]["inputSchema"]
    point = {"type": "object", "properties": {"x": X_INT, "y": {"type": "integer", "default": 0},
                                              "tags": {"type": "array", "items": X_STRING}},
             "required": ["x"]}
    assert schema == {"type": "object", "required": ["segment"], "properties": {"segment": {
        "type": "object", "required": ["start", "end"],
        "properties": {"start": point, "end": point,
                       "label": {"anyOf": [X_STRING, {"type": "null"}], "default": None}}}}}
    assert call(wire, "measure", {"segment": {"start": {"x": 1}, "end": {"x": 2, "y": 3}}}) == OK
    assert_invalid(call(wire, "measure", {"segment": {"start": {"x": 1}, "end": {"x": "2"}}}),
                   "arguments.segment.end.x")


def test_optional_object_error_names_the_inner_path(connect):
    # For Optional[X] the useful message is X's, not "expected null": the model
    # reading an isError result must learn which field to fix.
    def place(point: Optional[Point] = None, points: List[Optional[Point]] = []) -> str:
        return "ok"
    wire = connect(app_with(place))
    assert call(wire, "place", {"point": None, "points": [None, {"x": 1}]}) == OK
    result = call(wire, "place", {"point": {"x": "one"}})
    assert_invalid(result, "arguments.point.x")
    assert "integer" in result["content"][0]["text"]
    assert_invalid(call(wire, "place", {"points": [None, {"y": 1}]}), "arguments.points[1]")
    assert "'x'" in call(wire, "place", {"points": [None, {"y": 1}]})["content"][0]["text"]


@pytest.mark.skipif(Annotated is None, reason="typing.Annotated needs Python 3.9")
def test_annotated_description(connect):
    def pick(count, color):
        return "ok"
    pick.__annotations__ = {"count": Annotated[int, "how many to pick"],
                            "color": Annotated[Optional[Color], "which colour"]}
    pick.__defaults__ = (None,)
    schema = listed_tools(connect, app_with(pick))["pick"]["inputSchema"]
    assert schema == {"type": "object", "required": ["count"], "properties": {
        "count": {"type": "integer", "description": "how many to pick"},
        "color": {"anyOf": [{"enum": ["red", "green"], "type": "string"}, {"type": "null"}],
                  "description": "which colour", "default": None}}}


@pytest.mark.skipif(sys.version_info < (3, 10), reason="X | Y unions need Python 3.10")
def test_pep604_unions_and_builtin_generics(connect):
    namespace = {"Color": Color}
    exec("def modern(a: int | None, b: list[int], c: dict[str, float], d: tuple[int, ...],\n"
         "           e: str | int = 'x', f: set[str] | None = None) -> str:\n"
         "    return 'ok'\n", namespace)
    app = app_with(namespace["modern"])
    wire = connect(app)
    schema = {t["name"]: t for t in wire.result("tools/list")["tools"]}["modern"]["inputSchema"]
    assert schema == {"type": "object", "required": ["a", "b", "c", "d"], "properties": {
        "a": {"anyOf": [X_INT, {"type": "null"}]},
        "b": {"type": "array", "items": X_INT},
        "c": {"type": "object", "additionalProperties": {"type": "number"}},
        "d": {"type": "array", "items": X_INT},
        "e": {"anyOf": [X_STRING, X_INT], "default": "x"},
        "f": {"anyOf": [{"type": "array", "items": X_STRING, "uniqueItems": True}, {"type": "null"}],
              "default": None}}}
    assert call(wire, "modern", {"a": None, "b": [1], "c": {"k": 1.5}, "d": []}) == OK
    assert_invalid(call(wire, "modern", {"a": None, "b": [1], "c": {"k": "v"}, "d": []}), "arguments.c.k")


@pytest.mark.skipif(sys.version_info < (3, 9), reason="list[int] needs Python 3.9")
def test_builtin_generic_list(connect):
    namespace = {}
    exec("def listy(values: list[int], pairs: dict[str, list[str]]) -> str:\n    return 'ok'\n", namespace)
    schema = listed_tools(connect, app_with(namespace["listy"]))["listy"]["inputSchema"]
    assert schema["properties"] == {
        "values": {"type": "array", "items": X_INT},
        "pairs": {"type": "object", "additionalProperties": {"type": "array", "items": X_STRING}}}


@pytest.mark.skipif(sys.version_info < (3, 9), reason="__required_keys__ needs Python 3.9")
def test_typeddict_mixed_totality_by_inheritance(connect):
    class Base(TypedDict):
        title: str

    class Extended(Base, total=False):
        year: int

    def find(query: Extended) -> str:
        return "ok"
    wire = connect(app_with(find))
    schema = {t["name"]: t for t in wire.result("tools/list")["tools"]}["find"]["inputSchema"]
    assert schema["properties"]["query"] == {
        "type": "object", "properties": {"title": X_STRING, "year": X_INT}, "required": ["title"]}
    assert call(wire, "find", {"query": {"title": "Alien"}}) == OK
    assert_invalid(call(wire, "find", {"query": {"year": 1979}}), "arguments.query")


@pytest.mark.skipif(sys.version_info < (3, 11), reason="typing.NotRequired/Required need Python 3.11")
def test_typeddict_required_and_not_required(connect):
    namespace = {}
    exec("from typing import TypedDict, NotRequired, Required\n"
         "class Query(TypedDict):\n"
         "    title: str\n"
         "    year: NotRequired[int]\n"
         "class Loose(TypedDict, total=False):\n"
         "    id: Required[int]\n"
         "    note: str\n"
         "def lookup(query: Query, loose: Loose) -> str:\n"
         "    return 'ok'\n", namespace)
    app = app_with(namespace["lookup"])
    wire = connect(app)
    schema = {t["name"]: t for t in wire.result("tools/list")["tools"]}["lookup"]["inputSchema"]
    assert schema["properties"] == {
        "query": {"type": "object", "properties": {"title": X_STRING, "year": X_INT}, "required": ["title"]},
        "loose": {"type": "object", "properties": {"id": X_INT, "note": X_STRING}, "required": ["id"]}}
    assert call(wire, "lookup", {"query": {"title": "Alien"}, "loose": {"id": 1}}) == OK
    assert_invalid(call(wire, "lookup", {"query": {"title": "Alien", "year": "x"}, "loose": {"id": 1}}),
                   "arguments.query.year")


# --- defaults, docstrings, Context ------------------------------------------------

def test_defaults_make_parameters_optional_and_are_listed(connect):
    marker = object()

    def tune(name: str, level: int = 3, ratio: float = 0.5, loud: bool = False,
             mode: Literal["a", "b"] = "b", color: Color = Color.GREEN, note: Optional[str] = None,
             sizes: List[int] = [1, 2], pair: Tuple[int, int] = (4, 5), extra=7, opaque: Any = marker,
             *, label: str = "kw") -> str:
        return "|".join(map(str, (name, level, ratio, loud, mode, color.name, note, sizes, pair, extra,
                                  opaque is marker, label)))
    app = app_with(tune)
    wire = connect(app)
    schema = {t["name"]: t for t in wire.result("tools/list")["tools"]}["tune"]["inputSchema"]
    assert schema == {"type": "object", "required": ["name"], "properties": {
        "name": X_STRING,
        "level": {"type": "integer", "default": 3},
        "ratio": {"type": "number", "default": 0.5},
        "loud": {"type": "boolean", "default": False},
        "mode": {"enum": ["a", "b"], "type": "string", "default": "b"},
        "color": {"enum": ["red", "green"], "type": "string", "default": "green"},
        "note": {"anyOf": [X_STRING, {"type": "null"}], "default": None},
        "sizes": {"type": "array", "items": X_INT, "default": [1, 2]},
        "pair": {"type": "array", "prefixItems": [X_INT, X_INT], "minItems": 2, "maxItems": 2,
                 "default": [4, 5]},
        "extra": {"default": 7},
        "opaque": {},                       # not JSON: optional, but no "default" is listed
        "label": {"type": "string", "default": "kw"}}}
    # Omitted parameters take the Python defaults.
    text = call(wire, "tune", {"name": "n"})["content"][0]["text"]
    assert text == "n|3|0.5|False|b|GREEN|None|[1, 2]|(4, 5)|7|True|kw"


def test_docstring_summary_and_google_args(connect):
    def lookup(date: str, count: int = 1, verbose: bool = False) -> str:
        """Look up entries for a day.

        Reads the journal; never writes.

        Args:
            date (str): the day to look up,
                in ISO format.
            count: how many entries
                to return at most
            verbose: include details

        Returns:
            str: the entries, one a line.

        Raises:
            KeyError: when the day is unknown.
        """
        return "ok"
    tool = listed_tools(connect, app_with(lookup))["lookup"]
    assert tool["description"] == "Look up entries for a day.\n\nReads the journal; never writes."
    assert tool["inputSchema"]["properties"] == {
        "date": {"type": "string", "description": "the day to look up, in ISO format."},
        "count": {"type": "integer", "default": 1, "description": "how many entries to return at most"},
        "verbose": {"type": "boolean", "default": False, "description": "include details"}}


def test_docstring_continuation_line_with_a_colon(connect):
    # Google style indents continuation lines one level deeper than the argument;
    # such a line is part of the description even when it contains a colon.
    def when(date: str) -> str:
        """Look up a day.

        Args:
            date: the day to look up.
                Format: YYYY-MM-DD.
        """
        return "ok"
    schema = listed_tools(connect, app_with(when))["when"]["inputSchema"]
    assert schema["properties"]["date"] == {
        "type": "string", "description": "the day to look up. Format: YYYY-MM-DD."}


def test_explicit_description_overrides_docstring(connect):
    def documented(a: int) -> str:
        """From the docstring.

        Args:
            a: still used for the parameter
        """
        return "ok"
    tool = listed_tools(connect, app_with(documented, description="Given explicitly."))["documented"]
    assert tool["description"] == "Given explicitly."
    assert tool["inputSchema"]["properties"]["a"] == {"type": "integer",
                                                      "description": "still used for the parameter"}


def test_context_parameter_is_injected_and_never_listed(connect):
    seen = []

    def first(ctx: Context, a: int) -> str:
        seen.append(("first", type(ctx).__name__, ctx.protocol_version))
        return "ok"

    def middle(a: int, context: "Context", b: str = "x") -> str:
        seen.append(("middle", type(context).__name__, context.protocol_version))
        return "ok"

    def last(a: int, c: minimcp.Context) -> str:
        seen.append(("last", type(c).__name__, c.protocol_version))
        return "ok"

    app = app_with(first, middle, last)
    wire = connect(app, "2025-06-18")
    tools = {t["name"]: t["inputSchema"] for t in wire.result("tools/list")["tools"]}
    assert tools["first"] == {"type": "object", "properties": {"a": X_INT}, "required": ["a"]}
    assert tools["middle"] == {"type": "object", "properties": {"a": X_INT, "b": {"type": "string", "default": "x"}},
                               "required": ["a"]}
    assert tools["last"] == {"type": "object", "properties": {"a": X_INT}, "required": ["a"]}
    for name in ("first", "middle", "last"):
        assert call(wire, name, {"a": 1}) == OK
    assert seen == [("first", "Context", "2025-06-18"), ("middle", "Context", "2025-06-18"),
                    ("last", "Context", "2025-06-18")]


def test_context_argument_from_the_client_is_not_accepted_as_a_value(connect):
    # A client cannot smuggle a value into the injected parameter.
    got = []

    def who(ctx: Context, a: int) -> str:
        got.append(type(ctx).__name__)
        return "ok"
    wire = connect(app_with(who))
    assert call(wire, "who", {"a": 1, "ctx": "forged"}) == OK
    assert got == ["Context"]


# --- from __future__ import annotations -------------------------------------------

def test_future_annotations_module(connect):
    import future_annotations_tools as fat
    app = MCPServer("future", dialect="minimcp")
    app.add_tool(fat.paint)
    app.add_tool(fat.mixed)
    app.add_tool(fat.qualified)
    wire = connect(app)
    tools = {t["name"]: t for t in wire.result("tools/list")["tools"]}
    corner = {"type": "object", "properties": {"x": X_INT, "y": {"type": "integer", "default": 0}},
              "required": ["x"]}
    nullable_string = {"anyOf": [X_STRING, {"type": "null"}], "default": None}
    assert tools["paint"]["inputSchema"] == {"type": "object", "required": ["shade", "box"], "properties": {
        "shade": {"enum": ["light", "dark"], "type": "string", "description": "how dark"},
        "box": {"type": "object", "required": ["top_left"], "description": "what to paint", "properties": {
            "top_left": corner, "label": nullable_string, "tags": {"type": "array", "items": X_STRING}}},
        "times": {"type": "integer", "default": 1, "description": "how many coats"},
        "note": dict(nullable_string, description="a remark")}}
    assert tools["mixed"]["inputSchema"] == {
        "type": "object", "required": ["pair", "scores", "pick", "either", "items"], "properties": {
            "pair": {"type": "array", "prefixItems": [X_INT, X_STRING], "minItems": 2, "maxItems": 2},
            "scores": {"type": "object", "additionalProperties": {"type": "number"}},
            "pick": {"enum": ["a", "b"], "type": "string"},
            "either": {"anyOf": [X_INT, X_STRING]},
            "items": {"type": "array", "items": X_INT}}}
    assert "outputSchema" not in tools["mixed"]          # a bare dict is unstructured, as in the SDK
    assert tools["qualified"]["inputSchema"] == {"type": "object", "properties": {"text": X_STRING},
                                                 "required": ["text"]}
    assert tools["qualified"]["outputSchema"] == corner

    # Arguments are converted using the string annotations, Context is injected.
    result = call(wire, "paint", {"shade": "dark", "box": {"top_left": {"x": 4}}, "times": 2})
    assert result == {"content": [{"type": "text", "text": "Shade|dark|Box|Corner|4|2|Context"}]}
    result = call(wire, "mixed", {"pair": [1, "a"], "scores": {"k": 1}, "pick": "b", "either": "e",
                                  "items": [3]})
    expected = {"pair": [1, "a"], "pair_type": "tuple", "n": 1, "pick": "b", "either": "e", "items": [3]}
    assert "structuredContent" not in result          # -> dict: unstructured, as in the SDK
    assert json.loads(result["content"][0]["text"]) == expected
    assert call(wire, "qualified", {"text": "abc"})["structuredContent"] == {"x": 3, "y": 7}
    assert_invalid(call(wire, "paint", {"shade": "grey", "box": {"top_left": {"x": 4}}}), "arguments.shade")


def test_future_annotations_unresolvable_name_fails_at_registration():
    import future_annotations_tools as fat
    app = MCPServer("future", dialect="minimcp")
    with pytest.raises((TypeError, ValueError)) as info:
        app.add_tool(fat.unresolvable)
    message = str(info.value)
    assert "unresolvable" in message and "thing" in message


# --- unsupported annotations --------------------------------------------------------

UNSUPPORTED = [("plain class", Widget), ("Dict[int, str]", Dict[int, str]),
               ("List[complex]", List[complex]), ("Optional[Widget]", Optional[Widget]), ("complex", complex)]


@pytest.mark.parametrize("annotation", [u[1] for u in UNSUPPORTED], ids=[u[0] for u in UNSUPPORTED])
def test_unsupported_annotation_fails_at_registration(connect, annotation):
    def gadget(count, thing):
        return "never"
    gadget.__annotations__ = {"count": int, "thing": annotation}
    app = MCPServer("unsupported", dialect="minimcp")
    with pytest.raises((TypeError, ValueError)) as info:
        app.add_tool(gadget)
    message = str(info.value)
    assert "gadget" in message, message                  # the function
    assert "'thing'" in message or '"thing"' in message, message    # the parameter
    # Nothing half-registered: the server offers no tools at all.
    wire = Wire(app)
    try:
        assert "tools" not in wire.initialize()["capabilities"]
    finally:
        wire.close()


def test_unsupported_annotation_fails_with_the_decorator_too():
    app = MCPServer("unsupported", dialect="minimcp")
    with pytest.raises((TypeError, ValueError)) as info:
        @app.tool()
        def blob(data: complex) -> str:
            return "never"
    assert "blob" in str(info.value) and "data" in str(info.value)


def test_unsupported_dataclass_field_fails_at_registration():
    @dataclasses.dataclass
    class Holder:
        payload: complex

    def keep(holder: Holder) -> str:
        return "never"
    with pytest.raises((TypeError, ValueError)) as info:
        MCPServer(dialect="minimcp").add_tool(keep)
    assert "keep" in str(info.value) and "holder" in str(info.value)


# --- hand-written input_schema ------------------------------------------------------

SEARCH_SCHEMA = {
    "type": "object",
    "properties": {"q": {"type": "string", "minLength": 1, "description": "query"},
                   "limit": {"type": "integer", "minimum": 1, "maximum": 50}},
    "required": ["q"],
    "additionalProperties": False,
}


def test_hand_written_input_schema_is_listed_and_enforced(connect):
    def search(q, limit=10):
        return "%s:%d" % (q, limit)
    app = app_with(search, input_schema=json.loads(json.dumps(SEARCH_SCHEMA)))
    wire = connect(app)
    assert wire.result("tools/list")["tools"] == [{"name": "search", "inputSchema": SEARCH_SCHEMA}]
    assert call(wire, "search", {"q": "cats", "limit": 5}) == {"content": [{"type": "text", "text": "cats:5"}]}
    assert call(wire, "search", {"q": "dogs"}) == {"content": [{"type": "text", "text": "dogs:10"}]}
    assert_invalid(call(wire, "search", {"q": ""}), "arguments.q")
    assert_invalid(call(wire, "search", {"q": "x", "limit": 51}), "arguments.limit")
    result = call(wire, "search", {"q": "x", "sort": "asc"})
    assert_invalid(result, "arguments")
    assert "sort" in result["content"][0]["text"]


def test_hand_written_input_schema_with_local_ref(connect):
    schema = {"type": "object", "$defs": {"natural": {"type": "integer", "minimum": 0}},
              "properties": {"n": {"$ref": "#/$defs/natural"},
                             "more": {"type": "array", "items": {"$ref": "#/$defs/natural"}}},
              "required": ["n"]}

    def count(n, more=()):
        return str(n + sum(more))
    wire = connect(app_with(count, input_schema=schema))
    assert call(wire, "count", {"n": 2, "more": [3]}) == {"content": [{"type": "text", "text": "5"}]}
    assert_invalid(call(wire, "count", {"n": -1}), "arguments.n")
    assert_invalid(call(wire, "count", {"n": 1, "more": [0, -2]}), "arguments.more[1]")


def test_hand_written_input_schema_must_be_an_object_schema():
    with pytest.raises(ValueError):
        MCPServer(dialect="minimcp").add_tool(lambda: "x", name="arr", input_schema={"type": "array"})


# --- the validator, keyword by keyword ----------------------------------------------

VALID = [
    ({"type": "integer"}, 3),
    ({"type": "integer"}, 2.0),                       # JSON Schema: 2.0 is an integer
    ({"type": "number"}, 3),
    ({"type": "number"}, -0.5),
    ({"type": "boolean"}, True),
    ({"type": "null"}, None),
    ({"type": ["string", "null"]}, None),
    ({"type": "object"}, {}),
    ({"type": "array"}, []),
    ({"enum": ["a", 1, None]}, None),
    ({"enum": [1, 2]}, 2.0),
    ({"const": "x"}, "x"),
    ({"type": "object", "required": ["a"]}, {"a": None}),
    ({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False}, {"a": "x"}),
    ({"type": "object", "additionalProperties": {"type": "integer"}}, {"a": 1, "b": 2}),
    ({"type": "array", "items": {"type": "string"}}, ["a", "b"]),
    ({"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}]}, [1, "a", None]),
    ({"type": "array", "minItems": 1, "maxItems": 2}, [1, 2]),
    ({"type": "array", "uniqueItems": True}, [1, "1", True, [1], {"a": 1}]),
    ({"type": "string", "minLength": 2, "maxLength": 3}, "abc"),
    ({"type": "string", "minLength": 2}, "\u00e9\u00e9"),     # characters, not bytes
    ({"type": "string", "pattern": "^[a-z]+-\\d+$"}, "abc-12"),
    ({"type": "string", "pattern": "b"}, "abc"),             # unanchored, as in JSON Schema
    ({"type": "number", "minimum": 1, "maximum": 2}, 2),
    ({"type": "number", "exclusiveMinimum": 1, "exclusiveMaximum": 2}, 1.5),
    ({"type": "integer", "multipleOf": 3}, 9),
    ({"anyOf": [{"type": "integer"}, {"type": "string"}]}, "a"),
    ({"oneOf": [{"type": "integer"}, {"type": "string"}]}, 1),
    ({"allOf": [{"type": "integer"}, {"minimum": 1}]}, 2),
    ({"not": {"type": "string"}}, 1),
    ({"$defs": {"n": {"type": "integer"}}, "$ref": "#/$defs/n"}, 1),
    ({"definitions": {"n": {"type": "integer"}}, "properties": {"a": {"$ref": "#/definitions/n"}}}, {"a": 1}),
    (True, {"anything": 1}),
    ({}, [1, "x"]),
]


@pytest.mark.parametrize("schema, value", VALID, ids=[json.dumps(v[0])[:60] for v in VALID])
def test_validate_accepts(schema, value):
    minimcp.validate(value, schema)


TREE = {"type": "object", "properties": {"value": {"type": "integer"},
                                         "children": {"type": "array", "items": {"$ref": "#"}}},
        "required": ["value"]}

INVALID = [
    # schema, value, the path the message must start with, a word it must contain
    ({"type": "integer"}, 1.5, "arguments", "integer"),
    ({"type": "integer"}, True, "arguments", "integer"),
    ({"type": "integer"}, "1", "arguments", "integer"),
    ({"type": "number"}, False, "arguments", "number"),
    ({"type": "number"}, "1.5", "arguments", "number"),
    ({"type": "boolean"}, 1, "arguments", "boolean"),
    ({"type": "boolean"}, 0, "arguments", "boolean"),
    ({"type": "string"}, None, "arguments", "string"),
    ({"type": "null"}, 0, "arguments", "null"),
    ({"type": "object"}, [], "arguments", "object"),
    ({"type": "array"}, {}, "arguments", "array"),
    ({"type": ["string", "null"]}, 1, "arguments", "string"),
    ({"enum": ["a", "b"]}, "c", "arguments", "one of"),
    ({"enum": [1, 2]}, True, "arguments", "one of"),
    ({"enum": [True]}, 1, "arguments", "one of"),
    ({"const": 1}, True, "arguments", "1"),
    ({"const": False}, 0, "arguments", "false"),
    ({"type": "object", "required": ["a", "b"]}, {"a": 1}, "arguments", "b"),
    ({"type": "object", "properties": {"p": {"type": "object", "required": ["q"]}}}, {"p": {}},
     "arguments.p", "q"),
    ({"type": "object", "properties": {"a": {}}, "additionalProperties": False}, {"a": 1, "zz": 2},
     "arguments", "zz"),
    ({"type": "object", "additionalProperties": {"type": "integer"}}, {"a": 1, "b": "2"}, "arguments.b",
     "integer"),
    ({"type": "array", "items": {"type": "string"}}, ["a", 2], "arguments[1]", "string"),
    ({"properties": {"a": {"items": {"properties": {"b": {"type": "null"}}}}}}, {"a": [{}, {"b": 1}]},
     "arguments.a[1].b", "null"),
    ({"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}]}, [1, 2], "arguments[1]",
     "string"),
    ({"type": "array", "prefixItems": [{"type": "integer"}], "items": {"type": "boolean"}}, [1, True, "x"],
     "arguments[2]", "boolean"),
    ({"type": "array", "minItems": 2}, [1], "arguments", "2"),
    ({"type": "array", "maxItems": 1}, [1, 2], "arguments", "1"),
    ({"type": "array", "uniqueItems": True}, [{"a": 1}, {"a": 1}], "arguments", "unique"),
    ({"type": "string", "minLength": 2}, "a", "arguments", "2"),
    ({"type": "string", "maxLength": 2}, "abc", "arguments", "2"),
    ({"type": "string", "pattern": "^[a-z]+$"}, "abc1", "arguments", "pattern"),
    ({"type": "number", "minimum": 1}, 0.5, "arguments", "1"),
    ({"type": "number", "maximum": 1}, 1.5, "arguments", "1"),
    ({"type": "number", "exclusiveMinimum": 1}, 1, "arguments", "1"),
    ({"type": "number", "exclusiveMaximum": 1}, 1, "arguments", "1"),
    ({"type": "integer", "multipleOf": 3}, 10, "arguments", "3"),
    ({"anyOf": [{"type": "integer"}, {"type": "string"}]}, 1.5, "arguments", "none"),
    ({"oneOf": [{"type": "integer"}, {"type": "number"}]}, 1, "arguments", "exactly one"),
    ({"oneOf": [{"type": "integer"}, {"type": "string"}]}, None, "arguments", "exactly one"),
    ({"allOf": [{"type": "integer"}, {"minimum": 5}]}, 3, "arguments", "5"),
    ({"not": {"type": "string"}}, "s", "arguments", "not allowed"),
    ({"$defs": {"n": {"type": "integer"}}, "properties": {"a": {"$ref": "#/$defs/n"}}}, {"a": "x"},
     "arguments.a", "integer"),
    (TREE, {"value": 1, "children": [{"value": 2, "children": [{"value": "3"}]}]},
     "arguments.children[0].children[0].value", "integer"),
    (TREE, {"value": 1, "children": [{"children": []}]}, "arguments.children[0]", "value"),
    (False, 1, "arguments", "no value"),
]


@pytest.mark.parametrize("schema, value, path, word", INVALID,
                         ids=["%s-%s" % (json.dumps(i[0])[:50], json.dumps(i[1])[:20]) for i in INVALID])
def test_validate_rejects_naming_the_path(schema, value, path, word):
    with pytest.raises(ValueError) as info:
        minimcp.validate(value, schema)
    message = str(info.value)
    assert message.startswith(path + ":"), message
    assert word.lower() in message.lower(), message


def test_validate_custom_root_path():
    with pytest.raises(ValueError) as info:
        minimcp.validate({"a": [1, "x"]}, {"properties": {"a": {"items": {"type": "integer"}}}}, path="result")
    assert str(info.value).startswith("result.a[1]:")


def test_validate_rejects_remote_ref():
    with pytest.raises(ValueError) as info:
        minimcp.validate(1, {"$ref": "https://example.com/schema.json"})
    assert "https://example.com/schema.json" in str(info.value)


# -- the argument check built at registration agrees with validate() ----------------------------

FLAT = {"type": "object", "properties": {"s": {"type": "string", "description": "d"}, "i": {"type": "integer"},
                                         "n": {"type": "number"}, "b": {"type": "boolean"},
                                         "o": {"type": "object"}}, "required": ["s"]}
CHECKED_SCHEMAS = [
    FLAT,
    dict(FLAT, additionalProperties=False),
    {"type": "object"},
    {"type": "object", "properties": {"l": {"type": "array", "items": {"type": "integer"}}}},   # not flat: generic
    {"type": "object", "properties": {"u": {"type": ["string", "null"]}}},
    {"type": "object", "properties": {"e": {"enum": ["a", "b"]}}, "additionalProperties": {"type": "integer"}},
]
CHECKED_VALUES = [
    {}, {"s": "x"}, {"s": 1}, {"s": "x", "i": 2}, {"s": "x", "i": 2.0}, {"s": "x", "i": 2.5}, {"s": "x", "i": True},
    {"s": "x", "n": 1}, {"s": "x", "n": "1"}, {"s": "x", "b": 0}, {"s": "x", "b": False}, {"s": "x", "o": []},
    {"s": "x", "zz": 1}, {"l": [1, "2"]}, {"u": None}, {"u": 3}, {"e": "c"}, {"e": "a", "extra": "x"},
    [], "text", None, 5,
]


@pytest.mark.parametrize("schema", CHECKED_SCHEMAS, ids=range(len(CHECKED_SCHEMAS)))
def test_the_compiled_argument_check_says_what_validate_says(schema):
    check = minimcp._compile_schema(schema)
    for value in CHECKED_VALUES:
        outcomes = []
        for run in (check, lambda v: minimcp.validate(v, schema)):
            try:
                run(value)
                outcomes.append(None)
            except ValueError as exc:
                outcomes.append(str(exc))
        assert outcomes[0] == outcomes[1], (schema, value, outcomes)
    assert (check.__name__ == "check") == (schema in (FLAT, CHECKED_SCHEMAS[1], CHECKED_SCHEMAS[2]))
