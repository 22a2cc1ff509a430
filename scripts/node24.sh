# Source this file (". scripts/node24.sh") to put the project's Node first on PATH in your shell.
# The project's Node is the `node` devDependency (Node 24 LTS, installed by npm ci into
# node_modules/node/bin). Every `npm run` script finds it first on PATH already, because npm puts
# node_modules/.bin there; this file is for commands you type yourself (node, npx tsx …).
almanac_root=$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)
if [ -x "$almanac_root/node_modules/node/bin/node" ]; then
  export PATH="$almanac_root/node_modules/node/bin:$PATH"
  hash -r
  echo "node24.sh: using node $(node --version) at $(command -v node)" >&2
else
  echo "node24.sh: the project's Node is not installed yet; run npm ci in $almanac_root first" >&2
fi
unset almanac_root
