"""Servers written for the SDKs that hand the SDK's ASGI app to an ASGI server themselves.

``uvicorn.run(mcp.streamable_http_app())`` (mcp 1.x FastMCP, mcp 2.x MCPServer), the SDK
README's Starlette mount whose lifespan enters ``mcp.session_manager.run()``, fastmcp's
``app = mcp.http_app(...)`` (with ``FastAPI(lifespan=app.lifespan)``), and the low-level
``Server`` behind a ``StreamableHTTPSessionManager`` mounted by hand (the SDK's
simple-streamablehttp). Each test writes the server file as its SDK's users write it, runs it
as ``python server.py`` runs it (the SDK's names from minimcp: ``install_sdk_aliases()``, no SDK
installed) and drives it with HTTP requests in both eras: initialize, tools/list, tools/call.

uvicorn and Starlette are no test dependency. The file's ``import uvicorn`` finds a stand-in
written beside it that serves the app with tests/http/asgi_driver.py (lifespan events
included), and the mounts are written with ``shapes.py``, which hands a request to a mounted
app as Starlette's ``Mount`` does (the whole path, the prefix as ``root_path``) and runs only
the outer app's lifespan, as Starlette's router does. The real uvicorn and Starlette run in
tests/interop/ (run_sdk_examples.sh serves the SDK's simple-streamablehttp examples).
"""

import http.client
import json
import os
import subprocess
import sys
import textwrap
import threading

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HTTP_TESTS = os.path.join(ROOT, "tests", "http")
HANDSHAKE = "2025-06-18"
MODERN = "2026-07-28"
ACCEPT = "application/json, text/event-stream"

# `import uvicorn` in the files below: uvicorn.run(app) as the tests' ASGI server serves it.
UVICORN = '''
"""The tests' uvicorn: run(app) serves app with tests/http/asgi_driver.py until stdin closes."""
import sys
sys.path.insert(0, %r)
from asgi_driver import ASGIServer


def run(app, host="127.0.0.1", port=8000, **options):
    server = ASGIServer(app)                 # lifespan.startup first, as uvicorn sends it
    if server.startup_failed:
        sys.stderr.write("STARTUP FAILED %%s\\n" %% server.lifespan_events[-1].get("message"))
        sys.exit(3)
    sys.stderr.write("PORT %%d\\n" %% server.port)
    sys.stderr.flush()
    sys.stdin.read()
    server.close()                           # lifespan.shutdown
    sys.stderr.write("SHUTDOWN %%s\\n" %% server.lifespan_events[-1]["type"])
''' % HTTP_TESTS

# Starlette's routing, as a mounted app sees it (starlette >= 0.33): Mount(prefix, app) hands
# on the whole path with the prefix as root_path; a request to the prefix itself is redirected
# to prefix + "/"; only the outer app's lifespan runs, never a mounted app's.
SHAPES = '''
"""Starlette's Mount and lifespan, as they reach the mounted app."""
import json


class Mount:
    def __init__(self, prefix, app):
        self.prefix, self.app = prefix.rstrip("/"), app


class Starlette:
    def __init__(self, routes=(), lifespan=None):
        self.routes, self.lifespan_context = list(routes), lifespan

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        path = scope["path"]
        for route in self.routes:
            if path == route.prefix and route.prefix:          # redirect_slashes
                await send({"type": "http.response.start", "status": 307,
                            "headers": [(b"location", (path + "/").encode())]})
                await send({"type": "http.response.body", "body": b""})
                return
            if path.startswith(route.prefix + "/"):
                root = scope.get("root_path", "") + route.prefix
                await route.app(dict(scope, root_path=root), receive, send)
                return
        await send({"type": "http.response.start", "status": 404, "headers": []})
        await send({"type": "http.response.body", "body": b"Not Found"})

    async def _lifespan(self, receive, send):
        context = self.lifespan_context(self) if self.lifespan_context else None
        await receive()
        if context is not None:
            await context.__aenter__()
        await send({"type": "lifespan.startup.complete"})
        await receive()
        if context is not None:
            await context.__aexit__(None, None, None)
        await send({"type": "lifespan.shutdown.complete"})
'''


