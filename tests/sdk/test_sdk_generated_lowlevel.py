"""The classes of difference the generative differential found in low-level ``Server`` servers.

tests/interop/sdk_generate.py writes servers with mcp's low-level ``Server`` in its 1.x form
(a decorator per method) and its 2.x form (``on_*`` handlers taking ``(ctx, params)``), runs
each under its pinned SDK (mcp 1.30.0, mcp 2.3.0) and unchanged under ``python3 minimcp.py
serve``, and compares the answers. Each class it showed is a test here: a server's source in,
the JSON lines ``serve`` writes out, compared with what the SDK sent for the same file (the seed
that showed it is named). No SDK is installed here: ``serve`` stands in for it.
"""

from test_sdk_lowlevel import call, serve

MCP2_META = '''
    import asyncio
    import mcp.types as types
    from mcp.server import Server, ServerRequestContext
    from mcp.server.stdio import stdio_server


    async def handle_call_tool(ctx: ServerRequestContext, params: types.CallToolRequestParams) -> types.CallToolResult:
        token = (ctx.meta or {}).get("progress_token")
        if token is not None:
            await ctx.session.send_progress_notification(token, 1, 2, related_request_id=ctx.request_id)
        shown = sorted(ctx.meta.items()) if ctx.meta is not None else None
        return types.CallToolResult(content=[types.TextContent(type="text", text=repr(shown))])


    server = Server("gen", on_call_tool=handle_call_tool)


    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())


    if __name__ == "__main__":
        asyncio.run(main())
'''


def test_mcp2_hands_the_request_meta_as_a_dict_with_its_progress_token_in_snake_case(tmp_path):
    # seed 17 and 15 more of 35 low-level 2.x servers: mcp 2.3.0's RequestParamsMeta is a
    # TypedDict, so ctx.meta is a dict ({"progress_token": ...}; other keys as sent), and
    # (ctx.meta or {}).get("progress_token") is how its servers read the token
    answers, notifications, stderr = serve(tmp_path, MCP2_META, [
        call(1, "t", _meta={"progressToken": "p1", "trace": 7}), call(2, "t")])
    assert answers[1]["result"]["content"] == [
        {"type": "text", "text": "[('progress_token', 'p1'), ('trace', 7)]"}], stderr
    assert answers[2]["result"]["content"] == [{"type": "text", "text": "None"}]
    assert [n["params"] for n in notifications if n["method"] == "notifications/progress"] == [
        {"progressToken": "p1", "progress": 1.0, "total": 2.0}]


MCP1_DICT = '''
    from typing import List  # (list[...] needs Python 3.9)
    import asyncio
    import mcp.types as types
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server

    server = Server("gen")


    @server.list_tools()
    async def list_tools() -> List[types.Tool]:
        return [types.Tool(name="count", inputSchema={"type": "object", "properties": {
            "counts": {"type": "object", "additionalProperties": {"type": "integer"}}}, "required": ["counts"]})]


    @server.call_tool()
    async def call_tool(name: str, arguments: dict) -> List[types.TextContent]:
        return [types.TextContent(type="text", text=str(sorted(arguments["counts"].items())))]


    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())


    if __name__ == "__main__":
        asyncio.run(main())
'''


def test_mcp1_validates_each_value_of_a_dict_by_its_additional_properties_schema(tmp_path):
    # seeds 16, 124 and 136 (dict[str, int] written as a schema): mcp 1.30.0 validates the
    # arguments with jsonschema, which checks every value against additionalProperties
    answers, _, stderr = serve(tmp_path, MCP1_DICT, [
        call(1, "count", {"counts": {"a": 1, "b": 2}}), call(2, "count", {"counts": {"a": 1, "b": "x"}})])
    assert answers[1]["result"] == {"content": [{"type": "text", "text": "[('a', 1), ('b', 2)]"}], "isError": False}
    assert answers[2]["result"] == {"content": [{"type": "text", "text": "Input validation error: 'x' is not of type "
                                                 "'integer'"}], "isError": True}, stderr
