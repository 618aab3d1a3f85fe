#!/usr/bin/env bash
# Differential check: servers written for the official SDK, on the SDK and on minimcp.
#
# Creates throwaway venvs with a Python >= 3.10 (the SDKs need it) and installs, pinned:
#   mcp2     mcp 2.3.0          (the reference: servers importing mcp.server.mcpserver)
#   mcp1     mcp 1.30.0         (the last 1.x: servers importing mcp.server.fastmcp)
#   fastmcp  fastmcp 4.2.3      (servers importing fastmcp)
#   mini     pydantic only      (minimcp itself is stdlib-only; the corpus servers use pydantic)
# and, for the table of the SDKs' public names in minimcp.py (tests/interop/sdk_surface.py check),
# the other pins that table covers: mcp 1.2.1 and 1.9.4, fastmcp 2.3.5, 2.14.7 and 3.4.11 (the
# oldest with the pydantic of their day: today's cannot import them).
# then runs tests/interop/sdk_diff.py, which drives every server of tests/sdk_corpus/ with the
# official Python SDK client over stdio, under its real SDK and twice under minimcp (imports
# changed; unchanged through `python3 minimcp.py serve`), and compares the answers field by
# field. Only the differences in the README's table of deliberate differences are allowed.
#
# Usage: tests/interop/run_sdk_diff.sh [--only NAME]... [-v] [--keep DIR]
#        SDK_SURFACE=write tests/interop/run_sdk_diff.sh    (rewrite minimcp's SDK names table)
set -euo pipefail

MCP2_VERSION="2.3.0"
MCP1_VERSION="1.30.0"
FASTMCP_VERSION="4.2.3"
PYDANTIC_VERSION="2.14.4"
# Only for the names table (sdk_surface.py): "venv=requirement [requirement...]".
SURFACE_PINS=(
  "s_mcp1_2=mcp==1.2.1 pydantic==2.10.6"
  "s_mcp1_9=mcp==1.9.4 pydantic==2.10.6"
  "s_fm2_3=fastmcp==2.3.5 pydantic==2.11.7"
  "s_fm2_14=fastmcp==2.14.7"
  "s_fm3_4=fastmcp==3.4.11"
)
MAX_INSTALLS=4      # pip runs at once (the CI machine is shared)

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo"

die() { echo "run_sdk_diff.sh: $*" >&2; exit 1; }

# shellcheck source=find_python.sh
. "$here/find_python.sh"

PY="$(find_python)" || die "no Python >= 3.10 found (looked in \$(pyenv root)/versions/3.1[0-3].* and on PATH); the SDKs need one"
echo "# python: $PY ($("$PY" -c 'import sys; print(sys.version.split()[0])'))"

[ -f tests/sdk_corpus/cases.json ] || die "tests/sdk_corpus/cases.json not found in $repo"

workdir="$(mktemp -d "${TMPDIR:-/tmp}/minimcp-sdk-diff.XXXXXX")"
trap 'rm -rf "$workdir"' EXIT

install() {  # VENV PACKAGE...
  local venv="$workdir/$1"
  shift
  "$PY" -m venv "$venv" || die "could not create a venv with $PY"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$@" \
    || die "pip install $* failed"
}

slot() {  # wait until fewer than MAX_INSTALLS installs run
  while [ "$(jobs -rp | wc -l)" -ge "$MAX_INSTALLS" ]; do wait -n || die "a venv could not be installed (see above)"; done
}
install mcp2 "mcp==$MCP2_VERSION" &
install mcp1 "mcp==$MCP1_VERSION" &
install fastmcp "fastmcp==$FASTMCP_VERSION" &
install mini "pydantic==$PYDANTIC_VERSION" &
for pin in "${SURFACE_PINS[@]}"; do
  slot
  # shellcheck disable=SC2086
  install "${pin%%=*}" ${pin#*=} &
done
for job in $(jobs -p); do wait "$job" || die "a venv could not be installed (see above)"; done

"$workdir/mcp2/bin/python" -c "import importlib.metadata as m; assert m.version('mcp') == '$MCP2_VERSION'" \
  || die "the mcp2 venv does not have mcp $MCP2_VERSION"
"$workdir/mcp1/bin/python" -c "import importlib.metadata as m; assert m.version('mcp') == '$MCP1_VERSION'" \
  || die "the mcp1 venv does not have mcp $MCP1_VERSION"
"$workdir/fastmcp/bin/python" -c "import importlib.metadata as m; assert m.version('fastmcp') == '$FASTMCP_VERSION'" \
  || die "the fastmcp venv does not have fastmcp $FASTMCP_VERSION"
# minimcp must run these servers with no SDK installed: serve's aliases stand in for it.
"$workdir/mini/bin/python" -c "
import importlib.util, sys
found = [n for n in ('mcp', 'fastmcp') if importlib.util.find_spec(n)]
sys.exit('the mini venv has %s installed' % found if found else 0)" || die "the mini venv must not have an SDK"

# Every public module and name of those pins is in minimcp's table, and nothing else is.
surface=(--python "$workdir/s_mcp1_2/bin/python" --python "$workdir/s_mcp1_9/bin/python"
         --python "$workdir/mcp1/bin/python" --python "$workdir/mcp2/bin/python"
         --python "$workdir/s_fm2_3/bin/python" --python "$workdir/s_fm2_14/bin/python"
         --python "$workdir/s_fm3_4/bin/python" --python "$workdir/fastmcp/bin/python")
# SDK_SURFACE=write rewrites the table instead (after a pin changes), then goes on.
timeout 600 "$PY" "$here/sdk_surface.py" "${SDK_SURFACE:-check}" "${surface[@]}" 2>"$workdir/surface.log" \
  || { grep -v '^sdk_surface: not imported' "$workdir/surface.log" >&2; die "minimcp's SDK names table differs from the pinned SDKs (see above)"; }

"$workdir/mcp2/bin/python" "$here/sdk_diff.py" --corpus tests/sdk_corpus --readme README.md --repo "$repo" \
  --sdk "mcp2=$workdir/mcp2/bin/python" --sdk "mcp1=$workdir/mcp1/bin/python" \
  --sdk "fastmcp=$workdir/fastmcp/bin/python" --mini-python "$workdir/mini/bin/python" "$@"
