#!/usr/bin/env bash
# `minimcp.py selftest` against servers nobody here wrote (issue 18), each pinned and
# installed into a throwaway place:
#
#   - @modelcontextprotocol/server-everything (npm), with its long-running tool as the slow tool
#   - mcp-server-time and mcp-server-git (PyPI), in a venv of a Python >= 3.10
#
# Every selftest must end "N passed, 0 failed, K skipped", with no traceback of its own. Anything that cannot be installed or run
# fails the script: it never passes by skipping.
#
# Usage: bash tests/interop/run_selftest_thirdparty.sh
set -euo pipefail

EVERYTHING_VERSION="2026.8.31"
TIME_VERSION="2026.10.19"
GIT_VERSION="2026.10.19"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
die() { echo "run_selftest_thirdparty.sh: $*" >&2; exit 1; }

# shellcheck source=find_python.sh
. "$here/find_python.sh"    # find_python: a Python >= 3.10

command -v node >/dev/null && command -v npm >/dev/null || die "node and npm are needed for the everything server"
PY="$(find_python)" || die "no Python >= 3.10 for mcp-server-time and mcp-server-git"
command -v git >/dev/null || die "git is needed for mcp-server-git's repository"

work="$(mktemp -d "${TMPDIR:-/tmp}/minimcp-thirdparty.XXXXXX")"
trap 'rm -rf "$work"' EXIT

echo "# installing @modelcontextprotocol/server-everything@$EVERYTHING_VERSION into $work/npm"
npm install --prefix "$work/npm" --no-audit --no-fund --loglevel=error \
    "@modelcontextprotocol/server-everything@$EVERYTHING_VERSION" >"$work/npm.log" 2>&1 \
    || { tail -20 "$work/npm.log"; die "npm install failed"; }
everything="$work/npm/node_modules/.bin/mcp-server-everything"
[ -x "$everything" ] || die "the everything server's binary is missing after install"

echo "# installing mcp-server-time==$TIME_VERSION mcp-server-git==$GIT_VERSION with $PY"
"$PY" -m venv "$work/venv" || die "cannot create a venv with $PY"
"$work/venv/bin/python" -m pip install -q "mcp-server-time==$TIME_VERSION" "mcp-server-git==$GIT_VERSION" \
    >"$work/pip.log" 2>&1 || { tail -20 "$work/pip.log"; die "pip install failed"; }

git init -q "$work/repo"
git -C "$work/repo" -c user.name=ci -c user.email=ci@localhost commit -q --allow-empty -m "selftest fixture"

failed=()
check() {  # $1: label; the rest: selftest arguments
  local label="$1"; shift
  echo
  echo "== selftest: $label"
  local out="$work/out.txt"
  if ! python3 "$repo/minimcp.py" selftest "$@" >"$out" 2>"$work/err.txt"; then
    cat "$out"; tail -20 "$work/err.txt"; failed+=("$label"); return
  fi
  cat "$out"
  # "N passed, 0 failed, K skipped[, W warnings]": a WARN (a traceback the server wrote, or a
  # cancelled call that ran on: the everything server's long operation keeps reporting progress)
  # is shown, and fails nothing.
  tail -n 1 "$out" | grep -Eq '^[0-9]+ passed, 0 failed, [0-9]+ skipped(, [0-9]+ warnings?)?$' || failed+=("$label")
  ! grep -q 'Traceback' "$work/err.txt" || { cat "$work/err.txt"; failed+=("$label: a traceback of selftest's own"); }
}

check "server-everything $EVERYTHING_VERSION" --slow-tool trigger-long-running-operation -- "$everything"
check "mcp-server-time $TIME_VERSION" -- "$work/venv/bin/mcp-server-time"
check "mcp-server-git $GIT_VERSION" -- "$work/venv/bin/mcp-server-git" --repository "$work/repo"
check "mcp-server-time $TIME_VERSION, 2026-07-28" --protocol 2026-07-28 -- "$work/venv/bin/mcp-server-time"

echo
if [ ${#failed[@]} -ne 0 ]; then
  die "selftest failed against: ${failed[*]}"
fi
echo "selftest passed against every third-party server"
