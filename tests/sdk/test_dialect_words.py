"""Invalid arguments in the SDK dialects, worded as each SDK's pydantic words them (issue 27).

The SDKs validate a call's arguments with pydantic and answer with str(ValidationError);
minimcp's validator decides accept or reject and, in an SDK dialect, minimcp words the
rejection as pydantic would. Every expected text below was measured over stdio (2025-06-18)
on the real SDKs with the same functions: mcp 1.30.0 and mcp 2.3.0 (identical words; the
"mcp" rows run in both dialects, the "mcp1" rows were measured on 1.30.0 only), fastmcp
4.2.3 (the "fastmcp" rows) and fastmcp 4.2.3 with strict_input_validation=True ("strict"),
all with pydantic 2.14.4, the version the corpus's reference venvs resolve. The link's
version is the installed pydantic's (minimcp reads it from the metadata, never importing it),
so the tests put that version into the measured texts.
"""

import dataclasses
import enum
from typing import Any, Dict, List, Literal, Optional, Sequence, Set, Tuple, Union

import pytest

from conftest import Wire
import minimcp

try:
    import pydantic
    from pydantic import BaseModel, ConfigDict, Field, FiniteFloat
except ImportError:        # the pydantic rows run where tests/requirements.txt is installed
    pydantic = None
if pydantic is not None and int(pydantic.VERSION.split(".")[0]) < 2:
    pydantic = None        # pydantic 1 (Debian bookworm's python3-pydantic): these models are pydantic 2's
try:
    from typing import Annotated, TypedDict
except ImportError:        # 3.8 (pydantic brings typing_extensions)
    from typing_extensions import Annotated, TypedDict

needs_pydantic = pytest.mark.skipif(pydantic is None, reason="pydantic 2 is not installed (tests/requirements.txt)")


def docs_version():
    """major.minor of the installed pydantic, as minimcp writes it in pydantic's links (2.14 without one)."""
    try:
        from importlib import metadata
        return ".".join(metadata.version("pydantic").split(".")[:2])
    except Exception:
        return "2.14"


class Color(str, enum.Enum):
    RED = "red"
    GREEN = "green"


class Num(enum.Enum):
    ONE = 1
    TWO = 2


class TD(TypedDict):
    a: int
    b: str


@dataclasses.dataclass
class DC:
    a: int
    b: str = "x"


@dataclasses.dataclass
class Op:
    op: str
    date: str = ""


def plain(s: str, i: int, f: float, b: bool) -> str:
    return "ok"


def lists(xs: List[int], m: List[List[float]] = []) -> str:
    return "ok"


def dicts(d: Dict[str, int], rows: List[Dict[str, Any]] = []) -> str:
    return "ok"


def opts(x: Optional[int] = None, xs: Optional[List[int]] = None, s: Optional[str] = None) -> str:
    return "ok"


def unions(u: Union[List[int], int], v: Union[int, str] = 1) -> str:
    return "ok"


def choices(mode: Literal["a", "b"], color: Color = Color.RED, num: Num = Num.ONE, lit: Literal[1, 2] = 1) -> str:
    return "ok"


def classes(td: TD, dc: Optional[DC] = None) -> str:
    return "ok"


def original(a: int) -> str:
    return "ok"


def seqs(expressions: Sequence[str], pair: Optional[Tuple[int, str]] = None, tags: Optional[Set[str]] = None) -> str:
    return "ok"


def strictish(i: int, f: float, b: bool, s: str = "a") -> str:
    return "ok"


TOOLS = [plain, lists, dicts, opts, unions, choices, classes, seqs, strictish]

