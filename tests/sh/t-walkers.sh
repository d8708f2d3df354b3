#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel-structure walkers (walkers.c, through tests/tools/walkread) on
# the shared dumps, against what the guest saw of itself:
# - the task walk finds labprobe with its pid, init and kthreadd;
# - labprobe's VMAs (a maple tree) are exactly guest/labprobe-maps.txt;
# - its anonymous pages translate through its page tables to the pfns of
#   guest/labprobe-pfns.txt; the pages it unmapped again do not translate;
# - two xarrays: the page cache of the tmpfs file it read gives exactly the
#   pagecache pfns, index by index, and the vgem buffer's shmem pages (its
#   VMA's drm_gem_object) exactly the vgem pfns of marker-pfns.txt, which
#   its PFN-mapped VMA's page tables give too, page by page;
# - DRM's minors, an IDR (6.1) or an xarray (7.2), hold vgem's minor 0;
# then damage in a copy of a dump (a garbage root, a cycle, pivots out of
# order, a dead node, a self-looping list, a wild pointer, an xarray node
# in its own slot): each walk ends with one message and exit status 1;
# and bigger maple trees and xarrays than the guests had, laid out by
# tests/py/walkersynth.py in the copy, walk to exactly their entries.
. "$(dirname "$0")/../lib.sh" || exit 2

WALK=$TOOLS/walkread
if [ ! -x "$WALK" ]; then
	skip walkers "no $WALK"
	exit 0
fi

