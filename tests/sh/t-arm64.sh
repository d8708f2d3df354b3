#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The real arm64 dumps of Debian 12's 6.1 kernel (4K pages, 48-bit VA,
# PAuth; kallsyms without data symbols: no CONFIG_KALLSYMS_ALL), end to end,
# against what the guest saw of itself and against upstream 1.7.2's arm64
# build:
# - translation: the kernel image by kimage_voffset, kexec's PT_LOAD pairs,
#   module and linear-map addresses read as libkdumpfile reads them;
# - --dump-kallsyms is guest/kallsyms.txt, kernel and module lines, after a
#   comment saying that BTF and the modules list were found by searching
#   the kernel image;
# - --dump-dmesg has the guest's dmesg;
# - -l -d 31 keeps upstream's page set (kdumpset.py's digest), and so do
#   -c, -z, -p and a flattened stream put back with -R; the -E file holds
#   the kernel log and symbols of the dump; QEMU's kdump-compressed form of
#   the QEMU dump (64 KiB blocks, machine "Unknown": tests/py/qemukdump.py)
#   reads as 4 KiB pages to the same symbols, log and page set;
# - --dump-type answers VMCOREINFO's own SIZE() and OFFSET() lines, and a
#   module's type from its BTF;
# - exported variables kallsyms leave out (init_uts_ns, jiffies) come from
#   the kernel's export tables, init_uts_ns where VMCOREINFO says;
# - the task walk (an extension asking init_task, which the image search
#   finds) finds labprobe with its pid; its VMAs and anonymous pages (THPs
#   among them on the QEMU dump) are the guest's;
# - drm_shmem_filter at -d 1 drops exactly the vgem marker pfns;
#   user_stack_keep keeps labprobe's resident stack pages at -d 31; an
#   extension that discards a page of the kernel's page tables is warned of;
# - VMCOREINFO that contradicts the page tables (-i): a VA_BITS/T1SZ
#   mismatch, a PHYS_OFFSET beyond RAM, an _stext outside the image
#   kimage_voffset locates: a clear error each.
# And on generated arm64 dumps (mkvmcore --arch arm64) of every page-table
# shape: 4K pages with 3, 4 and 5 levels (52-bit VA, LPA2), 16K with 3 and
# 4 (LPA2), 64K with 2 and 3 (52-bit VA and PA), kernels built for 52 bits
# walking 47 or 48, and the layout of kernels before 5.4 (the linear map
# in the upper half): every translation the facts state (pages, contiguous
# runs, blocks of each size, 52-bit output addresses, a PAC-signed
# pointer) and every hole, with libkdumpfile reading the same bytes by
# virtual address where it can, and the same facts hold in QEMU's 64 KiB
# block form of them; a page-table loop is said, not followed.
. "$(dirname "$0")/../lib.sh" || exit 2
# The checks each architecture runs alike (guest_*, same, ...).
. "$(dirname "$0")/arch_checks.sh"

