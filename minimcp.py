#!/usr/bin/env python3
"""minimcp: turn any Python script into a Model Context Protocol server (stdio or HTTP).

One file, standard library only, Python 3.8 and newer. Copy ``minimcp.py`` next to
your script::

    from minimcp import MCPServer, Context

    app = MCPServer("demo", version="1.0.0")

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
``python3 minimcp.py --help`` lists the command-line tools (inspect, call, ...), which are
minimcp_cli.py's: copy it beside this file for them.

How the files are laid out. This file, minimcp.py, is the core: all a stdio server of
every revision needs, and nothing else (``grep -n '^# .*####' minimcp.py``, each section
using only those above it). Each component is a file beside it, minimcp_<name>.py, which
imports this module and plugs itself in with one ``_plug()`` call; it uses of the core
only its public names and those ``_SEAM`` lists (tests/test_seam.py holds both sides to
that). The core names its components in one table, _COMPONENT_FILES, and imports a
component's file on first use of a name it provides (app.wsgi, ``from minimcp import
TestClient``), or says which file to copy. ``python3 minimcp.py bundle -o FILE`` writes
the core and its components as one file, which replaces them all (tests/core/ runs the
core alone; tests/test_files.py the files and the bundle)::

  The core, minimcp.py
    Constants, Errors          revisions, error codes, MCPError, Cancelled
    JSON Schema                schemas from type hints; the validator for them, and the checker
                               compiled once per tool
    Elicitation forms          what elicitation/create may ask (_elicitation_form), shaped per
                               revision (_elicitation_schema), and the answer checked against it
    Registry records           Tool, Resource (+ RFC 6570 templates), Prompt, content helpers;
                               _DIALECTS, whose one row here is minimcp's own (the default)
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
                               stream its answer goes to) for any transport, whose own rules
                               (HTTP's headers) it runs as a check; _admit() is the one place
                               where the two eras meet and decides the _Peer (revision,
                               capabilities) a request is served under; write() keeps "mark
                               done, then answer exactly once"; our questions to the client
                               (several per round: ask()) and listen streams live here too.
                               Only the session writes its state.
    The seam                   what components plug into: the tables the core looks up (MCPServer
                               methods, tool() keywords, METHODS rows, capabilities, transports,
                               module attributes), _plug() that fills them, _part() that keeps a
                               component's state on a server (and its tool gate), _SEAM, and
                               _COMPONENT_FILES with _component(), which imports a file on demand
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
    Running minimcp.py         python3 minimcp.py COMMAND: bundle here, the rest minimcp_cli.py's

  The components, each a file beside it (by the names bundle --with takes)
    minimcp_apps.py (apps)     MCP Apps: ui:// pages linked to tools (tool(ui=...)), ui_resource,
                               the extension's negotiation and its tool gate, inline_page
    minimcp_skills.py (skills) Agent Skills, SEP-2640: skill folders as skill:// resources (_Skill,
                               manifests with sha256 digests), the SKILL.md frontmatter reader
                               (_YAMLSubset), add_skills and the skills/* rows of METHODS
    minimcp_http.py (http)     Transport: Streamable HTTP. _HTTPApp, the endpoint: respond() is
                               what a request does, as steps that the WSGI callable and _ASGIApp
                               (app.asgi, on an event loop) carry out; a POST is given to a
                               session, whose _Admission it maps to a status and a stream, and
                               _HTTPOut puts each message on the stream of the request it belongs
                               to; the MCP-* header rules; signed session ids, their identity and
                               SQLiteSessionStore; _serve_http runs it on http.server (HTTP/1.1,
                               keep-alive, a drain on SIGTERM); app.wsgi, app.asgi,
                               run(transport="http")
    minimcp_testclient.py      Clients (testclient): TestClient, and the client the command line
                               uses
    minimcp_sdk.py (sdk)       SDK names: alias modules so servers written for mcp/fastmcp run
                               unchanged, their classes, and the mcp2, mcp1 and fastmcp rows of
                               _DIALECTS
    minimcp_cli.py (cli)       Command line: python3 minimcp.py COMMAND (imports testclient;
                               serve imports sdk for a server written for an SDK, bridge imports bridge)
    minimcp_bridge.py (bridge) Bridge: python3 minimcp.py bridge URL, a stdio server that is a
                               remote Streamable HTTP server (headers, OAuth sign-in, proxies and
                               TLS, both eras and the translation between them, recovery)

One app serves any number of connections at once: each ``serve()`` (stdio, a
``TestClient``), each handshake-era HTTP session and each 2026-07-28 POST is a session
of its own, and sessions share nothing but the registry and the worker pool.
"""

import sys

if sys.version_info < (3, 8):      # before anything else can fail on an older interpreter
    raise SystemExit("minimcp needs Python 3.8 or newer (this is %d.%d)" % sys.version_info[:2])


def _needs_python_3_8(*, message="minimcp needs Python 3.8 or newer"):  # Python 2 stops here, saying why
    return message


import collections  # noqa: E402  (threading imports it already)
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
        return _described(_enum_schema([member.value for member in hint]), hint)
    if hint in seen:
        raise SchemaError("recursive type %r is not supported" % (hint,))
    if _is_typeddict(hint):
        return _described(_typeddict_schema(hint, seen + (hint,)), hint)
    if _is_dataclass(hint):
        return _described(_dataclass_schema(hint, seen + (hint,)), hint)
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


def _type_description(hint):
    """A class's own docstring, cleaned, as pydantic describes an Enum, TypedDict or dataclass
    by it (not the docstring Enum or dataclass make up for a class without one), or None."""
    doc = getattr(hint, "__doc__", None) if isinstance(hint, type) else None
    if not isinstance(doc, str) or not doc.strip() or doc == "An enumeration." or (   # Enum's own, before 3.11
            _is_dataclass(hint) and doc.startswith(hint.__name__ + "(")):
        return None
    return _clean_doc(doc)


def _described(schema: dict, hint) -> dict:
    description = _type_description(hint)
    if description:
        schema["description"] = description
    return schema


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
        args = [_resolve_annotation(arg, namespace) for arg in args]
        if type(value) in args:            # pydantic's smart union: a member of the value's own type wins
            return value                   # (1000000.0 for int | float stays a float)
        for arg in args:
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
        if arg_docs.get(name) and prop.get("description") in (None, _type_description(annotation)):
            prop["description"] = arg_docs[name]       # the parameter's words before its type's
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
    """How minimcp, or one SDK, shows a server to its client and its model, as named rules.

    A server is served in the dialect of the SDK it was written for, so that a model
    sees what it saw there: ``MCPServer(dialect=...)``, or the class a server
    constructs. Code reads ``dialect.<rule>`` where the thing it shapes is made (a
    description, a result, an error), never ``if dialect == ...``. The comment after
    this class explains each rule; _DIALECTS holds the rows.
    """
    RULES = ("docstrings", "tool_failure", "tool_error", "told", "unknown_tool", "argument_error",
             "argument_wording", "lax_arguments", "is_error_always", "objects", "list_blocks", "compact_json",
             "dict_structured", "text_structured", "class_structured", "default_mime", "resource_lists",
             "decode_uri_variables", "missing_resource", "unknown_prompt", "missing_prompt_arguments",
             "default_version", "describe_extra", "result_meta", "strict_annotations",
             "untyped_schema", "closed_input", "meta_in_results", "output_spelling",
             "wrap_by_schema", "annotation_fields", "non_finite", "elicit_by_type", "lifespan_per_session",
             "unoffered_method", "resource_failure", "odd_tool_names", "undeclared_question", "mcp_error_fails",
             "log_data", "result_wording", "content_structured", "prompt_failure")
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


