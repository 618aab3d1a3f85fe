"""The conformance suite's fixture as a server author writes it for the official SDK (mcp 1.x).

Nothing here is minimcp's: the file imports `mcp.server.fastmcp` and `mcp.types` and uses only
the SDK's documented API (`await ctx.info(...)`, `ctx.session.create_message(...)`, pydantic
models for elicitation), so it would run on the real `mcp` 1.30.0 too. run_conformance.sh runs
it unchanged under `python3 minimcp.py serve --http 127.0.0.1:0 FILE`, where minimcp stands in
for the SDK and serves it in mcp 1.x's dialect, and runs the suite against it: what the spec
fixes must hold for a server nobody wrote for minimcp.

It offers the tools, resources and prompts of the suite's scenarios that the SDK's API can
express; run_conformance.sh names the scenarios it leaves out and why.
"""

import base64
import struct
import zlib
from typing import Annotated, List, Literal

from pydantic import BaseModel, Field

from mcp.server.fastmcp import Context, FastMCP, Image
from mcp.server.fastmcp.prompts.base import Prompt, UserMessage
from mcp.server.fastmcp.utilities.types import Audio
from mcp.types import (ClientCapabilities, ElicitationCapability, EmbeddedResource, ImageContent, SamplingCapability,
                       SamplingMessage, TextContent, TextResourceContents)

mcp = FastMCP("sdk-conformance", instructions="The conformance fixture, written for the official SDK.")


def _png() -> bytes:
    """A 2x2 red PNG."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + b"\xff\x00\x00" * 2 for _ in range(2))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def _wav() -> bytes:
    """A tenth of a second of 8 kHz silence."""
    frames = b"\x00\x00" * 800
    fmt = struct.pack("<HHIIHH", 1, 1, 8000, 16000, 2, 16)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(frames)) + frames
    return b"RIFF" + struct.pack("<I", len(body)) + body


PNG, WAV = _png(), _wav()


def _embedded(uri: str, text: str, mime_type: str = "text/plain") -> EmbeddedResource:
    return EmbeddedResource(type="resource", resource=TextResourceContents(uri=uri, mimeType=mime_type, text=text))


def _sampled_text(result) -> str:
    return result.content.text if result.content.type == "text" else ""


async def _sample(ctx: Context, prompt: str, max_tokens: int) -> str:
    result = await ctx.session.create_message(
        messages=[SamplingMessage(role="user", content=TextContent(type="text", text=prompt))], max_tokens=max_tokens)
    return _sampled_text(result)


# -- content ------------------------------------------------------------------------------------
@mcp.tool()
def test_simple_text() -> str:
    """Answer with one text block."""
    return "This is a simple text response for testing."


@mcp.tool()
def test_image_content() -> Image:
    """Answer with one PNG image block."""
    return Image(data=PNG, format="png")


@mcp.tool()
def test_audio_content() -> Audio:
    """Answer with one WAV audio block."""
    return Audio(data=WAV, format="wav")


@mcp.tool()
def test_embedded_resource() -> EmbeddedResource:
    """Answer with one embedded text resource."""
    return _embedded("test://embedded-resource", "This is an embedded resource content.")


@mcp.tool()
def test_multiple_content_types() -> list:
    """Answer with a text, an image and an embedded JSON resource."""
    return [TextContent(type="text", text="Multiple content types test:"),
            ImageContent(type="image", data=base64.b64encode(PNG).decode(), mimeType="image/png"),
            _embedded("test://mixed-content-resource", '{"test": "data", "value": 123}', "application/json")]


@mcp.tool()
async def test_tool_with_logging(ctx: Context) -> str:
    """Send three log messages while running."""
    for message in ("Tool execution started", "Tool processing data", "Tool execution completed"):
        await ctx.info(message)
    return "Tool with logging executed successfully"


@mcp.tool()
async def test_tool_with_progress(ctx: Context) -> str:
    """Report progress 0, 50 and 100 of 100."""
    for step in (0, 50, 100):
        await ctx.report_progress(progress=step, total=100, message=f"Completed step {step} of 100")
    return "progress reported"


@mcp.tool()
def test_error_handling() -> str:
    """Always fail."""
    raise RuntimeError("This tool intentionally returns an error for testing")


@mcp.tool()
def test_reconnection() -> str:
    """The suite closes the stream mid-call and reconnects."""
    return "Reconnection test completed."


# -- questions to the client --------------------------------------------------------------------
@mcp.tool()
async def test_sampling(prompt: str, ctx: Context) -> str:
    """Ask the client's model."""
    return "LLM response: " + await _sample(ctx, prompt, 100)


class UserResponse(BaseModel):
    username: str = Field(description="User's response")
    email: str = Field(description="User's email address")