if pydantic is not None:
    class Point(BaseModel):
        x: int
        y: float = 0.0

    class Strict(BaseModel):
        model_config = ConfigDict(extra="forbid")
        name: str

    class Outer(BaseModel):
        p: Point
        tags: List[str] = []

    class Item(BaseModel):
        name: str = Field(alias="itemName")
        qty: Annotated[int, Field(ge=1)] = 1

    class Kind(enum.IntEnum):
        A = 1
        B = 2

    def constrained(x: Annotated[float, Field(gt=0)], n: Annotated[int, Field(ge=1, le=10)] = 1,
                    s: Annotated[str, Field(min_length=2, max_length=5)] = "ab",
                    p: Annotated[str, Field(pattern="^[a-z]+$")] = "a",
                    lst: Annotated[List[int], Field(min_length=1, max_length=3)] = [1],
                    y: Annotated[float, Field(lt=10, ge=0)] = 1.0, z: Annotated[int, Field(le=5, gt=-5)] = 0) -> str:
        return "ok"

    def models(p: Point, o: Optional[Outer] = None, st: Optional[Strict] = None) -> str:
        return "ok"

    def fielded(weight_kg: float = Field(gt=0, description="w"), count: int = Field(default=1, ge=0)) -> str:
        return "ok"

    def finite(weight_kg: Annotated[FiniteFloat, Field(gt=0, description="w")],
               pct: Annotated[FiniteFloat, Field(gt=0, le=100)] = 1.0) -> str:
        return "ok"

    def items(items: List[Item], ops: List[Op] = [], kind: Kind = Kind.A, mode: Literal["x", "y", "z"] = "x") -> str:
        return "ok"

    def mixed(v: Union[Item, List[Item], None] = None, w: Union[int, Literal["all"]] = 1,
              n: Optional[Annotated[int, Field(ge=0)]] = None) -> str:
        return "ok"

    TOOLS += [constrained, models, fielded, finite, items, mixed]


def serve(dialect, strict=False):
    """A server of the probe tools, made as a server written for that SDK makes it."""
    app = minimcp.FastMCP("probe", dialect=dialect, **({"strict_input_validation": True} if strict else {}))
    for fn in TOOLS:
        app.tool()(fn)
    app.tool(name="renamed")(original)         # the SDKs name pydantic's model after the function
    wire = Wire(app)
    wire.initialize("2025-06-18")
    return wire


DIALECT = {"mcp": ("mcp1", "mcp2"), "mcp1": ("mcp1",), "fastmcp": ("fastmcp",), "strict": ("fastmcp",)}


def rows(*tables):
    """pytest params (dialect, strict, tool, arguments, measured text) of the tables' rows."""
    out = []
    for table in tables:
        for who, tool, arguments, text in table:
            for dialect in DIALECT[who]:
                out.append(pytest.param(dialect, who == "strict", tool, arguments, text,
                                        id="%s-%s-%d" % ("strict" if who == "strict" else dialect, tool, len(out))))
    return out


def check(dialect, strict, tool, arguments, text):
    wire = serve(dialect, strict)
    try:
        answer = wire.call("tools/call", {"name": tool, "arguments": arguments})
        assert answer["result"]["isError"] is True, answer
        assert [c["type"] for c in answer["result"]["content"]] == ["text"]
        got = answer["result"]["content"][0]["text"]
        assert got == text.replace("errors.pydantic.dev/2.14/", "errors.pydantic.dev/%s/" % docs_version())
    finally:
        wire.close()


