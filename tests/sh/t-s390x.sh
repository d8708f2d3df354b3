#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# s390x: generated big-endian dumps of each DAT shape, and the real dump of
# Debian trixie's 6.12 kernel (big-endian, the kernel image apart from the
# identity map, QEMU's ELF without a VMCOREINFO note) end to end with no
# -i, against what the guest saw of itself and against upstream head's
# s390x build (../shared/oracles/upstream-head-s390x, which needed -i):
#
# Generated (mkvmcore --arch s390x) with 3, 4 and 5 levels, in the 6.10
# layout and the one before it (the image inside the identity map):
# - every translation the facts state (pages, an aged page, 1 MiB and
#   2 GiB frames, the identity map, a half-present segment table) and
#   every hole; libkdumpfile 0.5.1 reads the same bytes where it can
#   translate: the layout before 6.10, but for the aged page (hardware-
#   invalid, which it takes as not present, and Linux as present);
# - the note found in memory when the ELF has none;
# - a page-table loop, a table outside memory, VMCOREINFO of the other
#   layout than the tables: a one-line error each.
#
# The real dump:
# - VMCOREINFO: the kernel's own note, found in memory at the address the
#   guest's /sys/kernel/vmcoreinfo gives, said once; -i still wins;
# - translation: _text and __bss_start where the guest's /proc/iomem puts
#   the kernel's code and bss, kernel and module symbols, the identity map
#   and vmemmap as a walk written in Python from control register 1 (the
#   CPU's note) translates them, init_uts_ns holding `uname -r`
#   (tests/py/s390xvtop.py);
# - --dump-kallsyms is guest/kallsyms.txt, --dump-dmesg guest/dmesg.txt;
# - -l -d 31 and -d 1 keep upstream's page sets (kdumpset.py's digests),
#   and so do -c, -z, -p, a flattened stream put back with -R, and split
#   files put back with --reassemble, each big-endian as upstream on s390x
#   writes; -d 1 keeps every marker page, -d 31 none; the -d 31 file and
#   the big-endian -E file give the same symbols and log;
# - --dump-type answers VMCOREINFO's own SIZE() and OFFSET() lines, and a
#   module's type from its BTF;
# - tasks (labprobe with its pid), labprobe's VMAs and its anonymous pages
#   at the guest's pfns (walkread);
# - extensions: labprobe_anon finds labprobe and drops its anonymous
#   pages; user_stack_keep keeps labprobe's resident stack pages at -d 31;
#   one that discards a page of the kernel's page tables is warned of;
#   keyring erases a user key's payload for its big-endian datalen;
# - VMCOREINFO that contradicts the image (-i): KERNELOFFPHYS or
#   KERNELOFFSET off, IDENTITYBASE off, KERNELOFFSET outside memory, the
#   layout before 6.10, half of the 6.10 lines: a clear error each.
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

