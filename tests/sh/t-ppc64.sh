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

EXT=$(dirname "$TOOLS")/extensions
TEXT=$TOOLS/extensions
WALK=$TOOLS/walkread
KDUMPSET="$PYTHON $SHARED/tools/kdumpset.py"
GPUCHECK="$PYTHON $PROJECT/tests/py/gpucheck.py $TOOLS/dumpread"
EXTCHECK="$PYTHON $PROJECT/tests/py/extcheck.py $TOOLS/dumpread"

# same NAME FILE EXPECTED: pass when FILE's content is EXPECTED's.
same() {
	if cmp -s "$2" "$3"; then
		pass "$1"
	else
		fail "$1" "$(diff "$2" "$3" | head -n 4)"
	fi
}

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
		bad() {
			sed -E "$2" "$WORK/$mmu.vmcoreinfo" >"$WORK/$1.vmcoreinfo"
			expect_failure "ppc64-gen-$mmu-bad-$1" "$3" "$MDF" -f --dump-dmesg -i "$WORK/$1.vmcoreinfo" "$dump" \
				"$WORK/bad.log"
		}
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

if "$MDF" -f --dump-kallsyms "$dump" "$t/kallsyms" >"$t/kallsyms.out" 2>&1; then
	same "ppc64-kallsyms-$guest" "$t/kallsyms" "$facts/kallsyms.txt"
else
	fail "ppc64-kallsyms-$guest" "$(tail -n 3 "$t/kallsyms.out")"
fi
if "$MDF" -f --dump-dmesg "$dump" "$t/dmesg" >"$t/dmesg.out" 2>&1; then
	check "ppc64-dmesg-$guest" $PYTHON "$PROJECT/tests/py/dmesgcheck.py" "$t/dmesg" "$facts/dmesg.txt"
else
	fail "ppc64-dmesg-$guest" "$(tail -n 3 "$t/dmesg.out")"
fi

# pfns DUMP_FILE: its page set as the oracle's results give it.
pfns() { $KDUMPSET pfns "$1" | head -n 1; }
for level in 1 31; do
	want=$(grep -m1 '^pfns=' "$oracle/results-d$level.txt")
	for opt in -l -c -z -p; do
		[ $level = 1 ] && [ $opt != -l ] && continue
		if "$MDF" -f $opt -d $level "$dump" "$t/d$level$opt.kdump" >"$t/d$level.out" 2>&1 &&
			got=$(pfns "$t/d$level$opt.kdump") && [ "$got" = "$want" ]; then
			pass "ppc64-d$level$opt-$guest"
		else
			fail "ppc64-d$level$opt-$guest" "${got:-$(tail -n 2 "$t/d$level.out")}, pgdfix: $want"
		fi
		got=
	done
	# The marker pages kept: every one at -d 1, no anon or page-cache one at -d 31 (the -l file's).
	if $PYTHON - "$t/d$level-l.kdump" "$VMCORES/$guest/marker-pfns.txt" "$level" >"$t/markers$level.log" 2>&1 <<EOF
import sys
sys.path.insert(0, '$PROJECT/tests/py')
from testlib import pfn_set
kept, level = pfn_set(sys.argv[1]), int(sys.argv[3])
markers = {}
for line in open(sys.argv[2]):
    if not line.startswith('#'):
        kind, pfn = line.split()
        markers.setdefault(kind, set()).add(int(pfn, 16))
bad = 0
for kind, pfns in sorted(markers.items()):
    held = len(pfns & kept)
    print(kind, 'marker pages kept:', held, 'of', len(pfns))
    bad += held != len(pfns) if level == 1 else kind in ('anon', 'pagecache') and held != 0
sys.exit(1 if bad else 0)
EOF
	then
		pass "ppc64-d$level-markers-$guest"
	else
		fail "ppc64-d$level-markers-$guest" "$(tr '\n' ';' <"$t/markers$level.log")"
	fi
done
want=$(grep -m1 '^pfns=' "$oracle/results-d31.txt")
if "$MDF" -f -F -l -d 31 "$dump" 2>"$t/flat.err" | "$MDF" -f -R "$t/flat.kdump" >"$t/flat.out" 2>&1 &&
	got=$(pfns "$t/flat.kdump") && [ "$got" = "$want" ]; then
	pass "ppc64-d31-flattened-$guest"
else
	fail "ppc64-d31-flattened-$guest" "${got:-$(tail -n 2 "$t/flat.out")}, pgdfix: $want"
fi
got=
if "$MDF" -f --split -l -d 31 "$dump" "$t/part1" "$t/part2" >"$t/split.out" 2>&1 &&
	"$MDF" -f --reassemble "$t/part1" "$t/part2" "$t/joined.kdump" >>"$t/split.out" 2>&1 &&
	got=$(pfns "$t/joined.kdump") && [ "$got" = "$want" ]; then
	pass "ppc64-d31-split-$guest"
