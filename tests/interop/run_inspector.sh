#!/usr/bin/env bash
# Interop check against the MCP Inspector's CLI mode (npm @modelcontextprotocol/inspector-cli, pinned).
#
# Installs the pinned Inspector CLI (tests/interop/ts/package-lock.json) with `npm ci` into a
# throwaway directory under ${TMPDIR:-/tmp}, then runs `mcp-inspector-cli --cli SERVER --method ...`
# once per method against `python3 examples/everything.py` (through the recording tee in
# python_sdk_client.py) and asserts the content of each JSON output.
#
# Usage: tests/interop/run_inspector.sh [-v] [--keep-logs DIR] [-- SERVER_CMD...]
#
# Environment: MINIMCP_NODE_CLIENTS_DIR  reuse/keep the npm install there (run_all.sh sets it)
#              MINIMCP_INTEROP_LOGS      write the wire logs to $MINIMCP_INTEROP_LOGS/inspector
#
# Output: `ok inspector.<name>` / `FAIL inspector.<name>: why`, then `N passed, N failed`.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo" || exit 1

die() { echo "run_inspector.sh: $*" >&2; echo "FAIL inspector.environment: $*"; echo "0 passed, 1 failed"; exit 1; }
# shellcheck source=npm_clients.sh
. "$here/npm_clients.sh"

verbose=0
logs=""
server=()
while [ $# -gt 0 ]; do
  case "$1" in
    -v|--verbose) verbose=1; shift ;;
    --keep-logs) [ $# -ge 2 ] || die "--keep-logs needs a directory"; logs="$2"; shift 2 ;;
    --) shift; server=("$@"); break ;;
    *) die "unknown argument $1 (usage: run_inspector.sh [-v] [--keep-logs DIR] [-- SERVER_CMD...])" ;;
  esac
