#!/usr/bin/env bash
# Slow clients stage (issue 28, point 9): 300 slow-loris connections against the README's
# recommended setup (nginx in front of gunicorn, the README's own command and config), which
# must still answer every request, against plain gunicorn, whose count is printed for
# information, and against the stdlib server (serve --http), which must answer 18 of 20 requests
# (issue 41). Loopback only, driven by tests/interop/slow_clients.py.
#
# gunicorn is installed pinned into a throwaway venv; nginx must be installed (the scale-out
# stage installs it from Debian's packages when it is missing). Everything started is stopped by
# PID (process group) on exit. Any step that cannot run fails the stage.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

die() { printf 'slow clients stage FAILED: %s\n' "$*" >&2; exit 1; }

nginx_bin=$(command -v nginx || true)
[ -n "$nginx_bin" ] || [ ! -x /usr/sbin/nginx ] || nginx_bin=/usr/sbin/nginx
[ -n "$nginx_bin" ] || die "nginx is not installed (apt-get install nginx; tests/interop/run_scaleout.sh does it)"
echo "nginx: $("$nginx_bin" -v 2>&1)"

. "$here/gunicorn_stage.sh"
stage_tmp slow-clients

install_gunicorn
# The driver bounds every request and the attack; this is the backstop (the stage takes ~30 s).
timeout -k 10 90 "$tmp/venv/bin/python" "$here/slow_clients.py" --gunicorn "$tmp/venv/bin/gunicorn" \
    --nginx "$nginx_bin" --workdir "$tmp/run" --pidfile "$pidfile" || die "a slow clients check failed (see above)"
