#!/usr/bin/env bash
# Builds Jaeger's web UI (the separate JavaScript project jaegertracing/jaeger-ui, a vite monorepo)
# from a source tree and installs its static assets into the project's cache, as
# `<cache root>/jaeger-ui-v<version>/` (index.html and static/), where test/support/jaeger-server.ts
# finds them and hands them to Jaeger (`jaeger_query: ui: assets_path:`). The Jaeger the tests run
# is a Go build of the module (scripts/ensure-jaeger.ts), which has no UI of its own; the npm
# registry has no built jaeger-ui either, so the UI is built from source once, by hand, by someone
# who can reach GitHub. CI cannot, and never runs this: there the screenshots fall back to the
# trace drawn from the query API (test/support/jaeger-screenshot.ts).
#
# Use the jaeger-ui release paired with the Jaeger the tests run (v1.75.0 for Jaeger v1.75.0/v2.12.0):
#
#   git clone --branch v1.75.0 --depth 1 https://github.com/jaegertracing/jaeger-ui /tmp/jaeger-ui-src
#   bash scripts/build-jaeger-ui.sh /tmp/jaeger-ui-src      # prints the installed folder
#
# An exported tree without .git works too (`git archive v1.75.0 | tar -x -C dir`); then set
# JAEGER_UI_COMMIT to the commit it came from, for the build record the folder keeps
# (jaeger-ui-build.txt). DURABLE_MCP_HOST_CACHE / XDG_CACHE_HOME move the cache root, as for the
# other cached binaries (src/temporal/cli-cache.ts).
#
# About 2.5 minutes (npm ci 1 min, vite build 1.5 min). Notes on the build:
# - jaeger-ui asks for Node >= 24 with engine-strict in its .npmrc; it builds with the project's
#   Node 20 (vite 7 needs 20.19+), so the install overrides engine-strict.
# - npm 11 leaves the dependencies' install scripts unapproved; none is needed: esbuild's binary
#   comes from its optional package @esbuild/linux-x64 (checked below), core-js's only prints a
#   banner, unrs-resolver's only checks a binary eslint uses. The root `prepare` (which builds the
#   plexus workspace the UI imports) does run.
# - packages/jaeger-ui's build computes a tracking version with scripts/get-tracking-version.js,
#   which fails under the root's "type": "module" (a require in ESM) and leaves it empty; it only
#   feeds the UI's optional analytics, off by default.
# The assets are copied into a temp folder next to the target and renamed, so an interrupted run
# leaves no half folder behind; an earlier build of the same version is replaced.
set -euo pipefail

if [[ $# -ne 1 || ! -f "$1/packages/jaeger-ui/package.json" ]]; then
  echo "usage: $0 <jaeger-ui source directory> (a checkout of github.com/jaegertracing/jaeger-ui)" >&2
  exit 2
fi
src="$(cd "$1" && pwd)"
expected_version="1.75.0" # JAEGER_UI_VERSION in test/support/jaeger-server.ts
version="$(node -p "require('$src/packages/jaeger-ui/package.json').version")"
if [[ "$version" != "$expected_version" ]]; then
  echo "warning: this is jaeger-ui $version; the tests look for v$expected_version" >&2
fi
commit="${JAEGER_UI_COMMIT:-$(git -C "$src" rev-parse HEAD 2>/dev/null || echo unknown)}"
cache_root="${DURABLE_MCP_HOST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/durable-mcp-host}"
target="$cache_root/jaeger-ui-v$version"

started=$SECONDS
echo "installing jaeger-ui $version ($commit) dependencies in $src" >&2
(cd "$src" && npm ci --engine-strict=false --no-audit --no-fund >&2)
(cd "$src" && node -e "require('esbuild').transformSync('')") || {
  echo "esbuild does not run: approve its install script (npm install-scripts approve esbuild) and rerun" >&2
  exit 1
}

echo "building jaeger-ui (vite)" >&2
(cd "$src/packages/jaeger-ui" && npm run build >&2)
build="$src/packages/jaeger-ui/build"
[[ -f "$build/index.html" ]] || { echo "the build wrote no $build/index.html" >&2; exit 1; }

mkdir -p "$cache_root"
partial="$target.partial-$$"
trap 'rm -rf "$partial" "$target.old-$$"' EXIT
rm -rf "$target".partial-*
cp -r "$build" "$partial"
cat >"$partial/jaeger-ui-build.txt" <<EOF
jaeger-ui $version, commit $commit
built $(date -u +%Y-%m-%dT%H:%M:%SZ) in $((SECONDS - started))s with node $(node --version), npm $(npm --version)
by scripts/build-jaeger-ui.sh: npm ci --engine-strict=false; npm run build (packages/jaeger-ui)
EOF
if [[ -e "$target" ]]; then mv "$target" "$target.old-$$"; fi
mv "$partial" "$target"
echo "$target"
