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

# shellcheck source=http_fixture.sh
. "$here/http_fixture.sh"      # install_hosts, free_port, start_hosted, stop_hosted

install_hosts wsgi "waitress/uWSGI" "waitress==$WAITRESS_VERSION" "uwsgi==$UWSGI_VERSION"

status=0
# Both take the app object itself (MCPServer is its own WSGI callable).
port=$(free_port)
run_one_with_port() {  # NAME PORT COMMAND...
    local name="$1" port="$2"; shift 2
    start_hosted "$name" "$work/$name.log" "$port" "$@"
    printf '\n-- %s %s\n' "$name" "$(grep -m1 -o 'uWSGI [0-9.]*\|waitress' "$work/$name.log" || true)"
    if ! "$work/venv/bin/python" "$here/wsgi_servers.py" "http://127.0.0.1:$port/mcp"; then
        tail -20 "$work/$name.log"
        status=1
    fi
    stop_hosted TERM
}

run_one_with_port "waitress $WAITRESS_VERSION" "$port" \
    "$work/venv/bin/waitress-serve" --listen="127.0.0.1:$port" --threads=8 everything:app
port=$(free_port)
run_one_with_port "uWSGI $UWSGI_VERSION" "$port" \
    "$work/venv/bin/uwsgi" --http-socket "127.0.0.1:$port" --wsgi-file everything.py --callable app \
    --threads 8 --die-on-term --need-app --disable-logging
[ "$status" -eq 0 ] || die "a WSGI server did not host the app correctly"
echo "waitress and uWSGI host the app: ok"
