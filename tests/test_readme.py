"""Every code block in the README is executed here, so the manual cannot drift from the code."""

import glob
import json
import os
import re
import shlex
import subprocess
import sys

import pytest

from conftest import ROOT, run_command
from minimcp import MCPServer, TestClient

README = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
BLOCKS = re.findall(r"^```(\w+)\n(.*?)^```", README, flags=re.S | re.M)
# --no-compile: pip need not compile every module of pytest, pydantic and pygments (2 s of
# CPU); the run compiles the few it imports.
TEST_COMMAND = ("python3 -m venv --clear .venv && .venv/bin/python -m pip install --no-compile"
                " -r tests/requirements.txt && .venv/bin/python -m pytest")
COMPILE_COMMAND = 'PYTHONPYCACHEPREFIX="$HOME/.cache/pycache" python3 -m compileall minimcp.py'


def blocks(language):
    return [body for lang, body in BLOCKS if lang == language]


def test_the_readme_has_the_blocks_this_file_checks():
    # console and nginx blocks are deployment recipes (gunicorn, nginx): the scale-out stage
    # (tests/interop/run_scaleout.sh) runs them, and the test below keeps the two in step.
    assert {lang for lang, _ in BLOCKS} == {"sh", "python", "json", "console", "nginx"}
    assert len(blocks("python")) == 11 and len(blocks("json")) == 3
    assert COMPILE_COMMAND in blocks("sh")[-1]


def test_the_test_command_is_the_one_ci_runs():
    # Running pytest from inside pytest would recurse; CI runs this very command
    # (with each Python as python3), so check that .ci/run still does.
    assert TEST_COMMAND in blocks("sh")[1]
    ci = open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8").read()
    assert "TEST_COMMAND='%s'" % TEST_COMMAND in ci         # run with each Python as python3
    try_command = blocks("sh")[0].strip()
    assert "TRY_COMMAND='%s'" % try_command.replace("'", "'\"'\"'") in ci
    assert ci.count('as_python3 "$py" "$TEST_COMMAND"') == 1
    assert 'as_python3 /usr/bin/python3 "$TRY_COMMAND" && as_python3 /usr/bin/python3 "$TEST_COMMAND"' in ci


def test_the_test_command_needs_no_pip_outside_a_venv():
    """PEP 668: Debian's and Ubuntu's system python3 refuses a bare pip install."""
    for part in TEST_COMMAND.split("&&"):
        words = part.split()
        if "pip" in words:
            assert words[0].startswith(".venv/"), part


def shell_lines():
    for body in blocks("sh"):
        for line in body.strip().splitlines():
            if line.strip() and line.strip() not in (TEST_COMMAND, COMPILE_COMMAND):
                yield line.strip()


def shell_words(line):
    """A README shell line as the words to run (python3: this interpreter)."""
    return [sys.executable if w == "python3" else w for w in shlex.split(line)]


@pytest.mark.parametrize("line", list(shell_lines()))
def test_shell_commands_run(line):
    assert shlex.split(line)[0] == "python3"
    done = run_command(shell_words(line))
    assert done.returncode == 0, (line, done.stdout.decode()[-2000:], done.stderr.decode()[-2000:])
    out = done.stdout.decode()
    if "--call echo" in line:
        assert "Hello from minimcp" in out and "tool      echo(text: string)" in out
    if " config " in line and "claude" in line and "--url" not in line:    # (--url's: the bridge's test below)
        snippet = json.loads(out)
        documented = json.loads(blocks("json")[0])
        assert snippet.keys() == documented.keys()
        assert snippet["mcpServers"]["everything"].keys() == documented["mcpServers"]["everything"].keys()
        assert os.path.isabs(snippet["mcpServers"]["everything"]["command"])
    if " selftest " in line:
        assert re.search(r"\d+ passed, 0 failed, \d+ skipped$", out.strip()), out
        assert "Traceback" not in done.stderr.decode() and "WARN" not in out
    if "call add" in line:
        assert out.splitlines()[0] == "5"


def run_block(body):
    # As a host runs a server: from a working directory of its own (not the clone), the
    # file itself in the clone. A block must not depend on the working directory.
    import tempfile
    namespace = {"__name__": "readme_block", "__file__": os.path.join(ROOT, "readme_block.py")}
    cwd = os.getcwd()
    os.chdir(tempfile.gettempdir())
    try:
        exec(compile(body, "README.md", "exec"), namespace)
    finally:
        os.chdir(cwd)
    return namespace


