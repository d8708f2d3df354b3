#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The real riscv64 dump of Debian trixie's 6.12 kernel (Sv57, RAM from
# 0x80000000, QEMU's ELF without a VMCOREINFO note), end to end with no
# -i, against what the guest saw of itself and against upstream head's
# riscv64 build (../shared/oracles/upstream-head-riscv64, which needed -i):
# - VMCOREINFO: the kernel's own note, found in memory at the address the
#   guest's /sys/kernel/vmcoreinfo gives, said once; -i still wins;
# - translation: _text and __bss_start where the guest's /proc/iomem puts
#   the kernel's code and bss, kernel and module symbols, the direct map
#   and vmemmap as a walk of the tables written in Python translates
#   them, and init_uts_ns holding `uname -r` (tests/py/riscv64vtop.py);
#   libkdumpfile 0.5.1 has no riscv64 translation to compare with;
# - --dump-kallsyms is guest/kallsyms.txt; --dump-dmesg has the guest's
#   dmesg;
# - -l -d 31 and -d 1 keep upstream's page sets (kdumpset.py's digests),
#   and so do -c, -z, -p, a flattened stream put back with -R, and split
#   files put back with --reassemble; -d 1 keeps every marker page, -d 31
#   none; the -d 31 file and the -E file give the same symbols and log;
# - --dump-type answers VMCOREINFO's own SIZE() and OFFSET() lines, and a
#   module's type from its BTF;
# - tasks (labprobe with its pid), labprobe's VMAs and its anonymous pages
#   at the guest's pfns (walkread);
# - extensions: labprobe_anon finds labprobe and drops its anonymous
#   pages; drm_shmem_filter at -d 1 drops exactly the vgem marker pfns;
#   user_stack_keep keeps labprobe's resident stack pages at -d 31; one
#   that discards a page of the kernel's page tables is warned of;
# - VMCOREINFO that contradicts the page tables (-i): VA_BITS of another
#   mode, a phys_ram_base or va_kernel_pa_offset off: a clear error each.
# And on generated riscv64 dumps (mkvmcore --arch riscv64) in Sv39, Sv48
# and Sv57, kexec's and QEMU's layouts: every translation the facts state
# (pages, napot groups, 2 MiB to 256 TiB leaves, memory-type bits) and
# every hole; in QEMU's layout the note found in memory past a stale one;
# a page-table loop, a table outside memory and VMCOREINFO of another
# mode are said, not followed.  The VMCOREINFO search is also run on the
# x86_64 QEMU dump with its note renamed.
. "$(dirname "$0")/../lib.sh" || exit 2
# The checks each architecture runs alike (guest_*, same, ...).
. "$(dirname "$0")/arch_checks.sh"

