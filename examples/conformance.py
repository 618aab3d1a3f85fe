"""The fixture the official conformance suite (`@modelcontextprotocol/conformance`) expects.

The suite's server scenarios call tools, resources and prompts by fixed names; this file
gives them those names, written with minimcp's public API only, for both pinned suite
versions (0.1.16: the handshake era; 0.2.0-alpha.12: also 2026-07-28 and the tasks and
skills extensions). `tests/interop/run_conformance.sh` runs the suite against it.

The suite runs against this file in every dialect: CONFORMANCE_DIALECT names one ("minimcp" when
unset; "mcp2" is mcp 2.3.0's), and CONFORMANCE_DIALECT=none passes no `dialect=` at all, so the
default a newcomer gets is tested as it is. What the spec fixes must not change with it.

Where minimcp cannot yet do what a scenario asks (for example name its input requests, or
ask several questions in one round), the fixture still asks in the way minimcp can, so the
scenario fails visibly and is listed in `tests/interop/conformance_baseline.txt`, instead
of being hidden by a fixture that cheats.

    python3 minimcp.py inspect -- python3 examples/conformance.py
"""

import os
import struct
import sys
import time
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from minimcp import Audio, Context, EmbeddedResource, Image, MCPError, MCPServer  # noqa: E402

INSTRUCTIONS = "Fixture for the official MCP conformance suite."
DIALECT = os.environ.get("CONFORMANCE_DIALECT", "minimcp")
if DIALECT == "none":                   # exactly what a newcomer writes
    app = MCPServer("minimcp-conformance", version="1.0.0", instructions=INSTRUCTIONS)
else:
    app = MCPServer("minimcp-conformance", version="1.0.0", instructions=INSTRUCTIONS, dialect=DIALECT)


def _png() -> bytes:
    """A 2x2 red PNG, built here so the fixture carries no opaque blobs."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    rows = b"".join(b"\x00" + b"\xff\x00\x00" * 2 for _ in range(2))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def _wav() -> bytes:
    """A tenth of a second of 8 kHz silence as a WAV file."""
    frames = b"\x00\x00" * 800
    fmt = struct.pack("<HHIIHH", 1, 1, 8000, 16000, 2, 16)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(frames)) + frames
    return b"RIFF" + struct.pack("<I", len(body)) + body


PNG, WAV = _png(), _wav()
EMPTY = {"type": "object", "properties": {}}


def _text_of(reply: dict) -> str:
    """The text of a sampling result, whether its content is one block or a list."""
    content = reply.get("content")
    blocks = content if isinstance(content, list) else [content]
    return " ".join(b.get("text", "") for b in blocks if isinstance(b, dict) and b.get("type") == "text")


def _form(field: str, kind: str = "string") -> dict:
    return {"type": "object", "properties": {field: {"type": kind}}, "required": [field]}


def _accepted(answer: dict, field: str):
    """The answer's value, or None when the user did not accept."""
    return (answer.get("content") or {}).get(field) if answer.get("action") == "accept" else None


def _ask(ctx: Context, message: str, field: str, kind: str = "string", key: str = None):
    """Ask for one field; the answer's value, or None when the user did not accept."""
    return _accepted(ctx.elicit(message, _form(field, kind), key=key), field)


# -- content scenarios (tools-call-*) -------------------------------------------------------------
@app.tool()
def test_simple_text() -> str:
    """Answer with one text block."""
    return "This is a simple text response for testing."


@app.tool()
def test_image_content() -> Image:
    """Answer with one PNG image block."""
    return Image(PNG, "image/png")


@app.tool()
def test_audio_content() -> Audio:
    """Answer with one WAV audio block."""
    return Audio(WAV, "audio/wav")


@app.tool()
def test_embedded_resource() -> EmbeddedResource:
    """Answer with one embedded text resource."""
    return EmbeddedResource("test://embedded-resource", text="This is an embedded resource content.",
                            mime_type="text/plain")


@app.tool()
def test_multiple_content_types():
    """Answer with a text, an image and an embedded JSON resource."""
    return ["Multiple content types test:", Image(PNG, "image/png"),
            EmbeddedResource("test://mixed-content-resource", text='{"test": "data", "value": 123}',
                             mime_type="application/json")]


@app.tool()
def test_tool_with_logging(ctx: Context) -> str:
    """Send three log messages while running."""
    for message in ("Tool execution started", "Tool processing data", "Tool execution completed"):
        ctx.info(message)
    return "Tool with logging executed successfully"


@app.tool()
def test_tool_with_progress(ctx: Context) -> str:
    """Report progress 0, 50 and 100 of 100."""
    for step in (0, 50, 100):
        ctx.progress(step, 100, "Completed step %d of 100" % step)
    return "progress reported"


