#!/usr/bin/env bash
# The bridge's sign-in (issue 40) against the official Python SDK's own OAuth demo:
# examples/servers/simple-auth of the mcp sdist on PyPI (pinned), an authorization server
# (mcp-simple-auth-as) and an MCP server behind its tokens (mcp-simple-auth-rs, with
# --oauth-strict: the RFC 8707 audience checked), installed into a throwaway venv at stage time.
# BROWSER is oauth_browser.py, which submits the demo's login form as a person would and logs
# every tab it opens. bridge_oauth_demo.py plays the hosts:
#
#   1. sign-in   two bridges started at once: both connect and call get_time, one browser tab
#                between them; the token file is 0600 (its folder 0700); a bridge started later
#                connects with no tab and the same token
#   2. refresh   the demo's authorization server with refresh tokens added (simple_auth_refresh.py:
#                the demo issues none; 15 s access tokens): once the server says the access token
#                has expired, the next call goes through with a refreshed one and no tab
#
# Every server listens on localhost and is stopped by its PID. Exit status non-zero if any
# check fails or the stage cannot run.
#
# Usage: tests/interop/run_bridge_oauth.sh
set -uo pipefail

MCP_VERSION="2.3.0"            # the SDK whose sdist carries the demo (the other stages' pin)
UVICORN_VERSION="0.55.0"       # as run_bridge_interop.sh
LIFETIME=15                    # seconds an access token lives in part 2

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo" || exit 1

die() { echo "run_bridge_oauth.sh: $*" >&2; echo "FAIL bridge-oauth.environment: $*"; echo "0 passed, 1 failed"; exit 1; }
# shellcheck source=find_python.sh
. "$here/find_python.sh"

work="$(mktemp -d "${TMPDIR:-/tmp}/minimcp-bridge-oauth.XXXXXX")" || die "mktemp failed"
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT

PY="$(find_python)" || die "no Python >= 3.10 (the SDK $MCP_VERSION needs one)"
command -v python3 >/dev/null 2>&1 || die "python3 (to run the bridge) not found on PATH"
"$PY" -m venv "$work/venv" || die "cannot create a venv with $PY"
vpy="$work/venv/bin/python"
"$vpy" -m pip download --quiet --disable-pip-version-check --no-deps --no-binary :all: "mcp==$MCP_VERSION" \
  -d "$work/sdist" || die "pip download mcp==$MCP_VERSION (its sdist) failed"
tar -xzf "$work/sdist/mcp-$MCP_VERSION.tar.gz" -C "$work" || die "cannot unpack mcp-$MCP_VERSION.tar.gz"
demo="$work/mcp-$MCP_VERSION/examples/servers/simple-auth"
[ -f "$demo/pyproject.toml" ] || die "the sdist has no examples/servers/simple-auth"
"$vpy" -m pip install --quiet --disable-pip-version-check "mcp==$MCP_VERSION" "uvicorn==$UVICORN_VERSION" "$demo" \
  || die "pip install of the simple-auth demo with mcp==$MCP_VERSION failed"
"$vpy" -c "import importlib.metadata as m; assert m.version('mcp') == '$MCP_VERSION'" \
  || die "the installed mcp is not $MCP_VERSION"

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_for() {  # URL PID: until URL answers (any status), or the process died
  local i
  for i in $(seq 1 200); do
    python3 - "$1" <<'EOF' && return 0
import sys, urllib.error, urllib.request
try:
    urllib.request.build_opener(urllib.request.ProxyHandler({})).open(sys.argv[1], timeout=2)
except urllib.error.HTTPError:
    pass
except OSError:
    sys.exit(1)
EOF
    kill -0 "$2" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}
start() {  # NAME READY_URL COMMAND...: start a server in the background, wait until it answers
  local name="$1" url="$2"
  shift 2
  "$@" > "$work/$name.log" 2>&1 &
  pids+=("$!")
  wait_for "$url" "$!" || { tail -c 1500 "$work/$name.log"; die "$name did not start"; }
}
stop_all() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
  pids=()
}

failed=0
part() {  # NAME COMMAND...: its ok/FAIL lines are counted at the end
  printf '\n==== bridge oauth: %s\n' "$1"
  shift
  "$@" | tee -a "$work/checks.out"
  [ "${PIPESTATUS[0]}" = 0 ] || failed=$((failed + 1))
}

# -- 1. the demo as it is -------------------------------------------------------------------------
as_port="$(free_port)"; rs_port="$(free_port)"
start demo-as "http://localhost:$as_port/.well-known/oauth-authorization-server" \
  "$work/venv/bin/mcp-simple-auth-as" --port="$as_port"
start demo-rs "http://localhost:$rs_port/.well-known/oauth-protected-resource/mcp" \
  "$work/venv/bin/mcp-simple-auth-rs" --port="$rs_port" --auth-server="http://localhost:$as_port" \
  --transport=streamable-http --oauth-strict
mkdir -p "$work/sign-in"
part sign-in python3 "$here/bridge_oauth_demo.py" sign-in "http://localhost:$rs_port/mcp" "$work/sign-in"
stop_all

# -- 2. its authorization server with refresh tokens ----------------------------------------------
as_port="$(free_port)"; rs_port="$(free_port)"
start demo-as-refresh "http://localhost:$as_port/.well-known/oauth-authorization-server" \
  "$vpy" "$here/simple_auth_refresh.py" "$as_port" "$LIFETIME"
start demo-rs-refresh "http://localhost:$rs_port/.well-known/oauth-protected-resource/mcp" \
  "$work/venv/bin/mcp-simple-auth-rs" --port="$rs_port" --auth-server="http://localhost:$as_port" \
  --transport=streamable-http --oauth-strict
mkdir -p "$work/refresh"
part refresh python3 "$here/bridge_oauth_demo.py" refresh "http://localhost:$rs_port/mcp" \
  "http://localhost:$as_port" "$work/refresh"
stop_all

printf '\n%d passed, %d failed\n' "$(grep -c '^ok ' "$work/checks.out")" "$(grep -c '^FAIL ' "$work/checks.out")"
if [ "$failed" != 0 ]; then
  echo "run_bridge_oauth.sh: BRIDGE OAUTH FAILED: $failed part(s)" >&2
  exit 1
fi
echo "all bridge oauth parts passed"
