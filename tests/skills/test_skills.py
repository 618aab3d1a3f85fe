"""Agent Skills (SEP-2640, shared/spec/extensions/skills.mdx): skill folders served as skill://
resources, skills/list, skills/get and resources/directory/read, on the wire in every revision."""

import base64
import hashlib
import os

import pytest

from conftest import HANDSHAKE_VERSIONS, MODERN, Wire, envelope, load_example
from minimcp import MCPServer

EXTENSION = "io.modelcontextprotocol/skills"
VERSIONS = HANDSHAKE_VERSIONS + [MODERN]
PDF = "skill://pdf-processing/SKILL.md"
REFUNDS = "skill://acme/billing/refunds/SKILL.md"

PDF_SKILL = """---
name: pdf-processing
description: >-
  Extract, fill, and assemble PDF documents
  with the forms in references/.
license: Apache-2.0
metadata:
  version: "2.1"
  reviewed: 2026-01-01
---

# PDF processing

Read [the forms guide](references/FORMS.md) first.
"""


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(data if isinstance(data, bytes) else data.encode("utf-8"))


def skill_md(name, description="Does %s things", extra=""):
    return "---\nname: %s\ndescription: %s\n%s---\n\n# %s\n" % (name, description % name, extra, name)


@pytest.fixture
def skills_root(tmp_path):
    """Three skills (one under a prefix folder, one nested in it) plus files that must not be served."""
    root = str(tmp_path / "skills")
    write(os.path.join(root, "pdf-processing", "SKILL.md"), PDF_SKILL)
    write(os.path.join(root, "pdf-processing", "references", "FORMS.md"), "# Forms\n")
    write(os.path.join(root, "pdf-processing", "templates", "invoice.md"), "Invoice {n}\n")
    write(os.path.join(root, "pdf-processing", "templates", "regional", "eu-invoice.md"), "EU\n")
    write(os.path.join(root, "pdf-processing", "assets", "logo.png"), b"\x89PNG\r\n\x1a\n\x00\xff")
    write(os.path.join(root, "pdf-processing", "scripts", "100% done.py"), "print('ok')\n")
    write(os.path.join(root, "pdf-processing", ".DS_Store"), b"\x00hidden")
    write(os.path.join(root, "acme", "billing", "refunds", "SKILL.md"), skill_md("refunds"))
    write(os.path.join(root, "acme", "billing", "refunds", "examples", "email.md"), "Dear customer,\n")
    write(os.path.join(root, "acme", "billing", "refunds", "partial", "SKILL.md"), skill_md("partial"))
    write(os.path.join(root, "notes.txt"), "not in any skill\n")
    secret = str(tmp_path / "secret.txt")
    write(secret, "top secret\n")
    os.symlink(secret, os.path.join(root, "pdf-processing", "references", "secret.md"))
    return root


def make_app(root, **options):
    app = MCPServer("skills-test", dialect="minimcp", **options)
    app.add_skills(root)
    return app


class Era:
    """One connection speaking one revision: handshake after initialize, 2026-07-28 by envelope."""

    def __init__(self, app, version):
        self.wire, self.version = Wire(app), version
        if version != MODERN:
            self.initialized = self.wire.initialize(version)

    def params(self, params):
        params = dict(params or {})
        if self.version == MODERN:
            params["_meta"] = envelope()
        return params

    def result(self, method, params=None):
        return self.wire.result(method, self.params(params))

    def error(self, method, params=None):
        return self.wire.error(method, self.params(params))

    def capabilities(self):
        if self.version == MODERN:
            return self.wire.result("server/discover", {"_meta": envelope()})["capabilities"]
        return self.initialized["capabilities"]

    def close(self):
        self.wire.close()


@pytest.fixture(params=VERSIONS)
def era(request, skills_root):
    app = make_app(skills_root, cache_ttl_ms=300000, cache_scope="public")
    connection = Era(app, request.param)
    connection.root = skills_root
    yield connection
    connection.close()


def digest_of(path):
    with open(path, "rb") as handle:
        data = handle.read()
    return "sha256:" + hashlib.sha256(data).hexdigest(), len(data)


# -- the capability ------------------------------------------------------------------------------

