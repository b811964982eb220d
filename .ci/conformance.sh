#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance)
# against checks/src/bin/mcp_server.rs over streamable HTTP, at both
# protocol revisions the server speaks: every server scenario of the pinned
# suite, each either required to pass (REQUIRED_*) or known not to yet
# (NOT_YET_*, with the reason). A failure of a required scenario fails the
# script; a known one is tallied as known; a scenario the suite lists that
# the script does not fails it too, so a new one is never missed.
#
# Installs the suite and Node 22 (the npm package `node`, for systems whose
# Node is older) under .ci/.conformance/, which git ignores. Set
# MCP_SERVER_BIN to a built `mcp_server` to skip the build.
set -euo pipefail
cd "$(dirname "$0")/.."

SUITE_VERSION=0.2.0-alpha.12
NODE_VERSION=22.23.3
PORT="${CONFORMANCE_PORT:-3917}"
PREFIX=.ci/.conformance

# Each revision's server scenarios this server passes, every one required.
REQUIRED_2025_11_25=(
    server-initialize server-session-lifecycle ping logging-set-level tools-list
    tools-call-simple-text tools-call-image tools-call-audio tools-call-embedded-resource
    tools-call-mixed-content tools-call-with-logging tools-call-error tools-call-with-progress
    tools-call-sampling tools-call-elicitation json-schema-2020-12
    elicitation-sep1034-defaults elicitation-sep1330-enums
    server-sse-multiple-streams dns-rebinding-protection
    completion-complete resources-list resources-read-text resources-read-binary
    resources-templates-read resources-subscribe resources-unsubscribe prompts-list
    prompts-get-simple prompts-get-with-args prompts-get-embedded-resource prompts-get-with-image
    server-sse-polling
)
# At 2026-07-28 every CallToolResult carries `resultType` (the revision's
# schema requires it): the tools-call-* scenarios check it.
REQUIRED_2026_07_28=(
    tools-list tools-call-simple-text tools-call-image tools-call-audio
    tools-call-embedded-resource tools-call-mixed-content tools-call-error
    tools-call-with-progress json-schema-2020-12 server-sse-multiple-streams dns-rebinding-protection
    http-header-validation http-custom-header-server-validation sep-2164-resource-not-found
    input-required-result-unsupported-methods server-stateless caching
    completion-complete resources-list resources-read-text resources-read-binary
    resources-templates-read prompts-list prompts-get-simple prompts-get-with-args
    prompts-get-embedded-resource prompts-get-with-image
    input-required-result-basic-elicitation input-required-result-request-state
    input-required-result-multi-round input-required-result-result-type
    input-required-result-tampered-state input-required-result-missing-input-response
    input-required-result-ignore-extra-params input-required-result-validate-input
    input-required-result-basic-sampling input-required-result-basic-list-roots
    input-required-result-multiple-input-requests input-required-result-non-tool-request
    input-required-result-capability-check
)

# The tasks extension's scenarios (SEP-2663), which the suite runs off the
# spec timeline (no --spec-version), at 2026-07-28.
REQUIRED_EXTENSION=(
    tasks-lifecycle tasks-capability-negotiation tasks-wire-fields tasks-request-state-removal
    tasks-request-headers tasks-dispatch-and-envelope tasks-status-notifications
    tasks-required-task-error tasks-mrtr-composition tasks-mrtr-input
)

# Known not to pass yet: scenario, then why (none at either revision).
declare -A NOT_YET_2025_11_25=()
declare -A NOT_YET_2026_07_28=()
declare -A NOT_YET_EXTENSION=()
# Not asked of this server: the skills extension.
NOT_ASKED='^sep-2640-'

echo "== @modelcontextprotocol/conformance@$SUITE_VERSION (npm), node@$NODE_VERSION"
npm install --prefix "$PREFIX" --no-audit --no-fund --loglevel=error \
    "@modelcontextprotocol/conformance@$SUITE_VERSION" "node@$NODE_VERSION"
NODE="$PWD/$PREFIX/node_modules/.bin/node"
SUITE="$PWD/$PREFIX/node_modules/@modelcontextprotocol/conformance/dist/index.js"
"$NODE" --version

if [ -n "${MCP_SERVER_BIN:-}" ]; then
    SERVER_BIN="$MCP_SERVER_BIN"
else
    # The server as `cargo test --workspace --all-features` builds it (the
    # tests run it too), so after the tests in CI this builds nothing.
    echo "== the mcp_server binary (cargo test --workspace --all-features --no-run)"
    cargo test --workspace --all-features --no-run --quiet
    SERVER_BIN="${CARGO_TARGET_DIR:-target}/debug/mcp_server"
fi

"$SERVER_BIN" --port "$PORT" 2>"$PREFIX/server.log" &
SERVER_PID=$!
trap 'kill "$SERVER_PID" 2>/dev/null || true; rm -rf "${OUT:-}"' EXIT
for _ in $(seq 1 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then break; fi
    sleep 0.1
done

# Whether $1 is one of the rest.
holds() {
    local item=$1 each
    shift
    for each in "$@"; do
        [ "$each" = "$item" ] && return 0
    done
    return 1
}

# Runs scenario $1 against the server (the spec version, if any, in the
# rest), its output in $2 and its exit code in $2.rc.
run_one() {
    local scenario=$1 out=$2 status=0
    shift 2
    "$NODE" "$SUITE" server --url "http://127.0.0.1:$PORT/mcp" "$@" --scenario "$scenario" \
        >"$out" 2>&1 || status=$?
    echo "$status" >"$out.rc"
}
AT_ONCE=4

cd "$PREFIX"
OUT=$(mktemp -d)
tallies=()
broken=0
for version in 2025-11-25 2026-07-28 extension; do
    key=${version//-/_}
    key=${key^^}
    declare -n required="REQUIRED_$key" not_yet="NOT_YET_$key"
    # An extension's scenarios are off the spec timeline: listed and run
    # without a spec version.
    if [ "$version" = extension ]; then
        spec=()
        mapfile -t listed < <("$NODE" "$SUITE" list --server |
            sed -n 's/^ *- \([a-z0-9-]*\) \[extension\].*/\1/p' | grep -Ev "$NOT_ASKED")
    else
        spec=(--spec-version "$version")
        mapfile -t listed < <("$NODE" "$SUITE" list --server "${spec[@]}" |
            sed -n 's/^ *- \([a-z0-9-]*\).*/\1/p' | grep -Ev "$NOT_ASKED")
    fi
    # A few scenarios at once (each is mostly the suite waiting on the
    # server); `wait` names their pids, never the server's.
    pids=() running=0
    for at in "${!listed[@]}"; do
        if [ "$running" -ge "$AT_ONCE" ]; then
            wait -n "${pids[@]}" || true
            running=$((running - 1))
        fi
        run_one "${listed[$at]}" "$OUT/$version-$at" "${spec[@]}" &
        pids+=($!)
        running=$((running + 1))
    done
    wait "${pids[@]}" || true
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
