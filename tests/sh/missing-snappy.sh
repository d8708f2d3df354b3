#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# missing-snappy.sh MDF DUMP WORK: run by t-compress.sh where libsnappy.so.1
# cannot be loaded; exits 0 when -p fails and says why, reading a -p dump
# ($WORK/snappy.kdump) fails the same way, neither leaves an output file,
# and -l still works.
mdf=$1 dump=$2 work=$3

expect_failure() {
	out=$1
	shift
	if "$mdf" "$@" >"$work/missing-run.log" 2>&1; then
		echo "FAIL: $* succeeded without libsnappy"
		exit 1
	fi
	if ! grep -q 'libsnappy.so.1' "$work/missing-run.log"; then
		echo "FAIL: $* did not name libsnappy.so.1: $(tail -n 2 "$work/missing-run.log")"
		exit 1
	fi
	if [ -e "$out" ]; then
		echo "FAIL: $* left $out"
		exit 1
	fi
}

expect_failure "$work/missing-p.kdump" -f -p -d 31 --no-extensions "$dump" "$work/missing-p.kdump"
expect_failure "$work/missing-r.kdump" -f -l -d 31 --no-extensions "$work/snappy.kdump" \
	"$work/missing-r.kdump"
if ! "$mdf" -f -l -d 31 --no-extensions "$dump" "$work/missing-l.kdump" >"$work/missing-run.log" 2>&1; then
	echo "FAIL: -l failed without libsnappy: $(tail -n 2 "$work/missing-run.log")"
	exit 1
fi
