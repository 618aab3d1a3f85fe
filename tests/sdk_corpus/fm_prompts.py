"""A writing assistant written for fastmcp: prompts with Message, resources and templates."""

from fastmcp import FastMCP
from fastmcp.prompts import Message

mcp = FastMCP("writer")

STYLES = {"plain": "Short sentences.", "formal": "No contractions."}


@mcp.resource("styles://list")
def styles() -> str:
    """The names of the styles."""
    return ", ".join(STYLES)


@mcp.resource("styles://{name}")
def style(name: str) -> str:
    """One style guide."""
    return STYLES[name]


@mcp.prompt
def rewrite(text: str, style: str = "plain") -> list[Message]:
    """Rewrite a text in a style."""
    return [Message(f"Rewrite in the {style} style: {STYLES.get(style, '')}"),
            Message(text),
            Message("Here is the rewrite:", role="assistant")]


@mcp.prompt
def title_for(text: str) -> str:
    """Suggest a title."""
    return f"Suggest a title for: {text}"


if __name__ == "__main__":
    mcp.run()
