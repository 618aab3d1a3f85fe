#!/usr/bin/env bash
# The official reference servers from PyPI, unchanged under `python3 minimcp.py serve` (issue 38).
#
# Two generations of mcp-server-time, mcp-server-git and mcp-server-fetch, pinned:
#   2026.8.18   the last releases written with mcp 1.x's low-level `Server` (`from mcp.server import
#               Server`, stdio_server(), server.run(...)); they require mcp>=1.29,<2: run under
#               mcp 1.30.0, the last 1.x (the one minimcp's mcp1 dialect emulates);
#   2026.10.x   today's, written with mcp 2.x's MCPServer and its request middleware
#               (`mcp.server.context`); they require mcp>=2.3,<3: run under mcp 2.3.0.
# Per generation, into throwaway venvs (tests/interop/sdk_corpus.py's install_group):
#   ref   the three with --no-deps, their own requirements read from their metadata, and the pin;
#   mini  a copy of it with mcp and whatever only mcp needed uninstalled: the same servers and the
#         same versions of everything else;
# then runs tests/interop/official_servers.py, which starts each server as its console script
# starts it (the reference) and through `python3 minimcp.py serve --entry SCRIPT ARGS` (the same entry
# point, the same arguments), one after the other in the same fresh directory, and drives both with
# the official client (mcp 2.3.0): initialize, the listings, the server's own calls, calls made from
# its listings (valid arguments, none, a wrong type), an unknown tool, resource and prompt.
#   - mcp-server-time --local-timezone UTC: the clock's readings are masked on both sides;
#   - mcp-server-git --repository REPO: REPO is a git repository the stage makes in the run's
#     directory, with fixed authors and dates (the same hashes in both runs); the calls read it,
#     make a branch and a commit (that commit's hash and date are masked);
#   - mcp-server-fetch: its network is a web server the stage runs on 127.0.0.1 (a free port;
#     robots.txt, a page, a page robots.txt refuses, a 404), never the internet; the 2026.10
#     release is started with --allow-private-ips, without which it refuses loopback.
# One line per server: identical / DIFFERS (with the first difference; -v all of them) / SKIPPED
# (could not start under the SDK: counted, never a pass). Exits non-zero on any difference that is
# not a row of the README's table of deliberate differences.
#
# MINIMCP_DIR=DIR tests minimcp.py (and the minimcp_*.py beside it) from DIR instead of this
# checkout; its README's table of deliberate differences is the one applied.
#
# Usage: tests/interop/run_reference_servers.sh [--only PACKAGE | --only "PACKAGE VERSION"]... [-v] [-j N] [--keep DIR]
set -euo pipefail

# PIN:PACKAGE==VERSION,...: the packages of one generation and the SDK they run under.
SERVER_GROUPS=(
  "mcp==1.30.0:mcp-server-time==2026.8.18,mcp-server-git==2026.8.18,mcp-server-fetch==2026.8.18"
  "mcp==2.3.0:mcp-server-time==2026.10.19,mcp-server-git==2026.10.19,mcp-server-fetch==2026.10.24"
)

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
die() { echo "run_reference_servers.sh: $*" >&2; exit 1; }

# shellcheck source=official_servers.sh
. "$here/official_servers.sh"  # official_stage_begin, official_client, official_stage_run

official_stage_begin reference-servers "the driver needs it"
command -v git >/dev/null || die "git is needed (mcp-server-git works on a repository the stage makes)"
official_client

groups=()
for group in "${SERVER_GROUPS[@]}"; do groups+=(--group "$group"); done
official_stage_run reference "${groups[@]}" "$@"
