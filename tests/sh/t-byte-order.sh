#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Byte order in the formats (input/, output/), against readers that share
# nothing with ours:
#  - the s390x dump, big-endian throughout: its segments and notes as
#    readelf lists them (its folder's readelf-l.txt, readelf-n.txt), each
#    page as ../shared/tools/kdumpset.py reads it;
#  - upstream's s390x build (../shared/oracles/upstream-head-s390x) under
#    qemu-s390x writes real big-endian kdump files of it (-c -d 31, -d 1,
#    --split, -F, -E -d 1): we read each page as kdumpset.py does; -R of
#    its stream and --reassemble of its parts give its own files byte for
#    byte; our writers, given every page at dump level 1 (dumpread write),
#    give its -d 1 and -E -d 1 files byte for byte, and our -d 31 of the
#    ELF as QEMU wrote it, with no -i, its -d 31 file;
#  - QEMU's mislabelled ppc64el ELF (headers and notes big-endian, memory
#    little-endian): settled little-endian from the CPUs' MSR, with one
#    warning; segments, notes and pages as readelf and kdumpset.py read
#    them; a kdump file of it is little-endian, its notes as they were,
#    and python3-libkdumpfile reads its pages as we do; an ELF file of it
#    keeps its big-endian headers and is settled the same.  CPUs whose MSRs
#    disagree: a one-line error; no CPU that says: the headers' order,
#    named in a warning;
#  - an x86_64 dump with big-endian headers (elf-relayout.py --order big):
#    x86_64 runs little-endian only, so its memory is read so, with one
#    warning; -d 31 writes the original's file byte for byte, and -E keeps
#    the input's (big-endian) order with the original's pages;
#  - a kdump file of x86_64 whose header is big-endian (byteordercheck.py
#    swap-kdump): its pages read as the original's, and filtering it is a
#    one-line error: the order of its memory cannot be settled.
. "$(dirname "$0")/../lib.sh" || exit 2

CHECK="$PYTHON $PROJECT/tests/py/byteordercheck.py"
export KDUMPSET=$SHARED/tools/kdumpset.py
KDUMPSET_RUN="$PYTHON $KDUMPSET"
DUMPREAD=$TOOLS/dumpread
UPSTREAM_S390X=$SHARED/oracles/upstream-head-s390x/makedumpfile
QEMU_S390X=$(command -v qemu-s390x || true)

# info_has NAME FILE LINE...: dumpread's info on FILE has every LINE.
info_has() {
	local name=$1 file=$2 line
	shift 2
	"$DUMPREAD" "$file" info >"$WORK/$name.info" 2>"$WORK/$name.err" || {
		fail "$name" "dumpread info failed: $(head -c 300 "$WORK/$name.err")"
		return
	}
	for line in "$@"; do
		grep -qx "$line" "$WORK/$name.info" || {
			fail "$name" "no line '$line' in: $(grep -v '^range' "$WORK/$name.info" | tr '\n' ' ')"
			return
		}
	done
	pass "$name"
}

# kdumpset_order NAME FILE ORDER: kdumpset.py reads FILE in ORDER.
kdumpset_order() {
	check "$1" bash -c '$0 info "$1" | grep -q "byte_order=$2\$"' "$KDUMPSET_RUN" "$2" "$3"
}

# --- s390x: big-endian throughout ---
s390x=$(fixture 6.12-s390x-qemu.elf)
if [ -n "$s390x" ]; then
	folder=$VMCORES/6.12-s390x-qemu
	info_has order-s390x-elf "$s390x" "byte_order big" "notes_order big" "memory_order big"
	check order-s390x-segments $CHECK segments "$DUMPREAD" "$s390x" "$folder/readelf-l.txt"
	check order-s390x-notes $CHECK notes "$DUMPREAD" "$s390x" "$folder/readelf-n.txt"
	check order-s390x-pages $CHECK pages "$DUMPREAD" "$s390x"
	check order-s390x-no-warning bash -c '! "$0" "$1" info 2>&1 >/dev/null | grep -q .' "$DUMPREAD" "$s390x"
