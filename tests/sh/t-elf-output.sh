#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# makedumpfile -E: ELF dump files laid out as upstream makedumpfile 1.7.2
# lays them out.
#  - the kexec dump at -d 31: upstream's -E file byte for byte, its report's
#    "in ELF format" counts and write count too, in one cycle and in many;
#  - the same pages and bytes as the kdump-compressed file of the level
#    (python3-libkdumpfile reads both), zero pages left out, short runs of
#    excluded pages kept as upstream keeps them; upstream reads it as input;
#  - the relayouted QEMU dump: upstream's file but for the kernel virtual
#    addresses (t-elf-vaddrs.sh) and the BIOS ROM segment past max_mapnr
#    (see elfvaddrs.py); QEMU's own layout gives the same file;
#  - a pfn an extension keeps stays, zero page or not;
#  - -E refused for a kdump-compressed input and with -c, as upstream.
. "$(dirname "$0")/../lib.sh" || exit 2

UPSTREAM=$(command -v makedumpfile || true)
CHECK="$PYTHON $PROJECT/tests/py/elfcheck.py"

# in_report LOG: the report lines upstream and we share for an ELF file:
# the pages segments leave out, and the bytes written.  (Upstream counts
# the kernel image's pages twice in "Original pages", so what remains
# differs.)
in_report() {
	grep -A1 '^  Excluded pages' "$1" | grep 'in ELF format'
	grep '^Write bytes' "$1"
}

elf=$(fixture 6.1-kdump.elf)
if [ -z "$elf" ]; then
	skip elf-kdump "no $VMCORES/6.1-kdump"
else
	"$MDF" -f -E -d 31 --message-level 31 "$elf" "$WORK/d31.elf" >"$WORK/d31.out" 2>&1 ||
		fail elf-kdump-d31 "$(tail -n 3 "$WORK/d31.out")"
	if [ -z "$UPSTREAM" ]; then
		skip elf-kdump-upstream "no upstream makedumpfile"
	elif "$UPSTREAM" -f -E -d 31 --message-level 31 "$elf" "$WORK/up.elf" >"$WORK/up.out" 2>&1; then
		check elf-kdump-d31-identical cmp "$WORK/d31.elf" "$WORK/up.elf"
		check elf-kdump-d31-report diff <(in_report "$WORK/d31.out") <(in_report "$WORK/up.out")
		# Many cycles: the headers come from a first pass, the data from a second.
		"$MDF" -f -E -d 31 --cyclic-buffer 1 --message-level 0 "$elf" "$WORK/cycles.elf" &&
			check elf-kdump-d31-cycles-identical cmp "$WORK/cycles.elf" "$WORK/up.elf"
		rm -f "$WORK/up.elf" "$WORK/cycles.elf"
	else
		fail elf-kdump-upstream "upstream -E failed: $(tail -n 3 "$WORK/up.out")"
	fi
	oracle=$FIXTURES/upstream/6.1-kdump.d31.kdump
	if [ -s "$oracle" ]; then
		check elf-kdump-d31-pages $CHECK pages "$WORK/d31.elf" "$oracle" "$elf" 31
	else
		skip elf-kdump-d31-pages "no upstream kdump-compressed file at -d 31"
	fi
	if [ -n "$UPSTREAM" ]; then
		# Upstream takes it as input: the pages it finds are those the file holds.
		if "$UPSTREAM" -f -l -d 0 "$WORK/d31.elf" "$WORK/refiltered.kdump" >"$WORK/refilter.out" 2>&1; then
			check elf-kdump-upstream-reads-it $CHECK readby "$WORK/d31.elf" \
				"$WORK/refiltered.kdump"
		else
			fail elf-kdump-upstream-reads-it "$(tail -n 3 "$WORK/refilter.out")"
		fi
	fi
	rm -f "$WORK/d31.elf" "$WORK/refiltered.kdump"

	# A kdump-compressed input, and -c: refused as upstream refuses them.
	if [ -s "$oracle" ]; then
		expect_failure elf-refuses-kdump-input "'-E' option is disable, because .* is kdump compressed format" \
			"$MDF" -f -E -d 31 "$oracle" "$WORK/no.elf"
	fi
	expect_failure elf-refuses-compression "Commandline parameter is invalid" \
		"$MDF" -f -E -c -d 31 "$elf" "$WORK/no.elf"
	expect_failure elf-refuses-threads "--num-threads cannot used with ELF format" \
		"$MDF" -f -E --num-threads 2 -d 31 "$elf" "$WORK/no.elf"
fi

relayout=$(fixture 6.1-qemu.relayout.elf)
qemu=$(fixture 6.1-qemu.elf)
if [ -z "$relayout" ] || [ -z "$qemu" ]; then
	skip elf-qemu "no $VMCORES/6.1-qemu"
else
	"$MDF" -f -E -d 31 --message-level 0 "$relayout" "$WORK/relayout.elf" &&
		"$MDF" -f -E -d 31 --message-level 0 "$qemu" "$WORK/qemu.elf" &&
		check elf-qemu-layout-same-file cmp "$WORK/qemu.elf" "$WORK/relayout.elf"
	if [ -n "$UPSTREAM" ] && "$UPSTREAM" -f -E -d 31 "$relayout" "$WORK/up.elf" >/dev/null 2>&1; then
		check elf-qemu-upstream-but-vaddrs-rom $PYTHON "$PROJECT/tests/py/elfvaddrs.py" upstream \
			"$WORK/relayout.elf" "$WORK/up.elf"
	else
		skip elf-qemu-upstream "no upstream makedumpfile, or it failed"
	fi
	rm -f "$WORK"/*.elf
fi

# An extension's kept pfns stay even where the zero-page rule would drop them.
GEN=$TOOLS/mkvmcore
if [ ! -x "$GEN" ] || [ ! -s "$TOOLS/extensions/keep_range.so" ]; then
	skip elf-keep "no $GEN or keep_range.so"
else
	# Extensions are loaded from their directory only, never through a link.
	mkdir -p "$WORK/ext" && cp "$TOOLS/extensions/keep_range.so" "$WORK/ext/"
	"$GEN" --sparse --layout kexec "$WORK/gen.elf" >/dev/null 2>&1 &&
		"$MDF" -f -E -d 1 --no-extensions --message-level 0 "$WORK/gen.elf" "$WORK/plain.elf" &&
		hole=$($CHECK hole "$WORK/plain.elf") ||
		fail elf-keep "no dump with a run of zero pages: $hole"
	if [ -n "${hole:-}" ]; then
		set -- $hole
		if "$MDF" -f -E -d 1 --extension-dir "$WORK/ext" --extension-arg keep_range:first=$1 \
			--extension-arg keep_range:count=256 --message-level 0 "$WORK/gen.elf" "$WORK/kept.elf"; then
			check elf-keep-zero-pages $CHECK kept "$WORK/kept.elf" "$1" 256
		else
			fail elf-keep-zero-pages "makedumpfile with keep_range failed"
		fi
	fi
	rm -f "$WORK"/*.elf
fi
