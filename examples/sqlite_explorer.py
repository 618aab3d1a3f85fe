"""Explore a SQLite database, read-only: tables and schemas as resources, a query tool, a prompt,
and a page (MCP Apps) that shows a query's rows as a sortable table and a bar chart.

    python3 examples/sqlite_explorer.py path/to/database.db
    (with no path it builds a small demo database in memory)

The query tool cannot write: the database is opened read-only (``mode=ro``) and
``PRAGMA query_only`` is on, so the refusal comes from SQLite itself, not from
checking the SQL text.

Hosts with MCP Apps (the ``io.modelcontextprotocol/ui`` extension) show the page
``ui://sqlite-explorer/results`` next to each query: sqlite_explorer.html, .css and .js
in this folder, inlined into one document by ``inline_page`` (no CDN, no build step).
The page calls ``list_tables``, a tool only it can see, and ``query`` through the host.
Other clients see ``query`` as an ordinary tool whose text content holds the rows.
"""

import json
import os
import sqlite3
import sys
import threading
from typing import List, TypedDict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from minimcp import Context, MCPServer, inline_page  # noqa: E402

DEMO_ROWS = 5000
HERE = os.path.dirname(os.path.abspath(__file__))
PAGE = "ui://sqlite-explorer/results"


class QueryResult(TypedDict):
    """Rows of a query: its structured result (a TypedDict gives the tool an outputSchema)."""
    columns: List[str]
    rows: List[list]
    truncated: bool


def demo_database() -> str:
    """A shared-cache in-memory database with two tables (kept alive by one open connection)."""
    uri = "file:minimcp_demo?mode=memory&cache=shared"
    keeper = sqlite3.connect(uri, uri=True, check_same_thread=False)
    keeper.executescript("""
        CREATE TABLE IF NOT EXISTS city (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT, population INTEGER);
        CREATE TABLE IF NOT EXISTS visit (id INTEGER PRIMARY KEY, city_id INTEGER REFERENCES city(id), day TEXT);
    """)
    if keeper.execute("SELECT COUNT(*) FROM city").fetchone()[0] == 0:
        keeper.executemany("INSERT INTO city (name, country, population) VALUES (?, ?, ?)",
                           [("Lisbon", "PT", 545000), ("Oslo", "NO", 709000), ("Quito", "EC", 2800000)])
        keeper.executemany("INSERT INTO visit (city_id, day) VALUES (?, ?)",
                           [(1 + i % 3, "2026-01-%02d" % (1 + i % 28)) for i in range(DEMO_ROWS)])
        keeper.commit()
    demo_database.keeper = keeper
    return uri


DATABASE = sys.argv[1] if __name__ == "__main__" and len(sys.argv) > 1 else None
URI = "file:%s?mode=ro" % os.path.abspath(DATABASE) if DATABASE else demo_database()
_local = threading.local()

app = MCPServer("sqlite-explorer", version="1.0.0",
                instructions="Read-only access to a SQLite database: list tables, read schemas, run SELECTs.")


def connection() -> sqlite3.Connection:
    """One read-only connection per worker thread."""
    if getattr(_local, "db", None) is None:
        _local.db = sqlite3.connect(URI, uri=True)
        _local.db.execute("PRAGMA query_only = ON")
    return _local.db


def table_names() -> list:
    rows = connection().execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").fetchall()
    return [row[0] for row in rows]


@app.resource("sqlite://tables", mime_type="application/json")
def tables() -> str:
    """The names of the tables, as a JSON list."""
    return json.dumps(table_names())


@app.resource("sqlite://table/{name}/schema", mime_type="text/plain",
              completions={"name": lambda prefix: [t for t in table_names() if t.startswith(prefix)]})
def schema(name: str) -> str:
    """The CREATE statement of one table."""
    row = connection().execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)).fetchone()
    if row is None:
        raise FileNotFoundError(2, "no such table", name)
    return row[0]


@app.ui_resource(PAGE, title="Query results", prefers_border=True)
def results_page() -> str:
    """A query's rows as a sortable table and a bar chart."""
    return inline_page(os.path.join(HERE, "sqlite_explorer.html"))


@app.tool(visibility=["app"])
def list_tables() -> List[str]:
    """The tables of the database, for the page's table picker (hidden from the model)."""
    return table_names()


@app.tool(annotations={"readOnlyHint": True, "idempotentHint": True, "openWorldHint": False}, ui=PAGE)
def query(sql: str, ctx: Context, max_rows: int = 100) -> QueryResult:
    """Run a read-only SQL query and return its rows.

    Args:
        sql: one SELECT (or other read-only) statement
        max_rows: the most rows to return (1-1000)
    """
    max_rows = max(1, min(max_rows, 1000))
    db = connection()
    steps = {"count": 0}

    def on_progress():                         # called by SQLite every 1000 VM steps
        steps["count"] += 1
        if steps["count"] % 100 == 0:
            ctx.progress(steps["count"], message="%d thousand steps" % steps["count"])
        return 1 if ctx.cancelled else 0          # non-zero interrupts the query
    db.set_progress_handler(on_progress, 1000)
    try:
        cursor = db.execute(sql)
        columns = [d[0] for d in cursor.description or []]
        rows = cursor.fetchmany(max_rows + 1)
    except sqlite3.OperationalError as exc:
        ctx.check_cancelled()
        raise ValueError("SQLite refused the query: %s" % exc) from None
    finally:
        db.set_progress_handler(None, 0)
    return {"columns": columns, "rows": [list(r) for r in rows[:max_rows]], "truncated": len(rows) > max_rows}


@app.prompt()
def draft_query(question: str) -> str:
    """Draft a SQL query that answers a question about this database.

    Args:
        question: what you want to know
    """
    schemas = "\n".join(schema(name) + ";" for name in table_names())
    return ("Here is the schema of a SQLite database:\n\n%s\n\nWrite one read-only SELECT statement that "
            "answers: %s" % (schemas, question))


if __name__ == "__main__":
    app.run()