else
	skip order-s390x "no $VMCORES/6.12-s390x-qemu"
fi

relayout=$(fixture 6.12-s390x-qemu.relayout.elf)
if [ -n "$s390x" ] && [ -n "$relayout" ] && [ -x "$UPSTREAM_S390X" ] && [ -n "$QEMU_S390X" ]; then
	vi=$VMCORES/6.12-s390x-qemu/vmcoreinfo.txt
	up() { "$QEMU_S390X" "$UPSTREAM_S390X" "$@" -i "$vi" >"$WORK/up.log" 2>&1; }
	up -c -d 31 "$relayout" "$WORK/up-d31.kdump" &&
		up -d 1 "$relayout" "$WORK/up-d1.kdump" &&
		up -c -d 31 --split --splitblock-size 4096 "$relayout" "$WORK/up-part1" "$WORK/up-part2" &&
		up -E -d 1 "$relayout" "$WORK/up-d1.elf" &&
		up -d 31 "$relayout" "$WORK/up-d31-plain.kdump" &&
		{ "$QEMU_S390X" "$UPSTREAM_S390X" -c -d 31 -F -i "$vi" "$relayout" >"$WORK/up-d31.flat" 2>/dev/null; }
	made=$?
fi
if [ -n "${made:-}" ] && [ "$made" -eq 0 ]; then
	kdumpset_order order-upstream-s390x-is-big "$WORK/up-d31.kdump" big
	for f in up-d31.kdump up-d1.kdump up-part1 up-part2; do
		info_has "order-read-$f" "$WORK/$f" "byte_order big" "notes_order big" "memory_order big"
		check "order-pages-$f" $CHECK pages "$DUMPREAD" "$WORK/$f"
	done
	# The page set upstream's README records for -d 31, by kdumpset.py's digest.
	want=$(sed -n 's/^pfns=\([0-9]*\) digest=\([0-9a-f]*\)$/\1 \2/p' \
		"$SHARED/oracles/upstream-head-s390x/results-d31.txt" | head -n 1)
	check order-flat-reassembled bash -c '"$0" -f -R "$1" <"$2" >/dev/null 2>&1 && cmp "$1" "$3"' \
		"$MDF" "$WORK/re-flat.kdump" "$WORK/up-d31.flat" "$WORK/up-d31.kdump"
	check order-flat-pfn-set bash -c '[ -n "$3" ] && $0 pfns "$1" | grep -qx "pfns=${3% *} digest=${3#* }"' \
		"$KDUMPSET_RUN" "$WORK/re-flat.kdump" "$WORK/up-d31.kdump" "$want"
	"$QEMU_S390X" "$UPSTREAM_S390X" --reassemble "$WORK/up-part1" "$WORK/up-part2" "$WORK/up-re.kdump" \
		>/dev/null 2>&1
	check order-split-reassembled bash -c '"$0" -f --reassemble "$1" "$2" "$3" >/dev/null 2>&1 &&
		cmp "$3" "$4"' "$MDF" "$WORK/up-part2" "$WORK/up-part1" "$WORK/re-split.kdump" "$WORK/up-re.kdump"
	# Our writers, in the machine's order: upstream's files byte for byte.
	check order-kdump-writer-big "$DUMPREAD" "$s390x" write kdump "$WORK/ours-d1.kdump" "$WORK/up-d1.kdump"
	check order-kdump-writer-as-upstream cmp "$WORK/ours-d1.kdump" "$WORK/up-d1.kdump"
	check order-elf-writer-big "$DUMPREAD" "$s390x" write elf "$WORK/ours-d1.elf"
	check order-elf-writer-as-upstream cmp "$WORK/ours-d1.elf" "$WORK/up-d1.elf"
	kdumpset_order order-elf-writer-kdumpset "$WORK/ours-d1.elf" big
	# Filtered by us from the ELF as QEMU wrote it, with no -i: upstream's -d 31 file byte for byte.
	check order-s390x-d31-as-upstream bash -c '"$0" -f -d 31 "$1" "$2" >/dev/null 2>&1 && cmp "$2" "$3"' \
		"$MDF" "$s390x" "$WORK/ours-d31-plain.kdump" "$WORK/up-d31-plain.kdump"
	rm -f "$WORK"/up-* "$WORK"/re-* "$WORK"/ours-*