# The rules, one per thing a client or model sees. They word and lay out what the spec leaves
# open; what it fixes is no rule, so that no dialect can change it: error codes (the revision's,
# _REVISION_RULES), whether a failure is a JSON-RPC error or an isError result where the spec
# says, capabilities (MCPServer._capabilities) and whether a question may be sent (-32021,
# _Session.ask).
#   docstrings: "parsed" (dedented, Args: become the parameters' descriptions, none when empty),
#     "raw" (the docstring as written, "" when there is none, parameters undescribed) or
#     fn(docstring, kind) giving (description or None, {argument: description}) for a "tool",
#     "resource" (templates too) or "prompt";
#   tool_failure / tool_error: the isError text of a tool that raised, for any exception and
#     for the ``told`` types (the SDK's ToolError), as a format of {name} and {error};
#   unknown_tool: the message of the -32602 error for a tool that does not exist, a format of {name};
#   argument_error: None (the revision decides: -32602, or isError since 2025-11-25) or the
#     isError text for invalid arguments, always a result (before 2025-11-25 the spec names
#     invalid arguments both a protocol error and a tool execution error, so the choice is
#     open; SEP-1303 settled it as isError, which both ways give); argument_wording: None (the
#     validator's words for {error}) or fn(tool, arguments, server) giving pydantic's words, or
#     None where it has none; lax_arguments: "3" is taken for an integer and 3.0 for 3, as
#     pydantic's lax mode takes them;
#   is_error_always: results carry "isError": false too;
#   objects: an object that is not JSON is written as its fields ("fields", or refused when it
#     has none) or as the JSON string of its repr() ("repr");
#   list_blocks: a returned list is one content block per item ("items") or one JSON text ("json",
#     no block for an empty list);
#   compact_json: JSON text without spaces; dict_structured: a dict (unannotated, or ``-> dict``,
#     whose outputSchema is then {"type": "object"}) is also structuredContent; text_structured: ``-> str`` has an outputSchema ({"result": ...});
#     class_structured: a plain annotated class has one, from its annotations;
#   default_mime: the mimeType of a resource registered without one (None: guessed from the URI
#     and the value); resource_lists: a returned list is several contents ("items") or one JSON
#     text ("json"); decode_uri_variables: template variables arrive percent-decoded;
#   missing_resource / unknown_prompt: (message, with data) of those errors, whose codes are the
#     revision's resource-not-found code and -32602; missing_prompt_arguments: the message of
#     the -32602 error, a format of {prompt}, {listed} (quoted, comma-separated) and {missing} (a set);
#   default_version: serverInfo's version when the server names none;
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
#   output_spelling: None, or fn(schema, hint, namespace) giving a tool's outputSchema (before it
#     is wrapped in {"result": ...}) as the SDK's pydantic spells it; wrap_by_schema: a result is
#     wrapped in {"result": ...} exactly when its schema is not an object (fastmcp: typing.Dict
#     too is the structured content itself, and ``-> None`` has none), not by the kind of annotation (mcp);
#   annotation_fields: None (tool and resource annotations are sent as given) or {"tool": names,
#     "resource": names}: the fields the SDK's models have, snake_case taken for camelCase, the
#     rest dropped (mcp 2.x's types ignore unknown fields; mcp 1.x's keep them);
#   non_finite: a tool result holding inf or nan is refused as JSON cannot carry it (None), written
#     as Python's json writes it (Infinity, NaN) with null in structuredContent ("json", as mcp's
#     pydantic does), or fn(value) that raises the SDK's own error for it;
#   elicit_by_type: None, or fn(ctx, message, response_type, timeout, key) for fastmcp's
#     ctx.elicit(message, response_type=...) (minimcp_sdk.py's rows have it);
#   lifespan_per_session: the lifespan is entered for each handshake-era HTTP session (mcp 1.x),
#     not once per process;
#   unoffered_method: the message of the -32601 error for a method of a kind the server does not
#     offer (tools/call on a server without tools), a format of {method} and {capability};
#   resource_failure: None (a read that raises ValueError or OSError is "Reading URI failed:
#     ...", anything else an internal error naming its type) or fn(exc, uri, template) giving
#     the message of the -32603 error for a resource (or template) function that raised;
#   odd_tool_names: None (a tool name outside the spec's 1-128 characters of A-Z a-z 0-9 _ - .
#     is refused at registration) or fn(name) that warns as the SDK warns, and it is registered;
#   undeclared_question: None (a question the client did not declare the capability for is
#     -32021 in every revision) or fn(capability, method) giving the exception the tool sees
#     before 2026-07-28, where the spec names no code (None: -32021 still). Never sent, either way;
#   mcp_error_fails: an MCPError a tool raises is its call's JSON-RPC error (False), or a failure
#     like any other exception, an isError result (mcp 1.x, fastmcp), but for -32021, the spec's;
#   log_data: None (a log message's data is what the handler logged) or fn(data, extra) giving it;
#   result_wording: None (the validator's words) or fn(tool, value) giving the SDK's words for a
#     result that fails its outputSchema, or None where it has none;
#   content_structured: None (a content annotation, ``-> list[TextContent]``, has no outputSchema)
#     or fn(hint) giving (outputSchema, fn(block) -> the block as structured content) for the
#     annotations whose content the SDK also sends as {"result": [...]} (mcp 1.x), else None;
#   prompt_failure: None (a prompt function that raises is an internal error naming its type) or
#     fn(exc, name) giving the message of the -32603 error for it, as resource_failure does.
_DIALECTS = {
    # minimcp's own, the one row of the core: what its README documents. minimcp_sdk.py adds
    # the rows of the SDKs (mcp2, mcp1, fastmcp), each as it differs from this one.
    "minimcp": _Dialect(
        "minimcp", docstrings="parsed", tool_failure="{error}", tool_error="{error}", told=(),
        unknown_tool="Unknown tool: {name}", argument_error=None, argument_wording=None, lax_arguments=False,
        is_error_always=False, objects="fields", list_blocks="items", compact_json=False, dict_structured=False,
        text_structured=False, class_structured=True, default_mime=None, resource_lists="items",
        decode_uri_variables=True, missing_resource=("Resource not found: {uri}", True),
        unknown_prompt=("Unknown prompt: {name}", True),
        missing_prompt_arguments="prompt {prompt!r}: missing required argument {listed}", default_version="0.0.0",
        describe_extra=None, result_meta=None, strict_annotations=True, untyped_schema=None, closed_input=False,
        meta_in_results=False, output_spelling=None, wrap_by_schema=False, annotation_fields=None,
        non_finite=None, elicit_by_type=None, lifespan_per_session=False,
        unoffered_method="Method not found: {method} (this server offers no {capability})", resource_failure=None,
        odd_tool_names=None, undeclared_question=None, mcp_error_fails=False, log_data=None, result_wording=None,
        content_structured=None, prompt_failure=None),
}
_MASKED_FAILURE = "Error executing tool {name}"   # a failing tool's text under mask_errors=True (mcp's words)


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


def _names_whole_result(hint) -> bool:
    """Whether a return annotation names a whole tool result (the SDK's CallToolResult), bare or
    in a union (``-> CallToolResult | InputRequiredResult``): the function makes the result itself."""
    if isinstance(hint, type) and type(hint).__name__ != "GenericAlias":
        return hasattr(hint, "to_result")
    origin, args, _ = _typing_parts(hint)
    if origin == "annotated":
        return _names_whole_result(args[0])
    return (origin == "union" or repr(origin) == "typing.Union") and any(_names_whole_result(a) for a in args)


