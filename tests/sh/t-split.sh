#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# --split and --reassemble, against upstream makedumpfile 1.7.2:
#  - --split 3, with the default 1 GiB split blocks (one block: the last
#    two parts hold no page) and with 4 MiB ones: upstream's parts byte for
#    byte; each part a kdump file of its own that our reader and
#    python3-libkdumpfile read, with the one-file dump's pages;
#  - --reassemble, parts in any order: the one-file dump byte for byte;
#    upstream's --reassemble of our parts and ours of upstream's too;
#  - missing and foreign parts, and the options upstream refuses.
. "$(dirname "$0")/../lib.sh" || exit 2

UPSTREAM=$(command -v makedumpfile || true)
elf=$(fixture 6.1-kdump.elf) || { skip split "no $VMCORES/6.1-kdump"; exit 0; }
one=$FIXTURES/upstream/6.1-kdump.d31.kdump
if [ ! -s "$one" ]; then
	"$MDF" -f -l -d 31 --message-level 0 "$elf" "$WORK/one.kdump" || { fail split "no one-file dump"; exit 0; }
	one=$WORK/one.kdump
fi

for blocks in default:1048576 4m:4096; do
	t=split-${blocks%:*}
	kib=${blocks#*:}
	if ! "$MDF" -f --split --splitblock-size "$kib" -l -d 31 --message-level 31 "$elf" \
		"$WORK/p1" "$WORK/p2" "$WORK/p3" >"$WORK/$t.out" 2>&1; then
		fail "$t" "$(tail -n 3 "$WORK/$t.out")"
		continue
	fi
	check "$t-saved-message" grep -q "^The dumpfiles are saved to $WORK/p1, $WORK/p2, and $WORK/p3\.$" \
		"$WORK/$t.out"
	if [ -n "$UPSTREAM" ]; then
		"$UPSTREAM" -f --split --splitblock-size "$kib" -l -d 31 "$elf" "$WORK/u1" "$WORK/u2" \
			"$WORK/u3" >/dev/null 2>&1
		for i in 1 2 3; do
			check "$t-part$i-identical" cmp "$WORK/p$i" "$WORK/u$i"
		done
	fi
	for i in 1 2 3; do
		check "$t-part$i-reads" $PYTHON "$PROJECT/tests/py/kdumpcheck.py" "$TOOLS/dumpread" \
			"$WORK/p$i" --random 100
	done
	check "$t-reassembled" bash -c '"$0" -f --reassemble "$3" "$1" "$2" "$4" --message-level 0 &&
		cmp "$4" "$5"' "$MDF" "$WORK/p1" "$WORK/p2" "$WORK/p3" "$WORK/re.kdump" "$one"
	if [ -n "$UPSTREAM" ]; then
		check "$t-upstream-reassembles-ours" bash -c '"$0" -f --reassemble "$@" >/dev/null &&
			cmp "$4" "$5"' "$UPSTREAM" "$WORK/p1" "$WORK/p2" "$WORK/p3" "$WORK/re.kdump" "$one"
		check "$t-reassembles-upstream" bash -c '"$0" -f --reassemble "$1" "$2" "$3" "$4" \
			--message-level 0 && cmp "$4" "$5"' "$MDF" "$WORK/u1" "$WORK/u2" "$WORK/u3" \
			"$WORK/re.kdump" "$one"
	fi
done

# Parts that do not make a dump.
expect_failure split-missing-part "no part holds pfns|a part is missing" \
	"$MDF" -f --reassemble "$WORK/p1" "$WORK/p3" "$WORK/re.kdump"
"$MDF" -f --split -l -d 1 --splitblock-size 4096 --message-level 0 "$elf" "$WORK/o1" "$WORK/o2" &&
	expect_failure split-foreign-part "not a part of the same split dump" \
		"$MDF" -f --reassemble "$WORK/p1" "$WORK/o2" "$WORK/p3" "$WORK/re.kdump"
[ -e "$WORK/re.kdump" ] && cmp -s "$WORK/re.kdump" "$one" ||
	fail split-failure-keeps-no-file "a failed --reassemble left $WORK/re.kdump"

# What upstream refuses.
expect_failure split-refuses-flatten "Commandline parameter is invalid" \
	"$MDF" -F --split -d 31 "$elf" "$WORK/x1" "$WORK/x2"
expect_failure split-refuses-elf "Options for splitting dumpfile cannot be used with Elf format" \
	"$MDF" -f -E --split -d 31 "$elf" "$WORK/x1" "$WORK/x2"
expect_failure split-refuses-threads "--num-threads cannot used with --split" \
	"$MDF" -f --num-threads 2 --split -d 31 "$elf" "$WORK/x1" "$WORK/x2"
expect_failure split-needs-two-files "Commandline parameter is invalid" \
	"$MDF" -f --split -d 31 "$elf" "$WORK/x1"
rm -f "$WORK"/p? "$WORK"/u? "$WORK"/o? "$WORK"/*.kdump
