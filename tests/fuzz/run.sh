#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/fuzz/run.sh quick|fuzz BUILD SECONDS: runs each harness BUILD/fuzz_NAME
# (make fuzz builds them), one at a time:
#
#  1. every input of tests/fuzz/regressions/NAME, once each: the crashes
#     found before, which must stay fixed;
#  2. quick: every input of the corpus once (BUILD/corpus/NAME, the seeds
#     corpus.py made and what fuzzing added, and tests/fuzz/seeds/NAME);
#     fuzz: fuzzing from that corpus for SECONDS seconds, new inputs
#     going to BUILD/corpus/NAME; with FUZZ_CPU set in the environment,
#     SECONDS of the harness's CPU time (cpu_budget.py), not of the clock.
#
# A crash, a hang (-timeout), a leak or more than -rss_limit_mb fails the
# harness; libFuzzer writes the input to BUILD/artifacts/NAME-*, to be
# replayed with BUILD/fuzz_NAME FILE and, once understood, kept in
# tests/fuzz/regressions/NAME.  Each harness's log is BUILD/logs/NAME.log.
# Prints a line per harness (runs, coverage, time) and exits 1 if any
# failed.
set -u
mode=$1 build=$2 seconds=$3
here=$(dirname "$0")
limits=(-timeout=10 -rss_limit_mb=2048)
export UBSAN_OPTIONS=print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}
mkdir -p "$build/artifacts" "$build/logs"
failed=0

# The directories of @1 that exist, for libFuzzer's command line.
existing_dirs() {
	for dir in "$@"; do
		[ -d "$dir" ] && echo "$dir"
	done
}

for harness in "$build"/fuzz_*; do
	name=${harness##*/fuzz_}
	log=$build/logs/$name.log
	artifacts=-artifact_prefix=$build/artifacts/$name-
	regressions=$here/regressions/$name
	mkdir -p "$build/corpus/$name"
	mapfile -t corpus < <(existing_dirs "$build/corpus/$name" "$here/seeds/$name" "$regressions")
	: >"$log"
	start=$SECONDS
	status=0
	mapfile -t replays < <(find "$regressions" -type f 2>/dev/null | sort)
	if [ ${#replays[@]} -gt 0 ]; then
		"$harness" "${limits[@]}" "$artifacts" "${replays[@]}" >>"$log" 2>&1 || status=$?
	fi
	if [ $status -eq 0 ] && [ "$mode" = quick ]; then
		"$harness" "${limits[@]}" "$artifacts" -runs=0 "${corpus[@]}" >>"$log" 2>&1 || status=$?
	elif [ $status -eq 0 ] && [ -n "${FUZZ_CPU:-}" ]; then
		"$here/cpu_budget.py" "$seconds" "$harness" "${limits[@]}" "$artifacts" -print_final_stats=1 \
			"${corpus[@]}" >>"$log" 2>&1 || status=$?
	elif [ $status -eq 0 ]; then
		"$harness" "${limits[@]}" "$artifacts" -max_total_time="$seconds" -print_final_stats=1 \
			"${corpus[@]}" >>"$log" 2>&1 || status=$?
	fi
	# libFuzzer's last status line: "#RUNS INITED|NEW|REDUCE|pulse|DONE cov: C ft: F corp: ..."
	stats=$(grep -aE '^#[0-9]+[[:space:]]+[A-Za-z]+[[:space:]]+cov:' "$log" | tail -n 1 |
		sed -E 's/^#([0-9]+)[[:space:]]+[A-Z]+[[:space:]]+cov: ([0-9]+) ft: ([0-9]+).*/\1 runs, cov \2, ft \3/')
	cpu=$(sed -n 's/^cpu \([0-9]*\)$/, cpu \1s/p' "$log" | tail -n 1)
	printf '%-12s %s, %d regressions, %ds%s' "$name" "${stats:-no runs}" ${#replays[@]} \
		$((SECONDS - start)) "$cpu"
	if [ $status -ne 0 ]; then
		failed=1
		echo ": FAILED (exit $status)"
		grep -aE 'ERROR: |SUMMARY: |Test unit written|ALARM|out-of-memory' "$log" | head -n 8 | sed 's/^/    /'
	else
		echo
	fi
done
exit $failed
