#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# make bench: kallsyms decode time on each shared dump, the cost of kernel
# and module kallsyms and BTF, then ours against upstream makedumpfile on
# the shared dumps and a generated large one.
set -u
PROJECT=$(cd "$(dirname "$0")/.." && pwd)
FIXTURES=$PROJECT/build/fixtures
WORK=$PROJECT/build/bench
mkdir -p "$WORK"
: "${MDF:?}" "${TOOLS:?}"
RUNS=${RUNS:-5}
"$PROJECT/tests/fixtures.sh" >/dev/null || echo "warning: some fixtures could not be prepared"

echo "== the kernel's kallsyms: open and list, open and find by name (median of 21 runs, each on a freshly opened dump)"
for dump in "$FIXTURES"/6.1-kdump.elf "$FIXTURES"/6.1-qemu.elf "$FIXTURES"/7.2-qemu.elf; do
	[ -s "$dump" ] || continue
	printf '%-16s ' "$(basename "$dump" .elf)"
	"$TOOLS/kallsyms_bench" "$dump" 21
done

echo
echo "== kallsyms and BTF, kernel and modules: time to make ready, memory, member lookups (median of 7 runs)"
for dump in "$FIXTURES"/6.1-kdump.elf "$FIXTURES"/6.1-qemu.elf "$FIXTURES"/7.2-qemu.elf; do
	[ -s "$dump" ] || continue
	printf '%-16s ' "$(basename "$dump" .elf)"
	"$TOOLS/btf_bench" "$dump" 7
done

dumps=()
for name in 6.1-kdump 6.1-qemu.relayout 7.2-qemu.relayout; do
	[ -s "$FIXTURES/$name.elf" ] && dumps+=(--dump "$name=$FIXTURES/$name.elf")
done
# Generated dumps of 1, 4 and 16 GiB: sparse files, mostly free pages.
if [ -x "$TOOLS/mkvmcore" ]; then
	for size in 1 4 16; do
		gen=$WORK/generated-${size}g.elf
		if [ ! -s "$gen" ]; then
			echo "== generating a $size GiB sparse dump"
			"$TOOLS/mkvmcore" --ram ${size}G --sparse "$gen" >/dev/null || rm -f "$gen"
		fi
		[ -s "$gen" ] && dumps+=(--dump "gen-${size}g=$gen")
	done
	large=$WORK/generated-16g.elf
fi
echo
echo "== ours against upstream makedumpfile ($(makedumpfile -v 2>/dev/null | head -n 1)), median of $RUNS runs,"
echo "   alternating; in/kept: GB/s of the memory the dump holds and of the pages kept; ratios ours/upstream"
/usr/bin/python3 "$PROJECT/bench/bench.py" --ours "$MDF" --upstream "$(command -v makedumpfile)" \
	--runs "$RUNS" --workdir "$WORK" "${dumps[@]}" \
	--job "-d31 -l=-l -d 31" --job "-d31 -c=-c -d 31" --job "-d1 -l=-l -d 1" \
	--job "-d31 -z=-z -d 31" --job "-d31 -p=-p -d 31" | tee "$WORK/table.txt"
# Memory must not grow with the dump: max RSS at 16 GiB against 1 GiB.
awk '$1 == "gen-1g" && $2 == "-d31" { one[$3] = $6 } $1 == "gen-16g" && $2 == "-d31" { sixteen[$3] = $6 }
	END { for (j in one) if (one[j] > 0) printf "max RSS growth 1 GiB -> 16 GiB, -d31 %s: %+.1f%%\n", j, (sixteen[j] / one[j] - 1) * 100 }' \
	"$WORK/table.txt"

