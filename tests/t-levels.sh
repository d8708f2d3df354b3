#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Page classification at every dump level equals upstream makedumpfile
# 1.7.2's on the shared dumps: the same pfns kept, the same counts per
# category.  On the 7.2 kernel, which 1.7.2 predates, the one known
# difference (compound tails, see tests/scancheck.py) is checked page by page.
. "$PROJECT/tests/lib.sh"

for name in 6.1-kdump 6.1-qemu.relayout 7.2-qemu.relayout; do
	guest=${name%.relayout}
	dump=$(fixture "$name.elf") || { skip "levels-$name" "no $VMCORES/$guest"; continue; }
	tails=
	[ "$guest" = 7.2-qemu ] && tails="--tails $VMCORES/$guest/vmcoreinfo.txt"
	for level in 0 1 2 4 8 16 31; do
		oracle=$FIXTURES/upstream/$name.d$level.kdump
		if [ ! -s "$oracle" ]; then
			skip "levels-$name-d$level" "upstream makedumpfile output absent"
			continue
		fi
		if $PYTHON "$PROJECT/tests/scancheck.py" "$TOOLS/dumpread" "$dump" "$level" "$oracle" \
			"$oracle.log" $tails >"$WORK/$name.$level.log" 2>&1; then
			pass "levels-$name-d$level"
		else
			fail "levels-$name-d$level" "$(tail -n 3 "$WORK/$name.$level.log")"
		fi
	done
done
