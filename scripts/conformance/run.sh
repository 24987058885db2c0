#!/usr/bin/env bash
# Runs the MCP conformance suite's client scenarios against the host's MCP client (see
# docs/conformance.md): installs the suite into its prefix when needed, then runs run.ts on the
# project's Node. Arguments: scenario names to run (default: every client scenario of the suite).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
MCP_CONFORMANCE_PREFIX="$(bash "$here/install.sh")"
export MCP_CONFORMANCE_PREFIX
cd "$here/../.."
exec node --import tsx "$here/run.ts" "$@"
