"""The public names of the official MCP SDK and FastMCP, as minimcp's alias modules need them.

minimcp's ``serve`` stands in for ``mcp`` and ``fastmcp`` when they are not installed
(``install_sdk_aliases``). Which modules and names exist there is not written by hand: this
script reads them from the pinned SDKs and writes the table between the ``<sdk-surface>``
markers of minimcp.py. CI runs ``check``, which fails when the table and the SDKs differ.

Modes:
  dump                   run with a venv's Python that has mcp or fastmcp installed: print
                         that SDK's public modules, names and server-class members as JSON
  write --python P ...   run ``dump`` under each interpreter, take the union, rewrite the table
  check --python P ...   the same, but only compare; exit 1 and print the drift

What counts as public, per module (no part of its dotted name starts with an underscore):
  - the names of its ``__all__`` when it has one;
  - otherwise each public name bound to a class, function or instance defined in the SDK
    (``mcp`` or ``fastmcp``), a type alias it defines (``Role = Literal[...]``, or ``CallNext =
    Callable[...]`` with typing's or collections.abc's ``Callable``), an alias it defines of a
    builtin type (``EventId = str``), or an UPPER_CASE constant; names it imported from elsewhere
    (``Any``, ``BaseModel``) are not the SDK's;
  - its submodules are modules of the table of their own (``from PKG import submodule``).
Literal constants (ints, and strings without spaces) keep their value, so minimcp backs them;
so does a package's ``__version__`` (the newest pin's), which servers import too. An alias of a
builtin type is written NAME=TYPE (``EventId=str``), and minimcp backs it with that type: a server's
``class Store(EventStore)`` annotated with ``EventId`` imports it and runs as under the SDK.
The public members of the server classes and of Context are listed as ``module:Class``.
The table is a comment block (``#|`` lines), which minimcp reads from its own source when first
needed: a comment costs ``import minimcp`` nothing.

Usage: python3 tests/interop/sdk_surface.py check --python venv1/bin/python --python ...
(tests/interop/run_sdk_diff.sh does it with the pinned versions.)
"""
import argparse
import difflib
import json
import os
import re
import subprocess
import sys

ROOTS = ("mcp", "fastmcp")
# The classes whose members a server calls (add_tool, streamable_http_app, ...) or reads (ctx.info).
MEMBER_CLASSES = ("mcp.server.fastmcp:FastMCP", "mcp.server.fastmcp:Context",
                  "mcp.server.mcpserver:MCPServer", "mcp.server.mcpserver:Context",
                  "fastmcp:FastMCP", "fastmcp:Context")
# Names that a module only imports, and so does not own by PEP 8, but that published servers
# import from it all the same (found by searching public servers' code): they stay covered.
REAL_SERVER_IMPORTS = {
    "mcp.server.fastmcp.server": "Icon TransportSecuritySettings",
    "mcp.server.mcpserver.server": "Icon TransportSecuritySettings",
}
# The modules whose objects are type aliases: typing's own, list[int] (types.GenericAlias) and
# collections.abc.Callable[[...], ...] (collections.abc._CallableGenericAlias).
ALIAS_MODULES = ("typing", "types", "typing_extensions", "collections.abc")
BEGIN, END = "# <sdk-surface>", "# </sdk-surface>"
WIDTH = 110


def _public(dotted):
    return not any(part.startswith("_") for part in dotted.split("."))


def _in_sdk(module_name):
    return isinstance(module_name, str) and module_name.split(".")[0] in ROOTS


def _literal(value):
    if isinstance(value, bool) or value is None:
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, str) and re.fullmatch(r"[^\s'\"\\]{0,80}", value) is not None


def _builtin_alias(name, value):
    """The builtin type a name the SDK binds stands for (``EventId = str``: "str"), or None."""
    import builtins
    if isinstance(value, type) and value.__module__ == "builtins" and value.__name__ != name \
            and getattr(builtins, value.__name__, None) is value:
        return value.__name__
    return None


