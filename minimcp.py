#!/usr/bin/env python3
"""minimcp: turn any Python script into a Model Context Protocol server over stdio.

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
``python3 minimcp.py --help`` lists the command-line tools (inspect, call, ...).
"""

import os
import sys
import threading
import time


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
    "EmbeddedResource", "TestClient", "validate", "main", "PROTOCOL_VERSIONS",
    "LATEST_PROTOCOL_VERSION", "__version__",
]


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


class _NeedInput(BaseException):
    """Unwinds a 2026-07-28 handler that asked the client something not yet answered."""

    def __init__(self, method: str, params: dict) -> None:
        super().__init__(method)
        self.method = method
        self.params = params


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
    special = _special_schema(hint)
    if special is not None:
        return special
    schema = _PRIMITIVE_SCHEMAS.get(hint) if isinstance(hint, type) else None
    if schema is not None:
        return dict(schema)
    if _is_enum(hint):
        values = [member.value for member in hint]
        return _enum_schema(values)
    if hint in seen:
        raise SchemaError("recursive type %r is not supported" % (hint,))
    if _is_typeddict(hint):
        hints = _class_hints(hint)
        required = getattr(hint, "__required_keys__", None)
        if required is None:
            required = set(hints) if hint.__total__ else set()
        properties = {k: _schema_for(v, _class_namespace(hint), seen + (hint,)) for k, v in hints.items()}
        schema = {"type": "object", "properties": properties}
        ordered = [k for k in hints if k in required]
        if ordered:
            schema["required"] = ordered
        return schema
    if _is_dataclass(hint):
        properties, required = {}, []
        hints = _class_hints(hint)
        for name, field in hint.__dataclass_fields__.items():
            if getattr(field, "_field_type", None) is not None and \
                    getattr(field._field_type, "name", "") != "_FIELD":
                continue                            # ClassVar / InitVar pseudo-fields
            prop = _schema_for(hints.get(name, field.type), _class_namespace(hint), seen + (hint,))
            missing = type(field.default).__name__ == "_MISSING_TYPE" and \
                type(field.default_factory).__name__ == "_MISSING_TYPE"
            if missing:
                required.append(name)
            elif type(field.default).__name__ != "_MISSING_TYPE":
                _add_default(prop, field.default)
            properties[name] = prop
        schema = {"type": "object", "properties": properties}
        if required:
            schema["required"] = required
        return schema
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
    if hint is getattr(sys.modules.get("typing"), "Any", object()):
        return {}
    if origin == "union" or name == "Union" or repr(origin) == "typing.Union":
        options = [_schema_for(arg, namespace, seen) for arg in args]
        return {"anyOf": options}
    if name == "Literal" or repr(origin) == "typing.Literal":
        return _enum_schema(list(args))
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
    if origin is not None and isinstance(origin, type) and origin in _PRIMITIVE_SCHEMAS:
        return dict(_PRIMITIVE_SCHEMAS[origin])
    if type(hint).__name__ == "TypeVar" or repr(hint) in ("typing.Any", "<class 'object'>"):
        return {}
    if hint is object:
        return {}
    raise SchemaError("unsupported annotation %r" % (hint,))


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


def _json_type(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


_ANNOTATION_KEYWORDS = frozenset(["type", "description", "default", "title", "examples", "format",
                                  "$comment", "$schema", "deprecated", "readOnly", "writeOnly"])


def _type_matches(value, expected: str) -> bool:
    if expected == "string":
        return isinstance(value, str)
    if expected == "integer":
        return (isinstance(value, int) and not isinstance(value, bool)) or \
            (isinstance(value, float) and value.is_integer())
    if expected == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return _json_type(value) == expected


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
        if len(value) < schema.get("minLength", 0):
            raise ValueError("%s: shorter than %d characters" % (path, schema["minLength"]))
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            raise ValueError("%s: longer than %d characters" % (path, schema["maxLength"]))
        if "pattern" in schema:
            import re
            if not re.search(schema["pattern"], value):
                raise ValueError("%s: does not match pattern %s" % (path, schema["pattern"]))
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        _validate_number(value, schema, path)
    for keyword in ("allOf", "anyOf", "oneOf"):
        options = schema.get(keyword)
        if not options:
            continue
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
    if "not" in schema:
        try:
            validate(value, schema["not"], path, root)
        except ValueError:
            pass
        else:
            raise ValueError("%s: matches a form that is not allowed" % path)


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
        if hint in (tuple, set, frozenset) and isinstance(value, list):
            return hint(value)
        return value
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
    indent = min((len(l) - len(l.lstrip()) for l in lines[1:] if l.strip()), default=0)
    cleaned = [lines[0].strip()] + [l[indent:].rstrip() for l in lines[1:]]
    while cleaned and not cleaned[-1]:
        cleaned.pop()
    while cleaned and not cleaned[0]:
        cleaned.pop(0)
    return "\n".join(cleaned)


_DOC_SECTIONS = ("args:", "arguments:", "parameters:", "params:", "returns:", "return:",
                 "raises:", "yields:", "examples:", "example:", "note:", "notes:")


def _parse_docstring(doc) -> tuple:
    """Split a Google-style docstring into (description, {arg: description})."""
    text = _clean_doc(doc)
    if not text:
        return "", {}
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
        self.fn = fn
        target = fn
        if not hasattr(target, "__code__") and hasattr(target, "__call__") \
                and not isinstance(target, type):
            target = target.__call__
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
        for name, annotation, _ in self.params:
            if annotation is _EMPTY:
                continue
            if annotation is Context or (isinstance(annotation, str) and
                                         annotation.split(".")[-1].strip("'\"") == "Context"):
                return name
            try:
                if isinstance(self.resolve(annotation), type) and \
                        issubclass(self.resolve(annotation), Context):
                    return name
            except SchemaError:
                continue
        return None


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
    schema = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return _hoist_defs(schema)


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
        found = _FORMATS.get((klass.__module__, klass.__name__))
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
    if issubclass(hint, (str, int, float, bool, list, dict)) and hint is not bytes:
        return None
    if hint.__module__ == "decimal" and hint.__name__ == "Decimal":
        return {"anyOf": [{"type": "number"}, {"type": "string"}]}
    found = _value_format(hint)
    return None if found is None else {"type": "string", "format": found}


def _hoist_defs(schema: dict) -> dict:
    """Move every nested ``$defs`` to the root, where ``#/$defs/...`` references point."""
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


def _from_iso(klass, value: str):
    """datetime/date/time from ISO 8601, accepting the trailing Z that fromisoformat refuses before 3.11."""
    if value.endswith(("Z", "z")):
        value = value[:-1] + "+00:00"
    return klass.fromisoformat(value)


def _coerce_special(value, hint):
    """Convert validated JSON to a pydantic model or a standard value type; _EMPTY if hint is neither."""
    if not isinstance(hint, type):
        metadata = getattr(hint, "__metadata__", None)
        if metadata and any(_is_field_info(m) for m in metadata):
            return _pydantic().TypeAdapter(hint).validate_python(value)    # constraints and conversion
        return _EMPTY
    if _is_pydantic_model(hint):
        return value if isinstance(value, hint) else hint.model_validate(value)
    if issubclass(hint, (str, bool, int, float, list, dict)) and hint is not bytes:
        return _EMPTY
    if hint is bytes:
        return value.encode("utf-8") if isinstance(value, str) else value   # pydantic's reading of bytes
    found = _value_format(hint)
    if found in ("date-time", "date", "time"):
        return _from_iso(hint, value)
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
    if kind in ("date-time", "time"):
        text = value.isoformat()
        return text[:-6] + "Z" if text.endswith("+00:00") else text
    if kind == "date":
        return value.isoformat()
    if kind == "duration":
        return _format_duration(value)
    if kind in ("uuid", "path") or type(value).__name__ == "Decimal":
        return str(value)
    return _EMPTY


# Registry: content helpers, tools, resources, templates, prompts #############
#
# Records here know nothing about JSON-RPC: they turn a Python function into the
# MCP description of a tool/resource/prompt and turn its return value into MCP
# content, always in the newest shape. Older revisions are served by trimming
# (see _REVISION_FIELDS in the server section).

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


def _to_json_text(value) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, default=_json_default)


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


def _to_plain_json(value):
    """Round-trip a return value to plain JSON types (dataclasses become dicts)."""
    return json.loads(_to_json_text(value))


def _is_content_block(value) -> bool:
    return isinstance(value, dict) and value.get("type") in _CONTENT_TYPES


def _to_content(value) -> list:
    """Turn a handler's return value into a list of content blocks."""
    if value is None:
        return []
    if isinstance(value, str):
        return [{"type": "text", "text": value}]
    if hasattr(value, "to_content"):
        return [value.to_content()]
    if _is_content_block(value):
        return [value]
    if isinstance(value, (list, tuple)) and any(
            isinstance(v, str) or hasattr(v, "to_content") or _is_content_block(v) for v in value):
        blocks = []
        for item in value:
            blocks.extend(_to_content(item) if item is not None else [])
        return blocks
    return [{"type": "text", "text": _to_json_text(value)}]


def _result_content(value) -> list:
    """A tool result's content blocks, as the official SDK writes them.

    Strings are text; media and content blocks are themselves; lists and tuples
    are unrolled item by item; anything else is JSON indented by two spaces.
    """
    if value is None:
        return []
    if isinstance(value, str):
        return [{"type": "text", "text": value}]
    if hasattr(value, "to_content") and not isinstance(value, type):
        return [value.to_content()]
    if _is_content_block(value):
        return [value]
    if isinstance(value, (list, tuple)):
        return [block for item in value for block in _result_content(item)]
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, indent=2, default=_json_default)
    return [{"type": "text", "text": text}]


def _is_content_class(hint) -> bool:
    """Whether a return annotation names content (media, links, blocks), bare, in a list or in a union."""
    if isinstance(hint, type):
        return issubclass(hint, (_Media, ResourceLink, EmbeddedResource)) or hasattr(hint, "to_content")
    origin, args, _ = _typing_parts(hint)
    if origin == "annotated":
        return _is_content_class(args[0])
    name = getattr(hint, "_name", None) or ""
    if origin in (list, tuple) or origin == "union" or name in ("List", "Tuple", "Sequence", "Union", "Optional") \
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
                 timeout=None, task_support="forbidden") -> None:
        name = fn.__name__ if name is None else name
        if not isinstance(name, str) or not (1 <= len(name) <= 128) or not set(name) <= _TOOL_NAME_CHARS:
            raise ValueError("invalid tool name %r: use 1-128 characters of A-Z a-z 0-9 _ - ." % name)
        if task_support not in ("forbidden", "optional", "required"):
            raise ValueError("task_support must be 'forbidden', 'optional' or 'required'")
        self.fn, self.name, self.title, self.icons, self.meta = fn, name, title, icons, meta
        self.annotations, self.timeout, self.task_support = annotations, timeout, task_support
        self.signature = signature = _Signature(fn)
        summary, arg_docs = _parse_docstring(getattr(fn, "__doc__", None))
        self.description = description if description is not None else summary
        self.context_param = signature.context_param()
        owner = "tool %r (function %s)" % (name, getattr(fn, "__qualname__", fn))
        self.input_schema = input_schema or _input_schema(
            signature, {self.context_param}, arg_docs, owner)
        if self.input_schema.get("type") != "object":
            raise ValueError("%s: input_schema must have type 'object'" % owner)
        self.hints = {n: a for n, a, _ in signature.params}
        self.wrap_result = False
        self.output_schema = output_schema
        returns = signature.returns
        self.attributes = None           # a plain annotated class: structuredContent from its attributes
        if output_schema is None and structured_output is not False:
            try:
                resolved = signature.resolve(returns) if returns is not _EMPTY else _EMPTY
            except SchemaError:
                resolved = _EMPTY
            try:
                if structured_output:
                    schema = _schema_for(resolved, signature.namespace) if resolved is not _EMPTY else {}
                    self.wrap_result = schema.get("type") != "object"   # structuredContent must be an object
                else:
                    schema, self.wrap_result, self.attributes = _output_policy(resolved, signature.namespace)
            except SchemaError as exc:
                raise SchemaError("%s, return annotation: %s" % (owner, exc)) from None
            if schema is not None:
                if self.wrap_result:
                    schema = {"type": "object", "properties": {"result": schema}, "required": ["result"]}
                self.output_schema = _inline_root(_hoist_defs(schema))

    def describe(self) -> dict:
        """The MCP Tool object (newest shape)."""
        tool = {"name": self.name}
        if self.title:
            tool["title"] = self.title
        if self.description:
            tool["description"] = self.description
        tool["inputSchema"] = self.input_schema
        if self.output_schema is not None:
            tool["outputSchema"] = self.output_schema
        if self.annotations:
            tool["annotations"] = dict(self.annotations)
        if self.icons:
            tool["icons"] = self.icons
        if self.task_support != "forbidden":
            tool["execution"] = {"taskSupport": self.task_support}
        if self.meta:
            tool["_meta"] = self.meta
        return tool

    def bind(self, arguments: dict) -> dict:
        """Convert validated JSON arguments to the function's keyword arguments."""
        namespace = self.signature.namespace
        bound = {k: _coerce(v, self.hints[k], namespace) for k, v in arguments.items() if k in self.hints}
        for name, _, default in self.signature.params:
            if name not in bound and _is_field_info(default):       # x: int = Field(3): pass 3, not the Field
                value = _field_default(default)
                if value is not _EMPTY:
                    bound[name] = value
        return bound

    def to_result(self, value) -> dict:
        """Turn the function's return value into a CallToolResult (newest shape)."""
        if isinstance(value, dict) and isinstance(value.get("content"), list) and \
                set(value) <= {"content", "structuredContent", "isError", "_meta"}:
            return value                                   # an explicit CallToolResult
        if hasattr(value, "to_result") and not isinstance(value, type):
            return value.to_result()                       # mcp.types.CallToolResult (SDK aliases)
        if self.attributes is not None and not isinstance(value, dict):
            value = {k: getattr(value, k) for k in self.attributes if hasattr(value, k)}
        content = _result_content(value)
        if self.output_schema is None:
            return {"content": content}
        plain = _to_plain_json(value)
        structured = {"result": plain} if self.wrap_result else plain
        try:
            validate(structured, self.output_schema, "result")
        except ValueError as exc:
            raise ValueError("tool %r returned a value that does not match its outputSchema: %s"
                             % (self.name, exc)) from None
        return {"content": content, "structuredContent": structured}