def _output_policy(hint, namespace: dict) -> tuple:
    """The official SDK's rule for a return annotation: (outputSchema or None, wrap in "result", attributes).

    Scalars, None, generics and unions are wrapped in ``{"result": ...}``; models,
    TypedDicts, dataclasses, annotated classes and builtin ``dict[str, X]`` are the
    structured content themselves; no annotation, content, and classes without
    annotations (``dict``, ``datetime``, an Enum) give no structured output.
    """
    if hint is _EMPTY or _is_content_class(hint) or _names_whole_result(hint):
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
        self.dialect = dialect = dialect or _DIALECTS["minimcp"]
        if not isinstance(name, str) or not (1 <= len(name) <= 128) or not set(name) <= _TOOL_NAME_CHARS:
            if not isinstance(name, str) or dialect.odd_tool_names is None:
                raise ValueError("invalid tool name %r: use 1-128 characters of A-Z a-z 0-9 _ - ." % name)
            dialect.odd_tool_names(name)        # the spec says SHOULD: the SDKs warn, and register it
        if task_support not in ("forbidden", "optional", "required"):
            raise ValueError("task_support must be 'forbidden', 'optional' or 'required'")
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
        self.content_fill = None         # content also sent as structuredContent (the dialect's content_structured)
        if output_schema is None and structured_output is not False:
            self._derive_output(signature, dialect, structured_output, owner)

    def _derive_output(self, signature: "_Signature", dialect: _Dialect, structured_output, owner: str) -> None:
        """outputSchema from the return annotation, as the dialect shapes it (and how results fill it)."""
        try:
            resolved = signature.resolve(signature.returns)        # no annotation stays _EMPTY
        except SchemaError:
            resolved = _EMPTY
        try:
            as_content = dialect.content_structured(resolved) if dialect.content_structured is not None \
                and resolved is not _EMPTY and _is_content_class(resolved) else None
            if as_content is not None:
                schema, self.content_fill = as_content          # mcp 1.x: content, also structured
                self.wrap_result = True
            elif structured_output:
                schema = _schema_for(resolved, signature.namespace) if resolved is not _EMPTY else {}
                self.wrap_result = schema.get("type") != "object"   # structuredContent must be an object
            elif resolved is str and not dialect.text_structured:
                schema = None                 # the text once, not again as {"result": text}
            elif resolved is dict and dialect.dict_structured:
                schema = {"type": "object"}   # fastmcp: the dict itself is the structured content
            else:
                schema, self.wrap_result, self.attributes = _output_policy(resolved, signature.namespace)
                if dialect.wrap_by_schema and resolved in (None, type(None)):
                    schema, self.wrap_result = None, False      # fastmcp: -> None has no outputSchema
                elif dialect.wrap_by_schema and schema is not None:
                    self.wrap_result = schema.get("type") != "object"
                if self.attributes is not None and not dialect.class_structured:
                    schema = self.attributes = None
        except SchemaError as exc:
            raise SchemaError("%s, return annotation: %s" % (owner, exc)) from None
        if schema is not None and dialect.output_spelling is not None and resolved is not _EMPTY \
                and self.content_fill is None:     # (the content's schema comes spelled)
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
        if self.content_fill is not None:
            return {"content": content, "structuredContent": {"result": [self.content_fill(b) for b in content]}}
        if self.output_schema is None:
            if dialect.dict_structured and type(value) is dict:      # its datetimes, UUIDs ... as pydantic writes them
                plain = json.loads(_to_json_text(value, allow_nan=dialect.non_finite == "json"))
                return {"content": content, "structuredContent": plain}
            return {"content": content}
        # plain JSON types: dataclasses become dicts
        plain = json.loads(_to_json_text(fields, allow_nan=dialect.non_finite == "json"))
        structured = {"result": plain} if self.wrap_result else plain
        try:
            validate(structured, self.output_schema, "result")
        except ValueError as exc:
            worded = dialect.result_wording(self, value) if dialect.result_wording is not None else None
            raise ValueError(worded or "tool %r returned a value that does not match its outputSchema: %s"
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
                return [{"type": "text", "text": _to_json_text(value, compact=True)}] if value else []
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
            _is_contents_entry(item) for item in value))
        items = value if several else [value]
        mime_type = self.mime_type or self.dialect.default_mime
        contents = []
        for item in items:
            if _is_contents_entry(item):
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


def _field_description(signature: _Signature, annotation, default):
    """The description a parameter's ``Field(description=...)`` gives it, in ``Annotated`` or as
    its default (the SDKs describe a prompt's arguments so), or None."""
    try:
        if _is_field_info(default):
            annotation = _field_annotation(annotation, default)
        if annotation is _EMPTY:
            return None
        return _schema_for(annotation, signature.namespace).get("description")
    except SchemaError:
        return None


def _is_contents_entry(item) -> bool:
    """Whether a resource function returned a contents entry ({"text": ...} or {"blob": ...}, with
    only the fields of one) rather than data that happens to have such a key ({"id": 1, "text":
    "..."}, which every SDK writes as JSON text)."""
    return isinstance(item, dict) and ("text" in item or "blob" in item) and set(item) <= _CONTENTS_FIELDS


_CONTENTS_FIELDS = frozenset(("uri", "mimeType", "text", "blob", "_meta"))


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
        for name, annotation, default in params:
            argument = {"name": name}
            described = _field_description(signature, annotation, default) or arg_docs.get(name)   # Field's first
            if described:
                argument["description"] = described
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
            text = self.dialect.missing_prompt_arguments
            required = {a["name"] for a in self.arguments if a["required"]}   # the SDKs' set, built as they build it:
            raise _invalid_params(text.format(prompt=self.name, listed=", ".join(repr(m) for m in missing),  # the same
                                              missing=required - set(arguments)))                           # order
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
        """What the client declared (per request in 2026-07-28, at initialize before): the dict,
        its fields also read as attributes, None where undeclared (``caps.sampling``, as the SDKs')."""
        declared = self._call.peer.capabilities
        return _Declared.of(declared) if isinstance(declared, dict) else declared

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
    def session(self) -> "_ClientSession":
        """The SDKs' ``ctx.session``: ``create_message``, ``list_roots``, ``send_tool_list_changed``, ..."""
        return _ClientSession(self)

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

    def log(self, level: str, data, logger: str = None, logger_name: str = None, extra: dict = None) -> None:
        """Send a ``notifications/message`` to the client, if its level lets it through.
        ``logger_name`` and ``extra`` are the SDKs' spellings (a dialect may shape the data with ``extra``)."""
        if level not in _LOG_RANK:
            raise ValueError("unknown log level %r; use one of %s" % (level, ", ".join(LOG_LEVELS)))
        threshold = self._call.peer.log_level
        if threshold is None or _LOG_RANK[level] < _LOG_RANK[threshold]:
            return
        logger = logger if logger is not None else logger_name
        shape = self._session.server.dialect.log_data
        params = {"level": level, "data": data if shape is None else shape(data, extra)}
        if logger is not None:
            params["logger"] = logger
        self._session.notify_for(self._call, "notifications/message", params)

    def debug(self, data, logger: str = None, **sdk) -> None:
        """Log at level debug."""
        self.log("debug", data, logger, **sdk)

    def info(self, data, logger: str = None, **sdk) -> None:
        """Log at level info."""
        self.log("info", data, logger, **sdk)

    def notice(self, data, logger: str = None, **sdk) -> None:
        """Log at level notice."""
        self.log("notice", data, logger, **sdk)

    def warning(self, data, logger: str = None, **sdk) -> None:
        """Log at level warning."""
        self.log("warning", data, logger, **sdk)

    def error(self, data, logger: str = None, **sdk) -> None:
        """Log at level error."""
        self.log("error", data, logger, **sdk)

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
            has been checked against ``schema``. The dict also has the SDKs' ``.action`` and
            ``.data``: the accepted content, as an instance when ``schema`` is a dataclass or a
            pydantic model (None unless accepted).

        Raises:
            ValueError: for a schema no form can carry, or an accepted answer that does not fit it.
        """
        if response_type is not None:
            by_type = self.server.dialect.elicit_by_type
            if by_type is None:
                raise TypeError("ctx.elicit(response_type=...) is fastmcp's spelling, for a server in its "
                                "dialect (dialect=\"fastmcp\"); in minimcp's own, give schema= (a dict, "
                                "TypedDict, dataclass or pydantic model)")
            return by_type(self, message, response_type, timeout, key)
        form = _elicitation_form(schema)
        params = {"message": message, "requestedSchema": _elicitation_schema(form, self._call.rev.version)}
        if self._call.rev.elicitation_modes:
            params["mode"] = "form"
        return self._ask(_Question(key, "elicitation/create", params, {"elicitation": {"form": {}}},
                                   lambda answer: _Fields.elicited(_check_elicited(answer, form), schema)), timeout)

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

    def close_sse_stream(self) -> None:
        """The SDKs' ``ctx.close_sse_stream()``: nothing here. The SDK closes the call's HTTP stream
        for the client to poll, replaying what it missed from the server's event store, and does
        nothing without one (stdio); minimcp keeps the stream open until the call answers, so
        the client misses nothing and need not reconnect."""

    close_standalone_sse_stream = close_sse_stream      # the same, for the GET stream

    def notify_tools_changed(self) -> None:
        """mcp 2.3's ``ctx.notify_tools_changed()``: tell the client the tool list changed
        (registering or removing a tool tells it already; said twice is allowed)."""
        self.server._list_changed("tools")

    def notify_prompts_changed(self) -> None:
        """mcp 2.3's ``ctx.notify_prompts_changed()``, as ``notify_tools_changed``."""
        self.server._list_changed("prompts")

    def notify_resources_changed(self) -> None:
        """mcp 2.3's ``ctx.notify_resources_changed()``, as ``notify_tools_changed``."""
        self.server._list_changed("resources")

    @property
    def input_responses(self) -> None:
        """mcp 2.3's ``ctx.input_responses``, the answers to an InputRequiredResult the handler
        returned: always None here. minimcp refuses a handler's own InputRequiredResult and asks
        the questions of ``elicit``, ``sample`` and ``list_roots`` itself, in 2026-07-28 as rounds
        whose answers those calls return."""
        return None

    request_state = input_responses   # mcp 2.3's ``ctx.request_state``: the state of that flow, None too

    def _ask(self, question: _Question, timeout):
        if self._gathering is not None:
            self._gathering.append(question)
            return None
        return self._session.ask(self._call, [question], timeout)[0]

    def read_resource(self, uri: str) -> list:
        """Read one of this server's own resources; returns its ``contents`` list. Each entry
        also reads as the SDKs' (``.content``: the text, or the blob's bytes; ``.mime_type``),
        and the list as fastmcp's result (``.contents``)."""
        contents = self._session.server._read_resource(str(uri), self._call)["contents"]
        return _ReadContents(_ResourceContents(entry) for entry in contents)


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


