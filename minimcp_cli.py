"""minimcp_cli: The command line: python3 minimcp.py COMMAND.

A component of minimcp. It plugs itself into minimcp.py (the core, which must be beside it
and of the same version) when imported; the core imports it on first use of a name it
provides. ``python3 minimcp.py bundle -o FILE`` writes the core and its components as one
file, leaving out this header (everything above the first section banner).
"""
# The header: imports and the version check (bundle leaves out all above the first banner)
import json
import os
import sys
import threading
import time

import minimcp

__version__ = "0.1.0"
if minimcp.__version__ != __version__:
    raise ImportError("%s is minimcp %s's, but %s is minimcp %s: copy both from one release"
                      % (os.path.basename(__file__), __version__, minimcp.__file__, minimcp.__version__))

from minimcp import (  # noqa: E402
    HANDSHAKE_VERSIONS,
    INVALID_PARAMS,
    INVALID_REQUEST,
    LATEST_HANDSHAKE_VERSION,
    LATEST_PROTOCOL_VERSION,
    MCPError,
    MCPServer,
    METHOD_NOT_FOUND,
    PROTOCOL_VERSIONS,
    _COMPONENTS,
    _COMPONENT_FILES,
    _EMPTY,
    _NoComponent,
    _OwnedStdio,
    _Signature,
    _bundle_command,
    _component,
    _id_key,
    _plug,
)
from minimcp_testclient import (  # noqa: E402
    _ClientBase,
    _ProcessClient,
)


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
  config --client HOST --url URL [--name N] [BRIDGE OPTIONS...]
                                                       the same for a remote server, through bridge
  serve SCRIPT[:OBJECT] [ARGS...]                      run the MCPServer object defined in a file
                                                       (in a package: imported as pkg.module); ARGS:
                                                       the script's own, as `python SCRIPT ARGS`
  serve -m MODULE[:OBJECT]                             the same for a module (pkg.server), from here
  serve --entry CONSOLE_SCRIPT [ARGS...]               run an installed server's console script
  serve --functions SCRIPT [FUNCTION ...]              serve a script's plain functions as tools
  serve --http [HOST:]PORT SCRIPT                      serve it over Streamable HTTP (default host 127.0.0.1)
  bridge URL [--header "Name: value" ...]               a stdio server that is the Streamable HTTP
                                                       server at URL (bridge --help: its options)
  bundle -o FILE [--with NAME,...]                     minimcp.py and its components beside it as one
                                                       file (NAME: %s; default: all of them)
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
# tests/cli/test_cli_config.py checks each row's format; the README's table is this one.
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


def _shell_words(words: list, windows: bool = os.name == "nt") -> str:
    """A command line the user pastes into a shell: POSIX quoting, or on Windows double quotes
    as cmd.exe and PowerShell read them (``subprocess.list2cmdline``): the bridge's ``-c`` line
    holds spaces and single quotes, which POSIX quoting would garble there."""
    if windows:
        import subprocess
        return subprocess.list2cmdline(words)
    import shlex
    return " ".join(shlex.quote(w) for w in words)


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
    return spec is not None and not ("sdk" in _COMPONENTS and isinstance(spec.loader, _component("sdk")._SDKFinder))


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
    if arguments and served[0] == "--functions":
        notes.append("its arguments (%s) are left out: serve --functions takes the names of functions"
                     % " ".join(arguments))
    elif arguments:
        served += arguments                       # serve gives them to the script, as python would
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
    # Compiled from its source, as ``python FILE`` compiles a script: exec_module would write
    # its bytecode to a __pycache__ beside it, a folder its tools may list and ``python`` never makes.
    exec(spec.loader.source_to_code(spec.loader.get_data(path), path), module.__dict__)
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


class _NoSDK(ModuleNotFoundError):
    """An SDK import of a served file, without minimcp_sdk.py: serve says so, without a traceback."""


class _NoSDKFinder:
    """Without minimcp_sdk.py: a server that imports mcp or fastmcp (not installed) is told which
    file to copy. At the end of sys.meta_path, as the SDK's finder is: an installed SDK wins."""

    def __init__(self, missing: str) -> None:
        self.missing = missing

    def find_spec(self, fullname: str, path=None, target=None):
        if fullname.split(".")[0] in ("mcp", "fastmcp"):
            raise _NoSDK("%s is not installed, and %s" % (fullname, self.missing), name=fullname)
        return None


