"""MCP Apps (extension io.modelcontextprotocol/ui): pages, tool links, negotiation, fallback, on the wire."""

import json
import os
from typing import TypedDict

import pytest

from conftest import HANDSHAKE_VERSIONS, MODERN, Wire, envelope, load_example
import minimcp
from minimcp import MCPServer, inline_page

MIME = "text/html;profile=mcp-app"
EXT = "io.modelcontextprotocol/ui"
APPS = {"extensions": {EXT: {"mimeTypes": [MIME]}}}
PAGE = "ui://charts/sales"
HTML = "<!DOCTYPE html><html><body><p id=x>sales</p></body></html>"
WITH_META = ["2025-06-18", "2025-11-25"]          # the handshake revisions that define tool _meta
WITHOUT_META = ["2024-11-05", "2025-03-26"]


class Sales(TypedDict):
    """A region's sales (a TypedDict: the tool gets an outputSchema and structuredContent)."""
    region: str
    total: int


def make_app():
    app = MCPServer("apps", dialect="minimcp")

    @app.ui_resource(PAGE, title="Sales chart", csp={"connectDomains": ["https://api.example.com"],
                                                     "resource_domains": ["https://cdn.example.com"]},
                     permissions=["clipboardWrite"], domain="abc.example-host.com", prefers_border=False)
    def sales_page() -> str:
        """The sales chart."""
        return HTML

    @app.tool(ui=PAGE)
    def sales(region: str) -> Sales:
        """Sales of a region."""
        return {"region": region, "total": 42}

    @app.tool(ui=PAGE, visibility=["app"])
    def refresh(region: str) -> Sales:
        """Refresh the chart (the page calls it)."""
        return {"region": region, "total": 43}

    @app.tool()
    def plain() -> str:
        return "plain"
    return app


PAGE_UI = {"csp": {"connectDomains": ["https://api.example.com"], "resourceDomains": ["https://cdn.example.com"]},
           "permissions": {"clipboardWrite": {}}, "domain": "abc.example-host.com", "prefersBorder": False}


class Modern:
    """A 2026-07-28 connection: every request carries the capabilities it is served with."""

    def __init__(self, app):
        self.wire = Wire(app)

    def result(self, method, params=None, capabilities=None):
        params = dict(params or {}, _meta=envelope(capabilities))
        return self.wire.result(method, params)

    def error(self, method, params=None, capabilities=None):
        params = dict(params or {}, _meta=envelope(capabilities))
        return self.wire.error(method, params)

    def close(self):
        self.wire.close()


def handshake(version, capabilities):
    wire = Wire(make_app())
    wire.initialize(version, capabilities)
    return wire


def discovered_capabilities(app):
    """The capabilities a 2026-07-28 server/discover announces for ``app``."""
    modern = Modern(app)
    try:
        return modern.result("server/discover", capabilities=APPS)["capabilities"]
    finally:
        modern.close()


def tools_by_name(result):
    return {t["name"]: t for t in result["tools"]}


# --- _meta shapes, in every revision -------------------------------------------------

@pytest.mark.parametrize("version", WITH_META)
def test_tool_meta_and_page_meta_in_revisions_with_meta(version):
    wire = handshake(version, APPS)
    tools = tools_by_name(wire.result("tools/list"))
    assert tools["sales"]["_meta"] == {"ui": {"resourceUri": PAGE, "visibility": ["model", "app"]},
                                       "ui/resourceUri": PAGE}
    assert tools["refresh"]["_meta"] == {"ui": {"resourceUri": PAGE, "visibility": ["app"]}, "ui/resourceUri": PAGE}
    assert "_meta" not in tools["plain"]
    listed = {r["uri"]: r for r in wire.result("resources/list")["resources"]}[PAGE]
    assert listed["mimeType"] == MIME and listed["_meta"] == {"ui": PAGE_UI} and listed["title"] == "Sales chart"
    contents = wire.result("resources/read", {"uri": PAGE})["contents"]
    assert contents == [{"uri": PAGE, "mimeType": MIME, "text": HTML, "_meta": {"ui": PAGE_UI}}]
    wire.close()


