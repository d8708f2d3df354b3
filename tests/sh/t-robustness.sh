#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What fuzzing and fault injection found (issue 25, A to L), rebuilt as
# reproducers, and the trust and output checks: each must now end in a
# clean error, a warning, or a dump that says what it lacks.
. "$(dirname "$0")/../lib.sh" || exit 2

EXT=$TOOLS/extensions
dump=$(fixture 6.1-kdump.elf) || {
	skip robustness "no $VMCORES/6.1-kdump/vmcore.elf.zst"
	exit 0
}
vi=$VMCORES/6.1-kdump/vmcoreinfo.txt
copy=$WORK/damaged.elf
cp --sparse=always "$dump" "$copy" && chmod 600 "$copy" || {
	fail robustness "cannot copy $dump"
	exit 0
}

# A: a struct page offset that does not fit SIZE(page) is refused where it is read.
sed -E 's/^OFFSET\(page\._mapcount\)=.*/OFFSET(page._mapcount)=88/' "$vi" >"$WORK/vi-mapcount"
expect_failure robust-a-page-offset "OFFSET\(page\._mapcount\)=88 does not fit a struct page of 64 bytes" \
	"$MDF" -f -l -d 31 -i "$WORK/vi-mapcount" "$dump" "$WORK/a.kdump"
[ -e "$WORK/a.kdump" ] && fail robust-a-no-output "left a.kdump behind"

# B: a BTF member whose type id is past the last type (and anonymous, so
# that a lookup would follow it) makes the BTF corrupt, said once.
member=$($PYTHON "$PROJECT/tests/py/btfmember.py" "$TOOLS/dumpread" "$dump" task_struct)
paddr=$("$TOOLS/dumpread" "$dump" vtop "$member" | awk '{ print $2 }')
if [ -z "$paddr" ]; then
	fail robust-b-btf-type-id "cannot find task_struct's first member in the BTF"
else
	# name_off 0, type 0xffffff: little-endian u32s.
	restore=$($PYTHON "$PROJECT/tests/py/patchphys.py" "$copy" "$paddr:00000000ffffff00")
	expect_failure robust-b-btf-type-id "BTF is corrupt: type [0-9]+ refers to type 16777215" \
		"$MDF" --dump-type task_struct.comm "$copy"
	$PYTHON "$PROJECT/tests/py/patchphys.py" "$copy" $restore >/dev/null
fi