@app.tool()
def test_error_handling() -> str:
    """Always fail: the failure must arrive as an isError result."""
    raise RuntimeError("This tool intentionally returns an error for testing")


@app.tool()
def test_reconnection() -> str:
    """SEP-1699 closes the SSE stream mid-call; over stdio there is no stream to close."""
    return "Reconnection test completed."


@app.tool()
def test_sampling(prompt: str, ctx: Context) -> str:
    """Ask the client's model.

    Args:
        prompt: what to ask it
    """
    return "LLM response: " + _text_of(ctx.sample(prompt, max_tokens=100))


@app.tool()
def test_elicitation(message: str, ctx: Context) -> str:
    """Ask the user for a response.

    Args:
        message: what to show the user
    """
    answer = ctx.elicit(message, {"type": "object", "required": ["username", "email"], "properties": {
        "username": {"type": "string", "description": "User's response"},
        "email": {"type": "string", "description": "User's email address"}}})
    return "User response: action=%s, content=%s" % (answer.get("action"), answer.get("content") or {})


SEP1034_SCHEMA = {"type": "object", "required": [], "properties": {
    "name": {"type": "string", "description": "User name", "default": "John Doe"},
    "age": {"type": "integer", "description": "User age", "default": 30},
    "score": {"type": "number", "description": "User score", "default": 95.5},
    "status": {"type": "string", "description": "User status", "enum": ["active", "inactive", "pending"],
               "default": "active"},
    "verified": {"type": "boolean", "description": "Verification status", "default": True},
}}