# ---- generated dumps: translation in each mode, the search, bad input ----
GEN=$TOOLS/mkvmcore
if [ -x "$GEN" ]; then
	if $PYTHON -c 'import addrxlat, sys; sys.exit(not hasattr(addrxlat, "PTE_RISCV64"))' 2>/dev/null; then
		kv=yes
	else
		kv=
		skip riscv64-gen-libkdumpfile "python3-libkdumpfile here has no riscv64 translation (no addrxlat.PTE_RISCV64)"
	fi
	for va in 39 48 57; do
		for layout in kexec qemu; do
			name=riscv64-gen-sv$va-$layout
			if ! "$GEN" --arch riscv64 --va-bits $va --layout $layout --facts "$WORK/$name.facts" \
				"$WORK/$name.elf" >"$WORK/$name.gen.log" 2>&1; then
				fail "$name" "mkvmcore failed: $(tail -n 2 "$WORK/$name.gen.log")"
				continue
			fi
			check "$name-vtop" $PYTHON "$PROJECT/tests/py/gencheck.py" "$TOOLS/dumpread" "$WORK/$name.elf" \
				"$WORK/$name.facts" vtop
			if [ $layout = kexec ] && [ -n "$kv" ]; then
				check "$name-libkdumpfile" $PYTHON "$PROJECT/tests/py/kvcheck.py" "$WORK/$name.elf" \
					"$WORK/$name.facts" 4096 5
			fi
			# Past the stale note.
			[ $layout = qemu ] && gen_vmcoreinfo_found "$name-vmcoreinfo-found" "$WORK/$name.elf" "$WORK/$name.facts"
			rm -f "$WORK/$name.elf"
		done
	done
	for layout in kexec qemu; do
		"$GEN" --arch riscv64 --layout $layout --damage loop "$WORK/loop.elf" >/dev/null 2>&1
		expect_failure riscv64-gen-page-table-loop-$layout \
			'page-table loop: walking 0xffffffff80002000, the table at 0x[0-9a-f]+ points back to the table at 0x[0-9a-f]+' \
			"$MDF" -f --dump-dmesg "$WORK/loop.elf" "$WORK/loop.log"
		"$GEN" --arch riscv64 --layout $layout --damage outside "$WORK/outside.elf" >/dev/null 2>&1
		expect_failure riscv64-gen-table-outside-memory-$layout \
			'the page table at 0x4000000000 is not in the dump \(address not in the dump.s memory\), but the one at 0x[0-9a-f]+ points there for SYMBOL\(_stext\)' \
			"$MDF" -f --dump-dmesg "$WORK/outside.elf" "$WORK/outside.log"
	done
	"$GEN" --arch riscv64 --vmcoreinfo-va-bits 48 "$WORK/lie.elf" >/dev/null 2>&1
	expect_failure riscv64-gen-va-bits-not-the-tables \
		'SYMBOL\(_stext\)=ffffffff80002000 is not mapped by the 4-level page tables at physical 0x[0-9a-f]+ that .*NUMBER\(VA_BITS\)=48' \
		"$MDF" -f --dump-dmesg "$WORK/lie.elf" "$WORK/lie.log"
	rm -f "$WORK"/{loop,outside,lie}.elf
else
	skip riscv64-gen "no $GEN"
fi

guest=6.12-riscv64-qemu
if ! dump=$(fixture "$guest.elf"); then
	skip "riscv64-$guest" "no $VMCORES/$guest/vmcore.elf.zst"
	exit 0
fi
g=(riscv64 "$guest" "$dump")
facts=$VMCORES/$guest/guest
vi=$VMCORES/$guest/vmcoreinfo.txt
oracle=$SHARED/oracles/upstream-head-riscv64
t=$WORK/$guest
mkdir -p "$t"

guest_vmcoreinfo_in_memory "${g[@]}"
same "riscv64-kallsyms-$guest" "$t/kallsyms" "$facts/kallsyms.txt"
check "riscv64-vtop-$guest" $PYTHON "$PROJECT/tests/py/riscv64vtop.py" "$TOOLS/dumpread" "$dump" "$vi" "$facts"
guest_dmesg "${g[@]}" dmesgcheck

# The page sets of upstream head (run with -i on a kexec-layout copy), with each writer.
oracle_digest() { sed -n '/^--- kdumpset.py pfns OUT ---$/{n;p;q}' "$oracle/results-d$1.txt"; }
for level in 1 31; do
	want=$(oracle_digest $level)
	[ -n "$want" ] || { skip "riscv64-d$level-$guest" "no digest in $oracle/results-d$level.txt"; continue; }
	guest_writers "${g[@]}" $level "$want" upstream any-order -l -c -z -p
done
check "riscv64-d1-markers-kept-$guest" $PYTHON "$PROJECT/tests/py/markerkinds.py" "$t/d1-p.kdump" \
	"$VMCORES/$guest/marker-pfns.txt" --kept anon,vgem,pagecache
check "riscv64-d31-markers-dropped-$guest" $PYTHON "$PROJECT/tests/py/markerkinds.py" "$t/d31-p.kdump" \
	"$VMCORES/$guest/marker-pfns.txt" --dropped anon,vgem,pagecache