# C: a kdump-compressed input whose 1st bitmap is empty (qsort of nothing,
# undefined with a NULL array; the sanitizer run catches it).
"$MDF" -f -l -d 31 --no-extensions --message-level 0 "$dump" "$WORK/c.kdump" &&
	$PYTHON - "$WORK/c.kdump" <<-'EOF'
	import struct, sys
	path = sys.argv[1]
	with open(path, 'r+b') as f:
	    head = f.read(512)
	    block, sub, blocks = struct.unpack_from('<iiI', head, 8 + 4 + 390 + 6 + 16 + 4)
	    f.seek((1 + sub) * block)
	    f.write(b'\0' * (blocks * block // 2))
	EOF
"$MDF" -f -l -d 31 --no-extensions "$WORK/c.kdump" "$WORK/c2.kdump" >"$WORK/c.out" 2>&1
status=$?
[ $status -le 1 ] && pass robust-c-empty-bitmap || fail robust-c-empty-bitmap "exit status $status: $(tail -n 2 "$WORK/c.out")"
rm -f "$WORK/c.kdump" "$WORK/c2.kdump"

# D, G: an extension that prints on stdout and leaves a grandchild holding
# stdout and stderr: the -F stream stays clean, the pipe ends, its line
# comes to stderr named, and nothing it started outlives the run.
lingers=$(extension_dir lingers "$EXT" lingers)
start=$(date +%s)
timeout 60 "$MDF" -F -l -d 31 --extension-dir "$lingers" --extension-arg "lingers:pids=$WORK/pids" "$dump" \
	2>"$WORK/g.err" | cat >"$WORK/g.flat"
took=$(($(date +%s) - start))
[ "$took" -lt 20 ] && pass robust-g-pipe-ends || fail robust-g-pipe-ends "makedumpfile -F | cat took $took s"
if "$MDF" -R "$WORK/g.kdump" <"$WORK/g.flat" >/dev/null 2>&1; then
	pass robust-d-stream-clean
else
	fail robust-d-stream-clean "-R rejects the stream: $(head -c 200 "$WORK/g.flat" | tr -cd '[:print:]')"
fi
grep -q "^lingers: printed on the stdout an extension is given$" "$WORK/g.err" &&
	pass robust-d-output-named || fail robust-d-output-named "$(grep -v Copying "$WORK/g.err" | head -n 3)"
# gone PID...: none runs any more (a zombie waiting for init counts as gone).
gone() {
	local pid state
	for pid in "$@"; do
		state=$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)
		[ -n "$state" ] && [ "$state" != Z ] && return 1
	done
	return 0
}
sleep 1
if [ -s "$WORK/pids" ] && gone $(cat "$WORK/pids"); then
	pass robust-g-group-killed
else
	fail robust-g-group-killed "still running: $(cat "$WORK/pids" 2>/dev/null)"
fi
rm -f "$WORK/g.flat" "$WORK/g.kdump" "$WORK/pids"

# H: makedumpfile killed outright: its extension's process dies with it,
# and so does the process the extension started.
"$MDF" -f -l -d 31 --extension-dir "$lingers" --extension-arg "lingers:pids=$WORK/pids" \
	--extension-arg lingers:hang=1 "$dump" "$WORK/h.kdump" >/dev/null 2>&1 &
mdf=$!
for _ in $(seq 50); do [ -s "$WORK/pids" ] && break; sleep 0.1; done
kill -9 "$mdf" 2>/dev/null
wait "$mdf" 2>/dev/null
sleep 1
if [ -s "$WORK/pids" ] && gone "$(cut -d' ' -f1 "$WORK/pids")"; then
	pass robust-h-child-dies-with-parent
else
	fail robust-h-child-dies-with-parent "the extension's process $(cut -d' ' -f1 "$WORK/pids" 2>/dev/null) lives on"
fi
if [ -s "$WORK/pids" ] && gone "$(cut -d' ' -f2 "$WORK/pids")"; then
	pass robust-h-grandchild-dies-with-parent
else
	fail robust-h-grandchild-dies-with-parent "the extension's own child $(cut -d' ' -f2 "$WORK/pids" 2>/dev/null) lives on"
fi
[ -s "$WORK/pids" ] && kill -9 $(cat "$WORK/pids") 2>/dev/null
rm -f "$WORK/h.kdump" "$WORK/pids"

# E is in t-kdump (a cut stream kept, marked incomplete).

# F: the output may not be the input, through a symlink or a hard link.
ln -sf "$copy" "$WORK/link.elf"
ln -f "$copy" "$WORK/hard.elf"
size=$(stat -c %s "$copy")
expect_failure robust-f-output-is-input-symlink "the output is the input" \
	"$MDF" -f -l -d 31 "$copy" "$WORK/link.elf"
expect_failure robust-f-output-is-input-hardlink "the output is the input" \
	"$MDF" -f -l -d 31 "$copy" "$WORK/hard.elf"
[ "$(stat -c %s "$copy")" = "$size" ] && pass robust-f-input-intact || fail robust-f-input-intact "the input changed"
rm -f "$WORK/link.elf" "$WORK/hard.elf"

# I: an extension that leaves out every page is named in warnings (the run
# then ends with "no page is left to dump").
all=$(extension_dir all "$EXT" discard_all)
"$MDF" -f -l -d 31 --extension-dir "$all" "$dump" "$WORK/i.kdump" >"$WORK/i.out" 2>&1
if [ $? -le 1 ] && grep -q "warning: extension discard_all leaves out 0x[0-9a-f]* of the dump's 0x[0-9a-f]* pages, more than half" \
		"$WORK/i.out" &&
	grep -q "warning: extension discard_all leaves out 0x[0-9a-f]* pages that hold struct pages" "$WORK/i.out"; then
	pass robust-i-discard-all-warned
else
	fail robust-i-discard-all-warned "$(grep -i warning "$WORK/i.out" | head -n 3)"
fi
rm -f "$WORK/i.kdump"
# ... and one that leaves out a single page-table page below the top
# level, at each level (found by walking the tables with libkdumpfile).
ranged=$(extension_dir ranged "$EXT" discard_range)
tables=$($PYTHON "$PROJECT/tests/py/pgtables.py" "$dump" "$vi")
[ "$(wc -l <<<"$tables")" = 3 ] || fail robust-i-page-tables "no table at each level: $tables"
while read -r level pfn; do
	"$MDF" -f -l -d 31 --extension-dir "$ranged" --extension-arg discard_range:first=$pfn \
		--extension-arg discard_range:count=1 "$dump" "$WORK/i.kdump" >"$WORK/i.out" 2>&1
	grep -q "warning: extension discard_range leaves out 0x1 pages that hold struct pages or the kernel's page tables (the first: pfn $pfn)" \
		"$WORK/i.out" && pass robust-i-page-table-level-$level ||
		fail robust-i-page-table-level-$level "pfn $pfn: $(grep -i warning "$WORK/i.out" | head -n 2)"
done <<<"$tables"
rm -f "$WORK/i.kdump"

# J: text inputs are bounded and text.
expect_failure robust-j-config-dev-zero "larger than 1024 KiB" \
	timeout 30 "$MDF" -f -l -d 31 --config /dev/zero "$dump" "$WORK/j.kdump"
head -c 64 /dev/zero >"$WORK/nul.conf"
expect_failure robust-j-config-nul "holds a NUL byte at offset 0: not text" \
	"$MDF" -f -l -d 31 --config "$WORK/nul.conf" "$dump" "$WORK/j.kdump"
expect_failure robust-j-vmcoreinfo-dev-zero "larger than 1024 KiB" \
	timeout 30 "$MDF" -f -l -d 31 -i /dev/zero "$dump" "$WORK/j.kdump"

# K: a wrong ELF class, byte order or version byte is named.
$PYTHON "$PROJECT/tests/py/corrupt.py" "$dump" "$WORK/k.elf" --sparse-after 65536 --set 4:03
expect_failure robust-k-elf-class "only ELF64 dumps are supported \(class 3\)" \
	"$MDF" -f -l -d 31 "$WORK/k.elf" "$WORK/k.kdump"
$PYTHON "$PROJECT/tests/py/corrupt.py" "$dump" "$WORK/k.elf" --sparse-after 65536 --set 5:03
expect_failure robust-k-elf-data "EI_DATA 3 names no byte order \(1 little-endian, 2 big-endian\): corrupt" \
	"$MDF" -f -l -d 31 "$WORK/k.elf" "$WORK/k.kdump"
$PYTHON "$PROJECT/tests/py/corrupt.py" "$dump" "$WORK/k.elf" --sparse-after 65536 --set 6:07
expect_failure robust-k-elf-version "ELF version 7 in its header, not 1" \
	"$MDF" -f -l -d 31 "$WORK/k.elf" "$WORK/k.kdump"
rm -f "$WORK/k.elf"

# L: a SIGTERM says what it leaves: a flattened stream whose reader stalls
# keeps makedumpfile writing when the signal comes.
( "$MDF" -F -l -d 0 --no-extensions "$dump" 2>"$WORK/l.err" | (sleep 3; cat >/dev/null) ) &
sleep 1
pkill -TERM -f -- "-F -l -d 0 --no-extensions $dump" 2>/dev/null
wait
grep -q "interrupted by SIGTERM: the flattened stream on stdout ends here, incomplete" "$WORK/l.err" &&
	pass robust-l-sigterm-said || fail robust-l-sigterm-said "$(tail -n 2 "$WORK/l.err")"

# Trust: a directory above the extensions that others may write is refused
# (unless sticky, as /tmp); the output never follows a symlink; -f makes a
# file 0600.
open_dir=$WORK/open
rm -rf "$open_dir" && mkdir -p "$open_dir/ext" && chmod 0777 "$open_dir" && chmod 0755 "$open_dir/ext"
install -m 0644 "$EXT/read_one_word.so" "$open_dir/ext/"
"$MDF" -f -l -d 31 --extension-dir "$open_dir/ext" "$dump" "$WORK/t.kdump" >"$WORK/t.out" 2>&1
grep -q "not trusted.*$open_dir above it is writable by others (mode 0777)" "$WORK/t.out" &&
	! grep -q "^Loaded extension" "$WORK/t.out" && pass robust-trust-ancestor-writable ||
	fail robust-trust-ancestor-writable "$(grep -i "warning\|Loaded" "$WORK/t.out" | head -n 2)"
chmod 1777 "$open_dir"
"$MDF" -f -l -d 31 --extension-dir "$open_dir/ext" "$dump" "$WORK/t.kdump" >"$WORK/t.out" 2>&1
grep -q "^Loaded extension: $open_dir/ext/read_one_word.so" "$WORK/t.out" && pass robust-trust-sticky-ancestor ||
	fail robust-trust-sticky-ancestor "$(grep -i "warning" "$WORK/t.out" | head -n 2)"
chmod 0755 "$open_dir"
rm -rf "$open_dir" "$WORK/t.kdump"

ln -sf "$WORK/target.kdump" "$WORK/dangling.kdump"
expect_failure robust-output-dangling-symlink "a symbolic link, not followed" \
	"$MDF" -f -l -d 31 --no-extensions "$dump" "$WORK/dangling.kdump"
[ -e "$WORK/target.kdump" ] && fail robust-output-dangling-target "the symlink's target was created"
: >"$WORK/target.kdump"
expect_failure robust-output-symlink "a symbolic link, not followed" \
	"$MDF" -f -l -d 31 --no-extensions "$dump" "$WORK/dangling.kdump"
[ -s "$WORK/target.kdump" ] && fail robust-output-symlink-target "the symlink's target was written"
rm -f "$WORK/dangling.kdump" "$WORK/target.kdump"
install -m 0666 /dev/null "$WORK/open.kdump"
"$MDF" -f -l -d 31 --no-extensions --message-level 0 "$dump" "$WORK/open.kdump"
[ "$(stat -c %a "$WORK/open.kdump")" = 600 ] && pass robust-output-mode-0600 ||
	fail robust-output-mode-0600 "mode $(stat -c %a "$WORK/open.kdump") after -f"
rm -f "$WORK/open.kdump" "$copy"

# M: pages the input holds but cannot give cost only themselves: a page
# of a saved dump that does not decompress, one whose descriptor is wild,
# a page of an ELF dump under a read error (failio.so, as a bad sector or
# a poisoned page of /proc/vmcore gives).  Every other page is written, the
# file says it is incomplete, and the run names the pages in a warning.
UNREADABLE="$PYTHON $PROJECT/tests/py/unreadable.py"
CHECK="$PYTHON $PROJECT/tests/py/incompletecheck.py $TOOLS/dumpread"
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
"$MDF" -f -l -d 31 --no-extensions --message-level 0 "$dump" "$WORK/m.kdump"
bad_data=$($UNREADABLE damage "$WORK/m.kdump" 5000 data)
bad_desc=$($UNREADABLE damage "$WORK/m.kdump" 7000 desc)
expect_warning robust-m-kdump-unreadable \
	"2 pages to dump could not be read \(pfn $bad_data, $bad_desc\); the first: .*pfn $bad_data: lzo data .* does not decompress.*m2.kdump holds every other page" \
	"$MDF" -f -l -d 31 --no-extensions "$WORK/m.kdump" "$WORK/m2.kdump"
check robust-m-kdump-unreadable-kept $CHECK "$WORK/m2.kdump" "$dump" --pages 20000
"$TOOLS/dumpread" "$WORK/m2.kdump" pages <<<"$((bad_data))" 2>/dev/null | grep -q "^$bad_data excluded" &&
	pass robust-m-kdump-unreadable-excluded ||
	fail robust-m-kdump-unreadable-excluded "pfn $bad_data does not read as excluded"
rm -f "$WORK/m.kdump" "$WORK/m2.kdump"

at=$($UNREADABLE offset "$dump" "$bad_data")
for format in l E; do
	expect_warning robust-m-elf-read-error-$format \
		"1 page to dump could not be read \(pfn $bad_data\); the first: .*cannot read a PT_LOAD segment.*Input/output error.*m-$format holds every other page" \
		env LD_PRELOAD="$TOOLS/failio.so" FAILIO_PATH="$dump" FAILIO_OP=read \
		FAILIO_AFTER=$((at + 100)) "$MDF" -f -$format -d 31 --no-extensions "$dump" "$WORK/m-$format"
done
check robust-m-elf-read-error-l-kept $CHECK "$WORK/m-l" "$dump" --pages 20000
check robust-m-elf-read-error-E-kept $UNREADABLE elfcheck "$WORK/m-E" "$dump" "$bad_data"
rm -f "$WORK/m-l" "$WORK/m-E"
