#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make layering's check (tests/py/layering.py) catches what it is for, on
# a small tree of its own: an include up the layers, an include cycle
# between two modules of one layer, a cycle through a third, and a link
# cycle between two objects whose header hides it; and passes a tree
# whose dependencies run one way.
. "$(dirname "$0")/../lib.sh" || exit 2

LAYERING="$PYTHON $PROJECT/tests/py/layering.py"
T=$WORK/tree
rm -rf "$T"

# A tree of two layers, low and high, whose files depend one way.
make_tree() {
	rm -rf "$T"
	mkdir -p "$T/low" "$T/high"
	printf '#include "low/a.h"\nint b(void);\n' >"$T/low/b.h"
	printf 'int a(void);\n' >"$T/low/a.h"
	printf '#include "low/a.h"\nint a(void) { return 1; }\n' >"$T/low/a.c"
	printf '#include "low/b.h"\nint b(void) { return a(); }\n' >"$T/low/b.c"
	printf '#include "low/b.h"\nint h(void) { return b(); }\n' >"$T/high/h.c"
}
objects() {
	for c in "$T"/low/*.c "$T"/high/*.c; do
		gcc -c -I"$T" -o "${c%.c}.o" "$c" || return 1
	done
}

make_tree && objects
check layering-passes-one-way $LAYERING --root "$T" --objects "$T" low high

make_tree
printf '#include "high/h.h"\n' >>"$T/low/a.c"
if $LAYERING --root "$T" low high >"$WORK/up.out"; then
	fail layering-include-up "passed: $(cat "$WORK/up.out")"
elif grep -q '^low/a.c:3: includes high/h.h: high is above low$' "$WORK/up.out"; then
	pass layering-include-up
else
	fail layering-include-up "$(cat "$WORK/up.out")"
fi

make_tree
printf '#include "low/b.h"\n' >>"$T/low/a.h"
if $LAYERING --root "$T" low high >"$WORK/cycle.out"; then
	fail layering-include-cycle "passed: $(cat "$WORK/cycle.out")"
elif grep -q '^include cycle: low/a <-> low/b$' "$WORK/cycle.out"; then
	pass layering-include-cycle
else
	fail layering-include-cycle "$(cat "$WORK/cycle.out")"
fi

# a -> c -> b -> a: the cycle runs through a .c file's include, not a header's.
make_tree
printf 'int c(void);\n' >"$T/low/c.h"
printf '#include "low/b.h"\nint c(void) { return b(); }\n' >"$T/low/c.c"
printf '#include "low/c.h"\n' >>"$T/low/a.c"
if $LAYERING --root "$T" low high >"$WORK/cycle3.out"; then
	fail layering-include-cycle-of-three "passed: $(cat "$WORK/cycle3.out")"
elif grep -q '^include cycle: low/a <-> low/b <-> low/c$' "$WORK/cycle3.out"; then
	pass layering-include-cycle-of-three
else
	fail layering-include-cycle-of-three "$(cat "$WORK/cycle3.out")"
fi

# a.c calls b(), declared in a.h: no include says so, the objects do.
make_tree
printf 'int a(void);\nint b(void);\n' >"$T/low/a.h"
printf '#include "low/a.h"\nint a(void) { return b() - 1; }\n' >"$T/low/a.c"
objects
if $LAYERING --root "$T" --objects "$T" low high >"$WORK/link.out"; then
	fail layering-link-cycle "passed: $(cat "$WORK/link.out")"
elif grep -q '^link cycle: low/a <-> low/b$' "$WORK/link.out"; then
	pass layering-link-cycle
else
	fail layering-link-cycle "$(cat "$WORK/link.out")"
fi
