#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Upstream makedumpfile's options where distributions' kdump tooling uses
# them, against the oracle binary of upstream's head
# (../shared/oracles/upstream-head/makedumpfile):
#  - --check-params: the exit status of upstream's for the option sets of
#    RHEL/Fedora (mkdumprd), Debian (kdump-tools) and SUSE (kdump), and for
#    bad ones; nothing read, nothing written, nothing said when they pass;
#  - --dry-run: no file, upstream's "Write bytes", an existing file refused
#    without -f as upstream refuses it;
#  - --show-stats: upstream's report lines;
#  - -L: a file of exactly the limit, marked incomplete, as upstream's;
#  - --vtop: upstream's translation, in upstream's form;
#  - --partial-dmesg: the records from clear_seq on (a generated dump whose
#    clear_seq is set: the generator's lines; upstream's records);
#  - -R's and -v's messages in upstream's form;
#  - the options refused (Xen, sadump, eppic) name what to use instead.
. "$(dirname "$0")/../lib.sh" || exit 2

UPSTREAM=$SHARED/oracles/upstream-head/makedumpfile
[ -x "$UPSTREAM" ] || UPSTREAM=
GEN=$TOOLS/mkvmcore
PATCHPHYS="$PYTHON $PROJECT/tests/py/patchphys.py"

# --check-params reads nothing: the paths need not exist, and must not appear.
V=$WORK/vmcore
D=$WORK/dumpfile
CONF=$WORK/filter.conf
# Each line, an option set; "-" is where the dump files go.
cat >"$WORK/valid.sets" <<EOF
-l --message-level 7 -d 31 $V $D
-l --message-level 1 -d 31 $V $D
-c -d 31 $V $D
-c -d 31 -F $V
-F -l -d 31 $V
-d 31 -l -F --message-level 7 $V
-p -d 31 --work-dir $WORK --cyclic-buffer 1024 $V $D
-z -d 31 --work-dir /var/crash --cyclic-buffer 0 --message-level 7 $V $D
-l -d 31,0 -L 4G $V $D
-E -d 31 $V $D
-E -d 31 -F $V
-l -d 31 --num-threads 2 $V $D
-l -d 31 --dry-run --show-stats $V $D
-l -d 31 --vtop 0xffffffff81000000 $V $D
-l -d 31 --non-mmap $V $D
-l -d 31 -e --work-dir $WORK $V $D
--split -l -d 31 $V $D.1 $D.2
--reassemble $D.1 $D.2 $D
-R $D
--dump-dmesg $V $WORK/dmesg.txt
--dump-dmesg --partial-dmesg $V $WORK/dmesg.txt
--dump-dmesg -F $V
--mem-usage /proc/kcore
-i $WORK/vmcoreinfo -l -d 31 $V $D
-f -c -d 31 $V $D
-R -L 1G $D
--reassemble -L 1G $D.1 $D.2 $D
--dump-dmesg -L 1M $V $WORK/dmesg.txt
EOF
cat >"$WORK/invalid.sets" <<EOF
-z -d 31 $V
-l -d 31 $V
-E -c -d 31 $V $D
-d 32 $V $D
--message-level 32 $V $D
--bogus $V $D
$V $D extra
-F $V $D
--split -F -l $V $D.1 $D.2
--split -E $V $D.1 $D.2
--split -l --num-threads 2 $V $D.1 $D.2
-E --num-threads 2 $V $D
--reassemble -l $D.1 $D.2 $D
--reassemble --dry-run $D.1 $D.2 $D
--dump-dmesg --dry-run $V $WORK/dmesg.txt
--partial-dmesg $V $D
-R
-R -d 31 $D
-R -c $D
-L 0 $V $D
-L 10x $V $D
EOF
# Where upstream reads a number with atoi() or strtoull(): garbage is 0, -1 huge.  Not here.
cat >"$WORK/stricter.sets" <<EOF
-d x $V $D
-L -1 $V $D
--num-threads two $V $D
EOF

