"""A todo list written for mcp 1.x: dataclasses in and out, Enum, Optional, nested lists."""

from dataclasses import dataclass, field
from enum import Enum
from typing import List, Optional

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("todo")


class Status(Enum):
    OPEN = "open"
    DONE = "done"


@dataclass
class Todo:
    title: str
    status: Status = Status.OPEN
    tags: List[str] = field(default_factory=list)


@dataclass
class Board:
    name: str
    todos: List[Todo]


class Counts:
    """Totals of the board (a plain class with annotations, not a dataclass)."""

    open: int
    done: int = 0

    def __init__(self, open: int, done: int = 0) -> None:
        self.open, self.done = open, done


BOARD = Board("main", [])


@mcp.tool()
def add(todo: Todo, ctx: Context) -> Board:
    """Add a todo to the board."""
    ctx.info(f"adding {todo.title}")
    BOARD.todos.append(todo)
    return BOARD


@mcp.tool()
def by_status(status: Status) -> List[str]:
    """Titles of the todos with a status."""
    return [t.title for t in BOARD.todos if t.status == status]


@mcp.tool()
def rename(old: str, new: Optional[str] = None) -> Optional[str]:
    """Rename a todo; without a new name, nothing changes."""
    for todo in BOARD.todos:
        if todo.title == old and new:
            todo.title = new
            return new
    return None


@mcp.tool()
def counts() -> Counts:
    """How many todos are open and done."""
    done = sum(t.status == Status.DONE for t in BOARD.todos)
    return Counts(len(BOARD.todos) - done, done)


@mcp.tool()
def first() -> Todo:
    """The oldest todo."""
    if not BOARD.todos:
        raise ValueError("the board is empty")
    return BOARD.todos[0]


if __name__ == "__main__":
    mcp.run()
