"""A SQLite notes server written for mcp 1.x: Field defaults, list[dict] and bare dict results."""

import sqlite3

from pydantic import Field

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("sqlite-notes")

db = sqlite3.connect(":memory:", check_same_thread=False)
db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT)")
db.executemany("INSERT INTO notes (title, body) VALUES (?, ?)",
               [("groceries", "milk, eggs"), ("ideas", "a tiny MCP server"), ("books", "Dune")])


@mcp.tool()
def add_note(title: str = Field(description="Title of the note"),
             body: str = Field("", description="Text of the note")) -> str:
    """Add a note."""
    cursor = db.execute("INSERT INTO notes (title, body) VALUES (?, ?)", (title, body))
    return f"note {cursor.lastrowid} added: " + title


@mcp.tool()
def search(query: str = Field(min_length=2, description="Text to look for"),
           limit: int = Field(10, ge=1, le=50)) -> list[dict]:
    """Find notes whose title or body contains the query."""
    rows = db.execute("SELECT id, title, body FROM notes WHERE title LIKE ? OR body LIKE ? ORDER BY id LIMIT ?",
                      (f"%{query}%", f"%{query}%", limit)).fetchall()
    return [{"id": r[0], "title": r[1], "body": r[2]} for r in rows]


@mcp.tool()
def stats() -> dict:
    """Counts about the notes table."""
    (count,) = db.execute("SELECT COUNT(*) FROM notes").fetchone()
    return {"notes": count, "table": "notes"}


@mcp.resource("schema://notes")
def schema() -> str:
    """The SQL schema of the notes table."""
    return db.execute("SELECT sql FROM sqlite_master WHERE name = 'notes'").fetchone()[0]


@mcp.prompt()
def query_help(question: str) -> str:
    """Help writing a query."""
    return f"Write a SQLite query over the notes table that answers: {question}"


if __name__ == "__main__":
    mcp.run()
