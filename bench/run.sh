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
RUNS=${RUNS:-7}
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

# The programs to compare with: upstream's development head (the oracle of
# ../shared/oracles) and the distribution's release (Debian 12: 1.7.2).
HEAD=$PROJECT/../shared/oracles/upstream-head/makedumpfile
upstreams=() head_only=()
if [ -x "$HEAD" ]; then
	head_only=(--upstream "head=$HEAD")
	upstreams+=("${head_only[@]}")
else
	echo "upstream's head: no $HEAD, left out"
fi
for RELEASE in /usr/sbin/makedumpfile /usr/bin/makedumpfile; do
	[ -x "$RELEASE" ] && break
done
release=
if [ -x "$RELEASE" ]; then
	release=$("$RELEASE" -v 2>/dev/null | sed -n 's/^makedumpfile: version \([^ ]*\).*/\1/p' | head -n 1)
	release=${release:-release}
	upstreams+=(--upstream "$release=$RELEASE")
else
	echo "the distribution's makedumpfile: not in /usr/sbin or /usr/bin, left out"
fi
caveat=(--caveat "$release@7.2-qemu.relayout=$release predates upstream's fix of Linux 7.1+'s compound tail pages (f50c015): it misjudges them on 7.2, so its page set differs; it runs, its figures are shown")
RESULTS=$WORK/results.jsonl
: >"$RESULTS"

# Generated dumps of 1, 4 and 16 GiB: sparse files, mostly free pages.
if [ -x "$TOOLS/mkvmcore" ]; then
	for size in 1 4 16; do
		gen=$WORK/generated-${size}g.elf
		if [ ! -s "$gen" ]; then
			echo "== generating a $size GiB sparse dump"
			"$TOOLS/mkvmcore" --ram ${size}G --sparse "$gen" >/dev/null || rm -f "$gen"
		fi
	done
	large=$WORK/generated-16g.elf
fi
# The dumps of issue 28's targets, and the same job with no codec: what is
# left of a run once lzo or deflate, which both programs call on the same
# pages, is taken out.  Upstream reads only kexec's layout, so
# the QEMU dump is given to every program in the relayout the fixtures make
# of it (the same memory, laid out as kexec does).
targets=()
for name in 6.1-kdump 7.2-qemu.relayout; do
	[ -s "$FIXTURES/$name.elf" ] && targets+=(--dump "$name=$FIXTURES/$name.elf")
done
[ -s "${large:-}" ] && targets+=(--dump "gen-16g=$large")
echo
echo "== ours against upstream's head and the release${release:+ ($release: $RELEASE)},"
echo "   $RUNS rounds, each program once per round in rotating order; medians; output on disk."
echo "   GB/s in, kept: of the memory the dump holds and of the pages kept; ratios ours/it:"
echo "   medians of the $RUNS paired ratios of a round; user+sys and max RSS take in waited-for children"
/usr/bin/python3 "$PROJECT/bench/bench.py" --ours "$MDF" "${upstreams[@]}" "${caveat[@]}" \
	--runs "$RUNS" --workdir "$WORK" --results "$RESULTS" --table targets "${targets[@]}" \
	--job "-d 31 -l=-l -d 31" --job "-d 31 -c=-c -d 31" --job "-d 31 uncompressed=-d 31"
echo
echo "== the same pinned to one CPU, and -z; under ours, its own CPU seconds per stage and its"
echo "   anonymous memory (RssAnon: the rss column counts mapped pages of the dump too)"
/usr/bin/python3 "$PROJECT/bench/bench.py" --ours "$MDF" "${upstreams[@]}" "${caveat[@]}" --pin 0 \
	--runs "$RUNS" --workdir "$WORK" --results "$RESULTS" --table targets-pinned --stages "${targets[@]}" \
	--job "-d 31 -l=-l -d 31" --job "-d 31 -z=-z -d 31" --job "-d 31 -c=-c -d 31" --job "-d 31 uncompressed=-d 31"