SEP1330_SCHEMA = {"type": "object", "required": [], "properties": {
    "untitledSingle": {"type": "string", "description": "Select one option",
                       "enum": ["option1", "option2", "option3"]},
    "titledSingle": {"type": "string", "description": "Select one option with titles", "oneOf": [
        {"const": "value1", "title": "First Option"}, {"const": "value2", "title": "Second Option"},
        {"const": "value3", "title": "Third Option"}]},
    "legacyEnum": {"type": "string", "description": "Select one option (legacy)", "enum": ["opt1", "opt2", "opt3"],
                   "enumNames": ["Option One", "Option Two", "Option Three"]},
    "untitledMulti": {"type": "array", "description": "Select multiple options", "minItems": 1, "maxItems": 3,
                      "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
    "titledMulti": {"type": "array", "description": "Select multiple options with titles", "minItems": 1,
                    "maxItems": 3, "items": {"anyOf": [
                        {"const": "value1", "title": "First Choice"}, {"const": "value2", "title": "Second Choice"},
                        {"const": "value3", "title": "Third Choice"}]}},
}}


@app.tool()
def test_elicitation_sep1034_defaults(ctx: Context) -> str:
    """Elicit a form whose every primitive field has a default (SEP-1034)."""
    answer = ctx.elicit("Please review and update the form fields with defaults", SEP1034_SCHEMA)
    return "Elicitation completed: action=%s, content=%s" % (answer.get("action"), answer.get("content") or {})


@app.tool()
def test_elicitation_sep1330_enums(ctx: Context) -> str:
    """Elicit the five enum shapes of SEP-1330 (single and multi select, titled and not)."""
    answer = ctx.elicit("Please select options from the enum fields", SEP1330_SCHEMA)
    return "Elicitation completed: action=%s, content=%s" % (answer.get("action"), answer.get("content") or {})


# SEP-1613 / SEP-2106: the listed inputSchema must keep every 2020-12 keyword it was given.
JSON_SCHEMA_2020_12 = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {"address": {"$anchor": "addressDef", "type": "object",
                          "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
    "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"},
                   "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                   "phone": {"type": "string"}, "email": {"type": "string"}},
    "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
    "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
    "then": {"required": ["phone"]},
    "else": {"required": ["email"]},
    "additionalProperties": False,
}


def _json_schema_tool(**arguments) -> str:
    return "JSON Schema 2020-12 tool called with: %s" % sorted(arguments)


app.add_tool(_json_schema_tool, name="json_schema_2020_12_tool", input_schema=JSON_SCHEMA_2020_12,
             description="Tool with JSON Schema 2020-12 features (SEP-1613)")


# SEP-2243: a parameter mirrored into an Mcp-Param-* HTTP header.
def _lookup_region(region: str, query: str) -> str:
    return "region %s: %s" % (region, query)


app.add_tool(_lookup_region, name="test_headers", description="A tool whose region is sent as a header",
             input_schema={"type": "object", "required": ["region", "query"], "properties": {
                 "region": {"type": "string", "x-mcp-header": "Region"}, "query": {"type": "string"}}})


# -- 2026-07-28 scenarios (stateless, input-required) ---------------------------------------------
@app.tool()
def test_missing_capability(ctx: Context) -> str:
    """Needs sampling: a client that did not declare it must get -32021."""
    ctx.sample("ping", max_tokens=1)
    return "Success"


@app.tool()
def test_input_required_result_elicitation(ctx: Context) -> str:
    """Ask the user's name, then greet them."""
    return "Hello, %s!" % _ask(ctx, "What is your name?", "name", key="user_name")


@app.tool()
def test_input_required_result_sampling(ctx: Context) -> str:
    """Ask the client's model one question."""
    return "Sampling result: " + _text_of(ctx.sample("What is the capital of France?", max_tokens=100))


@app.tool()
def test_input_required_result_list_roots(ctx: Context) -> str:
    """Ask for the client's roots."""
    return "Found %d root(s)" % len(ctx.list_roots())


@app.tool()
def test_input_required_result_request_state(ctx: Context) -> str:
    """One confirmation; minimcp keeps the answer in its signed requestState."""
    return "state-ok: requestState validated" if _ask(ctx, "Please confirm", "ok", "boolean") else "not confirmed"


@app.tool()
def test_input_required_result_multiple_inputs(ctx: Context) -> str:
    """An elicitation, a sampling and a roots question, asked in one round."""
    asked = ctx.questions()
    asked.elicit("What is your name?", _form("name"), key="user_name")
    asked.sample("Generate a greeting", max_tokens=50, key="greeting")
    asked.list_roots(key="client_roots")
    answers = asked.ask()
    return "Name: %s; Greeting: %s; Roots: %d" % (_accepted(answers["user_name"], "name"),
                                                   _text_of(answers["greeting"]), len(answers["client_roots"]))


@app.tool()
def test_input_required_result_multi_round(ctx: Context) -> str:
    """Two questions, the second asked only after the first is answered."""
    name = _ask(ctx, "Step 1: What is your name?", "name")
    color = _ask(ctx, "Step 2: What is your favorite color?", "color")
    return "Multi-round complete for %s who likes %s" % (name, color)


@app.tool()
def test_input_required_result_tampered_state(ctx: Context) -> str:
    """One confirmation whose requestState the suite tampers with."""
    _ask(ctx, "Please confirm", "ok", "boolean")
    return "integrity-ok: state verified"


@app.tool()
def test_input_required_result_capabilities(ctx: Context) -> str:
    """Ask only what the client declared it can answer."""
    caps = ctx.client_capabilities or {}
    got = []
    if "elicitation" in caps:
        got.append("elicit_input=%s" % _ask(ctx, "Elicitation input", "value"))
    if "sampling" in caps:
        got.append("sample_input=%s" % _text_of(ctx.sample("Sample request", max_tokens=50)))
    return "capabilities-ok: " + ",".join(got) if got else "No supported capabilities declared"


@app.tool()
def test_streaming_elicitation(ctx: Context) -> str:
    """Send a progress notification before the result."""
    ctx.progress(50, 100)
    return "Streaming complete"


@app.tool()
def test_logging_tool(ctx: Context) -> str:
    """Log once; under 2026-07-28 the message may go out only if the request asked for a logLevel."""
    ctx.info("Diagnostic trace logging activated")
    return "Logging evaluated"


def _changing_tool() -> str:
    """A tool that test_trigger_tool_change adds and removes."""
    return "I come and go."


def _changing_prompt() -> str:
    """A prompt that test_trigger_prompt_change adds and removes."""
    return "I come and go."


@app.tool()
def test_trigger_tool_change() -> str:
    """Add or remove a tool, so that listeners get notifications/tools/list_changed."""
    try:
        app.remove_tool("test_dynamic_tool")
    except (KeyError, ValueError):
        app.add_tool(_changing_tool, name="test_dynamic_tool")
    return "Mutation triggered"


@app.tool()
def test_trigger_prompt_change() -> str:
    """Add or remove a prompt, so that listeners get notifications/prompts/list_changed."""
    try:
        app.remove_prompt("test_dynamic_prompt")
    except (KeyError, ValueError):
        app.add_prompt(_changing_prompt, name="test_dynamic_prompt")
    return "Mutation triggered"


# -- tasks extension (SEP-2663) ---------------------------------------------------------------------
@app.tool()
def greet(name: str) -> str:
    """A plain, synchronous tool that never becomes a task.

    Args:
        name: who to greet
    """
    return "Hello, %s!" % name


@app.tool(task_support="optional")
def slow_compute(ctx: Context, seconds: float = 1, label: str = "") -> str:
    """Work for a while; runs as a task when the client declared the extension.

    Args:
        seconds: how long to work
        label: a tag echoed in the result
    """
    ctx.sleep(seconds)
    ctx.check_cancelled()
    return "computed %s after %s s" % (label, seconds)


@app.tool(task_support="required")
def failing_job() -> str:
    """A task whose tool fails: the task completes with an isError result."""
    raise RuntimeError("failing_job failed on purpose")


@app.tool(task_support="required")
def protocol_error_job() -> str:
    """A task whose tool raises a protocol error: the task fails."""
    raise MCPError(-32603, "protocol_error_job raised a JSON-RPC error on purpose")


@app.tool(task_support="required")
def confirm_delete(filename: str, ctx: Context) -> str:
    """Ask before deleting (nothing is deleted): the task waits in input_required.

    Args:
        filename: the file to pretend to delete
    """
    return ("deleted %s" if _ask(ctx, "Delete %s?" % filename, "confirm", "boolean") else "kept %s") % filename


@app.tool(task_support="required")
def multi_input(ctx: Context) -> str:
    """Two questions open at once (the client may answer them one at a time)."""
    asked = ctx.questions()
    asked.elicit("First input", _form("name"), key="first")
    asked.elicit("Second input", _form("name"), key="second")
    answers = asked.ask()
    return "got %s and %s" % (_accepted(answers["first"], "name"), _accepted(answers["second"], "name"))


@app.tool(task_support="required", ask_first=True)
def test_tool_with_task(ctx: Context) -> str:
    """Ask a question through input-required rounds, then become a task (SEP-2663 composition)."""
    name = _ask(ctx, "What is your name?", "name", key="user_name")
    ctx.start_task()
    time.sleep(0.2)
    return "Hello, %s, from a task" % name


# -- resources ------------------------------------------------------------------------------------
@app.resource("test://static-text", name="static-text", title="Static Text Resource", mime_type="text/plain")
def static_text() -> str:
    """A static text resource."""
    return "This is the content of the static text resource."


@app.resource("test://static-binary", name="static-binary", title="Static Binary Resource",
              mime_type="image/png")
def static_binary() -> bytes:
    """A static binary resource (a PNG)."""
    return PNG


@app.resource("test://template/{id}/data", name="template", title="Resource Template",
              mime_type="application/json")
def template_data(id: str) -> str:
    """A resource template with parameter substitution."""
    return '{"id": "%s", "templateTest": true, "data": "Data for ID: %s"}' % (id, id)


@app.resource("test://watched-resource", name="watched-resource", title="Watched Resource",
              mime_type="text/plain")
def watched() -> str:
    """A resource clients can subscribe to."""
    return "watched at %d" % int(time.time())


# Agent Skills (SEP-2640): the suite's skills scenarios find the skill through skills/list and
# resources/list, and read a subfolder of it (references/) with resources/directory/read.
app.add_skills(os.path.join(os.path.dirname(os.path.abspath(__file__)), "conformance_skills"))


# -- prompts and completion -------------------------------------------------------------------------
@app.prompt(title="Simple Test Prompt")
def test_simple_prompt() -> str:
    """A simple prompt without arguments."""
    return "This is a simple prompt for testing."


@app.prompt(title="Prompt With Arguments", completions={"arg1": ["paris", "park", "testValue1"]})
def test_prompt_with_arguments(arg1: str, arg2: str) -> str:
    """A prompt with required arguments.

    Args:
        arg1: First test argument
        arg2: Second test argument
    """
    return "Prompt with arguments: arg1='%s', arg2='%s'" % (arg1, arg2)


@app.prompt(title="Prompt With Embedded Resource")
def test_prompt_with_embedded_resource(resourceUri: str) -> list:
    """A prompt that includes an embedded resource.

    Args:
        resourceUri: URI of the resource to embed
    """
    return [{"role": "user", "content": EmbeddedResource(resourceUri, text="Embedded resource content for testing.",
                                                         mime_type="text/plain")},
            {"role": "user", "content": "Please process the embedded resource above."}]


@app.prompt(title="Prompt With Image")
def test_prompt_with_image() -> list:
    """A prompt that includes image content."""
    return [{"role": "user", "content": Image(PNG, "image/png")},
            {"role": "user", "content": "Please analyze the image above."}]


@app.prompt()
def test_input_required_result_prompt(ctx: Context) -> str:
    """A prompt that needs the user's context first (2026-07-28 input-required on prompts/get)."""
    return "Prompt for context: %s" % _ask(ctx, "What context should the prompt use?", "context")


if __name__ == "__main__":
    app.run()
