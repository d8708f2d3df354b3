# SPDX-License-Identifier: GPL-2.0-or-later
# The checks that the per-architecture scripts (tests/sh/t-arm64.sh,
# t-ppc64.sh, t-riscv64.sh, t-s390x.sh) run alike, each on its own
# architecture's dumps.  Sourced by them after tests/lib.sh; its name is no
# t-*.sh, so tests/run.sh does not take it for a test.
#
# A check here passes, fails or skips under the name it had in every script
# before it was shared: ARCH-CHECK-GUEST (riscv64-dump-type-6.12-riscv64-qemu),
# and each function's comment names the checks it reports.
#
# The real guest dumps (../shared/vmcores/GUEST) come with what the guest saw
# of itself just before the crash (GUEST/guest: kallsyms, dmesg, labprobe's
# pid, maps and pfns) and the marker pages a scan of the raw dump found
# (GUEST/marker-pfns.txt): those are the oracles here.  The guest_*
# functions take three words first, which an architecture's script keeps in
# an array (g=(riscv64 "$guest" "$dump"); guest_dump_type "${g[@]}"):
#   ARCH   the checks' prefix
#   GUEST  the folder of ../shared/vmcores the dump comes from
#   DUMP   the file to read: the decompressed fixture, or a copy of it
# then what differs between the architectures.  Their files go to
# $WORK/GUEST, which the script makes.

EXT=$(dirname "$TOOLS")/extensions
TEXT=$TOOLS/extensions
WALK=$TOOLS/walkread
KDUMPSET="$PYTHON $SHARED/tools/kdumpset.py"
GPUCHECK="$PYTHON $PROJECT/tests/py/gpucheck.py $TOOLS/dumpread"
EXTCHECK="$PYTHON $PROJECT/tests/py/extcheck.py $TOOLS/dumpread"
# What we say when the dump has no VMCOREINFO note and its memory does.
FOUND='the dump has no VMCOREINFO note: using the kernel.s own, found in its memory at physical'
# The warning for an extension that leaves out a page the walk needs, up to the pfn.
TABLE_WARNING="warning: extension discard_range leaves out 0x1 pages that hold struct pages or the kernel's page tables"

# gen_vmcoreinfo_found NAME ELF FACTS: a generated dump whose VMCOREINFO
# note is not where the ELF says (none, or a stale one first) has it found
# in memory at the facts' note_paddr.  The dump has no kallsyms, so the run
# itself fails: only the warning counts.
gen_vmcoreinfo_found() {
	local note
	note=$(sed -n 's/^note_paddr=//p' "$3")
	"$MDF" -f --dump-kallsyms "$2" "$WORK/out.txt" >/dev/null 2>"$WORK/found.err"
	if [ -n "$note" ] && grep -Eq "warning: .*$FOUND $note and checked against init_uts_ns$" "$WORK/found.err"; then
		pass "$1"
	else
		fail "$1" "want the note at $note: $(head -c 300 "$WORK/found.err")"
	fi
}

# guest_vmcoreinfo_in_memory ARCH GUEST DUMP: for a dump without a
# VMCOREINFO note (QEMU's ELF), the kernel's own is found in memory where
# the guest's /sys/kernel/vmcoreinfo says it is, and said once
# (ARCH-vmcoreinfo-in-memory-GUEST); with -i no note is searched for and
# the symbols are the same (ARCH-vmcoreinfo-i-wins-GUEST).  Leaves the
# symbols in $WORK/GUEST/kallsyms.
guest_vmcoreinfo_in_memory() {
	local arch=$1 guest=$2 dump=$3 t=$WORK/$2 facts=$VMCORES/$2/guest note
	note=$(printf '0x%x' "$(( $(cut -d' ' -f1 "$facts/sys-kernel-vmcoreinfo.txt") ))")
	if "$MDF" -f --dump-kallsyms "$dump" "$t/kallsyms" 2>"$t/kallsyms.err" >/dev/null &&
		[ "$(grep -c 'VMCOREINFO' "$t/kallsyms.err")" = 1 ] &&
		grep -Eq "warning: .*$FOUND $note and checked against init_uts_ns$" "$t/kallsyms.err"; then
		pass "$arch-vmcoreinfo-in-memory-$guest"
	else
		fail "$arch-vmcoreinfo-in-memory-$guest" "want the note at $note: $(head -c 400 "$t/kallsyms.err")"
	fi
	if "$MDF" -f -i "$VMCORES/$guest/vmcoreinfo.txt" --dump-kallsyms "$dump" "$t/kallsyms.i" 2>"$t/i.err" >/dev/null &&
		! grep -q VMCOREINFO "$t/i.err" && cmp -s "$t/kallsyms.i" "$t/kallsyms"; then
		pass "$arch-vmcoreinfo-i-wins-$guest"
	else
		fail "$arch-vmcoreinfo-i-wins-$guest" "$(head -c 300 "$t/i.err")"
	fi
}