@mcp.tool()
async def test_elicitation(message: str, ctx: Context) -> str:
    """Ask the user for a response."""
    result = await ctx.elicit(message=message, schema=UserResponse)
    content = result.data.model_dump() if result.action == "accept" else {}
    return f"User response: action={result.action}, content={content}"


class Defaults(BaseModel):
    name: str = Field(default="John Doe", description="User name")
    age: int = Field(default=30, description="User age")
    score: float = Field(default=95.5, description="User score")
    status: Literal["active", "inactive", "pending"] = Field(default="active", description="User status")
    verified: bool = Field(default=True, description="Verification status")


@mcp.tool()
async def test_elicitation_sep1034_defaults(ctx: Context) -> str:
    """Elicit a form whose every field has a default (SEP-1034)."""
    result = await ctx.elicit(message="Please review and update the form fields with defaults", schema=Defaults)
    content = result.data.model_dump() if result.action == "accept" else {}
    return f"Elicitation completed: action={result.action}, content={content}"


class Choices(BaseModel):
    untitledSingle: Literal["option1", "option2", "option3"] = Field(description="Select one option")
    titledSingle: str = Field(description="Select one option with titles", json_schema_extra={"oneOf": [
        {"const": "value1", "title": "First Option"}, {"const": "value2", "title": "Second Option"},
        {"const": "value3", "title": "Third Option"}]})
    legacyEnum: Literal["opt1", "opt2", "opt3"] = Field(
        description="Select one option (legacy)",
        json_schema_extra={"enumNames": ["Option One", "Option Two", "Option Three"]})
    untitledMulti: List[Literal["option1", "option2", "option3"]] = Field(
        description="Select multiple options", min_length=1, max_length=3)
    titledMulti: List[str] = Field(
        description="Select multiple options with titles", min_length=1, max_length=3,
        json_schema_extra={"items": {"anyOf": [
            {"const": "value1", "title": "First Choice"}, {"const": "value2", "title": "Second Choice"},
            {"const": "value3", "title": "Third Choice"}]}})


@mcp.tool()
async def test_elicitation_sep1330_enums(ctx: Context) -> str:
    """Elicit the five enum shapes of SEP-1330."""
    result = await ctx.elicit(message="Please select options from the enum fields", schema=Choices)
    content = result.data.model_dump() if result.action == "accept" else {}
    return f"Elicitation completed: action={result.action}, content={content}"


# -- 2026-07-28 (stateless) ---------------------------------------------------------------------
@mcp.tool()
async def test_missing_capability(ctx: Context) -> str:
    """Needs sampling: a client that did not declare it must get -32021."""
    await _sample(ctx, "ping", 1)
    return "Success"


@mcp.tool()
async def test_streaming_elicitation(ctx: Context) -> str:
    """Send a progress notification before the result."""
    await ctx.report_progress(progress=50, total=100)
    return "Streaming complete"


@mcp.tool()
async def test_logging_tool(ctx: Context) -> str:
    """Log once."""
    await ctx.info("Diagnostic trace logging activated")
    return "Logging evaluated"


def _changing_tool() -> str:
    """A tool that test_trigger_tool_change adds and removes."""
    return "I come and go."


_tool_changes = []


@mcp.tool()
async def test_trigger_tool_change(ctx: Context) -> str:
    """Add or remove a tool, and tell the client its tool list changed."""
    if _tool_changes:
        _tool_changes.pop()
        mcp.remove_tool("test_dynamic_tool")
    else:
        _tool_changes.append("test_dynamic_tool")
        mcp.add_tool(_changing_tool, name="test_dynamic_tool")
    await ctx.session.send_tool_list_changed()
    return "Mutation triggered"


_prompt_changes = []


@mcp.tool()
async def test_trigger_prompt_change(ctx: Context) -> str:
    """Add a prompt, and tell the client its prompt list changed."""
    _prompt_changes.append(len(_prompt_changes) + 1)
    mcp.add_prompt(Prompt.from_function(lambda: "I am new.", name="test_dynamic_prompt_%d" % len(_prompt_changes),
                                        description="A prompt test_trigger_prompt_change added."))
    await ctx.session.send_prompt_list_changed()
    return "Mutation triggered"


class Name(BaseModel):
    name: str


class Confirm(BaseModel):
    ok: bool


class Value(BaseModel):
    value: str


@mcp.tool()
async def test_input_required_result_elicitation(ctx: Context) -> str:
    """Ask the user's name, then greet them."""
    result = await ctx.elicit(message="What is your name?", schema=Name)
    return f"Hello, {result.data.name}!" if result.action == "accept" else "No name given"


@mcp.tool()
async def test_input_required_result_sampling(ctx: Context) -> str:
    """Ask the client's model one question."""
    return "Sampling result: " + await _sample(ctx, "What is the capital of France?", 100)


