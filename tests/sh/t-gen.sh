#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Generated dumps (tests/gen/mkvmcore) against their ground truth: kallsyms
# in all four address encodings, both ELF layouts, 4- and 5-level paging,
# every page-table mapping size, marker pages, and page classification at
# each dump level; then bad input made by damaging generated dumps.
. "$(dirname "$0")/../lib.sh" || exit 2

GEN=$TOOLS/mkvmcore
if [ ! -x "$GEN" ]; then
	skip gen "no $GEN"
	exit 0
fi
CHECK="$PYTHON $PROJECT/tests/py/gencheck.py $TOOLS/dumpread"

# generate NAME ARGS...: a sparse dump with its facts and kallsyms.
generate() {
	local name=$1
	shift
	"$GEN" --sparse --facts "$WORK/$name.facts" --kallsyms-out "$WORK/$name.ksyms" "$@" \
		"$WORK/$name.elf" >"$WORK/$name.gen.log" 2>&1
}


for enc in abs-percpu base-relative place-relative absolute; do
	for layout in kexec qemu; do
		for paging in 4 5; do
			name=gen-$enc-$layout-l$paging
			if ! generate "$name" --kallsyms "$enc" --layout "$layout" --paging "$paging"; then
				fail "$name" "mkvmcore failed: $(tail -n 2 "$WORK/$name.gen.log")"
				continue
			fi
			if "$MDF" --dump-kallsyms "$WORK/$name.elf" "$WORK/$name.out" 2>"$WORK/$name.err" &&
				cmp -s "$WORK/$name.out" "$WORK/$name.ksyms"; then
				pass "$name-kallsyms"
			else
				fail "$name-kallsyms" "$(head -c 300 "$WORK/$name.err"; diff "$WORK/$name.out" "$WORK/$name.ksyms" | head -n 4)"
			fi
			check "$name-vtop" $CHECK "$WORK/$name.elf" "$WORK/$name.facts" vtop
			# Upstream reads the kexec layout only: there, the same file at -d 31.
			if [ "$layout" = kexec ] && command -v makedumpfile >/dev/null; then
				"$MDF" -f -l -d 31 --no-extensions --message-level 0 "$WORK/$name.elf" "$WORK/ours.kdump" &&
					makedumpfile -f -l -d 31 --message-level 0 "$WORK/$name.elf" "$WORK/upstream.kdump" &&
					check "$name-dump-equals-upstream" cmp "$WORK/ours.kdump" "$WORK/upstream.kdump" ||
					fail "$name-dump-equals-upstream" "a makedumpfile run failed"
			fi
			rm -f "$WORK/$name.elf"
		done
	done
done

# 3 GiB of RAM: the direct map has a 1 GiB page.
if generate gen-3g --ram 3G; then
	check gen-3g-vtop $CHECK "$WORK/gen-3g.elf" "$WORK/gen-3g.facts" vtop
	grep -q ' 1g direct$' "$WORK/gen-3g.facts" || fail gen-3g-has-1g-page "no 1 GiB mapping in the facts"
	rm -f "$WORK/gen-3g.elf"
else
	fail gen-3g-vtop "mkvmcore failed"
fi

# The generator is faithful: upstream makedumpfile classifies its pages as
# the facts say, and libkdumpfile reads its kallsyms, translations and
# markers as the facts say.
if command -v makedumpfile >/dev/null; then
	check gen-faithful-to-upstream $PYTHON "$PROJECT/tests/gen/check-upstream.py" --mkvmcore "$GEN"
else
	skip gen-faithful-to-upstream "upstream makedumpfile is not installed"
fi

# The default dump: marker pages and classification at every level.
if generate gen-default; then
	check gen-read-by-libkdumpfile $PYTHON "$PROJECT/tests/gen/check-libkdumpfile.py" \
		"$WORK/gen-default.elf" "$WORK/gen-default.facts" "$WORK/gen-default.ksyms"
	check gen-markers $CHECK "$WORK/gen-default.elf" "$WORK/gen-default.facts" markers
	for level in 0 1 2 4 8 16 31; do
		check "gen-levels-d$level" $CHECK "$WORK/gen-default.elf" "$WORK/gen-default.facts" scan "$level"
		# End to end: our dump file is upstream's, byte for byte.
		command -v makedumpfile >/dev/null || continue
		if "$MDF" -f -l -d "$level" --message-level 0 "$WORK/gen-default.elf" "$WORK/ours.kdump" &&
			makedumpfile -f -l -d "$level" --message-level 0 "$WORK/gen-default.elf" "$WORK/upstream.kdump"; then
			check "gen-dump-d$level-equals-upstream" cmp "$WORK/ours.kdump" "$WORK/upstream.kdump"
		else
			fail "gen-dump-d$level-equals-upstream" "a makedumpfile run failed"
		fi
	done
	rm -f "$WORK/ours.kdump" "$WORK/upstream.kdump"
else
	fail gen-default "mkvmcore failed"
fi

# Bad input from a generated dump: a page table that points at itself at
# every level (a loop), and garbage over the kallsyms token index.
dump=$WORK/gen-default.elf
if [ -s "$dump" ]; then
	root=$(sed -n 's/^init_top_pgt_paddr=//p' "$WORK/gen-default.facts")
	entry=$(printf '%016x' $((root | 0x63)) | sed 's/../& /g' | awk '{for (i = 8; i >= 1; i--) printf "%s", $i}')
	sets=()
	for i in $(seq 0 511); do sets+=(--phys "$((root + i * 8)):$entry"); done
	$PYTHON "$PROJECT/tests/py/corrupt.py" "$dump" "$WORK/loop.elf" "${sets[@]}"
	expect_failure bad-page-table-loop "cannot read kallsyms|corrupt kallsyms|kallsyms address encoding" \
		"$MDF" --dump-kallsyms "$WORK/loop.elf" "$WORK/loop.out"
	[ -e "$WORK/loop.out" ] && fail bad-page-table-loop-no-output "left loop.out behind"
	index=$(grep ' kallsyms_token_index$' "$WORK/gen-default.ksyms" | cut -d' ' -f1)
	text=$(sed -n 's/^text_vaddr=//p' "$WORK/gen-default.facts")
	phys=$(sed -n 's/^kernel_phys=//p' "$WORK/gen-default.facts")
	$PYTHON "$PROJECT/tests/py/corrupt.py" "$dump" "$WORK/tokens.elf" \
		--phys "$((0x$index - text + phys)):$(printf 'ff7f%.0s' $(seq 1 256))"
	expect_failure bad-kallsyms-token-index-garbage "cannot read kallsyms_token_table \(0x8000 bytes|kallsyms_token_table at 0x[0-9a-f]+: token [0-9]+ .* not terminated" \
		"$MDF" --dump-kallsyms "$WORK/tokens.elf" "$WORK/tokens.out"
	rm -f "$WORK"/loop.elf "$WORK"/tokens.elf
fi
rm -f "$WORK"/*.elf
