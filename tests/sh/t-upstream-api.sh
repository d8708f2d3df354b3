#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Upstream makedumpfile's extension API (its development head, June 2026):
# the extensions of tests/upstream_api, written in upstream's style, build
# with upstream's own line (cc -O2 -g -fPIC -shared -Wl,-T,../makedumpfile.ld)
# in an extensions/ folder beside our top-level headers, and run in ours and
# in the oracle binary of upstream's head (../shared/oracles/upstream-head):
# the same printed values, the same page sets (python3-libkdumpfile) and,
# for the eraser, the same bytes, on the shared x86_64 dumps at -d 1 and
# -d 31; at -d 1 the shmem callback removes the vgem buffer's pages, all
# and only them (marker-pfns.txt).  The posted series' usage (posted_series/:
# declarations inside functions, a second file's through DECLARE_*) built
# with `cc -O2 -fPIC -shared` prints what upstream's binary prints running
# the same source.  Then what upstream does not survive and we must: crashing, hanging and garbage
# callbacks, broken declarations, a missing extension_init(), two
# extensions of one name, and a bare name that exists only in the current
# directory.
. "$(dirname "$0")/../lib.sh" || exit 2

UPSTREAM=$SHARED/oracles/upstream-head/makedumpfile
CHECK="$PYTHON $PROJECT/tests/py/upstreamapicheck.py $TOOLS/dumpread"
CC=${CC:-cc}

# Upstream's tree, as its extensions expect it: the headers and the linker
# script, and the extensions in extensions/.
TREE=$WORK/tree
rm -rf "$TREE" && mkdir -p "$TREE/extensions" && chmod 0755 "$TREE" "$TREE/extensions"
for f in makedumpfile.h kallsyms.h btf_info.h extension.h erase_info.h makedumpfile.ld; do
	cp "$PROJECT/$f" "$TREE/"