# ---- generated dumps: translation in each page-table shape ----
GEN=$TOOLS/mkvmcore
if [ -x "$GEN" ]; then
	# page size, VA_BITS, TCR_EL1_T1SZ
	for shape in "4K 39 25" "4K 48 16" "4K 52 12" "4K 52 16" "16K 47 17" "16K 48 16" "16K 52 12" \
		"16K 52 17" "64K 42 22" "64K 48 16" "64K 52 12" "64K 52 16"; do
		set -- $shape
		name=arm64-gen-$1-va$2-t1sz$3
		if ! "$GEN" --arch arm64 --page-size "$1" --va-bits "$2" --t1sz "$3" --facts "$WORK/$name.facts" \
			"$WORK/$name.elf" >"$WORK/$name.gen.log" 2>&1; then
			fail "$name" "mkvmcore failed: $(tail -n 2 "$WORK/$name.gen.log")"
			continue
		fi
		check "$name-vtop" $PYTHON "$PROJECT/tests/py/gencheck.py" "$TOOLS/dumpread" "$WORK/$name.elf" \
			"$WORK/$name.facts" vtop
		check "$name-libkdumpfile" $PYTHON "$PROJECT/tests/py/kvcheck.py" "$WORK/$name.elf" "$WORK/$name.facts" \
			$((${1%K} * 1024)) 5
		# QEMU's kdump-compressed form: 64 KiB blocks whatever the page size, machine "Unknown".
		if [ "$2" = 48 ] && $PYTHON "$PROJECT/tests/py/qemukdump.py" "$WORK/$name.elf" "$WORK/$name.kdump"; then
			check "$name-qemu-kdump-vtop" $PYTHON "$PROJECT/tests/py/gencheck.py" "$TOOLS/dumpread" \
				"$WORK/$name.kdump" "$WORK/$name.facts" vtop
		fi
		rm -f "$WORK/$name.elf" "$WORK/$name.kdump"
	done
	# Kernels before 5.4: the linear map in the upper half, no TCR_EL1_T1SZ or KERNELPACMASK.
	for shape in "4K 39" "4K 48" "16K 47" "64K 42" "64K 48"; do
		set -- $shape
		name=arm64-gen-pre-5.4-$1-va$2
		if ! "$GEN" --arch arm64 --pre-5.4 --page-size "$1" --va-bits "$2" --facts "$WORK/$name.facts" \
			"$WORK/$name.elf" >"$WORK/$name.gen.log" 2>&1; then
			fail "$name" "mkvmcore failed: $(tail -n 2 "$WORK/$name.gen.log")"
			continue
		fi
		check "$name-vtop" $PYTHON "$PROJECT/tests/py/gencheck.py" "$TOOLS/dumpread" "$WORK/$name.elf" \
			"$WORK/$name.facts" vtop
		check "$name-libkdumpfile" $PYTHON "$PROJECT/tests/py/kvcheck.py" "$WORK/$name.elf" "$WORK/$name.facts" \
			$((${1%K} * 1024)) 5
		rm -f "$WORK/$name.elf"
	done
	if "$GEN" --arch arm64 --damage loop "$WORK/loop.elf" >"$WORK/loop.gen.log" 2>&1; then
		expect_failure arm64-gen-page-table-loop \
			'page-table loop: walking 0x[0-9a-f]+, the table at 0x[0-9a-f]+ points back to the table at 0x[0-9a-f]+' \
			"$MDF" -f --dump-dmesg "$WORK/loop.elf" "$WORK/loop.log"
	else
		fail arm64-gen-page-table-loop "mkvmcore failed: $(tail -n 2 "$WORK/loop.gen.log")"
	fi
	rm -f "$WORK/loop.elf"
else
	skip arm64-gen "no $GEN"
fi

