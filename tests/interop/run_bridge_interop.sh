#!/usr/bin/env bash
# The bridge (issue 39) between real clients and real servers: the official SDK clients start
# `python3 minimcp.py bridge URL` over stdio, as hosts start servers, and run the checks of the
# stdio interop stages (python_sdk_client.py, ts_sdk_client.mjs) through it, unchanged.
#
#   1. bridge-minimcp          Python SDK client (mcp, pinned), both eras, to minimcp's HTTP server
#                              (examples/everything.py): a handshake session mirrored, 2026-07-28
#                              end to end
#   2. bridge-minimcp-translated  the same client as a handshake-only host, with --protocol 2026-07-28
#   3. bridge-minimcp-ts       TypeScript SDK client (npm, pinned; handshake era) to minimcp's server
#   4. bridge-schema           every message the bridge wrote to the hosts of 1-3, against the
#                              negotiated revision's schema.json (as written, then --strict)
#   5. bridge-sdk-server       Python SDK client, both eras, to the official SDK's own Streamable HTTP
#                              server (its Starlette app under uvicorn, pinned) serving the same fixture
#                              written for the SDK (sdk_everything_http.py). Every check must pass;
#                              one that fails is run again without the bridge (bridge_sdk_direct.py)
#                              to say whose failure it is, the server's or the bridge's.
#   6. bridge-restart          the upstream (minimcp's, the SDK's) killed mid-session and started again
#                              on its port: the next call through the same bridge within 15 s
#
# Every service listens on 127.0.0.1 and is stopped by its PID. Exit status non-zero if any part
# fails or cannot run.
#
# Usage: tests/interop/run_bridge_interop.sh [--keep-logs DIR]
set -uo pipefail

MCP_VERSION="2.3.0"            # the stdio and HTTP stages' pin
UVICORN_VERSION="0.55.0"       # what mcp 2.3.0 resolves to; pinned here for the SDK's server
JSONSCHEMA_VERSION="4.26.0"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo" || exit 1

die() { echo "run_bridge_interop.sh: $*" >&2; echo "FAIL bridge.environment: $*"; echo "0 passed, 1 failed"; exit 1; }
# shellcheck source=find_python.sh
. "$here/find_python.sh"
# shellcheck source=npm_clients.sh
. "$here/npm_clients.sh"
# shellcheck source=http_fixture.sh
. "$here/http_fixture.sh"

keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --keep-logs) [ $# -ge 2 ] || die "--keep-logs needs a directory"; keep="$2"; shift 2 ;;
    *) die "unknown argument $1 (usage: run_bridge_interop.sh [--keep-logs DIR])" ;;
  esac
done

work="$(mktemp -d "${TMPDIR:-/tmp}/minimcp-bridge-interop.XXXXXX")" || die "mktemp failed"
sdk_pid=""
cleanup() {
  stop_http_server
  if [ -n "$sdk_pid" ]; then kill "$sdk_pid" 2>/dev/null; wait "$sdk_pid" 2>/dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT
logs="${keep:-$work/wire}"
mkdir -p "$logs" || die "cannot create $logs"
logs="$(cd "$logs" && pwd)"

PY="$(find_python)" || die "no Python >= 3.10 (the SDK $MCP_VERSION needs one)"
command -v python3 >/dev/null 2>&1 || die "python3 (to run the bridge and minimcp's server) not found on PATH"
"$PY" -m venv "$work/venv" || die "cannot create a venv with $PY"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check "mcp==$MCP_VERSION" \
  "uvicorn==$UVICORN_VERSION" "jsonschema==$JSONSCHEMA_VERSION" \
  || die "pip install mcp==$MCP_VERSION uvicorn==$UVICORN_VERSION jsonschema==$JSONSCHEMA_VERSION failed"
"$work/venv/bin/python" -c "import importlib.metadata as m; assert m.version('mcp') == '$MCP_VERSION' and m.version('uvicorn') == '$UVICORN_VERSION'" \
  || die "the installed mcp/uvicorn are not $MCP_VERSION/$UVICORN_VERSION"
install_node_clients "${MINIMCP_NODE_CLIENTS_DIR:-$work/npm}"
vpy="$work/venv/bin/python"
bridge=(python3 minimcp.py bridge -q)        # how the clients start the bridge (-q: failures only on stderr)

verdicts=()
failed=0
part() {  # NAME CMD...: run one part, keep its summary line
  local name="$1" rc summary
  shift
  printf '\n==== bridge: %s\n' "$name"
  "$@" 2>&1 | tee "$work/$name.out"
  rc=${PIPESTATUS[0]}
  summary="$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$work/$name.out" | tail -n 1)"
  if [ "$rc" = 0 ]; then verdicts+=("ok    $name: ${summary:-done}"); else verdicts+=("FAIL  $name: ${summary:-exit status $rc}"); failed=$((failed + 1)); fi
}

