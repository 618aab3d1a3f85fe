#!/usr/bin/env bash
# Interop check over Streamable HTTP against the official MCP TypeScript SDK client (npm
# @modelcontextprotocol/sdk, pinned by tests/interop/ts/package-lock.json, the same install as
# run_ts_sdk.sh), its StreamableHTTPClientTransport. The 1.x SDK speaks the handshake era only.
#
# Serves examples/everything.py with minimcp's own HTTP transport (`app.run(transport="http")`,
# through tests/interop/http_server.py, which records the wire) on a free loopback port, runs
# tests/interop/ts_sdk_http_client.mjs against it, and stops the server by PID.
#
# Usage: tests/interop/run_http_ts_sdk.sh [-v] [--keep-logs DIR]
#
# Environment: MINIMCP_NODE_CLIENTS_DIR  reuse/keep the npm install there (run_all.sh sets it)
#              MINIMCP_INTEROP_LOGS      write the wire logs to $MINIMCP_INTEROP_LOGS/http_ts_sdk and
#                                        leave the schema check to the caller
# Without MINIMCP_INTEROP_LOGS, schema_check.py runs here afterwards (as written, then --strict),
# with jsonschema from a throwaway venv.
set -euo pipefail

JSONSCHEMA_VERSION="4.26.0"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo"

die() { echo "run_http_ts_sdk.sh: $*" >&2; echo "FAIL http-ts-sdk.environment: $*"; echo "0 passed, 1 failed"; exit 1; }
# shellcheck source=npm_clients.sh
. "$here/npm_clients.sh"
# shellcheck source=http_fixture.sh
. "$here/http_fixture.sh"

verbose=()
logs=""
while [ $# -gt 0 ]; do
  case "$1" in
    -v|--verbose) verbose=(-v); shift ;;
    --keep-logs) [ $# -ge 2 ] || die "--keep-logs needs a directory"; logs="$2"; shift 2 ;;
    *) die "unknown argument $1 (usage: run_http_ts_sdk.sh [-v] [--keep-logs DIR])" ;;
  esac
done
command -v python3 >/dev/null 2>&1 || die "python3 (to run the server) not found on PATH"
[ -f examples/everything.py ] || die "examples/everything.py not found in $repo"

workdir="$(mktemp -d "${TMPDIR:-/tmp}/minimcp-http-ts-interop.XXXXXX")"
trap 'stop_http_server; rm -rf "$workdir"' EXIT
[ -n "$logs" ] || { [ -n "${MINIMCP_INTEROP_LOGS:-}" ] && logs="$MINIMCP_INTEROP_LOGS/http_ts_sdk"; } || logs="$workdir/wire"
mkdir -p "$logs" || die "cannot create $logs"
logs="$(cd "$logs" && pwd)"
install_node_clients "${MINIMCP_NODE_CLIENTS_DIR:-$workdir/npm}"

start_http_server "$workdir" "$logs"
rc=0
MINIMCP_HTTP_URL="$HTTP_URL" MINIMCP_NODE_MODULES="$NODE_CLIENTS_NM" \
  node "$here/ts_sdk_http_client.mjs" "${verbose[@]+"${verbose[@]}"}" --logs "$logs" || rc=$?
stop_http_server

if [ -z "${MINIMCP_INTEROP_LOGS:-}" ]; then
  py=""
  for cand in $(ls -d "$(pyenv root 2>/dev/null)"/versions/3.1[0-3].*/bin/python 2>/dev/null | sort -V -r) python3; do
    if "$cand" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then py="$cand"; break; fi
  done
  [ -n "$py" ] || die "no Python >= 3.10 for jsonschema $JSONSCHEMA_VERSION (the schema check)"
  "$py" -m venv "$workdir/schema-venv" || die "cannot create a venv with $py"
  "$workdir/schema-venv/bin/python" -m pip install --quiet --disable-pip-version-check "jsonschema==$JSONSCHEMA_VERSION" \
    || die "pip install jsonschema==$JSONSCHEMA_VERSION failed"
  "$workdir/schema-venv/bin/python" "$here/schema_check.py" "$logs" || rc=1
  "$workdir/schema-venv/bin/python" "$here/schema_check.py" --strict "$logs" || rc=1
fi
exit "$rc"
