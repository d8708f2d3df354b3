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

EXT=$(dirname "$TOOLS")/extensions
TEXT=$TOOLS/extensions
WALK=$TOOLS/walkread
KDUMPSET="$PYTHON $SHARED/tools/kdumpset.py"
GPUCHECK="$PYTHON $PROJECT/tests/py/gpucheck.py $TOOLS/dumpread"
EXTCHECK="$PYTHON $PROJECT/tests/py/extcheck.py $TOOLS/dumpread"
FOUND='the dump has no VMCOREINFO note: using the kernel.s own, found in its memory at physical'

# same NAME FILE EXPECTED: pass when FILE's content is EXPECTED's.
same() {
	if cmp -s "$2" "$3"; then
		pass "$1"
	else
		fail "$1" "$(diff "$2" "$3" | head -n 4)"
	fi
}

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
			if [ $layout = qemu ]; then
				# Past the stale note; the dump has no kallsyms, so the run itself fails.
				note=$(sed -n 's/^note_paddr=//p' "$WORK/$name.facts")
				"$MDF" -f --dump-kallsyms "$WORK/$name.elf" "$WORK/out.txt" >/dev/null 2>"$WORK/found.err"
				if grep -Eq "warning: .*$FOUND $note and checked against init_uts_ns$" "$WORK/found.err"; then
					pass "$name-vmcoreinfo-found"
				else
					fail "$name-vmcoreinfo-found" "want the note at $note: $(head -c 300 "$WORK/found.err")"
				fi
			fi
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
facts=$VMCORES/$guest/guest
vi=$VMCORES/$guest/vmcoreinfo.txt
oracle=$SHARED/oracles/upstream-head-riscv64
t=$WORK/$guest
mkdir -p "$t"

# The note where the guest's /sys/kernel/vmcoreinfo says it is, once; none with -i.
note=$(printf '0x%x' "$(( $(cut -d' ' -f1 "$facts/sys-kernel-vmcoreinfo.txt") ))")
if "$MDF" -f --dump-kallsyms "$dump" "$t/kallsyms" 2>"$t/kallsyms.err" >/dev/null &&
	[ "$(grep -c 'VMCOREINFO' "$t/kallsyms.err")" = 1 ] &&
	grep -Eq "warning: .*$FOUND $note and checked against init_uts_ns$" "$t/kallsyms.err"; then
	pass "riscv64-vmcoreinfo-in-memory-$guest"
else
	fail "riscv64-vmcoreinfo-in-memory-$guest" "want the note at $note: $(head -c 400 "$t/kallsyms.err")"
fi
if "$MDF" -f -i "$vi" --dump-kallsyms "$dump" "$t/kallsyms.i" 2>"$t/i.err" >/dev/null &&
	! grep -q VMCOREINFO "$t/i.err" && cmp -s "$t/kallsyms.i" "$t/kallsyms"; then
	pass "riscv64-vmcoreinfo-i-wins-$guest"
else
	fail "riscv64-vmcoreinfo-i-wins-$guest" "$(head -c 300 "$t/i.err")"
fi
same "riscv64-kallsyms-$guest" "$t/kallsyms" "$facts/kallsyms.txt"

check "riscv64-vtop-$guest" $PYTHON "$PROJECT/tests/py/riscv64vtop.py" "$TOOLS/dumpread" "$dump" "$vi" "$facts"

if "$MDF" --dump-dmesg "$dump" "$t/dmesg" >"$t/dmesg.out" 2>&1; then
	check "riscv64-dmesg-$guest" $PYTHON "$PROJECT/tests/py/dmesgcheck.py" "$t/dmesg" "$facts/dmesg.txt"
else
	fail "riscv64-dmesg-$guest" "$(tail -n 3 "$t/dmesg.out")"
fi

