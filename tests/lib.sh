# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers for the test scripts; sourced by tests/run.sh and by each
# tests/sh/t-*.sh it runs.  Results go to $RESULTS, one "pass|fail|skip NAME"
# line each, and are counted by run.sh.
#
# A test script also runs on its own, given what run.sh would give it:
#   mkdir -p build/test-work/t-flat && WORK=build/test-work/t-flat \
#   MDF=makedumpfile TOOLS=build/obj/tests bash tests/sh/t-flat.sh
# (its results then go to $WORK/results).  Every variable the helpers and
# the scripts rely on is checked or defaulted here: the scripts write to
# "$WORK/..." and remove under it, so an unset WORK would mean "/".

lib_refuse() {
	echo "${0##*/}: $*" >&2
	exit 2
}

[ -n "${MDF:-}" ] || lib_refuse "MDF must name the makedumpfile binary under test (make check sets it)"
[ -x "$MDF" ] && [ ! -d "$MDF" ] || lib_refuse "MDF=$MDF is not an executable file"
[ -n "${TOOLS:-}" ] || lib_refuse "TOOLS must name the directory of the built test tools, build/obj/tests (make check sets it)"
[ -d "$TOOLS" ] || lib_refuse "TOOLS=$TOOLS is not a directory (make tests builds it)"
[ -n "${WORK:-}" ] || lib_refuse "WORK must name this test's scratch directory, e.g. build/test-work/NAME (tests/run.sh sets it)"
[ -d "$WORK" ] || lib_refuse "WORK=$WORK is not a directory"
# Absolute, so that a script may cd; and never the root, which the scripts
# would fill and clean.
WORK=$(cd "$WORK" && pwd) || lib_refuse "cannot enter WORK=$WORK"
[ "$WORK" != / ] || lib_refuse "WORK must not be /"
TOOLS=$(cd "$TOOLS" && pwd)
case $MDF in /*) ;; *) MDF=$(cd "$(dirname "$MDF")" && pwd)/$(basename "$MDF") ;; esac
PROJECT=${PROJECT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
[ -f "$PROJECT/tests/lib.sh" ] || lib_refuse "PROJECT=$PROJECT is not the project's top directory"
RESULTS=${RESULTS:-$WORK/results}
[ -d "$(dirname "$RESULTS")" ] || lib_refuse "RESULTS=$RESULTS is not in an existing directory"
MDF_SANITIZE=${MDF_SANITIZE:-}
export MDF TOOLS WORK PROJECT RESULTS MDF_SANITIZE
SHARED=${SHARED:-$(cd "$PROJECT/.." && pwd)/shared}
VMCORES=$SHARED/vmcores
FIXTURES=${FIXTURES:-$PROJECT/build/fixtures}
PYTHON=/usr/bin/python3
# Tell a sanitizer report from an ordinary failure exit.
export ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=99:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:exitcode=98:print_stacktrace=1}

# The suite's last lines: the skips, then "N passed, N failed"; fails
# when any test failed.
summarize_results() {
	local passed failed skipped
	passed=$(grep -c '^pass ' "$RESULTS")
	failed=$(grep -c '^fail ' "$RESULTS")
	skipped=$(grep -c '^skip ' "$RESULTS")
	[ "$skipped" -gt 0 ] && echo "$skipped skipped (their fixture or tool is absent):" &&
		grep '^skip ' "$RESULTS" | sed 's/^skip /  /'
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}

pass() { echo "pass $1" >>"$RESULTS"; echo "  PASS $1"; }
fail() { echo "fail $1" >>"$RESULTS"; echo "  FAIL $1: $2"; }
skip() { echo "skip $1" >>"$RESULTS"; echo "  SKIP $1: $2"; }

# fixture NAME: path of a decompressed fixture prepared by run.sh, or
# nothing (status 1) when its source is absent from ../shared.  A fixture
# left in build/ by an earlier run does not count without ../shared: the
# tests check it against the guest's files there.
fixture() {
	[ -s "$FIXTURES/$1" ] && [ -d "$VMCORES" ] || return 1
	echo "$FIXTURES/$1"
}

# The kernel lines (no "[module]") of a dump's guest kallsyms.
guest_kernel_kallsyms() {
	grep -v $'\t\\[' "$VMCORES/$1/guest/kallsyms.txt"
}

# check NAME CMD...: pass when CMD succeeds, else fail with the end of its
# output (kept in $WORK/NAME.log).
check() {
	local name=$1
	shift
	if "$@" >"$WORK/$name.log" 2>&1; then
		pass "$name"
	else
		fail "$name" "$(tail -n 5 "$WORK/$name.log")"
	fi
}

# same NAME GOT EXPECTED: pass when the two files are the same, else fail
# with the start of their difference.
same() {
	if cmp -s "$2" "$3"; then
		pass "$1"
	else
		fail "$1" "$(diff "$2" "$3" | head -n 6)"
	fi
}

# expect_failure NAME PATTERN CMD...: CMD must exit 1 (not crash, not hang,
# not a sanitizer report) and print PATTERN (an ERE) on stderr.
expect_failure() {
	local name=$1 pattern=$2 status
	shift 2
	timeout 60 "$@" >"$WORK/stdout" 2>"$WORK/stderr"
	status=$?
	if [ $status -eq 124 ]; then
		fail "$name" "timed out: $*"
	elif [ $status -ne 1 ]; then
		fail "$name" "exit status $status (want 1): $(head -c 600 "$WORK/stderr")"
	elif ! grep -Eq -- "$pattern" "$WORK/stderr"; then
		fail "$name" "stderr lacks /$pattern/: $(head -c 600 "$WORK/stderr")"
	else
		pass "$name"
	fi
}

# expect_warning NAME PATTERN CMD...: CMD must succeed (exit 0, within a
# minute) and print PATTERN (an ERE) on stderr as a warning.
expect_warning() {
	local name=$1 pattern=$2 status
	shift 2
	timeout 60 "$@" >"$WORK/stdout" 2>"$WORK/stderr"
	status=$?
	if [ $status -ne 0 ]; then
		fail "$name" "exit status $status (want 0): $(head -c 600 "$WORK/stderr")"
	elif ! grep -Eq -- "warning: .*$pattern" "$WORK/stderr"; then
		fail "$name" "stderr lacks /warning: .*$pattern/: $(head -c 600 "$WORK/stderr")"
	else
		pass "$name"
	fi
}

# extension_dir NAME FROM SO...: a new trusted directory under $WORK holding
# FROM/SO.so for each SO, as makedumpfile accepts extension directories.
extension_dir() {
	local dir=$WORK/$1 from=$2
	shift 2
	rm -rf "$dir" && mkdir -p "$dir" && chmod 0755 "$dir"
	for so in "$@"; do install -m 0644 "$from/$so.so" "$dir/"; done
	echo "$dir"
}
