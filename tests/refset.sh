#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The reference set: what every job writes, on every dump at hand, as one
# digest line per output, so that a change meant to keep behaviour can be
# shown to keep it byte for byte.
#
#   tests/refset.sh OUT.txt [MDF]    (MDF: the binary, ./makedumpfile by default)
#   diff before.txt after.txt
#
# Each line is "DUMP JOB rc=N sha256 [PART sha256...]": the exit status,
# then each file the job wrote (stdout for -F and --dump-kallsyms).  The
# dumps are the decompressed shared vmcores (tests/fixtures.sh makes them)
# and two the generator makes, the plain one and the GPU layout.  The
# extensions are the shipped ones, built by `make extensions`.
set -u
PROJECT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:?usage: tests/refset.sh OUT.txt [MDF]}
MDF=${2:-$PROJECT/makedumpfile}
case $MDF in /*) ;; *) MDF=$PWD/$MDF ;; esac
BUILD=${BUILD:-$PROJECT/build/obj}
FIXTURES=${FIXTURES:-$PROJECT/build/fixtures}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/refset.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
make -s -C "$PROJECT" extensions tests >&2 || exit 1

"$BUILD/tests/mkvmcore" "$WORK/gen-plain.elf" >/dev/null
"$BUILD/tests/mkvmcore" --amdgpu "$WORK/gen-amdgpu.elf" >/dev/null
dumps=("$WORK/gen-plain.elf" "$WORK/gen-amdgpu.elf")
for f in "$FIXTURES"/*.elf; do
	case $f in *.relayout.elf) continue ;; esac
	[ -s "$f" ] && dumps+=("$f")
done

digest() { sha256sum <"$1" | cut -c1-16; }
# Text that names the scratch directory (stdout's "saved to"), the
# checkout or the fixtures, without them: a checkout elsewhere digests
# the same.
digest_text() {
	LC_ALL=C sed -e "s|$WORK|W|g" -e "s|$FIXTURES|F|g" -e "s|$PROJECT|P|g" "$1" | sha256sum | cut -c1-16
}

# JOB NAME, then makedumpfile's arguments; "@IN" is the dump, "@O" an
# output file, "@O1"/"@O2" split parts.
run_job() {
	local dump=$1 name=$2
	shift 2
	local args=() a rc line
	for a in "$@"; do
		case $a in
		@IN) args+=("$dump") ;;
		@O) args+=("$WORK/out") ;;
		@O1) args+=("$WORK/out1") ;;
		@O2) args+=("$WORK/out2") ;;
		*) args+=("$a") ;;
		esac
	done
	rm -f "$WORK"/out "$WORK"/out1 "$WORK"/out2
	"$MDF" "${args[@]}" >"$WORK/stdout" 2>"$WORK/stderr" </dev/null
	rc=$?
	line="$(basename "$dump" .elf) $name rc=$rc"
	for part in out out1 out2; do
		[ -e "$WORK/$part" ] && line+=" $part=$(digest "$WORK/$part")"
	done
	[ -s "$WORK/stdout" ] && line+=" stdout=$(digest_text "$WORK/stdout")"
	# Messages, without the figures of time a run measures of itself.
	grep -avE 'sec|elapsed|took|eta' "$WORK/stderr" >"$WORK/messages"
	line+=" stderr=$(digest_text "$WORK/messages")"
	echo "$line"
}

{
	for dump in "${dumps[@]}"; do
		nx=(--no-extensions)
		for level in 0 1 31; do
			run_job "$dump" "-l-d$level" -f "${nx[@]}" -l -d "$level" @IN @O
		done
		run_job "$dump" "-c-d31" -f "${nx[@]}" -c -d 31 @IN @O
		run_job "$dump" "-z-d31" -f "${nx[@]}" -z -d 31 @IN @O
		run_job "$dump" "-p-d31" -f "${nx[@]}" -p -d 31 @IN @O
		run_job "$dump" "-d31" -f "${nx[@]}" -d 31 @IN @O
		run_job "$dump" "-E-d31" -f "${nx[@]}" -E -d 31 @IN @O
		run_job "$dump" "-E-d0" -f "${nx[@]}" -E -d 0 @IN @O
		run_job "$dump" "-F-l-d31" "${nx[@]}" -F -l -d 31 @IN
		run_job "$dump" "split-l-d31" -f "${nx[@]}" --split -l -d 31 @IN @O1 @O2
		run_job "$dump" "dump-dmesg" -f --dump-dmesg @IN @O
		run_job "$dump" "dump-kallsyms" --dump-kallsyms @IN
		run_job "$dump" "mem-usage" --mem-usage @IN
		run_job "$dump" "ext-l-d1" -f --extension-dir "$BUILD/extensions" -l -d 1 @IN @O
		run_job "$dump" "ext-l-d31" -f --extension-dir "$BUILD/extensions" -l -d 31 @IN @O
		for script in "$BUILD"/eppic_scripts/*.so; do
			run_job "$dump" "eppic-$(basename "$script" .so)" -f --extension "$script" -l -d 31 @IN @O
		done
	done
} >"$OUT"
echo "refset: $(wc -l <"$OUT") outputs in $OUT" >&2
