#!/usr/bin/env bash
# The house rules a reader can see at a glance, checked after `cargo doc`:
# no source file of the crate over 450 lines (one concept per file), and
# at most 85 public items on the all-items page of the crate's docs.
set -euo pipefail
cd "$(dirname "$0")/.."

MAX_LINES=450
MAX_ITEMS=85

long=$(find src -name '*.rs' -exec wc -l {} + | awk -v max="$MAX_LINES" '$2 != "total" && $1 > max { print "  " $2 ": " $1 " lines" }')
if [ -n "$long" ]; then
    echo "files in src/ over $MAX_LINES lines:"
    echo "$long"
    exit 1
fi

page="${CARGO_TARGET_DIR:-target}/doc/toolresult/all.html"
[ -f "$page" ] || { echo "$page is missing: run cargo doc --all-features first"; exit 1; }
items=$(grep -o '<li><a href="[^"#]*"' "$page" | wc -l)
echo "public items: $items (at most $MAX_ITEMS); longest file in src/: $(find src -name '*.rs' -exec wc -l {} + | grep -v ' total$' | sort -n | tail -1 | awk '{print $1 " lines, " $2}')"
[ "$items" -le "$MAX_ITEMS" ]