@pytest.mark.parametrize("version", WITHOUT_META)
def test_revisions_without_meta_get_no_ui_fields_and_no_app_only_tools(version):
    wire = handshake(version, APPS)          # declared, but these revisions cannot carry a link
    tools = tools_by_name(wire.result("tools/list"))
    assert sorted(tools) == ["plain", "sales"]
    assert all("_meta" not in t for t in tools.values())
    assert wire.error("tools/call", {"name": "refresh", "arguments": {"region": "x"}})["code"] == -32602
    listed = {r["uri"]: r for r in wire.result("resources/list")["resources"]}[PAGE]
    assert listed["mimeType"] == MIME and "_meta" not in listed
    assert wire.result("resources/read", {"uri": PAGE})["contents"] == [{"uri": PAGE, "mimeType": MIME, "text": HTML}]
    wire.close()


def test_modern_meta_shapes_and_capability():
    modern = Modern(make_app())
    tools = tools_by_name(modern.result("tools/list", capabilities=APPS))
    assert tools["sales"]["_meta"]["ui"] == {"resourceUri": PAGE, "visibility": ["model", "app"]}
    assert tools["sales"]["_meta"]["ui/resourceUri"] == PAGE
    contents = modern.result("resources/read", {"uri": PAGE}, capabilities=APPS)["contents"]
    assert [(c["mimeType"], c["_meta"]) for c in contents] == [(MIME, {"ui": PAGE_UI})]
    # 2026-07-28 ServerCapabilities has "extensions": the server says it serves Apps pages.
    assert modern.result("server/discover")["capabilities"]["extensions"] == {EXT: {}}
    modern.close()


@pytest.mark.parametrize("version", HANDSHAKE_VERSIONS)
def test_handshake_capabilities_have_no_extensions_field(version):
    # ServerCapabilities has no "extensions" before 2026-07-28 (see the schemas).
    wire = Wire(make_app())
    assert "extensions" not in wire.initialize(version, APPS)["capabilities"]
    wire.close()


def test_a_server_without_apps_declares_nothing_and_lists_as_before():
    app = MCPServer("plain", dialect="minimcp")

    @app.tool()
    def echo() -> str:
        return "x"
    modern = Modern(app)
    assert "extensions" not in modern.result("server/discover", capabilities=APPS)["capabilities"]
    assert [t["name"] for t in modern.result("tools/list", capabilities=APPS)["tools"]] == ["echo"]
    modern.close()


# --- negotiation, both eras -----------------------------------------------------------

NO_APPS = [{}, {"extensions": {}}, {"extensions": {EXT: {}}}, {"extensions": {EXT: {"mimeTypes": ["text/html"]}}},
           {"extensions": {EXT: {"mimeTypes": "text/html;profile=mcp-app"}}}, {"experimental": {EXT: {}}}]


@pytest.mark.parametrize("version", WITH_META)
@pytest.mark.parametrize("capabilities", NO_APPS)
def test_handshake_client_without_apps_sees_no_app_only_tool(version, capabilities):
    wire = handshake(version, capabilities)
    tools = tools_by_name(wire.result("tools/list"))
    assert sorted(tools) == ["plain", "sales"]
    # The link stays on the ordinary tool: a host without Apps ignores _meta, and an older
    # Apps host that predates the negotiation still finds its page.
    assert tools["sales"]["_meta"]["ui"]["resourceUri"] == PAGE
    error = wire.error("tools/call", {"name": "refresh", "arguments": {"region": "x"}})
    assert error["code"] == -32602 and error["message"] == "Unknown tool: refresh"
    wire.close()


@pytest.mark.parametrize("version", WITH_META)
def test_handshake_client_with_apps_lists_and_calls_app_only_tools(version):
    wire = handshake(version, {"extensions": {EXT: {"mimeTypes": ["text/html", MIME]}}})
    assert sorted(tools_by_name(wire.result("tools/list"))) == ["plain", "refresh", "sales"]
    result = wire.result("tools/call", {"name": "refresh", "arguments": {"region": "north"}})
    assert result["structuredContent"] == {"region": "north", "total": 43}
    wire.close()


