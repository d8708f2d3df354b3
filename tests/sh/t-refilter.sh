#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Re-filtering a saved kdump-compressed dump counts what the input left out
# as excluded, by kind, as upstream does:
#  - inputs made by upstream's head (../shared/oracles/upstream-head) from
#    the 6.1 kdump dump at -d 1, 16 and 31, re-filtered by it and by us at
#    a level below, the same as and above theirs: our report, from
#    "Original pages" to "Write bytes", is upstream's line for line, and
#    our file is upstream's;
#  - --mem-usage of the -d 16 input agrees with upstream's report of its
#    re-filtering at -d 31;
#  - a dump whose extension discarded pages, re-filtered at its own level
#    without extensions: those pages, as many as its 1st bitmap holds more
#    than its 2nd, count as extension pages, and the new file holds the
#    input's pages.
. "$(dirname "$0")/../lib.sh" || exit 2

UPSTREAM=$SHARED/oracles/upstream-head/makedumpfile
elf=$(fixture 6.1-kdump.elf) || { skip refilter "no $VMCORES/6.1-kdump"; exit 0; }

# The report's lines, from "Original pages" to "Write bytes".
report() {
	tr '\r' '\n' <"$1" | sed -n '/^Original pages/,/^Write bytes/p'
}

if [ ! -x "$UPSTREAM" ]; then
	skip refilter-upstream "no $UPSTREAM"
else
	for input in 1 16 31; do
		if ! "$UPSTREAM" -f -l -d $input "$elf" "$WORK/in$input.kdump" >"$WORK/in.log" 2>&1; then
			fail "refilter-d$input" "upstream -l -d $input failed: $(tail -n 2 "$WORK/in.log")"
			continue
		fi
		for level in 0 16 31; do
			t=refilter-d$input-d$level
			"$UPSTREAM" -f -l -d $level --message-level 23 "$WORK/in$input.kdump" "$WORK/up.kdump" \
				>"$WORK/$t.up" 2>&1
			if ! "$MDF" -f -l -d $level --message-level 23 "$WORK/in$input.kdump" \
				"$WORK/ours.kdump" >"$WORK/$t.ours" 2>&1; then
				fail "$t" "$(tail -n 2 "$WORK/$t.ours")"
				continue
			fi
			report "$WORK/$t.up" >"$WORK/$t.up-report"
			report "$WORK/$t.ours" >"$WORK/$t.ours-report"
			check "$t-report" diff "$WORK/$t.ours-report" "$WORK/$t.up-report"
			check "$t-file" cmp "$WORK/ours.kdump" "$WORK/up.kdump"
		done
	done
	if [ -s "$WORK/in16.kdump" ] && [ -s "$WORK/refilter-d16-d31.up" ]; then
		if "$MDF" --mem-usage "$WORK/in16.kdump" >"$WORK/mem-usage.out" 2>&1; then
			check refilter-mem-usage $PYTHON "$PROJECT/tests/py/memusagecheck.py" report \
				"$WORK/mem-usage.out" "$WORK/refilter-d16-d31.up"
		else
			fail refilter-mem-usage "$(tail -n 2 "$WORK/mem-usage.out")"
		fi
	fi
	rm -f "$WORK"/*.kdump
fi

EXT=$TOOLS/extensions
if [ ! -s "$EXT/many_ranges.so" ]; then
	skip refilter-extension "the test extensions are not built ($EXT)"
	exit 0
fi
dir=$(extension_dir many "$EXT" many_ranges)
if ! "$MDF" -f -l -d 1 --extension-dir "$dir" --extension-arg many_ranges:count=1000 \
	--extension-arg many_ranges:stride=7 --message-level 0 "$elf" "$WORK/ext.kdump" \
	>"$WORK/ext.log" 2>&1; then
	fail refilter-extension "the run with the extension failed: $(tail -n 2 "$WORK/ext.log")"
	exit 0
fi
$PYTHON "$PROJECT/tests/py/writercheck.py" header "$WORK/ext.kdump" >"$WORK/ext.header"
left_out=$(( $(awk '$1 == "bitmap1_set" { print $2 }' "$WORK/ext.header") -
	$(awk '$1 == "bitmap2_set" { print $2 }' "$WORK/ext.header") ))
if "$MDF" -f -l -d 1 --no-extensions --message-level 23 "$WORK/ext.kdump" "$WORK/again.kdump" \
	>"$WORK/again.log" 2>&1; then
	counted=$(( $(report "$WORK/again.log" | awk '/Extension filter pages/ { print $NF }') ))
	if [ "$left_out" -gt 0 ] && [ "$counted" = "$left_out" ]; then
		pass refilter-extension-counted
	else
		fail refilter-extension-counted "$counted extension pages counted, $left_out left out"
	fi
	check refilter-extension-pages $PYTHON "$PROJECT/tests/py/writercheck.py" pfnset \
		"$WORK/again.kdump" "$WORK/ext.kdump"
else
	fail refilter-extension "$(tail -n 2 "$WORK/again.log")"
fi
rm -f "$WORK"/*.kdump
