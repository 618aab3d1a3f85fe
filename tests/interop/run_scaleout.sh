#!/usr/bin/env bash
# Scale-out stage (issue 16): three gunicorn replicas of examples/everything.py behind
# nginx, on loopback only, driven by tests/interop/scaleout.py (standard library client).
#
# gunicorn is installed pinned into a throwaway venv; nginx comes from Debian's packages
# (apt-get, as root) when it is not installed, without letting the package start its
# own service. Everything started is stopped by PID (process group) on exit. Any step
# that cannot run fails the stage.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

die() { printf 'scale-out stage FAILED: %s\n' "$*" >&2; exit 1; }

made_policy=""
remove_policy() { [ -z "$made_policy" ] || rm -f /usr/sbin/policy-rc.d; }
stage_cleanup=remove_policy
. "$here/gunicorn_stage.sh"
stage_tmp scaleout

nginx_bin=$(command -v nginx || true)
[ -n "$nginx_bin" ] || [ ! -x /usr/sbin/nginx ] || nginx_bin=/usr/sbin/nginx
if [ -z "$nginx_bin" ]; then
    [ "$(id -u)" = 0 ] || die "nginx is not installed, and installing it with apt-get needs root"
    command -v apt-get >/dev/null || die "nginx is not installed and there is no apt-get"
    # The package would start nginx on port 80 of every interface where an init system
    # runs; a policy that refuses service starts keeps the install inert.
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
        chmod 755 /usr/sbin/policy-rc.d
        made_policy=1
    fi
    echo "installing nginx from Debian's packages"
    { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends nginx; } \
        > "$tmp/apt.log" 2>&1 || { tail -20 "$tmp/apt.log"; die "apt-get could not install nginx"; }
    [ -z "$made_policy" ] || { rm -f /usr/sbin/policy-rc.d; made_policy=""; }
    nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
    [ -x "$nginx_bin" ] || die "nginx was installed but there is no nginx binary"
fi
echo "nginx: $("$nginx_bin" -v 2>&1)"

install_gunicorn
# The driver is bounded on its own (every request has a timeout); this is the backstop.
timeout -k 10 240 "$py" "$here/scaleout.py" --gunicorn "$tmp/venv/bin/gunicorn" --nginx "$nginx_bin" \
    --workdir "$tmp/run" --pidfile "$pidfile" "$@" || die "a scale-out check failed (see above)"