# guest_dmesg ARCH GUEST DUMP dmesgcheck|exact: --dump-dmesg has the
# guest's dmesg (tests/py/dmesgcheck.py: its lines in order among the
# ring's), or is exactly that file where the guest's dmesg held the whole
# ring (ARCH-dmesg-GUEST).  Leaves the log in $WORK/GUEST/dmesg for the
# read-back checks.
guest_dmesg() {
	local arch=$1 guest=$2 dump=$3 t=$WORK/$2 want=$VMCORES/$2/guest/dmesg.txt
	if ! "$MDF" -f --dump-dmesg "$dump" "$t/dmesg" >"$t/dmesg.out" 2>&1; then
		fail "$arch-dmesg-$guest" "$(tail -n 3 "$t/dmesg.out")"
	elif [ "$4" = exact ]; then
		same "$arch-dmesg-$guest" "$t/dmesg" "$want"
	else
		check "$arch-dmesg-$guest" $PYTHON "$PROJECT/tests/py/dmesgcheck.py" "$t/dmesg" "$want"
	fi
}

# guest_kdump_is FILE WANT ORDER: prints FILE's page set (kdumpset.py's
# "pfns=N digest=D" line, the oracles' form); true when it is WANT and, for
# ORDER big-endian, FILE's headers are big-endian (as upstream writes them
# on a big-endian machine).
guest_kdump_is() {
	local got
	got=$($KDUMPSET pfns "$1") || return 1
	echo "$got"
	[ "$got" = "$2" ] && guest_order_is "$1" "$3"
}

# guest_order_is FILE ORDER: true for ORDER any-order, or for big-endian
# when FILE's kdump headers are.
guest_order_is() {
	[ "$2" = any-order ] || $KDUMPSET info "$1" 2>/dev/null | grep -q ' byte_order=big$'
}

# guest_writers ARCH GUEST DUMP LEVEL WANT ORACLE ORDER OPT...: the file
# written with each OPT (-l, -c, -z, -p) at -d LEVEL keeps the ORACLE's
# page set WANT (see guest_kdump_is for ORDER): ARCH-dLEVELOPT-GUEST.
# Leaves each file in $WORK/GUEST/dLEVELOPT.kdump (d31-l.kdump) for the
# marker and read-back checks.
guest_writers() {
	local arch=$1 guest=$2 dump=$3 level=$4 want=$5 oracle=$6 order=$7 t=$WORK/$2 opt got
	shift 7
	for opt in "$@"; do
		got=
		if "$MDF" -f "$opt" -d "$level" "$dump" "$t/d$level$opt.kdump" >"$t/d$level.out" 2>&1 &&
			got=$(guest_kdump_is "$t/d$level$opt.kdump" "$want" "$order"); then
			pass "$arch-d$level$opt-$guest"
		else
			fail "$arch-d$level$opt-$guest" "${got:-$(tail -n 2 "$t/d$level.out")}, $oracle: $want"
		fi
	done
}

# guest_flattened ARCH GUEST DUMP WANT ORACLE ORDER: a -d 31 flattened
# stream (-F) put back with -R keeps WANT: ARCH-d31-flattened-GUEST.
# Leaves the file in $WORK/GUEST/d31-flattened.kdump.
guest_flattened() {
	local arch=$1 guest=$2 dump=$3 want=$4 oracle=$5 order=$6 t=$WORK/$2 got=
	if "$MDF" -f -F -l -d 31 "$dump" 2>"$t/flat.err" | "$MDF" -f -R "$t/d31-flattened.kdump" >"$t/flat.out" 2>&1 &&
		got=$(guest_kdump_is "$t/d31-flattened.kdump" "$want" "$order"); then
		pass "$arch-d31-flattened-$guest"
	else
		fail "$arch-d31-flattened-$guest" "${got:-$(tail -n 2 "$t/flat.out")}, $oracle: $want"
	fi
}

