"""examples/everything.py's fixture written for the official Python SDK, on the SDK's own
Streamable HTTP server (its Starlette app under uvicorn): the upstream of run_bridge_sdk.sh.

    python sdk_everything_http.py URL_FILE [PORT]    (a Python with mcp==2.3.0 and uvicorn)

Same tool, resource and prompt names and behaviour as examples/everything.py, so the checks of
python_sdk_client.py run against it unchanged. It is written with the SDK's own means: its
``Resolve`` markers (``Elicit``, ``Sample``, ``ListRoots``) ask the client in the way the
negotiated era allows (server requests before 2026-07-28, input_required rounds on it); what
MCPServer leaves to the server's author (logging/setLevel, resources/subscribe, completions)
is registered here on its low-level server. Binds 127.0.0.1 on PORT (default: a free one), writes
``http://127.0.0.1:PORT/mcp`` to URL_FILE once the socket listens, serves until killed.
"""

import os
import socket
import sys
import warnings
from typing import Annotated, Any

import anyio
import mcp_types as types
import uvicorn
from pydantic import BaseModel

from mcp.server.elicitation import ElicitationResult
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.resolve import Elicit, ListRoots, Resolve, Sample
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError

warnings.filterwarnings("ignore", category=MCPDeprecationWarning)

MODERN = "2026-07-28"
INVALID_PARAMS, RESOURCE_NOT_FOUND = -32602, -32002
NAMES = ["alice", "anna", "bob"]
LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]

mcp = MCPServer("everything", version="1.0.0",
                instructions="A test fixture that exercises every MCP feature, on the official SDK.")
levels: dict = {}          # handshake-era session -> its logging/setLevel
subscribed: dict = {}      # handshake-era session -> the URIs it subscribed to


@mcp.tool()
def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


@mcp.tool()
def add(a: float, b: float) -> float:
    """Add two numbers."""
    total = a + b
    return int(total) if total.is_integer() else total


@mcp.tool()
def fail(message: str = "boom") -> str:
    """Always fail, with the given message (ToolError: the SDK shows its message to the model)."""
    raise ToolError(message)


@mcp.tool()
async def log(message: str, ctx: Context, level: str = "info") -> str:
    """Send a log notification at the given level (as the client's threshold allows)."""
    if ctx.protocol_version == MODERN:
        threshold = (ctx.request_context.meta or {}).get("io.modelcontextprotocol/logLevel")
    else:
        threshold = levels.get(session_key(ctx.request_context), "debug")
    if threshold is not None and LEVELS.index(level) >= LEVELS.index(threshold):
        await ctx.log(level, message)
    return "logged"


@mcp.tool()
async def slow(ctx: Context, seconds: float = 2, steps: int = 5) -> str:
    """Sleep in steps, reporting progress; stops when cancelled."""
    steps = max(1, steps)
    for step in range(1, steps + 1):
        await anyio.sleep(seconds / steps)
        await ctx.report_progress(step, steps, "step %d of %d" % (step, steps))
    return "done"


def ask_model(prompt: str) -> Sample:
    return Sample([types.SamplingMessage(role="user", content=types.TextContent(type="text", text=prompt))],
                  max_tokens=100)


@mcp.tool()
def sample(prompt: str, reply: Annotated[types.CreateMessageResult, Resolve(ask_model)]) -> str:
    """Ask the client's model to answer a prompt."""
    content = reply.content if isinstance(reply.content, list) else [reply.content]
    return "The model said: " + " ".join(block.text for block in content if isinstance(block, types.TextContent))


def client_roots() -> ListRoots:
    return ListRoots()


@mcp.tool()
def ask_roots(roots: Annotated[types.ListRootsResult, Resolve(client_roots)]) -> str:
    """List the client's roots."""
    return "\n".join(str(root.uri) for root in roots.roots)


class Name(BaseModel):
    name: str


def ask_name(message: str = "What is your name?") -> Elicit[Name]:
    return Elicit(message, Name)


@mcp.tool()
def elicit(answer: Annotated[ElicitationResult[Name], Resolve(ask_name)], message: str = "What is your name?") -> str:
    """Ask the user for their name."""
    if answer.action == "accept":
        return "accept: %s" % answer.data.name
    return answer.action


@mcp.tool()
async def touch(uri: str, ctx: Context) -> str:
    """Announce that a resource changed (subscribers get notifications/resources/updated)."""
    if ctx.protocol_version == MODERN:
        await ctx.notify_resource_updated(uri)
    elif uri in subscribed.get(session_key(ctx.request_context), ()):
        await ctx.session.send_resource_updated(uri)
    return "touched"


@mcp.tool()
def print_stdout(text: str = "stray") -> str:
    """Write to standard output (an HTTP server's stdout is no protocol stream)."""
    print(text)
    return "printed"