# ---- generated dumps: translation at each depth and layout, the search, bad input ----
GEN=$TOOLS/mkvmcore
if [ -x "$GEN" ]; then
	if $PYTHON -c 'import addrxlat, sys; sys.exit(not hasattr(addrxlat, "PTE_S390X"))' 2>/dev/null; then
		kv=yes
	else
		kv=
		skip s390x-gen-libkdumpfile "python3-libkdumpfile here has no s390x translation (no addrxlat.PTE_S390X)"
	fi
	for levels in 3 4 5; do
		for layout in 6.10 pre-6.10; do
			name=s390x-gen-$levels-levels-$layout
			opt=
			[ $layout = pre-6.10 ] && opt=--pre-6.10
			if ! "$GEN" --arch s390x --levels $levels $opt --facts "$WORK/$name.facts" \
				--vmcoreinfo-out "$WORK/$name.vmcoreinfo" "$WORK/$name.elf" >"$WORK/$name.gen.log" 2>&1; then
				fail "$name" "mkvmcore failed: $(tail -n 2 "$WORK/$name.gen.log")"
				continue
			fi
			check "$name-vtop" $PYTHON "$PROJECT/tests/py/gencheck.py" "$TOOLS/dumpread" "$WORK/$name.elf" \
				"$WORK/$name.facts" vtop
			# libkdumpfile 0.5.1 knows no KERNELOFFPHYS: it translates the layout before 6.10 only.
			if [ $layout = pre-6.10 ] && [ -n "$kv" ]; then
				check "$name-libkdumpfile" $PYTHON "$PROJECT/tests/py/kvcheck.py" "$WORK/$name.elf" \
					"$WORK/$name.facts" 4096 10
			fi
			rm -f "$WORK/$name.elf"
		done
		# The note in memory past none in the ELF; the dump has no kallsyms, so the run itself fails.
		"$GEN" --arch s390x --levels $levels --no-note --facts "$WORK/nonote.facts" "$WORK/nonote.elf" >/dev/null 2>&1
		note=$(sed -n 's/^note_paddr=//p' "$WORK/nonote.facts")
		"$MDF" -f --dump-kallsyms "$WORK/nonote.elf" "$WORK/out.txt" >/dev/null 2>"$WORK/found.err"
		if [ -n "$note" ] && grep -Eq "warning: .*$FOUND $note and checked against init_uts_ns$" "$WORK/found.err"; then
			pass "s390x-gen-$levels-levels-vmcoreinfo-found"
		else
			fail "s390x-gen-$levels-levels-vmcoreinfo-found" "want the note at $note: $(head -c 300 "$WORK/found.err")"
		fi
		"$GEN" --arch s390x --levels $levels --damage loop "$WORK/loop.elf" >/dev/null 2>&1
		expect_failure s390x-gen-$levels-levels-page-table-loop \
			'page-table loop: walking 0x[0-9a-f]+, the table at 0x[0-9a-f]+ points back to the table at 0x[0-9a-f]+' \
			"$MDF" -f --dump-dmesg "$WORK/loop.elf" "$WORK/loop.log"
		"$GEN" --arch s390x --levels $levels --damage outside "$WORK/outside.elf" >/dev/null 2>&1
		expect_failure s390x-gen-$levels-levels-table-outside-memory \
			'the page table at 0x4000000000 is not in the dump \(address not in the dump.s memory\), but the one at 0x[0-9a-f]+ points there for SYMBOL\(_stext\)' \
			"$MDF" -f --dump-dmesg "$WORK/outside.elf" "$WORK/outside.log"
	done
	# VMCOREINFO of the other layout than the tables (-i): each is said, not followed.
	name=s390x-gen-3-levels-pre-6.10
	"$GEN" --arch s390x --levels 3 --pre-6.10 --vmcoreinfo-out "$WORK/pre.vmcoreinfo" "$WORK/pre.elf" >/dev/null 2>&1
	printf 'IDENTITYBASE=0\nKERNELOFFPHYS=200000\n' >>"$WORK/pre.vmcoreinfo"
	expect_failure s390x-gen-pre-6.10-said-apart \
		'the kernel page tables \(SYMBOL\(swapper_pg_dir\) - KERNELOFFSET \+ KERNELOFFPHYS\): swapper_pg_dir at physical 0x800000 is a segment table' \
		"$MDF" -f --dump-dmesg -i "$WORK/pre.vmcoreinfo" "$WORK/pre.elf" "$WORK/pre.log"
	"$GEN" --arch s390x --levels 4 --vmcoreinfo-out "$WORK/apart.vmcoreinfo" "$WORK/apart.elf" >/dev/null 2>&1
	sed -i '/^KERNELOFFPHYS=/d; /^IDENTITYBASE=/d' "$WORK/apart.vmcoreinfo"
	expect_failure s390x-gen-6.10-said-pre-6.10 \
		'the kernel page tables \(SYMBOL\(swapper_pg_dir\), the image in the identity map at 0\): swapper_pg_dir at physical 0x[0-9a-f]+ does not read' \
		"$MDF" -f --dump-dmesg -i "$WORK/apart.vmcoreinfo" "$WORK/apart.elf" "$WORK/apart.log"
	rm -f "$WORK"/{nonote,loop,outside,pre,apart}.elf
else
	skip s390x-gen "no $GEN"
fi

guest=6.12-s390x-qemu
if ! dump=$(fixture "$guest.elf"); then
	skip "s390x-$guest" "no $VMCORES/$guest/vmcore.elf.zst"
	exit 0
fi
facts=$VMCORES/$guest/guest
vi=$VMCORES/$guest/vmcoreinfo.txt
oracle=$SHARED/oracles/upstream-head-s390x
t=$WORK/$guest
mkdir -p "$t"

