#!/usr/bin/env python3
"""minimcp: turn any Python script into a Model Context Protocol server (stdio or HTTP).

One file, standard library only, Python 3.8 and newer. Copy ``minimcp.py`` next to
your script::

    from minimcp import MCPServer, Context

    app = MCPServer("demo", version="1.0.0", dialect="minimcp")

    @app.tool()
    def add(a: float, b: float) -> float:
        '''Add two numbers.

        Args:
            a: first addend
            b: second addend
        '''
        return a + b

    @app.resource("notes://{name}")
    def note(name: str) -> str:
        return "note " + name

    @app.prompt()
    def review(code: str) -> str:
        return "Please review:\\n" + code

    if __name__ == "__main__":
        app.run()                     # serves stdin/stdout until stdin closes

The server speaks every MCP revision (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25
through the ``initialize`` handshake, and the stateless 2026-07-28) on the same pipe.
``python3 minimcp.py --help`` lists the command-line tools (inspect, call, ...).

How the file is laid out (``grep -n '^# .*####' minimcp.py``), each section using
only those above it. The core comes first: all a stdio server of every revision needs.
Each component after it plugs itself in with one ``_plug()`` call at the end of its
section, and uses of the core only its public names and those ``_SEAM`` lists
(tests/test_seam.py holds both sides to that); ``python3 minimcp.py vendor --without
NAME,...`` writes the file without some components (tests/test_core_only.py runs the
core without any)::

  The core
    Constants, Errors          revisions, error codes, MCPError, Cancelled
    JSON Schema                schemas from type hints; the validator for them, and the checker
                               compiled once per tool
    Elicitation forms          what elicitation/create may ask (_elicitation_form), shaped per
                               revision (_elicitation_schema), and the answer checked against it
    Registry records           Tool, Resource (+ RFC 6570 templates), Prompt, content helpers
    Context                    what a handler may do while it runs (progress, log, ask the client,
                               several questions at once: ctx.questions())
    JSON-RPC envelope          pure functions: message shapes, ids, encoding, decoding a line
    Protocol tables            METHODS (every method of every revision, its handler and where it
                               runs), _REVISION_RULES (what each revision does differently, read
                               as call.rev.<rule>), _FIELD_SINCE (which fields each revision has)
    Requests                   _Peer (the client behind a request), _Call (the request being
                               served), _Admission (what became of a message), _Batch
    Tasks                      _Task, _task_ttl, the tasks/* handlers, and _SessionTasks (the
                               session's side, which _Session inherits); per revision, _TaskRules
    Session                    _Session: one connection. feed() turns a line into messages, and
                               take() says what became of one (_Admission: a refusal, or the
                               stream its answer goes to) for stdio and HTTP alike, headers
                               included; _admit() is the one place where the two eras meet and decides the
                               _Peer (revision, capabilities) a request is served under; write()
                               keeps "mark done, then answer exactly once"; our questions to the
                               client (several per round: ask()) and listen streams live here
                               too. Only the session writes its state.
    The seam                   what components plug into: the tables the core looks up (MCPServer
                               methods, tool() keywords, METHODS rows, capabilities, transports,
                               module attributes), _plug() that fills them, _part() that keeps a
                               component's state on a server (and its tool gate), _SEAM, and
                               _LEFT_OUT, which a vendored build fills
    Server                     _WorkerPool, shared by all sessions (its one watcher thread also
                               keeps each stdio reader moving); _Protocol: the _on_* handlers in
                               METHODS order (each takes a _Call and reaches its connection via
                               call.session); MCPServer(_Protocol): the registry. What users
                               decorate, capabilities derived from METHODS and the registry, the
                               requestState key.
    Transport: stdio           bytes <-> lines over a pair of streams (stdio by default): the
                               _ReadLoop, whose reading thread runs what it reads and steps aside
                               when a call waits or runs long; _LineReader, _LineWriter (corked
                               during a burst), _OwnedStdio

  The components (as vendor names them)
    MCP Apps (apps)            ui:// pages linked to tools (tool(ui=...)), ui_resource, the
                               extension's negotiation and its tool gate, inline_page
    Agent Skills (skills)      SEP-2640: skill folders as skill:// resources (_Skill, manifests
                               with sha256 digests), the SKILL.md frontmatter reader (_YAMLSubset),
                               add_skills and the skills/* rows of METHODS
    Transport: HTTP (http)     _HTTPApp, the Streamable HTTP endpoint as a WSGI app: a POST is
                               given to a session, whose _Admission it maps to a status and a
                               stream, and _HTTPOut puts each message on the stream of the
                               request it belongs to; signed session ids, their identity and
                               SQLiteSessionStore; _serve_http runs it on http.server (HTTP/1.1,
                               keep-alive, a drain on SIGTERM); app.wsgi, run(transport="http")
    Clients (testclient)       TestClient, and the client the command line uses
    SDK names (sdk)            alias modules so servers written for mcp/fastmcp run unchanged,
                               and the mcp1/fastmcp rows of _DIALECTS
    Command line (cli)         python3 minimcp.py COMMAND (needs testclient and sdk)

One app serves any number of connections at once: each ``serve()`` (stdio, a
``TestClient``), each handshake-era HTTP session and each 2026-07-28 POST is a session
of its own, and sessions share nothing but the registry and the worker pool.
"""

import sys

if sys.version_info < (3, 8):      # before anything else can fail on an older interpreter
    raise SystemExit("minimcp needs Python 3.8 or newer (this is %d.%d)" % sys.version_info[:2])


def _needs_python_3_8(*, message="minimcp needs Python 3.8 or newer"):  # Python 2 stops here, saying why
    return message


import io  # noqa: E402
import os  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402


class _LazyJSON:
    """``json``, imported on first use: ``import minimcp`` alone does not pay for it."""

    def __getattr__(self, name: str):
        import json as module
        globals()["json"] = module          # later lookups find the real module directly
        return getattr(module, name)


json = _LazyJSON()

__version__ = "0.1.0"
__all__ = [
    "MCPServer", "Context", "MCPError", "Cancelled", "Image", "Audio", "ResourceLink",
    "EmbeddedResource", "validate", "PROTOCOL_VERSIONS", "LATEST_PROTOCOL_VERSION", "__version__",
]                          # and what each component adds (_plug)


# Constants: protocol revisions, error codes, log levels ######################

#: The revisions that open with ``initialize`` (oldest first).
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
#: The stateless revisions, where every request carries its own envelope.
MODERN_VERSIONS = ("2026-07-28",)
#: Every revision served, newest first (the order ``server/discover`` announces).
PROTOCOL_VERSIONS = MODERN_VERSIONS[::-1] + HANDSHAKE_VERSIONS[::-1]
LATEST_PROTOCOL_VERSION = MODERN_VERSIONS[-1]
LATEST_HANDSHAKE_VERSION = HANDSHAKE_VERSIONS[-1]

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
RESOURCE_NOT_FOUND = -32002              # handshake revisions only
MISSING_CLIENT_CAPABILITY = -32021       # 2026-07-28
UNSUPPORTED_PROTOCOL_VERSION = -32022    # 2026-07-28

#: RFC 5424 severities in increasing order, as MCP names them.
LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
_LOG_RANK = {name: rank for rank, name in enumerate(LOG_LEVELS)}

# Keys of the 2026-07-28 per-request and per-result ``_meta`` envelope.
META_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CLIENT_CAPS = "io.modelcontextprotocol/clientCapabilities"
META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo"
META_LOG_LEVEL = "io.modelcontextprotocol/logLevel"
META_SERVER_INFO = "io.modelcontextprotocol/serverInfo"
META_SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId"

DEFAULT_MAX_MESSAGE_SIZE = 16 * 1024 * 1024
#: The longest line written: the TypeScript SDK clients drop the connection on a longer one.
DEFAULT_MAX_OUTPUT_SIZE = 10 * 1024 * 1024


# Errors ######################################################################

class MCPError(Exception):
    """A JSON-RPC error. Raise it from a handler to answer with exactly this error.

    Args:
        code: the JSON-RPC error code (e.g. -32602).
        message: a short sentence saying what was wrong.
        data: optional JSON value with details.
    """

    def __init__(self, code: int, message: str, data: object = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def to_error(self) -> dict:
        """Return the JSON-RPC ``error`` member for this error."""
        error = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


class Cancelled(BaseException):
    """Raised inside a handler by ``ctx.check_cancelled()`` once its request is cancelled.

    It derives from BaseException so that a handler's ``except Exception`` does not
    swallow it by accident.
    """


class _Question:
    """One question to the client: its key, the request it becomes, and what to make of the answer."""
    __slots__ = ("key", "method", "params", "needs", "finish", "answer")

    def __init__(self, key, method: str, params, needs: dict, finish=None, answer=None) -> None:
        self.key, self.method, self.params, self.needs = key, method, params, needs
        self.finish = finish          # answer -> what the handler gets (None: the answer itself)
        self.answer = answer          # already known (cached roots): nothing to ask


class _NeedInput(BaseException):
    """Unwinds a 2026-07-28 handler that asked the client something not yet answered."""

    def __init__(self, questions: list) -> None:
        super().__init__(questions[0].method)
        self.questions = questions


def _invalid_params(message: str, data: object = None) -> MCPError:
    return MCPError(INVALID_PARAMS, message, data)


# JSON Schema from type hints, and a small validator ##########################
#
# Registration turns each parameter's annotation into JSON Schema. The common
# cases (str, int, float, bool, list, dict) need nothing but the builtins; the
# typing module is only looked at when an annotation comes from it, so a server
# made of plain functions never pays for importing it.

_PRIMITIVE_SCHEMAS = {
    str: {"type": "string"},
    int: {"type": "integer"},
    float: {"type": "number"},
    bool: {"type": "boolean"},
    type(None): {"type": "null"},
    list: {"type": "array"},
    tuple: {"type": "array"},
    set: {"type": "array", "uniqueItems": True},
    frozenset: {"type": "array", "uniqueItems": True},
    dict: {"type": "object"},
}


class SchemaError(TypeError):
    """An annotation that cannot be described in JSON Schema."""


def _resolve_annotation(annotation, namespace: dict):
    """Evaluate string annotations (``from __future__ import annotations``)."""
    if isinstance(annotation, str):
        try:
            return eval(annotation, namespace)  # noqa: S307 - what typing.get_type_hints does too
        except Exception as exc:
            raise SchemaError("cannot resolve annotation %r: %s" % (annotation, exc))
    forward = getattr(annotation, "__forward_arg__", None)
    if isinstance(forward, str):
        return _resolve_annotation(forward, namespace)
    return annotation


def _is_enum(hint) -> bool:
    enum = sys.modules.get("enum")
    return enum is not None and isinstance(hint, type) and issubclass(hint, enum.Enum)


def _is_typeddict(hint) -> bool:
    return isinstance(hint, type) and issubclass(hint, dict) and hasattr(hint, "__total__")


def _is_dataclass(hint) -> bool:
    return isinstance(hint, type) and hasattr(hint, "__dataclass_fields__")


def _typing_parts(hint):
    """Return (origin, args, metadata) of a typing construct, without importing typing."""
    metadata = getattr(hint, "__metadata__", None)
    if metadata is not None:                      # Annotated[X, ...]
        return "annotated", (hint.__origin__,), metadata
    origin = getattr(hint, "__origin__", None)
    args = getattr(hint, "__args__", None) or ()
    if origin is None and type(hint).__name__ == "UnionType":   # X | Y (3.10+)
        return "union", args, None
    return origin, args, None


def _schema_for(hint, namespace: dict, seen: tuple = ()) -> dict:
    """Build the JSON Schema of one type hint.

    Raises:
        SchemaError: for annotations we cannot describe.
    """
    hint = _resolve_annotation(hint, namespace)
    if hint is None:
        return {"type": "null"}
    schema = _PRIMITIVE_SCHEMAS.get(hint) if isinstance(hint, type) else None
    if schema is not None:                        # exactly str, int, ...: never special (and most common)
        return dict(schema)
    special = _special_schema(hint)
    if special is not None:
        return special
    if _is_enum(hint):
        return _enum_schema([member.value for member in hint])
    if hint in seen:
        raise SchemaError("recursive type %r is not supported" % (hint,))
    if _is_typeddict(hint):
        return _typeddict_schema(hint, seen + (hint,))
    if _is_dataclass(hint):
        return _dataclass_schema(hint, seen + (hint,))
    origin, args, metadata = _typing_parts(hint)
    if origin == "annotated":
        schema = _schema_for(args[0], namespace, seen)
        for item in metadata:
            if isinstance(item, str):
                schema["description"] = item
            elif isinstance(item, dict):
                schema.update(item)
        return schema
    name = getattr(hint, "_name", None) or getattr(origin, "_name", None) or ""
    if name in ("Required", "NotRequired", "ReadOnly") or repr(origin) in ("typing.Required", "typing.NotRequired"):
        return _schema_for(args[0], namespace, seen)          # TypedDict key markers
    if origin == "union" or name == "Union" or repr(origin) == "typing.Union":
        return {"anyOf": [_schema_for(arg, namespace, seen) for arg in args]}
    if name == "Literal" or repr(origin) == "typing.Literal":
        return _enum_schema(list(args))
    container = _container_schema(origin, name, args, namespace, seen)
    if container is not None:
        return container
    if hint is object or type(hint).__name__ == "TypeVar" or repr(hint) == "typing.Any":
        return {}
    raise SchemaError("unsupported annotation %r" % (hint,))


def _container_schema(origin, name: str, args: tuple, namespace: dict, seen: tuple):
    """The schema of a list, set, tuple or dict hint (None for anything else)."""
    if origin in (list, set, frozenset) or name in ("List", "Set", "FrozenSet", "Sequence",
                                                   "MutableSequence", "Iterable", "Collection"):
        schema = {"type": "array"}
        if args:
            schema["items"] = _schema_for(args[0], namespace, seen)
        if origin in (set, frozenset) or name in ("Set", "FrozenSet"):
            schema["uniqueItems"] = True
        return schema
    if origin is tuple or name == "Tuple":
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": _schema_for(args[0], namespace, seen)}
        if args == ((),):
            return {"type": "array", "maxItems": 0}
        items = [_schema_for(arg, namespace, seen) for arg in args]
        return {"type": "array", "prefixItems": items, "minItems": len(items), "maxItems": len(items)}
    if origin is dict or name in ("Dict", "Mapping", "MutableMapping"):
        schema = {"type": "object"}
        if len(args) == 2:
            if _resolve_annotation(args[0], namespace) is not str:
                raise SchemaError("dictionary keys must be str in JSON, not %r" % (args[0],))
            schema["additionalProperties"] = _schema_for(args[1], namespace, seen)
        return schema
    return None


def _object_schema(properties: dict, required: list) -> dict:
    """An object schema, with ``required`` only when some property is."""
    schema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema


def _typeddict_schema(hint, seen: tuple) -> dict:
    hints = _class_hints(hint)
    required = getattr(hint, "__required_keys__", set(hints) if hint.__total__ else ())    # 3.8: only __total__
    properties = {k: _schema_for(v, _class_namespace(hint), seen) for k, v in hints.items()}
    return _object_schema(properties, [k for k in hints if k in required])


def _dataclass_schema(hint, seen: tuple) -> dict:
    import dataclasses                          # already loaded: it made the class
    properties, required = {}, []
    hints = _class_hints(hint)
    for field in dataclasses.fields(hint):      # without the ClassVar / InitVar pseudo-fields
        prop = _schema_for(hints.get(field.name, field.type), _class_namespace(hint), seen)
        if field.default is not dataclasses.MISSING:
            _add_default(prop, field.default)
        elif field.default_factory is dataclasses.MISSING:
            required.append(field.name)
        properties[field.name] = prop
    return _object_schema(properties, required)


def _class_namespace(cls) -> dict:
    module = sys.modules.get(getattr(cls, "__module__", ""), None)
    return dict(vars(module)) if module is not None else {}


def _class_hints(cls) -> dict:
    """Annotations of a class and its bases, base classes first."""
    hints = {}
    for klass in reversed(getattr(cls, "__mro__", (cls,))):
        hints.update(getattr(klass, "__dict__", {}).get("__annotations__", {}))
    return hints


def _enum_schema(values: list) -> dict:
    schema = {"enum": list(values)}
    kinds = {_json_type(v) for v in values}
    if len(kinds) == 1:
        schema["type"] = kinds.pop()
    return schema


def _add_default(schema: dict, default) -> None:
    """Record a default in the schema when it is plain JSON."""
    if _is_enum(type(default)):
        default = default.value
    if default is None or isinstance(default, (str, int, float, bool)):
        schema["default"] = default
    elif isinstance(default, (list, tuple, dict)):
        try:
            schema["default"] = json.loads(json.dumps(default))
        except (TypeError, ValueError):
            pass


_JSON_TYPES = ((type(None), "null"), (bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"),
               ((list, tuple), "array"), (dict, "object"))     # bool before int: True is an int to Python


def _json_type(value) -> str:
    for python_type, name in _JSON_TYPES:
        if isinstance(value, python_type):
            return name
    return type(value).__name__


_ANNOTATION_KEYWORDS = frozenset(["type", "description", "default", "title", "examples", "format",
                                  "$comment", "$schema", "deprecated", "readOnly", "writeOnly"])


_TYPE_CHECKS = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, (list, tuple)),
    "null": lambda v: v is None,
}


def _type_matches(value, expected: str) -> bool:
    check = _TYPE_CHECKS.get(expected)
    return check(value) if check is not None else _json_type(value) == expected


def validate(value, schema, path: str = "arguments", root=None) -> None:
    """Check ``value`` against a JSON Schema (the subset MCP servers use).

    Supports type, enum, const, properties, required, additionalProperties, items,
    prefixItems, min/maxItems, uniqueItems, min/maxLength, pattern, minimum, maximum,
    exclusiveMinimum/Maximum, multipleOf, anyOf, oneOf, allOf, not and local ``$ref``.

    Raises:
        ValueError: naming the path of the first value that does not match.
    """
    if schema is True or schema is None:
        return
    if schema is False:
        raise ValueError("%s: no value is allowed here" % path)
    root = schema if root is None else root
    ref = schema.get("$ref")
    if isinstance(ref, str):
        validate(value, _follow_ref(ref, root), path, root)
    expected = schema.get("type")
    if expected is not None:
        kinds = expected if isinstance(expected, list) else [expected]
        if not any(_type_matches(value, kind) for kind in kinds):
            raise ValueError("%s: expected %s, got %s" % (path, " or ".join(kinds), _json_type(value)))
        if not schema.keys() - _ANNOTATION_KEYWORDS:
            return                         # the common case, {"type": ..., "description": ...}
    if "const" in schema and not _same_json(value, schema["const"]):
        raise ValueError("%s: must be %s" % (path, json.dumps(schema["const"])))
    if "enum" in schema and not any(_same_json(value, option) for option in schema["enum"]):
        raise ValueError("%s: must be one of %s" % (path, ", ".join(json.dumps(o) for o in schema["enum"])))
    if isinstance(value, dict):
        _validate_object(value, schema, path, root)
    elif isinstance(value, list):
        _validate_array(value, schema, path, root)
    elif isinstance(value, str):
        _validate_string(value, schema, path)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        _validate_number(value, schema, path)
    for keyword in ("allOf", "anyOf", "oneOf"):
        if schema.get(keyword):
            _validate_combination(value, keyword, schema[keyword], path, root)
    if "not" in schema:
        try:
            validate(value, schema["not"], path, root)
        except ValueError:
            pass
        else:
            raise ValueError("%s: matches a form that is not allowed" % path)


_OBJECT_KEYWORDS = _ANNOTATION_KEYWORDS | {"properties", "required", "additionalProperties"}


def _compile_schema(schema, path: str = "arguments"):
    """A checker for ``schema``, built once: ``check(value)`` raises what ``validate`` would.

    Flat object schemas of simply typed properties (what tools are made of) get a
    direct check; anything else is handed to ``validate``, so both always agree.
    """
    def generic(value, at=path):
        validate(value, schema, at)
    if not isinstance(schema, dict) or schema.get("type") != "object" or not schema.keys() <= _OBJECT_KEYWORDS \
            or not isinstance(schema.get("additionalProperties", True), bool):
        return generic
    leaves = {}
    for name, sub in (schema.get("properties") or {}).items():
        kind = sub.get("type") if isinstance(sub, dict) else None
        if not isinstance(kind, str) or kind not in _TYPE_CHECKS or not sub.keys() <= _ANNOTATION_KEYWORDS:
            return generic
        leaves[name] = (_TYPE_CHECKS[kind], kind)
    required = tuple(schema.get("required") or ())
    closed = schema.get("additionalProperties", True) is False

    def check(value, at=path):
        if not isinstance(value, dict):
            raise ValueError("%s: expected object, got %s" % (at, _json_type(value)))
        for name in required:
            if name not in value:
                raise ValueError("%s: missing required property %r" % (at, name))
        for key, item in value.items():
            leaf = leaves.get(key)
            if leaf is not None:
                if not leaf[0](item):
                    raise ValueError("%s.%s: expected %s, got %s" % (at, key, leaf[1], _json_type(item)))
            elif closed:
                raise ValueError("%s: unexpected property %r" % (at, key))
    return check


def _validate_string(value: str, schema: dict, path: str) -> None:
    if len(value) < schema.get("minLength", 0):
        raise ValueError("%s: shorter than %d characters" % (path, schema["minLength"]))
    if "maxLength" in schema and len(value) > schema["maxLength"]:
        raise ValueError("%s: longer than %d characters" % (path, schema["maxLength"]))
    if "pattern" in schema:
        import re
        if not re.search(schema["pattern"], value):
            raise ValueError("%s: does not match pattern %s" % (path, schema["pattern"]))


def _validate_combination(value, keyword: str, options: list, path: str, root) -> None:
    """allOf / anyOf / oneOf."""
    passed, closest = [], None
    for option in options:
        try:
            validate(value, option, path, root)
            passed.append(option)
        except ValueError as exc:
            # Report the branch of the value's own type: "point.x: expected integer"
            # helps a model more than "expected null".
            kind = option.get("type") if isinstance(option, dict) else None
            if closest is None or (isinstance(kind, str) and _type_matches(value, kind)):
                closest = exc
    if keyword == "allOf" and len(passed) != len(options):
        raise closest
    if keyword == "anyOf" and not passed:
        raise ValueError("%s: matches none of the allowed forms (%s)" % (path, closest))
    if keyword == "oneOf" and len(passed) != 1:
        raise ValueError("%s: must match exactly one allowed form, matched %d" % (path, len(passed)))


def _same_json(a, b) -> bool:
    return a == b and (isinstance(a, bool) == isinstance(b, bool))


def _follow_ref(ref: str, root: dict):
    if not ref.startswith("#"):
        raise ValueError("only local $ref is supported, not %s" % ref)
    node = root
    for part in ref[1:].split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or part not in node:
            raise ValueError("unresolvable $ref %s" % ref)
        node = node[part]
    return node


def _validate_object(value: dict, schema: dict, path: str, root) -> None:
    properties = schema.get("properties") or {}
    for name in schema.get("required") or ():
        if name not in value:
            raise ValueError("%s: missing required property %r" % (path, name))
    extra = schema.get("additionalProperties", True)
    for key, item in value.items():
        sub = "%s.%s" % (path, key)
        if key in properties:
            validate(item, properties[key], sub, root)
        elif extra is False:
            raise ValueError("%s: unexpected property %r" % (path, key))
        elif isinstance(extra, dict):
            validate(item, extra, sub, root)


def _validate_array(value: list, schema: dict, path: str, root) -> None:
    if len(value) < schema.get("minItems", 0):
        raise ValueError("%s: needs at least %d items" % (path, schema["minItems"]))
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        raise ValueError("%s: allows at most %d items" % (path, schema["maxItems"]))
    prefix = schema.get("prefixItems") or []
    for index, item in enumerate(value):
        sub = "%s[%d]" % (path, index)
        if index < len(prefix):
            validate(item, prefix[index], sub, root)
        elif "items" in schema:
            validate(item, schema["items"], sub, root)
    if schema.get("uniqueItems"):
        seen = []
        for item in value:
            key = json.dumps(item, sort_keys=True)
            if key in seen:
                raise ValueError("%s: items must be unique" % path)
            seen.append(key)


def _validate_number(value, schema: dict, path: str) -> None:
    if "minimum" in schema and value < schema["minimum"]:
        raise ValueError("%s: must be >= %s" % (path, schema["minimum"]))
    if "maximum" in schema and value > schema["maximum"]:
        raise ValueError("%s: must be <= %s" % (path, schema["maximum"]))
    if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
        raise ValueError("%s: must be > %s" % (path, schema["exclusiveMinimum"]))
    if "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]:
        raise ValueError("%s: must be < %s" % (path, schema["exclusiveMaximum"]))
    step = schema.get("multipleOf")
    if step and (value / step) != int(value / step):
        raise ValueError("%s: must be a multiple of %s" % (path, step))


def _coerce(value, hint, namespace: dict):
    """Turn validated JSON into the Python type a parameter is annotated with.

    Enums, dataclasses, tuples and sets are rebuilt; everything else is passed as is.
    """
    if hint is _EMPTY or hint is str or hint is bool or hint is dict or hint is list:
        return value                       # nothing to convert (the common case, checked first)
    hint = _resolve_annotation(hint, namespace)
    if hint is None or value is None:
        return value
    converted = _coerce_special(value, hint)
    if converted is not _EMPTY:
        return converted
    if _is_enum(hint):
        return hint(value)
    if _is_dataclass(hint) and isinstance(value, dict):
        hints = _class_hints(hint)
        return hint(**{k: _coerce(v, hints.get(k), _class_namespace(hint)) for k, v in value.items()})
    if hint is float and isinstance(value, int):
        return float(value)
    if hint is int and isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(hint, type):
        return hint(value) if hint in (tuple, set, frozenset) and isinstance(value, list) else value
    origin, args, metadata = _typing_parts(hint)
    if origin == "annotated":
        return _coerce(value, args[0], namespace)
    if origin in (list, set, frozenset, tuple) and isinstance(value, list):
        if origin is tuple and args and not (len(args) == 2 and args[1] is Ellipsis):
            items = [_coerce(v, a, namespace) for v, a in zip(value, args)]
        else:
            items = [_coerce(v, args[0], namespace) for v in value] if args else value
        return origin(items) if origin is not list else items
    if origin is dict and isinstance(value, dict) and len(args) == 2:
        return {k: _coerce(v, args[1], namespace) for k, v in value.items()}
    if origin == "union" or repr(origin) == "typing.Union":
        for arg in args:
            arg = _resolve_annotation(arg, namespace)
            try:
                validate(value, _schema_for(arg, namespace))
            except (ValueError, SchemaError):
                continue
            return _coerce(value, arg, namespace)
    return value


def _clean_doc(doc) -> str:
    """Dedent a docstring the way inspect.cleandoc does, without importing inspect."""
    if not doc:
        return ""
    lines = doc.expandtabs().splitlines()
    if len(lines) == 1:                            # one line, as most tools have: nothing to dedent
        return lines[0].strip()
    indent = min((len(l) - len(l.lstrip()) for l in lines[1:] if l.strip()), default=0)
    cleaned = [lines[0].strip()] + [l[indent:].rstrip() for l in lines[1:]]
    return "\n".join(cleaned).strip("\n")          # without the blank lines before and after


_DOC_SECTIONS = ("args:", "arguments:", "parameters:", "params:", "returns:", "return:",
                 "raises:", "yields:", "examples:", "example:", "note:", "notes:")


def _parse_docstring(doc) -> tuple:
    """Split a Google-style docstring into (description, {arg: description})."""
    text = _clean_doc(doc)
    if "\n" not in text:                           # one line: a summary, or a lone section heading
        return ("" if text.lower() in _DOC_SECTIONS else text), {}
    summary, arg_docs, section, current, arg_indent = [], {}, None, None, None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.lower() in _DOC_SECTIONS and not line.startswith(" "):
            section = stripped.lower().rstrip(":")
            current, arg_indent = None, None
            continue
        if section is None:
            summary.append(line)
        elif section in ("args", "arguments", "parameters", "params") and stripped:
            indent = len(line) - len(line.lstrip())
            head, sep, rest = stripped.partition(":")
            name = head.split("(")[0].strip().lstrip("*")
            # An argument line sits at the section's first indent; deeper lines continue it.
            if sep and name.isidentifier() and indent > 0 and (arg_indent is None or indent <= arg_indent):
                arg_indent = indent if arg_indent is None else arg_indent
                current = name
                arg_docs[name] = rest.strip()
            elif current:
                arg_docs[current] = (arg_docs[current] + " " + stripped).strip()
    return "\n".join(summary).strip(), arg_docs


class _Signature:
    """The parameters of a handler, read from its code object (no inspect import)."""

    def __init__(self, fn) -> None:
        target = fn
        while callable(getattr(target, "__wrapped__", None)):
            target = target.__wrapped__         # functools.wraps: the wrapped parameters, as inspect reads them
        if not hasattr(target, "__code__") and hasattr(target, "__call__") and not isinstance(target, type):
            target = target.__call__            # a callable object: read its __call__
        code = getattr(target, "__code__", None)
        self.namespace = getattr(target, "__globals__", {})
        self.params = []            # (name, annotation or _EMPTY, default or _EMPTY)
        if code is None:
            self._from_inspect(fn)
        else:
            count = code.co_argcount + code.co_kwonlyargcount
            names = list(code.co_varnames[:count])
            if getattr(target, "__self__", None) is not None:
                names = names[1:]
            annotations = getattr(target, "__annotations__", {}) or {}
            defaults = getattr(target, "__defaults__", None) or ()
            kwdefaults = getattr(target, "__kwdefaults__", None) or {}
            positional = names[:len(names) - code.co_kwonlyargcount]
            first_default = len(positional) - len(defaults)
            for index, name in enumerate(names):
                if index < len(positional):
                    default = defaults[index - first_default] if index >= first_default else _EMPTY
                else:
                    default = kwdefaults.get(name, _EMPTY)
                self.params.append((name, annotations.get(name, _EMPTY), default))
            self.returns = annotations.get("return", _EMPTY)
        self.is_async = _is_coroutine_function(fn)

    def _from_inspect(self, fn) -> None:
        import inspect
        signature = inspect.signature(fn)
        for p in signature.parameters.values():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                continue
            annotation = _EMPTY if p.annotation is p.empty else p.annotation
            default = _EMPTY if p.default is p.empty else p.default
            self.params.append((p.name, annotation, default))
        self.returns = _EMPTY if signature.return_annotation is signature.empty \
            else signature.return_annotation
        self.namespace = getattr(getattr(fn, "func", fn), "__globals__", {})

    def resolve(self, annotation):
        return _resolve_annotation(annotation, self.namespace)

    def context_param(self):
        """Name of the parameter annotated with Context, if any."""
        import re
        for name, annotation, _ in self.params:
            # Context, Context[T] (mcp 2.x), Optional[Context], Context | None, even when unresolvable
            if isinstance(annotation, str) and re.fullmatch(
                    r"(?:(?:typing\.)?Optional\[)?(?:[\w.]*\.)?Context(?:\[.*\])?\]?(?:\s*\|\s*None)?",
                    annotation.strip("'\" ")):
                return name
            try:
                resolved = self.resolve(annotation)
            except SchemaError:
                continue
            if _is_context_hint(resolved):
                return name
        return None


def _is_context_hint(hint) -> bool:
    """Context itself, ``Context[T]``, or ``Optional[Context]`` / ``Context | None`` (the SDK finds all three)."""
    if isinstance(hint, type):
        return issubclass(hint, Context)
    origin, args, _ = _typing_parts(hint)
    if origin == "union" or repr(origin) == "typing.Union":
        others = [arg for arg in args if arg is not type(None)]
        return len(others) == 1 and _is_context_hint(others[0])
    return False


class _Empty:
    def __repr__(self) -> str:
        return "<empty>"


_EMPTY = _Empty()


def _is_coroutine_function(fn) -> bool:
    code = getattr(getattr(fn, "__func__", fn), "__code__", None)
    if code is None and hasattr(fn, "__call__"):
        code = getattr(getattr(fn.__call__, "__func__", None), "__code__", None)
    return bool(code is not None and code.co_flags & 0x80)    # CO_COROUTINE


def _input_schema(signature: _Signature, skip: set, arg_docs: dict, owner: str) -> dict:
    """Build a tool's inputSchema from its parameters."""
    properties, required = {}, []
    for name, annotation, default in signature.params:
        if name in skip:
            continue
        try:
            if _is_field_info(default):               # name: str = Field(description=...)
                annotation, default = _field_annotation(annotation, default), _field_default(default)
            prop = {} if annotation is _EMPTY else _schema_for(annotation, signature.namespace)
        except SchemaError as exc:
            raise SchemaError("%s, parameter %r: %s" % (owner, name, exc)) from None
        if arg_docs.get(name) and "description" not in prop:
            prop["description"] = arg_docs[name]
        if default is _EMPTY:
            required.append(name)
        else:
            _add_default(prop, default)
        properties[name] = prop
    return _hoist_defs(_object_schema(properties, required))


# Types the official SDK accepts: pydantic models and Field(), and standard
# library value types. minimcp never imports pydantic: a model is recognised by
# its methods, and pydantic's own machinery is used only through the module the
# user's code has already imported (sys.modules), so servers without pydantic
# pay nothing. Standard types get the JSON Schema formats pydantic gives them
# and are converted both ways the way pydantic does, so results read the same.

_FORMATS = {("datetime", "datetime"): "date-time", ("datetime", "date"): "date",
            ("datetime", "time"): "time", ("datetime", "timedelta"): "duration",
            ("uuid", "UUID"): "uuid", ("pathlib", "PurePath"): "path", ("builtins", "bytes"): "binary"}


def _pydantic():
    """The pydantic module if the server has imported it, else None."""
    module = sys.modules.get("pydantic")
    return module if module is not None and hasattr(module, "TypeAdapter") else None


def _is_pydantic_model(hint) -> bool:
    return isinstance(hint, type) and all(hasattr(hint, a) for a in (
        "model_json_schema", "model_validate", "model_dump", "model_fields"))


def _is_field_info(value) -> bool:
    return type(value).__name__ == "FieldInfo" and hasattr(value, "metadata") and \
        hasattr(value, "default") and _pydantic() is not None


def _field_default(field):
    """A FieldInfo's default, or _EMPTY when the field is required."""
    if type(field.default).__name__ != "PydanticUndefinedType":
        return field.default
    factory = getattr(field, "default_factory", None)
    return factory() if factory is not None else _EMPTY


def _field_annotation(annotation, field):
    """``x: T = Field(...)`` means what ``x: Annotated[T, Field(...)]`` means."""
    import typing
    annotated = getattr(typing, "Annotated", None) or sys.modules["typing_extensions"].Annotated  # 3.8: pydantic's
    return annotated[typing.Any if annotation is _EMPTY else annotation, field]


def _value_format(hint):
    """The JSON Schema format pydantic gives a standard value type (or None)."""
    for klass in getattr(hint, "__mro__", ()):
        found = _FORMATS.get((klass.__module__.split(".")[0], klass.__name__))   # 3.13: pathlib._local
        if found is not None:
            return found
    return None


def _special_schema(hint):
    """The schema of a pydantic model, a pydantic-annotated hint or a standard value type; None otherwise."""
    if not isinstance(hint, type):
        metadata = getattr(hint, "__metadata__", None)
        if metadata and any(not isinstance(m, (str, dict)) for m in metadata) and _pydantic() is not None:
            # Annotated[int, Field(ge=0)] and friends: pydantic itself knows their constraints.
            try:
                return _pydantic().TypeAdapter(hint).json_schema()
            except Exception as exc:
                raise SchemaError("pydantic cannot describe %r: %s" % (hint, exc))
        return None
    if _is_pydantic_model(hint):
        schema = dict(hint.model_json_schema())
        defs = schema.pop("$defs", {})
        name = hint.__name__
        return {"$ref": "#/$defs/" + name, "$defs": dict(defs, **{name: schema})}
    if issubclass(hint, (str, int, float, bool, list, dict)):
        return None
    if hint.__module__ == "decimal" and hint.__name__ == "Decimal":
        return {"anyOf": [{"type": "number"}, {"type": "string"}]}
    found = _value_format(hint)
    return None if found is None else {"type": "string", "format": found}


def _hoist_defs(schema: dict) -> dict:
    """Move every nested ``$defs`` to the root, where ``#/$defs/...`` references point."""
    if _pydantic() is None:
        return schema                  # only pydantic's schemas carry $defs: nothing to walk
    found = {}

    def walk(node, top):
        if isinstance(node, dict):
            if not top and "$defs" in node:
                found.update(node.pop("$defs"))
            for value in node.values():
                walk(value, False)
        elif isinstance(node, list):
            for value in node:
                walk(value, False)
    walk(schema, True)
    while found:                       # definitions may hold definitions of their own
        pending, found = found, {}
        walk(pending, False)
        schema.setdefault("$defs", {}).update(pending)
    return schema


def _inline_root(schema: dict) -> dict:
    """An outputSchema must have an object at its root, not a bare ``$ref``."""
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        defs = dict(schema.get("$defs", {}))
        root = dict(defs.pop(ref[len("#/$defs/"):]))
        if defs:
            root["$defs"] = defs
        return root
    return schema


def _parse_duration(text: str):
    """ISO 8601 durations (PnDTnHnMnS, as pydantic writes them) or seconds, as a timedelta."""
    import datetime
    import re
    if isinstance(text, (int, float)):
        return datetime.timedelta(seconds=text)
    match = re.match(r"^(-)?P(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?"
                     r"(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$", text)
    if not match or text.endswith(("P", "T")):
        raise ValueError("%r is not an ISO 8601 duration" % text)
    weeks, days, hours, minutes, seconds = (float(g or 0) for g in match.groups()[1:])
    value = datetime.timedelta(weeks=weeks, days=days, hours=hours, minutes=minutes, seconds=seconds)
    return -value if match.group(1) else value


def _format_duration(value) -> str:
    seconds = value.total_seconds()
    sign, seconds = ("-", -seconds) if seconds < 0 else ("", seconds)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, rest = divmod(rest, 60)
    text = "P%dD" % days if days else "P"
    clock = "".join("%d%s" % (n, u) for n, u in ((hours, "H"), (minutes, "M")) if n)
    if rest:
        clock += ("%d" % rest if float(rest).is_integer() else ("%.6f" % rest).rstrip("0")) + "S"
    if clock or text == "P":
        text += "T" + (clock or "0S")
    return sign + text


def _coerce_special(value, hint):
    """Convert validated JSON to a pydantic model or a standard value type; _EMPTY if hint is neither."""
    if not isinstance(hint, type):
        metadata = getattr(hint, "__metadata__", None)
        if metadata and any(_is_field_info(m) for m in metadata):
            return _pydantic().TypeAdapter(hint).validate_python(value)    # constraints and conversion
        return _EMPTY
    if _is_pydantic_model(hint):
        return value if isinstance(value, hint) else hint.model_validate(value)
    if issubclass(hint, (str, bool, int, float, list, dict)):
        return _EMPTY
    if hint is bytes:
        return value.encode("utf-8") if isinstance(value, str) else value   # pydantic's reading of bytes
    found = _value_format(hint)
    if found in ("date-time", "date", "time"):        # fromisoformat refuses a trailing Z before 3.11
        return hint.fromisoformat(value[:-1] + "+00:00" if value.endswith(("Z", "z")) else value)
    if found == "duration":
        return _parse_duration(value)
    if found in ("uuid", "path"):
        return hint(value)
    if hint.__module__ == "decimal" and hint.__name__ == "Decimal":
        return hint(str(value))
    return _EMPTY


def _json_special(value):
    """JSON for the values pydantic serialises that the json module does not; _EMPTY otherwise."""
    if _is_pydantic_model(type(value)):
        return value.model_dump(mode="json", by_alias=True)
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8")           # pydantic refuses bytes that are not UTF-8 too
    kind = _value_format(type(value))
    if kind in ("date-time", "date", "time"):
        text = value.isoformat()
        return text[:-6] + "Z" if text.endswith("+00:00") else text      # a date never has an offset
    if kind == "duration":
        return _format_duration(value)
    if kind in ("uuid", "path") or type(value).__name__ == "Decimal":
        return str(value)
    return _EMPTY


# Elicitation forms: the schemas elicitation/create may carry ################
#
# A form (requestedSchema) is a flat object whose every property is one of the
# spec's primitive schemas (PrimitiveSchemaDefinition in each schema.json): a
# string (with an optional format), a number or integer, a boolean, a
# single-select enum (untitled ``enum``, titled ``oneOf`` of const/title, or the
# legacy ``enum`` + ``enumNames``), or a multi-select enum (``type: array`` whose
# items are an ``enum`` or an ``anyOf`` of const/title). Context.elicit makes the
# handler's schema into such a form once (_elicitation_form, newest shape, every
# keyword the handler gave kept for checking the answer), cuts a copy down to
# the revision asked (_elicitation_schema), and checks the client's answer
# against the whole form before the handler sees it (_check_elicited).

_ELICIT_FORMATS = ("date", "date-time", "email", "uri")     # StringSchema.format, every revision
_ELICIT_ACTIONS = ("accept", "decline", "cancel")

# The keywords each revision added, per kind of field: a revision's wire carries
# those added up to it and nothing else (a keyword outside them, such as
# ``pattern``, is still checked in the answer). 2025-06-18 has "default" on
# booleans only (SEP-1034 added the rest), no "$schema" on the form, no titled or
# multi-select enums. A revision before 2025-06-18 has no elicitation at all; a
# client that declares it there anyway gets 2025-06-18's forms (the "type" of
# "form" is where they begin).
_ELICIT_ADDED = {
    "form": {"2025-06-18": "type properties required", "2025-11-25": "$schema"},
    "string": {"2025-06-18": "type title description minLength maxLength format", "2025-11-25": "default"},
    "number": {"2025-06-18": "type title description minimum maximum", "2025-11-25": "default"},
    "boolean": {"2025-06-18": "type title description default"},
    "enum": {"2025-06-18": "type title description enum enumNames", "2025-11-25": "default"},
    "titled_enum": {"2025-11-25": "type title description oneOf default"},
    "multi_select": {"2025-11-25": "type title description items minItems maxItems default"},
}
_ELICIT_FIELD_SINCE = {kind: {key: since for since, keys in added.items() for key in keys.split()}
                       for kind, added in _ELICIT_ADDED.items()}     # kind -> {keyword: revision}
# A kind an older revision lacks: the kind it is sent as instead, or None to refuse
# the question. A titled enum says what 2025-06-18's EnumSchema says with enum +
# enumNames. A multi-select has no equivalent: 2025-06-18 answers hold no arrays.
_ELICIT_KIND_FALLBACK = {"titled_enum": "enum", "multi_select": None}


def _elicitation_form(schema) -> dict:
    """A handler's elicitation schema as a checked form in the newest shape (a new dict).

    Args:
        schema: a flat object schema (dict), a TypedDict, a dataclass or a pydantic model.

    Raises:
        ValueError: naming the field that no elicitation form can carry, and why.
    """
    source = schema
    if not isinstance(schema, dict):
        schema = _schema_for(schema, _class_namespace(schema))
    schema = _inline_root(schema)
    defs = schema.get("$defs") or {}
    if schema.get("type", "object") != "object" or not isinstance(schema.get("properties", {}), dict):
        raise ValueError("an elicitation schema is a flat object schema: {'type': 'object', 'properties': {...}}")
    properties = {name: _elicitation_field(name, prop, defs) for name, prop in schema.get("properties", {}).items()}
    if _is_dataclass(source):
        _add_factory_defaults(source, properties)
    for name, prop in properties.items():
        if "default" in prop:
            _check_elicited_value(prop["default"], prop, "the default of elicitation field %r" % name)
    required = schema.get("required") or []
    if not isinstance(required, list):
        raise ValueError("elicitation schema: required must be a list of property names")
    for name in required:
        if name not in properties:
            raise ValueError("elicitation schema: required names %r, which is not a property" % (name,))
    form = {k: v for k, v in schema.items() if k not in ("$defs", "properties", "required")}
    form.update(type="object", properties=properties)
    if "required" in schema:
        form["required"] = list(required)
    return form


def _elicitation_field(name: str, prop, defs: dict) -> dict:
    """One property of a form, checked and completed (``type`` filled in); ValueError if no form can hold it."""
    prop = _elicit_resolve(prop, defs)
    options = prop.get("anyOf")
    if "type" not in prop and isinstance(options, list):     # Optional[X]: X, since any field may be left out
        present = [_elicit_resolve(o, defs) for o in options if o != {"type": "null"}]
        if len(present) == 1 and len(options) > 1:
            prop = dict(present[0], **{k: v for k, v in prop.items() if k != "anyOf"})
    if prop.get("default", 0) is None:
        prop = {k: v for k, v in prop.items() if k != "default"}    # no value is not a default
    if prop.get("type") == "array" and isinstance(prop.get("items"), dict):
        prop = dict(prop, items=_elicit_resolve(prop["items"], defs))     # List[SomeEnum] from pydantic
    kind = _elicit_kind(prop)
    why = "elicitation field %r" % name
    if kind is None:
        raise ValueError("%s must be a string, number, integer, boolean, a single-select enum (enum, or oneOf of "
                         "const/title) or a multi-select enum (type array, items enum or anyOf of const/title); "
                         "got %s" % (why, json.dumps(prop, sort_keys=True)))
    if kind in ("enum", "titled_enum") and prop.get("type") is None:
        prop = dict(prop, type="string")
    if kind == "multi_select":
        if "enum" in prop["items"] and "type" not in prop["items"]:
            prop = dict(prop, items=dict(prop["items"], type="string"))
        _elicit_choices(prop["items"], why + " items")
    else:
        _elicit_choices(prop, why)
    if kind == "string" and "format" in prop and prop["format"] not in _ELICIT_FORMATS:
        raise ValueError("%s: format %r is not one elicitation defines (%s); use a plain string"
                         % (why, prop["format"], ", ".join(_ELICIT_FORMATS)))
    names = prop.get("enumNames")
    if names is not None and not (isinstance(names, list) and len(names) == len(prop.get("enum") or ())
                                  and all(isinstance(n, str) for n in names)):
        raise ValueError("%s: enumNames must be a list of strings, one per enum value" % why)
    return prop


def _elicit_resolve(node, defs: dict) -> dict:
    """``node`` with a local ``#/$defs/`` reference replaced by what it names (pydantic writes enums so)."""
    if not isinstance(node, dict):
        raise ValueError("elicitation schema: a property must be a JSON Schema object, not %r" % (node,))
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/") and isinstance(defs.get(ref[8:]), dict):
        target = {k: v for k, v in defs[ref[8:]].items() if k != "title"}     # the class name, not the field's
        return dict(target, **{k: v for k, v in node.items() if k != "$ref"})
    return node


def _elicit_kind(prop: dict):
    """The kind of field (a key of _ELICIT_FIELD_SINCE) a property is, or None."""
    kind = prop.get("type")
    if not isinstance(kind, (str, type(None))):
        return None                             # a list of types: no form field is several things
    if kind == "array":
        items = prop.get("items")
        return "multi_select" if isinstance(items, dict) and ("enum" in items or "anyOf" in items) else None
    if kind not in (None, "string"):
        return {"number": "number", "integer": "number", "boolean": "boolean"}.get(kind)
    if "oneOf" in prop:
        return "titled_enum"
    if "enum" in prop:
        return "enum"
    return "string" if kind == "string" else None


def _elicit_choices(prop: dict, why: str):
    """The values a single-select enum (or a multi-select's items) allows, checked; None for other fields."""
    if "enum" in prop:
        values = prop["enum"]
        if not isinstance(values, list) or not values or not all(isinstance(v, str) for v in values):
            raise ValueError("%s: an elicitation enum is a non-empty list of strings, not %s"
                             % (why, json.dumps(values)))
        return values
    options = prop.get("oneOf", prop.get("anyOf"))
    if options is None:
        return None
    if not isinstance(options, list) or not options or not all(
            isinstance(o, dict) and isinstance(o.get("const"), str) and isinstance(o.get("title"), str)
            for o in options):
        raise ValueError("%s: titled choices are a list of {'const': str, 'title': str}" % why)
    return [o["const"] for o in options]


def _add_factory_defaults(cls, properties: dict) -> None:
    """Defaults from ``field(default_factory=...)`` (how a dataclass gives a list default)."""
    for name, field in cls.__dataclass_fields__.items():
        factory = getattr(field, "default_factory", None)
        if name in properties and "default" not in properties[name] and callable(factory):
            value = factory()
            if isinstance(value, (list, tuple, set, frozenset)):
                value = [v.value if _is_enum(type(v)) else v for v in value]
            _add_default(properties[name], value)


def _elicitation_schema(form: dict, version: str) -> dict:
    """The requestedSchema sent under ``version``: ``form`` with only what that revision defines.

    Raises:
        ValueError: for a field the revision has no form for (a multi-select before 2025-11-25).
    """
    first = _ELICIT_FIELD_SINCE["form"]["type"]
    version = version if _available(first, version) else first
    properties = {}
    for name, prop in form["properties"].items():
        kind = _elicit_kind(prop)
        while not _available(_ELICIT_FIELD_SINCE[kind]["type"], version):
            fallback = _ELICIT_KIND_FALLBACK[kind]
            if fallback is None:
                raise ValueError("elicitation field %r is a multi-select (type array), which protocol %s does "
                                 "not define (2025-11-25 and later do): ask with a single-select enum instead"
                                 % (name, version))
            prop, kind = _elicit_as_enum_names(prop), fallback     # the one fallback: titled -> enumNames
        properties[name] = _elicit_trim(kind, prop, version)
    wire = _elicit_trim("form", form, version)
    return dict(wire, properties=properties)


def _elicit_as_enum_names(prop: dict) -> dict:
    """A titled single-select (oneOf of const/title) said the 2025-06-18 way: enum + enumNames."""
    shaped = {k: v for k, v in prop.items() if k != "oneOf"}
    shaped.update(enum=[o["const"] for o in prop["oneOf"]], enumNames=[o["title"] for o in prop["oneOf"]])
    return shaped


def _elicit_trim(kind: str, prop: dict, version: str) -> dict:
    """``prop`` (a form, or a field of ``kind``) with only the keywords ``version`` defines for it."""
    since = _ELICIT_FIELD_SINCE[kind]
    shaped = {k: v for k, v in prop.items() if k in since and _available(since[k], version)}
    if kind == "multi_select":              # items: {type, enum} or {anyOf: [{const, title}]}, nothing more
        items = prop["items"]
        shaped["items"] = {"type": "string", "enum": items["enum"]} if "enum" in items else \
            {"anyOf": [{"const": o["const"], "title": o["title"]} for o in items["anyOf"]]}
    elif kind == "titled_enum":
        shaped["oneOf"] = [{"const": o["const"], "title": o["title"]} for o in prop["oneOf"]]
    return shaped


def _check_elicited(answer, form: dict) -> dict:
    """The client's ElicitResult, checked against the form it was asked, before the handler sees it.

    Raises:
        ValueError: for an answer without a valid action, or accepted content that does not
            fit the form (in a tool, an ``isError`` result saying which field and why).
    """
    action = answer.get("action") if isinstance(answer, dict) else None
    if action not in _ELICIT_ACTIONS:
        raise ValueError("the client's elicitation answer has no valid action (accept, decline or cancel): %s"
                         % json.dumps(answer, sort_keys=True)[:200])
    if action != "accept":
        return answer
    content = answer.get("content", {})
    try:
        if not isinstance(content, dict):
            raise ValueError("content: expected object, got %s" % _json_type(content))
        for name in form.get("required") or ():
            if name not in content:
                raise ValueError("content: missing required field %r" % name)
        for name, value in content.items():
            prop = form["properties"].get(name)
            if prop is not None:
                _check_elicited_value(value, prop, "content.%s" % name)
    except ValueError as exc:
        raise ValueError("the client's elicitation answer does not fit the requested schema: %s" % exc) from None
    return answer


def _check_elicited_value(value, prop: dict, path: str) -> None:
    """One field's value (an answer or a default) against its property; ValueError naming ``path``."""
    kind = _elicit_kind(prop)
    validate(value, {k: v for k, v in prop.items() if k not in ("default", "oneOf", "enum", "items")}, path)
    choices = _elicit_choices(prop["items"] if kind == "multi_select" else prop, path)
    if choices is not None:
        for index, item in enumerate(value if kind == "multi_select" else [value]):
            if not isinstance(item, str) or item not in choices:
                where = "%s[%d]" % (path, index) if kind == "multi_select" else path
                raise ValueError("%s: %s is not one of %s" % (where, json.dumps(item),
                                                              ", ".join(json.dumps(c) for c in choices)))
    if kind == "string" and prop.get("format") in _ELICIT_FORMATS and not _fits_format(value, prop["format"]):
        raise ValueError("%s: %s is not a valid %s" % (path, json.dumps(value), prop["format"]))


def _fits_format(text: str, kind: str) -> bool:
    """Whether ``text`` is a valid ``date``, ``date-time`` (RFC 3339), ``email`` or ``uri``."""
    import re
    if kind == "email":
        return re.fullmatch(r"[^@\s]+@[^@\s]+", text) is not None
    if kind == "uri":
        return re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*:[^\s]+", text) is not None
    pattern = r"(\d{4})-(\d\d)-(\d\d)" + (r"[Tt](\d\d):(\d\d):(\d\d)(?:\.\d+)?(?:[Zz]|[+-](\d\d):(\d\d))"
                                          if kind == "date-time" else "")
    found = re.fullmatch(pattern, text, re.ASCII)
    if found is None:
        return False
    import datetime
    numbers = [int(n) for n in found.groups() if n is not None]
    try:
        datetime.date(*numbers[:3])
    except ValueError:
        return False
    clock, offset = numbers[3:6], numbers[6:]
    return (not clock or (clock[0] < 24 and clock[1] < 60 and clock[2] <= 60)) and \
        (not offset or (offset[0] < 24 and offset[1] < 60))     # second 60: a leap second


# Registry: content helpers, tools, resources, templates, prompts #############
#
# Records here know nothing about JSON-RPC: they turn a Python function into the
# MCP description of a tool/resource/prompt and turn its return value into MCP
# content, always in the newest shape. Older revisions are served by trimming
# (see _REVISION_FIELDS in the server section).

class _Dialect:
    """How one SDK shows a server to its client and its model, as named rules.

    A server is served in the dialect of the SDK it was written for, so that a model
    sees what it saw there: ``MCPServer(dialect=...)``, or the class a server
    constructs. Code reads ``dialect.<rule>`` where the thing it shapes is made (a
    description, a result, an error), never ``if dialect == ...``. Each rule is
    explained at ``_DIALECT_RULES``.
    """
    RULES = ("docstrings", "tool_failure", "tool_error", "told", "unknown_tool", "argument_error",
             "argument_wording", "lax_arguments", "is_error_always", "objects", "list_blocks", "compact_json",
             "dict_structured", "text_structured", "class_structured", "default_mime", "resource_lists",
             "decode_uri_variables", "missing_resource", "unknown_prompt", "missing_prompt_arguments",
             "capabilities", "default_version", "describe_extra", "result_meta", "strict_annotations",
             "untyped_schema", "closed_input", "meta_in_results", "ask_unannounced", "output_spelling",
             "wrap_by_schema", "annotation_fields", "non_finite", "elicit_by_type", "lifespan_per_session")
    __slots__ = ("name",) + RULES

    def __init__(self, name: str, **rules) -> None:
        self.name = name
        for rule in self.RULES:
            setattr(self, rule, rules.pop(rule))
        if rules:
            raise TypeError("unknown dialect rules: %s" % ", ".join(rules))

    def but(self, name: str, **changes) -> "_Dialect":
        """This row with some rules changed: how the SDK rows say what sets them apart."""
        return _Dialect(name, **dict({rule: getattr(self, rule) for rule in self.RULES}, **changes))

    def __repr__(self) -> str:
        return "<dialect %s>" % self.name


# The rules, one per thing a client or model sees:
#   docstrings: "parsed" (dedented, Args: become the parameters' descriptions, none when empty),
#     "raw" (the docstring as written, "" when there is none, parameters undescribed) or
#     fn(docstring, kind) giving (description or None, {argument: description}) for a "tool",
#     "resource" (templates too) or "prompt";
#   tool_failure / tool_error: the isError text of a tool that raised, for any exception and
#     for the ``told`` types (the SDK's ToolError), as a format of {name} and {error};
#   unknown_tool: None (a -32602 error) or the isError text for a tool that does not exist;
#   argument_error: None (the revision decides: -32602, or isError since 2025-11-25) or the
#     isError text for invalid arguments, always a result; argument_wording: None (the
#     validator's words for {error}) or fn(tool, arguments, server) giving pydantic's words, or
#     None where it has none; lax_arguments: "3" is taken for an integer and 3.0 for 3, as
#     pydantic's lax mode takes them;
#   is_error_always: results carry "isError": false too;
#   objects: an object that is not JSON is written as its fields ("fields", or refused when it
#     has none) or as the JSON string of its repr() ("repr");
#   list_blocks: a returned list is one content block per item ("items") or one JSON text ("json");
#   compact_json: JSON text without spaces; dict_structured: a dict (unannotated, or ``-> dict``,
#     whose outputSchema is then {"type": "object"}) is also structuredContent; text_structured: ``-> str`` has an outputSchema ({"result": ...});
#     class_structured: a plain annotated class has one, from its annotations;
#   default_mime: the mimeType of a resource registered without one (None: guessed from the URI
#     and the value); resource_lists: a returned list is several contents ("items") or one JSON
#     text ("json"); decode_uri_variables: template variables arrive percent-decoded;
#   missing_resource / unknown_prompt / missing_prompt_arguments: (code, message, with data) of
#     those errors; a code of None takes the revision's own (see _REVISION_RULES);
#   capabilities: None (derived from what is registered) or the capabilities always declared,
#     with their flags, every list answering (empty) for them; default_version: serverInfo's
#     version when the server names none;
#   describe_extra: None or fn(kind, record, described) adding the SDK's own fields to a listing;
#   result_meta: the _meta of a result wrapped in {"result": ...};
#   strict_annotations: tool annotations the spec does not define are refused at registration
#     (minimcp: a typo would be ignored by every host), or sent as given (the SDKs);
#   untyped_schema: None, or the schema a tool lists for a parameter without an annotation
#     (the mcp SDKs say {"type": "string"}, yet take any value there: validation does not follow);
#   closed_input: whether a tool refuses arguments it does not name (inputSchema gets
#     additionalProperties: false, and validation follows): a bool, or fn() read at registration;
#   meta_in_results: a resource's and a prompt's own meta (not the SDK's "fastmcp" key) is also
#     the _meta of each content read and of the prompts/get result;
#   ask_unannounced: a handler's question (elicitation, sampling, roots) goes to a client that did
#     not declare the capability, which answers with its own error (the SDKs), or is refused
#     before it is sent (minimcp);
#   output_spelling: None, or fn(schema, hint, namespace) giving a tool's outputSchema (before it
#     is wrapped in {"result": ...}) as the SDK's pydantic spells it; wrap_by_schema: a result is
#     wrapped in {"result": ...} exactly when its schema is not an object (fastmcp: typing.Dict
#     too is the structured content itself), not by the kind of annotation (mcp);
#   annotation_fields: None (tool and resource annotations are sent as given) or {"tool": names,
#     "resource": names}: the fields the SDK's models have, snake_case taken for camelCase, the
#     rest dropped (mcp 2.x's types ignore unknown fields; mcp 1.x's keep them);
#   non_finite: a tool result holding inf or nan is refused as JSON cannot carry it (None), written
#     as Python's json writes it (Infinity, NaN) with null in structuredContent ("json", as mcp's
#     pydantic does), or fn(value) that raises the SDK's own error for it;
#   elicit_by_type: None, or fn(ctx, message, response_type, timeout, key) for fastmcp's
#     ctx.elicit(message, response_type=...) (the SDK section supplies it, to every row);
#   lifespan_per_session: the lifespan is entered for each handshake-era HTTP session (mcp 1.x),
#     not once per process.
_MCP2_RULES = dict(
    docstrings="raw", tool_failure="Error executing tool {name}", tool_error="Error executing tool {name}: {error}",
    told=(), unknown_tool="Unknown tool: {name}", argument_error="Error executing tool {name}: {error}",
    argument_wording=None, lax_arguments=True, is_error_always=True, objects="repr", list_blocks="items",
    compact_json=False, dict_structured=False, text_structured=True, class_structured=True,
    default_mime="text/plain", resource_lists="json",
    decode_uri_variables=True, missing_resource=(INVALID_PARAMS, "Unknown resource: {uri}", True),
    unknown_prompt=(0, "Unknown prompt: {name}", False),
    missing_prompt_arguments=(0, "Missing required arguments: {missing}", False),
    capabilities={"prompts": {"listChanged": False}, "resources": {"subscribe": False, "listChanged": False},
                  "tools": {"listChanged": False}},
    default_version="", describe_extra=None, result_meta=None, strict_annotations=False,
    untyped_schema={"type": "string"}, closed_input=False, meta_in_results=False, ask_unannounced=True,
    output_spelling=None, wrap_by_schema=False, non_finite="json", elicit_by_type=None, lifespan_per_session=False, annotation_fields={
        "tool": ("title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"),
        "resource": ("audience", "priority", "lastModified")})
_DIALECTS = {
    # mcp 2.3.0; the SDK section adds the rows of mcp 1.x and fastmcp.
    "mcp2": _Dialect("mcp2", **_MCP2_RULES),
    # minimcp's own lean choices.
    "minimcp": _Dialect("minimcp", **dict(
        _MCP2_RULES, docstrings="parsed", tool_failure="{error}", tool_error="{error}", unknown_tool=None,
        argument_error=None, lax_arguments=False, is_error_always=False, objects="fields",
        text_structured=False, default_mime=None, resource_lists="items",
        missing_resource=(None, "Resource not found: {uri}", True),
        unknown_prompt=(INVALID_PARAMS, "Unknown prompt: {name}", True),
        missing_prompt_arguments=(INVALID_PARAMS, "prompt {prompt!r}: missing required argument {listed}", False),
        capabilities=None, default_version="0.0.0", strict_annotations=True, untyped_schema=None,
        ask_unannounced=False, annotation_fields=None, non_finite=None)),
}


def _dialect(name) -> _Dialect:
    if name not in _DIALECTS:
        raise ValueError("dialect must be one of %s, not %r" % (", ".join(sorted(_DIALECTS)), name))
    return _DIALECTS[name]


def _read_docstring(fn, dialect: _Dialect, kind: str = "tool") -> tuple:
    """(description or None, {argument: description}) of a handler, as its dialect reads docstrings."""
    doc = getattr(fn, "__doc__", None)
    if callable(dialect.docstrings):
        return dialect.docstrings(doc, kind)
    if dialect.docstrings == "raw":
        return (doc if isinstance(doc, str) else ""), {}
    summary, arg_docs = _parse_docstring(doc)
    return summary or None, arg_docs


def _known_annotations(annotations, dialect: _Dialect, kind: str):
    """Annotations as the dialect's SDK models keep them (see annotation_fields)."""
    if dialect.annotation_fields is None or not isinstance(annotations, dict):
        return annotations
    known, kept = dialect.annotation_fields[kind], {}
    for key, value in annotations.items():
        head, *rest = key.split("_")
        key = head + "".join(part[:1].upper() + part[1:] for part in rest)     # read_only_hint: readOnlyHint
        if key in known and value is not None:
            kept[key] = value
    return kept


def _own_meta(record) -> dict:
    """The meta a resource or prompt was registered with, where its dialect also puts it in results."""
    if not record.dialect.meta_in_results or not isinstance(record.meta, dict):
        return None
    return {k: v for k, v in record.meta.items() if k != "fastmcp"} or None     # not the listed tags


_TOOL_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.")
_CONTENT_TYPES = ("text", "image", "audio", "resource_link", "resource")


def _b64(data: bytes) -> str:
    import binascii
    return binascii.b2a_base64(data, newline=False).decode("ascii")


class _Media:
    kind = ""

    def __init__(self, data: bytes = None, mime_type: str = None, path: str = None,
                 annotations: dict = None, format: str = None) -> None:
        if isinstance(data, str) or (data is not None and hasattr(data, "__fspath__")):
            data, path = None, data              # the SDK's Image("chart.png"): a path comes first there
        if format and not mime_type:             # the SDK's Image(data=..., format="png")
            mime_type = "%s/%s" % (self.kind, {"jpg": "jpeg"}.get(format.lower(), format.lower()))
        if data is None and path is None:
            raise ValueError("%s needs data or path" % type(self).__name__)
        if data is None:
            with open(path, "rb") as handle:
                data = handle.read()
        if mime_type is None and path is not None:
            import mimetypes
            mime_type = mimetypes.guess_type(path)[0]
        if not mime_type:
            raise ValueError("%s needs a mime_type" % type(self).__name__)
        self.data = data
        self.mime_type = mime_type
        self.annotations = annotations

    def to_content(self) -> dict:
        """Return the MCP content block."""
        block = {"type": self.kind, "data": _b64(self.data), "mimeType": self.mime_type}
        if self.annotations:
            block["annotations"] = self.annotations
        return block


class Image(_Media):
    """An image returned by a tool or prompt: ``Image(png_bytes, "image/png")``, ``Image(path=...)``
    or the SDK's ``Image(data=png_bytes, format="png")``."""
    kind = "image"


class Audio(_Media):
    """Audio returned by a tool or prompt: ``Audio(wav_bytes, "audio/wav")`` or ``Audio(path=...)``."""
    kind = "audio"


class ResourceLink:
    """A link to a resource inside a tool result (2025-06-18 on; a text block before).

    Args:
        uri: the resource URI.
        name: its programmatic name.
        **fields: title, description, mimeType, size, annotations, icons, _meta.
    """

    def __init__(self, uri: str, name: str, **fields) -> None:
        self.block = dict(fields, type="resource_link", uri=uri, name=name)

    def to_content(self) -> dict:
        """Return the MCP content block."""
        return dict(self.block)


class EmbeddedResource:
    """A resource's contents embedded in a tool result or prompt message.

    Args:
        uri: the resource URI.
        text: text contents (or give ``blob`` bytes).
        blob: binary contents.
        mime_type: the MIME type.
    """

    def __init__(self, uri: str, text: str = None, blob: bytes = None, mime_type: str = None) -> None:
        resource = {"uri": uri}
        if mime_type:
            resource["mimeType"] = mime_type
        if blob is not None:
            resource["blob"] = _b64(blob)
        else:
            resource["text"] = text or ""
        self.block = {"type": "resource", "resource": resource}

    def to_content(self) -> dict:
        """Return the MCP content block."""
        return json.loads(json.dumps(self.block))


def _to_json_text(value, indent: int = None, compact: bool = False, allow_nan: bool = False) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=allow_nan, indent=indent, default=_json_default,
                          separators=(",", ":") if compact else None)
    except (TypeError, ValueError) as exc:
        where = _unsendable(value, "result")
        if where is None:
            raise
        raise _UnsendableResult("the return value cannot be sent as JSON: %s" % where) from exc


def _nulled(value):
    """``value`` with its non-finite floats (inf, nan) as None, as pydantic writes them in JSON."""
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return None
    if isinstance(value, dict):
        return {k: _nulled(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_nulled(v) for v in value]
    return value


class _UnsendableResult(TypeError):
    """A handler returned normally, but with a value JSON cannot carry (the message says where)."""


def _unsendable(value, path: str, depth: int = 0):
    """Where in ``value`` JSON fails (``result['when'] is a datetime``), or None."""
    import math
    if depth > 200:
        return "%s nests too deeply" % path
    if value is None or isinstance(value, (str, bool, int)):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else "%s is %r, which JSON cannot carry" % (path, value)
    if _is_dataclass(type(value)):
        items = [("%s.%s" % (path, k), getattr(value, k)) for k in value.__dataclass_fields__]
    elif _is_enum(type(value)):
        items = [(path + ".value", value.value)]
    elif isinstance(value, dict):
        items = []
        for key, item in value.items():
            if not isinstance(key, (str, int, float, bool)) and key is not None:
                return "%s has a key of type %s" % (path, type(key).__name__)
            items.append(("%s[%r]" % (path, key), item))
    elif isinstance(value, (list, tuple, set, frozenset)):
        items = [("%s[%d]" % (path, i), item) for i, item in enumerate(value)]
    else:
        kind = type(value).__name__                 # "an object", "a datetime"
        return "%s is %s %s (convert it first, e.g. with str() or .isoformat())" \
            % (path, "an" if kind[:1].lower() in "aeiou" else "a", kind)
    for where, item in items:
        found = _unsendable(item, where, depth + 1)
        if found:
            return found
    return None


#: ToolAnnotations fields and their JSON types (schema.json, 2025-03-26 to 2026-07-28).
_TOOL_ANNOTATIONS = {"title": str, "readOnlyHint": bool, "destructiveHint": bool, "idempotentHint": bool,
                     "openWorldHint": bool}


def _check_tool_annotations(name: str, annotations) -> None:
    """Refuse misspelled or mistyped annotations at registration: a host would ignore them silently."""
    if annotations is None:
        return
    if not isinstance(annotations, dict):
        raise ValueError("tool %r: annotations must be a dict" % name)
    import difflib
    for key, value in annotations.items():
        if key not in _TOOL_ANNOTATIONS:
            close = difflib.get_close_matches(str(key), list(_TOOL_ANNOTATIONS), 1, 0.5)
            raise ValueError("tool %r: unknown annotation %r%s (known: %s; put anything else in meta=)"
                             % (name, key, "; did you mean %r?" % close[0] if close else "",
                                ", ".join(_TOOL_ANNOTATIONS)))
        if not isinstance(value, _TOOL_ANNOTATIONS[key]):
            raise ValueError("tool %r: annotation %s must be a %s, not %r"
                             % (name, key, _TOOL_ANNOTATIONS[key].__name__, value))


def _log_tool_failure(name: str, exc: BaseException) -> None:
    """Say on stderr why a tool call became an isError result."""
    if isinstance(exc, _UnsendableResult):
        _logger().error("minimcp: tool %s returned, but %s", name, exc)
    else:
        _logger().error("minimcp: tool %s raised", name, exc_info=True)


def _require_uri(uri) -> None:
    """``@app.resource`` without its URI would silently register nothing."""
    if callable(uri) or not isinstance(uri, str):
        raise TypeError("@app.resource needs the resource's URI: @app.resource(\"scheme://path\")"
                        " or a template such as @app.resource(\"notes://{title}\")")


def _json_default(value):
    special = _json_special(value)
    if special is not _EMPTY:
        return special
    if _is_dataclass(type(value)):
        return {k: getattr(value, k) for k in value.__dataclass_fields__}
    if _is_enum(type(value)):
        return value.value
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError("%s is not JSON serialisable" % type(value).__name__)


def _is_content_block(value) -> bool:
    return isinstance(value, dict) and value.get("type") in _CONTENT_TYPES


def _to_content(value, indent: int = None, compact: bool = False, allow_nan: bool = False) -> list:
    """Turn a handler's return value into a list of content blocks.

    Strings are text; media and content blocks are themselves; lists and tuples
    are unrolled item by item; anything else is JSON text. A tool result
    (``indent=2``, as the official SDK writes it) unrolls every list; a prompt
    unrolls only those holding text or content, and sends others as one JSON text.
    """
    if value is None:
        return []
    if isinstance(value, str):
        return [{"type": "text", "text": value}]
    if hasattr(value, "to_content") and not isinstance(value, type):
        return [value.to_content()]
    if _is_content_block(value):
        return [value]
    if isinstance(value, (list, tuple)) and (indent or any(
            isinstance(v, str) or hasattr(v, "to_content") or _is_content_block(v) for v in value)):
        return [block for item in value for block in _to_content(item, indent, compact, allow_nan)]
    return [{"type": "text", "text": _to_json_text(value, indent, compact, allow_nan)}]


def _is_content_class(hint) -> bool:
    """Whether a return annotation names content (media, links, blocks), bare, in a list or in a union."""
    if isinstance(hint, type) and type(hint).__name__ != "GenericAlias":     # (3.9 and 3.10: list[X] is a type)
        return issubclass(hint, (_Media, ResourceLink, EmbeddedResource)) or hasattr(hint, "to_content")
    origin, args, _ = _typing_parts(hint)
    if origin == "annotated":
        return _is_content_class(args[0])
    if origin in (list, tuple) or origin == "union" \
            or repr(origin) in ("typing.Union", "<class 'collections.abc.Sequence'>"):
        return any(_is_content_class(arg) for arg in args)
    return False


def _output_policy(hint, namespace: dict) -> tuple:
    """The official SDK's rule for a return annotation: (outputSchema or None, wrap in "result", attributes).

    Scalars, None, generics and unions are wrapped in ``{"result": ...}``; models,
    TypedDicts, dataclasses, annotated classes and builtin ``dict[str, X]`` are the
    structured content themselves; no annotation, content, and classes without
    annotations (``dict``, ``datetime``, an Enum) give no structured output.
    """
    if hint is _EMPTY or _is_content_class(hint):
        return None, False, None
    if hint is None or hint is type(None) or hint in (str, int, float, bool, bytes):
        return _schema_for(hint, namespace), True, None
    bare = hint
    while getattr(bare, "__metadata__", None) is not None:        # Annotated[X, ...] is X here
        bare = bare.__origin__
    if not isinstance(bare, type) or type(bare).__name__ == "GenericAlias":
        if repr(bare) in ("typing.Any", "typing_extensions.Any") or type(bare).__name__ == "TypeVar":
            return None, False, None
        origin, args, _ = _typing_parts(bare)
        if type(bare).__name__ == "GenericAlias" and origin is dict and len(args) == 2 and args[0] is str:
            return _schema_for(hint, namespace), False, None      # dict[str, X] (not typing.Dict: wrapped)
        return _schema_for(hint, namespace), True, None
    if _is_pydantic_model(bare):
        schema = _inline_root(_hoist_defs(_schema_for(hint, namespace)))
        # A RootModel over a list is not an object: wrapped, where mcp 2.3.0 fails tools/list.
        return schema, schema.get("type") != "object", None
    if _is_dataclass(bare):
        schema = _schema_for(hint, namespace)
        # Fields with a default_factory are always in the result: the SDK lists them as required.
        always = [n for n, f in bare.__dataclass_fields__.items() if n in schema["properties"]
                  and type(f.default).__name__ == "_MISSING_TYPE"]
        if always:
            schema["required"] = always
        return schema, False, None
    if _is_typeddict(bare):
        return _schema_for(hint, namespace), False, None
    hints = {k: v for k, v in _class_hints(bare).items() if not k.startswith("_")}
    if not hints or bare.__module__ == "builtins" or _special_schema(bare) is not None:
        return None, False, None
    properties, required = {}, []
    for name, annotation in hints.items():
        prop = _schema_for(annotation, _class_namespace(bare))
        if name in vars(bare):
            _add_default(prop, vars(bare)[name])
        else:
            required.append(name)
        properties[name] = prop
    schema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema, False, list(hints)


class Tool:
    """A registered tool. Built by ``MCPServer.tool``; read its fields, don't build it yourself."""

    def __init__(self, fn, name=None, title=None, description=None, annotations=None, icons=None,
                 meta=None, input_schema=None, output_schema=None, structured_output=None,
                 timeout=None, task_support="forbidden", ask_first=False, dialect: _Dialect = None) -> None:
        name = fn.__name__ if name is None else name
        if not isinstance(name, str) or not (1 <= len(name) <= 128) or not set(name) <= _TOOL_NAME_CHARS:
            raise ValueError("invalid tool name %r: use 1-128 characters of A-Z a-z 0-9 _ - ." % name)
        if task_support not in ("forbidden", "optional", "required"):
            raise ValueError("task_support must be 'forbidden', 'optional' or 'required'")
        self.dialect = dialect = dialect or _DIALECTS["minimcp"]
        if dialect.strict_annotations:
            _check_tool_annotations(name, annotations)
        self.fn, self.name, self.title, self.icons, self.meta = fn, name, title, icons, meta
        annotations = _known_annotations(annotations, dialect, "tool")
        self.annotations, self.timeout, self.task_support = annotations, timeout, task_support
        self.ask_first = ask_first
        self.signature = signature = _Signature(fn)
        summary, arg_docs = _read_docstring(fn, dialect)
        self.description = description if description is not None else summary
        self.context_param = signature.context_param()
        owner = "tool %r (function %s)" % (name, getattr(fn, "__qualname__", fn))
        self.input_schema = input_schema or _input_schema(
            signature, {self.context_param}, arg_docs, owner)
        if self.input_schema.get("type") != "object":
            raise ValueError("%s: input_schema must have type 'object'" % owner)
        self.listed_input_schema = None         # what tools/list shows, where the dialect shows more
        if input_schema is None:
            self._dialect_input(dialect)
        self.hints = {n: a for n, a, _ in signature.params}
        self.field_defaults = [(n, d) for n, _, d in signature.params if _is_field_info(d)]
        self.wrap_result = False
        self.output_schema = output_schema
        self.attributes = None           # a plain annotated class: structuredContent from its attributes
        if output_schema is None and structured_output is not False:
            try:
                resolved = signature.resolve(signature.returns)        # no annotation stays _EMPTY
            except SchemaError:
                resolved = _EMPTY
            try:
                if structured_output:
                    schema = _schema_for(resolved, signature.namespace) if resolved is not _EMPTY else {}
                    self.wrap_result = schema.get("type") != "object"   # structuredContent must be an object
                elif resolved is str and not dialect.text_structured:
                    schema = None                 # the text once, not again as {"result": text}
                elif resolved is dict and dialect.dict_structured:
                    schema = {"type": "object"}   # fastmcp: the dict itself is the structured content
                else:
                    schema, self.wrap_result, self.attributes = _output_policy(resolved, signature.namespace)
                    if dialect.wrap_by_schema and schema is not None:
                        self.wrap_result = schema.get("type") != "object"
                    if self.attributes is not None and not dialect.class_structured:
                        schema = self.attributes = None
            except SchemaError as exc:
                raise SchemaError("%s, return annotation: %s" % (owner, exc)) from None
            if schema is not None and dialect.output_spelling is not None and resolved is not _EMPTY:
                schema = dialect.output_spelling(schema, resolved, signature.namespace)
            if schema is not None:
                if self.wrap_result:
                    schema = {"type": "object", "properties": {"result": schema}, "required": ["result"]}
                self.output_schema = _inline_root(_hoist_defs(schema))

    def _dialect_input(self, dialect: _Dialect) -> None:
        """The dialect's closed_input (validated) and untyped_schema (listed only) on the inputSchema."""
        closed = dialect.closed_input() if callable(dialect.closed_input) else dialect.closed_input
        if closed:
            self.input_schema = dict(self.input_schema, additionalProperties=False)
        untyped = [n for n, a, _ in self.signature.params if a is _EMPTY and n != self.context_param]
        properties = self.input_schema.get("properties") or {}
        if dialect.untyped_schema and any(n in properties for n in untyped):
            listed = {n: dict(dialect.untyped_schema, **p) if n in untyped else p for n, p in properties.items()}
            self.listed_input_schema = dict(self.input_schema, properties=listed)

    def describe(self) -> dict:
        """The MCP Tool object (newest shape)."""
        tool = {"name": self.name}
        execution = {"taskSupport": self.task_support} if self.task_support != "forbidden" else None
        for key, value in (("title", self.title), ("description", self.description),
                           ("inputSchema", self.listed_input_schema or self.input_schema),
                           ("outputSchema", self.output_schema),
                           ("annotations", self.annotations and dict(self.annotations)), ("icons", self.icons),
                           ("execution", execution), ("_meta", self.meta)):
            if value or (key in ("outputSchema", "description") and value is not None) or (
                    key == "annotations" and value == {} and self.dialect.annotation_fields is not None):
                tool[key] = value                 # {} and "" are sent (annotations: the SDKs' emptied model)
        if self.dialect.describe_extra is not None:
            tool = self.dialect.describe_extra("tool", self, tool)
        return tool

    def check_arguments(self, arguments: dict) -> None:
        """Raise ValueError where ``arguments`` do not fit the inputSchema, as ``validate`` says.

        The first call compiles the checker, which then replaces this method on the
        instance: a server with thousands of tools pays only for those it runs.
        """
        self.check_arguments = _compile_schema(self.input_schema)
        self.check_arguments(arguments)

    def bind(self, arguments: dict) -> dict:
        """Convert validated JSON arguments to the function's keyword arguments."""
        namespace, hints = self.signature.namespace, self.hints
        bound = {k: _coerce(v, hints[k], namespace) for k, v in arguments.items() if k in hints}
        for name, default in self.field_defaults:
            if name not in bound:                 # x: int = Field(3): pass 3, not the Field
                value = _field_default(default)
                if value is not _EMPTY:
                    bound[name] = value
        return bound

    def to_result(self, value) -> dict:
        """Turn the function's return value into a CallToolResult (newest shape), as its dialect writes it."""
        if isinstance(value, str) and self.output_schema is None:
            result = {"content": [{"type": "text", "text": value}]}     # the common case, first
        elif isinstance(value, dict) and isinstance(value.get("content"), list) and \
                set(value) <= {"content", "structuredContent", "isError", "_meta"}:
            result = value                                 # an explicit CallToolResult
        elif hasattr(value, "to_result") and not isinstance(value, type):
            result = value.to_result()                     # mcp.types.CallToolResult (SDK aliases)
        else:
            if callable(self.dialect.non_finite):
                self.dialect.non_finite(value)             # fastmcp: inf or nan anywhere is its own error
            result = self._structured(value)
        if self.dialect.is_error_always and "isError" not in result:
            result = dict(result, isError=False)           # a copy: the tool's own dict is never edited
        return result

    def _structured(self, value) -> dict:
        """A plain return value as content, and as structuredContent where the tool has an outputSchema."""
        dialect = self.dialect
        fields = value
        if self.attributes is not None and not isinstance(value, dict):
            fields = {k: getattr(value, k) for k in self.attributes if hasattr(value, k)}
        content = self._content(value if dialect.objects == "repr" else fields)
        if self.output_schema is None:
            if dialect.dict_structured and type(value) is dict:
                return {"content": content, "structuredContent": value}
            return {"content": content}
        # plain JSON types: dataclasses become dicts
        plain = json.loads(_to_json_text(fields, allow_nan=dialect.non_finite == "json"))
        structured = {"result": plain} if self.wrap_result else plain
        try:
            validate(structured, self.output_schema, "result")
        except ValueError as exc:
            raise ValueError("tool %r returned a value that does not match its outputSchema: %s"
                             % (self.name, exc)) from None
        if dialect.non_finite == "json":
            structured = _nulled(structured)               # pydantic's JSON: inf and nan are null
        result = {"content": content, "structuredContent": structured}
        if self.wrap_result and dialect.result_meta is not None:
            result["_meta"] = dialect.result_meta
        return result

    def _content(self, value) -> list:
        """Content blocks for a return value: JSON indented as mcp writes it, or compact, as fastmcp does."""
        dialect = self.dialect
        try:
            if dialect.list_blocks == "json" and isinstance(value, (list, tuple)) and not any(
                    hasattr(v, "to_content") or _is_content_block(v) for v in value):
                return [{"type": "text", "text": _to_json_text(value, compact=True)}]
            return _to_content(value, indent=None if dialect.compact_json else 2, compact=dialect.compact_json,
                               allow_nan=dialect.non_finite == "json")
        except _UnsendableResult:
            if dialect.objects != "repr":
                raise
            return [{"type": "text", "text": json.dumps(repr(value))}]    # what pydantic makes of an object


class _UriTemplate:
    """An RFC 6570 URI template compiled to a regular expression for matching.

    Supported expressions: ``{var}`` (simple), ``{+var}`` (reserved), ``{#var}``
    (fragment), ``{/var}`` and ``{/var*}`` (path segments), ``{.var}`` (label) and
    ``{?a,b}`` / ``{&a,b}`` (query). Several variables may share one expression.
    """

    def __init__(self, template: str) -> None:
        import re
        self.template = template
        self.variables = []
        self.exploded = set()
        self.query_vars = []
        pattern, pos = [], 0
        for match in re.finditer(r"\{([^{}]*)\}", template):
            pattern.append(re.escape(template[pos:match.start()]))
            pos = match.end()
            expression = match.group(1)
            operator = expression[:1] if expression[:1] in "+#/.?&;" else ""
            query = operator in ("?", "&")        # the whole query is matched once, then parsed by name
            for index, raw in enumerate(n.strip() for n in expression[len(operator):].split(",")):
                name = raw.rstrip("*").split(":")[0]
                if not name.replace("_", "a").replace(".", "a").isalnum():
                    raise ValueError("invalid variable %r in URI template %r" % (raw, template))
                if name in self.variables:
                    raise ValueError("variable %r repeated in URI template %r" % (name, template))
                self.variables.append(name)
                if raw.endswith("*"):
                    self.exploded.add(name)
                if query:
                    self.query_vars.append(raw.rstrip("*"))
                elif operator == "/" and raw.endswith("*"):
                    pattern.append(r"(?P<%s>(?:/[^/?#]*)*)" % name)
                else:                             # the operator's prefix before the first value, its separator after
                    prefix = {"#": "#", "/": "/", ".": r"\."}.get(operator, "") if index == 0 \
                        else {"/": "/", ".": r"\."}.get(operator, ",")
                    chars = r"[^?#]*?" if operator in ("+", "#") else r"[^/?#,&]*"
                    pattern.append("%s(?P<%s>%s)" % (prefix, name, chars))
            if query:
                pattern.append(r"(?:[?&](?P<_q%d>[^#]*))?" % len(pattern))
        pattern.append(re.escape(template[pos:]))
        self.regex = re.compile("^" + "".join(pattern) + "$")

    def match(self, uri: str, decode: bool = True):
        """Return the variables of ``uri`` as a dict (percent-decoded, or as sent), or None if it does not match."""
        from urllib.parse import unquote, parse_qsl
        decoded = unquote if decode else str          # mcp 1.x passes variables as they came
        found = self.regex.match(uri)
        if not found:
            return None
        values = {}
        for name, value in found.groupdict().items():
            if value is None:
                continue
            if name.startswith("_q"):
                for key, item in parse_qsl(value, keep_blank_values=True):
                    if key in self.query_vars:
                        values[key] = item
            elif name in self.exploded:
                values[name] = [decoded(part) for part in value.split("/")[1:]]
            else:
                values[name] = decoded(value)
        return values


def _guess_mime(uri: str, default: str) -> str:
    import mimetypes
    # Guess from the last path segment alone: Python 3.13 parses a whole URI and
    # would take "index.html" in "page://index.html" for a host name.
    name = uri.split("?")[0].split("#")[0].rsplit("/", 1)[-1]
    return mimetypes.guess_type(name, strict=False)[0] or default


def _check_resource_uri(uri: str) -> None:
    """Refuse, at registration, what no client could read: a URI without a scheme, with
    spaces, or a template whose braces do not pair (``notes://{title``)."""
    import re
    depth, opened = 0, 0
    for position, char in enumerate(uri):
        if char == "{":
            if depth:
                raise ValueError("resource %r: a '{' inside the expression opened at position %d" % (uri, opened))
            depth, opened = 1, position
        elif char == "}":
            if not depth:
                raise ValueError("resource %r: the URI template has a '}' at position %d that no '{' opens"
                                 % (uri, position))
            depth = 0
    if depth:
        raise ValueError("resource %r: the URI template's '{' at position %d is never closed" % (uri, opened))
    literal = re.sub(r"\{[^{}]*\}", "", uri)
    if not re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", literal) or re.search(r"[\s\x00-\x1f\x7f]", literal):
        raise ValueError("resource %r is not a URI: it needs a scheme (like notes://, file:///) and no spaces "
                         "(RFC 3986; percent-encode them as %%20)" % uri)


class Resource:
    """A registered resource or resource template. Built by ``MCPServer.resource``."""

    def __init__(self, uri, fn, name=None, title=None, description=None, mime_type=None, size=None,
                 annotations=None, icons=None, meta=None, ttl_ms=None, cache_scope=None,
                 completions=None, dialect: _Dialect = None) -> None:
        if not isinstance(uri, str) or not uri:
            raise ValueError("resource URI must be a non-empty string")
        _check_resource_uri(uri)
        self.uri, self.fn, self.title, self.mime_type, self.size = uri, fn, title, mime_type, size
        self.annotations, self.icons, self.meta = annotations, icons, meta
        self.ttl_ms, self.cache_scope = ttl_ms, cache_scope
        self.name = name or getattr(fn, "__name__", None) or uri
        self.dialect = dialect = dialect or _DIALECTS["minimcp"]
        self.annotations = _known_annotations(annotations, dialect, "resource")
        self.signature = signature = _Signature(fn)
        summary, _ = _read_docstring(fn, dialect, "resource")
        self.description = description if description is not None else summary
        self.context_param = signature.context_param()
        self.is_template = "{" in uri
        self.template = _UriTemplate(uri) if self.is_template else None
        params = [(n, a, d) for n, a, d in signature.params if n != self.context_param]
        variables = set(self.template.variables) if self.template else set()
        names = {n for n, _, _ in params}
        needed = {n for n, _, d in params if d is _EMPTY}
        where = "resource %r (function %s)" % (uri, getattr(fn, "__qualname__", fn))
        if variables - names:
            raise ValueError("%s: the template variables %s are not parameters of the function"
                             % (where, ", ".join(sorted(variables - names))))
        if needed - variables:
            raise ValueError("%s: the parameters %s are not variables of the URI template"
                             % (where, ", ".join(sorted(needed - variables))))
        self.hints = {n: a for n, a, _ in params}
        self.completions = _completions(signature, params, completions)

    def describe(self) -> dict:
        """The MCP Resource or ResourceTemplate object (newest shape)."""
        item = {"uriTemplate": self.uri} if self.is_template else {"uri": self.uri}
        item["name"] = self.name
        for key, value in (("title", self.title), ("description", self.description),
                           ("mimeType", self.mime_type or self.dialect.default_mime),
                           ("size", None if self.is_template else self.size),
                           ("annotations", self.annotations), ("icons", self.icons), ("_meta", self.meta)):
            if value not in (None, "", {}) or (key == "description" and value is not None) or (
                    key == "annotations" and value == {} and self.dialect.annotation_fields is not None):
                item[key] = value
        if self.dialect.describe_extra is not None:
            item = self.dialect.describe_extra("resource", self, item)
        return item

    def arguments_for(self, variables: dict) -> dict:
        """Convert the template variables matched in a URI to the function's arguments."""
        namespace = self.signature.namespace
        return {name: _convert_text(value, self.hints.get(name, _EMPTY), namespace, "URI variable %r" % name)
                for name, value in variables.items()}

    def to_contents(self, uri: str, value) -> list:
        """Turn the function's return value into ReadResourceResult ``contents``."""
        # A list is several contents, or (the SDKs) data written as one JSON text.
        several = isinstance(value, list) and (self.dialect.resource_lists == "items" or any(
            isinstance(item, dict) and ("text" in item or "blob" in item) for item in value))
        items = value if several else [value]
        mime_type = self.mime_type or self.dialect.default_mime
        contents = []
        for item in items:
            if isinstance(item, dict) and ("text" in item or "blob" in item):
                entry = dict(item)
                entry.setdefault("uri", uri)
            elif isinstance(item, (bytes, bytearray)):
                entry = {"uri": uri, "mimeType": mime_type or _guess_mime(uri, "application/octet-stream"),
                         "blob": _b64(bytes(item))}
            elif isinstance(item, str):
                entry = {"uri": uri, "mimeType": mime_type or _guess_mime(uri, "text/plain"), "text": item}
            else:                                              # data: JSON, indented as mcp does (fastmcp: not)
                entry = {"uri": uri, "mimeType": mime_type or "application/json",
                         "text": json.dumps(item, ensure_ascii=False, allow_nan=False, default=_json_default,
                                            indent=None if self.dialect.compact_json else 2)}
            contents.append(entry)
        meta = _own_meta(self)
        if meta is not None:
            contents = [dict(entry, _meta=meta) if "_meta" not in entry else entry for entry in contents]
        return contents


def _convert_text(value, hint, namespace: dict, what: str):
    """Convert a string (URI variable, prompt argument) to its annotated type."""
    if hint is _EMPTY or not isinstance(value, str):
        return value
    try:
        hint = _resolve_annotation(hint, namespace)
        origin, args, _ = _typing_parts(hint)
        if origin == "annotated":
            hint = args[0]
        if hint is bool:
            lowered = value.lower()
            if lowered not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError("not a boolean")
            return lowered in ("true", "1", "yes")
        if hint in (int, float):
            return hint(value)
        if _is_enum(hint):
            return hint(value) if value in [m.value for m in hint] else hint[value]
        schema = _schema_for(hint, namespace)
        if schema.get("enum") is not None and value not in schema["enum"]:
            raise ValueError("must be one of %s" % ", ".join(map(str, schema["enum"])))
    except (ValueError, KeyError, TypeError) as exc:
        raise _invalid_params("%s: cannot convert %r to %s (%s)"
                              % (what, value, getattr(hint, "__name__", hint), exc))
    return value


def _completions(signature: _Signature, params: list, given) -> dict:
    """Completion values by parameter: those ``given``, else a Literal's or Enum's values as strings."""
    completions = dict(given or {})
    for name, annotation, _ in params:
        if name in completions or annotation is _EMPTY:
            continue
        try:
            values = _schema_for(signature.resolve(annotation), signature.namespace).get("enum")
        except SchemaError:
            continue
        if values:
            completions[name] = [str(v) for v in values]
    return completions


class Prompt:
    """A registered prompt. Built by ``MCPServer.prompt``."""

    def __init__(self, fn, name=None, title=None, description=None, icons=None, meta=None,
                 completions=None, dialect: _Dialect = None) -> None:
        self.fn = fn
        self.dialect = dialect = dialect or _DIALECTS["minimcp"]
        self.name = name or getattr(fn, "__name__", None)
        if not isinstance(self.name, str) or not self.name:
            raise ValueError("prompt name must be a non-empty string")
        self.title, self.icons, self.meta = title, icons, meta
        self.signature = signature = _Signature(fn)
        summary, arg_docs = _read_docstring(fn, dialect, "prompt")
        self.description = description if description is not None else summary
        self.context_param = signature.context_param()
        params = [(n, a, d) for n, a, d in signature.params if n != self.context_param]
        self.arguments = []
        for name, _, default in params:
            argument = {"name": name}
            if arg_docs.get(name):
                argument["description"] = arg_docs[name]
            argument["required"] = default is _EMPTY
            self.arguments.append(argument)
        self.hints = {n: a for n, a, _ in params}
        self.completions = _completions(signature, params, completions)

    def describe(self) -> dict:
        """The MCP Prompt object (newest shape)."""
        item = {"name": self.name}
        for key, value in (("title", self.title), ("description", self.description),
                           ("arguments", self.arguments), ("icons", self.icons), ("_meta", self.meta)):
            if value or (key == "description" and value is not None):
                item[key] = value
        if self.dialect.describe_extra is not None:
            item = self.dialect.describe_extra("prompt", self, item)
        return item

    def bind(self, arguments: dict) -> dict:
        """Check and convert prompts/get arguments (all strings on the wire)."""
        missing = [a["name"] for a in self.arguments if a["required"] and a["name"] not in arguments]
        if missing:
            code, text, _ = self.dialect.missing_prompt_arguments
            raise MCPError(code, text.format(prompt=self.name, listed=", ".join(repr(m) for m in missing),
                                             missing=set(missing)))
        namespace = self.signature.namespace
        return {name: _convert_text(value, self.hints[name], namespace, "prompt %r argument %r" % (self.name, name))
                for name, value in arguments.items() if name in self.hints}     # unknown arguments are ignored

    @staticmethod
    def to_messages(value) -> list:
        """Turn the function's return value into PromptMessage objects."""
        items = value if isinstance(value, (list, tuple)) else [value]
        messages = []
        for item in items:
            if isinstance(item, dict) and "role" in item and "content" in item:
                if item["role"] not in ("user", "assistant"):
                    raise ValueError("prompt message role must be 'user' or 'assistant', not %r"
                                     % (item["role"],))
                content = item["content"]
                if isinstance(content, str):
                    content = {"type": "text", "text": content}
                elif hasattr(content, "to_content"):
                    content = content.to_content()
                messages.append({"role": item["role"], "content": content})
            else:                                          # None gives no blocks
                messages.extend({"role": "user", "content": block} for block in _to_content(item))
        return messages


# Context: what a handler may do while it runs ################################

class Context:
    """The running request, handed to any handler parameter annotated ``Context``.

    Everything here is synchronous and thread-safe; handlers run on worker threads.
    In the 2026-07-28 revision ``sample``, ``list_roots`` and ``elicit`` become
    input-required round trips: the handler is run again with the client's answers,
    so code before the last question must not have side effects it cannot repeat.
    Each question has a key (``key=``, or ``q0``, ``q1``... in asking order), and a
    retry's answers are matched to questions by key: a handler that names no keys
    must ask its questions in the same order on every run.
    """

    def __class_getitem__(cls, _lifespan_type):
        return cls                    # mcp 2.x spells it Context[AppContext]: the same class here

    def __init__(self, call) -> None:
        self._call = call
        self._session = call.session
        self._last_progress = None
        self._gathering = None        # a list while ctx.questions() collects instead of asking

    # -- facts about the request ------------------------------------------
    @property
    def request_id(self):
        """The JSON-RPC id of the request being served."""
        return self._call.id

    @property
    def protocol_version(self) -> str:
        """The revision this request is served under."""
        return self._call.rev.version

    @property
    def client_capabilities(self) -> dict:
        """What the client declared (per request in 2026-07-28, at initialize before)."""
        return self._call.peer.capabilities

    @property
    def client_info(self) -> dict:
        """The client's self-description (name, version, ...), if it sent one."""
        return self._call.peer.info

    @property
    def auth(self):
        """Who the client is, as the HTTP ``auth=`` hook said (None over stdio, or if it said only True)."""
        return self._session.auth

    @property
    def meta(self) -> dict:
        """The request's ``params._meta`` (trace context keys included)."""
        return self._call.meta

    @property
    def server(self) -> "MCPServer":
        """The server serving this request."""
        return self._session.server

    fastmcp = mcp_server = server      # fastmcp's and mcp 2.x's spellings

    @property
    def lifespan_context(self):
        """What the server's lifespan yielded (fastmcp's spelling of ``request_context.lifespan_context``)."""
        lifespan = self._session.own_lifespan or self._session.server._lifespan
        return lifespan.value if lifespan is not None else {}

    @property
    def request_context(self) -> "_RequestContext":
        """The SDK's ``ctx.request_context``: ``lifespan_context`` (what the lifespan yielded), ``request_id``, ``meta``."""
        return _RequestContext(self)

    @property
    def client_id(self):
        """The client id the request's ``_meta`` names, if any (the SDK's ``ctx.client_id``)."""
        meta = self._call.meta
        return meta.get("client_id") if isinstance(meta, dict) else None

    # -- cancellation ---------------------------------------------------------
    @property
    def cancelled(self) -> bool:
        """True once the client cancelled the request, it timed out, or the server is stopping."""
        return self._call.cancelled

    def check_cancelled(self) -> None:
        """Raise ``Cancelled`` if the request was cancelled; call it often in long loops."""
        if self._call.cancelled:
            raise Cancelled(self._call.cancel_reason or "cancelled")

    def sleep(self, seconds: float) -> None:
        """Sleep, waking at once (with ``Cancelled``) if the request is cancelled."""
        self._session.step_aside()
        if self._call.cancel_event.wait(seconds):
            self.check_cancelled()

    # -- progress and logging -------------------------------------------------
    def progress(self, progress: float, total: float = None, message: str = None) -> None:
        """Report progress; a no-op when the client gave no progress token.

        Values must strictly increase (the spec requires it): others are dropped.
        """
        token = self._call.progress_token
        if token is None:
            return
        if self._last_progress is not None and not progress > self._last_progress:
            _logger().debug("progress %r dropped: not above %r", progress, self._last_progress)
            return
        self._last_progress = progress
        params = {"progressToken": token, "progress": progress}
        if total is not None:
            params["total"] = total
        if message is not None and self._call.rev.progress_message:
            params["message"] = message
        self._session.notify_for(self._call, "notifications/progress", params)

    def log(self, level: str, data, logger: str = None) -> None:
        """Send a ``notifications/message`` to the client, if its level lets it through."""
        if level not in _LOG_RANK:
            raise ValueError("unknown log level %r; use one of %s" % (level, ", ".join(LOG_LEVELS)))
        threshold = self._call.peer.log_level
        if threshold is None or _LOG_RANK[level] < _LOG_RANK[threshold]:
            return
        params = {"level": level, "data": data}
        if logger is not None:
            params["logger"] = logger
        self._session.notify_for(self._call, "notifications/message", params)

    def debug(self, data, logger: str = None) -> None:
        """Log at level debug."""
        self.log("debug", data, logger)

    def info(self, data, logger: str = None) -> None:
        """Log at level info."""
        self.log("info", data, logger)

    def notice(self, data, logger: str = None) -> None:
        """Log at level notice."""
        self.log("notice", data, logger)

    def warning(self, data, logger: str = None) -> None:
        """Log at level warning."""
        self.log("warning", data, logger)

    def error(self, data, logger: str = None) -> None:
        """Log at level error."""
        self.log("error", data, logger)

    # -- questions to the client ---------------------------------------------
    def sample(self, messages, max_tokens: int = 512, system_prompt: str = None,
               temperature: float = None, stop_sequences: list = None, model_preferences: dict = None,
               include_context: str = None, tools: list = None, tool_choice: dict = None,
               metadata: dict = None, timeout: float = None, key: str = None) -> dict:
        """Ask the client's LLM for a completion (``sampling/createMessage``).

        Args:
            messages: a string (one user message), or a list of strings / SamplingMessage dicts.
            max_tokens: the most tokens to generate.
            system_prompt, temperature, stop_sequences, model_preferences, include_context,
                metadata: passed through as the spec defines them.
            tools, tool_choice: tools the model may call (2025-11-25 on; the client must
                declare ``sampling.tools``).
            timeout: seconds to wait (default: the server's ``request_timeout``).
            key: the question's name in a 2026-07-28 ``inputRequests`` map (default ``q<n>``).

        Returns:
            The client's CreateMessageResult: role, content, model, stopReason.
        """
        if isinstance(messages, str):
            messages = [messages]
        params = {"messages": [
            {"role": "user", "content": {"type": "text", "text": m}} if isinstance(m, str) else m
            for m in messages], "maxTokens": max_tokens}
        for field, value in (("systemPrompt", system_prompt), ("temperature", temperature),
                             ("stopSequences", stop_sequences), ("modelPreferences", model_preferences),
                             ("includeContext", include_context), ("metadata", metadata)):
            if value is not None:
                params[field] = value
        needs = {"sampling": {}}
        if tools is not None or tool_choice is not None:
            if not self._call.rev.sampling_tools:
                raise MCPError(INVALID_PARAMS, "sampling with tools needs protocol 2025-11-25 or later")
            params["tools"] = tools or []
            if tool_choice is not None:
                params["toolChoice"] = tool_choice
            needs = {"sampling": {"tools": {}}}
        return self._ask(_Question(key, "sampling/createMessage", params, needs), timeout)

    def list_roots(self, timeout: float = None, key: str = None) -> list:
        """Ask the client for its roots (``roots/list``); cached until it says they changed.

        Returns:
            A list of Root dicts (``uri``, optional ``name``).
        """
        cached = self._session.roots if self._call.rev.sessions else None
        return self._ask(_Question(key, "roots/list", {}, {"roots": {}}, self._roots_of,
                                   None if cached is None else {"roots": cached}), timeout)

    def _roots_of(self, result) -> list:
        roots = result.get("roots") if isinstance(result, dict) else None
        if not isinstance(roots, list):
            raise MCPError(INVALID_PARAMS, "the client's roots/list answer has no roots list")
        if self._call.rev.sessions:
            self._session.remember_roots(roots)
        return list(roots)

    def elicit(self, message: str, schema=None, timeout: float = None, key: str = None,
               response_type=None) -> dict:
        """Ask the user for input through the client (form-mode ``elicitation/create``).

        Args:
            message: what to ask.
            response_type: fastmcp's spelling, instead of ``schema``: a class as ``schema`` takes,
                or str/int/float/bool or a list of choices (asked as one ``value``); the answer
                then also has fastmcp's ``.action`` and ``.data`` (the dialect's elicit_by_type).
            schema: a flat object schema (dict), or a TypedDict / dataclass / pydantic model,
                whose fields are strings (formats date, date-time, email, uri), numbers,
                booleans, single-select enums (``enum``, ``oneOf`` of const/title, legacy
                ``enumNames``; Literal/Enum) or multi-select enums (``type: array`` of those;
                ``list[Literal[...]]``), with defaults. Older revisions get only what they
                define (see the README).

        Returns:
            ``{"action": "accept"|"decline"|"cancel", "content": {...}}``; accepted content
            has been checked against ``schema``.

        Raises:
            ValueError: for a schema no form can carry, or an accepted answer that does not fit it.
        """
        if response_type is not None:
            by_type = self.server.dialect.elicit_by_type
            if by_type is None:
                raise TypeError("ctx.elicit(response_type=...) is fastmcp's spelling, served in the SDK dialects; "
                                "give schema= (a dict, TypedDict, dataclass or pydantic model)")
            return by_type(self, message, response_type, timeout, key)
        form = _elicitation_form(schema)
        params = {"message": message, "requestedSchema": _elicitation_schema(form, self._call.rev.version)}
        if self._call.rev.elicitation_modes:
            params["mode"] = "form"
        return self._ask(_Question(key, "elicitation/create", params, {"elicitation": {"form": {}}},
                                   lambda answer: _check_elicited(answer, form)), timeout)

    def elicit_url(self, message: str, url: str, elicitation_id: str = None,
                   timeout: float = None, key: str = None) -> dict:
        """Send the user to a URL (URL-mode elicitation, 2025-11-25 and later).

        Returns:
            The client's ElicitResult (``action``). In the handshake era call
            ``ctx.server.elicitation_complete(elicitation_id)`` when the flow ends.
        """
        params = {"mode": "url", "message": message, "url": url}
        finish = None
        if self._call.rev.elicitation_ids:
            import secrets
            elicitation_id = params["elicitationId"] = elicitation_id or secrets.token_hex(16)
            finish = lambda result: dict(result, elicitationId=elicitation_id) if isinstance(result, dict) else result
        return self._ask(_Question(key, "elicitation/create", params, {"elicitation": {"url": {}}}, finish),
                         timeout)

    def ping(self, timeout: float = None) -> dict:
        """Ping the client (handshake era only)."""
        return self._ask(_Question(None, "ping", None, {}), timeout)

    def start_task(self) -> None:
        """Become a task now: the client gets its CreateTaskResult, and this handler goes on as the task.

        For tools registered with ``ask_first=True`` under 2026-07-28, where the questions
        asked before this call were input-required rounds on the request itself (SEP-2663
        resolves those before the task exists). Anywhere else it does nothing.
        """
        if self._call.task_ttl is not None:
            self._call = self._session.open_task(self._call, self._call.task_ttl)

    def questions(self) -> "_Questions":
        """Collect several questions and ask them in one round (the 2026-07-28 ``inputRequests``).

        The collector has ``elicit``, ``elicit_url``, ``sample`` and ``list_roots`` with the
        signatures above; ``ask()`` sends them together (in the handshake era as concurrent
        requests) and returns ``{key: answer}``, each answer as the single call returns it::

            asked = ctx.questions()
            asked.elicit("What is your name?", {"name": str}, key="user_name")
            asked.sample("Write a greeting", key="greeting")
            answers = asked.ask()
        """
        return _Questions(self)

    def _ask(self, question: _Question, timeout):
        if self._gathering is not None:
            self._gathering.append(question)
            return None
        return self._session.ask(self._call, [question], timeout)[0]

    def read_resource(self, uri: str) -> list:
        """Read one of this server's own resources; returns its ``contents`` list."""
        return self._session.server._read_resource(uri, self._call)["contents"]


class _Questions:
    """What ``ctx.questions()`` returns: questions collected to be asked in one round."""

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx
        self._asked = []

    def _collect(self, ask, args, kwargs) -> None:
        self._ctx._gathering = self._asked
        try:
            ask(*args, **kwargs)
        finally:
            self._ctx._gathering = None

    def elicit(self, *args, **kwargs) -> None:
        """Add a form elicitation (``Context.elicit``'s arguments)."""
        self._collect(self._ctx.elicit, args, kwargs)

    def elicit_url(self, *args, **kwargs) -> None:
        """Add a URL elicitation (``Context.elicit_url``'s arguments)."""
        self._collect(self._ctx.elicit_url, args, kwargs)

    def sample(self, *args, **kwargs) -> None:
        """Add a sampling request (``Context.sample``'s arguments)."""
        self._collect(self._ctx.sample, args, kwargs)

    def list_roots(self, *args, **kwargs) -> None:
        """Add a roots request (``Context.list_roots``'s arguments)."""
        self._collect(self._ctx.list_roots, args, kwargs)

    def ask(self, timeout: float = None) -> dict:
        """Ask everything collected at once; ``{key: answer}`` in the order they were added."""
        ctx = self._ctx
        answers = ctx._session.ask(ctx._call, self._asked, timeout)
        return dict(zip([q.key for q in self._asked], answers))


class _RequestContext:
    """What ``ctx.request_context`` holds in the SDK, read from the running request."""

    def __init__(self, ctx: Context) -> None:
        self.request_id, self.meta = ctx.request_id, ctx.meta
        self.lifespan_context = ctx.lifespan_context


class _AwaitableNone:
    """None that can also be awaited (see _awaitable_results)."""
    __slots__ = ()

    def __await__(self):
        return None
        yield                                        # a generator that finishes at once

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "None"


class _AwaitableDict(dict):
    def __await__(self):
        return self
        yield


class _AwaitableList(list):
    def __await__(self):
        return self
        yield


def _awaitable_results(method):
    """Make a Context method's result usable with and without ``await``.

    Handlers written for the official SDK say ``await ctx.info(...)`` or
    ``await ctx.sample(...)`` in ``async def`` tools; here the same calls are
    synchronous, and their results can be awaited too, so such code moves over
    unchanged.
    """
    import functools

    @functools.wraps(method)
    def wrapper(*args, **kwargs):
        value = method(*args, **kwargs)
        if value is None:
            return _AWAITABLE_NONE
        awaitable = _AWAITABLE_TYPES.get(type(value))
        return value if awaitable is None else awaitable(value)
    return wrapper


_AWAITABLE_NONE = _AwaitableNone()
_AWAITABLE_TYPES = {dict: _AwaitableDict, list: _AwaitableList}
for _name in ("progress", "log", "debug", "info", "notice", "warning", "error", "sample", "list_roots",
              "elicit", "elicit_url", "ping", "read_resource"):
    setattr(Context, _name, _awaitable_results(getattr(Context, _name)))
Context.report_progress = Context.progress      # the official SDK's spelling
del _name


# JSON-RPC envelope: pure functions, no MCP knowledge, no I/O #################

def _response(request_id, result: dict) -> dict:
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def _error(request_id, code: int, message: str, data=None) -> dict:
    error = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": error}


def _notification(method: str, params: dict = None) -> dict:
    message = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return message


def _request(request_id, method: str, params: dict = None) -> dict:
    message = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def _expects_response(message) -> bool:
    """Whether a received message gets a response: not notifications nor the client's own responses."""
    if not isinstance(message, dict):
        return True                                # answered with -32600
    if "method" in message:
        return "id" in message
    return not ("id" in message and ("result" in message or "error" in message))


def _valid_id(value) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _id_key(value):
    """Key for tables of ids: 1 and "1" are different ids."""
    return (isinstance(value, str), value)


# Characters that JSON may carry raw but that some clients split lines on
# (str.splitlines treats them as line ends). They only occur inside strings.
_LINE_BREAKERS = ("\u2028", "\u2029", "\x85")


def _bind_codec() -> None:
    """Bind ``_to_json`` and ``_from_json`` on first use (``json`` is imported lazily).

    They call json's C encoder and scanner directly where the interpreter has them:
    on a message of a few hundred bytes, the layers ``json.dumps`` and ``json.loads``
    put around them cost about as much as the work itself (1.9 -> 1.1 and 1.4 -> 0.8
    µs for an echo answer and call). Errors are json's own: anything the scanner
    does not take whole is parsed again by ``json.loads``, which raises.
    """
    global _to_json, _from_json
    encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    make_encoder = getattr(json.encoder, "c_make_encoder", None)
    make_scanner = getattr(json.scanner, "c_make_scanner", None)
    if make_encoder is None or make_scanner is None:
        _to_json, _from_json = encoder.encode, json.loads
        return
    # No circular-reference table: a cycle still ends in RecursionError, which write() handles.
    chunks = make_encoder(None, encoder.default, json.encoder.encode_basestring, None, ":", ",",
                          False, False, False)
    scan = make_scanner(json.JSONDecoder())

    def to_json(message) -> str:
        return "".join(chunks(message, 0))

    def from_json(text: str):
        try:
            value, end = scan(text, 0)
        except StopIteration:                    # leading whitespace, or no value at all
            return json.loads(text)
        if end != len(text) and text[end:].strip(" \t\n\r"):
            return json.loads(text)              # extra data: json says where
        return value

    _to_json, _from_json = to_json, from_json


def _to_json(message) -> str:
    _bind_codec()
    return _to_json(message)


def _from_json(text: str):
    _bind_codec()
    return _from_json(text)


def encode_message(message) -> bytes:
    """Serialise one JSON-RPC message (or batch) to a UTF-8 line ending in ``\\n``.

    Raises:
        ValueError / TypeError / RecursionError: the message cannot be written as JSON.
    """
    try:
        text = _to_json(message)
        if not text.isascii():
            for char in _LINE_BREAKERS:
                if char in text:
                    text = text.replace(char, "\\u%04x" % ord(char))
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:            # lone surrogates: escape everything instead
        text = json.dumps(message, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
        return text.encode("ascii") + b"\n"


def _mib(size: int) -> str:
    return "%.1f MiB" % (size / 1048576.0) if size >= 1048576 else "%d bytes" % size


def _within_output_limit(message, data: bytes, limit, call=None):
    """``data``, or what to write instead when it is longer than ``limit`` (None: drop it).

    A client that closes the connection on an over-long line (the TypeScript SDK's do,
    past 10 MiB) would end the whole session for one big result. So that response is
    replaced: a tool call gets an ``isError`` result, any other request a JSON-RPC error,
    both giving the size and the limit; a notification is dropped and logged.
    """
    if limit is None or len(data) <= limit:
        return data
    text = ("the response is %s, over the %s limit on one message (max_output_size): return less, page "
            "it, or return a resource link to read it in parts" % (_mib(len(data)), _mib(limit)))
    if not isinstance(message, dict) or "id" not in message or "method" in message:
        _logger().error("minimcp: dropped a message of %s: over max_output_size (%s)", _mib(len(data)), _mib(limit))
        return None
    _logger().error("minimcp: %s %r: %s", getattr(call, "method", "request"), message.get("id"), text)
    result = message.get("result")
    if getattr(call, "method", None) == "tools/call" and isinstance(result, dict) and "content" in result:
        replacement = {"content": [{"type": "text", "text": text}], "isError": True}
        # the era's shape (2026-07-28) stays intact
        replacement.update((key, result[key]) for key in ("resultType", "_meta") if key in result)
        data = encode_message({"jsonrpc": "2.0", "id": message["id"], "result": replacement})
        if len(data) <= limit:
            return data
    return encode_message(_error(message["id"], INTERNAL_ERROR, text))


def _decode_line(line: bytes):
    """Parse one input line. Returns (message, error_response_or_None)."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, _error(None, PARSE_ERROR, "Parse error: the line is not valid UTF-8 (%s)" % exc.reason)
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        return _from_json(text), None
    except RecursionError:                # answer with the id, if it comes before the nesting
        return None, _error(_scan_id(line[:65536]), PARSE_ERROR, "Parse error: JSON nested too deeply")
    except ValueError as exc:
        return None, _error(None, PARSE_ERROR, "Parse error: invalid JSON (%s)" % exc)


def _scan_id(head: bytes):
    """Find the top-level ``"id"`` of a JSON object from the first bytes of a line.

    Used for oversized lines, so the client still gets an answer for its request.
    Returns the id, or None when it cannot be read from ``head``.
    """
    import re
    text = head.decode("utf-8", "ignore")
    depth = 0
    # Whole strings and brackets, in order: brackets inside strings never count.
    for token in re.finditer(r'"(?:[^"\\]|\\.)*"|[][{}]', text, re.DOTALL):
        char = token.group()
        if char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
        elif depth == 1 and char == '"id"':
            rest = text[token.end():].lstrip()
            if rest.startswith(":"):
                try:
                    value, _ = json.JSONDecoder().raw_decode(rest[1:].lstrip())
                except ValueError:
                    return None
                return value if _valid_id(value) else None
    return None


# The protocol tables: methods, revisions, fields ##############################

_LOGGER = None


def _logger():
    """The library's logger, created on first use (importing logging costs start-up time)."""
    global _LOGGER
    if _LOGGER is None:
        import logging
        _LOGGER = logging.getLogger("minimcp")
    return _LOGGER


ALL_VERSIONS = frozenset(PROTOCOL_VERSIONS)
HANDSHAKE = frozenset(HANDSHAKE_VERSIONS)
MODERN = frozenset(MODERN_VERSIONS)
ONLY_2025_11 = frozenset(["2025-11-25"])

# The protocol, one line per method. Each entry: (handler, where it runs,
# revisions that define it, capability it needs). Handlers are MCPServer
# methods. "reader" handlers are quick and never run user code; "worker"
# handlers run on the pool; "thread" handlers wait for something else to
# finish, so they get a thread of their own rather than a worker they could
# starve. Notification handlers take (session, params) and answer nothing.
METHODS = {
    # client -> server requests
    "initialize":               ("_on_initialize",      "reader", HANDSHAKE, None),
    "ping":                     ("_on_ping",            "reader", HANDSHAKE, None),
    "server/discover":          ("_on_discover",        "reader", MODERN, None),
    "tools/list":               ("_on_tools_list",      "reader", ALL_VERSIONS, "tools"),
    "tools/call":               ("_on_tools_call",      "worker", ALL_VERSIONS, "tools"),
    "resources/list":           ("_on_resources_list",  "reader", ALL_VERSIONS, "resources"),
    "resources/templates/list": ("_on_templates_list",  "reader", ALL_VERSIONS, "resources"),
    "resources/read":           ("_on_resources_read",  "worker", ALL_VERSIONS, "resources"),
    "resources/subscribe":      ("_on_subscribe",       "reader", HANDSHAKE, "resources"),
    "resources/unsubscribe":    ("_on_unsubscribe",     "reader", HANDSHAKE, "resources"),
    "prompts/list":             ("_on_prompts_list",    "reader", ALL_VERSIONS, "prompts"),
    "prompts/get":              ("_on_prompts_get",     "worker", ALL_VERSIONS, "prompts"),
    "completion/complete":      ("_on_complete",        "worker", ALL_VERSIONS, "completions"),
    "logging/setLevel":         ("_on_set_level",       "reader", HANDSHAKE, "logging"),
    "subscriptions/listen":     ("_on_listen",          "reader", MODERN, None),
    "tasks/get":                ("_on_tasks_get",       "reader", ONLY_2025_11 | MODERN, "tasks"),
    "tasks/result":             ("_on_tasks_result",    "thread", ONLY_2025_11, "tasks"),
    "tasks/list":               ("_on_tasks_list",      "reader", ONLY_2025_11, "tasks"),
    "tasks/cancel":             ("_on_tasks_cancel",    "reader", ONLY_2025_11 | MODERN, "tasks"),
    "tasks/update":             ("_on_tasks_update",    "reader", MODERN, "tasks"),
    # client -> server notifications
    "notifications/initialized":        ("_on_initialized",   "reader", HANDSHAKE, None),
    "notifications/cancelled":          ("_on_cancelled",     "reader", ALL_VERSIONS, None),
    "notifications/progress":           ("_on_ignored",       "reader", HANDSHAKE, None),
    "notifications/roots/list_changed": ("_on_roots_changed", "reader", HANDSHAKE, None),
    "notifications/tasks/status":       ("_on_ignored",       "reader", ONLY_2025_11, None),
}

# Server -> client messages, for the record (sent by Context and the session):
# requests ping, sampling/createMessage, roots/list, elicitation/create (handshake
# era; input requests in 2026-07-28); notifications progress, message,
# tools|resources|prompts/list_changed, resources/updated, elicitation/complete,
# subscriptions/acknowledged, tasks/status, cancelled.


class _Revision:
    """How one protocol revision behaves, as named rules.

    Code asks ``call.rev.batches`` rather than comparing version strings, so
    everything a revision changes in behaviour is read off ``_REVISION_RULES``.
    """
    RULES = ("sessions", "questions", "request_state", "result_envelope", "cache_hints", "batches",
             "progress_message", "completions", "argument_errors_as_results", "elicitation_modes",
             "elicitation_ids", "sampling_tools", "tasks", "missing_resource")
    __slots__ = ("version",) + RULES

    def __init__(self, version: str, rules: tuple) -> None:
        self.version = version
        for name, value in zip(self.RULES, rules):
            setattr(self, name, value)


class _TaskRules:
    """How one revision's tasks behave: 2025-11-25's tasks/* in the base protocol, or the
    2026-07-28 extension (SEP-2663). A task remembers the rules it was made under."""
    __slots__ = ("extension", "time_fields", "progress", "answered_flat", "is_error_fails", "announced",
                 "detailed_get", "cancel_acknowledges")

    def __init__(self, **rules) -> None:
        for name in self.__slots__:
            setattr(self, name, rules[name])


# extension: the client must declare it (-32021), the server declares it under extensions;
# time_fields: the names of a task's ttl and poll interval; progress: a task's progress
# notifications still flow; answered_flat: the call is answered with the task plus
# resultType "task" (else {"task": ...}); is_error_fails: an isError result makes the task
# failed; announced: "status" (notifications/tasks/status) or "listen" (notifications/tasks
# on subscriptions/listen streams); detailed_get: tasks/get includes input requests and
# result; cancel_acknowledges: tasks/cancel answers {} even for a finished task.
_CORE_TASKS = _TaskRules(extension=False, time_fields=("ttl", "pollInterval"), progress=True, answered_flat=False,
                         is_error_fails=True, announced="status", detailed_get=False, cancel_acknowledges=False)
_EXTENSION_TASKS = _TaskRules(extension=True, time_fields=("ttlMs", "pollIntervalMs"), progress=False,
                              answered_flat=True, is_error_fails=False, announced="listen", detailed_get=True,
                              cancel_acknowledges=True)

# Each column is one rule of _Revision.RULES:
#   sessions: the initialize handshake opens a session that remembers what the client said
#     (its roots, its log level) and can be resumed; else each request says it again, in its
#     _meta envelope (2026-07-28), and the server cannot ping the client;
#   questions: how the server asks the client something while a request runs: "requests"
#     (sampling/elicitation/roots requests on the connection) or "rounds" (an
#     input-required result, answered by retrying the request with inputResponses);
#   request_state: a retried request carries the signed requestState of its earlier rounds;
#   result_envelope: results carry resultType and the server's info in _meta;
#   cache_hints: lists, reads and discover carry ttlMs and cacheScope;
#   batches: JSON-RPC batches are accepted (2025-03-26 only);
#   progress_message: notifications/progress may carry a message;
#   completions: the completions capability exists;
#   argument_errors_as_results: invalid tool arguments are an isError result (SEP-1303),
#     not a -32602 error;
#   elicitation_modes: elicitation/create has mode (form/url) and elicitation/complete;
#   elicitation_ids: a URL-mode elicitation carries an elicitationId, for elicitation/complete;
#   sampling_tools: sampling/createMessage may offer tools;
#   tasks: None, or the _TaskRules of its tasks;
#   missing_resource: the error code for a resource that does not exist.
_HANDSHAKE_ERA = (True, "requests", False, False, False)
_STATELESS_ERA = (False, "rounds", True, True, True)
_REVISION_RULES = {
    #              era              batches progress compl. arg-errors elicit ids   sampling tasks
    "2024-11-05": _HANDSHAKE_ERA + (False, False,   False, False,     False, True,  False,   None,
                                    RESOURCE_NOT_FOUND),
    "2025-03-26": _HANDSHAKE_ERA + (True,  True,    True,  False,     False, True,  False,   None,
                                    RESOURCE_NOT_FOUND),
    "2025-06-18": _HANDSHAKE_ERA + (False, True,    True,  False,     False, True,  False,   None,
                                    RESOURCE_NOT_FOUND),
    "2025-11-25": _HANDSHAKE_ERA + (False, True,    True,  True,      True,  True,  True,    _CORE_TASKS,
                                    RESOURCE_NOT_FOUND),
    "2026-07-28": _STATELESS_ERA + (False, True,    True,  True,      True,  False, True,    _EXTENSION_TASKS,
                                    INVALID_PARAMS),
}
REVISIONS = {version: _Revision(version, rules) for version, rules in _REVISION_RULES.items()}
assert set(REVISIONS) == ALL_VERSIONS

# Where each revision differs in shape: the fields of a kind of object and the
# revision that introduced them (and, rarely, the last one that had them).
# Handlers build the newest shape; _trim() cuts it down.
_FIELD_SINCE = {
    "implementation": {"title": "2025-06-18", "description": "2025-11-25", "icons": "2025-11-25",
                       "websiteUrl": "2025-11-25"},
    "tool": {"annotations": "2025-03-26", "title": "2025-06-18", "outputSchema": "2025-06-18",
             "_meta": "2025-06-18", "icons": "2025-11-25", "execution": ("2025-11-25", "2025-11-25")},
    "resource": {"title": "2025-06-18", "_meta": "2025-06-18", "icons": "2025-11-25"},
    "prompt": {"title": "2025-06-18", "_meta": "2025-06-18", "icons": "2025-11-25"},
    "argument": {"title": "2025-06-18"},
    "annotations": {"lastModified": "2025-06-18"},
    "tool_result": {"structuredContent": "2025-06-18"},
    "block": {"_meta": "2025-06-18", "title": "2025-06-18", "icons": "2025-11-25"},
    "contents": {"_meta": "2025-06-18"},
    "server_capabilities": {"extensions": "2026-07-28"},
}
_BLOCK_SINCE = {"audio": "2025-03-26", "resource_link": "2025-06-18"}
TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
META_RELATED_TASK = "io.modelcontextprotocol/related-task"
_TERMINAL = frozenset(["completed", "failed", "cancelled"])
_CACHEABLE = frozenset(["server/discover", "tools/list", "prompts/list", "resources/list",
                        "resources/templates/list", "resources/read"])
# The requests whose handlers may ask the client something, so that a 2026-07-28 client
# retries them with requestState and inputResponses (opened in _Session._run), and the fields
# a retry must repeat for its requestState to hold: what is asked. Anything else the client
# adds is ignored, as the spec asks of what a server does not know.
_STATE_FIELDS = {"tools/call": ("name", "arguments", "task"), "resources/read": ("uri",),
                 "prompts/get": ("name", "arguments")}
_CARRIES_STATE = frozenset(_STATE_FIELDS)
_MISSING_FIELDS = {}         # (kind, version) -> the fields that revision lacks, computed once


def _available(since, version: str) -> bool:
    first, last = since if isinstance(since, tuple) else (since, None)
    return version >= first and (last is None or version <= last)


def _trim(kind: str, item: dict, version: str) -> dict:
    """``item`` without the fields revision ``version`` does not define (a new dict if any go)."""
    missing = _MISSING_FIELDS.get((kind, version))
    if missing is None:
        missing = _MISSING_FIELDS[kind, version] = frozenset(
            key for key, since in _FIELD_SINCE[kind].items() if not _available(since, version))
    if not missing or missing.isdisjoint(item):
        return item
    return {k: v for k, v in item.items() if k not in missing}


def _trim_annotated(kind: str, item: dict, version: str) -> dict:
    item = _trim(kind, item, version)
    annotations = item.get("annotations")
    if isinstance(annotations, dict):
        item = dict(item, annotations=_trim("annotations", annotations, version))
    return item


def _trim_block(block, version: str):
    """One content block shaped for a revision (never edited in place); blocks it lacks become text."""
    if not isinstance(block, dict):
        return block
    kind = block.get("type")
    if kind == "text" and len(block) == 2:
        return block                             # {"type": "text", "text": ...}: every revision has it
    since = _BLOCK_SINCE.get(kind)
    if since is not None and version < since:
        if kind == "resource_link":
            return {"type": "text", "text": "%s (%s)" % (block.get("uri", ""), block.get("name", ""))}
        return {"type": "text", "text": "[%s content (%s) is not supported by protocol %s]"
                                        % (kind, block.get("mimeType", "?"), version)}
    block = _trim_annotated("block", block, version)
    if kind == "resource" and isinstance(block.get("resource"), dict):
        block = dict(block, resource=_trim("contents", block["resource"], version))
    return block


def _shape_tool(item: dict, version: str) -> dict:
    return _trim("tool", item, version)


def _shape_resource(item: dict, version: str) -> dict:
    return _trim_annotated("resource", item, version)


def _shape_prompt(item: dict, version: str) -> dict:
    item = _trim("prompt", item, version)
    if "arguments" in item:
        item = dict(item, arguments=[_trim("argument", a, version) for a in item["arguments"]])
    return item


def _shaped(record, shape, version: str) -> dict:
    """A record's description for one revision, built once: large lists are listed often."""
    cache = record.__dict__.setdefault("_shaped", {})
    item = cache.get(version)
    if item is None:
        item = cache[version] = shape(record.describe(), version)
    return item


def _shape_tool_result(result: dict, version: str) -> dict:
    """A CallToolResult for one revision, as a new object: the tool's own value is never edited."""
    content = result.get("content", [])
    blocks = [_trim_block(b, version) for b in content]
    shaped = _trim("tool_result", result, version)
    if shaped is result and "content" in result and all(a is b for a, b in zip(blocks, content)):
        return result                             # nothing to cut: no copy needed
    return dict(shaped, content=blocks)


def _tool_error(message: str) -> dict:
    """A CallToolResult that reports a failure to the model."""
    return {"content": [{"type": "text", "text": message}], "isError": True}


_LAX_BOOLEANS = {"true": True, "t": True, "yes": True, "y": True, "on": True, "1": True,
                 "false": False, "f": False, "no": False, "n": False, "off": False, "0": False}


def _integral(text: str) -> bool:
    try:
        number = float(text)
    except ValueError:
        return False
    return number.is_integer() and abs(number) < 2 ** 53


def _lax_arguments(schema: dict, arguments: dict) -> dict:
    """Top-level arguments as pydantic's lax mode takes them: "3" and 3.0 for an integer, "1.5" for a
    number, "yes" or 1 for a boolean. Anything else is left for the validator to judge."""
    properties = schema.get("properties") or {}
    changed = {}
    for name, value in arguments.items():
        kind = (properties.get(name) or {}).get("type")
        if kind == "integer" and isinstance(value, str) and _integral(value):
            changed[name] = int(float(value))
        elif kind == "integer" and isinstance(value, float) and value.is_integer():
            changed[name] = int(value)
        elif kind == "number" and isinstance(value, str):
            try:
                changed[name] = float(value)
            except ValueError:
                pass
        elif kind == "boolean" and isinstance(value, (str, int)) and not isinstance(value, bool):
            key = value.strip().lower() if isinstance(value, str) else str(value)
            if key in _LAX_BOOLEANS:
                changed[name] = _LAX_BOOLEANS[key]
    return dict(arguments, **changed) if changed else arguments


def _missing_capability(declared: dict, needs: dict):
    """Name the capability in ``needs`` the client did not declare, or None."""
    for name, sub in needs.items():
        have = declared.get(name) if isinstance(declared, dict) else None
        if not isinstance(have, dict):
            return name
        for subname in sub:
            if name == "elicitation" and subname == "form" and not have:
                continue                        # an empty elicitation object means form mode
            if not isinstance(have.get(subname), dict):
                return "%s.%s" % (name, subname)
    return None


def _declares_extension(capabilities: dict, extension: str) -> bool:
    extensions = capabilities.get("extensions") if isinstance(capabilities, dict) else None
    return isinstance(extensions, dict) and extension in extensions


def _timestamp(seconds: float) -> str:
    """ISO 8601 in UTC with milliseconds, as task timestamps are written."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + ".%03dZ" % (int(seconds * 1000) % 1000)


def _page(items: list, cursor, page_size) -> dict:
    """One page of ``items`` as {"items": [...], "nextCursor"?}; cursors are "mm<offset>"."""
    start = 0
    if cursor not in (None, ""):
        if not isinstance(cursor, str) or not cursor.startswith("mm") or not cursor[2:].isdigit():
            raise _invalid_params("Invalid params: unknown cursor %r" % (cursor,))
        start = int(cursor[2:])
        if start > len(items):
            raise _invalid_params("Invalid params: the cursor %r is past the end of the list" % cursor)
    end = len(items) if not page_size else start + page_size
    result = {"items": items[start:end]}
    if end < len(items):
        result["nextCursor"] = "mm%d" % end
    return result


# 2026-07-28 requestState: earlier answers, sealed with the server's key ---------

def _params_digest(method: str, params: dict) -> str:
    import hashlib
    core = {k: params[k] for k in _STATE_FIELDS.get(method, ()) if k in params}
    return hashlib.sha256(json.dumps(core, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()


def _b64url(data: bytes) -> str:
    import base64
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64url(text: str) -> bytes:
    """Raises ValueError (binascii.Error is one) for text that is not base64url."""
    import base64
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _seal_state(signing_key: bytes, method: str, params: dict, ttl: float, keys: list, answers: dict) -> str:
    """Pack earlier answers (and the keys now asked) into a requestState only ``signing_key`` can make."""
    import hmac
    import hashlib
    payload = json.dumps({"m": method, "d": _params_digest(method, params), "x": int(time.time() + ttl), "k": keys,
                          "a": answers}, separators=(",", ":"), sort_keys=True).encode("utf-8")
    return _b64url(payload) + "." + _b64url(hmac.new(signing_key, payload, hashlib.sha256).digest())


def _open_state(signing_key, method: str, params: dict) -> dict:
    """The answers a retry carries, by key: its requestState checked, plus the new inputResponses.

    ``signing_key`` is called only for a request that carries state (most carry none).
    """
    state = params.get("requestState")
    responses = params.get("inputResponses")
    if responses is not None and not isinstance(responses, dict):
        raise _invalid_params("Invalid params: inputResponses must be an object")
    for name, answer in (responses or {}).items():
        if not isinstance(answer, dict):
            raise _invalid_params("Invalid params: inputResponses[%r] must be an object" % name)
    if state is None:
        return {}                              # answers to questions never asked are ignored
    if not isinstance(state, str) or state.count(".") != 1:
        raise _invalid_params("Invalid params: requestState is malformed")
    import hmac                                # only now: most requests carry no state
    import hashlib
    body, _, signature = state.partition(".")
    try:
        payload, mac = _unb64url(body), _unb64url(signature)
    except ValueError:
        raise _invalid_params("Invalid params: requestState is malformed") from None
    if not hmac.compare_digest(mac, hmac.new(signing_key(), payload, hashlib.sha256).digest()):
        raise _invalid_params("Invalid params: requestState was not issued by this server or was altered")
    data = json.loads(payload.decode("utf-8"))
    if data.get("m") != method or data.get("d") != _params_digest(method, params):
        raise _invalid_params("Invalid params: requestState belongs to a different request")
    if data.get("x", 0) < time.time():
        raise _invalid_params("Invalid params: requestState has expired; send the request again")
    answers, asked = data.get("a"), data.get("k")
    if not isinstance(answers, dict) or not isinstance(asked, list):
        raise _invalid_params("Invalid params: requestState is malformed")
    answers.update((key, responses[key]) for key in asked if key in (responses or {}))
    return answers


# Requests: the client behind one, the call serving it, how it was admitted #####

class _Peer:
    """The client behind a request: its revision, capabilities, self-description and log level.

    In the handshake era one peer per connection is made at ``initialize`` (and
    ``logging/setLevel`` changes it); in 2026-07-28 every request brings its own.
    """
    __slots__ = ("rev", "capabilities", "info", "log_level")

    def __init__(self, rev: _Revision, capabilities: dict = None, info: dict = None, log_level: str = None):
        self.rev, self.capabilities, self.info, self.log_level = rev, capabilities or {}, info or {}, log_level


_BEFORE_INITIALIZE = _Peer(REVISIONS[LATEST_HANDSHAKE_VERSION])      # serves ping before the handshake


def _version_refusal(requested, supported=PROTOCOL_VERSIONS) -> MCPError:
    """-32022 for a revision this request cannot be served under, saying how to reach one that can."""
    data = {"supported": list(supported)}
    if not isinstance(requested, str):          # never the string "None" for a missing version
        return MCPError(UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version: none was given", data)
    data["requested"] = requested
    if requested in HANDSHAKE:
        message = ("Protocol %s is a handshake revision: reach it through initialize, without the "
                   "2026-07-28 _meta envelope" % requested)
    else:
        message = "Unsupported protocol version %s" % requested
    return MCPError(UNSUPPORTED_PROTOCOL_VERSION, message, data)


def _envelope_peer(meta) -> _Peer:
    """The peer a 2026-07-28 request describes in its ``_meta`` envelope (nothing is remembered)."""
    if not isinstance(meta, dict):
        raise MCPError(INVALID_PARAMS, "Invalid params: params._meta is required (protocol 2026-07-28)")
    for key, kind in ((META_VERSION, str), (META_CLIENT_CAPS, dict)):
        if key not in meta:
            raise MCPError(INVALID_PARAMS, "Invalid params: params._meta is missing %s" % key)
        if not isinstance(meta[key], kind):
            raise MCPError(INVALID_PARAMS, "Invalid params: params._meta[%r] must be %s"
                           % (key, "a string" if kind is str else "an object"))
    requested = meta[META_VERSION]
    if requested not in MODERN:
        raise _version_refusal(requested)
    level = meta.get(META_LOG_LEVEL)
    if level is not None and (not isinstance(level, str) or level not in _LOG_RANK):
        raise MCPError(INVALID_PARAMS, "Invalid params: unknown log level %r" % (level,))
    info = meta.get(META_CLIENT_INFO)
    return _Peer(REVISIONS[requested], meta[META_CLIENT_CAPS], info if isinstance(info, dict) else None, level)


class _Waiter:
    """One of our own requests to the client, waiting for its answer."""
    __slots__ = ("request_id", "event", "answered", "result", "error")

    def __init__(self, request_id=None) -> None:
        self.request_id = request_id
        self.event = threading.Event()      # set by the answer, or by the call's cancellation
        self.answered = False
        self.result = None
        self.error = None


class _Call:
    """One client request being served: its session, its peer, and its cancellation state.

    It is made after admission, so it is born knowing its revision (``rev``).
    """

    def __init__(self, session: "_Session", request_id, method: str, params: dict, peer: _Peer,
                 batch: "_Batch" = None) -> None:
        self.session, self.id, self.key = session, request_id, _id_key(request_id)
        self.method, self.params, self.peer, self.rev = method, params, peer, peer.rev
        meta = params.get("_meta")
        self.meta = meta if isinstance(meta, dict) else {}
        token = self.meta.get("progressToken")
        self.progress_token = token if _valid_id(token) else None
        self.cancelled = False
        self.cancel_reason = None
        self._event = None
        self.done = False            # a response was sent, or will never be (cancelled)
        self.batch = batch
        self.answers = {}            # 2026-07-28: answers to earlier questions, by key
        self.asked = 0               # questions the handler has asked so far in this run
        self.on_cancel = []          # what cancel() runs: wake an Event, cancel a coroutine...
        self.task = None             # the _Task this call runs for, if any
        self.task_ttl = None         # set while ctx.start_task() may still make this call a task
        self.promoted = None         # the inner call of the task this call became

    @property
    def cancel_event(self) -> threading.Event:
        """An Event set on cancellation, made only for handlers that wait on one."""
        if self._event is None:
            self._event = threading.Event()
            self.on_cancel.append(self._event.set)
            if self.cancelled:                 # cancel() may have run before the line above
                self._event.set()
        return self._event

    def cancel(self, reason: str) -> None:
        """Signal the handler; wake anything it waits on."""
        self.cancel_reason = reason
        self.cancelled = True
        for callback in list(self.on_cancel):
            try:
                callback()
            except Exception:       # a callback must not break cancellation
                pass


class _Admission:
    """What a session made of one message a transport handed it; the transport maps it to its wire.

    The session decides; a transport only reads this. stdio writes a refusal as a
    line (and nothing for a refused notification, as JSON-RPC says); HTTP turns it
    into a status and a body, or waits on ``stream`` for the answer.

    Attributes:
        refusal: an error response to send now, instead of any answer (None: none).
        malformed: the refusal is of the message itself, before it was a request of
            any revision (not an object, a forbidden batch, headers that contradict the body).
        unanswered: the refusal is of a notification or an answer: JSON-RPC sends nothing back.
        route: the id key the answer will be written for (None: no answer follows).
        stream: what the writer's ``open(route)`` gave for it, if the writer has streams.
        request_id: the request's id, for a transport that cancels it when its stream goes.
        stateless: the message was served (or refused) outside any lasting session: nothing
            outlives the answer, so a transport may map an error to its own status.
    """
    __slots__ = ("refusal", "malformed", "unanswered", "route", "stream", "request_id", "stateless")

    def __init__(self) -> None:
        self.refusal = self.route = self.stream = self.request_id = None
        self.malformed = self.unanswered = self.stateless = False

    def refuse(self, request_id, code: int, message: str, data=None, malformed: bool = False) -> None:
        self.refusal, self.malformed = _error(request_id, code, message, data), malformed


HEADER_MISMATCH = -32020
# Where Mcp-Name comes from in the body (SEP-2663 routing headers).
_NAMED_BY = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri",
             "tasks/get": "taskId", "tasks/update": "taskId", "tasks/cancel": "taskId"}


def _mirrored_arguments(schema: dict, arguments, depth: int = 0):
    """(header name, argument value or None) for every property marked ``x-mcp-header``; arguments may be any JSON."""
    for name, prop in (schema.get("properties") or {}).items() if isinstance(schema, dict) else ():
        if not isinstance(prop, dict):
            continue
        value = arguments.get(name) if isinstance(arguments, dict) else None
        if isinstance(prop.get("x-mcp-header"), str):
            yield prop["x-mcp-header"], value
        elif "properties" in prop and depth < 8:
            yield from _mirrored_arguments(prop, value, depth + 1)


def _same_header_value(sent, value) -> bool:
    if sent is None or value is None:
        return sent is None and value is None
    if isinstance(value, bool):
        return sent == ("true" if value else "false")
    if isinstance(value, int):
        try:
            return float(sent) == value
        except ValueError:
            return False
    return sent == value


def _header_value(raw):
    """A header as sent, with the ``=?base64?...?=`` sentinel decoded (None if undecodable)."""
    if raw is None or not (raw.startswith("=?base64?") and raw.endswith("?=")):
        return raw
    import base64
    import binascii
    try:
        return base64.b64decode(raw[9:-2], validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return None


class _Batch:
    """Collects the responses of one JSON-RPC batch (2025-03-26) and writes them together."""

    def __init__(self, session: "_Session", expected: int, key) -> None:
        self.session = session
        self.key = key                   # the first request's id key: where an HTTP batch is answered
        self.expected = expected
        self.responses = []
        self.lock = threading.Lock()

    def add(self, response) -> None:
        with self.lock:
            if response is not None:
                self.responses.append(response)
            self.expected -= 1
            finished = self.expected == 0
        if finished and self.responses:
            self.session.write(self.responses, via=self)


# Tasks: a call that runs on, polled and cancelled by its id (2025-11-25, SEP-2663) ####
#
# A tool call becomes a task when the client asks (2025-11-25's params.task, or the
# 2026-07-28 extension) and the tool allows it (task_support), or when its handler calls
# ctx.start_task(). The call is answered with the task at once and runs on as the task's
# inner call; tasks/get, tasks/result, tasks/list, tasks/cancel and tasks/update reach it
# by id. How each revision's tasks behave is its _TaskRules (protocol tables); a task keeps
# the rules it was made under. The session's side is _SessionTasks, which _Session inherits.

class _Task:
    """A tools/call running as a task (2025-11-25 core tasks, 2026-07-28 extension)."""

    def __init__(self, call: _Call, ttl_ms) -> None:
        import secrets
        self.id = secrets.token_urlsafe(24)           # unguessable: stdio has no auth context
        self.call = call
        self.rules = call.rev.tasks               # the rules it was made under, for its lifetime
        self.status = "working"
        self.message = None
        self.created = self.updated = time.time()
        self.ttl_ms = ttl_ms
        self.poll_ms = 500            # what clients are told to wait between polls
        self.result = None            # the CallToolResult, once completed
        self.error = None             # the JSON-RPC error object, once failed
        self.finished = threading.Event()
        self.input_requests = {}      # 2026-07-28: key -> {method, params} still unanswered
        self.input_answers = {}
        self.input_count = 0
        self.answered = threading.Condition()

    def describe(self) -> dict:
        """The Task object in the field names of this task's era."""
        task = {"taskId": self.id, "status": self.status, "createdAt": _timestamp(self.created),
                "lastUpdatedAt": _timestamp(self.updated), self.rules.time_fields[0]: self.ttl_ms,
                self.rules.time_fields[1]: self.poll_ms}
        if self.message:
            task["statusMessage"] = self.message
        return task

    def detailed(self) -> dict:
        """2026-07-28 DetailedTask: the task plus its result, error or open questions."""
        task = self.describe()
        if self.status == "completed" and self.result is not None:
            task["result"] = self.result
        elif self.status == "failed" and self.error is not None:
            task["error"] = self.error
        elif self.status == "input_required":
            task["inputRequests"] = dict(self.input_requests)
        return task

    def expired(self, now: float) -> bool:
        return self.status in _TERMINAL and self.ttl_ms is not None and now > self.created + self.ttl_ms / 1000.0


def _task_ttl(call: _Call, tool: Tool, ttl_cap):
    """Apply the task rules of the call's revision: False to run the tool plainly, else the task's ttl."""
    if tool.task_support == "forbidden" and call.params.get("task") is None:
        return False                           # no task asked of a tool that has none (most calls)
    if call.rev.tasks is None:
        return False                           # no tasks before 2025-11-25: the field is ignored
    if call.rev.tasks.extension:
        declared = _declares_extension(call.peer.capabilities, TASKS_EXTENSION)
        if tool.task_support == "required" and not declared:
            raise MCPError(MISSING_CLIENT_CAPABILITY, "tool %s runs only as a task: declare the %s extension"
                           % (tool.name, TASKS_EXTENSION),
                           {"requiredCapabilities": {"extensions": {TASKS_EXTENSION: {}}}})
        return ttl_cap if declared and tool.task_support != "forbidden" else False
    requested = call.params.get("task")
    if requested is not None and not isinstance(requested, dict):
        raise _invalid_params("Invalid params: task must be an object")
    if requested is not None and tool.task_support == "forbidden":
        raise MCPError(METHOD_NOT_FOUND, "tool %s does not support task execution" % tool.name)
    if requested is None and tool.task_support == "required":
        raise MCPError(METHOD_NOT_FOUND, "tool %s must be called as a task (params.task)" % tool.name)
    if requested is None:
        return False
    ttl = requested.get("ttl")
    if not isinstance(ttl, int) or isinstance(ttl, bool) or ttl < 0:
        return ttl_cap
    return ttl if ttl_cap is None else min(ttl, ttl_cap)


# The handlers of the tasks/* methods (_Protocol names them) ---------------------------

def _tasks_get(server: "MCPServer", call: _Call) -> dict:
    task = call.session.find_task(call)
    return task.detailed() if task.rules.detailed_get else task.describe()

def _tasks_result(server: "MCPServer", call: _Call) -> dict:
    """Block (on a thread of its own) until the task ends, then answer as the call would have."""
    return call.session.task_result(call.session.find_task(call), call)

def _tasks_list(server: "MCPServer", call: _Call) -> dict:
    tasks = [t for t in call.session.live_tasks() if t.rules is call.rev.tasks]
    result = _page(tasks, call.params.get("cursor"), server.page_size)
    result["tasks"] = [t.describe() for t in result.pop("items")]
    return result

def _tasks_cancel(server: "MCPServer", call: _Call) -> dict:
    task = call.session.find_task(call)
    if not call.session.cancel_task(task) and not task.rules.cancel_acknowledges:
        raise _invalid_params("Invalid params: task %s is already %s" % (task.id, task.status))
    return {} if task.rules.cancel_acknowledges else task.describe()

def _tasks_update(server: "MCPServer", call: _Call) -> dict:
    task = call.session.find_task(call)
    responses = call.params.get("inputResponses")
    if not isinstance(responses, dict) or not all(isinstance(v, dict) for v in responses.values()):
        raise _invalid_params("Invalid params: inputResponses must be an object of objects")
    call.session.answer_task(task, responses)
    return {}


class _SessionTasks:
    """The tasks of one connection (2025-11-25 core tasks, the 2026-07-28 extension).

    _Session inherits these: they use its ``tasks`` table, ``lock``, ``write`` and
    ``respond``, and its listen streams to announce a task's changes.
    """

    def find_task(self, call: _Call) -> _Task:
        """The task ``call.params.taskId`` names, if this connection made it in this era.

        Where tasks are an extension, a client that did not declare it is refused first (-32021).
        """
        if call.rev.tasks is not None and call.rev.tasks.extension and \
                not _declares_extension(call.peer.capabilities, TASKS_EXTENSION):
            raise MCPError(MISSING_CLIENT_CAPABILITY, "%s needs the %s extension in the request's client "
                           "capabilities" % (call.method, TASKS_EXTENSION),
                           {"requiredCapabilities": {"extensions": {TASKS_EXTENSION: {}}}})
        task_id = call.params.get("taskId")
        if not isinstance(task_id, str):
            raise _invalid_params("Invalid params: taskId must be a string")
        self.live_tasks()
        task = self.tasks.get(task_id)
        if task is None or task.rules is not call.rev.tasks:     # a task of the other era is unknown here
            raise _invalid_params("Invalid params: unknown task %s" % task_id)
        return task

    def live_tasks(self) -> list:
        """This connection's tasks, once those whose ttl has passed are forgotten (bounded memory)."""
        now = time.time()
        for stale in [t for t in list(self.tasks.values()) if t.expired(now)]:
            self.tasks.pop(stale.id, None)
        return list(self.tasks.values())

    def open_task(self, call: _Call, ttl) -> _Call:
        """Answer ``call`` with a new task now; the inner call the task runs as from here on."""
        inner = _Call(self, call.id, call.method, call.params,
                      _Peer(call.rev, call.peer.capabilities, call.peer.info,
                            call.peer.log_level if call.rev.sessions else None))
        if not call.rev.tasks.progress:
            inner.progress_token = None
        task = inner.task = _Task(inner, ttl)
        self.tasks[task.id] = task
        call.task_ttl, call.promoted = None, inner
        self.respond(call, dict(task.describe(), resultType="task") if task.rules.answered_flat
                     else {"task": task.describe()})
        self.step_aside()                         # a task is long by nature: keep the pipe read
        return inner

    def run_task(self, call: _Call, ttl, execute, deferred: bool = False) -> None:
        """Run ``execute(call)`` as a task of ``call``, answering ``call`` with the task first.

        ``deferred``: the task is made only when the handler calls ``ctx.start_task()``, so
        it can ask its questions through input-required rounds before (SEP-2663); a
        handler that never calls it answers ``call`` as a plain call would.
        """
        if deferred:
            call.task_ttl = ttl
        target = call if deferred else self.open_task(call, ttl)
        try:
            result = execute(target)
        except (MCPError, Cancelled) as exc:
            if call.promoted is None:
                raise
            error = exc.to_error() if isinstance(exc, MCPError) else None
            self.finish_task(call.promoted.task, "failed" if error else "cancelled", error=error)
            return
        if call.promoted is None:
            self.respond(call, result)
            return
        task = call.promoted.task
        failed = result.get("isError") and task.rules.is_error_fails
        self.finish_task(task, "failed" if failed else "completed", result=result)

    def set_task_status(self, task: _Task, status: str, message: str = None) -> bool:
        with self.lock:
            if task.status in _TERMINAL:
                return False
            task.status, task.message, task.updated = status, message, time.time()
        self._announce_task(task)
        return True

    def finish_task(self, task: _Task, status: str, result: dict = None, error: dict = None) -> None:
        with self.lock:
            if task.status in _TERMINAL:              # cancelled first: keep it cancelled
                task.finished.set()
                return
            task.status, task.result, task.error, task.updated = status, result, error, time.time()
            if status == "failed" and error is not None:
                task.message = error.get("message")
            task.call.done = True                     # no progress after the task ends
        task.finished.set()
        self._announce_task(task)

    def task_result(self, task: _Task, call: _Call) -> dict:
        """Wait for the task to end (or ``call`` to be cancelled); its result, as the call would have had."""
        while not task.finished.wait(0.1):
            if call.cancelled:
                raise Cancelled(call.cancel_reason or "cancelled")
        if task.result is not None:              # completed, or failed through isError
            meta = dict(task.result.get("_meta") or {}, **{META_RELATED_TASK: {"taskId": task.id}})
            return dict(task.result, _meta=meta)
        error = task.error or {"code": INTERNAL_ERROR, "message": "the task was cancelled"}
        raise MCPError(error["code"], error["message"], error.get("data"))

    def answer_task(self, task: _Task, responses: dict) -> None:
        """2026-07-28 tasks/update: hand the answers to the questions the task is waiting on.

        The task stays ``input_required`` while any question is open; ``tasks/get`` lists those.
        """
        with task.answered:
            for key, answer in responses.items():
                if task.input_requests.pop(key, None) is not None:   # unknown or answered keys: ignored
                    task.input_answers[key] = answer
            settled = not task.input_requests
            task.answered.notify_all()
        if settled and task.status == "input_required":
            self.set_task_status(task, "working")

    def cancel_task(self, task: _Task) -> bool:
        """Cancel a running task; False if it had already ended."""
        if not self.set_task_status(task, "cancelled", "cancelled by the client"):
            return False
        with self.lock:
            task.call.done = True
        task.call.cancel("the task was cancelled")
        with task.answered:
            task.answered.notify_all()
        return True

    def _announce_task(self, task: _Task) -> None:
        if task.rules.announced == "status":
            self.write(_notification("notifications/tasks/status", task.describe()))
            return
        for call, wanted in list(self.listens.values()):
            if task.id in (wanted.get("taskIds") or ()):
                self.notify_listener(call, "notifications/tasks", task.detailed())

    def _ask_in_task(self, call: _Call, questions: list, timeout) -> dict:
        """2026-07-28 task: publish the questions on the task, and wait until tasks/update answers all."""
        task = call.task
        minted = {}
        with task.answered:
            for question in questions:          # keys are unique for the task's lifetime
                task.input_count += 1
                minted[question.key] = "%s-%d" % (question.key, task.input_count)
                task.input_requests[minted[question.key]] = {"method": question.method, "params": question.params}
        self.set_task_status(task, "input_required")
        deadline = time.monotonic() + (self.server.request_timeout if timeout is None else timeout)
        with task.answered:
            while not all(key in task.input_answers for key in minted.values()):
                left = deadline - time.monotonic()
                if call.cancelled:
                    raise Cancelled(call.cancel_reason or "cancelled")
                if left <= 0:
                    for key in minted.values():
                        task.input_requests.pop(key, None)
                    raise MCPError(INTERNAL_ERROR, "no answer to %s arrived in time"
                                   % ", ".join(q.method for q in questions))
                task.answered.wait(min(left, 0.25))
            return {asked: task.input_answers.pop(key) for asked, key in minted.items()}


# The session: one connection, its calls and our questions to its client ######

class _Session(_SessionTasks):
    """One connection to one client: the stdio pipe, one TestClient, one HTTP session.

    It owns what belongs to that client and nothing that is registered: the era
    the connection committed to and the client (``peer``), the calls in flight,
    our own requests to the client and their waiters, subscriptions, listen
    streams and tasks. It asks its ``server`` (the registry) for handlers and
    capabilities. Every message out goes through ``write``, the one place where
    "mark done, then answer exactly once" is decided, under ``lock``.
    """

    def __init__(self, server: "MCPServer", out, auth=None, one_of_many: bool = False) -> None:
        # The lifespan: once per process, entered before the first request (under WSGI: at its
        # first). A dialect whose SDK entered it per session (mcp 1.x) does so for a session of
        # a transport serving many clients at once (one_of_many: HTTP), once it opens the
        # handshake era; the process's own is then entered only for the stateless era.
        self.own_lifespan = None
        self.lifespan_per_session = one_of_many and server.dialect.lifespan_per_session
        if not self.lifespan_per_session:
            server._enter_lifespan()
        self.server = server
        self.out = out                 # a _LineWriter: put(bytes) -> flusher? (who calls drain()), closed, wait_idle()
        self.auth = auth               # who the transport says the client is (HTTP's auth hook); ctx.auth
        self.era = None                # None, "handshake" or "modern": what the connection committed to
        self.peer = None               # handshake era: the client, from initialize
        self.initialized = False
        self.subscriptions = set()     # handshake era: URIs of resources/subscribe
        self.roots = None              # handshake era: the last roots/list answer
        self.inflight = {}             # id key -> _Call, until its response is queued
        self.pending = {}              # id key of our request -> _Waiter
        self.listens = {}              # 2026-07-28: id key -> (call, agreed notifications)
        self.tasks = {}                # task id -> _Task, only this connection's
        self.last_envelope = None      # 2026-07-28: (the last envelope's fields, its peer)
        self.next_id = 0
        self.stopped = False
        self.lock = threading.Lock()
        # How a worker-bound call is run: on the shared pool, unless the transport
        # has a better way (the stdio reader runs it itself after passing reading on).
        self.dispatch = lambda call, job: server._submit(job)
        self.step_aside = lambda: None     # the stdio reader's: a handler about to wait gives up reading

    # -- reading: one line, one message ---------------------------------------
    def feed(self, line: bytes) -> None:
        """Take one input line: a message, a batch, or something to refuse."""
        if line[:1] in (b" ", b"\t", b"\r", b"\n") and not line.strip():
            return                                 # blank lines are ignored (strip only these)
        message, problem = _decode_line(line)
        if problem is not None:
            self.write(problem)
            return
        admission = self.take(message)
        if admission.refusal is not None and not admission.unanswered:
            self.write(admission.refusal, refused=admission.route)

    def take(self, message, headers: dict = None) -> _Admission:
        """Take one parsed message or batch; what became of it (the transport sends any refusal).

        ``headers``: HTTP's ``mcp-*`` request headers (lower-case names, values as sent),
        which must agree with the body and the session; None where there are none (stdio).
        """
        admission = _Admission()
        if isinstance(message, list):
            self._on_batch(message, admission, headers)
        else:
            self._on_message(message, None, admission, headers)
        admission.stateless = not self.lasting
        return admission

    @property
    def lasting(self) -> bool:
        """The session outlives its messages: ``initialize`` opened it (the handshake era)."""
        return self.era == "handshake" and self.peer is not None

    def resume(self, peer: _Peer) -> None:
        """Serve, from now on, a handshake session another connection opened (HTTP replicas)."""
        if not peer.rev.sessions:
            raise ValueError("protocol %s has no sessions to resume" % peer.rev.version)
        self.peer, self.era, self.initialized = peer, "handshake", True
        self._enter_own_lifespan()

    # What the handlers and the reader tell a session; only the session writes its state.
    def begin_handshake(self, peer: _Peer) -> None:
        """``initialize`` was answered: serve the handshake era under ``peer`` from now on."""
        self.peer, self.era = peer, "handshake"
        self._enter_own_lifespan()

    def _enter_own_lifespan(self) -> None:
        if self.lifespan_per_session and self.own_lifespan is None and self.server._lifespan is not None:
            self.own_lifespan = _Lifespan(self.server._lifespan.factory, per_session=True)
            self.own_lifespan.enter(self.server)

    def mark_initialized(self) -> None:
        """``notifications/initialized`` came after an ``initialize``."""
        if self.peer is not None:
            self.initialized = True

    def remember_roots(self, roots) -> None:
        """The client's roots, kept until it says they changed (``None``: ask again)."""
        self.roots = None if roots is None else list(roots)

    def read_by(self, reader) -> None:
        """A reader (the stdio _ReadLoop) runs this session's calls: dispatch and step aside through it."""
        self.dispatch, self.step_aside = reader.dispatch, reader.step_aside

    def _on_batch(self, messages: list, admission: _Admission, headers) -> None:
        refusal = self._check_headers(None, None, headers) if headers is not None else None
        if refusal is not None:
            admission.refuse(None, *refusal)
        elif not (self.era == "handshake" and self.peer.rev.batches):
            admission.refuse(None, INVALID_REQUEST, "Invalid Request: JSON-RPC batches are only allowed "
                                                    "after negotiating protocol 2025-03-26", malformed=True)
        elif not messages:
            admission.refuse(None, INVALID_REQUEST, "Invalid Request: empty batch", malformed=True)
        elif any(isinstance(m, dict) and m.get("method") == "initialize" for m in messages):
            admission.refuse(None, INVALID_REQUEST, "Invalid Request: initialize must not be batched", malformed=True)
        else:
            expecting = sum(1 for m in messages if _expects_response(m))
            batch = _Batch(self, expecting, None) if expecting else None
            if batch is not None:                  # its own stream key: ids inside may repeat one in flight
                batch.key = admission.route = ("batch", id(batch))
                admission.stream = self._open_stream(batch.key)
            for message in messages:
                self._on_message(message, batch)

    def _open_stream(self, key):
        """The writer's stream for the answer to ``key``, opened before anything can be written to it."""
        opener = getattr(self.out, "open", None)     # only writers with a stream per request have one
        return opener(key) if opener is not None else None

    def _reply_error(self, batch, request_id, code, message, data=None, admission=None, malformed=False) -> None:
        if batch is not None:
            batch.add(_error(request_id, code, message, data))
        elif admission is not None:
            admission.refuse(request_id, code, message, data, malformed)
            admission.route = _id_key(request_id) if request_id is not None else None
        else:
            self.write(_error(request_id, code, message, data),
                       refused=_id_key(request_id) if request_id is not None else None)

    def _on_message(self, message, batch, admission: _Admission = None, headers=None) -> None:
        """Classify one message: a request, a notification, or the client's answer to us."""
        if not isinstance(message, dict):
            self._reply_error(batch, None, INVALID_REQUEST, "Invalid Request: a JSON-RPC message must be an "
                              "object, not %s" % _json_type(message), admission=admission, malformed=True)
            return
        has_id, request_id = "id" in message, message.get("id")
        valid_id = _valid_id(request_id)
        reply_id = request_id if valid_id else None
        if "method" not in message:
            if has_id and ("result" in message or "error" in message):
                self._on_client_response(message)
            else:
                self._reply_error(batch, reply_id, INVALID_REQUEST, "Invalid Request: the message has no method",
                                  admission=admission, malformed=True)
            return
        method, params = message["method"], message.get("params")
        if params is None:
            params = {}
        refusal = None
        if message.get("jsonrpc") != "2.0":
            refusal = (reply_id, INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"', None, True)
        elif not isinstance(method, str):
            refusal = (reply_id, INVALID_REQUEST, "Invalid Request: method must be a string", None, True)
        elif has_id and not valid_id:
            refusal = (None, INVALID_REQUEST, "Invalid Request: id must be a string or an integer, not %s"
                       % _json_type(request_id), None, True)
        elif headers is not None:
            refusal = self._check_headers(method, params, headers, message if has_id else None)
            if refusal is not None:
                refusal = (reply_id,) + refusal
        if refusal is None and not has_id:
            problem = self._on_notification(method, params)
            if problem is not None and admission is not None:
                admission.refuse(None, INVALID_REQUEST, problem, malformed=True)
                admission.unanswered = True
            return
        if refusal is not None:
            pass
        elif method.startswith("notifications/"):
            refusal = (request_id, METHOD_NOT_FOUND, "Method not found: %s is a notification, not a request "
                                                     "(send it without an id)" % method)
        elif not isinstance(params, dict):
            refusal = (request_id, INVALID_PARAMS, "Invalid params: params must be an object")
        elif _id_key(request_id) in self.inflight:
            refusal = (request_id, INVALID_REQUEST, "Invalid Request: id %s is already in use by a request in "
                                                    "flight" % json.dumps(request_id))
        if refusal is not None:
            self._reply_error(batch, *refusal[:4], admission=admission, malformed=len(refusal) > 4 and refusal[4])
            return
        self._start_request(method, params, request_id, batch, admission)

    def _start_request(self, method: str, params: dict, request_id, batch, admission: _Admission) -> None:
        """A well-formed request: admit it, and run its handler where METHODS says."""
        try:
            peer, (handler, where, _, _) = self._admit(method, params)
        except MCPError as exc:
            self._reply_error(batch, request_id, exc.code, exc.message, exc.data, admission)
            return
        call = _Call(self, request_id, method, params, peer, batch)
        handler = getattr(self.server, handler)
        if admission is not None:              # the answer's stream exists before anything is written to it
            admission.route, admission.request_id = call.key, request_id
            admission.stream = self._open_stream(call.key)
        if where == "reader":
            self._run(call, handler)
            return
        self.inflight[call.key] = call
        if where == "thread":
            threading.Thread(target=self._run, args=(call, handler), daemon=True).start()
        else:
            self.dispatch(call, lambda: self._run_queued(call, handler))

    def _admit(self, method: str, params: dict):
        """Decide the peer (and so the revision) a request is served under; MCPError refuses it.

        The one place where the two eras meet: ``server/discover`` is answered at any
        time without committing the connection; ``initialize`` commits it to the
        handshake era; the first other request carrying the 2026-07-28 envelope
        commits it to the modern era. Returns (peer, METHODS entry).
        """
        entry = METHODS.get(method)
        if entry is None:
            raise MCPError(METHOD_NOT_FOUND, "Method not found: %s" % method)
        meta = params.get("_meta")
        enveloped = isinstance(meta, dict) and (META_VERSION in meta or META_CLIENT_CAPS in meta)
        if method == "server/discover" or (enveloped and method != "initialize"):
            if self.era == "handshake" and method != "server/discover":
                raise MCPError(INVALID_REQUEST, "Invalid Request: this connection was opened with initialize "
                                                "(protocol %s); requests must not carry the 2026-07-28 _meta "
                                                "envelope" % self.peer.rev.version)
            peer = self._peer_for_envelope(meta)
            if method != "server/discover":
                self.era = "modern"
                if self.lifespan_per_session:       # the stateless era has no session to run it for
                    self.server._enter_lifespan()
        elif method == "initialize":
            requested = params.get("protocolVersion")
            if self.era == "modern":
                refusal = _version_refusal(requested, MODERN_VERSIONS[::-1])
                raise MCPError(refusal.code, "this connection uses protocol 2026-07-28 (stateless); "
                               "initialize is not part of it", refusal.data)
            peer = _Peer(REVISIONS[requested if isinstance(requested, str) and requested in HANDSHAKE
                                   else LATEST_HANDSHAKE_VERSION])
        elif self.era == "handshake":
            peer = self.peer
        elif method == "ping" and self.era is None:
            peer = _BEFORE_INITIALIZE
        elif self.era == "modern":
            raise MCPError(INVALID_PARAMS, "Invalid params: params._meta must carry %s and %s (protocol "
                                           "2026-07-28)" % (META_VERSION, META_CLIENT_CAPS))
        else:
            raise MCPError(INVALID_PARAMS, "Invalid params: the server is not initialized; send initialize "
                                           "first (protocol 2025-11-25 and older) or put %s and %s in "
                                           "params._meta (protocol 2026-07-28)" % (META_VERSION, META_CLIENT_CAPS))
        capability = entry[3]
        if peer.rev.version not in entry[2]:
            raise MCPError(METHOD_NOT_FOUND, "Method not found: %s is not part of protocol %s"
                           % (method, peer.rev.version))
        if capability and not self.server._offers(capability):
            raise MCPError(METHOD_NOT_FOUND, "Method not found: %s (this server offers no %s)"
                           % (method, capability))
        return peer, entry

    def _peer_for_envelope(self, meta) -> _Peer:
        """The peer of a 2026-07-28 envelope; the same envelope again gets the same (unchanging) peer.

        A client repeats one envelope on every request, and checking it costs more
        than comparing it with the last one. Peers of this era are never changed.
        """
        if not isinstance(meta, dict):
            return _envelope_peer(meta)
        fields = (meta.get(META_VERSION), meta.get(META_CLIENT_CAPS), meta.get(META_CLIENT_INFO),
                  meta.get(META_LOG_LEVEL))
        last = self.last_envelope
        if last is not None and last[0] == fields:
            return last[1]
        peer = _envelope_peer(meta)
        self.last_envelope = (fields, peer)
        return peer

    def refuses_headers(self, headers: dict):
        """(code, message, data, malformed) if a transport's headers do not fit this session, else None.

        For what carries no message (HTTP GET and DELETE): only the revision is checked.
        """
        return self._check_headers(None, None, headers)

    def _check_headers(self, method, params, headers: dict, request: dict = None):
        """HTTP: the ``mcp-*`` headers agree with this session and the body; else (code, message, data, malformed).

        ``method`` is None for a batch (only the version header is checked for one);
        ``request`` is the message if it is a request. A session opened by
        ``initialize`` takes any handshake revision in MCP-Protocol-Version. Outside
        one, ``initialize`` opens one; otherwise the header (or, without it, the
        body's ``_meta``) must say 2026-07-28, whose requests mirror their method and
        name in Mcp-Method and Mcp-Name (SEP-2243, SEP-2663).
        """
        version = headers.get("mcp-protocol-version")
        if self.lasting:
            if version is not None and version not in HANDSHAKE:
                return (INVALID_REQUEST, "Bad Request: MCP-Protocol-Version %s is not a revision of this "
                        "session's era (it speaks %s)" % (version, self.peer.rev.version), None, True)
            return None
        meta = params.get("_meta") if isinstance(params, dict) else None
        meta = meta if isinstance(meta, dict) else {}
        if method == "initialize" and version not in MODERN:
            return None                              # opens a session: _admit and the handler decide the rest
        if version in MODERN or (version is None and META_VERSION in meta):
            return self._check_modern_headers(method, params, meta, headers, request)
        if version is not None and version not in ALL_VERSIONS:
            refusal = _version_refusal(version)
            return refusal.code, refusal.message, refusal.data, True
        return (INVALID_REQUEST, "Bad Request: no Mcp-Session-Id; send initialize first (protocol 2025-11-25 "
                "and older) or the 2026-07-28 _meta envelope and MCP-Protocol-Version header", None, True)

    def _check_modern_headers(self, method, params, meta: dict, headers: dict, request):
        version = headers.get("mcp-protocol-version")
        if method is None:
            return (INVALID_REQUEST, "Invalid Request: one JSON-RPC message per POST (no batches in protocol "
                    "2026-07-28)", None, True)
        if version is None:
            return HEADER_MISMATCH, "Header mismatch: the MCP-Protocol-Version header is missing", None, True
        if META_VERSION in meta and meta[META_VERSION] != version:
            return (HEADER_MISMATCH, "Header mismatch: MCP-Protocol-Version %r does not match _meta %r"
                    % (version, meta[META_VERSION]), None, True)
        if request is None:
            return None                              # notifications: no header rules in this revision
        try:                                         # server/discover too: RequestParams requires _meta
            _envelope_peer(params.get("_meta") if isinstance(params, dict) else None)
        except MCPError as exc:                      # a malformed envelope is a bad request, not a result
            return exc.code, exc.message, exc.data, True
        sent = _header_value(headers.get("mcp-method"))
        if sent != method:
            return (HEADER_MISMATCH, "Header mismatch: Mcp-Method %r does not match the body's method %r"
                    % (sent, method), None, True)
        if method == "initialize":                   # the header chose 2026-07-28, which has no initialize
            return (METHOD_NOT_FOUND, "Method not found: initialize is not part of protocol 2026-07-28; to open "
                    "a 2025-11-25 session, send it without the 2026-07-28 MCP-Protocol-Version header and _meta "
                    "envelope", None, False)
        field = _NAMED_BY.get(method)
        if field is not None:
            name = _header_value(headers.get("mcp-name"))
            if name != params.get(field):
                return (HEADER_MISMATCH, "Header mismatch: Mcp-Name %r does not match the body's %s %r"
                        % (name, field, params.get(field)), None, True)
        if method == "tools/call":
            tool = self.server._tools.get(params.get("name"))
            for header, value in _mirrored_arguments(tool.input_schema if tool else {}, params.get("arguments")):
                sent = headers.get("mcp-param-" + header.lower())
                decoded = _header_value(sent)       # None for None: both absent is a match
                if sent is not None and (decoded is None or any(ord(c) < 32 and c != "\t" for c in sent)):
                    return (HEADER_MISMATCH, "Header mismatch: Mcp-Param-%s has invalid characters" % header,
                            None, True)
                if not _same_header_value(decoded, value):
                    return (HEADER_MISMATCH, "Header mismatch: Mcp-Param-%s %r does not match the argument %r"
                            % (header, decoded, value), None, True)
        return None

    def _on_notification(self, method: str, params):
        """Act on a notification; a reason if it is not one this server can accept (else None).

        An unknown notification is accepted and ignored (extensions may send any), and
        so is a request's method sent without an id; params that are not an object are not.
        """
        entry = METHODS.get(method)
        if entry is None or not method.startswith("notifications/"):
            _logger().debug("ignored notification %s", method)
            return None
        if not isinstance(params, dict):
            return "Invalid Request: the params of %s must be an object" % method
        try:
            getattr(self.server, entry[0])(self, params)
        except Exception:
            _logger().exception("minimcp: notification %s failed", method)
        return None

    def _on_client_response(self, message: dict) -> None:
        request_id = message.get("id")
        waiter = self.pending.pop(_id_key(request_id), None) if _valid_id(request_id) else None
        if waiter is None:
            _logger().debug("dropped a response for unknown id %r", message.get("id"))
            return
        if "error" in message:
            error = message["error"] if isinstance(message["error"], dict) else {}
            code = error.get("code")
            waiter.error = MCPError(code if isinstance(code, int) else INTERNAL_ERROR,
                                    str(error.get("message", "client error")), error.get("data"))
        else:
            waiter.result = message.get("result")
        waiter.answered = True
        waiter.event.set()

    def cancel_request(self, request_id, reason) -> None:
        """``notifications/cancelled``: nothing is sent for that request from now on."""
        call = self.inflight.get(_id_key(request_id)) if _valid_id(request_id) else None
        if call is None or call.method == "initialize":
            return                                 # unknown or finished: nothing to do
        if not self._claim(call):
            return
        self.inflight.pop(call.key, None)
        self.listens.pop(call.key, None)
        if call.batch is not None:
            call.batch.add(None)
        call.cancel(reason if isinstance(reason, str) else "cancelled by the client")

    # -- running handlers ---------------------------------------------------------
    def _run_queued(self, call: _Call, handler) -> None:
        if call.done:                   # cancelled before it started: never runs
            self.inflight.pop(call.key, None)
            return
        self._run(call, handler)

    def _run(self, call: _Call, handler) -> None:
        """Run one handler and send its response (or error, or nothing if cancelled).

        The error boundary where requests meet user code: whatever a handler does,
        its call is answered once or, if cancelled, never.
        """
        try:
            if call.rev.request_state and call.method in _CARRIES_STATE:    # the one place it is opened
                call.answers = _open_state(self.server._signing_key, call.method, call.params)
            result = handler(call)
        except MCPError as exc:
            self.respond(call, error=exc.to_error())
        except Cancelled:
            self.drop(call)
        except _NeedInput as question:
            self.respond(call, self._input_required(call, question))
        except BaseException as exc:        # SystemExit from a tool too: answer, never hang the client
            _logger().error("minimcp: %s failed", call.method, exc_info=True)
            self.respond(call, error={"code": INTERNAL_ERROR,
                                      "message": "Internal error: %s: %s" % (type(exc).__name__, exc)})
        else:
            if result is not None:
                self.respond(call, result)

    # -- writing ------------------------------------------------------------------
    def write(self, message, finish: _Call = None, guard: _Call = None, via=None, refused=None) -> bool:
        """Write one message through the connection's writer.

        ``finish``: the response of that call (at most once, never after a cancel).
        ``guard``: a notification of that call (never after its response).
        ``via``: the call (or batch) a request to the client is made for.
        ``refused``: the id key of a request refused before it became a call.
        The writer is told which request the message belongs to (its id key), so
        a transport with a stream per request (HTTP) can put it on that stream.
        """
        out = self.out
        owner = finish or guard or via
        owner = getattr(owner, "batch", None) or owner        # a batched call speaks on its batch's stream
        route = owner.key if owner is not None else refused
        if self.stopped:
            return False
        try:
            data = encode_message(message)
        except (ValueError, TypeError, RecursionError) as exc:
            if finish is None:                    # only a response can become an error instead
                _logger().error("minimcp: dropped a message that is not JSON-serialisable: %s", exc)
                return False
            data = encode_message(_error(message["id"], INTERNAL_ERROR,
                                         "the result could not be serialised as JSON: %s" % exc))
        data = _within_output_limit(message, data, self.server.max_output_size, finish)
        if data is None:
            return False
        with self.lock:                           # decides, in order, what is sent
            if guard is not None and guard.done:
                return False
            if finish is not None:
                if finish.done:
                    return False
                finish.done = True
                # The id is free once its response is queued; stop() waits for the
                # in-flight table to empty and then for the writer to drain.
                self._leave_inflight(finish)
            # final: the answer itself (truthy), so a writer with a stream per request can read its outcome.
            final = message if finish is not None or refused is not None or isinstance(via, _Batch) else None
            flusher = out.put(data, route, final)
        if flusher:
            out.drain()
        return not out.closed

    def respond(self, call: _Call, result: dict = None, error: dict = None) -> None:
        """Send a call's response, shaped for its revision; exactly once."""
        if error is not None:
            message = {"jsonrpc": "2.0", "id": call.id, "error": error}
        else:
            if call.rev.result_envelope:
                result = dict(result)
                result.setdefault("resultType", "complete")
                meta = result.get("_meta")
                if not meta or META_SERVER_INFO not in meta:
                    info = {META_SERVER_INFO: self.server._server_info(call.rev.version)}
                    result["_meta"] = dict(meta, **info) if meta else info
                if call.rev.cache_hints and call.method in _CACHEABLE and result["resultType"] == "complete":
                    result.setdefault("ttlMs", self.server.cache_ttl_ms)
                    result.setdefault("cacheScope", self.server.cache_scope)
            message = _response(call.id, result)
        if call.batch is None:
            self.write(message, finish=call)      # leaves the in-flight table under the lock
            return
        if self._claim(call):
            call.batch.add(message)
        self._leave_inflight(call)

    def drop(self, call: _Call) -> None:
        """A cancelled call: no response, ever."""
        self.inflight.pop(call.key, None)
        if self._claim(call) and call.batch is not None:
            call.batch.add(None)

    def _claim(self, call: _Call) -> bool:
        """Mark ``call`` done; True only for the first to do so, who alone may answer it."""
        with self.lock:
            claimed, call.done = not call.done, True
        return claimed

    def _leave_inflight(self, call: _Call) -> None:
        if self.inflight.get(call.key) is call:
            self.inflight.pop(call.key, None)

    def notify_for(self, call: _Call, method: str, params: dict) -> None:
        """A notification that belongs to a running request (progress, log)."""
        self.write(_notification(method, params), guard=call)

    def notify_listener(self, call: _Call, method: str, params: dict) -> None:
        self.write(_notification(method, dict(params, _meta={META_SUBSCRIPTION: call.id})), guard=call)

    # -- what the registry announces --------------------------------------------
    def list_changed(self, kind: str) -> None:
        method = "notifications/%s/list_changed" % kind
        if self.era == "handshake" and self.initialized and self.server._offers(kind):
            self.write(_notification(method))
        flag = "%sListChanged" % kind
        for call, wanted in list(self.listens.values()):
            if wanted.get(flag):
                self.notify_listener(call, method, {})

    def resource_updated(self, uri: str) -> None:
        if self.era == "handshake" and self.initialized and uri in self.subscriptions:
            self.write(_notification("notifications/resources/updated", {"uri": uri}))
        for call, wanted in list(self.listens.values()):
            if uri in (wanted.get("resourceSubscriptions") or ()):
                self.notify_listener(call, "notifications/resources/updated", {"uri": uri})

    def elicitation_complete(self, elicitation_id: str) -> None:
        if self.era == "handshake" and self.peer.rev.elicitation_modes:
            self.write(_notification("notifications/elicitation/complete", {"elicitationId": elicitation_id}))

    def open_listen(self, call: _Call, agreed: dict) -> None:
        """``subscriptions/listen``: acknowledge now; the call stays open until cancelled or stopped."""
        self.inflight[call.key] = call
        self.listens[call.key] = (call, agreed)
        self.notify_listener(call, "notifications/subscriptions/acknowledged", {"notifications": agreed})

    # -- questions to the client --------------------------------------------------
    def ask(self, call: _Call, questions: list, timeout) -> list:
        """Ask the client the questions of one round on behalf of ``call``; their answers, in order.

        Handshake era: concurrent requests on the connection, waited for on this thread.
        2026-07-28: the answers the retry already carries, or ``_NeedInput`` naming every
        question still open, to unwind the handler (in a task: published on the task).
        """
        rev = call.rev
        for question in questions:
            if question.key is None:            # numbered in asking order (the determinism rule)
                question.key = "q%d" % call.asked
            call.asked += 1
        if len({q.key for q in questions}) != len(questions):
            raise ValueError("two questions of one round share a key: %s" % [q.key for q in questions])
        answers = dict(call.answers) if rev.request_state else {}
        answers.update((q.key, q.answer) for q in questions if q.answer is not None)
        missing = [q for q in questions if q.key not in answers]
        for question in missing:
            if question.method == "ping" and not rev.sessions:
                raise MCPError(METHOD_NOT_FOUND, "ping does not exist in protocol %s" % rev.version)
            lacking = _missing_capability(call.peer.capabilities, question.needs)
            if lacking and not getattr(getattr(self.server, "dialect", None), "ask_unannounced", False):
                raise MCPError(MISSING_CLIENT_CAPABILITY, "the client did not declare the %s capability, so the "
                               "server cannot send %s" % (lacking, question.method),
                               {"requiredCapabilities": question.needs})
        if missing and rev.questions == "rounds" and call.task is None:
            raise _NeedInput(missing)
        if missing:
            if call.cancelled:
                raise Cancelled(call.cancel_reason or "cancelled")
            ask = self._ask_in_task if rev.questions == "rounds" else self._ask_on_connection
            answers.update(ask(call, missing, timeout))
        return [q.finish(answers[q.key]) if q.finish else answers[q.key] for q in questions]

    def _ask_on_connection(self, call: _Call, questions: list, timeout) -> dict:
        """Handshake era: one request per question, all in flight at once; their answers by key."""
        task = call.task
        if task is not None:                    # before the requests: a client may poll as soon as it sees one
            self.set_task_status(task, "input_required")
        waiters = {}
        for question in questions:
            params = question.params
            if task is not None:                # 2025-11-25: tag the request with its task
                params = dict(params or {})
                params["_meta"] = dict(params.get("_meta") or {}, **{META_RELATED_TASK: {"taskId": task.id}})
            with self.lock:
                self.next_id += 1
                request_id = self.next_id
            waiter = waiters[question.key] = _Waiter(request_id)
            self.pending[_id_key(request_id)] = waiter
            call.on_cancel.append(waiter.event.set)
            self.write(_request(request_id, question.method, params), via=call)
        self.step_aside()
        deadline = time.monotonic() + (self.server.request_timeout if timeout is None else timeout)
        try:
            for waiter in waiters.values():
                waiter.event.wait(max(0.0, deadline - time.monotonic()))
                if not waiter.answered:
                    break
            unanswered = [w for w in waiters.values() if not w.answered]
            for waiter in unanswered:           # cancelled, or timed out: withdraw what is still open
                self.write(_notification("notifications/cancelled", {
                    "requestId": waiter.request_id,
                    "reason": "the request was cancelled" if call.cancelled else "timed out"}), via=call)
            if unanswered and call.cancelled:
                raise Cancelled(call.cancel_reason or "cancelled")
            if unanswered:
                raise MCPError(INTERNAL_ERROR, "the client did not answer %s in time" % ", ".join(
                    q.method for q in questions if not waiters[q.key].answered))
        finally:
            for waiter in waiters.values():
                call.on_cancel.remove(waiter.event.set)
                self.pending.pop(_id_key(waiter.request_id), None)
            if task is not None and task.status == "input_required":
                self.set_task_status(task, "working")
        for waiter in waiters.values():
            if waiter.error is not None:
                raise waiter.error
        return {key: w.result if w.result is not None else {} for key, w in waiters.items()}

    def _input_required(self, call: _Call, need: _NeedInput) -> dict:
        keys = [q.key for q in need.questions]
        state = _seal_state(self.server._signing_key(), call.method, call.params, self.server.state_ttl,
                            keys, call.answers)
        return {"resultType": "input_required",
                "inputRequests": {q.key: {"method": q.method, "params": q.params} for q in need.questions},
                "requestState": state}

    # -- the end ------------------------------------------------------------------
    def end_listens(self) -> None:
        """Answer every ``subscriptions/listen`` now, ending its stream; calls in flight go on (a drain)."""
        for call, _ in list(self.listens.values()):
            self.respond(call, {"_meta": {META_SUBSCRIPTION: call.id}})
        self.listens.clear()

    def stop(self) -> None:
        """End of input: cancel running handlers, give them a grace period, close listens."""
        running = list(self.inflight.values()) + [t.call for t in list(self.tasks.values())
                                                   if t.status not in _TERMINAL]
        for call in running:
            call.cancel("the server is shutting down")
        self.end_listens()
        deadline = time.monotonic() + self.server.shutdown_grace
        while self.inflight and time.monotonic() < deadline:
            time.sleep(0.005)
        self.out.wait_idle(max(deadline, time.monotonic() + 1.0))   # let queued responses reach the client
        self.stopped = True
        if self.own_lifespan is not None:
            self.own_lifespan.exit()


# The seam: what components plug into the core #################################
#
# The sections above, this one, the server and the stdio transport are the core: all a
# stdio server of every revision needs. Each section after them is a component (MCP Apps,
# Agent Skills, Streamable HTTP, the clients, the SDK's names, the command line) that
# plugs itself in with one _plug() call at the end of its section, and reaches the core
# only through the names listed in _SEAM. The core never names a component: it looks up
# what was plugged into the tables below, and a server keeps each component's state for
# it in its part (_part). `python3 minimcp.py vendor --without NAME,...` writes this file
# without some components; _LEFT_OUT then names what they had, so that using one of
# their names says which component the build left out instead of failing obscurely.

_PLUGGED = {}           # MCPServer attribute -> a function (a method) or property a component adds
_TOOL_OPTIONS = {}      # tool()/add_tool() keyword a component takes -> that component
_TOOL_HOOKS = []        # fn(server, tool, options): every tool registered, with those keywords
_OFFERS = {}            # a METHODS capability kind a component adds -> fn(server): is it offered?
_CAPABILITY_HOOKS = []  # fn(server, rev, capabilities): after the core derived its own
_TRANSPORTS = {}        # run(transport=NAME) -> fn(server, host, port, options)
_MODULE_ATTRIBUTES = [] # fn(name) -> a module attribute built on first use (minimcp.FastMCP), or None
_COMPONENTS = {}        # component -> (what it is, the names it plugged), in the file's order
_LEFT_OUT = {}          # a vendored build's left-out names -> (component, what it is)

# What a component may use of the core beyond its public API (test_seam.py holds every
# section to it). Names: the core's private functions and classes; attributes: what
# components read of MCPServer and _Session objects that is not public.
_SEAM = {
    "names": frozenset([
        "_plug", "_part", "_COMPONENTS", "_DIALECTS",
        "_Session", "_Admission", "_Peer", "_Call", "_Task", "_Terminated", "_Signature", "_OwnedStdio",
        "_error", "_request", "_response", "_notification", "_id_key", "_decode_line", "_json_default",
        "_b64", "_b64url", "_unb64url", "_logger", "_available", "_trim", "_shaped", "_shape_resource",
        "_page", "_required", "_invalid_params", "_guess_mime", "_is_coroutine_function", "_quote_path",
        "_read_below", "_regular_files", "_LAX_BOOLEANS", "_EMPTY",
        # reading type hints as the schema section does (the SDK dialects' pydantic wording)
        "_typing_parts", "_resolve_annotation", "_class_hints", "_class_namespace", "_field_annotation",
        "_field_default", "_is_dataclass", "_is_enum", "_is_field_info", "_is_pydantic_model", "_is_typeddict",
        "_clean_doc", "_schema_for",
    ]),
    "attributes": frozenset(["_lock", "_resources", "_sessions", "_live_sessions", "_signing_key", "_shared_key",
                             "_announce_task"]),     # (a transport's session may announce tasks its way)
}


def _plug(component: str, about: str, *, methods: dict = None, rows: dict = None, fields: dict = None,
          offers: dict = None, tool_options: tuple = (), on_tool=None, capabilities=None,
          transports: dict = None, public: tuple = (), attributes=None, names: tuple = ()) -> None:
    """Plug a component into the core: called once, at the end of the component's section.

    Args:
        component: its short name, as ``vendor --without`` spells it.
        about: one line on what it is.
        methods: MCPServer attributes it adds (functions taking the server first, or properties).
        rows: its rows of METHODS (their handlers are among ``methods``).
        fields: its rows of _FIELD_SINCE.
        offers: {capability kind of its rows: fn(server) -> whether this server offers it}.
        tool_options: the ``tool()`` keywords it takes; ``on_tool(server, tool, options)`` sees
            every tool registered, with those of its keywords that were given.
        capabilities: ``fn(server, rev, capabilities)``, which adds to what the core declared.
        transports: {``run(transport=...)`` name: fn(server, host, port, options)}.
        public: the module-level names it adds to ``__all__``.
        attributes: ``fn(name)``: a module attribute it builds on first use, or None.
        names: the other names it answers for (the ones ``attributes`` builds, ...).
    """
    answered = list(methods or ()) + list(tool_options) + list(transports or ()) + list(public) + list(names)
    _COMPONENTS[component] = (about, tuple(name for name in answered if not name.startswith("_")))
    _PLUGGED.update(methods or {})
    METHODS.update(rows or {})
    _FIELD_SINCE.update(fields or {})
    _OFFERS.update(offers or {})
    _TOOL_OPTIONS.update((option, component) for option in tool_options)
    if on_tool is not None:
        _TOOL_HOOKS.append(on_tool)
    if capabilities is not None:
        _CAPABILITY_HOOKS.append(capabilities)
    _TRANSPORTS.update(transports or {})
    if attributes is not None:
        _MODULE_ATTRIBUTES.append(attributes)
    __all__.extend(public)


def _part(server: "MCPServer", component: str, make=None):
    """``server``'s state for ``component``: made by ``make()`` on first use, else None.

    A part may have ``gate_tools(call, tools) -> tools``: the tools a call may see and
    call (the core runs it under the registry lock, and only on servers that have one).
    """
    part = server._parts.get(component)
    if part is None and make is not None:
        with server._lock:
            part = server._parts.get(component)
            if part is None:
                part = server._parts[component] = make()
                gate = getattr(part, "gate_tools", None)
                if gate is not None:
                    server._tool_gates = server._tool_gates + (gate,)
    return part


class _LeftOut(ImportError):
    """A name of a component that this build of minimcp.py leaves out."""


def _left_out(name: str, owner: str) -> str:
    return ("%s%s belongs to minimcp's %s component (%s), which this build of minimcp.py leaves out (it "
            "was written by 'python3 minimcp.py vendor --without ...'): use a minimcp.py that has it"
            % ((owner, name) + tuple(_LEFT_OUT[name])))


def __getattr__(name: str):
    """Module attributes that components build on first use (PEP 562), so ``import minimcp``
    stays cheap; ``from minimcp import TestClient`` in a build without the clients says so."""
    for build in _MODULE_ATTRIBUTES:
        value = build(name)
        if value is not None:
            return value
    if name in _LEFT_OUT:
        raise _LeftOut(_left_out(name, "minimcp."))
    raise AttributeError("module 'minimcp' has no attribute %r" % name)


# The server: the worker pool, the handlers (_Protocol), the registry (MCPServer) ####

class _WorkerPool:
    """A bounded pool of daemon threads fed by a bounded queue.

    Threads start only when needed: the first job starts one, and a watcher adds
    another (up to ``size``) only when queued jobs sit untouched for a moment,
    i.e. when every worker is stuck in a slow handler. A flood of quick calls
    therefore runs on one or two threads instead of eight fighting over the GIL,
    while slow calls still get a thread each within a few milliseconds.
    ``submit`` blocks while ``limit`` jobs already wait: the reader then stops
    reading and the pipe holds further requests (backpressure, bounded memory).
    """

    STALL = 0.002                          # seconds without progress before adding a thread

    def __init__(self, size: int, queue_size: int) -> None:
        try:                                # the C queue alone: "import queue" costs 1.4 ms at start
            from _queue import SimpleQueue
        except ImportError:
            from queue import SimpleQueue
        self.size = max(1, size)
        self.limit = max(1, queue_size)
        self.jobs = SimpleQueue()
        self.threads = []
        self.waiting = 0                   # jobs queued, not yet taken
        self.idle = 0                      # workers blocked waiting for a job
        self.readers = 0                   # workers reading a connection: not counted against size
        self.lent = 0                      # threads outside the pool running a handler: counted
        self.taken = 0                     # jobs ever taken: the watcher's sign of progress
        self.lock = threading.Lock()
        self.room = threading.Condition(self.lock)       # submit waits here when full
        self.needed = threading.Condition(self.lock)     # the watcher waits here when idle
        self.blocked = False
        self.watcher = None
        self.parked = False                # the watcher waits for something to watch
        self.loops = set()                 # _ReadLoops whose reading thread may run a call itself

    def submit(self, job) -> None:
        with self.lock:
            while self.waiting >= self.limit:
                self.blocked = True
                self.room.wait()
            self.waiting += 1
            if not self.threads:
                self._start_worker()
            elif self.waiting > self.idle and self._room():
                self._wake_watcher()              # some job will have to wait: watch it
        self.jobs.put(job)

    def watch(self, loop: "_ReadLoop") -> None:
        """(Under ``lock``.) Watch ``loop``'s reading thread, which is about to run a call itself."""
        if loop not in self.loops:
            self.loops.add(loop)
            self._wake_watcher()
        elif self.parked:
            self.needed.notify()

    def _wake_watcher(self) -> None:
        """(Under ``lock``.)"""
        if self.watcher is None:
            self.watcher = threading.Thread(target=self._watch, name="minimcp-pool-watcher")
            self.watcher.daemon = True
            self.watcher.start()
        self.needed.notify()

    def hand_off(self, job) -> bool:
        """Give ``job`` to a worker that is free now (starting one if there is room); False if none is.

        Unlike ``submit`` it never queues behind other jobs nor waits for room:
        the stdio reader uses it to pass reading on at once, so it is
        refused whenever a job is already waiting (it would be taken first).
        """
        with self.lock:
            if self.waiting:
                return False
            if not self.idle:
                if not self._room():
                    return False
                self._start_worker()
            self.waiting += 1
            self.jobs.put(job)               # under the lock: no submit() can slip in ahead of it
        return True

    def has_room(self) -> bool:
        """Whether one more handler may run now without exceeding ``size`` (read without the lock)."""
        return len(self.threads) - self.idle - self.readers + self.lent < self.size

    def _room(self) -> bool:
        return len(self.threads) - self.readers + self.lent < self.size

    def _start_worker(self) -> None:
        thread = threading.Thread(target=self._work, name="minimcp-worker-%d" % len(self.threads))
        thread.daemon = True
        self.threads.append(thread)
        thread.start()

    def _watch(self) -> None:
        """Every STALL seconds while there is something to watch, keep things moving.

        Queued jobs that made no progress get another worker (every worker is stuck in
        a slow handler). A connection's reading thread that has run the same call for
        a whole period passes reading on (``_ReadLoop.step_aside``). After a quiet
        while it parks, so an idle server has no thread waking up.
        """
        quiet = 0
        with self.lock:
            while True:
                jobs_stuck = self.waiting > self.idle and self._room()
                loops = [loop for loop in self.loops if not loop.ended.is_set()]
                self.loops = set(loops)
                if not jobs_stuck and not loops:
                    self.parked = True
                    self.needed.wait()
                    self.parked = False
                    continue
                running = [(loop, loop.running) for loop in loops if loop.running is not None]
                quiet = 0 if running or jobs_stuck else quiet + 1
                if quiet > 50:                    # readers idle for a while: stop looking
                    self.loops = set()
                    continue
                before = self.taken
                self.lock.release()
                try:
                    time.sleep(self.STALL)
                    for loop, call in running:    # (step_aside takes this lock itself)
                        loop.step_aside(call)
                finally:
                    self.lock.acquire()
                if self.waiting > self.idle and self.taken == before and self._room():
                    self._start_worker()

    def _work(self) -> None:
        while True:
            with self.lock:
                self.idle += 1
            job = self.jobs.get()
            with self.lock:
                self.idle -= 1
                self.waiting -= 1
                self.taken += 1
                if self.blocked:
                    self.blocked = False
                    self.room.notify_all()
            try:
                job()
            except BaseException:           # a job never kills its worker
                _logger().exception("minimcp worker job failed")


def _agreed_notifications(server: "MCPServer", call: _Call) -> dict:
    """What a ``subscriptions/listen`` request asked for that this server can send."""
    wanted = _required(call.params, "notifications", dict, "an object")
    agreed = {}
    for kind in ("tools", "prompts", "resources"):
        flag = "%sListChanged" % kind
        if wanted.get(flag) is True and server._offers(kind):
            agreed[flag] = True
    uris = wanted.get("resourceSubscriptions")
    if uris is not None:
        if not isinstance(uris, list) or not all(isinstance(u, str) for u in uris):
            raise _invalid_params("Invalid params: resourceSubscriptions must be a list of URIs")
        if server._offers("resources"):
            agreed["resourceSubscriptions"] = list(uris)
    task_ids = wanted.get("taskIds")
    if task_ids is not None:
        if not isinstance(task_ids, list) or not all(isinstance(t, str) for t in task_ids):
            raise _invalid_params("Invalid params: taskIds must be a list of task ids")
        if not _declares_extension(call.peer.capabilities, TASKS_EXTENSION):
            raise MCPError(MISSING_CLIENT_CAPABILITY, "taskIds needs the %s extension" % TASKS_EXTENSION,
                           {"requiredCapabilities": {"extensions": {TASKS_EXTENSION: {}}}})
        agreed["taskIds"] = [t for t in task_ids if t in call.session.tasks]
    return agreed


def _completion_target(prompts: dict, templates: dict, ref: dict) -> tuple:
    """The prompt or template a completion ref names (or None), and its argument names."""
    key = ref.get("name") if ref.get("type") == "ref/prompt" else ref.get("uri")
    if not isinstance(key, str):
        raise _invalid_params("Invalid params: ref needs a string name (ref/prompt) or uri (ref/resource)")
    if ref.get("type") == "ref/prompt":
        record = prompts.get(key)
        return record, [a["name"] for a in record.arguments] if record else []
    if ref.get("type") == "ref/resource":
        record = templates.get(key)
        return record, record.template.variables if record else []
    raise _invalid_params("Invalid params: ref.type must be ref/prompt or ref/resource")


def _required(params: dict, key: str, kind: type = str, what: str = "a string", default=None):
    """``params[key]`` (or ``default``), which must be a ``kind``: else an Invalid params error that says so."""
    value = params.get(key, default)
    if not isinstance(value, kind):
        raise _invalid_params("Invalid params: %s must be %s" % (key, what))
    return value


_WORKER_LOCAL = threading.local()


def _run_coroutine(call: _Call, coroutine):
    """Run an ``async def`` handler on this worker thread's own event loop."""
    import asyncio
    loop = getattr(_WORKER_LOCAL, "loop", None)
    if loop is None:
        loop = _WORKER_LOCAL.loop = asyncio.new_event_loop()
    task = loop.create_task(coroutine)
    cancel = lambda: loop.call_soon_threadsafe(task.cancel)   # noqa: E731
    call.on_cancel.append(cancel)
    try:
        return loop.run_until_complete(task)
    except asyncio.CancelledError:
        raise Cancelled(call.cancel_reason or "cancelled") from None
    finally:
        call.on_cancel.remove(cancel)


def _complete(source, prefix: str, chosen: dict) -> list:
    """Run a completer: a list of values (prefix-filtered) or a function."""
    if source is None:
        return []
    if callable(source):
        values = source(prefix, chosen) if len(_Signature(source).params) >= 2 else source(prefix)
        return [str(v) for v in (values or [])]
    return [str(v) for v in source if str(v).startswith(prefix)]


def _regular_files(base: str, limit: int) -> list:
    """Paths (relative, with /) of the first ``limit`` regular files below ``base``, links not followed."""
    found = []
    for root, dirs, files in os.walk(base):
        dirs[:] = sorted(d for d in dirs if not os.path.islink(os.path.join(root, d)))
        for filename in sorted(files):
            full = os.path.join(root, filename)
            if len(found) < limit and not os.path.islink(full) and os.path.isfile(full):
                found.append(os.path.relpath(full, base).replace(os.sep, "/"))  # no FIFOs, sockets, devices
    return found


def _quote_path(relative: str) -> str:
    from urllib.parse import quote
    return quote(relative, safe="/")


def _read_below(base: str, relative: str):
    """Read a file below ``base`` without ever leaving it: text as ``str``, the rest as ``bytes``.

    Raises:
        PermissionError: for paths that would leave the base or go through a link.
        FileNotFoundError: for missing files.
    """
    from urllib.parse import unquote
    relative = unquote(relative)
    parts = relative.replace("\\", "/").split("/")
    if relative.startswith(("/", "\\")) or "\x00" in relative or any(p in ("..", "") for p in parts) or \
            (len(parts[0]) > 1 and parts[0][1] == ":"):
        raise PermissionError(13, "path escapes the served directory", relative)
    if os.open in getattr(os, "supports_dir_fd", ()) and hasattr(os, "O_NOFOLLOW"):
        flags = os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(base, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
        try:
            for part in parts[:-1]:
                next_fd = os.open(part, flags | getattr(os, "O_DIRECTORY", 0), dir_fd=fd)
                os.close(fd)
                fd = next_fd
            # O_NONBLOCK: a FIFO must not hang the read
            file_fd = os.open(parts[-1], flags | getattr(os, "O_NONBLOCK", 0), dir_fd=fd)
        except OSError as exc:
            # ELOOP (a link), ENOTDIR (only from a folder part: the last part is one name opened in a folder)
            if exc.errno in (40, 20):
                raise PermissionError(13, "symbolic links are not followed", relative) from None
            raise
        finally:
            os.close(fd)
        import stat
        if not stat.S_ISREG(os.fstat(file_fd).st_mode):
            os.close(file_fd)
            raise IsADirectoryError(21, "not a regular file", relative)
        with os.fdopen(file_fd, "rb") as handle:
            return _text_if_text(parts[-1], handle.read())
    full = os.path.realpath(os.path.join(base, *parts))
    if os.path.commonpath([full, base]) != base or os.path.islink(os.path.join(base, *parts)):
        raise PermissionError(13, "path escapes the served directory", relative)
    if not os.path.isfile(full):
        raise IsADirectoryError(21, "not a regular file", relative)
    with open(full, "rb") as handle:
        return _text_if_text(parts[-1], handle.read())


#: Types that are text although their MIME type does not start with "text/".
_TEXT_TYPES = ("application/json", "application/xml", "application/javascript", "application/x-sh",
               "application/x-python-code", "application/toml", "application/yaml", "application/sql")
_TEXT_SUFFIXES = (".toml", ".yaml", ".yml", ".ini", ".cfg", ".conf", ".rst", ".log", ".env", ".lock", ".ts")


def _text_if_text(filename: str, data: bytes):
    """A served file's content: ``str`` for text that is valid UTF-8 (a ``text`` entry that
    clients and models can read), ``bytes`` (a base64 blob) for everything else.

    Text is told by the MIME type guessed from the name, or, for names that give no
    type (``README``, ``Makefile``), by the content: valid UTF-8 without NUL bytes.
    """
    mime = _guess_mime(filename, "")
    textual = mime.startswith("text/") or mime in _TEXT_TYPES or mime.endswith(("+json", "+xml")) or \
        filename.lower().endswith(_TEXT_SUFFIXES) or (not mime and b"\x00" not in data[:8192])
    if not textual:
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data


class _Protocol:
    """How the server answers: ``_on_<method>`` for every entry of METHODS, in its order.

    MCPServer inherits these. Each request handler takes the ``_Call`` and reaches its
    connection through ``call.session``; notification handlers take (session, params).
    They read the registry through ``self`` (``self._tools``, ...), and nothing else
    about the server. They live apart from the registry's own API so each reads on its own.
    """

    # -- handlers: lifecycle (in METHODS order) -------------------------------------
    def _on_initialize(self, call: _Call) -> dict:
        session, params = call.session, call.params
        earlier = session.peer
        if earlier is not None and call.rev is not earlier.rev:   # the same revision again: answer it again
            raise MCPError(INVALID_REQUEST, "Invalid Request: this connection was initialized with protocol %s; "
                           "open a new connection for another revision" % earlier.rev.version,
                           {"negotiated": earlier.rev.version})
        _required(params, "protocolVersion")
        capabilities = _required(params, "capabilities", dict, "an object", {})
        info = params.get("clientInfo")
        session.begin_handshake(_Peer(call.rev, capabilities, info if isinstance(info, dict) else None,
                                      "debug" if earlier is None else earlier.log_level))
        result = {"protocolVersion": call.rev.version, "capabilities": self._capabilities(call.rev),
                  "serverInfo": self._server_info(call.rev.version)}
        if self.instructions:
            result["instructions"] = self.instructions
        return result

    def _on_ping(self, call: _Call) -> dict:
        return {}

    def _on_discover(self, call: _Call) -> dict:
        result = {"supportedVersions": list(PROTOCOL_VERSIONS), "capabilities": self._capabilities(call.rev)}
        if self.instructions:
            result["instructions"] = self.instructions
        return result

    # -- handlers: lists ---------------------------------------------------------
    def _listing(self, call: _Call, table: dict, field: str, shape) -> dict:
        """One page of a registry table, each record shaped for the call's revision."""
        with self._lock:
            records = list(table.values())
        result = _page(records, call.params.get("cursor"), self.page_size)
        result[field] = [_shaped(record, shape, call.rev.version) for record in result.pop("items")]
        return result

    def _on_tools_list(self, call: _Call) -> dict:
        tools = self._tools if not self._tool_gates else self._gated_tools(call, self._tools)
        return self._listing(call, tools, "tools", _shape_tool)

    def _gated_tools(self, call: _Call, tools: dict) -> dict:
        """The tools a call may see, as the parts' gates leave them (see _part)."""
        with self._lock:
            for gate in self._tool_gates:
                tools = gate(call, tools)
            return tools

    # -- handlers: tools ---------------------------------------------------------
    def _on_tools_call(self, call: _Call) -> dict:
        name = call.params.get("name")
        if not isinstance(name, str):               # (not _required: a call less on the per-call path)
            raise _invalid_params("Invalid params: name must be a string")
        tool = self._tools.get(name)
        if tool is not None and self._tool_gates and name not in self._gated_tools(call, {name: tool}):
            tool = None
        if tool is None:
            if self.dialect.unknown_tool is not None:
                return _tool_error(self.dialect.unknown_tool.format(name=name))
            raise _invalid_params("Unknown tool: %s" % name, {"name": name})
        arguments = call.params.get("arguments")
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise _invalid_params("Invalid params: arguments must be an object")
        ttl = _task_ttl(call, tool, self.task_ttl_ms)
        sent = arguments                            # as the client sent them: pydantic's reports quote these
        if self.dialect.lax_arguments and not getattr(self, "strict_input_validation", False):
            arguments = _lax_arguments(tool.input_schema, arguments)
        try:
            tool.check_arguments(arguments)
        except ValueError as exc:
            if self.dialect.argument_error is not None:
                wording = self.dialect.argument_wording
                error = (wording(tool, sent, self) if wording is not None else None) or exc
                return _tool_error(self.dialect.argument_error.format(name=name, error=error))
            if not call.rev.argument_errors_as_results:
                raise _invalid_params("Invalid arguments for tool %s: %s" % (name, exc)) from None
            return _tool_error("Invalid arguments for tool %s: %s" % (name, exc))
        if ttl is False:
            return self._execute_tool(call, tool, arguments)
        call.session.run_task(call, ttl, lambda target: self._execute_tool(target, tool, arguments),
                              deferred=tool.ask_first and call.rev.questions == "rounds")
        return None

    def _execute_tool(self, call: _Call, tool: Tool, arguments: dict) -> dict:
        """Run a tool whose arguments are valid; failures become isError results."""
        timer = None
        if tool.timeout:
            timer = threading.Timer(tool.timeout, self._time_out, (call, tool))
            timer.daemon = True
            timer.start()
        try:
            result = tool.to_result(self._invoke(call, tool, tool.bind(arguments)))
        except MCPError:                       # (Cancelled and _NeedInput are no Exception: they pass)
            raise
        except Exception as exc:
            _log_tool_failure(tool.name, exc)
            told = isinstance(exc, self.dialect.told)         # the SDK's ToolError: its message is for the model
            text = self.dialect.tool_error if told else self.dialect.tool_failure
            return _tool_error(text.format(name=tool.name, error=str(exc) or type(exc).__name__))
        finally:
            if timer is not None:
                timer.cancel()
        return _shape_tool_result(result, call.rev.version)

    def _time_out(self, call: _Call, tool: Tool) -> None:
        """A tool ran past its timeout: answer with an error now and cancel its context."""
        call.session.respond(call, _tool_error("Tool %s timed out after %s seconds" % (tool.name, tool.timeout)))
        call.cancel("timed out")

    # -- handlers: resources -------------------------------------------------------
    def _on_resources_list(self, call: _Call) -> dict:
        return self._listing(call, self._resources, "resources", _shape_resource)

    def _on_templates_list(self, call: _Call) -> dict:
        return self._listing(call, self._templates, "resourceTemplates", _shape_resource)

    def _find_resource(self, uri: str):
        with self._lock:
            record = self._resources.get(uri)
            if record is not None:
                return record, {}
            for template in self._templates.values():
                variables = template.template.match(uri, self.dialect.decode_uri_variables)
                if variables is not None:
                    return template, variables
        return None, None

    def _read_resource(self, uri: str, call: _Call) -> dict:
        record, variables = self._find_resource(uri)
        if record is None:
            code, text, with_data = self.dialect.missing_resource
            raise MCPError(call.rev.missing_resource if code is None else code, text.format(uri=uri),
                           {"uri": uri} if with_data else None)
        value = self._invoke(call, record, record.arguments_for(variables))
        result = {"contents": [_trim("contents", c, call.rev.version) for c in record.to_contents(uri, value)]}
        if call.rev.cache_hints:
            if record.ttl_ms is not None:
                result["ttlMs"] = record.ttl_ms
            if record.cache_scope is not None:
                result["cacheScope"] = record.cache_scope
        return result

    def _on_resources_read(self, call: _Call) -> dict:
        uri = _required(call.params, "uri")
        try:
            return self._read_resource(uri, call)
        except (FileNotFoundError, IsADirectoryError, PermissionError) as exc:
            raise MCPError(call.rev.missing_resource, "Resource not found: %s (%s)"
                           % (uri, exc.strerror or exc), {"uri": uri})
        except (OSError, ValueError) as exc:
            raise MCPError(INTERNAL_ERROR, "Reading %s failed: %s" % (uri, exc)) from None

    def _on_subscribe(self, call: _Call) -> dict:
        call.session.subscriptions.add(_required(call.params, "uri"))
        return {}

    def _on_unsubscribe(self, call: _Call) -> dict:
        call.session.subscriptions.discard(_required(call.params, "uri"))
        return {}

    # -- handlers: prompts and completion -------------------------------------------
    def _on_prompts_list(self, call: _Call) -> dict:
        return self._listing(call, self._prompts, "prompts", _shape_prompt)

    def _on_prompts_get(self, call: _Call) -> dict:
        name = _required(call.params, "name")
        prompt = self._prompts.get(name)
        if prompt is None:
            code, text, with_data = self.dialect.unknown_prompt
            raise MCPError(code, text.format(name=name), {"name": name} if with_data else None)
        arguments = call.params.get("arguments") or {}
        if not isinstance(arguments, dict) or not all(isinstance(v, str) for v in arguments.values()):
            raise _invalid_params("Invalid params: arguments must be an object of strings")
        value = self._invoke(call, prompt, prompt.bind(arguments))
        version = call.rev.version
        result = {"messages": [dict(m, content=_trim_block(m["content"], version)) for m in prompt.to_messages(value)]}
        if prompt.description is not None:
            result["description"] = prompt.description
        if _own_meta(prompt) is not None:
            result["_meta"] = _own_meta(prompt)
        return result

    def _on_complete(self, call: _Call) -> dict:
        ref = call.params.get("ref")
        argument = call.params.get("argument")
        if not isinstance(ref, dict) or not isinstance(argument, dict) or \
                not isinstance(argument.get("name"), str) or not isinstance(argument.get("value"), str):
            raise _invalid_params("Invalid params: completion needs ref {type, name|uri} and argument {name, value}")
        record, names = _completion_target(self._prompts, self._templates, ref)
        if record is None:
            raise _invalid_params("Invalid params: nothing to complete for %s" % json.dumps(ref))
        if argument["name"] not in names:
            raise _invalid_params("Invalid params: %s has no argument %r" % (json.dumps(ref), argument["name"]))
        context = call.params.get("context") or {}
        chosen = context.get("arguments") if isinstance(context, dict) else None
        values = _complete(record.completions.get(argument["name"]), argument["value"],
                           chosen if isinstance(chosen, dict) else {})
        return {"completion": {"values": values[:100], "total": len(values), "hasMore": len(values) > 100}}

    # -- handlers: logging and subscriptions ------------------------------------------
    def _on_set_level(self, call: _Call) -> dict:
        level = call.params.get("level")
        if not isinstance(level, str) or level not in _LOG_RANK:
            raise _invalid_params("Invalid params: level must be one of %s" % ", ".join(LOG_LEVELS))
        call.peer.log_level = level                # the connection's peer: later calls see it too
        return {}

    def _on_listen(self, call: _Call):
        """``subscriptions/listen``: acknowledge, then stream the requested notifications."""
        call.session.open_listen(call, _agreed_notifications(self, call))
        return None                                # answered only when the connection ends

    # -- handlers: tasks (their code is in the section Tasks) ----------------------------
    _on_tasks_get, _on_tasks_result, _on_tasks_list = _tasks_get, _tasks_result, _tasks_list
    _on_tasks_cancel, _on_tasks_update = _tasks_cancel, _tasks_update

    # -- handlers: notifications (session, params) --------------------------------------
    def _on_initialized(self, session: _Session, params: dict) -> None:
        session.mark_initialized()

    def _on_cancelled(self, session: _Session, params: dict) -> None:
        session.cancel_request(params.get("requestId"), params.get("reason"))

    def _on_roots_changed(self, session: _Session, params: dict) -> None:
        session.remember_roots(None)

    def _on_ignored(self, session: _Session, params: dict) -> None:
        return None


class _LifespanError(Exception):
    """The server's lifespan raised on entry (the cause is chained)."""


class _Lifespan:
    """``MCPServer(lifespan=fn)``: ``fn(server)``'s context manager, entered once per process.

    Sync (``contextlib.contextmanager``) and async (``asynccontextmanager``) managers both
    work; an async one is entered and exited on an event loop of its own. The first
    session to start enters it, so stdio enters it before the first request and a WSGI
    server at its first request; ``run()`` exits it when serving ends, and ``atexit``
    where nothing else does.
    """

    def __init__(self, factory, per_session: bool = False) -> None:
        self.factory = factory
        self.per_session = per_session   # a session's own: its session exits it, not atexit
        self.value = None                # what the manager yielded
        self.manager = self.loop = None
        self.state = "waiting"           # waiting -> open -> closed, or failed
        self.lock = threading.Lock()

    def enter(self, server: "MCPServer") -> None:
        if self.state == "open":         # the common case, without the lock
            return
        with self.lock:
            if self.state == "failed":
                raise _LifespanError("the server's lifespan failed when it was entered")
            if self.state != "waiting":
                return
            try:
                manager = self.factory(server)
                if hasattr(manager, "__aenter__"):
                    import asyncio
                    self.loop = asyncio.new_event_loop()
                    self.value = self.loop.run_until_complete(manager.__aenter__())
                else:
                    self.value = manager.__enter__()
            except Exception as exc:
                self.state = "failed"
                raise _LifespanError("the server's lifespan raised %s" % type(exc).__name__) from exc
            self.manager, self.state = manager, "open"
        if not self.per_session:
            import atexit
            atexit.register(self.exit)

    def exit(self) -> None:
        with self.lock:
            if self.state != "open":
                return
            self.state = "closed"
        try:
            if self.loop is not None:
                self.loop.run_until_complete(self.manager.__aexit__(None, None, None))
                self.loop.close()
            else:
                self.manager.__exit__(None, None, None)
        except Exception:
            _logger().error("minimcp: the server's lifespan raised on exit", exc_info=True)


class MCPServer(_Protocol):
    """An MCP server: register tools, resources and prompts, then ``run()`` it on stdio.

    Args:
        name: the server's name (serverInfo.name).
        version: its version (serverInfo.version).
        instructions: guidance for the model, sent at initialize / discover.
        title, description, icons, website_url: more of serverInfo, where the revision has them.
        workers: the most threads that run handlers (tools/call, resources/read, prompts/get,
            completion); they start only as slow handlers keep the others busy.
        queue_size: requests waiting for a worker before the reader stops reading.
        page_size: items per page of the list methods (None: everything in one page).
        max_message_size: the longest input line accepted, in bytes.
        request_timeout: seconds a handler waits for the client's answer to sample/elicit/roots.
        shutdown_grace: seconds running handlers get to finish after stdin closes.
        cache_ttl_ms, cache_scope: the 2026-07-28 cache hints on lists, reads and discover.
        state_ttl: seconds a 2026-07-28 ``requestState`` stays valid.
        task_ttl_ms: the longest a finished task and its result are kept (clients may ask for less).
        state_key: a secret shared by replicas, which sign 2026-07-28 ``requestState`` and
            HTTP session ids with it (default: $MINIMCP_STATE_KEY, else a random key per process).
        max_output_size: the longest line written, in bytes (None: no limit); a longer response
            becomes an error result that says so, and the session goes on.
        dialect: whose way of showing the server to clients and models: "mcp2" (mcp 2.3.0's, the
            default: this is the mcp 2.x class), "minimcp" (its lean choices: docstrings read for
            descriptions, a failing tool's message shown, ``-> str`` sent once), "mcp1" (mcp 1.x)
            or "fastmcp" (README, "Dialects"). The SDK's classes (``FastMCP``, and
            ``MCPServer`` imported from ``mcp``) choose their own.
        lifespan: ``fn(server)`` returning a context manager (sync or async), entered once per
            process before the first connection is served and exited at shutdown; what it
            yields is ``ctx.request_context.lifespan_context``.
        host, port, log_level, debug, dependencies: the SDK's settings, accepted so that its
            servers construct this class unchanged (host and port are run(transport="http")'s).
        resource_metadata: the OAuth protected-resource metadata (RFC 9728) its HTTP endpoint
            serves at /.well-known/oauth-protected-resource and names in its 401 challenge.
    """

    def __init__(self, name: str = "minimcp", version: str = None, instructions: str = None, *,
                 title: str = None, description: str = None, icons: list = None,
                 website_url: str = None, workers: int = 32, queue_size: int = 256,
                 page_size: int = None, max_message_size: int = DEFAULT_MAX_MESSAGE_SIZE,
                 request_timeout: float = 300.0, shutdown_grace: float = 1.0,
                 cache_ttl_ms: int = 0, cache_scope: str = "private", state_ttl: float = 600.0,
                 task_ttl_ms: int = 3600000, state_key: str = None,
                 max_output_size: int = DEFAULT_MAX_OUTPUT_SIZE, dialect: str = "mcp2", lifespan=None,
                 host: str = "127.0.0.1", port: int = 8000, log_level: str = None, debug: bool = False,
                 dependencies: list = None, resource_metadata: dict = None) -> None:
        if cache_scope not in ("public", "private"):
            raise ValueError("cache_scope must be 'public' or 'private'")
        self.dialect = _dialect(dialect)
        version = self.dialect.default_version if version is None else version
        self.name, self.version, self.instructions = name, version, instructions
        self._lifespan = _Lifespan(lifespan) if lifespan is not None else None
        self.host, self.port = host, int(port)
        self.resource_metadata = resource_metadata
        self.title, self.description, self.icons, self.website_url = title, description, icons, website_url
        self._info_cache = {}
        self.workers, self.queue_size, self.page_size = workers, queue_size, page_size
        self.max_message_size, self.request_timeout = max_message_size, request_timeout
        self.shutdown_grace, self.cache_ttl_ms, self.cache_scope = shutdown_grace, cache_ttl_ms, cache_scope
        self.state_ttl, self.task_ttl_ms = state_ttl, task_ttl_ms
        self.max_output_size = max_output_size
        self._tools, self._resources, self._templates, self._prompts = {}, {}, {}, {}
        self._lock = threading.RLock()   # guards the tables, the sessions, the pool and the key
        self._sessions = set()           # the connections being served now
        self._pool = None                # the worker pool, shared by every session
        self._state_key = None           # signs 2026-07-28 requestState, for the process's lifetime
        self._shared_key = state_key or os.environ.get("MINIMCP_STATE_KEY") or None
        self._stdio_thread = None        # the thread inside run() on stdio
        self._parts = {}                 # component -> its state for this server (_part)
        self._tool_gates = ()            # the parts' gate_tools, in the order they were made


    # -- registration ---------------------------------------------------------
    def tool(self, name=None, *, title: str = None, description: str = None, annotations: dict = None,
             icons: list = None, meta: dict = None, input_schema: dict = None, output_schema: dict = None,
             structured_output: bool = None, timeout: float = None, task_support: str = "forbidden",
             ask_first: bool = False, **options):
        """Register a function as a tool: ``@app.tool()``, ``@app.tool`` or ``@app.tool("name")``.

        Args:
            name: the tool name (default: the function's name); 1-128 of A-Z a-z 0-9 _ - .
            title: a display name.
            description: default: the docstring's summary.
            annotations: ToolAnnotations (readOnlyHint, destructiveHint, idempotentHint, openWorldHint, title).
            icons: a list of Icon dicts (src, mimeType, sizes, theme).
            meta: the tool's ``_meta``.
            input_schema: a hand-written inputSchema instead of one built from the hints.
            output_schema: a hand-written outputSchema (results then carry structuredContent).
            structured_output: force (True) or forbid (False) structured output.
            timeout: seconds after which the call is answered with an error and cancelled.
            task_support: "forbidden", "optional" or "required" (2025-11-25 tasks).
            ask_first: under 2026-07-28, the call becomes a task only when the handler calls
                ``ctx.start_task()``; its questions before that are input-required rounds.
            **options: the keywords components add (MCP Apps: ``ui=``, the ``ui://`` page a host
                shows for the results, and ``visibility=``; see the README).
        """
        if callable(name) and not isinstance(name, str):
            return self.add_tool(name)
        import functools                  # the decorator: add_tool with these options (it returns fn)
        return functools.partial(self.add_tool, name=name, title=title, description=description,
                                 annotations=annotations, icons=icons, meta=meta, input_schema=input_schema,
                                 output_schema=output_schema, structured_output=structured_output,
                                 timeout=timeout, task_support=task_support, ask_first=ask_first, **options)

    def add_tool(self, fn, **options):
        """Register ``fn`` as a tool; takes the same options as ``tool()``. Returns ``fn``."""
        plugged = {key: options.pop(key) for key in list(options) if key in _TOOL_OPTIONS}
        for key in options:
            if key in _LEFT_OUT:
                raise TypeError(_left_out(key, "tool() keyword "))
        tool = Tool(fn, dialect=self.dialect, **options)
        for hook in _TOOL_HOOKS:                 # each component sees the tool, with its keywords
            hook(self, tool, plugged)
        self._register(self._tools, tool.name, tool, "tools", "a tool named %r")
        return fn

    def remove_tool(self, name: str) -> None:
        """Unregister a tool (clients are told the list changed)."""
        self._unregister(self._tools, name, "tools")

    def resource(self, uri: str, *, name: str = None, title: str = None, description: str = None,
                 mime_type: str = None, size: int = None, annotations: dict = None, icons: list = None,
                 meta: dict = None, ttl_ms: int = None, cache_scope: str = None, completions: dict = None):
        """Register a function as a resource (fixed URI) or resource template (``{var}`` in it).

        Args:
            uri: a URI, or an RFC 6570 template whose variables are the function's parameters.
            name, title, description, mime_type, size, annotations, icons, meta: its description.
            ttl_ms, cache_scope: 2026-07-28 cache hints for reads of it.
            completions: {variable: list of values or function(prefix[, context])}.
        """
        _require_uri(uri)

        def decorator(fn):
            self.add_resource(fn, uri, name=name, title=title, description=description, mime_type=mime_type,
                              size=size, annotations=annotations, icons=icons, meta=meta, ttl_ms=ttl_ms,
                              cache_scope=cache_scope, completions=completions)
            return fn
        return decorator

    def add_resource(self, fn, uri: str, **options):
        """Register ``fn`` as the resource ``uri``; options as for ``resource()``. Returns ``fn``."""
        if not callable(fn):
            value = fn
            fn = lambda: value                                  # noqa: E731 - a constant resource
            fn.__name__ = options.get("name") or uri
        record = Resource(uri, fn, dialect=self.dialect, **options)
        self._register(self._templates if record.is_template else self._resources, uri, record,
                       "resources", "the resource %r")
        return fn

    def remove_resource(self, uri: str) -> None:
        """Unregister a resource or template."""
        self._unregister(self._resources if uri in self._resources else self._templates, uri, "resources")

    def add_directory(self, path: str, *, name: str = None, max_files: int = 10000) -> None:
        """Serve a directory tree read-only as ``file://`` resources.

        Every file below ``path`` is listed, and ``file://<path>/{+relative}`` reads one.
        Reads never leave the directory: ``..``, absolute paths, encoded traversal and
        symbolic links are refused (on POSIX each path component is opened without
        following links, so a link swapped in after a check cannot escape either).
        """
        base = os.path.realpath(path)
        if not os.path.isdir(base):
            raise ValueError("not a directory: %r" % path)
        base_uri = "file://" + base.replace(os.sep, "/").rstrip("/")
        label = name or os.path.basename(base) or base

        def read(relative: str) -> bytes:
            return _read_below(base, relative)
        self.add_resource(read, base_uri + "/{+relative}", name=label,
                          description="Files below %s (read-only)" % base)
        for relative in _regular_files(base, max_files):
            quoted = _quote_path(relative)          # _read_below takes the URI's (encoded) path
            self.add_resource(lambda rel=quoted: _read_below(base, rel), base_uri + "/" + quoted,
                              name=relative, mime_type=_guess_mime(relative, "application/octet-stream"))

    def prompt(self, name=None, *, title: str = None, description: str = None, icons: list = None,
               meta: dict = None, completions: dict = None):
        """Register a function as a prompt: ``@app.prompt()``, ``@app.prompt`` or ``@app.prompt("name")``.

        The function returns a string (one user message), a list of strings/messages, or
        message dicts ``{"role": "user"|"assistant", "content": ...}``.

        Args:
            completions: {argument: list of values or function(prefix[, context])}.
        """
        if callable(name) and not isinstance(name, str):
            return self.add_prompt(name)
        import functools                  # the decorator: add_prompt with these options (it returns fn)
        return functools.partial(self.add_prompt, name=name, title=title, description=description, icons=icons,
                                 meta=meta, completions=completions)

    def add_prompt(self, fn, **options):
        """Register ``fn`` as a prompt; options as for ``prompt()``. Returns ``fn``."""
        record = Prompt(fn, dialect=self.dialect, **options)
        self._register(self._prompts, record.name, record, "prompts", "a prompt named %r")
        return fn

    def remove_prompt(self, name: str) -> None:
        """Unregister a prompt."""
        self._unregister(self._prompts, name, "prompts")

    def _register(self, table: dict, key: str, record, kind: str, what: str) -> None:
        """Add ``record`` to one of the registry's tables, then tell every session its list changed."""
        with self._lock:
            if key in table:
                raise ValueError((what + " is already registered") % key)
            table[key] = record
        self._list_changed(kind)

    def _unregister(self, table: dict, key: str, kind: str) -> None:
        with self._lock:
            del table[key]
        self._list_changed(kind)

    def completer(self, target: str, argument: str):
        """Register a completion function for a prompt argument or a template variable.

        ``target`` is a prompt name or a resource template URI. The function takes the
        typed prefix (and optionally the other arguments already chosen, a dict) and
        returns a list of strings::

            @app.completer("greet", "name")
            def names(prefix: str) -> list:
                return [n for n in NAMES if n.startswith(prefix)]
        """
        def decorator(fn):
            with self._lock:
                record = self._prompts.get(target) or self._templates.get(target)
                if record is None:
                    raise ValueError("no prompt or resource template %r to complete" % target)
                record.completions[argument] = fn
            return fn
        return decorator

    # -- notifications the application triggers -------------------------------
    def notify_resource_updated(self, uri: str) -> None:
        """Tell clients subscribed to ``uri`` that it changed (``notifications/resources/updated``)."""
        for session in self._live_sessions():
            session.resource_updated(uri)

    def elicitation_complete(self, elicitation_id: str) -> None:
        """Tell 2025-11-25 clients that a URL-mode elicitation finished."""
        for session in self._live_sessions():
            session.elicitation_complete(elicitation_id)

    def _list_changed(self, kind: str) -> None:
        if not self._sessions:               # registering before serving: nobody to tell, no lock
            return                           # (a session added later lists the table as it is)
        for session in self._live_sessions():
            session.list_changed(kind)

    def _live_sessions(self) -> list:
        with self._lock:
            return list(self._sessions)

    # -- capabilities -----------------------------------------------------------
    def _offers(self, capability: str) -> bool:
        """Whether the registry holds something behind a capability of the method table."""
        if capability == "tools":                 # first: asked on every tools/call
            return bool(self._tools) or self.dialect.capabilities is not None
        if self.dialect.capabilities is not None and capability in self.dialect.capabilities:
            return True                           # declared whatever is registered: its lists answer, empty
        if capability == "completions":
            return any(r.completions for r in list(self._prompts.values()) + list(self._templates.values()))
        if capability == "tasks":
            return any(t.task_support != "forbidden" for t in list(self._tools.values()))
        if capability in _OFFERS:
            return _OFFERS[capability](self)
        if capability == "resources":
            return bool(self._resources or self._templates)
        return capability == "logging" or (capability == "prompts" and bool(self._prompts))

    def _capabilities(self, rev: _Revision) -> dict:
        """Derived from METHODS and the registry: only what this revision and server offer.

        A dialect that declares a fixed set (the SDKs declare tools, resources and prompts
        whatever is registered) starts from it, and what else is offered is added.
        """
        fixed = self.dialect.capabilities
        if fixed is not None:
            capabilities = {kind: dict(flags) for kind, flags in fixed.items()}
            for kind, flags in self._capabilities_derived(rev).items():
                capabilities.setdefault(kind, flags)
            if "logging" not in fixed:
                capabilities.pop("logging", None)
            return capabilities
        return self._capabilities_derived(rev)

    def _capabilities_derived(self, rev: _Revision) -> dict:
        capabilities = {}
        for _, _, versions, kind in METHODS.values():
            if kind and rev.version in versions and kind not in capabilities and self._offers(kind):
                capabilities[kind] = {"listChanged": True} if kind in ("tools", "prompts", "resources") else {}
        # Log messages flow in every revision (2026-07-28 asks per request instead of
        # through logging/setLevel), so the capability does not hang on a method.
        capabilities.setdefault("logging", {})
        if "resources" in capabilities:
            capabilities["resources"]["subscribe"] = True
        if not rev.completions:
            capabilities.pop("completions", None)
        if capabilities.pop("tasks", None) is not None:
            if rev.tasks is not None and rev.tasks.extension:
                capabilities.setdefault("extensions", {})[TASKS_EXTENSION] = {}
            elif rev.tasks is not None:
                capabilities["tasks"] = {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}
        for contribute in _CAPABILITY_HOOKS:
            contribute(self, rev, capabilities)
        return _trim("server_capabilities", capabilities, rev.version)   # extensions: 2026-07-28 only

    def _server_info(self, version: str) -> dict:
        """The Implementation object for ``version`` (built again only if its fields changed)."""
        fields = (self.name, self.version, self.title, self.description, self.icons, self.website_url)
        cached = self._info_cache.get(version)
        if cached is not None and cached[0] == fields:
            return cached[1]
        keys = ("name", "version", "title", "description", "icons", "websiteUrl")
        info = {key: value for key, value in zip(keys, fields) if value or key in ("name", "version")}
        info = _trim("implementation", info, version)
        self._info_cache[version] = (fields, info)
        return info

    # -- what sessions ask of the registry --------------------------------------
    def _submit(self, job) -> None:
        """Run ``job`` on the worker pool (shared by every session), starting it on first use."""
        with self._lock:
            if self._pool is None:
                self._pool = _WorkerPool(self.workers, self.queue_size)
        self._pool.submit(job)

    def _signing_key(self) -> bytes:
        """The process-wide key that signs 2026-07-28 requestState, made on first use."""
        with self._lock:
            if self._state_key is None:
                if self._shared_key is not None:     # replicas derive the same key from the secret
                    import hashlib
                    self._state_key = hashlib.sha256(b"minimcp-state:" + self._shared_key.encode("utf-8")).digest()
                else:
                    self._state_key = os.urandom(32)
            return self._state_key

    def _invoke(self, call: _Call, record, arguments: dict):
        """Call a tool/resource/prompt function with its arguments and, if it wants one, a Context."""
        if record.context_param:
            arguments = dict(arguments)
            arguments[record.context_param] = Context(call)
        if not record.signature.is_async:            # known since registration
            return record.fn(**arguments)
        return _run_coroutine(call, record.fn(**arguments))

    # -- running ------------------------------------------------------------------
    def serve(self, instream, outstream) -> None:
        """Serve one client on a pair of binary streams until ``instream`` ends.

        ``run()`` calls this with stdin/stdout; tests and embedders may pass pipes.
        Any number of connections may be served at once, each from its own thread.
        """
        session = _Session(self, _LineWriter(outstream))
        with self._lock:
            self._sessions.add(session)
            if self._pool is None:
                self._pool = _WorkerPool(self.workers, self.queue_size)
        reading = _ReadLoop(session, instream, self.max_message_size, self._pool)
        try:
            reading.start()
            # A signal delivered to another thread only sets a flag that this (main) thread
            # must come back to Python to act on: so wait in short slices.
            while not reading.ended.wait(0.1):
                pass
        finally:
            with self._lock:
                self._sessions.discard(session)
            session.stop()

    def __getattr__(self, name: str):
        """The methods and properties components plug in (``add_skills``, ``wsgi``, ...)."""
        plugged = _PLUGGED.get(name)
        if plugged is not None:
            return plugged.__get__(self, type(self))
        if name in _LEFT_OUT:
            raise AttributeError(_left_out(name, "MCPServer."))
        raise AttributeError("%r object has no attribute %r" % (type(self).__name__, name))

    def __call__(self, environ: dict, start_response):
        """The app is itself its WSGI callable, because gunicorn takes only ``module:name``.

        ``gunicorn 'server:app'`` works; ``'server:app.wsgi'`` is refused by gunicorn's parser.
        """
        return self.wsgi(environ, start_response)

    def run(self, transport: str = "stdio", host: str = None, port: int = None, *,
            watch_parent: bool = True, **options) -> None:
        """Serve until stdin closes (stdio) or until interrupted (``transport="http"``).

        While serving stdio, file descriptor 1 and ``sys.stdout`` point at stderr, so stray
        prints, logging and child processes cannot corrupt the protocol stream.
        ``watch_parent``: on POSIX, stop as on stdin EOF once the parent process is gone.
        Over HTTP, the standard library's threading server runs ``wsgi_app(**options)``
        on ``host:port`` (the constructor's, by default 127.0.0.1:8000). The lifespan, if
        any, is entered before serving, and exited when serving ends.
        """
        if transport != "stdio" and transport not in _TRANSPORTS:
            if transport in _LEFT_OUT:
                raise ValueError(_left_out(transport, "transport "))
            raise ValueError("transport must be one of %s" % ", ".join(repr(name) for name in ["stdio"] + list(_TRANSPORTS)))
        try:
            if transport == "stdio":
                self._run_stdio(watch_parent)     # its session enters the lifespan, fd 1 already on stderr
            else:
                if not self.dialect.lifespan_per_session:
                    self._enter_lifespan()        # before a socket is bound (mcp 1.x: per session)
                _TRANSPORTS[transport](self, self.host if host is None else host,
                                       self.port if port is None else port, options)   # (port 0: any free one)
        except _LifespanError as failure:
            import traceback
            sys.stderr.write("minimcp: %s, so the server cannot start:\n%s" % (
                failure, "".join(traceback.format_exception(type(failure.__cause__), failure.__cause__,
                                                            failure.__cause__.__traceback__))))
            raise SystemExit(1) from None
        finally:
            if self._lifespan is not None:
                self._lifespan.exit()

    def _enter_lifespan(self) -> None:
        """Enter the lifespan once per process (each session asks; the first one enters it)."""
        if self._lifespan is not None:
            self._lifespan.enter(self)

    def _run_stdio(self, watch_parent: bool) -> None:
        with self._lock:                 # one run() at a time: the process has one stdin and stdout
            if self._stdio_thread not in (None, threading.get_ident()):   # (serve() has no such limit)
                raise RuntimeError("this MCPServer is already serving stdio on another thread; the process has "
                                   "one stdin (use serve(instream, outstream) or HTTP for more connections)")
            outermost, self._stdio_thread = self._stdio_thread is None, threading.get_ident()
        try:
            _terminal_hint(self.name)
            with _OwnedStdio(watch_parent) as (instream, outstream):
                self.serve(instream, outstream)
        except (KeyboardInterrupt, _Terminated):
            pass                         # serve() has already stopped cleanly
        finally:
            if outermost:
                self._stdio_thread = None


# Transport: newline-delimited JSON over byte streams (stdio by default) ######

class _Oversized:
    """A line longer than the limit, already discarded; carries its id if one was readable."""
    __slots__ = ("request_id",)

    def __init__(self, request_id) -> None:
        self.request_id = request_id


class _LineReader:
    """Reads whole lines of at most ``limit`` bytes; longer ones are skipped, never held whole.

    It keeps its own buffer (filled by one ``read1``/``read`` call at a time), so it
    can tell whether another whole line is already here (``has_line``) without
    blocking: the reader then knows a burst is arriving.
    """

    CHUNK = 1 << 16

    def __init__(self, stream, limit: int) -> None:
        self.read = getattr(stream, "read1", None) or stream.read
        # What makes a read return: the descriptor, plus a stop pipe where the stream has one.
        self.wake_fds = getattr(stream, "wake_fds", None) or (lambda: [stream.fileno()])
        self.stream_terminated = lambda: getattr(stream, "terminated", False)
        self.parent_gone = getattr(stream, "parent_gone", None) or (lambda: False)
        self.limit = limit
        self.buffer = bytearray()
        self.start = 0                   # where the unread part of the buffer begins
        self.scanned = 0                 # no newline before this offset (a long line is scanned once)

    def has_line(self) -> bool:
        """Whether a whole line is buffered, so the next readline() will not wait."""
        return self.buffer.find(b"\n", max(self.start, self.scanned)) >= 0

    def input_waiting(self) -> bool:
        """Whether input is here to be read (buffered, or the descriptor is readable, or at its end).

        True when it cannot tell (a stream with no descriptor).
        """
        if len(self.buffer) > self.start or self.stream_terminated() or self.parent_gone():
            return True                          # (an orphan's reader ends as at end of input)
        if not _select_on_pipes():
            return True                          # as on Windows, where select() refuses pipes
        try:
            import select
            return bool(select.select(self.wake_fds(), [], [], 0)[0])
        except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
            return True

    def readline(self):
        """Return the next line (bytes), an ``_Oversized``, or None at end of input."""
        if self.stream_terminated():
            return None                          # SIGTERM: lines still buffered are not served
        buffer = self.buffer
        while True:
            end = buffer.find(b"\n", max(self.start, self.scanned))
            if end >= 0:
                line = bytes(buffer[self.start:end + 1])
                self.start = self.scanned = end + 1
                if self.start > self.CHUNK and self.start * 2 > len(buffer):
                    del buffer[:self.start]              # compact now and then, not per line
                    self.start = self.scanned = 0
                if len(line) - 1 > self.limit:
                    return _Oversized(_scan_id(line[:min(65536, self.limit)]))
                return line
            self.scanned = len(buffer)
            if len(buffer) - self.start > self.limit + 1:
                return self._skip()
            chunk = self.read(self.CHUNK)
            if not chunk:                                # end of input: a last line without \n counts
                if self.start == len(buffer):
                    return None
                line = bytes(buffer[self.start:])
                del buffer[:]
                self.start = self.scanned = 0
                return line if len(line) <= self.limit else _Oversized(_scan_id(line[:min(65536, self.limit)]))
            buffer += chunk

    def _skip(self) -> _Oversized:
        """Drop an oversized line (and its unread rest); keep only its id.

        The id is looked for only in what the limit allows to be read, and at most
        the limit plus one chunk is ever held.
        """
        request_id = _scan_id(bytes(self.buffer[self.start:self.start + min(65536, self.limit)]))
        del self.buffer[:]
        self.start = self.scanned = 0
        while True:
            chunk = self.read(self.CHUNK)
            if not chunk:
                return _Oversized(request_id)
            end = chunk.find(b"\n")
            if end >= 0:
                self.buffer += chunk[end + 1:]
                return _Oversized(request_id)


class _LineWriter:
    """Writes whole messages in order, flushed; a closed pipe turns it off quietly.

    Writers combine: the thread that finds the writer idle becomes the flusher and
    writes everything queued meanwhile in one system call, so a burst of responses
    from several workers costs one write, while a lone response still goes out at
    once. At most ``limit`` bytes wait: past that, ``put`` blocks until the client
    reads (backpressure, not unbounded memory).
    """

    CORKED_BYTES = 1 << 16               # a corked writer still writes once this much waits

    def __init__(self, stream, limit: int = 1 << 18) -> None:
        self.stream = stream
        self.limit = limit
        self.closed = False
        self.pending = []
        self.pending_bytes = 0
        self.flushing = False
        self.corked = None                   # the ident of the thread whose output is held
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)

    def put(self, data: bytes, route=None, final: bool = False) -> bool:
        """Queue one message. True: the caller is now the flusher and must call drain().

        ``route`` and ``final`` (which request it belongs to, and whether it is that
        request's answer) matter only to transports with a stream per request.
        """
        with self.lock:
            while self.flushing and self.pending_bytes > self.limit and not self.closed:
                self.changed.wait()
            if self.closed:
                return False
            self.pending.append(data)
            self.pending_bytes += len(data)
            if self.flushing or (self.corked == threading.get_ident() and self.pending_bytes < self.CORKED_BYTES):
                return False                      # only the corking thread's own output is held
            self.flushing = True
            return True

    def cork(self, corked: bool) -> None:
        """Hold this thread's output (True) while it has more lines to answer; write what waits (False).

        The reader corks while lines are already buffered, so a burst of pipelined
        requests is answered in a few large writes instead of one system call per
        response. A lone request is never held, and nor is any other thread's output.
        """
        with self.lock:
            self.corked = threading.get_ident() if corked else None
            if corked or self.flushing or not self.pending:
                return
            self.flushing = True
        self.drain()

    def drain(self) -> None:
        """Write what is queued, and what gets queued meanwhile, then stop being the flusher."""
        while True:
            with self.lock:
                batch, self.pending, self.pending_bytes = self.pending, [], 0
                if not batch or self.closed:
                    self.flushing = False
                    self.changed.notify_all()
                    return
                self.changed.notify_all()
            try:
                self.stream.write(batch[0] if len(batch) == 1 else b"".join(batch))
                self.stream.flush()
            except (OSError, ValueError):             # BrokenPipeError, closed file
                with self.lock:
                    self.closed = True

    def wait_idle(self, deadline: float) -> None:
        """Wait (until ``deadline``) for the flusher to write everything queued."""
        with self.lock:
            while (self.flushing or self.pending) and not self.closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                self.changed.wait(left)


class _ReadLoop:
    """Reads a connection's lines, and runs the handlers it reads on the same thread.

    One thread at a time reads. A request that needs a worker runs right there, with
    no hand-off at all, so a burst of quick calls costs what a single-threaded loop
    would. The reader must not stay away from the pipe for long, though: a handler
    that is about to wait (for the client's answer, ``ctx.sleep``, a task), or that
    the pool's watcher finds still running after ``_WorkerPool.STALL`` seconds, hands
    reading to another thread (a free pool worker, or a new thread) and goes on as a
    plain worker. So a busy handler delays cancellations, pings, lists or the client's
    answers by a few milliseconds at most. ``serve()``'s own thread only waits for
    ``ended``. The reading state is guarded by the pool's lock, which the watcher holds
    when it decides.
    """

    def __init__(self, session: _Session, instream, limit: int, pool: "_WorkerPool") -> None:
        self.session, self.limit, self.pool = session, limit, pool
        self.reader = _LineReader(instream, limit)
        self.ended = threading.Event()
        self.reading = None                  # the ident of the thread that reads now
        self.pooled = False                  # whether that thread is a pool worker
        self.running = None                  # the call the reading thread is running itself
        self.queueing = False                # a call of this burst was slow: queue the rest of it
        session.read_by(self)

    def start(self) -> None:
        """Start reading on another thread: a free pool worker, or a new thread."""
        if not self.pool.hand_off(self.run):
            threading.Thread(target=self.run, args=(False,), name="minimcp-reader", daemon=True).start()

    def dispatch(self, call: _Call, job) -> None:
        """Run ``job`` here if this thread is the reader (and the pool has room), else queue it."""
        pool = self.pool
        if call.batch is not None or self.queueing or self.reading != threading.get_ident() \
                or not pool.has_room():
            pool.submit(job)
            return
        pooled = self.pooled
        with pool.lock:
            self.running = call
            pool.watch(self)
        try:
            job()
        finally:
            with pool.lock:
                still_reading = self.running is call
                if still_reading:
                    self.running = None          # read the next line
                elif not pooled:                 # another thread reads now (_read sees it);
                    pool.lent -= 1               # this one's handler slot is free again

    def step_aside(self, call: _Call = None) -> None:
        """Pass reading on now, if the reading thread is running a call itself.

        Called by a handler about to wait (on its own thread: no ``call``), and by the
        pool's watcher for a ``call`` the reading thread has run for a whole period, once
        input is waiting: until the client sends something, nothing is held up, and the
        call keeps the thread (a long answer is built and written on one thread).
        If more lines are waiting (a burst of calls that may all be slow), the rest of
        the burst goes to the pool rather than each call waiting on the reader.
        """
        pool = self.pool
        if call is not None and not self.reader.input_waiting():
            return                               # nothing to read yet: nothing is held up
        with pool.lock:
            if self.running is None or (self.running is not call if call is not None
                                        else self.reading != threading.get_ident()):
                return
            self.queueing = self.reader.has_line()
            self.running = self.reading = None
            if self.pooled:                      # the thread now only runs its handler: it
                pool.readers -= 1                # takes a handler slot
            else:
                pool.lent += 1
        self.session.out.cork(False)         # what the call's thread held goes out, and its
        self.start()                         # progress and answer are no longer held

    def run(self, pooled: bool = True) -> None:
        me, pool = threading.get_ident(), self.pool
        with pool.lock:
            self.reading, self.pooled = me, pooled
            if pooled:
                pool.readers += 1
        try:
            ended = self._read(me)
        finally:
            self.session.out.cork(False)             # whichever way it leaves, nothing stays held
            with pool.lock:
                if self.reading == me:               # (else it stepped aside: counted off already)
                    self.reading = None
                    if pooled:
                        pool.readers -= 1
        if ended:
            self.ended.set()

    def _read(self, me: int) -> bool:
        """Read and feed lines: True once the input ends, False when another thread reads now."""
        session, out = self.session, self.session.out
        try:
            while True:
                if not self.reader.has_line():       # the burst has ended: no more queueing
                    self.queueing = False
                if out.closed:
                    return True
                line = self.reader.readline()
                if line is None:
                    return True
                # Another line is here already: hold this one's answers for the same write. The
                # last line of a burst runs uncorked, so a long call's progress is never held.
                burst = self.reader.has_line()
                if burst is not (out.corked is not None):
                    out.cork(burst)                  # (a burst's end writes them, and may find the pipe shut)
                if isinstance(line, _Oversized):
                    session.write(_error(line.request_id, INVALID_REQUEST,
                                         "Invalid Request: message larger than %d bytes" % self.limit))
                    continue
                session.feed(line)
                if self.reading != me:
                    return False
        except Exception:                    # never a silent dead reader: end the connection
            _logger().exception("minimcp: reading the connection failed")
        return True


class _Terminated(BaseException):
    """SIGTERM arrived: stop serving."""


def _raise_terminated(signum, frame):
    raise _Terminated()


#: How often a waiting reader looks whether the process that started us is still there.
PARENT_POLL_SECONDS = 1.0


def _select_on_pipes() -> bool:
    """Whether stdin may be waited on with select(): on POSIX, unless MINIMCP_NO_SELECT=1.

    Windows has no select() on pipes, so there stdin is a plain stream read by a pool
    thread, without the wakeup pipe or the parent watchdog; SIGTERM and Ctrl-C reach
    the main thread, which waits in 0.1 s slices. MINIMCP_NO_SELECT=1 takes that same
    path on Linux, so CI runs it (README, "Python and OS support").
    """
    return os.name == "posix" and os.environ.get("MINIMCP_NO_SELECT", "0") in ("", "0")


class _WakeableRaw(io.RawIOBase):
    """The main thread's stdin: a raw stream that waits in select(), never in read().

    CPython runs a Python-level signal handler only on the main thread, between
    bytecodes. A SIGTERM that the kernel hands to a worker thread only sets a flag,
    and a main thread blocked in ``read()`` on stdin would never look at it: the
    signal is lost and the server runs on. So the main thread waits on three file
    descriptors at once: stdin, the signal wakeup pipe (``signal.set_wakeup_fd``,
    written by the C-level handler whatever thread it ran on) and a stop pipe (written
    on SIGTERM). A wakeup returns to Python, where the handler then runs; a stop reads
    as end of input, so the server ends exactly as on stdin EOF.

    ``parent``: the process that started us. A parent that dies without closing our
    stdin (the pipe inherited by another process) would leave us running for ever; an
    orphan is re-parented on POSIX, so ``getppid()`` changes. Whichever thread reads looks
    every PARENT_POLL_SECONDS, and so does the pool's watcher while a call holds the reading
    thread (``_LineReader.input_waiting``): no thread of its own.
    """

    def __init__(self, fd: int, wake_fd: int, stop_fd: int, stop_write: int, parent: int = None) -> None:
        super().__init__()
        self.fd, self.wake_fd, self.stop_fd, self.stop_write = fd, wake_fd, stop_fd, stop_write
        self.parent = parent
        self.terminated = False

    def on_sigterm(self, signum, frame) -> None:
        """The SIGTERM handler while serving: end of input, not an exception.

        An exception raised at whatever bytecode the main thread is at could land in
        the middle of a write and leave the writer half done; a flag is seen at the
        next line, and the server then stops exactly as on stdin EOF. The reader (a
        pool thread, maybe waiting in select()) is woken through the stop pipe.
        """
        self.terminated = True
        try:
            os.write(self.stop_write, b"x")
        except OSError:
            pass

    def readable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.fd

    def wake_fds(self) -> list:
        """What a read waits on that ends it: input, and the stop pipe."""
        return [self.fd, self.stop_fd]

    def parent_gone(self) -> bool:
        return self.parent is not None and os.getppid() != self.parent

    def close(self) -> None:
        if not self.closed:
            try:
                os.close(self.fd)
            except OSError:
                pass
        super().close()

    def readinto(self, buffer) -> int:
        """Fill ``buffer`` with what stdin has (0 at end of input or on a stop)."""
        import select
        poll = None if self.parent is None else PARENT_POLL_SECONDS
        while not self.terminated:
            if self.parent_gone():
                _logger().warning("minimcp: the parent process (pid %d) is gone; stopping as on end of input",
                                  self.parent)
                return 0
            try:
                ready = select.select([self.fd, self.wake_fd, self.stop_fd], [], [], poll)[0]
                if self.wake_fd in ready:
                    try:
                        os.read(self.wake_fd, 512)
                    except OSError:                 # drained already (non-blocking)
                        pass
                    # Looping back is Python code again: a pending handler runs here and may raise.
                if self.stop_fd in ready:
                    return 0
                if self.fd in ready and not self.terminated:
                    return os.readv(self.fd, [buffer])
            except (OSError, ValueError):
                if self.terminated or self.closed:      # closed under us as serving ended
                    return 0
                raise
        return 0


def _wakeable_stdin(fd: int, watch_parent: bool):
    """A buffered stdin on ``fd`` that signals can wake, and that ends if the parent dies.

    Returns ``(stream, undo)``; ``undo()`` restores the previous wakeup fd. Where it can't
    work (not the main thread, no select() on pipes, descriptors too high for select) the
    stream is a plain one and undo does nothing.
    """
    import signal
    if os.name == "posix" and not _select_on_pipes():
        _logger().debug("minimcp: stdin is read without select() (MINIMCP_NO_SELECT=1), as on Windows: "
                        "no wakeup pipe, no parent watchdog")
    usable = _select_on_pipes() and threading.current_thread() is threading.main_thread()
    pipes = os.pipe() + os.pipe() if usable else ()
    if not usable or max((fd,) + pipes) >= 1000:
        for extra in pipes:
            os.close(extra)
        return os.fdopen(fd, "rb", buffering=0), lambda: None
    wake_read, wake_write, stop_read, stop_write = pipes
    for end in (wake_read, wake_write):
        os.set_blocking(end, False)
    previous = signal.set_wakeup_fd(wake_write, warn_on_full_buffer=False)
    # Unbuffered (_LineReader keeps its own buffer): closing it never waits for a lock
    # held by a reader still blocked in a read.
    parent = os.getppid()
    watched = watch_parent and parent > 1 and os.environ.get("MINIMCP_WATCH_PARENT", "1") != "0"
    stream = _WakeableRaw(fd, wake_read, stop_read, stop_write, parent if watched else None)

    def undo():
        try:
            signal.set_wakeup_fd(previous)
        except (ValueError, OSError):
            pass
        for extra in pipes:
            try:
                os.close(extra)
            except OSError:
                pass
    return stream, undo


def _terminal_hint(name: str) -> None:
    """A server started by hand in a terminal waits in silence and looks hung: say on stderr
    what it waits for, and how to try it instead."""
    try:
        if not os.isatty(0) or not sys.argv or not sys.argv[0] or sys.stderr is None:
            return
        import shlex
        here = os.path.abspath(__file__)
        try:
            here = min(here, os.path.relpath(here), key=len)
        except ValueError:                               # (another drive, on Windows)
            pass
        sys.stderr.write("minimcp: %s is an MCP server: it waits for a client's JSON-RPC on stdin (a host starts "
                         "it), so it shows nothing here (Ctrl-D stops it). To try it: python3 %s inspect -- %s\n"
                         % (name, shlex.quote(here), " ".join(shlex.quote(w) for w in ["python3"] + sys.argv)))
        sys.stderr.flush()
    except (OSError, ValueError):                        # a closed stdin or stderr: nothing to say
        pass


class _OwnedStdio:
    """Take file descriptors 0 and 1 for the protocol while serving.

    The protocol gets private duplicates of the real stdin/stdout. File descriptor 1
    and ``sys.stdout`` are pointed at stderr, and descriptor 0 and ``sys.stdin`` at
    the null device, so user code, logging and child processes can neither corrupt
    the output stream nor steal input lines. Everything is restored on exit. Where
    stdout was held before (hold_stdout), the protocol is served on the held one.
    """

    held_stdout = None   # the real stdout's descriptor, set aside by hold_stdout() until run() serves on it

    def __init__(self, watch_parent: bool = True) -> None:
        self.watch_parent = watch_parent

    @classmethod
    def hold_stdout(cls) -> None:
        """Point descriptor 1 and ``sys.stdout`` at stderr now, before a server's module is
        imported (``serve FILE``): its import-time prints and banners never reach the pipe,
        and run() later serves the protocol on the real stdout, set aside here."""
        if cls.held_stdout is None:
            cls._flush_stdout()
            cls.held_stdout = os.dup(1)
            cls._stdout_to_stderr()

    @staticmethod
    def _flush_stdout() -> None:
        for stream in (sys.stdout, sys.__stdout__):
            try:
                stream.flush()
            except (AttributeError, OSError, ValueError):
                pass

    @staticmethod
    def _stdout_to_stderr() -> None:
        """Descriptor 1 and ``sys.stdout`` on stderr (on the null device where there is none)."""
        try:
            os.dup2(2, 1)
        except OSError:                                  # no stderr: discard stray output
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.close(null)
        sys.stdout = sys.stderr if sys.stderr is not None else open(os.devnull, "w")

    def __enter__(self):
        self._flush_stdout()
        self.saved = (sys.stdin, sys.stdout)
        self.in_fd, self.out_fd = os.dup(0), os.dup(1)
        protocol_fd = self.out_fd if self.held_stdout is None else self.held_stdout
        if os.name == "nt":                             # no CRLF translation, ever
            import msvcrt
            for fd in (self.in_fd, protocol_fd):
                msvcrt.setmode(fd, os.O_BINARY)
        self._stdout_to_stderr()
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        sys.stdin = open(os.devnull, "r")
        self.handlers = {}
        self.instream, self.undo_wakeable = _wakeable_stdin(os.dup(self.in_fd), self.watch_parent)
        if threading.current_thread() is threading.main_thread():
            import signal
            handler = getattr(self.instream, "on_sigterm", _raise_terminated)
            self.handlers[signal.SIGTERM] = signal.signal(signal.SIGTERM, handler)
        self.outstream = os.fdopen(os.dup(protocol_fd), "wb", buffering=1 << 16)
        return self.instream, self.outstream

    def __exit__(self, *exc_info):
        import signal
        if isinstance(self.instream, _WakeableRaw):   # a reader still waiting in select() sees an end,
            self.instream.terminated = True           # not a closed descriptor (Ctrl-C ends serve())
        self.undo_wakeable()
        for signum, handler in self.handlers.items():
            signal.signal(signum, handler)
        for stream in (self.instream, self.outstream, sys.stdin):      # sys.stdin: our null device
            try:
                stream.close()
            except (OSError, ValueError):
                pass
        sys.stdin, sys.stdout = self.saved
        os.dup2(self.in_fd, 0)
        os.dup2(self.out_fd, 1)
        os.close(self.in_fd)
        os.close(self.out_fd)
        return False


# MCP Apps: tools that show a page in the host (extension io.modelcontextprotocol/ui) ####
#
# A tool links to a ``ui://`` resource holding one HTML document; a host that has
# negotiated the extension renders it in a sandboxed iframe and feeds it the tool's
# input and result (SEP-1865, stable 2026-01-26). Nothing here runs for a server that
# registers no page and no UI tool: its part (_AppsPart) is made by the first of them.

#: The extension's identifier, in the client's and the server's ``capabilities.extensions``.
APPS_EXTENSION = "io.modelcontextprotocol/ui"
#: The one MIME type of an MCP Apps page, exactly as hosts compare it.
APP_MIME_TYPE = "text/html;profile=mcp-app"
_VISIBILITIES = ("model", "app")
_TOOL_UI_KEYS = frozenset(["resourceUri", "visibility"])
# The keys of a page's ``csp`` and ``permissions``; Python spellings are accepted for
# the keyword arguments and written in the wire's.
_CSP_KEYS = {"connectDomains": "connect_domains", "resourceDomains": "resource_domains",
             "frameDomains": "frame_domains", "baseUriDomains": "base_uri_domains"}
_PERMISSIONS = {"camera": "camera", "microphone": "microphone", "geolocation": "geolocation",
                "clipboardWrite": "clipboard_write"}
# Tool and resource ``_meta`` exist from 2025-06-18 on; a client on an older revision
# can neither see a tool's page nor be told about it, so it is served as without Apps.
_APPS_SINCE = "2025-06-18"


def _ui_uri(uri, what: str) -> str:
    if not isinstance(uri, str) or not uri.startswith("ui://") or len(uri) <= len("ui://"):
        raise ValueError("%s: an MCP Apps page has a ui:// URI such as \"ui://charts/sales\", not %r" % (what, uri))
    if "{" in uri:
        raise ValueError("%s: a ui:// page is one fixed resource, not a template (%r); hosts read it by "
                         "the exact URI a tool names" % (what, uri))
    return uri


def _check_visibility(visibility, what: str) -> list:
    if not isinstance(visibility, (list, tuple)) or not visibility \
            or not set(visibility) <= set(_VISIBILITIES) or len(set(visibility)) != len(visibility):
        raise ValueError("%s: visibility must be a non-empty list of \"model\" and/or \"app\" (each once), "
                         "not %r" % (what, visibility))
    return [v for v in _VISIBILITIES if v in visibility]


def _link_tool(server: "MCPServer", tool: "Tool", ui, visibility) -> None:
    """Give a tool its ``_meta.ui`` (and the flat ``ui/resourceUri`` older hosts read).

    A ``_meta["ui"]`` written by hand in ``meta=`` is checked the same way, so a
    hand-assembled app gets the same errors and the same negotiation.
    """
    what = "tool %r" % tool.name
    meta = dict(tool.meta or {})
    given = meta.get("ui")
    if given is not None:
        if ui is not None or visibility is not None:
            raise ValueError("%s: give ui=/visibility= or meta[\"ui\"], not both" % what)
        if not isinstance(given, dict) or not set(given) <= _TOOL_UI_KEYS:
            raise ValueError("%s: meta[\"ui\"] may only have the keys %s (got %r)"
                             % (what, ", ".join(sorted(_TOOL_UI_KEYS)), given))
        ui, visibility = given.get("resourceUri"), given.get("visibility")
    linked = {} if ui is None else {"resourceUri": _ui_uri(ui, what)}
    linked["visibility"] = _check_visibility(list(_VISIBILITIES) if visibility is None else visibility, what)
    flat = meta.get("ui/resourceUri")
    if flat is not None and flat != ui:
        raise ValueError("%s: meta[\"ui/resourceUri\"] (%r) names another page than ui= (%r)" % (what, flat, ui))
    meta["ui"] = linked
    if ui is not None:
        meta["ui/resourceUri"] = ui     # deprecated, still read by older hosts
    tool.meta = meta
    _part(server, "apps", _AppsPart)


def _app_only(tool: "Tool") -> bool:
    """A tool whose visibility lacks "model": only its page, through an Apps host, calls it."""
    ui = tool.meta.get("ui") if isinstance(tool.meta, dict) else None
    return isinstance(ui, dict) and "model" not in ui.get("visibility", _VISIBILITIES)


def _domain_list(value, key: str, what: str) -> list:
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) and v for v in value):
        raise ValueError("%s: csp %s must be a list of origins such as [\"https://api.example.com\"], not %r"
                         % (what, key, value))
    return list(value)


def _page_csp(csp, what: str) -> dict:
    if not isinstance(csp, dict):
        raise ValueError("%s: csp must be a dict with the keys %s" % (what, ", ".join(_CSP_KEYS)))
    spelled = {}
    for wire, python in _CSP_KEYS.items():
        for key in (wire, python):
            if key in csp:
                if wire in spelled:
                    raise ValueError("%s: csp gives %s twice (%s and %s)" % (what, wire, wire, python))
                spelled[wire] = _domain_list(csp[key], wire, what)
    unknown = set(csp) - set(_CSP_KEYS) - set(_CSP_KEYS.values())
    if unknown:
        raise ValueError("%s: unknown csp key %s; MCP Apps defines %s"
                         % (what, ", ".join(repr(k) for k in sorted(unknown)), ", ".join(_CSP_KEYS)))
    return spelled


def _page_permissions(permissions, what: str) -> dict:
    if not isinstance(permissions, (list, tuple, set, frozenset, dict)):
        raise ValueError("%s: permissions must be a list such as [\"camera\"] (or a dict of them to {})" % what)
    if isinstance(permissions, dict) and any(v != {} for v in permissions.values()):
        raise ValueError("%s: each permission's value is {} (got %r)" % (what, permissions))
    by_name = {name: wire for wire, python in _PERMISSIONS.items() for name in (wire, python)}
    unknown = [n for n in permissions if n not in by_name]
    if unknown:
        raise ValueError("%s: unknown permission %s; MCP Apps defines %s"
                         % (what, ", ".join(repr(n) for n in unknown), ", ".join(_PERMISSIONS)))
    return {by_name[n]: {} for n in permissions}


def _page_ui_meta(what: str, csp, permissions, domain, prefers_border) -> dict:
    """A page's ``_meta.ui`` (UIResourceMeta) from the keyword arguments, checked."""
    ui = {}
    if csp is not None:
        ui["csp"] = _page_csp(csp, what)
    if permissions is not None:
        ui["permissions"] = _page_permissions(permissions, what)
    if domain is not None:
        if not isinstance(domain, str) or not domain:
            raise ValueError("%s: domain must be a non-empty string (its format is the host's)" % what)
        ui["domain"] = domain
    if prefers_border is not None:
        if not isinstance(prefers_border, bool):
            raise ValueError("%s: prefers_border must be True or False" % what)
        ui["prefersBorder"] = prefers_border
    return ui


def _page_item(value, uri: str, ui: dict) -> dict:
    """A page's HTML as the one content item hosts expect."""
    if isinstance(value, (bytes, bytearray)):
        item = {"uri": uri, "mimeType": APP_MIME_TYPE, "blob": _b64(bytes(value))}
    elif isinstance(value, str):
        item = {"uri": uri, "mimeType": APP_MIME_TYPE, "text": value}
    else:
        raise ValueError("the page %s must be one HTML document (str or bytes), not %s"
                         % (uri, type(value).__name__))
    if ui:
        item["_meta"] = {"ui": ui}      # on the content item too: hosts read either place
    return item


def _add_page(server: "MCPServer", source, uri: str, name, title, description, csp, permissions, domain,
              prefers_border, meta) -> None:
    what = "ui_resource %r" % (uri,)
    _ui_uri(uri, what)
    if callable(source) and _is_coroutine_function(source):
        raise ValueError("%s: the page function must be a plain function (pages are documents; build them "
                         "once, or read them from a file)" % what)
    if not callable(source) and not isinstance(source, (str, bytes)):
        raise ValueError("%s: give a function that returns the HTML, or the HTML itself" % what)
    if meta is not None and (not isinstance(meta, dict) or "ui" in meta):
        raise ValueError("%s: meta must be a dict without \"ui\" (use csp=, permissions=, domain=, "
                         "prefers_border=)" % what)
    ui = _page_ui_meta(what, csp, permissions, domain, prefers_border)
    full_meta = dict(meta or {})
    if ui:
        full_meta["ui"] = ui
    if callable(source):
        import functools
        read = functools.wraps(source)(lambda **arguments: _page_item(source(**arguments), uri, ui))
    else:
        read = _page_item(source, uri, ui)          # a constant page: its item is built once
    _part(server, "apps", _AppsPart)
    server.add_resource(read, uri, name=name, title=title, description=description,
                        mime_type=APP_MIME_TYPE, meta=full_meta or None)


def apps_supported(capabilities: dict, protocol_version: str = None) -> bool:
    """Whether a client can show MCP Apps pages: it declared the extension with our MIME type.

    Args:
        capabilities: the client's capabilities (``ctx.client_capabilities``).
        protocol_version: the revision served (``ctx.protocol_version``); revisions before
            2025-06-18 have no tool ``_meta``, so they never see a page.
    """
    if protocol_version is not None and not _available(_APPS_SINCE, protocol_version):
        return False
    extensions = capabilities.get("extensions") if isinstance(capabilities, dict) else None
    setting = extensions.get(APPS_EXTENSION) if isinstance(extensions, dict) else None
    mime_types = setting.get("mimeTypes") if isinstance(setting, dict) else None
    return isinstance(mime_types, list) and APP_MIME_TYPE in mime_types


class _AppsPart:
    """A server's MCP Apps: made by its first UI tool or page, so other servers pay nothing."""

    @staticmethod
    def gate_tools(call: "_Call", tools: dict) -> dict:
        """App-only tools only for clients with Apps: there is no page to call them from elsewhere."""
        if apps_supported(call.peer.capabilities, call.peer.rev.version):
            return tools
        return {name: tool for name, tool in tools.items() if not _app_only(tool)}


def _apps_on_tool(server: "MCPServer", tool: "Tool", options: dict) -> None:
    """``@app.tool(ui=..., visibility=...)``, or a ``meta["ui"]`` written by hand."""
    ui, visibility = options.get("ui"), options.get("visibility")
    if ui is not None or visibility is not None or (isinstance(tool.meta, dict) and "ui" in tool.meta):
        _link_tool(server, tool, ui, visibility)


def _apps_capabilities(server: "MCPServer", rev, capabilities: dict) -> None:
    if _part(server, "apps") is not None:
        capabilities.setdefault("extensions", {})[APPS_EXTENSION] = {}


# One self-contained page: local scripts, styles and images inlined -----------------

def inline_page(path: str, base_dir: str = None) -> str:
    """Read an HTML file and inline the local files it refers to, so the page needs no server.

    ``<script src="x.js">`` becomes ``<script>...</script>``, ``<link rel="stylesheet"
    href="x.css">`` becomes ``<style>...</style>`` and ``<img src="x.png">`` a ``data:`` URI.
    A host shows the page from a ``srcdoc`` under a CSP that, by default, loads nothing
    from anywhere, so a page that still refers to its files would render broken; an
    air-gapped host has no CDN either. References with a scheme (``https:``, ``data:``)
    or starting with ``//`` are left alone: declare their origins in ``csp=``.

    Args:
        path: the HTML file.
        base_dir: where relative references are looked up (default: the file's directory).

    Raises:
        FileNotFoundError: a referenced local file is missing (the page would be broken).
        ValueError: a reference leaves ``base_dir``.
    """
    with open(path, encoding="utf-8") as handle:
        html = handle.read()
    return _inline_html(html, os.path.abspath(base_dir or os.path.dirname(path) or "."))


def _is_local_reference(ref: str) -> bool:
    import re
    return bool(ref) and not ref.startswith(("//", "#")) and re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", ref) is None


def _local_file(base_dir: str, ref: str) -> str:
    from urllib.parse import unquote
    relative = unquote(ref.split("?")[0].split("#")[0])
    target = os.path.realpath(os.path.join(base_dir, relative))
    if os.path.commonpath([target, os.path.realpath(base_dir)]) != os.path.realpath(base_dir):
        raise ValueError("the page refers to %r, which is outside %s" % (ref, base_dir))
    return target


def _attributes(tag: str) -> dict:
    import re
    return {m.group(1).lower(): m.group(3) if m.group(3) is not None else m.group(4)
            for m in re.finditer(r"([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*(\"([^\"]*)\"|'([^']*)')", tag)}


def _inline_html(html: str, base_dir: str) -> str:
    import re

    def script(match):
        src = _attributes(match.group(1)).get("src")
        if not _is_local_reference(src):
            return match.group(0)
        with open(_local_file(base_dir, src), encoding="utf-8") as handle:
            code = handle.read()
        rest = re.sub(r"\s+src\s*=\s*(\"[^\"]*\"|'[^']*')", "", match.group(1))
        # "</script" inside the code would end the element early; "<\/" means the same to JavaScript.
        return "<script%s>%s</script>" % (rest, re.sub(r"</(script)", r"<\\/\1", code, flags=re.I))

    def stylesheet(match):
        attributes = _attributes(match.group(0))
        href = attributes.get("href")
        if "stylesheet" not in attributes.get("rel", "").lower().split() or not _is_local_reference(href):
            return match.group(0)
        with open(_local_file(base_dir, href), encoding="utf-8") as handle:
            css = handle.read()
        return "<style>%s</style>" % re.sub(r"</(style)", r"<\\/\1", css, flags=re.I)

    def image(match):
        group = 1 if match.group(1) is not None else 2
        src = match.group(group)
        if not _is_local_reference(src):
            return match.group(0)
        target = _local_file(base_dir, src)
        with open(target, "rb") as handle:
            data = handle.read()
        uri = "data:%s;base64,%s" % (_guess_mime(target, "application/octet-stream"), _b64(data))
        tag, offset = match.group(0), match.start(0)
        return tag[:match.start(group) - offset] + uri + tag[match.end(group) - offset:]

    html = re.sub(r"<script\b([^>]*)>\s*</script\s*>", script, html, flags=re.I)
    html = re.sub(r"<link\b[^>]*>", stylesheet, html, flags=re.I)
    return re.sub(r"<img\b[^>]*?(?<![-\w])src\s*=\s*(?:\"([^\"]*)\"|'([^']*)')[^>]*>", image, html, flags=re.I)


# The MCPServer methods of MCP Apps ----------------------------------------------

def _ui_resource(server, uri: str, *, name: str = None, title: str = None, description: str = None,
                csp: dict = None, permissions=None, domain: str = None, prefers_border: bool = None,
                meta: dict = None):
    """Register a function returning an HTML document as an MCP Apps page (``ui://``).

    Link a tool to it with ``@app.tool(ui=uri)``. The resource gets the MIME type
    ``text/html;profile=mcp-app`` and its ``_meta.ui`` from the keywords (on the
    listing and on the content); unknown keys are refused. See ``inline_page``.

    Args:
        uri: ``ui://...``, one fixed URI.
        name, title, description: the resource's description.
        csp: origins the page may reach: connectDomains, resourceDomains, frameDomains,
            baseUriDomains (or connect_domains, ...), each a list; none by default.
        permissions: browser features it asks for: camera, microphone, geolocation, clipboardWrite.
        domain: a dedicated sandbox origin, in the host's own format.
        prefers_border: ask the host for (True) or without (False) a border and background.
        meta: other ``_meta`` keys of the resource.
    """
    import functools                  # the decorator: add_ui_resource with these options (it returns fn)
    return functools.partial(_add_ui_resource, server, uri=uri, name=name, title=title, description=description,
                             csp=csp, permissions=permissions, domain=domain, prefers_border=prefers_border,
                             meta=meta)

def _add_ui_resource(server, source, uri: str, *, name: str = None, title: str = None,
                    description: str = None, csp: dict = None, permissions=None, domain: str = None,
                    prefers_border: bool = None, meta: dict = None):
    """Register an MCP Apps page: a function returning the HTML, or the HTML itself. Returns ``source``."""
    _add_page(server, source, uri, name, title, description, csp, permissions, domain, prefers_border, meta)
    return source


_plug("apps", "MCP Apps: tools that show a page in the host",
      methods={"ui_resource": _ui_resource, "add_ui_resource": _add_ui_resource},
      tool_options=("ui", "visibility"), on_tool=_apps_on_tool, capabilities=_apps_capabilities,
      public=("inline_page", "apps_supported", "APP_MIME_TYPE", "APPS_EXTENSION"))


# Agent Skills (SEP-2640): skill directories served as skill:// resources ######

SKILLS_EXTENSION = "io.modelcontextprotocol/skills"
DIRECTORY_MIME = "inode/directory"        # what a directory resource is, for resources/directory/read
# The extension's per-skill limits: servers SHOULD NOT serve more, so add_skills refuses to.
SKILL_MAX_FILES = 512
SKILL_MAX_BYTES = 16 * 1024 * 1024
_SKILL_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")
_YAML_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f",
                 "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85",
                 "_": "\xa0", "L": "\u2028", "P": "\u2029"}
_YAML_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}


class _FrontmatterError(ValueError):
    """A SKILL.md whose frontmatter cannot be read or breaks a skill rule; says which file and line."""

    def __init__(self, source: str, line: int, message: str) -> None:
        super().__init__("%s, line %d: %s" % (source, line, message))


def _frontmatter_lines(text: str, source: str) -> list:
    """The lines between SKILL.md's opening and closing ``---`` (the first is the file's line 2)."""
    lines = text[1:] if text.startswith("\ufeff") else text
    lines = lines.replace("\r\n", "\n").split("\n")
    if lines[0].rstrip() != "---":
        raise _FrontmatterError(source, 1, "SKILL.md must begin with YAML frontmatter (a line '---')")
    for number, line in enumerate(lines[1:], 2):
        if line.rstrip() == "---":
            return lines[1:number - 1]
    raise _FrontmatterError(source, len(lines), "the frontmatter is not closed by a line '---'")


def _is_item(content: str) -> bool:
    """Whether a line's content (indentation removed) is a block sequence entry."""
    return content == "-" or content.startswith(("- ", "-\t"))


def _key_colon(text: str) -> int:
    """Where the ``:`` that ends a plain key is in ``text`` (followed by a space or the end), or -1."""
    import re
    colon = re.search(r":(?=[ \t]|\Z)", text)
    return -1 if colon is None or " #" in text[:colon.start()] else colon.start()


class _YAMLSubset:
    """Reads the YAML that SKILL.md frontmatter is written in (README, "Agent Skills", its limits).

    It knows block mappings and sequences by indentation, plain, single- and double-quoted
    scalars, literal (``|``) and folded (``>``) block scalars, one-line flow collections
    (``[a, b]``, ``{k: v}``) and comments. Plain scalars resolve as YAML 1.2's core schema
    says: null, true/false, integers and floats, else strings (so ``yes`` and ``2024-01-01``
    stay strings). What it does not know (anchors, aliases, tags, complex keys, quoted or flow
    values over several lines) it refuses, naming the line, rather than guess: the entry's
    frontmatter must be what a YAML parser reads from the same file.
    """

    def __init__(self, text: str, source: str) -> None:
        self.lines, self.source, self.first = _frontmatter_lines(text, source), source, 2   # lines[0] is line 2
        self.key_lines = {}                   # top-level key -> its line in the file

    def fail(self, index: int, message: str):
        raise _FrontmatterError(self.source, self.first + index, message)

    def parse(self) -> dict:
        start = self._next(0)
        if start is None:
            return {}
        value, rest = self._block(start, self._indent(start), top=True)
        if rest is not None:
            self.fail(rest, "this line is indented less than the first key")
        if not isinstance(value, dict):
            self.fail(start, "the frontmatter must be a mapping of keys to values")
        return value

    # -- lines ------------------------------------------------------------------
    def _indent(self, index: int) -> int:
        line = self.lines[index]
        spaces = len(line) - len(line.lstrip(" "))
        if line[spaces:spaces + 1] == "\t":
            self.fail(index, "a tab indents this line; YAML indents with spaces")
        return spaces

    def _next(self, index: int):
        """The first line from ``index`` on that is neither blank nor a comment (None: the end)."""
        for number in range(index, len(self.lines)):
            stripped = self.lines[number].strip()
            if stripped and not stripped.startswith("#"):
                return number
        return None

    # -- block collections ------------------------------------------------------
    def _block(self, index: int, indent: int, top: bool = False) -> tuple:
        """The mapping or sequence whose first line is ``index``; returns (value, next line)."""
        if _is_item(self.lines[index][indent:]):
            return self._sequence(index, indent)
        return self._mapping(index, indent, top)

    def _mapping(self, index, indent: int, top: bool = False) -> tuple:
        result = {}
        while index is not None and self._indent(index) == indent:
            content = self.lines[index][indent:]
            if _is_item(content):
                self.fail(index, "a list item where a key was expected")
            key, rest = self._key(index, content)
            if key in result:
                self.fail(index, "the key %r appears twice" % key)
            if top:
                self.key_lines[key] = self.first + index
            result[key], index = self._value(index, rest, indent, in_mapping=True)
        if index is not None and self._indent(index) > indent:
            self.fail(index, "unexpected indentation")
        return result, index

    def _sequence(self, index, indent: int) -> tuple:
        items = []
        while index is not None and self._indent(index) == indent and _is_item(self.lines[index][indent:]):
            after = self.lines[index][indent + 1:]
            stripped = after.lstrip(" ")
            column = indent + 1 + len(after) - len(stripped)
            if stripped and (_is_item(stripped) or self._starts_key(stripped)):
                self.lines[index] = " " * column + stripped      # "- k: v" is a mapping at k's column
                value, index = self._block(index, column)
            else:
                value, index = self._value(index, after, indent, in_mapping=False)
            items.append(value)
        if index is not None and self._indent(index) > indent:
            self.fail(index, "unexpected indentation")
        return items, index

    def _starts_key(self, text: str) -> bool:
        if text[0] in "\"'":
            try:
                _, rest = self._quoted(0, text)
            except _FrontmatterError:
                return False
            return rest.startswith(":")
        return text[0] not in "[{|>#" and _key_colon(text) >= 0

    def _key(self, index: int, content: str) -> tuple:
        if content[0] in "\"'":
            key, rest = self._quoted(index, content)
            if not rest.startswith(":") or rest[1:2] not in ("", " ", "\t"):
                self.fail(index, "expected ':' after the quoted key")
            return key, rest[1:]
        if content[0] in "?&*!|>%@`[{":
            self.fail(index, "a key cannot start with %r (complex keys, anchors, aliases and tags are "
                             "not supported)" % content[0])
        colon = _key_colon(content)
        if colon < 0:
            self.fail(index, "expected 'key: value'")
        return content[:colon].rstrip(), content[colon + 1:]

    # -- values ---------------------------------------------------------------------
    def _value(self, index: int, rest: str, indent: int, in_mapping: bool) -> tuple:
        """The value after ``key:`` or ``-`` on line ``index``; returns (value, next line)."""
        text = rest.strip()
        if not text or text.startswith("#"):
            following = self._next(index + 1)
            if following is not None and self._indent(following) > indent:
                return self._block(following, self._indent(following))
            if following is not None and in_mapping and self._indent(following) == indent and \
                    _is_item(self.lines[following][indent:]):
                return self._sequence(following, indent)        # "key:" then "- item" at the key's column
            return None, following
        if text[0] in "|>":
            return self._block_scalar(index, text, indent)
        if text[0] in "[{\"'":                  # a flow collection or a quoted scalar, then only a comment
            value, position = self._flow_node(index, text, 0)
            tail = text[position:].strip()
            if tail and not tail.startswith("#"):
                self.fail(index, "unexpected text after the value: %r" % tail)
            return value, self._next(index + 1)
        if text[0] in "&*!%@`":
            self.fail(index, "a value cannot start with %r (anchors, aliases and tags are not supported)"
                             % text[0])
        return self._plain(index, text, indent)

    def _plain_line(self, index: int, text: str) -> str:
        cut = min([p for p in (text.find(" #"), text.find("\t#")) if p >= 0] or [len(text)])
        text = text[:cut].strip()
        if _key_colon(text) >= 0:
            self.fail(index, "a plain value cannot contain ': ' or end in ':' (put the value in quotes)")
        if _is_item(text) or text.startswith(("? ", ": ")):
            self.fail(index, "a value cannot start with %r here (put the value in quotes)" % text[:2])
        return text

    def _plain(self, index: int, text: str, indent: int) -> tuple:
        """A plain scalar; its continuation lines (indented more than its key) fold into it."""
        parts, blank, number = [self._plain_line(index, text)], 0, index + 1
        while number < len(self.lines):
            stripped = self.lines[number].strip()
            if not stripped:
                blank, number = blank + 1, number + 1
                continue
            if stripped.startswith("#") or self._indent(number) <= indent:
                break
            parts.append("\n" * blank if blank else " ")
            parts.append(self._plain_line(number, stripped))
            blank, number = 0, number + 1
        return self._resolve(index, "".join(parts)), self._next(number)

    def _resolve(self, index: int, text: str):
        """A plain scalar's value under YAML 1.2's core schema (the regular expressions are the spec's)."""
        import re
        if text in ("", "~", "null", "Null", "NULL"):
            return None
        if text in ("true", "True", "TRUE", "false", "False", "FALSE"):
            return text[0] in "tT"
        if re.fullmatch(r"[-+]?[0-9]+", text):
            return int(text)
        if re.fullmatch(r"0o[0-7]+|0x[0-9a-fA-F]+", text):
            return int(text[2:], 8 if text[1] == "o" else 16)
        if re.fullmatch(r"[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)", text):
            self.fail(index, "%s is not a number JSON can carry (put it in quotes)" % text)
        if re.fullmatch(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?", text):
            value = float(text)
            if value in (float("inf"), float("-inf")):
                self.fail(index, "%s is too large for JSON (put it in quotes)" % text)
            return value
        return text

    def _quoted(self, index: int, text: str) -> tuple:
        """A single- or double-quoted scalar at the start of ``text``: (value, the text after it)."""
        quote, out, position = text[0], [], 1
        while position < len(text):
            char = text[position]
            if char == quote:
                if quote == "'" and text[position + 1:position + 2] == "'":
                    out.append("'")
                    position += 2
                    continue
                return "".join(out), text[position + 1:]
            if char == "\\" and quote == '"':
                char, position = self._escape(index, text, position + 1)
            else:
                position += 1
            out.append(char)
        self.fail(index, "a quoted value must end on the line it starts (multi-line quoted values are "
                         "not supported)")

    def _escape(self, index: int, text: str, position: int) -> tuple:
        code = text[position:position + 1]
        if code in _YAML_ESCAPES:
            return _YAML_ESCAPES[code], position + 1
        width = _YAML_HEX_ESCAPES.get(code)
        digits = text[position + 1:position + 1 + width] if width else ""
        if not width or len(digits) != width or any(c not in "0123456789abcdefABCDEF" for c in digits):
            self.fail(index, "unknown escape \\%s in a double-quoted value" % code)
        return chr(int(digits, 16)), position + 1 + width

    def _flow(self, index: int, text: str, position: int) -> tuple:
        """A one-line flow sequence or mapping starting at ``text[position]``: (value, end)."""
        close = "]" if text[position] == "[" else "}"
        result = [] if close == "]" else {}
        position += 1
        while True:
            position = len(text) - len(text[position:].lstrip())
            if position >= len(text):
                self.fail(index, "a flow collection must end on the line it starts ('%s' is missing)" % close)
            if text[position] == close:
                return result, position + 1
            if close == "]":
                value, position = self._flow_node(index, text, position)
                result.append(value)
            else:
                key, position = self._flow_node(index, text, position, key=True)
                value = None
                position = len(text) - len(text[position:].lstrip())
                if text[position:position + 1] == ":":
                    value, position = self._flow_node(index, text, position + 1)
                if key in result:
                    self.fail(index, "the key %r appears twice" % key)
                result[key] = value
            position = len(text) - len(text[position:].lstrip())
            if text[position:position + 1] == ",":
                position += 1
            elif text[position:position + 1] != close:
                self.fail(index, "expected ',' or '%s' in the flow collection" % close)

    def _flow_node(self, index: int, text: str, position: int, key: bool = False) -> tuple:
        position = len(text) - len(text[position:].lstrip())
        char = text[position:position + 1]
        if char in ("[", "{") and not key:
            return self._flow(index, text, position)
        if char in ("\"", "'"):
            value, rest = self._quoted(index, text[position:])
            return value, len(text) - len(rest)
        end = position                        # a plain scalar ends at a flow indicator or ": "
        while end < len(text) and text[end] not in ",[]{}" and not (
                text[end] == ":" and text[end + 1:end + 2] in ("", " ", ",", "[", "]", "{", "}")):
            end += 1
        raw = text[position:end].strip()
        if not raw or raw[0] in "&*!|>%@`#":
            self.fail(index, "expected a value at %r in the flow collection" % text[position:position + 10])
        return (raw if key else self._resolve(index, raw)), end

    # -- block scalars ------------------------------------------------------------------
    def _block_scalar(self, index: int, text: str, indent: int) -> tuple:
        """A literal (``|``) or folded (``>``) block scalar; its header may carry + / - and a digit."""
        header = text.split(" #")[0].strip()
        chomp, explicit = "clip", None
        for char in header[1:]:
            if char in "+-" and chomp == "clip":
                chomp = "keep" if char == "+" else "strip"
            elif char in "123456789" and explicit is None:
                explicit = int(char)
            else:
                self.fail(index, "a block scalar header is | or > with at most one of + - and one digit")
        column = indent + explicit if explicit else None
        body, number = [], index + 1
        while number < len(self.lines):
            line = self.lines[number]
            if line.strip():
                spaces = len(line) - len(line.lstrip(" "))
                column = spaces if column is None and spaces > indent else column
                if column is None or spaces < column:
                    break
            body.append(line[column:] if column is not None and line.strip() else "")
            number += 1
        trailing = 0
        while body and body[-1] == "":
            body.pop()
            trailing += 1
        value = "\n".join(body) if header[0] == "|" else _fold(body)
        if body:
            value += {"strip": "", "clip": "\n", "keep": "\n" * (1 + trailing)}[chomp]
        return value, self._next(number)


def _fold(lines: list) -> str:
    """Folded block scalar text: a single line break between two plain lines becomes a space."""
    out, previous, empties = [], None, 0
    for line in lines:
        if line == "":
            empties += 1
            continue
        if previous is None:
            out.append("\n" * empties)
        elif previous[:1] in (" ", "\t") or line[:1] in (" ", "\t"):
            out.append("\n" * (empties + 1))           # more-indented lines keep their line breaks
        else:
            out.append("\n" * empties if empties else " ")
        out.append(line)
        previous, empties = line, 0
    return "".join(out)


def _parse_frontmatter(text: str, source: str = "SKILL.md") -> dict:
    """A whole SKILL.md's frontmatter as a skill entry's JSON object; its errors name ``source`` and the line."""
    return _YAMLSubset(text, source).parse()


def _checked_frontmatter(text, source: str, folder: str) -> dict:
    """SKILL.md's frontmatter, after the rules every served skill keeps: UTF-8, the Agent Skills naming
    rules and the extension's rule that the name is the folder's, and a description."""
    if not isinstance(text, str):
        raise _FrontmatterError(source, 1, "SKILL.md is not UTF-8 text")
    reader = _YAMLSubset(text, source)
    front = reader.parse()
    name, line = front.get("name"), reader.key_lines.get("name", 1)
    if not isinstance(name, str) or not name:
        raise _FrontmatterError(source, line, "the frontmatter needs a name (a non-empty string)")
    if len(name) > 64 or not set(name) <= _SKILL_NAME_CHARS or "-" in (name[0], name[-1]) or "--" in name:
        raise _FrontmatterError(source, line, "the name %r must be 1-64 lowercase letters, digits and single "
                                              "hyphens, not starting or ending with a hyphen" % name)
    if name != folder:
        raise _FrontmatterError(source, line, "the name %r must be the name of the skill's folder, %r"
                                % (name, folder))
    description = front.get("description")
    if not isinstance(description, str) or not description.strip() or len(description) > 1024:
        raise _FrontmatterError(source, reader.key_lines.get("description", 1),
                                "the frontmatter needs a description: a string of 1 to 1024 characters")
    return front


def _visible(relative: str) -> bool:
    """Files under a dot-folder or with a dot-name (.git, .DS_Store) are not part of a skill."""
    return not any(part.startswith(".") for part in relative.split("/"))


class _Skill:
    """One served skill: its folder, its skill path and the files it was registered with.

    The set of files is fixed when the skill is added (it is what ``resources/list`` and
    ``resources/read`` serve); their content is live, so every entry hashes what is on disk
    now. Digests and the frontmatter are kept while a file's size, mtime and inode stay the
    same, so listing many skills does not reread them.
    """

    def __init__(self, base: str, path: str, files: list) -> None:
        self.base, self.path = base, path
        self.root_uri = "skill://" + _quote_path(path)           # the skill's directory resource
        self.uri = self.root_uri + "/SKILL.md"
        self.files = ["SKILL.md"] + [f for f in files if f != "SKILL.md"]
        self._digests = {}                 # relative path -> (stat key, digest, size)
        self._front = (None, None)         # (stat key of SKILL.md, its frontmatter)

    def file_uri(self, relative: str) -> str:
        return self.root_uri + "/" + _quote_path(relative)

    def read(self, relative: str):
        """A file's content, through add_directory's traversal-safe reader."""
        return _read_below(self.base, _quote_path(relative))   # it unquotes: names with % survive

    def _stat_key(self, relative: str):
        info = os.lstat(os.path.join(self.base, *relative.split("/")))
        return info.st_size, info.st_mtime_ns, info.st_ino

    def frontmatter(self) -> dict:
        """Raises OSError (SKILL.md is gone) or ValueError (its frontmatter is not valid now)."""
        key = self._stat_key("SKILL.md")
        cached_key, front = self._front
        if cached_key != key:
            front = _checked_frontmatter(self.read("SKILL.md"), self.uri, self.path.rsplit("/", 1)[-1])
            self._front = (key, front)
        return front

    def _digest(self, relative: str):
        """``(digest, size)`` of a file as it is now, or None if it is gone."""
        import hashlib
        try:
            key = self._stat_key(relative)
            cached = self._digests.get(relative)
            if cached is not None and cached[0] == key:
                return cached[1:]
            data = self.read(relative)
        except OSError:
            return None
        raw = data.encode("utf-8") if isinstance(data, str) else data   # the reader decoded strict UTF-8
        self._digests[relative] = (key, "sha256:" + hashlib.sha256(raw).hexdigest(), len(raw))
        return self._digests[relative][1:]

    def entry(self) -> dict:
        """The extension's Skill object: the SKILL.md URI, its frontmatter, every file's digest and size."""
        front = self.frontmatter()
        resources = []
        for relative in self.files:
            found = self._digest(relative)
            if found is not None:
                resources.append({"uri": self.file_uri(relative), "digest": found[0], "size": found[1]})
        return {"uri": self.uri, "frontmatter": front, "resources": resources}


def _skill_folders(root: str, limit: int) -> list:
    """The folders below ``root`` (relative; "" for root itself) that hold a SKILL.md."""
    files = _regular_files(root, limit + 1)
    if len(files) > limit:
        raise ValueError("more than %d files below %r (raise max_files to serve them)" % (limit, root))
    return sorted(f.rpartition("/")[0] for f in files if f.rpartition("/")[2] == "SKILL.md" and _visible(f))


def _load_skills(path: str, prefix: str, limit: int) -> list:
    """Every skill below ``path`` as a _Skill, each checked against the extension's rules."""
    root = os.path.realpath(path)
    if not os.path.isdir(root):
        raise ValueError("not a directory: %r" % path)
    lead = [part for part in (prefix or "").split("/") if part]
    if any(part in (".", "..") for part in lead):
        raise ValueError("the skill prefix %r must not contain . or .. segments" % prefix)
    folders = _skill_folders(root, limit)
    if not folders:
        raise ValueError("no SKILL.md below %r: a skill is a folder with a SKILL.md in it" % path)
    if "" in folders:                           # root is a skill itself: its folder names it
        lead.append(os.path.basename(root))
    skills = []
    for folder in folders:
        base = os.path.join(root, *folder.split("/")) if folder else root
        files = [f for f in _regular_files(base, limit) if _visible(f)]     # root had no more
        skill = _Skill(base, "/".join(lead + ([folder] if folder else [])), files)
        source = os.path.join(base, "SKILL.md")
        _checked_frontmatter(skill.read("SKILL.md"), source, os.path.basename(base))
        total = sum(os.lstat(os.path.join(base, *f.split("/"))).st_size for f in skill.files)
        if len(skill.files) > SKILL_MAX_FILES or total > SKILL_MAX_BYTES:
            raise ValueError("the skill %s has %d files and %d bytes: the skills extension allows %d files "
                             "and %d bytes per skill" % (source, len(skill.files), total, SKILL_MAX_FILES,
                                                         SKILL_MAX_BYTES))
        skills.append(skill)
    return skills


def _directory_children(skills: list, uri: str, describe) -> list:
    """The direct children of a directory in the skill namespace, or None if ``uri`` is none.

    A directory is every level above a served file: the skill's root, its subfolders and
    the prefix above it. Files are described as ``resources/list`` describes them
    (``describe(uri)``), subfolders as directory resources.
    """
    from urllib.parse import unquote
    children, directory = {}, uri.rstrip("/") + "/"
    for skill in skills:
        for relative in skill.files:
            file_uri = skill.file_uri(relative)
            if file_uri.startswith(directory) and len(directory) > len("skill://"):
                name, below, _ = file_uri[len(directory):].partition("/")
                child = directory + name
                children.setdefault(child, {"uri": child, "name": unquote(name), "mimeType": DIRECTORY_MIME}
                                    if below else describe(file_uri))
    return [children[key] for key in sorted(children)] if children else None


# The handlers and the MCPServer method of Agent Skills ----------------------------

def _skills_of(server: "MCPServer") -> dict:
    """The server's skills: SKILL.md URI -> _Skill (empty until add_skills)."""
    return _part(server, "skills") or {}


def _skills_capabilities(server: "MCPServer", rev, capabilities: dict) -> None:
    if capabilities.pop("skills", None) is not None:      # an extension: declared under extensions
        capabilities.setdefault("extensions", {})[SKILLS_EXTENSION] = {"directoryRead": True}


def _on_skills_list(server, call: _Call) -> dict:
    with server._lock:
        skills = list(_skills_of(server).values())
    result = _page(skills, call.params.get("cursor"), server.page_size)
    entries = []
    for skill in result.pop("items"):
        try:
            entries.append(skill.entry())
        except (OSError, ValueError) as exc:       # a listing may be partial; skills/get says why
            _logger().warning("minimcp: skills/list leaves out %s: %s", skill.uri, exc)
    result["skills"] = entries
    result.update(ttlMs=server.cache_ttl_ms, cacheScope=server.cache_scope)
    return _trim("skills_result", result, call.rev.version)

def _on_skills_get(server, call: _Call) -> dict:
    uri = _required(call.params, "uri")
    skill = _skills_of(server).get(uri)               # one dict lookup, as tools/call and prompts/get do it
    if skill is None:
        raise _invalid_params("No skill is served at %s" % uri, {"uri": uri})
    try:
        entry = skill.entry()
    except OSError:
        raise _invalid_params("No skill is served at %s (its SKILL.md is gone)" % uri, {"uri": uri}) from None
    except ValueError as exc:
        raise MCPError(INTERNAL_ERROR, "Internal error: %s" % exc, {"uri": uri}) from None
    result = {"skill": entry, "ttlMs": server.cache_ttl_ms, "cacheScope": server.cache_scope}
    return _trim("skills_result", result, call.rev.version)

def _on_directory_read(server, call: _Call) -> dict:
    uri, version = _required(call.params, "uri"), call.rev.version
    with server._lock:
        skills = list(_skills_of(server).values())

    def describe(file_uri: str) -> dict:
        record = server._resources.get(file_uri)
        return _shaped(record, _shape_resource, version) if record else {"uri": file_uri, "name": file_uri}
    children = _directory_children(skills, uri, describe)
    if children is None:
        raise _invalid_params("%s is not a directory resource" % uri, {"uri": uri})
    result = _page(children, call.params.get("cursor"), server.page_size)
    result["resources"] = result.pop("items")
    return result


def _add_skills(server, path: str, *, prefix: str = None, max_files: int = 10000) -> None:
    """Serve Agent Skills (SEP-2640): every folder below ``path`` that holds a SKILL.md.

    Each file of a skill is the read-only resource ``skill://<skill path>/<file>``, read
    as ``add_directory`` reads files (never leaving the folder, never through a link), and
    the server declares the ``io.modelcontextprotocol/skills`` extension: ``skills/list``,
    ``skills/get`` and ``resources/directory/read``. The files are those found now; their
    content (and so each digest) is read live.

    Args:
        path: a skill's folder, or a folder of skills (nested to any depth).
        prefix: ``/``-separated segments put in front of every skill path (``acme/billing``).
        max_files: the most files looked at below ``path``.

    Raises:
        ValueError: no SKILL.md; frontmatter that cannot be read, naming the file and line;
            a name that is not its folder's; a skill over the extension's limits (512 files,
            16 MiB); or a URI that is already served.
    """
    skills = _load_skills(path, prefix, max_files)
    fronts = {skill.uri: skill.frontmatter() for skill in skills}
    files = {}                                       # a nested skill's files are its parent's too
    for skill in skills:
        for relative in skill.files:
            files.setdefault(skill.file_uri(relative), (skill, relative))
    with server._lock:
        taken = sorted(uri for uri in files if uri in server._resources or uri in _skills_of(server))
    if taken:
        raise ValueError("already served: %s" % ", ".join(taken))
    for uri, (skill, relative) in files.items():
        front = fronts.get(uri)
        options = {"name": front["name"], "description": front["description"], "mime_type": "text/markdown"} \
            if front else {"name": relative.rsplit("/", 1)[-1],
                           "mime_type": _guess_mime(relative, "application/octet-stream")}
        server.add_resource(lambda s=skill, r=relative: s.read(r), uri, **options)
    with server._lock:
        _part(server, "skills", dict).update((skill.uri, skill) for skill in skills)


_plug("skills", "Agent Skills (SEP-2640): skill folders as skill:// resources",
      methods={"add_skills": _add_skills, "_on_skills_list": _on_skills_list,
               "_on_skills_get": _on_skills_get, "_on_directory_read": _on_directory_read},
      rows={"skills/list":              ("_on_skills_list",     "worker", ALL_VERSIONS, "skills"),
            "skills/get":               ("_on_skills_get",      "worker", ALL_VERSIONS, "skills"),
            "resources/directory/read": ("_on_directory_read",  "reader", ALL_VERSIONS, "skills")},
      fields={"skills_result": {"ttlMs": "2026-07-28", "cacheScope": "2026-07-28"}},   # skills/list, skills/get
      offers={"skills": lambda server: bool(_skills_of(server))}, capabilities=_skills_capabilities)


# Transport: Streamable HTTP as a WSGI app (its modules imported only when used) ####

class _Exchange:
    """The messages one HTTP request is waiting for: its answer, and what comes before it.

    Items are (data, final): ``final`` is the answer itself (as the session wrote it)
    for the last one, else None; ``(None, None)`` says the stream is shut (its session
    ended, or a newer GET replaced it) and must end now; ``(None, CANCELLED)``, that the
    client cancelled the request, which is never answered, so its stream ends unanswered.
    """
    __slots__ = ("queue",)
    CANCELLED = "cancelled"

    def __init__(self) -> None:
        import queue
        self.queue = queue.SimpleQueue()

    LIMIT = 1024                         # notifications queued for a client that does not read

    def push(self, data: bytes, final) -> None:
        if final or self.queue.qsize() < self.LIMIT:   # bounded memory: drop progress, never the answer
            self.queue.put((data, final))

    def shut(self) -> None:
        self.queue.put((None, None))


class _HTTPOut:
    """A session's writer over HTTP: each message goes to the stream of the request it belongs to.

    A request's answer and its progress, logs and questions go on that POST's
    exchange and nowhere else: once that stream is gone they are dropped (the
    spec: never on the GET stream). Messages of no request (list changes,
    resource updates, task status) go on the session's GET stream, if one is
    open, and are dropped otherwise, as the handshake-era transport allows.
    """
    closed = False

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.exchanges = {}              # id key -> _Exchange of the POST that carried that request; None -> GET's

    def put(self, data: bytes, route=None, final=None) -> bool:
        with self.lock:
            target = self.exchanges.get(route)
            if final and target is not None and route is not None:   # the answer closes the exchange
                del self.exchanges[route]
        if target is not None:
            target.push(data, final)
        return False                     # nobody has to drain: delivery is the queue

    def open(self, key) -> _Exchange:
        """A new stream for ``key``; a stream it replaces (an older GET) is shut."""
        exchange = _Exchange()
        with self.lock:
            older, self.exchanges[key] = self.exchanges.get(key), exchange
        if older is not None:
            older.shut()
        return exchange

    def close(self, key, exchange: _Exchange) -> None:
        with self.lock:
            if self.exchanges.get(key) is exchange:
                del self.exchanges[key]

    def cancel(self, key, exchange: _Exchange) -> None:
        """``key``'s request was cancelled: its stream, if it is still ``exchange``, ends unanswered."""
        with self.lock:
            if self.exchanges.get(key) is not exchange:
                return                   # answered already (its answer closed it), or another request's now
            del self.exchanges[key]
        exchange.queue.put((None, _Exchange.CANCELLED))

    def shut_stream(self, key) -> None:
        with self.lock:
            exchange = self.exchanges.pop(key, None)
        if exchange is not None:
            exchange.shut()

    def shut(self) -> None:
        """The session ended: every stream of it ends now, whatever it was waiting for."""
        with self.lock:
            exchanges, self.exchanges = list(self.exchanges.values()), {}
            self.closed = True
        for exchange in exchanges:
            exchange.shut()

    def wait_idle(self, deadline: float) -> None:
        return None


def _client_gone(environ: dict):
    """A check that the client of this request has closed its connection, if the server shows its socket.

    WSGI learns of a disconnect only when a write fails; a stream with nothing to
    say would hold its thread until the next keep-alive. The stdlib server
    (``minimcp.socket``) and gunicorn (``gunicorn.socket``) show the socket: a
    readable socket with nothing to read is a closed one.
    """
    sock = environ.get("minimcp.socket") or environ.get("gunicorn.socket")
    if sock is None or not hasattr(sock, "fileno"):
        return None
    import select
    import socket

    def gone() -> bool:
        try:
            if not select.select([sock], [], [], 0)[0]:
                return False
            return sock.recv(1, socket.MSG_PEEK | getattr(socket, "MSG_DONTWAIT", 0)) == b""
        except BlockingIOError:
            return False
        except (OSError, ValueError):
            return True
    return gone


def _host_stopping():
    """A check that the WSGI server running this process is stopping, where that can be seen; else None.

    gunicorn's worker answers SIGTERM by setting its ``alive`` to False, then waits
    up to ``--graceful-timeout`` for the requests it runs; a GET stream never ends on
    its own, so it held the worker that long. The worker is the owner of the SIGTERM
    handler it installed (``signal.getsignal`` may be read from any thread): read
    only, nothing is installed or chained. The stdlib server ends its streams itself.
    """
    import signal
    try:
        handler = signal.getsignal(signal.SIGTERM)
    except (AttributeError, ValueError):
        return None
    worker = getattr(handler, "__self__", None)
    if worker is None or not type(worker).__module__.startswith("gunicorn.") or not hasattr(worker, "alive"):
        return None
    return lambda: not worker.alive


class _HTTPError(Exception):
    """An HTTP refusal: status, a JSON-RPC error body, and extra headers."""

    def __init__(self, status: str, code: int, message: str, headers=(), request_id=None, data=None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, list(headers)
        self.request_id, self.data = request_id, data


_LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]", "::1")
_METADATA_PATH = "/.well-known/oauth-protected-resource"      # RFC 9728
# The JSON-RPC errors that 2026-07-28 answers with an HTTP status other than 200.
_MODERN_ERROR_STATUS = {METHOD_NOT_FOUND: "404 Not Found", UNSUPPORTED_PROTOCOL_VERSION: "400 Bad Request",
                        MISSING_CLIENT_CAPABILITY: "400 Bad Request", HEADER_MISMATCH: "400 Bad Request",
                        INVALID_REQUEST: "400 Bad Request", PARSE_ERROR: "400 Bad Request"}
_SSE_HEADERS = [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache"), ("X-Accel-Buffering", "no")]
def _host_name(host: str) -> str:
    """The host part of a Host header or an Origin's netloc, without the port."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[:host.find("]") + 1] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class _HTTPSession:
    """A handshake-era HTTP session: one _Session of the app, its streams, and when it was last used."""
    __slots__ = ("id", "session", "used", "streams", "owner", "expiry")

    def __init__(self, session_id: str, session: _Session, owner: bytes, expiry: int) -> None:
        self.id, self.session, self.owner = session_id, session, owner     # owner: the identity's digest
        self.expiry = expiry             # Unix seconds, as its id says: every replica ends it then
        self.used = time.monotonic()
        self.streams = 0                 # responses still streaming (a busy session never expires)


class SQLiteSessionStore:
    """Deleted HTTP session ids, in an sqlite3 file that every worker and replica on a host shares.

    A session id is signed, so any replica with the state key can serve it; only a
    store they share can tell them it was deleted. This is the default when
    ``$MINIMCP_SESSION_DIR`` names a directory, and, under a private directory of the
    temporary directory named after the key, whenever the state key is shared
    (``_default_session_store``). For replicas on several hosts, pass any object with
    the same two methods (Redis, a database) as ``session_store=``.

    Args:
        directory: where ``minimcp-sessions.sqlite3`` lives (made if missing).
        keep: seconds a deletion is remembered: a session id expires by then anyway.
    """

    def __init__(self, directory: str, keep: float = 86400.0) -> None:
        import sqlite3
        os.makedirs(directory, exist_ok=True)
        self.path, self.keep = os.path.join(directory, "minimcp-sessions.sqlite3"), keep
        # One connection for the process, used under a lock (each query takes microseconds):
        # one per thread cost a file descriptor per connection thread of the stdlib server.
        self.lock = threading.Lock()
        self.db = sqlite3.connect(self.path, timeout=10.0, check_same_thread=False)
        with self.lock, self.db:
            self.db.execute("CREATE TABLE IF NOT EXISTS revoked (id TEXT PRIMARY KEY, at REAL NOT NULL)")

    def revoke(self, session_id: str) -> None:
        """Remember that ``session_id`` was deleted (and forget deletions older than ``keep``)."""
        now = time.time()
        with self.lock, self.db:
            self.db.execute("INSERT OR REPLACE INTO revoked VALUES (?, ?)", (session_id, now))
            self.db.execute("DELETE FROM revoked WHERE at < ?", (now - self.keep,))

    def is_revoked(self, session_id: str) -> bool:
        """Whether any worker sharing the directory deleted ``session_id``."""
        with self.lock:
            return self.db.execute("SELECT 1 FROM revoked WHERE id = ?", (session_id,)).fetchone() is not None


def _default_session_store(server: "MCPServer", keep: float):
    """Where deleted session ids go when the app is given no ``session_store``.

    ``$MINIMCP_SESSION_DIR``, if set. Else, if the state key is shared (``state_key=`` or
    ``$MINIMCP_STATE_KEY``), other processes may serve this app's sessions (gunicorn's
    workers, replicas on this host, this server after a restart), and each would serve a
    session another had deleted: the processes holding the key share a store in a directory
    of the temporary directory named after a digest of the key, which only this user may
    use. A process with a key of its own is the only one that can serve its sessions, so
    its memory is enough.
    """
    directory = os.environ.get("MINIMCP_SESSION_DIR")
    if directory:
        return SQLiteSessionStore(directory, keep)
    if server._shared_key is None:
        return _MemorySessionStore(keep)
    import hashlib
    import stat
    import tempfile
    name = "minimcp-sessions-" + hashlib.sha256(b"minimcp-session-store:" + server._signing_key()).hexdigest()[:20]
    directory = os.path.join(tempfile.gettempdir(), name)
    try:
        os.mkdir(directory, 0o700)
    except FileExistsError:
        pass
    except OSError as problem:
        raise RuntimeError("minimcp: cannot make %s for deleted HTTP session ids (%s): set MINIMCP_SESSION_DIR "
                           "to a directory every worker shares" % (directory, problem.strerror or problem)) from None
    found = os.lstat(directory)
    private = stat.S_ISDIR(found.st_mode)
    if hasattr(os, "getuid"):            # POSIX, where every user may write to /tmp (Windows': the user's own)
        private = private and found.st_uid == os.getuid() and not found.st_mode & 0o077
    if not private:
        raise RuntimeError("minimcp: %s, where deleted HTTP session ids go, is not a directory only this user may "
                           "use: set MINIMCP_SESSION_DIR to a directory every worker shares" % directory)
    return SQLiteSessionStore(directory, keep)


class _MemorySessionStore:
    """Deleted session ids in this process only: another worker or replica may serve one until it expires."""

    def __init__(self, keep: float) -> None:
        self.keep, self.revoked, self.lock = keep, {}, threading.Lock()

    def revoke(self, session_id: str) -> None:
        now = time.monotonic()
        with self.lock:
            self.revoked[session_id] = now
            for old in [k for k, when in self.revoked.items() if now - when > self.keep]:
                del self.revoked[old]

    def is_revoked(self, session_id: str) -> bool:
        return session_id in self.revoked


# A session id (a handshake-era Mcp-Session-Id) is this, then 16 bytes of its HMAC-SHA256, in
# base64url: 64 characters whatever the client sent. format, revision (an index of
# PROTOCOL_VERSIONS), the client's capabilities (bits of _CAPABILITY_BITS), expiry (Unix
# seconds), a nonce, and 8-byte digests of the client's info and of the auth hook's identity.
_SESSION_TOKEN = ">BBHI8s8s8s"
_CAPABILITY_BITS = (("roots",), ("roots", "listChanged"), ("sampling",), ("sampling", "context"),
                    ("sampling", "tools"), ("elicitation",), ("elicitation", "form"), ("elicitation", "url"),
                    ("tasks",), ("tasks", "list"), ("tasks", "cancel"),
                    ("tasks", "requests", "sampling", "createMessage"),
                    ("tasks", "requests", "elicitation", "create"), ("experimental",))


_SESSION_ID_LENGTH = 64                  # the token and its MAC, 48 bytes: base64url needs no padding
_BASE64URL = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def _session_key(session_id: str):
    """The one spelling of the session id ``session_id`` decodes to, or None if it is spelled otherwise.

    base64 decoders are lenient: they skip characters outside the alphabet (``<id>.``,
    ``~<id>``), take padding (``<id>==``) and the standard alphabet's ``+/`` for ``-_``, and each
    such spelling decoded to a session that DELETE had revoked under the other. 64 characters of
    the base64url alphabet encode 48 bytes one way only, so anything else is no session id;
    the tables and the store are keyed by the decoded bytes re-encoded.
    """
    if len(session_id) != _SESSION_ID_LENGTH or not _BASE64URL.issuperset(session_id):
        return None
    key = _b64url(_unb64url(session_id))
    return key if key == session_id else None


def _capability_bits(capabilities: dict) -> int:
    bits = 0
    for bit, path in enumerate(_CAPABILITY_BITS):
        node = capabilities
        for name in path:
            node = node.get(name) if isinstance(node, dict) else None
        if node is not None and node is not False:
            bits |= 1 << bit
    return bits


def _capabilities_from_bits(bits: int) -> dict:
    """The capabilities a session id names, as the client declared them (flags True, the rest objects)."""
    capabilities = {}
    for bit, path in enumerate(_CAPABILITY_BITS):
        if bits >> bit & 1:
            node = capabilities
            for name in path[:-1]:
                node = node.setdefault(name, {})
            node.setdefault(path[-1], True if path[-1] == "listChanged" else {})
    return capabilities


def _digest(value) -> bytes:
    """8 bytes that tell two clients' info, or two identities, apart (None has one too)."""
    import hashlib
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=repr)
    return hashlib.sha256(text.encode("utf-8")).digest()[:8]


class _PostSession(_Session):
    """The session of one POST without Mcp-Session-Id: a 2026-07-28 request, or the ``initialize`` opening one.

    A 2026-07-28 request's tasks are the app's, shared by its POSTs (a task outlives
    the request that made it, SEP-2663), and so are their listeners; a session that
    ``initialize`` opens keeps tasks of its own.
    """

    def __init__(self, server: "MCPServer", out: _HTTPOut, shared_tasks: dict, auth=None) -> None:
        self.shared_tasks = shared_tasks
        super().__init__(server, out, auth, one_of_many=True)

    @property
    def tasks(self) -> dict:
        return self.own_tasks if self.lasting else self.shared_tasks

    @tasks.setter
    def tasks(self, table: dict) -> None:
        self.own_tasks = table

    def stop(self) -> None:
        self.shared_tasks = {}          # stop() cancels its session's tasks; the app's outlive this POST
        super().stop()

    def _announce_task(self, task: _Task) -> None:
        if self.lasting:
            super()._announce_task(task)
            return
        # The subscriptions/listen stream naming this task is another POST, so another session.
        for session in self.server._live_sessions():
            for call, wanted in list(session.listens.values()):
                if task.id in (wanted.get("taskIds") or ()):
                    session.notify_listener(call, "notifications/tasks", task.detailed())


def _accepts(environ: dict) -> tuple:
    """(JSON, SSE): which of the two answers the request's Accept header takes."""
    types = [part.split(";", 1)[0].strip().lower() for part in environ.get("HTTP_ACCEPT", "").split(",")]
    anything = "*/*" in types
    return (anything or "application/json" in types or "application/*" in types,
            anything or "text/event-stream" in types or "text/*" in types)


class _HTTPApp:
    """The MCP endpoint as a PEP 3333 WSGI application (see ``MCPServer.wsgi_app``).

    POST carries one JSON-RPC message. A 2026-07-28 request (its ``_meta``
    envelope and ``MCP-Protocol-Version`` header) stands alone: it is served by
    a session of its own that ends with the answer. In the handshake era,
    ``initialize`` opens an HTTP session whose ``Mcp-Session-Id`` (64 bytes,
    ``_SESSION_TOKEN``) is signed with the server's state key and names the
    negotiated revision, the client's capabilities and digests of its info and of
    the identity the ``auth`` hook returned, so any replica sharing the key can
    serve the session's later requests, to that identity only (404 to others);
    GET opens its stream for server-initiated messages and DELETE ends it, for
    every worker sharing the ``session_store`` (``SQLiteSessionStore`` under
    ``$MINIMCP_SESSION_DIR``). Answers are JSON, or SSE when notifications or
    questions to the client come first.
    """

    def __init__(self, server: "MCPServer", path: str = "/mcp", allowed_hosts=None, allowed_origins=None,
                 auth=None, max_body: int = 4 * 1024 * 1024, max_sessions: int = 1000,
                 session_idle: float = 1800.0, session_lifetime: float = 86400.0, keepalive: float = 15.0,
                 disconnect_probe: float = 0.5, session_store=None, resource_metadata: dict = None,
                 revocation_probe: float = 0.25) -> None:
        self.server, self.path, self.auth, self.max_body = server, path, auth, max_body
        self.allowed_hosts = _env_list("MINIMCP_ALLOWED_HOSTS", allowed_hosts)
        self.allowed_origins = _env_list("MINIMCP_ALLOWED_ORIGINS", allowed_origins)
        self.token = os.environ.get("MINIMCP_HTTP_TOKEN") or None
        self.max_sessions, self.session_idle, self.session_lifetime = max_sessions, session_idle, session_lifetime
        self.keepalive, self.disconnect_probe = keepalive, disconnect_probe      # a quiet stream's two intervals
        self.revocation_probe = revocation_probe     # a GET stream asks a shared store this often
        self.sessions = {}               # session id -> _HTTPSession (this process's)
        self.store = session_store if session_store is not None else \
            _default_session_store(server, session_lifetime)       # where deleted session ids go
        self.unshared = server._shared_key is None       # a key of this process's own: said once, if it matters
        if resource_metadata is None:    # RFC 9728, served at /.well-known/oauth-protected-resource
            resource_metadata = getattr(server, "resource_metadata", None)
        self.resource_metadata = resource_metadata
        self.stopping = False            # the server's drain time is over: what still waits is answered 503
        self.tasks = {}                  # 2026-07-28 task id -> _Task, shared by this process's requests
        self.lock = threading.Lock()

    # -- the WSGI callable ----------------------------------------------------------
    def __call__(self, environ: dict, start_response):
        if self.unshared and environ.get("wsgi.multiprocess"):
            self.unshared = False
            _logger().warning("minimcp: several processes serve this app, each with a state key of its own: a "
                              "session id or requestState one issues is refused by the others. Set "
                              "MINIMCP_STATE_KEY to one secret for all of them")
        try:
            path = environ.get("PATH_INFO", "")
            if self.resource_metadata is not None and path in (_METADATA_PATH, _METADATA_PATH + self.path):
                self._check_access(environ, authenticate=False)     # what a client reads to learn how to log in
                return self._metadata(environ, start_response)
            environ["minimcp.auth"] = self._check_access(environ)
            if path not in (self.path, self.path + "/"):
                raise _HTTPError("404 Not Found", INVALID_REQUEST, "Not Found: the MCP endpoint is %s" % self.path)
            method = environ.get("REQUEST_METHOD", "GET")
            if method == "OPTIONS":
                return self._reply(start_response, "204 No Content", b"", self._cors(environ))
            handler = {"POST": self._post, "GET": self._get, "DELETE": self._delete}.get(method)
            if handler is None:
                raise _HTTPError("405 Method Not Allowed", INVALID_REQUEST, "Method Not Allowed",
                                 [("Allow", "GET, POST, DELETE, OPTIONS")])
            return handler(environ, start_response)
        except _HTTPError as refusal:
            body = encode_message(_error(refusal.request_id, refusal.code, refusal.message, refusal.data))
            return self._reply(start_response, refusal.status, body, refusal.headers + self._cors(environ))

    def _reply(self, start_response, status: str, body: bytes, headers=()):
        headers = list(headers)
        if body:
            headers.append(("Content-Type", "application/json"))
        headers.append(("Content-Length", str(len(body))))
        start_response(status, headers)
        return [body]

    # -- security -------------------------------------------------------------------
    def _check_access(self, environ: dict, authenticate: bool = True):
        """One Host (400), DNS rebinding (Host 421, Origin 403) and authentication (401), before anything is read.

        Returns who the client is: what the ``auth`` hook returned, or None if it
        returned True (or there is no hook); sessions are bound to it.
        """
        host = environ.get("HTTP_HOST")
        if host is None and environ.get("SERVER_PROTOCOL") != "HTTP/1.0":      # RFC 9112 section 3.2
            raise _HTTPError("400 Bad Request", INVALID_REQUEST, "Bad Request: an HTTP/1.1 request has one Host "
                             "header; this one has none")
        if host is not None and "," in host:     # servers join repeated headers with commas (gunicorn, ours)
            raise _HTTPError("400 Bad Request", INVALID_REQUEST, "Bad Request: a request has one Host header; "
                             "this one has several")
        host = host or environ.get("SERVER_NAME", "")
        hosts = _LOOPBACK_HOSTS if self.allowed_hosts is None else self.allowed_hosts
        if "*" not in hosts and _host_name(host) not in hosts:
            raise _HTTPError("421 Misdirected Request", INVALID_REQUEST, "Misdirected Request: host %r is not "
                             "served here (see allowed_hosts)" % host[:100])
        origin = environ.get("HTTP_ORIGIN")
        if origin is not None and not self._origin_allowed(origin):
            raise _HTTPError("403 Forbidden", INVALID_REQUEST, "Forbidden: origin %r is not allowed "
                             "(see allowed_origins)" % origin[:100])
        if not authenticate or environ.get("REQUEST_METHOD") == "OPTIONS" or (self.auth is None and self.token is None):
            return None
        headers = {key[5:].replace("_", "-").lower(): value for key, value in environ.items()
                   if key.startswith("HTTP_")}
        if self.auth is not None:
            allowed = self.auth(headers)
        else:
            import hmac
            # RFC 9110: the scheme is case-insensitive ("bearer" is "Bearer"); the token is not.
            scheme, _, credentials = headers.get("authorization", "").partition(" ")
            token_matches = hmac.compare_digest(credentials.strip().encode("utf-8"), self.token.encode("utf-8"))
            allowed = scheme.lower() == "bearer" and token_matches
        if not allowed:                  # the token itself is never logged nor echoed
            challenge = 'Bearer realm="mcp"'
            if self.resource_metadata is not None:           # MCP authorization: where to learn how to log in
                challenge += ', resource_metadata="%s"' % (self._base_url(environ) + _METADATA_PATH)
            raise _HTTPError("401 Unauthorized", INVALID_REQUEST, "Unauthorized: a valid bearer token is required",
                             [("WWW-Authenticate", challenge)])
        return None if allowed is True else allowed

    def _base_url(self, environ: dict) -> str:
        host = environ.get("HTTP_HOST") or "%s:%s" % (environ.get("SERVER_NAME", ""), environ.get("SERVER_PORT", ""))
        return "%s://%s" % (environ.get("wsgi.url_scheme", "http"), host)

    def _metadata(self, environ: dict, start_response):
        """RFC 9728 protected-resource metadata: the resource is this endpoint unless it says otherwise."""
        if environ.get("REQUEST_METHOD", "GET") not in ("GET", "HEAD"):
            raise _HTTPError("405 Method Not Allowed", INVALID_REQUEST, "Method Not Allowed", [("Allow", "GET")])
        document = dict(self.resource_metadata)
        document.setdefault("resource", self._base_url(environ) + self.path)
        body = json.dumps(document).encode("utf-8")
        return self._reply(start_response, "200 OK", body, self._cors(environ) + [("Cache-Control", "max-age=3600")])

    def _origin_allowed(self, origin: str) -> bool:
        if self.allowed_origins is not None:
            return "*" in self.allowed_origins or origin in self.allowed_origins
        scheme, _, rest = origin.partition("://")
        return scheme in ("http", "https") and _host_name(rest.split("/")[0]) in _LOOPBACK_HOSTS

    def _cors(self, environ: dict) -> list:
        """CORS headers for a browser page on an allowed origin (checked already)."""
        origin = environ.get("HTTP_ORIGIN")
        if origin is None or not self._origin_allowed(origin):     # a refused origin's 403 is not for its page
            return []
        return [("Access-Control-Allow-Origin", origin), ("Vary", "Origin"),
                ("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS"),
                ("Access-Control-Allow-Headers", "content-type, accept, authorization, mcp-protocol-version, "
                                                 "mcp-session-id, mcp-method, mcp-name, last-event-id"),
                ("Access-Control-Expose-Headers", "mcp-session-id")]

    # -- POST -----------------------------------------------------------------------
    def _read_body(self, environ: dict) -> bytes:
        """The POST body, never more than ``max_body`` bytes of it read, the same under any WSGI server.

        Content-Length must be plain ASCII digits: ``int()`` would also take ``-1`` (and
        ``read(-1)`` reads the whole stream), ``+5``, ``1_0`` and `` 7``. A chunked body has no
        length; it is read piece by piece, and only where the server says the stream ends
        with the body (``wsgi.input_terminated``): elsewhere ``read()`` would wait on the
        connection.
        """
        stream = environ["wsgi.input"]
        if "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
            if not environ.get("wsgi.input_terminated"):
                raise _HTTPError("411 Length Required", INVALID_REQUEST, "Length Required: this WSGI server "
                                 "passes chunked bodies undecoded; send a Content-Length")
            return self._read_to_end(stream)
        length = environ.get("CONTENT_LENGTH") or "0"
        if not (length.isascii() and length.isdigit()):
            raise _HTTPError("400 Bad Request", INVALID_REQUEST, "Bad Request: Content-Length must be a "
                             "number of bytes, not %r" % length[:40])
        # int() of a header of thousands of digits raises on 3.11+; no body that long is served anyway.
        if len(length.lstrip("0")) > 18 or int(length) > self.max_body:
            raise _HTTPError("413 Content Too Large", INVALID_REQUEST, "Invalid Request: the body has %s bytes; "
                             "the limit is %d" % (length[:40], self.max_body))
        size = int(length)
        body = stream.read(size) if size else b""
        if len(body) < size:
            raise _HTTPError("400 Bad Request", INVALID_REQUEST, "Bad Request: the body ended early")
        return body

    def _read_to_end(self, stream) -> bytes:
        """A body of unknown length, read in pieces until it ends or passes ``max_body``."""
        pieces, size = [], 0
        try:
            while True:
                piece = stream.read(min(65536, self.max_body + 1 - size))
                if not piece:
                    return b"".join(pieces)
                pieces.append(piece)
                size += len(piece)
                if size > self.max_body:
                    raise _HTTPError("413 Content Too Large", INVALID_REQUEST, "Invalid Request: the body has "
                                     "more than %d bytes, the limit" % self.max_body)
        except (ValueError, OSError) as problem:            # a malformed chunk, or the client went away
            raise _HTTPError("400 Bad Request", INVALID_REQUEST, "Bad Request: the chunked body could not be "
                             "read (%s)" % problem)

    def _post(self, environ: dict, start_response):
        """One POSTed message: the session admits it; this maps the outcome to a status and a stream."""
        kind = environ.get("CONTENT_TYPE", "").split(";", 1)[0].strip().lower()
        if kind != "application/json":
            raise _HTTPError("415 Unsupported Media Type", INVALID_REQUEST, "Unsupported Media Type: POST a "
                             "JSON-RPC message as application/json, not %r" % kind[:60])
        if not any(_accepts(environ)):
            raise _HTTPError("406 Not Acceptable", INVALID_REQUEST, "Not Acceptable: the answer is "
                             "application/json or text/event-stream; Accept must list them")
        message, problem = _decode_line(self._read_body(environ))
        if problem is not None:
            raise _HTTPError("400 Bad Request", problem["error"]["code"], problem["error"]["message"])
        headers = {key[5:].replace("_", "-").lower(): value for key, value in environ.items()
                   if key.startswith("HTTP_MCP_")}
        session_id = headers.pop("mcp-session-id", None)
        identity = environ.get("minimcp.auth")
        if session_id is not None:
            held = self._find_session(session_id, identity)
            session = held.session
        else:
            held, session = None, _PostSession(self.server, _HTTPOut(), self.tasks, identity)
            with self.server._lock:
                self.server._sessions.add(session)
        if held is not None:
            with self.lock:                          # busy while it admits: never expired under a request
                held.streams += 1
        try:
            admission = session.take(message, headers)
        except BaseException:
            self._done(session, held, None, None)
            raise
        if admission.refusal is not None or admission.stream is None:
            self._done(session, held, admission, None)
            if admission.refusal is None:            # notifications, or the client's answers to us
                return self._reply(start_response, "202 Accepted", b"", self._cors(environ))
            status = self._status(admission, admission.refusal)
            return self._reply(start_response, status, encode_message(admission.refusal), self._cors(environ))
        return self._answer(session, held, admission, environ, start_response)

    def _status(self, admission: _Admission, answer) -> str:
        """The HTTP status of a JSON answer: 400 for a message refused as such; a stateless error's own."""
        if admission.malformed:
            return "400 Bad Request"
        if admission.stateless and isinstance(answer, dict) and isinstance(answer.get("error"), dict):
            return _MODERN_ERROR_STATUS.get(answer["error"].get("code"), "200 OK")
        return "200 OK"

    def _answer(self, session: _Session, held, admission: _Admission, environ: dict, start_response):
        exchange, gone = admission.stream, _client_gone(environ)
        if held is not None:
            self._end_when_cancelled(session, admission)
        takes_json, streams = _accepts(environ)
        interval, gone = self._quiet_interval(admission, gone), self._post_watch(session, held, gone)
        item = self._wait(exchange, interval, gone)
        while not streams and item is None:        # a client that takes no SSE gets the answer only
            item = self._wait(exchange, self.keepalive, gone)
        data, final = item or (None, None)
        if item is False:                          # the client left: nobody to answer (2026-07-28: cancelled)
            if admission.stateless:
                session.cancel_request(admission.request_id, "the client closed the connection")
            self._done(session, held, admission, exchange)
            start_response("200 OK", self._cors(environ) + _SSE_HEADERS)
            return []
        if item is not None and final == _Exchange.CANCELLED:     # cancelled by the client: never answered
            self._done(session, held, admission, exchange)
            if streams:                            # a request is answered with a stream: this one, empty
                start_response("200 OK", self._cors(environ) + _SSE_HEADERS)
                return []
            return self._reply(start_response, "204 No Content", b"", self._cors(environ))
        if item is not None and data is None:      # the session ended, or the server stops
            self._done(session, held, admission, exchange)
            status, text = ("503 Service Unavailable", "Service Unavailable: the server is shutting down") \
                if self.stopping else ("404 Not Found", "Session not found: it ended")
            return self._reply(start_response, status, encode_message(_error(
                admission.request_id, INTERNAL_ERROR if self.stopping else INVALID_REQUEST, text)),
                self._cors(environ))
        headers = self._cors(environ)
        if held is None and session.lasting:       # initialize opened a session: it gets its id
            held = self._keep(session)
            headers.append(("Mcp-Session-Id", held.id))
        if final and takes_json:                   # the answer came first: plain JSON
            self._done(session, held, admission, exchange, finished=True)
            return self._reply(start_response, self._status(admission, final), data, headers)
        start_response("200 OK", headers + _SSE_HEADERS)
        return self._stream(session, held, admission, data, final, gone, interval)

    def _end_when_cancelled(self, session: _Session, admission: _Admission) -> None:
        """Handshake era: a ``notifications/cancelled`` for this request ends its stream at once.

        The session claims a call the client cancels and never answers it, so the stream
        waiting for that answer sent keep-alives for as long as the client stayed. A call
        cancelled otherwise (a timeout answers first; the server stopping still answers)
        is not claimed when its cancellation runs, and its stream waits for that answer.
        """
        call = session.inflight.get(admission.route)
        if call is None:                 # answered already
            return
        route, exchange, out = admission.route, admission.stream, session.out

        def cancelled() -> None:
            if call.done:
                out.cancel(route, exchange)
        call.on_cancel.append(cancelled)
        if call.cancelled:               # the client's cancellation came before the line above
            cancelled()

    def _post_watch(self, session: _Session, held, gone):
        """What a POST stream watches while it waits, besides its client leaving (``gone``).

        Where it shows (``_host_stopping``), the WSGI server stopping: a ``subscriptions/listen``,
        which never finishes, is answered at once (other calls may still finish in the server's
        graceful time). In a handshake-era session, with a shared store, a DELETE that another
        worker answered: the session ends here too, and with it this stream.
        """
        stopping = _host_stopping()
        shared = held is not None and not isinstance(self.store, _MemorySessionStore)
        if stopping is None and not shared:
            return gone

        def watch() -> bool:
            if stopping is not None and stopping():
                session.end_listens()
            if shared:
                self._deleted_elsewhere(held)    # shuts the session's streams: the wait sees it end
            return gone is not None and gone()
        return watch

    def _wait(self, exchange: _Exchange, timeout: float, gone, probe: float = None):
        """The exchange's next (data, final); None after ``timeout`` of silence; False once ``gone()`` is true.

        ``gone`` (None: nothing to watch) is asked every ``probe`` seconds (``disconnect_probe``).
        """
        import queue
        deadline = time.monotonic() + timeout
        probe = self.disconnect_probe if probe is None else probe
        while True:
            left = deadline - time.monotonic()
            try:
                return exchange.queue.get(timeout=max(0.0, min(left, probe) if gone else left))
            except queue.Empty:
                if gone is not None and gone():
                    return False
                if time.monotonic() >= deadline:
                    return None

    def _stream(self, session: _Session, held, admission: _Admission, first, finished, gone, interval: float):
        """Yield SSE events until the answer; a client that goes away cancels a stateless request."""
        exchange = admission.stream
        try:
            if first is not None:
                yield b"event: message\ndata: " + first.rstrip(b"\n") + b"\n\n"
            else:
                yield b": waiting\n\n"
            while not finished:
                item = self._wait(exchange, interval, gone)
                if item is None:
                    yield b": keep-alive\n\n"          # without a socket to watch, a closed one shows up here
                    continue
                if item is False or item[0] is None:  # the client left or cancelled, or the session ended
                    if item is not False and item[1] is None and self.stopping:   # the server stops: an answer
                        yield b"event: message\ndata: " + encode_message(_error(
                            admission.request_id, INTERNAL_ERROR, "the server is shutting down")).rstrip(b"\n") + \
                            b"\n\n"
                        finished = True
                    return
                data, finished = item
                yield b"event: message\ndata: " + data.rstrip(b"\n") + b"\n\n"
        finally:
            if not finished and admission.stateless:
                session.cancel_request(admission.request_id, "the client closed the stream")
            self._done(session, held, admission, exchange, bool(finished))

    def _quiet_interval(self, admission: _Admission, gone=None) -> float:
        """How long a stream may stay silent: short where a disconnect cancels the request.

        WSGI tells a server that its client went away only when a write fails, so
        where the socket cannot be watched (``_client_gone``) a stateless (2026-07-28)
        request, which the client cancels by closing the connection, is probed with a
        comment this often; others only get the keepalive.
        """
        if admission.stateless and gone is None:
            return min(self.keepalive, self.disconnect_probe)
        return self.keepalive

    def _done(self, session: _Session, held, admission, exchange, finished: bool = False) -> None:
        """One POST is over: release its stream; a session that does not last ends with it."""
        if exchange is not None:
            session.out.close(admission.route, exchange)
        if held is not None:
            with self.lock:
                held.streams -= 1
                held.used = time.monotonic()
        elif not (finished and session.lasting):   # kept by _keep: initialize's answer went out
            self._end(session)

    def _end(self, session: _Session) -> None:
        with self.server._lock:
            self.server._sessions.discard(session)
        session.out.shut()                           # its streams end now, not at their next keep-alive
        if not session.stopped:                      # shutdown() stopped it already: its grace is spent
            session.stop()

    # -- the server stops ------------------------------------------------------------
    def close_streams(self) -> None:
        """End every GET stream, and answer every ``subscriptions/listen``: a drain waits for
        requests that finish, and these never do."""
        with self.lock:
            sessions = [held.session for held in self.sessions.values()]
        for session in sessions:
            session.out.shut_stream(None)
        with self.server._lock:
            listening = [s for s in self.server._sessions if isinstance(s.out, _HTTPOut)]
        for session in listening:
            session.end_listens()

    def shutdown(self) -> None:
        """The drain time is over: cancel what runs, give it ``shutdown_grace``, then end every stream.

        A POST still waiting for its answer then gets 503; every request started is answered.
        """
        self.stopping = True
        with self.server._lock:
            sessions = [s for s in self.server._sessions if isinstance(s.out, _HTTPOut)]
        stoppers = [threading.Thread(target=session.stop, daemon=True) for session in sessions]
        for stopper in stoppers:         # each waits shutdown_grace for its calls: all at once
            stopper.start()
        for stopper in stoppers:
            stopper.join(self.server.shutdown_grace + 1.0)
        for session in sessions:
            session.out.shut()

    # -- handshake-era sessions ----------------------------------------------------------
    def _keep(self, session: _Session) -> _HTTPSession:
        """Give an initialized session its id and a place in the table (bounded; idle ones expire)."""
        import hmac
        import hashlib
        import struct
        owner = _digest(session.auth)
        expiry = int(time.time() + self.session_lifetime)
        token = struct.pack(_SESSION_TOKEN, 1, PROTOCOL_VERSIONS.index(session.peer.rev.version),
                            _capability_bits(session.peer.capabilities), expiry,
                            os.urandom(8), _digest(session.peer.info), owner)
        mac = hmac.new(self.server._signing_key(), b"session:" + token, hashlib.sha256).digest()[:16]
        held = _HTTPSession(_b64url(token + mac), session, owner, expiry)
        self._sweep(room_for=1)
        with self.lock:
            self.sessions[held.id] = held
            held.streams = 1                         # the initialize exchange itself, released by _done
        return held

    def _find_session(self, session_id: str, identity) -> _HTTPSession:
        """This process's session, or one another replica opened (its signed id says who the client is).

        Spelled otherwise than it was issued, deleted (by any worker sharing the store),
        expired (here too, where it was opened), forged, or opened by another identity:
        404, as for a session that never was.
        """
        not_found = _HTTPError("404 Not Found", INVALID_REQUEST, "Session not found: initialize again")
        key = _session_key(session_id)
        if key is None:
            raise not_found
        if self.store.is_revoked(key):
            self._forget(key)
            raise not_found
        with self.lock:
            held = self.sessions.get(key)
            if held is not None:
                held.used = time.monotonic()
        if held is None:
            held = self._revive(key, identity, not_found)
        if time.time() >= held.expiry:
            self._forget(key)
            raise not_found
        import hmac
        if not hmac.compare_digest(held.owner, _digest(identity)):
            raise not_found
        return held

    def _forget(self, key: str) -> None:
        """A session deleted elsewhere, or expired: it ends here too, if it lives here."""
        with self.lock:
            held = self.sessions.pop(key, None)
        if held is not None:
            self._end(held.session)

    def _check_session_headers(self, held: _HTTPSession, environ: dict) -> None:
        """GET and DELETE: the session decides whether their headers fit it (MCP-Protocol-Version)."""
        headers = {key[5:].replace("_", "-").lower(): value for key, value in environ.items()
                   if key.startswith("HTTP_MCP_")}
        refusal = held.session.refuses_headers(headers)
        if refusal is not None:
            raise _HTTPError("400 Bad Request", *refusal[:2], data=refusal[2])

    def _revive(self, key: str, identity, not_found: _HTTPError) -> _HTTPSession:
        """A session another replica opened, from its id (``key``, spelled as issued), if it is valid."""
        import hmac
        import hashlib
        import struct
        size = struct.calcsize(_SESSION_TOKEN)
        raw = _unb64url(key)
        token, mac = raw[:size], raw[size:]
        expected = hmac.new(self.server._signing_key(), b"session:" + token, hashlib.sha256).digest()[:16]
        if len(raw) != size + 16 or not hmac.compare_digest(mac, expected):
            raise not_found
        form, revision, bits, expiry, _, _, owner = struct.unpack(_SESSION_TOKEN, token)
        if form != 1 or revision >= len(PROTOCOL_VERSIONS) or time.time() >= expiry or \
                not hmac.compare_digest(owner, _digest(identity)):
            raise not_found
        session = _Session(self.server, _HTTPOut(), identity, one_of_many=True)
        try:                             # the client's info stays with the replica it sent it to
            session.resume(_Peer(REVISIONS[PROTOCOL_VERSIONS[revision]], _capabilities_from_bits(bits), None,
                                 "debug"))
        except ValueError:
            raise not_found from None
        self._sweep(room_for=1)
        with self.lock:
            held = self.sessions.setdefault(key, _HTTPSession(key, session, owner, expiry))
        if held.session is not session:  # another request revived it first: this one never served
            session.stop()
            return held
        with self.server._lock:
            self.server._sessions.add(held.session)
        return held

    def _sweep(self, room_for: int = 0) -> None:
        """Expire idle sessions; make room for new ones by ending the least recently used idle ones."""
        now = time.monotonic()
        with self.lock:
            idle = sorted((h for h in self.sessions.values() if h.streams == 0), key=lambda h: h.used)
            stale = sum(1 for h in idle if now - h.used > self.session_idle)      # the oldest: a prefix of idle
            expired = idle[:max(stale, len(self.sessions) + room_for - self.max_sessions)]
            if len(self.sessions) - len(expired) + room_for > self.max_sessions:
                raise _HTTPError("503 Service Unavailable", INTERNAL_ERROR, "Service Unavailable: too many "
                                 "open sessions (%d)" % self.max_sessions)
            for held in expired:
                del self.sessions[held.id]
        for held in expired:
            self._end(held.session)

    def _get(self, environ: dict, start_response):
        """The handshake-era stream for messages that belong to no request."""
        session_id = environ.get("HTTP_MCP_SESSION_ID")
        if session_id is None:
            raise _HTTPError("405 Method Not Allowed", INVALID_REQUEST, "Method Not Allowed: GET opens a session's "
                             "stream (send Mcp-Session-Id); protocol 2026-07-28 has none", [("Allow", "POST")])
        if not _accepts(environ)[1]:
            raise _HTTPError("406 Not Acceptable", INVALID_REQUEST, "Not Acceptable: GET opens an event stream; "
                             "Accept must list text/event-stream")
        held = self._find_session(session_id, environ.get("minimcp.auth"))
        self._check_session_headers(held, environ)
        exchange = held.session.out.open(None)              # a newer GET stream replaces an older one
        with self.lock:
            held.streams += 1
        start_response("200 OK", self._cors(environ) + _SSE_HEADERS)
        return self._standalone(held, exchange, *self._standalone_ends(held, _client_gone(environ)))

    def _standalone_ends(self, held: _HTTPSession, gone) -> tuple:
        """(check, interval): what ends a quiet GET stream besides its own queue, and how often to look.

        A GET stream never finishes on its own, so three things are watched: its client
        leaving (``gone``, every ``disconnect_probe``); a DELETE that another worker or
        replica answered, which only a shared ``session_store`` tells (every
        ``revocation_probe``: one cheap read; an in-process store needs no probe, its
        DELETE shuts the stream itself); and the WSGI server stopping (gunicorn's
        SIGTERM, which would otherwise wait its graceful timeout on this stream).
        """
        checks = [check for check in (gone, _host_stopping()) if check is not None]
        interval = self.disconnect_probe
        if not isinstance(self.store, _MemorySessionStore):
            checks.append(lambda: self._deleted_elsewhere(held))
            interval = min(interval, self.revocation_probe)
        if not checks:
            return None, interval
        return (lambda: any(check() for check in checks)), interval

    def _deleted_elsewhere(self, held: _HTTPSession) -> bool:
        """Whether another worker deleted this session: if so it ends here too, streams and calls."""
        try:
            revoked = self.store.is_revoked(held.id)
        except Exception:                # a store that fails for a moment must not cut a stream
            _logger().warning("minimcp: the session store could not be read", exc_info=True)
            return False
        if revoked:
            with self.lock:
                ours = self.sessions.pop(held.id, None) is held
            if ours:                     # its streams end now; stop() may wait shutdown_grace for calls
                held.session.out.shut()
                threading.Thread(target=self._end, args=(held.session,), daemon=True).start()
        return revoked

    def _standalone(self, held: _HTTPSession, exchange: _Exchange, ends, interval: float):
        try:
            yield b": stream open\n\n"
            while held.id in self.sessions and time.time() < held.expiry:    # it ends with its session
                quiet = max(0.0, min(self.keepalive, held.expiry - time.time()))
                item = self._wait(exchange, quiet, ends, interval)
                if item is None:
                    yield b": keep-alive\n\n"
                    continue
                if item is False or item[0] is None:  # the client left, a DELETE, a newer GET, the server stops
                    return
                yield b"event: message\ndata: " + item[0].rstrip(b"\n") + b"\n\n"
        finally:
            held.session.out.close(None, exchange)
            with self.lock:
                held.streams -= 1
                held.used = time.monotonic()

    def _delete(self, environ: dict, start_response):
        session_id = environ.get("HTTP_MCP_SESSION_ID")
        if session_id is None:
            raise _HTTPError("405 Method Not Allowed", INVALID_REQUEST, "Method Not Allowed: DELETE ends a session "
                             "(send Mcp-Session-Id)", [("Allow", "POST")])
        held = self._find_session(session_id, environ.get("minimcp.auth"))
        self.store.revoke(held.id)                   # every worker sharing the store refuses it from now on
        with self.lock:
            self.sessions.pop(held.id, None)
        self._end(held.session)
        return self._reply(start_response, "204 No Content", b"", self._cors(environ))


def _env_list(name: str, given):
    """An allowlist from the argument, else from a comma-separated environment variable, else None."""
    if given is not None:
        return [given] if isinstance(given, str) else list(given)
    value = os.environ.get(name)
    return [item.strip().lower() for item in value.split(",") if item.strip()] if value else None


def _run_http(app: "MCPServer", host: str, port: int, options: dict) -> None:
    """``app.run(transport="http")``: serve until SIGTERM or Ctrl-C, drain, then close the socket.

    The address goes to stderr once bound (unless the caller passes its own ``ready``);
    a port that is taken is a message and exit status 1, not a traceback.
    """
    import signal
    if "ready" not in options:
        path = options.get("path", "/mcp")

        def announce(httpd):
            bound = httpd.server_address
            shown = "[%s]" % bound[0] if ":" in bound[0] else bound[0]
            sys.stderr.write("minimcp: serving %s at http://%s:%d%s\n" % (app.name, shown, bound[1], path))
            sys.stderr.flush()
        options = dict(options, ready=announce)
    serving, ready = [], options["ready"]

    def bound(httpd) -> None:
        serving.append(httpd)
        ready(httpd)

    def on_sigterm(signum, frame) -> None:
        # The first SIGTERM asks the server to stop at its next safe point (service_actions,
        # within poll_interval); raised wherever it landed, socketserver shut the connection
        # it was handing to a thread, and that thread's reply failed (EPIPE). A second one,
        # while draining, stops now.
        if serving and not serving[0].stop_asked:
            serving[0].stop_asked = True
            return
        raise _Terminated()
    options = dict(options, ready=bound)
    on_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, on_sigterm) if on_main else None
    try:
        _serve_http(app, host, port, **options)
    except (KeyboardInterrupt, _Terminated):
        pass                             # a second signal while draining: stop now
    finally:
        if on_main:
            signal.signal(signal.SIGTERM, previous)


class _ChunkedBody:
    """A chunked request body (RFC 9112 section 7.1) read as the plain bytes it carries.

    Reads are bounded by the caller's size; malformed framing raises ValueError. The framing
    is read strictly, as a proxy in front may read it: every line ends in CRLF, a chunk size
    is hex digits only (``int(size, 16)`` also takes ``0x10``, ``+10`` and ``1_0``).
    """

    def __init__(self, raw) -> None:
        self.raw = raw
        self.left = 0                    # bytes of the current chunk not read yet
        self.done = False                # the last chunk and the trailers are read

    def read(self, size: int = -1) -> bytes:
        pieces = []
        while not self.done and size != 0:
            if self.left == 0:
                self._start_chunk()
                continue
            piece = self.raw.read(self.left if size < 0 else min(self.left, size))
            if not piece:
                raise ValueError("the body ended inside a chunk")
            pieces.append(piece)
            self.left -= len(piece)
            size = size - len(piece) if size > 0 else size
            if self.left == 0 and self.raw.read(2) != b"\r\n":
                raise ValueError("a chunk is longer than its size says")
        return b"".join(pieces)

    def _line(self, limit: int) -> bytes:
        line = self.raw.readline(limit)
        if not line.endswith(b"\r\n") or b"\r" in line[:-2]:
            raise ValueError("a line of the chunked framing does not end in CRLF" if line else
                             "the body ended inside the chunked framing")
        return line[:-2]

    def _start_chunk(self) -> None:
        size, extension, _ = self._line(1026).partition(b";")    # chunk extensions are allowed and ignored
        if extension:
            size = size.rstrip(b" \t")                           # whitespace before ";" (BWS)
        if not size or len(size) > 16 or not _HEX_DIGITS.issuperset(size):
            raise ValueError("a chunk size line is malformed")
        self.left = int(size, 16)
        if self.left == 0:                                      # the last chunk: skip the trailer fields
            for _ in range(64):
                if not self._line(8194):
                    self.done = True
                    return
            raise ValueError("too many trailer fields")

    def close(self) -> None:
        self.raw.close()


_HEX_DIGITS = frozenset(b"0123456789abcdefABCDEF")


class _BodyInput:
    """``wsgi.input`` for a body of Content-Length bytes: never reads into the next request."""

    def __init__(self, raw, length: int) -> None:
        self.raw, self.left = raw, length

    def read(self, size: int = -1) -> bytes:
        size = self.left if size is None or size < 0 else min(size, self.left)
        data = self.raw.read(size) if size else b""
        self.left -= len(data)
        if len(data) < size:
            self.left = -1               # ended early: the connection cannot carry another request
        return data

    def readline(self, size: int = -1) -> bytes:
        size = self.left if size is None or size < 0 else min(size, self.left)
        data = self.raw.readline(size) if size else b""
        self.left -= len(data)
        return data

    @property
    def done(self) -> bool:
        return self.left == 0


class _HeadTooLarge(Exception):
    """A request head ran past ``_ConnectionInput.HEAD_LIMIT``."""


class _ConnectionInput(io.RawIOBase):
    """A connection's bytes, as the request handler's ``rfile`` reads them: within the request's deadline.

    A socket timeout bounds one read, so a client that sends a byte every few seconds
    (slow loris) held its thread forever. Every read here waits at most ``per_read``
    (``read_timeout``), and never past ``deadline``, the time by which the whole request,
    head and body, must have arrived; ``late`` says it passed. While a head is read,
    ``budget`` bounds the bytes it may take (``HEAD_LIMIT``, then ``_HeadTooLarge``).
    """
    HEAD_LIMIT = 128 * 1024              # a request line (64 KiB at most) and its headers

    def __init__(self, sock, per_read: float) -> None:
        import socket
        super().__init__()
        self.sock, self.per_read, self.timeout = sock, per_read, socket.timeout
        self.deadline = None             # monotonic seconds; None: no whole-request bound
        self.budget = None
        self.late = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        wait = self.per_read
        if self.deadline is not None:
            wait = min(wait, self.deadline - time.monotonic())
            if wait <= 0:
                self.late = True
                raise self.timeout("the request did not arrive in time")
        view = memoryview(buffer)
        if self.budget is not None:
            if self.budget <= 0:
                raise _HeadTooLarge()
            view = view[:self.budget]
        self.sock.settimeout(wait)
        try:
            count = self.sock.recv_into(view)
        except self.timeout:
            self.late = self.deadline is not None and time.monotonic() >= self.deadline
            raise
        finally:
            self.sock.settimeout(self.per_read)          # what writes wait
        if self.budget is not None:
            self.budget -= count
        return count


class _StdlibHTTPServer:
    """What ``_serve_http`` adds to ``http.server``: HTTP/1.1 keep-alive, bounded threads, a drain.

    wsgiref answers one request per connection over HTTP/1.0, so every request of a
    client paid a TCP handshake (and, with Python's listen backlog of 5, SYN retries
    under load). Here each connection runs a loop of requests on its own thread, at
    most ``max_connections`` at once, with that many waiting in the listen backlog.
    Past that, a connection is answered 503 with Retry-After by a thread of its own that
    ends within seconds (at most ``max_connections // 4`` of them), never closed without a
    status. GET requests (the streams that never end on their own) hold at most
    ``max_streams`` of the connections, so streams never starve other requests. A
    request's head and body must arrive within ``request_timeout`` of its first byte
    (of the connection, for the first), and a connection waits ``idle_timeout`` for
    its next request. ``drain`` is the end: stop accepting, let started requests finish,
    then cancel the rest and answer them. A mixin: ``_bind_http`` puts it before
    ``ThreadingMixIn`` and ``HTTPServer``, which are imported only when serving.
    """
    daemon_threads = True
    allow_reuse_address = True
    application = None                   # the WSGI app served (wsgiref's name for it)

    def __init__(self, address, handler, max_connections: int, max_streams: int) -> None:
        self.draining = False
        self.stop_asked = False          # SIGTERM's: serve_forever ends at its next service_actions
        self.busy = 0                    # requests between their first line and their last byte
        self.idle = set()                # sockets waiting for a next request
        self.changed = threading.Condition()
        self.request_queue_size = max(5, max_connections)   # the listen backlog: a burst waits, not SYN retries
        self.max_connections, self.max_streams = max_connections, max_streams
        self.limit = threading.BoundedSemaphore(max_connections)
        self.streams = threading.BoundedSemaphore(max_streams)
        self.turning_away = threading.BoundedSemaphore(max(8, max_connections // 4))
        super().__init__(address, handler)

    def get_app(self):
        return self.application

    def service_actions(self) -> None:
        """serve_forever's point between requests: where a stop that SIGTERM asked for begins."""
        if self.stop_asked:
            raise _Terminated()

    def process_request(self, request, client_address) -> None:
        if self.draining:
            self.shutdown_request(request)
            return
        if not self.limit.acquire(blocking=False):          # bounded threads
            self.turn_away(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:            # no thread to serve it: the slot is free again
            self.limit.release()
            raise

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.limit.release()

    def turn_away(self, request) -> None:
        """A connection past ``max_connections``: answered 503 on a short-lived thread of its own."""
        if not self.turning_away.acquire(blocking=False):   # as many as that at once: answered here, unread
            self.send_busy(request, linger=0.0)
            return
        try:
            threading.Thread(target=self.send_busy, args=(request, 2.0, True), daemon=True).start()
        except BaseException:
            self.turning_away.release()
            self.shutdown_request(request)
            raise

    def send_busy(self, request, linger: float, counted: bool = False) -> None:
        """503, Retry-After and a JSON-RPC error; then what the client sends is read for up to
        ``linger`` seconds, until it closes: a socket closed with bytes unread is reset, and a
        reset can cost the client the answer it has not read yet."""
        import socket
        message = "Service Unavailable: this server has its %d connections open; retry later" % self.max_connections
        body = encode_message(_error(None, INTERNAL_ERROR, message))
        head = ("HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Type: application/json\r\n"
                "Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body))
        try:
            request.settimeout(1.0)
            request.sendall(head.encode("latin-1") + body)
            request.shutdown(socket.SHUT_WR)
            deadline = time.monotonic() + linger
            while time.monotonic() < deadline:
                request.settimeout(max(0.01, deadline - time.monotonic()))
                if not request.recv(65536):
                    break
        except OSError:
            pass
        finally:
            self.shutdown_request(request)
            if counted:
                self.turning_away.release()

    def waiting(self, sock, idle: bool, started: bool = False) -> bool:
        """A connection waits for a request's head (idle), or stops waiting: True if it may go on.

        ``started``: the head was read, so the request is served (and counted busy, which a
        drain waits for), unless the drain began while it was being read.
        """
        with self.changed:
            if idle:
                self.idle.add(sock)
                return not self.draining
            self.idle.discard(sock)
            if not started or self.draining:
                return False
            self.busy += 1
            return True

    def working(self, delta: int) -> None:
        with self.changed:
            self.busy += delta
            self.changed.notify_all()

    def wait_idle(self, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        with self.changed:
            while self.busy and time.monotonic() < deadline:
                self.changed.wait(max(0.0, min(0.5, deadline - time.monotonic())))
            return not self.busy

    def drain(self, wsgi: "_HTTPApp", drain_seconds: float, grace: float) -> None:
        """SIGTERM (or shutdown()): no new connections; started requests finish, then are cancelled and answered."""
        import socket
        with self.changed:
            self.draining = True
            idle = list(self.idle)
        self.socket.close()              # stop accepting: new connections are refused by the kernel
        for sock in idle:                # keep-alive connections between requests: closed now
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        wsgi.close_streams()             # GET streams never finish on their own
        if not self.wait_idle(drain_seconds):
            wsgi.shutdown()              # cancel, shutdown_grace, then every waiting request is answered
            self.wait_idle(grace + 5.0)


class _WSGIResponse:
    """One WSGI response on a ``_RequestLoop`` connection: ``start_response``, then the head with the first bytes."""

    def __init__(self, handler: "_RequestLoop") -> None:
        self.handler, self.status, self.headers, self.sent = handler, None, None, False
        self.head_only = handler.command == "HEAD"

    def start_response(self, status: str, headers, exc_info=None):
        if exc_info is not None and self.sent:
            raise exc_info[1].with_traceback(exc_info[2])
        self.status, self.headers = status, list(headers)
        return self.write

    def send_head(self) -> None:
        handler = self.handler
        code = self.status.split(" ", 1)[0]
        names = {name.lower() for name, _ in self.headers}
        lines = ["%s %s\r\n" % (handler.protocol_version, self.status),
                 "Server: %s\r\n" % handler.version_string(), "Date: %s\r\n" % handler.date_time_string()]
        lines += ["%s: %s\r\n" % pair for pair in self.headers]
        if "content-length" not in names and code not in ("204", "304") and not self.head_only:
            handler.close_connection = True      # a stream (SSE) ends with its connection, as SSE readers expect
        if handler.close_connection:
            lines.append("Connection: close\r\n")
        elif handler.request_version == "HTTP/1.0":
            lines.append("Connection: keep-alive\r\n")
        handler.wfile.write(("".join(lines) + "\r\n").encode("latin-1"))
        self.sent = True

    def write(self, data: bytes) -> None:
        if not self.sent:
            self.send_head()
        if data and not self.head_only:
            self.handler.wfile.write(data)


_TOKEN_CHARACTERS = frozenset("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


class _RequestLoop:
    """The request handler's own part (``_request_handler`` adds ``BaseHTTPRequestHandler``): requests
    one after another on a kept-alive connection, each run through the WSGI app.

    ``timeout`` (one read or write), ``request_timeout`` (a request's head and body) and
    ``idle_timeout`` (between requests) are set by ``_request_handler``. Whatever the
    server refuses itself (bad framing, a head too large or too slow, no room for a
    stream) is answered with a JSON-RPC error, and the connection closed.
    """
    protocol_version = "HTTP/1.1"
    server_version = "minimcp/" + __version__
    idle_timeout = 5.0
    request_timeout = 5.0
    # TCP_NODELAY: the head and the body go out in two writes, and on a kept-alive connection
    # Nagle held the body until the client's delayed ACK of the head, 40 ms per request.
    disable_nagle_algorithm = True

    def log_message(self, *args) -> None:    # no access log on stderr (tokens in URLs)
        return None

    def setup(self) -> None:
        super().setup()
        self.rfile.close()                   # socketserver's reader: this one keeps the request's deadline
        self.input = _ConnectionInput(self.connection, self.timeout)
        self.rfile = io.BufferedReader(self.input)

    def handle(self) -> None:
        """Requests, one after another, until the client or the server closes the connection."""
        first = True
        while True:
            # Until its head is read, a request has not started: a drain closes the connection.
            if not self.server.waiting(self.connection, True):
                return                               # draining
            head = self.read_head(first)
            if not self.server.waiting(self.connection, False, started=head):
                return
            first = False
            try:
                self.run_app()
            finally:
                self.server.working(-1)
            if self.close_connection:
                return

    def read_head(self, first: bool) -> bool:
        """Read a request line and headers; False if there is none to serve (answered if it was bad).

        The request's deadline starts at its first byte (for a connection's first request,
        when the connection was accepted: connecting is asking).
        """
        self.close_connection = True
        raw, arrived = self.input, False
        raw.late = False
        raw.deadline = time.monotonic() + (self.request_timeout if first else self.idle_timeout)
        try:
            if not self.rfile.peek(1):
                return False                         # closed: by the client, or by the drain
            arrived = True
            if not first:
                raw.deadline = time.monotonic() + self.request_timeout
            raw.budget = raw.HEAD_LIMIT
            self.raw_requestline = self.rfile.readline(65537)
            if len(self.raw_requestline) > 65536:
                self.requestline, self.request_version, self.command = "", "", ""
                self.send_error(414)
                return False
            return self.parse_request()              # it has answered 400/431/505 itself if not
        except _HeadTooLarge:
            self.send_error(431, "Request Header Fields Too Large: a request head has %d bytes at most"
                            % raw.HEAD_LIMIT)
        except OSError:                  # too slow, idle too long, or closed by the drain
            if arrived and raw.late:
                self.send_error(408, "Request Timeout: a request must arrive whole within %g s"
                                % self.request_timeout)
        finally:
            raw.budget = None
        return False

    def send_error(self, code: int, message: str = None, explain: str = None) -> None:
        """``http.server``'s refusals (and ours) as JSON-RPC errors; the connection closes after them."""
        reason = self.responses.get(code, ("Error",))[0]
        self.refuse("%d %s" % (code, reason), message or reason)

    def refuse(self, status: str, message: str, headers=()) -> None:
        self.close_connection = True
        body = encode_message(_error(None, INTERNAL_ERROR if status.startswith("5") else INVALID_REQUEST, message))
        lines = ["HTTP/1.1 %s\r\n" % status, "Server: %s\r\n" % self.version_string(),
                 "Date: %s\r\n" % self.date_time_string(), "Content-Type: application/json\r\n",
                 "Content-Length: %d\r\n" % len(body), "Connection: close\r\n"]
        lines += ["%s: %s\r\n" % pair for pair in headers]
        try:
            self.wfile.write(("".join(lines) + "\r\n").encode("latin-1") + body)
        except OSError:
            pass

    def body_input(self):
        """``wsgi.input``, framed as RFC 9112 section 6 says; _HTTPError for framing that is refused.

        Nothing of a body may ever be read as the next request: a Transfer-Encoding other
        than chunked (which a proxy in front may apply and this server would not undo) is
        501, an invalid one or one with Content-Length is 400, and either closes the
        connection, as any malformed framing does.
        """
        codings = self.headers.get_all("Transfer-Encoding")
        lengths = self.headers.get_all("Content-Length") or []
        if codings is not None:
            if self.request_version == "HTTP/1.0" or lengths:
                raise _HTTPError("400 Bad Request", INVALID_REQUEST, "Bad Request: Transfer-Encoding is refused "
                                 "with Content-Length, and in HTTP/1.0")
            names = [name.strip().lower() for name in ",".join(codings).split(",") if name.strip()]
            if not names or not all(_TOKEN_CHARACTERS.issuperset(name) for name in names) or \
                    "chunked" in names[:-1]:
                raise _HTTPError("400 Bad Request", INVALID_REQUEST, "Bad Request: Transfer-Encoding %r is "
                                 "invalid" % ",".join(codings)[:60])
            if names != ["chunked"]:
                raise _HTTPError("501 Not Implemented", INVALID_REQUEST, "Not Implemented: the only "
                                 "Transfer-Encoding served is chunked, not %r" % ",".join(codings)[:60])
            return _ChunkedBody(self.rfile)
        length = lengths[0] if lengths else "0"
        if len(lengths) > 1 or not (length.isascii() and length.isdigit()):
            raise _HTTPError("400 Bad Request", INVALID_REQUEST, "Bad Request: Content-Length must be one "
                             "number of bytes, not %r" % ",".join(lengths)[:40])
        if len(length) > 18:
            self.close_connection = True                     # the app refuses it (413); the framing is lost
            return _BodyInput(self.rfile, 0)
        return _BodyInput(self.rfile, int(length))

    def environ(self, body) -> dict:
        from urllib.parse import unquote
        path, _, query = self.path.partition("?")
        environ = {"REQUEST_METHOD": self.command, "SCRIPT_NAME": "", "QUERY_STRING": query,
                   "PATH_INFO": unquote(path, "iso-8859-1"), "SERVER_NAME": self.server.server_name,
                   "SERVER_PORT": str(self.server.server_port), "SERVER_PROTOCOL": self.request_version,
                   "REMOTE_ADDR": self.client_address[0], "wsgi.version": (1, 0), "wsgi.url_scheme": "http",
                   "wsgi.input": body, "wsgi.errors": sys.stderr, "wsgi.multithread": True,
                   "wsgi.multiprocess": False, "wsgi.run_once": False,
                   "wsgi.input_terminated": isinstance(body, _ChunkedBody),
                   "minimcp.socket": self.connection}               # so a stream sees its client leave
        for name, value in self.headers.items():
            if "_" in name:              # X_Token must not pass for X-Token
                continue
            key = name.upper().replace("-", "_")
            key = key if key in ("CONTENT_TYPE", "CONTENT_LENGTH") else "HTTP_" + key
            value = value.strip()        # RFC 9110: whitespace around a field value is not part of it
            environ[key] = environ[key] + "," + value if key in environ else value
        return environ

    def run_app(self) -> None:
        try:
            body = self.body_input()
        except _HTTPError as refusal:
            self.refuse(refusal.status, refusal.message)
            return
        stream = self.command == "GET"           # a stream may never end: held to max_streams
        if stream and not self.server.streams.acquire(blocking=False):
            self.refuse("503 Service Unavailable", "Service Unavailable: %d streams are open, the most this "
                        "server holds; retry later" % self.server.max_streams, [("Retry-After", "1")])
            return
        try:
            self.respond(body)
        finally:
            if stream:
                self.server.streams.release()
        if not body.done:                # unread body bytes would be taken for the next request
            self.close_connection = True

    def respond(self, body) -> None:
        response, result = _WSGIResponse(self), None
        try:
            result = self.server.application(self.environ(body), response.start_response)
            for data in result:
                if data:
                    response.write(data)
            if not response.sent:
                response.send_head()
        except OSError:                  # the client went away, or was too slow, mid-request
            self.close_connection = True
            if self.input.late and not response.sent:
                self.send_error(408, "Request Timeout: a request must arrive whole within %g s"
                                % self.request_timeout)
        except Exception:                # the app's own error boundary failed: answer, never hang
            _logger().exception("minimcp: the HTTP request failed")
            self.close_connection = True
            if not response.sent:
                self.send_error(500)
        finally:
            if hasattr(result, "close"):
                result.close()


def _request_handler(read_timeout: float, request_timeout: float, idle_timeout: float):
    """The request handler class: ``_RequestLoop`` on ``http.server``'s, imported only now."""
    from http.server import BaseHTTPRequestHandler
    return type("Handler", (_RequestLoop, BaseHTTPRequestHandler),
                {"timeout": read_timeout, "request_timeout": request_timeout, "idle_timeout": idle_timeout})


def _bind_http(host: str, port: int, handler, max_connections: int, max_streams: int) -> _StdlibHTTPServer:
    """The listening server; a port that is taken (or any bind error) is a message, not a traceback."""
    import socket
    from http.server import HTTPServer
    from socketserver import ThreadingMixIn

    class Server(_StdlibHTTPServer, ThreadingMixIn, HTTPServer):
        address_family = socket.AF_INET6 if ":" in host else socket.AF_INET     # "::1" and "[::1]" alike
    try:
        return Server((host.strip("[]"), port), handler, max_connections, max_streams)
    except OSError as problem:
        import errno
        if problem.errno == errno.EADDRINUSE:
            raise SystemExit("minimcp: cannot serve on %s:%d: the port is taken (is another server running? "
                             "pick another port)" % (host, port)) from None
        raise SystemExit("minimcp: cannot serve on %s:%d: %s" % (host, port, problem.strerror or problem)) from None


def _default_max_connections() -> int:
    """1024 connections, or fewer where the process may open fewer files (each is a file descriptor)."""
    try:
        import resource
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError, ValueError):
        return 1024
    if soft == resource.RLIM_INFINITY:
        return 1024
    return max(16, min(1024, soft - 64))


def _serve_http(app: "MCPServer", host: str, port: int, ready=None, **options) -> None:
    """Run the WSGI app on the standard library's HTTP server until interrupted; then drain.

    Options of the server (the rest go to ``wsgi_app``): ``max_connections`` (1024, fewer if
    the open-files limit is lower), ``max_streams`` (a quarter of those: GET streams at once),
    ``request_timeout`` (5 s for a request's head and body to arrive), ``idle_timeout`` (5 s
    between requests on a kept-alive connection), ``read_timeout`` (30 s for one read or
    write), ``drain_seconds`` (10 s for started requests to finish on SIGTERM).
    """
    read_timeout = options.pop("read_timeout", 30.0)
    request_timeout = options.pop("request_timeout", 5.0)
    idle_timeout = options.pop("idle_timeout", 5.0)
    max_connections = options.pop("max_connections", None) or _default_max_connections()
    max_streams = options.pop("max_streams", None) or max(1, max_connections // 4)
    drain_seconds = options.pop("drain_seconds", 10.0)
    wsgi = app.wsgi_app(**options)
    handler = _request_handler(read_timeout, request_timeout, idle_timeout)
    httpd = _bind_http(host, port, handler, max_connections, max_streams)
    httpd.application = wsgi
    if ready is not None:                # tests and embedders: the bound server
        ready(httpd)
    try:
        # shutdown() (SIGTERM's drain, embedders, the tests' servers) waits until this loop
        # next looks at its flag: poll_interval at most. 50 ms is as quick as a person sees, at
        # 20 idle wake-ups a second; 0.2 s made every test server's end a fifth of a second.
        httpd.serve_forever(poll_interval=0.05)
    finally:
        try:
            httpd.drain(wsgi, drain_seconds, app.shutdown_grace)
        finally:
            httpd.server_close()

# The MCPServer attributes of HTTP ------------------------------------------------

def _wsgi_app(server: "MCPServer", **options) -> "_HTTPApp":
    """The Streamable HTTP endpoint as a WSGI application, for gunicorn, waitress, uWSGI, ...

    Options (README, "Serving over HTTP"): ``path`` ("/mcp"), ``allowed_hosts`` and
    ``allowed_origins`` (loopback; 421 and 403 otherwise), ``auth`` (``fn(headers)`` -> True
    or an identity, ``ctx.auth``; else $MINIMCP_HTTP_TOKEN), ``max_body`` (4 MiB),
    ``max_sessions``, ``session_idle``, ``session_lifetime``, ``keepalive``,
    ``disconnect_probe`` and ``revocation_probe`` (seconds), ``session_store``
    (``revoke``/``is_revoked``; default ``SQLiteSessionStore`` under $MINIMCP_SESSION_DIR)
    and ``resource_metadata`` (RFC 9728).
    """
    return _HTTPApp(server, **options)

def _default_wsgi(server: "MCPServer") -> "_HTTPApp":
    """The WSGI app with default options (``gunicorn 'server:app.wsgi'``)."""
    return _part(server, "http", lambda: _HTTPApp(server))


_plug("http", "Streamable HTTP as a WSGI app, and a server for it on http.server",
      methods={"wsgi_app": _wsgi_app, "wsgi": property(_default_wsgi)},
      transports={"http": _run_http, "streamable-http": _run_http})


# Clients: TestClient for your tests, and the client the command line uses #####

class _ClientBase:
    """A synchronous MCP client over a pair of byte streams, in either era.

    A reader thread routes responses to waiting requests, answers the server's own
    requests (handshake era) with the callbacks, and records notifications. In the
    2026-07-28 era the same callbacks answer input-required results, and the
    request is retried until it completes.
    """

    def __init__(self, protocol: str = LATEST_HANDSHAKE_VERSION, sampling=None, roots=None,
                 elicitation=None, log_level: str = None, timeout: float = 30.0,
                 client_info: dict = None) -> None:
        if protocol not in PROTOCOL_VERSIONS:
            raise ValueError("unknown protocol %r; use one of %s" % (protocol, ", ".join(PROTOCOL_VERSIONS)))
        self.protocol = protocol
        self.modern = protocol in MODERN
        self.sampling, self.roots, self.elicitation = sampling, roots, elicitation
        self.log_level = log_level
        self.timeout = timeout
        self.client_info = client_info or {"name": "minimcp-client", "version": __version__}
        self.capabilities = {}
        if sampling is not None:
            self.capabilities["sampling"] = {}
        if roots is not None:
            self.capabilities["roots"] = {} if self.modern else {"listChanged": True}
        if elicitation is not None:
            self.capabilities["elicitation"] = {"form": {}, "url": {}}
        self.notifications = []
        self.progress = []
        self.logs = []
        self.server_info = {}
        self._answers = {}
        self._next_id = 0
        self._cond = threading.Condition()
        self._write_lock = threading.Lock()
        self._closed = False
        self._answering = 0              # answers to the server's requests still being worked out
        self._closing = False            # our end of its stdin is closing: no more answers
        self.late_requests = []          # methods the server asked once we could no longer answer
        self._progress_at = {}           # progress token -> when its last notification came
        self.lines_read = 0              # lines the server wrote, JSON-RPC or not

    # -- plumbing ---------------------------------------------------------------------
    def _start(self, reader, writer) -> None:
        self._reader_stream, self._writer_stream = reader, writer
        self._thread = threading.Thread(target=self._read, name="minimcp-client", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        for line in self._reader_stream:
            self.lines_read += 1
            try:
                message = json.loads(line.decode("utf-8"))
            except ValueError:
                self._on_impure(line)
                continue
            for item in message if isinstance(message, list) else [message]:
                self._route(item)
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def _route(self, message) -> None:
        if not isinstance(message, dict):
            return
        if "method" in message and "id" in message:
            with self._cond:
                if self._closing:        # too late to answer: say so in close()'s report
                    self.late_requests.append(message["method"])
                    return
                self._answering += 1
            threading.Thread(target=self._answer_server, args=(message,), daemon=True).start()
            return
        with self._cond:
            if "method" in message:
                self.notifications.append(message)
                params = message.get("params") or {}
                if message["method"] == "notifications/progress":
                    self.progress.append(params)
                    self._progress_at[_id_key(params.get("progressToken"))] = time.monotonic()
                    self._on_progress(params)
                elif message["method"] == "notifications/message":
                    self.logs.append(params)
                    self._on_log(params)
            else:
                self._answers[_id_key(message.get("id"))] = message
            self._cond.notify_all()

    def _on_impure(self, line: bytes) -> None:
        """A stdout line that is not JSON: said on stderr (the command line adds the usual cause)."""
        sys.stderr.write("minimcp: the server wrote a line that is not JSON-RPC: %r\n" % line[:200])

    def _on_progress(self, params: dict) -> None:
        """Hook for the command line, which shows progress as it arrives."""

    def _on_log(self, params: dict) -> None:
        """Hook for the command line, which shows log messages as they arrive."""

    def _answer_question(self, method: str, params: dict) -> dict:
        """Answer a sampling / roots / elicitation / ping question with the callbacks."""
        if method == "ping":
            return {}
        if method == "roots/list" and self.roots is not None:
            roots = self.roots() if callable(self.roots) else self.roots
            return {"roots": [r if isinstance(r, dict) else {"uri": r} for r in roots]}
        if method == "sampling/createMessage" and self.sampling is not None:
            answer = self.sampling(params)
            if isinstance(answer, str):
                answer = {"role": "assistant", "content": {"type": "text", "text": answer}, "model": "test"}
            return answer
        if method == "elicitation/create" and self.elicitation is not None:
            return self.elicitation(params)
        raise MCPError(METHOD_NOT_FOUND, "this client does not answer %s" % method)

    def _answer_server(self, message: dict) -> None:
        try:
            try:
                result = self._answer_question(message["method"], message.get("params") or {})
                reply = _response(message["id"], result)
            except MCPError as exc:
                reply = {"jsonrpc": "2.0", "id": message["id"], "error": exc.to_error()}
            except Exception as exc:
                reply = _error(message["id"], INTERNAL_ERROR, "client callback failed: %s" % exc)
            try:
                self._send(reply)
            except MCPError:                 # the server's stdin is closed: nobody to tell
                with self._cond:
                    self.late_requests.append(message["method"])
        finally:
            with self._cond:
                self._answering -= 1
                self._cond.notify_all()

    def _close_input(self, timeout: float) -> None:
        """Let answers being worked out go out, refuse new questions, then close the server's stdin."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._answering and time.monotonic() < deadline:
                self._cond.wait(max(0.0, deadline - time.monotonic()))
            self._closing = True
        try:
            self._writer_stream.close()
        except OSError:
            pass

    def _send(self, message) -> None:
        with self._write_lock:
            try:
                self._writer_stream.write(encode_message(message))
                self._writer_stream.flush()
            except (OSError, ValueError):
                raise MCPError(INTERNAL_ERROR, "the server is gone (its stdin is closed)") from None

    def _envelope(self, params: dict) -> dict:
        params = dict(params or {})
        meta = dict(params.get("_meta") or {})
        if self.modern:
            meta.update({META_VERSION: self.protocol, META_CLIENT_CAPS: self.capabilities,
                         META_CLIENT_INFO: self.client_info})
            if self.log_level:
                meta[META_LOG_LEVEL] = self.log_level
        if meta:
            params["_meta"] = meta
        return params

    def notify(self, method: str, params: dict = None) -> None:
        """Send a notification."""
        self._send(_notification(method, params))

    #: What a timeout message adds: how to wait longer (the command line names --timeout).
    TIMEOUT_HINT = "the server may still be working on it; give the client a longer timeout"

    def wait_for_progress(self, token, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for a progress notification with ``token``."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while _id_key(token) not in self._progress_at and not self._closed:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
            return _id_key(token) in self._progress_at

    def send_request(self, method: str, params: dict = None, on_id=None) -> dict:
        """Send one request and wait for its response message (result or error), raw.

        The wait is ``timeout`` seconds from the request, or from the request's last
        progress notification: a long call that keeps reporting progress is not given up
        on (the TypeScript SDK's ``resetTimeoutOnProgress``).
        """
        with self._cond:
            self._next_id += 1
            request_id = self._next_id
        if on_id is not None:
            on_id(request_id)
        params = self._envelope(params)
        token = ((params or {}).get("_meta") or {}).get("progressToken")
        token = _id_key(token) if token is not None else None
        self._send(_request(request_id, method, params))
        sent = time.monotonic()
        with self._cond:
            while _id_key(request_id) not in self._answers:
                last = max(sent, self._progress_at.get(token, sent))
                left = last + self.timeout - time.monotonic()
                if self._closed:
                    raise MCPError(INTERNAL_ERROR, "the server closed the connection before answering %s" % method)
                if left <= 0:
                    self._send(_notification("notifications/cancelled", {"requestId": request_id,
                                                                         "reason": "timed out"}))
                    raise MCPError(INTERNAL_ERROR, "no answer to %s within %s seconds%s (%s)"
                                   % (method, self.timeout, " of its last progress" if last > sent else "",
                                      self.TIMEOUT_HINT))
                self._cond.wait(min(left, 0.25))
            return self._answers.pop(_id_key(request_id))

    def request(self, method: str, params: dict = None, on_id=None) -> dict:
        """Send a request and return its result; raises MCPError for an error response.

        In the 2026-07-28 era input-required results are answered with the callbacks
        and the request is retried until it completes.
        """
        params = dict(params or {})
        for _ in range(16):
            answer = self.send_request(method, params, on_id)
            if "error" in answer:
                error = answer["error"] if isinstance(answer["error"], dict) else {}
                raise MCPError(error.get("code", INTERNAL_ERROR), error.get("message", ""), error.get("data"))
            result = answer.get("result") or {}
            if result.get("resultType") != "input_required":
                return result
            responses = {key: self._answer_question(question.get("method"), question.get("params") or {})
                         for key, question in (result.get("inputRequests") or {}).items()}
            params = dict(params, inputResponses=responses)
            if "requestState" in result:
                params["requestState"] = result["requestState"]
        raise MCPError(INTERNAL_ERROR, "%s still needed input after 16 rounds" % method)

    # -- the session ------------------------------------------------------------------
    def connect(self) -> dict:
        """Open the session: ``initialize`` (handshake era) or ``server/discover`` (2026-07-28)."""
        if self.modern:
            result = self.request("server/discover")
            self.server_info = (result.get("_meta") or {}).get(META_SERVER_INFO, {})
            return result
        result = self.request("initialize", {"protocolVersion": self.protocol, "capabilities": self.capabilities,
                                             "clientInfo": self.client_info})
        self.server_info = result.get("serverInfo", {})
        self.notify("notifications/initialized")
        if self.log_level:
            self.request("logging/setLevel", {"level": self.log_level})
        return result

    def _list(self, method: str, field: str) -> list:
        items, cursor, seen = [], None, set()
        while True:
            result = self.request(method, {"cursor": cursor} if cursor else {})
            items.extend(result.get(field, []))
            cursor = result.get("nextCursor")
            if not cursor:
                return items
            if not isinstance(cursor, str) or cursor in seen:   # a server that pages for ever
                raise MCPError(INTERNAL_ERROR, "%s: the server sent the cursor %r again; its pages "
                                               "never end" % (method, cursor))
            seen.add(cursor)

    def list_tools(self) -> list:
        """All tools (every page)."""
        return self._list("tools/list", "tools")

    def list_resources(self) -> list:
        """All fixed resources (every page)."""
        return self._list("resources/list", "resources")

    def list_resource_templates(self) -> list:
        """All resource templates (every page)."""
        return self._list("resources/templates/list", "resourceTemplates")

    def list_prompts(self) -> list:
        """All prompts (every page)."""
        return self._list("prompts/list", "prompts")

    def call_tool(self, name: str, arguments: dict = None, on_id=None) -> dict:
        """Call a tool; progress and log notifications are collected in ``progress`` / ``logs``."""
        self._next_token = getattr(self, "_next_token", 0) + 1
        params = {"name": name, "arguments": arguments or {}, "_meta": {"progressToken": self._next_token}}
        return self.request("tools/call", params, on_id)

    def read_resource(self, uri: str) -> dict:
        """Read a resource; returns the result (``contents``)."""
        return self.request("resources/read", {"uri": uri})

    def get_prompt(self, name: str, arguments: dict = None) -> dict:
        """Get a prompt; returns the result (``messages``)."""
        return self.request("prompts/get", {"name": name, "arguments": arguments or {}})

    def complete(self, ref: str, argument: str, value: str = "", context: dict = None) -> dict:
        """Complete an argument of a prompt (``ref`` = its name) or template (``ref`` = its URI)."""
        reference = {"type": "ref/resource", "uri": ref} if "{" in ref or "://" in ref else \
            {"type": "ref/prompt", "name": ref}
        params = {"ref": reference, "argument": {"name": argument, "value": value}}
        if context:
            params["context"] = {"arguments": context}
        return self.request("completion/complete", params)["completion"]

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()
        return False


class TestClient(_ClientBase):
    """A synchronous in-memory client for testing your server with pytest or unittest.

    The server runs ``serve()`` on a thread, connected by OS pipes, so the test goes
    through the same bytes a host would send::

        def test_add():
            with TestClient(app) as client:
                assert client.call_tool("add", {"a": 2, "b": 3})["structuredContent"] == {"result": 5}

    Args:
        app: the MCPServer to test.
        protocol: the revision to speak ("2025-11-25" by default, or "2026-07-28", ...).
        sampling: ``fn(params) -> CreateMessageResult`` (or a string) to answer sampling.
        roots: a list of URIs / Root dicts, or a function returning one.
        elicitation: ``fn(params) -> ElicitResult``.
        log_level: ask for log notifications at or above this level (collected in ``logs``).
    """

    __test__ = False          # not a test class, whatever pytest thinks of its name

    def __init__(self, app: "MCPServer", protocol: str = LATEST_HANDSHAKE_VERSION, **options) -> None:
        super().__init__(protocol, **options)
        in_read, in_write = os.pipe()
        out_read, out_write = os.pipe()
        server_in, server_out = os.fdopen(in_read, "rb"), os.fdopen(out_write, "wb")
        self.app = app

        def serve():
            with server_in, server_out:              # closing its output is the client's end of input
                app.serve(server_in, server_out)
        self._server = threading.Thread(target=serve, name="minimcp-testserver", daemon=True)
        self._server.start()
        self._start(os.fdopen(out_read, "rb"), os.fdopen(in_write, "wb"))
        self.connect()

    def close(self) -> None:
        """Close the server's input and wait for it to stop."""
        self._close_input(5.0)
        self._server.join(self.app.shutdown_grace + 5)
        self._thread.join(5)


class _ProcessClient(_ClientBase):
    """The command line's client: drives a server process over its stdin/stdout."""

    #: The server's stderr is ours, unless this is true: then it is a pipe that
    #: ``_read_stderr`` reads (the selftest looks in it for tracebacks).
    PIPE_STDERR = False

    def __init__(self, command: list, protocol: str = LATEST_HANDSHAKE_VERSION, **options) -> None:
        import subprocess
        super().__init__(protocol, **options)
        try:
            self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE if self.PIPE_STDERR else None)
        except OSError as exc:
            raise SystemExit("minimcp: cannot start %s: %s (a host would say `spawn ... ENOENT`: give the "
                             "command's absolute path; see %s)" % (" ".join(command), exc, self.TROUBLESHOOTING))
        if self.PIPE_STDERR:
            self._stderr_thread = threading.Thread(target=self._read_stderr, name="minimcp-stderr", daemon=True)
            self._stderr_thread.start()
        self._start(self.process.stdout, self.process.stdin)

    def _read_stderr(self) -> None:
        """Hook: read the server's stderr pipe (only with ``PIPE_STDERR``)."""

    def _on_impure(self, line: bytes) -> None:
        first = not getattr(self, "_told_impure", False)
        self._told_impure = True
        sys.stderr.write("minimcp: the server wrote a line that is not JSON-RPC: %r%s\n"
                         % (line[:200], " (a print() before app.run(), or to stdout from a library? Write to "
                            "stderr instead; see %s)" % self.TROUBLESHOOTING if first else ""))

    def _on_progress(self, params: dict) -> None:
        sys.stderr.write("progress: %s/%s %s\n" % (params.get("progress"), params.get("total", "?"),
                                                   params.get("message", "")))

    def _on_log(self, params: dict) -> None:
        data = params.get("data")
        sys.stderr.write("log [%s]%s %s\n" % (params.get("level", "?"),
                                              " %s:" % params["logger"] if params.get("logger") else "",
                                              data if isinstance(data, str) else json.dumps(data)))

    #: How long a server gets to exit after its stdin closes, and again after SIGTERM.
    EXIT_GRACE = 2.0

    TIMEOUT_HINT = ("minimcp's own --timeout, not the server's: it may still be working on it; "
                    "give --timeout SECONDS to wait longer")

    def close(self) -> int:
        """Close the server's stdin and return its exit status.

        As the MCP stdio transport says: close stdin, wait; then SIGTERM, wait; then
        SIGKILL. ``ended_by`` says which step ended it (None: it exited by itself).
        """
        import subprocess
        self.ended_by = None
        self._close_input(self.EXIT_GRACE)
        for signal_name, stop in (("SIGTERM", self.process.terminate), ("SIGKILL", self.process.kill), (None, None)):
            try:
                status = self.process.wait(self.EXIT_GRACE if stop is not None else None)
                break
            except subprocess.TimeoutExpired:
                self.ended_by = signal_name
                stop()
        if self.PIPE_STDERR:                 # its last lines (a child may hold the pipe: not for ever)
            self._stderr_thread.join(self.EXIT_GRACE)
        return status

    #: Where the README explains what the command line detects.
    TROUBLESHOOTING = "README.md, \"Troubleshooting\""

    def diagnose(self) -> str:
        """Why the server went away before answering, when its exit says so ("" if not).

        Called after a request failed because the connection closed: a server that
        exits 0 having written nothing is a script that defines a server and never
        runs it (no ``app.run()``), which is the usual way to get here.
        """
        import subprocess
        try:
            status = self.process.wait(self.EXIT_GRACE)
        except subprocess.TimeoutExpired:
            return ""
        if status == 0 and self.lines_read == 0:
            return ("the server exited with status 0 having written nothing: does the script call app.run() "
                    "(under `if __name__ == \"__main__\":`)? A file that only defines the server runs with "
                    "`minimcp.py serve FILE`. See %s" % self.TROUBLESHOOTING)
        if status != 0:
            return ("the server exited with status %s before answering: its stderr, above, says why. See %s"
                    % (status, self.TROUBLESHOOTING))
        return ""

    def exit_report(self, status: int) -> str:
        """How the server ended, in words, for the command line."""
        if self.ended_by is None:
            text = "server exited with status %s after its stdin closed" % status
        else:
            text = ("server was still running %.0f s after its stdin closed; minimcp stopped it with %s"
                    % (self.EXIT_GRACE, self.ended_by))
        if self.late_requests:
            text += " (it asked %s after minimcp had closed its stdin, and may have waited for the answer)" \
                % ", ".join(sorted(set(self.late_requests)))
        return text


_plug("testclient", "TestClient for your tests, and the client the command line uses", public=("TestClient",))


# The official SDK's names: servers written for it run unchanged ##############
#
# ``python3 minimcp.py serve server.py`` (or install_sdk_aliases() in a script
# that starts itself) lets a file that imports ``mcp.server.fastmcp`` (mcp 1.x),
# ``mcp.server.mcpserver`` (mcp 2.x) or ``fastmcp`` run on minimcp when those
# packages are not installed. The alias modules hold every public module and
# name of those SDKs (the table below, written from the pinned SDKs by
# tests/interop/sdk_surface.py): the names servers use are backed by minimcp,
# the others are placeholders that explain themselves when used, and a name the
# SDK does not have raises ImportError. The finder sits at the end of
# sys.meta_path, so an installed package is always found first. Nothing here is
# built until it is asked for: ``import minimcp`` costs what it did.

# <sdk-surface> written by tests/interop/sdk_surface.py; do not edit
# A comment, so that it costs `import minimcp` nothing: minimcp reads it from its own source
# when a server first imports an SDK name. Each #| line: a public module of the SDKs and its
# public names (NAME=value: a constant); then the public members of the server classes and
# Context, as module:Class. The union over these pins:
#| pins: fastmcp 2.3.5 2.14.7 3.4.11 4.2.3; mcp 1.2.1 1.9.4 1.30.0 2.3.0
#| fastmcp: Client ClientGroup Context FastMCP FastMCPApp FastMCPDeprecationWarning Image Skill
#|   __version__='4.2.3' settings
#| fastmcp.apps: AppConfig FastMCPApp PrefabAppConfig ResourceCSP ResourcePermissions
#|   UI_EXTENSION_ID='io.modelcontextprotocol/ui' UI_MIME_TYPE='text/html;profile=mcp-app'
#|   app_config_to_meta_dict resolve_ui_mime_type
#| fastmcp.apps.app: FastMCPApp
#| fastmcp.apps.config: AppConfig PrefabAppConfig ResourceCSP ResourcePermissions
#|   UI_EXTENSION_ID='io.modelcontextprotocol/ui' app_config_to_meta_dict is_model_visible
#| fastmcp.cli:
#| fastmcp.cli.apps_dev: run_dev_apps
#| fastmcp.cli.apps_dev_log:
#| fastmcp.cli.apps_dev_security: DevSessionMiddleware SESSION_COOKIE='fastmcp_dev_session'
#| fastmcp.cli.auth:
#| fastmcp.cli.cimd: create_command validate_command
#| fastmcp.cli.claude: get_claude_config_path update_claude_config
#| fastmcp.cli.cli: apps dev inspect inspector install prepare run version with_argv
#| fastmcp.cli.client: call_command coerce_value discover_command format_tool_signature list_command
#|   parse_tool_arguments resolve_server_spec
#| fastmcp.cli.deploy:
#| fastmcp.cli.deploy.authentication: DeviceAuthorizationDeniedError DeviceAuthorizationError
#|   DeviceAuthorizationExpiredError authorize_device poll_device_authorization
#| fastmcp.cli.deploy.command: HostOption JsonOption login logout whoami
#| fastmcp.cli.deploy.configuration: ConfigurationStore HorizonConfiguration
#| fastmcp.cli.deploy.credentials: AuthState AuthenticationRequiredError CredentialSource CredentialStore
#|   ResolvedCredential resolve_credential revoke_and_clear_credential
#| fastmcp.cli.deploy.horizon_client: DEFAULT_HORIZON_API_ORIGIN='https://horizon.prefect.io'
#|   DEVICE_AUTH_CLIENT_ID='fastmcp-cli' DEVICE_AUTH_GRANT_TYPE='urn:ietf:params:oauth:grant-type:device_code'
#|   DeviceAccessToken DeviceAuthorization DeviceMetadata DeviceTokenError DeviceTokenPoll HorizonClient
#|   HorizonError HorizonOrganization HorizonResponseError HorizonUnauthorizedError HorizonUnavailableError
#|   HorizonUser normalize_api_origin
#| fastmcp.cli.deploy.output: CommandName ErrorCategory emit_device_challenge emit_environment_logout emit_error
#|   emit_identity emit_logout start_device_approval_status stop_device_approval_status
#| fastmcp.cli.deploy.state: StateFileError read_state remove_state state_lock write_state
#| fastmcp.cli.discovery: DiscoveredServer discover_servers resolve_name
#| fastmcp.cli.generate: generate_cli_command generate_cli_script generate_skill_content serialize_transport
#| fastmcp.cli.install: claude_code_command claude_desktop_command cursor_command gemini_cli_command
#|   goose_command mcp_json_command stdio_command
#| fastmcp.cli.install.claude_code: check_claude_code_available claude_code_command find_claude_command
#|   install_claude_code
#| fastmcp.cli.install.claude_desktop: claude_desktop_command get_claude_config_path install_claude_desktop
#| fastmcp.cli.install.cursor: cursor_command generate_cursor_deeplink install_cursor install_cursor_workspace
#|   open_deeplink
#| fastmcp.cli.install.gemini_cli: check_gemini_cli_available find_gemini_command gemini_cli_command
#|   install_gemini_cli
#| fastmcp.cli.install.goose: generate_goose_deeplink goose_command install_goose
#| fastmcp.cli.install.mcp_json: install_mcp_json mcp_json_command
#| fastmcp.cli.install.shared: open_deeplink parse_env_var process_common_args quote_windows_batch_argument
#|   run_cli_command validate_server_name windows_batch_command_line
#| fastmcp.cli.install.stdio: install_stdio stdio_command
#| fastmcp.cli.run: LogLevelType TransportType create_client_server create_mcp_config_server import_server is_url
#|   load_mcp_server_config parse_file_path run_command run_module_command run_v1_server_async run_with_reload
#| fastmcp.cli.tasks: check_distributed_backend worker
#| fastmcp.client: BearerAuth Client ClientCredentialsOAuthProvider ClientTransport FastMCPTransport
#|   NodeStdioTransport NpxStdioTransport OAuth PrivateKeyJWTOAuthProvider PythonStdioTransport SSETransport
#|   StdioTransport StreamableHttpTransport UvStdioTransport UvxStdioTransport WSTransport
#| fastmcp.client.auth: BearerAuth ClientCredentialsOAuthProvider OAuth PrivateKeyJWTOAuthProvider
#|   SignedJWTParameters static_assertion_provider
#| fastmcp.client.auth.bearer: BearerAuth
#| fastmcp.client.auth.client_credentials: ClientCredentialsOAuthProvider PrivateKeyJWTOAuthProvider
#|   SignedJWTParameters static_assertion_provider
#| fastmcp.client.auth.oauth: OAuth
#| fastmcp.client.base:
#| fastmcp.client.caching: DEFAULT_CACHE_COLLECTION='fastmcp_response_cache' KeyValueResponseCacheStore
#| fastmcp.client.client: Client ElicitationHandler LogHandler MessageHandler ProgressHandler RootsHandler
#|   RootsList SamplingHandler SessionKwargs
#| fastmcp.client.dependencies: get_http_headers
#| fastmcp.client.elicitation: ElicitRequestParams ElicitResult ElicitationHandler
#| fastmcp.client.extension_hooks: build_internal_client_extensions register_internal_client_extension_factory
#| fastmcp.client.group: ClientGroup ToolRoute
#| fastmcp.client.logging: LogHandler LogMessage MessageHandler create_log_callback default_log_handler
#| fastmcp.client.messages: Message MessageHandler MessageHandlerT
#| fastmcp.client.mixins: ClientPromptsMixin ClientResourcesMixin ClientSkillsMixin ClientTaskManagementMixin
#|   ClientToolsMixin
#| fastmcp.client.mixins.prompts: AUTO_PAGINATION_MAX_PAGES=250 ClientPromptsMixin PromptTaskResponseUnion
#| fastmcp.client.mixins.resources: AUTO_PAGINATION_MAX_PAGES=250 ClientResourcesMixin ResourceTaskResponseUnion
#| fastmcp.client.mixins.skills: AUTO_PAGINATION_MAX_PAGES=250 ClientSkillsMixin
#| fastmcp.client.mixins.task_management: ClientTaskManagementMixin
#| fastmcp.client.mixins.tools: AUTO_PAGINATION_MAX_PAGES=250 ClientToolsMixin ToolTaskResponseUnion
#| fastmcp.client.oauth_callback: CallbackResponse OAuthCallbackResult create_callback_html
#|   create_oauth_callback_server
#| fastmcp.client.progress: ProgressHandler default_progress_handler
#| fastmcp.client.roots: RootsHandler RootsList convert_roots_list create_roots_callback
#| fastmcp.client.sampling: MessageResult RequestContext SamplingHandler SamplingHandlerResult SamplingMessage
#|   SamplingParams create_sampling_callback
#| fastmcp.client.sampling.handlers:
#| fastmcp.client.tasks: PromptTask ResourceTask Task TaskNotificationHandler ToolTask
#| fastmcp.client.telemetry: client_span
#| fastmcp.client.transports: ClientTransport FastMCPStdioTransport FastMCPTransport NodeStdioTransport
#|   NpxStdioTransport PythonStdioTransport SSETransport SessionKwargs StdioTransport StreamableHttpTransport
#|   UvStdioTransport UvxStdioTransport WSTransport infer_transport
#| fastmcp.client.transports.base: ClientSessionKwargs ClientTransport SessionKwargs TransportOptions
#|   VersionAwareClientSession
#| fastmcp.client.transports.config: MCPConfigTransport
#| fastmcp.client.transports.http: StreamableHttpTransport
#| fastmcp.client.transports.inference: infer_transport
#| fastmcp.client.transports.memory: FastMCPTransport
#| fastmcp.client.transports.sse: SSETransport
#| fastmcp.client.transports.stdio: FastMCPStdioTransport NodeStdioTransport NpxStdioTransport
#|   PythonStdioTransport StdioTransport UvStdioTransport UvxStdioTransport
#| fastmcp.decorators: HasFastMCPMeta get_fastmcp_meta resolve_task_config
#| fastmcp.dependencies: CallArgument CurrentAccessToken CurrentContext CurrentDocket CurrentFastMCP
#|   CurrentHeaders CurrentRequest CurrentWorker CycleError Dependency Depends Progress ProgressLike Shared
#|   TokenClaim
#| fastmcp.exceptions: AuthorizationError ClientError DisabledError FastMCPDeprecationWarning FastMCPError
#|   InsufficientScopeError InvalidSignature MCPError McpError NotFoundError PromptError ResourceError
#|   ResourceSecurityError ToolError ValidationError to_mcp_error
#| fastmcp.experimental:
#| fastmcp.experimental.sampling:
#| fastmcp.experimental.transforms:
#| fastmcp.experimental.transforms.code_mode: CodeMode GetSchemas GetTags GetToolCatalog ListTools
#|   MontySandboxProvider SandboxProvider Search
#| fastmcp.experimental.transforms.jev_search: API_KEY_ENV='TYPESAFE_API_KEY' JevSearchTransform
#|   MAX_CHOICE_OPTIONS=255 SystemOneClient
#| fastmcp.low_level:
#| fastmcp.mcp_config: CanonicalMCPConfig CanonicalMCPServerTypes MCPConfig MCPServerTypes RemoteMCPServer
#|   StdioMCPServer TransformingMCPServerTypes TransformingRemoteMCPServer TransformingStdioMCPServer
#|   infer_transport_type_from_url update_config_file
#| fastmcp.prompts: FunctionPrompt Message Prompt PromptArgument PromptManager PromptMessage PromptResult prompt
#| fastmcp.prompts.base: Message Prompt PromptArgument PromptResult
#| fastmcp.prompts.function_prompt: DecoratedPrompt FunctionPrompt PromptMeta prompt
#| fastmcp.prompts.prompt: CONTENT_TYPES FunctionPrompt Message Prompt PromptArgument PromptResult
#|   SyncPromptResult
#| fastmcp.prompts.prompt_manager: PromptManager
#| fastmcp.resources: BinaryResource DirectoryResource FileResource FunctionResource HttpResource Resource
#|   ResourceContent ResourceManager ResourceResult ResourceSecurity ResourceTemplate TextResource resource
#| fastmcp.resources.base: Resource ResourceContent ResourceResult
#| fastmcp.resources.function_resource: DecoratedResource FunctionResource ResourceMeta resource
#| fastmcp.resources.resource: FunctionResource Resource
#| fastmcp.resources.resource_manager: ResourceManager
#| fastmcp.resources.security: ResourceSecurity
#| fastmcp.resources.template: FunctionResourceTemplate MyModel ResourceTemplate build_regex encode_literal
#|   expand_uri_template extract_exploded_query_params extract_query_params forward_uri match_uri_template
#|   template_param_key
#| fastmcp.resources.types: BinaryResource DirectoryResource FileResource FunctionResource HttpResource
#|   TextResource
#| fastmcp.server: Context FastMCP create_proxy
#| fastmcp.server.app:
#| fastmcp.server.apps:
#| fastmcp.server.auth: AccessToken AuthCheck AuthContext AuthProvider DebugTokenVerifier IdentityAssertion
#|   JWTVerifier MultiAuth OAuthProvider OAuthProxy OIDCProxy RemoteAuthProvider StaticTokenVerifier
#|   TokenVerificationError TokenVerifier require_roles require_scopes restrict_tag run_auth_checks
#| fastmcp.server.auth.auth: AccessToken AuthProvider
#|   JWT_BEARER_ASSERTION_TYPE='urn:ietf:params:oauth:client-assertion-type:jwt-bearer' MultiAuth OAuthProvider
#|   PrivateKeyJWTClientAuthenticator RemoteAuthProvider TokenHandler TokenVerificationError TokenVerifier
#| fastmcp.server.auth.authorization: AuthCheck AuthContext require_scopes restrict_tag run_auth_checks
#| fastmcp.server.auth.cimd: CIMDAssertionValidator CIMDClientManager CIMDDocument CIMDFetchError CIMDFetcher
#|   CIMDValidationError
#| fastmcp.server.auth.handlers:
#| fastmcp.server.auth.handlers.authorize: AuthorizationHandler create_unregistered_client_html
#| fastmcp.server.auth.identity_assertion: ID_JAG_GRANT_PROFILE='urn:ietf:params:oauth:grant-profile:id-jag'
#|   ID_JAG_TYP='oauth-id-jag+jwt' IdentityAssertion IdentityAssertionError IdentityAssertionValidator
#|   JWT_BEARER_GRANT_TYPE='urn:ietf:params:oauth:grant-type:jwt-bearer' normalize_resource_url
#|   server_url_has_query
#| fastmcp.server.auth.jwt_issuer: JWTIssuer KDF_ITERATIONS=1000000 KDF_ITERATIONS_TEST=10 derive_jwt_key
#| fastmcp.server.auth.middleware: RequireAuthMiddleware
#| fastmcp.server.auth.oauth_proxy: ClientCode DEFAULT_ACCESS_TOKEN_EXPIRY_NO_REFRESH_SECONDS=31536000
#|   DEFAULT_ACCESS_TOKEN_EXPIRY_SECONDS=3600 DEFAULT_AUTH_CODE_EXPIRY_SECONDS=300 HTTP_TIMEOUT_SECONDS=30
#|   JTIMapping OAuthProxy OAuthTransaction ProxyDCRClient RefreshTokenMetadata UpstreamTokenSet
#|   create_consent_html create_error_html
#| fastmcp.server.auth.oauth_proxy.consent: ConsentMixin
#| fastmcp.server.auth.oauth_proxy.models: ClientCode ConsentCSRFToken
#|   DEFAULT_ACCESS_TOKEN_EXPIRY_NO_REFRESH_SECONDS=31536000 DEFAULT_ACCESS_TOKEN_EXPIRY_SECONDS=3600
#|   DEFAULT_AUTH_CODE_EXPIRY_SECONDS=300 DEFAULT_REFRESH_TOKEN_EXPIRY_SECONDS=31536000 HTTP_TIMEOUT_SECONDS=30
#|   JTIMapping OAuthTransaction ProxyDCRClient RefreshTokenMetadata UpstreamTokenSet
#| fastmcp.server.auth.oauth_proxy.proxy: OAuthProxy
#| fastmcp.server.auth.oauth_proxy.revocation: RevocationProvider
#| fastmcp.server.auth.oauth_proxy.ui: create_consent_html create_error_html
#| fastmcp.server.auth.oauth_proxy.upstream: AsyncOAuth2Client OAuthError
#| fastmcp.server.auth.oidc_proxy: DEFAULT_OIDC_DISCOVERY_TIMEOUT_SECONDS=10 OIDCConfiguration OIDCProxy
#| fastmcp.server.auth.providers:
#| fastmcp.server.auth.providers.auth0: Auth0JWTVerifier Auth0MCPProvider Auth0Provider Auth0ProviderSettings
#| fastmcp.server.auth.providers.aws: AWSCognitoProvider AWSCognitoProviderSettings AWSCognitoTokenVerifier
#| fastmcp.server.auth.providers.azure: AzureJWTVerifier AzureProvider AzureProviderSettings EntraOBOToken
#| fastmcp.server.auth.providers.clerk: ClerkProvider ClerkTokenVerifier
#| fastmcp.server.auth.providers.debug: DebugTokenVerifier
#| fastmcp.server.auth.providers.descope: DescopeProvider DescopeProviderSettings
#| fastmcp.server.auth.providers.discord: DiscordProvider DiscordProviderSettings DiscordTokenVerifier
#| fastmcp.server.auth.providers.github: GitHubProvider GitHubProviderSettings GitHubTokenVerifier
#| fastmcp.server.auth.providers.google: GoogleProvider GoogleProviderSettings GoogleTokenVerifier
#| fastmcp.server.auth.providers.huggingface: HUGGINGFACE_AUTHORIZATION_ENDPOINT='https://huggingface.co/oauth/authorize'
#|   HUGGINGFACE_TOKEN_ENDPOINT='https://huggingface.co/oauth/token'
#|   HUGGINGFACE_USERINFO_ENDPOINT='https://huggingface.co/oauth/userinfo'
#|   HUGGINGFACE_WHOAMI_ENDPOINT='https://huggingface.co/api/whoami-v2' HuggingFaceProvider
#|   HuggingFaceTokenVerifier
#| fastmcp.server.auth.providers.in_memory: DEFAULT_ACCESS_TOKEN_EXPIRY_SECONDS=3600
#|   DEFAULT_AUTH_CODE_EXPIRY_SECONDS=300 InMemoryOAuthProvider
#| fastmcp.server.auth.providers.introspection: ClientAuthMethod IntrospectionTokenVerifier
#|   IntrospectionTokenVerifierSettings
#| fastmcp.server.auth.providers.jwt: JWKData JWKKeyData JWKSData JWTVerifier JWTVerifierSettings RSAKeyPair
#|   StaticTokenVerifier
#| fastmcp.server.auth.providers.keycloak: KeycloakAuthProvider
#| fastmcp.server.auth.providers.oci: OCIProvider OCIProviderSettings
#| fastmcp.server.auth.providers.propelauth: PropelAuthProvider PropelAuthTokenIntrospectionOverrides
#| fastmcp.server.auth.providers.scalekit: ScalekitProvider ScalekitProviderSettings
#| fastmcp.server.auth.providers.supabase: SupabaseProvider SupabaseProviderSettings
#| fastmcp.server.auth.providers.workos: AuthKitProvider AuthKitProviderSettings WorkOSProvider
#|   WorkOSProviderSettings WorkOSTokenVerifier
#| fastmcp.server.auth.redirect_validation: add_query_params build_client_redirect is_loopback_host
#|   is_redirect_uri_allowed_for_application_type matches_allowed_pattern replace_query_param
#|   validate_redirect_uri
#| fastmcp.server.auth.ssrf: SSRFError SSRFFetchError SSRFFetchResponse ValidatedURL format_ip_for_url
#|   is_ip_allowed resolve_hostname ssrf_safe_fetch ssrf_safe_fetch_response validate_url
#| fastmcp.server.caching: CacheScope build_cache_hints
#| fastmcp.server.completions: CompletionReference CompletionValues MAX_COMPLETION_VALUES=100
#|   normalize_completion
#| fastmcp.server.context: Context LogData ToolChoiceOption TransportType reset_transport set_context
#|   set_transport
#| fastmcp.server.dependencies: AccessToken CurrentAccessToken CurrentContext CurrentDocket CurrentFastMCP
#|   CurrentHeaders CurrentRequest CurrentWorker FastMCPRequestContext P Progress TaskContextInfo
#|   TaskContextSnapshot TokenClaim bind_request_context extract_version_spec fastmcp_request_ctx
#|   get_access_token get_context get_http_headers get_http_request get_server get_session get_task_context
#|   get_task_session is_docket_available register_task_server register_task_session require_docket
#|   resolve_dependencies transform_context_annotations without_injected_parameters
#| fastmcp.server.elicitation: AcceptedElicitation CancelledElicitation DeclinedElicitation ElicitConfig
#|   ScalarElicitationType get_elicitation_schema handle_elicit_accept parse_elicit_response_type
#| fastmcp.server.event_store: EventEntry EventStore SessionScopedEventStore StreamEventList
#| fastmcp.server.extensions: MethodBinding ServerExtension read_client_extension_settings
#| fastmcp.server.http: FastMCPStreamableHTTPSessionManager HostOriginGuardMiddleware HostOriginProtection
#|   HostOriginProtectionMode RequestContextMiddleware StarletteWithLifespan StreamableHTTPASGIApp
#|   create_base_app create_sse_app create_streamable_http_app set_http_request setup_auth_middleware_and_routes
#| fastmcp.server.lifespan: ComposedLifespan ContextManagerLifespan Lifespan lifespan
#| fastmcp.server.low_level: FastMCPServerMiddleware LowLevelServer MiddlewareServerSession
#|   client_supports_extension
#| fastmcp.server.middleware: AuthMiddleware CallNext Middleware MiddlewareContext PingMiddleware
#| fastmcp.server.middleware.authorization: AuthMiddleware
#| fastmcp.server.middleware.caching: ANONYMOUS_AUTH_KEY='__anonymous__' CachableMessage CachablePromptResult
#|   CachableReadResourceContents CachableResourceContent CachableResourceResult CachableToolResult
#|   CacheableMessage CacheablePromptResult CacheableResourceContent CacheableResourceResult CacheableToolResult
#|   CallToolSettings DEFAULT_VERSION_CACHE_KEY='__default__' FIVE_MINUTES_IN_SECONDS=300 GLOBAL_KEY='__global__'
#|   GetPromptSettings ListPromptsSettings ListResourcesSettings ListToolsSettings ONE_HOUR_IN_SECONDS=3600
#|   ONE_MB_IN_BYTES=1048576 ReadResourceSettings ResponseCachingMiddleware ResponseCachingStatistics
#|   SharedMethodSettings
#| fastmcp.server.middleware.dereference: DereferenceRefsMiddleware
#| fastmcp.server.middleware.error_handling: ErrorHandlingMiddleware RetryMiddleware
#| fastmcp.server.middleware.logging: BaseLoggingMiddleware LoggingMiddleware StructuredLoggingMiddleware
#|   default_serializer
#| fastmcp.server.middleware.middleware: CallNext Middleware MiddlewareContext
#| fastmcp.server.middleware.ping: PingMiddleware
#| fastmcp.server.middleware.rate_limiting: RateLimitError RateLimitingMiddleware SlidingWindowRateLimiter
#|   SlidingWindowRateLimitingMiddleware TokenBucketRateLimiter
#| fastmcp.server.middleware.response_limiting: ResponseLimitingMiddleware
#| fastmcp.server.middleware.timing: DetailedTimingMiddleware TimingMiddleware
#| fastmcp.server.middleware.tool_injection: PromptToolMiddleware ResourceToolMiddleware ToolInjectionMiddleware
#|   get_prompt get_prompt_tool list_prompts list_prompts_tool list_resources list_resources_tool read_resource
#|   read_resource_tool
#| fastmcp.server.mixins: LifespanMixin MCPOperationsMixin TransportMixin
#| fastmcp.server.mixins.extensions: ExtensionsMixin
#| fastmcp.server.mixins.lifespan: LifespanMixin
#| fastmcp.server.mixins.mcp_operations: MCPOperationsMixin
#| fastmcp.server.mixins.transport: TransportMixin
#| fastmcp.server.openapi: ComponentFn DEFAULT_ROUTE_MAPPINGS FastMCPOpenAPI HttpMethod MCPType OpenAPIProvider
#|   OpenAPIResource OpenAPIResourceTemplate OpenAPITool RouteMap RouteMapFn RouteType
#| fastmcp.server.openapi.components: OpenAPIResource OpenAPIResourceTemplate OpenAPITool
#| fastmcp.server.openapi.routing: ComponentFn DEFAULT_ROUTE_MAPPINGS MCPType RouteMap RouteMapFn
#| fastmcp.server.openapi.server: FastMCPOpenAPI
#| fastmcp.server.providers: AggregateProvider ClaudeSkillsProvider FastMCPProvider FileSystemProvider
#|   LocalProvider OpenAPIProvider Provider ProxyProvider SkillProvider SkillsDirectoryProvider SkillsProvider
#| fastmcp.server.providers.addressing: HASH_LENGTH=12 TOOL_HASH_META_KEY='tool_hash' hash_tool
#|   hashed_backend_name hashed_resource_uri is_app_tool_with_identity parse_hashed_backend_name
#|   parse_hashed_resource_uri tool_identity
#| fastmcp.server.providers.aggregate: AggregateProvider ProviderErrorStrategy
#| fastmcp.server.providers.base: Provider hashed_lookup_target
#| fastmcp.server.providers.fastmcp_provider: FastMCPProvider FastMCPProviderPrompt FastMCPProviderResource
#|   FastMCPProviderResourceTemplate FastMCPProviderTool
#| fastmcp.server.providers.filesystem: FileSystemProvider
#| fastmcp.server.providers.filesystem_discovery: DiscoveryResult discover_and_import discover_files
#|   extract_components import_module_from_file
#| fastmcp.server.providers.local_provider: LocalProvider
#| fastmcp.server.providers.local_provider.decorators: PromptDecoratorMixin ResourceDecoratorMixin
#|   ToolDecoratorMixin
#| fastmcp.server.providers.local_provider.decorators.prompts: PromptDecoratorMixin
#| fastmcp.server.providers.local_provider.decorators.resources: ResourceDecoratorMixin
#| fastmcp.server.providers.local_provider.decorators.tools: DuplicateBehavior
#|   PREFAB_RENDERER_URI='ui://prefab/renderer.html' ToolDecoratorMixin
#| fastmcp.server.providers.local_provider.local_provider: DuplicateBehavior LocalProvider
#| fastmcp.server.providers.openapi: ComponentFn MCPType OpenAPIProvider OpenAPIResource OpenAPIResourceTemplate
#|   OpenAPITool RouteMap RouteMapFn
#| fastmcp.server.providers.openapi.components: OpenAPIResource OpenAPIResourceTemplate OpenAPITool
#| fastmcp.server.providers.openapi.provider: OpenAPIProvider
#| fastmcp.server.providers.openapi.routing: ComponentFn MCPType RouteMap RouteMapFn
#| fastmcp.server.providers.prefab_payload: annotate_payload_identities payload_has_identities
#|   rewrite_payload_tool_names
#| fastmcp.server.providers.prefab_synthesis: PREFAB_PLACEHOLDER_URI='ui://prefab/renderer.html'
#|   rewrite_tool_meta_for_wire synthesize_prefab_resource_by_uri synthesize_prefab_resources
#| fastmcp.server.providers.proxy: ClientFactoryT FastMCPProxy PROXY_TRANSPORT_OPTIONS ProxyClient ProxyIdentity
#|   ProxyInitializeMiddleware ProxyMetadataMiddleware ProxyPrompt ProxyProvider ProxyResource ProxyTemplate
#|   ProxyTool StatefulProxyClient default_proxy_elicitation_handler default_proxy_log_handler
#|   default_proxy_message_handler default_proxy_progress_handler default_proxy_roots_handler
#|   default_proxy_sampling_handler
#| fastmcp.server.providers.skills: ClaudeSkillsProvider CodexSkillsProvider CopilotSkillsProvider
#|   CursorSkillsProvider GeminiSkillsProvider GooseSkillsProvider OpenCodeSkillsProvider SkillProvider
#|   SkillsDirectoryProvider SkillsProvider VSCodeSkillsProvider
#| fastmcp.server.providers.skills.claude_provider: ClaudeSkillsProvider
#| fastmcp.server.providers.skills.directory_provider: SkillsDirectoryProvider
#| fastmcp.server.providers.skills.skill_provider: SkillFileResource SkillFileTemplate SkillProvider
#|   SkillResource
#| fastmcp.server.providers.skills.vendor_providers: CodexSkillsProvider CopilotSkillsProvider
#|   CursorSkillsProvider GeminiSkillsProvider GooseSkillsProvider OpenCodeSkillsProvider VSCodeSkillsProvider
#| fastmcp.server.providers.wrapped_provider:
#| fastmcp.server.proxy: ClientFactoryT FastMCPProxy ProxyClient ProxyManagerMixin ProxyPrompt ProxyPromptManager
#|   ProxyProvider ProxyResource ProxyResourceManager ProxyTemplate ProxyTool ProxyToolManager
#|   StatefulProxyClient default_proxy_roots_handler
#| fastmcp.server.sampling: SampleStep SamplingResult SamplingTool
#| fastmcp.server.sampling.run: SampleStep SamplingResult ToolChoiceOption call_sampling_handler
#|   create_final_response_tool determine_handler_mode execute_tools extract_tool_calls prepare_messages
#|   prepare_tools sample_impl sample_step_impl
#| fastmcp.server.sampling.sampling_tool: SamplingTool
#| fastmcp.server.server: DuplicateBehavior FastMCP MountedServer StateValue Transport add_resource_prefix
#|   create_proxy default_lifespan has_resource_prefix remove_resource_prefix
#| fastmcp.server.session_scoped_event_store: SessionScopedEventStore
#| fastmcp.server.sessions: CurrentSession InvalidSession OptionalCurrentSession Session SessionAuthError
#|   SessionId SessionProvider UserSession create_session current_principal end_session
#|   session_id_parameter_names session_storage_key
#| fastmcp.server.tasks: TaskConfig TaskMeta TaskMode build_task_key elicit_for_task ensure_subscriber_running
#|   get_client_task_id_from_key get_task_capabilities handle_task_input parse_task_key push_notification
#|   relay_elicitation stop_subscriber
#| fastmcp.server.tasks.capabilities: get_task_capabilities
#| fastmcp.server.tasks.config: DEFAULT_POLL_INTERVAL DEFAULT_POLL_INTERVAL_MS=5000 DEFAULT_TTL_MS=60000
#|   TaskConfig TaskMeta TaskMode
#| fastmcp.server.tasks.context: TaskContextInfo TaskContextSnapshot TaskKey get_task_context get_task_scope
#|   get_task_server get_task_session get_task_session_id register_task_server register_task_session
#|   restore_task_snapshot
#| fastmcp.server.tasks.converters: convert_prompt_result convert_resource_result convert_tool_result
#| fastmcp.server.tasks.elicitation: ELICIT_TTL_SECONDS=3600 elicit_for_task handle_task_input relay_elicitation
#| fastmcp.server.tasks.handlers: TASK_MAPPING_TTL_BUFFER_SECONDS=900 handle_prompt_as_task
#|   handle_resource_as_task handle_tool_as_task submit_to_docket
#| fastmcp.server.tasks.keys: TaskKeyParts build_task_key get_client_task_id_from_key parse_task_key
#|   task_redis_prefix
#| fastmcp.server.tasks.notifications: MAX_DELIVERY_ATTEMPTS=3
#|   NOTIFICATION_ACTIVE_KEY='fastmcp:notifications:{session_id}:active'
#|   NOTIFICATION_QUEUE_KEY='fastmcp:notifications:{session_id}' NOTIFICATION_TTL_SECONDS=300
#|   SUBSCRIBER_TIMEOUT_SECONDS=30 ensure_subscriber_running get_subscriber_count notification_subscriber_loop
#|   push_notification stop_subscriber
#| fastmcp.server.tasks.protocol: tasks_cancel_handler tasks_get_handler tasks_list_handler tasks_result_handler
#| fastmcp.server.tasks.routing: TaskType check_background_task
#| fastmcp.server.tasks.subscriptions: subscribe_to_task_updates
#| fastmcp.server.telemetry: SEAM_SPAN_MARKER='fastmcp.span.seam' delegate_span get_auth_span_attributes
#|   get_protocol_span_attributes get_session_span_attributes record_span_exception seam_span server_span
#| fastmcp.server.transforms: Namespace PromptsAsTools ResourcesAsTools ToolTransform Transform VersionFilter
#|   VersionSpec Visibility is_enabled
#| fastmcp.server.transforms.catalog: CatalogTransform
#| fastmcp.server.transforms.namespace: Namespace
#| fastmcp.server.transforms.prompts_as_tools: PromptsAsTools
#| fastmcp.server.transforms.resources_as_tools: ResourcesAsTools
#| fastmcp.server.transforms.search: BM25SearchTransform RegexSearchTransform SearchResultSerializer
#|   serialize_tools_for_output_json serialize_tools_for_output_markdown
#| fastmcp.server.transforms.search.base: BaseSearchTransform serialize_tools_for_output_json
#|   serialize_tools_for_output_markdown
#| fastmcp.server.transforms.search.bm25: BM25SearchTransform
#| fastmcp.server.transforms.search.regex: RegexSearchTransform
#| fastmcp.server.transforms.tool_transform: ToolTransform
#| fastmcp.server.transforms.version_filter: VersionFilter
#| fastmcp.server.transforms.visibility: Visibility apply_session_transforms create_visibility_transforms
#|   disable_components enable_components get_session_transforms get_visibility_rules is_enabled reset_visibility
#|   save_visibility_rules
#| fastmcp.settings: DocketSettings DuplicateBehavior ENV_FILE='.env' ExperimentalSettings LOG_LEVEL
#|   MCP_LOG_LEVEL ServerSettings Settings TELEMETRY_MODE TEN_MB_IN_BYTES=10485760 settings
#| fastmcp.skills: GetSkillResult ListSkillsResult MCPSkill Skill SkillFile SkillFrontmatter SkillManifest
#|   SkillResource SkillsClientExtension
#| fastmcp.skills.client: SkillsClientExtension
#| fastmcp.skills.extension: SkillsExtension
#| fastmcp.skills.models: GetSkillParams GetSkillRequest GetSkillResult ListSkillsParams ListSkillsRequest
#|   ListSkillsResult MCPSkill SkillFrontmatter SkillResource
#| fastmcp.skills.provider: SkillCatalog SkillCatalogProvider SkillFileResource SkillManifestProvider
#|   SkillManifestResource SkillsDirectoryProvider
#| fastmcp.skills.skill: Skill SkillFile SkillManifest
#| fastmcp.telemetry: INSTRUMENTATION_NAME='fastmcp' TRACE_PARENT_KEY='traceparent' TRACE_STATE_KEY='tracestate'
#|   error_span_attributes extract_trace_context get_tracer inject_trace_context native_spans_enabled
#|   record_span_error restore_dropped_attributes suppress_fastmcp_telemetry telemetry_mode
#| fastmcp.tools: FunctionTool InputRequiredToolResult Tool ToolManager ToolResult forward forward_raw tool
#| fastmcp.tools.base: InputRequiredToolResult Tool ToolResult
#| fastmcp.tools.function_parsing: ParsedFunction
#| fastmcp.tools.function_tool: DecoratedTool FunctionTool ToolMeta tool
#| fastmcp.tools.tool: FunctionTool ParsedFunction Tool ToolResult default_serializer
#| fastmcp.tools.tool_manager: ToolManager
#| fastmcp.tools.tool_transform: ArgTransform ArgTransformConfig ToolTransformConfig TransformedTool
#|   apply_transformations_to_tools forward forward_raw
#| fastmcp.types: Textarea
#| fastmcp.utilities:
#| fastmcp.utilities.asgi_transport: StreamingASGITransport run_asgi_lifespan
#| fastmcp.utilities.async_utils: call_sync_fn_in_threadpool gather is_coroutine_function
#| fastmcp.utilities.auth: decode_jwt_header decode_jwt_payload parse_scopes
#| fastmcp.utilities.authorization: AuthCheck AuthContext require_roles require_scopes restrict_tag
#|   run_auth_checks run_auth_checks_with_shortfall scope_requirements
#| fastmcp.utilities.cache: TimedCache
#| fastmcp.utilities.cli: is_already_in_uv_subprocess load_and_merge_config log_server_banner
#| fastmcp.utilities.components: FastMCPComponent FastMCPMeta MirroredComponent get_fastmcp_metadata
#|   public_result_meta
#| fastmcp.utilities.decorators: DecoratedFunction P
#| fastmcp.utilities.docstring_parsing: ParsedDocstring parse_docstring
#| fastmcp.utilities.exceptions: get_catch_handlers get_http_status_code is_http_status_error is_request_error
#|   is_timeout_error iter_exc
#| fastmcp.utilities.http: find_available_port
#| fastmcp.utilities.inspect: FastMCPInfo InspectFormat PromptInfo ResourceInfo TemplateInfo ToolInfo
#|   format_fastmcp_info format_info format_mcp_info inspect_fastmcp inspect_fastmcp_v1 inspect_fastmcp_v2
#| fastmcp.utilities.json_schema: compress_schema dereference_refs is_object_schema ref_target_name replace_refs
#|   require_discriminator_property resolve_root_ref
#| fastmcp.utilities.json_schema_type: JSONSchema json_schema_to_type
#| fastmcp.utilities.lifespan: combine_lifespans
#| fastmcp.utilities.logging: configure_logging get_logger temporary_log_level
#| fastmcp.utilities.mcp_config: mcp_config_to_servers_and_transports mcp_server_type_to_servers_and_transports
#| fastmcp.utilities.mcp_server_config: Deployment Environment FileSystemSource MCPServerConfig Source
#|   UVEnvironment generate_schema
#| fastmcp.utilities.mcp_server_config.v1:
#| fastmcp.utilities.mcp_server_config.v1.environments: Environment UVEnvironment
#| fastmcp.utilities.mcp_server_config.v1.environments.base: Environment
#| fastmcp.utilities.mcp_server_config.v1.environments.uv: UVEnvironment
#| fastmcp.utilities.mcp_server_config.v1.mcp_server_config: Deployment EnvironmentType
#|   FASTMCP_JSON_SCHEMA='https://gofastmcp.com/public/schemas/fastmcp.json/v1.json' MCPServerConfig SourceType
#|   generate_schema
#| fastmcp.utilities.mcp_server_config.v1.sources:
#| fastmcp.utilities.mcp_server_config.v1.sources.base: Source
#| fastmcp.utilities.mcp_server_config.v1.sources.filesystem: FileSystemSource
#| fastmcp.utilities.mime: UI_MIME_TYPE='text/html;profile=mcp-app' resolve_ui_mime_type
#| fastmcp.utilities.openapi: HTTPRoute HttpMethod JsonSchema ParameterInfo ParameterLocation RequestBodyInfo
#|   ResponseInfo clean_schema_for_display convert_openapi_schema_to_json_schema convert_schema_definitions
#|   extract_output_schema_from_responses format_array_parameter format_deep_object_parameter
#|   format_description_with_responses format_json_for_description format_simple_description
#|   generate_example_from_schema parse_openapi_to_http_routes
#| fastmcp.utilities.openapi.director: RequestDirector
#| fastmcp.utilities.openapi.formatters: format_array_parameter format_deep_object_parameter
#|   format_description_with_responses format_json_for_description format_simple_description
#|   generate_example_from_schema
#| fastmcp.utilities.openapi.json_schema_converter: convert_openapi_schema_to_json_schema
#|   convert_schema_definitions resolve_definition_pointer
#| fastmcp.utilities.openapi.models: HTTPRoute HttpMethod JsonSchema ParameterInfo ParameterLocation
#|   RequestBodyInfo ResponseInfo
#| fastmcp.utilities.openapi.parser: OpenAPIParser parse_openapi_to_http_routes
#| fastmcp.utilities.openapi.schemas: clean_schema_for_display extract_output_schema_from_responses
#| fastmcp.utilities.pagination: CursorState paginate_sequence
#| fastmcp.utilities.prefab: is_prefab_app is_prefab_component is_prefab_type prefab_app_from_component
#|   prefab_available
#| fastmcp.utilities.skills: SkillFile SkillManifest SkillSummary download_skill get_skill_manifest list_skills
#|   sync_skills
#| fastmcp.utilities.tasks: DEFAULT_POLL_INTERVAL_MS=5000 DEFAULT_TTL_MS=60000
#|   TASKS_EXTENSION_ID='io.modelcontextprotocol/tasks' TaskConfig TaskMeta TaskMode
#| fastmcp.utilities.tests: ASGIServer HeadlessOAuth asgi_client asgi_server run_server_async
#|   run_server_in_process temporary_settings
#| fastmcp.utilities.timeout: normalize_timeout_to_seconds normalize_timeout_to_timedelta
#| fastmcp.utilities.token_cache: DEFAULT_MAX_CACHE_SIZE=10000 TokenCache
#| fastmcp.utilities.types: Audio ContextSamplingFallbackProtocol FastMCPBaseModel File Image
#|   create_function_without_params find_kwarg_by_type get_cached_typeadapter get_fn_name get_function_type_hints
#|   is_class_member_of_type issubclass_safe replace_type
#| fastmcp.utilities.ui: FASTMCP_LOGO_URL='https://gofastmcp.com/assets/brand/blue-logo.png' create_button_group
#|   create_detail_box create_info_box create_logo create_page create_secure_html_response create_status_message
#| fastmcp.utilities.version_check: CACHE_TTL_SECONDS=43200 PYPI_URL='https://pypi.org/pypi/fastmcp/json'
#|   check_for_newer_version get_latest_version
#| fastmcp.utilities.versions: VersionKey VersionSpec compare_versions dedupe_with_versions is_version_greater
#|   max_version min_version parse_version_key version_sort_key
#| mcp: CallToolRequest Client ClientCapabilities ClientNotification ClientRequest ClientResult ClientSession
#|   ClientSessionGroup CompleteRequest CreateMessageRequest CreateMessageResult CreateMessageResultWithTools
#|   ErrorData GetPromptRequest GetPromptResult Implementation IncludeContext InitializeRequest InitializeResult
#|   InitializedNotification InputRequiredRoundsExceededError InvalidUriTemplate JSONRPCError JSONRPCRequest
#|   JSONRPCResponse ListPromptsRequest ListPromptsResult ListResourcesRequest ListResourcesResult
#|   ListToolsResult LoggingLevel LoggingMessageNotification MCPDeprecationWarning MCPError McpError Notification
#|   PingRequest ProgressNotification PromptsCapability ReadResourceRequest ReadResourceResult Resource
#|   ResourceUpdatedNotification ResourcesCapability RootsCapability SamplingCapability SamplingContent
#|   SamplingContextCapability SamplingMessage SamplingMessageContentBlock SamplingRole SamplingToolsCapability
#|   ServerCapabilities ServerNotification ServerRequest ServerResult ServerSession SetLevelRequest
#|   StdioServerParameters StopReason SubscribeRequest Tool ToolChoice ToolResultContent ToolUseContent
#|   ToolsCapability UnsubscribeRequest UriTemplate UrlElicitationRequiredError stdio_client stdio_server
#| mcp.client: CacheConfig CacheEntry CacheKey CacheMode ClaimContext Client ClientExtension ClientRequestContext
#|   ClientSession InMemoryResponseCacheStore IncomingMessage InputRequiredRoundsExceededError
#|   NotificationBinding ResponseCacheStore ResultClaim Transport UnexpectedClaimedResult advertise
#| mcp.client.auth: AuthorizationCodeResult OAuthClientProvider OAuthFlowError OAuthRegistrationError
#|   OAuthTokenError PKCEParameters TokenStorage
#| mcp.client.auth.exceptions: OAuthFlowError OAuthRegistrationError OAuthTokenError
#| mcp.client.auth.extensions:
#| mcp.client.auth.extensions.client_credentials: ClientCredentialsOAuthProvider JWTParameters
#|   PrivateKeyJWTOAuthProvider RFC7523OAuthClientProvider SignedJWTParameters static_assertion_provider
#| mcp.client.auth.extensions.identity_assertion: IdentityAssertionOAuthProvider
#| mcp.client.auth.oauth2: OAuthClientProvider OAuthContext PKCEParameters TokenStorage check_registration_usable
#| mcp.client.auth.utils: build_oauth_authorization_server_metadata_discovery_urls
#|   build_protected_resource_metadata_discovery_urls create_client_info_from_metadata_url
#|   create_client_registration_request create_oauth_metadata_request credentials_match_issuer
#|   extract_field_from_www_auth extract_resource_metadata_from_www_auth extract_scope_from_www_auth
#|   get_client_metadata_scopes handle_auth_metadata_response handle_protected_resource_response
#|   handle_registration_response handle_token_response_scopes is_valid_client_metadata_url issuers_match
#|   should_use_client_metadata_url union_scopes validate_authorization_response_iss validate_metadata_issuer
#| mcp.client.caching: CacheConfig CacheEntry CacheKey CacheMode InMemoryResponseCacheStore MAX_TTL_MS=86400000
#|   ResponseCacheStore
#| mcp.client.client: Client ConnectMode
#| mcp.client.context: ClientRequestContext
#| mcp.client.experimental: ExperimentalClientFeatures
#| mcp.client.experimental.task_handlers: CancelTaskHandlerFnT ExperimentalTaskHandlers GetTaskHandlerFnT
#|   GetTaskResultHandlerFnT ListTasksHandlerFnT TaskAugmentedElicitationFnT TaskAugmentedSamplingFnT
#|   default_cancel_task_handler default_get_task_handler default_get_task_result_handler
#|   default_list_tasks_handler default_task_augmented_elicitation default_task_augmented_elicitation_callback
#|   default_task_augmented_sampling default_task_augmented_sampling_callback
#| mcp.client.experimental.tasks: ExperimentalClientFeatures
#| mcp.client.extension: ClaimContext ClientExtension NotificationBinding ResultClaim UnexpectedClaimedResult
#|   advertise
#| mcp.client.session: ClientRequestContext ClientSession DEFAULT_CLIENT_INFO ElicitationFnT IncomingMessage
#|   ListRootsFnT LoggingFnT MessageHandlerFnT SamplingFnT
#| mcp.client.session_group: ClientSessionGroup ClientSessionParameters ServerParameters SseServerParameters
#|   StreamableHttpParameters
#| mcp.client.sse: remove_request_params sse_client
#| mcp.client.stdio: FallbackProcess SessionMessage StdioServerParameters create_windows_process
#|   get_default_environment get_windows_executable_command stdio_client terminate_posix_process_tree
#|   terminate_windows_process terminate_windows_process_tree
#| mcp.client.stdio.win32: create_windows_process get_windows_executable_command terminate_windows_process
#| mcp.client.streamable_http: ACCEPT='accept' CONTENT_TYPE='content-type' DEFAULT_MAX_SSE_EVENT_SIZE=1048576
#|   DEFAULT_RECONNECTION_DELAY_MS=1000 JSON='application/json' LAST_EVENT_ID='last-event-id'
#|   MAX_RECONNECTION_ATTEMPTS=2 MCP_PROTOCOL_VERSION='mcp-protocol-version' MCP_SESSION_ID='mcp-session-id'
#|   RequestContext ResumptionError SSE='text/event-stream' SessionMessageOrError StreamReader StreamWriter
#|   StreamableHTTPError StreamableHTTPTransport streamable_http_client streamablehttp_client
#| mcp.client.subscriptions: ListenNotSupportedError OnEvent PromptsListChanged ResourceUpdated
#|   ResourcesListChanged ServerEvent Subscription SubscriptionLost ToolsListChanged listen
#| mcp.os:
#| mcp.os.posix:
#| mcp.os.posix.utilities: terminate_posix_process_tree
#| mcp.os.win32:
#| mcp.os.win32.utilities: FallbackProcess ServerProcess close_process_job create_windows_process
#|   get_windows_executable_command rebind_std_handle_to_fd terminate_windows_process
#|   terminate_windows_process_tree
#| mcp.server: CacheHint FastMCP InitializationOptions MCPServer NotificationOptions Server ServerRequestContext
#| mcp.server.apps: APP_MIME_TYPE='text/html;profile=mcp-app' Apps EXTENSION_ID='io.modelcontextprotocol/ui'
#|   ResourceCsp ResourcePermissions Visibility client_supports_apps
#| mcp.server.auth:
#| mcp.server.auth.errors: stringify_pydantic_error
#| mcp.server.auth.handlers:
#| mcp.server.auth.handlers.authorize: AnyUrlModel AuthorizationErrorResponse AuthorizationHandler
#|   AuthorizationRequest best_effort_extract_string
#| mcp.server.auth.handlers.metadata: MetadataHandler ProtectedResourceMetadataHandler
#| mcp.server.auth.handlers.register: RegistrationErrorResponse RegistrationHandler RegistrationRequest
#| mcp.server.auth.handlers.revoke: RevocationErrorResponse RevocationHandler RevocationRequest
#| mcp.server.auth.handlers.token: AuthorizationCodeRequest JwtBearerRequest RefreshTokenRequest
#|   TokenErrorResponse TokenHandler TokenRequest TokenSuccessResponse
#| mcp.server.auth.json_response: PydanticJSONResponse
#| mcp.server.auth.middleware:
#| mcp.server.auth.middleware.auth_context: AuthContextMiddleware get_access_token
#| mcp.server.auth.middleware.bearer_auth: AuthenticatedUser AuthorizationContext BearerAuthBackend
#|   RequireAuthMiddleware authorization_context
#| mcp.server.auth.middleware.client_auth: AuthenticationError ClientAuthenticator
#| mcp.server.auth.provider: AccessToken AuthorizationCode AuthorizationErrorCode AuthorizationParams
#|   AuthorizeError IdentityAssertionParams OAuthAuthorizationServerProvider ProviderTokenVerifier RefreshToken
#|   RegistrationError RegistrationErrorCode TokenError TokenErrorCode TokenVerifier construct_redirect_uri
#|   principal_components
#| mcp.server.auth.routes: AUTHORIZATION_PATH='/authorize'
#|   ID_JAG_GRANT_PROFILE='urn:ietf:params:oauth:grant-profile:id-jag' REGISTRATION_PATH='/register'
#|   REVOCATION_PATH='/revoke' TOKEN_PATH='/token' build_metadata build_resource_metadata_url cors_middleware
#|   create_auth_routes create_protected_resource_routes validate_issuer_url
#| mcp.server.auth.settings: AuthSettings ClientRegistrationOptions RevocationOptions
#| mcp.server.caching: CACHEABLE_METHODS CacheHint CacheableMethod apply_cache_hint validate_cache_hints
#| mcp.server.connection: Connection
#| mcp.server.context: Context HandlerResult ServerMiddleware ServerRequestContext
#| mcp.server.elicitation: AcceptedElicitation AcceptedUrlElicitation CancelledElicitation DeclinedElicitation
#|   ElicitationResult UrlElicitationResult elicit_url elicit_with_validation render_elicitation_schema
#| mcp.server.experimental:
#| mcp.server.experimental.request_context: Experimental
#| mcp.server.experimental.session_features: ExperimentalServerSessionFeatures
#| mcp.server.experimental.task_context: ServerTaskContext
#| mcp.server.experimental.task_result_handler: TaskResultHandler
#| mcp.server.experimental.task_scope: new_session_scope scoped_task_id session_scope_of task_in_session_scope
#|   task_listable_in_session_scope
#| mcp.server.experimental.task_support: TaskSupport
#| mcp.server.extension: Extension MethodBinding ResourceBinding ToolBinding compose_tool_call_handler
#| mcp.server.fastmcp: Audio Context FastMCP Icon Image __version__='1.30.0'
#| mcp.server.fastmcp.exceptions: FastMCPError InvalidSignature ResourceError ToolError ValidationError
#| mcp.server.fastmcp.prompts: Prompt PromptManager
#| mcp.server.fastmcp.prompts.base: AssistantMessage CONTENT_TYPES Message Prompt PromptArgument PromptResult
#|   SyncPromptResult UserMessage
#| mcp.server.fastmcp.prompts.manager: PromptManager
#| mcp.server.fastmcp.prompts.prompt_manager: PromptManager
#| mcp.server.fastmcp.resources: BinaryResource DirectoryResource FileResource FunctionResource HttpResource
#|   Resource ResourceManager ResourceTemplate TextResource
#| mcp.server.fastmcp.resources.base: Resource
#| mcp.server.fastmcp.resources.resource_manager: ResourceManager
#| mcp.server.fastmcp.resources.templates: ResourceTemplate
#| mcp.server.fastmcp.resources.types: BinaryResource DirectoryResource FileResource FunctionResource
#|   HttpResource TextResource
#| mcp.server.fastmcp.server: Context FastMCP Icon Settings StreamableHTTPASGIApp TransportSecuritySettings
#|   lifespan_wrapper
#| mcp.server.fastmcp.tools: Tool ToolManager
#| mcp.server.fastmcp.tools.base: Tool
#| mcp.server.fastmcp.tools.tool_manager: ToolManager
#| mcp.server.fastmcp.utilities:
#| mcp.server.fastmcp.utilities.context_injection: find_context_parameter inject_context
#| mcp.server.fastmcp.utilities.func_metadata: ArgModelBase FuncMetadata StrictJsonSchema func_metadata
#| mcp.server.fastmcp.utilities.logging: configure_logging get_logger
#| mcp.server.fastmcp.utilities.types: Audio Image
#| mcp.server.lowlevel: NotificationOptions Server
#| mcp.server.lowlevel.experimental: ExperimentalHandlers
#| mcp.server.lowlevel.func_inspection: create_call_wrapper
#| mcp.server.lowlevel.helper_types: ReadResourceContents
#| mcp.server.lowlevel.server: CombinationContent HandlerEntry NotificationOptions Server StructuredContent
#|   UnstructuredContent lifespan
#| mcp.server.mcpserver: AESGCMRequestStateCodec AcceptedElicitation AssistantMessage Audio CancelledElicitation
#|   Context DEFAULT_RESOURCE_SECURITY DeclinedElicitation Elicit ElicitationResult Extension Icon Image
#|   InvalidRequestState ListRoots MCPServer Message MethodBinding RequestStateBoundary RequestStateCodec
#|   RequestStateSecurity Resolve ResourceBinding ResourceSecurity Sample ToolBinding UserMessage
#|   authenticated_principal require_client_extension
#| mcp.server.mcpserver.context: Context
#| mcp.server.mcpserver.exceptions: InvalidSignature MCPServerError ResourceError ResourceNotFoundError ToolError
#|   UnexpectedResourceError UnexpectedToolError
#| mcp.server.mcpserver.prompts: Prompt PromptManager
#| mcp.server.mcpserver.prompts.base: AssistantMessage Message Prompt PromptArgument PromptResult
#|   SyncPromptResult UserMessage
#| mcp.server.mcpserver.prompts.manager: PromptManager
#| mcp.server.mcpserver.resolve: AcceptedElicitation CancelledElicitation DeclinedElicitation Elicit
#|   ElicitationResult ListRoots Resolve Sample build_resolver_plans find_resolved_parameters resolve_arguments
#|   returns_input_required
#| mcp.server.mcpserver.resources: BinaryResource DEFAULT_RESOURCE_SECURITY DirectoryResource FileResource
#|   FunctionResource HttpResource Resource ResourceManager ResourceSecurity ResourceSecurityError
#|   ResourceTemplate TextResource
#| mcp.server.mcpserver.resources.base: Resource
#| mcp.server.mcpserver.resources.resource_manager: ResourceManager
#| mcp.server.mcpserver.resources.templates: DEFAULT_RESOURCE_SECURITY ResourceSecurity ResourceSecurityError
#|   ResourceTemplate
#| mcp.server.mcpserver.resources.types: BinaryResource DirectoryResource FileResource FunctionResource
#|   HttpResource TextResource
#| mcp.server.mcpserver.server: MCPServer Settings TransportSecuritySettings lifespan_wrapper
#|   require_client_extension
#| mcp.server.mcpserver.tools: Tool ToolManager
#| mcp.server.mcpserver.tools.base: Tool
#| mcp.server.mcpserver.tools.tool_manager: ToolManager
#| mcp.server.mcpserver.utilities:
#| mcp.server.mcpserver.utilities.context_injection: find_context_parameter inject_context
#| mcp.server.mcpserver.utilities.func_metadata: ArgModelBase FuncMetadata StrictJsonSchema func_metadata
#| mcp.server.mcpserver.utilities.logging: configure_logging get_logger
#| mcp.server.mcpserver.utilities.types: Audio Image
#| mcp.server.models: InitializationOptions
#| mcp.server.request_state: AESGCMRequestStateCodec InvalidRequestState RequestStateBoundary RequestStateCodec
#|   RequestStateSecurity authenticated_principal
#| mcp.server.runner: CallNext ServerMiddleware ServerRunner aclose_shielded modern_on_request serve_connection
#|   serve_dual_era_loop serve_loop serve_one
#| mcp.server.session: InitializationState ServerRequestResponder ServerSession
#| mcp.server.sse: SseServerTransport
#| mcp.server.stdio: stdio_server
#| mcp.server.streamable_http: CONTENT_TYPE_JSON='application/json' CONTENT_TYPE_SSE='text/event-stream'
#|   EventMessage EventStore GET_STREAM_KEY='_GET_stream' LAST_EVENT_ID_HEADER='last-event-id'
#|   MAXIMUM_MESSAGE_SIZE=4194304 MCP_PROTOCOL_VERSION_HEADER='mcp-protocol-version'
#|   MCP_SESSION_ID_HEADER='mcp-session-id' REQUEST_CANCELLED=-32800 REQUEST_STREAM_BUFFER_SIZE=16 SSEEvent
#|   StreamableHTTPServerTransport check_accept_headers
#| mcp.server.streamable_http_manager: DEFAULT_MAX_REQUEST_BODY_SIZE=4194304 DEFAULT_MAX_SESSIONS=10000
#|   DEFAULT_SESSION_IDLE_TIMEOUT=1800 RequestBodyLimitMiddleware StreamableHTTPASGIApp
#|   StreamableHTTPSessionManager
#| mcp.server.streaming_asgi_transport: StreamingASGIResponseStream StreamingASGITransport
#| mcp.server.subscriptions: InMemorySubscriptionBus ListenHandler PromptsListChanged ResourceUpdated
#|   ResourcesListChanged SUBSCRIPTION_ID_META_KEY='io.modelcontextprotocol/subscriptionId' ServerEvent
#|   SubscriptionBus ToolsListChanged
#| mcp.server.transport_security: DEFAULT_MAX_REQUEST_BODY_SIZE=4194304 RequestBodyLimitMiddleware
#|   TransportSecurityMiddleware TransportSecuritySettings
#| mcp.server.validation: check_sampling_tools_capability validate_sampling_tools
#|   validate_tool_use_result_messages wants_sampling_tools
#| mcp.server.websocket: websocket_server
#| mcp.shared:
#| mcp.shared.auth: AuthorizationCodeResult InvalidRedirectUriError InvalidScopeError
#|   JWT_BEARER_GRANT_TYPE='urn:ietf:params:oauth:grant-type:jwt-bearer' OAuthClientInformationFull
#|   OAuthClientMetadata OAuthClientMetadataBase OAuthMetadata OAuthToken ProtectedResourceMetadata
#|   TokenEndpointAuthMethod
#| mcp.shared.auth_utils: calculate_token_expiry check_resource_allowed resource_url_from_server_url
#| mcp.shared.context: BaseContext RequestContext
#| mcp.shared.direct_dispatcher: DirectDispatcher create_direct_dispatcher_pair
#| mcp.shared.dispatcher: CallOptions DispatchContext Dispatcher OnNotify OnNotifyIntercept OnRequest Outbound
#|   ProgressFnT as_request_id coerce_request_id run_notify_intercept
#| mcp.shared.exceptions: MCPDeprecationWarning MCPError McpError NoBackChannelError UrlElicitationRequiredError
#| mcp.shared.experimental:
#| mcp.shared.experimental.tasks:
#| mcp.shared.experimental.tasks.capabilities: check_tasks_capability has_task_augmented_elicitation
#|   has_task_augmented_sampling require_task_augmented_elicitation require_task_augmented_sampling
#| mcp.shared.experimental.tasks.context: TaskContext
#| mcp.shared.experimental.tasks.helpers: MODEL_IMMEDIATE_RESPONSE_KEY='io.modelcontextprotocol/model-immediate-response'
#|   RELATED_TASK_METADATA_KEY='io.modelcontextprotocol/related-task' cancel_task create_task_state
#|   generate_task_id is_terminal task_execution
#| mcp.shared.experimental.tasks.in_memory_task_store: InMemoryTaskStore StoredTask
#| mcp.shared.experimental.tasks.message_queue: InMemoryTaskMessageQueue QueuedMessage TaskMessageQueue
#| mcp.shared.experimental.tasks.polling: poll_until_terminal
#| mcp.shared.experimental.tasks.resolver: Resolver
#| mcp.shared.experimental.tasks.store: TaskStore
#| mcp.shared.extension: validate_extension_identifier
#| mcp.shared.inbound: ERROR_CODE_HTTP_STATUS InboundLadderRejection InboundModernRoute
#|   MCP_METHOD_HEADER='mcp-method' MCP_NAME_HEADER='mcp-name' MCP_PARAM_HEADER_PREFIX='Mcp-Param-'
#|   MCP_PROTOCOL_VERSION_HEADER='mcp-protocol-version' NAME_BEARING_METHODS X_MCP_HEADER_KEY='x-mcp-header'
#|   classify_inbound_request decode_header_value encode_header_value find_duplicated_routing_header
#|   find_invalid_x_mcp_header mcp_param_headers unsupported_protocol_version_rejection
#|   validate_mcp_param_headers x_mcp_header_map
#| mcp.shared.jsonrpc_dispatcher: JSONRPCDispatcher cancelled_request_id_from_params
#|   handler_exception_to_error_data progress_token_from_params
#| mcp.shared.memory: MessageStream create_client_server_memory_streams
#|   create_connected_server_and_client_session
#| mcp.shared.message: ClientMessageMetadata MessageMetadata ServerMessageMetadata SessionMessage
#| mcp.shared.metadata_utils: get_display_name
#| mcp.shared.path_security: PathEscapeError contains_path_traversal is_absolute_path safe_join
#| mcp.shared.peer: ClientPeer Meta
#| mcp.shared.progress: Progress ProgressContext progress
#| mcp.shared.response_router: ResponseRouter
#| mcp.shared.session: BaseSession ProgressFnT RequestId RequestResponder
#| mcp.shared.subscriptions: LISTEN_STREAM_METHODS PromptsListChanged ResourceUpdated ResourcesListChanged
#|   SUBSCRIPTION_ID_META_KEY='io.modelcontextprotocol/subscriptionId' ServerEvent ToolsListChanged
#|   event_from_wire event_matches event_to_notification
#| mcp.shared.tool_name_validation: SEP_986_URL='https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names'
#|   ToolNameValidationResult issue_tool_name_warning validate_and_warn_tool_name validate_tool_name
#| mcp.shared.transport_context: TransportContext
#| mcp.shared.uri_template: DEFAULT_MAX_TEMPLATE_LENGTH=8192 DEFAULT_MAX_URI_LENGTH=65536
#|   DEFAULT_MAX_VARIABLES=256 InvalidUriTemplate Operator UriTemplate Variable
#| mcp.shared.version:
#| mcp.types: Annotations AudioContent BaseMetadata BlobResourceContents
#|   CLIENT_CAPABILITIES_META_KEY='io.modelcontextprotocol/clientCapabilities'
#|   CLIENT_INFO_META_KEY='io.modelcontextprotocol/clientInfo' CONNECTION_CLOSED=-32000 CORE_RESULT_TYPES
#|   CacheableResult CallToolRequest CallToolRequestParams CallToolResult CancelTaskRequest
#|   CancelTaskRequestParams CancelTaskResult CancelledNotification CancelledNotificationParams
#|   ClientCapabilities ClientNotification ClientNotificationType ClientRequest ClientRequestType ClientResult
#|   ClientResultType ClientTasksCapability ClientTasksRequestsCapability CompleteRequest CompleteRequestParams
#|   CompleteResult Completion CompletionArgument CompletionContext CompletionsCapability Content ContentBlock
#|   CreateMessageRequest CreateMessageRequestParams CreateMessageResult CreateMessageResultWithTools
#|   CreateTaskResult DEFAULT_NEGOTIATED_VERSION='2025-03-26' DiscoverRequest DiscoverResult
#|   ElicitCompleteNotification ElicitCompleteNotificationParams ElicitRequest ElicitRequestFormParams
#|   ElicitRequestParams ElicitRequestURLParams ElicitRequestedSchema ElicitResult ElicitationCapability
#|   ElicitationRequiredErrorData EmbeddedResource EmptyResult ErrorData FormElicitationCapability
#|   GetPromptRequest GetPromptRequestParams GetPromptResult GetTaskPayloadRequest GetTaskPayloadRequestParams
#|   GetTaskPayloadResult GetTaskRequest GetTaskRequestParams GetTaskResult HEADER_MISMATCH=-32020
#|   INTERNAL_ERROR=-32603 INVALID_PARAMS=-32602 INVALID_REQUEST=-32600 Icon IconTheme ImageContent
#|   Implementation IncludeContext InitializeRequest InitializeRequestParams InitializeResult
#|   InitializedNotification InputRequest InputRequests InputRequiredResult InputResponse
#|   InputResponseRequestParams InputResponses JSONRPCError JSONRPCMessage JSONRPCNotification JSONRPCRequest
#|   JSONRPCResponse JSONRPC_VERSION='2.0' LATEST_PROTOCOL_VERSION='2026-07-28'
#|   LOG_LEVEL_META_KEY='io.modelcontextprotocol/logLevel' ListPromptsRequest ListPromptsResult
#|   ListResourceTemplatesRequest ListResourceTemplatesResult ListResourcesRequest ListResourcesResult
#|   ListRootsRequest ListRootsResult ListTasksRequest ListTasksResult ListToolsRequest ListToolsResult
#|   LoggingCapability LoggingLevel LoggingMessageNotification LoggingMessageNotificationParams
#|   METHOD_NOT_FOUND=-32601 MISSING_REQUIRED_CLIENT_CAPABILITY=-32021 MissingRequiredClientCapabilityErrorData
#|   ModelHint ModelPreferences Notification NotificationParams PARSE_ERROR=-32700
#|   PROTOCOL_VERSION_META_KEY='io.modelcontextprotocol/protocolVersion' PaginatedRequest PaginatedRequestParams
#|   PaginatedResult PingRequest ProgressNotification ProgressNotificationParams ProgressToken Prompt
#|   PromptArgument PromptListChangedNotification PromptMessage PromptReference PromptsCapability
#|   REQUEST_TIMEOUT=-32001 ReadResourceRequest ReadResourceRequestParams ReadResourceResult RelatedTaskMetadata
#|   Request RequestId RequestParams RequestParamsMeta Resource ResourceContents ResourceLink
#|   ResourceListChangedNotification ResourceReference ResourceTemplate ResourceTemplateReference
#|   ResourceUpdatedNotification ResourceUpdatedNotificationParams ResourcesCapability Result ResultType Role
#|   Root RootsCapability RootsListChangedNotification SERVER_INFO_META_KEY='io.modelcontextprotocol/serverInfo'
#|   SamplingCapability SamplingContent SamplingContextCapability SamplingMessage SamplingMessageContentBlock
#|   SamplingToolsCapability ServerCapabilities ServerNotification ServerNotificationType ServerRequest
#|   ServerRequestType ServerResult ServerResultType ServerTasksCapability ServerTasksRequestsCapability
#|   SetLevelRequest SetLevelRequestParams StopReason SubscribeRequest SubscribeRequestParams SubscriptionFilter
#|   SubscriptionsAcknowledgedNotification SubscriptionsAcknowledgedNotificationParams SubscriptionsListenRequest
#|   SubscriptionsListenRequestParams SubscriptionsListenResult TASK_FORBIDDEN='forbidden'
#|   TASK_OPTIONAL='optional' TASK_REQUIRED='required' TASK_STATUS_CANCELLED='cancelled'
#|   TASK_STATUS_COMPLETED='completed' TASK_STATUS_FAILED='failed' TASK_STATUS_INPUT_REQUIRED='input_required'
#|   TASK_STATUS_WORKING='working' Task TaskExecutionMode TaskMetadata TaskStatus TaskStatusNotification
#|   TaskStatusNotificationParams TasksCallCapability TasksCancelCapability TasksCreateElicitationCapability
#|   TasksCreateMessageCapability TasksElicitationCapability TasksListCapability TasksSamplingCapability
#|   TasksToolsCapability TextContent TextResourceContents Tool ToolAnnotations ToolChoice ToolExecution
#|   ToolListChangedNotification ToolResultContent ToolUseContent ToolsCapability
#|   UNSUPPORTED_PROTOCOL_VERSION=-32022 URL_ELICITATION_REQUIRED=-32042 UnsubscribeRequest
#|   UnsubscribeRequestParams UnsupportedProtocolVersionErrorData UrlElicitationCapability
#|   client_notification_adapter client_request_adapter client_result_adapter jsonrpc_message_adapter
#|   server_notification_adapter server_request_adapter server_result_adapter
#| mcp.types.jsonrpc: CONNECTION_CLOSED=-32000 ErrorData HEADER_MISMATCH=-32020 INTERNAL_ERROR=-32603
#|   INVALID_PARAMS=-32602 INVALID_REQUEST=-32600 JSONRPCError JSONRPCMessage JSONRPCNotification JSONRPCRequest
#|   JSONRPCResponse JSONRPC_VERSION='2.0' METHOD_NOT_FOUND=-32601 MISSING_REQUIRED_CLIENT_CAPABILITY=-32021
#|   PARSE_ERROR=-32700 REQUEST_TIMEOUT=-32001 RequestId UNSUPPORTED_PROTOCOL_VERSION=-32022
#|   URL_ELICITATION_REQUIRED=-32042 jsonrpc_message_adapter
#| mcp.types.methods: CACHEABLE_METHODS CLIENT_NOTIFICATIONS CLIENT_REQUESTS CLIENT_RESULTS CacheableMethod
#|   INPUT_REQUIRED_METHODS MONOLITH_NOTIFICATIONS MONOLITH_REQUESTS MONOLITH_RESULTS SERVER_NOTIFICATIONS
#|   SERVER_REQUESTS SERVER_RESULTS SPEC_CLIENT_METHODS SPEC_CLIENT_NOTIFICATION_METHODS is_input_required
#|   parse_client_notification parse_client_request parse_client_result parse_server_notification
#|   parse_server_request parse_server_result serialize_server_result validate_client_notification
#|   validate_client_request validate_client_result validate_server_result
#| mcp.types.version: HANDSHAKE_PROTOCOL_VERSIONS KNOWN_PROTOCOL_VERSIONS LATEST_HANDSHAKE_VERSION='2025-11-25'
#|   LATEST_MODERN_VERSION='2026-07-28' LATEST_PROTOCOL_VERSION='2026-07-28' MODERN_PROTOCOL_VERSIONS
#|   OLDEST_SUPPORTED_VERSION='2024-11-05' SUPPORTED_PROTOCOL_VERSIONS is_version_at_least
#| fastmcp:Context: client_extension_settings client_id client_supports_extension close_sse_stream debug
#|   delete_state disable_components elicit enable_components error fastmcp get_http_request get_prompt get_state
#|   info input_responses is_background_task lifespan_context list_prompts list_resources list_roots log
#|   origin_request_id read_resource report_progress request_context request_id request_state reset_visibility
#|   sample sample_step send_notification send_prompt_list_changed send_resource_list_changed
#|   send_tool_list_changed session session_id set_state task_id transport warning
#| fastmcp:FastMCP: add_completion_handler add_extension add_middleware add_prompt add_provider add_resource
#|   add_resource_fn add_template add_tool add_tool_transformation add_transform as_proxy auth call_tool
#|   client_log_level completion custom_route dependencies disable docket enable exclude_tags
#|   experimental_capabilities from_client from_fastapi from_openapi generate_name get_app_tool get_prompt
#|   get_prompts get_resource get_resource_template get_resource_templates get_resources get_tasks get_tool
#|   get_tool_by_hash get_tools http_app icons import_server include_fastmcp_meta include_tags instructions
#|   lifespan list_prompts list_resource_templates list_resources list_tools local_provider middleware mount name
#|   prompt provider_error_strategy providers read_resource remove_tool remove_tool_transformation render_prompt
#|   required_extensions resource run run_async run_http_async run_sse_async run_stdio_async
#|   run_streamable_http_async sampling_handler sampling_handler_behavior settings sse_app streamable_http_app
#|   strict_input_validation tags tool transforms unmount version website_url wrap_transform
#| mcp.server.fastmcp:Context: client_id close_sse_stream close_standalone_sse_stream construct copy debug dict
#|   elicit elicit_url error fastmcp from_orm info json log model_computed_fields model_config model_construct
#|   model_copy model_dump model_dump_json model_extra model_fields model_fields_set model_json_schema
#|   model_parametrized_name model_post_init model_rebuild model_validate model_validate_json
#|   model_validate_strings parse_file parse_obj parse_raw read_resource report_progress request_context
#|   request_id schema schema_json session update_forward_refs validate warning
#| mcp.server.fastmcp:FastMCP: add_prompt add_resource add_tool call_tool completion custom_route dependencies
#|   get_context get_prompt icons instructions list_prompts list_resource_templates list_resources list_tools
#|   name prompt read_resource remove_tool resource run run_sse_async run_stdio_async run_streamable_http_async
#|   session_manager settings sse_app streamable_http_app tool website_url
#| mcp.server.mcpserver:Context: client_capabilities close_sse_stream close_standalone_sse_stream construct copy
#|   debug dict elicit elicit_url error from_orm headers info input_responses json log mcp_server
#|   model_computed_fields model_config model_construct model_copy model_dump model_dump_json model_extra
#|   model_fields model_fields_set model_json_schema model_parametrized_name model_post_init model_rebuild
#|   model_validate model_validate_json model_validate_strings notify_prompts_changed notify_resource_updated
#|   notify_resources_changed notify_tools_changed parse_file parse_obj parse_raw protocol_version read_resource
#|   report_progress request_context request_id request_state schema schema_json session update_forward_refs
#|   validate warning
#| mcp.server.mcpserver:MCPServer: add_prompt add_resource add_tool call_tool completion custom_route
#|   dependencies description get_prompt icons instructions list_prompts list_resource_templates list_resources
#|   list_tools middleware name prompt read_resource remove_prompt remove_tool resource run run_sse_async
#|   run_stdio_async run_streamable_http_async session_manager settings sse_app streamable_http_app title tool
#|   version website_url
# </sdk-surface>

_SDK_SERVER_OPTIONS = {
    "tool": ("name", "title", "description", "annotations", "icons", "meta", "output_schema",
             "structured_output", "timeout"),
    "resource": ("name", "title", "description", "mime_type", "size", "annotations", "icons", "meta"),
    "prompt": ("name", "title", "description", "icons", "meta"),
}
_SDK_CACHE = {}


def _sdk_json(value):
    """An alias object (or a list/dict of them) as the JSON the protocol carries."""
    if isinstance(value, _SDKModel):
        return value.to_json()
    if isinstance(value, (list, tuple)):
        return [_sdk_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _sdk_json(v) for k, v in value.items()}
    if hasattr(value, "to_content") and not isinstance(value, type):
        return value.to_content()
    return value


def _camel(name: str) -> str:
    """mcp 2.x spells fields in snake_case (mime_type), the wire in camelCase (mimeType)."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest) if name != "_meta" else name


class _SDKModel:
    """A protocol object built with keyword fields, like the SDK's pydantic types."""
    kind = None

    def __init__(self, **fields) -> None:
        if self.kind is not None:
            fields.setdefault("type", self.kind)
        self.__dict__["_fields"] = {_camel(k): v for k, v in fields.items() if v is not None}

    def __getattr__(self, name):
        fields = self.__dict__.get("_fields", {})
        if name in fields or _camel(name) in fields:
            return fields.get(name, fields.get(_camel(name)))
        raise AttributeError(name)

    def to_json(self) -> dict:
        return {k: _sdk_json(v) for k, v in self._fields.items()}

    model_dump = to_json

    def __repr__(self) -> str:
        return "%s(%s)" % (type(self).__name__, ", ".join("%s=%r" % i for i in self._fields.items()))

def _sdk_block(name, kind):
    return type(name, (_SDKModel,), {"kind": kind, "to_content": _SDKModel.to_json,     # a block is its content
                                     "__doc__": "The %s content block." % kind})

def _sdk_model(name, doc):
    return type(name, (_SDKModel,), {"__doc__": doc})

class _SDKCallToolResult(_SDKModel):
    """A complete tools/call result, passed through as it is."""

    def to_result(self) -> dict:
        result = self.to_json()
        result.setdefault("content", [])
        return result

class _SDKToolAnnotations(dict):
    """Tool annotations (readOnlyHint, ...), as the dict minimcp takes."""

    def __init__(self, **fields) -> None:       # as given: each dialect keeps what its SDK's model keeps
        super().__init__((k, v) for k, v in fields.items() if v is not None)

class _SDKPromptMessage(dict):
    """A prompt message: ``PromptMessage(role="user", content=TextContent(...))``."""

    def __init__(self, role: str = "user", content=None, **_ignored) -> None:
        super().__init__(role=role, content=_sdk_json(content))

class _SDKMessage(_SDKPromptMessage):
    """A prompt message: ``Message("text")`` or ``Message(content, role="assistant")``."""

    def __init__(self, content=None, role: str = "user", **_ignored) -> None:
        if not isinstance(content, (str, dict, _SDKModel)) and not hasattr(content, "to_content"):
            content = json.dumps(content, ensure_ascii=False, default=_json_default)
        super().__init__(role=role, content=content)

def _sdk_role_message(name: str, role: str):
    def __init__(self, content=None, **fields) -> None:      # the role is the class's, whatever fields say
        _SDKMessage.__init__(self, content, role=role)
    return type(name, (_SDKMessage,), {"__init__": __init__, "__doc__": "A prompt message whose role is %s." % role})

class _SDKToolError(Exception):
    """Raise it in a tool: the model reads its message in an ``isError`` result."""

class _SDKResourceError(Exception):
    """Raise it in a resource: the client gets an error with its message."""

class _SDKFastMCP(MCPServer):
    """minimcp's MCPServer with an SDK's constructor and decorator keywords, served in that SDK's dialect.

    Settings minimcp has no use for (tags, auth, mount paths, ...) are accepted and ignored;
    ``lifespan``, ``host`` and ``port`` are honoured.
    """
    sdk_dialect = "mcp1"                 # each alias class names its SDK (see _sdk_server_class)

    def __class_getitem__(cls, _lifespan_type):
        return cls                       # MCPServer[AppContext] in an annotation: the same class here

    def __init__(self, name: str = None, instructions: str = None, *args, **settings) -> None:
        keep = {k: _sdk_json(settings[k]) for k in ("version", "title", "description", "icons", "website_url")
                if settings.get(k) is not None}         # Icon objects become the dicts minimcp takes
        keep.update({k: settings[k] for k in ("lifespan", "host", "port", "log_level", "debug", "dependencies")
                     if settings.get(k) is not None})
        # fastmcp's strict_input_validation: pydantic's strict mode ("3" is no int), and its words
        self.strict_input_validation = bool(settings.get("strict_input_validation"))
        super().__init__(name or "minimcp", instructions=instructions,
                         dialect=settings.get("dialect") or self.sdk_dialect, **keep)

    def _options(self, kind: str, options: dict) -> dict:
        kept = {k: _sdk_json(v) for k, v in options.items() if k in _SDK_SERVER_OPTIONS[kind] and v is not None}
        if options.get("tags") and self.dialect.describe_extra is not None:      # fastmcp lists its tags
            meta = dict(kept.get("meta") or {})
            meta["fastmcp"] = dict(meta.get("fastmcp") or {}, tags=sorted(options["tags"]))
            kept["meta"] = meta
        return kept

    def tool(self, name=None, **options):
        if callable(name) and not isinstance(name, str):
            return super().tool(**self._options("tool", options))(name)
        return super().tool(name, **self._options("tool", options))

    def resource(self, uri: str, **options):
        return super().resource(uri, **self._options("resource", options))

    def prompt(self, name=None, **options):
        if callable(name) and not isinstance(name, str):
            return super().prompt(**self._options("prompt", options))(name)
        return super().prompt(name, **self._options("prompt", options))

    def run(self, transport: str = None, **options) -> None:
        if transport in (None, "stdio"):
            super().run()
        elif transport in ("streamable-http", "http"):      # the SDK's host/port, as it defaults them
            super().run("http", options.get("host"), options.get("port"),
                        **({"ready": options["ready"]} if "ready" in options else {}))
        else:
            raise SystemExit("minimcp serves stdio and Streamable HTTP, not %r (the HTTP+SSE transport of "
                             "2024-11-05 is deprecated): use transport='streamable-http'" % transport)

    # Servers whose main() is a coroutine await these. minimcp serves on threads of its own, so
    # each runs the server right here, holding the caller's event loop until serving ends.
    async def run_async(self, transport: str = None, **options) -> None:
        self.run(transport, **options)

    async def run_stdio_async(self) -> None:
        self.run("stdio")

    async def run_streamable_http_async(self) -> None:
        self.run("streamable-http")

    async def run_http_async(self, **options) -> None:
        self.run("http", **options)


def _sdk_server_class(dialect: str) -> type:
    """The alias server class of one SDK: mcp1 (mcp.server.fastmcp.FastMCP, minimcp.FastMCP), mcp2
    (mcp.server.mcpserver.MCPServer, mcp.server.MCPServer) or fastmcp (fastmcp.FastMCP)."""
    key = "class:" + dialect
    if key not in _SDK_CACHE:
        _SDK_CACHE[key] = type("MCPServer" if dialect == "mcp2" else "FastMCP", (_SDKFastMCP,),
                               {"sdk_dialect": dialect, "__doc__": _SDKFastMCP.__doc__})
    return _SDK_CACHE[key]


# How fastmcp 4.2.3 reads a docstring (its parse_docstring, over griffe 2.4's parsers): the
# Google, NumPy and Sphinx readers are tried in turn, and the first that finds a section (or a
# Note:-like admonition) gives the description (its first text section, line breaks kept) and
# the parameters' descriptions; when none finds one, the whole dedented docstring is the
# description. Resources and templates get the whole docstring as it is.
_GOOGLE_SECTIONS = frozenset((
    "args", "arguments", "params", "parameters", "keyword args", "keyword arguments", "other args",
    "other arguments", "other params", "other parameters", "type args", "type arguments", "type params",
    "type parameters", "raises", "exceptions", "returns", "yields", "receives", "examples", "attributes",
    "functions", "methods", "classes", "type aliases", "modules", "warns", "warnings"))
_GOOGLE_PARAMETERS = frozenset(("args", "arguments", "params", "parameters"))
_NUMPY_SECTIONS = frozenset((
    "deprecated", "parameters", "other parameters", "type parameters", "returns", "yields", "receives",
    "raises", "warns", "examples", "attributes", "functions", "methods", "classes", "type aliases", "modules"))
_STRUCTURAL_ADMONITIONS = frozenset((    # fastmcp's: the admonitions that end a description
    "attention", "caution", "danger", "error", "example", "hint", "important", "note", "notes", "raise",
    "references", "return", "see-also", "tip", "todo", "warning", "yield"))
_SPHINX_FIELDS = frozenset(("param", "parameter", "arg", "argument", "key", "keyword", "type", "var", "ivar",
                            "cvar", "vartype", "returns", "return", "rtype", "raises", "raise", "except",
                            "exception"))


def _blank(line: str) -> bool:
    return not line or line.isspace()


def _google_items(lines: list, offset: int) -> tuple:
    """griffe's Google block items: ([(first line, [lines])...], the last line read)."""
    if offset >= len(lines):
        return [], offset
    while offset < len(lines) and _blank(lines[offset]):
        offset += 1
    if offset >= len(lines):
        return [], offset - 1
    indent = len(lines[offset]) - len(lines[offset].lstrip())
    if indent == 0:
        return [], offset - 1
    items, current = [], [lines[offset][indent:]]
    offset += 1
    while offset < len(lines):
        line = lines[offset]
        if _blank(line):
            current.append("")
        elif line.startswith(" " * indent * 2):
            current.append(line[indent * 2:])
        elif line.startswith(" " * (indent + 1)):
            current.append(line.lstrip())
        elif line.startswith(" " * indent):
            items.append(current)
            current = [line[indent:]]
        else:
            break
        offset += 1
    items.append(current)
    return items, offset - 1


def _google_sections(lines: list) -> tuple:
    """(texts, parameters, structured) as griffe's Google parser and fastmcp read them."""
    import re
    heading = re.compile(r"^(?P<type>[\w][\s\w-]*):(\s+(?P<title>[^\s].*))?\s*$", re.IGNORECASE)
    texts, params, structured, current, fenced, offset = [], {}, False, [], False, 0

    def flush():
        if any(current):
            texts.append("\n".join(current).rstrip("\n"))
        del current[:]
    while offset < len(lines):
        line = lines[offset]
        fence = line.lstrip(" ").startswith("```")
        match = None if fenced or fence or ":" not in line else heading.match(line)
        if fenced or fence:
            fenced = fenced != fence
            current.append(line)
        elif match is None:
            current.append(line)
        else:
            kind = match.group("type")
            blank_below = offset + 1 < len(lines) and _blank(lines[offset + 1])
            indented_below = offset + 1 < len(lines) and not blank_below and lines[offset + 1].startswith(" ")
            indented_next = (offset + 2 < len(lines) and not _blank(lines[offset + 2])
                             and lines[offset + 2].startswith(" "))
            blank_above = offset == 0 or _blank(lines[offset - 1])
            if not (indented_below or indented_next) or not blank_above or (indented_next and blank_below):
                current.append(line)           # griffe: not a section (no block, no blank line above)
            elif kind.lower() in _GOOGLE_SECTIONS:
                flush()
                items, offset = _google_items(lines, offset + 1)
                if kind.lower() not in _GOOGLE_PARAMETERS:
                    structured = structured or bool(items)     # griffe drops a section with nothing in it
                for item in items if kind.lower() in _GOOGLE_PARAMETERS else ():
                    head, sep, rest = item[0].partition(":")
                    if not sep:
                        continue
                    name = head.split("(", 1)[0].strip() if "(" in head and head.endswith(")") else head
                    params[name] = "\n".join([rest.lstrip()] + item[1:]).rstrip("\n")
                    structured = True
            else:
                start, block = offset + 1, []
                while start < len(lines) and _blank(lines[start]):
                    start += 1
                indent = len(lines[start]) - len(lines[start].lstrip()) if start < len(lines) else 0
                if indent:
                    offset = start
                    while offset < len(lines) and (lines[offset].startswith(" " * indent) or _blank(lines[offset])):
                        block.append(lines[offset])
                        offset += 1
                    offset -= 1
                if any(block):
                    flush()
                    structured = structured or kind.lower().replace(" ", "-") in _STRUCTURAL_ADMONITIONS
                else:
                    current.append(line)
        offset += 1
    flush()
    return texts, params, structured


def _numpy_items(lines: list, start: int, dashes) -> tuple:
    """The items of a NumPy section whose body starts at ``start``: ([lines of each], the line after)."""
    while start < len(lines) and _blank(lines[start]):
        start += 1
    items, offset = [], start
    if start < len(lines):
        item, offset = [lines[start]], start + 1
        while offset < len(lines):
            next_line = lines[offset]
            if _blank(next_line):
                item.append("")
            elif next_line.startswith("    "):
                item.append(next_line[4:])
            elif next_line.startswith(" "):
                item.append(next_line.lstrip())
            elif offset + 1 < len(lines) and dashes(lines[offset + 1]):
                break
            else:
                items.append(item)
                item = [next_line]
            offset += 1
        items.append(item)
    return items, offset


def _numpy_sections(lines: list) -> tuple:
    """(texts, parameters, structured) as griffe's NumPy parser and fastmcp read them."""
    import re
    dashes = lambda line: "-" in line and _blank(line.replace("-", ""))
    name_re = r"\*{0,2}[_a-z][_a-z0-9]*"
    param_re = re.compile(r"(?P<names>%s(?:,\s%s)*)" % (name_re, name_re), re.IGNORECASE)
    texts, params, structured, current, title, fenced, offset = [], {}, False, [], "", False, 0

    def flush():
        if title:
            kind = title.lower().replace(" ", "-")
            return kind[:-1] if kind in ("warnings", "notes") else kind
        if any(current):
            texts.append("\n".join(current).rstrip("\n"))
        return None
    while offset < len(lines):
        line = lines[offset]
        fence = line.lstrip(" ").startswith("```")
        if fenced or fence:
            fenced = fenced != fence
            current.append(line)
        elif _blank(line):
            current.append("")
        elif offset == len(lines) - 1:
            current.append(line)
        elif dashes(lines[offset + 1]):
            kind = flush()
            structured = structured or kind in _STRUCTURAL_ADMONITIONS
            current, title = [], ""
            if line.lower() in _NUMPY_SECTIONS:
                items, offset = _numpy_items(lines, offset + 2, dashes)
                offset -= 1
                if line.lower() != "parameters":
                    structured = structured or bool(items)     # griffe drops a section with nothing in it
                for item in items if line.lower() == "parameters" else ():
                    found = param_re.match(item[0])
                    if found:
                        structured = True
                        for name in found.group("names").split(", "):
                            params.setdefault(name, "\n".join(item[1:]).rstrip())
            else:
                title = line
                offset += 1
        else:
            current.append(line)
        offset += 1
    kind = flush()
    return texts, params, structured or kind in _STRUCTURAL_ADMONITIONS


def _sphinx_sections(lines: list) -> tuple:
    """(texts, parameters, structured) as griffe's Sphinx parser and fastmcp read them."""
    import re
    described, params, structured, offset = [], {}, False, 0
    while offset < len(lines):
        line = lines[offset]
        field = re.match(r":(\w+)[\s:]", line)
        if not field or field.group(1) not in _SPHINX_FIELDS:
            described.append(line)
            offset += 1
            continue
        block, offset = [line.lstrip()], offset + 1
        while offset < len(lines) and not lines[offset].startswith(":"):
            block.append(lines[offset])
            offset += 1
        parts = _clean_doc("\n".join(block)).split(":", 2)
        if len(parts) < 3:
            continue
        words = parts[1].split(" ")
        if field.group(1) in ("param", "parameter", "arg", "argument", "key", "keyword") and 2 <= len(words):
            structured = True
            params.setdefault(words[-1], parts[2].strip())
        elif field.group(1) not in ("param", "parameter", "arg", "argument", "key", "keyword"):
            structured = True
    while described and _blank(described[0]):
        described.pop(0)
    while described and _blank(described[-1]):
        described.pop()
    return ["\n".join(described)], params, structured


def _fastmcp_docstring(doc, kind: str) -> tuple:
    """fastmcp 4.2.3's (description or None, {argument: description}) of a handler's docstring."""
    text = _clean_doc(doc) if isinstance(doc, str) else ""
    if not text or kind == "resource":
        return text or None, {}
    lines = text.split("\n")
    for parser in (_google_sections, _numpy_sections, _sphinx_sections):
        texts, params, structured = parser(lines)
        if params or structured:
            return (texts[0] if texts else None), params
    return text, {}


def _pydantic_sorted(schema):
    """A schema as pydantic writes it: keys sorted (a properties map as it came), a bare list's
    items {} and a bare dict's additionalProperties true spelled out."""
    if isinstance(schema, list):
        return [_pydantic_sorted(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    if schema.get("type") == "array" and "items" not in schema and "prefixItems" not in schema:
        schema = dict(schema, items={})
    if schema.get("type") == "object" and "properties" not in schema and "additionalProperties" not in schema:
        schema = dict(schema, additionalProperties=True)
    return {k: ({n: _pydantic_sorted(v) for n, v in schema[k].items()} if k == "properties" and isinstance(
        schema[k], dict) else _pydantic_sorted(schema[k])) for k in sorted(schema)}


def _fastmcp_prompt_argument(record, argument: dict) -> dict:
    """fastmcp 4.2.3's prompt argument: Annotated[X, "text"] describes it, and a type other than str
    adds how to write it as a string (the type's JSON Schema, compact, as pydantic writes it)."""
    hint = record.hints.get(argument["name"], _EMPTY)
    if hint is _EMPTY:
        return argument
    namespace = record.signature.namespace
    try:
        hint = _resolve_annotation(hint, namespace)
        origin, args, metadata = _typing_parts(hint)
        words = [m for m in metadata if isinstance(m, str)] if origin == "annotated" else []
        if words and "description" not in argument:
            argument = dict(argument, description=words[0])
        if hint is str:
            return argument
        schema = _schema_for(args[0] if origin == "annotated" else hint, namespace)
    except SchemaError:
        return argument
    schema = {k: v for k, v in schema.items() if k != "description"}
    note = ("Provide a value matching the following JSON schema: %s. Encode non-string values as JSON."
            % json.dumps(_pydantic_sorted(schema), separators=(",", ":")))
    described = argument.get("description")
    return dict(argument, description=described + "\n\n" + note if described else note)


def _pydantic_output(described_root: bool):
    """An SDK row's output_spelling: the outputSchema as pydantic writes it, equivalent to minimcp's
    own but spelled out: a bare list's items {}, a bare dict's additionalProperties true, and a
    TypedDict's or dataclass's docstring as its description (dedented; not a dataclass's generated
    one). mcp 1.x and 2.x build the returned class's own model from its fields, so the class
    returned is not described (``described_root`` False); fastmcp 4.2.3 describes it too."""
    def spell(schema: dict, hint, namespace: dict) -> dict:
        import copy
        schema = copy.deepcopy(schema)
        _pydantic_walk(schema, hint, namespace, described_root, ())
        return schema
    return spell


def _pydantic_walk(schema, hint, namespace: dict, describe: bool, seen: tuple) -> None:
    if not isinstance(schema, dict) or "$ref" in schema:
        return
    try:
        hint = _resolve_annotation(hint, namespace)
    except SchemaError:
        return
    origin, args, _ = _typing_parts(hint)
    if origin == "annotated":
        return _pydantic_walk(schema, args[0], namespace, describe, seen)
    if schema.get("type") == "array" and "items" not in schema and "prefixItems" not in schema:
        schema["items"] = {}
    if schema.get("type") == "object" and "properties" not in schema and schema.get("additionalProperties",
                                                                                    {}) == {}:
        schema["additionalProperties"] = True           # dict and dict[str, Any] alike
    if "anyOf" in schema and len(schema["anyOf"]) == len(args):
        for choice, arg in zip(schema["anyOf"], args):
            _pydantic_walk(choice, arg, namespace, True, seen)
    elif isinstance(schema.get("items"), dict) and args:
        _pydantic_walk(schema["items"], args[0], namespace, True, seen)
    elif isinstance(schema.get("additionalProperties"), dict) and len(args) == 2:
        _pydantic_walk(schema["additionalProperties"], args[1], namespace, True, seen)
    elif (_is_typeddict(hint) or _is_dataclass(hint)) and hint not in seen:
        doc = hint.__dict__.get("__doc__")
        generated = _is_dataclass(hint) and isinstance(doc, str) and doc.startswith(hint.__name__ + "(")
        if describe and isinstance(doc, str) and doc.strip() and not generated:
            schema.setdefault("description", _clean_doc(doc))
        hints = _class_hints(hint)
        for name, prop in (schema.get("properties") or {}).items():
            if name in hints:
                _pydantic_walk(prop, hints[name], _class_namespace(hint), True, seen + (hint,))


def _fastmcp_finite(value, path: str = "$", depth: int = 0) -> None:
    """fastmcp 4.2.3's check of a tool result: inf or nan anywhere is an isError result naming where."""
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        raise _SDKToolError("Tool result contains a non-finite float (%r) at %s; JSON cannot represent NaN "
                            "or Infinity" % (value, path))
    if depth > 100:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            _fastmcp_finite(item, "%s.%s" % (path, key), depth + 1)
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            _fastmcp_finite(item, "%s[%d]" % (path, index), depth + 1)
    elif _is_dataclass(type(value)):
        for key in value.__dataclass_fields__:
            _fastmcp_finite(getattr(value, key), "%s.%s" % (path, key), depth + 1)


class _SDKElicited(dict):
    """An elicitation answer as the SDKs hand it back: ``.action`` and ``.data`` (``.content`` as
    sent), still minimcp's dict, and awaitable (``await ctx.elicit(...)``)."""

    def __getattr__(self, name: str):
        if name in ("action", "data", "content"):
            return self.get(name)
        raise AttributeError(name)

    def __await__(self):
        return self
        yield


def _sdk_elicit(ctx, message: str, response_type, timeout, key) -> "_SDKElicited":
    """fastmcp's ``ctx.elicit(message, response_type=...)``: a class is asked as its fields and
    answered as an instance; str, int, float, bool or a list of choices is asked as one ``value``."""
    scalar = response_type in (str, int, float, bool)
    if isinstance(response_type, list) and all(isinstance(c, str) for c in response_type):
        schema = {"type": "object", "properties": {"value": {"type": "string", "enum": list(response_type)}},
                  "required": ["value"]}
    elif scalar:
        schema = {"type": "object", "properties": {"value": _schema_for(response_type, {})}, "required": ["value"]}
    else:
        schema = response_type
    answer = Context.elicit.__wrapped__(ctx, message, schema, timeout, key)
    content = answer.get("content") if isinstance(answer, dict) else None
    data = None
    if isinstance(answer, dict) and answer.get("action") == "accept":
        if isinstance(schema, dict):
            data = (content or {}).get("value")
        elif isinstance(response_type, type) and not _is_typeddict(response_type):
            data = response_type(**(content or {}))      # a dataclass or a pydantic model
        else:
            data = dict(content or {})
    return _SDKElicited(answer if isinstance(answer, dict) else {}, data=data)


def _fastmcp_listing(kind: str, record, described: dict) -> dict:
    """fastmcp's own fields in a listing: tags in _meta, a title made from a tool's name, how to
    write a prompt's arguments."""
    meta = described.get("_meta") or {}
    described["_meta"] = dict(meta, fastmcp=dict(meta.get("fastmcp") or {}, tags=(meta.get("fastmcp") or {}).get(
        "tags", [])))
    if kind == "prompt" and described.get("arguments"):
        described["arguments"] = [_fastmcp_prompt_argument(record, a) for a in described["arguments"]]
    if kind == "tool":
        described.setdefault("title", record.name.replace("_", " ").title())
        if record.wrap_result:
            described["outputSchema"] = dict(described["outputSchema"], **{"x-fastmcp-wrap-result": True})
    return described


# Invalid arguments in pydantic's words. The SDKs validate a call's arguments with pydantic
# and send str(ValidationError); minimcp's JSON-Schema validator still decides accept or
# reject, and when it rejects, this emulation walks the function's own hints as pydantic's
# lax (python) mode would, collecting every error with pydantic's location, words, type and
# input. Measured against mcp 1.30.0, mcp 2.3.0 and fastmcp 4.2.3 with pydantic 2.14.4 (see
# tests/test_dialect_words.py). A hint it cannot judge (datetime, custom validators, ...)
# leaves the validator's words, so a wrong report is never invented.

class _Unworded(Exception):
    """A hint the emulation cannot judge as pydantic would: the validator's words are kept."""


_PYDANTIC_WORDS = {   # error type -> pydantic-core's message template
    "missing": "Field required", "missing_argument": "Missing required argument",
    "unexpected_keyword_argument": "Unexpected keyword argument",
    "extra_forbidden": "Extra inputs are not permitted", "none_required": "Input should be None",
    "int_type": "Input should be a valid integer",
    "int_parsing": "Input should be a valid integer, unable to parse string as an integer",
    "int_from_float": "Input should be a valid integer, got a number with a fractional part",
    "int_parsing_size": "Unable to parse input string as an integer, exceeded maximum size",
    "finite_number": "Input should be a finite number",
    "float_type": "Input should be a valid number",
    "float_parsing": "Input should be a valid number, unable to parse string as a number",
    "bool_type": "Input should be a valid boolean",
    "bool_parsing": "Input should be a valid boolean, unable to interpret input",
    "string_type": "Input should be a valid string", "list_type": "Input should be a valid list",
    "set_type": "Input should be a valid set", "frozen_set_type": "Input should be a valid frozenset",
    "tuple_type": "Input should be a valid tuple", "dict_type": "Input should be a valid dictionary",
    "iterable_type": "Input should be iterable", "is_instance_of": "Input should be an instance of {0}",
    "sequence_str": "'str' instances are not allowed as a Sequence value",
    "model_type": "Input should be a valid dictionary or instance of {0}",
    "dataclass_type": "Input should be a dictionary or an instance of {0}",
    "literal_error": "Input should be {0}", "enum": "Input should be {0}",
    "greater_than": "Input should be greater than {0}",
    "greater_than_equal": "Input should be greater than or equal to {0}",
    "less_than": "Input should be less than {0}", "less_than_equal": "Input should be less than or equal to {0}",
    "multiple_of": "Input should be a multiple of {0}",
    "string_too_short": "String should have at least {0} character{1}",
    "string_too_long": "String should have at most {0} character{1}",
    "string_pattern_mismatch": "String should match pattern '{0}'",
    "too_short": "{2} should have at least {0} item{1} after validation, not {3}",
    "too_long": "{2} should have at most {0} item{1} after validation, not {3}",
}
_PYDANTIC_JSON_WORDS = {  # what pydantic says instead when it validates JSON text (fastmcp's strict mode)
    "list_type": "Input should be a valid array", "set_type": "Input should be a valid array",
    "frozen_set_type": "Input should be a valid array", "tuple_type": "Input should be a valid array",
    "iterable_type": "Input should be a valid array", "model_type": "Input should be an object",
    "dataclass_type": "Input should be an object", "dict_type": "Input should be an object",
    "none_required": "Input should be null",
}
_PYDANTIC_UNLINKED = ("sequence_str",)       # a custom error of pydantic's: no errors.pydantic.dev line
_PYDANTIC_CONSTRAINTS = ("gt", "ge", "lt", "le", "multiple_of", "min_length", "max_length", "pattern",
                         "allow_inf_nan", "strict")
_PYDANTIC_DOCS = []                          # the docs version of pydantic's links, read once


def _pydantic_docs_version() -> str:
    """major.minor of the installed pydantic, as its links name it; 2.14 (the pinned SDKs') without one.

    Read from the distribution's metadata when an error is first worded: pydantic is not imported.
    """
    if not _PYDANTIC_DOCS:
        try:
            from importlib import metadata
            _PYDANTIC_DOCS.append(".".join(metadata.version("pydantic").split(".")[:2]))
        except Exception:
            _PYDANTIC_DOCS.append("2.14")
    return _PYDANTIC_DOCS[0]


def _pydantic_repr(value) -> str:
    """An input_value as pydantic-core writes it: repr(), cut to 25 + 24 UTF-8 bytes around '...' past 50."""
    text = repr(value)
    data = text.encode("utf-8")
    if len(data) <= 50:
        return text
    return data[:25].decode("utf-8", "ignore") + "..." + data[-24:].decode("utf-8", "ignore")


def _pydantic_number(bound) -> str:
    """A constraint's bound as pydantic-core prints it (a float without '.0' or an exponent)."""
    if isinstance(bound, float) and bound == bound and abs(bound) != float("inf"):
        if bound.is_integer():
            return "%d" % bound
        if "e" in repr(bound):
            import decimal
            return format(decimal.Decimal(repr(bound)), "f")
    return str(bound)


def _pydantic_expected(values: list) -> str:
    shown = [repr(v) for v in values]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def _pydantic_loc(loc: tuple) -> str:
    return ".".join("`%s`" % p if isinstance(p, str) and "." in p else str(p) for p in loc)


def _pydantic_unwrap(hint, namespace: dict, constraints: dict):
    """(hint without Annotated, constraints with those of its metadata and FieldInfo objects)."""
    try:
        hint = _resolve_annotation(hint, namespace)
    except SchemaError:
        raise _Unworded() from None
    while True:
        origin, args, metadata = _typing_parts(hint)
        if origin != "annotated":
            return hint, constraints
        constraints = dict(constraints)
        items = list(metadata)
        while items:
            item = items.pop(0)
            if isinstance(item, (str, dict)):
                continue                              # minimcp's own descriptions and schema keywords
            if _is_field_info(item):
                items[:0] = list(item.metadata)       # Field(gt=0, ...): annotated_types objects
                continue
            if callable(getattr(item, "func", None)):
                raise _Unworded()                     # BeforeValidator and friends: their own rules
            for name in _PYDANTIC_CONSTRAINTS:
                if getattr(item, name, None) is not None:
                    constraints[name] = getattr(item, name)
        hint = args[0]


def _pydantic_label(hint, namespace: dict) -> str:
    """The name pydantic gives a union member in an error's location (``list[int]``, ``constrained-str``)."""
    hint, constraints = _pydantic_unwrap(hint, namespace, {})
    if hint is None or hint is type(None):
        return "none"
    if hint in (int, float, str, bool):
        limited = {k for k in constraints if k not in ("allow_inf_nan", "strict")}
        return ("constrained-" if limited else "") + hint.__name__
    if hint is _EMPTY or hint is object or repr(hint) == "typing.Any":
        return "any"
    if _is_enum(hint):
        base = next((b.__name__ for b in (str, int, float) if issubclass(hint, b)), None)
        return "%s[%s]" % (base + "-enum" if base else "enum", hint.__name__)
    if isinstance(hint, type) and (_is_pydantic_model(hint) or _is_dataclass(hint) or _is_typeddict(hint)):
        return hint.__name__
    origin, args, _ = _typing_parts(hint)
    name = getattr(hint, "_name", None) or getattr(origin, "_name", None) or getattr(origin, "__name__", "")
    if hint in (list, set, frozenset, dict, tuple):
        origin, name = hint, hint.__name__
    if name == "Literal" or repr(origin) == "typing.Literal":
        return "literal[%s]" % ",".join(repr(a) for a in args)
    if origin == "union" or name == "Union" or repr(origin) == "typing.Union":
        members = [a for a in args if a is not type(None)]
        inner = (_pydantic_label(members[0], namespace) if len(members) == 1 else
                 "union[%s]" % ",".join(_pydantic_label(a, namespace) for a in members))
        return "nullable[%s]" % inner if len(members) < len(args) else inner
    items = [_pydantic_label(a, namespace) for a in args] or ["any"]
    if origin is list or name == "List":
        return "list[%s]" % items[0]
    if name in ("Sequence", "MutableSequence"):
        return ("json-or-python[json=list[%s],python=chain[is-instance[Sequence],function-wrap"
                "[sequence_validator()]]]" % items[0])
    if origin in (set, frozenset) or name in ("Set", "FrozenSet"):
        return "%s[%s]" % ("frozenset" if origin is frozenset or name == "FrozenSet" else "set", items[0])
    if origin is tuple or name == "Tuple":
        if not args or (len(args) == 2 and args[1] is Ellipsis):
            return "tuple[%s, ...]" % items[0]
        return "tuple[%s]" % ", ".join(items)
    if origin is dict or name in ("Dict", "Mapping", "MutableMapping"):
        return "dict[%s]" % ",".join(items if len(items) == 2 else ["any", "any"])
    raise _Unworded()


class _PydanticJudge:
    """Pydantic's verdict on one call's arguments: ``errors`` of (loc, type, words, input)."""

    def __init__(self, namespace: dict, strict: bool) -> None:
        self.namespace, self.strict, self.errors = namespace, strict, []

    def fail(self, loc: tuple, kind: str, value, *parts) -> None:
        words = _PYDANTIC_JSON_WORDS.get(kind) if self.strict else None     # strict: JSON mode
        self.errors.append((loc, kind, words or _PYDANTIC_WORDS[kind].format(*parts), value))

    def check(self, value, hint, loc: tuple, constraints: dict = None, namespace: dict = None) -> None:
        """Judge ``value`` against ``hint`` as pydantic would, appending to ``errors``."""
        namespace = self.namespace if namespace is None else namespace
        hint, constraints = _pydantic_unwrap(hint, namespace, constraints or {})
        strict = self.strict or bool(constraints.get("strict"))
        if hint is _EMPTY or hint is object or repr(hint) == "typing.Any" or type(hint).__name__ == "TypeVar":
            return
        if hint is None or hint is type(None):
            if value is not None:
                self.fail(loc, "none_required", value)
            return
        if _is_enum(hint):
            values = [member.value for member in hint]
            if value not in values:
                self.fail(loc, "enum", value, _pydantic_expected(values))
            return
        if hint is bool:
            return self._boolean(value, loc, strict)
        if hint is int:
            return self._integer(value, loc, constraints, strict)
        if hint is float:
            return self._number(value, loc, constraints, strict)
        if hint is str:
            return self._string(value, loc, constraints)
        if isinstance(hint, type) and _is_pydantic_model(hint):
            return self._model(value, hint, loc)
        if isinstance(hint, type) and _is_dataclass(hint):
            return self._dataclass(value, hint, loc)
        if isinstance(hint, type) and _is_typeddict(hint):
            return self._typeddict(value, hint, loc)
        return self._generic(value, hint, loc, constraints, namespace)

    def _generic(self, value, hint, loc: tuple, constraints: dict, namespace: dict) -> None:
        """``check`` for typing's generics: Literal, unions, lists, sequences, sets, tuples, dicts."""
        origin, args, _ = _typing_parts(hint)
        name = getattr(hint, "_name", None) or getattr(origin, "_name", None) or ""
        if hint in (list, set, frozenset, dict, tuple):
            origin, name, args = hint, "", ()
        if name == "Literal" or repr(origin) == "typing.Literal":
            if value not in args:
                self.fail(loc, "literal_error", value, _pydantic_expected(list(args)))
            return
        if origin == "union" or name == "Union" or repr(origin) == "typing.Union":
            return self._union(value, args, loc, constraints, namespace)
        if name in ("Required", "NotRequired", "ReadOnly"):
            return self.check(value, args[0], loc, constraints, namespace)
        item = args[0] if args else _EMPTY
        if origin is list or name == "List":
            return self._items(value, item, loc, constraints, namespace, "list_type", "List")
        if name in ("Sequence", "MutableSequence") or (origin is not None and getattr(origin, "__name__", "") in (
                "Sequence", "MutableSequence") and getattr(origin, "__module__", "") == "collections.abc"):
            return self._sequence(value, item, loc, constraints, namespace)
        if name == "Iterable" or getattr(origin, "__name__", "") == "Iterable":
            if not isinstance(value, list if self.strict else (list, str, dict)):
                self.fail(loc, "iterable_type", value)
            return                           # its items are judged as they are read, after the call starts
        if origin in (set, frozenset) or name in ("Set", "FrozenSet"):
            frozen = origin is frozenset or name == "FrozenSet"
            return self._items(value, item, loc, constraints, namespace,
                               "frozen_set_type" if frozen else "set_type", "Frozenset" if frozen else "Set")
        if origin is tuple or name == "Tuple":
            return self._tuple(value, args, loc, namespace)
        if origin is dict or name in ("Dict", "Mapping", "MutableMapping"):
            if not isinstance(value, dict):
                return self.fail(loc, "dict_type", value)
            for key, each in value.items():
                self.check(each, args[1] if len(args) == 2 else _EMPTY, loc + (key,), None, namespace)
            return
        raise _Unworded()

    def _sequence(self, value, item, loc: tuple, constraints: dict, namespace: dict) -> None:
        if self.strict:                      # JSON mode: a Sequence is a list
            return self._items(value, item, loc, constraints, namespace, "list_type", "List")
        if isinstance(value, str):
            return self.fail(loc, "sequence_str", value)
        if not isinstance(value, list):
            return self.fail(loc, "is_instance_of", value, "Sequence")
        return self._items(value, item, loc, constraints, namespace, "list_type", "List")

    def _boolean(self, value, loc: tuple, strict: bool) -> None:
        if isinstance(value, bool):
            return
        if strict:
            return self.fail(loc, "bool_type", value)
        if isinstance(value, int):
            if value not in (0, 1):
                self.fail(loc, "bool_parsing", value)
        elif isinstance(value, float):
            if value not in (0.0, 1.0):
                self.fail(loc, "bool_type", value)
        elif isinstance(value, str):
            if value.lower() not in _LAX_BOOLEANS:
                self.fail(loc, "bool_parsing", value)
        else:
            self.fail(loc, "bool_type", value)

    def _integer(self, value, loc: tuple, constraints: dict, strict: bool) -> None:
        import re
        if isinstance(value, int) and not (strict and isinstance(value, bool)):
            number = int(value)
        elif strict:
            return self.fail(loc, "int_type", value)
        elif isinstance(value, float):
            if value != value or value in (float("inf"), float("-inf")):
                return self.fail(loc, "finite_number", value)
            if not value.is_integer():
                return self.fail(loc, "int_from_float", value)
            if not -2 ** 63 <= value < 2 ** 63:
                return self.fail(loc, "int_parsing_size", value)
            number = int(value)
        elif isinstance(value, str):
            digits = re.fullmatch(r"\s*([+-]?[0-9]+(?:_[0-9]+)*)(?:\.0*)?\s*", value)
            if digits is None:
                return self.fail(loc, "int_parsing", value)
            number = int(digits.group(1))
        else:
            return self.fail(loc, "int_type", value)
        self._bounds(number, value, loc, constraints)

    def _number(self, value, loc: tuple, constraints: dict, strict: bool) -> None:
        if isinstance(value, (int, float)) and not (strict and isinstance(value, bool)):
            number = float(value)
        elif strict or not isinstance(value, str):
            return self.fail(loc, "float_type", value)
        else:
            try:
                number = float(value)
            except ValueError:
                return self.fail(loc, "float_parsing", value)
        if constraints.get("allow_inf_nan") is False and (number != number or abs(number) == float("inf")):
            return self.fail(loc, "finite_number", value)
        self._bounds(number, value, loc, constraints)

    def _bounds(self, number, value, loc: tuple, constraints: dict) -> None:
        """gt/ge/lt/le/multiple_of, in pydantic-core's order (the first that fails is reported)."""
        step = constraints.get("multiple_of")
        if step is not None and step and (number % step if isinstance(number, int) and isinstance(step, int)
                                          else abs(number / step - round(number / step)) > 1e-9):
            return self.fail(loc, "multiple_of", value, _pydantic_number(step))
        for key, kind, fails in (("le", "less_than_equal", lambda n, b: n > b),
                                 ("lt", "less_than", lambda n, b: n >= b),
                                 ("ge", "greater_than_equal", lambda n, b: n < b),
                                 ("gt", "greater_than", lambda n, b: n <= b)):
            bound = constraints.get(key)
            if bound is not None and fails(number, bound):
                return self.fail(loc, kind, value, _pydantic_number(bound))

    def _string(self, value, loc: tuple, constraints: dict) -> None:
        if not isinstance(value, str):
            return self.fail(loc, "string_type", value)
        low, high, pattern = constraints.get("min_length"), constraints.get("max_length"), constraints.get("pattern")
        if low is not None and len(value) < low:
            return self.fail(loc, "string_too_short", value, low, "" if low == 1 else "s")
        if high is not None and len(value) > high:
            return self.fail(loc, "string_too_long", value, high, "" if high == 1 else "s")
        if pattern is not None:
            import re
            text = getattr(pattern, "pattern", pattern)
            if re.search(text, value) is None:
                self.fail(loc, "string_pattern_mismatch", value, text)

    def _union(self, value, args: tuple, loc: tuple, constraints: dict, namespace: dict) -> None:
        members = [a for a in args if a is not type(None)]
        if len(members) < len(args) and value is None:
            return                                # Optional[...]: pydantic's nullable, None passes
        if len(members) == 1:
            return self.check(value, members[0], loc, constraints, namespace)
        found = []
        for member in members:
            trial = _PydanticJudge(namespace, self.strict)
            trial.check(value, member, loc + (_pydantic_label(member, namespace),), constraints, namespace)
            if not trial.errors:
                return                            # one member takes it: the union does
            found += trial.errors
        self.errors += found

    def _items(self, value, item, loc: tuple, constraints: dict, namespace: dict, kind: str, noun: str) -> None:
        if not isinstance(value, list):
            return self.fail(loc, kind, value)
        low, high = constraints.get("min_length"), constraints.get("max_length")
        if high is not None and len(value) > high:
            return self.fail(loc, "too_long", value, high, "" if high == 1 else "s", noun, len(value))
        before = len(self.errors)
        for index, each in enumerate(value):
            self.check(each, item, loc + (index,), None, namespace)
        if len(self.errors) == before and low is not None and len(value) < low:
            self.fail(loc, "too_short", value, low, "" if low == 1 else "s", noun, len(value))

    def _tuple(self, value, args: tuple, loc: tuple, namespace: dict) -> None:
        if not isinstance(value, list):
            return self.fail(loc, "tuple_type", value)
        if not args or (len(args) == 2 and args[1] is Ellipsis):
            for index, each in enumerate(value):
                self.check(each, args[0] if args else _EMPTY, loc + (index,), None, namespace)
            return
        fixed = [] if args == ((),) else list(args)
        if len(value) > len(fixed):
            return self.fail(loc, "too_long", value, len(fixed), "" if len(fixed) == 1 else "s", "Tuple", len(value))
        for index, member in enumerate(fixed):
            if index < len(value):
                self.check(value[index], member, loc + (index,), None, namespace)
            else:
                self.fail(loc + (index,), "missing", value)

    def _model(self, value, model, loc: tuple) -> None:
        if not isinstance(value, dict):
            return self.fail(loc, "model_type", value, model.__name__)
        known = set()
        for name, field in model.model_fields.items():
            key = field.alias or name
            known.update((key, name))
            if key in value:
                self.check(value[key], field.annotation, loc + (key,), self._field_constraints(field))
            elif field.is_required():
                self.fail(loc + (key,), "missing", value)
        if (getattr(model, "model_config", None) or {}).get("extra") == "forbid":
            for key in value:
                if key not in known:
                    self.fail(loc + (key,), "extra_forbidden", value[key])

    def _field_constraints(self, field) -> dict:
        constraints = {}
        _, constraints = _pydantic_unwrap(_field_annotation(_EMPTY, field), {}, constraints)
        return constraints

    def _dataclass(self, value, cls, loc: tuple) -> None:
        import dataclasses
        if not isinstance(value, dict):
            return self.fail(loc, "dataclass_type", value, cls.__name__)
        hints, namespace = _class_hints(cls), _class_namespace(cls)
        for field in dataclasses.fields(cls):
            if field.name in value:
                self.check(value[field.name], hints.get(field.name, field.type), loc + (field.name,), None, namespace)
            elif field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
                self.fail(loc + (field.name,), "missing", value)

    def _typeddict(self, value, cls, loc: tuple) -> None:
        if not isinstance(value, dict):
            return self.fail(loc, "dict_type", value)
        hints, namespace = _class_hints(cls), _class_namespace(cls)
        required = getattr(cls, "__required_keys__", set(hints) if cls.__total__ else ())
        for key, hint in hints.items():
            if key in value:
                self.check(value[key], hint, loc + (key,), None, namespace)
            elif key in required:
                self.fail(loc + (key,), "missing", value)


def _pydantic_report(title: str, errors: list) -> str:
    """str(ValidationError): a count, then each error's location, words, type, input and link."""
    lines = ["%d validation error%s for %s" % (len(errors), "" if len(errors) == 1 else "s", title)]
    for loc, kind, words, value in errors:
        lines += [_pydantic_loc(loc), "  %s [type=%s, input_value=%s, input_type=%s]" % (
            words, kind, _pydantic_repr(value), type(value).__name__)]
        if kind not in _PYDANTIC_UNLINKED:
            lines.append("    For further information visit https://errors.pydantic.dev/%s/v/%s"
                         % (_pydantic_docs_version(), kind))
    return "\n".join(lines)


def _pydantic_worded(sdk: str):
    """A dialect's argument_wording: invalid arguments as the SDK's pydantic ValidationError says them.

    ``sdk`` is "mcp" (a model named ``<function>Arguments``: "Field required", extra arguments
    ignored, string values pre-parsed as JSON where the parameter is not a str, as mcp's
    func_metadata does) or "fastmcp" (pydantic's arguments schema ``call[<function>]``:
    "Missing required argument", "Unexpected keyword argument"; strict when the server sets
    ``strict_input_validation``). The link names the installed pydantic's major.minor
    (what the SDK would print beside it), or 2.14, the pinned SDKs' pydantic, without one.
    The words are None, keeping the validator's, when a hint is one the emulation cannot judge,
    when the function's parameters are not the schema's, or when pydantic would find nothing.
    """
    def wording(tool, arguments: dict, server=None):
        params = [(n, a, d) for n, a, d in tool.signature.params if n != tool.context_param]
        if set(n for n, _, _ in params) != set((tool.input_schema.get("properties") or {})):
            return None                           # a hand-written inputSchema: pydantic never saw it
        strict = sdk == "fastmcp" and bool(getattr(server, "strict_input_validation", False))
        judge = _PydanticJudge(tool.signature.namespace, strict)
        if sdk == "mcp":
            arguments = _mcp_pre_parsed(params, arguments, tool.signature.namespace)
        try:
            for name, annotation, default in params:
                if _is_field_info(default):       # x: T = Field(...): Annotated[T, Field(...)]
                    annotation, default = _field_annotation(annotation, default), _field_default(default)
                if name in arguments:
                    judge.check(arguments[name], annotation, (name,))
                elif default is _EMPTY:
                    judge.fail((name,), "missing" if sdk == "mcp" else "missing_argument", arguments)
            if sdk == "fastmcp":
                for name in arguments:
                    if name not in dict((n, 1) for n, _, _ in params):
                        judge.fail((name,), "unexpected_keyword_argument", arguments[name])
        except Exception:                         # _Unworded, or a hint nothing here foresaw: never a traceback
            return None
        if not judge.errors:
            return None
        function = getattr(tool.fn, "__name__", None) or tool.name
        return _pydantic_report(("%sArguments" if sdk == "mcp" else "call[%s]") % function, judge.errors)
    return wording


def _mcp_pre_parsed(params: list, arguments: dict, namespace: dict) -> dict:
    """mcp's pre_parse_json: a string for a parameter not annotated ``str`` is read as JSON when
    that gives a list, an object or null (Claude Desktop sends lists as JSON text)."""
    changed = {}
    for name, annotation, _ in params:
        value = arguments.get(name)
        if not isinstance(value, str):
            continue
        try:
            bare, _ = _pydantic_unwrap(annotation, namespace, {})
        except _Unworded:
            bare = None
        if bare is str:
            continue
        try:
            parsed = json.loads(value)
        except ValueError:
            continue
        if not isinstance(parsed, (str, int, float)):
            changed[name] = parsed
    return dict(arguments, **changed) if changed else arguments


class _SDKArgModelBase:
    """mcp's ArgModelBase, the base of every tool's argument model. Servers set its
    ``model_config = ConfigDict(extra="forbid")`` before their tools to refuse unknown arguments."""
    model_config = {}


def _sdk_forbids_extra() -> bool:
    """The mcp rows' closed_input: what ArgModelBase's model_config says when a tool is registered."""
    config = getattr(_SDKArgModelBase, "model_config", None)
    return isinstance(config, dict) and config.get("extra") == "forbid"


# The SDK rows of the dialect table (mcp 2.3.0's is the core's), each as it differs from mcp 2.3.0.
_DIALECTS["mcp2"] = _DIALECTS["mcp2"].but("mcp2", told=(_SDKToolError,), argument_wording=_pydantic_worded("mcp"),
                                          closed_input=_sdk_forbids_extra, output_spelling=_pydantic_output(False),
                                          elicit_by_type=_sdk_elicit)
_DIALECTS["minimcp"] = _DIALECTS["minimcp"].but("minimcp", elicit_by_type=_sdk_elicit)   # fastmcp's spelling too
_DIALECTS["mcp1"] = _DIALECTS["mcp2"].but(        # mcp 1.30.0, the last 1.x
    "mcp1", annotation_fields=None, tool_failure="Error executing tool {name}: {error}",
    decode_uri_variables=False,
    missing_resource=(0, "Unknown resource: {uri}", False), default_version="1.30.0", lifespan_per_session=True,
    capabilities=dict(_DIALECTS["mcp2"].capabilities, experimental={}))
_DIALECTS["fastmcp"] = _DIALECTS["mcp2"].but(     # fastmcp 4.2.3
    "fastmcp", docstrings=_fastmcp_docstring, tool_failure="Error calling tool {name!r}: {error}",
    tool_error="{error}",
    unknown_tool="Unknown tool: {name!r}", argument_error="{error}", list_blocks="json", compact_json=True,
    argument_wording=_pydantic_worded("fastmcp"),
    dict_structured=True, class_structured=False,
    missing_resource=(INVALID_PARAMS, "Resource not found: {uri!r}", True),
    unknown_prompt=(INVALID_PARAMS, "Unknown prompt: {name!r}", False),
    missing_prompt_arguments=(INVALID_PARAMS, "Missing required arguments: {missing}", False),
    capabilities={"logging": {}, "prompts": {"listChanged": True},
                  "resources": {"subscribe": False, "listChanged": True}, "tools": {"listChanged": True}},
    default_version="4.2.3", describe_extra=_fastmcp_listing, result_meta={"fastmcp": {"wrap_result": True}},
    untyped_schema=None, closed_input=True, meta_in_results=True, output_spelling=_pydantic_output(True),
    wrap_by_schema=True, non_finite=_fastmcp_finite)


def _sdk_get_logger(name: str):
    """The SDKs' ``get_logger(__name__)``: a standard logger (minimcp logs to stderr)."""
    import logging
    return logging.getLogger(name)


def _sdk_names() -> dict:
    """The names the alias modules export, with the SDK's spellings (made once)."""
    if "names" not in _SDK_CACHE:
        _SDK_CACHE["names"] = {
            "Context": Context, "get_logger": _sdk_get_logger, "ArgModelBase": _SDKArgModelBase,
            "Image": Image, "Audio": Audio,
            "ToolError": _SDKToolError, "ResourceError": _SDKResourceError, "Message": _SDKMessage,
            "UserMessage": _sdk_role_message("UserMessage", "user"), "PromptMessage": _SDKPromptMessage,
            "AssistantMessage": _sdk_role_message("AssistantMessage", "assistant"),
            "CallToolResult": _SDKCallToolResult, "ToolAnnotations": _SDKToolAnnotations,
            "TextContent": _sdk_block("TextContent", "text"), "ImageContent": _sdk_block("ImageContent", "image"),
            "AudioContent": _sdk_block("AudioContent", "audio"),
            "EmbeddedResource": _sdk_block("EmbeddedResource", "resource"),
            "ResourceLink": _sdk_block("ResourceLink", "resource_link"),
            "TextResourceContents": _sdk_model("TextResourceContents", "Text contents of a resource."),
            "BlobResourceContents": _sdk_model("BlobResourceContents", "Binary contents of a resource (base64)."),
            "Icon": _sdk_model("Icon", "An icon: src, mimeType, sizes, theme."),
            "Annotations": _sdk_model("Annotations", "Content annotations: audience, priority, lastModified."),
            "GetPromptResult": _sdk_model("GetPromptResult", "A prompts/get result."),
            # Servers build it at import for the constructor, which ignores it: minimcp's HTTP
            # transport checks Host and Origin itself (wsgi_app's allowed_hosts, allowed_origins).
            "TransportSecuritySettings": _sdk_model("TransportSecuritySettings", "Accepted and ignored."),
        }
        for name, value in _SDK_CACHE["names"].items():
            if isinstance(value, type) and value.__name__.startswith("_SDK"):
                value.__name__ = value.__qualname__ = name        # tracebacks say ToolError, as the SDK's
    return _SDK_CACHE["names"]


_CLIENT_HINT = ("minimcp.TestClient(server) drives a server in-process, and "
                "`python3 minimcp.py call TOOL -- CMD...` a server process")
_TRANSPORT_HINT = "minimcp serves stdio (server.run()) and Streamable HTTP as a WSGI app (server.wsgi_app())"
_SDK_HINTS = (   # (a prefix of the dotted name, or its last part, or "()": what to do instead); first match wins
    ("mcp.shared.memory", "to test a server without a process, use minimcp.TestClient(server)"),
    ("mcp.client", _CLIENT_HINT), ("fastmcp.client", _CLIENT_HINT), ("Client", _CLIENT_HINT),
    ("ClientSession", _CLIENT_HINT),
    ("()", "minimcp serves Streamable HTTP as a WSGI app: app = server.wsgi_app(), or run "
           "`python3 minimcp.py serve --http PORT FILE`"),
    ("mcp.server.stdio", _TRANSPORT_HINT), ("mcp.server.sse", _TRANSPORT_HINT),
    ("mcp.server.streamable_http", _TRANSPORT_HINT), ("mcp.server.websocket", _TRANSPORT_HINT),
)


def _sdk_unusable(what: str) -> str:
    """What a placeholder says when used: what it is, and what to do instead."""
    root = what.split(".")[0]
    last = what.rsplit(".", 1)[-1]
    hint = next((h for key, h in _SDK_HINTS if what.startswith(key + ".") or what == key or last == key
                 or (key == "()" and what.endswith(key))), "write that part with minimcp's own API (README)")
    return ("%s is part of the %s package, which is not installed; minimcp stands in for its names so that "
            "this server imports, but does not implement this one. Install the real package to use it "
            "(pip install %s); without it, %s." % (what, root, root, hint))


def _sdk_build_placeholders() -> tuple:
    """The placeholders: what a public SDK name minimcp does not implement turns into."""
    class _SDKUnavailable(ImportError):
        """A public SDK name that minimcp does not implement was used."""

    class _SDKPlaceholderType(type):
        """A public SDK name minimcp cannot implement: it imports, and fails when used.

        It is a class, so ``class Mine(Placeholder)`` and annotations still work at import time;
        calling or instantiating it, or reading an attribute, says what it is and what to do.
        """

        def __call__(cls, *args, **kwargs):
            raise _SDKUnavailable(_sdk_unusable(cls._sdk_what))

        def __getattr__(cls, name: str):
            if name.startswith("__"):
                raise AttributeError(name)
            raise AttributeError(_sdk_unusable(cls._sdk_what + "." + name))

        def __getitem__(cls, parameters):         # RequestContext[ServerSession, Any] in an annotation
            return cls

    class _SDKMissingMember:
        """A server member minimcp lacks; what an instance sets itself (name, settings) wins over it."""

        def __init__(self, what: str) -> None:
            self.what = what

        def __get__(self, instance, owner=None):
            return _sdk_placeholder(self.what)

    return _SDKUnavailable, _SDKPlaceholderType, _SDKMissingMember


def _sdk_build_component() -> type:
    """``Tool.from_function(fn)`` and the like: what servers build to hand to add_tool and its kin."""
    class _SDKComponent:
        """A tool, resource or prompt made from a function (``Tool.from_function(fn, name=...)``).

        Servers hand it to ``add_tool``/``add_resource``/``add_prompt``, which register the
        function with its options.
        """
        kind, positional = "tool", ()

        def __init__(self, fn=None, **options) -> None:
            self.fn, self.options = fn, options

        @classmethod
        def from_function(cls, fn, *args, **options) -> "_SDKComponent":
            """The component for ``fn``; positional arguments as the SDK takes them (a resource's uri)."""
            options.update(zip(cls.positional, args))
            return cls(fn, **options)

        @property
        def name(self) -> str:
            return self.options.get("name") or getattr(self.fn, "__name__", None)

        def __repr__(self) -> str:
            return "%s(%r)" % (type(self).__name__, self.name)
    return _SDKComponent


def _sdk_build_server_surface(component_class: type) -> type:
    """What servers call on the SDK's server class beyond its decorators."""
    class _SDKServerSurface:
        """What servers call on the SDK's server class beyond its decorators: ``add_tool(Tool)``, ..."""

        def _sdk_register(self, kind: str, component, options: dict):
            if isinstance(component, component_class):
                options = dict(component.options, **options)
                fn = component.fn if component.fn is not None else options.get("text", options.get("data"))
            else:
                fn = component
            keep = {k: _sdk_json(v) for k, v in options.items() if k in _SDK_SERVER_OPTIONS[kind] and v is not None}
            if kind == "resource":
                uri = options.get("uri") or options.get("uri_template")
                if uri is None:
                    raise TypeError("add_resource() needs the resource's uri")
                return getattr(super(), "add_resource")(fn, str(uri), **keep)
            return getattr(super(), "add_" + kind)(fn, **keep)

        def add_tool(self, tool, **options):
            """Register a function, or a ``Tool.from_function(...)``, as a tool."""
            return self._sdk_register("tool", tool, options)

        def add_resource(self, resource, uri: str = None, **options):
            """Register a ``Resource.from_function(fn, uri)`` (or a function and its uri)."""
            return self._sdk_register("resource", resource, dict(options, **({"uri": uri} if uri else {})))

        def add_prompt(self, prompt, **options):
            """Register a function, or a ``Prompt.from_function(...)``, as a prompt."""
            return self._sdk_register("prompt", prompt, options)

        def custom_route(self, path: str, methods: list = None, **options):
            """Accepted so that the server starts; minimcp serves no routes besides MCP's own."""
            def decorator(fn):
                sys.stderr.write("minimcp: custom_route(%r) is not served (minimcp serves MCP's endpoint only)\n"
                                 % path)
                return fn
            return decorator

    return _SDKServerSurface


def _sdk_build() -> None:
    """Define the stand-in classes below, once, when a server first imports an SDK name.

    A class statement costs ``import minimcp`` time, and most programs never import the SDK.
    """
    global _SDKUnavailable, _SDKPlaceholderType, _SDKComponent, _SDKServerSurface, _SDKMissingMember
    if "built" in _SDK_CACHE:
        return
    _SDK_CACHE["built"] = True

    _SDKUnavailable, _SDKPlaceholderType, _SDKMissingMember = _sdk_build_placeholders()
    _SDKComponent = _sdk_build_component()
    _SDKServerSurface = _sdk_build_server_surface(_SDKComponent)
    for cls in (_SDKUnavailable, _SDKPlaceholderType, _SDKComponent, _SDKServerSurface, _SDKMissingMember):
        cls.__qualname__ = cls.__name__


def _sdk_placeholder(what: str) -> type:
    module, _, name = what.rpartition(".")
    return _SDKPlaceholderType(name, (), {"_sdk_what": what, "__module__": module, "__qualname__": name,
                                          "__doc__": "minimcp's placeholder for %s (not implemented)." % what})


def _sdk_component(name: str, kind: str, positional: tuple = ()) -> type:
    return type(name, (_SDKComponent,), {"kind": kind, "positional": positional,
                                         "__doc__": "A %s made from a function, for add_%s()." % (kind, kind)})


def _sdk_app_factory(what: str):
    def factory(self, *args, **kwargs):
        return _sdk_placeholder(what)          # the app explains itself when served
    factory.__name__ = what.rsplit(".", 1)[-1].rstrip("()")
    return factory


def _sdk_server(dialect: str) -> type:
    """The dialect's server class with the SDK's other public members: each one minimcp lacks fails when called."""
    key = "server:" + dialect
    if key not in _SDK_CACHE:
        base = _sdk_server_class(dialect)
        path = {"mcp1": "mcp.server.fastmcp:FastMCP", "mcp2": "mcp.server.mcpserver:MCPServer",
                "fastmcp": "fastmcp:FastMCP"}[dialect]
        attrs = {"__module__": base.__module__, "__doc__": base.__doc__}
        for member in _sdk_table()[1].get(path, "").split():
            if hasattr(base, member) or hasattr(_SDKServerSurface, member):
                continue
            what = "%s.%s" % (path.replace(":", "."), member)
            if member.endswith("_app"):
                attrs[member] = _sdk_app_factory(what + "()")
            else:
                attrs[member] = _SDKMissingMember(what)
        _SDK_CACHE[key] = type(path.split(":")[1], (_SDKServerSurface, base), attrs)
    return _SDK_CACHE[key]


def _sdk_table() -> tuple:
    """The generated table: ({module: its names, unparsed}, {"module:Class": members, unparsed}, pins).

    It is the comment block between the <sdk-surface> markers, read from this file's source on
    the first SDK import: as a comment it costs ``import minimcp`` nothing. A module's names are
    parsed when that module is imported (_sdk_exports).
    """
    _sdk_build()
    if "table" not in _SDK_CACHE:
        try:
            with open(__file__, encoding="utf-8") as f:
                source = f.read()
        except OSError:                                        # a zip app has no file to open
            source = __loader__.get_source(__name__) or ""
        start, end = source.find("\n# <sdk-surface>"), source.find("\n# </sdk-surface>")
        if start < 0 or end < start:
            raise ImportError("minimcp's table of the SDK's names is missing from %s" % __file__)
        tables, head = ({}, {}), None
        for line in source[start:end].split("\n#| ")[1:]:     # "module: names", "module:Class: members"
            line = line.split("\n", 1)[0]
            if line[:1] == " ":                                # a continued line
                tables[":" in head][head] += line
            else:
                head, _, rest = line.partition(": ")
                head = head.rstrip(":")
                tables[":" in head][head] = rest
        pins = dict(pin.split(" ", 1) for pin in tables[0].pop("pins").split("; "))
        _SDK_CACHE["table"] = tables[0], tables[1], pins
    return _SDK_CACHE["table"]


def _sdk_modules() -> dict:
    """Each alias module, and its public names unparsed (see _sdk_exports)."""
    return _sdk_table()[0]


def _sdk_exports(module: str) -> dict:
    """A module's public names: {name: the SDK's constant value, or None}."""
    key = "exports:" + module
    if key not in _SDK_CACHE:
        names = {}
        for word in _sdk_modules()[module].split():
            name, _, value = word.partition("=")
            names[name] = (value[1:-1] if value[:1] == "'" else int(value)) if value else None
        _SDK_CACHE[key] = names
    return _SDK_CACHE[key]


_SDK_COMPONENTS = {"Tool": ("tool", ()), "FunctionTool": ("tool", ()), "Prompt": ("prompt", ()),
                   "FunctionPrompt": ("prompt", ()), "Resource": ("resource", ("uri",)),
                   "TextResource": ("resource", ("uri",)), "BinaryResource": ("resource", ("uri",)),
                   "FunctionResource": ("resource", ("uri",)), "ResourceTemplate": ("resource", ("uri_template",)),
                   "FunctionResourceTemplate": ("resource", ("uri_template",))}


def _sdk_value(module: str, name: str):
    """What ``module.name`` is under minimcp: backed by minimcp, the SDK's constant, or a placeholder."""
    value = _sdk_exports(module)[name]
    if value is not None:
        return value
    framework = module.startswith(("fastmcp", "mcp.server.fastmcp", "mcp.server.mcpserver"))
    if name == "FastMCP" and module.startswith("fastmcp"):
        return _sdk_server("fastmcp")
    if name == "MCPServer" and module.startswith("mcp"):
        return _sdk_server("mcp2")
    if name == "FastMCP":
        return _sdk_server("mcp1")
    if name in _SDK_COMPONENTS and framework:
        key = "component:" + name
        if key not in _SDK_CACHE:
            _SDK_CACHE[key] = _sdk_component(name, *_SDK_COMPONENTS[name])
        return _SDK_CACHE[key]
    names = _sdk_names()
    if name in names:
        return names[name]
    return _sdk_placeholder(module + "." + name)


def _sdk_refusal(module: str, name: str = None) -> ImportError:
    root = module.split(".")[0]
    what = "%s.%s" % (module, name) if name else module
    pins = _sdk_table()[2].get(root, "")
    return ModuleNotFoundError(
        "%s is not a public name of the %r package (%s), which is not installed; minimcp, which stands in "
        "for its public names, has none by that name. Install the real package (pip install %s), or write "
        "it with minimcp." % (what, root, pins, root), name=what)     # the name lets `from X import Y` say
                                                                     # "cannot import name", as Python does


class _SDKFinder:
    """Finds the alias modules; at the end of sys.meta_path, after every real package."""

    def find_spec(self, fullname: str, path=None, target=None):
        if fullname.split(".")[0] not in ("mcp", "fastmcp"):
            return None
        if fullname not in _sdk_modules():
            raise _sdk_refusal(fullname)
        import importlib.machinery
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec):
        return None

    def exec_module(self, module) -> None:
        fullname = module.__name__
        exported = _sdk_exports(fullname)
        module.__all__ = sorted(exported)
        module.__path__ = []
        module.__doc__ = "minimcp's stand-in for %s: its public names, each built when first read." % fullname

        def __getattr__(name: str):
            # Names are built when first read: a placeholder costs nothing until a server imports it.
            if name in exported:
                value = module.__dict__[name] = _sdk_value(fullname, name)
                return value
            if fullname + "." + name in _sdk_modules():          # from PKG import submodule
                import importlib
                return importlib.import_module(fullname + "." + name)
            if name.startswith("__"):
                raise AttributeError(name)
            raise AttributeError(str(_sdk_refusal(fullname, name)))
        module.__getattr__ = __getattr__


def install_sdk_aliases() -> None:
    """Let code written for the official SDK or FastMCP import its names from minimcp.

    After this call every public module and name of ``mcp`` (1.2 to 2.3) and ``fastmcp``
    (2 to 4) imports, unless the real package is installed: an installed package always wins.
    The names servers use (``FastMCP``, ``MCPServer``, ``Context``, ``Image``, ``ToolError``,
    prompt messages, ``mcp.types`` content, ``Tool.from_function``) are backed by minimcp;
    any other public name is a placeholder that says what to do when it is used. A name the
    SDK does not have raises ImportError, as it would there. ``python3 minimcp.py serve
    server.py`` calls this for you; a script that starts itself calls it before its SDK imports.
    """
    if not any(isinstance(finder, _SDKFinder) for finder in sys.meta_path):
        sys.meta_path.append(_SDKFinder())


def _sdk_attribute(name: str):
    # minimcp.FastMCP, ToolError, UserMessage, ... are built on first use, so ``import minimcp`` stays cheap.
    if name == "FastMCP":
        return _sdk_server("mcp1")
    if name[:1].isupper() and name in _sdk_names():
        return _sdk_names()[name]
    return None


_plug("sdk", "the official SDK's names: servers written for mcp or fastmcp run unchanged",
      attributes=_sdk_attribute, names=("FastMCP", "install_sdk_aliases"))


# Command line: python3 minimcp.py COMMAND ... -- SERVER COMMAND ##############

_USAGE = """usage: python3 minimcp.py COMMAND [options] [-- SERVER COMMAND...]

Inspect, call and test any stdio MCP server, with nothing installed.

commands:
  inspect [--json] [--call TOOL [ARGS...]] -- CMD...   what the server offers (and call a tool)
  call TOOL [JSON | key=value ...] -- CMD...           call a tool and print its result
  read URI -- CMD...                                   read a resource
  prompt NAME [key=value ...] -- CMD...                get a prompt
  complete REF ARGUMENT [VALUE] -- CMD...              complete a prompt argument or template variable
  selftest [--slow-tool NAME] [--slow-args JSON] -- CMD...
                                                       the checks to run before shipping a server
                                                       (NAME: a tool taking a duration, e.g. seconds=;
                                                       JSON: its arguments, else filled from its schema)
  config --client HOST [--name N] [--env KEY=VALUE] SCRIPT [ARGS...]
                                                       the host's configuration (or its command to add
                                                       the server), absolute paths; HOST: claude,
                                                       claude-code, codex, gemini, cursor, vscode,
                                                       windsurf, zed, goose
  serve SCRIPT[:OBJECT]                                run the MCPServer object defined in a file
                                                       (in a package: imported as pkg.module)
  serve -m MODULE[:OBJECT]                             the same for a module (pkg.server), from here
  serve --entry CONSOLE_SCRIPT [ARGS...]               run an installed server's console script
  serve --functions SCRIPT [FUNCTION ...]              serve a script's plain functions as tools
  serve --http [HOST:]PORT SCRIPT                      serve it over Streamable HTTP (default host 127.0.0.1)
  vendor [--without NAME,...|all]                      this file, without those components, on stdout
                                                       (NAME: %s)
  --version                                            print minimcp's version

options:
  --protocol VERSION   speak this revision (default %s; 2026-07-28 uses server/discover)
  --timeout SECONDS    how long to wait for each answer, from the request or its last
                       progress notification (default 30)
  --root DIR           offer DIR to the server as a root (roots/list); repeatable
  --save DIR           write images, audio and blobs of a result to files in DIR (else
                       their type and size are shown)

The server command comes last, after "--" (call/read/prompt also accept the tool,
URI or prompt name after the command: call -- CMD... TOOL [ARGS]). Progress goes to
stderr; Ctrl-C cancels a running call. Sampling and elicitation requests are
answered at the terminal when stdin is one, and declined otherwise.

examples:
  python3 minimcp.py inspect -- python3 examples/everything.py
  python3 minimcp.py call add a=2 b=3 -- python3 examples/everything.py
  python3 minimcp.py call -- python3 examples/everything.py echo '{"text": "hi"}'
  python3 minimcp.py read fixture://hello -- python3 examples/everything.py
  python3 minimcp.py inspect --protocol 2026-07-28 -- python3 examples/everything.py
  python3 minimcp.py config --client claude examples/everything.py
  python3 minimcp.py serve --functions mytools.py word_count
"""


def _looks_like_argument(word: str) -> bool:
    return word.lstrip().startswith("{") or ("=" in word and word.split("=", 1)[0].isidentifier())


def _parse_arguments(values: list, schema: dict = None) -> dict:
    """Tool/prompt arguments given as one JSON object or as key=value words.

    A key=value value is read as JSON (``n=3`` is a number), except where the tool's
    input ``schema`` says the parameter is a string and nothing else: then the text is
    kept as typed (``zip=01234``, ``x=1``). For an array parameter, ``tags=a,b`` is the
    list ``["a", "b"]`` (unless it is a JSON array), and a repeated key adds to the list.
    """
    if len(values) == 1 and values[0].lstrip().startswith("{"):
        try:
            arguments = json.loads(values[0])
        except ValueError as exc:
            raise SystemExit("minimcp: the arguments are not valid JSON: %s" % exc)
        if not isinstance(arguments, dict):
            raise SystemExit("minimcp: the JSON arguments must be an object")
        return arguments
    arguments = {}
    properties = (schema or {}).get("properties") or {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep:
            raise SystemExit("minimcp: arguments are one JSON object or key=value words, not %r" % item)
        kinds = _schema_types(properties.get(key))
        if kinds == {"string"}:
            arguments[key] = value
            continue
        try:
            parsed = json.loads(value)
        except ValueError:
            parsed = value
        if "array" in kinds and not isinstance(parsed, list):
            items = (properties.get(key) or {}).get("items") or {}
            text_items = _schema_types(items) == {"string"}
            parsed = [part if text_items else _json_or_text(part) for part in value.split(",") if part != ""]
        if "array" in kinds and key in arguments:
            arguments[key] = arguments[key] + parsed           # tag=a tag=b
        else:
            arguments[key] = parsed
    return arguments


def _json_or_text(text: str):
    """``text`` read as JSON when it is JSON (``3``, ``true``), else the text itself."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def _schema_types(schema) -> set:
    """The JSON types a (property) schema allows: ``type``, lists of them, anyOf/oneOf, enum."""
    if not isinstance(schema, dict):
        return set()
    kinds = schema.get("type")
    if isinstance(kinds, str):
        return {kinds}
    if isinstance(kinds, list):
        return {k for k in kinds if isinstance(k, str)}
    found = set()
    for branch in (schema.get("anyOf") or []) + (schema.get("oneOf") or []):
        found |= _schema_types(branch)
    if not found and "enum" in schema:
        found = {{str: "string", bool: "boolean", int: "integer", float: "number"}.get(type(v), "any")
                 for v in schema["enum"]} - {"any"}
    if not found and ("properties" in schema or "$ref" in schema):
        found = {"object"}
    return found


def _describe_type(schema) -> str:
    """A parameter's type for ``inspect``: ``string``, ``boolean | null``, ``"m" | "km"``..."""
    if isinstance(schema, dict) and isinstance(schema.get("enum"), list) and len(schema["enum"]) <= 6:
        return " | ".join(json.dumps(v) for v in schema["enum"])
    kinds = _schema_types(schema)
    order = ["string", "integer", "number", "boolean", "array", "object", "null"]
    return " | ".join(sorted(kinds, key=lambda k: order.index(k) if k in order else len(order))) or "any"


def _tool_schema(client: "_ClientBase", name: str) -> dict:
    """The input schema of one tool (empty when it can't be listed)."""
    try:
        for tool in client.list_tools():
            if tool.get("name") == name:
                return tool.get("inputSchema") or {}
    except MCPError:
        pass
    return {}


def _terminal_answers(client: _ClientBase, roots: list = ()) -> None:
    """Answer sampling and elicitation at the terminal if there is one; decline otherwise."""
    interactive = sys.stdin is not None and sys.stdin.isatty()

    def sampling(params):
        if not interactive:
            raise MCPError(INVALID_REQUEST, "sampling declined: no terminal to answer it")
        for message in params.get("messages", []):
            content = message.get("content", {})
            sys.stderr.write("[%s] %s\n" % (message.get("role"), content.get("text", content)
                                            if isinstance(content, dict) else content))
        sys.stderr.write("The server asks for a model reply. Type it: ")
        sys.stderr.flush()
        return {"role": "assistant", "content": {"type": "text", "text": sys.stdin.readline().rstrip("\n")},
                "model": "human-at-terminal", "stopReason": "endTurn"}

    def elicitation(params):
        if not interactive:
            return {"action": "decline"}
        sys.stderr.write("%s\n" % params.get("message", ""))
        if params.get("mode") == "url":
            sys.stderr.write("Open %s, then press Enter (or type 'no'): " % params.get("url"))
            return {"action": "decline" if sys.stdin.readline().strip().lower() == "no" else "accept"}
        content = {}
        form = params.get("requestedSchema", {})
        for name, prop in (form.get("properties") or {}).items():
            sys.stderr.write("%s (%s): " % (name, prop.get("type", "string")))
            sys.stderr.flush()
            value = sys.stdin.readline().rstrip("\n")
            if value == "" and name not in (form.get("required") or ()):
                continue                        # left empty: not answered (the server checks the answer)
            if prop.get("type") == "array":
                value = [part.strip() for part in value.split(",") if part.strip()]
            if prop.get("type") in ("number", "integer", "boolean"):
                try:
                    value = json.loads(value.lower() if prop.get("type") == "boolean" else value)
                except ValueError:
                    pass
            content[name] = value
        return {"action": "accept", "content": content}

    client.sampling, client.elicitation = sampling, elicitation
    client.capabilities.update({"sampling": {}, "elicitation": {"form": {}, "url": {}}})
    if roots:
        # Only on request: a server told we have roots may ask for them at any time,
        # even after our last request, and then wait for an answer that can't come.
        client.roots = [{"uri": "file://" + os.path.abspath(root).replace(os.sep, "/"),
                         "name": os.path.basename(os.path.abspath(root))} for root in roots]
        client.capabilities["roots"] = {} if client.modern else {"listChanged": True}


def _print_inspection(client: _ClientBase, opened: dict, out) -> dict:
    capabilities = opened.get("capabilities", {})
    report = {"serverInfo": client.server_info, "protocolVersion": opened.get("protocolVersion", client.protocol),
              "capabilities": capabilities, "instructions": opened.get("instructions")}
    for capability, method, field in (("tools", "tools/list", "tools"), ("resources", "resources/list", "resources"),
                                      ("resources", "resources/templates/list", "resourceTemplates"),
                                      ("prompts", "prompts/list", "prompts")):
        report[field] = client._list(method, field) if capability in capabilities else []
    out.write("%s %s (protocol %s)\n" % (client.server_info.get("name"), client.server_info.get("version"),
                                         report["protocolVersion"]))
    out.write("capabilities: %s\n" % ", ".join(sorted(capabilities)))
    if report["instructions"]:
        out.write("instructions: %s\n" % report["instructions"])
    for tool in report["tools"]:
        schema = tool.get("inputSchema", {})
        required = schema.get("required", [])
        arguments = ", ".join("%s%s: %s" % (name, "" if name in required else "?", _describe_type(prop))
                              for name, prop in (schema.get("properties") or {}).items())
        out.write("tool      %s(%s)%s  %s\n" % (tool["name"], arguments,
                                                 " -> structured" if "outputSchema" in tool else "",
                                                 (tool.get("description") or "").split("\n")[0]))
    for resource in report["resources"]:
        out.write("resource  %s  %s\n" % (resource["uri"], resource.get("mimeType", "")))
    for template in report["resourceTemplates"]:
        out.write("template  %s\n" % template["uriTemplate"])
    for prompt in report["prompts"]:
        arguments = ", ".join(a["name"] + ("" if a.get("required") else "?") for a in prompt.get("arguments", []))
        out.write("prompt    %s(%s)\n" % (prompt["name"], arguments))
    return report


def _binary_line(item: dict, field: str, index: int, save: str) -> str:
    """One line for a base64 image, audio or blob: its type and size, and where it was saved."""
    import base64
    import binascii
    import mimetypes
    mime = item.get("mimeType") or "application/octet-stream"
    try:
        data = base64.b64decode(item.get(field) or "", validate=True)
    except (binascii.Error, ValueError):
        return "[%s %s: not valid base64]" % (item.get("type", "blob"), mime)
    line = "[%s %s, %s bytes]" % (item.get("type", "blob"), mime, "{:,}".format(len(data)))
    if save:
        os.makedirs(save, exist_ok=True)
        extension = mimetypes.guess_extension(mime.split(";")[0].strip()) or ".bin"
        path = os.path.join(save, "%s-%d%s" % (item.get("type", "blob"), index, extension))
        with open(path, "wb") as handle:
            handle.write(data)
        line = line[:-1] + ", saved to %s]" % path
    return line


def _print_result(result: dict, out, save: str = None) -> None:
    """A tool, resource or prompt result for the terminal. Images, audio and blobs are
    shown as their type and size, and written to files in ``save`` (``--save DIR``)."""
    for index, block in enumerate(result.get("content", []), 1):
        if block.get("type") in ("image", "audio") and "data" in block:
            out.write(_binary_line(block, "data", index, save) + "\n")
            continue
        out.write((block["text"] if block.get("type") == "text" else json.dumps(block)) + "\n")
    structured = result.get("structuredContent")
    texts = [b.get("text") for b in result.get("content", [])]
    if "structuredContent" in result and structured != {"result": texts[0] if len(texts) == 1 else texts}:
        out.write("structuredContent: %s\n" % json.dumps(structured, ensure_ascii=False))
    for index, content in enumerate(result.get("contents", []), 1):
        if "blob" in content:
            out.write(_binary_line(content, "blob", index, save) + "\n")
            continue
        out.write(content["text"] + "\n" if "text" in content else json.dumps(content) + "\n")
    for message in result.get("messages", []):
        body = message.get("content", {})
        out.write("[%s] %s\n" % (message.get("role"), body.get("text") if body.get("type") == "text"
                                 else json.dumps(body)))


def _call_with_interrupt(client: _ClientBase, name: str, arguments: dict) -> dict:
    """Call a tool; Ctrl-C sends notifications/cancelled for it."""
    sent = []
    try:
        return client.call_tool(name, arguments, on_id=sent.append)
    except KeyboardInterrupt:
        if sent:
            client.notify("notifications/cancelled", {"requestId": sent[-1], "reason": "interrupted (Ctrl-C)"})
        raise SystemExit("minimcp: cancelled")


# The hosts ``config`` writes for: one row each. ``format`` is how the entry is written
# (a JSON key, YAML, or the host's own command for adding a server), ``where`` the file
# it goes in per OS (None: the host has no build for that OS), ``docs`` the page the
# row was read from, ``logs`` a clause on where the host shows the server's stderr and state.
# tests/test_cli_config.py checks each row's format; the README's table is this one.
_HOSTS = {
    "claude": {"title": "Claude Desktop", "format": "mcpServers",
               "where": {"macOS": "~/Library/Application Support/Claude/claude_desktop_config.json",
                         "Windows": "%APPDATA%\\Claude\\claude_desktop_config.json", "Linux": None},
               "docs": "https://modelcontextprotocol.io/quickstart/user",
               "logs": "Claude Desktop writes the server's stderr to ~/Library/Logs/Claude/mcp-server-NAME.log "
                       "(macOS) or %APPDATA%\\Claude\\logs\\mcp-server-NAME.log (Windows)"},
    "claude-code": {"title": "Claude Code", "format": "claude mcp add",
                    "where": {os_name: "~/.claude.json for this project (for every project: --scope user right "
                              "after 'claude mcp add')" for os_name in ("macOS", "Windows", "Linux")},
                    "docs": "https://docs.anthropic.com/en/docs/claude-code/mcp",
                    "logs": "claude mcp list says whether Claude Code connects to the server, and Claude Code "
                            "writes the server's stderr to ~/.cache/claude-cli-nodejs/PROJECT/mcp-logs-NAME/ (Linux)"},
    "codex": {"title": "Codex CLI", "format": "codex mcp add",
              "where": {"macOS": "~/.codex/config.toml", "Linux": "~/.codex/config.toml",
                        "Windows": "%USERPROFILE%\\.codex\\config.toml"},
              "docs": "https://developers.openai.com/codex/mcp",
              "logs": "Codex CLI writes the server's stderr to ~/.codex/log/codex-tui.log"},
    "gemini": {"title": "Gemini CLI", "format": "mcpServers",
               "where": {"macOS": "~/.gemini/settings.json", "Linux": "~/.gemini/settings.json",
                         "Windows": "%USERPROFILE%\\.gemini\\settings.json"},
               "docs": "https://geminicli.com/docs/tools/mcp-server/",
               "pythonpath": False,              # dropped from a server's env as "dangerous" (0.61.0)
               "logs": "gemini mcp list says whether Gemini CLI connects to the server, and gemini --debug "
                       "prints the server's errors"},
    "cursor": {"title": "Cursor", "format": "mcpServers",
               "where": {os_name: "~/.cursor/mcp.json (every project), or .cursor/mcp.json in the project"
                         for os_name in ("macOS", "Windows", "Linux")},
               "docs": "https://cursor.com/docs/mcp",
               "logs": "Cursor shows the server's stderr in its Output panel, channel MCP Logs"},
    "vscode": {"title": "VS Code", "format": "servers",
               "where": {os_name: ".vscode/mcp.json in the workspace, or the profile's mcp.json (command "
                         "'MCP: Open User Configuration')" for os_name in ("macOS", "Windows", "Linux")},
               "docs": "https://code.visualstudio.com/docs/agents/reference/mcp-configuration",
               "logs": "VS Code shows the server's stderr when you run the command MCP: List Servers, pick the "
                       "server, then Show Output"},
    "windsurf": {"title": "Windsurf", "format": "mcpServers",
                 "where": {"macOS": "~/.codeium/windsurf/mcp_config.json",
                           "Linux": "~/.codeium/windsurf/mcp_config.json",
                           "Windows": "%USERPROFILE%\\.codeium\\windsurf\\mcp_config.json"},
                 "docs": "https://docs.windsurf.com/windsurf/cascade/mcp",
                 "logs": "Windsurf shows whether the server runs in the MCP servers panel of Cascade's settings"},
    "zed": {"title": "Zed", "format": "context_servers",
            "where": {"macOS": "~/.config/zed/settings.json", "Linux": "~/.config/zed/settings.json",
                      "Windows": "%APPDATA%\\Zed\\settings.json"},
            "docs": "https://zed.dev/docs/ai/mcp",
            "logs": "Zed writes the server's stderr to its log (command zed: open log)"},
    "goose": {"title": "Goose", "format": "goose extensions",
              "where": {"macOS": "~/.config/goose/config.yaml", "Linux": "~/.config/goose/config.yaml",
                        "Windows": "%APPDATA%\\Block\\goose\\config\\config.yaml"},
              "docs": "https://block.github.io/goose/docs/guides/config-files",
              "logs": "Goose writes the server's stderr to ~/.local/state/goose/logs/ (macOS, Linux) or "
                      "%APPDATA%\\Block\\goose\\data\\logs\\ (Windows)"},
}


def _shell_words(words: list) -> str:
    """A command line the user pastes into a shell (POSIX quoting; cmd.exe needs none for plain paths)."""
    import shlex
    return " ".join(shlex.quote(w) if os.name != "nt" or " " in w else w for w in words)


def _config_entry(host: str, name: str, command: str, args: list, env: dict) -> str:
    """The text ``config`` prints for one host: its snippet, or its command for adding a server."""
    form = _HOSTS[host]["format"]
    if form == "claude mcp add":
        # The name before the --env options: Claude Code's -e/--env takes every word after
        # it up to the next option, and would read the name as a malformed KEY=VALUE.
        flags = [w for k, v in env.items() for w in ("--env", "%s=%s" % (k, v))]
        return _shell_words(["claude", "mcp", "add", "--transport", "stdio", name] + flags + ["--", command] + args)
    if form == "codex mcp add":
        flags = [w for k, v in env.items() for w in ("--env", "%s=%s" % (k, v))]
        return _shell_words(["codex", "mcp", "add", name] + flags + ["--", command] + args)
    if form == "goose extensions":
        # YAML, each value written as JSON (a JSON string or list is also YAML).
        lines = ["extensions:", "  %s:" % json.dumps(name), "    name: %s" % json.dumps(name),
                 "    type: stdio", "    cmd: %s" % json.dumps(command), "    args: %s" % json.dumps(args),
                 "    enabled: true", "    timeout: 300"]
        if env:
            lines.append("    envs: %s" % json.dumps(env))
        return "\n".join(lines)
    entry = {"command": command, "args": args}
    if form == "servers":
        entry = dict({"type": "stdio"}, **entry)
    if env:
        entry["env"] = env
    return json.dumps({form: {name: entry}}, indent=2)


def _sdk_imports(path: str) -> tuple:
    """(the SDK modules a file imports, how it starts, whether it makes a server) read from its source.

    The SDK modules are those of ``mcp`` and ``fastmcp``. How it starts: False when it has no
    ``if __name__ == "__main__":`` block (running it would only define things); the name of
    a command-line library (``argparse``) when that block runs a command line of its own and
    never starts a server; else True. It makes a server when it calls ``MCPServer`` or
    ``FastMCP``, or decorates a ``.tool()``.
    """
    import ast
    try:
        with open(path, "rb") as handle:
            tree = ast.parse(handle.read(), path)
    except (OSError, SyntaxError, ValueError):
        return [], True, True                    # run as written: Python will say what is wrong
    modules, makes_server = [], False
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            modules.append(node.module)
        elif isinstance(node, ast.Call) and _called_name(node) in ("MCPServer", "FastMCP", "tool"):
            makes_server = True
    sdk = [m for m in modules if m.split(".")[0] in ("mcp", "fastmcp")]
    return sorted(set(sdk)), _how_it_starts(tree), makes_server


_COMMAND_LINES = {"ArgumentParser": "argparse", "parse_args": "argparse", "OptionParser": "optparse",
                  "getopt": "getopt", "click": "click", "typer": "typer", "Fire": "fire", "docopt": "docopt"}


def _called_name(call) -> str:
    """``f`` of ``f(...)`` or of ``x.f(...)``."""
    return getattr(call.func, "attr", None) or getattr(call.func, "id", None) or ""


def _how_it_starts(tree):
    """False, a command-line library's name or True: see _sdk_imports. The code the
    ``__main__`` block runs is the block and the module's functions it names, transitively."""
    import ast
    functions = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    todo = [n for n in tree.body if isinstance(n, ast.If) and isinstance(n.test, ast.Compare)
            and isinstance(n.test.left, ast.Name) and n.test.left.id == "__name__"]
    if not todo:
        return False
    named, command_line = set(), None
    while todo:
        for node in ast.walk(todo.pop()):
            name = getattr(node, "id", None) or getattr(node, "attr", None)
            if isinstance(node, ast.Name) and name in functions and name not in named:
                named.add(name)
                todo.append(functions[name])
            command_line = command_line or _COMMAND_LINES.get(name)
            if isinstance(node, ast.Call) and (_called_name(node) in ("run_stdio_async", "stdio_server") or (
                    _called_name(node) == "run" and getattr(node.func, "value", None) is not None and
                    getattr(node.func.value, "id", None) not in ("asyncio", "anyio", "trio", "subprocess"))):
                return True                      # it starts a server (app.run(), mcp.run(), ...)
    return command_line or True


def _importable(module: str) -> bool:
    """Whether this interpreter (the one the config names) can import ``module`` when it
    starts afresh: minimcp's own SDK stand-ins (install_sdk_aliases) do not count."""
    import importlib.util
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):            # a parent package is missing, or broken
        return False
    return spec is not None and not isinstance(spec.loader, _SDKFinder)


def _serve_form(serve_arguments: list, env: dict, folder: str = None, pythonpath: bool = True) -> tuple:
    """``python -m minimcp serve ...``: the module form, whose bytecode is cached.

    ``python minimcp.py serve`` compiles all of minimcp.py at every start (a script is
    never cached): 4x a native script's time to the first answer. ``-m`` loads the
    cached bytecode, so PYTHONPATH names minimcp.py's folder (``folder``, default this
    file's), unless it is installed. A host that drops PYTHONPATH from a server's
    environment (``pythonpath`` False: Gemini CLI deems it dangerous) gets a ``-c`` line
    that puts the folder on ``sys.path`` and imports the same cached module.
    """
    import site
    folder = folder or os.path.dirname(os.path.abspath(__file__))
    installed = set()
    try:
        installed = {os.path.abspath(p) for p in site.getsitepackages() + [site.getusersitepackages()]}
    except AttributeError:                       # virtualenv's old site.py
        pass
    env = dict(env)
    if folder not in installed and not pythonpath:
        return ["-c", "import sys; sys.path.insert(0, %r); import minimcp; sys.exit(minimcp.main())" % folder,
                "serve"] + serve_arguments, env
    if folder not in installed:
        env["PYTHONPATH"] = folder + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return ["-m", "minimcp", "serve"] + serve_arguments, env


def _config_plan(script: str, arguments: list, env: dict, pythonpath: bool = True) -> tuple:
    """(args after the interpreter, env, notes for stderr) of the command a host runs;
    ``pythonpath``: whether the host passes PYTHONPATH on to the server."""
    notes = []
    if os.path.basename(script) in ("minimcp.py", "minimcp") and arguments[:1] == ["serve"]:
        args, env = _serve_form(arguments[1:], env, os.path.dirname(os.path.abspath(script)), pythonpath)
        return args, env, notes
    modules, starts, makes_server = _sdk_imports(script)
    missing = [m for m in modules if not _importable(m)]
    if not missing and starts is True:
        return [os.path.abspath(script)] + arguments, env, notes
    served = [os.path.abspath(script)]
    if missing:
        notes.append("%s imports %s, which %s cannot import: the host runs it through minimcp serve, "
                     "which stands in for the SDK" % (script, ", ".join(missing), sys.executable))
    elif starts and makes_server:
        notes.append("%s's `if __name__ == \"__main__\":` block runs its own command line (%s) and never starts "
                     "the server, so the host would get its usage and an exit: the host runs its server object "
                     "through minimcp serve instead (or make that block call app.run())" % (script, starts))
    elif starts:
        served = ["--functions"] + served
        notes.append("%s runs its own command line (%s) and defines no server: the host serves its public "
                     "functions as tools, through minimcp serve --functions (to choose them: config --client HOST "
                     "minimcp.py serve --functions %s NAME...)" % (script, starts, script))
    else:
        notes.append("%s has no `if __name__ == \"__main__\":` block that starts it: the host runs its "
                     "server object through minimcp serve" % script)
    if arguments:
        notes.append("its arguments (%s) are left out: serve runs the file's server object and passes none"
                     % " ".join(arguments))
    args, env = _serve_form(served, env, pythonpath=pythonpath)
    return args, env, notes


def _absolute_paths(arguments: list) -> list:
    """Arguments that name existing files or directories (``notes.py``, ``notes.py:app``),
    made absolute: a host starts the server from a directory of its own choosing."""
    result = []
    for argument in arguments:
        path, colon, attribute = argument.rpartition(":") if ":" in argument[2:] else (argument, "", "")
        if not argument.startswith("-") and os.path.exists(path):
            argument = os.path.abspath(path) + colon + attribute
        result.append(argument)
    return result


def _config_name(script: str, arguments: list) -> str:
    """The server's name in the host: the script's, or for ``minimcp.py serve X`` X's."""
    name = os.path.splitext(os.path.basename(script))[0]
    if name == "minimcp" and arguments[:1] == ["serve"]:
        options = 3 if arguments[1:2] == ["--http"] else 1        # (--http's value is no script)
        served = [a for a in arguments[options:] if not a.startswith("-")]
        if served:
            name = os.path.splitext(os.path.basename(served[0].rpartition(":")[0] if ":" in served[0][2:]
                                                     else served[0]))[0]
    return name


def _load_script(path: str):
    """Import a script as a module (its ``if __name__ == "__main__"`` block does not run).

    A file inside a package (a folder with ``__init__.py``) is imported by its dotted name
    from the package's parent, so that its relative imports (``from .utils import x``) work.
    """
    import importlib.util
    if not os.path.isfile(path):
        raise SystemExit("minimcp: no such file: %s" % path)
    directory = os.path.dirname(os.path.abspath(path))
    name = os.path.splitext(os.path.basename(path))[0]
    dotted = [name]
    while os.path.isfile(os.path.join(directory, "__init__.py")):     # climb to the outermost package
        directory, package = os.path.split(directory)
        dotted.insert(0, package)
    if len(dotted) > 1:
        return _load_module(".".join(dotted), directory)
    if directory not in sys.path:
        sys.path.insert(0, directory)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


def _load_module(name: str, directory: str = None, installed: bool = False):
    """Import a module by its dotted name, from ``directory`` (default: the working directory) first.

    ``installed``: the module of an installed distribution, imported from ``sys.path`` as it is,
    as the distribution's console script imports it (a ``server.py`` in the working directory
    must not stand in for an installed module named ``server``).
    """
    import importlib
    directory = os.path.abspath(directory or os.getcwd())
    if not installed and directory not in sys.path:
        sys.path.insert(0, directory)
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and name.startswith(exc.name):        # the module itself, not one it imports
            raise SystemExit("minimcp: no module named %r (looked in %s)" % (
                name, "sys.path" if installed else directory + " and on sys.path"))
        raise


def _run_entry_point(name: str, arguments: list) -> int:
    """Run an installed server's console script (``serve --entry NAME``) with the SDK aliases in place."""
    from importlib import metadata
    try:
        found = [e for e in metadata.entry_points().get("console_scripts", ())  # (3.8, 3.9: a dict)
                 if e.name == name] if sys.version_info < (3, 10) else \
            list(metadata.entry_points(group="console_scripts", name=name))
    except Exception as exc:                     # a broken distribution's metadata
        raise SystemExit("minimcp: cannot read the installed entry points: %s" % exc)
    if not found:
        raise SystemExit("minimcp: no installed console script named %r (pip show the server's package, "
                         "or serve its module: serve -m package.module)" % name)
    module_name, _, attribute = found[0].value.partition(":")
    target = _load_module(module_name.strip(), installed=True)
    for part in attribute.strip().split("."):
        target = getattr(target, part)
    sys.argv = [name] + list(arguments)
    result = target()                            # its main() builds the server and calls run()
    if result is None or isinstance(result, int):
        return result or 0
    raise SystemExit(result)                     # as the console script's sys.exit(main()): a text is
                                                 # printed to stderr and the status is 1


def _http_address(text: str) -> tuple:
    """``[HOST:]PORT`` (IPv6 hosts in brackets) -> (host, port); the host defaults to loopback."""
    host, _, port = text.rpartition(":")
    if not port.isdigit() or not 0 <= int(port) < 65536:
        raise SystemExit("minimcp: --http takes [HOST:]PORT, not %r" % text)
    return host or "127.0.0.1", int(port)


def _run_served(app: "MCPServer", http) -> None:
    if http is None:
        app.run()
        return
    def announce(httpd):                  # once bound: port 0 picks a free port, and says which
        bound = httpd.server_address
        shown = "[%s]" % bound[0] if ":" in bound[0] else bound[0]
        sys.stderr.write("minimcp: serving %s at http://%s:%d/mcp\n" % (app.name, shown, bound[1]))
        sys.stderr.flush()
    app.run(transport="http", host=http[0], port=http[1], ready=announce)


def _serve_functions(words: list, http) -> int:
    """``serve --functions SCRIPT [FUNCTION ...]``: a script's plain functions as the tools of a new server."""
    if not words:
        raise SystemExit("minimcp: serve --functions SCRIPT [FUNCTION ...]")
    module = _load_script(words[0])
    # Without names: the script's own public functions, but not main(), the usual entry
    # point (it parses sys.argv and exits, which is no tool).
    names = words[1:] or [n for n, v in vars(module).items() if callable(v) and not n.startswith("_")
                          and getattr(v, "__module__", None) == module.__name__ and not isinstance(v, type)
                          and n != "main"]
    if not names:
        raise SystemExit("minimcp: %s defines no public function to serve (name them after the script)"
                         % words[0])
    sys.stderr.write("minimcp: serving %s from %s\n" % (", ".join(names), words[0]))
    app = MCPServer(module.__name__, dialect="minimcp")    # plain functions: no SDK to be faithful to
    for name in names:
        function = getattr(module, name, None)
        if not callable(function):
            raise SystemExit("minimcp: %s has no function %r" % (words[0], name))
        app.add_tool(function)
    _run_served(app, http)
    return 0


def _serve_command(words: list) -> int:
    http = None
    if words[:1] == ["--http"]:
        if len(words) < 2:
            raise SystemExit("minimcp: serve --http [HOST:]PORT SCRIPT[:OBJECT]")
        http, words = _http_address(words[1]), words[2:]
    if http is None:
        # The protocol owns stdout from here: a banner printed at import time, or by a
        # main() before it starts its server, goes to stderr, not into the host's pipe.
        _OwnedStdio.hold_stdout()
    if words and words[0] == "--functions":
        return _serve_functions(words[1:], http)
    if words[:1] == ["--entry"]:
        if len(words) < 2 or http is not None:
            raise SystemExit("minimcp: serve --entry CONSOLE_SCRIPT [ARGUMENTS ...] (stdio)")
        install_sdk_aliases()
        return _run_entry_point(words[1], words[2:])
    as_module = words[:1] == ["-m"]
    words = words[1:] if as_module else words
    if len(words) != 1:
        raise SystemExit("minimcp: serve SCRIPT[:OBJECT], serve -m MODULE[:OBJECT], serve --entry CONSOLE_SCRIPT"
                         "  or  serve --functions SCRIPT [FUNCTION ...]")
    script, _, attribute = words[0].partition(":")
    if len(script) == 1 and attribute and os.name == "nt":        # C:\path\x.py
        script, _, attribute = words[0].rpartition(":") if words[0].count(":") > 1 else (words[0], "", "")
    install_sdk_aliases()                     # a server written for the official SDK runs unchanged
    dotted = not script.endswith(".py") and not os.path.exists(script) and \
        all(part.isidentifier() for part in script.split("."))
    module = _load_module(script) if as_module or dotted else _load_script(script)
    if attribute:
        app = getattr(module, attribute, None)
    else:
        servers = [v for v in vars(module).values() if isinstance(v, MCPServer)]
        app = servers[0] if len(servers) == 1 else next(
            (getattr(module, n) for n in ("app", "mcp", "server") if isinstance(getattr(module, n, None), MCPServer)),
            None)
    if callable(app) and not isinstance(app, (MCPServer, type)):
        app = app()                           # serve server.py:create_server
    if app is None and not attribute:
        app, main = _built_server(module)
        if app is None and main is not None and http is None:
            sys.argv = [script]
            result = main()                   # it builds its server and runs it, as its console script does
            return result if isinstance(result, int) else 0
    if not isinstance(app, MCPServer):
        raise SystemExit("minimcp: found no MCPServer object in %s%s (name it: serve FILE:OBJECT or "
                         "FILE:FACTORY)" % (script, ":" + attribute if attribute else ""))
    _run_served(app, http)
    return 0


_SERVER_FACTORIES = ("create_server", "build_server", "make_server", "create_app", "get_server", "create_mcp_server")


def _built_server(module) -> tuple:
    """(a server a factory of the module builds, or None; its main(), or None), for a module with no server
    object: many published servers build theirs in ``create_server()`` or in ``main()``."""
    for name in _SERVER_FACTORIES:
        factory = getattr(module, name, None)
        if callable(factory) and all(d is not _EMPTY for _, _, d in _Signature(factory).params):
            built = factory()
            if isinstance(built, MCPServer):
                return built, None
    main = getattr(module, "main", None)
    return None, main if callable(main) else None


class _RecordingClient(_ProcessClient):
    """The selftest's client: keeps every raw stdout line, to check nothing but JSON-RPC reaches it."""

    PIPE_STDERR = True                       # read for tracebacks, reported as warnings

    def _on_progress(self, params):          # quiet (the checks' own lines are the output); when each came
        self.progress_times.setdefault(_id_key(params.get("progressToken")), []).append(time.monotonic())

    def _on_log(self, params):
        pass

    def _read_stderr(self) -> None:
        self.stderr_lines = []               # appended by this thread only; read after it ends
        for line in self.process.stderr:
            self.stderr_lines.append(line.decode("utf-8", "replace").rstrip("\r\n"))

    def tracebacks(self, start: int = 0) -> list:
        """The last line (the exception) of each Python traceback in stderr lines ``start:``."""
        found, inside = [], False
        for line in getattr(self, "stderr_lines", [])[start:]:
            if line.startswith("Traceback (most recent call last)"):
                inside = True
            elif inside and line and not line[0].isspace():
                found.append(line.strip())
                inside = False
        return found

    def _start(self, reader, writer):
        self.raw = []
        self.progress_times = {}             # progress token -> when each notification of it came

        def tap():
            for line in reader:
                self.raw.append(line)
                yield line
        super()._start(tap(), writer)

    def impure_lines(self) -> list:
        """The lines that were not one JSON-RPC message ended by a lone \\n."""
        bad = []
        for line in self.raw:
            try:
                message = json.loads(line.decode("utf-8"))
                if not line.endswith(b"\n") or line.endswith(b"\r\n") or (isinstance(message, dict)
                                                                          and message.get("jsonrpc") != "2.0"):
                    bad.append(line)
            except ValueError:
                bad.append(line)
        return bad


class _SelfTest:
    """The checks a server author needs before shipping; one line per check on ``out``.

    Each check runs inside ``check()``: a failure of the selftest itself is reported as
    that check's FAIL, never as a traceback. The server's stderr is read, and a
    traceback in it is a WARN line naming the check that was running.
    """

    def __init__(self, command: list, protocol: str, slow_tool: str, timeout: float, out,
                 slow_args: dict = None) -> None:
        self.command, self.protocol, self.timeout, self.out = command, protocol, timeout, out
        # --slow-tool NAME or NAME:ARGUMENT (the argument that takes the duration)
        self.slow_tool, _, self.slow_argument = (slow_tool or "").partition(":")
        self.slow_args = dict(slow_args or {})   # --slow-args: the slow tool's arguments, as the user gives them
        self.counts = {"PASS": 0, "FAIL": 0, "SKIP": 0, "WARN": 0}
        self.impure = []
        self.current = "start"               # the check running now, for the server's tracebacks

    def run(self) -> int:
        self.check("handshakes", self.handshakes)
        modern = self.check("server/discover", self.discover)
        self.check("tools", self.tools, bool(modern))
        for how in ("stdin EOF", "SIGTERM") if os.name == "posix" else ("stdin EOF",):
            self.check("exit on " + how, self.exit_on, how)
        return self.finish()

    def finish(self) -> int:
        """The stdout check over every server run so far, and the summary line: the exit status."""
        impure = self.impure
        self.report(not impure, "stdout holds only JSON-RPC", "%d bad lines, first: %r (a print() before app.run()? "
                    "see %s)" % (len(impure), impure[0][:80], _ProcessClient.TROUBLESHOOTING) if impure
                    else "every line was one JSON-RPC message")
        summary = ", ".join(_plural(self.counts[word], noun) for word, noun in
                            (("PASS", "passed"), ("FAIL", "failed"), ("SKIP", "skipped"), ("WARN", "warning"))
                            if word != "WARN" or self.counts[word])
        self.out.write(summary + "\n")
        return 0 if self.counts["FAIL"] == 0 else 1

    def check(self, name: str, step, *arguments):
        """Run one step of the selftest; an exception of its own is that step's FAIL."""
        self.current = name
        try:
            return step(*arguments)
        except Exception as exc:             # a selftest bug, or a reply it did not foresee
            self.report(False, self.current, "the selftest could not finish this check: %s: %s"
                        % (type(exc).__name__, exc))
            return None

    def report(self, ok, name: str, detail: str = "") -> None:
        word = {True: "PASS", False: "FAIL", None: "SKIP", "warn": "WARN"}[ok]
        self.counts[word] += 1
        self.current = name
        self.out.write("%s  %s%s\n" % (word, name, (": " + detail) if detail else ""))
        self.out.flush()

    def client(self, version: str) -> _RecordingClient:
        client = _RecordingClient(self.command, version, timeout=self.timeout)
        client.stderr_seen = 0
        return client

    def server_tracebacks(self, client: _RecordingClient) -> None:
        """WARN for each traceback the server wrote since the last look, under the running check."""
        lines = getattr(client, "stderr_lines", [])
        seen, client.stderr_seen = client.stderr_seen, len(lines)
        for exception in client.tracebacks(seen):
            self.report("warn", self.current, "the server wrote a traceback on stderr: %s" % exception[:200])

    def done(self, client: _RecordingClient) -> None:
        client.close()
        self.server_tracebacks(client)
        self.impure += client.impure_lines()

    def handshakes(self) -> None:
        for version in HANDSHAKE_VERSIONS:
            client = self.client(version)
            self.current = "handshake %s" % version
            try:
                result = client.connect()
                self.report(result.get("protocolVersion") == version, "handshake %s" % version,
                            "answered %s" % result.get("protocolVersion"))
            except MCPError as exc:
                hint = client.diagnose() if client._closed else ""
                self.report(False, "handshake %s" % version, exc.message + ("; " + hint if hint else ""))
            finally:
                self.done(client)

    def discover(self) -> bool:
        client = self.client(LATEST_PROTOCOL_VERSION)
        modern = False
        try:
            discovered = client.connect()
            modern = "2026-07-28" in discovered.get("supportedVersions", [])
            self.report(modern, "server/discover", "supports %s" % ", ".join(discovered.get("supportedVersions", [])))
        except MCPError as exc:
            if exc.code in (METHOD_NOT_FOUND, INVALID_REQUEST, INVALID_PARAMS):
                # Most servers in the wild speak only the handshake revisions: not a failure.
                self.report(None, "server/discover", "%s (%s): a handshake-only server, 2026-07-28 is not "
                            "checked" % (exc.message, exc.code))
            else:
                self.report(False, "server/discover", "%s (%s)" % (exc.message, exc.code))
        finally:
            self.done(client)
        return modern

    def tools(self, modern: bool) -> None:
        client = self.client(self.protocol)
        try:
            client.connect()
            tools = {t["name"]: t for t in client.list_tools()}
            self.report(True, "tools/list", _plural(len(tools), "tool"))
            slow = self.slow_tool or ("slow" if "slow" in tools else None)
            if slow is None or slow not in tools:
                self.report(None, "concurrency", "no slow tool (give --slow-tool NAME[:ARGUMENT]: a tool with a "
                            "duration argument)" if slow is None else "the server has no tool %r" % slow)
                self.report(None, "cancellation", "no slow tool")
                return
            self.current = "concurrency"
            measured = self.measure(client, slow, tools[slow])
            if measured is None:
                return
            arguments, single = measured
            if single < self.SHORTEST:
                detail = ("one call of %s %s took %.2fs: too quick to tell calls that overlap from calls in turn "
                          "(give slower arguments: --slow-args JSON)" % (slow, json.dumps(arguments), single))
                self.report(None, "concurrency", detail)
                self.report(None, "cancellation", "the slow tool is too quick to cancel")
                return
            self.concurrency(client, slow, arguments, single)
            self.server_tracebacks(client)
            self.current = "cancellation"
            self.cancellation(client, slow, arguments, single)
        except MCPError as exc:
            hint = ""
            if client.modern and exc.code == METHOD_NOT_FOUND and not modern:
                hint = "; the server speaks only the handshake revisions: drop --protocol %s" % self.protocol
            self.report(False, "tools", "%s (%s)%s" % (exc.message, exc.code, hint))
        finally:
            self.done(client)

    SHORTEST = 0.25                          # a call shorter than this (s) cannot tell overlap from turns
    TARGET = (0.5, 1.5)                      # how long (s) one call of the slow tool is made to take

    def measure(self, client: _RecordingClient, slow: str, tool: dict):
        """(the slow tool's arguments, how long one call of it takes alone), or None once reported.

        The required arguments get a valid value from the tool's schema, ``--slow-args`` give
        their own. A duration argument the user left to us starts at 0.1 s and is scaled (up
        to twice) until one call takes about a second: ``build(steps=20, step_seconds=...)``
        takes 20 times its duration, ``slow(seconds=...)`` once.
        """
        arguments = dict(_example_arguments(tool.get("inputSchema") or {}), **self.slow_args)
        found = _duration_arguments(tool, 1, self.slow_argument or None)
        duration = next(iter(found)) if found and not set(found) & set(self.slow_args) else None
        if found is None and not self.slow_args:
            detail = ("%s has no numeric argument %r" % (slow, self.slow_argument) if self.slow_argument else
                      "%s has no argument that looks like a duration in seconds or ms (name it: --slow-tool "
                      "%s:ARGUMENT, or give its arguments: --slow-args JSON)" % (slow, slow))
            self.report(None, "concurrency", detail)
            self.report(None, "cancellation", "no duration argument")
            return None
        seconds = 0.1
        if duration is not None:
            arguments.update(_duration_arguments(tool, seconds, duration))
        for _ in range(3):
            single = self.one_call(client, slow, arguments)
            if single is None or duration is None or self.TARGET[0] <= single <= self.TARGET[1]:
                break
            seconds = float("%.2g" % (seconds * min(10.0, max(0.1, 1.0 / max(single, 0.01)))))   # for ~1 s
            scaled = _duration_arguments(tool, seconds, duration)
            if scaled == {duration: arguments[duration]}:
                break                            # (whole seconds: 1 is the least)
            arguments.update(scaled)
        return None if single is None else (arguments, single)

    def one_call(self, client: _RecordingClient, slow: str, arguments: dict):
        """How long one call takes alone (s); None once its failure is reported."""
        started = time.monotonic()
        try:
            result = client.call_tool(slow, arguments)
        except MCPError as exc:
            result = {"isError": True, "content": [{"type": "text", "text": "%s (%s)" % (exc.message, exc.code)}]}
        if not result.get("isError"):
            return time.monotonic() - started
        self.report(False, "concurrency", "one call of %s %s failed: %s (give its arguments: --slow-args JSON)"
                    % (slow, json.dumps(arguments), _result_text(result)))
        self.report(None, "cancellation", "the slow tool's call failed")
        return None

    def concurrency(self, client: _RecordingClient, slow: str, arguments: dict, single: float) -> None:
        """Three calls at once take about one call's time: under 1.5 times it (in turn: 3 times)."""
        results, errors, threads = [], [], []

        def call():
            try:
                results.append(client.call_tool(slow, arguments))
            except MCPError as exc:
                errors.append("%s (%s)" % (exc.message, exc.code))
        started = time.monotonic()
        for _ in range(3):
            thread = threading.Thread(target=call, daemon=True)
            thread.start()
            threads.append(thread)
        for thread in threads:
            thread.join(self.timeout)
        elapsed = time.monotonic() - started
        failed = [r for r in results if r.get("isError")]
        detail = "3 calls of %s %s at once took %.2fs, one alone %.2fs" % (slow, json.dumps(arguments), elapsed,
                                                                           single)
        if errors or failed:
            detail += "; %s" % (errors[0] if errors else "isError: %s" % _result_text(failed[0]))
        overlapped = elapsed < 1.5 * single + self.SHORTEST
        if not overlapped and not errors and not failed:
            detail += ": they ran in turn, not at once"
        self.report(len(results) == 3 and not errors and not failed and overlapped, "concurrency", detail)

    def cancellation(self, client: _RecordingClient, slow: str, arguments: dict, single: float) -> None:
        """A call cancelled once it has started is never answered; progress that goes on is a warning."""
        ids, sent, answered = [], threading.Event(), threading.Event()

        def call():
            try:
                client.call_tool(slow, arguments, on_id=lambda i: (ids.append(i), sent.set()))
            except MCPError:
                pass
            answered.set()                   # any response, result or error (the call's timeout is far off)
        token = getattr(client, "_next_token", 0) + 1
        started = time.monotonic()
        threading.Thread(target=call, daemon=True).start()
        if not sent.wait(self.timeout):
            self.report(False, "cancellation", "the call could not be sent")
            return
        # Give the tool a moment to start (its first progress says it has; a cancel that
        # arrives first is fine too: the call must then never run, nor be answered).
        client.wait_for_progress(token, single / 4)
        cancelled_at = time.monotonic()
        client.notify("notifications/cancelled", {"requestId": ids[0], "reason": "selftest"})
        # Until well after the call would have ended, had it run on: then nothing may have come.
        got_answer = answered.wait(max(0.5, started + 1.25 * single + 0.5 - time.monotonic()))
        grace = min(0.5, single / 2)         # progress already on its way when the cancel arrived
        late = [at - cancelled_at for at in client.progress_times.get(_id_key(token), []) if at > cancelled_at + grace]
        alive = client.request("tools/list") is not None
        if got_answer:
            self.report(False, "cancellation", "it answered anyway")
            return
        stopped = "it ran on" if late else "its progress stopped" if client.progress_times.get(_id_key(token)) \
            else "it reports no progress"
        self.report(alive, "cancellation", "no response in the %.2fs the call takes, %s; server still answers"
                    % (single, stopped))
        if late:                             # the spec: a cancelled request SHOULD stop (the reference servers don't)
            self.report("warn", "cancellation", "the cancelled call ran on: its progress came %.2fs after the "
                        "cancel (a server should stop working on a cancelled request)" % late[-1])

    def exit_on(self, how: str) -> None:
        """On a fresh, idle server (the one above may still be finishing a cancelled call)."""
        import subprocess
        client = self.client(LATEST_HANDSHAKE_VERSION)
        try:
            client.connect()
            client.request("ping")
        except MCPError as exc:
            self.report(False, "exit on " + how, "the server did not open a session: %s" % exc.message)
            self.done(client)
            return
        started = time.monotonic()
        try:
            if how == "SIGTERM":
                client.process.terminate()       # what hosts and probing clients send
            else:
                client._writer_stream.close()
            status = client.process.wait(5)
            elapsed = time.monotonic() - started
            self.report(status in (0, -15) if how == "SIGTERM" else status == 0 and elapsed < 2,
                        "exit on " + how, "status %s after %.0f ms" % (status, elapsed * 1000))
        except subprocess.TimeoutExpired:
            self.report(False, "exit on " + how, "still running 5 s after %s" % how)
        self.done(client)


def _plural(count: int, noun: str) -> str:
    """``1 tool``, ``2 tools``; words that don't take an s (``passed``) stay as they are."""
    if count == 1 or noun in ("passed", "failed", "skipped"):
        return "%d %s" % (count, noun)
    return "%d %ss" % (count, noun)


def _result_text(result: dict) -> str:
    """The text of a tool result, short, for one line of output."""
    texts = [b.get("text", "") for b in result.get("content", []) if isinstance(b, dict) and b.get("type") == "text"]
    return " ".join(texts)[:200]


def _duration_arguments(tool: dict, seconds: float, argument: str = None):
    """Arguments that make ``tool`` take about ``seconds``, read from its input schema.

    Third-party servers name it as they like (``seconds``, ``duration``, ``delay``,
    ``durationMs``...); None when no numeric argument looks like a duration. With
    ``argument`` (``--slow-tool NAME:ARGUMENT``) that one is used, if it is numeric.
    """
    import re
    properties = (tool.get("inputSchema") or {}).get("properties") or {}
    for name, schema in properties.items():
        if not isinstance(schema, dict) or (argument is not None and name != argument):
            continue
        kinds = schema.get("type") if isinstance(schema.get("type"), list) else [schema.get("type")]
        words = re.sub(r"([a-z])([A-Z])", r"\1 \2", name).lower().replace("_", " ").split()
        looks_like_time = {"seconds", "secs", "sec", "duration", "delay", "sleep", "wait", "time", "ms", "millis",
                           "milliseconds"} & set(words)
        if not {"number", "integer"} & set(kinds) or not (looks_like_time or argument is not None):
            continue
        description = (schema.get("description") or "").lower()
        millis = {"ms", "millis", "milliseconds"} & set(words) or "millisecond" in description
        value = seconds * 1000 if millis else seconds
        return {name: max(1, int(round(value))) if "integer" in kinds else round(value, 3)}
    return None


_EXAMPLE_STRINGS = {"date-time": "2025-01-01T00:00:00Z", "date": "2025-01-01", "time": "00:00:00",
                    "email": "selftest@example.com", "uri": "https://example.com/", "url": "https://example.com/",
                    "uuid": "00000000-0000-4000-8000-000000000000", "hostname": "example.com"}


def _example_arguments(schema: dict) -> dict:
    """A valid value for each required argument of a tool's input schema (selftest's slow tool)."""
    return _example_value(dict(schema, type="object"), schema)


def _example_value(schema, root: dict):
    """A value ``schema`` accepts: its const, default or first enum value, else one of its type
    within its bounds. ``root`` holds the definitions its ``$ref`` names."""
    if not isinstance(schema, dict):
        return "selftest"
    if isinstance(schema.get("$ref"), str) and schema["$ref"].startswith("#/"):
        target = root
        for part in schema["$ref"][2:].split("/"):
            target = target.get(part) if isinstance(target, dict) else None
        return _example_value(target, root)
    for word in ("const", "default"):
        if word in schema:
            return schema[word]
    if schema.get("enum"):
        return schema["enum"][0]
    branches = [b for b in (schema.get("anyOf") or schema.get("oneOf") or schema.get("allOf") or [])
                if not (isinstance(b, dict) and b.get("type") == "null")]
    if branches:
        return _example_value(branches[0], root)
    kinds = schema.get("type") if isinstance(schema.get("type"), list) else [schema.get("type")]
    kind = next((k for k in kinds if k != "null"), kinds[0] if kinds else None)
    if kind in ("integer", "number"):
        value = max(1, schema.get("minimum", 1), schema.get("exclusiveMinimum", 0) + 1)
        value = min(value, schema.get("maximum", value), schema.get("exclusiveMaximum", value + 1) - 1)
        return int(value) if kind == "integer" else value
    if kind == "boolean":
        return False
    if kind == "null":
        return None
    if kind == "array":
        return [_example_value(schema.get("items"), root) for _ in range(schema.get("minItems", 0))]
    if kind == "object" or "properties" in schema:
        return {name: _example_value((schema.get("properties") or {}).get(name), root)
                for name in schema.get("required") or ()}
    text = _EXAMPLE_STRINGS.get(schema.get("format"), "selftest")
    text = (text * (schema.get("minLength", 0) // len(text) + 1))[:max(len(text), schema.get("minLength", 0))]
    return text[:schema["maxLength"]] if "maxLength" in schema else text


_COMMANDS = ("inspect", "call", "read", "prompt", "complete", "selftest", "config", "serve")
_VALUED_OPTIONS = ("--protocol", "--timeout", "--client", "--name", "--slow-tool", "--slow-args", "--root", "--env",
                   "--save")


def _command_first(argv: list) -> list:
    """``--protocol X inspect ...`` means ``inspect --protocol X ...``: options may come first."""
    index = 0
    while index < len(argv) and argv[index] in _VALUED_OPTIONS + ("--json",):
        index += 2 if argv[index] in _VALUED_OPTIONS else 1
    if 0 < index < len(argv) and argv[index] in _COMMANDS:
        return [argv[index]] + argv[:index] + argv[index + 1:]
    return argv


def _program_name() -> str:
    """How the user started us, for the usage text: ``minimcp`` when installed, else the file."""
    name = os.path.basename(sys.argv[0] if sys.argv and sys.argv[0] else "")
    if os.path.splitext(name)[0] == "minimcp" and not name.endswith(".py"):
        return "minimcp"                         # the console script of an installed package
    return "python3 minimcp.py"


def _split_command_line(argv: list) -> tuple:
    """Split ``OPTIONS -- SERVER COMMAND`` into (options, command)."""
    if "--" in argv:
        index = argv.index("--")
        return argv[:index], argv[index + 1:]
    return argv, []


def _parse_options(options: list) -> tuple:
    """(as_json, words, valued options, roots) from the words before the server command.

    ``--root`` and ``--env`` are repeatable: ``roots`` gets the roots, ``extra["--env"]``
    the list of KEY=VALUE words.
    """
    as_json, words, extra, roots = False, [], {}, []
    index = 0
    while index < len(options):
        option = options[index]
        if option in _VALUED_OPTIONS and index + 1 < len(options):
            if option == "--root":                   # repeatable: each one is a root
                roots.append(options[index + 1])
            elif option == "--env":
                extra.setdefault("--env", []).append(options[index + 1])
            else:
                extra[option] = options[index + 1]
            index += 2
            continue
        if option == "--json":
            as_json = True
        else:
            words.append(option)
        index += 1
    return as_json, words, extra, roots


def _config_command(words: list, server: list, extra: dict, envs: list) -> int:
    hosts = "|".join(_HOSTS)
    if not words:
        raise SystemExit("minimcp: config --client %s [--name N] [--env KEY=VALUE] SCRIPT [ARGS...]" % hosts)
    host = extra.get("--client", "claude")
    if host not in _HOSTS:
        raise SystemExit("minimcp: --client is one of %s, not %r" % (", ".join(_HOSTS), host))
    env = {}
    for item in envs:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise SystemExit("minimcp: --env takes KEY=VALUE, not %r" % item)
        env[key] = value
    script, arguments = words[0], _absolute_paths(words[1:] + server)
    if not os.path.isfile(script):
        raise SystemExit("minimcp: no such script: %s (the host would fail to start it)" % script)
    name = extra.get("--name") or _config_name(script, arguments)
    row = _HOSTS[host]
    args, env, notes = _config_plan(script, arguments, env, row.get("pythonpath", True))
    if "PYTHONPATH" in env and not row.get("pythonpath", True):
        notes.append("%s drops PYTHONPATH from a server's environment: put those folders on sys.path in "
                     "the script instead" % row["title"])
    sys.stdout.write(_config_entry(host, name, os.path.abspath(sys.executable), args, env) + "\n")
    for note in notes:
        sys.stderr.write("minimcp: %s\n" % note)
    if row["format"].endswith(" mcp add"):
        sys.stderr.write("minimcp: run that command to add %r to %s, which writes it to %s; see %s\n"
                         % (name, row["title"], row["where"]["Linux"], row["docs"]))
    else:
        grouped = {}                             # one location, the OSes that have it (macOS's first)
        for os_name, where in row["where"].items():
            if where:
                grouped.setdefault(where, []).append(os_name)
        (first, _), *others = grouped.items()
        others = "; ".join("%s: %s" % (", ".join(names), where) for where, names in others)
        sys.stderr.write("minimcp: merge that into %s%s, then restart %s; see %s\n"
                         % (first, " (%s)" % others if others else "", row["title"], row["docs"]))
    sys.stderr.write("minimcp: %s; if the server does not start, see %s\n"
                     % (row["logs"], _ProcessClient.TROUBLESHOOTING))
    return 0


def _client_command(client: "_ProcessClient", command: str, words: list, as_json: bool, save: str = None) -> tuple:
    """Run inspect/call/read/prompt/complete against a connected server: (report, exit status)."""
    import io
    status = 0
    opened = client.connect()
    output = io.StringIO() if as_json else sys.stdout      # --json: the JSON only, no summary anywhere
    if command == "inspect":
        report = _print_inspection(client, opened, output)
        if "--call" in words:
            call = words[words.index("--call") + 1:]
            if not call:
                raise SystemExit("minimcp: --call TOOL [ARGS...]")
            tool = next((t for t in report["tools"] if t.get("name") == call[0]), {})
            result = _call_with_interrupt(client, call[0], _parse_arguments(call[1:], tool.get("inputSchema")))
            output.write("\ncall %s -> %s\n" % (call[0], "isError" if result.get("isError") else "ok"))
            report["call"] = result
            status = 1 if result.get("isError") else 0
            if not as_json:
                _print_result(result, output, save)
    elif not words:
        raise SystemExit("minimcp: %s needs %s" % (command, {"call": "a tool name", "read": "a URI",
                                                              "prompt": "a prompt name",
                                                              "complete": "REF ARGUMENT [VALUE]"}[command]))
    elif command == "call":
        schema = _tool_schema(client, words[0]) if any("=" in w for w in words[1:]) else None
        report = _call_with_interrupt(client, words[0], _parse_arguments(words[1:], schema))
        status = 1 if report.get("isError") else 0
    elif command == "read":
        report = client.read_resource(words[0])
    elif command == "prompt":
        report = client.get_prompt(words[0], {k: str(v) for k, v in _parse_arguments(words[1:]).items()})
    elif command == "complete":
        if len(words) < 2:
            raise SystemExit("minimcp: complete REF ARGUMENT [VALUE]")
        report = client.complete(words[0], words[1], words[2] if len(words) > 2 else "")
        if not as_json:
            sys.stdout.write("\n".join(report.get("values", [])) + "\n")
    return report, status


def _words_and_server(command: str, words: list, server: list):
    """The command's own words and the server command, for the spellings without ``--`` in between."""
    if not server and command == "inspect" and words:
        return [], words                      # inspect python3 server.py (no "--")
    if command in ("call", "read", "prompt") and not words and len(server) > 1:
        tail = len(server)                    # call -- CMD... TOOL [ARGS]: arguments last
        while tail > 1 and command != "read" and _looks_like_argument(server[tail - 1]):
            tail -= 1
        return server[tail - 1:], server[:tail - 1]
    return words, server


# vendor: the file without some components ------------------------------------------

_NEEDS = {"cli": ("testclient", "sdk")}      # components that use another component


def _vendor_sections(source: str) -> list:
    """The file as [(component or None, text)]: one item per banner, owned by the component
    whose _plug() call it holds (the core's sections hold none)."""
    import re
    starts = [match.start() for match in re.finditer(r"^# .*####$", source, flags=re.M)]
    pieces = [source[a:b] for a, b in zip([0] + starts, starts + [len(source)])]
    owned = []
    for piece in pieces:
        plugged = re.findall(r'^_plug\("([a-z]+)"', piece, flags=re.M)
        owned.append((plugged[0] if plugged else None, piece))
    return owned


def _vendor(source: str, without: set) -> str:
    """``source`` (this file) without the components named in ``without``."""
    if not without:
        return source
    kept = []
    left_out = {}
    for component, text in _vendor_sections(source):
        if component not in without:
            kept.append(text)
            continue
        about = _COMPONENTS[component][0]
        for name in _COMPONENTS[component][1]:
            left_out[name] = (component, about)
        kept.append("# %s: left out of this build (vendor --without %s)\n\n\n" % (about[:1].upper() + about[1:], component))
        if component == "cli":
            kept.append('if __name__ == "__main__":\n    sys.exit("minimcp: this build of minimcp.py leaves out the '
                        'command line; serve a script with app.run()")\n')
    text = "".join(kept)
    table = "".join("    %r: %r,\n" % item for item in sorted(left_out.items()))
    text = text.replace("_LEFT_OUT = {}          # a vendored build's left-out names -> (component, what it is)\n",
                        "_LEFT_OUT = {          # written by vendor: the names of the components this build leaves out\n"
                        + table + "}\n", 1)
    names = ", ".join(sorted(without))
    note = ("\nThis build of minimcp %s leaves out the components %s. It was written by\n"
            "``python3 minimcp.py vendor --without %s``; the sections they had say so.\n" % (__version__, names, names))
    first_paragraph_end = text.index("\n\n", text.index('"""'))
    return text[:first_paragraph_end] + "\n" + note + text[first_paragraph_end:]


def _vendor_command(args: list) -> int:
    """``vendor [--without NAME,...|all]``: write this file, without those components, to stdout."""
    without = set()
    if args[:1] == ["--without"] and len(args) == 2:
        without = set(_COMPONENTS) if args[1] == "all" else {name.strip() for name in args[1].split(",") if name.strip()}
    elif args:
        raise SystemExit("minimcp: usage: vendor [--without NAME,...|all] (NAME: %s)" % ", ".join(_COMPONENTS))
    unknown = sorted(without - set(_COMPONENTS))
    if unknown:
        raise SystemExit("minimcp: vendor: no component %s (there are: %s)" % (", ".join(unknown), ", ".join(_COMPONENTS)))
    for component, needed in _NEEDS.items():
        gone = [name for name in needed if name in without]
        if gone and component not in without:
            sys.stderr.write("minimcp: vendor: %s needs %s, so it is left out too\n" % (component, " and ".join(gone)))
            without.add(component)
    with open(os.path.abspath(__file__), encoding="utf-8") as source:
        text = _vendor(source.read(), without)
    out = getattr(sys.stdout, "buffer", None)
    if out is not None:                      # the file's own bytes: UTF-8 and \n, whatever the console uses
        out.write(text.encode("utf-8"))
    else:
        sys.stdout.write(text)
    return 0


def main(argv: list = None) -> int:
    """The command line; returns the exit status."""
    argv = _command_first(list(sys.argv[1:] if argv is None else argv))
    usage = _USAGE.replace("python3 minimcp.py", _program_name()) % (
        ", ".join(_COMPONENTS), LATEST_HANDSHAKE_VERSION)
    before_server = _split_command_line(argv)[0]
    if not argv or argv[0] in ("-h", "--help", "help") or "-h" in before_server or "--help" in before_server:
        (sys.stdout if argv else sys.stderr).write(usage)
        return 0 if argv else 2
    if argv[0] in ("--version", "-V"):
        sys.stdout.write("minimcp %s\n" % __version__)
        return 0
    command, rest = argv[0], argv[1:]
    if command == "serve":
        return _serve_command(rest)
    if command == "vendor":
        return _vendor_command(rest)
    options, server = _split_command_line(rest)
    as_json, words, extra, roots = _parse_options(options)
    protocol = extra.get("--protocol", LATEST_HANDSHAKE_VERSION)
    try:
        timeout = float(extra.get("--timeout", 30.0))
    except ValueError:
        raise SystemExit("minimcp: --timeout takes seconds")
    if protocol not in PROTOCOL_VERSIONS:
        raise SystemExit("minimcp: unknown protocol %s (one of %s)" % (protocol, ", ".join(PROTOCOL_VERSIONS)))
    if command == "config":
        return _config_command(words, server, extra, extra.get("--env", []))
    if command not in _COMMANDS:                     # (serve and config are done above)
        sys.stderr.write("minimcp: unknown command %r\n\n%s" % (command, usage))
        return 2
    words, server = _words_and_server(command, words, server)
    if not server:
        sys.stderr.write("minimcp: give the server command after --\n\n%s" % usage)
        return 2
    if command == "selftest":
        slow_args = _parse_arguments([extra["--slow-args"]]) if "--slow-args" in extra else None
        return _SelfTest(server, protocol, extra.get("--slow-tool"), timeout, sys.stdout, slow_args).run()
    return _run_client_command(command, words, server, protocol, timeout, as_json, extra, roots)


def _run_client_command(command: str, words: list, server: list, protocol: str, timeout: float,
                        as_json: bool, extra: dict, roots: list) -> int:
    """inspect, call, read, prompt, complete: start the server, ask, print, and say how it ended."""
    client = _ProcessClient(server, protocol, timeout=timeout)
    _terminal_answers(client, roots)
    try:
        report, status = _client_command(client, command, words, as_json, extra.get("--save"))
        if as_json:
            sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
        elif command in ("call", "read", "prompt"):
            _print_result(report, sys.stdout, extra.get("--save"))
    except MCPError as exc:
        sys.stderr.write("minimcp: error %s: %s\n" % (exc.code, exc.message))
        hint = client.diagnose() if client._closed else ""
        if hint:
            sys.stderr.write("minimcp: %s\n" % hint)
        if client.modern and exc.code == METHOD_NOT_FOUND and not client.server_info:
            sys.stderr.write("minimcp: the server does not answer server/discover, so it speaks only the "
                             "handshake revisions: drop --protocol %s (or use --protocol %s)\n"
                             % (protocol, LATEST_HANDSHAKE_VERSION))
        status = 1
    finally:
        code = client.close()
    # A clean exit goes unsaid; a failure at exit is said, unless the error above already told why.
    if (code != 0 and status == 0) or client.ended_by is not None or client.late_requests:
        sys.stderr.write("minimcp: %s\n" % client.exit_report(code))
    return status


_plug("cli", "the command line: python3 minimcp.py COMMAND", public=("main",))


if __name__ == "__main__":
    # Scripts loaded by "serve" import minimcp: let them find this very module.
    sys.modules.setdefault("minimcp", sys.modules[__name__])
    try:
        sys.exit(main())
    except BrokenPipeError:                  # e.g. piped into head: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        sys.exit(1)

