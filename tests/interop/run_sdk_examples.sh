#!/usr/bin/env bash
# The official SDK's own example servers, unchanged under `python3 minimcp.py serve` (issue 38).
#
# Downloads the source distributions of mcp 1.29.0 and 2.3.0 from PyPI (`pip download --no-deps
# --no-binary :all:`; the examples are only in the sdists) into a throwaway directory, and runs
# tests/interop/official_servers.py over what they carry:
#   - examples/servers/: simple-tool, simple-resource, simple-prompt, simple-pagination,
#     structured-output-lowlevel (low-level `Server`) and everything-server (FastMCP / MCPServer);
#   - the low-level snippets of examples/snippets/servers/ (lowlevel/*.py, and the top-level
#     snippets that define a low-level `Server`: pagination_example.py, resource_subscriptions.py,
#     set_logging_level.py);
#   - over Streamable HTTP, the examples that serve nothing else (official_servers.py's HTTP_ONLY):
#     simple-streamablehttp, simple-streamablehttp-stateless and sse-polling-demo, whose main()
#     builds the server and hands the SDK's ASGI app to uvicorn (`server.streamable_http_app()` in
#     2.3.0, a StreamableHTTPSessionManager mounted in Starlette in 1.29.0). Both runs start as the
#     README does, with `--port PORT`: `python -m PACKAGE --port 0` and `serve FILE --port 0`, which
#     runs that main(): its uvicorn serves minimcp's stand-in for the SDK's app (app.asgi). Port 0
#     has the system choose a free port as uvicorn binds it; each is driven at the port uvicorn's
#     log names, once it names it, and stopped by its PID.
# Left out, and why (official_servers.py's EXCLUDED; the run prints them; any other example runs):
#   - simple-task, simple-task-interactive (1.29.0 only): HTTP only; their module-level server
#     turns on the SDK's experimental tasks API (`server.experimental.enable_tasks()`,
#     ServerTaskContext), which minimcp does not back (its own tasks are `task_support=`), so
#     `serve` stops at import, saying so;
#   - simple-auth: HTTP only, behind OAuth with its own authorization server.
# simple-tool's one tool fetches a URL: it is called with the address of a web server the stage
# runs on loopback (127.0.0.1, a free port), never the network. everything-server's main() serves
# Streamable HTTP only; its `mcp` object is served on stdio both under the SDK (`mcp.run_stdio_async`)
# and by `serve FILE`.
#
# Per SDK version, a venv with that mcp and the examples' own requirements (the reference, started
# as the README starts each: `python -m PACKAGE` or `python FILE`), and a copy of it with mcp and
# whatever only mcp needed uninstalled (`serve FILE`), both driven by the official client (mcp 2.3.0),
# over stdio or, for the HTTP-only examples, over Streamable HTTP.
# One line per server: identical / DIFFERS (with the first difference; -v all of them) / SKIPPED
# (could not start under its SDK: counted, never a pass). Exits non-zero on any difference that is
# not a row of the README's table of deliberate differences.
#
# MINIMCP_DIR=DIR tests minimcp.py (and the minimcp_*.py beside it) from DIR instead of this
# checkout (another worktree); its README's table of deliberate differences is the one applied.
#
# Usage: tests/interop/run_sdk_examples.sh [--only VERSION/NAME]... [-v] [-j N] [--keep DIR]
#        (e.g. --only 1.29.0/simple-tool, --only "2.3.0/snippet lowlevel/basic.py")
set -euo pipefail

MCP_VERSIONS=("1.29.0" "2.3.0")

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
die() { echo "run_sdk_examples.sh: $*" >&2; exit 1; }

# shellcheck source=official_servers.sh
. "$here/official_servers.sh"  # official_stage_begin, official_client, official_stage_run

official_stage_begin sdk-examples "the driver reads pyproject.toml with tomllib"
"$PY" -m pip --version >/dev/null 2>&1 || die "$PY has no pip to install the SDKs with"

# The two source distributions, while the official client installs.
for version in "${MCP_VERSIONS[@]}"; do
  "$PY" -m pip download --quiet --disable-pip-version-check --no-deps --no-binary :all: \
    -d "$workdir/sdist-$version" "mcp==$version" >"$workdir/sdist-$version.log" 2>&1 &
done
official_client
for job in $(jobs -p); do
  wait "$job" || { cat "$workdir"/sdist-*.log >&2; die "a download failed (see above)"; }
done

sdists=()
for version in "${MCP_VERSIONS[@]}"; do
  archive="$workdir/sdist-$version/mcp-$version.tar.gz"
  [ -f "$archive" ] || die "pip download left no $archive"
  tar -xzf "$archive" -C "$workdir/sdist-$version" || die "cannot extract $archive"
  [ -d "$workdir/sdist-$version/mcp-$version/examples/servers" ] || die "mcp $version's sdist has no examples/servers"
  sdists+=(--sdist "$version=$workdir/sdist-$version/mcp-$version")
done
echo "# client and sdists ready in $((SECONDS - started))s"

official_stage_run examples "${sdists[@]}" "$@"
