"""An image server written for mcp 2.x: Image(data=..., format=...), mcp.types content blocks."""

import base64

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.utilities.types import Image
from mcp.types import ImageContent, TextContent

mcp = MCPServer("images")

PIXEL = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")


@mcp.tool()
def pixel() -> Image:
    """A one-pixel PNG."""
    return Image(data=PIXEL, format="png")


@mcp.tool()
def captioned(caption: str) -> list[TextContent | ImageContent]:
    """A caption and the pixel, as content blocks."""
    return [TextContent(type="text", text=caption),
            ImageContent(type="image", data=base64.b64encode(PIXEL).decode(), mime_type="image/png")]


@mcp.tool()
def describe(width: int, height: int) -> TextContent:
    """Describe an image size."""
    return TextContent(type="text", text=f"{width}x{height} pixels")


if __name__ == "__main__":
    mcp.run()
