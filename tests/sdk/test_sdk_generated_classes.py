"""The classes of difference the generative differential found, each pinned on the wire.

tests/interop/sdk_generate.py writes servers in the SDKs' styles and runs each under its pinned
SDK and unchanged under ``python3 minimcp.py serve``; every class of difference it showed is a
test here: a server's source in, the JSON lines `serve` writes out, compared with what the SDK
sent (measured with mcp 1.30.0, mcp 2.3.0 and fastmcp 4.2.3; the seed that showed it is named).
No SDK is installed here: `serve` stands in for it.
"""

import json
import os
import select
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import SERVE

# Each server here is written as the generator writes it, as its SDK's users write it: with
# Annotated, list[str] and X | Y at run time, which the SDKs' own Python (3.10 and later) has.
pytestmark = pytest.mark.skipif(sys.version_info < (3, 10), reason="servers written for the SDKs, which need "
                                "Python 3.10, in the syntax their users write")

try:
    import pydantic
except ImportError:
    pydantic = None
needs_pydantic = pytest.mark.skipif(pydantic is None, reason="pydantic 2 is not installed here (the servers import it)")

HEADERS = {
    "mcp1": "from mcp.server.fastmcp import FastMCP, Context\nmcp = FastMCP('gen')\n",
    "mcp2": "from mcp.server.mcpserver import MCPServer, Context\nmcp = MCPServer('gen')\n",
    "fastmcp": "from fastmcp import FastMCP, Context\nmcp = FastMCP('gen')\n",
}


def serve(tmp_path, source: str, requests: list, capabilities: dict = None, version: str = "2025-11-25") -> dict:
    """Serve ``source`` through ``python3 minimcp.py serve`` and send it ``requests`` (each a
    method and its params) after the handshake of ``version`` (2026-07-28: none, each request
    carries its _meta); the answers by request index (1, 2, ...), each with the notifications
    that came before it under "notifications", and the server's stderr under "stderr"."""
    script = tmp_path / "server.py"
    script.write_text(textwrap.dedent(source) + '\n\nif __name__ == "__main__":\n    mcp.run()\n')
    lines = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": capabilities or {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"}] if version != "2026-07-28" else []  # no handshake
    lines += [{"jsonrpc": "2.0", "id": index, "method": method, "params": params}
              for index, (method, params) in enumerate(requests, 1)]
    process = subprocess.Popen(SERVE + [str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=dict(os.environ, PYTHONHASHSEED="0"), bufsize=0)
    process.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in lines))
    # stdin stays open until every request is answered: at EOF the server cancels what still runs.
    expected, answers, heard = {m["id"] for m in lines if "id" in m}, {}, []
    deadline = time.monotonic() + 60
    while not expected <= set(answers) and select.select([process.stdout], [], [], max(0, deadline - time.monotonic()))[0]:
        raw = process.stdout.readline()
        if not raw:
            break
        message = json.loads(raw)
        if "id" in message and "method" not in message:
            answers[message["id"]] = dict(message, notifications=heard[:])
            heard.clear()
        else:
            heard.append(message)
    _, err = process.communicate(timeout=60)
    answers["stderr"] = err.decode(errors="replace")
    assert expected <= set(answers), answers
    return answers


def read(uri: str) -> tuple:
    return ("resources/read", {"uri": uri})


def call(name: str, arguments: dict = None) -> tuple:
    return ("tools/call", {"name": name, "arguments": arguments or {}})


# --- resources: a template that raises; a dict with a "text" key is data ----------------------

TEMPLATES = '''
{header}
NOTES = {{"1": "Buy milk"}}


@mcp.resource("notes://{{note_id}}")
def get_note(note_id: str) -> dict:
    if note_id not in NOTES:
        raise ValueError(f"no note {{note_id}}")
    return {{"id": note_id, "text": NOTES[note_id]}}


@mcp.resource("config://app")
def config() -> str:
    raise ValueError("the disk is gone")
'''


