"""Every public import path of the SDKs resolves under ``serve``, with no SDK installed.

The table of modules and names is written from the pinned SDKs by tests/interop/sdk_surface.py
(and checked against them in tests/interop/run_sdk_diff.sh). Here: a server written the way
published ones are (SDK imports at the top, some used only in its own self-test, an ASGI app made
at import) starts under ``python3 minimcp.py serve`` and answers; a public name minimcp does not
implement imports and says what to do once used; a name the SDK does not have raises ImportError.
"""

import importlib.util
import json
import os
import subprocess
import sys
import textwrap

import pytest

import minimcp
import minimcp_sdk
from conftest import ROOT
from test_sdk_compat import run_server


pytestmark = pytest.mark.skipif(
    any(importlib.util.find_spec(n) for n in ("mcp", "fastmcp")),
    reason="an SDK is installed here, and an installed package wins over minimcp's stand-ins")

SERVER = '''
    """Written for the SDKs: it imports what published servers import."""
    from mcp.shared.memory import create_connected_server_and_client_session   # for its self-test only
    from mcp.server.mcpserver.prompts import base
    from mcp.server import MCPServer
    from mcp.server.fastmcp import FastMCP
    from mcp.server.fastmcp.server import TransportSecuritySettings
    from mcp.server.fastmcp.resources import FunctionResource
    from mcp import types
    from mcp.types import INVALID_PARAMS
    from fastmcp.tools import Tool
    from fastmcp import __version__ as fastmcp_version
    from fastmcp.utilities.logging import get_logger

    logger = get_logger(__name__)

    mcp = FastMCP("names", transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False))
    app = mcp.streamable_http_app()          # for uvicorn (tests/sdk/test_sdk_asgi.py serves such apps)


    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b


    def note(name: str) -> str:
        return "note " + name


    mcp.add_tool(Tool.from_function(add, name="plus", description="Adds."))
    mcp.add_resource(FunctionResource.from_function(note, "notes://{name}", name="note"))


    @mcp.prompt()
    def ask(topic: str) -> list:
        return [base.UserMessage("tell me about " + topic), base.AssistantMessage("gladly")]


    def failure(use):
        try:
            use()
        except Exception as exc:
            return [type(exc).__name__, str(exc)]
        return None


    def not_public():
        from mcp.types import NotAnSdkName                  # noqa: F401


    def not_a_module():
        import mcp.server.not_an_sdk_module                 # noqa: F401


    @mcp.tool()
    def probe() -> dict:
        """What the SDK's names do under minimcp."""
        return {
            "call": failure(lambda: create_connected_server_and_client_session(mcp)),
            "attribute": failure(lambda: types.ClientRequest.model_validate),
            "sse": failure(lambda: mcp.sse_app()),
            "not_public": failure(not_public),
            "not_a_module": failure(not_a_module),
            "hasattr": hasattr(types, "NotAnSdkName"),
            "constant": INVALID_PARAMS,
            "version": fastmcp_version,
            "logger": type(logger).__name__,
            "mcp2_is_mcp2": MCPServer is __import__("mcp.server.mcpserver", fromlist=["x"]).MCPServer,
            "mcp2_server": type(MCPServer("two")).__mro__[-3].__name__,
        }


    if __name__ == "__main__":
        mcp.run()
'''


def serve(source, requests, tmp_path):
    """(answers by id, the finished process) of ``source`` under ``python3 minimcp.py serve``; stdin
    stays open until every request is answered (a low-level Server answers its lists from a thread,
    and the end of input would stop what still runs)."""
    return run_server(source, requests, tmp_path=tmp_path)


