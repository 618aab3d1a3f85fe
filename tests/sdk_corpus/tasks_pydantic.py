"""A task tracker written for mcp 2.x: pydantic models in and out, Field() both ways, ToolError."""

from typing import Annotated, Literal, Optional

from pydantic import BaseModel, Field

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

mcp = MCPServer("tasks")


class CreateTaskRequest(BaseModel):
    """What a new task needs."""

    title: str = Field(description="Short title of the task", min_length=1, max_length=80)
    priority: Literal["low", "normal", "high"] = "normal"
    estimate_hours: Optional[float] = Field(None, ge=0, description="Rough estimate")
    tags: list[str] = Field(default_factory=list, max_length=5)


class Task(BaseModel):
    id: int
    title: str
    priority: str
    done: bool = False
    tags: list[str] = []


TASKS: dict[int, Task] = {}


@mcp.tool()
def create_task(request: CreateTaskRequest) -> Task:
    """Create a task and return it."""
    task = Task(id=len(TASKS) + 1, title=request.title, priority=request.priority, tags=request.tags)
    TASKS[task.id] = task
    return task


@mcp.tool()
def complete_task(task_id: Annotated[int, Field(ge=1, description="The task's id")]) -> Task:
    """Mark a task as done."""
    if task_id not in TASKS:
        raise ToolError(f"no task {task_id}")
    TASKS[task_id].done = True
    return TASKS[task_id]


@mcp.tool()
def list_tasks(only_open: bool = Field(False, description="Hide finished tasks")) -> list[Task]:
    """All tasks, oldest first."""
    return [t for t in TASKS.values() if not (only_open and t.done)]


@mcp.tool()
def summary() -> str:
    """One line about the task list."""
    return f"{len(TASKS)} tasks, {sum(t.done for t in TASKS.values())} done"


if __name__ == "__main__":
    mcp.run()