# guest_split ARCH GUEST DUMP WANT ORACLE ORDER: a -d 31 dump split in two
# files (each in ORDER) and put back with --reassemble keeps WANT:
# ARCH-d31-split-GUEST.
guest_split() {
	local arch=$1 guest=$2 dump=$3 want=$4 oracle=$5 order=$6 t=$WORK/$2 got=
	if "$MDF" -f -l -d 31 --split "$dump" "$t/part1" "$t/part2" >"$t/split.out" 2>&1 &&
		guest_order_is "$t/part1" "$order" && guest_order_is "$t/part2" "$order" &&
		"$MDF" -f --reassemble "$t/part1" "$t/part2" "$t/joined.kdump" >>"$t/split.out" 2>&1 &&
		got=$(guest_kdump_is "$t/joined.kdump" "$want" "$order"); then
		pass "$arch-d31-split-$guest"
	else
		fail "$arch-d31-split-$guest" "${got:-$(tail -n 2 "$t/split.out")}, $oracle: $want"
	fi
	rm -f "$t/part1" "$t/part2" "$t/joined.kdump"
}

# guest_d31_readback ARCH GUEST FILE [KALLSYMS]: FILE, a -d 31 dump, is a
# dump of its own: its log is the one read from the guest's dump
# (ARCH-d31-dmesg-GUEST), and, given KALLSYMS, its symbols are those
# (ARCH-d31-kallsyms-GUEST).
guest_d31_readback() {
	local arch=$1 guest=$2 file=$3 kallsyms=${4:-} t=$WORK/$2
	if [ -z "$kallsyms" ]; then
		if "$MDF" -f --dump-dmesg "$file" "$t/dmesg.d31" >/dev/null 2>&1; then
			same "$arch-d31-dmesg-$guest" "$t/dmesg.d31" "$t/dmesg"
		else
			fail "$arch-d31-dmesg-$guest" "--dump-dmesg fails on the -d 31 file"
		fi
	elif "$MDF" -f --dump-dmesg "$file" "$t/dmesg.d31" >/dev/null 2>&1 &&
		"$MDF" -f --dump-kallsyms "$file" "$t/kallsyms.d31" >/dev/null 2>&1; then
		same "$arch-d31-dmesg-$guest" "$t/dmesg.d31" "$t/dmesg"
		same "$arch-d31-kallsyms-$guest" "$t/kallsyms.d31" "$kallsyms"
	else
		fail "$arch-d31-readback-$guest" "--dump-dmesg or --dump-kallsyms fails on the -d 31 file"
	fi
}

# guest_elf_readback ARCH GUEST DUMP KALLSYMS ORDER: the -E -d 31 file
# (for ORDER big-endian, a big-endian ELF: EI_DATA 2) reads back to the
# symbols KALLSYMS (ARCH-elf-kallsyms-GUEST) and the log read from the
# guest's dump (ARCH-elf-dmesg-GUEST).
guest_elf_readback() {
	local arch=$1 guest=$2 dump=$3 kallsyms=$4 order=$5 t=$WORK/$2
	if "$MDF" -f -E -d 31 "$dump" "$t/out.elf" >"$t/elf.out" 2>&1 &&
		{ [ "$order" = any-order ] || [ "$(od -An -tx1 -j5 -N1 "$t/out.elf" | tr -d ' ')" = 02 ]; } &&
		"$MDF" -f --dump-kallsyms "$t/out.elf" "$t/kallsyms.elf" >/dev/null 2>&1 &&
		"$MDF" -f --dump-dmesg "$t/out.elf" "$t/dmesg.elf" >/dev/null 2>&1; then
		same "$arch-elf-kallsyms-$guest" "$t/kallsyms.elf" "$kallsyms"
		same "$arch-elf-dmesg-$guest" "$t/dmesg.elf" "$t/dmesg"
	else
		fail "$arch-elf-$guest" "no ELF file ($order), or it does not read back: $(tail -n 2 "$t/elf.out")"
	fi
	rm -f "$t/out.elf"
}

