"""A chart server written for fastmcp: Image from fastmcp.utilities.types, text and image mixes."""

import base64

from fastmcp import FastMCP
from fastmcp.utilities.types import Image

mcp = FastMCP("charts")

PIXEL = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")


@mcp.tool
def sparkline(values: list[float]) -> Image:
    """A (tiny) chart of some values."""
    return Image(data=PIXEL, format="png")


@mcp.tool
def report(title: str) -> list:
    """A title and a chart."""
    return [f"Report: {title}", Image(data=PIXEL, format="png")]


if __name__ == "__main__":
    mcp.run()
