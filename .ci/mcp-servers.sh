#!/usr/bin/env bash
# The MCP servers this repository did not write that checks/tests consumes
# (`checks/tests/mcp_everything.rs`): the reference server
# `@modelcontextprotocol/server-everything`, and Node 22 to run it (the npm
# package `node`, for systems whose Node is older), under .ci/.conformance/
# beside the conformance suite (git ignores it).
#
# Source it to export where they are (`. .ci/mcp-servers.sh`), or run it
# to install them; the test finds them there either way.
set -euo pipefail

EVERYTHING_VERSION=2026.8.31
NODE_VERSION=22.23.3
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX="$ROOT/.ci/.conformance"

echo "== @modelcontextprotocol/server-everything@$EVERYTHING_VERSION (npm), node@$NODE_VERSION"
npm install --prefix "$PREFIX" --no-audit --no-fund --loglevel=error \
    "@modelcontextprotocol/server-everything@$EVERYTHING_VERSION" "node@$NODE_VERSION"
export MCP_NODE="$PREFIX/node_modules/.bin/node"
export MCP_EVERYTHING_SERVER="$PREFIX/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
"$MCP_NODE" --version
test -f "$MCP_EVERYTHING_SERVER"
