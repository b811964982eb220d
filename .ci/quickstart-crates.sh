#!/usr/bin/env bash
# The crates a cold `cargo run --example quickstart` builds: the root
# package's normal dependencies under its default features, and its
# dev-dependencies (cargo builds every one of those for an example).
# Fails above the limit the README promises a newcomer.
set -euo pipefail
cd "$(dirname "$0")/.."

LIMIT=60
crates=$(cargo tree -p toolresult --edges normal,build,dev --prefix none \
    | sed -e 's/ (\*)$//' -e 's/ (proc-macro)//' | sort -u)
count=$(grep -c . <<<"$crates")
tr "\n" " " <<<"$crates" | fold -s -w 100; echo
echo "== cargo run --example quickstart builds $count crates (limit $LIMIT)"
[ "$count" -le "$LIMIT" ]
