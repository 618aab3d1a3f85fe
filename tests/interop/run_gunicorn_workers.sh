#!/usr/bin/env bash
# gunicorn workers stage (issue 28): one gunicorn with three workers on one host, on loopback,
# driven by tests/interop/gunicorn_workers.py: short session ids every worker serves, sessions
# bound to an identity on every worker, DELETE honoured by all of them (MINIMCP_SESSION_DIR, and
# without it the store their state key names) however the id is re-spelled, and ending within a
# second a GET stream another worker holds, SIGTERM not waiting on GET streams, session_lifetime
# kept by every worker, and one Host header or 400 (issue 41).
#
# gunicorn is installed pinned into a throwaway venv; everything started is stopped by PID
# (process group) on exit. Any step that cannot run fails the stage.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

die() { printf 'gunicorn workers stage FAILED: %s\n' "$*" >&2; exit 1; }

. "$here/gunicorn_stage.sh"
stage_tmp gunicorn-workers

install_gunicorn
# The driver bounds every request and loop; this is the backstop.
timeout -k 10 180 "$tmp/venv/bin/python" "$here/gunicorn_workers.py" --gunicorn "$tmp/venv/bin/gunicorn" \
    --workdir "$tmp/run" --pidfile "$pidfile" || die "a gunicorn workers check failed (see above)"