# compare_check_params NAME SETS: each set's exit status, ours and upstream's.
compare_check_params() {
	local name=$1 sets=$2 set ours theirs bad=
	while read -r set; do
		# shellcheck disable=SC2086  # a set is words
		"$MDF" --check-params $set >"$WORK/cp.out" 2>"$WORK/cp.err"
		ours=$?
		"$UPSTREAM" --check-params $set >/dev/null 2>&1
		theirs=$?
		[ $ours -eq $theirs ] || bad+="[$set: ours $ours, upstream's $theirs] "
		# Valid options pass in silence, as upstream's.
		if [ $ours -eq 0 ] && { [ -s "$WORK/cp.out" ] || [ -s "$WORK/cp.err" ]; }; then
			bad+="[$set: said $(head -c 200 "$WORK/cp.out" "$WORK/cp.err")] "
		fi
	done <"$sets"
	if [ -z "$bad" ]; then pass "$name"; else fail "$name" "$bad"; fi
}

if [ -n "$UPSTREAM" ]; then
	compare_check_params check-params-valid-sets-upstream-status "$WORK/valid.sets"
	compare_check_params check-params-invalid-sets-upstream-status "$WORK/invalid.sets"
else
	skip check-params-upstream-status "no $SHARED/oracles/upstream-head/makedumpfile"
fi

# What the distributions pass must pass, with or without the oracle.
bad=
while read -r set; do
	# shellcheck disable=SC2086
	"$MDF" --check-params $set >/dev/null 2>&1 || bad+="[$set] "
done <"$WORK/valid.sets"
if [ -z "$bad" ]; then pass check-params-valid-sets; else fail check-params-valid-sets "refused: $bad"; fi
bad=
while read -r set; do
	# shellcheck disable=SC2086
	timeout 10 "$MDF" --check-params $set >/dev/null 2>&1
	[ $? -eq 1 ] || bad+="[$set] "
done < <(cat "$WORK/invalid.sets" "$WORK/stricter.sets")
if [ -z "$bad" ]; then pass check-params-invalid-sets; else fail check-params-invalid-sets "not exit 1: $bad"; fi
# Nothing written: none of the paths named exists.
leftover=$(cd "$WORK" && ls -d vmcore dumpfile* dmesg.txt 2>/dev/null)
if [ -z "$leftover" ]; then pass check-params-writes-nothing; else fail check-params-writes-nothing "$leftover"; fi
# An existing dump file and config are left as they are: nothing opened.
echo "precious" >"$D"
echo "bad syntax here" >"$CONF"
check check-params-reads-nothing "$MDF" --check-params -l -d 31 --config "$CONF" -f "$V" "$D"
check check-params-file-intact grep -qx precious "$D"
# The runs themselves refuse what --check-params refuses: the check is the run's.
expect_failure check-params-same-as-run "Dump_level\(32\) is invalid" "$MDF" -d 32 "$V" "$D"
rm -f "$D" "$CONF"

# The options upstream has for what is not done here: refused, naming what to use.
expect_failure refused-xen "-X: Xen dumps are not read here; upstream makedumpfile" \
	"$MDF" --check-params -X -d 31 "$V" "$D"
expect_failure refused-xen-syms "--xen-syms: Xen dumps .* upstream makedumpfile" \
	"$MDF" -d 31 --xen-syms "$WORK/xen-syms" "$V" "$D"
expect_failure refused-diskset "--diskset: sadump .* upstream makedumpfile" \
	"$MDF" -d 31 --diskset "$V" "$D"
expect_failure refused-eppic "--eppic: .*--extension-dir .*eppic_scripts" \
	"$MDF" -d 31 --eppic "$WORK/proc_names.c" "$V" "$D"

# -v: upstream's first line, with our version.
version=$(sed -n 's/^#define MDF_VERSION "\(.*\)"/\1/p' "$PROJECT/util/version.h")
form='^makedumpfile: version [^ ]+ \(released on [0-9]{1,2} [A-Z][a-z]{2} [0-9]{4}\)$'
if "$MDF" -v | head -n 1 | grep -Eq "$form" && "$MDF" -v | head -n 1 | grep -q "version $version "; then
	pass version-upstream-form
else
	fail version-upstream-form "$("$MDF" -v | head -n 1)"
