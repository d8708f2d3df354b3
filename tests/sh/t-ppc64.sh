#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ppc64: generated dumps of every page-table shape, and the real dump of
# Debian trixie's 6.12 ppc64el kernel (POWER9, radix MMU, 4K pages, a 64 KiB
# PGD) against what the guest saw of itself and against upstream's head
# with its radix PGD walk fixed (oracles/upstream-head-ppc64el/pgdfix):
#
# Generated (mkvmcore --arch ppc64), radix and hash with 4K and 64K pages,
# each also without NUMBER(RADIX_MMU) (the MMU then from cur_cpu_spec), and
# hash as kernels before 5.2 laid it out (vmalloc in the 0xd region,
# vmemmap in the 0xf one, a 4.18 kernel's VMCOREINFO: the linear map's end
# from vmap_area_list):
# - every translation the facts state (linear map, vmalloc pages, 2M and
#   1G leaves, vmemmap through the tables or through vmemmap_list's
#   blocks) and every hole, by our reader, which names every page of the
#   tables the generator made, and no other; libkdumpfile 0.5.1 reads the
#   same bytes where it translates ppc64 at all: the linear map of 64K-page
#   dumps (its page-table walk is the pre-4.6 format, its vmalloc and
#   vmemmap regions the old 0xd and 0xf ones);
# - a big-endian kernel's dumps, where the input layer reads big-endian
#   ELF files (SKIP until it does);
# - a page-table loop, a table outside memory, and VMCOREINFO that
#   contradicts the tables (the other MMU, another page size, a
#   swapper_pg_dir on a page of data, a VMALLOC_START below the linear
#   map): a one-line error each.
#
# The real dump, as QEMU wrote it where the input layer reads it (its ELF
# says big-endian, its memory is little-endian, and it has no VMCOREINFO
# note), else a kexec-layout little-endian copy with the kernel's own note
# (tests/py/kexeccopy.py); a line says which:
# - --dump-kallsyms is guest/kallsyms.txt (kprobes' pages included), and
#   --dump-dmesg has the guest's dmesg;
# - -l -d 1 and -d 31 keep pgdfix's page sets (kdumpset.py's digest), and
#   so do -c, -z, -p, a flattened stream put back with -R and a split
#   dump reassembled; -d 1 keeps every marker page, -d 31 drops the anon
#   and page-cache ones; the -E file and the -d 31 file read back to the
#   same symbols and log;
# - --dump-type answers VMCOREINFO's own SIZE() and OFFSET() lines;
# - the task walk finds labprobe, its VMAs are the guest's, and its
#   anonymous pages translate through its page tables to the guest's pfns;
# - labprobe_anon (a task walk in an extension) drops every anon marker,
#   drm_shmem_filter exactly the vgem marker pfns at -d 1, user_stack_keep
#   keeps labprobe's resident stack at -d 31; an extension that discards a
#   page of the 64 KiB PGD beyond its first is warned of.
. "$(dirname "$0")/../lib.sh" || exit 2
# The checks each architecture runs alike (guest_*, same, ...).
. "$(dirname "$0")/arch_checks.sh"

