#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs every tests/t-*.sh and the unit tests; prints "N passed, N failed".
# Fixtures from ../shared are decompressed once into build/fixtures and
# reused until their source changes.
set -u
PROJECT=$(cd "$(dirname "$0")/.." && pwd)
export PROJECT MDF TOOLS MDF_SANITIZE
export RESULTS=$PROJECT/build/test-results
export WORKROOT=$PROJECT/build/test-work
rm -rf "$WORKROOT" && mkdir -p "$WORKROOT"
: >"$RESULTS"
. "$PROJECT/tests/lib.sh"

"$PROJECT/tests/fixtures.sh" || echo "warning: fixture preparation failed; dependent tests will skip"

for unit in "$TOOLS"/unit/*; do
	[ -x "$unit" ] || continue
	name=unit-$(basename "$unit")
	if "$unit" >"$WORKROOT/$name.log" 2>&1; then
		pass "$name"
	else
		fail "$name" "$(tail -n 5 "$WORKROOT/$name.log")"
	fi
done

for script in "$PROJECT"/tests/t-*.sh; do
	name=$(basename "$script" .sh)
	echo "== $name"
	export WORK=$WORKROOT/$name
	mkdir -p "$WORK"
	bash "$script"
done

passed=$(grep -c '^pass ' "$RESULTS")
failed=$(grep -c '^fail ' "$RESULTS")
skipped=$(grep -c '^skip ' "$RESULTS")
[ "$skipped" -gt 0 ] && echo "$skipped skipped (their fixture or tool is absent):" && grep '^skip ' "$RESULTS" | sed 's/^skip /  /'
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