# Top-level values: the model named after the function, bytes-wise truncation of long reprs,
# fastmcp's own words for missing and unexpected arguments.
PLAIN = [
    ('mcp', 'plain', {'s': 'a', 'i': 'éééééééééééééééééééééééééééééééééééééééééééééééééééééééééééé', 'f': 1, 'b': True},
      ('Error executing tool plain: 1 validation error for plainArguments\n'
       'i\n'
       '  Input should be a valid integer, unable to parse string as an integer'
       " [type=int_parsing, input_value='éééééééééééé...ééééééééééé', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_parsing')),
    ('mcp', 'renamed', {'a': 'x'},
      ('Error executing tool renamed: 1 validation error for originalArguments\n'
       'a\n'
       '  Input should be a valid integer, unable to parse string as an integer'
       " [type=int_parsing, input_value='x', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_parsing')),
    ('mcp', 'renamed', {'a': [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]},
      ('Error executing tool renamed: 1 validation error for originalArguments\n'
       'a\n'
       '  Input should be a valid integer'
       ' [type=int_type, input_value=[1, 1, 1, 1, 1, 1, 1, 1, ... 1, 1, 1, 1, 1, 1, 1, 1], input_type=list]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_type')),
    ('fastmcp', 'renamed', {},
      ('1 validation error for call[original]\n'
       'a\n'
       '  Missing required argument [type=missing_argument, input_value={}, input_type=dict]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/missing_argument')),
    ('fastmcp', 'plain', {'s': 'ok', 'i': '1.5', 'f': '1e400', 'b': 'true', 'extra': 1},
      ('2 validation errors for call[plain]\n'
       'i\n'
       '  Input should be a valid integer, unable to parse string as an integer'
       " [type=int_parsing, input_value='1.5', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_parsing\n'
       'extra\n'
       '  Unexpected keyword argument'
       ' [type=unexpected_keyword_argument, input_value=1, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/unexpected_keyword_argument')),
]

# Nested values: list indexes, dict keys (a key with a dot in backticks), Optional, unions with
# pydantic's labels for their members, Literal and Enum, TypedDict and dataclass fields, the
# JSON strings mcp pre-parses ("null", "12345") and fastmcp does not ("[1, 2]").
NESTED = [
    ('mcp', 'lists', {'xs': [1, 'a', 2.5, None]},
      ('Error executing tool lists: 3 validation errors for listsArguments\n'
       'xs.1\n'
       '  Input should be a valid integer, unable to parse string as an integer'
       " [type=int_parsing, input_value='a', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_parsing\n'
       'xs.2\n'
       '  Input should be a valid integer, got a number with a fractional part'
       ' [type=int_from_float, input_value=2.5, input_type=float]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_from_float\n'
       'xs.3\n'
       '  Input should be a valid integer [type=int_type, input_value=None, input_type=NoneType]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_type')),
    ('mcp', 'lists', {'xs': [1], 'm': [[1, 'x'], 3]},
      ('Error executing tool lists: 2 validation errors for listsArguments\n'
       'm.0.1\n'
       '  Input should be a valid number, unable to parse string as a number'
       " [type=float_parsing, input_value='x', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/float_parsing\n'
       'm.1\n'
       '  Input should be a valid list [type=list_type, input_value=3, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/list_type')),
    ('mcp', 'lists', {'xs': [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 'z']},
      ('Error executing tool lists: 1 validation error for listsArguments\n'
       'xs.40\n'
       '  Input should be a valid integer, unable to parse string as an integer'
       " [type=int_parsing, input_value='z', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_parsing')),
    ('mcp', 'lists', {'xs': 'null'},
      ('Error executing tool lists: 1 validation error for listsArguments\n'
       'xs\n'
       '  Input should be a valid list [type=list_type, input_value=None, input_type=NoneType]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/list_type')),
    ('mcp', 'lists', {'xs': '12345'},
      ('Error executing tool lists: 1 validation error for listsArguments\n'
       'xs\n'
       "  Input should be a valid list [type=list_type, input_value='12345', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/list_type')),
    ('mcp', 'dicts', {'d': {'a': 'x', 'b': 1.5}},
      ('Error executing tool dicts: 2 validation errors for dictsArguments\n'
       'd.a\n'
       '  Input should be a valid integer, unable to parse string as an integer'
       " [type=int_parsing, input_value='x', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_parsing\n'
       'd.b\n'
       '  Input should be a valid integer, got a number with a fractional part'
       ' [type=int_from_float, input_value=1.5, input_type=float]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_from_float')),
    ('mcp', 'dicts', {'d': {}, 'rows': [{'a': 1}, 3, 'x']},
      ('Error executing tool dicts: 2 validation errors for dictsArguments\n'
       'rows.1\n'
       '  Input should be a valid dictionary [type=dict_type, input_value=3, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/dict_type\n'
       'rows.2\n'
       "  Input should be a valid dictionary [type=dict_type, input_value='x', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/dict_type')),
    ('mcp', 'dicts', {'d': {'a.b': 'x'}},
      ('Error executing tool dicts: 1 validation error for dictsArguments\n'
       'd.`a.b`\n'
       '  Input should be a valid integer, unable to parse string as an integer'
       " [type=int_parsing, input_value='x', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_parsing')),
    ('mcp', 'opts', {'x': 'abc', 'xs': 5, 's': 5},
      ('Error executing tool opts: 3 validation errors for optsArguments\n'
       'x\n'
       '  Input should be a valid integer, unable to parse string as an integer'
       " [type=int_parsing, input_value='abc', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_parsing\n'
       'xs\n'
       '  Input should be a valid list [type=list_type, input_value=5, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/list_type\n'
       's\n'
       '  Input should be a valid string [type=string_type, input_value=5, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/string_type')),
    ('mcp', 'opts', {'xs': [1, 'a']},
      ('Error executing tool opts: 1 validation error for optsArguments\n'
       'xs.1\n'
       '  Input should be a valid integer, unable to parse string as an integer'
       " [type=int_parsing, input_value='a', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_parsing')),
    ('mcp', 'unions', {'u': 'abc'},
      ('Error executing tool unions: 2 validation errors for unionsArguments\n'
       'u.list[int]\n'
       "  Input should be a valid list [type=list_type, input_value='abc', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/list_type\n'
       'u.int\n'
       '  Input should be a valid integer, unable to parse string as an integer'
       " [type=int_parsing, input_value='abc', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_parsing')),
    ('mcp', 'unions', {'u': [1, 'a'], 'v': None},
      ('Error executing tool unions: 4 validation errors for unionsArguments\n'
       'u.list[int].1\n'
       '  Input should be a valid integer, unable to parse string as an integer'
       " [type=int_parsing, input_value='a', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_parsing\n'
       'u.int\n'
       "  Input should be a valid integer [type=int_type, input_value=[1, 'a'], input_type=list]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_type\n'
       'v.int\n'
       '  Input should be a valid integer [type=int_type, input_value=None, input_type=NoneType]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_type\n'
       'v.str\n'
       '  Input should be a valid string [type=string_type, input_value=None, input_type=NoneType]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/string_type')),
    ('mcp', 'unions', {'u': 1.5, 'v': [1]},
      ('Error executing tool unions: 4 validation errors for unionsArguments\n'
       'u.list[int]\n'
       '  Input should be a valid list [type=list_type, input_value=1.5, input_type=float]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/list_type\n'
       'u.int\n'
       '  Input should be a valid integer, got a number with a fractional part'
       ' [type=int_from_float, input_value=1.5, input_type=float]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_from_float\n'
       'v.int\n'
       '  Input should be a valid integer [type=int_type, input_value=[1], input_type=list]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_type\n'
       'v.str\n'
       '  Input should be a valid string [type=string_type, input_value=[1], input_type=list]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/string_type')),
    ('mcp', 'choices', {'mode': 1, 'color': 'blue', 'num': 3, 'lit': 3},
      ('Error executing tool choices: 4 validation errors for choicesArguments\n'
       'mode\n'
       "  Input should be 'a' or 'b' [type=literal_error, input_value=1, input_type=int]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/literal_error\n'
       'color\n'
       "  Input should be 'red' or 'green' [type=enum, input_value='blue', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/enum\n'
       'num\n'
       '  Input should be 1 or 2 [type=enum, input_value=3, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/enum\n'
       'lit\n'
       '  Input should be 1 or 2 [type=literal_error, input_value=3, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/literal_error')),
    ('mcp', 'choices', {'mode': 'a', 'color': 1, 'num': '1', 'lit': '1'},
      ('Error executing tool choices: 3 validation errors for choicesArguments\n'
       'color\n'
       "  Input should be 'red' or 'green' [type=enum, input_value=1, input_type=int]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/enum\n'
       'num\n'
       "  Input should be 1 or 2 [type=enum, input_value='1', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/enum\n'
       'lit\n'
       "  Input should be 1 or 2 [type=literal_error, input_value='1', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/literal_error')),
    ('mcp', 'classes', {'td': {'a': 'x'}, 'dc': {'b': 1}},
      ('Error executing tool classes: 4 validation errors for classesArguments\n'
       'td.a\n'
       '  Input should be a valid integer, unable to parse string as an integer'
       " [type=int_parsing, input_value='x', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_parsing\n'
       'td.b\n'
       "  Field required [type=missing, input_value={'a': 'x'}, input_type=dict]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/missing\n'
       'dc.a\n'
       "  Field required [type=missing, input_value={'b': 1}, input_type=dict]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/missing\n'
       'dc.b\n'
       '  Input should be a valid string [type=string_type, input_value=1, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/string_type')),
    ('mcp', 'classes', {'td': {'a': 1, 'b': 'c', 'z': 1}, 'dc': 5},
      ('Error executing tool classes: 1 validation error for classesArguments\n'
       'dc\n'
       '  Input should be a dictionary or an instance of DC'
       ' [type=dataclass_type, input_value=5, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/dataclass_type')),
    ('fastmcp', 'lists', {'xs': [1], 'm': [[1, 'x'], 3]},
      ('2 validation errors for call[lists]\n'
       'm.0.1\n'
       '  Input should be a valid number, unable to parse string as a number'
       " [type=float_parsing, input_value='x', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/float_parsing\n'
       'm.1\n'
       '  Input should be a valid list [type=list_type, input_value=3, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/list_type')),
    ('fastmcp', 'unions', {'u': [1, 'a'], 'v': None},
      ('4 validation errors for call[unions]\n'
       'u.list[int].1\n'
       '  Input should be a valid integer, unable to parse string as an integer'
       " [type=int_parsing, input_value='a', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_parsing\n'
       'u.int\n'
       "  Input should be a valid integer [type=int_type, input_value=[1, 'a'], input_type=list]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_type\n'
       'v.int\n'
       '  Input should be a valid integer [type=int_type, input_value=None, input_type=NoneType]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_type\n'
       'v.str\n'
       '  Input should be a valid string [type=string_type, input_value=None, input_type=NoneType]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/string_type')),
    ('fastmcp', 'choices', {'mode': 1, 'color': 'blue', 'num': 3, 'lit': 3},
      ('4 validation errors for call[choices]\n'
       'mode\n'
       "  Input should be 'a' or 'b' [type=literal_error, input_value=1, input_type=int]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/literal_error\n'
       'color\n'
       "  Input should be 'red' or 'green' [type=enum, input_value='blue', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/enum\n'
       'num\n'
       '  Input should be 1 or 2 [type=enum, input_value=3, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/enum\n'
       'lit\n'
       '  Input should be 1 or 2 [type=literal_error, input_value=3, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/literal_error')),
    ('fastmcp', 'lists', {'xs': '[1, 2]'},
      ('1 validation error for call[lists]\n'
       'xs\n'
       "  Input should be a valid list [type=list_type, input_value='[1, 2]', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/list_type')),
]

# Sequence[...] is no list to pydantic (gnomon-mcp), and tuples and sets have words of their own.
SEQUENCES = [
    ('mcp1', 'seqs', {'expressions': 12345},
      ('Error executing tool seqs: 1 validation error for seqsArguments\n'
       'expressions\n'
       '  Input should be an instance of Sequence'
       ' [type=is_instance_of, input_value=12345, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/is_instance_of')),
    ('mcp1', 'seqs', {'expressions': 'abc'},
      ('Error executing tool seqs: 1 validation error for seqsArguments\n'
       'expressions\n'
       "  'str' instances are not allowed as a Sequence value"
       " [type=sequence_str, input_value='abc', input_type=str]")),
    ('mcp1', 'seqs', {'expressions': [1, 'a'], 'pair': [1]},
      ('Error executing tool seqs: 2 validation errors for seqsArguments\n'
       'expressions.0\n'
       '  Input should be a valid string [type=string_type, input_value=1, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/string_type\n'
       'pair.1\n'
       '  Field required [type=missing, input_value=[1], input_type=list]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/missing')),
    ('mcp1', 'seqs', {'expressions': [], 'pair': ['x', 1, 2], 'tags': 'x'},
      ('Error executing tool seqs: 2 validation errors for seqsArguments\n'
       'pair\n'
       '  Tuple should have at most 2 items after validation, not 3'
       " [type=too_long, input_value=['x', 1, 2], input_type=list]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/too_long\n'
       'tags\n'
       "  Input should be a valid set [type=set_type, input_value='x', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/set_type')),
]

# fastmcp's strict_input_validation: pydantic's strict mode on JSON text (clinical-calc-mcp).
STRICT = [
    ('strict', 'strictish', {'i': 1.0, 'f': '1.5', 'b': 1},
      ('3 validation errors for call[strictish]\n'
       'i\n'
       '  Input should be a valid integer [type=int_type, input_value=1.0, input_type=float]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_type\n'
       'f\n'
       "  Input should be a valid number [type=float_type, input_value='1.5', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/float_type\n'
       'b\n'
       '  Input should be a valid boolean [type=bool_type, input_value=1, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/bool_type')),
    ('strict', 'strictish', {'i': '3', 'f': True, 'b': 'true'},
      ('3 validation errors for call[strictish]\n'
       'i\n'
       "  Input should be a valid integer [type=int_type, input_value='3', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_type\n'
       'f\n'
       '  Input should be a valid number [type=float_type, input_value=True, input_type=bool]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/float_type\n'
       'b\n'
       "  Input should be a valid boolean [type=bool_type, input_value='true', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/bool_type')),
    ('strict', 'strictish', {'i': True, 'f': 1, 'b': False, 's': 5},
      ('2 validation errors for call[strictish]\n'
       'i\n'
       '  Input should be a valid integer [type=int_type, input_value=True, input_type=bool]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_type\n'
       's\n'
       '  Input should be a valid string [type=string_type, input_value=5, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/string_type')),
    ('strict', 'seqs', {'expressions': 'abc'},
      ('1 validation error for call[seqs]\n'
       'expressions\n'
       "  Input should be a valid array [type=list_type, input_value='abc', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/list_type')),
    ('strict', 'seqs', {'expressions': [], 'pair': 5, 'tags': [1]},
      ('2 validation errors for call[seqs]\n'
       'pair\n'
       '  Input should be a valid array [type=tuple_type, input_value=5, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/tuple_type\n'
       'tags.0\n'
       '  Input should be a valid string [type=string_type, input_value=1, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/string_type')),
]

# Constraints (gt/ge/lt/le, min/max_length, pattern), models (nested, aliases, extra="forbid"),
# Field() defaults, FiniteFloat.
PYDANTIC = [
    ('mcp', 'constrained', {'x': 0, 'n': 0, 's': 'a', 'p': 'A1', 'lst': [], 'y': 10, 'z': -5},
      ('Error executing tool constrained: 7 validation errors for constrainedArguments\n'
       'x\n'
       '  Input should be greater than 0 [type=greater_than, input_value=0, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/greater_than\n'
       'n\n'
       '  Input should be greater than or equal to 1'
       ' [type=greater_than_equal, input_value=0, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/greater_than_equal\n'
       's\n'
       '  String should have at least 2 characters'
       " [type=string_too_short, input_value='a', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/string_too_short\n'
       'p\n'
       "  String should match pattern '^[a-z]+$'"
       " [type=string_pattern_mismatch, input_value='A1', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/string_pattern_mismatch\n'
       'lst\n'
       '  List should have at least 1 item after validation, not 0'
       ' [type=too_short, input_value=[], input_type=list]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/too_short\n'
       'y\n'
       '  Input should be less than 10 [type=less_than, input_value=10, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/less_than\n'
       'z\n'
       '  Input should be greater than -5 [type=greater_than, input_value=-5, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/greater_than')),
    ('mcp', 'constrained', {'x': 'abc', 'n': 11, 's': 'abcdef', 'lst': [1, 2, 3, 4], 'y': -1, 'z': 6},
      ('Error executing tool constrained: 6 validation errors for constrainedArguments\n'
       'x\n'
       '  Input should be a valid number, unable to parse string as a number'
       " [type=float_parsing, input_value='abc', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/float_parsing\n'
       'n\n'
       '  Input should be less than or equal to 10'
       ' [type=less_than_equal, input_value=11, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/less_than_equal\n'
       's\n'
       '  String should have at most 5 characters'
       " [type=string_too_long, input_value='abcdef', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/string_too_long\n'
       'lst\n'
       '  List should have at most 3 items after validation, not 4'
       ' [type=too_long, input_value=[1, 2, 3, 4], input_type=list]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/too_long\n'
       'y\n'
       '  Input should be greater than or equal to 0'
       ' [type=greater_than_equal, input_value=-1, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/greater_than_equal\n'
       'z\n'
       '  Input should be less than or equal to 5'
       ' [type=less_than_equal, input_value=6, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/less_than_equal')),
    ('mcp', 'constrained', {'x': 0.0},
      ('Error executing tool constrained: 1 validation error for constrainedArguments\n'
       'x\n'
       '  Input should be greater than 0 [type=greater_than, input_value=0.0, input_type=float]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/greater_than')),
    ('mcp', 'models', {'p': 12345},
      ('Error executing tool models: 1 validation error for modelsArguments\n'
       'p\n'
       '  Input should be a valid dictionary or instance of Point'
       ' [type=model_type, input_value=12345, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/model_type')),
    ('mcp', 'models', {'p': {'x': 'a', 'y': 'b', 'z': 1}},
      ('Error executing tool models: 2 validation errors for modelsArguments\n'
       'p.x\n'
       '  Input should be a valid integer, unable to parse string as an integer'
       " [type=int_parsing, input_value='a', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_parsing\n'
       'p.y\n'
       '  Input should be a valid number, unable to parse string as a number'
       " [type=float_parsing, input_value='b', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/float_parsing')),
    ('mcp', 'models', {'p': {'x': 1}, 'o': {'p': {'x': 1.5}, 'tags': [1]}},
      ('Error executing tool models: 2 validation errors for modelsArguments\n'
       'o.p.x\n'
       '  Input should be a valid integer, got a number with a fractional part'
       ' [type=int_from_float, input_value=1.5, input_type=float]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_from_float\n'
       'o.tags.0\n'
       '  Input should be a valid string [type=string_type, input_value=1, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/string_type')),
    ('mcp', 'models', {'p': {'x': 1}, 'st': {'name': 'a', 'extra': 1}},
      ('Error executing tool models: 1 validation error for modelsArguments\n'
       'st.extra\n'
       '  Extra inputs are not permitted [type=extra_forbidden, input_value=1, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/extra_forbidden')),
    ('mcp', 'fielded', {'weight_kg': -1, 'count': -1},
      ('Error executing tool fielded: 2 validation errors for fieldedArguments\n'
       'weight_kg\n'
       '  Input should be greater than 0 [type=greater_than, input_value=-1, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/greater_than\n'
       'count\n'
       '  Input should be greater than or equal to 0'
       ' [type=greater_than_equal, input_value=-1, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/greater_than_equal')),
    ('mcp1', 'items', {'items': [{'name': 'a'}, {'itemName': 5, 'qty': 0}, 3]},
      ('Error executing tool items: 4 validation errors for itemsArguments\n'
       'items.0.itemName\n'
       "  Field required [type=missing, input_value={'name': 'a'}, input_type=dict]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/missing\n'
       'items.1.itemName\n'
       '  Input should be a valid string [type=string_type, input_value=5, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/string_type\n'
       'items.1.qty\n'
       '  Input should be greater than or equal to 1'
       ' [type=greater_than_equal, input_value=0, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/greater_than_equal\n'
       'items.2\n'
       '  Input should be a valid dictionary or instance of Item'
       ' [type=model_type, input_value=3, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/model_type')),
    ('mcp1', 'mixed', {'v': [{'qty': 'x'}], 'w': 'some', 'n': -1},
      ('Error executing tool mixed: 6 validation errors for mixedArguments\n'
       'v.Item\n'
       '  Input should be a valid dictionary or instance of Item'
       " [type=model_type, input_value=[{'qty': 'x'}], input_type=list]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/model_type\n'
       'v.list[Item].0.itemName\n'
       "  Field required [type=missing, input_value={'qty': 'x'}, input_type=dict]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/missing\n'
       'v.list[Item].0.qty\n'
       '  Input should be a valid integer, unable to parse string as an integer'
       " [type=int_parsing, input_value='x', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_parsing\n'
       'w.int\n'
       '  Input should be a valid integer, unable to parse string as an integer'
       " [type=int_parsing, input_value='some', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/int_parsing\n'
       "w.literal['all']\n"
       "  Input should be 'all' [type=literal_error, input_value='some', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/literal_error\n'
       'n\n'
       '  Input should be greater than or equal to 0'
       ' [type=greater_than_equal, input_value=-1, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/greater_than_equal')),
    ('mcp1', 'finite', {'weight_kg': '3', 'pct': 'inf'},
      ('Error executing tool finite: 1 validation error for finiteArguments\n'
       'pct\n'
       "  Input should be a finite number [type=finite_number, input_value='inf', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/finite_number')),
    ('fastmcp', 'models', {'p': {}},
      ('1 validation error for call[models]\n'
       'p.x\n'
       '  Field required [type=missing, input_value={}, input_type=dict]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/missing')),
    ('fastmcp', 'fielded', {'weight_kg': -1, 'count': -1},
      ('2 validation errors for call[fielded]\n'
       'weight_kg\n'
       '  Input should be greater than 0 [type=greater_than, input_value=-1, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/greater_than\n'
       'count\n'
       '  Input should be greater than or equal to 0'
       ' [type=greater_than_equal, input_value=-1, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/greater_than_equal')),
    ('fastmcp', 'items', {'items': [], 'ops': [{'date': 1}, 5], 'kind': 3, 'mode': 'w'},
      ('5 validation errors for call[items]\n'
       'ops.0.op\n'
       "  Field required [type=missing, input_value={'date': 1}, input_type=dict]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/missing\n'
       'ops.0.date\n'
       '  Input should be a valid string [type=string_type, input_value=1, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/string_type\n'
       'ops.1\n'
       '  Input should be a dictionary or an instance of Op'
       ' [type=dataclass_type, input_value=5, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/dataclass_type\n'
       'kind\n'
       '  Input should be 1 or 2 [type=enum, input_value=3, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/enum\n'
       'mode\n'
       "  Input should be 'x', 'y' or 'z' [type=literal_error, input_value='w', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/literal_error')),
    ('strict', 'finite', {'weight_kg': 'not-a-number'},
      ('1 validation error for call[finite]\n'
       'weight_kg\n'
       '  Input should be a valid number'
       " [type=float_type, input_value='not-a-number', input_type=str]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/float_type')),
    ('strict', 'items', {'items': [{'name': 'a'}, {'itemName': 5, 'qty': 0}, 3]},
      ('4 validation errors for call[items]\n'
       'items.0.itemName\n'
       "  Field required [type=missing, input_value={'name': 'a'}, input_type=dict]\n"
       '    For further information visit https://errors.pydantic.dev/2.14/v/missing\n'
       'items.1.itemName\n'
       '  Input should be a valid string [type=string_type, input_value=5, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/string_type\n'
       'items.1.qty\n'
       '  Input should be greater than or equal to 1'
       ' [type=greater_than_equal, input_value=0, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/greater_than_equal\n'
       'items.2\n'
       '  Input should be an object [type=model_type, input_value=3, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/model_type')),
    ('strict', 'mixed', {'v': 5},
      ('2 validation errors for call[mixed]\n'
       'v.Item\n'
       '  Input should be an object [type=model_type, input_value=5, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/model_type\n'
       'v.list[Item]\n'
       '  Input should be a valid array [type=list_type, input_value=5, input_type=int]\n'
       '    For further information visit https://errors.pydantic.dev/2.14/v/list_type')),
]


@pytest.mark.parametrize("dialect, strict, tool, arguments, text", rows(PLAIN, NESTED, SEQUENCES, STRICT))
def test_invalid_arguments_are_worded_as_the_sdk_words_them(dialect, strict, tool, arguments, text):
    check(dialect, strict, tool, arguments, text)


@needs_pydantic
@pytest.mark.parametrize("dialect, strict, tool, arguments, text", rows(PYDANTIC))
def test_constraints_and_models_are_worded_as_the_sdk_words_them(dialect, strict, tool, arguments, text):
    check(dialect, strict, tool, arguments, text)


def test_strict_input_validation_takes_no_lax_numbers():
    """fastmcp's strict mode refuses "3" for an int, as pydantic's strict mode does; lax fastmcp takes it."""
    for strict, refused in ((False, False), (True, True)):
        wire = serve("fastmcp", strict)
        try:
            answer = wire.call("tools/call", {"name": "strictish", "arguments": {"i": "3", "f": 1, "b": True}})
            assert answer["result"].get("isError", False) is refused, answer
        finally:
            wire.close()


def test_what_pydantic_would_not_judge_keeps_the_validators_words():
    """A hint the emulation cannot judge (a datetime) leaves minimcp's validator's words: a report
    of the int alone would be pydantic's words, but not what pydantic would say."""
    import datetime

    def when(at: datetime.datetime, n: int) -> str:
        return "ok"
    app = minimcp.FastMCP("probe", dialect="mcp2")
    app.tool()(when)
    wire = Wire(app)
    wire.initialize("2025-06-18")
    try:
        answer = wire.call("tools/call", {"name": "when", "arguments": {"at": 5, "n": "x"}})
        text = answer["result"]["content"][0]["text"]
        assert answer["result"]["isError"] is True and text.startswith("Error executing tool when: arguments."), text
        assert "validation error" not in text, text
    finally:
        wire.close()
