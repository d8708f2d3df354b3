#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The GPU buffer filters and the user-stack keeper (extensions/):
# - on each shared dump, -d 1 with drm_shmem_filter drops exactly the 1024
#   pfns of labprobe's vgem buffer (marker-pfns.txt), the report counts
#   them, every other page is the run's without it; amdgpu_filter in the
#   same run finds amdgpu loaded (its kallsyms and BTF lookups work), no
#   buffer object, and discards nothing;
# - user_stack_keep comm=labprobe keeps labprobe's resident [stack] pages
#   (guest/labprobe-maps.txt, as many as smaps' Rss) at -d 31, which drops
#   them otherwise; the real kdump's crashing task (init on CPU 1) is
#   found and its stack kept, the QEMU dumps have none and say so, and a
#   copy of the 7.2 dump told CPU 1 crashed finds its (idle) task;
# - on a generated dump with the amdgpu layout (tests/gen --amdgpu), read
#   back as the facts say (module kallsyms, classification, upstream's
#   too), exactly the facts' buffer pfns are dropped, page by page: scattered
#   pages, BOs mapped by two processes, by none (handles of a process or
#   of an in-kernel client, one past IDR index 64), by a VMA only, NULL
#   entries; stale pages[] (swapped, gutted) and VRAM BOs untouched; the
#   same for drm-shmem buffers; the crashing thread's and named tasks'
#   stacks kept;
# - damage in a copy of that dump (a pages array, a DRM file list, a VMA
#   tree): each ends one walk with a message, the rest is still found;
#   rounds of random garbage over the objects walked: every extension
#   finishes without crashing.
. "$(dirname "$0")/../lib.sh" || exit 2

EXT=$(dirname "$TOOLS")/extensions
GEN=$TOOLS/mkvmcore
WALK=$TOOLS/walkread
CHECK="$PYTHON $PROJECT/tests/py/gpucheck.py $TOOLS/dumpread"

# has NAME FILE PATTERN: pass when FILE has a line matching the ERE.
has() {
	if grep -Eq "$3" "$2"; then
		pass "$1"
	else
		fail "$1" "no /$3/ in $(basename "$2"): $(grep -E 'filter|keep' "$2" | head -n 3)"
	fi
}