class _Fields(dict):
    """A client's answer as the SDKs hand it to a tool: still the dict, its fields also read as
    attributes, snake_case too (``result.content.text``, ``result.stop_reason``, ``root.uri``),
    and awaitable, as the SDKs' methods are."""

    @classmethod
    def of(cls, value):
        if isinstance(value, dict):
            return cls((k, cls.of(v)) for k, v in value.items())
        if isinstance(value, list):
            return [cls.of(v) for v in value]
        return value

    @classmethod
    def elicited(cls, answer: dict, schema) -> "_Fields":
        """An ElicitResult with the SDKs' ``.data``: the accepted content, made into ``schema``
        when that is a dataclass or a pydantic model (None unless accepted)."""
        result = cls.of(answer)
        content = answer.get("content") or {} if answer.get("action") == "accept" else None
        if content is not None and isinstance(schema, type) and (_is_dataclass(schema) or _is_pydantic_model(schema)):
            content = schema(**content)
        result.data = content                     # an attribute, not a key: the dict stays the answer
        return result

    def __getattr__(self, name: str):
        head, *rest = name.split("_")
        for key in (name, head + "".join(part[:1].upper() + part[1:] for part in rest)):
            if key in self:
                return self[key]
        raise AttributeError(name)

    def __await__(self):
        return self
        yield


class _ResourceContents(_Fields):
    """One entry of ``ctx.read_resource``'s answer: the wire's dict, with the SDKs' ``.content``."""

    @property
    def content(self):
        if "text" in self:
            return self["text"]
        import base64
        return base64.b64decode(self.get("blob") or "")


class _ReadContents(list):
    """``ctx.read_resource``'s answer: the list of contents (mcp's), also as fastmcp 4's result
    (``.contents``), and awaitable."""

    @property
    def contents(self) -> list:
        return self

    def __await__(self):
        return self
        yield


def _as_json(value):
    """A value a tool built with the SDK's models (SamplingMessage(...), ...) as the JSON it stands for."""
    if isinstance(value, (list, tuple)):
        return [_as_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _as_json(v) for k, v in value.items()}
    if callable(getattr(value, "model_dump", None)) and not isinstance(value, type):
        try:
            return value.model_dump(by_alias=True, exclude_none=True, mode="json")     # pydantic's
        except TypeError:
            return value.model_dump()                                               # minimcp's SDK models
    return value


class _ClientSession:
    """What ``ctx.session`` is in the SDKs, for what their tools do with it: ask the client
    (``create_message``, ``list_roots``), tell it what changed, check what it declared."""

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx

    def create_message(self, messages, max_tokens: int, system_prompt: str = None, include_context: str = None,
                       temperature: float = None, stop_sequences: list = None, metadata: dict = None,
                       model_preferences=None, tools=None, tool_choice=None, related_request_id=None) -> _Fields:
        """``sampling/createMessage``, as ``ctx.sample``; the result reads as the SDK's CreateMessageResult."""
        return _Fields.of(self._ctx.sample(
            _as_json(list(messages)), max_tokens, system_prompt, temperature, stop_sequences,
            _as_json(model_preferences), include_context, _as_json(tools), _as_json(tool_choice), metadata))

    def list_roots(self) -> _Fields:
        """``roots/list``, as ``ctx.list_roots``; the result reads as the SDK's ListRootsResult."""
        return _Fields.of({"roots": self._ctx.list_roots()})

    @property
    def client_capabilities(self) -> "_Fields":
        """What the client declared, read as the SDK's ClientCapabilities: an undeclared one is None."""
        return _Declared.of(self._ctx.client_capabilities or {})

    def check_client_capability(self, capability) -> bool:
        """Whether the client declared ``capability`` (a ClientCapabilities, or its dict)."""
        wanted = {k: v for k, v in (_as_json(capability) or {}).items() if v is not None}
        return _missing_capability(self._ctx.client_capabilities, wanted) is None

    def send_log_message(self, level: str, data, logger: str = None, related_request_id=None) -> "_AwaitableNone":
        """A log message, as ``ctx.log``."""
        self._ctx.log(level, data, logger)
        return _AWAITABLE_NONE

    def send_resource_updated(self, uri) -> "_AwaitableNone":
        """Tell subscribers the resource changed, as ``server.notify_resource_updated``."""
        self._ctx.server.notify_resource_updated(str(uri))
        return _AWAITABLE_NONE

    def _changed(self, kind: str) -> "_AwaitableNone":
        self._ctx.server._list_changed(kind)      # (registering already told the client: said twice is allowed)
        return _AWAITABLE_NONE

    def send_tool_list_changed(self) -> "_AwaitableNone":
        """Tell the client its tool list changed."""
        return self._changed("tools")

    def send_prompt_list_changed(self) -> "_AwaitableNone":
        """Tell the client its prompt list changed."""
        return self._changed("prompts")

    def send_resource_list_changed(self) -> "_AwaitableNone":
        """Tell the client its resource list changed."""
        return self._changed("resources")


class _Declared(_Fields):
    """A client's capabilities as the SDKs' ClientCapabilities reads them: ``caps.sampling`` is
    None when the client did not declare sampling."""

    def __getattr__(self, name: str):
        try:
            return _Fields.__getattr__(self, name)
        except AttributeError:
            if name.startswith("_"):
                raise
            return None


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
              "elicit", "elicit_url", "ping", "read_resource", "close_sse_stream", "close_standalone_sse_stream",
              "notify_tools_changed", "notify_prompts_changed", "notify_resources_changed"):
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


#: Why a stop cancels what runs; also the error a stopped request is answered with.
_STOPPING = "the server is shutting down"


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
        self.answer_unfinished = False     # set by stop(): see there
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

    def take(self, message, check=None) -> _Admission:
        """Take one parsed message or batch; what became of it (the transport sends any refusal).

        ``check``: the transport's own rules, ``check(session, method, params, request)``
        -> None or (code, message, data, malformed), run on a well-formed message before
        it is admitted (HTTP: its headers agree with the body and the session); ``method``
        is None for a batch, ``request`` the message if it is a request. None for stdio.
        """
        admission = _Admission()
        if isinstance(message, list):
            self._on_batch(message, admission, check)
        else:
            self._on_message(message, None, admission, check)
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

    def _on_batch(self, messages: list, admission: _Admission, check) -> None:
        refusal = check(self, None, None, None) if check is not None else None
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

    def _on_message(self, message, batch, admission: _Admission = None, check=None) -> None:
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
        elif check is not None:
            refusal = check(self, method, params, message if has_id else None)
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
        elif where == "thread":
            self.answer_on_thread(call, handler)
        else:
            self.inflight[call.key] = call
            self.dispatch(call, lambda: self._run_queued(call, handler))

    def answer_on_thread(self, call: _Call, handler) -> None:
        """Answer ``call`` with ``handler(call)`` from a thread of its own, in flight meanwhile.

        For a call that may wait on what only the reading thread delivers (the client's
        answers): a handler running on that thread hands its call on here and returns None.
        In flight, the call can be cancelled, its id is not taken again, and the end of
        input waits for its answer (or answers it with the stop's error) as for any other.
        """
        self.inflight[call.key] = call
        threading.Thread(target=self._run, args=(call, handler), daemon=True).start()

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
            raise MCPError(METHOD_NOT_FOUND, self.server.dialect.unoffered_method.format(
                method=method, capability=capability))
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
        if call.done:                   # cancelled by the client before it started: never runs
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
        """A cancelled call: no response, ever (but the error a stop owes it: see stop())."""
        if self.answer_unfinished and call.cancel_reason == _STOPPING and self.inflight.get(call.key) is call:
            self.respond(call, error={"code": INTERNAL_ERROR, "message": _STOPPING})
            return
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
            if lacking:                         # the spec's rule, in every dialect: never sent
                worded = self.server.dialect.undeclared_question
                refusal = worded(lacking, question.method) if worded is not None and rev.sessions else None
                if refusal is not None:         # before 2026-07-28 the spec names no code: the dialect's error
                    raise refusal
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

    def stop(self, answer_unfinished: bool = False) -> None:
        """End of input: cancel running handlers, give them a grace period, close listens.

        ``answer_unfinished``: a request that the stop leaves without its answer (its
        handler gave up when cancelled, or still runs when the grace is over) gets a
        -32603 error, so a client reading to the end (``printf ... | server``) sees
        every request answered. The stdio transport asks for it; HTTP answers what is
        left on its own streams.
        """
        running = list(self.inflight.values()) + [t.call for t in list(self.tasks.values())
                                                   if t.status not in _TERMINAL]
        self.answer_unfinished = answer_unfinished     # before the cancels: drop() reads it
        for call in running:
            call.cancel(_STOPPING)
        self.end_listens()
        deadline = time.monotonic() + self.server.shutdown_grace
        while self.inflight and time.monotonic() < deadline:
            time.sleep(0.005)
        if answer_unfinished:
            for call in list(self.inflight.values()):   # still running: answered now, its result never sent
                self.respond(call, error={"code": INTERNAL_ERROR, "message": _STOPPING})
        self.out.wait_idle(max(deadline, time.monotonic() + 1.0))   # let queued responses reach the client
        self.stopped = True
        if self.own_lifespan is not None:
            self.own_lifespan.exit()