# The note where the guest's /sys/kernel/vmcoreinfo says it is, once; none with -i.
note=$(printf '0x%x' "$(( $(cut -d' ' -f1 "$facts/sys-kernel-vmcoreinfo.txt") ))")
if "$MDF" -f --dump-kallsyms "$dump" "$t/kallsyms" 2>"$t/kallsyms.err" >/dev/null &&
	[ "$(grep -c 'VMCOREINFO' "$t/kallsyms.err")" = 1 ] &&
	grep -Eq "warning: .*$FOUND $note and checked against init_uts_ns$" "$t/kallsyms.err"; then
	pass "s390x-vmcoreinfo-in-memory-$guest"
else
	fail "s390x-vmcoreinfo-in-memory-$guest" "want the note at $note: $(head -c 400 "$t/kallsyms.err")"
fi
if "$MDF" -f -i "$vi" --dump-kallsyms "$dump" "$t/kallsyms.i" 2>"$t/i.err" >/dev/null &&
	! grep -q VMCOREINFO "$t/i.err" && cmp -s "$t/kallsyms.i" "$t/kallsyms"; then
	pass "s390x-vmcoreinfo-i-wins-$guest"
else
	fail "s390x-vmcoreinfo-i-wins-$guest" "$(head -c 300 "$t/i.err")"
fi
same "s390x-kallsyms-$guest" "$t/kallsyms" "$facts/kallsyms.txt"

check "s390x-vtop-$guest" $PYTHON "$PROJECT/tests/py/s390xvtop.py" "$TOOLS/dumpread" "$dump" "$vi" "$facts"

if "$MDF" -f --dump-dmesg "$dump" "$t/dmesg" >"$t/dmesg.out" 2>&1; then
	same "s390x-dmesg-$guest" "$t/dmesg" "$facts/dmesg.txt"
else
	fail "s390x-dmesg-$guest" "$(tail -n 3 "$t/dmesg.out")"
fi

# The page sets of upstream head (run with -i on a kexec-layout copy), with each writer, big-endian.
oracle_digest() { sed -n '/^--- kdumpset.py pfns OUT ---$/{n;p;q}' "$oracle/results-d$1.txt"; }
big_endian() { $KDUMPSET info "$1" 2>/dev/null | grep -q ' byte_order=big$'; }
for level in 1 31; do
	want=$(oracle_digest $level)
	[ -n "$want" ] || { skip "s390x-d$level-$guest" "no digest in $oracle/results-d$level.txt"; continue; }
	for opt in -l -c -z -p; do
		if "$MDF" -f $opt -d $level "$dump" "$t/out.kdump" >"$t/d$level.out" 2>&1 &&
			got=$($KDUMPSET pfns "$t/out.kdump") && [ "$got" = "$want" ] && big_endian "$t/out.kdump"; then
			pass "s390x-d$level$opt-$guest"
		else
			fail "s390x-d$level$opt-$guest" "${got:-$(tail -n 2 "$t/d$level.out")}, upstream: $want" \
				"($($KDUMPSET info "$t/out.kdump" 2>&1 | head -c 200))"
		fi
		got=
	done
	cp "$t/out.kdump" "$t/d$level.kdump"
done
check "s390x-d1-markers-kept-$guest" $PYTHON "$PROJECT/tests/py/markerkinds.py" "$t/d1.kdump" \
	"$VMCORES/$guest/marker-pfns.txt" --kept anon,pagecache
check "s390x-d31-markers-dropped-$guest" $PYTHON "$PROJECT/tests/py/markerkinds.py" "$t/d31.kdump" \
	"$VMCORES/$guest/marker-pfns.txt" --dropped anon,pagecache
want=$(oracle_digest 31)
if "$MDF" -f -F -l -d 31 "$dump" 2>"$t/flat.err" | "$MDF" -f -R "$t/out.kdump" >"$t/flat.out" 2>&1 &&
	got=$($KDUMPSET pfns "$t/out.kdump") && [ "$got" = "$want" ] && big_endian "$t/out.kdump"; then
	pass "s390x-d31-flattened-$guest"
else
	fail "s390x-d31-flattened-$guest" "${got:-$(tail -n 2 "$t/flat.out")}, upstream: $want"
fi
got=
if "$MDF" -f -l -d 31 --split "$dump" "$t/part1" "$t/part2" >"$t/split.out" 2>&1 &&
	big_endian "$t/part1" && big_endian "$t/part2" &&
	"$MDF" -f --reassemble "$t/part1" "$t/part2" "$t/out.kdump" >>"$t/split.out" 2>&1 &&
	got=$($KDUMPSET pfns "$t/out.kdump") && [ "$got" = "$want" ] && big_endian "$t/out.kdump"; then
	pass "s390x-d31-split-$guest"
