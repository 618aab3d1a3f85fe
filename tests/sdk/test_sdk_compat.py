"""Servers written for the official SDK (mcp 2.3.0's MCPServer) behave the same on minimcp.

Each rule was measured on mcp 2.3.0 itself (tests/interop/run_sdk_diff.sh compares whole
servers); these tests pin the rules on the wire. The pydantic rules run where pydantic is
installed (tests/requirements.txt installs it) and are skipped, saying so, where it is not;
the tests at the end prove in a subprocess that minimcp works with pydantic made unimportable.
"""

import dataclasses
import datetime
import decimal
import enum
import json
import os
import pathlib
import select
import subprocess
import sys
import textwrap
import time
import uuid
from typing import Any, Dict, List, Optional, TypedDict

import pytest

from conftest import CLI, ROOT, Wire
from minimcp import Image, MCPServer
import minimcp_sdk


try:
    import pydantic
    from pydantic import BaseModel, Field, RootModel
except ImportError:          # the rules below that need it are skipped, with this reason (pydantic 1,
    pydantic = None          # Debian bookworm's python3-pydantic, has no RootModel)
needs_pydantic = pytest.mark.skipif(
    pydantic is None, reason="pydantic 2 is not installed here: its rules are checked where it is "
                             "(pip install -r tests/requirements.txt); the rest of this file runs without it")


def connect(*functions, dialect="minimcp", **options):
    app = MCPServer("compat", dialect=dialect)
    for function in functions:
        app.add_tool(function, **options)
    wire = Wire(app)
    wire.initialize("2025-11-25")
    return wire


def tools(wire):
    return {t["name"]: t for t in wire.result("tools/list")["tools"]}


def call(wire, name, arguments=None):
    return wire.result("tools/call", {"name": name, "arguments": arguments or {}})


def wrapped(schema):
    return {"type": "object", "properties": {"result": schema}, "required": ["result"]}


# --- output policy: what mcp 2.3.0 sends for each return annotation --------------------

class Movie(TypedDict):
    title: str
    year: int


@dataclasses.dataclass
class Point:
    x: int
    y: int = 0
    tags: List[str] = dataclasses.field(default_factory=list)


class Annotated_:
    """A plain class with annotations (no dataclass): the SDK reads its attributes."""
    name: str
    size: int = 1

    def __init__(self, name, size=1):
        self.name, self.size = name, size


class Colour(enum.Enum):
    RED = "red"


PNG = b"\x89PNG\r\n"

