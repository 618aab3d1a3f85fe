#!/usr/bin/env bash
# MCP Apps in a real browser: examples/sqlite_explorer.py's page, shown by a host page written
# here (tests/interop/apps/host.js) with the official host-side bridge (AppBridge +
# PostMessageTransport from npm @modelcontextprotocol/ext-apps), in Debian's Chromium, headless.
#
#   1. Chromium from Debian's packages (apt-get install chromium if it is missing); it must start.
#   2. ext-apps, the MCP TypeScript client, esbuild and playwright-core, pinned by
#      tests/interop/apps/package-lock.json, `npm ci` into a throwaway directory; esbuild bundles host.js.
#   3. minimcp serves the example over its Streamable HTTP on a free loopback port (stopped by PID),
#      with MINIMCP_ALLOWED_ORIGINS set to the host page's origin: the page is on another origin,
#      so every request is a CORS one (checked first with OPTIONS, for that origin and another).
#   4. tests/interop/apps/drive.mjs opens the host page; it reads the tool's ui:// page, loads it
#      into <iframe sandbox="allow-scripts" srcdoc>, pushes the tool's input and result, and the
#      checks read the page's DOM, take a screenshot, sort, and let the page call list_tables and
#      query back through the bridge.
#
# Usage: tests/interop/run_apps_browser.sh [--out DIR] [--update-screenshot]
#   --out DIR             where the screenshot (the CI artifact) goes (default: build/apps_browser)
#   --update-screenshot   also copy it to examples/sqlite_explorer.png (the README's picture)
set -euo pipefail

EXT_APPS_VERSION="2.0.4"
PLAYWRIGHT_CORE_VERSION="1.65.1"
ESBUILD_VERSION="0.28.2"
ORIGIN="http://apps-host.localhost:8765"  # the host page's origin: a browser route serves it (no server)

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo"

die() { echo "run_apps_browser.sh: $*" >&2; echo "FAIL apps-browser.environment: $*"; echo "0 passed, 1 failed"; exit 1; }
# shellcheck source=http_fixture.sh
. "$here/http_fixture.sh"

out="$repo/build/apps_browser"
update=""
while [ $# -gt 0 ]; do
  case "$1" in
    --out) [ $# -ge 2 ] || die "--out needs a directory"; out="$2"; shift 2 ;;
    --update-screenshot) update=1; shift ;;
    *) die "unknown argument $1 (usage: run_apps_browser.sh [--out DIR] [--update-screenshot])" ;;
  esac
done
mkdir -p "$out" || die "cannot create $out"
out="$(cd "$out" && pwd)"
rm -f "$out/sqlite_explorer.png"

workdir="$(mktemp -d "${TMPDIR:-/tmp}/minimcp-apps-browser.XXXXXX")"
trap 'stop_http_server; rm -rf "$workdir"' EXIT

# 1. Chromium, from Debian's packages (Playwright's own browser download is not reachable).
chromium_bin="$(command -v chromium || true)"
if [ -z "$chromium_bin" ]; then
  command -v apt-get >/dev/null || die "chromium is not installed and there is no apt-get to install it"
  echo "# apt-get install chromium"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } \
    || die "cannot install Debian's chromium package"
  chromium_bin="$(command -v chromium || true)"
  [ -n "$chromium_bin" ] || die "the chromium package installed no chromium command"
fi
# Debian's /usr/bin/chromium is a wrapper script; run it once, so a browser that cannot start says so here.
probe="$(timeout 60 "$chromium_bin" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$workdir/probe-profile" --dump-dom 'data:text/html,<p>chromium-starts</p>' 2>"$workdir/probe.err")" \
  || die "chromium cannot start headless: $(tail -c 800 "$workdir/probe.err")"
case "$probe" in *chromium-starts*) ;; *) die "headless chromium rendered nothing: $(tail -c 800 "$workdir/probe.err")" ;; esac
echo "# $("$chromium_bin" --version 2>/dev/null | head -n 1) ($chromium_bin)"

