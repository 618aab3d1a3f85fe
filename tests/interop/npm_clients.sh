# Sourced by run_ts_sdk.sh and run_inspector.sh: installs the pinned Node MCP clients
# (tests/interop/ts/package.json + package-lock.json: @modelcontextprotocol/sdk and
# @modelcontextprotocol/inspector-cli) into a throwaway directory with `npm ci`.
#
#   install_node_clients DIR    -> sets NODE_CLIENTS_NM=DIR/node_modules, or fails via die()
#
# A DIR that already holds an install of the same lockfile is reused (run_all.sh shares one).

TS_SDK_VERSION="1.32.2"
INSPECTOR_CLI_VERSION="1.0.3"

install_node_clients() {
  local dir="$1" lock="$here/ts/package-lock.json" major
  command -v node >/dev/null 2>&1 || die "node is not installed (the Node interop stages need Node >= 18 and npm)"
  command -v npm >/dev/null 2>&1 || die "npm is not installed (the Node interop stages need Node >= 18 and npm)"
  major="$(node -p 'process.versions.node.split(".")[0]')" || die "cannot run node"
  [ "$major" -ge 18 ] || die "Node $(node --version) is too old; @modelcontextprotocol/sdk $TS_SDK_VERSION needs Node >= 18"
  mkdir -p "$dir" || die "cannot create $dir"
  if [ -f "$dir/.minimcp-lock" ] && cmp -s "$dir/.minimcp-lock" "$lock" && [ -d "$dir/node_modules" ]; then
    echo "# node clients: reusing $dir"
  else
    cp "$here/ts/package.json" "$lock" "$dir/" || die "cannot copy the package manifest to $dir"
    echo "# node clients: npm ci in $dir (node $(node --version), npm $(npm --version))"
    (cd "$dir" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error >&2) \
      || die "npm ci of @modelcontextprotocol/sdk@$TS_SDK_VERSION + @modelcontextprotocol/inspector-cli@$INSPECTOR_CLI_VERSION failed (network? registry?)"
    cp "$lock" "$dir/.minimcp-lock"
  fi
  NODE_CLIENTS_NM="$dir/node_modules"
  local got
  got="$(node -p "require('$NODE_CLIENTS_NM/@modelcontextprotocol/sdk/package.json').version" 2>/dev/null)" || got="(missing)"
  [ "$got" = "$TS_SDK_VERSION" ] || die "installed @modelcontextprotocol/sdk is $got, not $TS_SDK_VERSION"
  got="$(node -p "require('$NODE_CLIENTS_NM/@modelcontextprotocol/inspector-cli/package.json').version" 2>/dev/null)" || got="(missing)"
  [ "$got" = "$INSPECTOR_CLI_VERSION" ] || die "installed @modelcontextprotocol/inspector-cli is $got, not $INSPECTOR_CLI_VERSION"
  # the Inspector CLI must drive the same pinned SDK (package.json "overrides" dedupes it to the top level)
  [ ! -e "$NODE_CLIENTS_NM/@modelcontextprotocol/inspector-cli/node_modules/@modelcontextprotocol/sdk" ] \
    || die "the Inspector CLI got its own copy of @modelcontextprotocol/sdk instead of the pinned $TS_SDK_VERSION"
}
