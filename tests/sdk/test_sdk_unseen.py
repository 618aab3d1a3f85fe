"""What servers from GitHub that no one here had seen showed under ``serve`` (issue 38).

Each test is a class of difference found by tests/interop/unseen_servers.py on a real server
(named in its docstring; their code is not here): a server file written as its author wrote
it, started with ``python3 minimcp.py serve FILE`` (no SDK installed), answering as mcp 1.30.0
answers the same file.
"""

import os
import re

from test_sdk_lowlevel import call, request, serve, text

PYDANTIC_LINK = r"\n    For further information visit https://errors\.pydantic\.dev/\d+\.\d+/v/missing"


def test_a_model_built_without_a_field_the_sdk_requires_fails_in_pydantics_words(tmp_path):
    """Chi-Lei-Tsai/MCPproject lists a Resource without its name, MISO01/mcp-python-examples a Tool
    without its inputSchema: the SDK's pydantic model refuses to be built, and the handler's
    error is the answer (code 0, the ValidationError's words); minimcp listed them, and the
    client rejected the list."""
    answers, _, _ = serve(tmp_path, '''
        from typing import List  # (list[...] needs Python 3.9)
        import asyncio
        import mcp.server.stdio
        import mcp.types as types
        from mcp.server.lowlevel import Server

        server = Server("unseen")

        @server.list_resources()
        async def list_resources() -> List[types.Resource]:
            return [types.Resource(uri="greeting://World", title="Hello", contentType="text/plain")]

        @server.list_tools()
        async def list_tools() -> List[types.Tool]:
            return [types.Tool(name="get-users", description="모든 사용자 목록을 가져옵니다", arguments=[])]

        async def main():
            async with mcp.server.stdio.stdio_server() as (read, write):
                await server.run(read, write, server.create_initialization_options())

        if __name__ == "__main__":
            asyncio.run(main())
    ''', [request(1, "resources/list"), request(2, "tools/list")])
    error = answers[1]["error"]
    assert error["code"] == 0
    assert re.fullmatch(r"1 validation error for Resource\nname\n  Field required \[type=missing, input_value="
                        r"\{'uri': 'greeting://World\.\.\.tentType': 'text/plain'\}, input_type=dict\]"
                        + PYDANTIC_LINK, error["message"]), error["message"]
    assert re.fullmatch(r"1 validation error for Tool\ninputSchema\n  Field required \[type=missing, input_value="
                        r"\{'name': 'get-users', 'de\.\.\.다', 'arguments': \[\]\}, input_type=dict\]"
                        + PYDANTIC_LINK, answers[2]["error"]["message"]), answers[2]["error"]["message"]
    answers, _, _ = serve(tmp_path, '''
        from typing import List  # (list[...] needs Python 3.9)
        from mcp.server.fastmcp import FastMCP
        from mcp.types import TextContent, TextResourceContents

        mcp = FastMCP("unseen")

        @mcp.tool()
        def missing() -> List[TextContent]:
            try:
                TextResourceContents(uri="file:///a.txt")
            except ValueError as exc:              # pydantic's ValidationError is a ValueError
                return [TextContent(type="text", text=str(exc).splitlines()[1])]
            return []
    ''', [call(1, "missing")])
    assert text(answers[1]) == ["text"]


def test_an_async_main_that_builds_its_server_is_awaited(tmp_path):
    """IvanMazeppa/PlasmaDXR builds its Server inside ``async def main()`` and starts it with
    ``asyncio.run(main())``: serve called main() and never awaited the coroutine it returned."""
    answers, _, stderr = serve(tmp_path, '''
        from typing import List  # (list[...] needs Python 3.9)
        import asyncio
        from mcp.server import Server
        from mcp.server.stdio import stdio_server
        from mcp.types import TextContent, Tool

        async def main():
            server = Server("test-server")

            @server.list_tools()
            async def list_tools() -> List[Tool]:
                return [Tool(name="test_tool", description="Echo", inputSchema={
                    "type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]})]

            @server.call_tool()
            async def call_tool(name: str, arguments: dict) -> List[TextContent]:
                return [TextContent(type="text", text="Echo: " + arguments["message"])]

            async with stdio_server() as (read_stream, write_stream):
                await server.run(read_stream, write_stream, server.create_initialization_options())

        if __name__ == "__main__":
            asyncio.run(main())
    ''', [request(1, "tools/list"), call(2, "test_tool", {"message": "hi"})])
    assert [tool["name"] for tool in answers[1]["result"]["tools"]] == ["test_tool"]
    assert text(answers[2]) == ["Echo: hi"]
    assert "never awaited" not in stderr