def test_handshake_negotiation_is_per_connection():
    app = make_app()
    with_apps, without = Wire(app), Wire(app)
    with_apps.initialize("2025-11-25", APPS)
    without.initialize("2025-11-25", {})
    assert "refresh" in tools_by_name(with_apps.result("tools/list"))
    assert "refresh" not in tools_by_name(without.result("tools/list"))
    assert "result" in with_apps.call("tools/call", {"name": "refresh", "arguments": {"region": "x"}})
    assert "error" in without.call("tools/call", {"name": "refresh", "arguments": {"region": "x"}})
    with_apps.close()
    without.close()


def test_modern_negotiation_is_per_request_on_one_connection():
    modern = Modern(make_app())
    assert sorted(tools_by_name(modern.result("tools/list", capabilities=APPS))) == ["plain", "refresh", "sales"]
    assert sorted(tools_by_name(modern.result("tools/list", capabilities={}))) == ["plain", "sales"]
    called = modern.result("tools/call", {"name": "refresh", "arguments": {"region": "s"}}, capabilities=APPS)
    assert called["structuredContent"]["total"] == 43
    refused = modern.error("tools/call", {"name": "refresh", "arguments": {"region": "s"}}, capabilities={})
    assert refused["code"] == -32602 and "refresh" in refused["message"]
    modern.close()


def test_apps_supported_helper_and_context():
    assert minimcp.apps_supported(APPS) and minimcp.apps_supported(APPS, "2025-06-18")
    assert not minimcp.apps_supported(APPS, "2025-03-26")
    assert not any(minimcp.apps_supported(c) for c in NO_APPS)
    app = MCPServer("ctx", dialect="minimcp")

    @app.tool(ui=PAGE)
    def where(ctx: minimcp.Context) -> str:
        return "page" if minimcp.apps_supported(ctx.client_capabilities, ctx.protocol_version) else "text"
    app.add_ui_resource(HTML, PAGE)
    modern = Modern(app)
    assert modern.result("tools/call", {"name": "where"}, capabilities=APPS)["content"][0]["text"] == "page"
    assert modern.result("tools/call", {"name": "where"})["content"][0]["text"] == "text"
    modern.close()


# --- the fallback: content for the model, structuredContent for the page --------------

@pytest.mark.parametrize("version", HANDSHAKE_VERSIONS)
def test_fallback_content_without_apps(version):
    wire = handshake(version, {})
    result = wire.result("tools/call", {"name": "sales", "arguments": {"region": "north"}})
    block, = result["content"]
    assert block["type"] == "text" and json.loads(block["text"]) == {"region": "north", "total": 42}
    if version >= "2025-06-18":
        assert result["structuredContent"] == {"region": "north", "total": 42}
    else:
        assert "structuredContent" not in result
    wire.close()


def test_explicit_result_keeps_model_text_and_page_data_apart():
    app = MCPServer("split", dialect="minimcp")

    @app.tool(ui=PAGE)
    def report() -> dict:
        return {"content": [{"type": "text", "text": "Sales rose 4% (chart shown)."}],
                "structuredContent": {"series": [1, 2, 3]}}
    app.add_ui_resource(HTML, PAGE)
    modern = Modern(app)
    for capabilities in ({}, APPS):
        result = modern.result("tools/call", {"name": "report"}, capabilities=capabilities)
        assert result["content"][0]["text"] == "Sales rose 4% (chart shown)."
        assert result["structuredContent"] == {"series": [1, 2, 3]}
    modern.close()


# --- registration errors ----------------------------------------------------------------

