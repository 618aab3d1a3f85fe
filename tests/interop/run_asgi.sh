#!/usr/bin/env bash
# examples/everything.py's app.asgi hosted, unchanged, by the ASGI servers people deploy: uvicorn,
# hypercorn and granian, pinned into a throwaway venv, each with one worker and with several
# (sharing MINIMCP_STATE_KEY, as the README says), on loopback only. Each is driven by
# asgi_servers.py (both eras, SSE progress, a GET stream, a cancelled call's stream ending,
# DELETE ending the GET stream); then SIGTERM, with a GET stream still open, must stop it within
# 20 s (uvicorn: at once, app.asgi sees its stop; hypercorn and granian: their graceful timeout,
# 5 s here), and it is killed by PID.
#
# Usage: tests/interop/run_asgi.sh [--only uvicorn|hypercorn|granian]
# Fails loudly if anything cannot be installed or started.
set -uo pipefail

UVICORN_VERSION="0.55.0"
HYPERCORN_VERSION="0.18.0"
GRANIAN_VERSION="2.8.9"
WORKERS=3

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
die() { printf '\nrun_asgi.sh: FAILED: %s\n' "$*" >&2; exit 1; }

only=""
while [ $# -gt 0 ]; do
    case "$1" in
        --only) [ $# -ge 2 ] || die "--only needs a server name"; only="$2"; shift 2 ;;
        *) die "unknown argument $1 (usage: run_asgi.sh [--only uvicorn|hypercorn|granian])" ;;
    esac
done

# shellcheck source=http_fixture.sh
. "$here/http_fixture.sh"      # install_hosts, free_port, start_hosted, stop_hosted

install_hosts asgi "the ASGI servers" "uvicorn==$UVICORN_VERSION" "hypercorn==$HYPERCORN_VERSION" \
    "granian==$GRANIAN_VERSION"
bin="$work/venv/bin"

stops_with_a_stream_open() {  # PORT PID: SIGTERM with a GET stream open; the server must exit within 20 s
    "$bin/python" - "$1" "$2" <<'PY'
import http.client, json, os, signal, sys, time
port, pid = int(sys.argv[1]), int(sys.argv[2])
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
connection.request("POST", "/mcp", json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "stop", "version": "1"}}}),
    {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
response = connection.getresponse()
session = response.getheader("Mcp-Session-Id")
response.read()
stream = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
stream.request("GET", "/mcp", headers={"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25",
                                        "Accept": "text/event-stream"})
assert stream.getresponse().status == 200
started = time.monotonic()
os.kill(pid, signal.SIGTERM)
while time.monotonic() - started < 20:
    try:
        os.kill(pid, 0)
    except OSError:
        break
    time.sleep(0.1)
else:
    sys.exit("still running 20 s after SIGTERM with a GET stream open")
print("PASS  SIGTERM with a GET stream open: exited after %.1f s" % (time.monotonic() - started))
PY
}

status=0
run_one() {  # NAME WORKERS COMMAND... (with PORT in it as @PORT@)
    local name="$1" workers="$2" port args=() arg
    shift 2
    port=$(free_port)
    for arg in "$@"; do args+=("${arg//@PORT@/$port}"); done
    start_hosted "$name" "$work/$name-$workers.log" "$port" MINIMCP_STATE_KEY="asgi-stage-$$" \
        MINIMCP_SESSION_DIR="$work/sessions-$name-$workers" "${args[@]}"
    printf '\n-- %s, %s worker(s)\n' "$name" "$workers"
    if ! ( cd "$here" && "$bin/python" asgi_servers.py "http://127.0.0.1:$port/mcp" --workers "$workers" ); then
        tail -20 "$work/$name-$workers.log"
        status=1
    fi
    if ! stops_with_a_stream_open "$port" "$HOSTED_PID"; then
        tail -20 "$work/$name-$workers.log"
        status=1
    fi
    stop_hosted KILL
}

for workers in 1 "$WORKERS"; do
    if [ -z "$only" ] || [ "$only" = uvicorn ]; then
        run_one "uvicorn-$UVICORN_VERSION" "$workers" "$bin/uvicorn" everything:app.asgi --host 127.0.0.1 \
            --port @PORT@ --workers "$workers" --log-level warning --timeout-graceful-shutdown 5
    fi
    if [ -z "$only" ] || [ "$only" = hypercorn ]; then
        run_one "hypercorn-$HYPERCORN_VERSION" "$workers" "$bin/hypercorn" everything:app.asgi \
            --bind 127.0.0.1:@PORT@ --workers "$workers" --graceful-timeout 5
    fi
    if [ -z "$only" ] || [ "$only" = granian ]; then
        run_one "granian-$GRANIAN_VERSION" "$workers" "$bin/granian" --interface asgi everything:app.asgi \
            --host 127.0.0.1 --port @PORT@ --workers "$workers" --workers-kill-timeout 5
    fi
done
[ "$status" -eq 0 ] || die "an ASGI server did not host the app correctly"
echo "${only:-uvicorn, hypercorn and granian} host(s) app.asgi, with one worker and with $WORKERS: ok"
