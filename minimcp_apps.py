"""minimcp_apps: MCP Apps: tools that show a page in the host.

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
    MCPServer,
    Tool,
    _Call,
    _available,
    _b64,
    _guess_mime,
    _is_coroutine_function,
    _part,
    _plug,
)


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
