"""A time server written for mcp 1.x: datetime, date, time, timedelta, UUID, Decimal and Path."""

import uuid
from datetime import date, datetime, time, timedelta, timezone
from decimal import Decimal
from pathlib import Path

from mcp.server.fastmcp import FastMCP

mcp = FastMCP("time")


@mcp.tool()
def add_duration(start: datetime, hours: float = 0, days: int = 0) -> str:
    """A time plus a duration, in ISO 8601."""
    return (start + timedelta(hours=hours, days=days)).isoformat()


@mcp.tool()
def weekday(day: date) -> str:
    """The weekday of a date."""
    return day.strftime("%A")


@mcp.tool()
def describe(at: time, span: timedelta, ident: uuid.UUID, amount: Decimal, where: Path) -> dict:
    """Everything about a moment, echoed back as data."""
    return {"at": at, "span": span, "ident": ident, "amount": amount, "where": where,
            "stamp": datetime(2024, 5, 6, 7, 8, 9, tzinfo=timezone.utc), "day": date(2024, 5, 6)}


@mcp.tool()
def epoch() -> datetime:
    """The Unix epoch."""
    return datetime(1970, 1, 1, tzinfo=timezone.utc)


@mcp.tool()
def schedule(first: date, count: int = 3) -> list[date]:
    """Weekly dates from a first one."""
    return [first + timedelta(weeks=i) for i in range(count)]


if __name__ == "__main__":
    mcp.run()
