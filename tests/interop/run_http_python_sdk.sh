#!/usr/bin/env bash
# Interop check over Streamable HTTP against the official MCP Python SDK client (PyPI `mcp`, pinned,
# the same version as run_python_sdk.sh), its `streamable_http_client`, in both eras.
#
# Serves examples/everything.py with minimcp's own HTTP transport (`app.run(transport="http")`,
# through tests/interop/http_server.py, which records the wire) on a free loopback port, runs
# tests/interop/python_sdk_http_client.py against it, and stops the server by PID.
#
# Usage: tests/interop/run_http_python_sdk.sh [--era legacy|modern|both] [-v] [--keep-logs DIR]
#
# Afterwards schema_check.py validates every message the server sent against the official schema
# of the negotiated revision (as written, then --strict). With MINIMCP_INTEROP_LOGS set
# (run_all.sh), the wire logs go to $MINIMCP_INTEROP_LOGS/http_python_sdk and the schema check is
# left to the caller.
set -euo pipefail

MCP_VERSION="2.3.0"            # keep equal to run_python_sdk.sh
JSONSCHEMA_VERSION="4.26.0"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo"

die() { echo "run_http_python_sdk.sh: $*" >&2; echo "FAIL http-python-sdk.environment: $*"; echo "0 passed, 1 failed"; exit 1; }
# shellcheck source=http_fixture.sh
. "$here/http_fixture.sh"

# shellcheck source=find_python.sh
. "$here/find_python.sh"

opts=()
logs=""
while [ $# -gt 0 ]; do
  case "$1" in
    --keep-logs) [ $# -ge 2 ] || die "--keep-logs needs a directory"; logs="$2"; shift 2 ;;
    --era) [ $# -ge 2 ] || die "--era needs legacy, modern or both"; opts+=(--era "$2"); shift 2 ;;
    -v|--verbose) opts+=(-v); shift ;;
    *) die "unknown argument $1 (usage: run_http_python_sdk.sh [--era legacy|modern|both] [-v] [--keep-logs DIR])" ;;
  esac
done

PY="$(find_python)" || die "no Python >= 3.10 found (looked in \$(pyenv root)/versions/3.1[0-3].* and on PATH); the MCP Python SDK $MCP_VERSION needs one"
echo "# SDK client python: $PY ($("$PY" -c 'import sys; print(sys.version.split()[0])'))"
command -v python3 >/dev/null 2>&1 || die "python3 (to run the server) not found on PATH"
[ -f examples/everything.py ] || die "examples/everything.py not found in $repo"

workdir="$(mktemp -d "${TMPDIR:-/tmp}/minimcp-http-sdk-interop.XXXXXX")"
trap 'stop_http_server; rm -rf "$workdir"' EXIT
[ -n "$logs" ] || { [ -n "${MINIMCP_INTEROP_LOGS:-}" ] && logs="$MINIMCP_INTEROP_LOGS/http_python_sdk"; } || logs="$workdir/wire"
mkdir -p "$logs" || die "cannot create $logs"
logs="$(cd "$logs" && pwd)"

"$PY" -m venv "$workdir/venv" || die "could not create a venv with $PY"
"$workdir/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  "mcp==$MCP_VERSION" "jsonschema==$JSONSCHEMA_VERSION" \
  || die "pip install mcp==$MCP_VERSION jsonschema==$JSONSCHEMA_VERSION failed"
"$workdir/venv/bin/python" -c "import importlib.metadata as m; v = m.version('mcp'); assert v == '$MCP_VERSION', v" \
  || die "installed mcp is not $MCP_VERSION"

start_http_server "$workdir" "$logs"
rc=0
"$workdir/venv/bin/python" "$here/python_sdk_http_client.py" --url "$HTTP_URL" --logs "$logs" \
  "${opts[@]+"${opts[@]}"}" || rc=$?
stop_http_server
if [ -z "${MINIMCP_INTEROP_LOGS:-}" ]; then
  "$workdir/venv/bin/python" "$here/schema_check.py" "$logs" || rc=1
  "$workdir/venv/bin/python" "$here/schema_check.py" --strict "$logs" || rc=1
fi
exit "$rc"