def test_a_server_importing_the_paths_real_servers_use_starts_and_answers(tmp_path):
    answers, done = serve(SERVER, [
        {"method": "tools/list"},
        {"method": "tools/call", "params": {"name": "plus", "arguments": {"a": 2, "b": 3}}},
        {"method": "prompts/get", "params": {"name": "ask", "arguments": {"topic": "owls"}}},
        {"method": "resources/read", "params": {"uri": "notes://a"}},
        {"method": "tools/call", "params": {"name": "probe", "arguments": {}}}], tmp_path)
    assert done.returncode == 0 and set(answers) == {0, 1, 2, 3, 4, 5}, done.stderr.decode()
    assert answers[0]["result"]["serverInfo"]["name"] == "names"
    listed = {t["name"]: t for t in answers[1]["result"]["tools"]}
    assert set(listed) == {"plus", "probe"} and listed["plus"]["description"] == "Adds."
    assert listed["plus"]["inputSchema"]["required"] == ["a", "b"]
    assert answers[2]["result"]["content"] == [{"type": "text", "text": "5"}]
    assert answers[3]["result"]["messages"] == [
        {"role": "user", "content": {"type": "text", "text": "tell me about owls"}},
        {"role": "assistant", "content": {"type": "text", "text": "gladly"}}]
    assert answers[4]["result"]["contents"][0]["text"] == "note a"
    probe = json.loads(answers[5]["result"]["content"][0]["text"])       # a dict, as text in every dialect

    # A public name minimcp does not implement says, once used, what it is and what to do.
    kind, message = probe["call"]
    assert "mcp.shared.memory.create_connected_server_and_client_session" in message
    assert "pip install mcp" in message and "minimcp.TestClient" in message
    assert issubclass(getattr(minimcp, kind, ImportError) if kind != "_SDKUnavailable" else ImportError,
                      ImportError), kind
    kind, message = probe["attribute"]
    assert kind == "AttributeError" and "mcp.types.ClientRequest.model_validate" in message
    kind, message = probe["sse"]                 # a transport minimcp has not: refused at the call
    assert "mcp.server.fastmcp.FastMCP.sse_app()" in message and "no HTTP+SSE transport" in message

    # A name the SDK does not have is an ImportError, as under the SDK, so probes keep working.
    assert probe["not_public"] == ["ImportError", "cannot import name 'NotAnSdkName' from 'mcp.types' "
                                                  "(unknown location)"]
    kind, message = probe["not_a_module"]
    assert kind == "ModuleNotFoundError" and "mcp.server.not_an_sdk_module is not a public name" in message
    assert "pip install mcp" in message
    assert probe["hasattr"] is False
    assert probe["constant"] == -32602                        # the SDK's value, from the table
    assert probe["version"] == "4.2.3" and probe["logger"] == "Logger"
    assert probe["mcp2_is_mcp2"] is True and probe["mcp2_server"] == "MCPServer"


# The SDK's simple-streamablehttp and sse-polling-demo examples (mcp 1.29.0, 2.3.0): an event store
# annotated with the SDK's aliases of str (EventId = str), which they import; the alias is str.
EVENT_STORE_SERVER = '''
    from collections import deque
    from typing import Dict, Optional, Tuple  # (X | None, dict[...] need Python 3.10 and 3.9)
    from uuid import uuid4

    from mcp.server.lowlevel import Server
    from mcp.server.streamable_http import EventCallback, EventId, EventMessage, EventStore, StreamId
    from mcp.shared.message import ResumptionToken
    from mcp.types import Cursor
    from mcp.os.win32.utilities import JobHandle
    import mcp.types as types


    class InMemoryEventStore(EventStore):
        def __init__(self) -> None:
            self.events: Dict[EventId, Tuple[StreamId, object]] = {}
            self.streams: Dict[StreamId, deque] = {}

        async def store_event(self, stream_id: StreamId, message) -> EventId:
            event_id = EventId(uuid4())
            self.events[event_id] = (stream_id, message)
            self.streams.setdefault(stream_id, deque()).append(event_id)
            return event_id

        async def replay_events_after(self, last_event_id: EventId, send_callback: EventCallback) -> Optional[StreamId]:
            return None


    store = InMemoryEventStore()
    server = Server("events")


    @server.list_tools()
    async def list_tools() -> list:
        return [types.Tool(name="store", description="Stores an event.", inputSchema={"type": "object"})]


    @server.call_tool()
    async def call_tool(name: str, arguments: dict) -> list:
        event_id = await store.store_event(StreamId("stream-1"), EventMessage("hello"))
        kinds = [alias.__name__ for alias in (EventId, StreamId, ResumptionToken, Cursor, JobHandle)]
        return [types.TextContent(type="text", text=" ".join([type(event_id).__name__, *kinds,
                                                              str(len(store.streams["stream-1"]))]))]
'''


def test_a_server_importing_the_sdk_s_aliases_of_builtin_types_starts_and_they_are_those_types(tmp_path):
    answers, done = serve(EVENT_STORE_SERVER, [
        {"method": "tools/list"}, {"method": "tools/call", "params": {"name": "store", "arguments": {}}}], tmp_path)
    assert done.returncode == 0 and set(answers) == {0, 1, 2}, done.stderr.decode()
    assert [t["name"] for t in answers[1]["result"]["tools"]] == ["store"]
    assert answers[2]["result"]["content"] == [{"type": "text", "text": "str str str str str int 1"}]