@pytest.mark.parametrize("options, message", [
    ({"ui": "https://example.com/page"}, "ui:// URI"),
    ({"ui": "ui://"}, "ui:// URI"),
    ({"ui": "ui://charts/{region}"}, "not a template"),
    ({"ui": PAGE, "visibility": []}, "visibility must be"),
    ({"ui": PAGE, "visibility": ["user"]}, "visibility must be"),
    ({"ui": PAGE, "visibility": "app"}, "visibility must be"),
    ({"ui": PAGE, "visibility": ["app", "app"]}, "visibility must be"),
    ({"meta": {"ui": {"resourceUri": PAGE, "csp": {}}}}, "may only have the keys resourceUri, visibility"),
    ({"meta": {"ui": {"resourceUri": PAGE}}, "ui": PAGE}, "not both"),
    ({"meta": {"ui/resourceUri": "ui://other"}, "ui": PAGE}, "names another page"),
])
def test_tool_registration_errors(options, message):
    app = MCPServer("bad", dialect="minimcp")
    def chart() -> str:
        return "x"
    with pytest.raises(ValueError) as raised:
        app.tool(**options)(chart)
    assert message in str(raised.value) and "tool 'chart'" in str(raised.value)
    assert "tools" not in discovered_capabilities(app)          # nothing half-registered


def test_hand_written_meta_ui_is_checked_and_negotiated():
    app = MCPServer("hand", dialect="minimcp")
    def chart() -> str:
        return "x"
    app.tool(meta={"ui": {"resourceUri": PAGE, "visibility": ["app"]}, "other": 1})(chart)
    modern = Modern(app)
    listed = modern.result("tools/list", capabilities=APPS)["tools"]
    assert [t["_meta"] for t in listed] == [{"ui": {"resourceUri": PAGE, "visibility": ["app"]},
                                             "ui/resourceUri": PAGE, "other": 1}]
    assert modern.result("tools/list")["tools"] == []
    modern.close()


@pytest.mark.parametrize("options, message", [
    ({"csp": {"connectDomains": ["https://a"], "scriptDomains": ["https://b"]}}, "unknown csp key 'scriptDomains'"),
    ({"csp": {"wasmUnsafeEval": True}}, "unknown csp key 'wasmUnsafeEval'"),
    ({"csp": {"connectDomains": "https://a"}}, "must be a list of origins"),
    ({"csp": {"connectDomains": ["https://a"], "connect_domains": ["https://b"]}}, "gives connectDomains twice"),
    ({"csp": ["https://a"]}, "csp must be a dict"),
    ({"permissions": ["camera", "usb"]}, "unknown permission 'usb'"),
    ({"permissions": {"camera": True}}, "each permission's value is {}"),
    ({"permissions": "camera"}, "permissions must be a list"),
    ({"domain": ""}, "domain must be a non-empty string"),
    ({"prefers_border": "yes"}, "prefers_border must be True or False"),
    ({"meta": {"ui": {"prefersBorder": True}}}, "meta must be a dict without \"ui\""),
])
def test_page_registration_errors(options, message):
    app = MCPServer("bad", dialect="minimcp")
    with pytest.raises(ValueError) as raised:
        app.ui_resource(PAGE, **options)(lambda: HTML)
    assert message in str(raised.value) and PAGE in str(raised.value)
    assert "resources" not in discovered_capabilities(app)      # nothing half-registered


def test_page_uri_and_function_errors():
    app = MCPServer("bad", dialect="minimcp")
    for uri, message in (("page://x", "ui:// URI"), ("ui://pages/{name}", "not a template")):
        with pytest.raises(ValueError, match=message):
            app.ui_resource(uri)(lambda: HTML)

    async def page():
        return HTML
    with pytest.raises(ValueError, match="plain function"):
        app.ui_resource(PAGE)(page)
    with pytest.raises(ValueError, match="the HTML itself"):
        app.add_ui_resource(42, PAGE)


def test_a_page_is_one_document():
    app = MCPServer("pages", dialect="minimcp")
    app.ui_resource("ui://two")(lambda: [HTML, HTML])
    app.add_ui_resource(b"<!DOCTYPE html><p>bytes</p>", "ui://bytes", permissions={"camera": {}})
    wire = Wire(app)
    wire.initialize("2025-11-25", APPS)
    error = wire.error("resources/read", {"uri": "ui://two"})
    assert "must be one HTML document" in error["message"]
    item, = wire.result("resources/read", {"uri": "ui://bytes"})["contents"]
    assert item["mimeType"] == MIME and item["blob"] == "PCFET0NUWVBFIGh0bWw+PHA+Ynl0ZXM8L3A+"
    assert item["_meta"] == {"ui": {"permissions": {"camera": {}}}}
    wire.close()


