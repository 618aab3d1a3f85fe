#!/usr/bin/env bash
# What `minimcp.py config` prints, used by the hosts themselves (issue 35, point 3):
#
#   - Claude Code (npm @anthropic-ai/claude-code): the printed `claude mcp add ...` line, run in a
#     shell, then `claude mcp list` must show the server "✔ Connected"; and the README's advice,
#     `--scope user` right after `claude mcp add`, for every project;
#   - Codex CLI (npm @openai/codex): the printed `codex mcp add ...` line, then Codex's own
#     app-server (mcpServerStatus/list) must have started the server and listed its tool;
#   - Gemini CLI (npm @google/gemini-cli): the JSON entry merged into ~/.gemini/settings.json,
#     then `gemini mcp list` must show it "Connected";
#   - every host `config` writes an entry for (Claude Desktop, Gemini CLI, Cursor, VS Code,
#     Windsurf, Zed, Goose): exactly the command and args written, started from / with a bare
#     environment (the entry's env only), must answer initialize and a tools/call.
#
# Two servers: examples/everything.py with an --env value that needs quoting, and a file written
# for the SDK (run through `-m minimcp serve`, so its entry sets PYTHONPATH) that prints a banner
# at import and exits unless its --env variable arrived. The CLIs are pinned and installed into a
# throwaway prefix, and run with a scratch HOME and their network pointed at a closed loopback
# port: `claude mcp list`, `codex app-server` and `gemini mcp list` need no login and no network.
# Anything that cannot be installed or run fails the stage: it never passes by skipping.
#
# Usage: bash tests/interop/run_hosts_cli.sh
set -uo pipefail

CLAUDE_CODE_VERSION="2.1.332"
CODEX_VERSION="0.171.0"
GEMINI_CLI_VERSION="0.61.0"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
die() { echo "run_hosts_cli.sh: $*" >&2; exit 1; }

command -v node >/dev/null && command -v npm >/dev/null || die "node and npm are needed to install the hosts' CLIs"
command -v python3 >/dev/null || die "python3 is needed"

work="$(mktemp -d "${TMPDIR:-/tmp}/minimcp-hosts.XXXXXX")" || die "mktemp failed"
trap 'rm -rf "$work"' EXIT

echo "# installing @anthropic-ai/claude-code@$CLAUDE_CODE_VERSION @openai/codex@$CODEX_VERSION" \
     "@google/gemini-cli@$GEMINI_CLI_VERSION into $work/npm"
npm install --prefix "$work/npm" --no-audit --no-fund --loglevel=error \
    "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION" "@openai/codex@$CODEX_VERSION" \
    "@google/gemini-cli@$GEMINI_CLI_VERSION" >"$work/npm.log" 2>&1 \
    || { tail -20 "$work/npm.log"; die "npm install failed (network? registry?)"; }
bin="$work/npm/node_modules/.bin"
for package in "@anthropic-ai/claude-code:$CLAUDE_CODE_VERSION" "@openai/codex:$CODEX_VERSION" \
               "@google/gemini-cli:$GEMINI_CLI_VERSION"; do
  got="$(node -p "require('$work/npm/node_modules/${package%%:*}/package.json').version" 2>/dev/null)" || got="(missing)"
  [ "$got" = "${package##*:}" ] || die "installed ${package%%:*} is $got, not ${package##*:}"
done
for tool in claude codex gemini; do
  [ -x "$bin/$tool" ] || die "$tool is missing after npm install"
done

# config runs with a fresh venv's interpreter: no SDK in it, so the SDK file gets the serve form.
python3 -m venv --without-pip "$work/venv" || die "cannot create a venv with $(command -v python3)"
py="$work/venv/bin/python"

cat >"$work/weather.py" <<'EOF'
print("Starting the weather server...")       # a banner at import, above the imports (issue 35, point 2)
import os
import sys

from mcp.server.fastmcp import FastMCP

if os.environ.get("WEATHER_KEY") != "s3cret value":
    sys.exit("weather.py: WEATHER_KEY is not set: the host did not pass the entry's env")

mcp = FastMCP("weather")


@mcp.tool()
def forecast(city: str) -> str:
    """The forecast for a city."""
    return "sunny in %s (key %s)" % (city, os.environ["WEATHER_KEY"])


if __name__ == "__main__":
    mcp.run()
EOF
# NAME|config words|tool|arguments|expected text
servers=(
  "everything|--env|API_KEY=x y|$repo/examples/everything.py|echo|{\"text\": \"hi from a host\"}|hi from a host"
  "weather|--env|WEATHER_KEY=s3cret value|$work/weather.py|forecast|{\"city\": \"Oslo\"}|sunny in Oslo (key s3cret value)"
)

# The hosts get a scratch HOME and no network (a closed port on loopback as their proxy).
host_env() {  # $1: scratch HOME; the rest: the command
  local home="$1"; shift
  env HOME="$home" XDG_CONFIG_HOME="$home/.config" HTTPS_PROXY=http://127.0.0.1:9 HTTP_PROXY=http://127.0.0.1:9 \
      https_proxy=http://127.0.0.1:9 http_proxy=http://127.0.0.1:9 NO_PROXY= no_proxy= \
      DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 PATH="$bin:$PATH" "$@"
}

failed=()
fail() { echo "FAIL $*"; failed+=("$*"); }

config() {  # $1: host; the rest: config's words. The printed text in $work/out, stderr in $work/err.
  local host="$1"; shift
  "$py" "$repo/minimcp.py" config --client "$host" "$@" >"$work/out" 2>"$work/err" \
    || { cat "$work/err"; return 1; }
}