done
cp "$PROJECT"/tests/upstream_api/*.[ch] "$TREE/extensions/"
built=0
for src in "$TREE"/extensions/*.c; do
	so=${src%.c}.so
	if (cd "$TREE/extensions" && $CC -O2 -g -fPIC -shared -Wl,-T,../makedumpfile.ld \
		-o "${so##*/}" "${src##*/}") >"$WORK/build.log" 2>&1; then
		chmod 0644 "$so"
		built=$((built + 1))
	else
		fail "upstream-api-build-${src##*/}" "$(tail -n 5 "$WORK/build.log")"
	fi
done
[ "$built" -eq "$(ls "$TREE"/extensions/*.c | wc -l)" ] && pass upstream-api-build-with-upstreams-line
X=$TREE/extensions

# The posted series' usage, two files in one .so (posted_series/): built with
# the series' own line, no linker script, no define; and with upstream's
# line (in ld/), for upstream's makedumpfile to run as the oracle.
mkdir -p "$TREE/posted_series" "$X/ld" && chmod 0755 "$TREE/posted_series" "$X/ld"
cp "$PROJECT"/tests/upstream_api/posted_series/*.[ch] "$TREE/posted_series/"
posted_sources="posted_series.c posted_series_tasks.c"
if (cd "$TREE/posted_series" && $CC -O2 -fPIC -shared -o "$X/posted_series.so" $posted_sources &&
	$CC -O2 -fPIC -shared -Wl,-T,../makedumpfile.ld -o "$X/ld/posted_series.so" $posted_sources) \
	>"$WORK/posted-build.log" 2>&1; then
	chmod 0644 "$X/posted_series.so" "$X/ld/posted_series.so"
	pass upstream-api-posted-series-builds-unchanged
else
	fail upstream-api-posted-series-builds-unchanged "$(grep -m 3 error "$WORK/posted-build.log")"
fi

# The C library names upstream's makedumpfile.h gives without being asked: -Werror.
check upstream-api-posted-series-names $CC -std=gnu11 -Wall -Wextra -Werror -fPIC -shared \
	-o "$WORK/posted_env_strict.so" "$X/posted_env.c"

# ours NAME EXT LEVEL DUMP [ARGS...]: our run of one extension, its output in $WORK/NAME.ours.
ours() {
	local name=$1 ext=$2 level=$3 dump=$4
	shift 4
	"$MDF" -f -l -d "$level" --message-level 23 --extension "$X/$ext.so" "$@" "$dump" \
		"$WORK/$name.ours.kdump" >"$WORK/$name.ours" 2>&1
}

# upstream NAME EXT LEVEL DUMP: the oracle's run, from $WORK (no ./extensions there).
upstream() {
	(cd "$WORK" && "$UPSTREAM" -f -l -d "$3" --message-level 23 --extension "$X/$2.so" "$4" \
		"$WORK/$1.upstream.kdump" >"$WORK/$1.upstream" 2>&1)
}

# same_lines RUN PREFIX [TEST]: the lines the extension printed are the same in both runs.
same_lines() {
	local run=$1 prefix=$2 name=${3:-$1}
	grep "^$prefix: " "$WORK/$run.ours" >"$WORK/$name.ours.lines"
	grep "^$prefix: " "$WORK/$run.upstream" >"$WORK/$name.upstream.lines"
	if [ ! -s "$WORK/$name.upstream.lines" ]; then
		fail "$name" "upstream printed nothing from $prefix"
	elif ! diff "$WORK/$name.upstream.lines" "$WORK/$name.ours.lines" >"$WORK/$name.diff"; then
		fail "$name" "$(head -n 6 "$WORK/$name.diff")"
	else
		pass "$name"
	fi
}

if [ ! -x "$UPSTREAM" ]; then
	skip upstream-api-oracle "no upstream development head at $UPSTREAM"
else
	for guest in 6.1-kdump 6.1-qemu 7.2-qemu; do
		input=$guest.elf
		[ "$guest" = 6.1-kdump ] || input=$guest.relayout.elf
		dump=$(fixture "$input") || { skip "upstream-api-$guest" "no $VMCORES/$guest"; continue; }
		markers=$VMCORES/$guest/marker-pfns.txt
		t=upstream-api-$guest
		for ext in sample_values optional_members; do
			ours "$t-$ext" "$ext" 31 "$dump" && upstream "$t-$ext" "$ext" 31 "$dump" ||
				{ fail "$t-$ext" "a run failed: $(tail -n 2 "$WORK/$t-$ext.ours")"; continue; }
			same_lines "$t-$ext" "$ext"
		done
		# Every line: declarations inside functions, and DECLARE_* copies, all filled.
		n=$t-posted_series
		if ours "$n" posted_series 31 "$dump" && upstream "$n" ld/posted_series 31 "$dump"; then
			same_lines "$n" posted_series
			[ "$(grep -c "^posted_series: " "$WORK/$n.ours")" -eq 9 ] && pass "$n-every-line" ||
				fail "$n-every-line" "$(grep "^posted_series: " "$WORK/$n.ours" | head -n 9)"
		else
			fail "$n" "a run failed: $(tail -n 2 "$WORK/$n.ours")"
		fi
		levels="1 31"
		for level in $levels; do
			n=$t-comm-eraser-d$level
			if ours "$n" comm_eraser "$level" "$dump" && upstream "$n" comm_eraser "$level" "$dump"; then
				same_lines "$n" comm_eraser "$n-threads"
				check "$n" $CHECK "$WORK/$n.ours.kdump" "$WORK/$n.upstream.kdump" --contents
				"$MDF" --eraseinfo "$WORK/$n.ours.kdump" >"$WORK/$n.eraseinfo" 2>&1
				grep -Eq "^erase comm_eraser:update_filter_info_raw size [1-9][0-9]*$" "$WORK/$n.eraseinfo" &&
					pass "$n-eraseinfo" || fail "$n-eraseinfo" "$(head -c 300 "$WORK/$n.eraseinfo")"
			else
				fail "$n" "a run failed: $(tail -n 2 "$WORK/$n.ours")"
			fi
			# At -d 1 no rule takes the buffer's pages: the callback alone removes them, all and only them.
			exact=
			if [ "$level" = 1 ]; then
				"$MDF" -f -l -d 1 --no-extensions --message-level 0 "$dump" "$WORK/$t-base-d1.kdump" &&
					exact="--removed-from $WORK/$t-base-d1.kdump"
			fi
			for job in "vgem_exclude vgem --absent" "labprobe_include anon --present"; do
				set -- $job
				n=$t-$1-d$level
				export MDF_TEST_PFNS=$markers MDF_TEST_KIND=$2
				[ "$1" = vgem_exclude ] && more=$exact || more=
				if ours "$n" "$1" "$level" "$dump" && upstream "$n" "$1" "$level" "$dump"; then
					check "$n" $CHECK "$WORK/$n.ours.kdump" "$WORK/$n.upstream.kdump" \
						--markers "$markers" --kind "$2" "$3" $more
				else
					fail "$n" "a run failed: $(tail -n 2 "$WORK/$n.ours")"
				fi
				unset MDF_TEST_PFNS MDF_TEST_KIND
			done
		done
		n=$t-missing-symbol
		if ours "$n" missing_symbol 31 "$dump" && upstream "$n" missing_symbol 31 "$dump"; then
			if grep -q "Symbol no_such_symbol_in_any_kernel in vmlinux not found" "$WORK/$n.ours" &&
				! grep -q "init ran" "$WORK/$n.ours"; then
				check "$n" $CHECK "$WORK/$n.ours.kdump" "$WORK/$n.upstream.kdump"
			else
				fail "$n" "$(grep -i "missing_symbol\|not found" "$WORK/$n.ours" | head -n 3)"
			fi
		else
			fail "$n" "a run failed: $(tail -n 2 "$WORK/$n.ours")"
		fi
	done
fi

# What costs only the extension in ours: the dump is the one without it.
dump=$(fixture 6.1-kdump.elf) || { skip upstream-api-isolation "no $VMCORES/6.1-kdump"; exit 0; }
"$MDF" -f -l -d 31 --no-extensions --message-level 0 "$dump" "$WORK/base.kdump" ||
	{ fail upstream-api-isolation "the run without extensions failed"; exit 0; }
# isolated NAME EXT PATTERN [ARGS...]: exit 0, the warning PATTERN, the base dump's pages.
isolated() {
	local name=upstream-api-$1 ext=$2 pattern=$3
	shift 3
	if ! timeout 120 "$MDF" -f -l -d 31 --message-level 7 --extension "$X/$ext.so" "$@" "$dump" \
		"$WORK/$name.kdump" >"$WORK/$name.out" 2>&1; then
		fail "$name" "exit status $?: $(tail -n 3 "$WORK/$name.out")"
	elif ! grep -Eq -- "$pattern" "$WORK/$name.out"; then
		fail "$name" "no /$pattern/: $(grep -i warning "$WORK/$name.out" | head -n 3)"
	else
		check "$name" $CHECK "$WORK/$name.kdump" "$WORK/base.kdump"
	fi
}
isolated bad-answer bad_answer "extension_callback\(\) returned 7 for pfn 0x[0-9a-f]+, not PG_INCLUDE"
isolated crash-callback crash_callback "extension $X/crash_callback.so failed: crashed \(signal 11"
isolated hang-callback hang_callback "did not finish within 2 s \(killed\)" --extension-timeout 2
isolated no-init no_init "has no extension_init\(\)"
isolated garbage-section garbage_section "entry [0-9]+ of its section .init_ksyms does not point to a declaration"
isolated unterminated-name unterminated_name "entry 0 of its section .init_ksyms does not point to a declaration"
# Upstream runs them in its own process: the crash takes the dump with it.
if [ -x "$UPSTREAM" ]; then
	# The inner shell's report of the signal goes to /dev/null; its echo says the status.
	status=$(sh -c 'cd "$1" && shift && timeout 60 "$@" >/dev/null 2>&1; echo $?' sh "$WORK" \
		"$UPSTREAM" -f -l -d 31 --extension "$X/crash_callback.so" "$dump" "$WORK/up-crash.kdump" 2>/dev/null)
	echo "  NOTE upstream's head on crash_callback.so: exit status $status (ours keeps the dump)"
fi

# A declaration listed twice is no error: the same value as the oracle's sample_values gave.
want=$(grep -ho "^sample_values: init_task [0-9a-f]*" "$WORK/upstream-api-6.1-kdump-sample_values.upstream" 2>/dev/null)
if [ -z "$want" ]; then
	skip upstream-api-duplicate-declaration "no value from upstream's head to compare with"
elif "$MDF" -f -l -d 31 --extension "$X/duplicate_declaration.so" "$dump" "$WORK/dup.kdump" >"$WORK/dup.out" 2>&1 &&
	grep -q "^duplicate_declaration: init_task ${want##* }$" "$WORK/dup.out"; then
	pass upstream-api-duplicate-declaration
else
	fail upstream-api-duplicate-declaration "$(tail -n 3 "$WORK/dup.out")"
fi

# Two extensions of one file name: the second is refused, the first runs.
mkdir -p "$WORK/other" && chmod 0755 "$WORK/other" && install -m 0644 "$X/sample_values.so" "$WORK/other/"
if "$MDF" -f -l -d 31 --extension "$X/sample_values.so" --extension "$WORK/other/sample_values.so" \
	"$dump" "$WORK/twice.kdump" >"$WORK/twice.out" 2>&1 &&
	grep -q "extension $WORK/other/sample_values.so refused: an extension named sample_values runs already" \
		"$WORK/twice.out" && [ "$(grep -c '^sample_values: init_task' "$WORK/twice.out")" -eq 1 ]; then
	pass upstream-api-same-name-twice
else
	fail upstream-api-same-name-twice "$(tail -n 3 "$WORK/twice.out")"
fi

# A bare name is looked for in the extension directories, never in the
# current directory (upstream loads ./NAME.so first: we differ on purpose).
mkdir -p "$WORK/extdir" && chmod 0755 "$WORK/extdir"
if (cd "$X" && "$MDF" -f -l -d 31 --extension-dir "$WORK/extdir" --extension sample_values.so "$dump" \
	"$WORK/cwd.kdump") >"$WORK/cwd.out" 2>&1 && grep -q "sample_values.so refused: not found in $WORK/extdir" \
	"$WORK/cwd.out" && ! grep -q "^sample_values:" "$WORK/cwd.out"; then
	pass upstream-api-not-from-current-directory
else
	fail upstream-api-not-from-current-directory "$(tail -n 3 "$WORK/cwd.out")"
fi
install -m 0644 "$X/sample_values.so" "$WORK/extdir/"
if "$MDF" -f -l -d 31 --extension-dir "$WORK/extdir" --extension sample_values.so "$dump" "$WORK/dir.kdump" \
	>"$WORK/dir.out" 2>&1 && grep -q "^sample_values: init_task" "$WORK/dir.out"; then
	pass upstream-api-bare-name-in-extension-dir
else
	fail upstream-api-bare-name-in-extension-dir "$(tail -n 3 "$WORK/dir.out")"
fi

# The posted series' extension built with upstream's line runs, without sections.
if "$MDF" -f -l -d 31 --extension "$X/posted_env.so" "$dump" "$WORK/posted.kdump" >"$WORK/posted.out" 2>&1 &&
	grep -Eq "^posted_env: [1-9][0-9]* tasks$" "$WORK/posted.out"; then
	pass upstream-api-posted-series-runs
else
	fail upstream-api-posted-series-runs "$(tail -n 3 "$WORK/posted.out")"
fi

# A .so built against upstream's own headers (UPSTREAM_SRC: a checkout of
# github makedumpfile/makedumpfile at its head) loads and gives the oracle's values.
if [ -n "${UPSTREAM_SRC:-}" ] && [ -f "$UPSTREAM_SRC/extensions/sample.c" ] && [ -x "$UPSTREAM" ]; then
	mkdir -p "$WORK/upstream-built" && chmod 0755 "$WORK/upstream-built"
	(cd "$UPSTREAM_SRC/extensions" && $CC -O2 -g -fPIC -shared -Wl,-T,../makedumpfile.ld \
		-o "$WORK/upstream-built/sample.so" sample.c) && chmod 0644 "$WORK/upstream-built/sample.so"
	"$MDF" -f -l -d 31 --extension "$WORK/upstream-built/sample.so" "$dump" "$WORK/ub.kdump" >"$WORK/ub.ours" 2>&1
	(cd "$WORK" && "$UPSTREAM" -f -l -d 31 --extension "$WORK/upstream-built/sample.so" "$dump" \
		"$WORK/ub-up.kdump") >"$WORK/ub.upstream" 2>&1
	grep "^sample.so: " "$WORK/ub.ours" >"$WORK/ub.ours.lines"
	grep "^sample.so: " "$WORK/ub.upstream" >"$WORK/ub.upstream.lines"
	[ -s "$WORK/ub.upstream.lines" ] && cmp -s "$WORK/ub.ours.lines" "$WORK/ub.upstream.lines" &&
		pass upstream-api-built-with-upstreams-headers ||
		fail upstream-api-built-with-upstreams-headers "$(diff "$WORK/ub.upstream.lines" "$WORK/ub.ours.lines" | head -n 4)"
else
	skip upstream-api-built-with-upstreams-headers "UPSTREAM_SRC does not name upstream's source tree"
fi