def test_placeholders_are_classes_a_server_may_subclass_and_fail_when_instantiated(tmp_path):
    code = textwrap.dedent('''
        import json, minimcp
        minimcp.install_sdk_aliases()
        from fastmcp.server.middleware import Middleware
        from mcp.server.fastmcp import FastMCP

        from mcp.shared.context import RequestContext

        class Timing(Middleware):                 # at import, as servers define theirs
            pass

        def handler(ctx: RequestContext[int, str]) -> None:    # subscripted in an annotation
            pass
        out = {"subclassed": Timing.__name__, "subscripted": handler.__annotations__["ctx"].__name__}
        try:
            Timing()
        except ImportError as exc:
            out["instantiated"] = str(exc)
        server = FastMCP("x")
        server.settings.port = 9000                # a member minimcp lacks, set at import
        try:
            server.run_sse_async()
        except ImportError as exc:
            out["member"] = str(exc)
        print(json.dumps(out))
    ''')
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=60, env=dict(os.environ, PYTHONPATH=ROOT))
    out = json.loads(done.stdout)
    assert out["subclassed"] == "Timing" and out["subscripted"] == "RequestContext", done.stderr.decode()
    assert "fastmcp.server.middleware.Middleware is part of the fastmcp package" in out["instantiated"]
    assert "pip install fastmcp" in out["instantiated"]
    assert "mcp.server.fastmcp.FastMCP.run_sse_async" in out["member"]


def test_nothing_is_built_at_import_and_the_table_is_read_on_the_first_sdk_import():
    code = ("import minimcp, minimcp_sdk; before = sorted(minimcp_sdk._SDK_CACHE); minimcp_sdk.install_sdk_aliases(); "
            "after_install = sorted(minimcp_sdk._SDK_CACHE); import mcp.server.fastmcp; "
            "print(before, after_install, 'table' in minimcp_sdk._SDK_CACHE)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=60, env=dict(os.environ, PYTHONPATH=ROOT))
    assert done.stdout.decode().split() == ["[]", "[]", "True"], done.stderr.decode()


# The names real servers import (searched in published servers' code), each backed by minimcp.
BACKED = [
    ("mcp.server.fastmcp", "FastMCP"), ("mcp.server.fastmcp", "Context"), ("mcp.server.fastmcp", "Image"),
    ("mcp.server.fastmcp.server", "FastMCP"), ("mcp.server.fastmcp.exceptions", "ToolError"),
    ("mcp.server.fastmcp.prompts.base", "UserMessage"), ("mcp.server.fastmcp.prompts.base", "Message"),
    ("mcp.server.fastmcp.utilities.types", "Image"), ("mcp.server.mcpserver", "MCPServer"),
    ("mcp.server", "MCPServer"), ("mcp.server", "FastMCP"), ("mcp.types", "TextContent"),
    ("mcp.types", "ToolAnnotations"), ("mcp.types", "CallToolResult"), ("fastmcp", "FastMCP"),
    ("fastmcp", "Context"), ("fastmcp.exceptions", "ToolError"), ("fastmcp.tools", "Tool"),
    ("fastmcp.tools.tool", "Tool"), ("fastmcp.prompts", "Message"), ("fastmcp.utilities.types", "Image"),
    ("fastmcp.server.context", "Context"), ("mcp.server.fastmcp.tools", "Tool"),
]


@pytest.mark.parametrize("module, name", BACKED)
def test_the_names_real_servers_use_are_in_the_table_and_backed_by_minimcp(module, name):
    assert name in minimcp_sdk._sdk_exports(module)
    value = minimcp_sdk._sdk_value(module, name)
    assert not isinstance(value, minimcp_sdk._SDKPlaceholderType), value
    assert getattr(value, "__module__", None) in ("minimcp", minimcp_sdk.__name__)   # (Context is the core's)


def test_the_servers_are_bound_by_dialect():
    assert minimcp_sdk._sdk_value("mcp.server", "MCPServer") is minimcp_sdk._sdk_value("mcp.server.mcpserver", "MCPServer")
    assert issubclass(minimcp_sdk._sdk_value("fastmcp", "FastMCP"), minimcp_sdk._sdk_server_class("fastmcp"))
    assert issubclass(minimcp_sdk._sdk_value("mcp.server.fastmcp", "FastMCP"), minimcp_sdk._sdk_server_class("mcp1"))
    assert minimcp.FastMCP is minimcp_sdk._sdk_value("mcp.server.fastmcp", "FastMCP")


def test_the_table_is_whole_every_module_s_parent_is_in_it():
    modules = minimcp_sdk._sdk_modules()
    assert {"mcp", "fastmcp", "mcp.shared.memory", "mcp.server.mcpserver.prompts.base"} <= set(modules)
    orphans = [m for m in modules if "." in m and m.rpartition(".")[0] not in modules]
    assert orphans == []
    assert not any(part.startswith("_") for m in modules for part in m.split("."))
    assert minimcp_sdk._sdk_table()[2]["mcp"].split()[-1] == "2.3.0"