def _sdk_aliases() -> None:
    """serve: the SDK's names for a server written for it, from minimcp_sdk.py, which is imported
    only now (a server written for minimcp never pays for it); without the file, a finder that
    says which file to copy when the server imports the SDK."""
    try:
        _component("sdk", "minimcp's stand-in for the mcp and fastmcp packages").install_sdk_aliases()
    except _NoComponent as missing:
        sys.meta_path.append(_NoSDKFinder(str(missing)))


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
        _sdk_aliases()
        return _run_entry_point(words[1], words[2:])
    as_module = words[:1] == ["-m"]
    words = words[1:] if as_module else words
    if not words or words[0].startswith("-"):
        raise SystemExit("minimcp: serve SCRIPT[:OBJECT] [ARGS...], serve -m MODULE[:OBJECT] [ARGS...], serve --entry "
                         "CONSOLE_SCRIPT [ARGS...]  or  serve --functions SCRIPT [FUNCTION ...]")
    script, _, attribute = words[0].partition(":")
    arguments = words[1:]                     # the script's own (python server.py --stdio): its sys.argv
    if arguments:
        sys.argv = [script] + arguments
    if len(script) == 1 and attribute and os.name == "nt":        # C:\path\x.py
        script, _, attribute = words[0].rpartition(":") if words[0].count(":") > 1 else (words[0], "", "")
    _sdk_aliases()                            # a server written for the official SDK runs unchanged
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
            sys.argv = [script] + arguments
            result = main()                   # it builds its server and runs it, as its console script does
            if hasattr(result, "__await__"):   # async def main(): the script's asyncio.run(main())
                import asyncio
                result = asyncio.run(result)
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
        """Three calls at once: each reports progress before the first of them is answered (in
        turn, the second starts only after the first answer), or, for a tool that reports none,
        together they take about one call's time: under 1.5 times it (in turn: 3 times). The
        order of messages holds on a loaded machine, where times measured apart do not."""
        results, errors, threads, answered = [], [], [], []

        def call():
            try:
                results.append(client.call_tool(slow, arguments))
            except MCPError as exc:
                errors.append("%s (%s)" % (exc.message, exc.code))
            answered.append(time.monotonic())
        tokens = [_id_key(getattr(client, "_next_token", 0) + n) for n in (1, 2, 3)]
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
        first_answer = min(answered, default=started)
        overlapped = (all(any(at < first_answer for at in client.progress_times.get(token, ())) for token in tokens)
                      or elapsed < 1.5 * single + self.SHORTEST)
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


_COMMANDS = ("inspect", "call", "read", "prompt", "complete", "selftest", "config", "serve", "bridge")
_VALUED_OPTIONS = ("--protocol", "--timeout", "--client", "--name", "--slow-tool", "--slow-args", "--root", "--env",
                   "--save")


def _command_first(argv: list) -> list:
    """``--protocol X inspect ...`` means ``inspect --protocol X ...``: options may come first.
    Only the options before the command move; what follows it (the bridge's own options and
    their values, a server command) stays as it is."""
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
    _config_advice(host, name)
    return 0


def _config_advice(host: str, name: str) -> None:
    """Where the entry goes, and where the host logs the server's stderr (on stderr)."""
    row = _HOSTS[host]
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


def _bridge():
    """minimcp_bridge.py's module, imported on first use (only ``bridge`` and ``config --url``
    need it); SystemExit naming the file to copy when it is not beside the core."""
    try:
        return _component("bridge", "the bridge (python3 minimcp.py bridge URL)")
    except _NoComponent as missing:
        raise SystemExit("minimcp: %s" % missing) from None


_PROXY_VARIABLES = ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy",
                    "NO_PROXY", "no_proxy")