else
	fail "ppc64-d31-split-$guest" "${got:-$(tail -n 2 "$t/split.out")}, pgdfix: $want"
fi
got=
# The -d 31 file and the -E file are dumps of their own: their symbols and log are the guest's.
if "$MDF" -f --dump-dmesg "$t/d31-l.kdump" "$t/dmesg.d31" >/dev/null 2>&1 &&
	"$MDF" -f --dump-kallsyms "$t/d31-l.kdump" "$t/kallsyms.d31" >/dev/null 2>&1; then
	same "ppc64-d31-dmesg-$guest" "$t/dmesg.d31" "$t/dmesg"
	same "ppc64-d31-kallsyms-$guest" "$t/kallsyms.d31" "$facts/kallsyms.txt"
else
	fail "ppc64-d31-readback-$guest" "the -d 31 file does not read back"
fi
if "$MDF" -f -E -d 31 "$dump" "$t/out.elf" >"$t/elf.out" 2>&1 &&
	"$MDF" -f --dump-kallsyms "$t/out.elf" "$t/kallsyms.elf" >/dev/null 2>&1 &&
	"$MDF" -f --dump-dmesg "$t/out.elf" "$t/dmesg.elf" >/dev/null 2>&1; then
	same "ppc64-elf-kallsyms-$guest" "$t/kallsyms.elf" "$facts/kallsyms.txt"
	same "ppc64-elf-dmesg-$guest" "$t/dmesg.elf" "$t/dmesg"
else
	fail "ppc64-elf-$guest" "$(tail -n 2 "$t/elf.out")"
fi
rm -f "$t"/*.kdump "$t/out.elf" "$t/part1" "$t/part2"

# --dump-type: the kernel's own VMCOREINFO lines are the oracle.
specs=$(sed -nE 's/^(SIZE|OFFSET)\(([a-z_.]+)\)=.*/\2/p' "$vi" | paste -sd, -)
if "$MDF" --dump-type "$specs" "$dump" >"$t/types" 2>"$t/types.err"; then
	sed -nE 's/^OFFSET\(([a-z_.]+)\)=([0-9]+)$/\1 offset=\2/p; s/^SIZE\(([a-z_]+)\)=([0-9]+)$/\1 size=\2/p' "$vi" \
		>"$t/types.want"
	sed -E 's/^([a-z_.]+\.[a-z_.]+ offset=[0-9]+) .*/\1/' "$t/types" >"$t/types.got"
	same "ppc64-dump-type-$guest" "$t/types.got" "$t/types.want"
else
	fail "ppc64-dump-type-$guest" "$(head -c 300 "$t/types.err")"
fi

# Tasks, labprobe's VMAs and its anonymous pages through its own page tables.
pid=$(cat "$facts/labprobe.pid")
if ! timeout 60 "$WALK" "$dump" tasks >"$t/tasks" 2>"$t/tasks.err"; then
	fail "ppc64-tasks-$guest" "$(head -c 300 "$t/tasks.err")"
elif grep -q "^$pid $pid labprobe 0xc000" "$t/tasks" && grep -q '^1 1 init 0xc000' "$t/tasks"; then
	pass "ppc64-tasks-$guest"
else
	fail "ppc64-tasks-$guest" "no labprobe with pid $pid, or no init: $(head -c 300 "$t/tasks")"
fi
if timeout 60 "$WALK" "$dump" vmas "$pid" >"$t/vmas" 2>"$t/vmas.err"; then
	same "ppc64-vmas-$guest" <(awk '{ print $1 "-" $2 }' "$t/vmas") <(awk '{ print $1 }' "$facts/labprobe-maps.txt")
else
	fail "ppc64-vmas-$guest" "$(head -c 300 "$t/vmas.err")"
fi
awk '$1 == "anon" { print $2, $3 }' "$facts/labprobe-pfns.txt" >"$t/anon"
if timeout 60 "$WALK" "$dump" uvtop "$pid" $(awk '{ print $1 }' "$t/anon") >"$t/uvtop" 2>"$t/uvtop.err"; then
	$PYTHON -c 'import sys
for l in open(sys.argv[1]):
    v, p = l.split()
    print(v, hex(int(p, 16) >> 12) if p.startswith("0x") else p)' "$t/uvtop" >"$t/uvtop.pfns"
	if [ -s "$t/anon" ]; then
		same "ppc64-uvtop-$guest" "$t/uvtop.pfns" "$t/anon"
	else
		fail "ppc64-uvtop-$guest" "no anon pages in $facts/labprobe-pfns.txt"
	fi
else
	fail "ppc64-uvtop-$guest" "$(head -c 300 "$t/uvtop.err")"
fi

