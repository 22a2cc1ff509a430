#!/usr/bin/env bash
# Runs a command on Node 24 LTS (scripts/node24.sh brings it when the machine's Node is older), so
# that `npm start` and the test commands work as the README gives them on a machine whose own Node
# is 20: npm ci may run on that Node (better-sqlite3 13 is a Node-API addon, built once for every
# Node version), the server and the tests then run on 24.
set -e
. "$(dirname "$0")/node24.sh"
exec "$@"