# The page sets of upstream head (run with -i on a kexec-layout copy), with each writer.
oracle_digest() { sed -n '/^--- kdumpset.py pfns OUT ---$/{n;p;q}' "$oracle/results-d$1.txt"; }
for level in 1 31; do
	want=$(oracle_digest $level)
	[ -n "$want" ] || { skip "riscv64-d$level-$guest" "no digest in $oracle/results-d$level.txt"; continue; }
	for opt in -l -c -z -p; do
		if "$MDF" -f $opt -d $level "$dump" "$t/out.kdump" >"$t/d$level.out" 2>&1 &&
			got=$($KDUMPSET pfns "$t/out.kdump") && [ "$got" = "$want" ]; then
			pass "riscv64-d$level$opt-$guest"
		else
			fail "riscv64-d$level$opt-$guest" "${got:-$(tail -n 2 "$t/d$level.out")}, upstream: $want"
		fi
		got=
	done
	cp "$t/out.kdump" "$t/d$level.kdump"
done
check "riscv64-d1-markers-kept-$guest" $PYTHON "$PROJECT/tests/py/markerkinds.py" "$t/d1.kdump" \
	"$VMCORES/$guest/marker-pfns.txt" --kept anon,vgem,pagecache
check "riscv64-d31-markers-dropped-$guest" $PYTHON "$PROJECT/tests/py/markerkinds.py" "$t/d31.kdump" \
	"$VMCORES/$guest/marker-pfns.txt" --dropped anon,vgem,pagecache
want=$(oracle_digest 31)
if "$MDF" -f -F -l -d 31 "$dump" 2>"$t/flat.err" | "$MDF" -f -R "$t/out.kdump" >"$t/flat.out" 2>&1 &&
	got=$($KDUMPSET pfns "$t/out.kdump") && [ "$got" = "$want" ]; then
	pass "riscv64-d31-flattened-$guest"
else
	fail "riscv64-d31-flattened-$guest" "${got:-$(tail -n 2 "$t/flat.out")}, upstream: $want"
fi
got=
if "$MDF" -f -l -d 31 --split "$dump" "$t/part1" "$t/part2" >"$t/split.out" 2>&1 &&
	"$MDF" -f --reassemble "$t/part1" "$t/part2" "$t/out.kdump" >>"$t/split.out" 2>&1 &&
	got=$($KDUMPSET pfns "$t/out.kdump") && [ "$got" = "$want" ]; then
	pass "riscv64-d31-split-$guest"
else
	fail "riscv64-d31-split-$guest" "${got:-$(tail -n 2 "$t/split.out")}, upstream: $want"
fi
got=
rm -f "$t/part1" "$t/part2"
# The -d 31 file is a dump of its own (the note found in it again): its log and symbols are the guest's.
if "$MDF" -f --dump-dmesg "$t/d31.kdump" "$t/dmesg.d31" >/dev/null 2>&1 &&
	"$MDF" -f --dump-kallsyms "$t/d31.kdump" "$t/kallsyms.d31" >/dev/null 2>&1; then
	same "riscv64-d31-dmesg-$guest" "$t/dmesg.d31" "$t/dmesg"
	same "riscv64-d31-kallsyms-$guest" "$t/kallsyms.d31" "$t/kallsyms"
else
	fail "riscv64-d31-readback-$guest" "--dump-dmesg or --dump-kallsyms fails on the -d 31 file"
fi
if "$MDF" -f -E -d 31 "$dump" "$t/out.elf" >"$t/elf.out" 2>&1 &&
	"$MDF" -f --dump-kallsyms "$t/out.elf" "$t/kallsyms.elf" >/dev/null 2>&1 &&
	"$MDF" -f --dump-dmesg "$t/out.elf" "$t/dmesg.elf" >/dev/null 2>&1; then
	same "riscv64-elf-kallsyms-$guest" "$t/kallsyms.elf" "$t/kallsyms"
	same "riscv64-elf-dmesg-$guest" "$t/dmesg.elf" "$t/dmesg"
else
	fail "riscv64-elf-$guest" "$(tail -n 2 "$t/elf.out")"
fi
rm -f "$t/out.kdump" "$t/out.elf"

# --dump-type: the kernel's own VMCOREINFO lines are the oracle.
specs=$(sed -nE 's/^(SIZE|OFFSET)\(([a-z_.]+)\)=.*/\2/p' "$vi" | paste -sd, -)
if "$MDF" --dump-type "$specs" "$dump" >"$t/types" 2>"$t/types.err"; then
	sed -nE 's/^OFFSET\(([a-z_.]+)\)=([0-9]+)$/\1 offset=\2/p; s/^SIZE\(([a-z_]+)\)=([0-9]+)$/\1 size=\2/p' "$vi" \
		>"$t/types.want"
	sed -E 's/^([a-z_.]+\.[a-z_.]+ offset=[0-9]+) .*/\1/' "$t/types" >"$t/types.got"
	same "riscv64-dump-type-$guest" "$t/types.got" "$t/types.want"