# The seam: what components plug into the core #################################
#
# The sections above, this one, the server and the stdio transport are the core: all a
# stdio server of every revision needs. Each component (MCP Apps, Agent Skills, Streamable
# HTTP, the clients, the SDK's names, the command line) is a file beside this one,
# minimcp_<name>.py, that imports this module, plugs itself in with one _plug() call and
# reaches the core only through the names listed in _SEAM. The core never names a
# component but in _COMPONENT_FILES: it looks up what was plugged into the tables below,
# and a server keeps each component's state for it in its part (_part). A name of that
# table that nothing has plugged yet imports its component's file on first use, or says
# which file to copy; a bundle (python3 minimcp.py bundle) holds its components already.

_PLUGGED = {}           # MCPServer attribute -> a function (a method) or property a component adds
_TOOL_OPTIONS = {}      # tool()/add_tool() keyword a component takes -> that component
_TOOL_HOOKS = []        # fn(server, tool, options): every tool registered, with those keywords
_OFFERS = {}            # a METHODS capability kind a component adds -> fn(server): is it offered?
_CAPABILITY_HOOKS = []  # fn(server, rev, capabilities): after the core derived its own
_TRANSPORTS = {}        # run(transport=NAME) -> fn(server, host, port, options)
_MODULE_ATTRIBUTES = [] # fn(name) -> a module attribute built on first use (minimcp.FastMCP), or None
                        # (asked only for the names of _COMPONENT_FILES)
_COMPONENTS = {}        # component -> (what it is, the names it plugged, the module it is in), as plugged

# The components, each the file minimcp_<component>.py, and the names each provides: MCPServer
# attributes, tool() keywords, run() transports, dialects, module attributes (as bottle's
# server_names names its servers). The one place the core names them.
_COMPONENT_FILES = {
    "apps": "ui_resource add_ui_resource ui visibility inline_page apps_supported APP_MIME_TYPE APPS_EXTENSION",
    "skills": "add_skills",
    "http": "wsgi_app wsgi asgi_app asgi http streamable-http",
    "testclient": "TestClient",
    "sdk": "mcp2 mcp1 fastmcp FastMCP install_sdk_aliases ArgModelBase ToolError ResourceError Message UserMessage "
           "PromptMessage AssistantMessage CallToolResult ToolAnnotations TextContent ImageContent AudioContent "
           "TextResourceContents BlobResourceContents Icon Annotations GetPromptResult TransportSecuritySettings",
    "cli": "main",
    "bridge": "",           # (python3 minimcp.py bridge URL: the command line imports it)
}
_PROVIDED_BY = {name: component for component, names in _COMPONENT_FILES.items() for name in names.split()}

# What a component may use of the core beyond its public API (test_seam.py holds every
# section to it). Names: the core's private functions and classes; attributes: what
# components read of MCPServer and _Session objects that is not public.
_SEAM = {
    "names": frozenset([
        "_plug", "_part", "_COMPONENTS", "_DIALECTS",
        "_COMPONENT_FILES", "_component", "_NoComponent", "_bundle_command",   # (the command line's)
        "_Session", "_Admission", "_Peer", "_Call", "_Task", "_Terminated", "_Signature", "_OwnedStdio",
        "_error", "_request", "_response", "_notification", "_id_key", "_decode_line", "_json_default",
        "_b64", "_b64url", "_unb64url", "_logger", "_available", "_trim", "_shaped", "_shape_resource",
        "_page", "_required", "_invalid_params", "_guess_mime", "_is_coroutine_function", "_quote_path",
        "_read_below", "_regular_files", "_LAX_BOOLEANS", "_EMPTY", "_version_refusal",
        # reading type hints as the schema section does (the SDK dialects' pydantic wording)
        "_typing_parts", "_resolve_annotation", "_class_hints", "_class_namespace", "_field_annotation",
        "_field_default", "_is_dataclass", "_is_enum", "_is_field_info", "_is_pydantic_model", "_is_typeddict",
        "_clean_doc", "_schema_for", "_pydantic", "_run_coroutine",
        # the bridge's host side: the stdio reader, ids, and results shaped for a handshake-era host
        "_valid_id", "_LineReader", "_Oversized", "_trim_block", "_shape_tool", "_shape_prompt",
        "_shape_tool_result",
    ]),
    "attributes": frozenset(["_lock", "_resources", "_sessions", "_live_sessions", "_signing_key", "_shared_key",
                             "_announce_task",       # (a transport's session may announce tasks its way)
                             "_tools",               # (HTTP's Mcp-Param-* headers mirror a tool's arguments)
                             "_peer_for_envelope",   # (HTTP checks the envelope once, with the session)
                             "_offers",              # (a server class of a component may offer more)
                             # a transport serving many clients: the pool, each held to a share of it;
                             # the lifespan, entered and exited by a server interface's own events (ASGI)
                             "_submit", "_enter_lifespan", "_lifespan",
                             "_call"]),              # (a Context's request: the SDK's resolvers run on its loop)
}


def _plug(component: str, about: str, *, methods: dict = None, rows: dict = None, fields: dict = None,
          offers: dict = None, tool_options: tuple = (), on_tool=None, capabilities=None,
          transports: dict = None, public: tuple = (), attributes=None, names: tuple = ()) -> None:
    """Plug a component into the core: called once, by the component's file as it is imported.

    Args:
        component: its short name, as _COMPONENT_FILES and ``bundle --with`` spell it.
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
    if component in _COMPONENTS:               # e.g. minimcp_http.py imported beside a bundle that holds it
        raise ImportError("minimcp's %s component is plugged in already (from %s): import it once"
                          % (component, _COMPONENTS[component][2]))
    answered = list(methods or ()) + list(tool_options) + list(transports or ()) + list(public) + list(names)
    module = sys._getframe(1).f_globals["__name__"]      # the component's module (this one, in a bundle)
    _COMPONENTS[component] = (about, tuple(name for name in answered if not name.startswith("_")), module)
    if module == __name__:                     # a bundle: `import minimcp_<component>` finds it here too
        sys.modules.setdefault("minimcp_" + component, sys.modules[__name__])
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


class _NoComponent(ImportError):
    """A name of a component whose file is not beside minimcp.py."""


class _Beside:
    """Last on sys.meta_path: finds minimcp_<name>.py beside this file where sys.path does not
    have its folder (``python3 -I``, PYTHONSAFEPATH, a core loaded by its path), so that a
    component's file and the ones it imports are found wherever the core was."""

    def __init__(self, folder: str) -> None:
        self.folder = folder

    def find_spec(self, fullname: str, path=None, target=None):
        location = os.path.join(self.folder, fullname + ".py")
        if not fullname.startswith("minimcp_") or "." in fullname or not os.path.isfile(location):
            return None
        import importlib.util
        return importlib.util.spec_from_file_location(fullname, location)


