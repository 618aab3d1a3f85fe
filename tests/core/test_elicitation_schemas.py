"""Elicitation forms on the wire (issue 15 item 1): every requestedSchema 2025-11-25 allows, from a
dict, a TypedDict, a dataclass or a pydantic model; each revision served only what its schema.json
defines; and the client's accepted answer checked before the handler sees it. Each test runs in
every revision that has elicitation, both eras: 2025-06-18 and 2025-11-25 ask with a request on
the pipe, 2026-07-28 with an input_required round."""

import dataclasses
import datetime
import enum
import json
import os
import sys
from typing import List, Literal, Optional, TypedDict

import pytest

from conftest import MODERN, Wire, envelope
from forms import ENUMS
from minimcp import Context, MCPServer, validate

try:
    import pydantic
except ImportError:       # the pydantic test runs where tests/requirements.txt is installed
    pydantic = None
if pydantic is not None and int(pydantic.VERSION.split(".")[0]) < 2:
    pydantic = None       # pydantic 1 (Debian bookworm's python3-pydantic): these models are pydantic 2's

SPEC = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))),
                    "shared", "spec")
if not os.path.isdir(SPEC):
    SPEC = "/work/shared/spec"
ELICITING = ["2025-06-18", "2025-11-25", MODERN]     # the revisions that define elicitation/create
WIDE = ["2025-11-25", MODERN]                        # the revisions with titled/multi-select enums and defaults
CAPS = {"elicitation": {"form": {}}}

# -- the forms -------------------------------------------------------------------------------------
SINGLES = {"type": "object", "properties": {k: v for k, v in ENUMS["properties"].items() if "ulti" not in k}}
PRIMITIVES = {"type": "object", "properties": {
    "name": {"type": "string", "minLength": 2, "maxLength": 8, "pattern": "^[A-Z]", "default": "Ada"},
    "email": {"type": "string", "format": "email"},
    "born": {"type": "string", "format": "date"},
    "seen": {"type": "string", "format": "date-time"},
    "home": {"type": "string", "format": "uri"},
    "age": {"type": "integer", "minimum": 0, "maximum": 150, "default": 30},
    "score": {"type": "number", "default": 9.5},
    "ok": {"type": "boolean", "default": True},
}}


class Colour(enum.Enum):
    RED = "red"
    GREEN = "green"


@dataclasses.dataclass
class Order:
    item: str
    size: Literal["S", "M", "L"] = "M"
    colour: Colour = Colour.GREEN
    extras: List[Literal["cheese", "ham"]] = dataclasses.field(default_factory=lambda: ["cheese"])
    quantity: int = 1
    gift: bool = False
    deliver_on: Optional[datetime.date] = None


class Contact(TypedDict):
    name: str
    colour: Colour
    topics: List[Literal["news", "offers"]]


FORMS = {"enums": ENUMS, "singles": SINGLES, "primitives": PRIMITIVES, "order": Order, "contact": Contact}
if pydantic is not None:
    class Survey(pydantic.BaseModel):
        rating: Literal["good", "bad"] = pydantic.Field("good", description="How was it?")
        colours: List[Colour] = []
        comment: Optional[str] = None
    FORMS["survey"] = Survey
if sys.version_info >= (3, 9):
    @dataclasses.dataclass
    class Toppings:
        picked: list[Literal["olive", "basil"]] = dataclasses.field(default_factory=list)   # noqa: F821 (3.8)
    FORMS["toppings"] = Toppings


def forms_server():
    app = MCPServer("forms", dialect="minimcp")
    app.reached = []      # the content each handler got past ctx.elicit with

    @app.tool()
    def form(ctx: Context, name: str) -> str:
        answer = ctx.elicit("Fill in the form", FORMS[name])
        app.reached.append(answer.get("content"))
        return json.dumps(answer, sort_keys=True)

    @app.tool()
    def raw(ctx: Context, schema: dict) -> str:
        return json.dumps(ctx.elicit("Fill in the form", schema), sort_keys=True)

    return app