else
	fail "riscv64-dump-type-$guest" "$(head -c 300 "$t/types.err")"
fi
if out=$("$MDF" --dump-type drm_shmem_helper:drm_gem_shmem_object.pages "$dump" 2>/dev/null) &&
	[[ $out =~ ^drm_shmem_helper:drm_gem_shmem_object.pages\ offset=[0-9]+\ size=8\ bitfield=0$ ]]; then
	pass "riscv64-dump-type-module-$guest"
else
	fail "riscv64-dump-type-module-$guest" "$out"
fi

# Tasks, labprobe's VMAs and its anonymous pages (walkread, tests/sh/t-walkers.sh's tool).
pid=$(cat "$facts/labprobe.pid")
if ! timeout 60 "$WALK" "$dump" tasks >"$t/tasks" 2>"$t/tasks.err"; then
	fail "riscv64-tasks-$guest" "$(head -c 300 "$t/tasks.err")"
elif grep -q "^$pid $pid labprobe 0xff" "$t/tasks" && grep -q '^1 1 init 0xff' "$t/tasks"; then
	pass "riscv64-tasks-$guest"
else
	fail "riscv64-tasks-$guest" "no labprobe with pid $pid, or no init: $(head -c 300 "$t/tasks")"
fi
if timeout 60 "$WALK" "$dump" vmas "$pid" >"$t/vmas" 2>"$t/vmas.err"; then
	same "riscv64-vmas-$guest" <(awk '{ print $1 "-" $2 }' "$t/vmas") <(awk '{ print $1 }' "$facts/labprobe-maps.txt")
else
	fail "riscv64-vmas-$guest" "$(head -c 300 "$t/vmas.err")"
fi
awk '$1 == "anon" { print $2, $3 }' "$facts/labprobe-pfns.txt" >"$t/anon"
if timeout 60 "$WALK" "$dump" uvtop "$pid" $(awk '{ print $1 }' "$t/anon") >"$t/uvtop" 2>"$t/uvtop.err"; then
	# "vaddr paddr" against the guest's "vaddr pfn"
	$PYTHON -c 'import sys
for l in open(sys.argv[1]):
    v, p = l.split()
    print(v, hex(int(p, 16) >> 12) if p.startswith("0x") else p)' "$t/uvtop" >"$t/uvtop.pfns"
	if [ -s "$t/anon" ]; then
		same "riscv64-uvtop-$guest" "$t/uvtop.pfns" "$t/anon"
	else
		fail "riscv64-uvtop-$guest" "no anon pages in $facts/labprobe-pfns.txt"
	fi
else
	fail "riscv64-uvtop-$guest" "$(head -c 300 "$t/uvtop.err")"
fi

# Extensions: labprobe_anon walks the tasks; drm_shmem_filter the vgem buffer.
anon=$(extension_dir "anon-$guest" "$TEXT" labprobe_anon)
shm=$(extension_dir "shm-$guest" "$EXT" drm_shmem_filter)
awk '$1 == "vgem" { print $2 }' "$VMCORES/$guest/marker-pfns.txt" >"$t/vgem"
if "$MDF" -f -l -d 1 --no-extensions "$dump" "$t/base.kdump" >"$t/base.out" 2>&1; then
	if "$MDF" -f -l -d 1 --message-level 31 --extension-dir "$anon" "$dump" "$t/anon.kdump" >"$t/anon.out" 2>&1 &&
		grep -Eq '^labprobe_anon: labprobe: discarding [1-9][0-9]* anonymous pages' "$t/anon.out"; then
		pass "riscv64-ext-task-walk-labprobe-$guest"
		check "riscv64-ext-anon-removed-$guest" $EXTCHECK "$t/base.kdump" "$t/anon.kdump" \
			--markers "$VMCORES/$guest/marker-pfns.txt" --kind anon --removed --report "$t/anon.out"
	else
		fail "riscv64-ext-task-walk-labprobe-$guest" "$(grep -E 'labprobe_anon|error' "$t/anon.out" | head -n 3)"
	fi
	if "$MDF" -f -l -d 1 --message-level 31 --extension-dir "$shm" "$dump" "$t/shm.kdump" >"$t/shm.out" 2>&1; then
		check "riscv64-drm-shmem-vgem-$guest" $GPUCHECK "$t/base.kdump" "$t/shm.kdump" --removed "$t/vgem" \
			--report "$t/shm.out" --min 1024
	else
		fail "riscv64-drm-shmem-vgem-$guest" "$(tail -n 3 "$t/shm.out")"
	fi
