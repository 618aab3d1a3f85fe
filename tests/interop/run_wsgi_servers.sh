#!/usr/bin/env bash
# examples/everything.py hosted, unchanged, by two more WSGI servers than gunicorn (which the
# scale-out stage runs): waitress and uWSGI, pinned into a throwaway venv, on loopback only.
# Each is driven by wsgi_servers.py (both eras, SSE progress, DELETE) and stopped by PID.
# Fails loudly if anything cannot be installed or started.
set -uo pipefail

WAITRESS_VERSION="3.0.2"
UWSGI_VERSION="2.0.31"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
die() { printf '\nrun_wsgi_servers.sh: FAILED: %s\n' "$*" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/minimcp-wsgi.XXXXXX")" || die "mktemp failed"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null; done
    sleep 0.5
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT

python3 -m venv "$work/venv" || die "cannot create a venv"
"$work/venv/bin/python" -m pip install -q "waitress==$WAITRESS_VERSION" "uwsgi==$UWSGI_VERSION" \
    > "$work/pip.log" 2>&1 || { tail -30 "$work/pip.log"; die "cannot install waitress/uWSGI"; }

free_port() { "$work/venv/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

wait_listening() {  # PORT PID: until the server accepts connections (bounded), or it died
    "$work/venv/bin/python" - "$1" "$2" <<'PY'
import os, socket, sys, time
port, pid = int(sys.argv[1]), int(sys.argv[2])
deadline = time.monotonic() + 30
while time.monotonic() < deadline:
    try:
        os.kill(pid, 0)
    except OSError:
        sys.exit("the server exited before listening")
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.1)
sys.exit("the server did not listen within 30 s")
PY
}

status=0
# Both take the app object itself (MCPServer is its own WSGI callable).
port=$(free_port)
run_one_with_port() {  # NAME PORT COMMAND...
    local name="$1" port="$2"; shift 2
    ( cd "$repo/examples" && exec env PYTHONPATH="$repo" "$@" ) > "$work/$name.log" 2>&1 &
    local pid=$!
    pids+=("$pid")
    wait_listening "$port" "$pid" || { tail -20 "$work/$name.log"; die "$name did not start"; }
    printf '\n-- %s %s\n' "$name" "$(grep -m1 -o 'uWSGI [0-9.]*\|waitress' "$work/$name.log" || true)"
    if ! "$work/venv/bin/python" "$here/wsgi_servers.py" "http://127.0.0.1:$port/mcp"; then
        tail -20 "$work/$name.log"
        status=1
    fi
    kill -TERM "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
}

run_one_with_port "waitress $WAITRESS_VERSION" "$port" \
    "$work/venv/bin/waitress-serve" --listen="127.0.0.1:$port" --threads=8 everything:app
port=$(free_port)
run_one_with_port "uWSGI $UWSGI_VERSION" "$port" \
    "$work/venv/bin/uwsgi" --http-socket "127.0.0.1:$port" --wsgi-file everything.py --callable app \
    --threads 8 --die-on-term --need-app --disable-logging
[ "$status" -eq 0 ] || die "a WSGI server did not host the app correctly"
echo "waitress and uWSGI host the app: ok"
