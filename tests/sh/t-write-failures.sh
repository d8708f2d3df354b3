#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Writes that fail: one message naming the file, what was being written,
# where, why and how far the dump got; exit status 1; and never a file
# that looks complete but is not.
#  - kdump-compressed: on a full device, a full file system (a small
#    tmpfs), a file size limit, an I/O error, a short write, a failed
#    fsync (the last three by tests/tools/failio.so): the file is kept
#    with DUMP_DH_COMPRESSED_INCOMPLETE in its header and descriptors only
#    of pages it holds; our reader and python3-libkdumpfile read it, each
#    page it has with the ELF dump's bytes;
#  - a device (/dev/full) is never removed, an existing file never
#    overwritten without -f;
#  - ELF (-E) on a full file system: kept with DUMP_ELF_INCOMPLETE in
#    e_flags and program headers only of data it holds, also when the disk
#    fills before the first segment is done (a 10 MiB tmpfs): the segment
#    cut short holds the input's pages;
#  - -d with a list of levels on a full file system: written again at the
#    next level, as upstream (-d 0,31 on a 40 MiB tmpfs: upstream's -d 31
#    file, or --split parts); when every level fills the disk, the last is
#    kept incomplete;
#  - a split part that fails is kept incomplete, and --reassemble makes
#    an incomplete dump of it;
#  - a pipe without -F, and a reader of -F's stream that goes away.
. "$(dirname "$0")/../lib.sh" || exit 2

elf=$(fixture 6.1-kdump.elf) || { skip write-failures "no $VMCORES/6.1-kdump"; exit 0; }
FAILIO=$TOOLS/failio.so
CHECK="$PYTHON $PROJECT/tests/py/incompletecheck.py $TOOLS/dumpread"
# The preloaded library is not built with the sanitizers: let ASan start anyway.
export ASAN_OPTIONS=$ASAN_OPTIONS:verify_asan_link_order=0

# failio NAME OP ERRNO AFTER MESSAGE: a dump to $WORK/NAME.kdump whose
# writes fail as failio.so is told; the run must fail with MESSAGE.
failio() {
	local name=$1 op=$2 errno=$3 after=$4 message=$5
	rm -f "$WORK/$name.kdump"
	expect_failure "write-failures-$name" "$message" env LD_PRELOAD="$FAILIO" \
		FAILIO_PATH="$WORK/$name.kdump" FAILIO_OP="$op" FAILIO_ERRNO="$errno" \
		FAILIO_AFTER="$after" "$MDF" -l -d 1 "$elf" "$WORK/$name.kdump"
}

expect_failure write-failures-dev-full "/dev/full: cannot write .*No space left on device; stopped after" \
	"$MDF" -f -d 1 "$elf" /dev/full
[ -c /dev/full ] && pass write-failures-dev-full-kept || fail write-failures-dev-full-kept "/dev/full is gone"

: >"$WORK/exists.kdump"
expect_failure write-failures-refuses-overwrite "exists.kdump: already exists; use -f" \
	"$MDF" -d 1 "$elf" "$WORK/exists.kdump"
[ -e "$WORK/exists.kdump" ] && pass write-failures-refuses-overwrite-kept ||
	fail write-failures-refuses-overwrite-kept "the existing file was removed"

expect_failure write-failures-file-size-limit "limited.kdump: cannot write .*File too large; stopped after [0-9]+ bytes, at page [0-9]+ of [0-9]+" \
	bash -c 'trap "" XFSZ; ulimit -f 8192; exec "$0" "$@"' "$MDF" -l -d 1 "$elf" "$WORK/limited.kdump"
grep -q "limited.kdump: kept incomplete, [1-9][0-9]* of [0-9]* pages written" "$WORK/stderr" &&
	check write-failures-file-size-limit-kept $CHECK "$WORK/limited.kdump" "$elf" --pages 100 ||
	fail write-failures-file-size-limit-kept "$(tail -n 1 "$WORK/stderr")"
rm -f "$WORK/limited.kdump"

