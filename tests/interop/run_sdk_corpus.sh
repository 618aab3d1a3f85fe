#!/usr/bin/env bash
# Differential corpus of real servers published on PyPI (issue 27): each server of
# tests/sdk_corpus/published.json, pinned, under the pin of the SDK dialect minimcp serves it in,
# and unchanged under `python3 minimcp.py serve`, driven by the official Python SDK client and
# compared field by field.
#
# The reference is the dialect's pin, not the server's own SDK range: each dialect emulates one
# pinned version (mcp1: mcp==1.30.0, mcp2: mcp==2.3.0, fastmcp: fastmcp==4.2.3), so a server
# written for an older SDK is run under that pin (installed --no-deps) and the stage measures
# what the dialect promises. Servers whose declared range excludes the pin (mcp-server-spreadsheet:
# mcp==1.28.0, bugledger-mcp: fastmcp<4, excel-writer-mcp: fastmcp<3) are named in the output
# ("# NAME declares ..."); a server that does not work under the pin keeps its own, with the
# reason, in its "reference" field (none does today). See tests/sdk_corpus/PUBLISHED.md.
#
# Each server is started as its users start it: by its console script (the reference) and by
# `serve --entry SCRIPT ARGS` (minimcp), or by `python -m MODULE` and `serve -m MODULE`.
# A server marked "volatile" runs twice under the reference; the fields in which those two runs
# differ (clocks, uptimes, ids) are values of the run and are ignored (-v prints them).
#
# Creates, in a throwaway directory:
#   client        mcp 2.3.0, the official Python client that drives every server;
#   ref-GROUP     one reference venv per dialect pin of published.json ("sdks"): the pin, the
#                 group's servers (--no-deps) and their other requirements, read from their metadata;
#   mini-GROUP    the same servers and the same versions of their other requirements (pydantic
#                 included), without mcp or fastmcp;
# then runs tests/interop/sdk_corpus.py, which installs those venvs (in parallel, with pip's
# usual cache, ~/.cache/pip), records both runs and fails on any difference that
# tests/sdk_corpus/expected_differences.txt does not list, and on any entry there that no
# longer occurs. At most MAX_LISTED_SERVERS servers (5, as issue 27 says) may be listed there.
#
# Usage: tests/interop/run_sdk_corpus.sh [--only NAME]... [-v] [--keep DIR] [-j N]
set -euo pipefail

CLIENT_MCP_VERSION="2.3.0"
export MAX_LISTED_SERVERS="${MAX_LISTED_SERVERS:-5}"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo"

die() { echo "run_sdk_corpus.sh: $*" >&2; exit 1; }

# shellcheck source=find_python.sh
. "$here/find_python.sh"

PY="$(find_python)" || die "no Python >= 3.10 found (looked in \$(pyenv root)/versions/3.1[0-3].* and on PATH); the SDKs need one"
"$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' \
  || die "$PY is older than 3.11; some corpus servers need 3.11"
echo "# python: $PY ($("$PY" -c 'import sys; print(sys.version.split()[0])'))"
command -v git >/dev/null || die "git is needed (two corpus servers work on a temporary repository)"

[ -f tests/sdk_corpus/published.json ] || die "tests/sdk_corpus/published.json not found in $repo"
[ -f tests/sdk_corpus/expected_differences.txt ] || die "tests/sdk_corpus/expected_differences.txt not found"

workdir="$(mktemp -d "${TMPDIR:-/tmp}/minimcp-sdk-corpus.XXXXXX")"
trap 'rm -rf "$workdir"' EXIT

"$PY" -m venv "$workdir/client" || die "could not create a venv with $PY"
"$workdir/client/bin/python" -m pip install --quiet --disable-pip-version-check "mcp==$CLIENT_MCP_VERSION" \
  || die "pip install mcp==$CLIENT_MCP_VERSION failed"
"$workdir/client/bin/python" -c "import importlib.metadata as m; assert m.version('mcp') == '$CLIENT_MCP_VERSION'" \
  || die "the client venv does not have mcp $CLIENT_MCP_VERSION"

"$workdir/client/bin/python" "$here/sdk_corpus.py" --corpus tests/sdk_corpus/published.json \
  --expected tests/sdk_corpus/expected_differences.txt --repo "$repo" --python "$PY" \
  --work "$workdir" "$@"