else
	skip order-upstream-s390x "needs the s390x dump, its relayouted fixture, qemu-s390x and $UPSTREAM_S390X (or upstream failed: $(tail -n 2 "$WORK/up.log" 2>/dev/null | tr '\n' ' '))"
fi

# --- ppc64el: QEMU's big-endian headers over little-endian memory ---
ppc=$(fixture 6.12-ppc64el-qemu.elf)
if [ -n "$ppc" ]; then
	folder=$VMCORES/6.12-ppc64el-qemu
	info_has order-ppc64el-settled "$ppc" "byte_order big" "notes_order big" "memory_order little"
	check order-ppc64el-one-warning bash -c '[ "$(grep -c "" "$1")" = 1 ] && grep -q "warning: .*the ELF headers say big-endian, but the MSR of the CPUs says little-endian.*the memory is read little-endian" "$1"' \
		_ "$WORK/order-ppc64el-settled.err"
	check order-ppc64el-segments $CHECK segments "$DUMPREAD" "$ppc" "$folder/readelf-l.txt"
	check order-ppc64el-notes $CHECK notes "$DUMPREAD" "$ppc" "$folder/readelf-n.txt"
	check order-ppc64el-pages $CHECK pages "$DUMPREAD" "$ppc"
	# A kdump file of it: the machine's order, little-endian, its notes as they were.
	if "$DUMPREAD" "$ppc" write kdump "$WORK/ppc.kdump" >/dev/null 2>&1; then
		kdumpset_order order-ppc64el-kdump-little "$WORK/ppc.kdump" little
		crc=$(grep '^notes_crc32' "$WORK/order-ppc64el-settled.info")
		info_has order-ppc64el-kdump-notes "$WORK/ppc.kdump" "byte_order little" "notes_order big" \
			"memory_order little" "$crc"
		check order-ppc64el-kdump-libkdumpfile $PYTHON "$PROJECT/tests/py/kdumpcheck.py" "$DUMPREAD" \
			"$WORK/ppc.kdump" "$folder/marker-pfns.txt" --random 300
	else
		fail order-ppc64el-kdump "dumpread could not write a kdump file of $ppc"
	fi
	rm -f "$WORK/ppc.kdump"
	# An ELF file of it keeps the input's order, and is settled as the input is.
	if "$DUMPREAD" "$ppc" write elf "$WORK/ppc-out.elf" >/dev/null 2>&1; then
		kdumpset_order order-ppc64el-elf-keeps-order "$WORK/ppc-out.elf" big
		info_has order-ppc64el-elf-settled "$WORK/ppc-out.elf" "byte_order big" "notes_order big" \
			"memory_order little"
		check order-ppc64el-elf-pages $CHECK pages "$DUMPREAD" "$WORK/ppc-out.elf"
	else
		fail order-ppc64el-elf "dumpread could not write an ELF file of $ppc"
	fi
	rm -f "$WORK/ppc-out.elf"
	# CPUs that disagree, and none that says.
	$PYTHON "$PROJECT/tests/py/corrupt.py" "$ppc" "$WORK/ppc.elf" --sparse-after 65536
	$CHECK patch-msr "$WORK/ppc.elf" 1 clear-le >/dev/null
	info_has order-ppc64el-msr-disagree "$WORK/ppc.elf" "memory_order unknown"
	check order-ppc64el-msr-disagree-one-line bash -c '[ "$(grep -c "" "$1")" = 1 ] &&
		grep -Eq "the byte order of the memory cannot be settled: the MSR of CPU 0 \(0x[0-9a-f]+\) says little-endian, that of CPU 1 \(0x[0-9a-f]+\) big-endian" "$1"' \
		_ "$WORK/order-ppc64el-msr-disagree.err"
	expect_failure order-ppc64el-msr-disagree-mdf "cannot be settled" \
		"$MDF" -f -l -d 31 "$WORK/ppc.elf" "$WORK/ppc-out.kdump"
	check order-ppc64el-msr-disagree-no-file test ! -e "$WORK/ppc-out.kdump"
	$CHECK patch-msr "$WORK/ppc.elf" 0 clear-sf >/dev/null
	$CHECK patch-msr "$WORK/ppc.elf" 1 clear-sf >/dev/null
	info_has order-ppc64el-no-witness "$WORK/ppc.elf" "memory_order big"
	check order-ppc64el-no-witness-named grep -q "warning: .*no CPU's NT_PRSTATUS says in which byte order it ran: the memory is read in the ELF header's, big-endian" \
		"$WORK/order-ppc64el-no-witness.err"
	rm -f "$WORK/ppc.elf"