POLICY = [
    # (annotation, value, outputSchema or None, structuredContent or None, content texts or blocks)
    ("str", str, "hi", wrapped({"type": "string"}), {"result": "hi"}, ["hi"]),
    ("int", int, 3, wrapped({"type": "integer"}), {"result": 3}, ["3"]),
    ("float", float, 2.5, wrapped({"type": "number"}), {"result": 2.5}, ["2.5"]),
    ("bool", bool, True, wrapped({"type": "boolean"}), {"result": True}, ["true"]),
    ("None", None, None, wrapped({"type": "null"}), {"result": None}, []),
    ("List[str]", List[str], ["a", "b"], wrapped({"type": "array", "items": {"type": "string"}}),
     {"result": ["a", "b"]}, ["a", "b"]),
    ("List[int]", List[int], [1, 2], wrapped({"type": "array", "items": {"type": "integer"}}),
     {"result": [1, 2]}, ["1", "2"]),
    # a bare dict and dict[str, Any] as pydantic spells them (mcp 1.30.0 and 2.3.0 measured)
    ("List[dict]", List[dict], [{"a": 1}], wrapped({"type": "array", "items": {"type": "object",
                                                                               "additionalProperties": True}}),
     {"result": [{"a": 1}]}, ['{\n  "a": 1\n}']),
    ("Optional[str]", Optional[str], None, wrapped({"anyOf": [{"type": "string"}, {"type": "null"}]}),
     {"result": None}, []),
    ("dict", dict, {"a": [1]}, None, None, ['{\n  "a": [\n    1\n  ]\n}']),
    ("Dict[str, int]", Dict[str, int], {"a": 1},
     wrapped({"type": "object", "additionalProperties": {"type": "integer"}}), {"result": {"a": 1}},
     ['{\n  "a": 1\n}']),
    ("Dict[str, Any]", Dict[str, Any], {"a": 1}, wrapped({"type": "object", "additionalProperties": True}),
     {"result": {"a": 1}}, ['{\n  "a": 1\n}']),
    ("TypedDict", Movie, {"title": "Alien", "year": 1979},
     {"type": "object", "properties": {"title": {"type": "string"}, "year": {"type": "integer"}},
      "required": ["title", "year"]}, {"title": "Alien", "year": 1979},
     ['{\n  "title": "Alien",\n  "year": 1979\n}']),
    ("dataclass", Point, Point(1),
     {"type": "object", "properties": {"x": {"type": "integer"}, "y": {"type": "integer", "default": 0},
                                       "tags": {"type": "array", "items": {"type": "string"}}},
      "required": ["x", "tags"]},            # a default_factory field is always there: required
     {"x": 1, "y": 0, "tags": []}, ['{\n  "x": 1,\n  "y": 0,\n  "tags": []\n}']),
    ("annotated class", Annotated_, Annotated_("a"),
     {"type": "object", "properties": {"name": {"type": "string"}, "size": {"type": "integer", "default": 1}},
      "required": ["name"]}, {"name": "a", "size": 1}, None),
    ("no annotation", "<empty>", {"a": 1}, None, None, ['{\n  "a": 1\n}']),
    ("no annotation, list", "<empty>", [1, "a"], None, None, ["1", "a"]),
    ("datetime", datetime.datetime, datetime.datetime(2024, 1, 2, 3, 4, 5), None, None,
     ['"2024-01-02T03:04:05"']),
    ("Enum", Colour, Colour.RED, None, None, ['"red"']),
    ("Image", Image, Image(PNG, "image/png"), None, None,
     [{"type": "image", "data": "iVBORw0K", "mimeType": "image/png"}]),
    ("List[Image]", List[Image], [Image(PNG, "image/png")], None, None,
     [{"type": "image", "data": "iVBORw0K", "mimeType": "image/png"}]),
]


@pytest.mark.parametrize("annotation, value, output_schema, structured, content",
                         [p[1:] for p in POLICY], ids=[p[0] for p in POLICY])
def test_output_policy_matches_the_sdk(annotation, value, output_schema, structured, content):
    def probe():
        return value
    if annotation != "<empty>":
        probe.__annotations__ = {"return": annotation}
    wire = connect(probe, dialect="mcp2")      # the SDK's policy; the minimcp dialect's -> str is lean
    tool = tools(wire)["probe"]
    assert tool.get("outputSchema") == output_schema
    result = call(wire, "probe")
    assert result.get("structuredContent") == structured
    assert ("structuredContent" in result) == (structured is not None or output_schema is not None)
    if content is not None:
        assert result["content"] == [c if isinstance(c, dict) else {"type": "text", "text": c} for c in content]
    wire.close()


@pytest.mark.skipif(sys.version_info < (3, 9), reason="list[Image] needs Python 3.9")
def test_builtin_list_of_images_is_content_not_structured_output():
    def pictures() -> "list[Image]":                  # on 3.9 and 3.10, list[X] passes isinstance(..., type)
        return [Image(PNG, "image/png")]
    wire = connect(pictures)
    assert "outputSchema" not in tools(wire)["pictures"]
    result = call(wire, "pictures")
    assert result == {"content": [{"type": "image", "data": "iVBORw0K", "mimeType": "image/png"}]}, result
    wire.close()