def test_the_served_script_is_compiled_as_python_compiles_a_script(tmp_path):
    """jjhbk/vailam's list_files tool lists its own folder: under serve it also listed the
    __pycache__ that importing the script had written there; ``python FILE`` never caches the
    bytecode of the script it runs (only of the modules it imports)."""
    folder, cache = tmp_path / "server", tmp_path / "bytecode"
    folder.mkdir()
    (folder / "helper.py").write_text("WORD = 'helper'\n")
    environment = dict(os.environ, PYTHONPYCACHEPREFIX=str(cache))     # where every .pyc goes, to be seen
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    answers, _, _ = serve(folder, '''
        from typing import List  # (list[...] needs Python 3.9)
        import os
        from mcp.server.fastmcp import FastMCP
        from helper import WORD

        mcp = FastMCP("filesystem")

        @mcp.tool()
        def list_files(path: str = ".") -> List[str]:
            return sorted(os.listdir(path)) + [WORD]

        if __name__ == "__main__":
            mcp.run(transport="stdio")
    ''', [call(1, "list_files")], env=environment)
    assert answers[1]["result"]["structuredContent"] == {"result": ["helper.py", "server.py", "helper"]}
    cached = sorted(p.name.split(".")[0] for p in cache.rglob("*.pyc") if p.parent.name == "server")
    assert cached == ["helper"]                 # the module it imports is cached, the script is not


def test_the_arguments_after_the_script_are_its_own(tmp_path):
    """zhoukangchn/myagent's users start it with ``python server.py --stdio`` (its main() chooses
    stdio or SSE from its arguments, and prints its usage without one): ``serve server.py --stdio``
    gives the script those arguments, as python does."""
    answers, _, _ = serve(tmp_path, '''
        from typing import List  # (list[...] needs Python 3.9)
        import argparse
        import asyncio
        import sys
        import mcp.server.stdio
        import mcp.types as types
        from mcp.server import Server

        app = Server("mcp-demo")
        SEEN = list(sys.argv[1:])

        @app.list_tools()
        async def list_tools() -> List[types.Tool]:
            return [types.Tool(name="argv", description="", inputSchema={"type": "object"})]

        @app.call_tool()
        async def call_tool(name: str, arguments: dict) -> List[types.TextContent]:
            return [types.TextContent(type="text", text=" ".join(SEEN + sys.argv[1:]))]

        async def run_stdio():
            async with mcp.server.stdio.stdio_server() as (read_stream, write_stream):
                await app.run(read_stream, write_stream, app.create_initialization_options())

        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--stdio", action="store_true")
            parser.add_argument("--port", type=int, default=3001)
            if not parser.parse_args().stdio:
                parser.print_help()
                sys.exit(1)
            asyncio.run(run_stdio())

        if __name__ == "__main__":
            main()
    ''', [call(1, "argv")], arguments=["--stdio", "--port", "9"])
    assert text(answers[1]) == ["--stdio --port 9 --stdio --port 9"]


def test_a_resource_handler_gets_its_uri_as_pydantics_anyurl_not_as_text(tmp_path):
    """zhoukangchn/myagent's read_resource calls ``uri.startswith(...)``: mcp 1.x hands it an
    AnyUrl, which is no str, and answers code 0 "'AnyUrl' object has no attribute 'startswith'";
    minimcp handed it text and read the resource. The server imports no pydantic of its own."""
    answers, _, _ = serve(tmp_path, '''
        from typing import List  # (list[...] needs Python 3.9)
        import asyncio
        import mcp.server.stdio
        import mcp.types as types
        from mcp.server import Server

        app = Server("urls")

        @app.list_resources()
        async def list_resources() -> List[types.Resource]:
            return [types.Resource(uri="system://info", name="info"), types.Resource(uri="note://a/b", name="b")]

        @app.read_resource()
        async def read_resource(uri) -> str:
            if str(uri) == "note://a/b":
                same = uri == "note://a/b"          # an AnyUrl is not equal to its text
                return "%s %s %s %s %s" % (uri.scheme, uri.host, uri.path, same, uri == type(uri)("note://a/b"))
            if uri.startswith("system://"):
                return "text"
            raise ValueError("unknown")

        async def main():
            async with mcp.server.stdio.stdio_server() as (read, write):
                await app.run(read, write, app.create_initialization_options())

        if __name__ == "__main__":
            asyncio.run(main())
    ''', [request(1, "resources/read", {"uri": "system://info"}), request(2, "resources/read", {"uri": "note://a/b"})])
    assert answers[1]["error"] == {"code": 0, "message": "'AnyUrl' object has no attribute 'startswith'"}
    assert answers[2]["result"]["contents"][0]["text"] == "note a /b False True"