want=$(oracle_digest 31)
guest_flattened "${g[@]}" "$want" upstream any-order
guest_split "${g[@]}" "$want" upstream any-order
# The -d 31 file is a dump of its own (the note found in it again).
guest_d31_readback riscv64 "$guest" "$t/d31-p.kdump" "$t/kallsyms"
guest_elf_readback "${g[@]}" "$t/kallsyms" any-order
rm -f "$t"/*.kdump

guest_dump_type "${g[@]}"
guest_dump_type_module "${g[@]}" drm_shmem_helper:drm_gem_shmem_object.pages
guest_tasks_vmas_uvtop "${g[@]}" 0xff

if guest_ext_base "${g[@]}"; then
	guest_ext_labprobe_anon "${g[@]}"
	guest_drm_shmem_vgem "${g[@]}"
fi
guest_stack_labprobe "${g[@]}"
rm -f "$t"/*.kdump

# An extension that discards a page of the kernel's page tables is warned
# about, at each level on the way to _stext (found by riscv64vtop.py's walk).
if [ -s "$TEXT/discard_range.so" ]; then
	tables=$($PYTHON "$PROJECT/tests/py/riscv64vtop.py" tables "$dump" "$vi")
	[ "$(wc -l <<<"$tables")" -ge 3 ] || fail riscv64-page-tables "fewer than three levels of tables: $tables"
	page_tables_warned riscv64-page-table-level "$dump" "$tables"
fi

# VMCOREINFO against the page tables, through -i.
bad() { bad_vmcoreinfo riscv64 "$dump" "$vi" "$@"; }
bad va-bits-sv48 's/^NUMBER\(VA_BITS\)=.*/NUMBER(VA_BITS)=48/; s/^NUMBER\(PAGE_OFFSET\)=.*/NUMBER(PAGE_OFFSET)=0xffffaf8000000000/' \
	'SYMBOL\(_stext\)=ffffffff80002000 is not mapped by the 4-level page tables at physical 0x81fcb000 that .*NUMBER\(VA_BITS\)=48'
bad va-bits-half 's/^NUMBER\(VA_BITS\)=.*/NUMBER(VA_BITS)=39/' \
	'NUMBER\(PAGE_OFFSET\)=0xff60000000000000 is not in the kernel.s half of the 39-bit address space'
bad va-bits-none '/^NUMBER\(VA_BITS\)=/d' 'VMCOREINFO has no NUMBER\(VA_BITS\)'
bad va-bits-sv32 's/^NUMBER\(VA_BITS\)=.*/NUMBER(VA_BITS)=32/' 'NUMBER\(VA_BITS\)=32 is none of riscv64.s Sv39, Sv48 and Sv57'
bad phys-ram-base 's/^NUMBER\(phys_ram_base\)=.*/NUMBER(phys_ram_base)=2149580800/' \
	'put the direct-map address 0x[0-9a-f]+ at physical 0x[0-9a-f]+, but the page tables map it at 0x[0-9a-f]+'
bad va-kernel-pa-offset 's/^NUMBER\(va_kernel_pa_offset\)=.*/NUMBER(va_kernel_pa_offset)=0xfffffffeffc00000/' \
	'SYMBOL\(_stext\)=ffffffff80002000 (is not mapped by|maps to physical 0x[0-9a-f]+ through)'
bad page-size 's/^PAGESIZE=.*/PAGESIZE=65536/' 'PAGESIZE=65536'

# The search on another architecture: the x86_64 QEMU dump with its note renamed.
if x86=$(fixture 6.1-qemu.elf); then
	$PYTHON "$PROJECT/tests/py/corrupt.py" "$x86" "$WORK/x86-novi.elf" --note-name VMCOREINFO:VMCOREJUNK
	if "$MDF" -f --dump-dmesg "$WORK/x86-novi.elf" "$t/x86.dmesg" 2>"$t/x86.err" >/dev/null &&
		"$MDF" -f --dump-dmesg "$x86" "$t/x86.want" >/dev/null 2>&1 &&
		grep -Eq "warning: .*$FOUND 0x[0-9a-f]+000 and checked" "$t/x86.err"; then
		same riscv64-vmcoreinfo-search-x86_64 "$t/x86.dmesg" "$t/x86.want"
	else
		fail riscv64-vmcoreinfo-search-x86_64 "$(head -c 300 "$t/x86.err")"
	fi
	rm -f "$WORK/x86-novi.elf"
fi