# guest_dump_type ARCH GUEST DUMP: --dump-type answers the kernel's own
# VMCOREINFO SIZE() and OFFSET() lines (ARCH-dump-type-GUEST).
guest_dump_type() {
	local arch=$1 guest=$2 dump=$3 vi=$VMCORES/$2/vmcoreinfo.txt t=$WORK/$2 specs
	specs=$(sed -nE 's/^(SIZE|OFFSET)\(([a-z_.]+)\)=.*/\2/p' "$vi" | paste -sd, -)
	if "$MDF" --dump-type "$specs" "$dump" >"$t/types" 2>"$t/types.err"; then
		sed -nE 's/^OFFSET\(([a-z_.]+)\)=([0-9]+)$/\1 offset=\2/p; s/^SIZE\(([a-z_]+)\)=([0-9]+)$/\1 size=\2/p' \
			"$vi" >"$t/types.want"
		sed -E 's/^([a-z_.]+\.[a-z_.]+ offset=[0-9]+) .*/\1/' "$t/types" >"$t/types.got"
		same "$arch-dump-type-$guest" "$t/types.got" "$t/types.want"
	else
		fail "$arch-dump-type-$guest" "$(head -c 300 "$t/types.err")"
	fi
}

# guest_dump_type_module ARCH GUEST DUMP MODULE:TYPE.MEMBER: a module's
# type from its BTF: MEMBER, a pointer, at some offset
# (ARCH-dump-type-module-GUEST).
guest_dump_type_module() {
	local arch=$1 guest=$2 dump=$3 spec=$4 t=$WORK/$2 out
	if out=$("$MDF" --dump-type "$spec" "$dump" 2>"$t/type-module.err") &&
		[[ $out =~ ^"$spec"\ offset=[0-9]+\ size=8\ bitfield=0$ ]]; then
		pass "$arch-dump-type-module-$guest"
	else
		fail "$arch-dump-type-module-$guest" "$out $(head -c 300 "$t/type-module.err")"
	fi
}

# guest_tasks_vmas_uvtop ARCH GUEST DUMP KERNEL_ADDRESS: walkread (the tool
# of tests/sh/t-walkers.sh) finds init and labprobe with its pid, their
# task_structs at addresses starting with KERNEL_ADDRESS
# (ARCH-tasks-GUEST); labprobe's VMAs are the guest's /proc/PID/maps
# (ARCH-vmas-GUEST), and its anonymous pages translate through its page
# tables to the pfns the guest read from /proc/PID/pagemap
# (ARCH-uvtop-GUEST).
guest_tasks_vmas_uvtop() {
	local arch=$1 guest=$2 dump=$3 kaddr=$4 t=$WORK/$2 facts=$VMCORES/$2/guest pid
	pid=$(cat "$facts/labprobe.pid")
	if ! timeout 60 "$WALK" "$dump" tasks >"$t/tasks" 2>"$t/tasks.err"; then
		fail "$arch-tasks-$guest" "$(head -c 300 "$t/tasks.err")"
	elif grep -q "^$pid $pid labprobe $kaddr" "$t/tasks" && grep -q "^1 1 init $kaddr" "$t/tasks"; then
		pass "$arch-tasks-$guest"
	else
		fail "$arch-tasks-$guest" "no labprobe with pid $pid, or no init: $(head -c 300 "$t/tasks")"
	fi
	if timeout 60 "$WALK" "$dump" vmas "$pid" >"$t/vmas" 2>"$t/vmas.err"; then
		same "$arch-vmas-$guest" <(awk '{ print $1 "-" $2 }' "$t/vmas") \
			<(awk '{ print $1 }' "$facts/labprobe-maps.txt")
	else
		fail "$arch-vmas-$guest" "$(head -c 300 "$t/vmas.err")"
	fi
	awk '$1 == "anon" { print $2, $3 }' "$facts/labprobe-pfns.txt" >"$t/anon"
	# shellcheck disable=SC2046 # the addresses are words
	if timeout 60 "$WALK" "$dump" uvtop "$pid" $(awk '{ print $1 }' "$t/anon") >"$t/uvtop" 2>"$t/uvtop.err"; then
		# "vaddr paddr" against the guest's "vaddr pfn"
		$PYTHON -c 'import sys
for l in open(sys.argv[1]):
    v, p = l.split()
    print(v, hex(int(p, 16) >> 12) if p.startswith("0x") else p)' "$t/uvtop" >"$t/uvtop.pfns"
		if [ -s "$t/anon" ]; then
			same "$arch-uvtop-$guest" "$t/uvtop.pfns" "$t/anon"
		else
			fail "$arch-uvtop-$guest" "no anon pages in $facts/labprobe-pfns.txt"
		fi
	else
		fail "$arch-uvtop-$guest" "$(head -c 300 "$t/uvtop.err")"
	fi
}