# -- minimcp's own HTTP server -----------------------------------------------------------------
start_http_server "$work" "$work/minimcp-server-wire"
part bridge-minimcp "$vpy" "$here/python_sdk_client.py" --era both --keep-logs "$logs/bridge_minimcp" -- \
  "${bridge[@]}" "$HTTP_URL"
part bridge-minimcp-translated "$vpy" "$here/python_sdk_client.py" --era legacy --keep-logs "$logs/bridge_translated" -- \
  "${bridge[@]}" --protocol 2026-07-28 "$HTTP_URL"
part bridge-minimcp-ts env MINIMCP_NODE_MODULES="$NODE_CLIENTS_NM" node "$here/ts_sdk_client.mjs" \
  --logs "$logs/bridge_ts" -- "${bridge[@]}" "$HTTP_URL"
stop_http_server
schema() {
  "$vpy" "$here/schema_check.py" "$logs/bridge_minimcp" "$logs/bridge_translated" "$logs/bridge_ts" \
    && "$vpy" "$here/schema_check.py" --strict "$logs/bridge_minimcp" "$logs/bridge_translated" "$logs/bridge_ts"
}
part bridge-schema schema

# -- the official SDK's own Streamable HTTP server ----------------------------------------------
sdk_server() {
  rm -f "$work/sdk.url"
  "$vpy" "$here/sdk_everything_http.py" "$work/sdk.url" > "$work/sdk-server.out" 2>&1 &
  sdk_pid=$!
  for _ in $(seq 1 300); do
    [ -s "$work/sdk.url" ] && return 0
    kill -0 "$sdk_pid" 2>/dev/null || { tail -c 800 "$work/sdk-server.out"; return 1; }
    sleep 0.05
  done
  return 1
}
sdk_checks() {  # through the bridge; what fails is run again straight against the server, to say whose it is
  local url rc failing
  url="$(cat "$work/sdk.url")"
  echo "# the SDK's server: $url (pid $sdk_pid)"
  "$vpy" "$here/python_sdk_client.py" --era both --keep-logs "$logs/bridge_sdk" -- "${bridge[@]}" "$url" \
    | tee "$work/sdk-checks.out"
  rc=${PIPESTATUS[0]}
  failing="$(sed -n 's/^FAIL \([^:]*\):.*/\1/p' "$work/sdk-checks.out")"
  [ -n "$failing" ] || return "$rc"
  echo "# run again without the bridge (the SDK's own HTTP client): $(echo $failing)"
  # shellcheck disable=SC2086
  "$vpy" "$here/bridge_sdk_direct.py" --url "$url" $failing \
    && echo "# each failure above is the server's own (it fails the same way without the bridge): mend the fixture"
  return 1
}
if sdk_server; then
  part bridge-sdk-server sdk_checks
else
  verdicts+=("FAIL  bridge-sdk-server: the SDK's server did not start"); failed=$((failed + 1))
fi
kill "$sdk_pid" 2>/dev/null; wait "$sdk_pid" 2>/dev/null; sdk_pid=""

# -- a restarted upstream -------------------------------------------------------------------------
part bridge-restart "$vpy" "$here/bridge_restart.py" --upstream both

printf '\n==== bridge interop summary (wire logs %s)\n' "${keep:-discarded}"
printf '%s\n' "${verdicts[@]}"
[ "$failed" = 0 ] || { echo "run_bridge_interop.sh: BRIDGE INTEROP FAILED: $failed part(s)" >&2; exit 1; }
echo "all bridge interop parts passed"