def _config_bridge_command(rest: list) -> int:
    """``config --client HOST --url URL [--name N] [--env KEY=VALUE] [BRIDGE OPTIONS...]``: the
    host's entry that runs the bridge to URL with its options, from cached bytecode (``_bridge_form``).

    The bridge's options pass through as given (its own parser checks them now, as the host's
    start would); paths among them become absolute. The variables they name as ``${NAME}``
    go into the entry's env, from ``--env NAME=VALUE`` or this environment, since a host
    starts its servers with an environment of its own; so do the proxy variables set here.
    """
    import re
    from urllib.parse import urlsplit
    bridge = _bridge()
    own, passed, envs = {}, [], []
    index = 0
    while index < len(rest):
        word = rest[index]
        name, sep, inline = word.partition("=")
        if name in ("--client", "--name", "--url", "--env") or name in bridge._VALUED:
            if sep:
                value = inline
            elif index + 1 < len(rest):
                index += 1
                value = rest[index]
            else:
                raise SystemExit("minimcp: config: %s needs a value" % name)
            if name == "--env":
                envs.append(value)
            elif name in ("--client", "--name", "--url"):
                own[name] = value
            else:
                passed += [name, value]
        else:
            passed.append(word)
        index += 1
    url = own["--url"]
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SystemExit("minimcp: config: --url takes the server's http:// or https:// URL, not %r" % url)
    bridge._bridge_arguments([url] + passed)             # its mistakes now, not at the host's start
    host = own.get("--client", "claude")
    if host not in _HOSTS:
        raise SystemExit("minimcp: --client is one of %s, not %r" % (", ".join(_HOSTS), host))
    env, notes = {}, []
    for item in envs:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise SystemExit("minimcp: --env takes KEY=VALUE, not %r" % item)
        env[key] = value
    named = " ".join(passed)
    for index, word in enumerate(passed[:-1]):           # and the lines of a header file
        if word == "--header-file" and os.path.isfile(passed[index + 1]):
            with open(passed[index + 1], encoding="utf-8") as lines:
                named += " ".join(line for line in lines if not line.strip().startswith("#"))
    for variable in sorted(set(re.findall(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}", named)) - set(env)):
        if variable not in os.environ:
            raise SystemExit("minimcp: config: the bridge's options name ${%s}, which is not set here: give its "
                             "value with --env %s=VALUE (it goes into the host's entry, not into argv)"
                             % (variable, variable))
        env[variable] = os.environ[variable]
        notes.append("%s's value, from this environment, is in the entry's env: keep that file private" % variable)
    proxies = [variable for variable in _PROXY_VARIABLES if os.environ.get(variable) and variable not in env]
    env.update((variable, os.environ[variable]) for variable in proxies)
    if proxies:
        notes.append("the proxy settings here (%s) are in the entry's env too: the host may start the bridge "
                     "without them" % ", ".join(proxies))
    name = own.get("--name") or re.sub(r"[^A-Za-z0-9_-]+", "-", parts.hostname).strip("-")
    core = os.path.abspath(sys.modules["minimcp"].__file__)     # (a bundle: this very file)
    args = _bridge_form(core) + [url] + _absolute_paths(passed)
    notes += _cache_bytecode([core, os.path.abspath(bridge.__file__)])
    sys.stdout.write(_config_entry(host, name, os.path.abspath(sys.executable), args, env) + "\n")
    for note in notes:
        sys.stderr.write("minimcp: %s\n" % note)
    _config_advice(host, name)
    return 0


def _bridge_form(core: str) -> list:
    """The interpreter's arguments that start the bridge from cached bytecode (the URL follows).

    ``python3 minimcp.py bridge`` compiles the core at every start (a script is never
    cached), about a third of the bridge's start. ``-c`` imports the core and the bridge
    from the folder's ``__pycache__`` instead, with no environment to set (Gemini CLI drops
    PYTHONPATH), a bundle included (it answers ``import minimcp_bridge`` itself). ``-I``: nothing
    of the host's (its working folder on ``sys.path``, PYTHONPATH) changes what is imported;
    ``-S``: no site-packages and their ``.pth`` files, which the bridge never needs. A bundle
    saved under another name runs as a script, as before.
    """
    if os.path.basename(core) != "minimcp.py":
        return [core, "bridge"]
    return ["-I", "-S", "-c", "import sys; sys.path.insert(0, %r); import minimcp, minimcp_bridge; "
            "sys.exit(minimcp_bridge.bridge_main())" % os.path.dirname(core)]


def _cache_bytecode(paths: list) -> list:
    """Compile ``paths`` into their ``__pycache__`` now, so the host's first start is as quick as the
    next; the notes for stderr when the folder is read-only (each start compiles: slower, no worse)."""
    import py_compile
    for path in dict.fromkeys(paths):
        try:
            py_compile.compile(path, doraise=True)
        except (OSError, py_compile.PyCompileError) as exc:
            return ["cannot cache %s's bytecode (%s): the bridge works, but compiles it at each start; "
                    "python3 -m compileall %s, run by the folder's owner, caches it"
                    % (os.path.basename(path), exc, os.path.dirname(path))]
    return []


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


def main(argv: list = None) -> int:
    """The command line; returns the exit status."""
    argv = _command_first(list(sys.argv[1:] if argv is None else argv))
    if argv[:1] == ["bridge"]:                  # (its -h is its own)
        return _bridge().bridge_main(argv[1:])
    usage = _USAGE.replace("python3 minimcp.py", _program_name()) % (
        ", ".join(_COMPONENT_FILES), LATEST_HANDSHAKE_VERSION)
    before_server = _split_command_line(argv)[0]
    if not argv or argv[0] in ("-h", "--help", "help") or "-h" in before_server or "--help" in before_server:
        (sys.stdout if argv else sys.stderr).write(usage)
        return 0 if argv else 2
    if argv[0] in ("--version", "-V"):
        sys.stdout.write("minimcp %s\n" % __version__)
        return 0
    command, rest = argv[0], argv[1:]
    if command == "config" and "--url" in _split_command_line(rest)[0]:
        return _config_bridge_command(rest)
    if command == "serve":
        try:
            return _serve_command(rest)
        except _NoSDK as missing:
            raise SystemExit("minimcp: %s" % missing) from None
    if command == "bundle":
        return _bundle_command(rest)
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