@pytest.mark.skipif(sys.version_info < (3, 9), reason="dict[str, int] needs Python 3.9")
def test_builtin_dict_of_str_is_structured_as_it_is():
    def mapping() -> "dict[str, int]":
        return {"a": 1}
    wire = connect(mapping)
    assert tools(wire)["mapping"]["outputSchema"] == {"type": "object", "additionalProperties": {"type": "integer"}}
    assert call(wire, "mapping")["structuredContent"] == {"a": 1}
    wire.close()


# --- standard types: formats, conversion of arguments, serialisation of results -------

def test_standard_types_have_formats_and_arrive_converted():
    received = {}

    def moment(when: datetime.datetime, day: datetime.date, at: datetime.time, span: datetime.timedelta,
               ident: uuid.UUID, amount: decimal.Decimal, where: pathlib.Path, raw: bytes) -> str:
        received.update(locals())
        return "ok"
    wire = connect(moment)
    properties = tools(wire)["moment"]["inputSchema"]["properties"]
    assert properties == {
        "when": {"type": "string", "format": "date-time"}, "day": {"type": "string", "format": "date"},
        "at": {"type": "string", "format": "time"}, "span": {"type": "string", "format": "duration"},
        "ident": {"type": "string", "format": "uuid"},
        "amount": {"anyOf": [{"type": "number"}, {"type": "string"}]},
        "where": {"type": "string", "format": "path"}, "raw": {"type": "string", "format": "binary"}}
    result = call(wire, "moment", {"when": "2024-01-02T03:04:05Z", "day": "2024-07-14", "at": "12:30",
                                   "span": "P1DT1H30M", "ident": "12345678-1234-5678-1234-567812345678",
                                   "amount": "12.50", "where": "/tmp/x", "raw": "hi"})
    assert result["content"] == [{"type": "text", "text": "ok"}]
    assert received["when"] == datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)
    assert received["day"] == datetime.date(2024, 7, 14) and received["at"] == datetime.time(12, 30)
    assert received["span"] == datetime.timedelta(days=1, hours=1, minutes=30)
    assert received["ident"] == uuid.UUID("12345678-1234-5678-1234-567812345678")
    assert received["amount"] == decimal.Decimal("12.50") and type(received["amount"]) is decimal.Decimal
    assert received["where"] == pathlib.Path("/tmp/x") and received["raw"] == b"hi"   # bytes: UTF-8, as pydantic
    bad = call(wire, "moment", {"when": "yesterday", "day": "2024-07-14", "at": "12:30", "span": "PT1S",
                                "ident": str(received["ident"]), "amount": 1, "where": "/", "raw": "x"})
    assert bad["isError"] is True
    wire.close()


def test_standard_types_in_results_are_written_as_pydantic_writes_them():
    def stamp() -> dict:
        return {"t": datetime.datetime(2024, 1, 2, 3, 4, 5, 123, tzinfo=datetime.timezone.utc),
                "naive": datetime.datetime(2024, 1, 2), "d": datetime.date(2024, 1, 2),
                "u": uuid.UUID(int=1), "dec": decimal.Decimal("1.50"), "p": pathlib.PurePosixPath("/a/b"),
                "b": b"xy", "e": Colour.RED, "s": {1}, "span": datetime.timedelta(hours=1, seconds=1.5),
                "zero": datetime.timedelta(0)}
    wire = connect(stamp)
    text = call(wire, "stamp")["content"][0]["text"]
    assert json.loads(text) == {
        "t": "2024-01-02T03:04:05.000123Z", "naive": "2024-01-02T00:00:00", "d": "2024-01-02",
        "u": "00000000-0000-0000-0000-000000000001", "dec": "1.50", "p": "/a/b", "b": "xy", "e": "red",
        "s": [1], "span": "PT1H1.5S", "zero": "PT0S"}
    wire.close()


# --- the SDK's names: Image(format=...), prompt messages, ToolError ---------------------

