# Sourced by the stages that serve examples/everything.py over HTTP, on loopback only, and stop
# the server by PID.
#
# minimcp's own server (run_http_python_sdk.sh, run_http_ts_sdk.sh, run_bridge_interop.sh,
# run_apps_browser.sh): Streamable HTTP on a free loopback port (tests/interop/http_server.py, the
# kernel picks the port).
#
#   start_http_server WORKDIR LOGDIR [SCRIPT]  -> sets HTTP_URL and HTTP_PID, or fails via die()
#   stop_http_server                           -> SIGTERM to HTTP_PID, then wait for it
#
# The server's stdout and stderr go to WORKDIR/http-server.out (print_stdout writes there).
# With MINIMCP_HTTP_ASGI set to an interpreter that has uvicorn (run_asgi_clients.sh sets it),
# the script's app.asgi is served on uvicorn instead of the stdlib server.

start_http_server() {
  local workdir="$1" logdir="$2" script="${3:-examples/everything.py}" portfile port i
  portfile="$workdir/http-server.port"
  rm -f "$portfile"
  if [ -n "${MINIMCP_HTTP_ASGI:-}" ]; then
    "$MINIMCP_HTTP_ASGI" "$here/http_server.py" --asgi --port-file "$portfile" --logs "$logdir" "$script" \
      >"$workdir/http-server.out" 2>&1 &
  else
    python3 "$here/http_server.py" --port-file "$portfile" --logs "$logdir" "$script" \
      >"$workdir/http-server.out" 2>&1 &
  fi
  HTTP_PID=$!
  # the launcher writes the file (atomically) only once the socket listens; poll it with a deadline
  for i in $(seq 1 200); do
    [ -s "$portfile" ] && break
    kill -0 "$HTTP_PID" 2>/dev/null || die "the HTTP server exited at start-up: $(tail -c 600 "$workdir/http-server.out")"
    sleep 0.05
  done
  [ -s "$portfile" ] || { stop_http_server; die "the HTTP server did not listen within 10 s"; }
  port="$(cat "$portfile")"
  HTTP_URL="http://127.0.0.1:$port/mcp"
  echo "# minimcp HTTP server: $script on $HTTP_URL (pid $HTTP_PID)${MINIMCP_HTTP_ASGI:+, app.asgi on uvicorn}"
}

stop_http_server() {
  [ -n "${HTTP_PID:-}" ] || return 0
  kill -TERM "$HTTP_PID" 2>/dev/null || true
  wait "$HTTP_PID" 2>/dev/null || true
  HTTP_PID=""
}

# The servers people deploy the app on (run_wsgi_servers.sh: waitress, uWSGI; run_asgi.sh: uvicorn,
# hypercorn, granian), each started by its own command line, pinned into a throwaway venv:
#
#   install_hosts NAME WHAT PACKAGE...       -> sets work: a throwaway directory (minimcp-NAME.XXXXXX; at
#                                               exit every server started is stopped, SIGTERM then SIGKILL
#                                               0.5 s later, and it is removed) with a venv work/venv of
#                                               the pinned PACKAGEs (WHAT: them, to say what failed), or
#                                               fails via die()
#   free_port                                -> prints a loopback port that was free a moment ago
#   start_hosted NAME LOG PORT COMMAND...    -> runs `env PYTHONPATH=REPO COMMAND...` in examples/ in the
#                                               background (COMMAND may begin with VAR=VALUE), its output
#                                               to LOG; sets HOSTED_PID once PORT accepts connections, or
#                                               prints LOG's tail and fails via die()
#   stop_hosted SIGNAL                       -> SIGNAL to HOSTED_PID, then wait for it

HOSTED_PIDS=()

install_hosts() {
  local name="$1" what="$2"
  shift 2
  work="$(mktemp -d "${TMPDIR:-/tmp}/minimcp-$name.XXXXXX")" || die "mktemp failed"
  trap 'stop_all_hosted; rm -rf "$work"' EXIT
  python3 -m venv "$work/venv" || die "cannot create a venv"
  "$work/venv/bin/python" -m pip install -q "$@" > "$work/pip.log" 2>&1 \
    || { tail -30 "$work/pip.log"; die "cannot install $what"; }
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start_hosted() {
  local name="$1" log="$2" port="$3"
  shift 3
  ( cd "$repo/examples" && exec env PYTHONPATH="$repo" "$@" ) > "$log" 2>&1 &
  HOSTED_PID=$!
  HOSTED_PIDS+=("$HOSTED_PID")
  # bounded: until the server accepts connections, or it died
  python3 - "$port" "$HOSTED_PID" <<'PY' || { tail -20 "$log"; die "$name did not start"; }
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

stop_hosted() {
  kill -"$1" "$HOSTED_PID" 2>/dev/null
  wait "$HOSTED_PID" 2>/dev/null
}

stop_all_hosted() {
  local pid
  for pid in "${HOSTED_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null; done
  sleep 0.5
  for pid in "${HOSTED_PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null; done
}