# Extensions: the cost of 100,000 registered ranges (over free pages of the
# generated dump, so that the output does not change), against an extension
# that registers none; and a real extension phase on the shared dump.
if [ -d "$TOOLS/extensions" ]; then
	for ext in many_ranges labprobe_anon; do
		mkdir -p "$WORK/ext-$ext" && chmod 0755 "$WORK/ext-$ext"
		install -m 0644 "$TOOLS/extensions/$ext.so" "$WORK/ext-$ext/"
	done
	if [ -s "${large:-}" ]; then
		echo
		echo "== 100,000 extension ranges, generated-16g -d 31 -l, median of $RUNS runs"
		/usr/bin/python3 "$PROJECT/bench/variants.py" --runs "$RUNS" --out "$WORK/ext.kdump" \
			"no extension=$MDF -f -l -d 31 --no-extensions $large $WORK/ext.kdump" \
			"an extension with no range=$MDF -f -l -d 31 --extension-dir $WORK/ext-many_ranges --extension-arg many_ranges:count=0 $large $WORK/ext.kdump" \
			"100,000 ranges=$MDF -f -l -d 31 --extension-dir $WORK/ext-many_ranges --extension-arg many_ranges:first=0x100000 $large $WORK/ext.kdump"
	fi
	# Upstream's per-page extension_callback, answering PG_UNDECID for every
	# pfn, built with upstream's line beside our top-level headers.
	tree=$WORK/upstream-tree
	mkdir -p "$tree/extensions" && chmod 0755 "$tree" "$tree/extensions"
	cp "$PROJECT"/makedumpfile.h "$PROJECT"/extension.h "$PROJECT"/makedumpfile.ld "$tree/"
	cp "$PROJECT/tests/upstream_api/undecided.c" "$tree/extensions/"
	if [ -s "${large:-}" ] && (cd "$tree/extensions" &&
		${CC:-cc} -O2 -g -fPIC -shared -Wl,-T,../makedumpfile.ld -o undecided.so undecided.c); then
		chmod 0644 "$tree/extensions/undecided.so"
		echo
		echo "== a per-page callback deciding nothing, generated-16g -d 31 -l, CPU, median of $RUNS runs"
		/usr/bin/python3 "$PROJECT/bench/extcost.py" --runs "$RUNS" --out "$WORK/ext.kdump" --baselines 2 \
			"no extension=$MDF -f -l -d 31 --no-extensions $large $WORK/ext.kdump" \
			"an extension with no range=$MDF -f -l -d 31 --extension-dir $WORK/ext-many_ranges --extension-arg many_ranges:count=0 $large $WORK/ext.kdump" \
			"callback, PG_UNDECID=$MDF -f -l -d 31 --extension $tree/extensions/undecided.so $large $WORK/ext.kdump"
	fi
	dump=$FIXTURES/6.1-kdump.elf
	if [ -s "$dump" ]; then
		echo
		echo "== an extension phase, 6.1-kdump -d 31 -l, median of $RUNS runs"
		/usr/bin/python3 "$PROJECT/bench/variants.py" --runs "$RUNS" --out "$WORK/ext.kdump" \
			"no extension=$MDF -f -l -d 31 --no-extensions $dump $WORK/ext.kdump" \
			"labprobe_anon (tasks, VMAs, uvtop)=$MDF -f -l -d 31 --extension-dir $WORK/ext-labprobe_anon $dump $WORK/ext.kdump"
	fi
fi

# The GPU buffer filters and the user-stack keeper (extensions/): each one's
# own cost over an extension that reads one word of the dump (what any
# extension pays first), as a share of the whole job (target: 5% or less),
# the same measured where it is spent (its process and makedumpfile's part
# in running it: steadier than the difference of two whole jobs), and the
# time its scan says it took; then the three together, as a
# distribution installs them, where the symbol table and vmlinux's BTF are
# read once for all three.
EXT=$(dirname "$TOOLS")/extensions
if [ -s "$EXT/amdgpu_filter.so" ] && [ -s "$TOOLS/extensions/read_one_word.so" ]; then
	for ext in amdgpu_filter drm_shmem_filter user_stack_keep "$TOOLS/extensions/read_one_word" \
		"$TOOLS/extensions/many_ranges"; do
		[ "${ext#/}" = "$ext" ] && ext=$EXT/$ext
		mkdir -p "$WORK/ext-$(basename "$ext")" && chmod 0755 "$WORK/ext-$(basename "$ext")"
		install -m 0644 "$ext.so" "$WORK/ext-$(basename "$ext")/"
	done
	mkdir -p "$WORK/ext-shipped" && chmod 0755 "$WORK/ext-shipped"
	install -m 0644 "$EXT/amdgpu_filter.so" "$EXT/drm_shmem_filter.so" "$EXT/user_stack_keep.so" \
		"$WORK/ext-shipped/"
	for name in 6.1-kdump 7.2-qemu; do
		dump=$FIXTURES/$name.elf
		[ -s "$dump" ] || continue
		job="$MDF -f -l -d 31 --message-level 31"
		echo
		echo "== GPU filters and the stack keeper, $name -d 31 -l, median of $((RUNS * 3)) runs"
		/usr/bin/python3 "$PROJECT/bench/extcost.py" --runs $((RUNS * 3)) --out "$WORK/ext.kdump" --baselines 3 \
			"no extension=$job --no-extensions $dump $WORK/ext.kdump" \
			"an extension doing nothing=$job --extension-dir $WORK/ext-many_ranges --extension-arg many_ranges:count=0 $dump $WORK/ext.kdump" \
			"one that reads one word=$job --extension-dir $WORK/ext-read_one_word $dump $WORK/ext.kdump" \
			"drm_shmem_filter=$job --extension-dir $WORK/ext-drm_shmem_filter $dump $WORK/ext.kdump" \
			"amdgpu_filter=$job --extension-dir $WORK/ext-amdgpu_filter $dump $WORK/ext.kdump" \
			"user_stack_keep (comm labprobe)=$job --extension-dir $WORK/ext-user_stack_keep --extension-arg user_stack_keep:comm=labprobe $dump $WORK/ext.kdump" \
			"the three together=$job --extension-dir $WORK/ext-shipped --extension-arg user_stack_keep:comm=labprobe $dump $WORK/ext.kdump"
	done
fi