def test_image_takes_the_sdk_spelling():
    block = Image(data=PNG, format="jpg").to_content()
    assert block == {"type": "image", "data": "iVBORw0K", "mimeType": "image/jpeg"}


def run_server(source, requests, env=None, tmp_path=None, args=("serve",)):
    """Serve a script through ``python3 minimcp.py serve`` and return every answer, by id."""
    script = tmp_path / "server.py"
    script.write_text(textwrap.dedent(source))
    lines = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    lines += [dict(request, jsonrpc="2.0", id=index) for index, request in enumerate(requests, 1)]
    environment = dict(os.environ, **(env or {}))
    process = subprocess.Popen(CLI + list(args) + [str(script)],      # minimcp.py, from cached bytecode
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=environment, bufsize=0)           # unbuffered: select() sees every line
    process.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in lines))
    # stdin closes once every request is answered (or the server is gone): at EOF the server
    # cancels what still runs, and a cancelled call is never answered (README, "Threads,
    # progress and cancellation"). On a busy machine an async tool was still running then.
    expected, answers, deadline = {m["id"] for m in lines if "id" in m}, {}, time.monotonic() + 60
    while not expected <= set(answers) and select.select([process.stdout], [], [], max(0, deadline - time.monotonic()))[0]:
        raw = process.stdout.readline()
        if not raw:
            break
        message = json.loads(raw)
        answers[message.get("id")] = message
    out, err = process.communicate(timeout=60)
    for raw in out.splitlines():
        message = json.loads(raw)
        answers[message.get("id")] = message
    return answers, subprocess.CompletedProcess(process.args, process.returncode, out, err)


SDK_SERVER = '''
    import sys
    from mcp.server.fastmcp import FastMCP, Context
    from mcp.server.fastmcp.prompts.base import UserMessage, AssistantMessage
    from mcp.server.fastmcp.exceptions import ToolError
    from mcp.types import TextContent, ToolAnnotations

    mcp = FastMCP("sdk-style", instructions="unchanged", dependencies=["x"], log_level="INFO")

    @mcp.tool(annotations=ToolAnnotations(read_only_hint=True), tags={"a"})
    async def shout(text: str, ctx: Context) -> str:
        """Shout a text."""
        await ctx.info("shouting")
        if not text:
            raise ToolError("nothing to shout")
        return text.upper()

    @mcp.tool()
    def block() -> TextContent:
        return TextContent(type="text", text="a block")

    @mcp.prompt()
    def chat(topic: str) -> list:
        return [UserMessage(f"talk about {topic}"), AssistantMessage("gladly")]

    @mcp.resource("notes://{name}")
    def note(name: str) -> str:
        return "note " + name

    if __name__ == "__main__":
        mcp.run(transport="stdio")
'''