else
	fail "s390x-d31-split-$guest" "${got:-$(tail -n 2 "$t/split.out")}, upstream: $want"
fi
got=
rm -f "$t/part1" "$t/part2"
# The -d 31 file is a dump of its own (the note found in it again): its log and symbols are the guest's.
if "$MDF" -f --dump-dmesg "$t/d31.kdump" "$t/dmesg.d31" >/dev/null 2>&1 &&
	"$MDF" -f --dump-kallsyms "$t/d31.kdump" "$t/kallsyms.d31" >/dev/null 2>&1; then
	same "s390x-d31-dmesg-$guest" "$t/dmesg.d31" "$t/dmesg"
	same "s390x-d31-kallsyms-$guest" "$t/kallsyms.d31" "$t/kallsyms"
else
	fail "s390x-d31-readback-$guest" "--dump-dmesg or --dump-kallsyms fails on the -d 31 file"
fi
if "$MDF" -f -E -d 31 "$dump" "$t/out.elf" >"$t/elf.out" 2>&1 &&
	[ "$(od -An -tx1 -j5 -N1 "$t/out.elf" | tr -d ' ')" = 02 ] &&
	"$MDF" -f --dump-kallsyms "$t/out.elf" "$t/kallsyms.elf" >/dev/null 2>&1 &&
	"$MDF" -f --dump-dmesg "$t/out.elf" "$t/dmesg.elf" >/dev/null 2>&1; then
	same "s390x-elf-kallsyms-$guest" "$t/kallsyms.elf" "$t/kallsyms"
	same "s390x-elf-dmesg-$guest" "$t/dmesg.elf" "$t/dmesg"
else
	fail "s390x-elf-$guest" "not a big-endian ELF, or it does not read back: $(tail -n 2 "$t/elf.out")"
fi
rm -f "$t/out.kdump" "$t/out.elf"

# --dump-type: the kernel's own VMCOREINFO lines are the oracle.
specs=$(sed -nE 's/^(SIZE|OFFSET)\(([a-z_.]+)\)=.*/\2/p' "$vi" | paste -sd, -)
if "$MDF" --dump-type "$specs" "$dump" >"$t/types" 2>"$t/types.err"; then
	sed -nE 's/^OFFSET\(([a-z_.]+)\)=([0-9]+)$/\1 offset=\2/p; s/^SIZE\(([a-z_]+)\)=([0-9]+)$/\1 size=\2/p' "$vi" \
		>"$t/types.want"
	sed -E 's/^([a-z_.]+\.[a-z_.]+ offset=[0-9]+) .*/\1/' "$t/types" >"$t/types.got"
	same "s390x-dump-type-$guest" "$t/types.got" "$t/types.want"
else
	fail "s390x-dump-type-$guest" "$(head -c 300 "$t/types.err")"
fi
# virtio_blk, the one module the guest loaded (guest/lsmod.txt): struct virtio_blk's vdev follows a 32-byte mutex.
if out=$("$MDF" --dump-type virtio_blk:virtio_blk.vdev "$dump" 2>/dev/null) &&
	[[ $out =~ ^virtio_blk:virtio_blk.vdev\ offset=[0-9]+\ size=8\ bitfield=0$ ]]; then
	pass "s390x-dump-type-module-$guest"
else
	fail "s390x-dump-type-module-$guest" "$out"
fi

# Tasks, labprobe's VMAs and its anonymous pages (walkread, tests/sh/t-walkers.sh's tool).
pid=$(cat "$facts/labprobe.pid")
if ! timeout 60 "$WALK" "$dump" tasks >"$t/tasks" 2>"$t/tasks.err"; then
	fail "s390x-tasks-$guest" "$(head -c 300 "$t/tasks.err")"
elif grep -q "^$pid $pid labprobe 0x" "$t/tasks" && grep -q '^1 1 init 0x' "$t/tasks"; then
	pass "s390x-tasks-$guest"
else
	fail "s390x-tasks-$guest" "no labprobe with pid $pid, or no init: $(head -c 300 "$t/tasks")"
fi
if timeout 60 "$WALK" "$dump" vmas "$pid" >"$t/vmas" 2>"$t/vmas.err"; then
	same "s390x-vmas-$guest" <(awk '{ print $1 "-" $2 }' "$t/vmas") <(awk '{ print $1 }' "$facts/labprobe-maps.txt")