def _check_name(kind: str, name) -> str:
    if not isinstance(name, str) or not name:
        raise ValueError("%s name must be a non-empty string" % kind)
    return name


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
            names = [n.strip() for n in expression[len(operator):].split(",")]
            for raw in names:
                explode = raw.endswith("*")
                name = raw.rstrip("*").split(":")[0]
                if not name.replace("_", "a").replace(".", "a").isalnum():
                    raise ValueError("invalid variable %r in URI template %r" % (raw, template))
                if name in self.variables:
                    raise ValueError("variable %r repeated in URI template %r" % (name, template))
                self.variables.append(name)
                if explode:
                    self.exploded.add(name)
            if operator in ("?", "&"):
                self.query_vars.extend(n.rstrip("*") for n in names)
                pattern.append(r"(?:[?&](?P<_q%d>[^#]*))?" % len(pattern))
                continue
            for index, raw in enumerate(names):
                name = raw.rstrip("*").split(":")[0]
                lead = {"": ",", "+": ",", "#": ",", "/": "/", ".": r"\."}.get(operator, ",")
                prefix = {"#": "#", "/": "/", ".": r"\."}.get(operator, "") if index == 0 else lead
                if operator == "/" and raw.endswith("*"):
                    pattern.append(r"(?P<%s>(?:/[^/?#]*)*)" % name)
                    continue
                chars = r"[^?#]*?" if operator in ("+", "#") else r"[^/?#,&]*"
                pattern.append("%s(?P<%s>%s)" % (prefix, name, chars))
        pattern.append(re.escape(template[pos:]))
        self.regex = re.compile("^" + "".join(pattern) + "$")

    def match(self, uri: str):
        """Return the variables of ``uri`` as a dict, or None if it does not match."""
        from urllib.parse import unquote, parse_qsl
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
                values[name] = [unquote(part) for part in value.split("/")[1:]]
            else:
                values[name] = unquote(value)
        return values


def _guess_mime(uri: str, default: str) -> str:
    import mimetypes
    # Guess from the last path segment alone: Python 3.13 parses a whole URI and
    # would take "index.html" in "page://index.html" for a host name.
    name = uri.split("?")[0].split("#")[0].rsplit("/", 1)[-1]
    return mimetypes.guess_type(name, strict=False)[0] or default


class Resource:
    """A registered resource or resource template. Built by ``MCPServer.resource``."""

    def __init__(self, uri, fn, name=None, title=None, description=None, mime_type=None, size=None,
                 annotations=None, icons=None, meta=None, ttl_ms=None, cache_scope=None,
                 completions=None) -> None:
        if not isinstance(uri, str) or not uri:
            raise ValueError("resource URI must be a non-empty string")
        self.uri, self.fn, self.title, self.mime_type, self.size = uri, fn, title, mime_type, size
        self.annotations, self.icons, self.meta = annotations, icons, meta
        self.ttl_ms, self.cache_scope = ttl_ms, cache_scope
        self.name = name or getattr(fn, "__name__", None) or uri
        self.signature = signature = _Signature(fn)
        summary, _ = _parse_docstring(getattr(fn, "__doc__", None))
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
        self.completions = dict(completions or {})
        for name, annotation, _ in params:
            if name not in self.completions and annotation is not _EMPTY:
                values = _enumerated_values(signature, annotation)
                if values:
                    self.completions[name] = values

    def describe(self) -> dict:
        """The MCP Resource or ResourceTemplate object (newest shape)."""
        item = {"uriTemplate": self.uri} if self.is_template else {"uri": self.uri}
        item["name"] = self.name
        for key, value in (("title", self.title), ("description", self.description),
                           ("mimeType", self.mime_type), ("size", None if self.is_template else self.size),
                           ("annotations", self.annotations), ("icons", self.icons), ("_meta", self.meta)):
            if value not in (None, "", {}):
                item[key] = value
        return item

    def arguments_for(self, variables: dict) -> dict:
        """Convert the template variables matched in a URI to the function's arguments."""
        namespace = self.signature.namespace
        arguments = {}
        for name, value in variables.items():
            hint = self.hints.get(name, _EMPTY)
            arguments[name] = _convert_text(value, hint, namespace, "URI variable %r" % name)
        return arguments

    def to_contents(self, uri: str, value) -> list:
        """Turn the function's return value into ReadResourceResult ``contents``."""
        items = value if isinstance(value, list) else [value]          # a list: several contents
        contents = []
        for item in items:
            if isinstance(item, dict) and ("text" in item or "blob" in item):
                entry = dict(item)
                entry.setdefault("uri", uri)
            elif isinstance(item, (bytes, bytearray)):
                entry = {"uri": uri, "mimeType": self.mime_type or _guess_mime(uri, "application/octet-stream"),
                         "blob": _b64(bytes(item))}
            elif isinstance(item, str):
                entry = {"uri": uri, "mimeType": self.mime_type or _guess_mime(uri, "text/plain"), "text": item}
            else:                                              # data: JSON, indented as the SDK does
                entry = {"uri": uri, "mimeType": self.mime_type or "application/json",
                         "text": json.dumps(item, ensure_ascii=False, allow_nan=False, indent=2,
                                            default=_json_default)}
            contents.append(entry)
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


def _enumerated_values(signature: _Signature, annotation) -> list:
    """The values of a Literal or Enum annotation, as strings (for completion)."""
    try:
        hint = signature.resolve(annotation)
        schema = _schema_for(hint, signature.namespace)
    except SchemaError:
        return []
    return [str(v) for v in schema.get("enum", [])]


class Prompt:
    """A registered prompt. Built by ``MCPServer.prompt``."""

    def __init__(self, fn, name=None, title=None, description=None, icons=None, meta=None,
                 completions=None) -> None:
        self.fn = fn
        self.name = _check_name("prompt", name or getattr(fn, "__name__", None))
        self.title, self.icons, self.meta = title, icons, meta
        self.signature = signature = _Signature(fn)
        summary, arg_docs = _parse_docstring(getattr(fn, "__doc__", None))
        self.description = description if description is not None else summary
        self.context_param = signature.context_param()
        self.arguments = []
        self.hints = {}
        self.completions = dict(completions or {})
        for name, annotation, default in signature.params:
            if name == self.context_param:
                continue
            argument = {"name": name}
            if arg_docs.get(name):
                argument["description"] = arg_docs[name]
            argument["required"] = default is _EMPTY
            self.arguments.append(argument)
            self.hints[name] = annotation
            if name not in self.completions and annotation is not _EMPTY:
                values = _enumerated_values(signature, annotation)
                if values:
                    self.completions[name] = values

    def describe(self) -> dict:
        """The MCP Prompt object (newest shape)."""
        item = {"name": self.name}
        for key, value in (("title", self.title), ("description", self.description),
                           ("arguments", self.arguments), ("icons", self.icons), ("_meta", self.meta)):
            if value:
                item[key] = value
        return item

    def bind(self, arguments: dict) -> dict:
        """Check and convert prompts/get arguments (all strings on the wire)."""
        missing = [a["name"] for a in self.arguments if a["required"] and a["name"] not in arguments]
        if missing:
            raise _invalid_params("prompt %r: missing required argument %s"
                                  % (self.name, ", ".join(repr(m) for m in missing)))
        bound = {}
        for name, value in arguments.items():
            if name not in self.hints:
                continue                                   # unknown arguments are ignored
            bound[name] = _convert_text(value, self.hints[name], self.signature.namespace,
                                        "prompt %r argument %r" % (self.name, name))
        return bound

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
            elif item is not None:
                for block in _to_content(item):
                    messages.append({"role": "user", "content": block})
        return messages


# Context: what a handler may do while it runs ################################

class Context:
    """The running request, handed to any handler parameter annotated ``Context``.

    Everything here is synchronous and thread-safe; handlers run on worker threads.
    In the 2026-07-28 revision ``sample``, ``list_roots`` and ``elicit`` become
    input-required round trips: the handler is run again with the client's answers,
    so code before the last question must not have side effects it cannot repeat.
    """

    def __init__(self, server, call) -> None:
        self._server = server
        self._call = call
        self._last_progress = None
        self._questions_asked = 0

    # -- facts about the request ------------------------------------------
    @property
    def request_id(self):
        """The JSON-RPC id of the request being served."""
        return self._call.id

    @property
    def protocol_version(self) -> str:
        """The revision this request is served under."""
        return self._call.version

    @property
    def client_capabilities(self) -> dict:
        """What the client declared (per request in 2026-07-28, at initialize before)."""
        return self._call.client_capabilities

    @property
    def client_info(self) -> dict:
        """The client's self-description (name, version, ...), if it sent one."""
        return self._call.client_info

    @property
    def meta(self) -> dict:
        """The request's ``params._meta`` (trace context keys included)."""
        return self._call.meta

    @property
    def server(self) -> "MCPServer":
        """The server serving this request."""
        return self._server

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
        if message is not None and self._call.version != "2024-11-05":
            params["message"] = message
        self._server._notify_for(self._call, "notifications/progress", params)

    report_progress = progress    # the official SDK's spelling

    def log(self, level: str, data, logger: str = None) -> None:
        """Send a ``notifications/message`` to the client, if its level lets it through."""
        if level not in _LOG_RANK:
            raise ValueError("unknown log level %r; use one of %s" % (level, ", ".join(LOG_LEVELS)))
        threshold = self._call.log_level
        if threshold is None or _LOG_RANK[level] < _LOG_RANK[threshold]:
            return
        params = {"level": level, "data": data}
        if logger is not None:
            params["logger"] = logger
        self._server._notify_for(self._call, "notifications/message", params)

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
               metadata: dict = None, timeout: float = None) -> dict:
        """Ask the client's LLM for a completion (``sampling/createMessage``).

        Args:
            messages: a string (one user message), or a list of strings / SamplingMessage dicts.
            max_tokens: the most tokens to generate.
            system_prompt, temperature, stop_sequences, model_preferences, include_context,
                metadata: passed through as the spec defines them.
            tools, tool_choice: tools the model may call (2025-11-25 on; the client must
                declare ``sampling.tools``).
            timeout: seconds to wait (default: the server's ``request_timeout``).

        Returns:
            The client's CreateMessageResult: role, content, model, stopReason.
        """
        if isinstance(messages, str):
            messages = [messages]
        params = {"messages": [
            {"role": "user", "content": {"type": "text", "text": m}} if isinstance(m, str) else m
            for m in messages], "maxTokens": max_tokens}
        for key, value in (("systemPrompt", system_prompt), ("temperature", temperature),
                           ("stopSequences", stop_sequences), ("modelPreferences", model_preferences),
                           ("includeContext", include_context), ("metadata", metadata)):
            if value is not None:
                params[key] = value
        needs = {"sampling": {}}
        if tools is not None or tool_choice is not None:
            if self._call.version < "2025-11-25":
                raise MCPError(INVALID_PARAMS, "sampling with tools needs protocol 2025-11-25 or later")
            params["tools"] = tools or []
            if tool_choice is not None:
                params["toolChoice"] = tool_choice
            needs = {"sampling": {"tools": {}}}
        return self._server._ask(self, "sampling/createMessage", params, needs, timeout)

    def list_roots(self, timeout: float = None) -> list:
        """Ask the client for its roots (``roots/list``); cached until it says they changed.

        Returns:
            A list of Root dicts (``uri``, optional ``name``).
        """
        cached = self._server._roots_cache if self._call.era == "legacy" else None
        if cached is not None:
            return list(cached)
        result = self._server._ask(self, "roots/list", {}, {"roots": {}}, timeout)
        roots = result.get("roots") if isinstance(result, dict) else None
        if not isinstance(roots, list):
            raise MCPError(INVALID_PARAMS, "the client's roots/list answer has no roots list")
        if self._call.era == "legacy":
            self._server._roots_cache = list(roots)
        return roots

    def elicit(self, message: str, schema, timeout: float = None) -> dict:
        """Ask the user for input through the client (form-mode ``elicitation/create``).

        Args:
            message: what to ask.
            schema: a flat object schema (dict), or a TypedDict / dataclass whose fields
                are str, int, float, bool or Literal/Enum.

        Returns:
            ``{"action": "accept"|"decline"|"cancel", "content": {...}}``.
        """
        if not isinstance(schema, dict):
            schema = _schema_for(schema, _class_namespace(schema))
        for name, prop in (schema.get("properties") or {}).items():
            if prop.get("type") not in ("string", "number", "integer", "boolean") and "enum" not in prop:
                raise ValueError("elicitation field %r must be a string, number, integer, boolean or enum"
                                 % name)
        params = {"message": message, "requestedSchema": schema}
        needs = {"elicitation": {"form": {}}}
        if self._call.version >= "2025-11-25":
            params = dict(params, mode="form")
        return self._server._ask(self, "elicitation/create", params, needs, timeout)

    def elicit_url(self, message: str, url: str, elicitation_id: str = None,
                   timeout: float = None) -> dict:
        """Send the user to a URL (URL-mode elicitation, 2025-11-25 and later).

        Returns:
            The client's ElicitResult (``action``). In the handshake era call
            ``ctx.server.elicitation_complete(elicitation_id)`` when the flow ends.
        """
        params = {"mode": "url", "message": message, "url": url}
        if self._call.era == "legacy":
            import secrets
            params["elicitationId"] = elicitation_id or secrets.token_hex(16)
        result = self._server._ask(self, "elicitation/create", params, {"elicitation": {"url": {}}}, timeout)
        if isinstance(result, dict) and "elicitationId" in params:
            result = dict(result, elicitationId=params["elicitationId"])
        return result

    def ping(self, timeout: float = None) -> dict:
        """Ping the client (handshake era only)."""
        return self._server._ask(self, "ping", None, {}, timeout)

    def read_resource(self, uri: str) -> list:
        """Read one of this server's own resources; returns its ``contents`` list."""
        return self._server._read_resource(uri, self._call)["contents"]


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
        if type(value) is dict:
            return _AwaitableDict(value)
        if type(value) is list:
            return _AwaitableList(value)
        return value
    return wrapper


_AWAITABLE_NONE = _AwaitableNone()
for _name in ("progress", "log", "debug", "info", "notice", "warning", "error", "sample", "list_roots",
              "elicit", "elicit_url", "ping", "read_resource"):
    setattr(Context, _name, _awaitable_results(getattr(Context, _name)))
Context.report_progress = Context.progress
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


class _LazyEncoder:
    """The encoder of encode_message, built on first use (json is imported lazily)."""

    def encode(self, message) -> str:
        global _ENCODER
        _ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        return _ENCODER.encode(message)


_ENCODER = _LazyEncoder()


