#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# makedumpfile writing kdump-compressed files from the shared dumps, against
# upstream makedumpfile 1.7.2's output for the same input
# (build/fixtures/upstream, made by tests/fixtures.sh):
#  - at dump levels 0, 1 and 31 with lzo our file is upstream's byte for
#    byte; its header fields, field by field, and its report too;
#  - every codec, with one cycle and with many, plain and flattened: every
#    page reads back equal to the ELF's through python3-libkdumpfile and our
#    own reader, and upstream re-filters it (-d 31) into its own -d 31 file;
#  (write failures are t-write-failures.sh's).
. "$(dirname "$0")/../lib.sh" || exit 2

UPSTREAM=$(command -v makedumpfile || true)
CHECK="$PYTHON $PROJECT/tests/py/writercheck.py"


# write NAME ARGS...: runs makedumpfile -f ARGS; its stdout and stderr go
# to $WORK/NAME.out and NAME.err.  Fails the test NAME-write when it fails.
write() {
	local name=$1
	shift
	"$MDF" -f "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" && return 0
	fail "$name-write" "makedumpfile $*: $(tail -n 3 "$WORK/$name.err")"
	return 1
}

# refilter NAME FILE ORACLE: upstream makedumpfile -l -d 31 takes FILE as
# input and writes what it writes from the ELF dump (ORACLE).
refilter() {
	local name=$1 file=$2 oracle=$3
	if [ -z "$UPSTREAM" ] || [ ! -s "$oracle" ]; then
		skip "$name" "needs upstream makedumpfile and $oracle"
		return
	fi
	if ! "$UPSTREAM" -f -l -d 31 "$file" "$WORK/refiltered.kdump" >"$WORK/$name.log" 2>&1; then
		fail "$name" "upstream makedumpfile -d 31 rejects it: $(tail -n 3 "$WORK/$name.log")"
	else
		check "$name" cmp "$WORK/refiltered.kdump" "$oracle"
	fi
	rm -f "$WORK/refiltered.kdump"
}

for name in 6.1-kdump 6.1-qemu.relayout; do
	t=writer-$name
	elf=$(fixture "$name.elf") || { skip "$t" "no $VMCORES/${name%.relayout}"; continue; }
	oracle=$FIXTURES/upstream/$name
	if [ ! -s "$oracle.d0.kdump" ] || [ ! -s "$oracle.d1.kdump" ]; then
		skip "$t-upstream" "upstream makedumpfile's output for $name is absent"
		oracle=
	fi
	for level in 0 1; do
		write "$t-d$level" -l -d $level --message-level 31 "$elf" "$WORK/d$level.kdump" || continue
		if [ -n "$oracle" ]; then
			check "$t-d$level-headers" $CHECK headers "$WORK/d$level.kdump" "$oracle.d$level.kdump"
			check "$t-d$level-identical" cmp "$WORK/d$level.kdump" "$oracle.d$level.kdump"
			check "$t-d$level-report" $CHECK report "$WORK/$t-d$level.out" \
				"$oracle.d$level.kdump.log" "$WORK/d$level.kdump"
			check "$t-d$level-pfns" $CHECK pfnset "$WORK/d$level.kdump" "$oracle.d0.kdump"
		fi
	done
	[ -s "$WORK/d1.kdump" ] || continue
	# Upstream's progress line, redrawn with \r, ends at 100 %.
	check "$t-progress" grep -Eq $'\rCopying data {38}: \\[100\\.0 %\\] [-/|\\\\] {11}eta: 0s$' \
		"$WORK/$t-d1.err"
	write "$t-quiet" -l -d 1 --message-level 30 "$elf" "$WORK/quiet.kdump" &&
		check "$t-no-progress-without-bit-1" bash -c '! grep -q "Copying data  " "$0"' \
			"$WORK/$t-quiet.err"
	rm -f "$WORK/quiet.kdump"
	check "$t-d1-pages" $CHECK pages "$TOOLS/dumpread" "$WORK/d1.kdump" "$elf"
	refilter "$t-d1-refiltered" "$WORK/d1.kdump" "$FIXTURES/upstream/$name.d31.kdump"

	# Many cycles (--cyclic-buffer KiB: 8192 pfns per KiB): two passes, the same file.
	for kib in 1 3; do
		write "$t-cycle$kib" -l -d 1 --cyclic-buffer $kib --message-level 0 "$elf" \
			"$WORK/cycle.kdump" &&
			check "$t-cycle$kib-identical" cmp "$WORK/cycle.kdump" "$WORK/d1.kdump"
		rm -f "$WORK/cycle.kdump"
	done

	# Flattened, reassembled by upstream and by us.
	if write "$t-flat" -F -l -d 1 --message-level 31 "$elf"; then
		mv "$WORK/$t-flat.out" "$WORK/flat"
		check "$t-flat-report-on-stderr" grep -q "^Write bytes     : " "$WORK/$t-flat.err"
		"$MDF" -R "$WORK/ours-R.kdump" <"$WORK/flat" >/dev/null 2>&1
		check "$t-flat-R" cmp "$WORK/ours-R.kdump" "$WORK/d1.kdump"
		if [ -n "$UPSTREAM" ]; then
			"$UPSTREAM" -R "$WORK/upstream-R.kdump" <"$WORK/flat" >/dev/null 2>&1
			check "$t-flat-upstream-R" cmp "$WORK/upstream-R.kdump" "$WORK/d1.kdump"
		fi
		rm -f "$WORK/flat" "$WORK"/*-R.kdump
	fi

	# Every codec; upstream 1.7.2 is built without snappy and zstd.
	for codec in none: zlib:-c snappy:-p zstd:-z; do
		option=${codec#*:}
		codec=${codec%:*}
		write "$t-$codec" $option -d 1 --message-level 0 "$elf" "$WORK/$codec.kdump" || continue
		check "$t-$codec-pages" $CHECK pages "$TOOLS/dumpread" "$WORK/$codec.kdump" "$elf"
		[ -n "$oracle" ] && check "$t-$codec-headers" $CHECK headers "$WORK/$codec.kdump" \
			"$oracle.d1.kdump" --differ status
		case $codec in none | zlib)
			refilter "$t-$codec-refiltered" "$WORK/$codec.kdump" \
				"$FIXTURES/upstream/$name.d31.kdump" ;;
		esac
		rm -f "$WORK/$codec.kdump"
	done

	# Dump level 31, classified by page_scan.c: upstream's file exactly.
	if [ -n "$oracle" ] && [ -s "$oracle.d31.kdump" ]; then
		write "$t-d31" -l -d 31 --message-level 31 "$elf" "$WORK/d31.kdump" &&
			check "$t-d31-identical" cmp "$WORK/d31.kdump" "$oracle.d31.kdump" &&
			check "$t-d31-report" $CHECK report "$WORK/$t-d31.out" "$oracle.d31.kdump.log" \
				"$WORK/d31.kdump"
	fi
	rm -f "$WORK"/*.kdump
done
