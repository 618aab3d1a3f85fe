"""An Obsidian-style vault written for mcp 1.x: templates, search, prompts, a None tool."""

from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.prompts.base import Message, UserMessage

mcp = FastMCP("vault", instructions="Markdown notes in a vault.")

VAULT = {
    "daily/2025-01-01.md": "# New year\nResolutions.",
    "projects/minimcp.md": "# minimcp\nOne file, stdlib only.",
    "inbox.md": "- [ ] read the spec",
}


@mcp.resource("vault://files")
def files() -> list[str]:
    """Every file in the vault."""
    return sorted(VAULT)


@mcp.resource("vault://note/{folder}/{name}")
def note(folder: str, name: str) -> str:
    """One note in a folder."""
    return VAULT[f"{folder}/{name}"]


@mcp.tool()
def search_vault(text: str, case_sensitive: bool = False) -> list[str]:
    """Paths of the notes that contain a text.

    Args:
        text: what to look for
        case_sensitive: match upper and lower case exactly
    """
    def has(body: str) -> bool:
        return text in body if case_sensitive else text.lower() in body.lower()
    return sorted(path for path, body in VAULT.items() if has(body))


@mcp.tool()
def append(path: str, line: str) -> None:
    """Append a line to a note."""
    VAULT[path] = VAULT.get(path, "") + "\n" + line


@mcp.tool()
def read(path: str) -> str:
    """The text of a note."""
    if path not in VAULT:
        raise FileNotFoundError(path)
    return VAULT[path]


@mcp.prompt()
def weekly_review() -> list[Message]:
    """Review the week's notes."""
    daily = [p for p in VAULT if p.startswith("daily/")]
    return [UserMessage("Review these daily notes: " + ", ".join(daily))]


@mcp.prompt()
def link_suggestions(path: str) -> str:
    """Suggest links for a note."""
    return f"Suggest [[wiki links]] for {path}:\n\n{VAULT.get(path, '')}"


if __name__ == "__main__":
    mcp.run()
