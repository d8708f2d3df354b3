#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# --dump-dmesg VMCORE LOGFILE:
#  - the shared dumps (lockless ring buffer of 6.1 and 7.2): every line of
#    the guest's own dmesg, in order, with its timestamp; on the kexec-layout
#    forms, upstream makedumpfile 1.7.2's output byte for byte; QEMU's
#    layout gives what its relayouted copy gives;
#  - a generated dump: the generator's facts;
#  - the record buffer of kernels 3.5 to 5.9 and the text buffer before
#    3.5, made from a generated dump (tests/py/mklogbuf.py): the expected
#    lines, and upstream's output for the record buffer.
. "$(dirname "$0")/../lib.sh" || exit 2

UPSTREAM=$(command -v makedumpfile || true)

# dmesg NAME DUMP: our log of DUMP in $WORK/NAME.log, or a failure.
dmesg() {
	rm -f "$WORK/$1.log"
	"$MDF" --dump-dmesg "$2" "$WORK/$1.log" >"$WORK/$1.out" 2>&1 && return 0
	fail "dmesg-$1" "$(tail -n 3 "$WORK/$1.out")"
	return 1
}

for guest in 6.1-kdump 6.1-qemu 7.2-qemu; do
	dump=$(fixture "$guest.elf") || { skip "dmesg-$guest" "no $VMCORES/$guest"; continue; }
	dmesg "$guest" "$dump" || continue
	check "dmesg-$guest-guest-lines" $PYTHON "$PROJECT/tests/py/dmesgcheck.py" "$WORK/$guest.log" \
		"$VMCORES/$guest/guest/dmesg.txt"
	check "dmesg-$guest-saved-message" grep -q "^The dmesg log is saved to $WORK/$guest.log\.$" \
		"$WORK/$guest.out"
	kexec=$dump
	if [ "$guest" != 6.1-kdump ]; then
		kexec=$(fixture "$guest.relayout.elf") || continue
		dmesg "$guest-relayout" "$kexec" &&
			check "dmesg-$guest-layouts-agree" cmp "$WORK/$guest.log" "$WORK/$guest-relayout.log"
	fi
	if [ -n "$UPSTREAM" ]; then
		rm -f "$WORK/up.log"
		if "$UPSTREAM" --dump-dmesg "$kexec" "$WORK/up.log" >"$WORK/up.out" 2>&1; then
			check "dmesg-$guest-upstream" cmp "$WORK/$guest.log" "$WORK/up.log"
		else
			fail "dmesg-$guest-upstream" "upstream failed: $(tail -n 2 "$WORK/up.out")"
		fi
	fi
done

: >"$WORK/exists.log"
dump=$(fixture 6.1-kdump.elf) &&
	expect_failure dmesg-refuses-overwrite "exists.log: already exists; use -f" \
		"$MDF" --dump-dmesg "$dump" "$WORK/exists.log"

GEN=$TOOLS/mkvmcore
if [ ! -x "$GEN" ]; then
	skip dmesg-gen "no $GEN"
	exit 0
fi
if ! "$GEN" --sparse --layout kexec --facts "$WORK/gen.facts" "$WORK/gen.elf" >/dev/null 2>&1; then
	fail dmesg-gen "mkvmcore failed"
	exit 0
fi
dmesg gen "$WORK/gen.elf" &&
	check dmesg-gen-facts diff "$WORK/gen.log" <(sed -n 's/^dmesg //p' "$WORK/gen.facts")
vaddr=$("$TOOLS/dumpread" "$WORK/gen.elf" symbol __log_buf | awk '{ print $2 }')
paddr=$("$TOOLS/dumpread" "$WORK/gen.elf" vtop "$vaddr" | awk '{ print $2 }')
for mode in records text; do
	cp --sparse=always "$WORK/gen.elf" "$WORK/$mode.elf"
	if ! $PYTHON "$PROJECT/tests/py/mklogbuf.py" "$WORK/$mode.elf" "$vaddr" "$paddr" "$mode" \
		"$WORK/$mode" >"$WORK/$mode.mk" 2>&1; then
		fail "dmesg-log-buf-$mode" "mklogbuf.py: $(tail -n 2 "$WORK/$mode.mk")"
		continue
	fi
	dmesg "log-buf-$mode" "$WORK/$mode.elf" &&
		check "dmesg-log-buf-$mode" cmp "$WORK/log-buf-$mode.log" "$WORK/$mode.expected"
	# Upstream takes a kernel's version from its utsname: 6.1 here, so not the text buffer.
	if [ -n "$UPSTREAM" ] && [ "$mode" = records ]; then
		rm -f "$WORK/up.log"
		"$UPSTREAM" --dump-dmesg "$WORK/$mode.elf" "$WORK/up.log" >/dev/null 2>&1
		check dmesg-log-buf-records-upstream cmp "$WORK/log-buf-$mode.log" "$WORK/up.log"
	fi
	rm -f "$WORK/$mode.elf"
done
rm -f "$WORK/gen.elf"
