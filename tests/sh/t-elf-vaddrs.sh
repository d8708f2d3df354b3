#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# makedumpfile -E of a QEMU dump (segments with physical addresses only):
# the written segments carry kernel virtual addresses, as kexec's
# /proc/vmcore gives them: the kernel image's, then the direct map's.
#  - the shared QEMU dumps: readelf shows kernel addresses only; through
#    the file's own segments, init_uts_ns (at the guest's kallsyms address)
#    holds VMCOREINFO's release, and pages hold what the guest's page
#    tables map at their addresses (python3-libkdumpfile on the input);
#    read back here, the file gives the guest's kallsyms;
#  - the generator's QEMU layout, 4- and 5-level paging: the addresses of
#    its kexec layout of the same memory;
#  - drgn reads init_uts_ns.name.release, where it and the 6.1 debuginfo
#    (linux-image-6.1.0-57-amd64-dbg) are installed;
#  - an arm64 QEMU dump keeps its addresses (elf_vaddrs.h says why).
. "$(dirname "$0")/../lib.sh" || exit 2

VADDRS="$PYTHON $PROJECT/tests/py/elfvaddrs.py"

# user_loads ELF: the PT_LOADs readelf shows below the kernel half.
user_loads() {
	readelf -l -W "$1" | awk '$1 == "LOAD" && $3 !~ /^0xf/' | grep . && return 1
	readelf -l -W "$1" | grep -Eq 'LOAD +0x[0-9a-f]+ 0xffffffff[89a-f]' || { echo "no kernel image PT_LOAD"; return 1; }
}

for guest in 6.1-qemu 7.2-qemu; do
	qemu=$(fixture $guest.elf) || { skip "elf-vaddrs-$guest" "no $VMCORES/$guest"; continue; }
	# Level 4: errors and warnings only.
	if ! "$MDF" -f -E -d 31 --message-level 4 "$qemu" "$WORK/$guest.elf" 2>"$WORK/$guest.err"; then
		fail "elf-vaddrs-$guest" "$(tail -n 3 "$WORK/$guest.err")"
		continue
	fi
	check "elf-vaddrs-$guest-silent" test ! -s "$WORK/$guest.err"
	check "elf-vaddrs-$guest-readelf" user_loads "$WORK/$guest.elf"
	check "elf-vaddrs-$guest-reads" $VADDRS kernel "$WORK/$guest.elf" "$qemu" "$VMCORES/$guest"
	# Read back here, a kexec-layout dump now: the guest's own kallsyms.
	"$MDF" -f --dump-kallsyms "$WORK/$guest.elf" "$WORK/$guest.kallsyms" >/dev/null 2>&1
	check "elf-vaddrs-$guest-reread-kallsyms" cmp <(grep -v $'\t\\[' "$WORK/$guest.kallsyms") \
		<(guest_kernel_kallsyms $guest)
	rm -f "$WORK/$guest.kallsyms"
	[ $guest = 6.1-qemu ] || rm -f "$WORK/$guest.elf"
done

ours=$WORK/6.1-qemu.elf
vmlinux=/usr/lib/debug/boot/vmlinux-6.1.0-57-amd64
if [ ! -s "$ours" ]; then
	skip elf-vaddrs-drgn "no -E file of 6.1-qemu"
elif ! "$PYTHON" -c 'import drgn' 2>/dev/null; then
	skip elf-vaddrs-drgn "no drgn for $PYTHON (python3-drgn)"
elif [ ! -s "$vmlinux" ]; then
	skip elf-vaddrs-drgn "no $vmlinux (linux-image-6.1.0-57-amd64-dbg)"
else
	release=$(sed -n 's/^OSRELEASE=//p' "$VMCORES/6.1-qemu/vmcoreinfo.txt")
	got=$(timeout 300 "$PYTHON" -c '
import sys, drgn
prog = drgn.Program()
prog.set_core_dump(sys.argv[1])
prog.load_debug_info([sys.argv[2]])
print(prog["init_uts_ns"].name.release.string_().decode())' "$ours" "$vmlinux" 2>&1)
	[ "$got" = "$release" ] && pass elf-vaddrs-drgn ||
		fail elf-vaddrs-drgn "drgn read '$(echo "$got" | tail -n 1)', VMCOREINFO says $release"
fi
rm -f "$ours"

GEN=$TOOLS/mkvmcore
if [ ! -x "$GEN" ]; then
	skip elf-vaddrs-gen "no $GEN"
else
	for paging in 4 5; do
		if "$GEN" --sparse --paging $paging --layout qemu "$WORK/qemu.elf" >/dev/null 2>&1 &&
			"$GEN" --sparse --paging $paging --layout kexec "$WORK/kexec.elf" >/dev/null 2>&1 &&
			"$MDF" -f -E -d 31 --message-level 0 "$WORK/qemu.elf" "$WORK/out.elf" &&
			"$MDF" -f -E -d 31 --message-level 0 "$WORK/kexec.elf" "$WORK/kept.elf"; then
			check "elf-vaddrs-gen-l$paging-kexec" $VADDRS kexec "$WORK/out.elf" "$WORK/kexec.elf"
			# A kexec dump keeps its own addresses.
			check "elf-vaddrs-gen-l$paging-kexec-kept" $VADDRS kexec "$WORK/kept.elf" "$WORK/kexec.elf"
		else
			fail "elf-vaddrs-gen-l$paging" "mkvmcore or makedumpfile -E failed"
		fi
		rm -f "$WORK"/*.elf
	done
fi

arm64=$(fixture 6.1-arm64-qemu.elf)
if [ -z "$arm64" ]; then
	skip elf-vaddrs-arm64 "no $VMCORES/6.1-arm64-qemu"
elif "$MDF" -f -E -d 31 --message-level 4 "$arm64" "$WORK/arm64.elf" 2>"$WORK/arm64.err"; then
	# The input's physical addresses, as upstream copies them.
	check elf-vaddrs-arm64-kept-physical test -z "$(readelf -l -W "$WORK/arm64.elf" |
		awk '$1 == "LOAD" && $3 != $4')"
	check elf-vaddrs-arm64-silent test ! -s "$WORK/arm64.err"
	rm -f "$WORK/arm64.elf"
else
	fail elf-vaddrs-arm64 "$(tail -n 3 "$WORK/arm64.err")"
fi