# The other jobs, against upstream's head (the release has neither snappy
# nor zstd), on every dump but gen-16g (-d 1 -l writes 166 MB of it, 25 s a
# round); max RSS must not grow with the dump.
others=()
for name in 6.1-kdump 6.1-qemu.relayout 7.2-qemu.relayout; do
	[ -s "$FIXTURES/$name.elf" ] && others+=(--dump "$name=$FIXTURES/$name.elf")
done
for size in 1 4; do
	[ -s "$WORK/generated-${size}g.elf" ] && others+=(--dump "gen-${size}g=$WORK/generated-${size}g.elf")
done
echo
echo "== the other jobs against upstream's head, $RUNS rounds, as above"
/usr/bin/python3 "$PROJECT/bench/bench.py" --ours "$MDF" "${head_only[@]}" \
	--runs "$RUNS" --workdir "$WORK" --results "$RESULTS" --table others "${others[@]}" \
	--job "-d 1 -l=-l -d 1" --job "-d 31 -z=-z -d 31" --job "-d 31 -p=-p -d 31"
echo
/usr/bin/python3 "$PROJECT/bench/scaling.py" --results "$RESULTS" --table others

# Erasing every task's comm: ours with a filter config, upstream's head
# with the eraser written for its API (like its extensions/erase_sample.c),
# built as upstream builds extensions, beside our top-level headers.
tree=$WORK/upstream-tree
mkdir -p "$tree/extensions" && chmod 0755 "$tree" "$tree/extensions"
for f in makedumpfile.h kallsyms.h btf_info.h extension.h erase_info.h makedumpfile.ld; do
	cp "$PROJECT/$f" "$tree/"
done
cp "$PROJECT/tests/upstream_api/undecided.c" "$PROJECT/tests/upstream_api/comm_eraser.c" "$tree/extensions/"
printf '[vmlinux]\nerase init_task.comm\nfor t in init_task.tasks within task_struct:tasks\n\terase t.comm\nendfor\n' \
	>"$WORK/comm.conf"
if [ -x "$HEAD" ] && (cd "$tree/extensions" &&
	${CC:-cc} -O2 -g -fPIC -shared -Wl,-T,../makedumpfile.ld -o comm_eraser.so comm_eraser.c); then
	chmod 0644 "$tree/extensions/comm_eraser.so"
	erase=()
	for name in 6.1-kdump 7.2-qemu.relayout; do
		[ -s "$FIXTURES/$name.elf" ] && erase+=(--dump "$name=$FIXTURES/$name.elf")
	done
	echo
	echo "== erasing every task's comm, -d 31 -l: ours --config $WORK/comm.conf,"
	echo "   upstream's head --extension comm_eraser.so (tests/upstream_api), $RUNS rounds, as above"
	/usr/bin/python3 "$PROJECT/bench/bench.py" --ours "$MDF" --upstream "head=$HEAD" \
		--runs "$RUNS" --workdir "$WORK" --results "$RESULTS" --table config "${erase[@]}" \
		--job "comm erased@ours=-l -d 31 --config $WORK/comm.conf" \
		--job "comm erased@head=-l -d 31 --extension $tree/extensions/comm_eraser.so"
else
	echo "erasing every comm: no upstream head or no comm_eraser.so, left out"
fi

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
		echo "== 100,000 extension ranges, generated-16g -d 31 -l, median of $RUNS runs;"
		echo "   CPU: user+sys of makedumpfile and the extension's process; costs over no extension"
		/usr/bin/python3 "$PROJECT/bench/variants.py" --runs "$RUNS" --out "$WORK/ext.kdump" \
			--results "$RESULTS" --name ranges \
			"no extension=$MDF -f -l -d 31 --no-extensions $large $WORK/ext.kdump" \
			"an extension with no range=$MDF -f -l -d 31 --extension-dir $WORK/ext-many_ranges --extension-arg many_ranges:count=0 $large $WORK/ext.kdump" \
			"100,000 ranges=$MDF -f -l -d 31 --extension-dir $WORK/ext-many_ranges --extension-arg many_ranges:first=0x100000 $large $WORK/ext.kdump"
	fi
	# Upstream's per-page extension_callback, answering PG_UNDECID for every
	# pfn, built with upstream's line beside our top-level headers.
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