def _defined(module):
    """The names a module binds at its top level itself (def, class, assignment), not by import."""
    import ast
    import inspect
    try:
        tree = ast.parse(inspect.getsource(module))
    except (OSError, TypeError, SyntaxError):
        return set(vars(module))
    names = set()

    def visit(body):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                for target in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                    names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
            elif isinstance(node, ast.If):
                visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                for block in [node.body, node.orelse, node.finalbody] + [h.body for h in node.handlers]:
                    visit(block)
            elif getattr(ast, "TypeAlias", None) and isinstance(node, ast.TypeAlias):
                names.add(node.name.id)
    visit(tree.body)
    return names


def _names(module):
    """module -> ({public name: literal value or None}), as defined above."""
    import inspect
    import types
    import typing
    found = {}
    exported = getattr(module, "__all__", None)
    if isinstance(exported, (list, tuple)):
        candidates = list(exported)
    elif hasattr(module, "__path__"):                 # a package's __init__ re-exports on purpose
        candidates = list(vars(module))
    else:                                             # PEP 8: what a module imports is its own detail
        candidates = sorted(_defined(module) | set(REAL_SERVER_IMPORTS.get(module.__name__, "").split()))
    for name in candidates:
        if not isinstance(name, str) or not name.isidentifier() or name.startswith("_") or not hasattr(module, name):
            continue
        value = getattr(module, name)
        if inspect.ismodule(value) or isinstance(value, typing.TypeVar):
            continue                                  # a submodule is a module of the table
        alias = _builtin_alias(name, value)
        if alias:                                     # EventId = str: servers annotate with it
            found[name] = alias
            continue
        if exported is None:
            if inspect.isclass(value) or inspect.isroutine(value):
                if not _in_sdk(getattr(value, "__module__", None)):
                    continue
            elif name.isupper() and _literal(value):
                pass
            elif type(value).__module__ in ALIAS_MODULES:
                # An alias the SDK defines (Role = Literal[...], CallNext = Callable[...]), not one it
                # imported (Any).
                if not name[:1].isupper() or getattr(typing, name, None) is value:
                    continue
            elif not _in_sdk(type(value).__module__):
                continue
        found[name] = repr(value) if _literal(value) and name.isupper() else None
    version = getattr(module, "__version__", None)
    if isinstance(version, str) and _literal(version):      # `from fastmcp import __version__`, as servers do
        found["__version__"] = repr(version)
    return found


def dump():
    import importlib
    import importlib.metadata
    import pkgutil
    import warnings
    warnings.simplefilter("ignore")
    out = os.fdopen(os.dup(1), "w")                   # modules may print at import: keep the JSON apart
    os.dup2(2, 1)
    versions, modules, members, failed = {}, {}, {}, []

    def visit(name):
        try:
            module = importlib.import_module(name)
        except BaseException as exc:                  # an optional dependency that is not installed
            failed.append("%s (%s: %s)" % (name, type(exc).__name__, str(exc).splitlines()[:1]))
            return
        modules[name] = _names(module)
        for info in pkgutil.iter_modules(getattr(module, "__path__", None) or []):
            child = name + "." + info.name
            if _public(child) and info.name != "__main__":
                visit(child)

    for root in ROOTS[::-1]:
        try:
            versions[root] = importlib.metadata.version(root)
        except importlib.metadata.PackageNotFoundError:
            continue
        # fastmcp pulls in whichever mcp its range allows: only the pinned package counts.
        visit(root)
        break
    for path in MEMBER_CLASSES:
        module_name, cls_name = path.split(":")
        if module_name in modules and cls_name in modules[module_name]:
            cls = getattr(importlib.import_module(module_name), cls_name)
            names = set(dir(cls))
            if cls_name != "Context":                 # what __init__ sets (settings, ...) is public too
                try:
                    names.update(vars(cls("sdk-surface")))
                except Exception as exc:
                    failed.append("%s() (%s: %s)" % (path, type(exc).__name__, exc))
            members[path] = sorted(n for n in names if not n.startswith("_"))
    for line in failed:
        sys.stderr.write("sdk_surface: not imported: %s\n" % line)
    json.dump({"versions": versions, "modules": modules, "members": members}, out, sort_keys=True)
    out.flush()


