# Sourced by run_http_python_sdk.sh and run_http_ts_sdk.sh: serves examples/everything.py over
# minimcp's Streamable HTTP on a free loopback port (tests/interop/http_server.py, the kernel picks
# the port) and stops it by PID.
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