@mcp.tool()
async def test_input_required_result_list_roots(ctx: Context) -> str:
    """Ask for the client's roots."""
    result = await ctx.session.list_roots()
    return f"Found {len(result.roots)} root(s)"


@mcp.tool()
async def test_input_required_result_request_state(ctx: Context) -> str:
    """One confirmation."""
    result = await ctx.elicit(message="Please confirm", schema=Confirm)
    return "state-ok: requestState validated" if result.action == "accept" and result.data.ok else "not confirmed"


@mcp.tool()
async def test_input_required_result_multi_round(ctx: Context) -> str:
    """Two questions, the second asked after the first is answered."""
    first = await ctx.elicit(message="Step 1: What is your name?", schema=Name)
    second = await ctx.elicit(message="Step 2: What is your favorite color?", schema=Value)
    return f"Multi-round complete for {first.data.name} who likes {second.data.value}"


@mcp.tool()
async def test_input_required_result_tampered_state(ctx: Context) -> str:
    """One confirmation whose state the suite tampers with."""
    await ctx.elicit(message="Please confirm", schema=Confirm)
    return "integrity-ok: state verified"


@mcp.tool()
async def test_input_required_result_capabilities(ctx: Context) -> str:
    """Ask only what the client declared."""
    got = []
    if ctx.session.check_client_capability(ClientCapabilities(elicitation=ElicitationCapability())):
        result = await ctx.elicit(message="Elicitation input", schema=Value)
        got.append(f"elicit_input={result.data.value if result.action == 'accept' else None}")
    if ctx.session.check_client_capability(ClientCapabilities(sampling=SamplingCapability())):
        got.append("sample_input=" + await _sample(ctx, "Sample request", 50))
    return "capabilities-ok: " + ",".join(got) if got else "No supported capabilities declared"


@mcp.tool()
async def test_input_required_result_multiple_inputs(ctx: Context) -> str:
    """An elicitation, a sampling and a roots question (the SDK asks them one after another)."""
    name = await ctx.elicit(message="What is your name?", schema=Name)
    greeting = await _sample(ctx, "Generate a greeting", 50)
    roots = await ctx.session.list_roots()
    return f"Name: {name.data.name}; Greeting: {greeting}; Roots: {len(roots.roots)}"


@mcp.tool()
def test_headers(region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})], query: str) -> str:
    """A tool whose region is sent as a header."""
    return f"region {region}: {query}"


# -- resources ----------------------------------------------------------------------------------
@mcp.resource("test://static-text", name="static-text", title="Static Text Resource", mime_type="text/plain")
def static_text() -> str:
    """A static text resource."""
    return "This is the content of the static text resource."


@mcp.resource("test://static-binary", name="static-binary", title="Static Binary Resource", mime_type="image/png")
def static_binary() -> bytes:
    """A static binary resource (a PNG)."""
    return PNG


@mcp.resource("test://template/{id}/data", name="template", title="Resource Template", mime_type="application/json")
def template_data(id: str) -> str:
    """A resource template with parameter substitution."""
    return '{"id": "%s", "templateTest": true, "data": "Data for ID: %s"}' % (id, id)


@mcp.resource("test://watched-resource", name="watched-resource", title="Watched Resource", mime_type="text/plain")
def watched() -> str:
    """A resource clients can subscribe to."""
    return "watched"


# -- prompts ------------------------------------------------------------------------------------
@mcp.prompt(title="Simple Test Prompt")
def test_simple_prompt() -> str:
    """A simple prompt without arguments."""
    return "This is a simple prompt for testing."


@mcp.prompt(title="Prompt With Arguments")
def test_prompt_with_arguments(arg1: str, arg2: str) -> str:
    """A prompt with required arguments."""
    return f"Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"


@mcp.prompt(title="Prompt With Embedded Resource")
def test_prompt_with_embedded_resource(resourceUri: str) -> list:
    """A prompt that includes an embedded resource."""
    return [UserMessage(content=_embedded(resourceUri, "Embedded resource content for testing.")),
            UserMessage("Please process the embedded resource above.")]


class PromptContext(BaseModel):
    context: str


@mcp.prompt()
async def test_input_required_result_prompt(ctx: Context) -> str:
    """A prompt that needs the user's context first."""
    result = await ctx.elicit(message="What context should the prompt use?", schema=PromptContext)
    return f"Prompt for context: {result.data.context}"


@mcp.prompt(title="Prompt With Image")
def test_prompt_with_image() -> list:
    """A prompt that includes image content."""
    return [UserMessage(content=ImageContent(type="image", data=base64.b64encode(PNG).decode(), mimeType="image/png")),
            UserMessage("Please analyze the image above.")]


if __name__ == "__main__":
    mcp.run()