# ---- generated dumps: translation in each page-table shape ----
GEN=$TOOLS/mkvmcore
if [ -x "$GEN" ]; then
	for shape in "radix 4K" "radix 64K" "hash 4K" "hash 64K"; do
		set -- $shape
		for variant in "" --no-radix-line $([ "$1" = hash ] && echo --pre-5.2); do
			name=ppc64-gen-$1-$2${variant#-}
			if ! "$GEN" --arch ppc64 --mmu "$1" --page-size "$2" $variant --facts "$WORK/$name.facts" \
				"$WORK/$name.elf" >"$WORK/$name.gen.log" 2>&1; then
				fail "$name" "mkvmcore failed: $(tail -n 2 "$WORK/$name.gen.log")"
				continue
			fi
			check "$name-vtop" $PYTHON "$PROJECT/tests/py/gencheck.py" "$TOOLS/dumpread" "$WORK/$name.elf" \
				"$WORK/$name.facts" vtop
			if "$TOOLS/dumpread" "$WORK/$name.elf" tables >"$WORK/$name.tables" 2>&1; then
				same "$name-table-pages" <(sort "$WORK/$name.tables") \
					<(awk '$1 == "table_page" { print $2 }' "$WORK/$name.facts" | sort)
			else
				fail "$name-table-pages" "$(tail -n 2 "$WORK/$name.tables")"
			fi
			# libkdumpfile 0.5.1 knows 64K pages only, and of those the linear map.
			[ "$2" = 64K ] && [ -z "$variant" ] &&
				check "$name-libkdumpfile" $PYTHON "$PROJECT/tests/py/kvcheck.py" "$WORK/$name.elf" \
					"$WORK/$name.facts" 65536 2
			rm -f "$WORK/$name.elf"
		done
	done
	# A big-endian kernel's: the tables' entries as in a little-endian one, all else big-endian.
	for shape in "radix 64K" "hash 4K"; do
		set -- $shape
		name=ppc64-gen-$1-$2-big-endian
		"$GEN" --arch ppc64 --mmu "$1" --page-size "$2" --big-endian --facts "$WORK/$name.facts" "$WORK/$name.elf" \
			>"$WORK/$name.gen.log" 2>&1 || { fail "$name" "mkvmcore failed"; continue; }
		if "$TOOLS/dumpread" "$WORK/$name.elf" info 2>&1 | grep -q 'only little-endian ELF64'; then
			skip "$name-vtop" "the input layer reads no big-endian ELF file yet"
		else
			check "$name-vtop" $PYTHON "$PROJECT/tests/py/gencheck.py" "$TOOLS/dumpread" "$WORK/$name.elf" \
				"$WORK/$name.facts" vtop
		fi
		rm -f "$WORK/$name.elf"
	done
	for mmu in radix hash; do
		if "$GEN" --arch ppc64 --mmu $mmu --damage loop "$WORK/loop.elf" >"$WORK/loop.gen.log" 2>&1; then
			expect_failure ppc64-gen-$mmu-page-table-loop \
				'page-table loop: walking 0xc000000000000000, the table at 0x[0-9a-f]+ points back to the table at 0x[0-9a-f]+' \
				"$MDF" -f --dump-dmesg "$WORK/loop.elf" "$WORK/loop.log"
		else
			fail ppc64-gen-$mmu-page-table-loop "mkvmcore failed: $(tail -n 2 "$WORK/loop.gen.log")"
		fi
		if "$GEN" --arch ppc64 --mmu $mmu --damage outside "$WORK/outside.elf" >"$WORK/outside.gen.log" 2>&1; then
			expect_failure ppc64-gen-$mmu-table-outside-memory \
				'the entry at 0x[0-9a-f]+ points to a table at 0x4000000000, outside the dump.s memory' \
				"$MDF" -f --dump-dmesg "$WORK/outside.elf" "$WORK/outside.log"
		else
			fail ppc64-gen-$mmu-table-outside-memory "mkvmcore failed: $(tail -n 2 "$WORK/outside.gen.log")"
		fi
		rm -f "$WORK/loop.elf" "$WORK/outside.elf"
	done
	# VMCOREINFO against the tables, through -i.
	for mmu in radix hash; do
		dump=$WORK/bad-$mmu.elf
		"$GEN" --arch ppc64 --mmu $mmu --vmcoreinfo-out "$WORK/$mmu.vmcoreinfo" "$dump" >/dev/null 2>&1 ||
			{ fail ppc64-gen-bad-$mmu "mkvmcore failed"; continue; }
		bad() { bad_vmcoreinfo ppc64-gen-$mmu "$dump" "$WORK/$mmu.vmcoreinfo" "$@"; }
		if [ $mmu = radix ]; then
			bad other-mmu 's/^NUMBER\(RADIX_MMU\)=1/NUMBER(RADIX_MMU)=0/' \
				'VMCOREINFO says the hash MMU, but the page tables at SYMBOL\(swapper_pg_dir\) map the linear map'
		else
			bad other-mmu 's/^NUMBER\(RADIX_MMU\)=0/NUMBER(RADIX_MMU)=1/' \
				'VMCOREINFO says the radix MMU with 4 KiB pages, but those page tables .* do not map SYMBOL\(_stext\)'
		fi
		# Radix tables must map _stext; hash ones at least hold tables.
		bad root 's/^SYMBOL\(swapper_pg_dir\)=.*/SYMBOL(swapper_pg_dir)=c000000000310000/' \
			"$([ $mmu = radix ] && echo 'do not map SYMBOL\(_stext\)=c000000000000000 at physical 0x0' ||
			echo 'SYMBOL\(swapper_pg_dir\)=c000000000310000 holds no page directory of 4 KiB pages: its entry 0, 0x[0-9a-f]+, points to no table')"
		bad page-size 's/^PAGESIZE=.*/PAGESIZE=8192/' 'PAGESIZE=8192'
		bad vmalloc-start 's/^NUMBER\(VMALLOC_START\)=.*/NUMBER(VMALLOC_START)=0xc000000000000000/' \
			'VMALLOC_START=0xc000000000000000 is not above the linear map'
		bad no-root '/^SYMBOL\(swapper_pg_dir\)=/d' 'VMCOREINFO has no SYMBOL\(swapper_pg_dir\)'
		rm -f "$dump"
	done