# The peak memory of the whole process tree, makedumpfile and the children
# of the three shipped extensions, as a distribution installs them.
dump=$FIXTURES/6.1-kdump.elf
if [ -s "$dump" ] && [ -s "$WORK/ext-shipped/user_stack_keep.so" ]; then
	echo
	echo "== the three shipped extensions, 6.1-kdump -d 31 -l: peak memory of the process tree, median of $RUNS runs"
	/usr/bin/python3 "$PROJECT/bench/treemem.py" --runs "$RUNS" --out "$WORK/ext.kdump" --target 24 \
		--name-by "$WORK/ext-shipped" --results "$RESULTS" --name tree -- \
		"$MDF" -f -l -d 31 --extension-dir "$WORK/ext-shipped" --extension-arg user_stack_keep:comm=labprobe \
		"$dump" "$WORK/ext.kdump"
fi

# Time and memory as the machine grows: -d 31 -l on 1 and 16 GiB and, with
# make bench BENCH_64G=1, on a sparse 64 GiB dump, its struct page array
# written (64 bytes a page: 1 GiB) and most pages free, about 1.1 GiB of
# disk; then the slope, and what it gives for larger machines.
scale=()
for size in 1 16; do
	[ -s "$WORK/generated-${size}g.elf" ] && scale+=(--dump "gen-${size}g=$WORK/generated-${size}g.elf")
done
extrapolate=()
if [ "${BENCH_64G:-0}" = 1 ] && [ -x "$TOOLS/mkvmcore" ]; then
	gen=$WORK/generated-64g.elf
	echo
	if [ ! -s "$gen" ] && [ "$(df -P -k "$WORK" | awk 'NR == 2 { print $4 }')" -lt $((4 * 1024 * 1024)) ]; then
		echo "== gen-64g: less than 4 GiB free in $WORK (df), left out"
	else
		if [ ! -s "$gen" ]; then
			echo "== generating a 64 GiB sparse dump"
			"$TOOLS/mkvmcore" --ram 64G --sparse "$gen" >/dev/null || rm -f "$gen"
		fi
		if [ -s "$gen" ]; then
			used=$(du -k "$gen" | cut -f1)
			report=$("$MDF" -f --dry-run --message-level 23 -l -d 31 "$gen" "$WORK/gen-64g.kdump" 2>/dev/null)
			pages=$(sed -n 's/^Original pages *: *\(0x[0-9a-f]*\).*/\1/p' <<<"$report")
			free=$(sed -n 's/^ *Free pages *: *\(0x[0-9a-f]*\).*/\1/p' <<<"$report")
			free=$((${free:-0} * 100 / ${pages:-1}))
			echo "== gen-64g: $((used / 1024)) MiB on disk (du; its struct page array: 1024 MiB), $free% of its pages free"
			if [ "$used" -lt $((900 * 1024)) ] || [ "$free" -lt 90 ]; then
				echo "   not the dump the scaling needs (struct pages not written, or pages not free): left out"
			else
				scale+=(--dump "gen-64g=$gen")
				extrapolate=(--extrapolate)
			fi
		fi
	fi
fi
if [ ${#scale[@]} -gt 2 ]; then
	echo
	echo "== -d 31 -l as the machine grows, ours, median of $RUNS runs each"
	[ ${#extrapolate[@]} -gt 0 ] || echo "   (make bench BENCH_64G=1 adds a generated 64 GiB dump, and the extrapolation)"
	/usr/bin/python3 "$PROJECT/bench/bench.py" --ours "$MDF" --runs "$RUNS" --workdir "$WORK" \
		--results "$RESULTS" --table scaling "${scale[@]}" --job "-d 31 -l=-l -d 31"
	echo
	/usr/bin/python3 "$PROJECT/bench/scaling.py" --results "$RESULTS" --table scaling "${extrapolate[@]}"
fi

echo
echo "== issue 28, Done when: each target, its figure, PASS or MISS"
/usr/bin/python3 "$PROJECT/bench/summary.py" --results "$RESULTS" "${caveat[@]}"