# pfns_of DUMP PID ADDR-RANGE: the pfns of PID's resident pages in START-END (hex).
pfns_of() {
	local addrs
	addrs=$($PYTHON -c 'import sys; s, e = (int(x, 16) for x in sys.argv[1].split("-"))
print(" ".join(hex(a) for a in range(s, e, 4096)))' "$3")
	"$WALK" "$1" uvtop "$2" $addrs 2>/dev/null |
		$PYTHON -c 'import sys
for l in sys.stdin:
    f = l.split()
    if len(f) == 2 and f[1].startswith("0x"):
        print(hex(int(f[1], 16) >> 12))'
}

# mdf NAME ARGS...: a makedumpfile run, its output in $WORK/NAME.out.
mdf() {
	local name=$1
	shift
	"$MDF" -f -l --message-level 31 "$@" >"$WORK/$name.out" 2>&1 ||
		{ fail "$name" "makedumpfile failed: $(tail -n 3 "$WORK/$name.out")"; return 1; }
}

for so in amdgpu_filter drm_shmem_filter user_stack_keep; do
	if [ ! -s "$EXT/$so.so" ]; then
		skip gpu-filters "$EXT/$so.so is not built"
		exit 0
	fi
done
gpu=$(extension_dir gpu "$EXT" amdgpu_filter drm_shmem_filter)
amd=$(extension_dir amd "$EXT" amdgpu_filter)
shm=$(extension_dir shm "$EXT" drm_shmem_filter)
stk=$(extension_dir stk "$EXT" user_stack_keep)

# ---- the shared dumps ----
for guest in 6.1-kdump 6.1-qemu 7.2-qemu; do
	dump=$(fixture "$guest.elf") || { skip "gpu-filters-$guest" "no $VMCORES/$guest"; continue; }
	facts=$VMCORES/$guest/guest
	t=$WORK/$guest
	awk '$1 == "vgem" { print $2 }' "$VMCORES/$guest/marker-pfns.txt" >"$t.vgem"
	if mdf "gpu-base-$guest" -d 1 --no-extensions "$dump" "$t.base.kdump" &&
		mdf "gpu-$guest" -d 1 --extension-dir "$gpu" "$dump" "$t.gpu.kdump"; then
		check "gpu-shmem-vgem-$guest" $CHECK "$t.base.kdump" "$t.gpu.kdump" --removed "$t.vgem" \
			--report "$WORK/gpu-$guest.out" --min 1024
		if grep -q '^amdgpu_filter: no amdgpu buffer objects found' "$WORK/gpu-$guest.out" &&
			grep -q '^Extension amdgpu_filter: 0x0000000000000000 pages to discard' "$WORK/gpu-$guest.out" &&
			! grep -q '^amdgpu_filter: .*\(BTF\|failed\|cannot\)' "$WORK/gpu-$guest.out"; then
			pass "gpu-amdgpu-no-bo-$guest"
		else
			fail "gpu-amdgpu-no-bo-$guest" "$(grep amdgpu_filter "$WORK/gpu-$guest.out" | head -n 3)"
		fi
	fi
	rm -f "$t".*.kdump

	# labprobe's [stack]: its resident pages, through its page tables.
	pid=$(cat "$facts/labprobe.pid")
	range=$(awk '$NF == "[stack]" { print $1 }' "$facts/labprobe-maps.txt")
	rss=$(grep -A 4 '\[stack\]$' "$facts/labprobe-smaps.txt" | awk '$1 == "Rss:" { print $2 / 4 }')
	pfns_of "$dump" "$pid" "$range" >"$t.stack.pfns"
	if [ "$(wc -l <"$t.stack.pfns")" != "$rss" ]; then
		fail "gpu-stack-labprobe-$guest" "$(wc -l <"$t.stack.pfns") resident stack pages, smaps says $rss"
	elif mdf "stack-base-$guest" -d 31 --no-extensions "$dump" "$t.base31.kdump" &&
		# the real kdump's crashing task is another process: left out here
		mdf "stack-$guest" -d 31 --extension-dir "$stk" --extension-arg user_stack_keep:comm=labprobe \
			$([ "$guest" = 6.1-kdump ] && echo --extension-arg user_stack_keep:crash=no) \
			"$dump" "$t.stack.kdump"; then
		check "gpu-stack-labprobe-$guest" $CHECK "$t.base31.kdump" "$t.stack.kdump" \
			--kept "$t.stack.pfns" --min "$rss"
		# -d 31 drops them without the keeper: it is what keeps them
		has "gpu-stack-labprobe-needed-$guest" "$WORK/gpu-stack-labprobe-$guest.log" \
			"^$rss pfns kept, $rss of them beyond the base dump"
		if [ "$guest" != 6.1-kdump ]; then
			has "gpu-stack-no-crash-$guest" "$WORK/stack-$guest.out" "^user_stack_keep: no crashing CPU"
		elif mdf "stack-crash-$guest" -d 31 --extension-dir "$stk" "$dump" "$t.crash.kdump"; then
			# sysrq-c from init on CPU 1: init's stack VMA, which the log names
			out=$WORK/stack-crash-$guest.out
			has "gpu-stack-crashing-task-$guest" "$out" \
				'^user_stack_keep: init \(pid 1, the crashing task\): keeping the [1-9][0-9]* resident pages'
			range=$(sed -nE 's/^user_stack_keep: init \(pid 1.* its stack 0x([0-9a-f]+)-0x([0-9a-f]+)$/\1-\2/p' "$out")
			if [ -n "$range" ] && "$WALK" "$dump" vmas 1 |
				awk -v s="${range%-*}" -v e="${range#*-}" '$1 == s && $2 == e { f = 1 } END { exit !f }'; then
				pfns_of "$dump" 1 "$range" >"$t.init.pfns"
				check "gpu-stack-crashing-task-kept-$guest" $CHECK "$t.base31.kdump" \
					"$t.crash.kdump" --kept "$t.init.pfns"
			else
				fail "gpu-stack-crashing-task-kept-$guest" "the stack '$range' is no VMA of init"
			fi
		fi
	fi
	rm -f "$t".*.kdump
done

# 7.2's per-cpu symbols are addresses, not 6.1's offsets: a copy of the
# QEMU dump told that CPU 1 crashed (crashing_cpu, the kdump shutdown's)
# finds the task it ran, its idle task: a kernel thread, no user stack.
if dump=$(fixture 7.2-qemu.elf); then
	copy=$WORK/7.2-crashed.elf
	paddr=$("$TOOLS/dumpread" "$dump" vtop "$("$TOOLS/dumpread" "$dump" symbol crashing_cpu | awk '{ print $2 }')" |
		awk '{ print $2 }')
	if cp --sparse=always "$dump" "$copy" && chmod 600 "$copy" &&
		$PYTHON "$PROJECT/tests/py/patchphys.py" "$copy" "$paddr:01000000" >/dev/null &&
		mdf stack-crashing-cpu-7.2-qemu -d 31 --extension-dir "$stk" "$copy" "$WORK/crashed.kdump"; then
		has gpu-stack-crashing-cpu-7.2-qemu "$WORK/stack-crashing-cpu-7.2-qemu.out" \
			'^user_stack_keep: the crashing task on CPU 1, swapper/1 \(pid 0\), is a kernel thread'
	else
		fail gpu-stack-crashing-cpu-7.2-qemu "could not make or filter the copy"
	fi
	rm -f "$copy" "$WORK/crashed.kdump"
fi

# ---- a generated dump with the amdgpu layout ----
if [ ! -x "$GEN" ]; then
	skip gpu-filters-generated "no $GEN"
	exit 0
fi
g=$WORK/amdgpu
if ! "$GEN" --amdgpu --sparse --facts "$g.facts" --kallsyms-out "$g.ksyms" "$g.elf" >"$g.gen.log" 2>&1; then
	fail gen-amdgpu "mkvmcore --amdgpu failed: $(tail -n 2 "$g.gen.log")"
	exit 0
fi
# The layout reads back: module symbols, classification as the facts say.
"$MDF" --dump-kallsyms "$g.elf" "$g.ksyms.out" 2>"$g.err" && cmp -s "$g.ksyms.out" "$g.ksyms" &&
	grep -q $'amdgpu_gem_vm_ops\t\\[amdgpu\\]$' "$g.ksyms" &&
	pass gen-amdgpu-kallsyms || fail gen-amdgpu-kallsyms "$(head -c 300 "$g.err"; diff "$g.ksyms.out" "$g.ksyms" | head -n 3)"
check gen-amdgpu-scan-d31 $PYTHON "$PROJECT/tests/py/gencheck.py" "$TOOLS/dumpread" "$g.elf" "$g.facts" scan 31
if command -v makedumpfile >/dev/null; then
	check gen-amdgpu-faithful-to-upstream $PYTHON "$PROJECT/tests/gen/check-upstream.py" --mkvmcore "$GEN" \
		--levels 1,31 -- --amdgpu
else
	skip gen-amdgpu-faithful-to-upstream "upstream makedumpfile is not installed"
fi
# What the facts promise is worth testing: scattered pages, a BO mapped
# twice, ones mapped by nobody, stale and VRAM ones.
check gen-amdgpu-layout $PYTHON - "$g.facts" <<'EOF'
import sys
bos = [l.split() for l in open(sys.argv[1]) if l.startswith('gpu_bo amdgpu ')]
pages = {}
for l in open(sys.argv[1]):
    f = l.split()
    if f[:2] == ['gpu_page', 'amdgpu']:
        pages.setdefault(f[2], []).append(int(f[3], 16))
via = {b[2]: dict(kv.split('=', 1) for kv in b[4:9])['via'] for b in bos}
drop = {b[2]: int(dict(kv.split('=', 1) for kv in b[4:9])['drop']) for b in bos}
assert any(v.count('vma:') == 2 for v in via.values()), 'no BO mapped by two processes'
assert any('vma:' not in v and drop[n] for n, v in via.items()), 'no dropped BO mapped by none'
assert any('handle' not in v and 'internal' not in v and drop[n] for n, v in via.items()), 'no BO in a VMA only'
assert any(v.startswith('internal') and drop[n] for n, v in via.items()), 'no in-kernel client BO'
assert any(not drop[n] for n in via), 'no BO to leave alone'
scattered = [n for n, p in pages.items() if any(b != a + 1 for a, b in zip(p, p[1:]))]
runs = [n for n, p in pages.items() if any(b == a + 1 for a, b in zip(p, p[1:]))]
assert len(scattered) >= 5 and runs, 'pages not scattered, or no run'
print(len(bos), 'BOs,', sum(map(len, pages.values())), 'pages to drop')
EOF

awk '$1 == "gpu_page" && $2 == "amdgpu" { print $4 }' "$g.facts" >"$g.amdgpu"
awk '$1 == "gpu_page" && $2 == "shmem" { print $4 }' "$g.facts" >"$g.shmem"
if mdf gen-base31 -d 31 --no-extensions "$g.elf" "$g.base31.kdump" &&
	mdf gen-amdgpu-filter -d 31 --extension-dir "$amd" "$g.elf" "$g.amd.kdump"; then
	check gen-amdgpu-filter $CHECK "$g.base31.kdump" "$g.amd.kdump" --removed "$g.amdgpu" \
		--report "$WORK/gen-amdgpu-filter.out" --min 60
	has gen-amdgpu-filter-once "$WORK/gen-amdgpu-filter.out" \
		'^amdgpu_filter: 10 amdgpu buffer objects \(3 found through 4 mappings of 4 processes, 7 more'
fi
if mdf gen-base1 -d 1 --no-extensions "$g.elf" "$g.base1.kdump" &&
	mdf gen-shmem-filter -d 1 --extension-dir "$shm" "$g.elf" "$g.shm.kdump"; then
	check gen-shmem-filter $CHECK "$g.base1.kdump" "$g.shm.kdump" --removed "$g.shmem" \
		--report "$WORK/gen-shmem-filter.out" --min 20
fi
# The crashing CPU runs a thread of Xorg: Xorg's stack; glxgears and vkcube by name and pid.
awk '$1 == "stack_page" && ($2 == 300 || $2 == 301 || $2 == 302) { print $3 }' "$g.facts" >"$g.stacks"
if mdf gen-stack -d 31 --extension-dir "$stk" --extension-arg user_stack_keep:comm=glxgears \
	--extension-arg user_stack_keep:pid=302 "$g.elf" "$g.stk.kdump"; then
	check gen-stack-keep $CHECK "$g.base31.kdump" "$g.stk.kdump" --kept "$g.stacks" --min 21
	has gen-stack-keep-crashing-thread "$WORK/gen-stack.out" \
		"^user_stack_keep: Xorg:gdrv0 \(pid $(awk '$1 == "crash_task" { print $2 }' "$g.facts"), the crashing task\)"
fi
rm -f "$g".*.kdump

# ---- damage, in place in a copy, each case undone ----
copy=$g.damaged.elf
cp --sparse=always "$g.elf" "$copy" && chmod 600 "$copy" || { fail gpu-damage "cannot copy"; exit 0; }
page_offset=$(sed -n 's/^page_offset_base=//p' "$g.facts")
le64() { printf '%016x' "$1" | sed -E 's/(..)(..)(..)(..)(..)(..)(..)(..)/\8\7\6\5\4\3\2\1/'; }
offset() { "$MDF" --dump-type "$1" "$g.elf" | sed -E 's/.* offset=([0-9]+) .*/\1/'; }
# patch VADDR VALUE: a u64 of the direct map; prints how to undo it.
patch() { $PYTHON "$PROJECT/tests/py/patchphys.py" "$copy" "$(($1 - page_offset)):$(le64 "$2")"; }
unpatch() { $PYTHON "$PROJECT/tests/py/patchphys.py" "$copy" $1 >/dev/null; }
bo_field() { awk -v b="$1" -v k="$2" '$1 == "gpu_bo" && $3 == b { for (i = 5; i <= NF; i++) if (index($i, k "=") == 1) print substr($i, length(k) + 2) }' "$g.facts"; }
without() { grep -vxF -f <(awk -v bos=" $* " '$1 == "gpu_page" && index(bos, " " $3 " ") { print $4 }' "$g.facts") "$g.amdgpu"; }
# damage NAME EXPECTED-PFNS MESSAGE-ERE: amdgpu_filter on the copy as patched.
damage() {
	if mdf "$1-base" -d 31 --no-extensions "$copy" "$g.dbase.kdump" &&
		mdf "$1" -d 31 --extension-dir "$amd" "$copy" "$g.d.kdump"; then
		check "$1" $CHECK "$g.dbase.kdump" "$g.d.kdump" --removed "$2" --min 20
		has "$1-said" "$WORK/$1.out" "$3"
	fi
}

# bo1's pages array pointer leads nowhere: bo1 keeps its pages, the rest go.
tt=$(bo_field bo1 tt)
undo=$(patch $((tt + $(offset amdgpu:ttm_tt.pages))) 0xdead000000000000)
without bo1 >"$g.exp"
damage gpu-damage-pages-array "$g.exp" '^amdgpu_filter: BO at 0x[0-9a-f]+: its pages array at 0xdead000000000000 cannot be read'
unpatch "$undo"

# amdgpu's device's file list is cut: BOs only its processes' handles hold
# stay; the mapped ones and the in-kernel client's still go.
dev=$(awk '$1 == "drm_device" && $2 == "amdgpu" { print $3 }' "$g.facts")
undo=$(patch $((dev + $(offset drm:drm_device.filelist))) 0xdead000000000100)
without bo3 bo7 bo8 >"$g.exp"
damage gpu-damage-file-list "$g.exp" "^makedumpfile: list at $(printf '0x%x' $((dev + $(offset drm:drm_device.filelist)))): .*0xdead000000000100"
unpatch "$undo"

# glxgears' VMA tree root is garbage: its BOs are still found through its handles.
mm=$(awk '$1 == "task" && $4 == "glxgears" { print $6 }' "$g.facts")
undo=$(patch $((mm + $(offset vmlinux:mm_struct.mm_mt) + $(offset vmlinux:maple_tree.ma_root))) $((dev | 0x1e)))
damage gpu-damage-vma-tree "$g.amdgpu" "^makedumpfile: maple tree at $(printf '0x%x' $((mm + $(offset vmlinux:mm_struct.mm_mt))))"
unpatch "$undo"

# Garbage: each round overwrites 96 random words of the objects the walks
# go through (tasks, mms, BOs, ttm_tts, DRM devices) with zeros, poison,
# random bits or pointers into those objects; every extension must finish,
# crash-free, and the dump be written.
targets=$(awk '$1 == "task" { print $5, $6 } $1 == "drm_device" { print $3 }
	$1 == "gpu_bo" { print $4; for (i = 5; i <= NF; i++) if ($i ~ /^(gem|tt)=0x/) print substr($i, index($i, "=") + 1) }' "$g.facts" |
	tr ' ' '\n' | grep -v '^0$' | sort -u | tr '\n' ' ')
all=$(extension_dir all "$EXT" amdgpu_filter drm_shmem_filter user_stack_keep)
bad=
for round in 1 2 3 4 5 6; do
	patches=$($PYTHON - "$round" "$page_offset" $targets <<'EOF'
import random
import sys
rng = random.Random(int(sys.argv[1]))
base, targets = int(sys.argv[2], 0), [int(t, 0) for t in sys.argv[3:]]
for _ in range(96):
    addr = (rng.choice(targets) + rng.randrange(0, 2048)) & ~7
    value = rng.choice([0, 0xdead000000000100, rng.getrandbits(64), rng.choice(targets) + 8 * rng.randrange(64)])
    print('%d:%s' % (addr - base, value.to_bytes(8, 'little').hex()))
EOF
)
	undo=$($PYTHON "$PROJECT/tests/py/patchphys.py" "$copy" $patches)
	if ! timeout 120 "$MDF" -f -l -d 31 --message-level 31 --extension-timeout 30 --extension-dir "$all" \
		--extension-arg user_stack_keep:comm=glxgears "$copy" "$g.d.kdump" >"$WORK/garbage-$round.out" 2>&1 ||
		grep -q 'failed: \(crashed\|did not finish\)' "$WORK/garbage-$round.out"; then
		bad="$bad $round"
	fi
	unpatch "$(tr '\n' ' ' <<<"$undo")"
done
[ -z "$bad" ] && pass gpu-garbage-survived ||
	fail gpu-garbage-survived "rounds$bad: $(grep -h 'failed' "$WORK"/garbage-*.out | head -n 2)"
cmp -s "$copy" "$g.elf" && pass gpu-damage-undone || fail gpu-damage-undone "the copy differs after the undo"
rm -f "$g".*.kdump "$copy" "$g.elf"