def test_an_unchanged_sdk_server_runs_through_serve(tmp_path):
    answers, done = run_server(SDK_SERVER, [
        {"method": "tools/list"}, {"method": "tools/call", "params": {"name": "shout", "arguments": {"text": "hi"}}},
        {"method": "tools/call", "params": {"name": "shout", "arguments": {"text": ""}}},
        {"method": "tools/call", "params": {"name": "block", "arguments": {}}},
        {"method": "prompts/get", "params": {"name": "chat", "arguments": {"topic": "x"}}},
        {"method": "resources/read", "params": {"uri": "notes://a"}}], tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr.decode()
    assert answers[0]["result"]["instructions"] == "unchanged"
    listed = {t["name"]: t for t in answers[1]["result"]["tools"]}
    # mcp 1.30.0's ToolAnnotations takes unknown keywords as extra fields: read_only_hint is sent as given
    assert listed["shout"]["annotations"] == {"read_only_hint": True}
    assert listed["shout"]["inputSchema"] == {"type": "object", "properties": {"text": {"type": "string"}},
                                              "required": ["text"]}
    assert "outputSchema" not in listed["block"]                    # content: not structured
    # Served in mcp 1.x's dialect, as that SDK writes results and errors:
    assert answers[2]["result"] == {"content": [{"type": "text", "text": "HI"}], "structuredContent": {"result": "HI"},
                                    "isError": False}
    assert answers[3]["result"] == {"content": [{"type": "text", "text": "Error executing tool shout: nothing to shout"}],
                                    "isError": True}
    assert answers[4]["result"] == {"content": [{"type": "text", "text": "a block"}], "isError": False}
    assert answers[5]["result"]["messages"] == [
        {"role": "user", "content": {"type": "text", "text": "talk about x"}},
        {"role": "assistant", "content": {"type": "text", "text": "gladly"}}]
    assert answers[6]["result"]["contents"][0]["text"] == "note a"


@pytest.mark.parametrize("module", ["mcp.server.mcpserver", "fastmcp"])
def test_the_other_dialects_are_served_too(tmp_path, module):
    name = "MCPServer" if module.endswith("mcpserver") else "FastMCP"
    source = '''
        from %s import %s, Context
        app = %s("dialect")

        @app.tool
        def ping() -> str:
            return "pong"
    ''' % (module, name, name)
    answers, done = run_server(source, [{"method": "tools/call", "params": {"name": "ping"}}], tmp_path=tmp_path)
    assert answers[1]["result"]["content"] == [{"type": "text", "text": "pong"}], done.stderr.decode()


def test_a_name_the_sdk_does_not_have_is_refused(tmp_path):
    # Public SDK names all import (tests/sdk/test_sdk_names.py); one the SDK never had does not.
    source = '''
        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.resources import NoSuchResource
    '''
    answers, done = run_server(source, [], tmp_path=tmp_path)
    message = done.stderr.decode()
    assert done.returncode != 0 and answers == {}
    assert "cannot import name 'NoSuchResource' from 'mcp.server.fastmcp.resources'" in message
    source = "from fastmcp import FastMCP\nimport fastmcp.clients\n"
    answers, done = run_server(source, [], tmp_path=tmp_path)
    assert "fastmcp.clients is not a public name" in done.stderr.decode()
    assert "pip install fastmcp" in done.stderr.decode()


def test_an_installed_package_wins_over_the_aliases(tmp_path):
    fake = tmp_path / "site" / "mcp"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("REAL = True\n")
    code = ("import minimcp; minimcp.install_sdk_aliases(); import mcp; print(getattr(mcp, 'REAL', False)); "
            "import fastmcp; print(fastmcp.FastMCP.__module__)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=dict(os.environ, PYTHONPATH=str(tmp_path / "site") + os.pathsep + ROOT), timeout=60)
    assert done.stdout.decode().split() == ["True", minimcp_sdk.__name__], done.stderr.decode()


def test_a_script_that_starts_itself_installs_the_aliases(tmp_path):
    script = tmp_path / "selfstart.py"
    script.write_text(textwrap.dedent('''
        import minimcp
        minimcp.install_sdk_aliases()
        from mcp.server.fastmcp import FastMCP
        app = FastMCP("self")

        @app.tool()
        def hello() -> str:
            return "hi"

        if __name__ == "__main__":
            app.run()
    '''))
    lines = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "hello"}}]
    done = subprocess.run([sys.executable, str(script)], input=b"".join(json.dumps(m).encode() + b"\n" for m in lines),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60,
                          env=dict(os.environ, PYTHONPATH=ROOT))
    answer = json.loads(done.stdout.splitlines()[-1])
    assert answer["result"]["content"] == [{"type": "text", "text": "hi"}], done.stderr.decode()


# --- pydantic, where the server uses it -------------------------------------------------

if pydantic is not None:
    class Task(BaseModel):
        """A task."""
        title: str = Field(description="what to do", min_length=1)
        priority: int = Field(3, ge=1, le=5)
        due: Optional[datetime.datetime] = None

    class Plan(BaseModel):
        tasks: List[Task]

    class Names(RootModel[List[str]]):
        pass