@pytest.mark.parametrize("dialect, template, static", [
    ("mcp1", "Error creating resource from template: Error creating resource from template: no note 99",
     "Error reading resource config://app: the disk is gone"),
    ("mcp2", "Error creating resource from template notes://99", "Error reading resource config://app"),
    ("fastmcp", "Error reading resource 'notes://99': no note 99",
     "Error reading resource 'config://app': the disk is gone"),
])
def test_a_resource_function_that_raises_is_worded_as_its_sdk_words_it_with_the_spec_code(
        tmp_path, dialect, template, static):
    # Seeds 13 (mcp2), 15 (fastmcp4) and 54 (mcp1, whose two layers both wrap it): mcp 1.x says code 0,
    # which no JSON-RPC code is; an internal error is -32603 in every dialect.
    answers = serve(tmp_path, TEMPLATES.format(header=HEADERS[dialect]), [read("notes://99"), read("config://app")])
    assert answers[1]["error"]["code"] == answers[2]["error"]["code"] == -32603
    assert answers[1]["error"]["message"] == template
    assert answers[2]["error"]["message"] == static


@pytest.mark.parametrize("dialect", ["mcp2", "fastmcp"])
def test_resource_error_keeps_its_own_message(tmp_path, dialect):
    module = "mcp.server.mcpserver.exceptions" if dialect == "mcp2" else "fastmcp.exceptions"
    source = HEADERS[dialect] + f'''
from {module} import ResourceError


@mcp.resource("notes://{{note_id}}")
def get_note(note_id: str) -> str:
    raise ResourceError(f"no note {{note_id}}")
'''
    answers = serve(tmp_path, source, [read("notes://99")])
    assert answers[1]["error"] == {"code": -32603, "message": "no note 99"}


@pytest.mark.parametrize("dialect, text", [
    ("mcp1", '{\n  "id": "1",\n  "text": "Buy milk"\n}'),
    ("mcp2", '{\n  "id": "1",\n  "text": "Buy milk"\n}'),
    ("fastmcp", '{"id": "1", "text": "Buy milk"}'),
])
def test_a_dict_with_a_text_key_returned_by_a_resource_is_data_written_as_json(tmp_path, dialect, text):
    # Seeds 3, 8, 13: the SDKs write any dict as JSON text; only minimcp's own API reads
    # {"text": ...} as a contents entry.
    answers = serve(tmp_path, TEMPLATES.format(header=HEADERS[dialect]), [read("notes://1")])
    assert answers[1]["result"]["contents"] == [{"uri": "notes://1", "mimeType": "text/plain", "text": text}]


# --- listings: prompt arguments described by Field, titles, a type's docstring, odd names ------

@needs_pydantic
@pytest.mark.parametrize("dialect", ["mcp1", "mcp2"])
def test_a_prompt_argument_is_described_by_its_field(tmp_path, dialect):
    # Seed 6 (mcp1): the SDKs describe a prompt's arguments from their pydantic fields.
    source = HEADERS[dialect] + '''
from typing import Annotated
from pydantic import Field


@mcp.prompt()
def review(code: Annotated[str, Field(description="The code to review")], tone: str = Field("plain", description="How to say it"),
           language: str = "en") -> str:
    return f"Review {code} in {tone} {language}"
'''
    answers = serve(tmp_path, source, [("prompts/list", {})])
    assert answers[1]["result"]["prompts"][0]["arguments"] == [
        {"name": "code", "description": "The code to review", "required": True},
        {"name": "tone", "description": "How to say it", "required": False},
        {"name": "language", "required": False}]


def test_fastmcp_titles_a_tool_from_its_name_dashes_and_all(tmp_path):
    # Seed 3 (fastmcp4): fastmcp 4.2.3's _default_title reads "_" and "-" as spaces.
    source = HEADERS["fastmcp"] + '''

@mcp.tool(name="count-orders-1")
def count_orders() -> int:
    return 1


@mcp.tool
def search_notes() -> int:
    return 1
'''
    answers = serve(tmp_path, source, [("tools/list", {})])
    assert [t["title"] for t in answers[1]["result"]["tools"]] == ["Count Orders 1", "Search Notes"]