def server_of(namespace):
    servers = [v for v in namespace.values() if isinstance(v, MCPServer)]
    assert len(servers) == 1
    return servers[0]


def test_the_replica_recipe_is_the_one_the_scale_out_stage_runs():
    sys.path.insert(0, os.path.join(ROOT, "tests", "interop"))
    import scaleout
    stage = " ".join((scaleout.UPSTREAMS + scaleout.LOCATION).split())
    recipe = blocks("nginx")[-1]
    for line in recipe.splitlines():
        directive = line.split("#")[0].strip()
        if directive and not directive.startswith(("server 127", "listen", "upstream", "map", "server {", "}")) \
                and not directive.startswith(('""', "default", "location")):
            assert directive in stage, directive
    assert "gunicorn 'server:app' --bind 127.0.0.1:$port --workers 1 --threads 8" in blocks("console")[-1]
    assert "--workers 1 --threads 8" in open(os.path.join(ROOT, "tests", "interop", "run_scaleout.sh")).read() \
        or "--threads" in open(os.path.join(ROOT, "tests", "interop", "scaleout.py")).read()


@pytest.mark.parametrize("index", range(11))
def test_python_blocks_run_and_serve(index, tmp_path):
    if re.search(r"^from mcp\.", blocks("python")[index], re.M):     # written for the SDK: run it unchanged
        check_sdk_block(blocks("python")[index], tmp_path)
        return
    namespace = run_block(blocks("python")[index])
    app = server_of(namespace)
    with TestClient(app, elicitation=lambda p: {"action": "decline"}) as client:
        tools = {t["name"]: t for t in _safe_list(client)}
        assert app.name in CHECKS or app.name == "greeter"     # greeter's block runs its own test
        if app.name in CHECKS:
            CHECKS[app.name](client, tools)