def encode_message(message) -> bytes:
    """Serialise one JSON-RPC message (or batch) to a UTF-8 line ending in ``\\n``.

    Raises:
        ValueError / TypeError / RecursionError: the message cannot be written as JSON.
    """
    try:
        text = _ENCODER.encode(message)
        if not text.isascii():
            for char in _LINE_BREAKERS:
                if char in text:
                    text = text.replace(char, "\\u%04x" % ord(char))
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:            # lone surrogates: escape everything instead
        text = json.dumps(message, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
        return text.encode("ascii") + b"\n"


def _decode_line(line: bytes):
    """Parse one input line. Returns (message, error_response_or_None)."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, _error(None, PARSE_ERROR, "Parse error: the line is not valid UTF-8 (%s)" % exc.reason)
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        return json.loads(text), None
    except RecursionError:                # answer with the id, if it comes before the nesting
        return None, _error(_scan_id(line[:65536]), PARSE_ERROR, "Parse error: JSON nested too deeply")
    except ValueError as exc:
        return None, _error(None, PARSE_ERROR, "Parse error: invalid JSON (%s)" % exc)


def _scan_id(head: bytes):
    """Find the top-level ``"id"`` of a JSON object from the first bytes of a line.

    Used for oversized lines, so the client still gets an answer for its request.
    Returns the id, or None when it cannot be read from ``head``.
    """
    text = head.decode("utf-8", "ignore")
    depth, index, length = 0, 0, len(text)
    while index < length:
        char = text[index]
        if char == '"':
            end = index + 1
            while end < length and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            if end >= length:
                return None
            if depth == 1 and text[index:end + 1] == '"id"':
                rest = text[end + 1:].lstrip()
                if rest.startswith(":"):
                    try:
                        value, _ = json.JSONDecoder().raw_decode(rest[1:].lstrip())
                    except ValueError:
                        return None
                    return value if _valid_id(value) else None
            index = end + 1
            continue
        if char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
        index += 1
    return None


# The server: method table, handlers, eras and revisions, workers #############

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
SINCE_2025_03 = frozenset(v for v in PROTOCOL_VERSIONS if v >= "2025-03-26")
ONLY_2025_11 = frozenset(["2025-11-25"])

# The protocol, one line per method. Each entry: (handler, where it runs,
# revisions that define it, capability it needs). "reader" handlers are quick
# and never run user code; "worker" handlers run on the pool; "thread" handlers
# wait for something else to finish, so they get a thread of their own rather
# than a worker they could starve. A None handler answers -32601.
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

# Server -> client messages, for the record (sent by Context and the server):
# requests ping, sampling/createMessage, roots/list, elicitation/create (handshake
# era; input requests in 2026-07-28); notifications progress, message,
# tools|resources|prompts/list_changed, resources/updated, elicitation/complete,
# subscriptions/acknowledged, cancelled.

# Where each revision differs in shape, in one place: the fields of a kind of
# object and the revision that introduced them (and, rarely, the last one that
# had them). Handlers build the newest shape; _trim() cuts it down.
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
}
_BLOCK_SINCE = {"audio": "2025-03-26", "resource_link": "2025-06-18"}
TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
META_RELATED_TASK = "io.modelcontextprotocol/related-task"
_TERMINAL = frozenset(["completed", "failed", "cancelled"])
_CACHEABLE = frozenset(["server/discover", "tools/list", "prompts/list", "resources/list",
                        "resources/templates/list", "resources/read"])


def _available(since, version: str) -> bool:
    first, last = since if isinstance(since, tuple) else (since, None)
    return version >= first and (last is None or version <= last)


_MISSING_FIELDS = {}         # (kind, version) -> the fields that revision lacks, computed once


def _trim(kind: str, item: dict, version: str) -> dict:
    """Drop the fields of ``item`` that revision ``version`` does not define."""
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
    if isinstance(annotations, dict) and kind != "tool":
        item = dict(item, annotations=_trim("annotations", annotations, version))
    return item


def _trim_block(block, version: str):
    """Shape one content block for a revision; blocks it lacks become text."""
    if not isinstance(block, dict):
        return block
    kind = block.get("type")
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


class _Waiter:
    """One of our own requests to the client, waiting for its answer."""
    __slots__ = ("event", "answered", "result", "error")

    def __init__(self) -> None:
        self.event = threading.Event()      # set by the answer, or by the call's cancellation
        self.answered = False
        self.result = None
        self.error = None


class _Call:
    """One client request being served: its identity, envelope and cancellation state."""

    def __init__(self, request_id, method: str, params: dict) -> None:
        self.id = request_id
        self.key = _id_key(request_id)
        self.method = method
        self.params = params
        meta = params.get("_meta")
        self.meta = meta if isinstance(meta, dict) else {}
        token = self.meta.get("progressToken")
        self.progress_token = token if _valid_id(token) else None
        self.era = "legacy"
        self.version = LATEST_HANDSHAKE_VERSION
        self.client_capabilities = {}
        self.client_info = {}
        self.log_level = None
        self.cancelled = False
        self.cancel_reason = None
        self._event = None
        self.done = False            # a response was sent, or will never be (cancelled)
        self.batch = None
        self.answers = []            # 2026-07-28: answers to earlier questions, in order
        self.waiters = set()
        self.on_cancel = []
        self.task = None             # the _Task this call runs for, if any

    @property
    def cancel_event(self) -> threading.Event:
        """An Event set on cancellation, made only for handlers that wait on one."""
        if self._event is None:
            self._event = threading.Event()
            if self.cancelled:                 # cancel() may have run before the line above
                self._event.set()
        return self._event

    def cancel(self, reason: str) -> None:
        """Signal the handler; wake anything it waits on."""
        self.cancel_reason = reason
        self.cancelled = True
        if self._event is not None:
            self._event.set()
        for event in list(self.waiters):
            event.set()
        for callback in list(self.on_cancel):
            try:
                callback()
            except Exception:       # a callback must not break cancellation
                pass


def _timestamp(seconds: float) -> str:
    """ISO 8601 in UTC with milliseconds, as task timestamps are written."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + ".%03dZ" % (int(seconds * 1000) % 1000)


class _Task:
    """A tools/call running as a task (2025-11-25 core tasks, 2026-07-28 extension)."""

    def __init__(self, call: "_Call", ttl_ms, poll_ms: int) -> None:
        import secrets
        self.id = secrets.token_urlsafe(24)           # unguessable: stdio has no auth context
        self.call = call
        self.era = call.era
        self.status = "working"
        self.message = None
        self.created = self.updated = time.time()
        self.ttl_ms = ttl_ms
        self.poll_ms = poll_ms
        self.result = None            # the CallToolResult, once completed
        self.error = None             # the JSON-RPC error object, once failed
        self.finished = threading.Event()
        self.input_requests = {}      # 2026-07-28: key -> {method, params} still unanswered
        self.input_answers = {}
        self.input_count = 0
        self.answered = threading.Condition()

    def describe(self) -> dict:
        """The Task object in this task's era's field names."""
        modern = self.era == "modern"
        task = {"taskId": self.id, "status": self.status, "createdAt": _timestamp(self.created),
                "lastUpdatedAt": _timestamp(self.updated), "ttlMs" if modern else "ttl": self.ttl_ms,
                "pollIntervalMs" if modern else "pollInterval": self.poll_ms}
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


class _Batch:
    """Collects the responses of one JSON-RPC batch (2025-03-26) and writes them together."""

    def __init__(self, server, expected: int) -> None:
        self.server = server
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
            self.server._write(self.responses)


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
        import queue
        self.size = max(1, size)
        self.limit = max(1, queue_size)
        self.jobs = queue.SimpleQueue()
        self.threads = []
        self.waiting = 0                   # jobs queued, not yet taken
        self.idle = 0                      # workers blocked waiting for a job
        self.taken = 0                     # jobs ever taken: the watcher's sign of progress
        self.lock = threading.Lock()
        self.room = threading.Condition(self.lock)       # submit waits here when full
        self.needed = threading.Condition(self.lock)     # the watcher waits here when idle
        self.blocked = False
        self.watcher = None

    def submit(self, job) -> None:
        with self.lock:
            while self.waiting >= self.limit:
                self.blocked = True
                self.room.wait()
            self.waiting += 1
            if not self.threads:
                self._start_worker()
            elif self.waiting > self.idle and len(self.threads) < self.size:
                if self.watcher is None:          # some job will have to wait: watch it
                    self.watcher = threading.Thread(target=self._watch, name="minimcp-pool-watcher")
                    self.watcher.daemon = True
                    self.watcher.start()
                self.needed.notify()
        self.jobs.put(job)

    def _start_worker(self) -> None:
        thread = threading.Thread(target=self._work, name="minimcp-worker-%d" % len(self.threads))
        thread.daemon = True
        self.threads.append(thread)
        thread.start()

    def _watch(self) -> None:
        """Add a worker whenever queued jobs make no progress for STALL seconds."""
        with self.lock:
            while len(self.threads) < self.size:
                if self.waiting <= self.idle:
                    self.needed.wait()
                    continue
                before = self.taken
                self.lock.release()
                try:
                    time.sleep(self.STALL)
                finally:
                    self.lock.acquire()
                if self.waiting > self.idle and self.taken == before:
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


class MCPServer:
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
    """

    def __init__(self, name: str = "minimcp", version: str = "0.0.0", instructions: str = None, *,
                 title: str = None, description: str = None, icons: list = None,
                 website_url: str = None, workers: int = 32, queue_size: int = 256,
                 page_size: int = None, max_message_size: int = DEFAULT_MAX_MESSAGE_SIZE,
                 request_timeout: float = 300.0, shutdown_grace: float = 1.0,
                 cache_ttl_ms: int = 0, cache_scope: str = "private", state_ttl: float = 600.0,
                 task_ttl_ms: int = 3600000) -> None:
        if cache_scope not in ("public", "private"):
            raise ValueError("cache_scope must be 'public' or 'private'")
        self.name, self.version, self.instructions = name, version, instructions
        self.title, self.description, self.icons, self.website_url = title, description, icons, website_url
        self.workers, self.queue_size, self.page_size = workers, queue_size, page_size
        self.max_message_size, self.request_timeout = max_message_size, request_timeout
        self.shutdown_grace, self.cache_ttl_ms, self.cache_scope = shutdown_grace, cache_ttl_ms, cache_scope
        self.state_ttl, self.task_ttl_ms = state_ttl, task_ttl_ms
        self._tools, self._resources, self._templates, self._prompts = {}, {}, {}, {}
        self._lock = threading.RLock()
        self._write_lock = threading.Lock()
        self._out = None
        self._pool = None
        self._reset_connection()

    def _reset_connection(self) -> None:
        """Forget everything about the previous connection (serve() may run more than once)."""
        self._era = None                 # None, "legacy" or "modern": what this pipe committed to
        self._version = None             # negotiated handshake revision
        self._client_caps, self._client_info = {}, {}
        self._initialized = False
        self._log_level = "debug"
        self._subscriptions = set()
        self._roots_cache = None
        self._inflight = {}
        self._pending = {}
        self._listens = {}
        self._next_id = 0
        self._state_key = None
        self._tasks = {}

    # -- registration ---------------------------------------------------------
    def tool(self, name=None, *, title: str = None, description: str = None, annotations: dict = None,
             icons: list = None, meta: dict = None, input_schema: dict = None, output_schema: dict = None,
             structured_output: bool = None, timeout: float = None, task_support: str = "forbidden"):
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
        """
        if callable(name) and not isinstance(name, str):
            return self.add_tool(name)

        def decorator(fn):
            self.add_tool(fn, name=name, title=title, description=description, annotations=annotations,
                          icons=icons, meta=meta, input_schema=input_schema, output_schema=output_schema,
                          structured_output=structured_output, timeout=timeout, task_support=task_support)
            return fn
        return decorator

    def add_tool(self, fn, **options):
        """Register ``fn`` as a tool; takes the same options as ``tool()``. Returns ``fn``."""
        tool = Tool(fn, **options)
        with self._lock:
            if tool.name in self._tools:
                raise ValueError("a tool named %r is already registered" % tool.name)
            self._tools[tool.name] = tool
        self._list_changed("tools")
        return fn

    def remove_tool(self, name: str) -> None:
        """Unregister a tool (clients are told the list changed)."""
        with self._lock:
            del self._tools[name]
        self._list_changed("tools")

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
        record = Resource(uri, fn, **options)
        table = self._templates if record.is_template else self._resources
        with self._lock:
            if uri in table:
                raise ValueError("the resource %r is already registered" % uri)
            table[uri] = record
        self._list_changed("resources")
        return fn

    def remove_resource(self, uri: str) -> None:
        """Unregister a resource or template."""
        with self._lock:
            if uri in self._resources:
                del self._resources[uri]
            else:
                del self._templates[uri]
        self._list_changed("resources")

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
        read.__name__ = label
        self.add_resource(read, base_uri + "/{+relative}", name=label,
                          description="Files below %s (read-only)" % base)
        count = 0
        for root, dirs, files in os.walk(base):
            dirs[:] = sorted(d for d in dirs if not os.path.islink(os.path.join(root, d)))
            for filename in sorted(files):
                full = os.path.join(root, filename)
                if os.path.islink(full) or not os.path.isfile(full) or count >= max_files:
                    continue                          # links, FIFOs, sockets and devices are not served
                relative = os.path.relpath(full, base).replace(os.sep, "/")
                uri = base_uri + "/" + _quote_path(relative)
                self.add_resource(lambda rel=relative: _read_below(base, rel), uri, name=relative,
                                  mime_type=_guess_mime(filename, "application/octet-stream"))
                count += 1

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

        def decorator(fn):
            self.add_prompt(fn, name=name, title=title, description=description, icons=icons, meta=meta,
                            completions=completions)
            return fn
        return decorator

    def add_prompt(self, fn, **options):
        """Register ``fn`` as a prompt; options as for ``prompt()``. Returns ``fn``."""
        record = Prompt(fn, **options)
        with self._lock:
            if record.name in self._prompts:
                raise ValueError("a prompt named %r is already registered" % record.name)
            self._prompts[record.name] = record
        self._list_changed("prompts")
        return fn

    def remove_prompt(self, name: str) -> None:
        """Unregister a prompt."""
        with self._lock:
            del self._prompts[name]
        self._list_changed("prompts")

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
        if self._era == "legacy" and self._initialized and uri in self._subscriptions:
            self._write(_notification("notifications/resources/updated", {"uri": uri}))
        for call, wanted in list(self._listens.values()):
            if uri in (wanted.get("resourceSubscriptions") or ()):
                self._notify_listener(call, "notifications/resources/updated", {"uri": uri})

    def elicitation_complete(self, elicitation_id: str) -> None:
        """Tell a 2025-11-25 client that a URL-mode elicitation finished."""
        if self._era == "legacy" and (self._version or "") >= "2025-11-25":
            self._write(_notification("notifications/elicitation/complete", {"elicitationId": elicitation_id}))

    def _list_changed(self, kind: str) -> None:
        if self._out is None:
            return
        method = "notifications/%s/list_changed" % kind
        if self._era == "legacy" and self._initialized and self._offers(kind):
            self._write(_notification(method))
        flag = "%sListChanged" % kind
        for call, wanted in list(self._listens.values()):
            if wanted.get(flag):
                self._notify_listener(call, method, {})

    # -- capabilities -----------------------------------------------------------
    def _offers(self, capability: str) -> bool:
        """Whether the registry holds something behind a capability of the method table."""
        if capability == "tools":
            return bool(self._tools)
        if capability == "resources":
            return bool(self._resources or self._templates)
        if capability == "prompts":
            return bool(self._prompts)
        if capability == "completions":
            return any(r.completions for r in list(self._prompts.values()) + list(self._templates.values()))
        if capability == "logging":
            return True
        if capability == "tasks":
            return any(t.task_support != "forbidden" for t in list(self._tools.values()))
        return False

    def _capabilities(self, version: str) -> dict:
        """Derived from METHODS and the registry: only what this revision and server offer."""
        capabilities = {}
        for handler, _, versions, capability in METHODS.values():
            if handler and capability and version in versions and capability not in capabilities \
                    and self._offers(capability):
                capabilities[capability] = {}
        # Log messages flow in every revision (2026-07-28 asks per request instead of
        # through logging/setLevel), so the capability does not hang on a method.
        capabilities.setdefault("logging", {})
        for kind in ("tools", "prompts", "resources"):
            if kind in capabilities:
                capabilities[kind]["listChanged"] = True
        if "resources" in capabilities:
            capabilities["resources"]["subscribe"] = True
        if version == "2024-11-05":
            capabilities.pop("completions", None)     # the capability did not exist yet
        if "tasks" in capabilities:
            if version in MODERN:                     # an extension since 2026-07-28
                del capabilities["tasks"]
                capabilities["extensions"] = {TASKS_EXTENSION: {}}
            else:
                capabilities["tasks"] = {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}
        return capabilities

    def _server_info(self, version: str) -> dict:
        info = {"name": self.name, "version": self.version}
        for key, value in (("title", self.title), ("description", self.description),
                           ("icons", self.icons), ("websiteUrl", self.website_url)):
            if value:
                info[key] = value
        return _trim("implementation", info, version)

    # -- writing ------------------------------------------------------------------
    def _write(self, message, finish: _Call = None, guard: _Call = None) -> bool:
        """Write one message through the single locked writer.

        ``finish``: the response of that call (at most once, never after a cancel).
        ``guard``: a notification of that call (never after its response).
        """
        out = self._out
        if out is None:
            return False
        try:
            data = encode_message(message)
        except (ValueError, TypeError, RecursionError) as exc:
            if finish is None or not isinstance(message, dict) or "id" not in message:
                _logger().error("minimcp: dropped a message that is not JSON-serialisable: %s", exc)
                return False
            data = encode_message(_error(message["id"], INTERNAL_ERROR,
                                         "the result could not be serialised as JSON: %s" % exc))
        with self._write_lock:                    # decides, in order, what is sent
            if guard is not None and guard.done:
                return False
            if finish is not None:
                if finish.done:
                    return False
                finish.done = True
                # The id is free once its response is queued; the shutdown waits for
                # _inflight to empty and then for the writer to drain, so nothing is lost.
                self._leave_inflight(finish)
            flusher = out.put(data)
        if flusher:
            out.drain()
        return not out.closed

    def _notify_for(self, call: _Call, method: str, params: dict) -> None:
        """A notification that belongs to a running request (progress, log)."""
        self._write(_notification(method, params), guard=call)

    def _notify_listener(self, call: _Call, method: str, params: dict) -> None:
        params = dict(params)
        params["_meta"] = {META_SUBSCRIPTION: call.id}
        self._write(_notification(method, params), guard=call)

    def _respond(self, call: _Call, result: dict = None, error: dict = None) -> None:
        """Send a call's response, shaped for its era; exactly once."""
        if error is not None:
            message = {"jsonrpc": "2.0", "id": call.id, "error": error}
        else:
            if call.era == "modern":
                result = dict(result)
                result.setdefault("resultType", "complete")
                meta = dict(result.get("_meta") or {})
                meta.setdefault(META_SERVER_INFO, self._server_info(call.version))
                result["_meta"] = meta
                if call.method in _CACHEABLE and result["resultType"] == "complete":
                    result.setdefault("ttlMs", self.cache_ttl_ms)
                    result.setdefault("cacheScope", self.cache_scope)
            message = _response(call.id, result)
        if call.batch is None:
            self._write(message, finish=call)     # leaves _inflight under the write lock
            return
        with self._write_lock:
            already = call.done
            call.done = True
        if not already:
            call.batch.add(message)
        self._leave_inflight(call)

    def _leave_inflight(self, call: _Call) -> None:
        if self._inflight.get(call.key) is call:
            self._inflight.pop(call.key, None)

    # -- reading: one line, one message ---------------------------------------
    def _on_line(self, line: bytes) -> None:
        if line[:1] in (b" ", b"\t", b"\r", b"\n") and not line.strip():
            return                                 # blank lines are ignored (strip only these)
        message, problem = _decode_line(line)
        if problem is not None:
            self._write(problem)
        elif isinstance(message, list):
            self._on_batch(message)
        else:
            self._on_message(message, None)

    def _on_batch(self, messages: list) -> None:
        if not (self._era == "legacy" and self._version == "2025-03-26"):
            self._write(_error(None, INVALID_REQUEST, "Invalid Request: JSON-RPC batches are only allowed "
                                                      "after negotiating protocol 2025-03-26"))
            return
        if not messages:
            self._write(_error(None, INVALID_REQUEST, "Invalid Request: empty batch"))
            return
        if any(isinstance(m, dict) and m.get("method") == "initialize" for m in messages):
            self._write(_error(None, INVALID_REQUEST, "Invalid Request: initialize must not be batched"))
            return
        expecting = sum(1 for m in messages if _expects_response(m))
        batch = _Batch(self, expecting) if expecting else None
        for message in messages:
            self._on_message(message, batch)

    def _reply_error(self, batch, request_id, code, message, data=None) -> None:
        response = _error(request_id, code, message, data)
        if batch is not None:
            batch.add(response)
        else:
            self._write(response)

    def _on_message(self, message, batch) -> None:
        if not isinstance(message, dict):
            self._reply_error(batch, None, INVALID_REQUEST,
                              "Invalid Request: a JSON-RPC message must be an object, not %s" % _json_type(message))
            return
        has_id = "id" in message
        request_id = message.get("id")
        if "method" not in message:
            if has_id and ("result" in message or "error" in message):
                self._on_client_response(message)
                return
            self._reply_error(batch, request_id if _valid_id(request_id) else None, INVALID_REQUEST,
                              "Invalid Request: the message has no method")
            return
        reply_id = request_id if _valid_id(request_id) else None
        if message.get("jsonrpc") != "2.0":
            self._reply_error(batch, reply_id, INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"')
            return
        method = message["method"]
        if not isinstance(method, str):
            self._reply_error(batch, reply_id, INVALID_REQUEST, "Invalid Request: method must be a string")
            return
        if has_id and not _valid_id(request_id):
            self._reply_error(batch, None, INVALID_REQUEST,
                              "Invalid Request: id must be a string or an integer, not %s" % _json_type(request_id))
            return
        params = message.get("params")
        if params is None:
            params = {}
        if not has_id:
            self._on_notification(method, params)
            return
        if method.startswith("notifications/"):
            self._reply_error(batch, request_id, METHOD_NOT_FOUND, "Method not found: %s is a notification, "
                                                                   "not a request (send it without an id)" % method)
            return
        if not isinstance(params, dict):
            self._reply_error(batch, request_id, INVALID_PARAMS, "Invalid params: params must be an object")
            return
        call = _Call(request_id, method, params)
        call.batch = batch
        try:
            handler, where = self._admit(call)
        except MCPError as exc:
            self._respond(call, error=exc.to_error())
            return
        if where == "reader":
            self._run(call, handler)
        elif where == "thread":
            self._inflight[call.key] = call
            threading.Thread(target=self._run, args=(call, handler), daemon=True).start()
        else:
            self._inflight[call.key] = call
            self._ensure_pool().submit(lambda: self._run_in_worker(call, handler))

    def _on_notification(self, method: str, params) -> None:
        entry = METHODS.get(method)
        if entry is None or entry[0] is None or not isinstance(params, dict):
            _logger().debug("ignored notification %s", method)
            return
        try:
            getattr(self, entry[0])(params)
        except Exception:
            _logger().exception("minimcp: notification %s failed", method)

    def _on_client_response(self, message: dict) -> None:
        waiter = self._pending.pop(_id_key(message.get("id")), None)
        if waiter is None:
            _logger().debug("dropped a response for unknown id %r", message.get("id"))
            return
        if "error" in message:
            error = message["error"] if isinstance(message["error"], dict) else {}
            waiter.error = MCPError(error.get("code", INTERNAL_ERROR) if isinstance(error.get("code"), int)
                                    else INTERNAL_ERROR, str(error.get("message", "client error")),
                                    error.get("data"))
        else:
            waiter.result = message.get("result")
        waiter.answered = True
        waiter.event.set()

    # -- eras and revisions ---------------------------------------------------
    def _admit(self, call: _Call):
        """Decide era, revision and handler for a request. Raises MCPError to refuse it.

        The one place where the two eras meet: ``server/discover`` is answered at any
        time without committing the pipe; ``initialize`` commits it to the handshake
        era; the first other request carrying the 2026-07-28 envelope commits it to
        the modern era. Returns (bound handler, where it runs).
        """
        method = call.method
        entry = METHODS.get(method)
        if entry is None:
            raise MCPError(METHOD_NOT_FOUND, "Method not found: %s" % method)
        handler, where, versions, capability = entry
        meta = call.params.get("_meta")
        enveloped = isinstance(meta, dict) and (META_VERSION in meta or META_CLIENT_CAPS in meta)
        if method == "server/discover" or (enveloped and method != "initialize"):
            if self._era == "legacy" and method != "server/discover":
                raise MCPError(INVALID_REQUEST, "Invalid Request: this connection was opened with initialize "
                                                "(protocol %s); requests must not carry the 2026-07-28 _meta "
                                                "envelope" % self._version)
            self._enter_modern(call)
            if method != "server/discover":
                self._era = "modern"
        elif method == "initialize":
            if self._era == "modern":
                raise MCPError(UNSUPPORTED_PROTOCOL_VERSION,
                               "this connection uses protocol 2026-07-28 (stateless); initialize is not part "
                               "of it", {"supported": list(MODERN_VERSIONS[::-1]),
                                         "requested": str(call.params.get("protocolVersion"))})
            requested = call.params.get("protocolVersion")
            call.version = requested if isinstance(requested, str) and requested in HANDSHAKE \
                else LATEST_HANDSHAKE_VERSION
        elif method == "ping" and self._era != "modern":
            pass
        elif self._era == "legacy":
            if not self._version:
                raise MCPError(INVALID_REQUEST, "Invalid Request: initialize has not completed")
            call.version = self._version
            call.client_capabilities, call.client_info = self._client_caps, self._client_info
            call.log_level = self._log_level
        elif self._era == "modern":
            raise MCPError(INVALID_PARAMS, "Invalid params: params._meta must carry %s and %s (protocol "
                                           "2026-07-28)" % (META_VERSION, META_CLIENT_CAPS))
        else:
            raise MCPError(INVALID_PARAMS, "Invalid params: the server is not initialized; send initialize "
                                           "first (protocol 2025-11-25 and older) or put %s and %s in "
                                           "params._meta (protocol 2026-07-28)" % (META_VERSION, META_CLIENT_CAPS))
        if call.version not in versions:
            raise MCPError(METHOD_NOT_FOUND, "Method not found: %s is not part of protocol %s"
                           % (method, call.version))
        if handler is None:
            raise MCPError(METHOD_NOT_FOUND, "Method not found: %s is not supported by this server" % method)
        if capability and not self._offers(capability):
            raise MCPError(METHOD_NOT_FOUND, "Method not found: %s (this server offers no %s)"
                           % (method, capability))
        if call.key in self._inflight:
            raise MCPError(INVALID_REQUEST, "Invalid Request: id %s is already in use by a request in flight"
                           % json.dumps(call.id))
        return getattr(self, handler), where

    def _enter_modern(self, call: _Call) -> None:
        """Read the 2026-07-28 envelope of one request (nothing is remembered for the next)."""
        meta = call.params.get("_meta")
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
            raise MCPError(UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version %s" % requested,
                           {"supported": list(PROTOCOL_VERSIONS), "requested": requested})
        level = meta.get(META_LOG_LEVEL)
        if level is not None and (not isinstance(level, str) or level not in _LOG_RANK):
            raise MCPError(INVALID_PARAMS, "Invalid params: unknown log level %r" % (level,))
        info = meta.get(META_CLIENT_INFO)
        call.era, call.version = "modern", requested
        call.client_capabilities = meta[META_CLIENT_CAPS]
        call.client_info = info if isinstance(info, dict) else {}
        call.log_level = level

    # -- running handlers ---------------------------------------------------------
    def _ensure_pool(self) -> _WorkerPool:
        if self._pool is None:
            self._pool = _WorkerPool(self.workers, self.queue_size)
        return self._pool

    def _run_in_worker(self, call: _Call, handler) -> None:
        if call.done:                   # cancelled before it started: never runs
            self._inflight.pop(call.key, None)
            return
        self._run(call, handler)

    def _run(self, call: _Call, handler) -> None:
        """Run one handler and send its response (or error, or nothing if cancelled)."""
        try:
            result = handler(call)
        except MCPError as exc:
            self._respond(call, error=exc.to_error())
        except Cancelled:
            self._drop(call)
        except _NeedInput as question:
            self._respond(call, self._input_required(call, question))
        except BaseException as exc:        # SystemExit from a tool too: answer, never hang the client
            _logger().error("minimcp: %s failed", call.method, exc_info=True)
            self._respond(call, error={"code": INTERNAL_ERROR,
                                       "message": "Internal error: %s: %s" % (type(exc).__name__, exc)})
        else:
            if result is not None:
                self._respond(call, result)

    def _drop(self, call: _Call) -> None:
        """A cancelled call: no response, ever."""
        self._inflight.pop(call.key, None)
        with self._write_lock:
            already = call.done
            call.done = True
        if call.batch is not None and not already:
            call.batch.add(None)

    def _invoke(self, call: _Call, record, arguments: dict):
        """Call a tool/resource/prompt function with its arguments and, if it wants one, a Context."""
        if record.context_param:
            arguments = dict(arguments)
            arguments[record.context_param] = Context(self, call)
        if not record.signature.is_async:            # known since registration
            return record.fn(**arguments)
        return self._run_coroutine(call, record.fn(**arguments))

    def _run_coroutine(self, call: _Call, coroutine):
        """Run an ``async def`` handler on this worker's own event loop."""
        import asyncio
        local = _WORKER_LOCAL.__dict__
        loop = local.get("loop")
        if loop is None:
            loop = local["loop"] = asyncio.new_event_loop()
        task = loop.create_task(coroutine)
        cancel = lambda: loop.call_soon_threadsafe(task.cancel)   # noqa: E731
        call.on_cancel.append(cancel)
        try:
            return loop.run_until_complete(task)
        except asyncio.CancelledError:
            raise Cancelled(call.cancel_reason or "cancelled") from None
        finally:
            call.on_cancel.remove(cancel)

    # -- questions to the client --------------------------------------------------
    def _ask(self, ctx: Context, method: str, params, needs: dict, timeout):
        call = ctx._call
        if call.era == "modern":
            return self._ask_modern(ctx, method, params, needs, timeout)
        missing = _missing_capability(call.client_capabilities, needs, call.version)
        if missing:
            raise MCPError(MISSING_CLIENT_CAPABILITY, "the client did not declare the %s capability, so "
                           "the server cannot send %s" % (missing, method), {"requiredCapabilities": needs})
        ctx.check_cancelled()
        task = call.task
        if task is not None:                    # 2025-11-25: mark the task and tag the request
            params = dict(params or {})
            params["_meta"] = dict(params.get("_meta") or {}, **{META_RELATED_TASK: {"taskId": task.id}})
            self._set_task_status(task, "input_required")
        with self._lock:
            self._next_id += 1
            request_id = self._next_id
        waiter = _Waiter()
        self._pending[_id_key(request_id)] = waiter
        call.waiters.add(waiter.event)
        try:
            self._write(_request(request_id, method, params))
            waiter.event.wait(self.request_timeout if timeout is None else timeout)
            if not waiter.answered:             # cancelled, or timed out: withdraw our request
                cancelled = call.cancelled
                self._write(_notification("notifications/cancelled", {
                    "requestId": request_id, "reason": "the request was cancelled" if cancelled else "timed out"}))
                if cancelled:
                    raise Cancelled(call.cancel_reason or "cancelled")
                raise MCPError(INTERNAL_ERROR, "the client did not answer %s in time" % method)
        finally:
            call.waiters.discard(waiter.event)
            self._pending.pop(_id_key(request_id), None)
            if task is not None and task.status == "input_required":
                self._set_task_status(task, "working")
        if waiter.error is not None:
            raise waiter.error
        return waiter.result if waiter.result is not None else {}

    def _ask_modern(self, ctx: Context, method: str, params, needs: dict, timeout=None):
        """2026-07-28: answer from the retry's inputResponses, or unwind to ask for it."""
        call = ctx._call
        if method == "ping":
            raise MCPError(METHOD_NOT_FOUND, "ping does not exist in protocol %s" % call.version)
        index = ctx._questions_asked
        ctx._questions_asked += 1
        if index < len(call.answers):
            return call.answers[index]
        missing = _missing_capability(call.client_capabilities, needs, call.version)
        if missing:
            raise MCPError(MISSING_CLIENT_CAPABILITY, "this request needs the client capability %s" % missing,
                           {"requiredCapabilities": needs})
        if call.task is not None:
            return self._ask_in_task(call, method, params, timeout)
        raise _NeedInput(method, params)

    def _input_required(self, call: _Call, question: _NeedInput) -> dict:
        key = "q%d" % len(call.answers)
        state = self._seal_state(call, key)
        return {"resultType": "input_required",
                "inputRequests": {key: {"method": question.method, "params": question.params}},
                "requestState": state}

    def _signing_key(self) -> bytes:
        if self._state_key is None:
            self._state_key = os.urandom(32)
        return self._state_key

    def _seal_state(self, call: _Call, key: str) -> str:
        """Pack earlier answers into a requestState that only this process can have made."""
        import hmac
        import hashlib
        payload = json.dumps({"m": call.method, "d": _params_digest(call.params),
                              "x": int(time.time() + self.state_ttl), "k": key, "a": call.answers},
                             separators=(",", ":"), sort_keys=True).encode("utf-8")
        mac = hmac.new(self._signing_key(), payload, hashlib.sha256).digest()
        return _b64url(payload) + "." + _b64url(mac)

    def _open_state(self, call: _Call) -> None:
        """Check a retry's requestState and inputResponses; fill ``call.answers``."""
        state = call.params.get("requestState")
        responses = call.params.get("inputResponses")
        if responses is not None and not isinstance(responses, dict):
            raise _invalid_params("Invalid params: inputResponses must be an object")
        for name, answer in (responses or {}).items():
            if not isinstance(answer, dict):
                raise _invalid_params("Invalid params: inputResponses[%r] must be an object" % name)
        if state is None:
            return                    # answers to questions never asked are ignored
        if not isinstance(state, str) or state.count(".") != 1:
            raise _invalid_params("Invalid params: requestState is malformed")
        import hmac                             # only now: most requests carry no state
        import hashlib
        body, _, signature = state.partition(".")
        try:
            payload, mac = _unb64url(body), _unb64url(signature)
        except ValueError:
            raise _invalid_params("Invalid params: requestState is malformed") from None
        expected = hmac.new(self._signing_key(), payload, hashlib.sha256).digest()
        if not hmac.compare_digest(mac, expected):
            raise _invalid_params("Invalid params: requestState was not issued by this server or was altered")
        data = json.loads(payload.decode("utf-8"))
        if data.get("m") != call.method or data.get("d") != _params_digest(call.params):
            raise _invalid_params("Invalid params: requestState belongs to a different request")
        if data.get("x", 0) < time.time():
            raise _invalid_params("Invalid params: requestState has expired; send the request again")
        call.answers = list(data.get("a") or [])
        answer = (responses or {}).get(data.get("k"))
        if answer is not None:
            call.answers.append(answer)

    # -- handlers: lifecycle --------------------------------------------------------
    def _on_initialize(self, call: _Call) -> dict:
        params = call.params
        if self._version is not None:
            raise MCPError(INVALID_REQUEST, "Invalid Request: initialize was already received on this connection")
        requested = params.get("protocolVersion")
        if not isinstance(requested, str):
            raise _invalid_params("Invalid params: protocolVersion must be a string")
        capabilities = params.get("capabilities", {})
        if not isinstance(capabilities, dict):
            raise _invalid_params("Invalid params: capabilities must be an object")
        info = params.get("clientInfo")
        self._era, self._version = "legacy", call.version
        self._client_caps = capabilities
        self._client_info = info if isinstance(info, dict) else {}
        result = {"protocolVersion": call.version, "capabilities": self._capabilities(call.version),
                  "serverInfo": self._server_info(call.version)}
        if self.instructions:
            result["instructions"] = self.instructions
        return result

    def _on_initialized(self, params: dict) -> None:
        if self._version is not None:
            self._initialized = True

    def _on_ping(self, call: _Call) -> dict:
        return {}

    def _on_discover(self, call: _Call) -> dict:
        result = {"supportedVersions": list(PROTOCOL_VERSIONS),
                  "capabilities": self._capabilities(call.version)}
        if self.instructions:
            result["instructions"] = self.instructions
        return result

    def _on_set_level(self, call: _Call) -> dict:
        level = call.params.get("level")
        if not isinstance(level, str) or level not in _LOG_RANK:
            raise _invalid_params("Invalid params: level must be one of %s" % ", ".join(LOG_LEVELS))
        self._log_level = level
        return {}

    def _on_cancelled(self, params: dict) -> None:
        request_id = params.get("requestId")
        call = self._inflight.get(_id_key(request_id)) if _valid_id(request_id) else None
        if call is None or call.method == "initialize":
            return                                 # unknown or finished: nothing to do
        with self._write_lock:
            if call.done:
                return
            call.done = True                       # from now on nothing is sent for it
        self._inflight.pop(call.key, None)
        self._listens.pop(call.key, None)
        if call.batch is not None:
            call.batch.add(None)
        reason = params.get("reason")
        call.cancel(reason if isinstance(reason, str) else "cancelled by the client")

    def _on_roots_changed(self, params: dict) -> None:
        self._roots_cache = None

    def _on_ignored(self, params: dict) -> None:
        return None

    # -- handlers: lists ---------------------------------------------------------
    def _page(self, call: _Call, items: list, field: str) -> dict:
        cursor = call.params.get("cursor")
        start = 0
        if cursor not in (None, ""):
            if not isinstance(cursor, str) or not cursor.startswith("mm") or not cursor[2:].isdigit():
                raise _invalid_params("Invalid params: unknown cursor %r" % (cursor,))
            start = int(cursor[2:])
            if start > len(items):
                raise _invalid_params("Invalid params: the cursor %r is past the end of the list" % cursor)
        end = len(items) if not self.page_size else start + self.page_size
        result = {field: items[start:end]}
        if end < len(items):
            result["nextCursor"] = "mm%d" % end
        return result

    def _listing(self, call: _Call, table: dict, field: str, shape) -> dict:
        """One page of a registry table, each record shaped for the call's revision."""
        with self._lock:
            records = list(table.values())
        result = self._page(call, records, field)
        result[field] = [_shaped(record, shape, call.version) for record in result[field]]
        return result

    def _on_tools_list(self, call: _Call) -> dict:
        return self._listing(call, self._tools, "tools", _shape_tool)

    def _on_resources_list(self, call: _Call) -> dict:
        return self._listing(call, self._resources, "resources", _shape_resource)

    def _on_templates_list(self, call: _Call) -> dict:
        return self._listing(call, self._templates, "resourceTemplates", _shape_resource)

    def _on_prompts_list(self, call: _Call) -> dict:
        return self._listing(call, self._prompts, "prompts", _shape_prompt)

    # -- handlers: tools ---------------------------------------------------------
    def _on_tools_call(self, call: _Call) -> dict:
        name = call.params.get("name")
        if not isinstance(name, str):
            raise _invalid_params("Invalid params: name must be a string")
        tool = self._tools.get(name)
        if tool is None:
            raise _invalid_params("Unknown tool: %s" % name, {"name": name})
        arguments = call.params.get("arguments")
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise _invalid_params("Invalid params: arguments must be an object")
        if call.era == "modern":
            self._open_state(call)
        as_task = self._wants_task(call, tool)
        try:
            validate(arguments, tool.input_schema)
        except ValueError as exc:
            if call.version < "2025-11-25":
                raise _invalid_params("Invalid arguments for tool %s: %s" % (name, exc)) from None
            return _tool_error("Invalid arguments for tool %s: %s" % (name, exc))
        if as_task:
            return self._start_task(call, tool, arguments)
        return self._execute_tool(call, tool, arguments)

    def _execute_tool(self, call: _Call, tool: Tool, arguments: dict) -> dict:
        """Run a tool whose arguments are valid; failures become isError results."""
        name = tool.name
        timer = None
        if tool.timeout:
            timer = threading.Timer(tool.timeout, self._time_out, (call, tool))
            timer.daemon = True
            timer.start()
        try:
            value = self._invoke(call, tool, tool.bind(arguments))
            result = tool.to_result(value)
        except (MCPError, Cancelled, _NeedInput):
            raise
        except Exception as exc:
            _logger().error("minimcp: tool %s raised", name, exc_info=True)
            return _tool_error(str(exc) or type(exc).__name__)
        finally:
            if timer is not None:
                timer.cancel()
        return self._shape_tool_result(result, call.version)

    def _shape_tool_result(self, result: dict, version: str) -> dict:
        result = _trim("tool_result", result, version)
        result["content"] = [_trim_block(b, version) for b in result.get("content", [])]
        return result

    def _time_out(self, call: _Call, tool: Tool) -> None:
        """A tool ran past its timeout: answer with an error now and cancel its context."""
        self._respond(call, _tool_error("Tool %s timed out after %s seconds" % (tool.name, tool.timeout)))
        call.cancel("timed out")

    # -- handlers: resources -------------------------------------------------------
    def _find_resource(self, uri: str):
        with self._lock:
            record = self._resources.get(uri)
            if record is not None:
                return record, {}
            for template in self._templates.values():
                variables = template.template.match(uri)
                if variables is not None:
                    return template, variables
        return None, None

    def _read_resource(self, uri: str, call: _Call) -> dict:
        record, variables = self._find_resource(uri)
        if record is None:
            if call.era == "modern":
                raise MCPError(INVALID_PARAMS, "Resource not found: %s" % uri, {"uri": uri})
            raise MCPError(RESOURCE_NOT_FOUND, "Resource not found: %s" % uri, {"uri": uri})
        arguments = record.arguments_for(variables)
        value = self._invoke(call, record, arguments)
        result = {"contents": [_trim("contents", c, call.version) for c in record.to_contents(uri, value)]}
        if call.era == "modern":
            if record.ttl_ms is not None:
                result["ttlMs"] = record.ttl_ms
            if record.cache_scope is not None:
                result["cacheScope"] = record.cache_scope
        return result

    def _on_resources_read(self, call: _Call) -> dict:
        uri = call.params.get("uri")
        if not isinstance(uri, str):
            raise _invalid_params("Invalid params: uri must be a string")
        if call.era == "modern":
            self._open_state(call)
        try:
            return self._read_resource(uri, call)
        except (MCPError, Cancelled, _NeedInput):
            raise
        except (OSError, ValueError) as exc:
            if isinstance(exc, (FileNotFoundError, IsADirectoryError, PermissionError)):
                code = INVALID_PARAMS if call.era == "modern" else RESOURCE_NOT_FOUND
                raise MCPError(code, "Resource not found: %s (%s)" % (uri, exc.strerror or exc), {"uri": uri})
            raise MCPError(INTERNAL_ERROR, "Reading %s failed: %s" % (uri, exc)) from None

    def _on_subscribe(self, call: _Call) -> dict:
        uri = call.params.get("uri")
        if not isinstance(uri, str):
            raise _invalid_params("Invalid params: uri must be a string")
        with self._lock:
            self._subscriptions.add(uri)
        return {}

    def _on_unsubscribe(self, call: _Call) -> dict:
        uri = call.params.get("uri")
        if not isinstance(uri, str):
            raise _invalid_params("Invalid params: uri must be a string")
        with self._lock:
            self._subscriptions.discard(uri)
        return {}

    def _on_listen(self, call: _Call):
        """``subscriptions/listen``: acknowledge, then stream the requested notifications."""
        wanted = call.params.get("notifications")
        if not isinstance(wanted, dict):
            raise _invalid_params("Invalid params: notifications must be an object")
        agreed = {}
        for kind in ("tools", "prompts", "resources"):
            flag = "%sListChanged" % kind
            if wanted.get(flag) is True and self._offers(kind):
                agreed[flag] = True
        uris = wanted.get("resourceSubscriptions")
        if uris is not None:
            if not isinstance(uris, list) or not all(isinstance(u, str) for u in uris):
                raise _invalid_params("Invalid params: resourceSubscriptions must be a list of URIs")
            if self._offers("resources"):
                agreed["resourceSubscriptions"] = list(uris)
        task_ids = wanted.get("taskIds")
        if task_ids is not None:
            if not isinstance(task_ids, list) or not all(isinstance(t, str) for t in task_ids):
                raise _invalid_params("Invalid params: taskIds must be a list of task ids")
            extensions = call.client_capabilities.get("extensions")
            if not (isinstance(extensions, dict) and TASKS_EXTENSION in extensions):
                raise MCPError(MISSING_CLIENT_CAPABILITY, "taskIds needs the %s extension" % TASKS_EXTENSION,
                               {"requiredCapabilities": {"extensions": {TASKS_EXTENSION: {}}}})
            agreed["taskIds"] = [t for t in task_ids if t in self._tasks]
        self._inflight[call.key] = call
        self._listens[call.key] = (call, agreed)
        self._notify_listener(call, "notifications/subscriptions/acknowledged", {"notifications": agreed})
        return None                                # answered only when the server stops

    # -- handlers: prompts and completion -------------------------------------------
    def _on_prompts_get(self, call: _Call) -> dict:
        name = call.params.get("name")
        if not isinstance(name, str):
            raise _invalid_params("Invalid params: name must be a string")
        prompt = self._prompts.get(name)
        if prompt is None:
            raise _invalid_params("Unknown prompt: %s" % name, {"name": name})
        arguments = call.params.get("arguments") or {}
        if not isinstance(arguments, dict) or not all(isinstance(v, str) for v in arguments.values()):
            raise _invalid_params("Invalid params: arguments must be an object of strings")
        if call.era == "modern":
            self._open_state(call)
        value = self._invoke(call, prompt, prompt.bind(arguments))
        messages = [dict(m, content=_trim_block(m["content"], call.version)) for m in prompt.to_messages(value)]
        result = {"messages": messages}
        if prompt.description:
            result["description"] = prompt.description
        return result

    def _on_complete(self, call: _Call) -> dict:
        ref = call.params.get("ref")
        argument = call.params.get("argument")
        if not isinstance(ref, dict) or not isinstance(argument, dict) or \
                not isinstance(argument.get("name"), str) or not isinstance(argument.get("value"), str):
            raise _invalid_params("Invalid params: completion needs ref {type, name|uri} and argument {name, value}")
        key = ref.get("name") if ref.get("type") == "ref/prompt" else ref.get("uri")
        if not isinstance(key, str):
            raise _invalid_params("Invalid params: ref needs a string name (ref/prompt) or uri (ref/resource)")
        if ref.get("type") == "ref/prompt":
            record = self._prompts.get(key)
            names = [a["name"] for a in record.arguments] if record else []
        elif ref.get("type") == "ref/resource":
            record = self._templates.get(key)
            names = record.template.variables if record else []
        else:
            raise _invalid_params("Invalid params: ref.type must be ref/prompt or ref/resource")
        if record is None:
            raise _invalid_params("Invalid params: nothing to complete for %s" % json.dumps(ref))
        if argument["name"] not in names:
            raise _invalid_params("Invalid params: %s has no argument %r" % (json.dumps(ref), argument["name"]))
        context = call.params.get("context") or {}
        chosen = context.get("arguments") if isinstance(context, dict) else None
        values = _complete(record.completions.get(argument["name"]), argument["value"],
                           chosen if isinstance(chosen, dict) else {})
        return {"completion": {"values": values[:100], "total": len(values), "hasMore": len(values) > 100}}

    # -- handlers: tasks --------------------------------------------------------------
    def _wants_task(self, call: _Call, tool: Tool) -> bool:
        """Apply the task rules of the call's revision; True to run it as a task."""
        if call.era == "modern":
            extensions = call.client_capabilities.get("extensions")
            declared = isinstance(extensions, dict) and TASKS_EXTENSION in extensions
            if tool.task_support == "required" and not declared:
                raise MCPError(MISSING_CLIENT_CAPABILITY, "tool %s runs only as a task: declare the %s extension"
                               % (tool.name, TASKS_EXTENSION),
                               {"requiredCapabilities": {"extensions": {TASKS_EXTENSION: {}}}})
            return declared and tool.task_support != "forbidden"
        if call.version != "2025-11-25":
            return False                       # no tasks before 2025-11-25: the field is ignored
        requested = call.params.get("task")
        if requested is not None and not isinstance(requested, dict):
            raise _invalid_params("Invalid params: task must be an object")
        if requested is not None and tool.task_support == "forbidden":
            raise MCPError(METHOD_NOT_FOUND, "tool %s does not support task execution" % tool.name)
        if requested is None and tool.task_support == "required":
            raise MCPError(METHOD_NOT_FOUND, "tool %s must be called as a task (params.task)" % tool.name)
        return requested is not None

    def _start_task(self, call: _Call, tool: Tool, arguments: dict):
        """Answer at once with the task, then run the tool on this same worker."""
        requested = call.params.get("task") if call.era == "legacy" else None
        ttl = requested.get("ttl") if isinstance(requested, dict) else None
        if not isinstance(ttl, int) or isinstance(ttl, bool) or ttl < 0:
            ttl = self.task_ttl_ms
        ttl = min(ttl, self.task_ttl_ms) if self.task_ttl_ms is not None else ttl
        inner = _Call(call.id, call.method, call.params)
        inner.era, inner.version = call.era, call.version
        inner.client_capabilities, inner.client_info = call.client_capabilities, call.client_info
        if call.era == "modern":                  # the extension has no progress or logs for tasks
            inner.progress_token = inner.log_level = None
        else:
            inner.log_level = call.log_level
        task = _Task(inner, ttl, 500)
        inner.task = task
        self._sweep_tasks()
        self._tasks[task.id] = task
        if call.era == "modern":
            created = dict(task.describe(), resultType="task")
        else:
            created = {"task": task.describe()}
        self._respond(call, created)
        try:
            result = self._execute_tool(inner, tool, arguments)
        except MCPError as exc:
            self._finish_task(task, "failed", error=exc.to_error())
        except Cancelled:
            self._finish_task(task, "cancelled")
        except Exception as exc:                 # not reached for tools, kept for safety
            self._finish_task(task, "failed", error={"code": INTERNAL_ERROR, "message": str(exc)})
        else:
            failed = result.get("isError") and task.era == "legacy"   # 2025-11-25: isError fails a task
            self._finish_task(task, "failed" if failed else "completed", result=result)
        return None

    def _set_task_status(self, task: _Task, status: str, message: str = None) -> None:
        with self._lock:
            if task.status in _TERMINAL:
                return
            task.status, task.message, task.updated = status, message, time.time()
        self._announce_task(task)

    def _finish_task(self, task: _Task, status: str, result: dict = None, error: dict = None) -> None:
        with self._lock:
            if task.status in _TERMINAL:          # cancelled first: keep it cancelled
                task.finished.set()
                return
            task.status, task.result, task.error, task.updated = status, result, error, time.time()
            if status == "failed" and error is not None:
                task.message = error.get("message")
        with self._write_lock:
            task.call.done = True                 # no progress after the task ends
        task.finished.set()
        self._announce_task(task)

    def _announce_task(self, task: _Task) -> None:
        if task.era == "legacy":
            if self._era == "legacy":
                self._write(_notification("notifications/tasks/status", task.describe()))
            return
        for call, wanted in list(self._listens.values()):
            if task.id in (wanted.get("taskIds") or ()):
                self._notify_listener(call, "notifications/tasks", task.detailed())

    def _sweep_tasks(self) -> None:
        """Forget finished tasks whose ttl has passed (bounded memory)."""
        now = time.time()
        for task_id, task in list(self._tasks.items()):
            if task.expired(now):
                self._tasks.pop(task_id, None)

    def _task(self, call: _Call) -> _Task:
        task_id = call.params.get("taskId")
        if not isinstance(task_id, str):
            raise _invalid_params("Invalid params: taskId must be a string")
        self._sweep_tasks()
        task = self._tasks.get(task_id)
        if task is None or task.era != call.era:
            raise _invalid_params("Invalid params: unknown task %s" % task_id)
        return task

    def _on_tasks_get(self, call: _Call) -> dict:
        task = self._task(call)
        return task.detailed() if call.era == "modern" else task.describe()

    def _on_tasks_result(self, call: _Call) -> dict:
        """Block (on a thread of its own) until the task ends, then answer as the call would have."""
        task = self._task(call)
        while not task.finished.wait(0.1):
            if call.cancelled:
                raise Cancelled(call.cancel_reason or "cancelled")
        if task.result is not None:              # completed, or failed through isError
            result = dict(task.result)
            result["_meta"] = dict(result.get("_meta") or {}, **{META_RELATED_TASK: {"taskId": task.id}})
            return result
        error = task.error or {"code": INTERNAL_ERROR, "message": "the task was cancelled"}
        raise MCPError(error["code"], error["message"], error.get("data"))

    def _on_tasks_list(self, call: _Call) -> dict:
        self._sweep_tasks()
        tasks = [t for t in list(self._tasks.values()) if t.era == "legacy"]
        result = self._page(call, tasks, "tasks")
        result["tasks"] = [t.describe() for t in result["tasks"]]
        return result

    def _on_tasks_cancel(self, call: _Call) -> dict:
        task = self._task(call)
        with self._lock:
            terminal = task.status in _TERMINAL
        if terminal:
            if call.era == "modern":
                return {}                          # an acknowledgement either way
            raise _invalid_params("Invalid params: task %s is already %s" % (task.id, task.status))
        self._set_task_status(task, "cancelled", "cancelled by the client")
        with self._write_lock:
            task.call.done = True
        task.call.cancel("the task was cancelled")
        with task.answered:
            task.answered.notify_all()
        return {} if call.era == "modern" else task.describe()

    def _on_tasks_update(self, call: _Call) -> dict:
        task = self._task(call)
        responses = call.params.get("inputResponses")
        if not isinstance(responses, dict) or not all(isinstance(v, dict) for v in responses.values()):
            raise _invalid_params("Invalid params: inputResponses must be an object of objects")
        with task.answered:
            for key, answer in responses.items():
                if key in task.input_requests:     # unknown or already answered keys are ignored
                    task.input_answers[key] = answer
            task.answered.notify_all()
        return {}

    def _ask_in_task(self, call: _Call, method: str, params, timeout):
        """2026-07-28 task: publish the question on the task and wait for tasks/update."""
        task = call.task
        with task.answered:
            task.input_count += 1
            key = "%s-%d" % (method.split("/")[0], task.input_count)
            task.input_requests[key] = {"method": method, "params": params}
        self._set_task_status(task, "input_required")
        deadline = time.monotonic() + (self.request_timeout if timeout is None else timeout)
        with task.answered:
            while key not in task.input_answers:
                left = deadline - time.monotonic()
                if call.cancelled:
                    raise Cancelled(call.cancel_reason or "cancelled")
                if left <= 0:
                    raise MCPError(INTERNAL_ERROR, "no answer to %s arrived in time" % method)
                task.answered.wait(min(left, 0.25))
            answer = task.input_answers.pop(key)
            task.input_requests.pop(key, None)
        self._set_task_status(task, "working")
        return answer

    # -- running ------------------------------------------------------------------
    def serve(self, instream, outstream) -> None:
        """Serve one client on a pair of binary streams until ``instream`` ends.

        ``run()`` calls this with stdin/stdout; tests and embedders may pass pipes.
        """
        self._reset_connection()
        self._out = _LineWriter(outstream)
        reader = _LineReader(instream, self.max_message_size)
        try:
            while not self._out.closed:
                line = reader.readline()
                if line is None:
                    break
                if isinstance(line, _Oversized):
                    self._write(_error(line.request_id, INVALID_REQUEST,
                                       "Invalid Request: message larger than %d bytes" % self.max_message_size))
                    continue
                self._on_line(line)
        finally:
            self._stop()

    def _stop(self) -> None:
        """End of input: cancel running handlers, give them a grace period, close listens."""
        running = list(self._inflight.values()) + [t.call for t in list(self._tasks.values())
                                                    if t.status not in _TERMINAL]
        for call in running:
            call.cancel("the server is shutting down")
        for call, _ in list(self._listens.values()):
            self._respond(call, {"_meta": {META_SUBSCRIPTION: call.id}})
        self._listens.clear()
        deadline = time.monotonic() + self.shutdown_grace
        while self._inflight and time.monotonic() < deadline:
            time.sleep(0.005)
        if self._out is not None:                # let queued responses reach the client
            self._out.wait_idle(max(deadline, time.monotonic() + 1.0))
        self._out = None

    def run(self, transport: str = "stdio") -> None:
        """Serve on stdin/stdout until stdin closes or SIGTERM/SIGINT arrives.

        While serving, file descriptor 1 and ``sys.stdout`` point at stderr, so stray
        prints, logging and child processes cannot corrupt the protocol stream.
        """
        if transport != "stdio":
            raise ValueError("minimcp serves stdio only")
        with _OwnedStdio() as (instream, outstream):
            try:
                self.serve(instream, outstream)
            except (KeyboardInterrupt, _Terminated):
                pass                     # serve() has already stopped cleanly


_WORKER_LOCAL = threading.local()


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


def _tool_error(message: str) -> dict:
    """A CallToolResult that reports a failure to the model."""
    return {"content": [{"type": "text", "text": message}], "isError": True}


def _missing_capability(declared: dict, needs: dict, version: str):
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


def _complete(source, prefix: str, chosen: dict) -> list:
    """Run a completer: a list of values (prefix-filtered) or a function."""
    if source is None:
        return []
    if callable(source):
        takes = len([p for p in _Signature(source).params])
        values = source(prefix, chosen) if takes >= 2 else source(prefix)
        return [str(v) for v in (values or [])]
    return [str(v) for v in source if str(v).startswith(prefix)]


def _params_digest(params: dict) -> str:
    import hashlib
    core = {k: v for k, v in params.items() if k not in ("_meta", "inputResponses", "requestState")}
    return hashlib.sha256(json.dumps(core, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()


def _b64url(data: bytes) -> str:
    import base64
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64url(text: str) -> bytes:
    import base64
    import binascii
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("bad base64") from None


def _quote_path(relative: str) -> str:
    from urllib.parse import quote
    return quote(relative, safe="/")


def _read_below(base: str, relative: str) -> bytes:
    """Read a file below ``base`` without ever leaving it.

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
                try:
                    next_fd = os.open(part, flags | getattr(os, "O_DIRECTORY", 0), dir_fd=fd)
                except OSError as exc:
                    if exc.errno in (40, 20):   # ELOOP (a link), ENOTDIR
                        raise PermissionError(13, "symbolic links are not followed", relative) from None
                    raise
                os.close(fd)
                fd = next_fd
            try:                                      # O_NONBLOCK: a FIFO must not hang the read
                file_fd = os.open(parts[-1], flags | getattr(os, "O_NONBLOCK", 0), dir_fd=fd)
            except OSError as exc:
                if exc.errno == 40:
                    raise PermissionError(13, "symbolic links are not followed", relative) from None
                raise
        finally:
            os.close(fd)
        import stat
        if not stat.S_ISREG(os.fstat(file_fd).st_mode):
            os.close(file_fd)
            raise IsADirectoryError(21, "not a regular file", relative)
        with os.fdopen(file_fd, "rb") as handle:
            return handle.read()
    full = os.path.realpath(os.path.join(base, *parts))
    if os.path.commonpath([full, base]) != base or os.path.islink(os.path.join(base, *parts)):
        raise PermissionError(13, "path escapes the served directory", relative)
    if not os.path.isfile(full):
        raise IsADirectoryError(21, "not a regular file", relative)
    with open(full, "rb") as handle:
        return handle.read()


# Transport: newline-delimited JSON over byte streams (stdio by default) ######

class _Oversized:
    """A line longer than the limit, already discarded; carries its id if one was readable."""
    __slots__ = ("request_id",)

    def __init__(self, request_id) -> None:
        self.request_id = request_id


class _LineReader:
    """Reads whole lines of at most ``limit`` bytes; longer ones are skipped, never held whole."""

    def __init__(self, stream, limit: int) -> None:
        self.stream = stream
        self.limit = limit

    CHUNK = 1 << 20

    def readline(self):
        """Return the next line (bytes), an ``_Oversized``, or None at end of input.

        Reads 1 MiB at a time, so an oversized line costs at most the limit plus one
        chunk, never a second copy of the whole limit.
        """
        line = self.stream.readline(self.CHUNK)
        if not line:
            return None
        pieces, size = [line], len(line)
        while not line.endswith(b"\n") and len(line) == self.CHUNK and size <= self.limit:
            line = self.stream.readline(self.CHUNK)       # a long line: gather it chunk by chunk
            pieces.append(line)
            size += len(line)
        finished = line.endswith(b"\n") or len(line) < self.CHUNK
        if size - line.endswith(b"\n") <= self.limit:
            return pieces[0] if len(pieces) == 1 else b"".join(pieces)
        return self._skip(pieces, finished)

    def _skip(self, pieces: list, finished: bool) -> _Oversized:
        """Drop an oversized line (and its unread rest); keep only its id.

        The id is looked for only in what the limit allows to be read.
        """
        request_id = _scan_id(pieces[0][:min(65536, self.limit)])
        del pieces[:]
        while not finished:
            rest = self.stream.readline(self.CHUNK)
            finished = not rest or rest.endswith(b"\n")
        return _Oversized(request_id)


class _LineWriter:
    """Writes whole messages in order, flushed; a closed pipe turns it off quietly.

    Writers combine: the thread that finds the writer idle becomes the flusher and
    writes everything queued meanwhile in one system call, so a burst of responses
    from several workers costs one write, while a lone response still goes out at
    once. At most ``limit`` bytes wait: past that, ``put`` blocks until the client
    reads (backpressure, not unbounded memory).
    """

    def __init__(self, stream, limit: int = 1 << 18) -> None:
        self.stream = stream
        self.limit = limit
        self.closed = False
        self.pending = []
        self.pending_bytes = 0
        self.flushing = False
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)

    def put(self, data: bytes) -> bool:
        """Queue one message. True: the caller is now the flusher and must call drain()."""
        with self.lock:
            while self.flushing and self.pending_bytes > self.limit and not self.closed:
                self.changed.wait()
            if self.closed:
                return False
            self.pending.append(data)
            self.pending_bytes += len(data)
            if self.flushing:
                return False
            self.flushing = True
            return True

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


class _Terminated(BaseException):
    """SIGTERM arrived: stop serving."""


def _raise_terminated(signum, frame):
    raise _Terminated()


class _OwnedStdio:
    """Take file descriptors 0 and 1 for the protocol while serving.

    The protocol gets private duplicates of the real stdin/stdout. File descriptor 1
    and ``sys.stdout`` are pointed at stderr, and descriptor 0 and ``sys.stdin`` at
    the null device, so user code, logging and child processes can neither corrupt
    the output stream nor steal input lines. Everything is restored on exit.
    """

    def __enter__(self):
        for stream in (sys.stdout, sys.__stdout__):
            try:
                stream.flush()
            except (AttributeError, OSError, ValueError):
                pass
        self.saved = (sys.stdin, sys.stdout)
        self.in_fd, self.out_fd = os.dup(0), os.dup(1)
        if os.name == "nt":                             # no CRLF translation, ever
            import msvcrt
            for fd in (self.in_fd, self.out_fd):
                msvcrt.setmode(fd, os.O_BINARY)
        try:
            os.dup2(2, 1)
        except OSError:                                  # no stderr: discard stray output
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.close(null)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        sys.stdout = sys.stderr if sys.stderr is not None else open(os.devnull, "w")
        sys.stdin = open(os.devnull, "r")
        self.handlers = {}
        if threading.current_thread() is threading.main_thread():
            import signal
            self.handlers[signal.SIGTERM] = signal.signal(signal.SIGTERM, _raise_terminated)
        self.instream = os.fdopen(os.dup(self.in_fd), "rb", buffering=1 << 16)
        self.outstream = os.fdopen(os.dup(self.out_fd), "wb", buffering=1 << 16)
        return self.instream, self.outstream

    def __exit__(self, *exc_info):
        import signal
        for signum, handler in self.handlers.items():
            signal.signal(signum, handler)
        for stream in (self.instream, self.outstream):
            try:
                stream.close()
            except (OSError, ValueError):
                pass
        try:
            sys.stdin.close()
        except (OSError, ValueError):
            pass
        sys.stdin, sys.stdout = self.saved
        os.dup2(self.in_fd, 0)
        os.dup2(self.out_fd, 1)
        os.close(self.in_fd)
        os.close(self.out_fd)
        return False


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

    # -- plumbing ---------------------------------------------------------------------
    def _start(self, reader, writer) -> None:
        self._reader_stream, self._writer_stream = reader, writer
        self._thread = threading.Thread(target=self._read, name="minimcp-client", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        for line in self._reader_stream:
            try:
                message = json.loads(line.decode("utf-8"))
            except ValueError:
                sys.stderr.write("minimcp: the server wrote a line that is not JSON-RPC: %r\n" % line[:200])
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
            threading.Thread(target=self._answer_server, args=(message,), daemon=True).start()
            return
        with self._cond:
            if "method" in message:
                self.notifications.append(message)
                params = message.get("params") or {}
                if message["method"] == "notifications/progress":
                    self.progress.append(params)
                    self._on_progress(params)
                elif message["method"] == "notifications/message":
                    self.logs.append(params)
            else:
                self._answers[_id_key(message.get("id"))] = message
            self._cond.notify_all()

    def _on_progress(self, params: dict) -> None:
        """Hook for the command line, which shows progress as it arrives."""

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
            result = self._answer_question(message["method"], message.get("params") or {})
            reply = _response(message["id"], result)
        except MCPError as exc:
            reply = {"jsonrpc": "2.0", "id": message["id"], "error": exc.to_error()}
        except Exception as exc:
            reply = _error(message["id"], INTERNAL_ERROR, "client callback failed: %s" % exc)
        self._send(reply)

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

    def send_request(self, method: str, params: dict = None, on_id=None) -> dict:
        """Send one request and wait for its response message (result or error), raw."""
        with self._cond:
            self._next_id += 1
            request_id = self._next_id
        if on_id is not None:
            on_id(request_id)
        self._send(_request(request_id, method, self._envelope(params)))
        deadline = time.monotonic() + self.timeout
        with self._cond:
            while _id_key(request_id) not in self._answers:
                left = deadline - time.monotonic()
                if self._closed:
                    raise MCPError(INTERNAL_ERROR, "the server closed the connection before answering %s" % method)
                if left <= 0:
                    self._send(_notification("notifications/cancelled", {"requestId": request_id,
                                                                         "reason": "timed out"}))
                    raise MCPError(INTERNAL_ERROR, "no answer to %s within %s seconds" % (method, self.timeout))
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
            responses = {}
            for key, question in (result.get("inputRequests") or {}).items():
                responses[key] = self._answer_question(question.get("method"), question.get("params") or {})
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
        items, cursor = [], None
        while True:
            result = self.request(method, {"cursor": cursor} if cursor else {})
            items.extend(result.get(field, []))
            cursor = result.get("nextCursor")
            if not cursor:
                return items

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
            try:
                app.serve(server_in, server_out)
            finally:
                server_out.close()
                server_in.close()
        self._server = threading.Thread(target=serve, name="minimcp-testserver", daemon=True)
        self._server.start()
        self._start(os.fdopen(out_read, "rb"), os.fdopen(in_write, "wb"))
        self.connect()

    def close(self) -> None:
        """Close the server's input and wait for it to stop."""
        try:
            self._writer_stream.close()
        except OSError:
            pass
        self._server.join(self.app.shutdown_grace + 5)
        self._thread.join(5)


class _ProcessClient(_ClientBase):
    """The command line's client: drives a server process over its stdin/stdout."""

    def __init__(self, command: list, protocol: str = LATEST_HANDSHAKE_VERSION, **options) -> None:
        import subprocess
        super().__init__(protocol, **options)
        try:
            self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        except OSError as exc:
            raise SystemExit("minimcp: cannot start %s: %s" % (" ".join(command), exc))
        self._start(self.process.stdout, self.process.stdin)

    def _on_progress(self, params: dict) -> None:
        sys.stderr.write("progress: %s/%s %s\n" % (params.get("progress"), params.get("total", "?"),
                                                   params.get("message", "")))

    def close(self) -> int:
        """Close the server's stdin and return its exit status (killing it after 5 s)."""
        try:
            self._writer_stream.close()
        except OSError:
            pass
        try:
            return self.process.wait(5)
        except Exception:
            self.process.kill()
            return self.process.wait()


# The official SDK's names: servers written for it run unchanged ##############
#
# ``python3 minimcp.py serve server.py`` (or install_sdk_aliases() in a script
# that starts itself) lets a file that imports ``mcp.server.fastmcp`` (mcp 1.x),
# ``mcp.server.mcpserver`` (mcp 2.x) or ``fastmcp`` run on minimcp when those
# packages are not installed. The alias modules hold only the names such
# servers use, backed by minimcp; the finder sits at the end of sys.meta_path,
# so an installed package is always found first. Nothing here is built until
# it is asked for: ``import minimcp`` costs what it did.

_SDK_SERVER_OPTIONS = {
    "tool": ("name", "title", "description", "annotations", "icons", "meta", "output_schema",
             "structured_output", "timeout"),
    "resource": ("name", "title", "description", "mime_type", "size", "annotations", "icons", "meta"),
    "prompt": ("name", "title", "description", "icons", "meta"),
}
_SDK_PUBLIC = ("ToolError", "ResourceError", "UserMessage", "AssistantMessage", "Message")
_SDK_CACHE = {}


def _sdk_json(value):
    """An alias object (or a list/dict of them) as the JSON the protocol carries."""
    if isinstance(value, _SDK_CACHE.get("base", ())):
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


def _sdk_names() -> dict:
    """Build (once) the classes the alias modules export."""
    if "names" in _SDK_CACHE:
        return _SDK_CACHE["names"]

    class _Model:
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

    class _Block(_Model):
        def to_content(self) -> dict:
            return self.to_json()

    def block(name, kind):
        return type(name, (_Block,), {"kind": kind, "__doc__": "The %s content block." % kind})

    def model(name, doc):
        return type(name, (_Model,), {"__doc__": doc})

    class CallToolResult(_Model):
        """A complete tools/call result, passed through as it is."""

        def to_result(self) -> dict:
            result = self.to_json()
            result.setdefault("content", [])
            return result

    class ToolAnnotations(dict):
        """Tool annotations (readOnlyHint, ...), as the dict minimcp takes."""

        def __init__(self, **fields) -> None:
            super().__init__((_camel(k), v) for k, v in fields.items() if v is not None)

    class PromptMessage(dict):
        """A prompt message: ``PromptMessage(role="user", content=TextContent(...))``."""

        def __init__(self, role: str = "user", content=None, **_ignored) -> None:
            super().__init__(role=role, content=_sdk_json(content))

    class Message(PromptMessage):
        """A prompt message: ``Message("text")`` or ``Message(content, role="assistant")``."""

        def __init__(self, content=None, role: str = "user", **_ignored) -> None:
            if not isinstance(content, (str, dict)) and not hasattr(content, "to_content") and \
                    not isinstance(content, _Model):
                content = json.dumps(content, ensure_ascii=False, default=_json_default)
            super().__init__(role=role, content=content)

    class UserMessage(Message):
        """A user message of a prompt."""

        def __init__(self, content=None, **fields) -> None:
            super().__init__(content, role="user")

    class AssistantMessage(Message):
        """An assistant message of a prompt."""

        def __init__(self, content=None, **fields) -> None:
            super().__init__(content, role="assistant")

    class ToolError(Exception):
        """Raise it in a tool: the model reads its message in an ``isError`` result."""

    class ResourceError(Exception):
        """Raise it in a resource: the client gets an error with its message."""

    class FastMCP(MCPServer):
        """minimcp's MCPServer with the SDK's constructor and decorator keywords.

        Keywords minimcp has no use for (host, port, lifespan, tags, ...) are accepted and ignored.
        """

        def __init__(self, name: str = None, instructions: str = None, *args, **settings) -> None:
            keep = {k: settings[k] for k in ("version", "title", "description", "icons", "website_url")
                    if settings.get(k) is not None}
            if settings.get("lifespan") is not None:
                sys.stderr.write("minimcp: lifespan= is accepted but never run; open resources at import "
                                 "time or in the tools instead\n")
            if keep.get("icons"):
                keep["icons"] = _sdk_json(keep["icons"])
            super().__init__(name or "minimcp", instructions=instructions, **keep)

        def _options(self, kind: str, options: dict) -> dict:
            kept = {k: _sdk_json(v) for k, v in options.items() if k in _SDK_SERVER_OPTIONS[kind]}
            return {k: v for k, v in kept.items() if v is not None}

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

        def run(self, transport: str = None, **_ignored) -> None:
            if transport not in (None, "stdio"):
                raise SystemExit("minimcp serves stdio only, not %r: run it with transport='stdio'" % transport)
            super().run()

    names = {
        "FastMCP": FastMCP, "MCPServer": FastMCP, "Context": Context, "Image": Image, "Audio": Audio,
        "ToolError": ToolError, "ResourceError": ResourceError, "Message": Message,
        "UserMessage": UserMessage, "AssistantMessage": AssistantMessage, "PromptMessage": PromptMessage,
        "CallToolResult": CallToolResult, "ToolAnnotations": ToolAnnotations,
        "TextContent": block("TextContent", "text"), "ImageContent": block("ImageContent", "image"),
        "AudioContent": block("AudioContent", "audio"),
        "EmbeddedResource": block("EmbeddedResource", "resource"),
        "ResourceLink": block("ResourceLink", "resource_link"),
        "TextResourceContents": model("TextResourceContents", "Text contents of a resource."),
        "BlobResourceContents": model("BlobResourceContents", "Binary contents of a resource (base64)."),
        "Icon": model("Icon", "An icon: src, mimeType, sizes, theme."),
        "Annotations": model("Annotations", "Content annotations: audience, priority, lastModified."),
        "GetPromptResult": model("GetPromptResult", "A prompts/get result."),
    }
    _SDK_CACHE["base"] = _Model
    _SDK_CACHE["names"] = names
    return names


def _sdk_modules() -> dict:
    """Each alias module and the names it exports."""
    server = ("FastMCP", "Context", "Image", "Audio")
    mcp_types = ("TextContent", "ImageContent", "AudioContent", "EmbeddedResource", "ResourceLink",
                 "TextResourceContents", "BlobResourceContents", "CallToolResult", "ToolAnnotations",
                 "PromptMessage", "GetPromptResult", "Icon", "Annotations")
    modules = {"mcp": (), "mcp.server": (), "mcp.types": mcp_types, "fastmcp": server,
               "fastmcp.exceptions": ("ToolError", "ResourceError"), "fastmcp.utilities": (),
               "fastmcp.utilities.types": ("Image", "Audio"), "fastmcp.server": server,
               "fastmcp.server.context": ("Context",),
               "fastmcp.prompts": ("Message", "PromptMessage"), "fastmcp.prompts.prompt": ("Message", "PromptMessage")}
    for base in ("mcp.server.fastmcp", "mcp.server.mcpserver"):
        modules.update({
            base: server + (("MCPServer",) if base.endswith("mcpserver") else ()),
            base + ".server": server + ("MCPServer",), base + ".exceptions": ("ToolError", "ResourceError"),
            base + ".prompts": (), base + ".prompts.base": ("UserMessage", "AssistantMessage", "Message"),
            base + ".utilities": (), base + ".utilities.types": ("Image", "Audio"),
            base + ".context": ("Context",)})
    return modules


def _sdk_refusal(module: str, name: str = None) -> ImportError:
    covered = _sdk_modules()
    root = module.split(".")[0]
    listing = "; ".join("%s: %s" % (m, ", ".join(n)) for m, n in sorted(covered.items())
                        if n and m.split(".")[0] == root)
    what = "%s.%s" % (module, name) if name else module
    return ImportError("minimcp stands in for the %r package, which is not installed, and does not cover %s. "
                       "It covers %s. Install the real package (pip install %s), or import that name from "
                       "minimcp or write it without the SDK." % (root, what, listing, root), name=module)


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
        names = _sdk_names()
        exported = _sdk_modules()[module.__name__]
        module.__dict__.update({n: names[n] for n in exported})
        module.__all__ = list(exported)
        module.__path__ = []
        module.__doc__ = "minimcp's stand-in for %s (%s)." % (module.__name__, ", ".join(exported) or "a package")

        def missing(name):
            if name.startswith("__"):
                raise AttributeError(name)
            raise _sdk_refusal(module.__name__, name)
        module.__getattr__ = missing


def install_sdk_aliases() -> None:
    """Let code written for the official SDK or FastMCP import its names from minimcp.

    After this call, ``from mcp.server.fastmcp import FastMCP, Context`` (mcp 1.x),
    ``from mcp.server.mcpserver import MCPServer`` (mcp 2.x), ``from fastmcp import FastMCP``
    and the other names such servers use (``Image``, ``ToolError``, prompt messages,
    ``mcp.types`` content) resolve to minimcp, unless the real package is installed:
    an installed package always wins. ``python3 minimcp.py serve server.py`` calls it for
    you; a script that starts itself calls it before its SDK imports. Any other name fails
    with an ImportError that lists what is covered.
    """
    if not any(isinstance(finder, _SDKFinder) for finder in sys.meta_path):
        sys.meta_path.append(_SDKFinder())


def __getattr__(name: str):
    # ToolError, UserMessage, ... are built on first use, so ``import minimcp`` stays cheap.
    if name in _SDK_PUBLIC or (name[:1].isupper() and name in _sdk_names()):
        return _sdk_names()[name]
    raise AttributeError("module 'minimcp' has no attribute %r" % name)


# Command line: python3 minimcp.py COMMAND ... -- SERVER COMMAND ##############

_USAGE = """usage: python3 minimcp.py COMMAND [options] [-- SERVER COMMAND...]

Inspect, call and test any stdio MCP server, with nothing installed.

commands:
  inspect [--json] [--call TOOL [ARGS...]] -- CMD...   what the server offers (and call a tool)
  call TOOL [JSON | key=value ...] -- CMD...           call a tool and print its result
  read URI -- CMD...                                   read a resource
  prompt NAME [key=value ...] -- CMD...                get a prompt
  complete REF ARGUMENT [VALUE] -- CMD...              complete a prompt argument or template variable
  selftest [--slow-tool NAME] -- CMD...                the checks to run before shipping a server
  config --client claude|vscode|cursor [--name N] SCRIPT [ARGS...]
                                                       the host configuration snippet, absolute paths
  serve SCRIPT[:OBJECT]                                run the MCPServer object defined in a file
  serve --functions SCRIPT [FUNCTION ...]              serve a script's plain functions as tools
  --version                                            print minimcp's version

options:
  --protocol VERSION   speak this revision (default %s; 2026-07-28 uses server/discover)
  --timeout SECONDS    how long to wait for each answer (default 30)

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
""" % LATEST_HANDSHAKE_VERSION


def _looks_like_argument(word: str) -> bool:
    return word.lstrip().startswith("{") or ("=" in word and word.split("=", 1)[0].isidentifier())


def _parse_arguments(values: list) -> dict:
    """Tool/prompt arguments given as one JSON object or as key=value words."""
    if len(values) == 1 and values[0].lstrip().startswith("{"):
        try:
            arguments = json.loads(values[0])
        except ValueError as exc:
            raise SystemExit("minimcp: the arguments are not valid JSON: %s" % exc)
        if not isinstance(arguments, dict):
            raise SystemExit("minimcp: the JSON arguments must be an object")
        return arguments
    arguments = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep:
            raise SystemExit("minimcp: arguments are one JSON object or key=value words, not %r" % item)
        try:
            arguments[key] = json.loads(value)
        except ValueError:
            arguments[key] = value
    return arguments


def _terminal_answers(client: _ClientBase) -> None:
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
        for name, prop in (params.get("requestedSchema", {}).get("properties") or {}).items():
            sys.stderr.write("%s (%s): " % (name, prop.get("type", "string")))
            sys.stderr.flush()
            value = sys.stdin.readline().rstrip("\n")
            if prop.get("type") in ("number", "integer", "boolean"):
                try:
                    value = json.loads(value.lower() if prop.get("type") == "boolean" else value)
                except ValueError:
                    pass
            content[name] = value
        return {"action": "accept", "content": content}

    client.sampling, client.elicitation = sampling, elicitation
    client.capabilities.update({"sampling": {}, "elicitation": {"form": {}, "url": {}}})
    client.roots = [{"uri": "file://" + os.path.abspath(os.getcwd()).replace(os.sep, "/"), "name": "cwd"}]
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
        arguments = ", ".join("%s%s: %s" % (name, "" if name in required else "?",
                                            prop.get("type", "any") if isinstance(prop, dict) else "any")
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


def _print_result(result: dict, out) -> None:
    for block in result.get("content", []):
        out.write((block["text"] if block.get("type") == "text" else json.dumps(block)) + "\n")
    structured = result.get("structuredContent")
    texts = [b.get("text") for b in result.get("content", [])]
    if "structuredContent" in result and structured != {"result": texts[0] if len(texts) == 1 else texts}:
        out.write("structuredContent: %s\n" % json.dumps(structured, ensure_ascii=False))
    for content in result.get("contents", []):
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


def _config_snippet(client_kind: str, name: str, script: str, arguments: list) -> dict:
    entry = {"command": os.path.abspath(sys.executable), "args": [os.path.abspath(script)] + list(arguments)}
    if client_kind == "vscode":
        return {"servers": {name: dict({"type": "stdio"}, **entry)}}
    if client_kind in ("claude", "cursor"):
        return {"mcpServers": {name: entry}}
    raise SystemExit("minimcp: --client is claude, vscode or cursor")


def _load_script(path: str):
    """Import a script as a module (its ``if __name__ == "__main__"`` block does not run)."""
    import importlib.util
    if not os.path.isfile(path):
        raise SystemExit("minimcp: no such file: %s" % path)
    directory = os.path.dirname(os.path.abspath(path))
    if directory not in sys.path:
        sys.path.insert(0, directory)
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


def _serve_command(words: list) -> int:
    if words and words[0] == "--functions":
        if len(words) < 2:
            raise SystemExit("minimcp: serve --functions SCRIPT [FUNCTION ...]")
        module = _load_script(words[1])
        names = words[2:] or [n for n, v in vars(module).items() if callable(v) and not n.startswith("_")
                              and getattr(v, "__module__", None) == module.__name__ and not isinstance(v, type)]
        app = MCPServer(module.__name__)
        for name in names:
            function = getattr(module, name, None)
            if not callable(function):
                raise SystemExit("minimcp: %s has no function %r" % (words[1], name))
            app.add_tool(function)
        app.run()
        return 0
    if len(words) != 1:
        raise SystemExit("minimcp: serve SCRIPT[:OBJECT]  or  serve --functions SCRIPT [FUNCTION ...]")
    script, _, attribute = words[0].partition(":")
    if len(script) == 1 and attribute and os.name == "nt":        # C:\path\x.py
        script, _, attribute = words[0].rpartition(":") if words[0].count(":") > 1 else (words[0], "", "")
    install_sdk_aliases()                     # a server written for the official SDK runs unchanged
    module = _load_script(script)
    if attribute:
        app = getattr(module, attribute, None)
    else:
        servers = [v for v in vars(module).values() if isinstance(v, MCPServer)]
        app = servers[0] if len(servers) == 1 else next(
            (getattr(module, n) for n in ("app", "mcp", "server") if isinstance(getattr(module, n, None), MCPServer)),
            None)
    if not isinstance(app, MCPServer):
        raise SystemExit("minimcp: found no MCPServer object in %s%s" % (script, ":" + attribute if attribute else ""))
    app.run()
    return 0


def _selftest(command: list, protocol: str, slow_tool: str, timeout: float, out) -> int:
    """Run the checks a server author needs before shipping; one line per check."""
    import subprocess
    outcome = {"passed": 0, "failed": 0}

    def report(ok, name, detail=""):
        word = {True: "PASS", False: "FAIL", None: "SKIP"}[ok]
        if ok is not None:
            outcome["passed" if ok else "failed"] += 1
        out.write("%s  %s%s\n" % (word, name, (": " + detail) if detail else ""))
        out.flush()

    class Recorder(_ProcessClient):
        """Keeps every raw stdout line, to check nothing but JSON-RPC reaches it."""
        def _on_progress(self, params):
            pass

        def _start(self, reader, writer):
            self.raw = []
            original = reader

            class Tap:
                def __iter__(tap):
                    for line in original:
                        self.raw.append(line)
                        yield line
            super()._start(Tap(), writer)

    def pure(client):
        bad = []
        for line in client.raw:
            try:
                message = json.loads(line.decode("utf-8"))
                if not line.endswith(b"\n") or line.endswith(b"\r\n") or (isinstance(message, dict)
                                                                          and message.get("jsonrpc") != "2.0"):
                    bad.append(line)
            except ValueError:
                bad.append(line)
        return bad

    impure = []
    for version in HANDSHAKE_VERSIONS:
        client = Recorder(command, version, timeout=timeout)
        try:
            result = client.connect()
            report(result.get("protocolVersion") == version, "handshake %s" % version,
                   "answered %s" % result.get("protocolVersion"))
        except MCPError as exc:
            report(False, "handshake %s" % version, exc.message)
        client.close()
        impure += pure(client)
    client = Recorder(command, LATEST_PROTOCOL_VERSION, timeout=timeout)
    try:
        discovered = client.connect()
        report("2026-07-28" in discovered.get("supportedVersions", []), "server/discover",
               "supports %s" % ", ".join(discovered.get("supportedVersions", [])))
    except MCPError as exc:
        report(False, "server/discover", "%s (%s)" % (exc.message, exc.code))
    client.close()
    impure += pure(client)
    client = Recorder(command, protocol, timeout=timeout)
    try:
        client.connect()
        tools = {t["name"]: t for t in client.list_tools()} if True else {}
        report(True, "tools/list", "%d tools" % len(tools))
        slow = slow_tool or ("slow" if "slow" in tools else None)
        if slow is None or slow not in tools:
            report(None, "concurrency", "no slow tool (give --slow-tool NAME, taking 'seconds')")
            report(None, "cancellation", "no slow tool")
        else:
            results, threads = [], []
            started = time.monotonic()
            for _ in range(3):
                thread = threading.Thread(target=lambda: results.append(
                    client.call_tool(slow, {"seconds": 1})))
                thread.start()
                threads.append(thread)
            for thread in threads:
                thread.join(timeout)
            elapsed = time.monotonic() - started
            report(len(results) == 3 and elapsed < 2.5, "concurrency",
                   "3 calls of %s 1s each took %.2fs" % (slow, elapsed))
            ids = []
            waiter = threading.Thread(target=lambda: _ignore_errors(
                lambda: client.call_tool(slow, {"seconds": 3}, on_id=ids.append)))
            waiter.daemon = True
            waiter.start()
            time.sleep(0.3)
            client.notify("notifications/cancelled", {"requestId": ids[0], "reason": "selftest"})
            time.sleep(0.5)
            answered = any(_id_key(ids[0]) == key for key in client._answers)
            alive = client.request("tools/list") is not None
            report(not answered and alive, "cancellation",
                   "no response after the cancel, server still answers" if not answered else "it answered anyway")
    except MCPError as exc:
        report(False, "tools", "%s (%s)" % (exc.message, exc.code))
    started = time.monotonic()
    try:
        client._writer_stream.close()
        status = client.process.wait(5)
        elapsed = time.monotonic() - started
        report(status == 0 and elapsed < 2, "exit on stdin EOF", "status %s after %.0f ms" % (status, elapsed * 1000))
    except subprocess.TimeoutExpired:
        client.process.kill()
        report(False, "exit on stdin EOF", "still running 5 s after stdin closed")
    impure += pure(client)
    report(not impure, "stdout holds only JSON-RPC", "%d bad lines, first: %r" % (len(impure), impure[0][:80])
           if impure else "every line was one JSON-RPC message")
    out.write("%d passed, %d failed\n" % (outcome["passed"], outcome["failed"]))
    return 0 if outcome["failed"] == 0 else 1


def _ignore_errors(function):
    try:
        function()
    except MCPError:
        pass


def _split_command_line(argv: list) -> tuple:
    """Split ``OPTIONS -- SERVER COMMAND`` into (options, command)."""
    if "--" in argv:
        index = argv.index("--")
        return argv[:index], argv[index + 1:]
    return argv, []


def main(argv: list = None) -> int:
    """The command line; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        (sys.stdout if argv else sys.stderr).write(_USAGE)
        return 0 if argv else 2
    if argv[0] in ("--version", "-V"):
        sys.stdout.write("minimcp %s\n" % __version__)
        return 0
    command, rest = argv[0], argv[1:]
    if command == "serve":
        return _serve_command(rest)
    options, server = _split_command_line(rest)
    protocol, timeout, as_json, words, extra = LATEST_HANDSHAKE_VERSION, 30.0, False, [], {}
    index = 0
    while index < len(options):
        option = options[index]
        if option in ("--protocol", "--timeout", "--client", "--name", "--slow-tool") and index + 1 < len(options):
            extra[option] = options[index + 1]
            index += 2
            continue
        if option == "--json":
            as_json = True
        else:
            words.append(option)
        index += 1
    protocol = extra.get("--protocol", protocol)
    try:
        timeout = float(extra.get("--timeout", timeout))
    except ValueError:
        raise SystemExit("minimcp: --timeout takes seconds")
    if protocol not in PROTOCOL_VERSIONS:
        raise SystemExit("minimcp: unknown protocol %s (one of %s)" % (protocol, ", ".join(PROTOCOL_VERSIONS)))
    if command == "config":
        if not words:
            raise SystemExit("minimcp: config --client claude|vscode|cursor [--name N] SCRIPT [ARGS...]")
        script = words[0]
        name = extra.get("--name") or os.path.splitext(os.path.basename(script))[0]
        snippet = _config_snippet(extra.get("--client", "claude"), name, script, words[1:] + server)
        sys.stdout.write(json.dumps(snippet, indent=2) + "\n")
        return 0
    if command not in ("inspect", "call", "read", "prompt", "complete", "selftest"):
        sys.stderr.write("minimcp: unknown command %r\n\n%s" % (command, _USAGE))
        return 2
    if not server and command == "inspect" and words:
        server, words = words, []            # inspect python3 server.py (no "--")
    if not server:
        sys.stderr.write("minimcp: give the server command after --\n\n%s" % _USAGE)
        return 2
    if command in ("call", "read", "prompt") and not words and len(server) > 1:
        tail = len(server)                    # call -- CMD... TOOL [ARGS]: arguments last
        while tail > 1 and command != "read" and _looks_like_argument(server[tail - 1]):
            tail -= 1
        words, server = server[tail - 1:], server[:tail - 1]
    if command == "selftest":
        return _selftest(server, protocol, extra.get("--slow-tool"), timeout, sys.stdout)
    client = _ProcessClient(server, protocol, timeout=timeout)
    _terminal_answers(client)
    status = 0
    try:
        opened = client.connect()
        output = sys.stderr if as_json else sys.stdout
        report = {}
        if command == "inspect":
            report = _print_inspection(client, opened, output)
            if "--call" in words:
                position = words.index("--call")
                call = words[position + 1:]
                if not call:
                    raise SystemExit("minimcp: --call TOOL [ARGS...]")
                result = _call_with_interrupt(client, call[0], _parse_arguments(call[1:]))
                output.write("\ncall %s -> %s\n" % (call[0], "isError" if result.get("isError") else "ok"))
                report["call"] = result
                status = 1 if result.get("isError") else 0
                if not as_json:
                    _print_result(result, output)
        elif not words:
            raise SystemExit("minimcp: %s needs %s" % (command, {"call": "a tool name", "read": "a URI",
                                                                  "prompt": "a prompt name",
                                                                  "complete": "REF ARGUMENT [VALUE]"}[command]))
        elif command == "call":
            report = _call_with_interrupt(client, words[0], _parse_arguments(words[1:]))
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
        if as_json:
            sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
        elif command in ("call", "read", "prompt"):
            _print_result(report, sys.stdout)
    except MCPError as exc:
        sys.stderr.write("minimcp: error %s: %s\n" % (exc.code, exc.message))
        status = 1
    finally:
        code = client.close()
    if command == "inspect" and not as_json:
        sys.stdout.write("server exited with status %s after its stdin closed\n" % code)
    return status


if __name__ == "__main__":
    # Scripts loaded by "serve" import minimcp: let them find this very module.
    sys.modules.setdefault("minimcp", sys.modules[__name__])
    try:
        sys.exit(main())
    except BrokenPipeError:                  # e.g. piped into head: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        sys.exit(1)