added_line() {  # $1: host; the rest: config's words. Checks the printed command is one line, prints it.
  local host="$1"; shift
  config "$host" "$@" || return 1
  [ "$(wc -l <"$work/out")" -eq 1 ] || { echo "config printed $(wc -l <"$work/out") lines:"; cat "$work/out"; return 1; }
  cat "$work/out"
}

# -- Claude Code ------------------------------------------------------------------------------
echo
echo "== Claude Code $CLAUDE_CODE_VERSION"
home="$work/home-claude"; project="$work/project"
mkdir -p "$home" "$project"
# The control: the order config printed before (issue 35) is refused, so this stage can tell.
if host_env "$home" "$bin/claude" mcp add --transport stdio --env API_KEY=x control -- "$py" "$repo/examples/everything.py" \
     >"$work/control" 2>&1 || ! grep -q "Invalid environment variable format" "$work/control"; then
  cat "$work/control"; fail "claude-code: the control (--env before the name) was not refused as issue 35 saw"
else
  echo "ok claude-code: --env before the name is refused ($(head -c 60 "$work/control")...)"
fi
for server in "${servers[@]}"; do
  IFS='|' read -r name option value script tool arguments expected <<<"$server"
  line="$(added_line claude-code "$option" "$value" "$script")" || { echo "$line"; fail "claude-code: config for $name"; continue; }
  echo "\$ $line"
  (cd "$project" && host_env "$home" sh -c "$line") || fail "claude-code: the printed line for $name"
done
# The README: "put --scope user right after claude mcp add" (every project).
line="$(added_line claude-code --name everything-user --env "API_KEY=x y" "$repo/examples/everything.py")" \
  || fail "claude-code: config for everything-user"
line="claude mcp add --scope user ${line#claude mcp add }"
echo "\$ $line"
(cd "$project" && host_env "$home" sh -c "$line") || fail "claude-code: the line with --scope user"
(cd "$project" && host_env "$home" "$bin/claude" mcp list) >"$work/list" 2>&1
cat "$work/list"
for name in everything weather everything-user; do
  grep -Eq "^$name: .* - ✔ Connected\$" "$work/list" || fail "claude-code: claude mcp list does not show $name connected"
done
(cd "$work" && host_env "$home" "$bin/claude" mcp list) >"$work/list-elsewhere" 2>&1
grep -Eq "^everything-user: .* - ✔ Connected\$" "$work/list-elsewhere" \
  || { cat "$work/list-elsewhere"; fail "claude-code: --scope user did not add it for every project"; }
"$py" - "$home/.claude.json" <<'EOF' || fail "claude-code: --scope user was stored wrong"
import json, sys
entry = json.load(open(sys.argv[1]))["mcpServers"]["everything-user"]
assert "--scope" not in entry["args"] and entry["env"] == {"API_KEY": "x y"}, entry
print("ok claude-code: --scope user stored for every project, not as a server argument")
EOF

# -- Codex CLI --------------------------------------------------------------------------------
echo
echo "== Codex CLI $CODEX_VERSION"
home="$work/home-codex"
mkdir -p "$home"
expected=()
for server in "${servers[@]}"; do
  IFS='|' read -r name option value script tool arguments expected_text <<<"$server"
  line="$(added_line codex "$option" "$value" "$script")" || { echo "$line"; fail "codex: config for $name"; continue; }
  echo "\$ $line"
  # (Codex warns that it makes no PATH helpers under a temporary HOME: shown, not counted)
  (cd "$project" && host_env "$home" sh -c "$line") >"$work/added" 2>&1 || { cat "$work/added"; fail "codex: the printed line for $name"; }
  grep -v '^WARNING: proceeding' "$work/added"
  expected+=("$name:$tool")
done
(cd "$project" && host_env "$home" python3 "$here/hosts_cli.py" codex-status "$bin/codex" "${expected[@]}") \
  || fail "codex: a server did not connect"

# -- Gemini CLI (config writes its JSON entry) ---------------------------------------------------
echo
echo "== Gemini CLI $GEMINI_CLI_VERSION"
home="$work/home-gemini"
mkdir -p "$home/.gemini"
printf '{"%s": "TRUST_FOLDER"}\n' "$project" >"$home/.gemini/trustedFolders.json"   # else its servers stay disabled
for server in "${servers[@]}"; do
  IFS='|' read -r name option value script tool arguments expected_text <<<"$server"
  config gemini "$option" "$value" "$script" || { fail "gemini: config for $name"; continue; }
  python3 "$here/hosts_cli.py" merge-json "$home/.gemini/settings.json" "$work/out" || fail "gemini: merge $name"
done
(cd "$project" && host_env "$home" "$bin/gemini" mcp list) >"$work/list" 2>&1
cat "$work/list"
for server in "${servers[@]}"; do
  name="${server%%|*}"
  grep -Eq "✓ $name: .* - Connected\$" "$work/list" || fail "gemini: gemini mcp list does not show $name connected"
done

# -- every written entry, started as a host starts it ---------------------------------------------
echo
echo "== the entries config writes, started from / with a bare environment"
for host in claude gemini cursor vscode windsurf zed goose; do
  for server in "${servers[@]}"; do
    IFS='|' read -r name option value script tool arguments expected_text <<<"$server"
    config "$host" "$option" "$value" "$script" || { fail "$host: config for $name"; continue; }
    python3 "$here/hosts_cli.py" start "$host" "$work/out" "$tool" "$arguments" "$expected_text" \
      || fail "$host: the entry for $name"
  done
done

echo
if [ ${#failed[@]} -ne 0 ]; then
  printf '  %s\n' "${failed[@]}" >&2
  die "${#failed[@]} check(s) failed"
fi
echo "every host accepted what config printed, and each server connected"