# hexset FILE COLUMN: the column's numbers, as sorted decimal lines.
hexset() { awk -v c="$2" '{ print $c }' "$1" | $PYTHON -c 'import sys
print("\n".join(str(v) for v in sorted(int(l, 16) for l in sys.stdin if l.strip())))'; }

for guest in 6.1-qemu 6.1-kdump 7.2-qemu; do
	if ! dump=$(fixture "$guest.elf"); then
		skip "walkers-$guest" "no $VMCORES/$guest/vmcore.elf.zst"
		continue
	fi
	facts=$VMCORES/$guest/guest
	pid=$(cat "$facts/labprobe.pid")
	w=$WORK/$guest
	mkdir -p "$w"

	# Tasks.
	if ! timeout 60 "$WALK" "$dump" tasks >"$w/tasks" 2>"$w/err"; then
		fail "walkers-tasks-$guest" "exit status $?: $(head -c 400 "$w/err")"
	elif ! grep -q "^$pid $pid labprobe 0xffff" "$w/tasks"; then
		fail "walkers-tasks-$guest" "no labprobe with pid $pid: $(head -c 400 "$w/tasks")"
	elif ! grep -q '^1 1 init 0xffff' "$w/tasks" || ! grep -q '^2 2 kthreadd 0x0 ' "$w/tasks"; then
		fail "walkers-tasks-$guest" "no init (pid 1, with an mm) or kthreadd (pid 2, without)"
	elif n=$(wc -l <"$w/tasks") && [ "$n" -lt 20 ] || [ "$n" -gt 5000 ]; then
		fail "walkers-tasks-$guest" "$n tasks: not plausible for this guest"
	elif [ "$(awk '{ print $1 }' "$w/tasks" | sort | uniq -d)" ]; then
		fail "walkers-tasks-$guest" "a pid is listed twice"
	else
		pass "walkers-tasks-$guest"
	fi

	# labprobe's VMAs: the maple tree mm_mt, against /proc/PID/maps.
	if ! timeout 60 "$WALK" "$dump" vmas "$pid" >"$w/vmas" 2>"$w/err"; then
		fail "walkers-vmas-$guest" "exit status $?: $(head -c 400 "$w/err")"
	elif ! diff <(awk '{ print $1 "-" $2 }' "$w/vmas") <(awk '{ print $1 }' "$facts/labprobe-maps.txt") \
		>"$w/diff"; then
		fail "walkers-vmas-$guest" "VMAs differ from labprobe-maps.txt: $(head -n 6 "$w/diff")"
	else
		pass "walkers-vmas-$guest"
	fi

	# Every process with an mm: its VMA tree walks cleanly.
	bad=
	for p in $(awk '$4 != "0x0" { print $1 }' "$w/tasks"); do
		timeout 60 "$WALK" "$dump" vmas "$p" >/dev/null 2>"$w/err" || bad="$bad $p"
	done
	[ -z "$bad" ] && pass "walkers-vmas-all-$guest" ||
		fail "walkers-vmas-all-$guest" "pids$bad: $(head -c 300 "$w/err")"

	# User addresses: every anonymous page; pagecache pages were unmapped
	# again by labprobe, so their addresses translate to nothing.
	awk '$1 == "anon" { print $2, $3 }' "$facts/labprobe-pfns.txt" >"$w/anon"
	awk '$1 == "pagecache" { print $2 }' "$facts/labprobe-pfns.txt" | head -n 16 >"$w/unmapped"
	if ! timeout 60 "$WALK" "$dump" uvtop "$pid" $(awk '{ print $1 }' "$w/anon") \
		$(cat "$w/unmapped") >"$w/uvtop" 2>"$w/err"; then
		fail "walkers-uvtop-$guest" "exit status $?: $(head -c 400 "$w/err")"
	elif ! $PYTHON - "$w/anon" "$w/unmapped" "$w/uvtop" >"$w/check" 2>&1 <<'EOF'
import sys
anon = [l.split() for l in open(sys.argv[1])]
unmapped = [l.strip() for l in open(sys.argv[2])]
got = [l.split() for l in open(sys.argv[3])]
want = [(v, hex(int(p, 16) * 4096)) for v, p in anon] + [(v, "notpresent") for v in unmapped]
bad = [(g, w) for g, w in zip(got, want) if int(g[0], 16) != int(w[0], 16) or g[1] != w[1]]
if len(got) != len(want) or bad:
    sys.exit("%d lines for %d addresses; first differences: %s" % (len(got), len(want), bad[:3]))
print(len(anon), "anonymous pages translate to their pfns")
EOF
	then
		fail "walkers-uvtop-$guest" "$(tail -n 2 "$w/check")"
	else
		pass "walkers-uvtop-$guest"
	fi

	# The tmpfs file's page cache, an xarray: its pages in index order are
	# labprobe's pagecache pages in address order, and every marker page.
	if ! timeout 60 "$WALK" "$dump" pagecache tmpfs 2097152 >"$w/pagecache" 2>"$w/err"; then
		fail "walkers-xarray-pagecache-$guest" "exit status $?: $(head -c 400 "$w/err")"
	elif ! grep -q '^inodes 1$' "$w/pagecache" || ! grep -q '^inode 0x.* nrpages 512$' "$w/pagecache"; then
		fail "walkers-xarray-pagecache-$guest" "not one 2 MiB tmpfs file of 512 pages: $(grep -v ^page "$w/pagecache")"
	elif ! diff <(awk '/^page/ { print $2, $3 }' "$w/pagecache" | $PYTHON -c 'import sys
for l in sys.stdin: i, p = l.split(); print(i, int(p, 16))') \
		<(awk '$1 == "pagecache" { print NR, $3 }' "$facts/labprobe-pfns.txt" | $PYTHON -c 'import sys
rows = [l.split() for l in sys.stdin]
for n, p in rows: print(int(n) - int(rows[0][0]), int(p, 16))') >"$w/diff"; then
		fail "walkers-xarray-pagecache-$guest" "pages differ from labprobe-pfns.txt: $(head -n 4 "$w/diff")"
	elif ! cmp -s <(grep ^page "$w/pagecache" | hexset /dev/stdin 3) \
		<(grep ^pagecache "$VMCORES/$guest/marker-pfns.txt" | hexset /dev/stdin 2); then
		fail "walkers-xarray-pagecache-$guest" "pages differ from marker-pfns.txt"
	else
		pass "walkers-xarray-pagecache-$guest"
	fi

	# The vgem buffer: labprobe's VMA at its address has the GEM object as
	# vm_private_data (drm's BTF), whose shmem file's i_pages hold its pages.
	vgem=$(awk '$1 == "vgem" { print $2 }' "$facts/labprobe-pfns.txt")
	first=$(head -n 1 <<<"$vgem")
	if ! timeout 60 "$WALK" "$dump" gem "$pid" "$first" >"$w/gem" 2>"$w/err"; then
		fail "walkers-xarray-gem-$guest" "exit status $?: $(head -c 400 "$w/err")"
	elif [ "$(grep -c ^page "$w/gem")" != 1024 ] ||
		! cmp -s <(hexset "$w/gem" 3) <(grep ^vgem "$VMCORES/$guest/marker-pfns.txt" | hexset /dev/stdin 2); then
		fail "walkers-xarray-gem-$guest" "$(grep -c ^page "$w/gem") pages, not the 1024 vgem pfns of marker-pfns.txt"
	else
		pass "walkers-xarray-gem-$guest"
	fi
	# Its PFN mapping (not in the guest's pagemap): the page tables agree, page by page.
	if ! timeout 60 "$WALK" "$dump" uvtop "$pid" $vgem >"$w/vgem-uvtop" 2>"$w/err"; then
		fail "walkers-uvtop-vgem-$guest" "exit status $?: $(head -c 400 "$w/err")"
	elif ! $PYTHON - "$w/vgem-uvtop" "$w/gem" >"$w/check" 2>&1 <<'EOF'
import sys
uv = [l.split() for l in open(sys.argv[1])]
gem = {int(l.split()[1]): int(l.split()[2], 16) for l in open(sys.argv[2])}
base = int(uv[0][0], 16)
bad = [(v, p) for v, p in uv
       if not p.startswith("0x") or int(p, 16) != gem.get((int(v, 16) - base) // 4096, -1) * 4096]
if len(uv) != 1024 or bad:
    sys.exit("%d addresses; differences: %s" % (len(uv), bad[:3]))
EOF
	then
		fail "walkers-uvtop-vgem-$guest" "$(tail -n 2 "$w/check")"
	else
		pass "walkers-uvtop-vgem-$guest"
	fi

	# DRM's minors: an IDR on 6.1 (drm_minors_idr), an xarray on 7.2
	# (drm_minors_xa).  vgem is the only DRM device ("on minor 0" in dmesg):
	# its primary minor, id 0; each entry's drm_minor.index is its id.
	if ! timeout 60 "$WALK" "$dump" drm-minors >"$w/minors" 2>"$w/err"; then
		fail "walkers-idr-drm-$guest" "exit status $?: $(head -c 400 "$w/err")"
	elif ! grep -q '^minor 0 index 0 type 0$' "$w/minors" ||
		awk '$2 != $4 { bad = 1 } END { exit !bad }' "$w/minors"; then
		fail "walkers-idr-drm-$guest" "$(tr '\n' ';' <"$w/minors")"
	else
		pass "walkers-idr-drm-$guest"
	fi
done

# ---- Damage, in a copy of one dump, one case at a time, each undone. ----
for guest in 6.1-kdump 6.1-qemu 7.2-qemu; do
	dump=$(fixture "$guest.elf") && break
done
if [ -z "$dump" ]; then
	skip walkers-damage "no shared dump"
	exit 0
fi
copy=$WORK/damaged.elf
cp --sparse=always "$dump" "$copy" && chmod 600 "$copy" || {
	fail walkers-damage "cannot copy $dump"
	exit 0
}
pid=$(cat "$VMCORES/$guest/guest/labprobe.pid")

hex() { printf '0x%x' "$1"; }
symbol() { "$TOOLS/dumpread" "$dump" symbol "$1" | awk '{ print $2 }'; }
offset() { "$MDF" --dump-type "vmlinux:$1" "$dump" | sed -E 's/.* offset=([0-9]+) .*/\1/'; }
read_u64() { printf '0x%s' "$("$TOOLS/dumpread" "$dump" virt "$1" 8 | od -An -tx8 | tr -d ' ')"; }
le64() { printf '%016x' "$1" | sed -E 's/(..)(..)(..)(..)(..)(..)(..)(..)/\8\7\6\5\4\3\2\1/'; }
# patch VADDR HEX: overwrites the copy's memory there; prints how to undo it.
patch() {
	local paddr
	paddr=$("$TOOLS/dumpread" "$dump" vtop "$1" | awk '{ print $2 }')
	$PYTHON "$PROJECT/tests/py/patchphys.py" "$copy" "$paddr:$2"
}
unpatch() { $PYTHON "$PROJECT/tests/py/patchphys.py" "$copy" $1 >/dev/null; }

task=$(awk -v p="$pid" '$1 == p && $3 == "labprobe" { print $5 }' "$WORK/$guest/tasks")
mm=$(awk -v p="$pid" '$1 == p && $3 == "labprobe" { print $4 }' "$WORK/$guest/tasks")
if [ -z "$task" ] || [ -z "$mm" ]; then
	fail walkers-damage "labprobe not found in $guest"
	exit 0
fi
tree=$(hex $((mm + $(offset mm_struct.mm_mt))))
root=$(read_u64 $(hex $((tree + $(offset maple_tree.ma_root)))))
root_node=$(hex $((root & ~0xff)))
garbage=$(hex $(($(symbol linux_banner) & ~0xff)))

# A root that points into the kernel's banner string: no node of this tree.
undo=$(patch $(hex $((tree + $(offset maple_tree.ma_root)))) "$(le64 $((garbage | 0x1a)))")
expect_failure walkers-damage-maple-garbage-root \
	"maple tree at $tree: node $garbage \(slot 0 of 0x[0-9a-f]+\) has the parent pointer 0x[0-9a-f]+: not a node of this tree" \
	"$WALK" "$copy" vmas "$pid"
unpatch "$undo"

# The root's first slot points at the root itself: a cycle.
undo=$(patch $(hex $((root_node + $(offset maple_arange_64.slot)))) "$(le64 $((root_node | 0x1c)))")
expect_failure walkers-damage-maple-cycle \
	"maple tree at $tree: node $root_node \(slot 0 of $root_node\) has the parent pointer" \
	"$WALK" "$copy" maple "$tree"
unpatch "$undo"

# The root's first pivot at the very end of the index space: out of order.
undo=$(patch $(hex $((root_node + $(offset maple_arange_64.pivot)))) ffffffffffffffff)
expect_failure walkers-damage-maple-pivots \
	"maple tree at $tree: node $root_node \[0x0, 0xffffffffffffffff\]: pivot 0 \(0xffffffffffffffff\) is out of order" \
	"$WALK" "$copy" maple "$tree"
unpatch "$undo"

# The root marked dead (its parent pointer names itself).
undo=$(patch $(hex $((root_node + $(offset maple_node.parent)))) "$(le64 "$root_node")")
expect_failure walkers-damage-maple-dead "maple tree at $tree: node $root_node is dead" \
	"$WALK" "$copy" maple "$tree"
unpatch "$undo"

# An unknown node type in the root pointer.
undo=$(patch $(hex $((tree + $(offset maple_tree.ma_root)))) "$(le64 $((root_node | 0x7a)))")
expect_failure walkers-damage-maple-type "maple tree at $tree: node $root_node .* has the unknown type 15" \
	"$WALK" "$copy" maple "$tree"
unpatch "$undo"

# labprobe's tasks.next points to itself: the task list loops.
tasks_node=$(hex $((task + $(offset task_struct.tasks))))
undo=$(patch "$tasks_node" "$(le64 "$tasks_node")")
expect_failure walkers-damage-list-loop \
	"the task list \(init_task.tasks\) at 0x[0-9a-f]+: entry $tasks_node: its next pointer $tasks_node leads back to an entry already walked" \
	"$WALK" "$copy" tasks
head=$(hex $(($(symbol init_task) + $(offset task_struct.tasks))))
expect_failure walkers-damage-list-loop-raw "list at $head: entry $tasks_node: its next pointer $tasks_node leads back" \
	"$WALK" "$copy" list "$head"
unpatch "$undo"

# ... or to the kernel's LIST_POISON1.
undo=$(patch "$tasks_node" "$(le64 0xdead000000000100)")
expect_failure walkers-damage-list-poison \
	"entry $tasks_node: its next pointer 0xdead000000000100 leads to memory the dump cannot give" \
	"$WALK" "$copy" tasks
unpatch "$undo"

# The tmpfs file's xarray: its head node in its own first slot, then a head into the banner.
inode=$(awk '$1 == "inode" { print $2 }' "$WORK/$guest/pagecache")
mapping=$(read_u64 $(hex $((inode + $(offset inode.i_mapping)))))
xa=$(hex $((mapping + $(offset address_space.i_pages))))
head=$(read_u64 $(hex $((xa + $(offset xarray.xa_head)))))
node=$(hex $((head - 2)))
undo=$(patch $(hex $((node + $(offset xa_node.slots)))) "$(le64 "$head")")
expect_failure walkers-damage-xarray-cycle \
	"xarray at $xa: node $node \(slot 0 of node $node\) is not a node of it" \
	"$WALK" "$copy" xarray "$xa"
unpatch "$undo"
undo=$(patch $(hex $((xa + $(offset xarray.xa_head)))) "$(le64 $((garbage | 2)))")
expect_failure walkers-damage-xarray-garbage \
	"xarray at $xa: node $garbage \(slot 0 of the xarray $xa\) is not a node of it" \
	"$WALK" "$copy" xarray "$xa"
unpatch "$undo"

# Repaired, the copy walks as the original.
if cmp -s <("$WALK" "$copy" vmas "$pid" 2>&1) "$WORK/$guest/vmas" &&
	cmp -s <("$WALK" "$copy" tasks 2>&1) "$WORK/$guest/tasks"; then
	pass walkers-damage-repaired
else
	fail walkers-damage-repaired "the undo of a patch left the copy different"
fi

# Bigger trees than the guests had, built in labprobe's anonymous pages of
# the copy (user data: nothing else reads them) with every node shape.
scratch=$(awk '$1 == "anon" { print $3 }' "$VMCORES/$guest/guest/labprobe-pfns.txt" | head -n 16)
for kind in maple-arange maple-range xarray; do
	if ! $PYTHON "$PROJECT/tests/py/walkersynth.py" "$MDF" "$TOOLS/dumpread" "$dump" "$copy" "$kind" \
		$scratch >"$WORK/synth-$kind" 2>"$WORK/err"; then
		fail "walkers-synthetic-$kind" "walkersynth.py failed: $(head -c 400 "$WORK/err")"
	elif ! timeout 60 "$WALK" "$copy" "${kind%-*}" "$(head -n 1 "$WORK/synth-$kind")" >"$WORK/out" 2>"$WORK/err"; then
		fail "walkers-synthetic-$kind" "exit status $?: $(head -c 400 "$WORK/err")"
	elif ! diff <(tail -n +2 "$WORK/synth-$kind") "$WORK/out" >"$WORK/diff"; then
		fail "walkers-synthetic-$kind" "entries differ: $(head -n 6 "$WORK/diff")"
	else
		pass "walkers-synthetic-$kind"
	fi
done
rm -f "$copy"