# -- one question, one answer, in either era --------------------------------------------------------
class Client:
    """A connection at one revision that calls a tool, takes its one question and answers it."""

    def __init__(self, version, capabilities=CAPS):
        self.version, self.capabilities = version, capabilities
        self.app = forms_server()
        self.wire = Wire(self.app)
        if version != MODERN:
            self.wire.initialize(version, capabilities)

    def ask(self, answer, form=None, **arguments):
        """Call ``form`` (a name in FORMS), or ``raw`` with ``schema=``, and answer its question.

        Returns:
            (the elicitation/create params the server sent, or None; the tool's final result).
        """
        if form is not None:
            arguments["name"] = form
        params = {"name": "form" if form is not None else "raw", "arguments": arguments}
        if self.version != MODERN:
            request_id = self.wire.request("tools/call", params)
            message = self.wire.recv()
            if "method" not in message:               # refused before asking
                assert message["id"] == request_id
                return None, message["result"]
            assert message["method"] == "elicitation/create", message
            self.wire.send({"jsonrpc": "2.0", "id": message["id"], "result": answer})
            return message["params"], self.wire.response(request_id)["result"]
        params["_meta"] = envelope(self.capabilities)
        first = self.wire.call("tools/call", params)["result"]
        if first.get("resultType") != "input_required":
            return None, first
        (key, question), = first["inputRequests"].items()
        assert question["method"] == "elicitation/create", question
        retry = dict(params, requestState=first["requestState"], inputResponses={key: answer})
        return question["params"], self.wire.call("tools/call", retry)["result"]

    def close(self):
        self.wire.close()


@pytest.fixture
def connect():
    opened = []

    def open_client(version, capabilities=CAPS):
        opened.append(Client(version, capabilities))
        return opened[-1]
    yield open_client
    for client in opened:
        client.close()


def accept(content):
    return {"action": "accept", "content": content}


def fits_revision(requested, version):
    """Assert ``requested`` is a requestedSchema of ``version``'s schema.json, every object closed:
    each property one of that revision's PrimitiveSchemaDefinition forms, with no keyword it lacks."""
    with open(os.path.join(SPEC, version, "schema.json"), encoding="utf-8") as handle:
        document = json.load(handle)
    defs = document.get("$defs") or document["definitions"]
    form = defs["ElicitRequestFormParams"] if "ElicitRequestFormParams" in defs else \
        defs["ElicitRequest"]["properties"]["params"]
    shape = form["properties"]["requestedSchema"]
    validate(requested, shape, "requestedSchema", document)
    assert set(requested) <= set(shape["properties"]), (version, sorted(requested))
    branches = [defs[ref["$ref"].rsplit("/", 1)[1]] for ref in defs["PrimitiveSchemaDefinition"]["anyOf"]]
    for name, prop in requested["properties"].items():
        fitting = []
        for branch in branches:
            try:
                validate(prop, branch, name, document)
            except ValueError:
                continue
            if set(prop) <= set(branch["properties"]) and all(
                    set(item) <= {"const", "title"} for item in prop.get("oneOf", [])):
                fitting.append(branch)
        assert fitting, "%s: field %r fits no %s form: %s" % (version, name, version, prop)


# -- every form, as sent ----------------------------------------------------------------------------
@pytest.mark.parametrize("version", WIDE)
def test_every_enum_form_is_sent_as_written(connect, version):
    client = connect(version)
    content = {"single": "M", "titled": "#00f", "legacy": "a", "multi": ["x", "z"], "titledMulti": ["#f00"]}
    sent, result = client.ask(accept(content), form="enums")
    expected = {"type": "object", "required": ["single"], "properties": ENUMS["properties"]}
    assert sent == {"mode": "form", "message": "Fill in the form", "requestedSchema": expected}
    fits_revision(sent["requestedSchema"], version)
    assert "isError" not in result and json.loads(result["content"][0]["text"]) == accept(content)
    assert client.app.reached == [content]


