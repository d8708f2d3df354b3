#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Kernel virtual addresses translate to the physical addresses that
# VMCOREINFO and kexec's program headers imply; the architecture tables'
# layout of the kernel's address space (the image, the direct map,
# vmalloc, vmemmap) is what the guest's kallsyms, /proc/iomem and the
# kernel's own variables, read by libkdumpfile, say (tests/py/layoutcheck.py).
. "$(dirname "$0")/../lib.sh" || exit 2

for guest in 6.1-qemu 6.1-kdump 7.2-qemu; do
	if dump=$(fixture "$guest.elf"); then
		# The shared guests have 512 or 768 MiB of RAM: below 1 GiB.
		if $PYTHON "$PROJECT/tests/py/vtopcheck.py" "$TOOLS/dumpread" "$dump" \
			"$VMCORES/$guest/vmcoreinfo.txt" --ram-below-1g >"$WORK/$guest.log" 2>&1; then
			pass "vtop-$guest"
		else
			fail "vtop-$guest" "$(tail -n 4 "$WORK/$guest.log")"
		fi
	else
		skip "vtop-$guest" "no $VMCORES/$guest/vmcore.elf.zst"
	fi
done

for guest in 6.1-qemu 6.1-kdump 7.2-qemu 6.1-arm64-qemu 6.1-arm64-kdump; do
	if ! dump=$(fixture "$guest.elf"); then
		skip "layout-$guest" "no $VMCORES/$guest/vmcore.elf.zst"
	elif ! $PYTHON -c 'import kdumpfile' 2>/dev/null; then
		skip "layout-$guest" "python3-libkdumpfile is not installed"
	elif $PYTHON "$PROJECT/tests/py/layoutcheck.py" "$TOOLS/dumpread" "$dump" "$VMCORES/$guest" \
		>"$WORK/layout-$guest.log" 2>&1; then
		pass "layout-$guest"
	else
		fail "layout-$guest" "$(tail -n 4 "$WORK/layout-$guest.log")"
	fi
done