mnt=$WORK/tiny
mkdir -p "$mnt"
if mount -t tmpfs -o size=3m tmpfs "$mnt" 2>/dev/null; then
	expect_failure write-failures-enospc "full.kdump: cannot write .*No space left on device; stopped after [0-9]+ bytes, at page" \
		"$MDF" -l -d 1 "$elf" "$mnt/full.kdump"
	# A full tmpfs cannot map the file's holes: readers get room first.
	mount -o remount,size=64m "$mnt"
	check write-failures-enospc-kept $CHECK "$mnt/full.kdump" "$elf" --pages 100
	rm -f "$mnt/full.kdump"
	mount -o remount,size=60m "$mnt"
	expect_failure write-failures-elf-enospc "full.elf: cannot write .*No space left on device" \
		"$MDF" -E -d 31 "$elf" "$mnt/full.elf"
	mount -o remount,size=256m "$mnt"
	check write-failures-elf-enospc-kept $PYTHON "$PROJECT/tests/py/elfcheck.py" incomplete "$mnt/full.elf"
	check write-failures-elf-enospc-reads "$TOOLS/dumpread" "$mnt/full.elf" info
	rm -f "$mnt/full.elf"
	mount -o remount,size=10m "$mnt"
	expect_failure write-failures-elf-first-segment "early.elf: cannot write .*No space left on device" \
		"$MDF" -E -d 31 "$elf" "$mnt/early.elf"
	mount -o remount,size=256m "$mnt"
	check write-failures-elf-first-segment-kept $PYTHON "$PROJECT/tests/py/elfcheck.py" incomplete \
		"$mnt/early.elf"
	check write-failures-elf-first-segment-pages $PYTHON "$PROJECT/tests/py/pagesmatch.py" \
		"$mnt/early.elf" "$elf"
	rm -f "$mnt/early.elf"

	mount -o remount,size=40m "$mnt"
	upstream_d31=$FIXTURES/upstream/6.1-kdump.d31.kdump
	if "$MDF" -l -d 0,31 "$elf" "$mnt/levels.kdump" >"$WORK/levels.out" 2>&1; then
		if [ -s "$upstream_d31" ]; then
			check write-failures-levels-next cmp "$mnt/levels.kdump" "$upstream_d31"
		else
			skip write-failures-levels-next "no upstream -d 31 file of 6.1-kdump"
		fi
		check write-failures-levels-retry-message grep -q \
			"^Retry to create a dumpfile by dump_level(31)\.$" "$WORK/levels.out"
	else
		fail write-failures-levels-next "-l -d 0,31 failed: $(tail -n 2 "$WORK/levels.out")"
	fi
	rm -f "$mnt/levels.kdump"
	# --split too: at -d 0 the second part fills the disk, the first (done)
	# goes with it, and every part is written again at 31: upstream's parts.
	parts=$(for i in 1 2 3 4 5 6 7 8; do echo "$mnt/part$i"; done)
	upstream=$(command -v makedumpfile || true)
	# shellcheck disable=SC2086  # the parts are words
	if "$MDF" --split --splitblock-size 4096 -l -d 0,31 "$elf" $parts >"$WORK/split-levels.out" 2>&1; then
		check write-failures-split-levels-retry-message grep -q \
			"^Retry to create a dumpfile by dump_level(31)\.$" "$WORK/split-levels.out"
		if [ -z "$upstream" ]; then
			skip write-failures-split-levels-next "no upstream makedumpfile"
		else
			# shellcheck disable=SC2046
			"$upstream" --split --splitblock-size 4096 -l -d 31 "$elf" \
				$(for i in 1 2 3 4 5 6 7 8; do echo "$WORK/up-part$i"; done) >/dev/null 2>&1
			bad=
			for i in 1 2 3 4 5 6 7 8; do
				cmp -s "$mnt/part$i" "$WORK/up-part$i" || bad+="$i "
			done
			if [ -z "$bad" ]; then pass write-failures-split-levels-next
			else fail write-failures-split-levels-next "parts not upstream's -d 31 ones: $bad"; fi
			rm -f "$WORK"/up-part?
		fi
	else
		fail write-failures-split-levels-next "--split -l -d 0,31 failed: $(tail -n 2 "$WORK/split-levels.out")"
	fi
	rm -f $parts
	expect_failure write-failures-levels-all-full "levels.kdump: cannot write .*No space left on device" \
		"$MDF" -l -d 0,1 "$elf" "$mnt/levels.kdump"
	mount -o remount,size=128m "$mnt"
	check write-failures-levels-all-full-kept $CHECK "$mnt/levels.kdump" "$elf" --pages 100
	umount "$mnt"
else
	skip write-failures-enospc "cannot mount a small tmpfs here (needs root)"
fi

if [ ! -s "$FAILIO" ]; then
	skip write-failures-failio "no $FAILIO"
else
	failio eio write 5 10000000 "eio.kdump: cannot write the page data .*Input/output error; stopped after"
	check write-failures-eio-kept $CHECK "$WORK/eio.kdump" "$elf" --pages 100
	failio short short 0 10000000 "short.kdump: cannot write the page data .*No space left on device"
	check write-failures-short-kept $CHECK "$WORK/short.kdump" "$elf" --pages 100
	failio fsync fsync 5 0 "fsync.kdump: cannot sync the written data to the device \(fsync\): Input/output error"
	check write-failures-fsync-kept $CHECK "$WORK/fsync.kdump" "$elf" --all
	# Before a page is copied there is nothing worth keeping.
	failio early write 28 0 "early.kdump: cannot write the disk header .*No space left on device"
	[ -e "$WORK/early.kdump" ] && fail write-failures-early-removed "early.kdump left behind" ||
		pass write-failures-early-removed
	rm -f "$WORK"/*.kdump

	# A split part that fails: kept incomplete, and its reassembly incomplete too.
	if env LD_PRELOAD="$FAILIO" FAILIO_PATH="$WORK/p3" FAILIO_AFTER=10000000 "$MDF" -f --split \
		--splitblock-size 4096 -l -d 1 --message-level 4 "$elf" "$WORK/p1" "$WORK/p2" "$WORK/p3" \
		>"$WORK/split.out" 2>&1; then
		fail write-failures-split "the split run succeeded"
	else
		check write-failures-split-part-kept $CHECK "$WORK/p3" "$elf" --pages 100
		"$MDF" -f --reassemble "$WORK/p1" "$WORK/p2" "$WORK/p3" "$WORK/re.kdump" \
			>"$WORK/re.out" 2>&1 || fail write-failures-reassemble-incomplete "$(tail -n 2 "$WORK/re.out")"
		check write-failures-reassemble-incomplete $CHECK "$WORK/re.kdump" "$elf" --pages 1000
	fi
	rm -f "$WORK"/p? "$WORK/re.kdump"
fi

expect_failure write-failures-pipe-needs-flatten "standard output: cannot seek.*use the flattened format" \
	bash -c '"$0" "$@" | cat >/dev/null; exit ${PIPESTATUS[0]}' "$MDF" -d 1 "$elf" -
expect_failure write-failures-flat-reader-gone "the reader of the flattened stream went away" \
	bash -c '"$0" "$@" | head -c 100000 >/dev/null; exit ${PIPESTATUS[0]}' "$MDF" -F -d 1 "$elf"