@needs_pydantic
def test_model_parameters_use_the_models_schema_and_arrive_as_instances():
    received = {}

    def plan(plan: Plan, extra: Optional[Task] = None) -> str:
        received["plan"], received["extra"] = plan, extra
        return "ok"
    wire = connect(plan)
    schema = tools(wire)["plan"]["inputSchema"]
    assert schema["properties"] == {"plan": {"$ref": "#/$defs/Plan"},
                                    "extra": {"anyOf": [{"$ref": "#/$defs/Task"}, {"type": "null"}], "default": None}}
    assert schema["required"] == ["plan"] and set(schema["$defs"]) == {"Plan", "Task"}
    assert schema["$defs"]["Task"]["properties"]["title"] == {
        "description": "what to do", "minLength": 1, "title": "Title", "type": "string"}
    assert schema["$defs"]["Task"]["properties"]["priority"] == {
        "default": 3, "maximum": 5, "minimum": 1, "title": "Priority", "type": "integer"}
    ok = call(wire, "plan", {"plan": {"tasks": [{"title": "a", "due": "2024-01-02T03:04:05Z"}]}})
    assert ok["content"] == [{"type": "text", "text": "ok"}]
    assert type(received["plan"]) is Plan and type(received["plan"].tasks[0]) is Task
    assert received["plan"].tasks[0].due.tzinfo is not None and received["extra"] is None
    for bad in ({"tasks": [{"title": ""}]}, {"tasks": [{"title": "a", "priority": 9}]}, {"tasks": "x"}):
        assert call(wire, "plan", {"plan": bad})["isError"] is True, bad
    wire.close()


@needs_pydantic
def test_model_results_are_the_structured_content():
    def make() -> Task:
        return Task(title="a", due=datetime.datetime(2024, 1, 2, tzinfo=datetime.timezone.utc))

    def many() -> List[Task]:
        return [Task(title="a"), Task(title="b")]
    wire = connect(make, many)
    listed = tools(wire)
    assert listed["make"]["outputSchema"] == Task.model_json_schema()     # the model's own schema, unwrapped
    result = call(wire, "make")
    dumped = {"title": "a", "priority": 3, "due": "2024-01-02T00:00:00Z"}
    assert result["structuredContent"] == dumped
    assert result["content"] == [{"type": "text", "text": json.dumps(dumped, indent=2)}]
    schema = listed["many"]["outputSchema"]
    assert schema["properties"]["result"] == {"type": "array", "items": {"$ref": "#/$defs/Task"}}
    assert set(schema["$defs"]) == {"Task"}
    result = call(wire, "many")
    assert result["structuredContent"] == {"result": [dict(dumped, title="a", due=None), dict(dumped, title="b", due=None)]}
    assert len(result["content"]) == 2                                    # one block per item
    wire.close()


@needs_pydantic
def test_field_as_a_default_is_required_described_and_never_passed_as_itself():
    received = {}

    def greet(name: str = Field(description="who to greet"), times: int = Field(2, ge=1, le=3),
              punctuation: str = Field("!", max_length=1)) -> str:
        received.update(name=name, times=times, punctuation=punctuation)
        return (name + punctuation) * times
    wire = connect(greet)
    schema = tools(wire)["greet"]["inputSchema"]
    assert schema["required"] == ["name"]
    assert schema["properties"]["name"] == {"type": "string", "description": "who to greet"}
    assert schema["properties"]["times"] == {"type": "integer", "minimum": 1, "maximum": 3, "default": 2}
    assert schema["properties"]["punctuation"] == {"type": "string", "maxLength": 1, "default": "!"}
    assert call(wire, "greet", {"name": "ab"})["content"] == [{"type": "text", "text": "ab!ab!"}]
    assert received == {"name": "ab", "times": 2, "punctuation": "!"}
    assert call(wire, "greet", {})["isError"] is True
    assert call(wire, "greet", {"name": "a", "times": 4})["isError"] is True
    wire.close()


