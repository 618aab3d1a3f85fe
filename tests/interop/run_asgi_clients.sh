#!/usr/bin/env bash
# The real clients' HTTP stage against app.asgi: the official Python SDK client
# (run_http_python_sdk.sh, both eras) and the TypeScript SDK client (run_http_ts_sdk.sh), with
# examples/everything.py served as app.asgi on uvicorn (pinned, in a throwaway venv) instead of
# the stdlib server; the wire is recorded by http_server.py's ASGI recorder and checked against
# the schema as those stages do. Loopback only; the server is stopped by its PID.
#
# Usage: tests/interop/run_asgi_clients.sh
set -uo pipefail

UVICORN_VERSION="0.55.0"       # run_asgi.sh's pin

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
die() { printf '\nrun_asgi_clients.sh: FAILED: %s\n' "$*" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/minimcp-asgi-clients.XXXXXX")" || die "mktemp failed"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv" || die "cannot create a venv"
"$work/venv/bin/python" -m pip install -q "uvicorn==$UVICORN_VERSION" > "$work/pip.log" 2>&1 \
    || { tail -30 "$work/pip.log"; die "cannot install uvicorn==$UVICORN_VERSION"; }

export MINIMCP_HTTP_ASGI="$work/venv/bin/python"          # http_fixture.sh: app.asgi on uvicorn
status=0
printf '\n-- the official Python SDK client, both eras, against app.asgi on uvicorn %s\n' "$UVICORN_VERSION"
bash "$here/run_http_python_sdk.sh" || status=1
printf '\n-- the TypeScript SDK client against app.asgi on uvicorn %s\n' "$UVICORN_VERSION"
bash "$here/run_http_ts_sdk.sh" || status=1
[ "$status" -eq 0 ] || die "a client failed against app.asgi"
echo "the SDK clients over HTTP against app.asgi on uvicorn: ok"
