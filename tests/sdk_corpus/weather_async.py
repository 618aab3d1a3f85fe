"""A weather server written for mcp 2.x: async tools with Context, TypedDict, Literal, Optional."""

from typing import Literal, Optional, TypedDict

from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("weather")

CITIES = {"lisbon": 21.5, "oslo": 4.0, "quito": 14.2}


class Forecast(TypedDict):
    city: str
    temperature: float
    unit: str


@mcp.tool()
async def forecast(city: str, ctx: Context, unit: Literal["C", "F"] = "C") -> Forecast:
    """Tomorrow's temperature in a city.

    Args:
        city: the city's name, in any case
        unit: Celsius or Fahrenheit
    """
    await ctx.info(f"forecasting {city}")
    await ctx.report_progress(1, 2)
    celsius = CITIES.get(city.lower())
    if celsius is None:
        raise ValueError(f"unknown city {city}")
    await ctx.report_progress(2, 2)
    value = celsius if unit == "C" else celsius * 9 / 5 + 32
    return {"city": city, "temperature": round(value, 1), "unit": unit}


@mcp.tool()
async def cities(prefix: Optional[str] = None) -> list[str]:
    """Known cities, optionally only those starting with a prefix."""
    return sorted(c for c in CITIES if prefix is None or c.startswith(prefix.lower()))


@mcp.tool()
async def alerts(city: str, ctx: Context) -> None:
    """Log weather alerts for a city (there are none)."""
    await ctx.debug(f"no alerts for {city}")


@mcp.resource("weather://cities/{city}")
async def city_resource(city: str) -> str:
    """Current temperature of one city."""
    return f"{city}: {CITIES.get(city, 'unknown')}"


if __name__ == "__main__":
    mcp.run()