else
	fail "s390x-vmas-$guest" "$(head -c 300 "$t/vmas.err")"
fi
awk '$1 == "anon" { print $2, $3 }' "$facts/labprobe-pfns.txt" >"$t/anon"
if timeout 60 "$WALK" "$dump" uvtop "$pid" $(awk '{ print $1 }' "$t/anon") >"$t/uvtop" 2>"$t/uvtop.err"; then
	# "vaddr paddr" against the guest's "vaddr pfn"
	$PYTHON -c 'import sys
for l in open(sys.argv[1]):
    v, p = l.split()
    print(v, hex(int(p, 16) >> 12) if p.startswith("0x") else p)' "$t/uvtop" >"$t/uvtop.pfns"
	if [ -s "$t/anon" ]; then
		same "s390x-uvtop-$guest" "$t/uvtop.pfns" "$t/anon"
	else
		fail "s390x-uvtop-$guest" "no anon pages in $facts/labprobe-pfns.txt"
	fi
else
	fail "s390x-uvtop-$guest" "$(head -c 300 "$t/uvtop.err")"
fi

# Extensions: labprobe_anon walks the tasks (no DRM in this kernel: no vgem buffer to drop).
anon=$(extension_dir "anon-$guest" "$TEXT" labprobe_anon)
if "$MDF" -f -l -d 1 --no-extensions "$dump" "$t/base.kdump" >"$t/base.out" 2>&1; then
	if "$MDF" -f -l -d 1 --message-level 31 --extension-dir "$anon" "$dump" "$t/anon.kdump" >"$t/anon.out" 2>&1 &&
		grep -Eq '^labprobe_anon: labprobe: discarding [1-9][0-9]* anonymous pages' "$t/anon.out"; then
		pass "s390x-ext-task-walk-labprobe-$guest"
		check "s390x-ext-anon-removed-$guest" $EXTCHECK "$t/base.kdump" "$t/anon.kdump" \
			--markers "$VMCORES/$guest/marker-pfns.txt" --kind anon --removed --report "$t/anon.out"
	else
		fail "s390x-ext-task-walk-labprobe-$guest" "$(grep -E 'labprobe_anon|error' "$t/anon.out" | head -n 3)"
	fi
else
	fail "s390x-extensions-$guest" "the run without extensions failed: $(tail -n 3 "$t/base.out")"
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
	fail "s390x-stack-labprobe-$guest" "$(wc -l <"$t/stack.pfns") resident stack pages, smaps says $rss"
elif "$MDF" -f -l -d 31 --no-extensions "$dump" "$t/base31.kdump" >/dev/null 2>&1 &&
	"$MDF" -f -l -d 31 --message-level 31 --extension-dir "$stk" --extension-arg user_stack_keep:comm=labprobe \
		"$dump" "$t/stack.kdump" >"$t/stack.out" 2>&1; then
	check "s390x-stack-labprobe-$guest" $GPUCHECK "$t/base31.kdump" "$t/stack.kdump" --kept "$t/stack.pfns" \
		--min "$rss"
else
	fail "s390x-stack-labprobe-$guest" "$(tail -n 3 "$t/stack.out")"