fi
[ -n "$UPSTREAM" ] && { "$UPSTREAM" -v | head -n 1 | grep -Eq "$form" ||
	fail version-form-is-upstreams "upstream says $("$UPSTREAM" -v | head -n 1)"; }

# The generated dump: -R, --dry-run on any machine; --partial-dmesg.
if [ ! -x "$GEN" ] || ! "$GEN" --sparse --layout kexec --facts "$WORK/gen.facts" "$WORK/gen.elf" \
	>"$WORK/gen.out" 2>&1; then
	fail options-gen "mkvmcore failed: $(tail -n 2 "$WORK/gen.out")"
	exit 0
fi
G=$WORK/gen.elf

# -R: upstream's last words, the same lines.
"$MDF" -F -l -d 31 "$G" >"$WORK/gen.flat" 2>/dev/null
"$MDF" -R "$WORK/r.ours" <"$WORK/gen.flat" >"$WORK/r.ours.out" 2>&1
check reassemble-flat-says-saved grep -qx "The dumpfile is saved to $WORK/r.ours." "$WORK/r.ours.out"
if [ -n "$UPSTREAM" ]; then
	(cd "$WORK" && "$MDF" -R r.1 <gen.flat >r.1.out 2>&1 && "$UPSTREAM" -R r.2 <gen.flat >r.2.out 2>&1)
	check reassemble-flat-upstream-messages diff <(sed 's/r\.1/FILE/' "$WORK/r.1.out") \
		<(sed 's/r\.2/FILE/' "$WORK/r.2.out")
fi

# --dry-run on the generated dump: no file, the real run's byte count.
rm -f "$WORK/dry.kdump"
"$MDF" --dry-run --show-stats -l -d 31 "$G" "$WORK/dry.kdump" >"$WORK/dry.out" 2>&1
status=$?
"$MDF" --show-stats -l -d 31 "$G" "$WORK/real.kdump" >"$WORK/real.out" 2>&1
if [ $status -eq 0 ] && [ ! -e "$WORK/dry.kdump" ] &&
	[ "$(grep '^Write bytes' "$WORK/dry.out")" = "$(grep '^Write bytes' "$WORK/real.out")" ] &&
	grep -q '^Write bytes' "$WORK/dry.out"; then
	pass dry-run-writes-nothing-counts-all
else
	fail dry-run-writes-nothing-counts-all "status $status: $(tail -n 4 "$WORK/dry.out")"
fi
"$MDF" --dry-run -F -l -d 31 "$G" >"$WORK/dry.flat" 2>/dev/null
check dry-run-flattened-writes-nothing test ! -s "$WORK/dry.flat"
: >"$WORK/exists.kdump"
expect_failure dry-run-refuses-existing "exists.kdump: already exists; use -f" \
	"$MDF" --dry-run -l -d 31 "$G" "$WORK/exists.kdump"
check dry-run-f-leaves-existing sh -c "\"$MDF\" --dry-run -f -l -d 31 \"$G\" \"$WORK/exists.kdump\" \
	>/dev/null 2>&1 && test ! -s \"$WORK/exists.kdump\""
"$MDF" --dry-run -R "$WORK/dry-r.kdump" <"$WORK/gen.flat" >/dev/null 2>&1
check dry-run-reassemble-flat-writes-nothing test ! -e "$WORK/dry-r.kdump"

# --partial-dmesg: clear_seq is a latched_seq { seqcount, val[2] }; an odd
# count makes val[1] current.  The records from sequence 3 on: the
# generator's lines but the first three records' (one line each).
vaddr=$("$TOOLS/dumpread" "$G" symbol clear_seq | awk '{ print $2 }')
paddr=$("$TOOLS/dumpread" "$G" vtop "$vaddr" | awk '{ print $2 }')
$PATCHPHYS "$G" "$paddr:010000000000000002000000000000000300000000000000" >/dev/null
"$MDF" --dump-dmesg --partial-dmesg "$G" "$WORK/partial.log" >"$WORK/partial.out" 2>&1
check partial-dmesg-from-clear-seq diff "$WORK/partial.log" \
	<(sed -n 's/^dmesg //p' "$WORK/gen.facts" | tail -n +4)