def collect(pythons):
    """Run dump under each interpreter (in parallel) and take the union."""
    here = os.path.abspath(__file__)
    jobs = [subprocess.Popen([python, here, "dump"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for python in pythons]
    versions, modules, members = {}, {}, {}
    for python, job in zip(pythons, jobs):
        out, err = job.communicate(timeout=600)
        if job.returncode != 0:
            sys.exit("sdk_surface: dump failed under %s:\n%s" % (python, err.decode(errors="replace")))
        data = json.loads(out)
        if not data["versions"]:
            sys.exit("sdk_surface: %s has neither mcp nor fastmcp installed" % python)
        for root, version in data["versions"].items():
            versions.setdefault(root, set()).add(version)
        for name, names in data["modules"].items():
            table = modules.setdefault(name, {})
            for n, value in names.items():
                if value is not None or n not in table:    # later pins' values win
                    table[n] = value
        for path, names in data["members"].items():
            members.setdefault(path, set()).update(names)
    return versions, modules, members


def _wrap(head, words):
    lines, line = [], head + ":"
    for word in words:
        if len(line) + 1 + len(word) > WIDTH and line.strip() and not line.endswith(":"):
            lines.append(line)
            line = "  "
        line += " " + word if line.strip() else word
    lines.append(line)
    return lines


def render(versions, modules, members):
    def key(version):
        return [int(p) if p.isdigit() else p for p in re.split(r"[.]", version)]
    pins = "; ".join("%s %s" % (root, " ".join(sorted(versions[root], key=key))) for root in sorted(versions))
    out = [BEGIN + " written by tests/interop/sdk_surface.py; do not edit",
           "# A comment, so that it costs `import minimcp` nothing: minimcp reads it from its own source",
           "# when a server first imports an SDK name. Each #| line: a public module of the SDKs and its",
           "# public names (NAME=value: a constant; NAME=str: an alias of that builtin type); then the",
           "# public members of the server classes and Context, as module:Class. The union over these pins:",
           "#| pins: " + pins]
    for name in sorted(modules):
        words = ["%s=%s" % (n, v) if v is not None else n for n, v in sorted(modules[name].items())]
        out.extend("#| " + line for line in _wrap(name, words))
    for path in sorted(members):
        out.extend("#| " + line for line in _wrap(path, sorted(members[path])))
    out.append(END)
    return "\n".join(out) + "\n"


def _minimcp_path():
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "minimcp_sdk.py")


def _current(text):
    start, end = text.find("\n" + BEGIN), text.find("\n" + END)
    if start < 0 or end < start:
        sys.exit("sdk_surface: the %s ... %s lines are not in minimcp_sdk.py" % (BEGIN, END))
    return start + 1, end + 1 + len(END) + 1


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("dump", "write", "check"))
    parser.add_argument("--python", action="append", default=[], help="a venv's Python with a pinned SDK")
    parser.add_argument("--minimcp", default=_minimcp_path())
    args = parser.parse_args(argv)
    if args.mode == "dump":
        return dump()
    if not args.python:
        parser.error("give --python for each pinned SDK venv")
    table = render(*collect(args.python))
    with open(args.minimcp, encoding="utf-8") as f:
        text = f.read()
    start, end = _current(text)
    if args.mode == "write":
        with open(args.minimcp, "w", encoding="utf-8") as f:
            f.write(text[:start] + table + text[end:])
        print("sdk_surface: wrote %d lines into %s" % (table.count("\n"), args.minimcp))
        return 0
    if text[start:end] == table:
        print("sdk_surface: minimcp's table matches the SDKs (%s)" % table.splitlines()[5].split(": ", 1)[1])
        return 0
    sys.stdout.writelines(difflib.unified_diff(text[start:end].splitlines(True), table.splitlines(True),
                                               "minimcp_sdk.py", "the installed SDKs"))
    print("sdk_surface: minimcp's SDK table drifted from the SDKs: rewrite it with "
          "`SDK_SURFACE=write tests/interop/run_sdk_diff.sh`, and back with minimcp the new names servers use")
    return 1


if __name__ == "__main__":
    sys.exit(main())