for guest in 6.1-arm64-qemu 6.1-arm64-kdump; do
	if ! dump=$(fixture "$guest.elf"); then
		skip "arm64-$guest" "no $VMCORES/$guest/vmcore.elf.zst"
		continue
	fi
	g=(arm64 "$guest" "$dump")
	facts=$VMCORES/$guest/guest
	vi=$VMCORES/$guest/vmcoreinfo.txt
	t=$WORK/$guest
	mkdir -p "$t"

	check "arm64-vtop-$guest" $PYTHON "$PROJECT/tests/py/arm64vtop.py" "$TOOLS/dumpread" "$dump" "$vi" "$facts"

	if "$MDF" -f --message-level 31 --dump-kallsyms "$dump" "$t/kallsyms" >"$t/kallsyms.out" 2>&1; then
		same "arm64-kallsyms-$guest" "$t/kallsyms" "$facts/kallsyms.txt"
		if grep -qx "makedumpfile: warning: kallsyms lack data symbols (no CONFIG_KALLSYMS_ALL): vmlinux BTF and the modules list found by searching the kernel image" "$t/kallsyms.out" &&
			grep -q '^vmlinux BTF found by its header in the kernel image' "$t/kallsyms.out" &&
			grep -q '^the modules list found in the kernel image at 0x[0-9a-f]*: 18 struct modules' "$t/kallsyms.out"; then
			pass "arm64-kallsyms-fallback-said-$guest"
		else
			fail "arm64-kallsyms-fallback-said-$guest" "$(grep -i 'image' "$t/kallsyms.out" | head -n 3)"
		fi
	else
		fail "arm64-kallsyms-$guest" "$(tail -n 3 "$t/kallsyms.out")"
	fi
	guest_dmesg "${g[@]}" dmesgcheck

	# Upstream 1.7.2's page set at -d 31, with each writer.
	want=$(tail -n 1 "$VMCORES/$guest/upstream-1.7.2-d31-pfns.txt")
	guest_writers "${g[@]}" 31 "$want" upstream any-order -l -c -z -p
	guest_flattened "${g[@]}" "$want" upstream any-order
	guest_d31_readback arm64 "$guest" "$t/d31-flattened.kdump"
	guest_elf_readback "${g[@]}" "$t/kallsyms" any-order
	rm -f "$t"/*.kdump

	guest_dump_type "${g[@]}"
	guest_dump_type_module "${g[@]}" drm_shmem_helper:drm_gem_shmem_object.pages

	# An exported variable kallsyms leave out comes from the export tables: VMCOREINFO says where.
	want_uts=0x$(sed -n 's/^SYMBOL(init_uts_ns)=//p' "$vi")
	if out=$("$TOOLS/dumpread" "$dump" symbol init_uts_ns jiffies 2>&1) &&
		[ "$(echo "$out" | head -n 1)" = "init_uts_ns $want_uts" ] && echo "$out" | grep -q '^jiffies 0xffff'; then
		pass "arm64-exported-variables-$guest"
	else
		fail "arm64-exported-variables-$guest" "$out; VMCOREINFO: init_uts_ns $want_uts"
	fi

	guest_tasks_vmas_uvtop "${g[@]}" 0xffff

	if guest_ext_base "${g[@]}"; then
		# labprobe_anon asks init_task first, which kallsyms without data
		# symbols lack: the image search finds it.
		anon=$(extension_dir "anon-$guest" "$TEXT" labprobe_anon)
		if "$MDF" -f -l -d 1 --message-level 31 --extension-dir "$anon" "$dump" "$t/anon.kdump" \
			>"$t/anon.out" 2>&1 &&
			grep -q '^init_task found in the kernel image at 0x[0-9a-f]*: comm "swapper/0", pid 0' "$t/anon.out" &&
			grep -Eq '^labprobe_anon: labprobe: discarding [1-9][0-9]* anonymous pages' "$t/anon.out"; then
			pass "arm64-ext-init-task-labprobe-$guest"
		else
			fail "arm64-ext-init-task-labprobe-$guest" "$(grep -E 'labprobe_anon|init_task' "$t/anon.out" | head -n 3)"
		fi
		# Every anon marker on the kdump dump (THP off); the QEMU one maps 1536 in THPs,
		# whose tail pages the test extension's anonymous test does not take.
		if [ "$guest" = 6.1-arm64-kdump ]; then
			check "arm64-ext-anon-removed-$guest" $EXTCHECK "$t/base.kdump" "$t/anon.kdump" \
				--markers "$VMCORES/$guest/marker-pfns.txt" --kind anon --removed --report "$t/anon.out"
		fi
		guest_drm_shmem_vgem "${g[@]}"
	fi
	guest_stack_labprobe "${g[@]}"
	rm -f "$t"/*.kdump

	# QEMU's kdump-zlib form of the same memory: 64 KiB blocks of 4 KiB pages.
	if [ "$guest" = 6.1-arm64-qemu ] && $PYTHON "$PROJECT/tests/py/qemukdump.py" "$dump" "$t/qemu.kdump"; then
		if "$TOOLS/dumpread" "$t/qemu.kdump" info | grep -qx 'page_size 4096' &&
			"$MDF" -f --dump-kallsyms "$t/qemu.kdump" "$t/kallsyms.qemu" >/dev/null 2>&1 &&
			"$MDF" -f --dump-dmesg "$t/qemu.kdump" "$t/dmesg.qemu" >/dev/null 2>&1 &&
			"$MDF" -f -l -d 31 "$t/qemu.kdump" "$t/out.kdump" >/dev/null 2>&1; then
			same "arm64-qemu-kdump-kallsyms-$guest" "$t/kallsyms.qemu" "$t/kallsyms"
			same "arm64-qemu-kdump-dmesg-$guest" "$t/dmesg.qemu" "$t/dmesg"
			got=$($KDUMPSET pfns "$t/out.kdump")
			[ "$got" = "$want" ] && pass "arm64-qemu-kdump-d31-$guest" ||
				fail "arm64-qemu-kdump-d31-$guest" "$got, upstream: $want"
		else
			fail "arm64-qemu-kdump-$guest" "not read as 4 KiB pages of an arm64 machine"
		fi
	fi
	rm -f "$t"/*.kdump
done

# An extension that discards a page of the kernel's page tables is warned
# about, at each level (the tables found by tests/py/arm64pgtables.py).
if dump=$(fixture 6.1-arm64-kdump.elf) && [ -s "$TEXT/discard_range.so" ]; then
	tables=$($PYTHON "$PROJECT/tests/py/arm64pgtables.py" "$dump" "$VMCORES/6.1-arm64-kdump/vmcoreinfo.txt")
	[ "$(wc -l <<<"$tables")" = 3 ] || fail arm64-page-tables "no table at each level: $tables"
	page_tables_warned arm64-page-table-level "$dump" "$tables"
fi

# VMCOREINFO against the page tables, through -i.
if dump=$(fixture 6.1-arm64-qemu.elf); then
	vi=$VMCORES/6.1-arm64-qemu/vmcoreinfo.txt
	bad() { bad_vmcoreinfo arm64 "$dump" "$vi" "$@"; }
	bad va-bits-t1sz 's/^NUMBER\(TCR_EL1_T1SZ\)=.*/NUMBER(TCR_EL1_T1SZ)=0xc/' \
		'NUMBER\(TCR_EL1_T1SZ\)=0xc \(52-bit kernel addresses\) does not fit NUMBER\(VA_BITS\)=48'
	bad phys-offset 's/^NUMBER\(PHYS_OFFSET\)=.*/NUMBER(PHYS_OFFSET)=0x4000000000/' \
		'NUMBER\(PHYS_OFFSET\)=0x4000000000 puts the linear address 0x[0-9a-f]+ at physical 0x[0-9a-f]+, but the page tables map it at 0x[0-9a-f]+'
	bad stext 's/^SYMBOL\(_stext\)=.*/SYMBOL(_stext)=ffffafb74a010000/' \
		'SYMBOL\(_stext\)=ffffafb74a010000 is not mapped by the page tables that SYMBOL\(swapper_pg_dir\) and NUMBER\(kimage_voffset\)=0x[0-9a-f]+ locate'
	bad kimage-voffset 's/^NUMBER\(kimage_voffset\)=.*/NUMBER(kimage_voffset)=0xffffafb70ac00000/' \
		'SYMBOL\(_stext\)=[0-9a-f]+ (is not mapped by|maps to physical 0x[0-9a-f]+, not to 0x[0-9a-f]+ as) .*NUMBER\(kimage_voffset\)=0xffffafb70ac00000'
	bad no-va-bits '/^NUMBER\(VA_BITS\)=/d' 'VMCOREINFO has no NUMBER\(VA_BITS\)'
	bad page-size 's/^PAGESIZE=.*/PAGESIZE=8192/' 'PAGESIZE=8192'
fi