"$MDF" --dump-dmesg "$G" "$WORK/full.log" >/dev/null 2>&1
check partial-dmesg-absent-whole-log diff "$WORK/full.log" <(sed -n 's/^dmesg //p' "$WORK/gen.facts")
if [ -n "$UPSTREAM" ]; then
	# Upstream's head adds caller ids to each line: its records are compared by time stamp.
	"$UPSTREAM" --dump-dmesg --partial-dmesg "$G" "$WORK/partial.up" >/dev/null 2>&1
	check partial-dmesg-upstream-records diff <(grep -o '^\[ *[0-9]*\.[0-9]*\]' "$WORK/partial.log") \
		<(grep -o '^\[ *[0-9]*\.[0-9]*\]' "$WORK/partial.up")
fi

# The real dump: -L, --vtop, --show-stats and --dry-run against upstream's.
dump=$(fixture 6.1-kdump.elf) || { skip options-real-dump "no $VMCORES/6.1-kdump/vmcore.elf.zst"; exit 0; }
if [ -z "$UPSTREAM" ]; then
	skip options-real-dump-upstream "no $SHARED/oracles/upstream-head/makedumpfile"
	exit 0
fi
# report_lines FILE: the labels of the report's lines, without their numbers.
report_lines() {
	tr '\r' '\n' <"$1" | grep -E '^ *(Original|Excluded|Pages|Non-private|Private|User|Free|Hwpoison|Offline|Extension|Remaining|\(The number|Memory Hole|Total pages|Write bytes|-----)' |
		sed 's/ *:.*//; s/[0-9]\+%/N%/'
}
rm -f "$WORK/d.ours" "$WORK/d.up"
"$MDF" --dry-run --show-stats -l -d 31 "$dump" "$WORK/d.ours" >"$WORK/d.ours.out" 2>&1
ours=$?
"$UPSTREAM" --dry-run --show-stats -l -d 31 "$dump" "$WORK/d.up" >"$WORK/d.up.out" 2>&1
theirs=$?
if [ $ours -eq 0 ] && [ $theirs -eq 0 ] && [ ! -e "$WORK/d.ours" ] && [ ! -e "$WORK/d.up" ] &&
	[ "$(grep '^Write bytes' "$WORK/d.ours.out")" = "$(grep '^Write bytes' "$WORK/d.up.out")" ]; then
	pass dry-run-upstream-write-bytes
else
	fail dry-run-upstream-write-bytes "status $ours/$theirs: $(grep -h '^Write bytes' "$WORK/d.ours.out" "$WORK/d.up.out")"
fi
check show-stats-upstream-report-lines diff <(report_lines "$WORK/d.ours.out") <(report_lines "$WORK/d.up.out")

# -L: cut at the limit, kept, marked incomplete, exit 1: as upstream's.
for limit in 1M 10M; do
	rm -f "$WORK/l.ours" "$WORK/l.up"
	"$MDF" -L $limit -l -d 31 "$dump" "$WORK/l.ours" >"$WORK/l.ours.out" 2>&1
	ours=$?
	"$UPSTREAM" -L $limit -l -d 31 "$dump" "$WORK/l.up" >/dev/null 2>&1
	theirs=$?
	if [ $ours -eq 1 ] && [ $theirs -eq 1 ] &&
		[ "$(stat -c %s "$WORK/l.ours")" = "$(stat -c %s "$WORK/l.up")" ] &&
		$PYTHON "$SHARED/tools/kdumpset.py" info "$WORK/l.ours" | grep -q 'incomplete=True' &&
		$PYTHON "$SHARED/tools/kdumpset.py" info "$WORK/l.up" | grep -q 'incomplete=True' &&
		grep -q 'size limit (-L) of [0-9]* bytes is reached' "$WORK/l.ours.out"; then
		pass "size-limit-$limit-as-upstream"
	else
		fail "size-limit-$limit-as-upstream" "status $ours/$theirs, sizes $(stat -c %s "$WORK/l.ours" "$WORK/l.up" | paste -sd/): $(tail -n 2 "$WORK/l.ours.out")"
	fi
