#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Decompresses the shared vmcores into build/fixtures, once: a fixture is
# remade only when its source is newer.  Also makes the kexec-layout copies
# of the QEMU dumps with ../shared/tools/elf-relayout.py.
set -u
PROJECT=${PROJECT:-$(cd "$(dirname "$0")/.." && pwd)}
SHARED=${SHARED:-$(cd "$PROJECT/.." && pwd)/shared}
FIXTURES=${FIXTURES:-$PROJECT/build/fixtures}
mkdir -p "$FIXTURES"
status=0

for src in "$SHARED"/vmcores/*/vmcore.elf.zst; do
	[ -e "$src" ] || continue
	name=$(basename "$(dirname "$src")")
	dst=$FIXTURES/$name.elf
	if [ ! -s "$dst" ] || [ "$src" -nt "$dst" ]; then
		echo "fixture: decompressing $name"
		zstd -q -d --long=31 -f "$src" -o "$dst.tmp" && mv "$dst.tmp" "$dst" || status=1
	fi
	# QEMU's layout needs a kexec-layout copy for upstream makedumpfile.
	if grep -q 'QEMU\|qemu' <<<"$name"; then
		rel=$FIXTURES/$name.relayout.elf
		if [ ! -s "$rel" ] || [ "$dst" -nt "$rel" ]; then
			echo "fixture: relayouting $name"
			/usr/bin/python3 "$SHARED/tools/elf-relayout.py" "$dst" "$rel.tmp" && mv "$rel.tmp" "$rel" || status=1
		fi
	fi
done

# Upstream makedumpfile's output at each dump level, the oracle of page
# classification: kept with its report, remade when the input changes.
UPSTREAM=$(command -v makedumpfile)
if [ -n "$UPSTREAM" ]; then
	mkdir -p "$FIXTURES/upstream"
	for input in "$FIXTURES"/6.1-kdump.elf "$FIXTURES"/*.relayout.elf; do
		[ -s "$input" ] || continue
		name=$(basename "$input" .elf)
		# Debian's makedumpfile reads its own architecture's dumps only.
		case $name in *arm64* | *ppc64* | *s390x* | *riscv64*) continue ;; esac
		for level in 0 1 2 4 8 16 31; do
			out=$FIXTURES/upstream/$name.d$level.kdump
			[ -s "$out" ] && [ "$out" -nt "$input" ] && continue
			echo "fixture: upstream makedumpfile -l -d $level $name"
			"$UPSTREAM" -f -l -d "$level" --message-level 31 "$input" "$out.tmp" \
				>"$out.log" 2>&1 && mv "$out.tmp" "$out" || status=1
		done
	done
fi
exit $status