@pytest.mark.parametrize("version", ELICITING)
def test_primitives_defaults_and_formats(connect, version):
    client = connect(version)
    content = {"name": "Grace", "email": "g@example.org", "born": "1906-12-09", "seen": "2024-02-29T23:59:60.5+01:00",
               "home": "https://example.org/grace", "age": 85, "score": 10, "ok": False}
    sent, result = client.ask(accept(content), form="primitives")
    requested = sent["requestedSchema"]
    fits_revision(requested, version)
    assert "pattern" not in requested["properties"]["name"]      # no revision defines it: checked, not sent
    defaults = {name: prop["default"] for name, prop in requested["properties"].items() if "default" in prop}
    # SEP-1034 defaults from 2025-11-25; 2025-06-18 has a default on booleans only
    assert defaults == ({"ok": True} if version == "2025-06-18" else
                        {"name": "Ada", "age": 30, "score": 9.5, "ok": True})
    assert requested["properties"]["seen"] == {"type": "string", "format": "date-time"}
    assert ("mode" in sent) == (version != "2025-06-18")
    assert "isError" not in result and client.app.reached == [content]


def test_2025_06_18_gets_titled_enums_as_enum_names(connect):
    client = connect("2025-06-18")
    sent, result = client.ask(accept({"titled": "#0f0", "single": "S"}), form="singles")
    assert sent == {"message": "Fill in the form", "requestedSchema": {"type": "object", "properties": {
        "single": {"type": "string", "title": "Size", "enum": ["S", "M", "L"]},
        "titled": {"type": "string", "description": "Pick one", "enum": ["#f00", "#0f0", "#00f"],
                   "enumNames": ["Red", "Green", "Blue"]},
        "legacy": {"type": "string", "enum": ["a", "b"], "enumNames": ["Option A", "Option B"]}}}}
    fits_revision(sent["requestedSchema"], "2025-06-18")
    assert client.app.reached == [{"titled": "#0f0", "single": "S"}]


@pytest.mark.parametrize("name", ["enums", "order"])
def test_2025_06_18_refuses_a_multi_select_without_asking(connect, name):
    client = connect("2025-06-18")
    sent, result = client.ask(accept({}), form=name)
    assert sent is None and result["isError"] is True
    text = result["content"][0]["text"]
    assert "multi-select" in text and "2025-06-18" in text and "2025-11-25" in text
    assert repr("multi" if name == "enums" else "extras") in text
    assert not [line for line in client.wire.raw_lines if b"elicitation/create" in line]


def test_a_revision_before_elicitation_gets_the_first_forms(connect):
    """2025-03-26 defines no elicitation; a client that declares it there anyway gets 2025-06-18's forms."""
    sent, result = connect("2025-03-26").ask(accept({"single": "L"}), form="singles")
    assert sent["requestedSchema"]["properties"]["titled"]["enumNames"] == ["Red", "Green", "Blue"]
    assert "default" not in sent["requestedSchema"]["properties"]["legacy"]
    fits_revision(sent["requestedSchema"], "2025-06-18")


@pytest.mark.parametrize("version", WIDE)
def test_a_dataclass_form(connect, version):
    client = connect(version)
    sent, result = client.ask(accept({"item": "pizza", "extras": ["ham", "cheese"], "deliver_on": "2030-01-02"}),
                              form="order")
    assert sent["requestedSchema"] == {"type": "object", "required": ["item"], "properties": {
        "item": {"type": "string"},
        "size": {"type": "string", "enum": ["S", "M", "L"], "default": "M"},
        "colour": {"type": "string", "enum": ["red", "green"], "default": "green"},
        "extras": {"type": "array", "items": {"type": "string", "enum": ["cheese", "ham"]}, "default": ["cheese"]},
        "quantity": {"type": "integer", "default": 1},
        "gift": {"type": "boolean", "default": False},
        "deliver_on": {"type": "string", "format": "date"}}}
    fits_revision(sent["requestedSchema"], version)
    assert "isError" not in result and client.app.reached[0]["extras"] == ["ham", "cheese"]