@pytest.mark.parametrize("version", VERSIONS)
def test_the_extension_is_declared_where_the_revision_has_extensions(skills_root, version):
    wire = Wire(make_app(skills_root))
    if version == MODERN:
        capabilities = wire.result("server/discover", {"_meta": envelope()})["capabilities"]
        assert capabilities["extensions"] == {EXTENSION: {"directoryRead": True}}
    else:                                       # ServerCapabilities has no extensions before 2026-07-28
        capabilities = wire.initialize(version)["capabilities"]
        assert "extensions" not in capabilities
        assert wire.result("skills/list", {})["skills"]      # the methods still answer
    assert "resources" in capabilities          # the extension needs resources/read
    wire.close()


@pytest.mark.parametrize("version", VERSIONS)
def test_a_server_without_skills_declares_nothing_and_knows_no_skill_methods(version):
    app = MCPServer("plain", dialect="minimcp")

    @app.tool()
    def echo(text: str) -> str:
        return text
    connection = Era(app, version)
    assert "extensions" not in connection.capabilities()
    for method, params in (("skills/list", {}), ("skills/get", {"uri": PDF}),
                           ("resources/directory/read", {"uri": "skill://pdf-processing"})):
        assert connection.error(method, params)["code"] == -32601
    connection.close()


def test_tasks_and_skills_share_the_extensions_object(skills_root):
    app = make_app(skills_root)

    @app.tool(task_support="optional")
    def job() -> str:
        return "done"
    wire = Wire(app)
    capabilities = wire.result("server/discover", {"_meta": envelope()})["capabilities"]
    assert set(capabilities["extensions"]) == {"io.modelcontextprotocol/tasks", EXTENSION}
    wire.close()


# -- skills/list -----------------------------------------------------------------------------------

def test_the_listing_is_a_complete_manifest_with_digests(era):
    result = era.result("skills/list")
    entries = {entry["uri"]: entry for entry in result["skills"]}
    assert list(entries) == [REFUNDS, "skill://acme/billing/refunds/partial/SKILL.md", PDF]
    pdf = entries[PDF]
    assert pdf["frontmatter"] == {
        "name": "pdf-processing", "license": "Apache-2.0",
        "description": "Extract, fill, and assemble PDF documents with the forms in references/.",
        "metadata": {"version": "2.1", "reviewed": "2026-01-01"}}
    files = {r["uri"]: r for r in pdf["resources"]}
    assert pdf["resources"][0]["uri"] == PDF                     # SKILL.md first
    assert sorted(files) == sorted([PDF, "skill://pdf-processing/references/FORMS.md",
                                    "skill://pdf-processing/templates/invoice.md",
                                    "skill://pdf-processing/templates/regional/eu-invoice.md",
                                    "skill://pdf-processing/assets/logo.png",
                                    "skill://pdf-processing/scripts/100%25%20done.py"])
    for relative in ("SKILL.md", "assets/logo.png", "scripts/100% done.py"):
        uri = "skill://pdf-processing/" + relative.replace("%", "%25").replace(" ", "%20")
        digest, size = digest_of(os.path.join(era.root, "pdf-processing", *relative.split("/")))
        assert files[uri]["digest"] == digest and files[uri]["size"] == size
    refunds = [r["uri"] for r in entries[REFUNDS]["resources"]]
    assert "skill://acme/billing/refunds/partial/SKILL.md" in refunds    # nested: supporting content


def test_cache_hints_only_in_2026_07_28(era):
    result = era.result("skills/list")
    if era.version == MODERN:
        assert (result["ttlMs"], result["cacheScope"], result["resultType"]) == (300000, "public", "complete")
    else:
        assert "ttlMs" not in result and "cacheScope" not in result and "resultType" not in result


def test_listing_pages_keep_each_entry_whole(skills_root):
    for version in (HANDSHAKE_VERSIONS[-1], MODERN):
        connection = Era(make_app(skills_root, page_size=1), version)
        seen, cursor = [], None
        while True:
            result = connection.result("skills/list", {"cursor": cursor} if cursor else {})
            assert len(result["skills"]) == 1
            seen.append(result["skills"][0]["uri"])
            cursor = result.get("nextCursor")
            if cursor is None:
                break
            assert len(seen) < 3, "a fourth page of three skills: %r" % seen       # never an endless loop
        assert len(seen) == 3 and PDF in seen and REFUNDS in seen
        assert connection.error("skills/list", {"cursor": "bogus"})["code"] == -32602
        connection.close()


