"""minimcp_skills: Agent Skills (SEP-2640): skill folders as skill:// resources.

A component of minimcp. It plugs itself into minimcp.py (the core, which must be beside it
and of the same version) when imported; the core imports it on first use of a name it
provides. ``python3 minimcp.py bundle -o FILE`` writes the core and its components as one
file, leaving out this header (everything above the first section banner).
"""
# The header: imports and the version check (bundle leaves out all above the first banner)
import os

import minimcp

__version__ = "0.1.0"
if minimcp.__version__ != __version__:
    raise ImportError("%s is minimcp %s's, but %s is minimcp %s: copy both from one release"
                      % (os.path.basename(__file__), __version__, minimcp.__file__, minimcp.__version__))

from minimcp import (  # noqa: E402
    ALL_VERSIONS,
    INTERNAL_ERROR,
    MCPError,
    MCPServer,
    _Call,
    _guess_mime,
    _invalid_params,
    _logger,
    _page,
    _part,
    _plug,
    _quote_path,
    _read_below,
    _regular_files,
    _required,
    _shape_resource,
    _shaped,
    _trim,
)


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