fi
rm -f "$t"/*.kdump

# An extension that discards a page of the kernel's page tables is warned
# about, at each level on the way to _stext (found by s390xvtop.py's walk).
if [ -s "$TEXT/discard_range.so" ]; then
	ranged=$(extension_dir ranged "$TEXT" discard_range)
	tables=$($PYTHON "$PROJECT/tests/py/s390xvtop.py" tables "$dump" "$vi")
	[ "$(wc -l <<<"$tables")" -ge 2 ] || fail s390x-page-tables "fewer than two levels of tables: $tables"
	while read -r table pfn; do
		"$MDF" -f -l -d 31 --extension-dir "$ranged" --extension-arg discard_range:first=$pfn \
			--extension-arg discard_range:count=1 "$dump" "$WORK/t.kdump" >"$WORK/t.out" 2>&1
		grep -q "warning: extension discard_range leaves out 0x1 pages that hold struct pages or the kernel's page tables (the first: pfn $pfn)" \
			"$WORK/t.out" && pass s390x-page-table-$table ||
			fail s390x-page-table-$table "pfn $pfn: $(grep -i warning "$WORK/t.out" | head -n 2)"
	done <<<"$tables"
	rm -f "$WORK/t.kdump"
fi

# keyring (eppic_scripts) erases a user key's payload for its datalen, a
# big-endian u16 (mdf_read_u16): the two bytes before the data, decoded
# here, at the offsets BTF gives.
keyring=$(extension_dir keyring "$(dirname "$TOOLS")/eppic_scripts" keyring)
if "$MDF" -f -l -d 31 --extension-dir "$keyring" --message-level 31 "$dump" "$WORK/keys.kdump" >"$t/keys.out" 2>&1 &&
	line=$(grep -E '^keyring: key at 0x[0-9a-f]+ \(user\): erased [0-9]+ bytes at 0x[0-9a-f]+$' "$t/keys.out" | head -n 1) &&
	[ -n "$line" ] && ! grep -q 'cannot' "$t/keys.out"; then
	read -r erased data <<<"$(sed -E 's/.*erased ([0-9]+) bytes at (0x[0-9a-f]+)$/\1 \2/' <<<"$line")"
	types=$("$MDF" --dump-type user_key_payload.datalen,user_key_payload.data "$dump" 2>/dev/null)
	len_off=$(sed -n 's/^user_key_payload.datalen offset=\([0-9]*\) size=2 .*/\1/p' <<<"$types")
	data_off=$(sed -n 's/^user_key_payload.data offset=\([0-9]*\) .*/\1/p' <<<"$types")
	datalen=$("$TOOLS/dumpread" "$dump" virt $(printf '0x%x' $((data - data_off + len_off))) 2 |
		$PYTHON -c 'import sys; print(int.from_bytes(sys.stdin.buffer.read(2), "big"))')
	if [ -n "$len_off" ] && [ "$erased" = "$datalen" ]; then
		pass "s390x-keyring-user-key-$guest"
	else
		fail "s390x-keyring-user-key-$guest" "erased $erased bytes, datalen is $datalen: $line"
	fi
else
	fail "s390x-keyring-user-key-$guest" "$(grep keyring "$t/keys.out" | head -n 3)"
fi
rm -f "$WORK/keys.kdump"

# VMCOREINFO against the image and the page tables, through -i.
bad() {
	sed -E "$2" "$vi" >"$WORK/$1.vmcoreinfo"
	expect_failure "s390x-bad-$1" "$3" "$MDF" -f --dump-dmesg -i "$WORK/$1.vmcoreinfo" "$dump" "$WORK/bad.log"
}
bad kerneloffphys 's/^KERNELOFFPHYS=.*/KERNELOFFPHYS=9f4000/' \
	'swapper_pg_dir at physical 0x2140000 is no page table: its entry 0 says segment table, its entry 1 region-second table'
bad kerneloffset 's/^KERNELOFFSET=.*/KERNELOFFSET=3fffe6f4000/' \
	'the kernel page tables \(SYMBOL\(swapper_pg_dir\) - KERNELOFFSET \+ KERNELOFFPHYS\): swapper_pg_dir at physical 0x2140000'
bad kerneloffset-outside 's/^KERNELOFFSET=.*/KERNELOFFSET=7fffe7f4000/' \
	'swapper_pg_dir at physical 0xfffffc0002040000 does not read: address not in the dump.s memory'
bad identitybase 's/^IDENTITYBASE=.*/IDENTITYBASE=100000/' \
	'IDENTITYBASE=100000 puts SYMBOL\(mem_section\)=1fd94000 at physical 0x1fc94000, but the page tables map it elsewhere'
bad pre-6.10 '/^KERNELOFFPHYS=/d; /^IDENTITYBASE=/d' \
	'the kernel page tables \(SYMBOL\(swapper_pg_dir\), the image in the identity map at 0\): swapper_pg_dir at physical 0x3fffff40000 does not read'
bad half-6.10 '/^IDENTITYBASE=/d' \
	'VMCOREINFO has KERNELOFFPHYS, the kernel image apart from the identity map \(Linux 6.10 and later\), but not IDENTITYBASE and KERNELOFFSET too'
bad not-hex 's/^KERNELOFFPHYS=.*/KERNELOFFPHYS=xyz/' 'VMCOREINFO.s KERNELOFFPHYS=xyz is not a hex number'
bad page-size 's/^PAGESIZE=.*/PAGESIZE=65536/' 'PAGESIZE=65536'
