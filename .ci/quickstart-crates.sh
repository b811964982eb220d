#!/usr/bin/env bash
# The crates a cold `cargo run --example quickstart` builds, from cargo's
# own plan of that build (the unit graph of `cargo build --example
# quickstart`, which resolves as `cargo run` does; `-Z unstable-options` is why
# RUSTC_BOOTSTRAP is set): the crate under its default features, its
# dev-dependencies (cargo builds all of them for an example), with the
# features cargo unifies over the default members. Nothing is compiled.
# Fails above the limit the README promises a newcomer.
set -euo pipefail
cd "$(dirname "$0")/.."

LIMIT=60
crates=$(RUSTC_BOOTSTRAP=1 cargo build --example quickstart --unit-graph -Z unstable-options \
    | grep -o '"pkg_id":"[^"]*"' | sed -e 's/"pkg_id":"//' -e 's/"$//' -e 's/.*#//' | sort -u)
count=$(grep -c . <<<"$crates")
tr "\n" " " <<<"$crates" | fold -s -w 100
echo
echo "== cargo run --example quickstart builds $count crates (limit $LIMIT)"
[ "$count" -le "$LIMIT" ]
