#!/usr/bin/env bash
# Generative differential (issue 38): seeded servers in six styles, each under its real SDK and
# unchanged under `python3 minimcp.py serve FILE` with no SDK installed, compared field by field.
#
# Creates throwaway venvs with a Python >= 3.10 (the SDKs need it) and installs, pinned, each
# with the same pydantic:
#   mcp1      mcp 1.30.0      (FastMCP from mcp.server.fastmcp; the low-level Server, 1.x form)
#   mcp2      mcp 2.3.0       (MCPServer; the low-level Server, 2.x form; also the official client)
#   fastmcp2  fastmcp 2.14.7  (servers written for fastmcp 2.x; either fastmcp may match)
#   fastmcp4  fastmcp 4.2.3
#   mini      pydantic and anyio only: what the generated servers import besides their SDK
# then runs tests/interop/sdk_generate.py over a fixed range of seeds (SEEDS, default 0-209: 210
# servers, 35 per style), JOBS servers at a time (default 4). Every difference fails the stage
# unless the README's table of deliberate differences allows it under serve; each one prints
# with a reproduction, and the run ends with the classes of difference, counted per style.
#
# Usage: tests/interop/run_sdk_generate.sh [--seeds A-B] [-j N] [-v] [--report FILE] [--keep --work DIR]
#        (the options go to sdk_generate.py; --seeds overrides SEEDS)
#        VENVS=DIR tests/interop/run_sdk_generate.sh ...   (keep the venvs in DIR for the next run)
#        UNSEEN=/work/.mirror tests/interop/run_sdk_generate.sh
#        (the same venvs for tests/interop/unseen_servers.py: the servers of unseen_servers.txt, read
#        from the git snapshots under that folder, under their SDK and under serve)
set -euo pipefail

MCP1_VERSION="1.30.0"
MCP2_VERSION="2.3.0"
FASTMCP2_VERSION="2.14.7"
FASTMCP4_VERSION="4.2.3"
PYDANTIC_VERSION="2.14.4"
ANYIO_VERSION="4.16.0"
SEEDS="${SEEDS:-0-209}"
JOBS="${JOBS:-4}"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo"

die() { echo "run_sdk_generate.sh: $*" >&2; exit 1; }

# shellcheck source=find_python.sh
. "$here/find_python.sh"

PY="$(find_python)" || die "no Python >= 3.10 found (looked in \$(pyenv root)/versions/3.1[0-3].* and on PATH); the SDKs need one"
"$PY" -m pip --version >/dev/null 2>&1 || die "$PY has no pip to install the SDKs with"
echo "# python: $PY ($("$PY" -c 'import sys; print(sys.version.split()[0])'))"
started=$SECONDS

# VENVS=DIR keeps the venvs in DIR between runs (one folder per set of pins, reused when each
# venv still holds its pins); without it they live in a throwaway folder removed at exit.
pins="mcp$MCP1_VERSION-mcp$MCP2_VERSION-fastmcp$FASTMCP2_VERSION-fastmcp$FASTMCP4_VERSION-pydantic$PYDANTIC_VERSION-anyio$ANYIO_VERSION"
if [ -n "${VENVS:-}" ]; then
  mkdir -p "$VENVS"
  workdir="$(cd "$VENVS" && pwd)/$pins"
  mkdir -p "$workdir"
else
  workdir="$(mktemp -d "${TMPDIR:-/tmp}/minimcp-sdk-generate.XXXXXX")"
  trap 'rm -rf "$workdir"' EXIT
fi

install() {  # VENV PACKAGE...
  # One pip (the base interpreter's) installs into each venv, without compiling: the venvs need
  # no pip of their own, and the servers compile only the modules they import, once. A kept
  # venv whose installs completed (its .done marker) is reused as it is.
  local venv="$workdir/$1"
  shift
  [ -f "$venv.done" ] && return 0
  rm -rf "$venv"
  "$PY" -m venv --without-pip "$venv" || die "could not create a venv with $PY"
  "$PY" -m pip --python "$venv/bin/python" install --quiet --disable-pip-version-check --no-compile "$@" \
    >"$venv.log" 2>&1 || { cat "$venv.log" >&2; die "pip install $* failed"; }
  touch "$venv.done"
}

install mcp1 "mcp==$MCP1_VERSION" "pydantic==$PYDANTIC_VERSION" &
install mcp2 "mcp==$MCP2_VERSION" "pydantic==$PYDANTIC_VERSION" &
install fastmcp2 "fastmcp==$FASTMCP2_VERSION" "pydantic==$PYDANTIC_VERSION" &
install fastmcp4 "fastmcp==$FASTMCP4_VERSION" "pydantic==$PYDANTIC_VERSION" &
install mini "pydantic==$PYDANTIC_VERSION" "anyio==$ANYIO_VERSION" &
for job in $(jobs -p); do wait "$job" || die "a venv could not be installed (see above)"; done

check() {  # VENV DISTRIBUTION VERSION
  "$workdir/$1/bin/python" -c "import importlib.metadata as m; assert m.version('$2') == '$3'" \
    || die "the $1 venv does not have $2 $3"
}
check mcp1 mcp "$MCP1_VERSION"
check mcp2 mcp "$MCP2_VERSION"
check fastmcp2 fastmcp "$FASTMCP2_VERSION"
check fastmcp4 fastmcp "$FASTMCP4_VERSION"
# minimcp must run these servers with no SDK installed: serve's aliases stand in for it.
"$workdir/mini/bin/python" -c "
import importlib.util, sys
found = [n for n in ('mcp', 'fastmcp', 'mcp_types') if importlib.util.find_spec(n)]
sys.exit('the mini venv has %s installed' % found if found else 0)" || die "the mini venv must not have an SDK"
echo "# venvs installed in $((SECONDS - started))s"

sdks=(--sdk "mcp1=$workdir/mcp1/bin/python" --sdk "mcp2=$workdir/mcp2/bin/python"
      --sdk "fastmcp2=$workdir/fastmcp2/bin/python" --sdk "fastmcp4=$workdir/fastmcp4/bin/python"
      --mini-python "$workdir/mini/bin/python" --repo "$repo" --readme README.md)
status=0
if [ -n "${UNSEEN:-}" ]; then
  # The servers from GitHub nobody here has seen (unseen_servers.txt), from snapshots under $UNSEEN.
  "$workdir/mcp2/bin/python" "$here/unseen_servers.py" --mirror "$UNSEEN" --pip "$PY" -j "$JOBS" "${sdks[@]}" "$@" \
    || status=$?
else
  "$workdir/mcp2/bin/python" "$here/sdk_generate.py" --seeds "$SEEDS" -j "$JOBS" "${sdks[@]}" "$@" || status=$?
fi
echo "# the stage took $((SECONDS - started))s"
exit $status