else
	skip order-ppc64el "no $VMCORES/6.12-ppc64el-qemu"
fi

# --- x86_64 with big-endian headers ---
x86=$(fixture 6.1-kdump.elf)
if [ -n "$x86" ]; then
	$PYTHON "$SHARED/tools/elf-relayout.py" "$x86" "$WORK/x86-big.elf" --order big
	info_has order-x86-big-headers "$WORK/x86-big.elf" "byte_order big" "notes_order little" \
		"memory_order little"
	expect_warning order-x86-big-warns "x86-big.elf: the ELF headers say big-endian, but x86_64 runs little-endian only: the memory is read so" \
		"$MDF" -f -l -d 31 "$WORK/x86-big.elf" "$WORK/x86-big.kdump"
	"$MDF" -f -l -d 31 "$x86" "$WORK/x86.kdump" >/dev/null 2>&1
	check order-x86-big-same-kdump cmp "$WORK/x86-big.kdump" "$WORK/x86.kdump"
	"$MDF" -f -E -d 31 "$x86" "$WORK/x86.elf" >/dev/null 2>&1
	"$MDF" -f -E -d 31 "$WORK/x86-big.elf" "$WORK/x86-big-out.elf" >/dev/null 2>&1
	kdumpset_order order-x86-big-elf-keeps-order "$WORK/x86-big-out.elf" big
	check order-x86-big-elf-same-pages bash -c '$0 diff "$1" "$2" | grep -q "only_in_A=0 only_in_B=0 bytes_differ=0"' \
		"$KDUMPSET_RUN" "$WORK/x86-big-out.elf" "$WORK/x86.elf"
	rm -f "$WORK/x86-big.elf" "$WORK/x86.elf" "$WORK/x86-big-out.elf" "$WORK/x86-big.kdump"

	# A big-endian header over x86_64's memory: read, but not filtered.
	if [ -s "$WORK/x86.kdump" ] && $CHECK swap-kdump "$WORK/x86.kdump" "$WORK/x86-swapped.kdump" >/dev/null; then
		kdumpset_order order-swapped-kdump-big "$WORK/x86-swapped.kdump" big
		info_has order-swapped-kdump-read "$WORK/x86-swapped.kdump" "byte_order big" "notes_order little" \
			"memory_order unknown"
		check order-swapped-kdump-pages $CHECK pages "$DUMPREAD" "$WORK/x86-swapped.kdump"
		expect_failure order-swapped-kdump-unsettled "x86-swapped.kdump: the byte order of the memory cannot be settled: the dump's header is big-endian, and its utsname says x86_64, which is little-endian" \
			"$MDF" -f -l -d 31 "$WORK/x86-swapped.kdump" "$WORK/x86-refiltered.kdump"
		check order-swapped-kdump-no-file test ! -e "$WORK/x86-refiltered.kdump"
	else
		fail order-swapped-kdump "no kdump file of $x86 to swap"
	fi
	rm -f "$WORK/x86.kdump" "$WORK/x86-swapped.kdump"
else
	skip order-x86-big "no $VMCORES/6.1-kdump"
fi