def test_a_skill_file_reads_back_with_its_digest_and_size(era):
    files = {r["uri"]: r for r in era.result("skills/get", {"uri": PDF})["skill"]["resources"]}
    for uri in (PDF, "skill://pdf-processing/assets/logo.png", "skill://pdf-processing/scripts/100%25%20done.py"):
        content = era.result("resources/read", {"uri": uri})["contents"][0]
        data = content["text"].encode("utf-8") if "text" in content else base64.b64decode(content["blob"])
        assert ("sha256:" + hashlib.sha256(data).hexdigest(), len(data)) == \
            (files[uri]["digest"], files[uri]["size"]), uri
    assert era.result("resources/read", {"uri": PDF})["contents"][0]["mimeType"] == "text/markdown"


def test_skill_md_resources_are_named_and_described_from_the_frontmatter(era):
    listed = {r["uri"]: r for r in era.result("resources/list")["resources"]}
    assert listed[PDF]["name"] == "pdf-processing" and listed[PDF]["mimeType"] == "text/markdown"
    assert listed[PDF]["description"].startswith("Extract, fill")
    nested = listed["skill://acme/billing/refunds/partial/SKILL.md"]
    assert nested["name"] == "partial"                           # its own skill, not a plain file
    assert "skill://pdf-processing/.DS_Store" not in listed
    assert not any(uri.endswith("secret.md") or "notes.txt" in uri for uri in listed)


# -- skills/get ---------------------------------------------------------------------------------

def test_get_answers_the_listed_entry(era):
    listed = {e["uri"]: e for e in era.result("skills/list")["skills"]}
    for uri in listed:
        result = era.result("skills/get", {"uri": uri})
        assert result["skill"] == listed[uri]
        assert "nextCursor" not in result
        assert ("ttlMs" in result and "cacheScope" in result) == (era.version == MODERN)


def test_get_refuses_what_is_not_a_served_skill(era):
    for uri in ("skill://acme/billing/chargebacks/SKILL.md", "skill://pdf-processing/references/FORMS.md",
                "skill://pdf-processing", "skill://pdf-processing/../pdf-processing/SKILL.md"):
        error = era.error("skills/get", {"uri": uri})
        assert error["code"] == -32602 and error["message"] == "No skill is served at %s" % uri
    assert era.error("skills/get", {})["code"] == -32602
    assert era.error("skills/get", {"uri": 7})["code"] == -32602


def test_entries_follow_the_files_on_disk(era):
    path = os.path.join(era.root, "pdf-processing", "templates", "invoice.md")
    write(path, "A longer invoice template than before\n")
    uri = "skill://pdf-processing/templates/invoice.md"
    entry = {r["uri"]: r for r in era.result("skills/get", {"uri": PDF})["skill"]["resources"]}
    assert (entry[uri]["digest"], entry[uri]["size"]) == digest_of(path)
    os.remove(path)                                            # gone: no longer in the manifest
    entry = {r["uri"]: r for r in era.result("skills/get", {"uri": PDF})["skill"]["resources"]}
    assert uri not in entry and PDF in entry


# -- resources/directory/read --------------------------------------------------------------------

def test_directory_read_lists_direct_children(era):
    children = era.result("resources/directory/read", {"uri": "skill://pdf-processing"})["resources"]
    kinds = {c["uri"]: c.get("mimeType") for c in children}
    assert kinds == {PDF: "text/markdown", "skill://pdf-processing/assets": "inode/directory",
                     "skill://pdf-processing/references": "inode/directory",
                     "skill://pdf-processing/scripts": "inode/directory",
                     "skill://pdf-processing/templates": "inode/directory"}
    templates = era.result("resources/directory/read", {"uri": "skill://pdf-processing/templates"})["resources"]
    assert [(c["uri"], c["name"]) for c in templates] == [
        ("skill://pdf-processing/templates/invoice.md", "invoice.md"),
        ("skill://pdf-processing/templates/regional", "regional")]
    scripts = era.result("resources/directory/read", {"uri": "skill://pdf-processing/scripts/"})["resources"]
    assert scripts[0]["name"] == "100% done.py"
    prefix = era.result("resources/directory/read", {"uri": "skill://acme"})["resources"]
    assert prefix == [{"uri": "skill://acme/billing", "name": "billing", "mimeType": "inode/directory"}]


