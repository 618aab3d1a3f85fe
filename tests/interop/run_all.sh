#!/usr/bin/env bash
# Every real-client interop stage against examples/everything.py, then the schema check:
#
#   1. python-sdk  run_python_sdk.sh   official MCP Python SDK client (PyPI mcp, pinned)
#   2. ts-sdk      run_ts_sdk.sh       official MCP TypeScript SDK client (npm @modelcontextprotocol/sdk, pinned)
#   3. inspector   run_inspector.sh    MCP Inspector CLI (npm @modelcontextprotocol/inspector-cli, pinned)
#   4. http-python-sdk, http-ts-sdk    the same two SDK clients over Streamable HTTP (both eras / handshake)
#   5. schema      schema_check.py     every server message of 1-4 against <spec>/<negotiated rev>/schema.json
#                                      (as written, then --strict: no undeclared members)
#
# All stages run even if an earlier one fails; the exit status is non-zero (with a message on
# stderr) if any stage fails or cannot run (no Node/npm, no Python >= 3.10, install failure, ...).
#
# Usage: tests/interop/run_all.sh [--keep-logs DIR]
#   --keep-logs DIR   keep the wire logs in DIR/{python_sdk,ts_sdk,inspector} (default: a temp dir)
# The spec directory is $MINIMCP_SPEC_DIR or <repo>/../shared/spec (see schema_check.py).
set -uo pipefail

JSONSCHEMA_VERSION="4.26.0"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo" || exit 1

die() { printf '\nrun_all.sh: INTEROP FAILED: %s\n' "$*" >&2; exit 1; }

keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --keep-logs) [ $# -ge 2 ] || die "--keep-logs needs a directory"; keep="$2"; shift 2 ;;
    *) die "unknown argument $1 (usage: run_all.sh [--keep-logs DIR])" ;;
  esac
done

work="$(mktemp -d "${TMPDIR:-/tmp}/minimcp-interop-all.XXXXXX")" || die "mktemp failed"
trap 'rm -rf "$work"' EXIT
logs="${keep:-$work/wire}"
if [ -n "$keep" ]; then
  mkdir -p "$keep" || die "cannot create $keep"
  logs="$(cd "$keep" && pwd)"
  rm -rf "$logs/python_sdk" "$logs/ts_sdk" "$logs/inspector" "$logs/http_python_sdk" "$logs/http_ts_sdk"
fi
export MINIMCP_INTEROP_LOGS="$logs"          # each stage writes its wire logs to $logs/<stage>
export MINIMCP_NODE_CLIENTS_DIR="$work/npm"  # one npm install shared by the two Node stages

names=()
verdicts=()
failures=()
total_start=$SECONDS

run_stage() {  # NAME CMD...
  local name="$1" start rc summary
  shift
  printf '\n==== interop stage: %s\n' "$name"
  start=$SECONDS
  "$@" 2>&1 | tee "$work/$name.out"
  rc=${PIPESTATUS[0]}
  summary="$(awk '/^[0-9]+ passed, [0-9]+ failed$/ { p += $1; f += $3; n++ } END { if (n) printf "%d passed, %d failed", p, f }' "$work/$name.out")"
  [ -n "$summary" ] || summary="no result line"
  names+=("$name")
  if [ "$rc" = 0 ]; then
    verdicts+=("ok    $name: $summary, $((SECONDS - start)) s")
  else
    verdicts+=("FAIL  $name: $summary, exit status $rc, $((SECONDS - start)) s")
    failures+=("$name")
  fi
}

# shellcheck source=find_python.sh
. "$here/find_python.sh"    # find_python: a Python >= 3.10

schema_stage() {
  local py missing=() d
  py="$(find_python)" || { echo "FAIL schema.environment: no Python >= 3.10 for jsonschema $JSONSCHEMA_VERSION"; return 1; }
  "$py" -m venv "$work/schema-venv" || { echo "FAIL schema.environment: cannot create a venv with $py"; return 1; }
  "$work/schema-venv/bin/python" -m pip install --quiet --disable-pip-version-check "jsonschema==$JSONSCHEMA_VERSION" \
    || { echo "FAIL schema.environment: pip install jsonschema==$JSONSCHEMA_VERSION failed"; return 1; }
  for d in python_sdk ts_sdk inspector http_python_sdk http_ts_sdk; do
    if ! ls "$logs/$d"/*.jsonl >/dev/null 2>&1; then missing+=("$d"); fi
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "FAIL schema.logs: no wire logs from stage(s) ${missing[*]} in $logs (did they run?)"
  fi
  local rc=0
  # exactly per schema.json, then --strict (no member the negotiated revision does not declare)
  "$work/schema-venv/bin/python" "$here/schema_check.py" "$logs/python_sdk" "$logs/ts_sdk" "$logs/inspector" "$logs/http_python_sdk" "$logs/http_ts_sdk" || rc=1
  "$work/schema-venv/bin/python" "$here/schema_check.py" --strict "$logs/python_sdk" "$logs/ts_sdk" "$logs/inspector" "$logs/http_python_sdk" "$logs/http_ts_sdk" || rc=1
  [ "$rc" = 0 ] && [ ${#missing[@]} -eq 0 ]
}

run_stage python-sdk bash "$here/run_python_sdk.sh"
run_stage ts-sdk bash "$here/run_ts_sdk.sh"
run_stage inspector bash "$here/run_inspector.sh"
run_stage http-python-sdk bash "$here/run_http_python_sdk.sh"
run_stage http-ts-sdk bash "$here/run_http_ts_sdk.sh"
run_stage schema schema_stage

printf '\n==== interop summary (%d s in all; wire logs %s)\n' "$((SECONDS - total_start))" "${keep:-discarded}"
printf '%s\n' "${verdicts[@]}"
[ ${#failures[@]} -eq 0 ] || die "stage(s) failed: ${failures[*]}"
echo "all interop stages passed"