@pytest.mark.parametrize("version", WIDE)
def test_a_typeddict_form(connect, version):
    client = connect(version)
    content = {"name": "Ada", "colour": "red", "topics": []}
    sent, result = client.ask(accept(content), form="contact")
    assert sent["requestedSchema"] == {"type": "object", "required": ["name", "colour", "topics"], "properties": {
        "name": {"type": "string"}, "colour": {"type": "string", "enum": ["red", "green"]},
        "topics": {"type": "array", "items": {"type": "string", "enum": ["news", "offers"]}}}}
    fits_revision(sent["requestedSchema"], version)
    assert client.app.reached == [content]


@pytest.mark.skipif(sys.version_info < (3, 9), reason="list[...] needs Python 3.9")
def test_a_builtin_list_of_literals(connect):
    sent, result = connect("2025-11-25").ask(accept({"picked": ["basil"]}), form="toppings")
    assert sent["requestedSchema"]["properties"]["picked"] == {
        "type": "array", "items": {"type": "string", "enum": ["olive", "basil"]}, "default": []}


@pytest.mark.skipif(pydantic is None, reason="pydantic 2 is not installed (tests/requirements.txt)")
@pytest.mark.parametrize("version", WIDE)
def test_a_pydantic_model_form(connect, version):
    client = connect(version)
    sent, result = client.ask(accept({"rating": "bad", "colours": ["green"]}), form="survey")
    properties = sent["requestedSchema"]["properties"]
    assert properties["rating"] == {"type": "string", "enum": ["good", "bad"], "default": "good",
                                    "description": "How was it?", "title": "Rating"}
    assert properties["colours"]["items"] == {"type": "string", "enum": ["red", "green"]}
    assert properties["comment"] == {"type": "string", "title": "Comment"}
    fits_revision(sent["requestedSchema"], version)
    assert "isError" not in result


# -- the answer is checked before the handler sees it ----------------------------------------------
BAD_ANSWERS = [
    ("enums", accept({"titled": "#f00"}), "content: missing required field 'single'"),
    ("enums", accept({"single": "XL"}), 'content.single: "XL" is not one of "S", "M", "L"'),
    ("enums", accept({"single": "S", "titled": "Red"}),
     'content.titled: "Red" is not one of "#f00", "#0f0", "#00f"'),
    ("enums", accept({"single": "S", "multi": ["x", "w"]}), 'content.multi[1]: "w" is not one of "x", "y", "z"'),
    ("enums", accept({"single": "S", "multi": []}), "content.multi: needs at least 1 items"),
    ("enums", accept({"single": "S", "titledMulti": ["#f00", "#0f0", "#00f"]}),
     "content.titledMulti: allows at most 2"),
    ("enums", accept({"single": "S", "multi": "x"}), "content.multi: expected array, got string"),
    ("primitives", accept({"email": "nobody"}), 'content.email: "nobody" is not a valid email'),
    ("primitives", accept({"born": "2023-02-29"}), 'content.born: "2023-02-29" is not a valid date'),
    ("primitives", accept({"seen": "2024-01-01 10:00"}), "is not a valid date-time"),
    ("primitives", accept({"home": "not a uri"}), "is not a valid uri"),
    ("primitives", accept({"name": "ada"}), "content.name: does not match pattern ^[A-Z]"),
    ("primitives", accept({"age": 200}), "content.age: must be <= 150"),
    ("primitives", accept({"age": True}), "content.age: expected integer, got boolean"),
    ("primitives", {"action": "accept", "content": ["Ada"]}, "content: expected object, got array"),
    ("primitives", {"action": "maybe"}, "has no valid action (accept, decline or cancel)"),
]


@pytest.mark.parametrize("version", WIDE)
@pytest.mark.parametrize("form, answer, why", BAD_ANSWERS, ids=[str(i) for i in range(len(BAD_ANSWERS))])
def test_an_answer_that_does_not_fit_is_a_tool_error(connect, version, form, answer, why):
    client = connect(version)
    sent, result = client.ask(answer, form=form)
    assert sent is not None and result["isError"] is True, result
    text = result["content"][0]["text"]
    if "action" in why:
        assert text.startswith("the client's elicitation answer has no valid action"), text
    else:
        assert text.startswith("the client's elicitation answer does not fit the requested schema: "), text
    assert why in text
    assert client.app.reached == []                  # the handler never saw it


