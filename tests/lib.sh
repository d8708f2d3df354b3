# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers for the test scripts; sourced by tests/run.sh and by each
# tests/t-*.sh it runs.  Results go to $RESULTS, one "pass|fail|skip NAME"
# line each, and are counted by run.sh.

: "${MDF:?MDF must name the makedumpfile binary}"
: "${TOOLS:?TOOLS must name the directory of the test tools}"
: "${PROJECT:?}"
SHARED=${SHARED:-$(cd "$PROJECT/.." && pwd)/shared}
VMCORES=$SHARED/vmcores
FIXTURES=${FIXTURES:-$PROJECT/build/fixtures}
PYTHON=/usr/bin/python3
# Tell a sanitizer report from an ordinary failure exit.
export ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=99:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:exitcode=98:print_stacktrace=1}

pass() { echo "pass $1" >>"$RESULTS"; echo "  PASS $1"; }
fail() { echo "fail $1" >>"$RESULTS"; echo "  FAIL $1: $2"; }
skip() { echo "skip $1" >>"$RESULTS"; echo "  SKIP $1: $2"; }

# fixture NAME: path of a decompressed fixture prepared by run.sh, or
# nothing (status 1) when its source is absent from ../shared.
fixture() {
	[ -s "$FIXTURES/$1" ] || return 1
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

# extension_dir NAME FROM SO...: a new trusted directory under $WORK holding
# FROM/SO.so for each SO, as makedumpfile accepts extension directories.
extension_dir() {
	local dir=$WORK/$1 from=$2
	shift 2
	rm -rf "$dir" && mkdir -p "$dir" && chmod 0755 "$dir"
	for so in "$@"; do install -m 0644 "$from/$so.so" "$dir/"; done
	echo "$dir"
}