@needs_pydantic
@pytest.mark.parametrize("dialect", ["mcp1", "fastmcp"])
def test_the_docstring_of_a_parameters_enum_dataclass_or_typeddict_describes_it(tmp_path, dialect):
    # Seed 0 (mcp1): pydantic describes a type by its docstring; the parameter's own words win.
    source = HEADERS[dialect] + '''
from dataclasses import dataclass
from enum import Enum
from typing import Optional, TypedDict


class Color(str, Enum):
    """A colour to paint with."""
    RED = "red"


class Priority(Enum):
    LOW = 1


@dataclass
class Point:
    """A point on the plane."""
    x: float


@dataclass
class Plain:
    x: float


class DateRange(TypedDict):
    """A range of ISO dates."""
    start: str


@mcp.tool()
def paint(shade: Color, level: Priority, at: Point, bare: Plain, period: DateRange, other: Optional[Color] = None) -> str:
    """Paint.

    Args:
        at: Where to paint.
    """
    return "done"
'''
    answers = serve(tmp_path, source, [("tools/list", {})])
    properties = answers[1]["result"]["tools"][0]["inputSchema"]["properties"]
    assert properties["shade"]["description"] == "A colour to paint with."
    assert "description" not in properties["level"] and "description" not in properties["bare"]
    assert properties["period"]["description"] == "A range of ISO dates."
    assert properties["other"]["anyOf"][0]["description"] == "A colour to paint with."
    # mcp 1.x reads no Args: section (the type's words stay); fastmcp's Args: entry is the parameter's
    assert properties["at"]["description"] == ("Where to paint." if dialect == "fastmcp" else "A point on the plane.")


@pytest.mark.parametrize("dialect", ["mcp1", "mcp2", "fastmcp"])
def test_a_tool_name_the_sdk_accepts_with_a_warning_is_registered_with_that_warning(tmp_path, dialect):
    # Seeds 9 and 19: SEP-986 says SHOULD; the SDKs warn on the log and register "Find all files".
    source = HEADERS[dialect] + '''

@mcp.tool(name="Find all files")
def find_files() -> str:
    return "found"
'''
    answers = serve(tmp_path, source, [("tools/list", {}), call("Find all files")])
    assert [t["name"] for t in answers[1]["result"]["tools"]] == ["Find all files"]
    assert answers[2]["result"]["content"] == [{"type": "text", "text": "found"}]
    assert 'Tool name validation warning for "Find all files":' in answers["stderr"]
    assert "Tool name contains spaces, which may cause parsing issues" in answers["stderr"]


@pytest.mark.parametrize("dialect", ["mcp1", "mcp2", "fastmcp"])
def test_an_int_or_float_parameter_keeps_a_float_a_float(tmp_path, dialect):
    # Seeds 3 and 13: pydantic's smart union keeps 1000000.0 a float for int | float (and 7 an int).
    source = HEADERS[dialect] + '''
from typing import Union


@mcp.tool()
def size(amount: Union[int, float]) -> str:
    return repr(amount)
'''
    answers = serve(tmp_path, source, [call("size", {"amount": 1000000.0}), call("size", {"amount": 7})])
    assert answers[1]["result"]["content"][0]["text"] == "1000000.0"
    assert answers[2]["result"]["content"][0]["text"] == "7"


@needs_pydantic
def test_fastmcp_describes_a_prompt_argument_by_its_field_and_says_how_to_write_it(tmp_path):
    # fastmcp 4.2.3: an Annotated argument is not plain str, so the JSON Schema note follows, Field's words in it.
    source = HEADERS["fastmcp"] + '''
from typing import Annotated
from pydantic import Field


@mcp.prompt()
def review(code: Annotated[str, Field(description="The code to review")], language: str = "en") -> str:
    return f"Review {code} in {language}"
'''
    answers = serve(tmp_path, source, [("prompts/list", {})])
    assert answers[1]["result"]["prompts"][0]["arguments"] == [
        {"name": "code", "description": 'The code to review\n\nProvide a value matching the following JSON schema: '
         '{"description":"The code to review","type":"string"}. Encode non-string values as JSON.', "required": True},
        {"name": "language", "required": False}]


# --- Context: a tool reads the server's own resources, sync and async ---------------------------

READS = {"mcp1": "list(await ctx.read_resource({uri}))[0]", "mcp2": "list(await ctx.read_resource({uri}))[0]",
         "fastmcp": "(await ctx.read_resource({uri})).contents[0]"}


