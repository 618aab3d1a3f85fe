#!/usr/bin/env bash
# Interop check against the official MCP Python SDK client (PyPI `mcp`, pinned).
#
# Creates a throwaway venv with a Python >= 3.10 (the SDK needs it; the server
# itself is stdlib-only and runs on plain `python3`), installs the pinned SDK and
# runs tests/interop/python_sdk_client.py against `python3 examples/everything.py`.
#
# Usage: tests/interop/run_python_sdk.sh [--era legacy|modern|both] [-v] [--keep-logs DIR] [-- SERVER_CMD...]
#
# Afterwards schema_check.py validates every message the server wrote against the official
# schema of the negotiated revision. With MINIMCP_INTEROP_LOGS set (run_all.sh), the wire logs go
# to $MINIMCP_INTEROP_LOGS/python_sdk and the schema check is left to the caller.
set -euo pipefail

MCP_VERSION="2.3.0"
JSONSCHEMA_VERSION="4.26.0"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo"

die() { echo "run_python_sdk.sh: $*" >&2; exit 1; }

# shellcheck source=find_python.sh
. "$here/find_python.sh"

PY="$(find_python)" || die "no Python >= 3.10 found (looked in \$(pyenv root)/versions/3.1[0-3].* and on PATH); the MCP Python SDK $MCP_VERSION needs one"
echo "# SDK client python: $PY ($("$PY" -c 'import sys; print(sys.version.split()[0])'))"

command -v python3 >/dev/null 2>&1 || die "python3 (to run the server) not found on PATH"

workdir="$(mktemp -d "${TMPDIR:-/tmp}/minimcp-sdk-interop.XXXXXX")"
trap 'rm -rf "$workdir"' EXIT

opts=()
server=()
logs=""
while [ $# -gt 0 ]; do
  case "$1" in
    --) server=("$@"); break ;;
    --keep-logs) [ $# -ge 2 ] || die "--keep-logs needs a directory"; logs="$2"; shift 2 ;;
    *) opts+=("$1"); shift ;;
  esac
done
if [ ${#server[@]} -eq 0 ]; then
  [ -f examples/everything.py ] || die "examples/everything.py not found in $repo"
  server=(-- python3 examples/everything.py)
fi
[ -n "$logs" ] || { [ -n "${MINIMCP_INTEROP_LOGS:-}" ] && logs="$MINIMCP_INTEROP_LOGS/python_sdk"; } || logs="$workdir/wire"
args=("${opts[@]+"${opts[@]}"}" --keep-logs "$logs" "${server[@]}")

"$PY" -m venv "$workdir/venv" || die "could not create a venv with $PY"
"$workdir/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  "mcp==$MCP_VERSION" "jsonschema==$JSONSCHEMA_VERSION" \
  || die "pip install mcp==$MCP_VERSION jsonschema==$JSONSCHEMA_VERSION failed"

"$workdir/venv/bin/python" -c "import importlib.metadata as m; v = m.version('mcp'); assert v == '$MCP_VERSION', v" \
  || die "installed mcp is not $MCP_VERSION"

rc=0
"$workdir/venv/bin/python" "$here/python_sdk_client.py" "${args[@]}" || rc=$?
if [ -z "${MINIMCP_INTEROP_LOGS:-}" ]; then
  "$workdir/venv/bin/python" "$here/schema_check.py" "$logs" || rc=1
fi
exit "$rc"
