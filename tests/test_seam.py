"""The seam between the core and its components, read from minimcp.py's syntax tree.

The core (every section up to the stdio transport) names nothing a component defines.
A component (each later section, which plugs itself in with one _plug() call) uses of
the core's private names only those that _SEAM lists, and of another component's only
those of a component it is declared to need (_NEEDS). These are checks of names in the
code, not of behaviour: test_core_only.py runs the core without its components.
"""

import ast
import collections
import os
import re

import minimcp
import minimcp_cli
from conftest import ROOT

SOURCE = open(os.path.join(ROOT, "minimcp.py"), encoding="utf-8").read()
TREE = ast.parse(SOURCE)
BANNERS = [(number, line[2:].rstrip("# ").strip()) for number, line in enumerate(SOURCE.split("\n"), 1)
           if re.match(r"^# .*####$", line)]
LAST_CORE = "Transport: newline-delimited JSON"


def section_of(line: int) -> str:
    current = "preamble"
    for number, title in BANNERS:
        if number <= line:
            current = title
    return current


def plugged_component(title: str):
    """The component whose _plug() call stands at the top level of section ``title``, if any."""
    for node in TREE.body:
        if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
                and getattr(node.value.func, "id", None) == "_plug" and section_of(node.lineno) == title):
            return node.value.args[0].value
    return None


SECTIONS = [title for _, title in BANNERS]
CORE_END = next(index for index, title in enumerate(SECTIONS) if title.startswith(LAST_CORE))
CORE = {"preamble"} | set(SECTIONS[:CORE_END + 1])
OWNER = {title: plugged_component(title) for title in SECTIONS[CORE_END + 1:]}


def defined_names() -> dict:
    """Each module-level name -> the section that defines it."""
    where = {}
    for node in TREE.body:
        targets = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            targets = [node.name]
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                targets += [name.id for name in ast.walk(target) if isinstance(name, ast.Name)]
        for name in targets:
            where.setdefault(name, section_of(node.lineno))
    return where


def private_attributes_of_core() -> set:
    """The private attributes core classes define (methods, and what ``self.X =`` assigns)."""
    names = set()
    for node in TREE.body:
        if isinstance(node, ast.ClassDef) and section_of(node.lineno) in CORE:
            for inner in ast.walk(node):
                if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(inner.name)
                elif (isinstance(inner, ast.Attribute) and isinstance(inner.ctx, ast.Store)
                      and isinstance(inner.value, ast.Name) and inner.value.id == "self"):
                    names.add(inner.attr)
    return {name for name in names if name.startswith("_") and not name.startswith("__")}


def uses():
    """(section it is used in, name, line) for every name loaded in the module."""
    for node in ast.walk(TREE):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            yield section_of(node.lineno), node.id, node.lineno


def test_the_sections_are_the_core_then_one_component_each():
    components = [OWNER[title] for title in SECTIONS[CORE_END + 1:]]
    assert None not in components, OWNER                     # every later section plugs itself in
    assert components == list(minimcp._COMPONENTS) and len(set(components)) == len(components)
    assert set(components) == {"apps", "skills", "http", "testclient", "sdk", "cli"}
    assert any(title.startswith("The seam") for title in SECTIONS[:CORE_END])
    plugs_in_core = [node.lineno for node in ast.walk(TREE) if isinstance(node, ast.Call)
                     and getattr(node.func, "id", None) == "_plug" and section_of(node.lineno) in CORE]
    assert plugs_in_core == []


def test_the_core_names_nothing_a_component_defines():
    where = defined_names()
    reaches = sorted((line, name, where[name]) for section, name, line in uses()
                     if section in CORE and name in where and where[name] not in CORE)
    assert reaches == []


def test_components_use_only_the_seam_of_the_core():
    where, seam = defined_names(), minimcp._SEAM["names"]
    reaches = sorted((section, name, line) for section, name, line in uses()
                     if section not in CORE and name in where and where[name] in CORE
                     and name.startswith("_") and not name.startswith("__") and name not in seam)
    assert reaches == []
    core_attributes, allowed = private_attributes_of_core(), minimcp._SEAM["attributes"]
    attribute_reaches = sorted(
        (section_of(node.lineno), node.attr, node.lineno) for node in ast.walk(TREE)
        if isinstance(node, ast.Attribute) and node.attr in core_attributes and node.attr not in allowed
        and section_of(node.lineno) not in CORE and not (isinstance(node.value, ast.Name) and node.value.id == "self"))
    assert attribute_reaches == []


def test_every_seam_name_is_defined_in_the_core_and_used_by_a_component():
    where = defined_names()
    used = collections.Counter(name for section, name, _ in uses() if section not in CORE)
    for name in minimcp._SEAM["names"]:
        assert where.get(name) in CORE, name
        assert used[name], "%s is in _SEAM but no component uses it" % name


def test_every_seam_attribute_is_read_by_a_component():
    read = {node.attr for node in ast.walk(TREE) if isinstance(node, ast.Attribute)
            and section_of(node.lineno) not in CORE and not (isinstance(node.value, ast.Name) and node.value.id == "self")}
    assert sorted(minimcp._SEAM["attributes"] - read) == []


def test_a_component_uses_another_only_if_it_needs_it():
    where = defined_names()
    reaches = set()
    for section, name, line in uses():
        if section in CORE or name not in where or where[name] in CORE or where[name] == section:
            continue
        user, owner = OWNER[section], OWNER[where[name]]
        if owner not in minimcp_cli._NEEDS.get(user, ()):
            reaches.add((user, owner, name, line))
    assert sorted(reaches) == []


def test_the_module_map_names_the_seam_and_every_component():
    layout = minimcp.__doc__.split("How the file is laid out")[1]
    for word in ("The seam", "MCP Apps", "Agent Skills", "Transport: HTTP", "SDK names", "Clients", "Command line"):
        assert word in layout, word
