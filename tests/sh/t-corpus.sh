#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A corpus of damaged dumps (tests/py/corpus.py): hundreds of variants of a
# generated dump and of each shared x86_64 dump, and of kdump-compressed
# files made from them, each run through makedumpfile -l -d 31.  Every run
# must end complete, partial (with a warning) or in one error message
# without an output file; a crash, a hang, a sanitizer report or a file
# libkdumpfile cannot read fails the input it came from.
. "$(dirname "$0")/../lib.sh" || exit 2

GEN=$TOOLS/mkvmcore
# Enough variants to reach every damage family at several places.
MIN_ELF_CASES=200
MIN_KDUMP_CASES=50
# --budget NAME=CASES: an even sample of each family, so that the test
# takes about three minutes on two cores.  A shared dump's run costs three
# times the generated one's; under the sanitizers every run about twice as
# much, and the samples are smaller.
if [ "$MDF_SANITIZE" = 1 ]; then
	GEN_CASES=220 GEN_KDUMP_CASES=110 SHARED_CASES=205 SHARED_KDUMP_CASES=50
else
	GEN_CASES=360 GEN_KDUMP_CASES=230 SHARED_CASES=240 SHARED_KDUMP_CASES=64
fi

if ! $PYTHON -c 'import kdumpfile' 2>/dev/null; then
	skip corpus "python3-libkdumpfile is not installed: the outputs cannot be checked"
	exit 0
fi

inputs=()
if [ -x "$GEN" ]; then
	# The GPU layout: tasks, modules and vmlinux BTF to damage too.  Its
	# whole corpus is about 590 variants, the shared dumps' 570 to 630.
	if "$GEN" --amdgpu --kallsyms-out "$WORK/gen.ksyms" "$WORK/gen.elf" >"$WORK/gen.log" 2>&1; then
		inputs+=(--elf gen "$WORK/gen.elf" "$WORK/gen.ksyms" --budget "gen=$GEN_CASES"
			--kdump gen-kdump gen --budget "gen-kdump=$GEN_KDUMP_CASES")
	else
		fail corpus-gen "mkvmcore failed: $(tail -n 2 "$WORK/gen.log")"
	fi
else
	skip corpus-gen "no $GEN"
fi
for name in 6.1-kdump 6.1-qemu 7.2-qemu; do
	if dump=$(fixture "$name.elf"); then
		inputs+=(--elf "$name" "$dump" "$VMCORES/$name/guest/kallsyms.txt" --budget "$name=$SHARED_CASES")
	else
		skip "corpus-$name" "no $VMCORES/$name/vmcore.elf.zst"
	fi
done
if fixture 6.1-kdump.elf >/dev/null; then
	inputs+=(--kdump 6.1-kdump-kdump 6.1-kdump --budget "6.1-kdump-kdump=$SHARED_KDUMP_CASES")
fi
# arm64 dumps: corpus.py aims its damage with x86_64's page-table format.
for name in 6.1-arm64-kdump 6.1-arm64-qemu; do
	fixture "$name.elf" >/dev/null && skip "corpus-$name" "corpus.py damages x86_64 page tables only (t-arm64.sh covers arm64's bad input)"
done
[ ${#inputs[@]} -gt 0 ] || exit 0

if ! $PYTHON "$PROJECT/tests/py/corpus.py" --mdf "$MDF" --dumpread "$TOOLS/dumpread" --work "$WORK/corpus" \
	--jobs 2 --timeout 60 \
	"${inputs[@]}" >"$WORK/corpus.log" 2>&1; then
	fail corpus "corpus.py failed: $(tail -n 5 "$WORK/corpus.log")"
	exit 0
fi
# Targets not found, the FAIL lines with their reproducers, the tally.
sed 's/^/  /' "$WORK/corpus.log"
cp "$WORK/corpus/tally.txt" "$WORK/tally.txt"

while read -r name kind cases fails; do
	min=$MIN_ELF_CASES
	[ "$kind" = kdump ] && min=$MIN_KDUMP_CASES
	if [ "$cases" -lt "$min" ]; then
		fail "corpus-$name" "only $cases damaged variants, fewer than $min: $(grep "^note: .*$name" "$WORK/corpus.log" | head -n 3)"
	elif [ "$fails" -gt 0 ]; then
		fail "corpus-$name" "$fails of $cases damaged variants FAIL (see above, and $WORK/corpus/failures.txt)"
	else
		pass "corpus-$name"
	fi
done <"$WORK/corpus/verdicts"
# The inputs stay for the reproducers while anything fails.
if ! awk '$4 > 0 { bad = 1 } END { exit bad }' "$WORK/corpus/verdicts"; then
	echo "  (inputs kept for the reproducers: $WORK/gen.elf, $WORK/corpus/*.base.kdump)"
else
	rm -f "$WORK/gen.elf" "$WORK/corpus"/*.base.kdump
fi
