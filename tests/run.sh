#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs the unit tests and every tests/sh/t-*.sh; prints "N passed, N failed".
# Fixtures from ../shared are decompressed once into build/fixtures and
# reused until their source changes.
#
# usage: MDF=BIN TOOLS=DIR tests/run.sh [NAME...]   (make check [T=NAME])
# With NAMEs (arguments, else $T; spaces or commas between them) it runs
# only those tests; see usage() for how a test is named.
set -u
PROJECT=$(cd "$(dirname "$0")/.." && pwd)
# Checked here too, before anything is removed, and not only by lib.sh.
: "${MDF:?MDF must name the makedumpfile binary under test (make check sets it)}"
: "${TOOLS:?TOOLS must name the directory of the built test tools, build/obj/tests (make check sets it)}"
MDF_SANITIZE=${MDF_SANITIZE:-}
export PROJECT MDF TOOLS MDF_SANITIZE
export RESULTS=$PROJECT/build/test-results
export WORKROOT=$PROJECT/build/test-work

usage() {
	echo "tests/run.sh: $1" >&2
	cat >&2 <<-EOF
		Name a test (make check T=NAME, or several: T="NAME NAME") as
		  the script tests/sh/t-kallsyms.sh:  T=t-kallsyms or T=kallsyms
		  the unit test of tests/unit/test_codec.c:  T=unit-test_codec or T=test_codec
		Test scripts: $(cd "$PROJECT/tests/sh" && ls t-*.sh | sed 's/\.sh$//' | paste -sd' ')
		Unit tests:   $(ls "$TOOLS/unit" 2>/dev/null | sed 's/^/unit-/' | paste -sd' ')
	EOF
	exit 2
}

# The selection, resolved before the previous run's logs are removed, so
# that a misspelt name costs nothing.
units=()
scripts=()
names=${*:-${T:-}}
if [ -z "${names//[ ,]/}" ]; then
	for unit in "$TOOLS"/unit/*; do
		[ -x "$unit" ] && units+=("$unit")
	done
	scripts=("$PROJECT"/tests/sh/t-*.sh)
else
	# read, not a bare expansion, so that no name is globbed.
	read -ra list <<<"${names//,/ }"
	for name in "${list[@]}"; do
		# Also a path, as completion gives it: tests/sh/t-flat.sh.
		name=${name##*/}
		name=${name%.sh}
		found=
		script=$PROJECT/tests/sh/t-${name#t-}.sh
		[ -f "$script" ] && scripts+=("$script") && found=1
		unit=$TOOLS/unit/${name#unit-}
		[ -f "$unit" ] && [ -x "$unit" ] && units+=("$unit") && found=1
		[ -n "$found" ] || usage "no test is named \"$name\""
	done
fi

rm -rf "$WORKROOT" && mkdir -p "$WORKROOT"
: >"$RESULTS"
WORK=$WORKROOT
. "$PROJECT/tests/lib.sh"

"$PROJECT/tests/fixtures.sh" || echo "warning: fixture preparation failed; dependent tests will skip"

for unit in ${units[@]+"${units[@]}"}; do
	name=unit-$(basename "$unit")
	if "$unit" >"$WORKROOT/$name.log" 2>&1; then
		pass "$name"
	else
		fail "$name" "$(tail -n 5 "$WORKROOT/$name.log")"
	fi
done

for script in ${scripts[@]+"${scripts[@]}"}; do
	name=$(basename "$script" .sh)
	echo "== $name"
	export WORK=$WORKROOT/$name
	mkdir -p "$WORK"
	before=$(wc -l <"$RESULTS")
	bash "$script"
	status=$?
	# A script that records nothing died early (lib.sh refused, or it
	# crashed): not a pass, and not silence either.
	[ "$(wc -l <"$RESULTS")" -gt "$before" ] || fail "$name" "recorded no result (exit status $status)"
done

summarize_results
