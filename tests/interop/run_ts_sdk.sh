#!/usr/bin/env bash
# Interop check against the official MCP TypeScript SDK client (npm @modelcontextprotocol/sdk, pinned).
#
# Installs the pinned SDK (tests/interop/ts/package-lock.json) with `npm ci` into a throwaway
# directory under ${TMPDIR:-/tmp} and runs tests/interop/ts_sdk_client.mjs against
# `python3 examples/everything.py` (through the recording tee in python_sdk_client.py).
#
# Usage: tests/interop/run_ts_sdk.sh [-v] [--keep-logs DIR] [-- SERVER_CMD...]
#
# Environment: MINIMCP_NODE_CLIENTS_DIR  reuse/keep the npm install there (run_all.sh sets it)
#              MINIMCP_INTEROP_LOGS      write the wire logs to $MINIMCP_INTEROP_LOGS/ts_sdk
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo"

die() { echo "run_ts_sdk.sh: $*" >&2; echo "FAIL ts-sdk.environment: $*"; echo "0 passed, 1 failed"; exit 1; }
# shellcheck source=npm_clients.sh
. "$here/npm_clients.sh"

verbose=()
logs=""
server=()
while [ $# -gt 0 ]; do
  case "$1" in
    -v|--verbose) verbose=(-v); shift ;;
    --keep-logs) [ $# -ge 2 ] || die "--keep-logs needs a directory"; logs="$2"; shift 2 ;;
    --) shift; server=("$@"); break ;;
    *) die "unknown argument $1 (usage: run_ts_sdk.sh [-v] [--keep-logs DIR] [-- SERVER_CMD...])" ;;
  esac
done
[ -n "$logs" ] || { [ -z "${MINIMCP_INTEROP_LOGS:-}" ] || logs="$MINIMCP_INTEROP_LOGS/ts_sdk"; }
if [ ${#server[@]} -eq 0 ]; then
  [ -f examples/everything.py ] || die "examples/everything.py not found in $repo"
  server=(python3 examples/everything.py)
fi
command -v python3 >/dev/null 2>&1 || die "python3 (to run the server and the wire tee) not found on PATH"

workdir="$(mktemp -d "${TMPDIR:-/tmp}/minimcp-ts-interop.XXXXXX")"
trap 'rm -rf "$workdir"' EXIT
install_node_clients "${MINIMCP_NODE_CLIENTS_DIR:-$workdir/npm}"

args=("${verbose[@]+"${verbose[@]}"}")
[ -z "$logs" ] || args+=(--logs "$logs")
MINIMCP_NODE_MODULES="$NODE_CLIENTS_NM" node "$here/ts_sdk_client.mjs" "${args[@]+"${args[@]}"}" -- "${server[@]}"
