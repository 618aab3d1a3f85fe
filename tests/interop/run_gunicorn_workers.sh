#!/usr/bin/env bash
# gunicorn workers stage (issue 28): one gunicorn with three workers on one host, on loopback,
# driven by tests/interop/gunicorn_workers.py: short session ids every worker serves, sessions
# bound to an identity on every worker, DELETE honoured by all of them (MINIMCP_SESSION_DIR) and
# ending within a second a GET stream another worker holds, and SIGTERM not waiting on GET streams.
#
# gunicorn is installed pinned into a throwaway venv; everything started is stopped by PID
# (process group) on exit. Any step that cannot run fails the stage.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
GUNICORN_VERSION=23.0.0
py=${PYTHON:-python3}

die() { printf 'gunicorn workers stage FAILED: %s\n' "$*" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/minimcp-gunicorn-workers.XXXXXX")
pidfile="$tmp/pids"
: > "$pidfile"
cleanup() {
    local pid
    while read -r pid; do
        [ -n "$pid" ] || continue
        kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    done < "$pidfile"
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$py" -m venv "$tmp/venv" || die "cannot make a venv with $py"
"$tmp/venv/bin/python" -m pip install -q --disable-pip-version-check "gunicorn==$GUNICORN_VERSION" \
    > "$tmp/pip.log" 2>&1 || { tail -20 "$tmp/pip.log"; die "pip could not install gunicorn==$GUNICORN_VERSION"; }
got=$("$tmp/venv/bin/python" -c 'import importlib.metadata as m; print(m.version("gunicorn"))')
[ "$got" = "$GUNICORN_VERSION" ] || die "gunicorn is $got, wanted $GUNICORN_VERSION"
echo "gunicorn: $got ($("$tmp/venv/bin/python" --version 2>&1))"

mkdir "$tmp/run"
# The driver bounds every request and loop; this is the backstop.
timeout -k 10 180 "$tmp/venv/bin/python" "$here/gunicorn_workers.py" --gunicorn "$tmp/venv/bin/gunicorn" \
    --workdir "$tmp/run" --pidfile "$pidfile" || die "a gunicorn workers check failed (see above)"
