#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The main job, end to end, at every dump level on every shared dump,
# against upstream makedumpfile 1.7.2's output for the same input
# (build/fixtures/upstream, made by tests/fixtures.sh):
#  - 6.1 dumps: our -l file is upstream's byte for byte, also when we read
#    QEMU's own layout that upstream cannot (it read the relayouted copy);
#  - 7.2: upstream predates the kernel; the pfn sets and report counts
#    agree but for compound tail pages 1.7.2 misjudges (tests/py/levelcheck.py),
#    and every page we keep equals the input's (libkdumpfile and dumpread);
#  - both: the report's counts equal upstream's, and labprobe's 2048
#    anonymous pages survive -d 1, 2, 4 and none survives -d 8 or 31.
. "$(dirname "$0")/../lib.sh" || exit 2

CHECK="$PYTHON $PROJECT/tests/py/levelcheck.py"


for input in 6.1-kdump:6.1-kdump 6.1-qemu.relayout:6.1-qemu.relayout 6.1-qemu:6.1-qemu.relayout \
	7.2-qemu.relayout:7.2-qemu.relayout 7.2-qemu:7.2-qemu.relayout; do
	name=${input%%:*}
	oracle_name=${input#*:}
	guest=${name%.relayout}
	dump=$(fixture "$name.elf") || { skip "levels-$name" "no $VMCORES/$guest"; continue; }
	for level in 0 1 2 4 8 16 31; do
		t=levels-$name-d$level
		oracle=$FIXTURES/upstream/$oracle_name.d$level.kdump
		if [ ! -s "$oracle" ]; then
			skip "$t" "upstream makedumpfile's output is absent"
			continue
		fi
		if ! "$MDF" -f -l -d "$level" --message-level 31 "$dump" "$WORK/out.kdump" \
			>"$WORK/$t.out" 2>"$WORK/$t.err"; then
			fail "$t" "makedumpfile failed: $(tail -n 3 "$WORK/$t.err")"
			continue
		fi
		markers=(--level "$level" --markers "$VMCORES/$guest/marker-pfns.txt")
		if [ "$guest" = 7.2-qemu ]; then
			check "$t" $CHECK "$WORK/out.kdump" "$oracle" "${markers[@]}" \
				--report "$WORK/$t.out" "$oracle.log" \
				--tails "$TOOLS/dumpread" "$dump" "$VMCORES/$guest/vmcoreinfo.txt"
			case $level in 8 | 31)
				check "$t-pages" $PYTHON "$PROJECT/tests/py/writercheck.py" pages \
					"$TOOLS/dumpread" "$WORK/out.kdump" "$dump" ;;
			esac
		else
			check "$t-identical" cmp "$WORK/out.kdump" "$oracle"
			check "$t" $CHECK "$WORK/out.kdump" "$oracle" "${markers[@]}" \
				--report "$WORK/$t.out" "$oracle.log"
		fi
	done
	rm -f "$WORK/out.kdump"
done