done
[ -n "$logs" ] || { [ -z "${MINIMCP_INTEROP_LOGS:-}" ] || logs="$MINIMCP_INTEROP_LOGS/inspector"; }
if [ ${#server[@]} -eq 0 ]; then
  [ -f examples/everything.py ] || die "examples/everything.py not found in $repo"
  server=(python3 examples/everything.py)
fi
command -v python3 >/dev/null 2>&1 || die "python3 (to run the server, the wire tee and the assertions) not found on PATH"
command -v timeout >/dev/null 2>&1 || die "timeout(1) not found"

workdir="$(mktemp -d "${TMPDIR:-/tmp}/minimcp-inspector-interop.XXXXXX")" || die "mktemp failed"
trap 'rm -rf "$workdir"' EXIT
install_node_clients "${MINIMCP_NODE_CLIENTS_DIR:-$workdir/npm}"
[ -n "$logs" ] || logs="$workdir/wire"
mkdir -p "$logs" || die "cannot create $logs"

cli_pkg="$NODE_CLIENTS_NM/@modelcontextprotocol/inspector-cli"
cli="$cli_pkg/build/cli.js"   # the package's `mcp-inspector-cli` bin
[ -f "$cli" ] || die "$cli not found"

# The Inspector gets one executable as its server command: a wrapper that starts the server in the
# repository root through the recording tee (log path from the environment, one log per run).
wrapper="$workdir/server.sh"
{
  echo '#!/bin/sh'
  printf 'cd %q || exit 1\n' "$repo"
  printf 'exec python3 %q --tee "$MINIMCP_WIRE_LOG" --' "$here/python_sdk_client.py"
  printf ' %q' "${server[@]}"
  echo
} >"$wrapper"
chmod +x "$wrapper"

passed=0
failed=0
runs=0
echo "# Inspector CLI $INSPECTOR_CLI_VERSION (SDK $TS_SDK_VERSION); server: ${server[*]} (cwd $repo); wire logs in $logs"

# Assertions run in python3 with the Inspector's stdout parsed as `r` and the run's wire log as
# `wire` (list of messages the server wrote); they set `detail` for the ok line.
ASSERT_RUNNER='
import json, sys
src, log_path, out_path = sys.argv[1:4]
raw = open(out_path, encoding="utf-8").read()
wire, exits = [], []
for line in open(log_path, encoding="utf-8"):
    rec = json.loads(line)
    if rec.get("d") == "s2c":
        wire.append(json.loads(rec["raw"]))
    elif rec.get("d") == "exit":
        exits.append(rec.get("code"))
try:
    r = json.loads(raw) if raw.strip() else None
except ValueError as e:
    print("stdout is not JSON (%s): %r" % (e, raw[:200])); sys.exit(1)
init = [m for m in wire if isinstance(m.get("result"), dict) and "protocolVersion" in m["result"]]
env = {"r": r, "wire": wire, "json": json, "detail": ""}
try:
    assert init and init[0]["result"]["protocolVersion"] == "2025-11-25", "no initialize result at 2025-11-25 on the wire"
    exec(src, env)
    assert exits == [0], "server exit codes %r (expected one clean exit on stdin EOF)" % (exits,)
except AssertionError as e:
    print(str(e)[:600] or "assertion failed"); sys.exit(1)
print(env["detail"])
'

# inspect NAME EXPECT_RC ASSERTIONS -- INSPECTOR_ARGS...
#   EXPECT_RC: 0 (success, stdout is the result JSON) or 1 (the Inspector reports an error and exits 1)
inspect() {
  local name="$1" expect_rc="$2" src="$3" rc why detail log out err
  shift 4
  runs=$((runs + 1))
  log="$logs/inspector-$(printf '%02d' "$runs")-${name//[^A-Za-z0-9_.-]/_}.jsonl"
  out="$workdir/out.$runs"
  err="$workdir/err.$runs"
  rm -f "$log"
  # 1.0.3 decides between `../package.json` and `../../package.json` with fs.existsSync() relative to
  # the *working directory* but imports it relative to build/index.js (inspector#1334/#1506), so it
  # only starts when the cwd is its own build/ directory. The server command is absolute.
  (cd "$cli_pkg/build" && MINIMCP_WIRE_LOG="$log" timeout 60 node "$cli" --cli "$wrapper" "$@") >"$out" 2>"$err"
  rc=$?
  [ "$verbose" = 0 ] || { echo "## $name: rc=$rc"; cat "$out"; echo; grep -v '^\s*$' "$err" | sed 's/^/## stderr: /'; }
  if [ "$rc" != "$expect_rc" ]; then
    why="exit status $rc (expected $expect_rc): $(grep -v -e '^\s*$' -e 'deprecated' -e 'Upgrade:' -e 'security fixes' "$err" | tr '\n' ' ' | cut -c1-400)"
  elif [ ! -s "$log" ]; then
    why="no wire log (the server was never started)"
  elif ! detail="$(python3 -c "$ASSERT_RUNNER" "$src" "$log" "$out" 2>&1)"; then
    why="$detail"
  else
    passed=$((passed + 1))
    echo "ok inspector.$name${detail:+  ($detail)}"
    return 0
  fi
  failed=$((failed + 1))
  echo "FAIL inspector.$name: $why"
}

ECHO_TEXT='Hello, Inspector ✓ "quoted" \back\slash
second line, 日本語 🎉'

inspect tools/list 0 '
names = [t["name"] for t in r["tools"]]
want = ["echo", "add", "fail", "log", "slow", "sample", "ask_roots", "elicit", "touch", "print_stdout", "long_job"]
assert all(n in names for n in want), "missing tools: %r" % [n for n in want if n not in names]
t = {x["name"]: x for x in r["tools"]}
assert all(x["inputSchema"]["type"] == "object" for x in r["tools"]), "an inputSchema is not an object schema"
assert t["echo"]["inputSchema"]["properties"]["text"]["type"] == "string" and t["echo"]["inputSchema"]["required"] == ["text"], t["echo"]
assert t["add"]["outputSchema"] == {"type": "object", "properties": {"result": {"type": "number"}}, "required": ["result"]}, t["add"].get("outputSchema")
assert t["long_job"].get("execution") == {"taskSupport": "optional"}, t["long_job"].get("execution")
assert all(isinstance(x.get("description"), str) and x["description"] for x in r["tools"]), "a tool has no description"
detail = "%d tools" % len(names)
' -- --method tools/list

inspect tools/call.echo 0 '
want = "Hello, Inspector \u2713 \"quoted\" \\back\\slash\nsecond line, \u65e5\u672c\u8a9e \U0001f389"
assert r == {"content": [{"type": "text", "text": want}]}, "result %r" % (r,)       # -> str: the text once
' -- --method tools/call --tool-name echo --tool-arg "text=$ECHO_TEXT"

inspect tools/call.add 0 '
assert r == {"content": [{"type": "text", "text": "5"}], "structuredContent": {"result": 5}}, "result %r" % (r,)
detail = "2 + 3 -> text \"5\", structuredContent {\"result\": 5}"
' -- --method tools/call --tool-name add --tool-arg a=2 b=3

inspect tools/call.add-fractions 0 '
assert r["structuredContent"] == {"result": 0.75} and r["content"] == [{"type": "text", "text": "0.75"}], "result %r" % (r,)
assert not r.get("isError"), r
' -- --method tools/call --tool-name add --tool-arg a=0.5 b=0.25

inspect tools/call.fail 0 '
assert r.get("isError") is True, "isError %r" % (r.get("isError"),)
assert any("kaputt" in c.get("text", "") for c in r["content"]), r["content"]
detail = "isError result"
' -- --method tools/call --tool-name fail --tool-arg 'message=kaputt ✗'

inspect resources/list 0 '
hello = [x for x in r["resources"] if x["uri"] == "fixture://hello"]
assert hello and hello[0].get("mimeType") == "text/plain" and hello[0].get("name"), "resources %r" % (r["resources"],)
' -- --method resources/list

inspect resources/templates/list 0 '
t = [x for x in r["resourceTemplates"] if x["uriTemplate"] == "fixture://greeting/{name}"]
assert t and t[0].get("mimeType") == "text/plain" and t[0].get("name"), "templates %r" % (r["resourceTemplates"],)
' -- --method resources/templates/list

inspect resources/read 0 '
assert r == {"contents": [{"uri": "fixture://hello", "mimeType": "text/plain", "text": "Hello, world!"}]}, "result %r" % (r,)
' -- --method resources/read --uri fixture://hello

inspect resources/read.template 0 '
assert len(r["contents"]) == 1 and r["contents"][0]["text"] == "Hello, Ada!" and r["contents"][0]["uri"] == "fixture://greeting/Ada", "result %r" % (r,)
' -- --method resources/read --uri fixture://greeting/Ada

inspect resources/read.unknown 1 '
errs = [m["error"] for m in wire if "error" in m]
assert len(errs) == 1 and errs[0]["code"] == -32002, "errors on the wire: %r" % (errs,)
detail = "-32002 on the wire; the Inspector exits 1"
' -- --method resources/read --uri fixture://does-not-exist

inspect prompts/list 0 '
g = [p for p in r["prompts"] if p["name"] == "greet"]
assert g, "prompts %r" % (r["prompts"],)
args = {a["name"]: a for a in g[0].get("arguments", [])}
assert "name" in args and args["name"].get("required") is True, "greet arguments %r" % (g[0].get("arguments"),)
' -- --method prompts/list

inspect prompts/get 0 '
m = r["messages"]
assert len(m) == 1 and m[0]["role"] == "user" and m[0]["content"]["type"] == "text", "messages %r" % (m,)
assert "Ada Lovelace" in m[0]["content"]["text"], m[0]["content"]
' -- --method prompts/get --prompt-name greet --prompt-args 'name=Ada Lovelace'

inspect logging/setLevel 0 '
assert r == {}, "result %r" % (r,)
ok_levels = [m for m in wire if m.get("result") == {}]
assert len(ok_levels) == 2, "expected two empty results (the connect-time debug and ours), got %r" % (wire[1:],)
detail = "error -> {}"
' -- --method logging/setLevel --log-level error

# The Inspector CLI 1.0.3 offers the levels trace/debug/info/warn/error; `trace` and `warn` are not
# MCP LoggingLevel values (inspector#1734), so the server must refuse them with -32602.
inspect logging/setLevel.non-mcp-level 1 '
errs = [m["error"] for m in wire if "error" in m]
assert len(errs) == 1 and errs[0]["code"] == -32602, "errors on the wire: %r" % (errs,)
detail = "\"warn\" -> -32602 Invalid params"
' -- --method logging/setLevel --log-level warn

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