def test_directory_read_refuses_files_and_unknown_directories(era):
    for uri in (PDF, "skill://pdf-processing/templates/invoice.md", "skill://nothing-here", "skill://",
                "skill://pdf-processing/..", "file:///etc"):
        error = era.error("resources/directory/read", {"uri": uri})
        assert error["code"] == -32602, uri
    assert era.error("resources/directory/read", {})["code"] == -32602


def test_directory_read_pages(skills_root):
    for version in (HANDSHAKE_VERSIONS[0], MODERN):
        connection = Era(make_app(skills_root, page_size=2), version)
        first = connection.result("resources/directory/read", {"uri": "skill://pdf-processing"})
        assert len(first["resources"]) == 2 and first["nextCursor"]
        names = [c["name"] for c in first["resources"]]
        cursor = first["nextCursor"]
        while cursor:
            assert len(names) < 5, "more pages than the directory has entries: %r" % names   # never endless
            page = connection.result("resources/directory/read", {"uri": "skill://pdf-processing",
                                                                  "cursor": cursor})
            names += [c["name"] for c in page["resources"]]
            cursor = page.get("nextCursor")
        assert names == ["pdf-processing", "assets", "references", "scripts", "templates"]
        connection.close()


# -- traversal: add_directory's reader, never a file outside the skill -----------------------------

def test_traversal_and_links_are_not_served(era):
    missing = -32602 if era.version == MODERN else -32002
    for uri in ("skill://pdf-processing/../../secret.txt", "skill://pdf-processing/%2e%2e/%2e%2e/secret.txt",
                "skill://pdf-processing/references/secret.md", "skill://pdf-processing/.DS_Store",
                "skill://notes.txt", "skill://pdf-processing/references/..%2f..%2f..%2fsecret.txt"):
        error = era.error("resources/read", {"uri": uri})
        assert error["code"] == missing, uri
        assert "top secret" not in str(error)


def test_a_link_swapped_in_after_registration_is_not_followed(era, tmp_path):
    forms = os.path.join(era.root, "pdf-processing", "references", "FORMS.md")
    os.remove(forms)
    os.symlink(str(tmp_path / "secret.txt"), forms)
    uri = "skill://pdf-processing/references/FORMS.md"
    error = era.error("resources/read", {"uri": uri})
    assert "top secret" not in str(error)
    entry = era.result("skills/get", {"uri": PDF})["skill"]
    assert uri not in [r["uri"] for r in entry["resources"]]      # no digest of the link's target


# -- frontmatter -------------------------------------------------------------------------------

BAD_FRONTMATTER = [
    ("# no frontmatter\n", 1, "must begin with YAML frontmatter"),
    ("---\nname: bad\ndescription: x\n", 4, "not closed"),
    ("---\nname: bad\ndescription: Use it: when\n---\n", 3, "cannot contain ': '"),
    ("---\nname: bad\n\tdescription: x\n---\n", 3, "tab"),
    ("---\nname: bad\nname: bad\ndescription: x\n---\n", 3, "appears twice"),
    ("---\nname: &a bad\ndescription: x\n---\n", 2, "anchors"),
    ("---\nname: bad\ndescription: 'not\n  closed'\n---\n", 3, "must end on the line"),
    ("---\nname: other\ndescription: x\n---\n", 2, "must be the name of the skill's folder"),
    ("---\nname: bad\n---\n", 1, "needs a description"),
    ("---\nname: bad\ndescription: \"\"\n---\n", 3, "needs a description"),
    ("---\nname: bad\ndescription: x\nmetadata:\n  a: 1\n b: 2\n---\n", 6, "unexpected indentation"),
    ("---\n  name: bad\ndescription: x\n---\n", 3, "indented less than the first key"),
    ("---\nname: bad\ndescription: x\nlimit: .inf\n---\n", 4, "not a number JSON can carry"),
]


@pytest.mark.parametrize("text, line, words", BAD_FRONTMATTER)
def test_bad_frontmatter_is_refused_naming_the_file_and_line(tmp_path, text, line, words):
    path = str(tmp_path / "bad" / "SKILL.md")
    write(path, text)
    app = MCPServer("bad", dialect="minimcp")
    with pytest.raises(ValueError) as info:
        app.add_skills(str(tmp_path / "bad"))
    assert str(info.value).startswith("%s, line %d: " % (path, line)), str(info.value)
    assert words in str(info.value)


