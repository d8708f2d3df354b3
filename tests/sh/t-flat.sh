#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The flattened format (-F to standard output, -R from standard input),
# for kdump-compressed files of each codec upstream has (-c, -l, -z) and for
# ELF files (-E): "makedumpfile -F ... | makedumpfile -R FILE" gives the file
# the direct run writes, byte for byte; upstream's -R takes our streams and
# ours takes upstream's.  Each stream, read as crash reads a saved one
# (tests/py/flatcheck.py), has its header once, saying the dump is
# complete, as upstream's has.  On a generated dump in kexec's layout,
# which upstream reads: the format is the same for any dump, and a small
# one keeps the test quick.
. "$(dirname "$0")/../lib.sh" || exit 2

UPSTREAM=$(command -v makedumpfile || true)
GEN=$TOOLS/mkvmcore
[ -x "$GEN" ] || { skip flat "no $GEN"; exit 0; }
elf=$WORK/gen.elf
"$GEN" --sparse --layout kexec "$elf" >/dev/null 2>&1 || { fail flat "mkvmcore failed"; exit 0; }

FLATCHECK="$PYTHON $PROJECT/tests/py/flatcheck.py"

# flat NAME OPTIONS...: the direct file and ours reassembled from our
# stream; the stream's header as crash reads it.
flat() {
	local name=$1
	shift
	"$MDF" -f "$@" -d 31 --message-level 0 "$elf" "$WORK/direct" ||
		{ fail "flat-$name" "the direct run failed"; return 1; }
	if "$MDF" -F "$@" -d 31 --message-level 0 "$elf" >"$WORK/stream"; then
		"$MDF" -f -R "$WORK/ours-R" <"$WORK/stream" >/dev/null 2>&1
		check "flat-$name-R" cmp "$WORK/ours-R" "$WORK/direct"
		check "flat-$name-header" $FLATCHECK "$WORK/stream"
	else
		fail "flat-$name" "makedumpfile -F failed"
		return 1
	fi
}

for codec in zlib:-c lzo:-l zstd:-z; do
	flat "${codec%:*}" "${codec#*:}" || continue
	# Upstream 1.7.2 is built without zstd.
	if [ -n "$UPSTREAM" ] && [ "${codec%:*}" != zstd ]; then
		"$UPSTREAM" -f -R "$WORK/up-R" <"$WORK/stream" >/dev/null 2>&1
		check "flat-${codec%:*}-upstream-R" cmp "$WORK/up-R" "$WORK/direct"
	fi
	rm -f "$WORK"/stream "$WORK"/*-R
done

if flat elf -E; then
	if [ -n "$UPSTREAM" ]; then
		"$UPSTREAM" -f -R "$WORK/up-R" <"$WORK/stream" >/dev/null 2>&1
		check flat-elf-upstream-R cmp "$WORK/up-R" "$WORK/direct"
		# Upstream's stream, put back by us: upstream's -E file, which is ours.
		"$UPSTREAM" -F -E -d 31 "$elf" 2>/dev/null >"$WORK/up-stream"
		"$MDF" -f -R "$WORK/ours-R" <"$WORK/up-stream" >/dev/null 2>&1
		check flat-elf-R-of-upstream cmp "$WORK/ours-R" "$WORK/direct"
		check flat-elf-upstream-header $FLATCHECK "$WORK/up-stream"
	fi
fi
rm -f "$WORK"/stream "$WORK"/up-stream "$WORK"/*-R "$WORK"/direct

# Upstream's kdump-compressed stream, put back by us: upstream's file.
if [ -n "$UPSTREAM" ]; then
	"$UPSTREAM" -f -l -d 31 "$elf" "$WORK/up" >/dev/null 2>&1
	"$UPSTREAM" -F -l -d 31 "$elf" 2>/dev/null >"$WORK/up-stream"
	"$MDF" -f -R "$WORK/ours-R" <"$WORK/up-stream" >/dev/null 2>&1
	check flat-lzo-R-of-upstream cmp "$WORK/ours-R" "$WORK/up"
	check flat-lzo-upstream-header $FLATCHECK "$WORK/up-stream"
	rm -f "$WORK/ours-R" "$WORK/up" "$WORK/up-stream"
fi
rm -f "$elf"
