#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance)
# against checks/src/bin/mcp_client.rs (`McpClient` and a `Toolbox`), at both
# protocol revisions: every client scenario of the pinned suite, each either
# required to pass (REQUIRED_*) or known not to yet (NOT_YET_*, with the
# reason). A failure of a required scenario fails the script; a known one is
# tallied as known; a scenario the suite lists that the script does not name
# fails it too, so a new one is never missed.
#
# Installs the suite and Node 22 under .ci/.conformance/ (as
# .ci/conformance.sh does; git ignores it). Set MCP_CLIENT_BIN to a built
# `mcp_client` to skip the build.
set -euo pipefail
cd "$(dirname "$0")/.."

SUITE_VERSION=0.2.0-alpha.12
NODE_VERSION=22.23.3
PREFIX=.ci/.conformance

# The authorization scenarios of both revisions.
AUTH=(
    metadata-default metadata-var1 metadata-var2 metadata-var3 basic-cimd
    scope-from-www-authenticate scope-from-scopes-supported scope-omitted-when-undefined
    scope-step-up scope-retry-limit token-endpoint-auth-basic token-endpoint-auth-post
    token-endpoint-auth-none pre-registration
)
REQUIRED_2025_11_25=(
    initialize tools_call elicitation-sep1034-client-defaults sse-retry
    json-schema-2020-12-preservation "${AUTH[@]/#/auth/}"
)
REQUIRED_2026_07_28=(
    tools_call request-metadata sep-2322-client-request-state http-standard-headers
    http-custom-headers http-invalid-tool-headers json-schema-ref-no-deref
    json-schema-2020-12-preservation "${AUTH[@]/#/auth/}"
    auth/resource-mismatch auth/offline-access-scope auth/offline-access-not-supported
    auth/authorization-server-migration auth/iss-supported auth/iss-not-advertised
    auth/iss-supported-missing auth/iss-wrong-issuer auth/iss-unexpected auth/iss-normalized
    auth/metadata-issuer-mismatch
)

# Known not to pass yet: scenario, then why (none now).
declare -A NOT_YET_2025_11_25=()
declare -A NOT_YET_2026_07_28=()
# Not asked of this client: the extensions (listed by neither revision).
NOT_ASKED='^(sep-2640-)'

echo "== @modelcontextprotocol/conformance@$SUITE_VERSION (npm), node@$NODE_VERSION"
npm install --prefix "$PREFIX" --no-audit --no-fund --loglevel=error \
    "@modelcontextprotocol/conformance@$SUITE_VERSION" "node@$NODE_VERSION"
NODE="$PWD/$PREFIX/node_modules/.bin/node"
SUITE="$PWD/$PREFIX/node_modules/@modelcontextprotocol/conformance/dist/index.js"
"$NODE" --version

if [ -n "${MCP_CLIENT_BIN:-}" ]; then
    CLIENT_BIN="$MCP_CLIENT_BIN"
else
    # Built by `cargo test --workspace --all-features` (a bin of the checks
    # package), so after the tests in CI this builds nothing.
    echo "== the mcp_client binary (cargo test --workspace --all-features --no-run)"
    cargo test --workspace --all-features --no-run --quiet
    CLIENT_BIN="$PWD/${CARGO_TARGET_DIR:-target}/debug/mcp_client"
fi

# Whether $1 is one of the rest.
holds() {
    local item=$1 each
    shift
    for each in "$@"; do
        [ "$each" = "$item" ] && return 0
    done
    return 1
}

# Runs scenario $2 at revision $1, its output in $3 and its exit code in
# $3.rc. Most of a run is the suite waiting on its mock server and the
# client: a few run at once.
run_one() {
    local status=0
    "$NODE" "$SUITE" client --command "$CLIENT_BIN" --spec-version "$1" --scenario "$2" \
        >"$3" 2>&1 || status=$?
    echo "$status" >"$3.rc"
}
AT_ONCE=3

cd "$PREFIX"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
tallies=()
broken=0
for version in 2025-11-25 2026-07-28; do
    key=${version//-/_}
    declare -n required="REQUIRED_$key" not_yet="NOT_YET_$key"
    mapfile -t listed < <("$NODE" "$SUITE" list --client --spec-version "$version" |
        sed -n 's/^ *- \([a-z0-9/_-]*\).*/\1/p' | grep -Ev "$NOT_ASKED")
    running=0
    for at in "${!listed[@]}"; do
        if [ "$running" -ge "$AT_ONCE" ]; then
            wait -n
            running=$((running - 1))
        fi
        run_one "$version" "${listed[$at]}" "$OUT/$version-$at" &
        running=$((running + 1))
    done
    wait
    passed=() failed=() known=() fixed=() unlisted=()
    for at in "${!listed[@]}"; do
        scenario=${listed[$at]}
        is_required=false
        if holds "$scenario" "${required[@]}"; then is_required=true; fi
        if ! $is_required && [ -z "${not_yet[$scenario]+set}" ]; then
            unlisted+=("$scenario")
        fi
        echo "== $version $scenario"
        cat "$OUT/$version-$at"
        if [ "$(cat "$OUT/$version-$at.rc")" = 0 ]; then
            passed+=("$scenario")
            [ -n "${not_yet[$scenario]+set}" ] && fixed+=("$scenario")
        elif $is_required; then
            failed+=("$scenario")
        else
            known+=("$scenario: ${not_yet[$scenario]:-in neither list}")
        fi
    done
    for name in "${required[@]}"; do
        if ! holds "$name" "${listed[@]}"; then
            failed+=("$name (required, but the suite does not list it at $version)")
        fi
    done
    tally="$version: ${#passed[@]} of ${#listed[@]} passed, ${#failed[@]} required failed, ${#known[@]} known not yet"
    tallies+=("$tally")
    echo "== $tally"
    for line in "${known[@]}"; do echo "   not yet: $line"; done
    for line in "${fixed[@]}"; do
        echo "   passes though not yet required (move it to REQUIRED_$key if it should): $line"
    done
    for line in "${unlisted[@]}"; do echo "   in neither list: $line"; done
    for line in "${failed[@]}"; do echo "   FAILED: $line"; done
    broken=$((broken + ${#failed[@]} + ${#unlisted[@]}))
    unset -n required not_yet
done

echo "== tally"
printf '   %s\n' "${tallies[@]}"
[ "$broken" -eq 0 ]