def _component(component: str, what: str = None):
    """The module that holds ``component``: on first use, its file minimcp_<component>.py,
    imported from beside this one (it plugs itself in), unless this file holds it (a bundle).

    Raises _NoComponent when the file is not there, saying that ``what`` (by default "minimcp's
    <component> component") is in that file, and how to get it.
    """
    if component not in _COMPONENTS:
        import importlib
        sys.modules.setdefault("minimcp", sys.modules[__name__])     # (python3 minimcp.py: __main__)
        folder = os.path.dirname(os.path.abspath(__file__))
        if not any(isinstance(finder, _Beside) and finder.folder == folder for finder in sys.meta_path):
            sys.meta_path.append(_Beside(folder))
        module = "minimcp_" + component
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as missing:
            if missing.name != module:
                raise
            raise _NoComponent("%s is in %s.py, which is not beside minimcp.py (in %s): copy it there from the "
                               "same minimcp release, or use one file that holds both (python3 minimcp.py bundle)"
                               % (what or "minimcp's %s component" % component, module,
                                  os.path.dirname(os.path.abspath(__file__))), name=module) from None
        if component not in _COMPONENTS:
            raise ImportError("%s.py plugged itself into %s, not into this minimcp (%s)"
                              % (module, sys.modules["minimcp"].__file__, __file__))
    return sys.modules[_COMPONENTS[component][2]]


def _provided(name: str, what: str) -> bool:
    """Whether ``name`` belongs to a component not yet plugged in, whose file this imports;
    raises _NoComponent if the file is missing, saying that ``what % name`` is in it."""
    component = _PROVIDED_BY.get(name)
    if component is None or component in _COMPONENTS:
        return False
    _component(component, what % name)
    return True


def __getattr__(name: str):
    """Module attributes that components provide (PEP 562): ``from minimcp import TestClient``
    imports minimcp_testclient.py on first use, and so ``import minimcp`` stays cheap. Only the
    names of _COMPONENT_FILES: what minimcp.NAME is never depends on what else was imported."""
    if _PROVIDED_BY.get(name) is None:
        raise AttributeError("module 'minimcp' has no attribute %r" % name)
    if _provided(name, "minimcp.%s"):           # its component's file was imported just now
        return getattr(sys.modules[__name__], name)
    for build in _MODULE_ATTRIBUTES:
        value = build(name)
        if value is not None:
            return value
    component = _COMPONENTS.get(_PROVIDED_BY.get(name), (None, None, __name__))[2]
    if component != __name__ and hasattr(sys.modules[component], name):
        return getattr(sys.modules[component], name)
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

    A job may name its ``owner`` (an HTTP session, or a client: the pool serves many)
    and the most workers that owner may hold: its further jobs wait in a line of its
    own, and join the shared queue one by one as its running jobs end, so one busy
    client never holds every worker while another's job waits. Such a submit never
    blocks: the HTTP server's own caps bound what waits.

    A worker whose ``async def`` handler awaits (its thread's loop waits in ``select``,
    see ``_worker_loop``) rests: it keeps its thread but gives its place, in the pool and
    in its owner's share, to the next job, and takes it back when the loop wakes (even
    over ``size``: what it was doing goes on). So ``size`` bounds the handlers that run
    code, and a thousand calls that only await run at once, each on a thread and a loop
    of its own, as before (``REST_FACTOR`` x ``size`` at most). Workers over ``size``
    end when their job does.
    """

    STALL = 0.002                          # seconds without progress before adding a thread
    REST_FACTOR = 32                       # resting workers, at most, per place (each: a thread, a loop)

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
        self.resting = 0                   # workers whose coroutine awaits: not counted against size
        self.taken = 0                     # jobs ever taken: the watcher's sign of progress
        self.lock = threading.Lock()
        self.room = threading.Condition(self.lock)       # submit waits here when full
        self.needed = threading.Condition(self.lock)     # the watcher waits here when idle
        self.blocked = False
        self.watcher = None
        self.parked = False                # the watcher waits for something to watch
        self.loops = set()                 # _ReadLoops whose reading thread may run a call itself
        self.owners = {}                   # owner -> _Share

    def submit(self, job, owner=None, most: int = None) -> None:
        """Queue ``job``; an ``owner``'s job waits its own turn while ``most`` of its jobs hold workers."""
        if owner is not None:
            with self.lock:
                share = self.owners.get(owner)
                if share is None:
                    share = self.owners[owner] = _Share(max(1, most or self.size))
                if share.places >= share.most:
                    share.line.append(job)
                    return
                share.places += 1
            self._queue(job, owner, block=False)
            return
        self._queue(job)

    def _give_place(self, owner):
        """(Under ``lock``.) One of ``owner``'s places is free: its next job, if one waits its turn, or None."""
        share = self.owners[owner]
        share.places -= 1
        if share.line and share.places < share.most:
            share.places += 1
            return share.line.popleft()
        if not share.places and not share.resting:
            del self.owners[owner]
        return None

    def rest(self, owner) -> bool:
        """This worker's coroutine awaits: its place goes to the next job. False: it keeps it (too many rest)."""
        with self.lock:
            if self.resting >= self.REST_FACTOR * self.size:
                return False
            self.resting += 1
            following = None
            if owner is not None:
                self.owners[owner].resting += 1
                following = self._give_place(owner)
            if self.waiting > self.idle and self._room():
                self._start_worker()                   # what waits runs now, not at the watcher's next look
        if following is not None:
            self._queue(following, owner, block=False)
        return True

    def wake(self, owner) -> None:
        """This worker's coroutine runs again: it holds a place again, even over the limits, until it ends."""
        with self.lock:
            self.resting -= 1
            if owner is not None:
                share = self.owners[owner]
                share.resting -= 1
                share.places += 1

    def _queue(self, job, owner=None, block: bool = True) -> None:
        with self.lock:
            while block and self.waiting >= self.limit:
                self.blocked = True
                self.room.wait()
            self.waiting += 1
            if not self.threads:
                self._start_worker()
            elif self.waiting > self.idle and self._room():
                self._wake_watcher()              # some job will have to wait: watch it
        self.jobs.put((job, owner))

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
            self.jobs.put((job, _READER))    # under the lock: no submit() can slip in ahead of it
        return True

    def has_room(self) -> bool:
        """Whether one more handler may run now without exceeding ``size`` (read without the lock)."""
        return len(self.threads) - self.idle - self.readers - self.resting + self.lent < self.size

    def _room(self) -> bool:
        return len(self.threads) - self.readers - self.resting + self.lent < self.size

    def _start_worker(self) -> None:
        thread = threading.Thread(target=self._work, name="minimcp-worker-%d" % len(self.threads))
        thread.daemon = True
        self.threads.append(thread)
        thread.start()

    def _watch(self) -> None:
        """Every STALL seconds while there is something to watch, keep things moving.

        Queued jobs that made no progress get another worker (every worker is stuck in
        a slow handler), and at each stall while that backlog lasts twice as many as the
        time before: a thousand slow calls have their workers within a few dozen periods. A connection's reading thread that has run the same call for
        a whole period passes reading on (``_ReadLoop.step_aside``). After a quiet
        while it parks, so an idle server has no thread waking up.
        """
        quiet, burst = 0, 1                # workers to add at the next stall: doubles while the backlog lasts
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
                if self.waiting <= self.idle:
                    burst = 1
                elif self.taken == before:        # every worker held: as many more as last time, twice
                    for _ in range(min(burst, self.waiting - self.idle)):
                        if self._room():
                            self._start_worker()
                    burst *= 2

    def _work(self) -> None:
        while True:
            with self.lock:
                self.idle += 1
            job, owner = self.jobs.get()
            with self.lock:
                self.idle -= 1
                self.waiting -= 1
                self.taken += 1
                if self.blocked:
                    self.blocked = False
                    self.room.notify_all()
            # A reading thread (hand_off) holds no place to give while it runs a call itself.
            _WORKER_LOCAL.place = None if owner is _READER else (self, owner)
            try:
                job()
            except BaseException:           # a job never kills its worker
                _logger().exception("minimcp worker job failed")
            finally:
                _WORKER_LOCAL.place = None
            if self._finished(owner):
                return

    def _finished(self, owner) -> bool:
        """A job ended: its owner's next job takes its place. True: this worker is over ``size`` and ends."""
        following = None
        with self.lock:
            if owner is not None and owner is not _READER:
                following = self._give_place(owner)
            surplus = len(self.threads) - self.readers - self.resting + self.lent > self.size
            if surplus:
                self.threads.remove(threading.current_thread())
        if following is not None:                 # behind what others queued meanwhile: first come, first served
            self._queue(following, owner, block=False)
        if surplus:
            loop = getattr(_WORKER_LOCAL, "loop", None)
            if loop is not None:                  # its selector and wake-up pipe: three descriptors
                loop.close()
        return surplus


