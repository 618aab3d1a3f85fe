#!/usr/bin/env python3
"""Generative differential: seeded servers in six SDK styles, on their SDK and under `serve`.

Each seed draws one server the way people write them: tools whose parameters are scalars,
`Optional`, unions, `Literal`, `Enum`, collections, pydantic models, dataclasses, `TypedDict`
and `Annotated[..., Field(...)]`, with or without defaults; docstrings in no style, one line,
Google, NumPy or reST; results of every common kind (scalars, `None`, lists, dicts holding
datetimes, models, images, content lists, `CallToolResult`); bodies that raise or return what
their annotation forbids; `Context` use (logging, progress, reading the server's own resource);
resources, templates and prompts in the same spirit. It is written in the style the seed picks
(seed % 6, so any range of seeds covers all six evenly):

  mcp1       mcp 1.x      `from mcp.server.fastmcp import FastMCP`
  mcp2       mcp 2.x      `from mcp.server.mcpserver import MCPServer`
  fastmcp2   fastmcp 2.x  `from fastmcp import FastMCP` (2.14 idioms)
  fastmcp4   fastmcp 4.x  `from fastmcp import FastMCP` (4.2 idioms)
  lowlevel1  mcp 1.x      `mcp.server.lowlevel.Server` with its decorators
  lowlevel2  mcp 2.x      `Server(name, on_list_tools=..., on_call_tool=...)`

Without --sdk options it only writes servers, with nothing but the standard library:

    python3 sdk_generate.py --show 42                 # the server of seed 42, on stdout
    python3 sdk_generate.py --write DIR --seeds 0-49  # fifty servers and their calls, into DIR

With them (run_sdk_generate.sh installs the pinned SDKs into throwaway venvs and runs this
with the official client, mcp 2.3.0), each server runs under its real SDK and unchanged under
`python3 minimcp.py serve FILE` with no SDK installed, both driven over stdio by the official
client (sdk_corpus.py's harness): tools/list, every tool with valid and with invalid arguments,
resources, templates, reads, prompts, with the log and progress notifications of each call.
Both recordings are compared field by field after sdk_diff.py's normalisation (the README's
table of deliberate differences, the rows that apply under `serve`). A server written for
fastmcp passes if it matches either pinned fastmcp (4.2.3 is tried first). A server its own SDK refuses to start is
skipped and counted. Each difference prints with a reproduction; the run ends with the classes
of difference and their counts per style, and `N passed, N failed, N skipped`.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

STYLES = ("mcp1", "mcp2", "fastmcp2", "fastmcp4", "lowlevel1", "lowlevel2")

# The venvs each style runs under, in the order tried. A fastmcp server passes if it matches
# either pinned fastmcp, so both fastmcp styles try 4.2.3 (what minimcp's fastmcp dialect
# follows) first, and run their own pin only when 4.2.3 differs or refuses: a fastmcp 2 server
# never matched 2.14.7 where 4.2.3 did not (0 of 35 over seeds 0-209), and each run of it cost
# the stage about a tenth of its time. OWN is the style's own pin: a server it refuses is skipped.
REFERENCES = {"mcp1": ("mcp1",), "mcp2": ("mcp2",), "fastmcp2": ("fastmcp4", "fastmcp2"),
              "fastmcp4": ("fastmcp4", "fastmcp2"), "lowlevel1": ("mcp1",), "lowlevel2": ("mcp2",)}
OWN = {"mcp1": "mcp1", "mcp2": "mcp2", "fastmcp2": "fastmcp2", "fastmcp4": "fastmcp4", "lowlevel1": "mcp1",
       "lowlevel2": "mcp2"}
PINS = {"mcp1": "mcp==1.30.0", "mcp2": "mcp==2.3.0", "fastmcp2": "fastmcp==2.14.7", "fastmcp4": "fastmcp==4.2.3"}

NO_DEFAULT = object()
TINY_PNG = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")


# --------------------------------------------------------------------------
# what a parameter can be: its annotation, its JSON Schema, the values sent
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Kind:
    """One way of typing a parameter, in both forms a server writes it.

    `annotation` is the decorator styles' annotation; `schema` the low-level styles' JSON
    Schema; `valid` and `invalid` JSON values to send (the invalid one is of a wrong type or
    breaks a constraint); `use` an expression of the typed argument `{v}` that a body
    formats, written so that an argument of the wrong Python type fails or shows (an Enum's
    `.value`, a model's attribute); `raw_use` the same over the low-level styles' JSON value;
    `needs` the helper definitions the annotation names.
    """

    annotation: str
    schema: dict
    valid: object
    invalid: object
    use: str = "{v}"
    raw_use: str = "{v}"
    needs: tuple = ()
    names: tuple = ("value",)


KINDS = {
    "str": Kind("str", {"type": "string"}, "alpha", 12, names=("query", "text", "name", "topic", "city")),
    "int": Kind("int", {"type": "integer"}, 7, "seven", "{v} * 2", "{v} * 2", names=("count", "limit", "year", "n")),
    "float": Kind("float", {"type": "number"}, 2.5, "wide", "round({v} * 3, 2)", "round({v} * 3, 2)",
                  names=("ratio", "width", "price", "amount")),
    "bool": Kind("bool", {"type": "boolean"}, True, "maybe", "'yes' if {v} else 'no'", "'yes' if {v} else 'no'",
                 names=("verbose", "strict", "include_archived", "dry_run")),
    "int_or_float": Kind("int | float", {"type": "number"}, 1000000.0, "lots", "{v}!r", "{v}!r",
                         names=("amount", "size", "weight")),
    "optional_str": Kind("Optional[str]", {"type": "string"}, "beta", 5, "{v} or 'none'", "{v} or 'none'",
                         names=("note", "label", "prefix")),
    "str_or_none": Kind("str | None", {"anyOf": [{"type": "string"}, {"type": "null"}]}, "gamma", 3.5,
                        "{v} or 'none'", "{v} or 'none'", names=("owner", "tag", "suffix")),
    "union_int_str": Kind("Union[int, str]", {"anyOf": [{"type": "integer"}, {"type": "string"}]}, 5, [1],
                          "{v}!r", "{v}!r", names=("key", "ident", "ref")),
    "literal": Kind('Literal["asc", "desc"]', {"type": "string", "enum": ["asc", "desc"]}, "desc", "sideways",
                    names=("order", "direction")),
    "enum": Kind("Color", {"type": "string", "enum": ["red", "green", "blue"]}, "green", "purple",
                 "{v}.value", "{v}", needs=("Color",), names=("color", "shade")),
    "int_enum": Kind("Priority", {"type": "integer", "enum": [1, 2, 3]}, 2, 7, "{v}.name", "{v}",
                     needs=("Priority",), names=("priority", "level")),
    "list_str": Kind("list[str]", {"type": "array", "items": {"type": "string"}}, ["a", "b"], "a,b",
                     "', '.join({v} or [])", "', '.join({v} or [])", names=("tags", "words", "paths")),
    "list_int": Kind("List[int]", {"type": "array", "items": {"type": "integer"}}, [1, 2, 3], ["x"],
                     "sum({v})", "sum({v})", names=("numbers", "ids", "scores")),
    "dict_str_int": Kind("dict[str, int]", {"type": "object", "additionalProperties": {"type": "integer"}},
                         {"a": 1, "b": 2}, {"a": "x"}, "sorted({v}.items())", "sorted({v}.items())",
                         names=("counts", "weights")),
    "tuple": Kind("tuple[int, int]", {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
                  [3, 4], [1], "{v}[0] + {v}[1]", "{v}[0] + {v}[1]", names=("pair", "span")),
    "set_str": Kind("set[str]", {"type": "array", "items": {"type": "string"}, "uniqueItems": True}, ["y", "x"], 5,
                    "sorted({v})", "sorted({v})", names=("labels", "fields")),
    "model": Kind("Address", {"type": "object", "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
                              "required": ["street", "city"]},
                  {"street": "Main St", "city": "Oslo"}, {"street": "Main St"},
                  "{v}.city.upper()", "{v}['city'].upper()", needs=("Address",), names=("address", "location")),
    "nested_model": Kind("Order", {"type": "object", "properties": {
        "customer": {"type": "string"},
        "items": {"type": "array", "items": {"type": "object", "properties": {
            "sku": {"type": "string"}, "quantity": {"type": "integer", "minimum": 1}}, "required": ["sku"]}}},
        "required": ["customer", "items"]},
        {"customer": "ada", "items": [{"sku": "A1", "quantity": 2}, {"sku": "B2"}]},
        {"customer": "ada", "items": [{"sku": "A1", "quantity": 0}]},
        "sum(i.quantity for i in {v}.items)", "sum(i.get('quantity', 1) for i in {v}['items'])",
        needs=("Order",), names=("order", "cart")),
    "dataclass": Kind("Point", {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
                                "required": ["x"]},
                      {"x": 1.5, "y": 2}, {"x": "left"}, "{v}.x + {v}.y", "{v}['x'] + {v}.get('y', 0)",
                      needs=("Point",), names=("point", "origin")),
    "typeddict": Kind("DateRange", {"type": "object", "properties": {"start": {"type": "string"}, "end": {"type": "string"}},
                                    "required": ["start", "end"]},
                      {"start": "2024-01-01", "end": "2024-02-01"}, {"start": "2024-01-01"},
                      "{v}['start'] + '..' + {v}['end']", "{v}['start'] + '..' + {v}['end']",
                      needs=("DateRange",), names=("period", "window")),
    "annotated_int": Kind('Annotated[int, Field(ge=1, le=100, description="{d}")]',
                          {"type": "integer", "minimum": 1, "maximum": 100}, 10, 0, "{v} + 1", "{v} + 1",
                          names=("page", "percent", "top_k")),
    "annotated_str": Kind('Annotated[str, Field(min_length=2, max_length=20, description="{d}")]',
                          {"type": "string", "minLength": 2, "maxLength": 20}, "hello", "x", "{v}.title()",
                          "{v}.title()", names=("title", "slug", "user")),
    "field_default": Kind("int", {"type": "integer", "minimum": 1}, 5, -5, "{v} * 10", "{v} * 10",
                          names=("max_results", "batch", "depth")),
    "untyped": Kind("", {}, "free", None, "{v}!r", "{v}!r", names=("data", "payload")),
}
# Defaults a parameter of each kind may take (Python source); field_default's is Field(...).
DEFAULTS = {"str": ['"all"', '""'], "int": ["10", "0"], "float": ["1.0"], "bool": ["False", "True"],
            "optional_str": ["None"], "str_or_none": ["None"], "literal": ['"asc"'], "enum": ["Color.RED"],
            "list_str": ["None"], "int_or_float": ["1"], "union_int_str": ['"any"'], "annotated_int": ["20"],
            "field_default": ['Field(3, ge=1, description="{d}")', 'Field(default=3, ge=1)']}

# The helper definitions annotations name, written once at the top of a server that needs them.
HELPERS = {
    "Color": '''
class Color(str, Enum):
    {doc}RED = "red"
    GREEN = "green"
    BLUE = "blue"
''',
    "Priority": '''
class Priority(Enum):
    {doc}LOW = 1
    MEDIUM = 2
    HIGH = 3
''',
    "Address": '''
class Address(BaseModel):
    {doc}street: str
    city: str = Field(description="The city name")
    zip_code: Optional[str] = None
''',
    "Order": '''
class LineItem(BaseModel):
    sku: str
    quantity: int = Field(default=1, ge=1)


class Order(BaseModel):
    {doc}customer: str
    items: list[LineItem]
''',
    "Point": '''
@dataclass
class Point:
    {doc}x: float
    y: float = 0.0
''',
    "DateRange": '''
class DateRange(TypedDict):
    {doc}start: str
    end: str
''',
    "Report": '''
class Report(BaseModel):
    {doc}title: str
    count: int
    tags: list[str] = []
    created: datetime
''',
    "Summary": '''
@dataclass
class Summary:
    {doc}text: str
    words: int
''',
    "Stats": '''
class Stats(TypedDict):
    {doc}total: int
    mean: float
''',
    "Confirm": '''
class Confirm(BaseModel):
    {doc}ok: bool
''',
}
HELPER_IMPORTS = {
    "Color": [("enum", "Enum")], "Priority": [("enum", "Enum")],
    "Address": [("pydantic", "BaseModel"), ("pydantic", "Field"), ("typing", "Optional")],
    "Order": [("pydantic", "BaseModel"), ("pydantic", "Field")], "Point": [("dataclasses", "dataclass")],
    "DateRange": [("typing", "TypedDict")], "Report": [("pydantic", "BaseModel"), ("datetime", "datetime")],
    "Summary": [("dataclasses", "dataclass")], "Stats": [("typing", "TypedDict")],
    "Confirm": [("pydantic", "BaseModel")],
}
HELPER_DOCS = {"Color": "A colour to paint with.", "Priority": "How urgent a task is.",
               "Address": "A postal address.", "Order": "An order of several line items.",
               "Point": "A point on the plane.", "DateRange": "A range of ISO dates.",
               "Report": "What a search found.", "Summary": "A short summary.", "Stats": "Totals.",
               "Confirm": "Whether to go ahead."}


# --------------------------------------------------------------------------
# what a result can be
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Result:
    """One way of returning: the annotation (None: unannotated), the decorator styles' return
    expression over the text `summary`, what a body that breaks the annotation returns, and the
    low-level form ("text", "texts", "structured", "image", "result")."""

    annotation: str | None
    value: str
    wrong: str | None
    lowlevel: str
    needs: tuple = ()
    raw: str = ""                    # the low-level styles' value, where it differs from `value`
    output: dict | None = None       # the outputSchema a low-level server may declare


RESULTS = {
    "str": Result("str", "summary", None, "text"),
    "int": Result("int", "len(summary)", '"many"', "text"),
    "float": Result("float", "len(summary) / 4", '"a lot"', "text"),
    "bool": Result("bool", "len(summary) > 20", '"perhaps"', "text"),
    "none": Result("None", "None", None, "empty"),
    "unannotated": Result(None, "summary", None, "text"),
    "list_str": Result("list[str]", "summary.split('; ')", "[1, 2]", "texts"),
    "list_empty": Result("list[str]", "[]", None, "texts"),
    "dict": Result("dict", '{"summary": summary, "length": len(summary)}', None, "structured",
                   output={"type": "object", "properties": {"summary": {"type": "string"}, "length": {"type": "integer"}},
                           "required": ["summary", "length"]}),
    "dict_rich": Result("dict[str, Any]", '{"summary": summary, "at": datetime(2024, 5, 17, 9, 30, tzinfo=timezone.utc), '
                        '"id": UUID("12345678-1234-5678-1234-567812345678"), "day": date(2024, 5, 17)}', None,
                        "structured", raw='{"summary": summary, "at": "2024-05-17T09:30:00+00:00", '
                        '"id": "12345678-1234-5678-1234-567812345678", "day": "2024-05-17"}'),
    "untyped_rich": Result(None, '{"summary": summary, "price": Decimal("9.50"), "path": Path("/tmp/report.txt"), '
                           '"color": Color.BLUE, "when": datetime(2024, 5, 17, 9, 30)}', None, "structured",
                           needs=("Color",), raw='{"summary": summary, "price": "9.50", "path": "/tmp/report.txt", '
                           '"color": "blue", "when": "2024-05-17T09:30:00"}'),
    "model": Result("Report", 'Report(title=summary, count=len(summary), tags=["x"], created=datetime(2024, 1, 2, 3, 4, 5))',
                    '{"title": summary}', "structured", needs=("Report",),
                    raw='{"title": summary, "count": len(summary), "tags": ["x"], "created": "2024-01-02T03:04:05"}',
                    output={"type": "object", "properties": {"title": {"type": "string"}, "count": {"type": "integer"},
                            "tags": {"type": "array", "items": {"type": "string"}}, "created": {"type": "string"}},
                            "required": ["title", "count", "created"]}),
    "dataclass": Result("Summary", "Summary(text=summary, words=len(summary.split()))", '"not a summary"',
                        "structured", needs=("Summary",), raw='{"text": summary, "words": len(summary.split())}',
                        output={"type": "object", "properties": {"text": {"type": "string"}, "words": {"type": "integer"}},
                                "required": ["text", "words"]}),
    "typeddict": Result("Stats", 'Stats(total=len(summary), mean=len(summary) / 3)', '{"total": "all"}',
                        "structured", needs=("Stats",), raw='{"total": len(summary), "mean": len(summary) / 3}',
                        output={"type": "object", "properties": {"total": {"type": "integer"}, "mean": {"type": "number"}},
                                "required": ["total", "mean"]}),
    "image": Result("Image", 'Image(data=base64.b64decode(TINY_PNG), format="png")', None, "image"),
    "content_list": Result("list[TextContent]", '[TextContent(type="text", text=summary)]', None, "texts"),
    "call_tool_result": Result("CallToolResult", 'CallToolResult(content=[TextContent(type="text", text=summary)], '
                               '{sc}={"summary": summary})', None, "result"),
}


# --------------------------------------------------------------------------
# the server a seed draws, in no style yet
# --------------------------------------------------------------------------

@dataclass
class Param:
    name: str
    kind: str
    default: object = NO_DEFAULT     # Python source of the default, or NO_DEFAULT
    description: str = ""


@dataclass
class Tool:
    name: str                        # the function's name
    wire: str                        # the name on the wire
    params: list
    doc: str                         # none, line, google, numpy, rest
    summary: str
    result: str
    body: str                        # ok, value_error, tool_error, mcp_error, wrong_result
    context: tuple = ()              # of log, progress, read
    is_async: bool = False
    given_description: str = ""      # description= in the decorator
    bare: bool = False               # fastmcp: @mcp.tool without parentheses
    declares_output: bool = False    # low-level: the Tool lists an outputSchema
    context_first: bool = False      # ctx before the other parameters


@dataclass
class Resource:
    name: str
    uri: str
    returns: str                     # text, json, bytes, list
    mime: str = ""
    doc: str = ""
    template: bool = False
    param: str = ""                  # a template's variable
    param_kind: str = "str"
    failure: str = ""                # a template's answer for an unknown id: value_error, resource_error, text
    is_async: bool = False


@dataclass
class Prompt:
    name: str
    params: list                     # of Param (str-typed, or Annotated with a description)
    returns: str                     # text, messages
    doc: str = ""


@dataclass
class Server:
    seed: int
    style: str
    name: str
    var: str
    tools: list = field(default_factory=list)
    resources: list = field(default_factory=list)
    prompts: list = field(default_factory=list)
    instructions: str = ""
    main: str = "run"                # run, run_stdio, main_function
    decorator_shape: bool = False    # lowlevel1 only: the tutorials' @server.tool() on a low-level Server
    enum_docs: bool = False
    lifespan: bool = False           # a lifespan whose state the tools read


WORDS = ("notes", "files", "orders", "weather", "users", "books", "tasks", "metrics", "events", "images")
VERBS = ("search", "get", "list", "create", "update", "count", "summarize", "find", "check", "convert")
SUMMARIES = ("Search the {n} for matching entries", "Return the {n} that match", "Count the {n}",
             "Look up one of the {n}", "Summarise the {n} for a report", "Check the {n} for problems")
DESCRIPTIONS = ("The text to look for", "How many results to return", "Which field to sort by",
                "The identifier of the item", "Whether to include details", "Where to start")


def _pick_params(rng: random.Random, count: int) -> list:
    kinds = list(KINDS)
    params, used = [], set()
    for _ in range(count):
        kind = rng.choice(kinds)
        name = next((n for n in rng.sample(KINDS[kind].names, len(KINDS[kind].names)) if n not in used), None)
        if name is None:
            continue
        used.add(name)
        default = NO_DEFAULT
        if kind == "field_default" or (kind in DEFAULTS and rng.random() < 0.4):
            default = rng.choice(DEFAULTS[kind])
        elif kind == "untyped" and rng.random() < 0.5:
            default = "None"
        params.append(Param(name, kind, default, rng.choice(DESCRIPTIONS)))
    # Python wants the parameters with defaults last.
    return [p for p in params if p.default is NO_DEFAULT] + [p for p in params if p.default is not NO_DEFAULT]


# How often a tool uses each part of its Context; the decorator styles' only (a low-level server
# has no Context object of that kind), but for logging, progress and the lifespan's state.
CONTEXT_USES = {"log": 0.2, "progress": 0.2, "read": 0.15, "request": 0.08, "elicit": 0.05, "sample": 0.04,
                "lifespan": 0.5}
LOWLEVEL_USES = ("log", "progress", "lifespan")


def draw_tool(rng: random.Random, style: str, index: int, taken: set, lifespan: bool) -> Tool:
    noun = rng.choice(WORDS)
    name = f"{rng.choice(VERBS)}_{noun}"
    while name in taken:
        name += f"_{index}"
    taken.add(name)
    lowlevel = style.startswith("lowlevel")
    wire = name.replace("_", "-") if (not lowlevel and rng.random() < 0.15) or (lowlevel and rng.random() < 0.3) \
        else name
    if not lowlevel and rng.random() < 0.03:
        wire = f"Find all {noun}"        # the SDKs accept a name with spaces, with a warning
    params = _pick_params(rng, rng.choice((0, 1, 2, 2, 3, 3, 4)))
    result = rng.choice(list(RESULTS))
    body = rng.choices(("ok", "value_error", "tool_error", "mcp_error", "wrong_result"), (10, 2, 2, 1, 2))[0]
    if body == "wrong_result" and RESULTS[result].wrong is None:
        body = "ok"
    context = tuple(use for use, chance in CONTEXT_USES.items() if rng.random() < chance
                    and (use != "lifespan" or lifespan) and (use in LOWLEVEL_USES or not lowlevel))
    doc = rng.choice(("none", "line", "line", "google", "google", "numpy", "rest"))
    declares_output = rng.random() < 0.5
    if lowlevel and body == "wrong_result" and not (declares_output and RESULTS[result].output):
        body = "ok"
    return Tool(name=name, wire=wire, params=params, doc=doc, summary=rng.choice(SUMMARIES).format(n=noun),
                result=result, body=body, context=context, is_async=bool(context) or rng.random() < 0.4,
                given_description=rng.choice(SUMMARIES).format(n=noun) if rng.random() < 0.15 else "",
                bare=rng.random() < 0.3, context_first=rng.random() < 0.3, declares_output=declares_output)


def draw_resources(rng: random.Random, needs_text: bool) -> list:
    out = []
    if needs_text or rng.random() < 0.6:
        out.append(Resource("app_config", "config://app", "text" if needs_text else rng.choice(("text", "json")),
                            mime=rng.choice(("", "", "text/plain", "application/json")) if not needs_text else "",
                            doc=rng.choice(("", "The application's settings.")), is_async=rng.random() < 0.3))
    if rng.random() < 0.3:
        out.append(Resource("readme", "docs://readme.md", rng.choice(("text", "list")), mime=rng.choice(("", "text/markdown")),
                            doc=rng.choice(("", "The README.\n\nIn Markdown."))))
    if rng.random() < 0.15:
        out.append(Resource("logo", "images://logo.png", "bytes", mime="image/png"))
    if rng.random() < 0.6:
        kind = rng.choice(("str", "str", "int"))
        out.append(Resource("get_note", "notes://{note_id}", rng.choice(("text", "json")), template=True,
                            param="note_id", param_kind=kind, doc=rng.choice(("", "A note by its id.")),
                            failure=rng.choice(("value_error", "resource_error", "text")), is_async=rng.random() < 0.3))
    return out


def draw_prompts(rng: random.Random) -> list:
    out = []
    for index in range(rng.choice((0, 0, 1, 1, 2))):
        params = []
        for name in rng.sample(("code", "language", "topic", "tone", "audience"), rng.choice((1, 2, 2, 3))):
            described = rng.random() < 0.4
            params.append(Param(name, "annotated_prompt" if described else "str",
                                NO_DEFAULT if rng.random() < 0.6 else '"plain"',
                                rng.choice(DESCRIPTIONS)))
        params = [p for p in params if p.default is NO_DEFAULT] + [p for p in params if p.default is not NO_DEFAULT]
        out.append(Prompt(f"{rng.choice(('review', 'explain', 'draft', 'plan'))}_{rng.choice(WORDS)}_{index}", params,
                          rng.choice(("text", "messages")), rng.choice(("none", "line", "google"))))
    return out


def draw(seed: int) -> Server:
    """The server of `seed`: its style is STYLES[seed % 6], all else from random.Random(seed)."""
    rng = random.Random(seed)
    style = STYLES[seed % len(STYLES)]
    lifespan = rng.random() < 0.25
    taken: set = set()
    tools = [draw_tool(rng, style, i, taken, lifespan) for i in range(rng.choice((1, 2, 3, 3, 4)))]
    needs_text = any("read" in t.context for t in tools)
    # A low-level server that imports mcp.server.stdio cannot call its Server "mcp".
    names = ("server", "server", "app") if style.startswith("lowlevel") else ("mcp", "mcp", "server", "app")
    server = Server(seed=seed, style=style, name=f"gen-{seed}", var=rng.choice(names), tools=tools,
                    resources=draw_resources(rng, needs_text), prompts=draw_prompts(rng),
                    instructions=rng.choice(("", "", "Use these tools to manage the data.")),
                    main=rng.choice(("run", "run_stdio", "main_function")), enum_docs=rng.random() < 0.5,
                    lifespan=lifespan)
    if style == "lowlevel1" and rng.random() < 0.1:
        server.decorator_shape = True
    return server


# --------------------------------------------------------------------------
# writing a server in a decorator style (mcp1, mcp2, fastmcp2, fastmcp4)
# --------------------------------------------------------------------------

# What differs between the decorator styles: where the names come from and how the idioms read.
_MCP1 = {"server": ("mcp.server.fastmcp", "FastMCP"), "context": ("mcp.server.fastmcp", "Context"),
         "image": ("mcp.server.fastmcp", "Image"), "errors": "mcp.server.fastmcp.exceptions",
         "types": "mcp.types", "sc": "structuredContent",
         "mcp_error": [("mcp.shared.exceptions", "McpError"), ("mcp.types", "ErrorData"), ("mcp.types", "INVALID_PARAMS")],
         "raise_mcp": "raise McpError(ErrorData(code=INVALID_PARAMS, message={msg}))",
         "messages": [("mcp.server.fastmcp.prompts", "base")], "user": "base.UserMessage({text})",
         "assistant": "base.AssistantMessage({text})", "read": "list(await ctx.read_resource({uri}))[0].content",
         "lifespan": "ctx.request_context.lifespan_context", "elicit": "ctx.elicit({msg}, schema=Confirm)",
         "sample": "(await ctx.session.create_message(messages=[SamplingMessage(role=\"user\", "
                   "content=TextContent(type=\"text\", text={msg}))], max_tokens=50)).content.text"}
# mcp 2.x: the same idioms under new names, its models' fields in snake_case, MCPError(code, message).
_MCP2 = dict(_MCP1, server=("mcp.server.mcpserver", "MCPServer"), context=("mcp.server.mcpserver", "Context"),
             image=("mcp.server.mcpserver", "Image"), errors="mcp.server.mcpserver.exceptions", sc="structured_content",
             mcp_error=[("mcp.shared.exceptions", "MCPError"), ("mcp.types", "INVALID_PARAMS")],
             raise_mcp="raise MCPError(code=INVALID_PARAMS, message={msg})",
             messages=[("mcp.server.mcpserver", "UserMessage"), ("mcp.server.mcpserver", "AssistantMessage")],
             user="UserMessage({text})", assistant="AssistantMessage({text})")
# fastmcp 2.x sits on mcp 1.x (its types and McpError), fastmcp 4.x on mcp 2.x.
_FASTMCP2 = dict(_MCP1, server=("fastmcp", "FastMCP"), context=("fastmcp", "Context"),
                 image=("fastmcp.utilities.types", "Image"), errors="fastmcp.exceptions",
                 messages=[("fastmcp.prompts.prompt", "Message")], user="Message({text})",
                 assistant='Message({text}, role="assistant")', read="(await ctx.read_resource({uri}))[0].content",
                 elicit="ctx.elicit({msg}, response_type=bool)", sample="(await ctx.sample({msg})).text")
# fastmcp 4 has no ctx.sample: its tools sample through the session, as mcp's do.
_FASTMCP4 = dict(_FASTMCP2, sc="structured_content", mcp_error=_MCP2["mcp_error"], raise_mcp=_MCP2["raise_mcp"],
                 messages=[("fastmcp.prompts", "Message")], lifespan="ctx.lifespan_context", sample=_MCP1["sample"],
                 read="(await ctx.read_resource({uri})).contents[0].content")
API = {"mcp1": _MCP1, "mcp2": _MCP2, "fastmcp2": _FASTMCP2, "fastmcp4": _FASTMCP4}
CONFIG_TEXT = "theme=dark\\nlanguage=en"
NOTE_TEXTS = ("Buy milk", "Call Bob about the roof")


class Source:
    """The lines of one generated file and the imports they need (written at the top, sorted)."""

    def __init__(self) -> None:
        self.froms: dict[str, set] = {}
        self.plain: set = set()
        self.helpers: list = []
        self.documented: set = set()
        self.lines: list = []

    def need(self, module: str, name: str | None = None) -> None:
        if name is None:
            self.plain.add(module)
        else:
            self.froms.setdefault(module, set()).add(name)

    def need_helper(self, name: str, documented: bool) -> None:
        if name in self.helpers:
            return
        self.helpers.append(name)
        if documented:
            self.documented.add(name)
        for module, imported in HELPER_IMPORTS[name]:
            self.need(module, imported)

    def scan(self, text: str) -> None:
        """The imports a piece of annotation or expression text needs."""
        for name in ("Optional", "Union", "Literal", "Annotated", "List", "Any"):
            if re.search(rf"\b{name}\b", text):
                self.need("typing", name)
        if "Field(" in text:
            self.need("pydantic", "Field")
        for name in ("datetime", "date", "timezone"):
            if re.search(rf"\b{name}\(|\b{name}\.", text) or (name == "timezone" and "timezone.utc" in text):
                self.need("datetime", name)
        for module, name in (("uuid", "UUID"), ("decimal", "Decimal"), ("pathlib", "Path")):
            if f"{name}(" in text:
                self.need(module, name)
        if "base64." in text:
            self.need("base64")

    def text(self, header: str) -> str:
        out = [f'"""{header}"""', ""]
        stdlib = {"asyncio", "base64", "collections", "contextlib", "dataclasses", "datetime", "decimal", "enum",
                  "json", "pathlib", "typing", "uuid"}
        ours = [f"import {m}" for m in sorted(self.plain) if m.split(".")[0] in stdlib] + \
               [f"from {m} import {', '.join(sorted(self.froms[m]))}" for m in sorted(self.froms)
                if m.split(".")[0] in stdlib]
        theirs = [f"import {m}" for m in sorted(self.plain) if m.split(".")[0] not in stdlib] + \
                 [f"from {m} import {', '.join(sorted(self.froms[m]))}" for m in sorted(self.froms)
                  if m.split(".")[0] not in stdlib]
        out += ours + ([""] if ours and theirs else []) + theirs
        for name in self.helpers:
            doc = f'"""{HELPER_DOCS[name]}"""\n\n    ' if name in self.documented else ""
            out += ["", HELPERS[name].format(doc=doc).rstrip()]
        out += [""]
        return "\n".join(out + self.lines).rstrip() + "\n"


def docstring(summary: str, params: list, style: str, returns: str | None, indent: str = "    ") -> list:
    """A docstring in one of the styles people write: none, line, google, numpy, rest."""
    if style == "none":
        return []
    if style == "line" or not (params or returns):
        return [f'{indent}"""{summary}."""']
    body = [f"{summary}.", ""]
    if style == "google":
        if params:
            body += ["Args:"] + [f"    {p.name}: {p.description}." for p in params] + [""]
        if returns:
            body += ["Returns:", f"    The {returns.lower()}."]
    elif style == "numpy":
        if params:
            body += ["Parameters", "----------"]
            for p in params:
                body += [f"{p.name} : {KINDS[p.kind].annotation.split('[')[0] or 'object'}" if p.kind in KINDS else p.name,
                         f"    {p.description}."]
            body.append("")
        if returns:
            body += ["Returns", "-------", f"{returns}", "    The result."]
    else:
        body += [f":param {p.name}: {p.description}." for p in params]
        if returns:
            body.append(f":returns: The {returns.lower()}.")
    while body and not body[-1]:
        body.pop()
    lines = [f'{indent}"""{body[0]}'] + [f"{indent}{line}" if line else "" for line in body[1:]] + [f'{indent}"""']
    return lines


def _param_source(p: Param, src: Source, documented: bool) -> str:
    kind = KINDS[p.kind]
    for helper in kind.needs:
        src.need_helper(helper, documented)
    annotation = kind.annotation.replace("{d}", p.description)
    text = p.name + (f": {annotation}" if annotation else "")
    if p.default is not NO_DEFAULT:
        default = p.default.replace("{d}", p.description)
        text += (" = " if annotation else "=") + default
    src.scan(text)
    return text


def _summary_line(tool: Tool, raw: bool) -> str:
    parts = []
    for p in tool.params:
        use = (KINDS[p.kind].raw_use if raw else KINDS[p.kind].use).replace("{v}", p.name)
        parts.append(f"{p.name}={{{use}}}")
    text = "; ".join(parts) or "nothing to do"
    return f'summary = f"{tool.wire}: {text}"' if parts else f'summary = "{tool.wire}: {text}"'


def _raise(tool: Tool, api: dict, src: Source) -> str:
    message = 'f"cannot {verb}: nothing matches {{summary}}"'.format(verb=tool.wire)
    if tool.body == "value_error":
        return f"raise ValueError({message})"
    if tool.body == "tool_error":
        src.need(api["errors"], "ToolError")
        return f"raise ToolError({message})"
    for module, name in api["mcp_error"]:
        src.need(module, name)
    return api["raise_mcp"].format(msg=message)


def render_tool(tool: Tool, server: Server, api: dict, src: Source) -> None:
    result = RESULTS[tool.result]
    for helper in result.needs:
        src.need_helper(helper, server.enum_docs)
    params = [_param_source(p, src, server.enum_docs) for p in tool.params]
    if tool.context:
        src.need(*api["context"])
        params.insert(0 if tool.context_first else len([p for p in tool.params if p.default is NO_DEFAULT]),
                      "ctx: Context")
    annotation = result.annotation
    if annotation == "Image":
        src.need(*api["image"])
    if annotation in ("list[TextContent]", "CallToolResult") or tool.result in ("content_list", "call_tool_result"):
        src.need(api["types"], "TextContent")
        if tool.result == "call_tool_result":
            src.need(api["types"], "CallToolResult")
    if tool.result == "image":
        src.need("base64")
    src.scan(annotation or "")
    arguments = {}
    if tool.wire != tool.name:
        arguments["name"] = json.dumps(tool.wire)
    if tool.given_description:
        arguments["description"] = json.dumps(tool.given_description)
    fastmcp = server.style.startswith("fastmcp")
    decorator = f"@{server.var}.tool" + ("" if fastmcp and tool.bare and not arguments else
                                          "(" + ", ".join(f"{k}={v}" for k, v in arguments.items()) + ")")
    lines = ["", "", decorator,
             f"{'async ' if tool.is_async else ''}def {tool.name}({', '.join(params)})"
             + (f" -> {annotation}:" if annotation else ":")]
    lines += docstring(tool.summary, tool.params, tool.doc, annotation if annotation not in (None, "None") else None)
    lines += _context_lines(tool, server, api, src)
    if tool.body in ("value_error", "tool_error", "mcp_error"):
        lines.append("    if summary:")
        lines.append("        " + _raise(tool, api, src))
    value = result.wrong if tool.body == "wrong_result" else result.value.replace("{sc}", api["sc"])
    src.scan(value)
    if tool.result == "none":
        lines.append("    HISTORY.append(summary)")
    else:
        lines.append(f"    return {value}")
    src.lines += lines


def _context_lines(tool: Tool, server: Server, api: dict, src: Source) -> list:
    """The summary line and the tool's uses of its Context around it, in the style's idioms."""
    lines = ["    await ctx.report_progress(1, 2)"] if "progress" in tool.context else []
    lines.append("    " + _summary_line(tool, raw=False))
    if "read" in tool.context:
        lines.append("    config = " + api["read"].format(uri='"config://app"'))
        lines.append("    summary += f\"; config={config.splitlines()[0]}\"")
    if "lifespan" in tool.context:
        lines.append(f"    summary += f\"; prefix={{{api['lifespan']}['prefix']}}\"")
    if "request" in tool.context:
        lines.append('    summary += f"; request={ctx.request_id}"')
    if "elicit" in tool.context:
        if "Confirm" in api["elicit"]:
            src.need_helper("Confirm", server.enum_docs)
        lines.append("    answer = await " + api["elicit"].format(msg='"Go ahead?"'))
        lines.append('    summary += f"; answer={answer.action}"')
    if "sample" in tool.context:
        if "SamplingMessage" in api["sample"]:
            src.need(api["types"], "SamplingMessage")
            src.need(api["types"], "TextContent")
        lines.append("    reply = " + api["sample"].format(msg="summary"))
        lines.append('    summary += f"; reply={reply}"')
    if "log" in tool.context:
        lines.append(f'    await ctx.info(f"{tool.wire} made {{len(summary)}} characters")')
    if "progress" in tool.context:
        lines.append("    await ctx.report_progress(2, 2)")
    return lines


def render_resource(resource: Resource, server: Server, api: dict, src: Source) -> None:
    arguments = [json.dumps(resource.uri)]
    if resource.mime:
        arguments.append(f"mime_type={json.dumps(resource.mime)}")
    param = ""
    if resource.template:
        key = "int" if resource.param_kind == "int" else "str"
        param = f"{resource.param}: {key}"
    returns = {"text": "str", "json": "dict", "bytes": "bytes", "list": "list[str]"}[resource.returns]
    lines = ["", "", f"@{server.var}.resource({', '.join(arguments)})",
             f"{'async ' if resource.is_async else ''}def {resource.name}({param}) -> {returns}:"]
    if resource.doc:
        doc = resource.doc.replace("\n\n", "\n\n    ")
        lines.append(f'    """{doc}"""')
    if resource.template:
        lines.append(f"    if {resource.param} not in NOTES:")
        message = f'f"no note {{{resource.param}}}"'
        if resource.failure == "value_error":
            lines.append(f"        raise ValueError({message})")
        elif resource.failure == "resource_error":
            src.need(api["errors"], "ResourceError")
            lines.append(f"        raise ResourceError({message})")
        else:
            lines.append(f"        return {message}" if resource.returns == "text" else
                         f'        return {{"error": {message}}}')
        lines.append(f"    return NOTES[{resource.param}]" if resource.returns == "text" else
                     f'    return {{"id": {resource.param}, "text": NOTES[{resource.param}]}}')
    elif resource.returns == "text":
        lines.append(f'    return "{CONFIG_TEXT}"')
    elif resource.returns == "json":
        lines.append('    return {"theme": "dark", "retries": 3, "features": ["search", "export"]}')
    elif resource.returns == "bytes":
        src.need("base64")
        lines.append("    return base64.b64decode(TINY_PNG)")
    else:
        lines.append('    return ["# Read me", "Install it, then run it."]')
    src.lines += lines


def render_prompt(prompt: Prompt, server: Server, api: dict, src: Source) -> None:
    params = []
    for p in prompt.params:
        if p.kind == "annotated_prompt":
            src.need("typing", "Annotated")
            src.need("pydantic", "Field")
            text = f'{p.name}: Annotated[str, Field(description="{p.description}")]'
        else:
            text = f"{p.name}: str"
        params.append(text + ("" if p.default is NO_DEFAULT else f" = {p.default}"))
    named = ", ".join(f"{p.name}={{{p.name}}}" for p in prompt.params)
    fastmcp = server.style.startswith("fastmcp")
    lines = ["", "", f"@{server.var}.prompt" + ("" if fastmcp and len(prompt.name) % 2 else "()"),
             f"def {prompt.name}({', '.join(params)}) -> {'str' if prompt.returns == 'text' else 'list'}:"]
    lines += docstring(f"Ask for help with {prompt.name.split('_')[1]}", prompt.params, prompt.doc, None)
    if prompt.returns == "text":
        lines.append(f'    return f"Please help with: {named}"')
    else:
        for module, name in api["messages"]:
            src.need(module, name)
        lines.append("    return [")
        lines.append("        " + api["user"].format(text=f'f"Please help with: {named}"') + ",")
        lines.append("        " + api["assistant"].format(text='"Sure. What should I look at first?"') + ",")
        lines.append("    ]")
    src.lines += lines


def render_decorated(server: Server) -> str:
    # The tutorials' shape: mcp 1.x's decorators on a low-level Server, run by stdio_server().
    shape = server.style == "lowlevel1"
    api = dict(API["mcp1"], server=("mcp.server", "Server")) if shape else API[server.style]
    src = Source()
    src.need(*api["server"])
    cls = api["server"][1]
    if any(r.template for r in server.resources):
        keys = "1, 2" if any(r.template and r.param_kind == "int" for r in server.resources) else '"1", "2"'
        first, second = keys.split(", ")
        src.lines.append(f"NOTES = {{{first}: {json.dumps(NOTE_TEXTS[0])}, {second}: {json.dumps(NOTE_TEXTS[1])}}}")
    if any(t.result == "none" for t in server.tools):
        src.lines.append("HISTORY: list[str] = []")
    if any(t.result == "image" for t in server.tools) or any(r.returns == "bytes" for r in server.resources):
        src.lines.append(f'TINY_PNG = "{TINY_PNG}"')
    arguments = [json.dumps(server.name)] + ([f"instructions={json.dumps(server.instructions)}"]
                                             if server.instructions else [])
    if server.lifespan:
        arguments.append("lifespan=app_lifespan")
        _lifespan(src, cls)
    src.lines += ["", f"{server.var} = {cls}({', '.join(arguments)})"]
    for tool in server.tools:
        render_tool(tool, server, api, src)
    for resource in server.resources:
        render_resource(resource, server, api, src)
    for prompt in server.prompts:
        render_prompt(prompt, server, api, src)
    if shape:
        src.need("asyncio")
        src.need("mcp.server.stdio", "stdio_server")
        src.lines += ["", "", "async def main() -> None:", "    async with stdio_server() as streams:",
                      f"        await {server.var}.run(streams[0], streams[1], {server.var}.create_initialization_options())",
                      "", "", 'if __name__ == "__main__":', "    asyncio.run(main())"]
    else:
        src.lines += ["", ""] + _main_lines(server.var, server.main)
    return src.text(f"Generated server (seed {server.seed}, style {server.style}): sdk_generate.py --show {server.seed}.")


def _lifespan(src: Source, cls: str) -> None:
    """A lifespan whose state (a dict) the tools read from their context."""
    src.need("contextlib", "asynccontextmanager")
    src.need("collections.abc", "AsyncIterator")
    src.lines += ["", "", "@asynccontextmanager", f"async def app_lifespan(server: {cls}) -> AsyncIterator[dict]:",
                  '    yield {"prefix": "db"}']


def _main_lines(var: str, how: str) -> list:
    if how == "main_function":
        return ["def main() -> None:", f"    {var}.run()", "", "", 'if __name__ == "__main__":', "    main()"]
    call = f'{var}.run(transport="stdio")' if how == "run_stdio" else f"{var}.run()"
    return ['if __name__ == "__main__":', f"    {call}"]


# --------------------------------------------------------------------------
# writing a server with the low-level Server (lowlevel1: mcp 1.x, lowlevel2: mcp 2.x)
# --------------------------------------------------------------------------

# The two forms' spellings: 1.x fields are camelCase, 2.x's snake_case; 1.x handlers are
# decorated and take the request's parts, 2.x's are passed to Server(...) and take (ctx, params).
LOWLEVEL = {
    "lowlevel1": {"input": "inputSchema", "output": "outputSchema", "mime": "mimeType", "sc": "structuredContent",
                  "is_error": "isError", "uri_template": "uriTemplate", "templates": "resourceTemplates"},
    "lowlevel2": {"input": "input_schema", "output": "output_schema", "mime": "mime_type", "sc": "structured_content",
                  "is_error": "is_error", "uri_template": "uri_template", "templates": "resource_templates"},
}


def _raw_default(p: Param) -> str:
    """A default's low-level (JSON) value, as Python source."""
    if p.kind == "enum":
        return '"red"'
    match = re.match(r"Field\((?:default=)?([^,)]+)", p.default)
    return match.group(1) if match else p.default


def _schema(tool: Tool) -> dict:
    properties = {}
    for p in tool.params:
        prop = dict(KINDS[p.kind].schema)
        if p.description and len(p.name) % 3:
            prop["description"] = p.description
        properties[p.name] = prop
    schema = {"type": "object", "properties": properties}
    required = [p.name for p in tool.params if p.default is NO_DEFAULT]
    if required:
        schema["required"] = required
    return schema


def _tool_listing(tool: Tool, names: dict) -> list:
    lines = ["        types.Tool(", f"            name={json.dumps(tool.wire)},"]
    if tool.doc != "none" or tool.given_description:
        lines.append(f"            description={json.dumps(tool.given_description or tool.summary + '.')},")
    lines.append(f"            {names['input']}={_pyrepr(_schema(tool))},")
    result = RESULTS[tool.result]
    if tool.declares_output and result.output:
        lines.append(f"            {names['output']}={_pyrepr(result.output)},")
    lines.append("        ),")
    return lines


def _pyrepr(value) -> str:
    """JSON as Python source (true -> True ...)."""
    return repr(json.loads(json.dumps(value)))


def _lowlevel_tool_body(tool: Tool, server: Server, names: dict, src: Source) -> list:
    two = server.style == "lowlevel2"
    lines = []
    for p in tool.params:
        if p.default is NO_DEFAULT:
            lines.append(f'    {p.name} = arguments["{p.name}"]')
        else:
            lines.append(f'    {p.name} = arguments.get("{p.name}", {_raw_default(p)})')
    if tool.context:
        if not two:
            lines.append(f"    ctx = {server.var}.request_context")
        token = '(ctx.meta or {}).get("progress_token")' if two else "ctx.meta.progressToken if ctx.meta else None"
        if "progress" in tool.context:
            lines.append(f"    token = {token}")
            lines.append("    if token is not None:")
            lines.append("        await ctx.session.send_progress_notification(token, 1, 2, related_request_id=ctx.request_id)")
    lines.append("    " + _summary_line(tool, raw=True))
    if "lifespan" in tool.context:
        lines.append("    summary += f\"; prefix={ctx.lifespan_context['prefix']}\"")
    if "log" in tool.context:
        lines.append(f'    await ctx.session.send_log_message(level="info", data=f"{tool.wire} made {{len(summary)}} '
                     f'characters", logger="{server.name}", related_request_id=ctx.request_id)')
    if "progress" in tool.context:
        lines.append("    if token is not None:")
        lines.append("        await ctx.session.send_progress_notification(token, 2, 2, related_request_id=ctx.request_id)")
    message = f'f"cannot {tool.wire}: nothing matches {{summary}}"'
    if tool.body == "value_error":
        lines += ["    if summary:", f"        raise ValueError({message})"]
    elif tool.body == "tool_error":
        lines += ["    if summary:", f'        return types.CallToolResult(content=[types.TextContent(type="text", '
                  f'text={message})], {names["is_error"]}=True)']
    elif tool.body == "mcp_error":
        if two:
            src.need("mcp.shared.exceptions", "MCPError")
            lines += ["    if summary:", f"        raise MCPError(code=types.INVALID_PARAMS, message={message})"]
        else:
            src.need("mcp.shared.exceptions", "McpError")
            lines += ["    if summary:", f"        raise McpError(types.ErrorData(code=types.INVALID_PARAMS, message={message}))"]
    lines += _lowlevel_return(tool, server, names, src)
    return lines


def _lowlevel_return(tool: Tool, server: Server, names: dict, src: Source) -> list:
    two = server.style == "lowlevel2"
    result = RESULTS[tool.result]
    text = 'types.TextContent(type="text", text={})'
    if tool.body == "wrong_result":
        return ['    structured = {"summary": 5}', *(_structured_return(two, names, src))]
    if result.lowlevel == "structured":
        src.scan(result.raw or result.value)
        return [f"    structured = {result.raw or result.value}", *(_structured_return(two, names, src))]
    if result.lowlevel == "text":
        content = "[" + text.format(f"str({result.value})") + "]"
    elif result.lowlevel == "empty":
        content = "[]"
    elif result.lowlevel == "texts":
        items = {"list_str": "summary.split('; ')", "content_list": "[summary]"}.get(tool.result, "[]")
        content = f"[{text.format('item')} for item in {items}]"
    elif result.lowlevel == "image":
        content = f'[types.ImageContent(type="image", data=TINY_PNG, {names["mime"]}="image/png")]'
    else:
        return [f"    return types.CallToolResult(content=[{text.format('summary')}], "
                f'{names["sc"]}={{"summary": summary}})']
    return [f"    return types.CallToolResult(content={content})" if two else f"    return {content}"]


def _structured_return(two: bool, names: dict, src: Source) -> list:
    if not two:
        return ["    return structured"]
    src.need("json")
    return ['    return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(structured))], '
            f'{names["sc"]}=structured)']


def render_lowlevel_tools(server: Server, names: dict, src: Source) -> list:
    """The tool functions, then the list and call handlers; returns the Server(...) keywords (2.x)."""
    two = server.style == "lowlevel2"
    ctx = "ctx: ServerRequestContext, " if two else ""
    for tool in server.tools:
        src.lines += ["", "", f"async def {tool.name}({ctx}arguments: dict) -> "
                      + ("types.CallToolResult:" if two else "Any:")]
        src.need("typing", "Any") if not two else None
        src.lines += docstring(tool.summary, tool.params, tool.doc if tool.doc != "none" else "none", None)
        src.lines += _lowlevel_tool_body(tool, server, names, src)
    if not server.tools:
        return []
    listing = ["    return " + ("types.ListToolsResult(tools=[" if two else "[")]
    for tool in server.tools:
        listing += _tool_listing(tool, names)
    listing.append("    ])" if two else "    ]")
    dispatch = []
    for tool in server.tools:
        dispatch += [f'    if name == "{tool.wire}":', f"        return await {tool.name}({'ctx, ' if two else ''}arguments)"]
    dispatch.append('    raise ValueError(f"Unknown tool: {name}")')
    if two:
        src.lines += ["", "", "async def handle_list_tools(ctx: ServerRequestContext, params: types.PaginatedRequestParams"
                      " | None) -> types.ListToolsResult:"] + listing
        src.lines += ["", "", "async def handle_call_tool(ctx: ServerRequestContext, params: types.CallToolRequestParams)"
                      " -> types.CallToolResult:", "    name, arguments = params.name, params.arguments or {}"] + dispatch
        return ["on_list_tools=handle_list_tools", "on_call_tool=handle_call_tool"]
    src.lines += ["", "", f"@{server.var}.list_tools()", "async def list_tools() -> list[types.Tool]:"] + listing
    src.lines += ["", "", f"@{server.var}.call_tool()", "async def call_tool(name: str, arguments: dict) -> Any:"] + dispatch
    return []


def _resource_value(resource: Resource) -> str:
    return {"text": f'"{CONFIG_TEXT}"', "json": 'json.dumps({"theme": "dark", "retries": 3})',
            "bytes": "base64.b64decode(TINY_PNG)", "list": '"# Read me\\nInstall it, then run it."'}[resource.returns]


def render_lowlevel_resources(server: Server, names: dict, src: Source) -> list:
    two = server.style == "lowlevel2"
    statics = [r for r in server.resources if not r.template]
    templates = [r for r in server.resources if r.template]
    keywords = []
    if not server.resources:
        return keywords
    if any(r.returns == "json" for r in server.resources):
        src.need("json")
    if any(r.returns == "bytes" for r in server.resources):
        src.need("base64")
    ctx = "ctx: ServerRequestContext, params: types.PaginatedRequestParams | None"
    entries = []
    for r in statics:
        mime = r.mime or ("image/png" if r.returns == "bytes" else "")
        entries.append(f'        types.Resource(uri="{r.uri}", name="{r.name}"'
                       + (f", description={json.dumps(r.doc)}" if r.doc else "")
                       + (f', {names["mime"]}="{mime}"' if mime else "") + "),")
    if two:
        src.lines += ["", "", f"async def handle_list_resources({ctx}) -> types.ListResourcesResult:",
                      "    return types.ListResourcesResult(resources=["] + entries + ["    ])"]
        keywords.append("on_list_resources=handle_list_resources")
    else:
        src.lines += ["", "", f"@{server.var}.list_resources()", "async def list_resources() -> list[types.Resource]:",
                      "    return ["] + entries + ["    ]"]
    if templates:
        entries = [f'        types.ResourceTemplate({names["uri_template"]}="{r.uri}", name="{r.name}"'
                   + (f", description={json.dumps(r.doc)}" if r.doc else "") + "),"
                   for r in templates]
        if two:
            src.lines += ["", "", f"async def handle_list_resource_templates({ctx}) -> types.ListResourceTemplatesResult:",
                          f"    return types.ListResourceTemplatesResult({names['templates']}=["]
            src.lines += entries + ["    ])"]
            keywords.append("on_list_resource_templates=handle_list_resource_templates")
        else:
            src.lines += ["", "", f"@{server.var}.list_resource_templates()",
                          "async def list_resource_templates() -> list[types.ResourceTemplate]:", "    return ["]
            src.lines += entries + ["    ]"]
    keywords.append("on_read_resource=handle_read_resource")
    src.lines += _lowlevel_read(server, names, src, statics, templates)
    return keywords if two else []


def _lowlevel_read(server: Server, names: dict, src: Source, statics: list, templates: list) -> list:
    two = server.style == "lowlevel2"
    if two:
        lines = ["", "", "async def handle_read_resource(ctx: ServerRequestContext, params: types.ReadResourceRequestParams)"
                 " -> types.ReadResourceResult:", "    uri = str(params.uri)"]
    else:
        src.need("mcp.server.lowlevel.helper_types", "ReadResourceContents")
        src.need("pydantic", "AnyUrl")
        lines = ["", "", f"@{server.var}.read_resource()",
                 "async def read_resource(address: AnyUrl) -> Any:", "    uri = str(address)"]
        src.need("typing", "Any")

    def answer(value: str, mime: str) -> str:
        if two:
            blob = "bytes" in value or "b64decode" in value
            field = f'blob=base64.b64encode({value}).decode()' if blob else f"text={value}"
            return (f"        return types.ReadResourceResult(contents=[types.{'Blob' if blob else 'Text'}ResourceContents("
                    f"uri=uri, {field}" + (f', {names["mime"]}="{mime}"' if mime else "") + ")])")
        return f"        return [ReadResourceContents(content={value}, mime_type=" + (f'"{mime}"' if mime else "None") + ")]"
    for r in statics:
        mime = r.mime or ("image/png" if r.returns == "bytes" else "application/json" if r.returns == "json" else "")
        lines += [f'    if uri == "{r.uri}":', answer(_resource_value(r), mime)]
    for r in templates:
        prefix = r.uri.split("{")[0]
        convert = "int(uri[len(prefix):])" if r.param_kind == "int" else "uri[len(prefix):]"
        lines += [f'    prefix = "{prefix}"', "    if uri.startswith(prefix):", f"        {r.param} = {convert}",
                  f"        if {r.param} not in NOTES:", f'            raise ValueError(f"no note {{{r.param}}}")']
        value = f"NOTES[{r.param}]" if r.returns == "text" else f'json.dumps({{"id": {r.param}, "text": NOTES[{r.param}]}})'
        lines.append(answer(value, "" if r.returns == "text" else "application/json"))
    lines.append('    raise ValueError(f"Unknown resource: {uri}")')
    return lines


def render_lowlevel_prompts(server: Server, names: dict, src: Source) -> list:
    two = server.style == "lowlevel2"
    if not server.prompts:
        return []
    entries = []
    for prompt in server.prompts:
        arguments = ", ".join(f'types.PromptArgument(name="{p.name}"'
                              + (f', description="{p.description}"' if p.kind == "annotated_prompt" else "")
                              + f", required={p.default is NO_DEFAULT})" for p in prompt.params)
        entries.append(f'        types.Prompt(name="{prompt.name}", description="Ask for help with '
                       f'{prompt.name.split("_")[1]}.", arguments=[{arguments}]),')
    gets = []
    for prompt in server.prompts:
        gets.append(f'    if name == "{prompt.name}":')
        for p in prompt.params:
            if p.default is NO_DEFAULT:
                gets += [f'        if "{p.name}" not in arguments:',
                         f'            raise ValueError("Missing required argument: {p.name}")']
            gets.append(f'        {p.name} = arguments.get("{p.name}", {p.default if p.default is not NO_DEFAULT else None})')
        named = ", ".join(f"{p.name}={{{p.name}}}" for p in prompt.params)
        gets += ["        return types.GetPromptResult(", f'            description="Help with {prompt.name}",',
                 "            messages=[types.PromptMessage(role=\"user\", content=types.TextContent(type=\"text\", "
                 f'text=f"Please help with: {named}"))],', "        )"]
    gets.append('    raise ValueError(f"Unknown prompt: {name}")')
    if two:
        src.lines += ["", "", "async def handle_list_prompts(ctx: ServerRequestContext, params: types.PaginatedRequestParams"
                      " | None) -> types.ListPromptsResult:", "    return types.ListPromptsResult(prompts=["]
        src.lines += entries + ["    ])"]
        src.lines += ["", "", "async def handle_get_prompt(ctx: ServerRequestContext, params: types.GetPromptRequestParams)"
                      " -> types.GetPromptResult:", "    name, arguments = params.name, params.arguments or {}"] + gets
        return ["on_list_prompts=handle_list_prompts", "on_get_prompt=handle_get_prompt"]
    src.lines += ["", "", f"@{server.var}.list_prompts()", "async def list_prompts() -> list[types.Prompt]:", "    return ["]
    src.lines += entries + ["    ]"]
    src.lines += ["", "", f"@{server.var}.get_prompt()",
                  "async def get_prompt(name: str, arguments: dict[str, str] | None) -> types.GetPromptResult:",
                  "    arguments = arguments or {}"] + gets
    return []


def render_lowlevel(server: Server) -> str:
    if server.decorator_shape:
        return render_decorated(server)
    two = server.style == "lowlevel2"
    names = LOWLEVEL[server.style]
    src = Source()
    src.need("mcp.types as types")
    constructor = [json.dumps(server.name)] + ([f"instructions={json.dumps(server.instructions)}"]
                                               if server.instructions else [])
    if two:
        src.need("mcp.server", "Server")
        src.need("mcp.server", "ServerRequestContext")
        src.need("mcp.server.stdio", "stdio_server")
    else:
        src.need("mcp.server.lowlevel", "Server")
        src.need("mcp.server.stdio")
        if server.main == "run_stdio":
            src.need("mcp.server.lowlevel", "NotificationOptions")
            src.need("mcp.server.models", "InitializationOptions")
        if server.lifespan:
            constructor.append("lifespan=app_lifespan")
            _lifespan(src, "Server")
        src.lines += ["", f"{server.var} = Server({', '.join(constructor)})"]
    if any(r.template for r in server.resources):
        keys = "1, 2" if any(r.template and r.param_kind == "int" for r in server.resources) else '"1", "2"'
        first, second = keys.split(", ")
        src.lines.insert(0, f"NOTES = {{{first}: {json.dumps(NOTE_TEXTS[0])}, {second}: {json.dumps(NOTE_TEXTS[1])}}}")
    if any(t.result == "image" for t in server.tools) or any(r.returns == "bytes" for r in server.resources):
        src.lines.insert(0, f'TINY_PNG = "{TINY_PNG}"')
    keywords = render_lowlevel_tools(server, names, src)
    keywords += render_lowlevel_resources(server, names, src)
    keywords += render_lowlevel_prompts(server, names, src)
    if two:
        if server.lifespan:
            constructor.append("lifespan=app_lifespan")
            _lifespan(src, "Server")
        src.lines += ["", "", f"{server.var} = Server(", *[f"    {k}," for k in constructor + keywords], ")"]
    src.lines += ["", ""] + _lowlevel_main(server, src)
    return src.text(f"Generated server (seed {server.seed}, style {server.style}): sdk_generate.py --show {server.seed}.")


def _lowlevel_main(server: Server, src: Source) -> list:
    two = server.style == "lowlevel2"
    var = server.var
    if two:
        streams = ["    async with stdio_server() as (read_stream, write_stream):"]
    else:
        streams = ["    async with mcp.server.stdio.stdio_server() as (read_stream, write_stream):"]
    if not two and server.main == "run_stdio":
        options = (f'InitializationOptions(server_name="{server.name}", server_version="0.1.0", '
                   f"capabilities={var}.get_capabilities(notification_options=NotificationOptions(), "
                   "experimental_capabilities={}))")
    else:
        options = f"{var}.create_initialization_options()"
    lines = ["async def main() -> None:", *streams, f"        await {var}.run(read_stream, write_stream, {options})",
             "", ""]
    if server.main == "main_function":
        src.need("anyio")
        return lines + ['if __name__ == "__main__":', "    anyio.run(main)"]
    src.need("asyncio")
    return lines + ['if __name__ == "__main__":', "    asyncio.run(main())"]


def render(server: Server) -> str:
    """The server's source in its style."""
    if server.style.startswith("lowlevel"):
        return render_lowlevel(server)
    return render_decorated(server)


def source_for(server: Server, reference: str) -> str:
    """The source a reference SDK runs: the server itself, but a fastmcp server runs under the
    other pinned fastmcp in that version's idioms (fastmcp 4 has no fastmcp.prompts.prompt, no
    ctx.sample; its ctx.read_resource answers a result, not a list): the same tools, resources
    and prompts, written as a fastmcp 4 (or 2) user writes them. Under serve it runs as written."""
    if server.style.startswith("fastmcp") and reference.startswith("fastmcp") and reference != server.style:
        return render(dataclasses.replace(server, style=reference))
    return render(server)


# --------------------------------------------------------------------------
# the calls a server gets: every tool with valid and invalid arguments, every read and prompt
# --------------------------------------------------------------------------

def _arguments(tool: Tool, optional: bool) -> dict:
    return {p.name: KINDS[p.kind].valid for p in tool.params if optional or p.default is NO_DEFAULT}


def cases_for(server: Server) -> list:
    """[(case, label)]: the case as sdk_diff.run_case takes it, and what it exercises, "KIND
    VARIANT [TOOL]" (for the classes of difference). Labels starting "invalid" are the calls
    with invalid arguments."""
    out = []
    for tool in server.tools:
        out.append((["tool", tool.wire, _arguments(tool, True)], f"tool valid {tool.wire}"))
        if any(p.default is not NO_DEFAULT for p in tool.params):
            out.append((["tool", tool.wire, _arguments(tool, False)], f"tool defaults {tool.wire}"))
        if any(p.default is NO_DEFAULT for p in tool.params):
            out.append((["tool", tool.wire, {}], f"invalid missing-argument {tool.wire}"))
        wrong = next((p for p in tool.params if KINDS[p.kind].invalid is not None), None)
        if wrong is not None:
            out.append((["tool", tool.wire, dict(_arguments(tool, False), **{wrong.name: KINDS[wrong.kind].invalid})],
                        f"invalid wrong-{wrong.kind} {tool.wire}"))
    out.append((["tool", "no_such_tool", {}], "tool unknown"))
    for resource in server.resources:
        async_ = " async" if resource.is_async else ""
        if resource.template:
            out.append((["resource", "notes://1"], f"template returning {resource.returns}{async_}"))
            out.append((["resource", "notes://99"], f"template failing with {resource.failure}{async_}"))
        else:
            out.append((["resource", resource.uri], f"resource returning {resource.returns}"
                         f"{' with a mime_type' if resource.mime else ''}{async_}"))
    out.append((["resource", "missing://nothing"], "resource unknown"))
    for prompt in server.prompts:
        arguments = {p.name: "abc" for p in prompt.params}
        out.append((["prompt", prompt.name, arguments], f"prompt returning {prompt.returns}"))
        if any(p.default is NO_DEFAULT for p in prompt.params):
            out.append((["prompt", prompt.name, {}], "prompt missing-argument"))
    out.append((["prompt", "no_such_prompt", {}], "prompt unknown"))
    return out


# --------------------------------------------------------------------------
# running: each server under its SDK and under serve (sdk_corpus.py's harness)
# --------------------------------------------------------------------------

LISTINGS = ("initialize", "tools/list", "resources/list", "resources/templates/list", "prompts/list")


def answer_key(field: str, keys) -> str:
    """The answer a difference's field lies in ("/03 resource notes://1 {}/contents[0]/text" ->
    "03 resource notes://1 {}"): the longest of `keys` that starts the field, else its first part."""
    inside = field[1:]
    found = [k for k in (*keys, *LISTINGS) if inside == k or inside.startswith(k + "/")]
    return max(found, key=len) if found else inside.split("/")[0]


class Harness:
    """The pinned interpreters, the shared recording and comparing code, and the run's settings."""

    def __init__(self, args) -> None:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import deliberate
        import sdk_corpus
        import sdk_diff
        self.corpus, self.diff = sdk_corpus, sdk_diff
        self.sdks = dict(item.split("=", 1) for item in args.sdk)
        self.mini = args.mini_python
        self.minimcp = str(Path(args.repo).resolve() / "minimcp.py")
        # `python3 minimcp.py serve FILE`, but from minimcp's cached bytecode: a script is compiled
        # at every start (13k lines, for each of the servers), a module once.
        self.serve = [self.mini, "-c", "import runpy, sys; sys.path.insert(0, %r); "
                      "runpy.run_module('minimcp', run_name='__main__', alter_sys=True)"
                      % str(Path(args.repo).resolve()), "serve"]
        self.rules = deliberate.serve_scopes(Path(args.readme), sdk_diff.RULES)
        self.work = Path(args.work)
        # A fixed hash seed: the order of a set in a message is the same in every run.
        self.env = {k: v for k, v in os.environ.items() if k.startswith(("LANG", "LC_", "PATH", "TZ"))}
        self.env.update(PYTHONUNBUFFERED="1", NO_COLOR="1", PYTHONHASHSEED="0")

    def key(self, index: int, case: list) -> str:
        """The recording's key of a case (sdk_diff.run_case's)."""
        return self.diff.run_case(None, index, case)[0]

    def record(self, command: list, cwd: Path, file: str, source: str, cases: list) -> tuple:
        """(answers, failure text) of one run of the server `source`, written to cwd/file."""
        env = dict(self.env, HOME=str(cwd / "home"), TMPDIR=str(cwd))
        server = {"name": file, "files": {file: source}, "notifications": True}
        out, _, failure = self.corpus.run_one(command, cwd, env, server, cwd.parent / f"{cwd.name}.stderr", cases)
        return out, failure

    def compare(self, real: dict, mini: dict, invalid: set, dialect: str) -> tuple:
        """(differences, rows used): the answers to calls with invalid arguments may use every row
        that applies under serve, the other answers only the rows that apply to all."""
        real, mini = _schema_unquoted(real), _schema_unquoted(mini)
        everywhere = [row for row, scope in self.rules.items() if scope == "all"]
        differ = self.corpus.answer_differences
        outside, used = self.diff.compare(real, mini, everywhere, dialect, differ)
        inside, used_inside = self.diff.compare(real, mini, list(self.rules), dialect, differ)
        at_invalid = [d for d in inside if answer_key(d["field"], invalid) in invalid]
        if len(at_invalid) < len([d for d in outside if answer_key(d["field"], invalid) in invalid]):
            used += [row for row in used_inside if row not in used]
        return [d for d in outside if answer_key(d["field"], invalid) not in invalid] + at_invalid, used


def _schema_unquoted(answers: dict) -> dict:
    """The answers, with the schema that the client's refusal of a result quotes left out
    ("Invalid structured content ...: 'text' is a required property\n\nFailed validating
    'required' in schema:\n    {...}\n\nOn instance: ..."). jsonschema prints that schema with
    its keys in the order they came on the wire, and mcp 2.3.0 writes an outputSchema's keys in
    its revision's model order ("properties", "required", "type"), minimcp in the order the
    server wrote them: the same JSON object, compared field by field in tools/list."""
    quoted = re.compile(r"( in schema[^:]*:\n).*?(\n\nOn instance:|$)", re.S)
    unquoted = {}
    for key, answer in answers.items():
        if isinstance(answer, dict) and isinstance(answer.get("client_error"), str):
            answer = dict(answer, client_error=quoted.sub(r"\1    (the listed schema)\2", answer["client_error"]))
        unquoted[key] = answer
    return unquoted


def last_word(stderr: Path, failure: str) -> str:
    """What a server that did not start said last: the exception ending its traceback on stderr."""
    lines = stderr.read_text(errors="replace").splitlines() if stderr.exists() else []
    said = [line.strip() for line in lines if re.match(r"^[A-Za-z_][\w.]*: ", line.strip())
            and not line.strip().startswith(("File ", "Traceback"))]
    return (said[-1] if said else failure.splitlines()[0] if failure else "?")[:300]


def check_seed(seed: int, harness: Harness) -> dict:
    """Run one seed's server under its SDK (a fastmcp one under 4.2.3 first, then its own pin if
    that differs or refuses) and under serve."""
    spec = draw(seed)
    source = render(spec)
    pairs = cases_for(spec)
    cases = [case for case, _ in pairs]
    labels = {harness.key(i, case): label for i, (case, label) in enumerate(pairs)}
    invalid = {key for key, label in labels.items() if label.startswith("invalid")}
    file = f"gen_{seed}.py"
    base = harness.work / f"seed-{seed}"
    outcome = {"seed": seed, "style": spec.style, "file": file, "labels": labels, "cases": cases}
    dialect = "fastmcp" if spec.style.startswith("fastmcp") else "mcp2" if spec.style.endswith("2") else "mcp1"
    mini = None
    tried = []
    for reference in REFERENCES[spec.style]:
        real, failure = harness.record([harness.sdks[reference], file], base / reference, file,
                                       source_for(spec, reference), cases)
        if "initialize" not in real:
            tried.append({"reference": reference, "refused": failure or "no answer to initialize"})
            if reference == OWN[spec.style]:
                break          # its own SDK refuses it: skipped, whatever the other said
            continue
        if mini is None:
            mini, mini_failure = harness.record([*harness.serve, file], base / "mini", file,
                                                source, cases)
            outcome["mini_failure"] = mini_failure
        differences, used = harness.compare(real, mini, invalid, dialect)
        if "initialize" not in mini:
            differences.insert(0, {"field": "/initialize", "real": "started", "minimcp": None, "only": "real",
                                   "text": f"serve did not start: {last_word(base / 'mini.stderr', mini_failure)}"})
        tried.append({"reference": reference, "differences": differences, "used": used, "real_failure": failure,
                      "real": real})
        if not differences:
            break
    outcome["tried"] = tried
    answered = [t for t in tried if "differences" in t]
    own_refused = [t for t in tried if t["reference"] == OWN[spec.style] and "refused" in t]
    if not answered or own_refused:
        outcome["status"] = "skip"
        outcome["why"] = (own_refused or tried)[0].get("refused", "")
    else:
        best = min(answered, key=lambda t: len(t["differences"]))
        outcome.update(status="pass" if not best["differences"] else "fail", reference=best["reference"],
                       differences=best["differences"], used=best["used"],
                       answers={"real": best["real"], "mini": mini})
    for attempt in tried:
        attempt.pop("real", None)
    return outcome


# --------------------------------------------------------------------------
# reporting: each difference with a reproduction, then the classes of difference
# --------------------------------------------------------------------------

def reproduction(outcome: dict, difference: dict) -> list:
    """The commands that show one difference: the file, then the call under the SDK and under serve."""
    key = answer_key(difference["field"], outcome["labels"])
    index = int(key[:2]) if key[:2].isdigit() else None
    file = outcome["file"]
    reference = outcome.get("reference") or OWN[outcome["style"]]
    if index is None:
        ask = ["inspect", "--json"]
    else:
        kind, name, *rest = outcome["cases"][index]
        arguments = json.dumps(rest[0] if rest else {})
        ask = {"tool": ["call", name, arguments], "resource": ["read", name],
               "prompt": ["prompt", name] + [f"{k}={v}" for k, v in (rest[0] if rest else {}).items()]}[kind]
    shown = " ".join(_quote(a) for a in ask)
    as_written = reference.startswith("fastmcp") and reference != outcome["style"]
    reference_file = f"ref_{outcome['seed']}.py" if as_written else file
    return [f"python3 tests/interop/sdk_generate.py --show {outcome['seed']} > {file}"]  + (
            [f"python3 tests/interop/sdk_generate.py --show {outcome['seed']} --as {reference} > {reference_file}"
             "   # the same server in that fastmcp's idioms"] if as_written else []) + [
            f"python3 -m venv sdk && sdk/bin/pip install {PINS[reference]}   # the SDK it runs under",
            f"PYTHONHASHSEED=0 python3 minimcp.py {shown} -- sdk/bin/python {reference_file}",
            "python3 -m venv mini && mini/bin/pip install pydantic anyio   # no SDK",
            f"PYTHONHASHSEED=0 python3 minimcp.py {shown} -- mini/bin/python minimcp.py serve {file}"]


def _quote(text: str) -> str:
    return text if re.fullmatch(r"[\w@%+=:,./-]+", text) else "'" + text.replace("'", "'\\''") + "'"


def describe(difference: dict) -> str:
    def show(value) -> str:
        return json.dumps(value, ensure_ascii=False)[:240]
    if difference.get("text"):
        return f"{difference['field']}: {difference['text']}"
    if difference.get("only"):
        side = difference["only"]
        return f"{difference['field']}: only in {side}: {show(difference['real' if side == 'real' else 'minimcp'])}"
    return f"{difference['field']}: real {show(difference['real'])} != minimcp {show(difference['minimcp'])}"


def _answer_kind(answer) -> str:
    if not isinstance(answer, dict):
        return "nothing"
    if "error" in answer:
        return f"error {answer['error'].get('code')}"
    if "client_error" in answer:
        return "refused by the client"
    return "isError result" if answer.get("isError") else "result"


def _where(field: str) -> str:
    """A field with names and indexes generalised: /tools[x]/inputSchema/properties/y -> /tools[]/..."""
    where = re.sub(r"\[[^\]]*\]", "[]", field)
    return re.sub(r"/(properties|\$defs)/[^/]+", r"/\1/*", where)


def _kind_named(text: str, spec: Server) -> str | None:
    """The kind of the parameter a field or a summary segment names ("/properties/shade/" or
    "shade=green"), when it is one of the server's tool or prompt parameters."""
    params = {p.name: p.kind for t in spec.tools for p in t.params}
    params.update({p.name: p.kind for pr in spec.prompts for p in pr.params})
    match = re.search(r"/properties/(\w+)|/arguments\[(\w+)\]|^(\w+)=", text)
    name = match and next(g for g in match.groups() if g)
    return params.get(name) if name else None


def _segment(real, mini) -> str | None:
    """The first "name=value" segment of a tool's summary text that differs between two texts."""
    if not (isinstance(real, str) and isinstance(mini, str)):
        return None
    for a, b in zip(re.split(r"; |: ", real), re.split(r"; |: ", mini)):
        if a != b:
            return a
    return None


def classes_of_answer(spec: Server, key: str, label: str, real, mini, differences: list) -> set:
    """The classes one answer's differences fall in, named by the feature most likely behind them:
    the tool's use of its context, the kind of the argument whose value differs, its result, ..."""
    words = label.split()
    tool = next((t for t in spec.tools if len(words) > 2 and t.wire == " ".join(words[2:])), None)
    if _answer_kind(real) != _answer_kind(mini):
        kinds = f"{_answer_kind(real)} under the SDK, {_answer_kind(mini)} under serve"
        if tool is None:
            return {f"{label}: {kinds}"}
        if words[0] == "invalid":
            return {f"invalid arguments ({words[1]}): {kinds}"}
        cause = next((f"using ctx.{use}" for use in ("elicit", "sample", "read", "lifespan", "request")
                      if use in tool.context), f"returning {tool.result} ({tool.body})")
        return {f"tool {cause}: {kinds}"}
    found = set()
    for difference in differences:
        rest = difference["field"][len(key) + 1:]
        tail = _where(rest)
        if tool is None:
            kind = _kind_named(rest, spec)
            found.add(f"{label}{tail}" + (f" (a parameter of kind {kind})" if kind else ""))
            continue
        segment = _segment(difference.get("real"), difference.get("minimcp"))
        kind = _kind_named(segment, spec) if segment else None
        if words[0] == "invalid":
            found.add(f"invalid arguments ({words[1]}): {tail}")
        elif "notifications" in tail:
            found.add(f"tool using ctx.{'log' if '/log' in tail else 'report_progress'}: {tail}")
        elif kind:
            found.add(f"tool given an argument of kind {kind}: {tail}")
        elif "content" in tail and any(use in tool.context for use in ("elicit", "sample", "read")):
            use = next(use for use in ("elicit", "sample", "read") if use in tool.context)
            found.add(f"tool using ctx.{use}: {tail}")
        elif tool.body != "ok" and "content" in tail:
            found.add(f"tool raising ({tool.body}): {tail}")
        else:
            found.add(f"tool returning {tool.result}: {tail}")
    return found


def classes_of(outcome: dict) -> set:
    """The classes of one failing server's differences, answer by answer."""
    if "initialize" not in outcome["answers"]["mini"]:
        failure = outcome["differences"][0].get("text", "serve did not start")
        said = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", failure.split(": ", 1)[-1])
        return {"serve does not start: " + re.sub(r"\b\d+\b|gen_\d+", "N", said)[:160]}
    spec = draw(outcome["seed"])
    by_answer: dict = {}
    for difference in outcome["differences"]:
        by_answer.setdefault(answer_key(difference["field"], outcome["labels"]), []).append(difference)
    found = set()
    for key, differences in by_answer.items():
        found |= classes_of_answer(spec, key, outcome["labels"].get(key, key), outcome["answers"]["real"].get(key),
                                   outcome["answers"]["mini"].get(key), differences)
    return found


def summarise(outcomes: list) -> list:
    """The classes of difference, most servers first: (class, servers by style, example seed)."""
    classes: dict = {}
    for outcome in outcomes:
        if outcome["status"] != "fail":
            continue
        for name in sorted(classes_of(outcome)):
            entry = classes.setdefault(name, {"styles": {}, "seed": outcome["seed"]})
            entry["styles"][outcome["style"]] = entry["styles"].get(outcome["style"], 0) + 1
    return sorted(((name, e["styles"], e["seed"]) for name, e in classes.items()),
                  key=lambda item: (-sum(item[1].values()), item[0]))


def rows_used(used: list) -> str:
    """What a pass says of the README's rows it needed (", deliberate differences D1, D10"), or ""."""
    return f", deliberate differences {', '.join(used)}" if used else ""


def print_outcome(outcome: dict, verbose: bool) -> None:
    head = f"seed {outcome['seed']} ({outcome['style']})"
    if outcome["status"] == "skip":
        print(f"skip {head}: its SDK refuses it: {outcome['why'].splitlines()[0][:200] if outcome['why'] else '?'}")
    elif outcome["status"] == "pass":
        print(f"ok {head}  (as under {PINS[outcome['reference']]}{rows_used(outcome['used'])})")
    else:
        differences = outcome["differences"]
        print(f"FAIL {head}: {len(differences)} difference(s) from {PINS[outcome['reference']]}")
        for difference in differences if verbose else differences[:6]:
            print("    " + describe(difference))
        if not verbose and len(differences) > 6:
            print(f"    ... and {len(differences) - 6} more (-v shows all)")
        print("  reproduce:")
        for line in reproduction(outcome, differences[0]):
            print("    " + line)
    sys.stdout.flush()


def print_summary(outcomes: list, seconds: float) -> None:
    counts = {status: sum(o["status"] == status for o in outcomes) for status in ("pass", "fail", "skip")}
    print(f"\n# {len(outcomes)} servers in {seconds:.0f}s; by style (identical/compared, skipped):")
    for style in STYLES:
        mine = [o for o in outcomes if o["style"] == style]
        compared = [o for o in mine if o["status"] != "skip"]
        print(f"#   {style:10} {sum(o['status'] == 'pass' for o in mine)}/{len(compared)}, "
              f"{len(mine) - len(compared)} skipped")
    classes = summarise(outcomes)
    if classes:
        print(f"\n# {len(classes)} classes of difference (servers per style; an example seed):")
        for name, styles, seed in classes:
            per = ", ".join(f"{s} {n}" for s, n in sorted(styles.items(), key=lambda i: STYLES.index(i[0])))
            print(f"#   {sum(styles.values()):4}  {name}  [{per}; e.g. seed {seed}]")
    print(f"\n{counts['pass']} passed, {counts['fail']} failed, {counts['skip']} skipped")


# --------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------

def seed_range(text: str) -> list:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def write_servers(seeds: list, directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for seed in seeds:
        spec = draw(seed)
        (directory / f"gen_{seed}.py").write_text(render(spec), encoding="utf-8")
        (directory / f"gen_{seed}.cases.json").write_text(
            json.dumps([{"case": c, "label": label} for c, label in cases_for(spec)], indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(seeds)} servers to {directory}")


def run(args) -> int:
    import concurrent.futures
    import shutil
    import tempfile
    import time
    missing = [r for s in {STYLES[seed % len(STYLES)] for seed in args.seeds} for r in REFERENCES[s]
               if r not in dict(item.split("=", 1) for item in args.sdk)]
    if missing:
        raise SystemExit(f"sdk_generate: no --sdk for {sorted(set(missing))}")
    args.work = args.work or tempfile.mkdtemp(prefix="minimcp-sdk-generate.")
    harness = Harness(args)
    print("# rows of the README's table applied under serve: "
          + ", ".join(f"{row} ({scope})" for row, scope in harness.rules.items()))
    started = time.monotonic()
    outcomes = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for outcome in pool.map(lambda seed: check_seed(seed, harness), args.seeds):
            print_outcome(outcome, args.verbose)
            outcomes.append(outcome)
    print_summary(outcomes, time.monotonic() - started)
    if args.report:
        args.report.write_text(json.dumps(outcomes, indent=1, default=str) + "\n", encoding="utf-8")
    if not args.keep:
        shutil.rmtree(args.work, ignore_errors=True)
    short = too_few_compared(outcomes, args.require)
    if short:
        print(f"sdk_generate: {short}", file=sys.stderr)
    return 1 if short or any(o["status"] == "fail" for o in outcomes) else 0


def too_few_compared(outcomes: list, required: int) -> str | None:
    """Why the run proves less than CI asks (--require N: N servers compared, some of every style
    the seeds drew), or None. A run whose SDKs refuse every server would otherwise pass."""
    compared = [o for o in outcomes if o["status"] != "skip"]
    unseen = [s for s in STYLES if any(o["style"] == s for o in outcomes)
              and not any(o["style"] == s for o in compared)]
    if len(compared) < required or (required and unseen):
        return (f"only {len(compared)} of {len(outcomes)} servers were compared (--require {required})"
                + (f"; none in the styles {', '.join(unseen)}" if unseen else ""))
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", type=int, metavar="SEED", help="print the server of SEED and stop")
    parser.add_argument("--as", dest="as_style", choices=("fastmcp2", "fastmcp4"),
                        help="with --show: a fastmcp server in that fastmcp's idioms (what that pin runs)")
    parser.add_argument("--write", type=Path, metavar="DIR", help="write the servers of --seeds and their calls to DIR")
    parser.add_argument("--seeds", type=seed_range, default=seed_range("0-199"), help="A-B (default 0-199)")
    parser.add_argument("--sdk", action="append", default=[],
                        help="REFERENCE=PYTHON for mcp1, mcp2, fastmcp2, fastmcp4: an interpreter with that pin")
    parser.add_argument("--mini-python", help="an interpreter without mcp or fastmcp (pydantic installed)")
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parents[2])
    parser.add_argument("--readme", type=Path, help="the README whose table of deliberate differences applies "
                        "(default REPO/README.md)")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="servers checked at once (default 2)")
    parser.add_argument("--work", type=Path, help="the directory for the runs (default a temporary one)")
    parser.add_argument("--keep", action="store_true", help="keep --work (each seed's files and stderr)")
    parser.add_argument("--report", type=Path, help="write every outcome to this JSON file")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every difference")
    parser.add_argument("--require", type=int, default=0, metavar="N",
                        help="fail unless at least N servers were compared, some in every style drawn")
    args = parser.parse_args()
    if args.show is not None:
        spec = draw(args.show)
        sys.stdout.write(source_for(spec, args.as_style) if args.as_style else render(spec))
        return 0
    if args.write:
        write_servers(args.seeds, args.write)
        return 0
    if not args.sdk or not args.mini_python:
        parser.error("give --show, --write, or --sdk and --mini-python to run the differential")
    args.readme = args.readme or args.repo / "README.md"
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