done
# The flattened stream stops at a record within the limit; -R keeps what came, marked.
"$MDF" -F -L 10M -l -d 31 "$dump" >"$WORK/l.flat" 2>/dev/null
size=$(stat -c %s "$WORK/l.flat")
"$MDF" -R "$WORK/l.flat.kdump" <"$WORK/l.flat" >/dev/null 2>&1
if [ "$size" -le $((10 << 20)) ] && [ "$size" -gt $((8 << 20)) ] &&
	$PYTHON "$SHARED/tools/kdumpset.py" info "$WORK/l.flat.kdump" | grep -q 'incomplete=True'; then
	pass size-limit-flattened
else
	fail size-limit-flattened "stream of $size bytes"
fi
# -R, --reassemble and --dump-dmesg: their files cut at the limit, exit 1,
# as upstream's.  A dump is kept marked incomplete (upstream does not mark
# it): -R's, but for the disk header's block, is upstream's byte for byte;
# --reassemble's holds descriptors only of pages it holds (incompletecheck),
# where upstream's order of writes leaves others.  The log: upstream 1.7.2's
# format (the head's adds caller ids).
"$MDF" -F -l -d 31 "$dump" 2>/dev/null >"$WORK/whole.flat"
"$MDF" -f --split -l -d 31 --message-level 0 "$dump" "$WORK/part.1" "$WORK/part.2"
DEBIAN_MDF=$(command -v makedumpfile || true)
INCOMPLETE="$PYTHON $PROJECT/tests/py/incompletecheck.py $TOOLS/dumpread"
for mode in R reassemble dmesg; do
	rm -f "$WORK/l.ours" "$WORK/l.up"
	case $mode in
	R) run() { "$1" -L 1M -R "$2" <"$WORK/whole.flat"; }
		same() { cmp -s -i 4096 "$WORK/l.ours" "$WORK/l.up"; } ;;
	reassemble) run() { "$1" -L 1M --reassemble "$WORK/part.1" "$WORK/part.2" "$2"; }
		same() { $INCOMPLETE "$WORK/l.ours" "$dump" --pages 100 >/dev/null; } ;;
	dmesg) run() { "$1" -L 10K --dump-dmesg "$dump" "$2"; }
		same() { cmp -s "$WORK/l.ours" "$WORK/l.up"; } ;;
	esac
	oracle=$UPSTREAM
	[ $mode = dmesg ] && oracle=$DEBIAN_MDF
	[ -n "$oracle" ] || { skip "size-limit-$mode-as-upstream" "no makedumpfile 1.7.2"; continue; }
	run "$MDF" "$WORK/l.ours" >"$WORK/l.ours.out" 2>&1
	ours=$?
	run "$oracle" "$WORK/l.up" >/dev/null 2>&1
	theirs=$?
	if [ $ours -eq 1 ] && [ $theirs -eq 1 ] &&
		[ "$(stat -c %s "$WORK/l.ours")" = "$(stat -c %s "$WORK/l.up")" ] && same &&
		grep -q 'size limit (-L) of [0-9]* bytes is reached' "$WORK/l.ours.out" &&
		{ [ $mode = dmesg ] ||
			$PYTHON "$SHARED/tools/kdumpset.py" info "$WORK/l.ours" | grep -q 'incomplete=True'; }; then
		pass "size-limit-$mode-as-upstream"
	else
		fail "size-limit-$mode-as-upstream" "status $ours/$theirs, sizes $(stat -c %s "$WORK/l.ours" "$WORK/l.up" | paste -sd/): $(tail -n 2 "$WORK/l.ours.out")"
	fi
done
rm -f "$WORK/whole.flat" "$WORK/part.1" "$WORK/part.2" "$WORK/l.ours" "$WORK/l.up"