@pytest.mark.parametrize("name", ["Upper", "-lead", "trail-", "dou--ble", "x" * 65, "under_score"])
def test_skill_names_follow_the_agent_skills_rules(tmp_path, name):
    write(str(tmp_path / name / "SKILL.md"), skill_md(name))
    with pytest.raises(ValueError) as info:
        MCPServer("bad", dialect="minimcp").add_skills(str(tmp_path / name))
    assert "lowercase letters, digits and single hyphens" in str(info.value) and ", line 2: " in str(info.value)


def test_frontmatter_broken_while_serving_is_an_error_that_names_the_line(era):
    path = os.path.join(era.root, "acme", "billing", "refunds", "SKILL.md")
    write(path, "---\nname: refunds\ndescription: now: broken\n---\n")
    error = era.error("skills/get", {"uri": REFUNDS})
    assert error["code"] == -32603
    assert "%s, line 3: a plain value cannot contain ': '" % REFUNDS in error["message"]
    listed = [e["uri"] for e in era.result("skills/list")["skills"]]
    assert REFUNDS not in listed and PDF in listed                # a listing may be partial
    write(path, skill_md("refunds", "Fixed again %s"))
    assert era.result("skills/get", {"uri": REFUNDS})["skill"]["frontmatter"]["description"] == "Fixed again refunds"


def test_a_deleted_skill_md_is_no_longer_a_served_skill(era):
    os.remove(os.path.join(era.root, "acme", "billing", "refunds", "SKILL.md"))
    error = era.error("skills/get", {"uri": REFUNDS})
    assert error["code"] == -32602 and "SKILL.md is gone" in error["message"]


# The values a YAML 1.2 parser (the npm package yaml, which the conformance suite uses) reads
# from the same text: the entry's frontmatter must be identical to the file's.
YAML_CASES = [
    ("d: >-\n  one\n  two\n\n  three\n    indented\n  back\n", {"d": "one two\nthree\n  indented\nback"}),
    ("d: |\n  line1\n   line2\n\n  line3\n\nnext: MIT", {"d": "line1\n line2\n\nline3\n", "next": "MIT"}),
    ("d: |+\n  keep\n\n\nx: 1", {"d": "keep\n\n\n", "x": 1}),
    ("d: |-\n  strip\n\n", {"d": "strip"}),
    ("d: |2\n    two extra\n  base", {"d": "  two extra\nbase\n"}),
    ("d: 'it''s'\ne: \"tab\\tnew\\nline \\u00e9 \\x41\"", {"d": "it's", "e": "tab\tnew\nline \u00e9 A"}),
    ("n: 1\nf: 1.5\ng: -0.5e3\nh: .5\nj: 0o17\nk: 0x1F\nl: +12\nm: 1_000\no: 2024-01-01\np: yes\nq: ~\n"
     "r: null\ns: True\nt: FALSE\nu:\nv: 012",
     {"n": 1, "f": 1.5, "g": -500.0, "h": 0.5, "j": 15, "k": 31, "l": 12, "m": "1_000", "o": "2024-01-01",
      "p": "yes", "q": None, "r": None, "s": True, "t": False, "u": None, "v": 12}),
    ("list:\n  - a\n  - b # comment\n  -  c\nother:\n- x\n- y", {"list": ["a", "b", "c"], "other": ["x", "y"]}),
    ("m:\n  b:\n    c: [1, two, 'three', {k: v, w: [x]}]\n  d: {}\n  e: []",
     {"m": {"b": {"c": [1, "two", "three", {"k": "v", "w": ["x"]}]}, "d": {}, "e": []}}),
    ("items:\n  - name: x\n    value: 1\n  - name: y\n  - - nested\n    - more",
     {"items": [{"name": "x", "value": 1}, {"name": "y"}, ["nested", "more"]]}),
    ("desc: a plain\n  multi line\n\n  scalar\nnext: 1", {"desc": "a plain multi line\nscalar", "next": 1}),
    ("url: https://example.com/a#b\nc: C# is fine\nd: x #comment",
     {"url": "https://example.com/a#b", "c": "C# is fine", "d": "x"}),
    ("\"quoted key\": 1\n'single': 2\nkey with spaces: v w", {"quoted key": 1, "single": 2, "key with spaces": "v w"}),
    ("allowed-tools: Bash(git:*) Read\nk: 'a: b'", {"allowed-tools": "Bash(git:*) Read", "k": "a: b"}),
    ("a: [a, b,]\nb: {a: 1, b}\nc: \"with # hash\"  # and comment", {"a": ["a", "b"], "b": {"a": 1, "b": None},
                                                                   "c": "with # hash"}),
    ("# comment first\nname: x\n  # indented comment\ndescription: y", {"name": "x", "description": "y"}),
]


