#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Pages read through our input code equal python3-libkdumpfile's reads:
# every marker page, random pages, and pages outside the dump's ranges.
. "$(dirname "$0")/../lib.sh" || exit 2

check_pages() {
	local name=$1 dump=$2 markers=$3
	if $PYTHON "$PROJECT/tests/py/pagecheck.py" "$TOOLS/dumpread" "$dump" --markers "$markers" \
		--random 3000 --outside 50 >"$WORK/$name.log" 2>&1; then
		pass "$name"
	else
		fail "$name" "$(tail -n 4 "$WORK/$name.log")"
	fi
}

for guest in 6.1-qemu 6.1-kdump 7.2-qemu; do
	if dump=$(fixture "$guest.elf"); then
		check_pages "pages-$guest-elf" "$dump" "$VMCORES/$guest/marker-pfns.txt"
	else
		skip "pages-$guest-elf" "no $VMCORES/$guest/vmcore.elf.zst"
	fi
done

flat=$VMCORES/6.1-qemu/vmcore.qemu-kdump-zlib.flat
if [ ! -s "$flat" ]; then
	skip pages-6.1-qemu-kdump-zlib "no $flat"
elif "$MDF" -R "$WORK/qemu.kdump" <"$flat" 2>"$WORK/reassemble.err"; then
	check_pages pages-6.1-qemu-kdump-zlib "$WORK/qemu.kdump" "$VMCORES/6.1-qemu/marker-pfns.txt"
	rm -f "$WORK/qemu.kdump"
else
	fail pages-6.1-qemu-kdump-zlib "-R failed: $(head -c 400 "$WORK/reassemble.err")"
fi