# --- inline_page ------------------------------------------------------------------------

def test_inline_page_inlines_local_scripts_styles_and_images(tmp_path):
    (tmp_path / "app.js").write_text("if (a </script> b) {}\nconsole.log('ok');\n")
    (tmp_path / "app.css").write_text("body { color: red; }")
    (tmp_path / "dot.png").write_bytes(b"\x89PNG\r\n")
    (tmp_path / "page.html").write_text(
        '<html><head><link rel="stylesheet" href="app.css"><link rel="icon" href="dot.png">'
        '<link rel="stylesheet" href="https://cdn.example.com/x.css"></head><body>'
        '<img alt="app.js" data-src="later.png" src="dot.png">'
        '<script type="module" src="app.js"></script>'
        "<script src='https://cdn.example.com/x.js'></script><script>inline()</script></body></html>")
    html = inline_page(str(tmp_path / "page.html"))
    assert "<style>body { color: red; }</style>" in html
    assert '<link rel="icon" href="dot.png">' in html                      # not a style sheet
    assert '<link rel="stylesheet" href="https://cdn.example.com/x.css">' in html
    assert '<img alt="app.js" data-src="later.png" src="data:image/png;base64,iVBORw0K">' in html
    assert "<script type=\"module\">if (a <\\/script> b) {}\nconsole.log('ok');\n</script>" in html
    assert "<script src='https://cdn.example.com/x.js'></script><script>inline()</script>" in html


def test_inline_page_refuses_missing_files_and_escapes(tmp_path):
    (tmp_path / "page.html").write_text('<script src="missing.js"></script>')
    with pytest.raises(FileNotFoundError):
        inline_page(str(tmp_path / "page.html"))
    (tmp_path / "sub").mkdir()
    (tmp_path / "secret.js").write_text("x")
    (tmp_path / "sub" / "page.html").write_text('<script src="../secret.js"></script>')
    with pytest.raises(ValueError, match="outside"):
        inline_page(str(tmp_path / "sub" / "page.html"))
    (tmp_path / "page.html").write_text('<script src="sub/../secret.js"></script>')
    assert inline_page(str(tmp_path / "page.html")) == "<script>x</script>"


# --- the example ------------------------------------------------------------------------

def test_sqlite_explorer_page_is_self_contained_and_linked():
    app = load_example("sqlite_explorer").app
    modern = Modern(app)
    tools = tools_by_name(modern.result("tools/list", capabilities=APPS))
    assert tools["query"]["_meta"]["ui"] == {"resourceUri": "ui://sqlite-explorer/results",
                                             "visibility": ["model", "app"]}
    assert tools["list_tables"]["_meta"]["ui"] == {"visibility": ["app"]}
    assert "list_tables" not in tools_by_name(modern.result("tools/list"))
    page, = modern.result("resources/read", {"uri": "ui://sqlite-explorer/results"}, capabilities=APPS)["contents"]
    assert page["mimeType"] == MIME and page["_meta"] == {"ui": {"prefersBorder": True}}
    html = page["text"]
    assert html.startswith("<!DOCTYPE html>") and "<link" not in html and " src=" not in html
    assert '"ui/initialize"' in html and "--color-background-primary" in html
    tables = modern.result("tools/call", {"name": "list_tables"}, capabilities=APPS)
    assert tables["structuredContent"] == {"result": ["city", "visit"]}
    modern.close()


def test_every_example_page_file_is_referenced():
    here = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "examples")
    html = open(os.path.join(here, "sqlite_explorer.html"), encoding="utf-8").read()
    assert 'href="sqlite_explorer.css"' in html and 'src="sqlite_explorer.js"' in html