@pytest.mark.parametrize("dialect", ["mcp1", "mcp2", "fastmcp"])
def test_a_tool_reads_its_own_resources_as_its_sdk_hands_them_over(tmp_path, dialect):
    # Seeds 0 and 12 (mcp1): the SDKs hand over content objects (.content, .mime_type; fastmcp 4 a
    # result with .contents), and an async resource read from an async tool runs to its end.
    source = HEADERS[dialect] + f'''

@mcp.resource("config://app")
def config() -> str:
    return "theme=dark"


@mcp.resource("config://later")
async def later() -> str:
    return "language=en"


@mcp.resource("images://logo.png", mime_type="image/png")
def logo() -> bytes:
    return b"PNG"


@mcp.tool()
async def settings(ctx: Context) -> str:
    first = {READS[dialect].format(uri='"config://app"')}
    second = {READS[dialect].format(uri='"config://later"')}
    image = {READS[dialect].format(uri='"images://logo.png"')}
    return f"{{first.content}} {{first.mime_type}} {{second.content}} {{image.content!r}} {{image.mime_type}}"
'''
    answers = serve(tmp_path, source, [call("settings")])
    assert answers[1]["result"]["content"] == [
        {"type": "text", "text": "theme=dark text/plain language=en b'PNG' image/png"}]


# --- errors a tool meets: McpError, a question its client cannot answer ------------------------

RAISE_MCP = {
    "mcp1": ("from mcp.shared.exceptions import McpError\nfrom mcp.types import ErrorData, INVALID_PARAMS\n",
             "raise McpError(ErrorData(code=INVALID_PARAMS, message=f'nothing matches {query}'))"),
    "mcp2": ("from mcp.shared.exceptions import MCPError\nfrom mcp.types import INVALID_PARAMS\n",
             "raise MCPError(code=INVALID_PARAMS, message=f'nothing matches {query}')"),
    "fastmcp": ("from mcp.shared.exceptions import MCPError\nfrom mcp.types import INVALID_PARAMS\n",
                "raise MCPError(code=INVALID_PARAMS, message=f'nothing matches {query}')"),
}


@pytest.mark.parametrize("dialect, answer", [
    ("mcp1", {"result": {"content": [{"type": "text", "text": "Error executing tool find: nothing matches milk"}],
                         "isError": True}}),
    ("mcp2", {"error": {"code": -32602, "message": "nothing matches milk"}}),
    ("fastmcp", {"result": {"content": [{"type": "text", "text": "Error calling tool 'find': nothing matches milk"}],
                            "isError": True}}),
])
def test_an_mcp_error_raised_in_a_tool_answers_as_its_sdk_answers_it(tmp_path, dialect, answer):
    # Seeds 0 (mcp1) and 15 (fastmcp4): mcp 2.x passes an MCPError through as the call's error;
    # mcp 1.x and fastmcp make it a failed call.
    imports, statement = RAISE_MCP[dialect]
    source = HEADERS[dialect] + imports + f'''

@mcp.tool()
def find(query: str) -> str:
    {statement}
'''
    got = serve(tmp_path, source, [call("find", {"query": "milk"})])[1]
    assert {k: v for k, v in got.items() if k in answer} == answer


ASKS = {
    "mcp1": ("from mcp.types import SamplingMessage, TextContent\n",
             "(await ctx.session.create_message(messages=[SamplingMessage(role='user', content=TextContent("
             "type='text', text='hi'))], max_tokens=5)).content.text"),
    "mcp2": ("from mcp.types import SamplingMessage, TextContent\n",
             "(await ctx.session.create_message(messages=[SamplingMessage(role='user', content=TextContent("
             "type='text', text='hi'))], max_tokens=5)).content.text"),
    "fastmcp": ("", "(await ctx.sample('hi')).text"),
}