class _Share:
    """One owner's part of the pool: the places its jobs hold, the most they may, its jobs waiting their turn."""
    __slots__ = ("places", "most", "line", "resting")

    def __init__(self, most: int) -> None:
        self.places, self.most, self.line, self.resting = 0, most, collections.deque(), 0


_READER = object()                        # the "owner" of a job handed off to read a connection


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
    loop = _worker_loop()
    if loop.is_running():        # an async tool reading an async resource: this thread's loop waits on us
        return _run_beside(coroutine)
    task = loop.create_task(coroutine)
    cancel = lambda: loop.call_soon_threadsafe(task.cancel)   # noqa: E731
    call.on_cancel.append(cancel)
    if call.cancelled:           # cancelled before the line above (at EOF, say, before it started)
        task.cancel()
    try:
        return loop.run_until_complete(task)
    except asyncio.CancelledError:
        raise Cancelled(call.cancel_reason or "cancelled") from None
    finally:
        call.on_cancel.remove(cancel)


def _worker_loop():
    """This thread's event loop (made on first use), whose waits let a pool worker rest.

    Each handler keeps a loop and a thread of its own, so its ``contextvars``, its
    ``asyncio.get_running_loop()`` and any blocking call it makes are its alone, as
    ever. While the loop waits in its selector (every coroutine awaits), the worker
    gives its place to another job (``_WorkerPool.rest``). The loop's ``_selector`` is
    the one attribute of asyncio's own loops (selector and proactor alike, 3.8-3.13)
    this relies on; a loop without it (an event loop policy's own) never rests.
    """
    loop = getattr(_WORKER_LOCAL, "loop", None)
    if loop is not None:
        return loop
    import asyncio
    loop = _WORKER_LOCAL.loop = asyncio.new_event_loop()
    selector = getattr(loop, "_selector", None)
    if selector is None or not callable(getattr(selector, "select", None)):
        return loop
    wait = selector.select

    def select(timeout=None):
        place = getattr(_WORKER_LOCAL, "place", None)
        if place is None or (timeout is not None and timeout <= 0) or not place[0].rest(place[1]):
            return wait(timeout)         # (a timeout of 0: callbacks are ready, nothing waits)
        try:
            return wait(timeout)
        finally:
            place[0].wake(place[1])
    selector.select = select
    return loop


