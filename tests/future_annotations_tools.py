"""Tool functions in a module that uses ``from __future__ import annotations``.

Every annotation below is a string at run time; minimcp must resolve them in this
module's namespace. test_schema.py registers these functions on fresh servers and
compares their schemas with those of the same signatures written without the
future import. Only 3.8-compatible typing spellings are used here.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Dict, List, Literal, Optional, Tuple, Union

import minimcp
from minimcp import Context


class Shade(enum.Enum):
    LIGHT = "light"
    DARK = "dark"


@dataclasses.dataclass
class Corner:
    x: int
    y: int = 0


@dataclasses.dataclass
class Box:
    top_left: Corner
    label: Optional[str] = None
    tags: List[str] = dataclasses.field(default_factory=list)


def paint(shade: Shade, box: Box, ctx: Context, times: int = 1,
          note: Optional[str] = None) -> str:
    """Paint a box.

    Args:
        shade: how dark
        box: what to paint
        times: how many coats
        note: a remark
    """
    return "%s|%s|%s|%s|%s|%s|%s" % (
        type(shade).__name__, shade.value, type(box).__name__, type(box.top_left).__name__,
        box.top_left.x, times, type(ctx).__name__)


def mixed(pair: Tuple[int, str], scores: Dict[str, float], pick: Literal["a", "b"],
          either: Union[int, str], items: List[int]) -> dict:
    """Many typing constructs at once."""
    return {"pair": [pair[0], pair[1]], "pair_type": type(pair).__name__, "n": len(scores),
            "pick": pick, "either": either, "items": items}


def qualified(ctx: minimcp.Context, text: str) -> Corner:
    """Context spelled with its module; a dataclass as return annotation."""
    return Corner(len(text), 7)


def unresolvable(thing: NoSuchName) -> str:  # noqa: F821 - the point of the test
    """Its annotation names something that does not exist."""
    return "never"
