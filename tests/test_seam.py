"""The seam between the core and its components, read from the files' syntax trees.

minimcp.py is the core; each component is a file beside it, minimcp_<name>.py, whose
header (everything above its first section banner) imports what its sections use and
checks the version, and which plugs itself in with one _plug() call. These are checks of
names in the code, not of behaviour: tests/core/ runs the core alone, test_files.py
runs the files and the bundle on the wire.
"""

import ast
import builtins
import glob
import os
import re
import subprocess
import symtable
import sys

import pytest

import minimcp
from conftest import ROOT

BANNER = re.compile(r"^# .*####[ \t]*$", re.M)
OWN = {"__name__", "__file__", "__doc__", "__spec__", "__loader__", "__package__", "__builtins__", "__version__"}


def read(name: str) -> str:
    with open(os.path.join(ROOT, name), encoding="utf-8") as source:
        return source.read()


CORE = read("minimcp.py")
CORE_TREE = ast.parse(CORE)
FILES = {os.path.basename(path)[len("minimcp_"):-3]: read(os.path.basename(path))
         for path in sorted(glob.glob(os.path.join(ROOT, "minimcp_*.py")))}
COMPONENTS = [name for name in minimcp._COMPONENT_FILES]


def header_and_body(text: str) -> tuple:
    banner = BANNER.search(text)
    assert banner is not None, "a component file's sections start at a banner"
    return text[:banner.start()], text[banner.start():]