# guest_ext_base ARCH GUEST DUMP: the -l -d 1 file without extensions,
# $WORK/GUEST/base.kdump, that guest_ext_labprobe_anon and
# guest_drm_shmem_vgem compare theirs with; false, with
# ARCH-extensions-GUEST failed, when it cannot be written.
guest_ext_base() {
	local arch=$1 guest=$2 dump=$3 t=$WORK/$2
	"$MDF" -f -l -d 1 --no-extensions "$dump" "$t/base.kdump" >"$t/base.out" 2>&1 && return 0
	fail "$arch-extensions-$guest" "the run without extensions failed: $(tail -n 3 "$t/base.out")"
	return 1
}

# guest_ext_labprobe_anon ARCH GUEST DUMP: the test extension labprobe_anon
# walks the tasks to labprobe (ARCH-ext-task-walk-labprobe-GUEST) and
# drops every anon marker page and no other page of guest_ext_base's file
# (ARCH-ext-anon-removed-GUEST, tests/py/extcheck.py).
guest_ext_labprobe_anon() {
	local arch=$1 guest=$2 dump=$3 t=$WORK/$2 anon
	anon=$(extension_dir "anon-$guest" "$TEXT" labprobe_anon)
	if "$MDF" -f -l -d 1 --message-level 31 --extension-dir "$anon" "$dump" "$t/anon.kdump" >"$t/anon.out" 2>&1 &&
		grep -Eq '^labprobe_anon: labprobe: discarding [1-9][0-9]* anonymous pages' "$t/anon.out"; then
		pass "$arch-ext-task-walk-labprobe-$guest"
		check "$arch-ext-anon-removed-$guest" $EXTCHECK "$t/base.kdump" "$t/anon.kdump" \
			--markers "$VMCORES/$guest/marker-pfns.txt" --kind anon --removed --report "$t/anon.out"
	else
		fail "$arch-ext-task-walk-labprobe-$guest" "$(grep -E 'labprobe_anon|error' "$t/anon.out" | head -n 3)"
	fi
}

# guest_drm_shmem_vgem ARCH GUEST DUMP: drm_shmem_filter at -d 1 drops
# exactly the pages of labprobe's vgem buffer, the vgem marker pfns, from
# guest_ext_base's file (ARCH-drm-shmem-vgem-GUEST, tests/py/gpucheck.py).
guest_drm_shmem_vgem() {
	local arch=$1 guest=$2 dump=$3 t=$WORK/$2 shm
	shm=$(extension_dir "shm-$guest" "$EXT" drm_shmem_filter)
	awk '$1 == "vgem" { print $2 }' "$VMCORES/$guest/marker-pfns.txt" >"$t/vgem"
	if "$MDF" -f -l -d 1 --message-level 31 --extension-dir "$shm" "$dump" "$t/shm.kdump" >"$t/shm.out" 2>&1; then
		check "$arch-drm-shmem-vgem-$guest" $GPUCHECK "$t/base.kdump" "$t/shm.kdump" --removed "$t/vgem" \
			--report "$t/shm.out" --min 1024
	else
		fail "$arch-drm-shmem-vgem-$guest" "$(tail -n 3 "$t/shm.out")"
	fi
}