@pytest.mark.parametrize("yaml, expected", YAML_CASES)
def test_the_frontmatter_reader_reads_what_yaml_1_2_reads(tmp_path, yaml, expected):
    from minimcp_skills import _parse_frontmatter
    assert _parse_frontmatter("---\n%s\n---\nbody\n" % yaml) == expected


# -- registration --------------------------------------------------------------------------------

def test_a_folder_that_is_a_skill_is_served_under_its_name_and_prefix(tmp_path):
    write(str(tmp_path / "git-workflow" / "SKILL.md"), skill_md("git-workflow"))
    app = MCPServer("one", dialect="minimcp")
    app.add_skills(str(tmp_path / "git-workflow"), prefix="team/tools")
    wire = Wire(app)
    wire.initialize()
    entries = wire.result("skills/list")["skills"]
    assert [e["uri"] for e in entries] == ["skill://team/tools/git-workflow/SKILL.md"]
    wire.close()


def test_serving_the_same_skills_twice_is_refused(skills_root):
    app = make_app(skills_root)
    with pytest.raises(ValueError, match="already served"):
        app.add_skills(skills_root)


def test_a_folder_without_skills_is_refused(tmp_path):
    write(str(tmp_path / "README.md"), "no skills here\n")
    with pytest.raises(ValueError, match="no SKILL.md"):
        MCPServer("none", dialect="minimcp").add_skills(str(tmp_path))


def test_skills_over_the_extension_s_limits_are_refused(tmp_path):
    many = tmp_path / "many"
    write(str(many / "SKILL.md"), skill_md("many"))
    for number in range(512):
        write(str(many / "files" / ("%03d.txt" % number)), "x")
    with pytest.raises(ValueError, match="513 files"):
        MCPServer("many", dialect="minimcp").add_skills(str(many))
    big = tmp_path / "big"
    write(str(big / "SKILL.md"), skill_md("big"))
    with open(str(big / "huge.bin"), "wb") as handle:
        handle.truncate(16 * 1024 * 1024)                   # sparse: no 16 MiB written
    with pytest.raises(ValueError, match="allows 512 files and 16777216 bytes"):
        MCPServer("big", dialect="minimcp").add_skills(str(big))


def test_everything_serves_a_skill_and_keeps_its_names():
    app = load_example("everything").app
    wire = Wire(app)
    wire.initialize()
    tools = {t["name"] for t in wire.result("tools/list")["tools"]}
    assert {"echo", "add", "fail", "log", "slow", "sample", "ask_roots", "elicit", "touch", "print_stdout",
            "long_job"} <= tools
    uris = [r["uri"] for r in wire.result("resources/list")["resources"]]
    assert "fixture://hello" in uris and "skill://release-notes/SKILL.md" in uris
    entry = wire.result("skills/get", {"uri": "skill://release-notes/SKILL.md"})["skill"]
    assert entry["frontmatter"]["name"] == "release-notes"
    assert "skill://release-notes/templates/release.md" in [r["uri"] for r in entry["resources"]]
    wire.close()


# -- over Streamable HTTP ---------------------------------------------------------------------

def test_skills_over_http_in_both_eras(skills_root):
    from test_http import Endpoint, handshake
    endpoint = Endpoint(make_app(skills_root, cache_ttl_ms=1000))
    try:
        status, _, body = endpoint.modern("skills/list")
        assert status == 200 and body["result"]["ttlMs"] == 1000 and len(body["result"]["skills"]) == 3
        status, _, body = endpoint.modern("resources/directory/read", {"uri": "skill://acme/billing"})
        assert [c["uri"] for c in body["result"]["resources"]] == ["skill://acme/billing/refunds"]
        session = handshake(endpoint)
        status, _, body = endpoint.post({"jsonrpc": "2.0", "id": 2, "method": "skills/get", "params": {"uri": PDF}},
                                        {"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"})
        assert status == 200 and body["result"]["skill"]["uri"] == PDF and "ttlMs" not in body["result"]
    finally:
        endpoint.close()