else
	fail "riscv64-extensions-$guest" "the run without extensions failed: $(tail -n 3 "$t/base.out")"
fi
# user_stack_keep keeps labprobe's resident [stack] pages at -d 31, which drops them otherwise.
stk=$(extension_dir "stk-$guest" "$EXT" user_stack_keep)
range=$(awk '$NF == "[stack]" { print $1 }' "$facts/labprobe-maps.txt")
rss=$(grep -A 4 '\[stack\]$' "$facts/labprobe-smaps.txt" | awk '$1 == "Rss:" { print $2 / 4 }')
"$WALK" "$dump" uvtop "$pid" $($PYTHON -c 'import sys; s, e = (int(x, 16) for x in sys.argv[1].split("-"))
print(" ".join(hex(a) for a in range(s, e, 4096)))' "$range") 2>/dev/null |
	awk '$2 ~ /^0x/ { print $2 }' | $PYTHON -c 'import sys
for l in sys.stdin: print(hex(int(l, 16) >> 12))' >"$t/stack.pfns"
if [ "$(wc -l <"$t/stack.pfns")" != "$rss" ]; then
	fail "riscv64-stack-labprobe-$guest" "$(wc -l <"$t/stack.pfns") resident stack pages, smaps says $rss"
elif "$MDF" -f -l -d 31 --no-extensions "$dump" "$t/base31.kdump" >/dev/null 2>&1 &&
	"$MDF" -f -l -d 31 --message-level 31 --extension-dir "$stk" --extension-arg user_stack_keep:comm=labprobe \
		"$dump" "$t/stack.kdump" >"$t/stack.out" 2>&1; then
	check "riscv64-stack-labprobe-$guest" $GPUCHECK "$t/base31.kdump" "$t/stack.kdump" --kept "$t/stack.pfns" \
		--min "$rss"
else
	fail "riscv64-stack-labprobe-$guest" "$(tail -n 3 "$t/stack.out")"
fi
rm -f "$t"/*.kdump

# An extension that discards a page of the kernel's page tables is warned
# about, at each level on the way to _stext (found by riscv64vtop.py's walk).
if [ -s "$TEXT/discard_range.so" ]; then
	ranged=$(extension_dir ranged "$TEXT" discard_range)
	tables=$($PYTHON "$PROJECT/tests/py/riscv64vtop.py" tables "$dump" "$vi")
	[ "$(wc -l <<<"$tables")" -ge 3 ] || fail riscv64-page-tables "fewer than three levels of tables: $tables"
	while read -r level pfn; do
		"$MDF" -f -l -d 31 --extension-dir "$ranged" --extension-arg discard_range:first=$pfn \
			--extension-arg discard_range:count=1 "$dump" "$WORK/t.kdump" >"$WORK/t.out" 2>&1
		grep -q "warning: extension discard_range leaves out 0x1 pages that hold struct pages or the kernel's page tables (the first: pfn $pfn)" \
			"$WORK/t.out" && pass riscv64-page-table-level-$level ||
			fail riscv64-page-table-level-$level "pfn $pfn: $(grep -i warning "$WORK/t.out" | head -n 2)"
	done <<<"$tables"
	rm -f "$WORK/t.kdump"
fi

# VMCOREINFO against the page tables, through -i.
bad() {
	sed -E "$2" "$vi" >"$WORK/$1.vmcoreinfo"
	expect_failure "riscv64-bad-$1" "$3" "$MDF" -f --dump-dmesg -i "$WORK/$1.vmcoreinfo" "$dump" "$WORK/bad.log"
}
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