# guest_stack_labprobe ARCH GUEST DUMP: user_stack_keep keeps labprobe's
# resident [stack] pages at -d 31, which drops them otherwise
# (ARCH-stack-labprobe-GUEST).  The pages: walkread's translation of the
# [stack] VMA of the guest's maps, as many as its smaps' Rss.
guest_stack_labprobe() {
	local arch=$1 guest=$2 dump=$3 t=$WORK/$2 facts=$VMCORES/$2/guest pid stk range rss
	pid=$(cat "$facts/labprobe.pid")
	stk=$(extension_dir "stk-$guest" "$EXT" user_stack_keep)
	range=$(awk '$NF == "[stack]" { print $1 }' "$facts/labprobe-maps.txt")
	rss=$(grep -A 4 '\[stack\]$' "$facts/labprobe-smaps.txt" | awk '$1 == "Rss:" { print $2 / 4 }')
	# shellcheck disable=SC2046 # the addresses are words
	"$WALK" "$dump" uvtop "$pid" $($PYTHON -c 'import sys; s, e = (int(x, 16) for x in sys.argv[1].split("-"))
print(" ".join(hex(a) for a in range(s, e, 4096)))' "$range") 2>/dev/null |
		awk '$2 ~ /^0x/ { print $2 }' | $PYTHON -c 'import sys
for l in sys.stdin: print(hex(int(l, 16) >> 12))' >"$t/stack.pfns"
	if [ "$(wc -l <"$t/stack.pfns")" != "$rss" ]; then
		fail "$arch-stack-labprobe-$guest" "$(wc -l <"$t/stack.pfns") resident stack pages, smaps says $rss"
	elif "$MDF" -f -l -d 31 --no-extensions "$dump" "$t/base31.kdump" >/dev/null 2>&1 &&
		"$MDF" -f -l -d 31 --message-level 31 --extension-dir "$stk" --extension-arg user_stack_keep:comm=labprobe \
			"$dump" "$t/stack.kdump" >"$t/stack.out" 2>&1; then
		check "$arch-stack-labprobe-$guest" $GPUCHECK "$t/base31.kdump" "$t/stack.kdump" --kept "$t/stack.pfns" \
			--min "$rss"
	else
		fail "$arch-stack-labprobe-$guest" "$(tail -n 3 "$t/stack.out")"
	fi
	rm -f "$t/base31.kdump" "$t/stack.kdump"
}

# page_tables_warned PREFIX DUMP TABLES: for each "LABEL PFN" line of
# TABLES (pages of the kernel's page tables, found by a walk of the
# architecture's own), the test extension discard_range leaving out that
# one page is warned of: PREFIX-LABEL.  The caller checks that
# build/obj/tests/extensions/discard_range.so was built.
page_tables_warned() {
	local prefix=$1 dump=$2 tables=$3 ranged label pfn
	ranged=$(extension_dir ranged "$TEXT" discard_range)
	while read -r label pfn; do
		"$MDF" -f -l -d 31 --extension-dir "$ranged" --extension-arg discard_range:first="$pfn" \
			--extension-arg discard_range:count=1 "$dump" "$WORK/t.kdump" >"$WORK/t.out" 2>&1
		if grep -qF "$TABLE_WARNING (the first: pfn $pfn)" "$WORK/t.out"; then
			pass "$prefix-$label"
		else
			fail "$prefix-$label" "pfn $pfn: $(grep -i warning "$WORK/t.out" | head -n 2)"
		fi
	done <<<"$tables"
	rm -f "$WORK/t.kdump"
}

# bad_vmcoreinfo PREFIX DUMP VMCOREINFO NAME SED PATTERN: VMCOREINFO
# edited by the sed -E script SED, given with -i, contradicts DUMP's page
# tables: makedumpfile fails (exit 1) saying PATTERN, an ERE
# (PREFIX-bad-NAME).
bad_vmcoreinfo() {
	local prefix=$1 dump=$2 vi=$3 name=$4
	sed -E "$5" "$vi" >"$WORK/$prefix-bad-$name.vmcoreinfo"
	expect_failure "$prefix-bad-$name" "$6" "$MDF" -f --dump-dmesg -i "$WORK/$prefix-bad-$name.vmcoreinfo" "$dump" \
		"$WORK/bad.log"
}