def check_sdk_block(body, tmp_path):
    """The low-level Server of "Migrating from the official SDK": it lists read_file and reads a file."""
    from conftest import SERVE
    (tmp_path / "server.py").write_text(body)
    (tmp_path / "notes.txt").write_text("kept\n")
    hello = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    asked = [hello, {"jsonrpc": "2.0", "method": "notifications/initialized"},
             {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
             {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
              "params": {"name": "read_file", "arguments": {"path": str(tmp_path / "notes.txt")}}}]
    process = subprocess.Popen(SERVE + ["server.py"], cwd=str(tmp_path), stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdin.write("".join(json.dumps(m) + "\n" for m in asked).encode())
    process.stdin.flush()
    answers = {}
    for line in process.stdout:                  # stdin stays open until both are answered
        message = json.loads(line)
        answers[message.get("id")] = message
        if 1 in answers and 2 in answers:
            break
    process.stdin.close()
    process.wait(30)
    assert [t["name"] for t in answers[1]["result"]["tools"]] == ["read_file"], process.stderr.read()
    assert answers[2]["result"]["content"] == [{"type": "text", "text": "kept\n"}]


def _safe_list(client):
    """The tools, or none for a server that offers no tools capability."""
    from minimcp import MCPError
    try:
        return client.list_tools()
    except MCPError as exc:
        assert exc.code == -32601
        return []


def check_notes(client, tools):
    from minimcp import MCPError
    assert client.call_tool("save", {"title": "t", "text": "x"})["content"][0]["text"] == "saved t"
    assert client.read_resource("notes://t")["contents"][0]["text"] == "x"
    with pytest.raises(MCPError) as info:                   # a missing note: not found, not -32603
        client.read_resource("notes://nothing")
    assert info.value.code == -32002 and "no note titled 'nothing'" in info.value.message
    assert tools["save"]["inputSchema"]["properties"]["title"]["description"] == "the note's title"


def check_tools(client, tools):
    result = client.call_tool("distance", {"a": {"x": 0, "y": 0}, "b": {"x": 3, "y": 4}})
    assert result["structuredContent"] == {"distance": 5.0, "unit": "m"}
    assert tools["distance"]["inputSchema"]["properties"]["unit"]["enum"] == ["m", "km"]
    assert tools["thumbnail"]["name"] == "thumbnail"
    assert client.call_tool("thumbnail", {"name": "x"})["content"][0]["type"] == "image"
    assert client.call_tool("lookup", {"user_id": 7})["content"][0]["text"] == "user 7"
    with pytest.raises(Exception):
        client.call_tool("lookup", {"user_id": -1})


def check_resources(client, tools):
    assert client.read_resource("log://build/42")["contents"][0]["text"] == "log of job 42"
    uris = [r["uri"] for r in client.list_resources()]
    assert "config://app" in uris and any(u.endswith("/examples/everything.py") for u in uris)


def check_prompts(client, tools):
    messages = client.get_prompt("review", {"code": "x = 1"})["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant"]
    assert client.complete("review", "language", "r")["values"] == ["rust"]
    assert client.complete("review", "code", "fn")["values"] == ["fn main() {}"]


def check_weather(client, tools):
    assert client.call_tool("forecast", {"city": "Oslo"})["content"][0]["text"] == "sunny in Oslo"


def check_trips(client, tools):
    from minimcp import TestClient
    sent = []
    for protocol in ("2025-11-25", "2026-07-28"):
        with TestClient(client.app, protocol=protocol, roots=lambda: [{"uri": "file:///trips"}],
                        elicitation=lambda p: sent.append(p) or {"action": "accept", "content": {"name": "Ada"}},
                        sampling=lambda p: {"role": "assistant", "model": "m",
                                            "content": {"type": "text", "text": "Oslo"}}) as other:
            assert other.call_tool("plan_trip")["content"][0]["text"] == "Ada: Oslo"
    assert len(sent) == 2                      # the user is asked once in each era


def check_apps(client, tools):
    # TestClient declares no MCP Apps: the UI tool is an ordinary one, the app-only tool is hidden.
    assert sorted(tools) == ["sales"]
    assert tools["sales"]["_meta"]["ui"] == {"resourceUri": "ui://sales/chart", "visibility": ["model", "app"]}
    assert client.call_tool("sales", {"region": "north"})["structuredContent"] == {"region": "north",
                                                                                  "months": [3, 5, 8]}
    page = [r for r in client.list_resources() if r["uri"] == "ui://sales/chart"][0]
    assert page["mimeType"] == "text/html;profile=mcp-app"
    assert page["_meta"]["ui"] == {"csp": {"connectDomains": ["https://api.example.com"]}, "prefersBorder": True}


def check_skills(client, tools):
    entry = client.request("skills/get", {"uri": "skill://release-notes/SKILL.md"})["skill"]
    assert entry["frontmatter"]["name"] == "release-notes"
    assert all(r["digest"].startswith("sha256:") for r in entry["resources"])


def check_introspected(client, tools):
    # No auth hook runs in a TestClient: ctx.auth is None (the hook itself is the HTTP tests' subject).
    assert client.call_tool("whoami", {})["content"][0]["text"] == "nobody"


CHECKS = {"trips": check_trips, "notes": check_notes, "tools-demo": check_tools, "resources-demo": check_resources,
          "prompts-demo": check_prompts, "weather": check_weather, "sales-apps": check_apps,
          "skills-demo": check_skills, "introspected": check_introspected}


# -- issue 18, item 9: the README says what is true --------------------------------------------

def test_the_line_count_in_the_heading_is_the_block_s():
    heading = re.search(r"^### A server in (\d+) lines\n\n```python\n(.*?)^```", README, flags=re.S | re.M)
    assert heading, "the heading 'A server in N lines' and its block"
    assert int(heading.group(1)) == len(heading.group(2).splitlines())


def tries():
    """Each python block and the "Try it: save this as F ... then `COMMAND`" after it."""
    pattern = re.compile(r"^```python\n(.*?)^```\n\nTry it: save this as `([\w.]+)`.*?then\s+`([^`]+)`\.", re.S | re.M)
    return pattern.findall(README)


def test_the_tools_resources_and_prompts_blocks_say_how_to_try_them():
    names = [name for _, name, _ in tries()]
    assert names == ["notes.py", "tools_demo.py", "resources_demo.py", "prompts_demo.py"]


def try_it(index):
    """Save the block as the README says, in a clone of its own, and run its command."""
    import shutil
    import tempfile
    body, name, command = tries()[index]
    folder = tempfile.mkdtemp(prefix="minimcp-try-it-")
    try:
        with open(os.path.join(folder, name), "w", encoding="utf-8") as handle:
            handle.write(body)
        for path in glob.glob(os.path.join(ROOT, "minimcp*.py")):                         # "in a clone"
            shutil.copy(path, os.path.join(folder, os.path.basename(path)))
        shutil.copytree(os.path.join(ROOT, "examples"), os.path.join(folder, "examples"))
        return run_command(shell_words(command), cwd=folder, timeout=60)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("index", range(4))
def test_each_try_it_command_works_as_written(index):
    command = tries()[index][2]
    done = try_it(index)
    assert done.returncode == 0, (command, done.stdout.decode()[-2000:], done.stderr.decode()[-2000:])
    assert done.stdout.strip(), command


def test_the_stdout_guarantee_says_it_holds_only_while_serving():
    assert "a `print()` at import time or anywhere before `app.run()` still goes to\n    the real stdout" in README


def test_the_distribution_name_is_free_and_the_readme_says_it():
    pyproject = open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8").read()
    name = re.search(r'^name = "([^"]+)"', pyproject, flags=re.M).group(1)
    assert name == "minimcp-stdio"                         # "minimcp" on PyPI is another project
    assert "distribution is named **`%s`** (the module stays `minimcp`)" % name in README


AS_NOBODY = (hasattr(os, "geteuid") and os.geteuid() == 0 and os.path.exists("/usr/bin/setpriv")
             and os.path.exists("/usr/bin/python3"))


def read_only_advice():
    """The compile commands of item 3, run as nobody in a read-only folder with a copy of
    minimcp.py: (plain, advice, check) as run, the home folder, whether __pycache__ appeared."""
    import pathlib
    import shutil
    import tempfile
    tmp_path = pathlib.Path(tempfile.mkdtemp(prefix="minimcp-ro-"))     # pytest's own is private to root
    try:
        folder = tmp_path / "ro"
        folder.mkdir()
        shutil.copy(os.path.join(ROOT, "minimcp.py"), str(folder / "minimcp.py"))
        home = tmp_path / "home"
        home.mkdir()
        os.chown(str(home), 65534, 65534)
        os.chmod(str(folder), 0o555)
        os.chmod(str(tmp_path), 0o755)
        as_nobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c"]
        env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}

        def run(line):
            return run_command(as_nobody + [line], cwd=str(folder), env=env)
        plain = run("python3 -m compileall minimcp.py")
        advice = run(COMPILE_COMMAND)
        check = run('PYTHONPYCACHEPREFIX="$HOME/.cache/pycache" python3 -c '
                    '"import minimcp, os; print(minimcp.__cached__); print(os.path.exists(minimcp.__cached__))"')
        return plain, advice, check, str(home), (folder / "__pycache__").exists()
    finally:
        shutil.rmtree(str(tmp_path), ignore_errors=True)


@pytest.mark.skipif(not AS_NOBODY, reason="needs root to run the advice as an unprivileged user in a read-only directory")
def test_the_read_only_directory_advice_works_as_written():
    """Item 3: 'python3 -m compileall minimcp.py' fails in a read-only directory; the README's
    command, with PYTHONPYCACHEPREFIX, works, and the server then starts from that cache."""
    plain, advice, check, home, wrote_pycache = read_only_advice()
    assert plain.returncode != 0 or b"PermissionError" in plain.stdout + plain.stderr
    assert advice.returncode == 0, advice.stdout + advice.stderr
    cached, exists = check.stdout.decode().split()
    assert cached.startswith(home) and exists == "True", check.stdout + check.stderr
    assert not wrote_pycache


# -- issue 30, point 5: the README is a guide, read from the top ---------------------------------

GUIDE_ORDER = ["What this is", "Try it: two commands on a fresh clone", "Your first server",
               "Connect it to a host", "Tools, resources, prompts and the Context", "Testing your server",
               "The command line", "HTTP and replicas", "Bridge", "Protocol revisions", "Reference and limits"]


def headings():
    """(level, title) of every heading outside code blocks, in order."""
    found, fence = [], False
    for line in README.splitlines():
        if line.startswith("```"):
            fence = not fence
        elif not fence:
            match = re.match(r"^(#{1,6}) (.*)$", line)
            if match:
                found.append((len(match.group(1)), match.group(2)))
    return found


def slug(title):
    """GitHub's anchor for a heading."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def test_the_sections_are_the_guide_s_eleven_in_order():
    # Text that later work adds goes into these sections, as ### subsections: a new ## is a
    # change of the guide's structure, and this test is where it is decided.
    assert [title for level, title in headings() if level == 2] == GUIDE_ORDER


def test_the_table_of_contents_lists_every_section_and_subsection_in_order():
    contents = README.split("**Contents**\n\n", 1)[1].split("\n\n", 1)[0].splitlines()
    listed = []
    for line in contents:
        match = re.match(r"^(\d+\.|    -) \[(.*)\]\(#([^)]*)\)$", line)
        assert match, line
        listed.append((2 if match.group(1)[0].isdigit() else 3, match.group(3)))
    assert listed == [(level, slug(title)) for level, title in headings() if level in (2, 3)]
    assert [line.split(".")[0] for line in contents if line[0].isdigit()] == [str(n) for n in range(1, 12)]


def test_every_link_inside_the_readme_has_its_heading():
    anchors = {slug(title) for _, title in headings()}
    for target in re.findall(r"\]\(#([^)]+)\)", README):
        assert target in anchors, target


GLOSSARY_TERMS = ["2026-07-28", "handshake era", "MRTR", "SEP-", "envelope", "elicitation", "sampling",
                  "roots", "isError", "structuredContent", "_meta", "capabilities", "JSON-RPC", "SSE",
                  "WSGI", "Streamable HTTP", "MCP Apps", "Agent Skills", "extension", "2025-11-25"]


def test_each_protocol_term_is_explained_before_its_first_use():
    start = README.index("### Words used here")
    glossary = README[start:README.index("\n## ", start)]
    text = README[README.index("## What this is"):].lower()        # after the table of contents
    start = text.index("### words used here")
    for term in GLOSSARY_TERMS:
        first = text.index(term.lower())
        assert first > start, "%r is used before the glossary" % term
        assert term.lower() in glossary.lower(), term


def test_the_context_table_is_one_table():
    # A paragraph between two rows ends the table: the rows after it render as literal pipes.
    start = README.index("| member | what it does |")
    table = README[start:].split("\n\n", 1)[0].splitlines()
    assert any(row.startswith("| `ping()`") for row in table)
    assert all(row.startswith("|") and row.endswith("|") for row in table)
    rest = README[start + len("\n".join(table)):].split("\n## ", 1)[0]
    assert not re.search(r"^\|", rest.split("### ", 1)[0], flags=re.M)


def test_ctx_sleep_raises_cancelled_as_the_readme_says():
    """Point 2: the README said sleep "returns at once" on cancel, so cleanup written after it
    never ran. It raises Cancelled, which an ``except Exception`` does not catch."""
    import threading
    from minimcp import Cancelled, Context, MCPError
    assert "`sleep` raises `Cancelled` at once on cancel, so cleanup goes in a `finally:`" in README
    assert "`ctx.sleep` returns at once" not in README and "`sleep` wakes at once" not in README
    app = MCPServer("sleeper")
    started, ended, ids, seen = threading.Event(), threading.Event(), [], []

    @app.tool()
    def wait(ctx: Context) -> str:
        started.set()
        try:
            ctx.sleep(30)
        except Exception:                                   # the README: this does not catch it
            seen.append("Exception")
        except Cancelled:
            seen.append("Cancelled")
            raise
        finally:
            seen.append("finally")
            ended.set()
        return "slept"

    def call(client):
        try:
            client.request("tools/call", {"name": "wait", "arguments": {}}, on_id=ids.append)
        except MCPError:
            pass
    with TestClient(app) as client:
        caller = threading.Thread(target=call, args=(client,))
        caller.start()
        assert started.wait(10)
        client.notify("notifications/cancelled", {"requestId": ids[0], "reason": "test"})
        assert ended.wait(10)
    caller.join(10)                                         # closing the client ended its wait
    assert seen == ["Cancelled", "finally"] and not caller.is_alive()


# -- issue 30, points 4 and 6: hosts and troubleshooting ------------------------------------

def section(title):
    start = README.index("\n%s\n" % title)
    rest = README[start + len(title) + 2:]
    level = title.split(" ")[0]
    ends = [rest.find("\n%s " % level)] + ([rest.find("\n## ")] if level == "###" else [])
    return rest[:min(e for e in ends if e >= 0)]


def test_the_host_table_is_the_cli_s_table():
    import minimcp
    import minimcp_cli
    text = section("## Connect it to a host")
    rows = [line for line in text.splitlines() if line.startswith("| ") and "`--client`" not in line]
    assert len(rows) == len(minimcp_cli._HOSTS)
    for row, (key, host) in zip(rows, minimcp_cli._HOSTS.items()):
        assert row.startswith("| %s | `%s` |" % (host["title"], key)), row
        assert "(%s)" % host["docs"] in row and host["logs"] in row, row
        assert all(where in row for where in host["where"].values() if where), row


def test_the_claude_code_example_is_what_config_prints(tmp_path):
    import minimcp
    import minimcp_cli
    block = [b for b in blocks("console") if "config --client claude-code" in b][0]
    command, shown = [line for line in block.strip().splitlines()]
    words = [sys.executable if w == "python3" else w for w in shlex.split(command[2:])]
    done = subprocess.run(words, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    printed = shlex.split(done.stdout.decode())
    expected = shlex.split(shown)
    assert printed[:-2] == expected[:-2]                    # all but the two absolute paths
    assert printed[-1] == os.path.join(ROOT, "examples", "everything.py")
    assert minimcp_cli._HOSTS["claude-code"]["format"] == "claude mcp add"


# Each message the Troubleshooting section explains, as the command line prints it.
TROUBLE = ["cannot start ", "ENOENT", "the server exited with status 0 having written nothing",
           " before answering", "the server wrote a line that is not JSON-RPC", "stdout holds only JSON-RPC",
           "minimcp's own --timeout, not the server's", "the server wrote a traceback on stderr"]


def test_troubleshooting_explains_what_the_cli_says_and_the_cli_points_there():
    text = section("### Troubleshooting")
    source = "".join(open(path, encoding="utf-8").read() for path in glob.glob(os.path.join(ROOT, "minimcp*.py")))
    for message in TROUBLE:
        assert message in text, message
        assert message in source, message
    assert source.count("self.TROUBLESHOOTING") + source.count("_ProcessClient.TROUBLESHOOTING") >= 6
    assert 'TROUBLESHOOTING = "README.md, \\"Troubleshooting\\""' in source


def test_the_oauth_entry_is_the_url_alone_and_the_readme_says_where_tokens_live_and_how_to_sign_out():
    entry = json.loads(blocks("json")[2])["mcpServers"]["remote"]
    assert entry["args"][:3] == ["-I", "-S", "-c"] and "minimcp_bridge.bridge_main()" in entry["args"][3]
    assert len(entry["args"]) == 5
    assert "env" not in entry
    text = section("## Bridge")
    # Asked of a process of its own: imported here, the bridge would plug itself into this one's minimcp.
    folder, token_format, usage = json.loads(subprocess.run(
        [sys.executable, "-c", "import json, minimcp, minimcp_bridge as b; "
         "print(json.dumps([b.default_oauth_dir({}), b.TOKEN_FORMAT, b._BRIDGE_USAGE]))"],
        cwd=ROOT, capture_output=True, check=True, timeout=60).stdout)
    assert folder.replace(os.path.expanduser("~"), "~") + "/" in text
    assert "python3 minimcp.py bridge %s --logout" % entry["args"][4] in text
    assert '"format": "%s"' % token_format in text
    for option in ("--logout", "--oauth-dir", "--client-id", "--client-secret", "--client-secret-file",
                   "--client-metadata-url", "--client-credentials", "--callback-port", "--login-timeout"):
        assert option in text and option in usage, option


def test_the_bridge_entry_is_what_config_url_prints_and_keeps_its_secret_out_of_argv():
    entry = json.loads(blocks("json")[1])["mcpServers"]["remote"]
    assert os.path.isabs(entry["command"]) and entry["args"][:3] == ["-I", "-S", "-c"]
    assert "sys.path.insert(0, '/home/me/minimcp')" in entry["args"][3]
    header = entry["args"][entry["args"].index("--header") + 1]
    assert "${MCP_TOKEN}" in header and "MCP_TOKEN" in entry["env"]
    command = [line for line in section("## Bridge").splitlines() if "config --client claude" in line and "--url" in line]
    environment = {key: value for key, value in os.environ.items() if "proxy" not in key.lower()}
    done = run_command(shell_words(command[0]), env=environment)
    assert done.returncode == 0, done.stderr.decode()
    printed = json.loads(done.stdout)["mcpServers"]["remote"]
    assert printed["command"] == os.path.abspath(sys.executable)
    assert printed["args"][3] == entry["args"][3].replace("'/home/me/minimcp'", repr(ROOT))
    assert dict(printed, command=entry["command"], args=entry["args"][:4] + printed["args"][4:]) == entry