@pytest.mark.parametrize("dialect, version, answer", [
    ("mcp1", "2025-11-25", {"result": {"content": [{"type": "text", "text": "Error executing tool ask: Sampling not "
                                                     "supported"}], "isError": True}}),
    ("mcp2", "2025-11-25", {"error": {"code": -32600, "message": "Sampling not supported"}}),
    ("fastmcp", "2025-11-25", {"result": {"content": [{"type": "text", "text": "Error calling tool 'ask': Sampling "
                                                        "not supported"}], "isError": True}}),
    ("mcp1", "2026-07-28", {"error": {"code": -32021}}),
    ("fastmcp", "2026-07-28", {"error": {"code": -32021}}),
])
def test_a_question_the_client_did_not_declare_is_never_sent_and_answers_per_dialect_where_the_spec_lets_it(
        tmp_path, dialect, version, answer):
    # Seeds 1, 12 (sampling), 3, 7, 14 (elicitation): before 2026-07-28 the spec names no code for
    # it, and each SDK answers its own way; from 2026-07-28 it is -32021 in every dialect.
    imports, asking = ASKS[dialect]
    source = HEADERS[dialect] + imports + f'''

@mcp.tool()
async def ask(ctx: Context) -> str:
    return {asking}
'''
    params = {"name": "ask", "arguments": {}}
    if version == "2026-07-28":
        params["_meta"] = {"io.modelcontextprotocol/protocolVersion": version,
                           "io.modelcontextprotocol/clientCapabilities": {}}
        got = serve(tmp_path, source, [("tools/call", params)], version=version)[1]
    else:
        got = serve(tmp_path, source, [("tools/call", params)])[1]
    assert not [m for m in got["notifications"] if m.get("method") == "sampling/createMessage"]
    if "error" in answer and "message" not in answer["error"]:
        assert got["error"]["code"] == answer["error"]["code"]
    else:
        assert {k: v for k, v in got.items() if k in answer} == answer


def test_fastmcp_logs_its_log_data(tmp_path):
    # Seeds 14 (fastmcp2) and 1010 (fastmcp4): fastmcp sends {"msg": ..., "extra": ...} as the data.
    source = HEADERS["fastmcp"] + '''

@mcp.tool()
async def work(ctx: Context) -> str:
    await ctx.info("working")
    await ctx.warning("careful", extra={"step": 2}, logger_name="jobs")
    return "done"
'''
    answers = serve(tmp_path, source, [("logging/setLevel", {"level": "debug"}), call("work")])
    logged = [m["params"] for m in answers[2]["notifications"] if m.get("method") == "notifications/message"]
    assert logged == [{"level": "info", "data": {"msg": "working", "extra": None}},
                      {"level": "warning", "data": {"msg": "careful", "extra": {"step": 2}}, "logger": "jobs"}]


# --- results: what an untyped dict holds, as pydantic writes it ------------------------------

@pytest.mark.parametrize("dialect", ["mcp1", "fastmcp"])
def test_an_untyped_dict_result_holding_decimals_paths_enums_and_datetimes_is_json(tmp_path, dialect):
    # Seeds 3 and 50 (fastmcp): pydantic's to_jsonable_python writes them; minimcp answered -32603.
    source = HEADERS[dialect] + '''
from datetime import datetime
from decimal import Decimal
from enum import Enum
from pathlib import Path
from uuid import UUID


class Color(str, Enum):
    BLUE = "blue"


@mcp.tool()
def report():
    return {"price": Decimal("9.50"), "path": Path("/tmp/report.txt"), "color": Color.BLUE,
            "when": datetime(2024, 5, 17, 9, 30), "id": UUID("12345678-1234-5678-1234-567812345678")}
'''
    result = serve(tmp_path, source, [call("report")])[1]["result"]
    plain = {"price": "9.50", "path": "/tmp/report.txt", "color": "blue", "when": "2024-05-17T09:30:00",
             "id": "12345678-1234-5678-1234-567812345678"}
    assert json.loads(result["content"][0]["text"]) == plain
    assert result.get("structuredContent") == (plain if dialect == "fastmcp" else None)