@needs_pydantic
def test_field_inside_annotated_keeps_its_constraints():
    try:
        from typing import Annotated
    except ImportError:                  # Python 3.8: pydantic brings typing_extensions
        from typing_extensions import Annotated

    def pick(n: Annotated[int, Field(ge=0, le=10, description="how many")],
             tags: Annotated[List[str], Field(min_length=1, max_length=2)],
             code: Annotated[str, Field(pattern=r"^[A-Z]+$")] = "AB") -> int:
        return n
    wire = connect(pick)
    properties = tools(wire)["pick"]["inputSchema"]["properties"]
    assert properties["n"] == {"type": "integer", "minimum": 0, "maximum": 10, "description": "how many"}
    assert properties["tags"] == {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 2}
    assert properties["code"] == {"type": "string", "pattern": "^[A-Z]+$", "default": "AB"}
    assert call(wire, "pick", {"n": 3, "tags": ["a"]})["structuredContent"] == {"result": 3}
    for bad in ({"n": 11, "tags": ["a"]}, {"n": 1, "tags": []}, {"n": 1, "tags": ["a"], "code": "ab"}):
        assert call(wire, "pick", bad)["isError"] is True, bad
    wire.close()


@needs_pydantic
def test_root_models():
    def count(names: Names) -> int:
        return len(names.root)

    def everyone() -> Names:
        return Names(["a", "b"])
    wire = connect(count, everyone)
    listed = tools(wire)
    assert listed["count"]["inputSchema"]["properties"]["names"] == {"$ref": "#/$defs/Names"}
    assert call(wire, "count", {"names": ["x", "y", "z"]})["structuredContent"] == {"result": 3}
    # A RootModel over a list is not an object: wrapped (mcp 2.3.0 publishes an array and fails tools/list).
    assert listed["everyone"]["outputSchema"] == wrapped({"type": "array", "items": {"type": "string"}, "title": "Names"})
    assert call(wire, "everyone")["structuredContent"] == {"result": ["a", "b"]}
    wire.close()


# --- without pydantic --------------------------------------------------------------------

def test_import_minimcp_imports_nothing_heavy_and_never_pydantic():
    # json, re, typing, enum and pydantic are imported on first use, never by "import minimcp".
    code = ("import os, sys, threading, time; before = set(sys.modules); import minimcp; "
            "print(' '.join(sorted(set(sys.modules) - before)))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, timeout=60)
    imported = set(done.stdout.decode().split())
    assert "minimcp" in imported
    assert not imported & {"json", "re", "typing", "enum", "inspect", "pydantic", "importlib.util"}, imported


def test_sdk_servers_run_with_pydantic_unimportable(tmp_path):
    blocker = tmp_path / "blocked" / "pydantic"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text("raise ImportError('pydantic is blocked for this test')\n")
    source = SDK_SERVER.replace("    import sys\n", '''    import sys, datetime
    try:
        import pydantic
    except ImportError:
        pass
    else:
        raise SystemExit("pydantic should be unimportable here")
''') + '''
    @mcp.tool()
    def later(when: datetime.datetime, days: int = 1) -> dict:
        return {"then": when + datetime.timedelta(days=days)}
'''
    answers, done = run_server(source, [
        {"method": "tools/call", "params": {"name": "shout", "arguments": {"text": "hi"}}},
        {"method": "tools/call", "params": {"name": "later", "arguments": {"when": "2024-01-01T00:00:00Z"}}}],
        env={"PYTHONPATH": str(tmp_path / "blocked")}, tmp_path=tmp_path)
    assert answers[1]["result"]["content"] == [{"type": "text", "text": "HI"}], done.stderr.decode()
    assert json.loads(answers[2]["result"]["content"][0]["text"]) == {"then": "2024-01-02T00:00:00Z"}
