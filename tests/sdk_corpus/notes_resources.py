"""A notes server written for mcp 2.x: static resources, templates, prompts with message classes."""

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.prompts.base import AssistantMessage, UserMessage

mcp = MCPServer("notes")

NOTES = {"welcome": "Hello and welcome.", "todo": "Buy milk\nCall Ada"}


@mcp.resource("notes://index")
def index() -> str:
    """The names of every note."""
    return "\n".join(sorted(NOTES))


@mcp.resource("notes://{name}")
def read_note(name: str) -> str:
    """One note by name."""
    if name not in NOTES:
        raise ValueError(f"no note named {name}")
    return NOTES[name]


@mcp.resource("config://settings", mime_type="application/json")
def settings() -> dict:
    """Settings of the notes store."""
    return {"max_notes": 100, "sorted": True}


@mcp.tool()
def save_note(name: str, text: str) -> str:
    """Save a note under a name."""
    NOTES[name] = text
    return f"saved {name}"


@mcp.prompt()
def summarise(name: str) -> str:
    """Ask for a summary of a note."""
    return f"Summarise this note:\n\n{NOTES.get(name, '')}"


@mcp.prompt(title="Review a note")
def review(name: str, tone: str = "friendly") -> list:
    """Start a review conversation."""
    return [UserMessage(f"Please review the note {name!r} in a {tone} tone."),
            AssistantMessage("Sure. What should I look at first?"),
            UserMessage("Spelling, then structure.")]


if __name__ == "__main__":
    mcp.run()