def test_fastmcp_lists_no_output_schema_for_none_and_sends_no_block_for_an_empty_list(tmp_path):
    # Seed 33 (fastmcp4) and seven others: measured on fastmcp 4.2.3.
    source = HEADERS["fastmcp"] + '''
HISTORY = []


@mcp.tool()
def remember(text: str) -> None:
    HISTORY.append(text)


@mcp.tool()
def matches() -> list[str]:
    return []
'''
    answers = serve(tmp_path, source, [("tools/list", {}), call("remember", {"text": "x"}), call("matches")])
    listed = {t["name"]: t for t in answers[1]["result"]["tools"]}
    assert "outputSchema" not in listed["remember"]
    assert answers[2]["result"] == {"content": [], "isError": False}
    assert answers[3]["result"]["content"] == [] and answers[3]["result"]["structuredContent"] == {"result": []}


@needs_pydantic
@pytest.mark.parametrize("dialect", ["mcp1", "mcp2"])
def test_a_returned_models_docstring_describes_its_output_schema_a_typeddicts_in_mcp2_only(tmp_path, dialect):
    # Seeds 66, 79: pydantic's model schema keeps its docstring; mcp 1.x builds a TypedDict's own
    # model (undescribed), mcp 2.3.0 hands pydantic the TypedDict itself (seeds 1015, 1159).
    source = HEADERS[dialect] + '''
from typing import TypedDict
from pydantic import BaseModel


class Report(BaseModel):
    """What a search found."""
    title: str


class Stats(TypedDict):
    """Totals."""
    total: int


@mcp.tool()
def report() -> Report:
    return Report(title="x")


@mcp.tool()
def stats() -> Stats:
    return Stats(total=1)
'''
    listed = {t["name"]: t["outputSchema"] for t in serve(tmp_path, source, [("tools/list", {})])[1]["result"]["tools"]}
    assert listed["report"]["description"] == "What a search found."
    assert listed["stats"].get("description") == ("Totals." if dialect == "mcp2" else None)


def test_mcp1_words_a_result_that_fails_its_annotation_as_pydantic_does(tmp_path):
    # Seeds 0, 60, 90, 174 (mcp1): measured on mcp 1.30.0 with pydantic 2.14.4.
    source = HEADERS["mcp1"] + '''
from typing import TypedDict


class Stats(TypedDict):
    total: int
    mean: float


@mcp.tool()
def create_books() -> list[str]:
    return [1, 2]


@mcp.tool()
def search_tasks() -> Stats:
    return {"total": "all"}
'''
    answers = serve(tmp_path, source, [call("create_books"), call("search_tasks")])
    link = "    For further information visit https://errors.pydantic.dev/%s/v/" % ".".join(pydantic.VERSION.split(".")[:2]) \
        if pydantic is not None else "    For further information visit https://errors.pydantic.dev/2.14/v/"
    assert answers[1]["result"]["content"][0]["text"] == (
        "Error executing tool create_books: 2 validation errors for create_booksOutput\nresult.0\n"
        "  Input should be a valid string [type=string_type, input_value=1, input_type=int]\n" + link + "string_type\n"
        "result.1\n  Input should be a valid string [type=string_type, input_value=2, input_type=int]\n"
        + link + "string_type")
    assert answers[2]["result"]["content"][0]["text"] == (
        "Error executing tool search_tasks: 2 validation errors for Stats\ntotal\n  Input should be a valid integer, "
        "unable to parse string as an integer [type=int_parsing, input_value='all', input_type=str]\n" + link +
        "int_parsing\nmean\n  Field required [type=missing, input_value={'total': 'all'}, input_type=dict]\n"
        + link + "missing")


def test_missing_prompt_arguments_are_named_in_the_order_the_sdks_set_has_them(tmp_path):
    # Seed 69 (fastmcp4): mcp and fastmcp say f"Missing required arguments: {required - provided}".
    import sys
    source = HEADERS["fastmcp"] + '''

@mcp.prompt()
def review(topic: str, language: str, audience: str, code: str = "plain") -> str:
    return "x"
'''
    theirs = subprocess.run([sys.executable, "-c", "print({n for n in ('topic', 'language', 'audience')} - set())"],
                            env=dict(os.environ, PYTHONHASHSEED="0"), capture_output=True, text=True).stdout.strip()
    answer = serve(tmp_path, source, [("prompts/get", {"name": "review", "arguments": {}})])[1]
    assert answer["error"] == {"code": -32602, "message": "Missing required arguments: " + theirs}


