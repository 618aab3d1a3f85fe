"""A unit converter written for fastmcp: bare decorators, numbers, Literal, defaults."""

from typing import Literal

from fastmcp import FastMCP

mcp = FastMCP("converter")

FACTORS = {"m": 1.0, "km": 1000.0, "mi": 1609.344, "ft": 0.3048}


@mcp.tool
def convert(value: float, source: Literal["m", "km", "mi", "ft"], target: Literal["m", "km", "mi", "ft"] = "m") -> float:
    """Convert a length between units."""
    return round(value * FACTORS[source] / FACTORS[target], 6)


@mcp.tool
def units() -> list[str]:
    """The units convert knows."""
    return list(FACTORS)


@mcp.tool
def round_to(value: float, digits: int = 2) -> str:
    """A number rounded, as text."""
    return f"{value:.{digits}f}"


if __name__ == "__main__":
    mcp.run()