class Served:
    """A server file running as ``python server.py`` with the SDK's names from minimcp."""

    def __init__(self, tmp_path, source: str) -> None:
        (tmp_path / "uvicorn.py").write_text(UVICORN)
        (tmp_path / "shapes.py").write_text(SHAPES)
        (tmp_path / "server.py").write_text(textwrap.dedent(source))
        starter = ("import runpy, sys; sys.path.insert(0, %r); import minimcp; minimcp.install_sdk_aliases(); "
                   "sys.argv = ['server.py']; runpy.run_path('server.py', run_name='__main__')" % ROOT)
        self.process = subprocess.Popen([sys.executable, "-c", starter], cwd=str(tmp_path), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.timer = threading.Timer(60, self.process.kill)      # a hung server fails the test, not hangs it
        self.timer.start()
        self.lines = []
        for line in self.process.stderr:
            self.lines.append(line.decode())
            if line.startswith(b"PORT "):
                self.port = int(line.split()[1])
                return
        self.stop()
        raise AssertionError("the server did not start:\n" + "".join(self.lines))

    def request(self, method: str, path: str, message=None, headers=None) -> tuple:
        """(status, headers, the JSON answer: the body, or the last SSE event's data)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        body = None if message is None else json.dumps(message).encode()
        sent = {"Accept": ACCEPT, "Content-Type": "application/json"}
        sent.update(headers or {})
        connection.request(method, path, body=body, headers=sent)
        response = connection.getresponse()
        raw = response.read()
        connection.close()
        found = {name.lower(): value for name, value in response.getheaders()}
        if found.get("content-type", "").startswith("text/event-stream"):
            data = [line[5:].strip() for line in raw.split(b"\n") if line.startswith(b"data:")]
            raw = data[-1] if data else b""
        answer = json.loads(raw) if raw and found.get("content-type", "").startswith(
            ("application/json", "text/event-stream")) else raw
        return response.status, found, answer

    def stop(self) -> str:
        """Close stdin (the stand-in uvicorn shuts the app down) and return the process's stderr."""
        try:
            self.process.stdin.close()
            rest = self.process.stderr.read().decode()
            self.process.wait(30)
        finally:
            self.timer.cancel()
        return "".join(self.lines) + rest


@pytest.fixture
def serve(tmp_path):
    started = []

    def start(source):
        started.append(Served(tmp_path, source))
        return started[-1]
    yield start
    for served in started:
        if served.process.poll() is None:
            served.stop()


def converse(served, path: str, tool: str, arguments: dict) -> dict:
    """initialize, tools/list and tools/call at ``path`` in the handshake era, then tools/call in
    2026-07-28's: {"tools": the names listed, "handshake": the call's text, "modern": its text}."""
    status, headers, body = served.request("POST", path, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": HANDSHAKE, "capabilities": {}, "clientInfo": {"name": "asgi-test", "version": "1"}}})
    assert status == 200 and body["result"]["protocolVersion"] == HANDSHAKE, (status, body)
    session = {"Mcp-Session-Id": headers["mcp-session-id"], "MCP-Protocol-Version": HANDSHAKE}
    status, _, _ = served.request("POST", path, {"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
    assert status == 202
    status, _, listed = served.request("POST", path, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, session)
    assert status == 200, listed
    status, _, called = served.request("POST", path, {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": tool, "arguments": arguments}}, session)
    assert status == 200 and not called["result"].get("isError"), called
    envelope = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": {"name": "asgi-test", "version": "1"}}
    status, headers, modern = served.request("POST", path, {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
        "name": tool, "arguments": arguments, "_meta": envelope}},
        {"MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call", "Mcp-Name": tool})
    assert status == 200 and "mcp-session-id" not in headers, (status, modern)
    return {"tools": sorted(t["name"] for t in listed["result"]["tools"]),
            "handshake": called["result"]["content"][0]["text"], "modern": modern["result"]["content"][0]["text"]}


def test_mcp1_streamable_http_app_handed_to_uvicorn(serve):
    served = serve('''
        import uvicorn
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("weather")

        @mcp.tool()
        def forecast(city: str) -> str:
            """The forecast for a city."""
            return "sunny in " + city

        if __name__ == "__main__":
            uvicorn.run(mcp.streamable_http_app(), host="127.0.0.1", port=8000)
    ''')
    assert converse(served, "/mcp", "forecast", {"city": "Oslo"}) == {
        "tools": ["forecast"], "handshake": "sunny in Oslo", "modern": "sunny in Oslo"}
    status, _, body = served.request("POST", "/elsewhere", {"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert status == 404
    assert "SHUTDOWN lifespan.shutdown.complete" in served.stop()


def test_mcp1_settings_path_and_the_readme_mount_with_session_manager_run(serve):
    # The SDK README's pattern: the app mounted in Starlette, whose lifespan (the only one
    # Starlette runs) enters session_manager.run(); the path from settings, under the mount.
    served = serve('''
        import contextlib
        import uvicorn
        from shapes import Mount, Starlette
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("echo", stateless_http=True)
        mcp.settings.streamable_http_path = "/tools"

        @mcp.tool()
        def echo(text: str) -> str:
            return text

        @contextlib.asynccontextmanager
        async def lifespan(app):
            async with mcp.session_manager.run():
                print("MANAGER RUNNING", flush=True, file=__import__("sys").stderr)
                yield

        app = Starlette(routes=[Mount("/api", app=mcp.streamable_http_app())], lifespan=lifespan)

        if __name__ == "__main__":
            uvicorn.run(app)
    ''')
    assert converse(served, "/api/tools", "echo", {"text": "hi"}) == {
        "tools": ["echo"], "handshake": "hi", "modern": "hi"}
    status, _, _ = served.request("POST", "/tools", {"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert status == 404                           # the endpoint is under the mount's prefix
    assert "MANAGER RUNNING" in served.stop()


def test_mcp2_streamable_http_app_its_lifespan_entered_once_and_exited(serve):
    served = serve('''
        import contextlib
        import sys
        import uvicorn
        from mcp.server.mcpserver import MCPServer, Context

        @contextlib.asynccontextmanager
        async def lifespan(server):
            sys.stderr.write("ENTERED\\n")
            yield {"greeting": "hello"}
            sys.stderr.write("EXITED\\n")
            sys.stderr.flush()

        mcp = MCPServer("greeter", lifespan=lifespan)

        @mcp.tool()
        def greet(name: str, ctx: Context) -> str:
            return ctx.request_context.lifespan_context["greeting"] + " " + name

        if __name__ == "__main__":
            uvicorn.run(mcp.streamable_http_app(streamable_http_path="/greeter"))
    ''')
    assert converse(served, "/greeter", "greet", {"name": "Ada"}) == {
        "tools": ["greet"], "handshake": "hello Ada", "modern": "hello Ada"}
    log = served.stop()
    assert log.count("ENTERED") == 1 and log.count("EXITED") == 1, log
    # entered at lifespan.startup (before the port is open), exited at lifespan.shutdown
    assert log.index("ENTERED") < log.index("PORT") and log.index("EXITED") < log.index("SHUTDOWN"), log


def test_mcp2_app_mounted_without_any_lifespan_starts_at_its_first_request(serve):
    # Mounted in an app whose lifespan does not enter session_manager.run() (the SDK's app would
    # answer 500: its task group never started): minimcp's starts at the first request.
    served = serve('''
        import uvicorn
        from shapes import Mount, Starlette
        from mcp.server.mcpserver import MCPServer

        mcp = MCPServer("plain")

        @mcp.tool()
        def double(n: int) -> int:
            return 2 * n

        if __name__ == "__main__":
            uvicorn.run(Starlette(routes=[Mount("/", app=mcp.streamable_http_app())]))
    ''')
    assert converse(served, "/mcp", "double", {"n": 21}) == {"tools": ["double"], "handshake": "42", "modern": "42"}


def test_fastmcp_http_app_with_its_path_and_fastapi_lifespan(serve):
    served = serve('''
        import uvicorn
        from shapes import Mount, Starlette
        from fastmcp import FastMCP

        mcp = FastMCP("calc")

        @mcp.tool
        def add(a: int, b: int) -> int:
            return a + b

        mcp_app = mcp.http_app(path="/calc")
        assert mcp_app.state.fastmcp_server is mcp
        # FastAPI(lifespan=mcp_app.lifespan); app.mount("/v1", mcp_app)
        app = Starlette(routes=[Mount("/v1", app=mcp_app)], lifespan=mcp_app.lifespan)

        if __name__ == "__main__":
            uvicorn.run(app)
    ''')
    assert converse(served, "/v1/calc", "add", {"a": 2, "b": 3}) == {"tools": ["add"], "handshake": "5", "modern": "5"}


def test_fastmcp_http_app_handed_to_uvicorn_alone(serve):
    served = serve('''
        import uvicorn
        from fastmcp import FastMCP

        mcp = FastMCP("calc")

        @mcp.tool
        def add(a: int, b: int) -> int:
            return a + b

        app = mcp.http_app(stateless_http=True, json_response=True)

        if __name__ == "__main__":
            uvicorn.run(app)
    ''')
    assert converse(served, "/mcp", "add", {"a": 1, "b": 1}) == {"tools": ["add"], "handshake": "2", "modern": "2"}


def test_lowlevel_server_behind_a_session_manager_mounted_by_hand(serve):
    # The SDK's examples/servers/simple-streamablehttp: handle_request mounted at /mcp, the
    # session manager run in the outer app's lifespan. The server's lifespan makes a queue on
    # the loop that serves, and the handler awaits it: the handlers run on that loop.
    served = serve('''
        import asyncio
        import contextlib
        import uvicorn
        import mcp.types as types
        from shapes import Mount, Starlette
        from mcp.server.lowlevel import Server
        from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

        @contextlib.asynccontextmanager
        async def server_lifespan(server):
            queue = asyncio.Queue()
            queue.put_nowait("from the lifespan's loop")
            yield {"queue": queue}

        server = Server("lowlevel-http", lifespan=server_lifespan)

        @server.list_tools()
        async def list_tools():
            return [types.Tool(name="said", description="What the lifespan put in its queue",
                               inputSchema={"type": "object", "properties": {}})]

        @server.call_tool()
        async def call_tool(name, arguments):
            queue = server.request_context.lifespan_context["queue"]
            text = await asyncio.wait_for(queue.get(), 5)
            queue.put_nowait(text)
            return [types.TextContent(type="text", text=text)]

        session_manager = StreamableHTTPSessionManager(app=server, event_store=None, json_response=True)

        async def handle_streamable_http(scope, receive, send):
            await session_manager.handle_request(scope, receive, send)

        @contextlib.asynccontextmanager
        async def lifespan(app):
            async with session_manager.run():
                yield

        app = Starlette(routes=[Mount("/mcp", app=handle_streamable_http)], lifespan=lifespan)

        if __name__ == "__main__":
            uvicorn.run(app)
    ''')
    assert converse(served, "/mcp/", "said", {}) == {
        "tools": ["said"], "handshake": "from the lifespan's loop", "modern": "from the lifespan's loop"}


def test_mcp2_lowlevel_server_streamable_http_app(serve):
    served = serve('''
        import uvicorn
        import mcp.types as types
        from mcp.server import Server

        async def list_tools(ctx, params):
            return types.ListToolsResult(tools=[types.Tool(name="hello", input_schema={"type": "object"})])

        async def call_tool(ctx, params):
            return types.CallToolResult(content=[types.TextContent(type="text", text="hello " + params.name)])

        server = Server("v2", on_list_tools=list_tools, on_call_tool=call_tool)

        if __name__ == "__main__":
            uvicorn.run(server.streamable_http_app())
    ''')
    assert converse(served, "/mcp", "hello", {}) == {
        "tools": ["hello"], "handshake": "hello hello", "modern": "hello hello"}


@pytest.mark.parametrize("source, named", [
    ("from mcp.server.fastmcp import FastMCP\nFastMCP('x').sse_app()", "mcp.server.fastmcp.FastMCP.sse_app()"),
    ("from mcp.server.mcpserver import MCPServer\nMCPServer('x').sse_app()", "mcp.server.mcpserver.MCPServer.sse_app()"),
    ("from fastmcp import FastMCP\nFastMCP('x').http_app(transport='sse')", "fastmcp.FastMCP.http_app(transport='sse')"),
])
def test_the_sse_transport_is_refused_at_the_call_naming_what_to_use(tmp_path, source, named):
    (tmp_path / "server.py").write_text(source + "\nprint('NOT REFUSED')\n")
    starter = ("import runpy, sys; sys.path.insert(0, %r); import minimcp; minimcp.install_sdk_aliases(); "
               "runpy.run_path('server.py', run_name='__main__')" % ROOT)
    done = subprocess.run([sys.executable, "-c", starter], cwd=str(tmp_path), capture_output=True, timeout=60)
    stderr = done.stderr.decode()
    assert done.returncode != 0 and b"NOT REFUSED" not in done.stdout
    assert named + " is part of the" in stderr and "no HTTP+SSE transport" in stderr, stderr
    assert "streamable_http_app()" in stderr and "serve --http PORT FILE" in stderr
