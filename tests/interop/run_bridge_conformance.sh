#!/usr/bin/env bash
# The official MCP conformance suite's client scenarios (npm @modelcontextprotocol/conformance,
# the pinned versions of conformance_suite.sh, as run_conformance.sh), each played through minimcp's bridge by
# bridge_conformance_client.py: the suite starts the scenario's server, and the "client" it
# judges is the bridge, driven over stdio by a host the driver plays.
#
# Which scenarios: every one tagged with a dated revision, the auth ones included (the bridge
# signs in by itself, with BROWSER set to oauth_browser.py, the person at the browser); of the
# extensions, only auth/client-credentials-basic (the OAuth client credentials the bridge
# implements). Left out: the other extensions (DPoP, JWT client assertions, enterprise-managed
# and workload identity need asymmetric signing the standard library lacks; the sep-2640 skills
# ones are a host's), and 0.1.16's scenarios tagged only "draft" (alpha.12 tags them 2026-07-28).
#
# Each scenario runs in the eras it is tagged with:
#   - a handshake-era tag (2025-06-18, 2025-11-25): a handshake-era host, the bridge in auto;
#   - 2025-03-26 (the auth back-compat scenarios): a handshake-era host at 2025-03-26;
#   - 2026-07-28: a 2026-07-28 host (the bridge passes it through), and a handshake-era host
#     with --protocol 2026-07-28 (the bridge translates: discover, the envelope, MRTR rounds).
# Any FAILURE or WARNING check, a run with no checks, or a driver that failed fails the stage.
#
# Usage: tests/interop/run_bridge_conformance.sh [--keep DIR]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo"

RUN_TIMEOUT=120                         # seconds per scenario run
driver="$here/bridge_conformance_client.py"
EXTENSIONS_RUN=" auth/client-credentials-basic "   # the extension scenarios the bridge implements

die() { echo "BRIDGE CONFORMANCE FAILED: $*" >&2; echo "FAIL bridge-conformance.environment: $*"; echo "0 passed, 1 failed"; exit 1; }

keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --keep) [ $# -ge 2 ] || die "--keep needs a directory"; keep="$2"; shift 2 ;;
    *) die "unknown argument $1 (usage: run_bridge_conformance.sh [--keep DIR])" ;;
  esac
done
command -v python3 >/dev/null 2>&1 || die "python3 is needed for the bridge and the driver"

work="$(mktemp -d "${TMPDIR:-/tmp}/minimcp-bridge-conformance.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# shellcheck source=conformance_suite.sh
. "$here/conformance_suite.sh"
install_conformance_suite "$work"
node="$NODE"
echo "# the bridge: python3 minimcp.py bridge URL, started by $(basename "$driver")"

results="$work/results"
run() {   # VERSION SCENARIO SPEC HOST [BRIDGE OPTION]: one scenario run, judged on its checks.json
  local version="$1" scenario="$2" spec="$3" host="$4" option="${5:-}" out label status
  label="$scenario [$spec, $host host${option:+, $option}] (suite $version)"
  out="$results/$version/$spec-$host${option:+-translated}/${scenario//\//_}"
  mkdir -p "$out"
  local args=(client --command "python3 $driver --host $host${option:+ --bridge-option=$option}" --scenario "$scenario" -o "$out")
  [ "$spec" = any ] || args+=(--spec-version "$spec")
  status=0
  timeout "$RUN_TIMEOUT" "$node" "${SUITE_JS[$version]}" "${args[@]}" > "$out.log" 2>&1 || status=$?
  python3 - "$out" "$label" "$status" <<'EOF' || failed=$((failed + 1))
import glob, json, sys
out, label, status = sys.argv[1], sys.argv[2], int(sys.argv[3])
found = glob.glob(out + "/**/checks.json", recursive=True)
if not found:
    print("FAIL %s: no checks.json (the suite exited %d; see its log)" % (label, status))
    sys.exit(1)
checks = json.load(open(found[0]))
bad = [c for c in checks if c["status"] in ("FAILURE", "WARNING")]
passed = sum(c["status"] == "SUCCESS" for c in checks)
stderr = "".join(open(path).read() for path in glob.glob(out + "/**/stderr.txt", recursive=True))
if "bridge_conformance_client:" in stderr:
    bad.append({"status": "DRIVER", "id": "driver", "errorMessage": stderr.strip().splitlines()[-1]})
if bad:
    print("FAIL %s: %s" % (label, "; ".join("%s %s: %s" % (c["status"], c["id"], c.get("errorMessage") or
                                                       c.get("description")) for c in bad)[:600]))
    sys.exit(1)
print("ok %s  (%d checks passed)" % (label, passed))
EOF
  runs=$((runs + 1))
}

runs=0
failed=0
for version in "${SUITE_VERSIONS[@]}"; do
  listing="$("$node" "${SUITE_JS[$version]}" list --client)" \
    || die "conformance@$version cannot list its client scenarios"
  count=0
  # Lines look like "  - tools_call [2025-06-18,2025-11-25,2026-07-28]" or "  - auth/dpop [extension]".
  while read -r scenario tags; do
    case "$tags" in
      *extension*) case "$EXTENSIONS_RUN" in *" $scenario "*) ;; *) continue ;; esac ;;
      *20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]*) ;;
      *) continue ;;                                  # "draft" alone: no dated revision yet
    esac
    count=$((count + 1))
    if [ "$version" = 0.1.16 ] || [ "$tags" = extension ]; then   # the handshake-era suite: one wire only
      run "$version" "$scenario" any handshake; continue
    fi
    case "$tags" in *2025-06-18*|*2025-11-25*) run "$version" "$scenario" 2025-11-25 handshake ;; esac
    case "$tags" in *2025-03-26*) run "$version" "$scenario" 2025-03-26 handshake ;; esac
    case "$tags" in *2026-07-28*)
      run "$version" "$scenario" 2026-07-28 2026-07-28
      run "$version" "$scenario" 2026-07-28 handshake --protocol=2026-07-28 ;;
    esac
  done < <(printf '%s\n' "$listing" | sed -n 's/^  - \([^ ]*\) \[\(.*\)\]$/\1 \2/p')
  [ "$count" -gt 0 ] || die "conformance@$version listed no client scenarios (has its output changed?)"
done

[ -z "$keep" ] || { mkdir -p "$keep" && cp -r "$results" "$keep/"; }
echo "$((runs - failed)) passed, $failed failed"
[ "$failed" = 0 ] || { echo "BRIDGE CONFORMANCE FAILED: $failed scenario run(s) failed (see above)" >&2; exit 1; }