def test_mcp1_sends_a_list_of_text_content_also_as_structured_content(tmp_path):
    # Seeds 24, 54, 72, 138, 198 (mcp1): mcp 1.30.0 lists an outputSchema for -> list[TextContent]
    # and sends the blocks again as {"result": [...]}; mcp 2.3.0 does neither.
    source = HEADERS["mcp1"] + '''
from mcp.types import TextContent


@mcp.tool()
def notes() -> list[TextContent]:
    return [TextContent(type="text", text="hi")]
'''
    answers = serve(tmp_path, source, [("tools/list", {}), call("notes")])
    schema = answers[1]["result"]["tools"][0]["outputSchema"]
    assert schema["required"] == ["result"] and schema["properties"]["result"]["items"]["required"] == ["type", "text"]
    assert answers[2]["result"]["content"] == [{"type": "text", "text": "hi"}]
    assert answers[2]["result"]["structuredContent"] == {
        "result": [{"type": "text", "text": "hi", "annotations": None, "_meta": None}]}
    two = serve(tmp_path, source.replace(HEADERS["mcp1"], HEADERS["mcp2"]), [("tools/list", {}), call("notes")])
    assert "outputSchema" not in two[1]["result"]["tools"][0] and "structuredContent" not in two[2]["result"]


def test_a_union_of_whole_results_registers_and_client_side_imports_do_not_stop_the_server(tmp_path):
    # issue 38: "-> CallToolResult | InputRequiredResult" was a SchemaError at registration; a server
    # module importing the SDK's client names it never uses on the server path still imports.
    source = HEADERS["mcp2"] + '''
from mcp.client.session import ClientSession
from mcp.client.stdio import stdio_client
from mcp.shared.context import RequestContext
from mcp.types import CallToolResult, InputRequiredResult, TextContent


@mcp.tool()
def go() -> CallToolResult | InputRequiredResult:
    return CallToolResult(content=[TextContent(type="text", text="done")])
'''
    answers = serve(tmp_path, source, [("tools/list", {}), call("go")])
    assert "outputSchema" not in answers[1]["result"]["tools"][0]
    assert answers[2]["result"] == {"content": [{"type": "text", "text": "done"}], "isError": False}


def test_fastmcp_tool_from_function_and_from_tool_register_as_in_fastmcp(tmp_path):
    # issue 38 (seen on servers from GitHub): `from fastmcp.tools import Tool`, Tool.from_function,
    # and Tool.from_tool(tool, name=..., description=...); listed as fastmcp 4.2.3 lists them.
    source = HEADERS["fastmcp"] + '''
from fastmcp.tools import Tool


def search(query: str, limit: int = 10) -> str:
    """Search things."""
    return f"{query}:{limit}"


base = Tool.from_function(search)
mcp.add_tool(base)
mcp.add_tool(Tool.from_tool(base, name="find", description="Find things."))
'''
    answers = serve(tmp_path, source, [("tools/list", {}), call("find", {"query": "a"})])
    assert [(t["name"], t["description"], t["title"]) for t in answers[1]["result"]["tools"]] == [
        ("search", "Search things.", "Search"), ("find", "Find things.", "Find")]
    assert answers[2]["result"]["content"] == [{"type": "text", "text": "a:10"}]


@pytest.mark.parametrize("dialect, text", [
    ("mcp1", "Error executing tool summarize: 1 validation error for Summary\n  Input should be a valid dictionary or "
             "object to extract fields from [type=model_attributes_type, input_value='not a summary', input_type=str]"),
    ("fastmcp", "Error calling tool 'summarize': structured_content must be a dict or None. Got str: 'not a summary'. "
                "Tools should wrap non-dict values based on their output_schema."),
])
def test_a_dataclass_tool_returning_a_string_fails_in_its_sdks_words(tmp_path, dialect, text):
    # Seeds 1023, 1200 (measured on mcp 1.30.0 and fastmcp 4.2.3).
    source = HEADERS[dialect] + '''
from dataclasses import dataclass


@dataclass
class Summary:
    text: str
    words: int


@mcp.tool()
def summarize() -> Summary:
    return "not a summary"
'''
    result = serve(tmp_path, source, [call("summarize")])[1]["result"]
    assert result["isError"] is True and result["content"][0]["text"].startswith(text)