@mcp.tool()
async def long_job(ctx: Context, seconds: float = 3) -> str:
    """A long job, with progress."""
    steps = 10
    for step in range(1, steps + 1):
        await anyio.sleep(seconds / steps)
        await ctx.report_progress(step, steps, "working")
    return "finished after %s seconds" % seconds


@mcp.resource("fixture://hello", mime_type="text/plain")
def hello() -> str:
    """A fixed greeting."""
    return "Hello, world!"


@mcp.resource("fixture://greeting/{name}", mime_type="text/plain")
def greeting(name: str) -> str:
    """A greeting for anyone."""
    return "Hello, %s!" % name


@mcp.prompt()
def greet(name: str) -> str:
    """Greet someone by name."""
    return "Please greet %s warmly." % name


@mcp.completion()
async def complete(ref: Any, argument: Any, context: Any) -> types.Completion:
    values = [name for name in NAMES if name.startswith(argument.value)] if argument.name == "name" else []
    return types.Completion(values=values, total=len(values), has_more=False)


def session_key(request_context: Any) -> str:
    """A handshake-era session, as the HTTP transport names it (its Mcp-Session-Id)."""
    return request_context.request.headers.get("mcp-session-id", "")


async def set_level(ctx: Any, params: types.SetLevelRequestParams) -> types.EmptyResult:
    levels[session_key(ctx)] = params.level
    return types.EmptyResult()


async def subscribe(ctx: Any, params: types.SubscribeRequestParams) -> types.EmptyResult:
    subscribed.setdefault(session_key(ctx), set()).add(str(params.uri))
    return types.EmptyResult()


async def unsubscribe(ctx: Any, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
    subscribed.get(session_key(ctx), set()).discard(str(params.uri))
    return types.EmptyResult()


# Two errors examples/everything.py answers with the spec's codes where MCPServer's defaults do
# not (bridge_sdk_direct.py shows them without the bridge, README "The official SDK's server"):
# an unknown resource is -32002, "Resource not found", before 2026-07-28 (whose spec makes it
# -32602, as MCPServer answers in every revision); a prompt without a required argument is
# -32602, where MCPServer lets the prompt's ValueError through (error 0, or -32603 on 2026-07-28).
# An author who wants the spec's codes from MCPServer wraps its handlers so; the fixture does,
# so that its checks through the bridge test how the codes travel, not MCPServer's defaults.
read_resource = mcp._lowlevel_server._request_handlers["resources/read"].handler
get_prompt = mcp._lowlevel_server._request_handlers["prompts/get"].handler


async def read_resource_as_the_spec_says(ctx: Any, params: types.ReadResourceRequestParams) -> Any:
    try:
        return await read_resource(ctx, params)
    except MCPError as err:   # MCPServer's only INVALID_PARAMS here is its ResourceNotFoundError
        if err.error.code != INVALID_PARAMS or ctx.protocol_version == MODERN:
            raise
        raise MCPError(RESOURCE_NOT_FOUND, "Resource not found", err.error.data) from err


async def get_prompt_as_the_spec_says(ctx: Any, params: types.GetPromptRequestParams) -> Any:
    declared = {prompt.name: prompt for prompt in await mcp.list_prompts()}.get(params.name)
    missing = [argument.name for argument in (declared.arguments or []) if argument.required
               and argument.name not in (params.arguments or {})] if declared else []
    if missing:
        raise MCPError(INVALID_PARAMS, "Missing required arguments: %s" % ", ".join(missing))
    return await get_prompt(ctx, params)


mcp._lowlevel_server.add_request_handler("logging/setLevel", types.SetLevelRequestParams, set_level)
mcp._lowlevel_server.add_request_handler("resources/subscribe", types.SubscribeRequestParams, subscribe)
mcp._lowlevel_server.add_request_handler("resources/unsubscribe", types.UnsubscribeRequestParams, unsubscribe)
mcp._lowlevel_server.add_request_handler("resources/read", types.ReadResourceRequestParams,
                                         read_resource_as_the_spec_says)
mcp._lowlevel_server.add_request_handler("prompts/get", types.GetPromptRequestParams, get_prompt_as_the_spec_says)


def main(argv: list) -> int:
    if len(argv) not in (2, 3):
        sys.stderr.write(__doc__)
        return 2
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)     # a restart takes the same port at once
    sock.bind(("127.0.0.1", int(argv[2]) if len(argv) == 3 else 0))
    sock.listen(128)
    with open(argv[1] + ".tmp", "w", encoding="utf-8") as handle:
        handle.write("http://127.0.0.1:%d/mcp\n" % sock.getsockname()[1])
    os.replace(argv[1] + ".tmp", argv[1])
    config = uvicorn.Config(mcp.streamable_http_app(), log_level="warning", lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
