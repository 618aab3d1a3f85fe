# Sourced by run_sdk_examples.sh and run_reference_servers.sh, the two stages of official_servers.py
# (servers the SDK's authors wrote, under their SDK and unchanged under `python3 minimcp.py serve`,
# both driven by the official client). The caller sets `here` and `die`; MINIMCP_DIR=DIR tests
# minimcp.py (and the minimcp_*.py beside it) from DIR instead of this checkout, and its README's
# table of deliberate differences is the one applied.
#
#   official_stage_begin NAME WHY  -> PY: a Python >= 3.11 (WHY: what needs 3.11); minimcp_dir checked;
#                                     workdir: a throwaway directory (removed at exit), minimcp copied
#                                     into workdir/minimcp; started: $SECONDS. Fails via die().
#   official_client                -> workdir/client: a venv with the official client, mcp
#                                     CLIENT_MCP_VERSION, and a pip (official_servers.py installs the
#                                     servers' venvs with it), checked; or fails via die()
#   official_stage_run ARG...      -> official_servers.py ARG... with the options both stages give it,
#                                     then the stage's time; exits with the driver's status

CLIENT_MCP_VERSION="2.3.0"

# shellcheck source=find_python.sh
. "$here/find_python.sh"

official_stage_begin() {
  local name="$1" why="$2"
  minimcp_dir="$(cd "${MINIMCP_DIR:-$here/../..}" && pwd)"
  PY="$(find_python)" || die "no Python >= 3.10 found (looked in \$(pyenv root)/versions/3.1[0-3].* and on PATH); the SDKs need one"
  "$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' || die "$PY is older than 3.11 ($why)"
  [ -f "$minimcp_dir/minimcp.py" ] || die "no minimcp.py in $minimcp_dir"
  [ -f "$minimcp_dir/README.md" ] || die "no README.md in $minimcp_dir (its table of deliberate differences)"
  echo "# python: $PY ($("$PY" -c 'import sys; print(sys.version.split()[0])')); minimcp from $minimcp_dir ($(git -C "$minimcp_dir" rev-parse --short HEAD 2>/dev/null || echo '?'))"
  started=$SECONDS
  workdir="$(mktemp -d "${TMPDIR:-/tmp}/minimcp-$name.XXXXXX")"
  trap 'rm -rf "$workdir"' EXIT
  # minimcp as a user has it: its files copied beside nothing else.
  mkdir "$workdir/minimcp"
  cp "$minimcp_dir"/minimcp*.py "$workdir/minimcp/"
}

official_client() {
  "$PY" -m venv "$workdir/client" || die "could not create a venv with $PY"
  "$workdir/client/bin/python" -m pip install --quiet --disable-pip-version-check --no-compile \
    "mcp==$CLIENT_MCP_VERSION" >"$workdir/client.log" 2>&1 \
    || { cat "$workdir/client.log" >&2; die "pip install mcp==$CLIENT_MCP_VERSION failed"; }
  "$workdir/client/bin/python" -c "import importlib.metadata as m; assert m.version('mcp') == '$CLIENT_MCP_VERSION'" \
    || die "the client venv does not have mcp $CLIENT_MCP_VERSION"
}

official_stage_run() {
  local status=0
  "$workdir/client/bin/python" "$here/official_servers.py" "$@" --base-python "$PY" --work "$workdir" \
    --minimcp-dir "$workdir/minimcp" --readme "$minimcp_dir/README.md" || status=$?
  echo "# the stage took $((SECONDS - started))s"
  exit $status
}
