"""A calculator written for mcp 2.x: Annotated Field constraints, numbers, errors."""

import math
from typing import Annotated

from pydantic import Field

from mcp.server.mcpserver import MCPServer

mcp = MCPServer("calculator", instructions="Exact arithmetic for the model.")


@mcp.tool()
def add(a: float, b: float) -> float:
    """Add two numbers."""
    return a + b


@mcp.tool()
def divide(dividend: float, divisor: float) -> float:
    """Divide one number by another."""
    if divisor == 0:
        raise ValueError("cannot divide by zero")
    return dividend / divisor


@mcp.tool()
def factorial(n: Annotated[int, Field(ge=0, le=20, description="A small non-negative integer")]) -> int:
    """n! for n up to 20."""
    return math.factorial(n)


@mcp.tool()
def stats(values: Annotated[list[float], Field(min_length=1, description="The sample")]) -> dict[str, float]:
    """Mean, minimum and maximum of a sample."""
    return {"mean": sum(values) / len(values), "min": min(values), "max": max(values)}


@mcp.tool()
def is_prime(n: int) -> bool:
    """Whether n is prime."""
    return n > 1 and all(n % d for d in range(2, int(n ** 0.5) + 1))


@mcp.tool()
def primes_below(limit: Annotated[int, Field(gt=1, le=100)]) -> list[int]:
    """Every prime below limit."""
    return [n for n in range(2, limit) if all(n % d for d in range(2, int(n ** 0.5) + 1))]


if __name__ == "__main__":
    mcp.run()
