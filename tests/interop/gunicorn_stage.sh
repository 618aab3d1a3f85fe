# Sourced by the gunicorn stages (run_scaleout.sh, run_gunicorn_workers.sh, run_slow_clients.sh):
# a throwaway directory whose processes are stopped by PID (process group) on exit, and gunicorn
# pinned into a venv there. The stage sets `die` first, and may set `stage_cleanup` (a command run
# on exit before the directory goes).
GUNICORN_VERSION=23.0.0
py=${PYTHON:-python3}
stage_cleanup=${stage_cleanup:-:}

stage_tmp() {   # NAME: make $tmp and $pidfile, and stop what $pidfile names on exit
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/minimcp-$1.XXXXXX")
    pidfile="$tmp/pids"
    : > "$pidfile"
    trap stage_stop EXIT
    trap 'exit 130' INT TERM
}

stage_stop() {
    local pid
    while read -r pid; do
        [ -n "$pid" ] || continue
        kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    done < "$pidfile"
    $stage_cleanup
    rm -rf "$tmp"
}

install_gunicorn() {   # gunicorn==$GUNICORN_VERSION into $tmp/venv, checked
    "$py" -m venv "$tmp/venv" || die "cannot make a venv with $py"
    "$tmp/venv/bin/python" -m pip install -q --disable-pip-version-check "gunicorn==$GUNICORN_VERSION" \
        > "$tmp/pip.log" 2>&1 || { tail -20 "$tmp/pip.log"; die "pip could not install gunicorn==$GUNICORN_VERSION"; }
    local got
    got=$("$tmp/venv/bin/python" -c 'import importlib.metadata as m; print(m.version("gunicorn"))')
    [ "$got" = "$GUNICORN_VERSION" ] || die "gunicorn is $got, wanted $GUNICORN_VERSION"
    echo "gunicorn: $got ($("$tmp/venv/bin/python" --version 2>&1))"
    mkdir "$tmp/run"
}
