"""A server written for the official Python SDK (the sdk component), run unchanged.

    python3 minimcp.py serve examples/sdk_server.py

Nothing here names minimcp: ``serve`` answers the SDK's imports with its own names, and
serves the server in the dialect of the SDK it was written for (mcp 1.x's, for
``mcp.server.fastmcp.FastMCP``), so a client sees what that SDK would send. With the SDK
installed, ``python3 examples/sdk_server.py`` runs the same file on the SDK itself.
"""

from typing import List

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("sdk-demo", instructions="Unit conversions, written for the official SDK.")

FACTORS = {"km": 1000.0, "m": 1.0, "cm": 0.01, "mi": 1609.344}


@mcp.tool()
def convert(value: float, unit: str, to: str) -> float:
    """Convert a length between km, m, cm and mi."""
    if unit not in FACTORS or to not in FACTORS:
        raise ValueError("units are km, m, cm and mi")
    return value * FACTORS[unit] / FACTORS[to]


@mcp.tool()
async def slow_sum(numbers: List[float], ctx: Context) -> float:
    """Add numbers one by one, reporting progress."""
    total = 0.0
    for index, number in enumerate(numbers, 1):
        total += number
        await ctx.report_progress(index, len(numbers))
    return total


@mcp.resource("units://all")
def units() -> str:
    """The units convert knows."""
    return ", ".join(sorted(FACTORS))


if __name__ == "__main__":
    mcp.run()
