"""A project tracker written for fastmcp: pydantic models, Field(), ToolError."""

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError

mcp = FastMCP("fm-tasks")


class Project(BaseModel):
    name: str = Field(min_length=1, description="Project name")
    owner: str
    status: Literal["planned", "active", "closed"] = "planned"


PROJECTS: dict[str, Project] = {}


@mcp.tool
def create_project(project: Project) -> Project:
    """Create a project."""
    if project.name in PROJECTS:
        raise ToolError(f"project {project.name} exists")
    PROJECTS[project.name] = project
    return project


@mcp.tool
def set_status(name: str, status: Annotated[Literal["planned", "active", "closed"], Field(description="New status")]) -> Project:
    """Change a project's status."""
    if name not in PROJECTS:
        raise ToolError(f"no project {name}")
    PROJECTS[name].status = status
    return PROJECTS[name]


@mcp.tool
def owners() -> list[str]:
    """Owners of all projects."""
    return sorted({p.owner for p in PROJECTS.values()})


if __name__ == "__main__":
    mcp.run()