def test_an_answer_is_checked_against_the_form_in_2025_06_18_too(connect):
    client = connect("2025-06-18")
    sent, result = client.ask(accept({"titled": "Green"}), form="singles")
    assert result["isError"] is True and '"Green" is not one of "#f00", "#0f0", "#00f"' in result["content"][0]["text"]
    assert client.app.reached == []


@pytest.mark.parametrize("version", ELICITING)
@pytest.mark.parametrize("action", ["decline", "cancel"])
def test_decline_and_cancel_reach_the_handler(connect, version, action):
    client = connect(version)
    sent, result = client.ask({"action": action}, form="singles")
    assert json.loads(result["content"][0]["text"]) == {"action": action}
    assert client.app.reached == [None]


@pytest.mark.parametrize("version", ELICITING)
def test_an_accept_without_content_fits_a_form_with_nothing_required(connect, version):
    client = connect(version)
    sent, result = client.ask({"action": "accept"}, form="singles")
    assert json.loads(result["content"][0]["text"]) == {"action": "accept"}


# -- schemas no form can carry are refused before anything is sent ---------------------------------
BAD_SCHEMAS = [
    ({"x": {"type": "object", "properties": {}}}, "must be a string, number, integer, boolean"),
    ({"x": {"type": "array", "items": {"type": "string"}}}, "or a multi-select enum"),
    ({"x": {"type": ["string", "null"]}}, "must be a string, number, integer, boolean"),
    ({"x": {"type": "integer", "enum": [1, 2]}}, "an elicitation enum is a non-empty list of strings, not [1, 2]"),
    ({"x": {"type": "string", "enum": []}}, "non-empty list of strings"),
    ({"x": {"type": "string", "oneOf": [{"const": "a"}]}}, "titled choices are a list of {'const': str, 'title': str}"),
    ({"x": {"type": "string", "format": "uuid"}}, "format 'uuid' is not one elicitation defines"),
    ({"x": {"type": "string", "enum": ["a"], "enumNames": ["A", "B"]}},
     "enumNames must be a list of strings, one per"),
    ({"x": {"type": "string", "enum": ["a", "b"], "default": "c"}},
     "the default of elicitation field 'x': \"c\" is not"),
    ({"x": {"type": "array", "items": {"enum": ["a"]}, "default": "a"}}, "the default of elicitation field 'x'"),
]


@pytest.mark.parametrize("version", WIDE)
@pytest.mark.parametrize("properties, why", BAD_SCHEMAS, ids=[str(i) for i in range(len(BAD_SCHEMAS))])
def test_a_schema_no_form_can_carry_is_refused_without_asking(connect, version, properties, why):
    client = connect(version)
    sent, result = client.ask(accept({}), schema={"type": "object", "properties": properties})
    assert sent is None and result["isError"] is True and why in result["content"][0]["text"], result
    assert "'x'" in result["content"][0]["text"]
    assert not [line for line in client.wire.raw_lines if b"elicitation/create" in line]


def test_a_required_name_must_be_a_property(connect):
    sent, result = connect(MODERN).ask(accept({}), schema={
        "type": "object", "properties": {"a": {"type": "string"}}, "required": ["b"]})
    assert sent is None and "required names 'b', which is not a property" in result["content"][0]["text"]


def test_the_handlers_schema_is_never_changed(connect):
    before = json.dumps([ENUMS, SINGLES, PRIMITIVES], sort_keys=True)
    for version in ("2025-06-18", "2025-11-25"):
        for name in ("enums", "singles", "primitives"):
            connect(version).ask({"action": "decline"}, form=name)
    assert json.dumps([ENUMS, SINGLES, PRIMITIVES], sort_keys=True) == before


# -- the command line's client answers such forms at a terminal -------------------------------------


