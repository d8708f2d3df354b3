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
# The checks each architecture runs alike (guest_*, same, ...).
. "$(dirname "$0")/arch_checks.sh"

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
		# The note in memory past none in the ELF.
		"$GEN" --arch s390x --levels $levels --no-note --facts "$WORK/nonote.facts" "$WORK/nonote.elf" >/dev/null 2>&1
		gen_vmcoreinfo_found "s390x-gen-$levels-levels-vmcoreinfo-found" "$WORK/nonote.elf" "$WORK/nonote.facts"
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
g=(s390x "$guest" "$dump")
facts=$VMCORES/$guest/guest
vi=$VMCORES/$guest/vmcoreinfo.txt
oracle=$SHARED/oracles/upstream-head-s390x
t=$WORK/$guest
mkdir -p "$t"

guest_vmcoreinfo_in_memory "${g[@]}"
same "s390x-kallsyms-$guest" "$t/kallsyms" "$facts/kallsyms.txt"
check "s390x-vtop-$guest" $PYTHON "$PROJECT/tests/py/s390xvtop.py" "$TOOLS/dumpread" "$dump" "$vi" "$facts"
# The guest's dmesg.txt holds the whole ring.
guest_dmesg "${g[@]}" exact

# The page sets of upstream head (run with -i on a kexec-layout copy), with
# each writer, big-endian as upstream on s390x writes them.
oracle_digest() { sed -n '/^--- kdumpset.py pfns OUT ---$/{n;p;q}' "$oracle/results-d$1.txt"; }
for level in 1 31; do
	want=$(oracle_digest $level)
	[ -n "$want" ] || { skip "s390x-d$level-$guest" "no digest in $oracle/results-d$level.txt"; continue; }
	guest_writers "${g[@]}" $level "$want" upstream big-endian -l -c -z -p
done
# No vgem marker: this kernel has no DRM.
check "s390x-d1-markers-kept-$guest" $PYTHON "$PROJECT/tests/py/markerkinds.py" "$t/d1-p.kdump" \
	"$VMCORES/$guest/marker-pfns.txt" --kept anon,pagecache
check "s390x-d31-markers-dropped-$guest" $PYTHON "$PROJECT/tests/py/markerkinds.py" "$t/d31-p.kdump" \
	"$VMCORES/$guest/marker-pfns.txt" --dropped anon,pagecache
want=$(oracle_digest 31)
guest_flattened "${g[@]}" "$want" upstream big-endian
guest_split "${g[@]}" "$want" upstream big-endian
# The -d 31 file is a dump of its own (the note found in it again).
guest_d31_readback s390x "$guest" "$t/d31-p.kdump" "$t/kallsyms"
guest_elf_readback "${g[@]}" "$t/kallsyms" big-endian
rm -f "$t"/*.kdump

guest_dump_type "${g[@]}"
# virtio_blk, the one module the guest loaded (guest/lsmod.txt): struct virtio_blk's vdev follows a 32-byte mutex.
guest_dump_type_module "${g[@]}" virtio_blk:virtio_blk.vdev
guest_tasks_vmas_uvtop "${g[@]}" 0x

# No DRM in this kernel: no vgem buffer for drm_shmem_filter to drop.
guest_ext_base "${g[@]}" && guest_ext_labprobe_anon "${g[@]}"
guest_stack_labprobe "${g[@]}"
rm -f "$t"/*.kdump

# An extension that discards a page of the kernel's page tables is warned
# about, at each level on the way to _stext (found by s390xvtop.py's walk).
if [ -s "$TEXT/discard_range.so" ]; then
	tables=$($PYTHON "$PROJECT/tests/py/s390xvtop.py" tables "$dump" "$vi")
	[ "$(wc -l <<<"$tables")" -ge 2 ] || fail s390x-page-tables "fewer than two levels of tables: $tables"
	page_tables_warned s390x-page-table "$dump" "$tables"
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
bad() { bad_vmcoreinfo s390x "$dump" "$vi" "$@"; }
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
