"""A key-value store written for mcp 1.x: ToolError, Annotated pattern/length constraints, bools."""

from typing import Annotated, Any

from pydantic import Field

from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError

mcp = FastMCP("kv", dependencies=["pydantic"])

Key = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=32, description="A lowercase key")]
STORE: dict[str, Any] = {"answer": 42}


@mcp.tool()
def put(key: Key, value: Any) -> bool:
    """Store a value; true if it replaced one."""
    replaced = key in STORE
    STORE[key] = value
    return replaced


@mcp.tool()
def get(key: Key) -> Any:
    """The value under a key."""
    if key not in STORE:
        raise ToolError(f"no key {key}")
    return STORE[key]


@mcp.tool()
def keys(prefix: Annotated[str, Field(max_length=8)] = "") -> list[str]:
    """Keys that start with a prefix."""
    return sorted(k for k in STORE if k.startswith(prefix))


@mcp.tool()
def dump() -> dict[str, Any]:
    """The whole store."""
    return dict(STORE)


if __name__ == "__main__":
    mcp.run()