# --vtop: kernel text and data, and the direct map (the last PT_LOAD's
# address, kexec's program headers give it), in upstream's lines (without
# its page-table walk).
vi=$VMCORES/6.1-kdump/vmcoreinfo.txt
direct=$($PYTHON -c '
import struct, sys
f = open(sys.argv[1], "rb"); eh = f.read(64)
phoff, = struct.unpack_from("<Q", eh, 32); phnum, = struct.unpack_from("<H", eh, 56)
for i in range(phnum):
    f.seek(phoff + 56 * i); p_type, _, _, vaddr = struct.unpack("<IIQQ", f.read(24))
    if p_type == 1: last = vaddr
print(hex(last + 0x123456))' "$dump")
for what in init_uts_ns swapper_pg_dir direct-map; do
	addr=$direct
	[ $what = direct-map ] || addr=0x$(sed -n "s/^SYMBOL($what)=//p" "$vi")
	"$MDF" --dry-run --vtop "$addr" -d 31 "$dump" "$WORK/v.ours" >"$WORK/v.ours.out" 2>&1
	"$UPSTREAM" --dry-run --vtop "$addr" -d 31 "$dump" "$WORK/v.up" >"$WORK/v.up.out" 2>&1
	check "vtop-$what-upstream" diff <(grep -A2 '^Translating' "$WORK/v.ours.out") \
		<(grep -A99 '^Translating' "$WORK/v.up.out" | grep -v '^  P.. :' | head -n 3)
done

# --partial-dmesg of a kernel whose log was never cleared: the whole log, as upstream's.
"$MDF" --dump-dmesg --partial-dmesg "$dump" "$WORK/real-partial.log" >/dev/null 2>&1
"$UPSTREAM" --dump-dmesg --partial-dmesg "$dump" "$WORK/real-partial.up" >/dev/null 2>&1
check partial-dmesg-uncleared-upstream-records diff \
	<(grep -o '^\[ *[0-9]*\.[0-9]*\]' "$WORK/real-partial.log") \
	<(grep -o '^\[ *[0-9]*\.[0-9]*\]' "$WORK/real-partial.up")

# -e: the frames of struct pages of pages left out, left out too; upstream's
# page-table walk (its debug lines) says which pfns each frame describes.
rm -f "$WORK/plain.kdump" "$WORK/e.ours" "$WORK/e.up" "$WORK/e.re"
"$MDF" -l -d 31 "$dump" "$WORK/plain.kdump" >/dev/null 2>&1
"$MDF" -e -l -d 31 "$dump" "$WORK/e.ours" >"$WORK/e.ours.out" 2>&1
"$UPSTREAM" -e --work-dir "$WORK" --message-level 31 -l -d 31 "$dump" "$WORK/e.up" >"$WORK/e.up.log" 2>&1
size=$(sed -n 's/^SIZE(page)=//p' "$vi")
check exclude-vmemmap-frames $PYTHON "$PROJECT/tests/py/vmemmapcheck.py" "$dump" "$WORK/plain.kdump" \
	"$WORK/e.ours" "$WORK/e.up" "$WORK/e.up.log" "$size"
check exclude-vmemmap-said grep -Eq '^Excluded [1-9][0-9]* unused vmemmap pages$' "$WORK/e.ours.out"
# status_has FILE: the kdump header's status has DUMP_DH_EXCLUDED_VMEMMAP, as upstream's.
status_has_vmemmap() {
	local status
	status=$($PYTHON "$SHARED/tools/kdumpset.py" info "$1" | sed -n 's/.* status=\(0x[0-9a-f]*\).*/\1/p')
	[ -n "$status" ] && [ $((status & 0x10)) -ne 0 ]
}
check exclude-vmemmap-header status_has_vmemmap "$WORK/e.ours"
check exclude-vmemmap-header-upstream status_has_vmemmap "$WORK/e.up"
"$MDF" -l -d 31 "$WORK/e.ours" "$WORK/e.re" >/dev/null 2>&1
check exclude-vmemmap-refiltered-still-says-so status_has_vmemmap "$WORK/e.re"
expect_failure exclude-vmemmap-not-elf "-e .* cannot be used with -E" "$MDF" -e -E -d 31 "$dump" "$WORK/e.elf"
# Runs of such pages go across cycles: the same file in cycles of 32768 pfns.
rm -f "$WORK/e.cycles"
"$MDF" -e --cyclic-buffer 4 -l -d 31 "$dump" "$WORK/e.cycles" >/dev/null 2>&1
check exclude-vmemmap-cycles cmp "$WORK/e.ours" "$WORK/e.cycles"
