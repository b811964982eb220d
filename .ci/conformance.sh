#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance)
# against checks/src/bin/mcp_server.rs over streamable HTTP: the server scenarios
# this crate's MCP server implements, every one required to pass.
#
# Installs the suite and Node 22 (the npm package `node`, for systems whose
# Node is older) under .ci/.conformance/, which git ignores.
set -euo pipefail
cd "$(dirname "$0")/.."

SUITE_VERSION=0.1.16
NODE_VERSION=22.23.3
PORT="${CONFORMANCE_PORT:-3917}"
PREFIX=.ci/.conformance

echo "== @modelcontextprotocol/conformance@$SUITE_VERSION (npm), node@$NODE_VERSION"
npm install --prefix "$PREFIX" --no-audit --no-fund --loglevel=error \
    "@modelcontextprotocol/conformance@$SUITE_VERSION" "node@$NODE_VERSION"
NODE="$PWD/$PREFIX/node_modules/.bin/node"
SUITE="$PWD/$PREFIX/node_modules/@modelcontextprotocol/conformance/dist/index.js"
"$NODE" --version

# The server as `cargo test --workspace --all-features` builds it (the
# tests run it too), so after the tests in CI this builds nothing.
echo "== the mcp_server binary (cargo test --workspace --all-features --no-run)"
cargo test --workspace --all-features --no-run --quiet
SERVER_BIN="${CARGO_TARGET_DIR:-target}/debug/mcp_server"

"$SERVER_BIN" --port "$PORT" 2>"$PREFIX/server.log" &
SERVER_PID=$!
trap 'kill "$SERVER_PID" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then break; fi
    sleep 0.1
done

# Every `tools-call-*` scenario of this version of the suite, and the rest
# by name.
mapfile -t TOOLS_CALL < <("$NODE" "$SUITE" list | grep -o 'tools-call-[a-z0-9-]*' | sort -u)
SCENARIOS=(server-initialize ping logging-set-level tools-list "${TOOLS_CALL[@]}"
    json-schema-2020-12 elicitation-sep1034-defaults elicitation-sep1330-enums)

failed=()
cd "$PREFIX"
for scenario in "${SCENARIOS[@]}"; do
    echo "== $scenario"
    if ! "$NODE" "$SUITE" server --url "http://127.0.0.1:$PORT/mcp" --scenario "$scenario"; then
        failed+=("$scenario")
    fi
done

echo "== ${#SCENARIOS[@]} scenarios, ${#failed[@]} failed${failed:+: ${failed[*]}}"
[ "${#failed[@]}" -eq 0 ]