def defined(tree: ast.Module) -> set:
    """The names a module binds at its top level (or with ``global`` in a function)."""
    names = set()
    for node in tree.body:
        for inner in ast.walk(node) if isinstance(node, (ast.If, ast.Try, ast.With, ast.For)) else [node]:
            if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(inner.name)
            elif isinstance(inner, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                for target in inner.targets if isinstance(inner, ast.Assign) else [inner.target]:
                    names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
            elif isinstance(inner, (ast.Import, ast.ImportFrom)):
                names.update((alias.asname or alias.name).split(".")[0] for alias in inner.names)
    names.update(name for node in ast.walk(tree) if isinstance(node, ast.Global) for name in node.names)
    return names


def globals_read(text: str) -> set:
    """Every name the module reads from its globals, in any scope (Python's own scoping rules)."""
    found = set()

    def walk(table, top):
        for symbol in table.get_symbols():
            # (at the top, a name the module assigns is its own: Python 3.12 inlines a module-level
            # comprehension, so its loop variable shows up in the top table as one)
            if symbol.is_referenced() and (not symbol.is_assigned() if top else symbol.is_global() or (
                    table.get_type() == "class" and not symbol.is_local() and not symbol.is_free())):
                found.add(symbol.get_name())
        for child in table.get_children():
            walk(child, False)
    walk(symtable.symtable(text, "<component>", "exec"), True)
    for node in ast.walk(ast.parse(text)):          # and "MCPServer" in a string annotation
        annotations = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = node.args.args + node.args.kwonlyargs + node.args.posonlyargs + [node.args.vararg, node.args.kwarg]
            annotations = [a.annotation for a in arguments if a is not None] + [node.returns]
        elif isinstance(node, ast.AnnAssign):
            annotations = [node.annotation]
        for annotation in annotations:
            if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
                found.update(n.id for n in ast.walk(ast.parse(annotation.value, mode="eval")) if isinstance(n, ast.Name))
    return found


def imported(header: str) -> dict:
    """{module: names} of the header's ``from minimcp... import`` statements."""
    found = {}
    for node in ast.parse(header).body:
        if isinstance(node, ast.ImportFrom) and node.module.startswith("minimcp"):
            found.setdefault(node.module, set()).update(alias.name for alias in node.names)
    return found


def plugged(text: str) -> str:
    calls = [node for node in ast.walk(ast.parse(text)) if isinstance(node, ast.Call)
             and getattr(node.func, "id", getattr(node.func, "attr", None)) == "_plug"]
    assert len(calls) == 1, "one _plug() call"
    return calls[0].args[0].value


# -- the files ------------------------------------------------------------------------------

def test_the_core_s_table_names_every_component_file_and_each_plugs_in_as_its_name():
    assert set(COMPONENTS) <= set(FILES), set(COMPONENTS) - set(FILES)
    assert set(COMPONENTS) >= {"apps", "skills", "http", "testclient", "sdk", "cli"}
    for component in COMPONENTS:
        assert plugged(FILES[component]) == component
    assert not re.search(r"^_plug\(", CORE, flags=re.M)


@pytest.mark.parametrize("component", COMPONENTS)
def test_a_component_s_header_imports_what_its_sections_use_and_checks_the_version(component):
    header, body = header_and_body(FILES[component])
    assert re.search(r'^__version__ = "%s"$' % re.escape(minimcp.__version__), header, flags=re.M)
    assert "if minimcp.__version__ != __version__:" in header
    assert not re.search(r"^(import|from) ", body, flags=re.M), "imports belong in the header (bundle drops it)"
    names = set()
    for module_names in imported(header).values():
        names |= module_names
    unresolved = globals_read(body) - defined(ast.parse(body)) - names - set(dir(builtins)) - OWN \
        - defined(ast.parse(header))
    assert unresolved == set(), "used but neither defined nor imported: %s" % sorted(unresolved)
    unused = names - globals_read(body)
    assert unused == set(), "imported but unused: %s" % sorted(unused)


def test_no_two_files_define_one_name_so_a_bundle_rebinds_nothing():
    where = {}
    clashes = []
    for name, tree in [("minimcp.py", CORE_TREE)] + [("minimcp_%s.py" % c, ast.parse(header_and_body(FILES[c])[1]))
                                                      for c in COMPONENTS]:
        for defined_name in defined(tree):
            if defined_name in where and defined_name not in OWN:
                clashes.append((defined_name, where[defined_name], name))
            where.setdefault(defined_name, name)
    assert clashes == []


def core_table_keys(name: str) -> set:
    """The keys of the core's dict literal ``name = {...}``."""
    for node in CORE_TREE.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == name \
                and isinstance(node.value, ast.Dict):
            return {key.value for key in node.value.keys if isinstance(key, ast.Constant)}
    return set()


def test_a_component_adds_rows_to_the_core_s_tables_and_never_replaces_one():
    replaced = []
    for component in COMPONENTS:
        header, body = header_and_body(FILES[component])
        tables = {name for name in imported(header).get("minimcp", ()) if name.isupper() or name.startswith("_")}
        for node in ast.walk(ast.parse(body)):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if (isinstance(target, ast.Subscript) and getattr(target.value, "id", None) in tables
                            and isinstance(target.slice, ast.Constant)
                            and target.slice.value in core_table_keys(target.value.id)):
                        replaced.append((component, target.value.id, target.slice.value))
    assert replaced == []
    assert core_table_keys("_DIALECTS") == {"minimcp"}             # the SDK's rows are minimcp_sdk.py's


# -- the seam -------------------------------------------------------------------------------

def private_attributes_of_core() -> set:
    """The private attributes core classes define (methods, and what ``self.X =`` assigns)."""
    names = set()
    for node in CORE_TREE.body:
        if isinstance(node, ast.ClassDef):
            for inner in ast.walk(node):
                if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(inner.name)
                elif (isinstance(inner, ast.Attribute) and isinstance(inner.ctx, ast.Store)
                      and isinstance(inner.value, ast.Name) and inner.value.id == "self"):
                    names.add(inner.attr)
    return {name for name in names if name.startswith("_") and not name.startswith("__")}


def component_reads():
    """(component, the core's private names it imports, the attributes it reads off other objects)."""
    for component in COMPONENTS:
        header, body = header_and_body(FILES[component])
        names = imported(header).get("minimcp", set())
        attributes = {node.attr for node in ast.walk(ast.parse(body)) if isinstance(node, ast.Attribute)
                      and not (isinstance(node.value, ast.Name) and node.value.id == "self")}
        yield component, {n for n in names if n.startswith("_") and not n.startswith("__")}, attributes


def test_components_use_only_the_seam_of_the_core():
    core_attributes = private_attributes_of_core()
    for component, names, attributes in component_reads():
        assert names <= minimcp._SEAM["names"], (component, sorted(names - minimcp._SEAM["names"]))
        reached = (attributes & core_attributes) - minimcp._SEAM["attributes"]
        assert reached == set(), (component, sorted(reached))


def test_every_seam_name_and_attribute_is_defined_in_the_core_and_used_by_a_component():
    names, attributes = set(), set()
    for _, used, read_off in component_reads():
        names |= used
        attributes |= read_off
    assert minimcp._SEAM["names"] <= defined(CORE_TREE)
    assert sorted(minimcp._SEAM["names"] - names) == [], "in _SEAM but no component imports it"
    assert sorted(minimcp._SEAM["attributes"] - attributes) == [], "in _SEAM but no component reads it"


def test_the_core_names_a_component_only_in_its_table():
    table = next(node for node in CORE_TREE.body if isinstance(node, ast.Assign)
                 and getattr(node.targets[0], "id", None) == "_COMPONENT_FILES")
    in_table = {id(node) for node in ast.walk(table)}
    docstrings = {id(node.body[0].value) for node in ast.walk(CORE_TREE)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    words = set(COMPONENTS) | {"minimcp_%s" % c for c in COMPONENTS}
    named = sorted((node.lineno, node.value) for node in ast.walk(CORE_TREE)
                   if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in in_table
                   and id(node) not in docstrings and (node.value in words or re.search(r"minimcp_[a-z]+\.py", node.value)))
    assert named == []


TABLE_CHECK = """
import minimcp
for component in minimcp._COMPONENT_FILES:
    minimcp._component(component)
server = minimcp.MCPServer("table")
for component in minimcp._COMPONENT_FILES:
    listed = set(minimcp._COMPONENT_FILES[component].split())
    assert set(minimcp._COMPONENTS[component][1]) <= listed, component       # every name it plugs
    for name in listed:                                                      # and each is there
        assert (name in minimcp._PLUGGED and hasattr(server, name)) or name in minimcp._TOOL_OPTIONS \\
            or name in minimcp._TRANSPORTS or name in minimcp._DIALECTS or hasattr(minimcp, name), (component, name)
assert not hasattr(minimcp, "SamplingMessage")      # an SDK name the table does not list: not minimcp's
print(" ".join(sorted(minimcp._COMPONENTS)))
"""


def test_the_table_lists_what_each_component_provides_and_each_name_is_there():
    # In a process of its own: every component plugged in (the bridge's too) would stay so in
    # this one, and the bridge is imported only by the processes that run it.
    done = subprocess.run([sys.executable, "-c", TABLE_CHECK], cwd=ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode().split() == sorted(COMPONENTS)


def test_the_module_map_names_the_core_s_sections_and_the_component_files():
    layout = minimcp.__doc__.split("How the files are laid out")[1]
    for title in re.findall(r"^# (.*?) #+$", CORE, flags=re.M):            # each section, by its first word
        assert re.sub(r"^The ", "", title).split()[0].strip(":,").lower() in layout.lower(), title
    for component in COMPONENTS:
        assert "minimcp_%s.py" % component in layout, component