# 2. The pinned host side, in a throwaway npm directory.
command -v node >/dev/null && command -v npm >/dev/null || die "node and npm are needed"
npmdir="$workdir/npm"
mkdir -p "$npmdir"
cp "$here/apps/package.json" "$here/apps/package-lock.json" "$here/apps/host.js" "$here/apps/drive.mjs" "$npmdir/"
echo "# npm ci in $npmdir (node $(node --version), npm $(npm --version))"
(cd "$npmdir" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error >&2) \
  || die "npm ci of @modelcontextprotocol/ext-apps@$EXT_APPS_VERSION, esbuild, playwright-core failed (network? registry?)"
for pin in "@modelcontextprotocol/ext-apps $EXT_APPS_VERSION" "playwright-core $PLAYWRIGHT_CORE_VERSION" "esbuild $ESBUILD_VERSION"; do
  set -- $pin
  got="$(node -p "require('$npmdir/node_modules/$1/package.json').version" 2>/dev/null)" || got="(missing)"
  [ "$got" = "$2" ] || die "installed $1 is $got, not $2"
done
mkdir -p "$workdir/host"
cp "$here/apps/host.html" "$workdir/host/"
"$npmdir/node_modules/esbuild/bin/esbuild" "$npmdir/host.js" --bundle --format=iife --platform=browser \
  --target=chrome120 --log-level=warning --outfile="$workdir/host/host.bundle.js" \
  || die "esbuild could not bundle tests/interop/apps/host.js"

# 3. minimcp on loopback, allowing the host page's origin.
export MINIMCP_ALLOWED_ORIGINS="$ORIGIN"
start_http_server "$workdir" "$workdir/wire" examples/sqlite_explorer.py
python3 - "$HTTP_URL" "$ORIGIN" <<'EOF' || die "the CORS preflight is not answered as a browser needs (see above)"
import sys, urllib.error, urllib.request
url, origin = sys.argv[1], sys.argv[2]
def preflight(who):
    request = urllib.request.Request(url, method="OPTIONS", headers={
        "Origin": who, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, mcp-protocol-version, mcp-session-id"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.headers
    except urllib.error.HTTPError as refused:
        return refused.code, refused.headers
status, headers = preflight(origin)
allowed = [h.strip().lower() for h in (headers.get("Access-Control-Allow-Headers") or "").split(",")]
ok = status == 204 and headers.get("Access-Control-Allow-Origin") == origin and \
    {"mcp-protocol-version", "mcp-session-id"} <= set(allowed) and \
    "mcp-session-id" in (headers.get("Access-Control-Expose-Headers") or "").lower()
print("%s apps-browser.cors.configured-origin%s" % ("PASS" if ok else "FAIL", "" if ok else ": %s %s" % (status, dict(headers))))
status, headers = preflight("http://elsewhere.test")
refused = status == 403 and "Access-Control-Allow-Origin" not in headers
print("%s apps-browser.cors.other-origin-refused%s" % ("PASS" if refused else "FAIL", "" if refused else ": %s" % status))
sys.exit(0 if ok and refused else 1)
EOF

# 4. The browser.
rc=0
timeout 180 node "$npmdir/drive.mjs" --chromium "$chromium_bin" --host-dir "$workdir/host" --server "$HTTP_URL" \
  --origin "$ORIGIN" --out "$out" --profile "$workdir/profile" || rc=$?
stop_http_server
if [ "$rc" = 0 ]; then
  [ -s "$out/sqlite_explorer.png" ] || { echo "FAIL apps-browser.artifact: no screenshot in $out"; exit 1; }
  echo "# screenshot: $out/sqlite_explorer.png"
  [ -z "$update" ] || cp "$out/sqlite_explorer.png" "$repo/examples/sqlite_explorer.png"
else
  echo "# minimcp's output:"; tail -n 40 "$workdir/http-server.out" || true
fi
exit "$rc"
