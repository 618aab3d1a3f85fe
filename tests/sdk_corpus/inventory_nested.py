"""An inventory written for mcp 2.x: nested models, RootModel in and out, datetimes inside models."""

from datetime import datetime, timezone
from typing import Optional

from pydantic import BaseModel, Field, RootModel

from mcp.server.mcpserver import MCPServer

mcp = MCPServer("inventory")


class Location(BaseModel):
    warehouse: str
    shelf: int = Field(ge=1)


class Item(BaseModel):
    sku: str = Field(pattern=r"^[A-Z]{3}-\d{3}$", description="Stock keeping unit")
    name: str
    quantity: int = Field(0, ge=0)
    location: Optional[Location] = None


class Skus(RootModel[list[str]]):
    pass


class Receipt(BaseModel):
    items: list[Item]
    received_at: datetime
    note: Optional[str] = None


STOCK: dict[str, Item] = {}
FIXED_TIME = datetime(2025, 3, 4, 5, 6, 7, tzinfo=timezone.utc)


@mcp.tool()
def receive(items: list[Item], note: Optional[str] = None) -> Receipt:
    """Receive items into stock."""
    for item in items:
        STOCK[item.sku] = item
    return Receipt(items=items, received_at=FIXED_TIME, note=note)


@mcp.tool()
def skus() -> list[str]:
    """Every SKU in stock."""
    return Skus(sorted(STOCK)).root


@mcp.tool()
def count_skus(wanted: Skus) -> int:
    """How many of the given SKUs are in stock."""
    return sum(1 for sku in wanted.root if sku in STOCK)


@mcp.tool()
def locate(sku: str) -> Optional[Location]:
    """Where an item is kept, if known."""
    item = STOCK.get(sku)
    return item.location if item else None


if __name__ == "__main__":
    mcp.run()
