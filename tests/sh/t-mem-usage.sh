#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# --mem-usage: upstream's table of page kinds.
#  - on the kexec dump, against upstream 1.7.2's --mem-usage, which runs on
#    a saved dump only where /proc/iomem shows a crashkernel reservation:
#    here in a mount namespace with the guest's iomem over /proc/iomem
#    (skipped where unshare cannot do that); upstream counts the kernel
#    image twice (see memusagecheck.py);
#  - on the relayouted QEMU dump, against upstream's report at -d 31;
#  - on a kcore look-alike of a generated dump (tests/py/mkkcore.py), which the
#    ELF reader refuses: the table of the dump itself;
#  - on this machine's /proc/kcore, where it can be read;
#  - no file written, and no "Completed" line, as upstream.
. "$(dirname "$0")/../lib.sh" || exit 2

UPSTREAM=$(command -v makedumpfile || true)
CHECK="$PYTHON $PROJECT/tests/py/memusagecheck.py"

dump=$(fixture 6.1-kdump.elf)
if [ -z "$dump" ]; then
	skip mem-usage-kdump "no $VMCORES/6.1-kdump"
elif "$MDF" --mem-usage "$dump" >"$WORK/kdump.out" 2>&1; then
	check mem-usage-no-completed-line bash -c '! grep -q "makedumpfile Completed" "$0"' "$WORK/kdump.out"
	iomem=$VMCORES/6.1-kdump/guest/iomem.txt
	if [ -z "$UPSTREAM" ]; then
		skip mem-usage-kdump-upstream "no upstream makedumpfile"
	elif unshare -m bash -c 'mount --bind "$0" /proc/iomem && "$1" --mem-usage "$2"' \
		"$iomem" "$UPSTREAM" "$dump" >"$WORK/up.out" 2>&1; then
		text=$(readelf -lW "$dump" | awk '$1 == "LOAD" && $3 ~ /^0xffffffff8|^0xffffffff[9a-f]/ { print $5 }')
		check mem-usage-kdump-upstream $CHECK table "$WORK/kdump.out" "$WORK/up.out" \
			--kernel-image $(( text / 4096 ))
	else
		skip mem-usage-kdump-upstream "upstream needs a crashkernel line in /proc/iomem, and no mount namespace here"
	fi
else
	fail mem-usage-kdump "$(tail -n 3 "$WORK/kdump.out")"
fi

relayout=$(fixture 6.1-qemu.relayout.elf)
report=$FIXTURES/upstream/6.1-qemu.relayout.d31.kdump.log
if [ -z "$relayout" ] || [ ! -s "$report" ]; then
	skip mem-usage-qemu "no relayouted 6.1-qemu dump or no upstream report of it"
elif "$MDF" --mem-usage "$relayout" >"$WORK/qemu.out" 2>&1; then
	check mem-usage-qemu-upstream-report $CHECK report "$WORK/qemu.out" "$report"
else
	fail mem-usage-qemu "$(tail -n 3 "$WORK/qemu.out")"
fi

GEN=$TOOLS/mkvmcore
if [ ! -x "$GEN" ]; then
	skip mem-usage-kcore-file "no $GEN"
elif "$GEN" --sparse --layout kexec "$WORK/gen.elf" >/dev/null 2>&1 &&
	$PYTHON "$PROJECT/tests/py/mkkcore.py" "$WORK/gen.elf" "$WORK/gen.kcore"; then
	"$MDF" --mem-usage "$WORK/gen.elf" >"$WORK/gen.out" 2>&1
	if "$MDF" --mem-usage "$WORK/gen.kcore" >"$WORK/kcore.out" 2>&1; then
		check mem-usage-kcore-file cmp "$WORK/kcore.out" "$WORK/gen.out"
	else
		fail mem-usage-kcore-file "$(tail -n 3 "$WORK/kcore.out")"
	fi
	rm -f "$WORK/gen.elf" "$WORK/gen.kcore"
else
	fail mem-usage-kcore-file "mkvmcore or mkkcore.py failed"
fi

if [ -r /proc/kcore ] && head -c 4 /proc/kcore >/dev/null 2>&1; then
	if "$MDF" --mem-usage /proc/kcore >"$WORK/live.out" 2>&1; then
		check mem-usage-live-kcore grep -Eq "^Total pages on system:	[1-9]" "$WORK/live.out"
	else
		fail mem-usage-live-kcore "$(tail -n 3 "$WORK/live.out")"
	fi
else
	skip mem-usage-live-kcore "no readable /proc/kcore on this machine"
fi