# Extensions: labprobe_anon walks the tasks, drm_shmem_filter the vgem buffer, user_stack_keep the stack.
anon=$(extension_dir "anon-$guest" "$TEXT" labprobe_anon)
shm=$(extension_dir "shm-$guest" "$EXT" drm_shmem_filter)
awk '$1 == "vgem" { print $2 }' "$VMCORES/$guest/marker-pfns.txt" >"$t/vgem"
if "$MDF" -f -l -d 1 --no-extensions "$dump" "$t/base.kdump" >"$t/base.out" 2>&1; then
	if "$MDF" -f -l -d 1 --message-level 31 --extension-dir "$anon" "$dump" "$t/anon.kdump" >"$t/anon.out" 2>&1 &&
		grep -Eq '^labprobe_anon: labprobe: discarding [1-9][0-9]* anonymous pages' "$t/anon.out"; then
		pass "ppc64-ext-task-walk-labprobe-$guest"
		check "ppc64-ext-anon-removed-$guest" $EXTCHECK "$t/base.kdump" "$t/anon.kdump" \
			--markers "$VMCORES/$guest/marker-pfns.txt" --kind anon --removed --report "$t/anon.out"
	else
		fail "ppc64-ext-task-walk-labprobe-$guest" "$(grep -E 'labprobe_anon|error' "$t/anon.out" | head -n 3)"
	fi
	if "$MDF" -f -l -d 1 --message-level 31 --extension-dir "$shm" "$dump" "$t/shm.kdump" >"$t/shm.out" 2>&1; then
		check "ppc64-drm-shmem-vgem-$guest" $GPUCHECK "$t/base.kdump" "$t/shm.kdump" --removed "$t/vgem" \
			--report "$t/shm.out" --min 1024
	else
		fail "ppc64-drm-shmem-vgem-$guest" "$(tail -n 3 "$t/shm.out")"
	fi
else
	fail "ppc64-extensions-$guest" "the run without extensions failed: $(tail -n 3 "$t/base.out")"
fi
stk=$(extension_dir "stk-$guest" "$EXT" user_stack_keep)
range=$(awk '$NF == "[stack]" { print $1 }' "$facts/labprobe-maps.txt")
rss=$(grep -A 4 '\[stack\]$' "$facts/labprobe-smaps.txt" | awk '$1 == "Rss:" { print $2 / 4 }')
"$WALK" "$dump" uvtop "$pid" $($PYTHON -c 'import sys; s, e = (int(x, 16) for x in sys.argv[1].split("-"))
print(" ".join(hex(a) for a in range(s, e, 4096)))' "$range") 2>/dev/null |
	awk '$2 ~ /^0x/ { print $2 }' | $PYTHON -c 'import sys
for l in sys.stdin: print(hex(int(l, 16) >> 12))' >"$t/stack.pfns"
if [ "$(wc -l <"$t/stack.pfns")" != "$rss" ]; then
	fail "ppc64-stack-labprobe-$guest" "$(wc -l <"$t/stack.pfns") resident stack pages, smaps says $rss"
elif "$MDF" -f -l -d 31 --no-extensions "$dump" "$t/base31.kdump" >/dev/null 2>&1 &&
	"$MDF" -f -l -d 31 --message-level 31 --extension-dir "$stk" --extension-arg user_stack_keep:comm=labprobe \
		"$dump" "$t/stack.kdump" >"$t/stack.out" 2>&1; then
	check "ppc64-stack-labprobe-$guest" $GPUCHECK "$t/base31.kdump" "$t/stack.kdump" --kept "$t/stack.pfns" \
		--min "$rss"
else
	fail "ppc64-stack-labprobe-$guest" "$(tail -n 3 "$t/stack.out")"
fi
rm -f "$t"/*.kdump

# A page of the 64 KiB PGD past its first (where upstream's head reads none) is a page-table page.
if [ -s "$TEXT/discard_range.so" ]; then
	ranged=$(extension_dir ranged "$TEXT" discard_range)
	root=$(sed -n 's/^SYMBOL(swapper_pg_dir)=c0*//p' "$vi")
	pfn=0x$(printf '%x' $(( (0x$root >> 12) + 9 )))
	"$MDF" -f -l -d 31 --extension-dir "$ranged" --extension-arg discard_range:first=$pfn \
		--extension-arg discard_range:count=1 "$dump" "$t/t.kdump" >"$t/t.out" 2>&1
	grep -q "warning: extension discard_range leaves out 0x1 pages that hold struct pages or the kernel's page tables (the first: pfn $pfn)" \
		"$t/t.out" && pass ppc64-pgd-page-kept-$guest ||
		fail ppc64-pgd-page-kept-$guest "pfn $pfn: $(grep -i warning "$t/t.out" | head -n 2)"
	rm -f "$t/t.kdump"
fi
rm -f "$t/kexec.elf"
