#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The kdump-compressed reader and -R, against upstream makedumpfile 1.7.2
# (its -R output and the dumps it writes) and python3-libkdumpfile.
. "$(dirname "$0")/../lib.sh" || exit 2

UPSTREAM=$(command -v makedumpfile || true)
flat=$VMCORES/6.1-qemu/vmcore.qemu-kdump-zlib.flat


if [ ! -s "$flat" ]; then
	skip kdump-qemu-cases "no $flat"
else
	if cat "$flat" | "$MDF" -R "$WORK/qemu.kdump" 2>"$WORK/r.err"; then
		pass kdump-reassemble-from-pipe
	else
		fail kdump-reassemble-from-pipe "$(cat "$WORK/r.err")"
	fi
	if [ -n "$UPSTREAM" ]; then
		"$UPSTREAM" -R "$WORK/upstream.kdump" <"$flat" >/dev/null
		check kdump-reassemble-equals-upstream cmp "$WORK/qemu.kdump" "$WORK/upstream.kdump"
		rm -f "$WORK/upstream.kdump"
	else
		skip kdump-reassemble-equals-upstream "upstream makedumpfile is not installed"
	fi
	expect_failure kdump-reassemble-refuses-overwrite "already exists; use -f" \
		"$MDF" -R "$WORK/qemu.kdump" <"$flat"
	# A stream cut short: what came is kept, marked incomplete, and reads as the source
	# (upstream keeps it too, unmarked); cut before any page data, no page is held.
	source=$(fixture 6.1-qemu.elf) || source=
	for cut in 1000000:0 8000000:1; do
		head -c "${cut%:*}" "$flat" >"$WORK/cut.flat"
		rm -f "$WORK/cut.kdump"
		expect_failure "kdump-reassemble-truncated-${cut%:*}" "truncated.*kept, marked incomplete" \
			"$MDF" -R "$WORK/cut.kdump" <"$WORK/cut.flat"
		if [ -n "$source" ]; then
			check "kdump-reassemble-truncated-${cut%:*}-kept-incomplete" $PYTHON \
				"$PROJECT/tests/py/incompletecheck.py" "$TOOLS/dumpread" "$WORK/cut.kdump" "$source" \
				--pages "${cut#*:}"
		else
			skip "kdump-reassemble-truncated-${cut%:*}-kept-incomplete" "no 6.1-qemu fixture"
		fi
	done
	rm -f "$WORK/cut.kdump"
	check kdump-qemu-zlib-pages $PYTHON "$PROJECT/tests/py/kdumpcheck.py" "$TOOLS/dumpread" \
		"$WORK/qemu.kdump" "$VMCORES/6.1-qemu/marker-pfns.txt"
	check kdump-qemu-damaged $PYTHON "$PROJECT/tests/py/kdumpdamage.py" "$TOOLS/dumpread" \
		"$WORK/qemu.kdump" "$WORK/damage"
	rm -rf "$WORK/qemu.kdump" "$WORK/damage" "$WORK/cut.flat"
fi

elf=$(fixture 6.1-kdump.elf) || elf=
if [ -z "$elf" ] || [ -z "$UPSTREAM" ]; then
	skip kdump-upstream-written "needs $VMCORES/6.1-kdump and upstream makedumpfile"
	exit 0
fi
for kind in "lzo -l -d 31" "zlib -c -d 31" "raw -d 1"; do
	set -- $kind
	name=$1
	shift
	if "$UPSTREAM" -f "$@" "$elf" "$WORK/$name.kdump" >/dev/null 2>&1; then
		check "kdump-upstream-$name-pages" $PYTHON "$PROJECT/tests/py/kdumpcheck.py" \
			"$TOOLS/dumpread" "$WORK/$name.kdump" "$VMCORES/6.1-kdump/marker-pfns.txt"
	else
		fail "kdump-upstream-$name-pages" "upstream makedumpfile $* failed"
	fi
done
check kdump-lzo-damaged $PYTHON "$PROJECT/tests/py/kdumpdamage.py" "$TOOLS/dumpread" \
	"$WORK/lzo.kdump" "$WORK/damage"
rm -rf "$WORK"/*.kdump "$WORK/damage"