else
	skip ppc64-gen "no $GEN"
fi

# ---- the real dump ----
guest=6.12-ppc64el-qemu
if ! fixture=$(fixture "$guest.elf"); then
	skip "ppc64-$guest" "no $VMCORES/$guest/vmcore.elf.zst"
	exit 0
fi
facts=$VMCORES/$guest/guest
vi=$VMCORES/$guest/vmcoreinfo.txt
oracle=$SHARED/oracles/upstream-head-ppc64el/pgdfix
t=$WORK/$guest
mkdir -p "$t"

# As QEMU wrote it, where we read that; else kexec's form of it.
if "$MDF" -f --dump-dmesg "$fixture" "$t/probe.dmesg" >"$t/probe.out" 2>&1; then
	dump=$fixture
	echo "  note: $guest read as QEMU wrote it (big-endian headers, no VMCOREINFO note)"
else
	dump=$t/kexec.elf
	echo "  note: $guest as QEMU wrote it does not read ($(grep -m1 '^makedumpfile: ' "$t/probe.out"));" \
		"using a kexec-layout little-endian copy with the kernel's own VMCOREINFO (tests/py/kexeccopy.py)"
	if ! $PYTHON "$PROJECT/tests/py/kexeccopy.py" "$fixture" "$dump" --order little --vmcoreinfo "$vi" \
		>"$t/copy.out" 2>&1; then
		fail "ppc64-kexec-copy" "$(tail -n 2 "$t/copy.out")"
		exit 0
	fi
fi

g=(ppc64 "$guest" "$dump")

if "$MDF" -f --dump-kallsyms "$dump" "$t/kallsyms" >"$t/kallsyms.out" 2>&1; then
	same "ppc64-kallsyms-$guest" "$t/kallsyms" "$facts/kallsyms.txt"
else
	fail "ppc64-kallsyms-$guest" "$(tail -n 3 "$t/kallsyms.out")"
fi
guest_dmesg "${g[@]}" dmesgcheck

# pgdfix's page sets, with each writer at -d 31 and -l at -d 1; the marker
# pages kept: every one at -d 1, no anon or page-cache one at -d 31.
pgdfix() { grep -m1 '^pfns=' "$oracle/results-d$1.txt"; }
guest_writers "${g[@]}" 1 "$(pgdfix 1)" pgdfix any-order -l
guest_writers "${g[@]}" 31 "$(pgdfix 31)" pgdfix any-order -l -c -z -p
check "ppc64-d1-markers-$guest" $PYTHON "$PROJECT/tests/py/markerkinds.py" "$t/d1-l.kdump" \
	"$VMCORES/$guest/marker-pfns.txt" --kept anon,pagecache,vgem
check "ppc64-d31-markers-$guest" $PYTHON "$PROJECT/tests/py/markerkinds.py" "$t/d31-l.kdump" \
	"$VMCORES/$guest/marker-pfns.txt" --dropped anon,pagecache
guest_flattened "${g[@]}" "$(pgdfix 31)" pgdfix any-order
guest_split "${g[@]}" "$(pgdfix 31)" pgdfix any-order
guest_d31_readback ppc64 "$guest" "$t/d31-l.kdump" "$facts/kallsyms.txt"
guest_elf_readback "${g[@]}" "$facts/kallsyms.txt" any-order
rm -f "$t"/*.kdump

guest_dump_type "${g[@]}"
guest_tasks_vmas_uvtop "${g[@]}" 0xc000

if guest_ext_base "${g[@]}"; then
	guest_ext_labprobe_anon "${g[@]}"
	guest_drm_shmem_vgem "${g[@]}"
fi
guest_stack_labprobe "${g[@]}"
rm -f "$t"/*.kdump

# A page of the 64 KiB PGD past its first (where upstream's head reads none) is a page-table page.
if [ -s "$TEXT/discard_range.so" ]; then
	root=$(sed -n 's/^SYMBOL(swapper_pg_dir)=c0*//p' "$vi")
	page_tables_warned ppc64-pgd-page-kept "$dump" "$guest 0x$(printf '%x' $(( (0x$root >> 12) + 9 )))"
fi
rm -f "$t/kexec.elf"