def _run_beside(coroutine):
    """Run a coroutine to its end on a loop of its own, on a thread of its own, while this
    thread (whose loop is running the handler that asked) waits for it."""
    import asyncio
    outcome = {}

    def run() -> None:
        try:
            outcome["value"] = asyncio.run(coroutine)
        except BaseException as exc:           # handed to the caller, whatever it is
            outcome["error"] = exc
    helper = threading.Thread(target=run, name="minimcp-nested-handler", daemon=True)
    helper.start()
    helper.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


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
        if tool is None:                            # an error in every dialect (the SDKs answer isError)
            raise _invalid_params(self.dialect.unknown_tool.format(name=name), {"name": name})
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
            bound = tool.bind(arguments)          # a value its annotation refuses (pydantic's AnyUrl) is invalid too
        except ValueError as exc:
            if self.dialect.argument_error is not None:
                wording = self.dialect.argument_wording
                error = (wording(tool, sent, self) if wording is not None else None) or exc
                return _tool_error(self.dialect.argument_error.format(name=name, error=error))
            if not call.rev.argument_errors_as_results:
                raise _invalid_params("Invalid arguments for tool %s: %s" % (name, exc)) from None
            return _tool_error("Invalid arguments for tool %s: %s" % (name, exc))
        if ttl is False:
            return self._execute_tool(call, tool, bound)
        call.session.run_task(call, ttl, lambda target: self._execute_tool(target, tool, bound),
                              deferred=tool.ask_first and call.rev.questions == "rounds")
        return None

    def _execute_tool(self, call: _Call, tool: Tool, bound: dict) -> dict:
        """Run a tool on its valid arguments, bound (Tool.bind); failures become isError results."""
        timer = None
        if tool.timeout:
            timer = threading.Timer(tool.timeout, self._time_out, (call, tool))
            timer.daemon = True
            timer.start()
        try:
            result = tool.to_result(self._invoke(call, tool, bound))
        except MCPError as exc:                # (Cancelled and _NeedInput are no Exception: they pass)
            if not self.dialect.mcp_error_fails or exc.code == MISSING_CLIENT_CAPABILITY:
                raise
            return self._tool_failed(tool, exc)
        except Exception as exc:
            return self._tool_failed(tool, exc)
        finally:
            if timer is not None:
                timer.cancel()
        return _shape_tool_result(result, call.rev.version)

    def _tool_failed(self, tool: Tool, exc: Exception) -> dict:
        """The isError result of a tool that raised, in its dialect's words."""
        _log_tool_failure(tool.name, exc)
        told = isinstance(exc, self.dialect.told)         # the SDK's ToolError: its message is for the model
        text = self.dialect.tool_error if told else _MASKED_FAILURE if self.mask_errors else self.dialect.tool_failure
        error = exc.message if isinstance(exc, MCPError) else str(exc) or type(exc).__name__
        return _tool_error(text.format(name=tool.name, error=error))

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
            text, with_data = self.dialect.missing_resource
            raise MCPError(call.rev.missing_resource, text.format(uri=uri), {"uri": uri} if with_data else None)
        try:
            value = self._invoke(call, record, record.arguments_for(variables))
        except (MCPError, FileNotFoundError, IsADirectoryError, PermissionError):
            raise                          # (the last three: "no such item", -32002, below)
        except Exception as exc:           # worded as the dialect's SDK words it, if it has a rule
            said = self.dialect.resource_failure and self.dialect.resource_failure(exc, uri, record.is_template)
            if said is None:
                raise
            raise MCPError(INTERNAL_ERROR, said) from None
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
            text, with_data = self.dialect.unknown_prompt
            raise _invalid_params(text.format(name=name), {"name": name} if with_data else None)
        arguments = call.params.get("arguments") or {}
        if not isinstance(arguments, dict) or not all(isinstance(v, str) for v in arguments.values()):
            raise _invalid_params("Invalid params: arguments must be an object of strings")
        bound = prompt.bind(arguments)
        try:
            messages = prompt.to_messages(self._invoke(call, prompt, bound))
        except MCPError:
            raise
        except Exception as exc:           # worded as the dialect's SDK words it, if it has a rule
            said = self.dialect.prompt_failure and self.dialect.prompt_failure(exc, name)
            if said is None:
                raise
            raise MCPError(INTERNAL_ERROR, said) from None
        version = call.rev.version
        result = {"messages": [dict(m, content=_trim_block(m["content"], version)) for m in messages]}
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
            completion); they start only as slow handlers keep the others busy. An ``async def``
            handler's thread, while its coroutine awaits, leaves its place to the next call.
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
        dialect: whose way of showing the server to clients and models: "minimcp" (the default,
            as the README documents it: a tool's description is its docstring's summary, ``Args:``
            describe its parameters, a failing tool's message reaches the model, ``-> str`` is sent
            once), or an SDK's, rows of minimcp_sdk.py: "mcp2" (mcp 2.3.0), "mcp1" (mcp 1.x) or
            "fastmcp" (README, "Dialects"). The SDK's classes (``FastMCP``, and ``MCPServer``
            imported from ``mcp``) choose their own.
        mask_errors: a failing tool's exception message stays in the log, and the model reads
            only "Error executing tool NAME" (for servers whose errors may carry secrets).
        lifespan: ``fn(server)`` returning a context manager (sync or async), entered once per
            process before the first connection is served and exited at shutdown; what it
            yields is ``ctx.request_context.lifespan_context``.
        host, port: where run(transport="http") serves, by default.
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
                 max_output_size: int = DEFAULT_MAX_OUTPUT_SIZE, dialect: str = "minimcp",
                 mask_errors: bool = False, lifespan=None,
                 host: str = "127.0.0.1", port: int = 8000, resource_metadata: dict = None) -> None:
        if cache_scope not in ("public", "private"):
            raise ValueError("cache_scope must be 'public' or 'private'")
        try:
            _provided(dialect, "dialect %r")      # the SDK's dialects are minimcp_sdk.py's rows
        except _NoComponent as missing:
            raise ValueError(str(missing)) from None
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
        self.max_output_size, self.mask_errors = max_output_size, mask_errors
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
        for key in options:
            try:
                _provided(key, "tool() keyword %s")
            except _NoComponent as missing:
                raise TypeError(str(missing)) from None
        plugged = {key: options.pop(key) for key in list(options) if key in _TOOL_OPTIONS}
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
            return bool(self._tools)
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

        The same in every dialect: a capability is a promise about what the server does
        (answers these methods, sends these notifications), which the spec fixes, so no
        dialect may declare one the server does not keep, nor leave one out that it does.
        """
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
    def _submit(self, job, owner=None, most: int = None) -> None:
        """Run ``job`` on the worker pool (shared by every session), starting it on first use.

        ``owner`` and ``most``: a transport serving many clients holds each to ``most`` workers.
        """
        with self._lock:
            if self._pool is None:
                self._pool = _WorkerPool(self.workers, self.queue_size)
        self._pool.submit(job, owner, most)

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
            session.stop(answer_unfinished=True)

    def __getattr__(self, name: str):
        """The methods and properties components plug in (``add_skills``, ``wsgi``, ...)."""
        plugged = _PLUGGED.get(name)
        if plugged is None:
            try:
                _provided(name, "MCPServer.%s")
            except _NoComponent as missing:      # (AttributeError: hasattr(app, "wsgi") is then False)
                raise AttributeError(str(missing)) from None
            plugged = _PLUGGED.get(name)
        if plugged is not None:
            return plugged.__get__(self, type(self))
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
            try:
                _provided(transport, "transport %r")
            except _NoComponent as missing:
                raise ValueError(str(missing)) from None
        if transport != "stdio" and transport not in _TRANSPORTS:
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


# Running minimcp.py: bundle, and the command line (minimcp_cli.py) for the rest ####
#
# ``python3 minimcp.py bundle -o FILE`` writes this file and its components as one: the
# core, then each component's sections (its file without its header: the imports and the
# version check above its first banner), then the core's main block, each part between
# "# ====" lines. Saved as minimcp.py, the bundle replaces the core and those files; run
# as a script, it bundles from its own parts as well as from the files beside it.

_PART = "# ==== "                   # how a bundle brackets its parts (a banner ends in ####)


def _bundle_parts(path: str) -> tuple:
    """(the core without its main block, {component: (its sections, the components it imports)},
    the core's main block): minimcp.py at ``path``, a bundle's parts, and the files beside it."""
    import re
    with open(path, encoding="utf-8") as source:
        text = source.read()
    marks = list(re.finditer(r"^%s(minimcp\w*\.py)\b(?:, which imports ([a-z ]+))?.*\n" % _PART, text, flags=re.M))
    end = lambda part: re.sub(r"\n*%send of .*\n*\Z" % _PART, "\n", part)
    parts = {}
    if marks:                                    # a bundle: the core first, its main block last
        pieces = [text[a.end():b.start()] for a, b in zip(marks, marks[1:])] + [text[marks[-1].end():]]
        core, main = text[:text.index("\n") + 1] + end(pieces[0]), end(pieces[-1])
        for mark, piece in zip(marks[1:-1], pieces[1:-1]):
            parts[mark.group(1)[len("minimcp_"):-3]] = (end(piece), (mark.group(2) or "").split())
    else:
        cut = text.rindex('\nif __name__ == "__main__":')
        core, main = text[:cut + 1], text[cut + 1:]
    folder = os.path.dirname(os.path.abspath(path))
    for component in _COMPONENT_FILES:
        filename = os.path.join(folder, "minimcp_%s.py" % component)
        if component in parts or not os.path.isfile(filename):
            continue
        with open(filename, encoding="utf-8") as source:
            whole = source.read()
        banner = re.search(r"^# .*####[ \t]*$", whole, flags=re.M)      # the header ends at the first banner
        header, body = whole[:banner.start()], whole[banner.start():]
        body = re.sub(r'\nif __name__ == "__main__":\n(?:[ \t]+.*\n|\n)*\Z', "\n", body)   # (run as a script)
        version = re.search(r'^__version__ = "([^"]*)"', header, flags=re.M)
        if version is None or version.group(1) != __version__:
            raise SystemExit("minimcp: bundle: %s is not minimcp %s's" % (filename, __version__))
        parts[component] = (body, re.findall(r"^from minimcp_([a-z]+) import", header, flags=re.M))
    return core, parts, main


def _bundle(path: str, chosen: list = None) -> str:
    """One file: the core at ``path`` and the components ``chosen`` (None: all there are),
    with those they import."""
    core, parts, main = _bundle_parts(path)
    wanted = [c for c in _COMPONENT_FILES if c in parts] if chosen is None else list(chosen)
    for component in wanted:                     # (the list grows as it is read)
        for need in parts[component][1] if component in parts else ():
            if need not in wanted:
                sys.stderr.write("minimcp: bundle: %s imports %s, which is bundled too\n" % (component, need))
                wanted.append(need)
    missing = ["minimcp_%s.py" % c for c in wanted if c not in parts]
    if missing:
        raise SystemExit("minimcp: bundle: %s not beside %s" % (" and ".join(missing), path))
    included = [c for c in _COMPONENT_FILES if c in wanted]      # the table's order: imported ones first
    shebang, core = core.split("\n", 1)
    out = [shebang, "\n%sminimcp %s, bundled: minimcp.py (the core) with %s, written by\n" % (
        _PART, __version__, ", ".join("minimcp_%s.py" % c for c in included) or "no component"),
        "# `python3 minimcp.py bundle`. Each part is between its \"# ====\" lines; saved as minimcp.py,\n"
        "# this file replaces the core and those files.\n", "%sminimcp.py\n" % _PART, core.rstrip("\n"),
        "\n%send of minimcp.py, but for its main block (last)\n\n\n" % _PART]
    for component in included:
        body, needs = parts[component]
        out += ["%sminimcp_%s.py%s\n" % (_PART, component, ", which imports " + " ".join(needs) if needs else ""),
                body.rstrip("\n"), "\n\n%send of minimcp_%s.py\n\n\n" % (_PART, component)]
    out += ["%sminimcp.py, its main block\n" % _PART, main.lstrip("\n").rstrip("\n"), "\n"]
    return "".join(out)


def _bundle_command(args: list) -> int:
    """``bundle -o FILE [--with NAME,...]``: write the core and its components as one file."""
    usage = "minimcp: usage: bundle -o FILE [--with NAME,...] (NAME: %s)" % ", ".join(_COMPONENT_FILES)
    options = dict(zip(args[::2], args[1::2]))
    if len(args) % 2 or set(options) - {"-o", "--with"} or "-o" not in options:
        raise SystemExit(usage)
    chosen = None
    if "--with" in options:
        chosen = [name.strip() for name in options["--with"].split(",") if name.strip()]
        unknown = [name for name in chosen if name not in _COMPONENT_FILES]
        if unknown:
            raise SystemExit("minimcp: bundle: no component %s (there are: %s)"
                             % (", ".join(unknown), ", ".join(_COMPONENT_FILES)))
    text = _bundle(os.path.abspath(__file__), chosen)
    with open(options["-o"], "w", encoding="utf-8", newline="\n") as out:
        out.write(text)
    sys.stderr.write("minimcp: wrote %s (%d lines)\n" % (options["-o"], text.count("\n")))
    return 0


def _main(argv: list) -> int:
    """``python3 minimcp.py COMMAND``: bundle here, any other command in minimcp_cli.py."""
    if argv[:1] == ["bundle"]:
        return _bundle_command(argv[1:])
    try:
        command_line = _component(_PROVIDED_BY["main"], "the command line (python3 minimcp.py %s)"
                                  % (argv[:1] or ["COMMAND"])[0])
    except _NoComponent as missing:
        sys.stderr.write("minimcp: %s\n" % missing)
        return 2
    return command_line.main(argv)


if __name__ == "__main__":
    # Components and the scripts "serve" loads import minimcp: let them find this very module.
    sys.modules.setdefault("minimcp", sys.modules[__name__])
    try:
        sys.exit(_main(sys.argv[1:]))
    except BrokenPipeError:                  # e.g. piped into head: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        sys.exit(1)
