#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Compressed dumps of real kernel pages are the same file whatever the
# number of compression threads and from run to run, and hold the input's
# pages:
#  - -c -d 31 of each shared x86_64 dump with --num-threads 0, 1, 2, 4 and
#    4 again: one md5; every page of the file reads, through
#    python3-libkdumpfile, as the input ELF's page;
#  - -l, -p and -z of one dump with 0 and 4 threads: one md5 each;
#  - pinned to one CPU, or with no codec, no compression thread is started;
#  - libsnappy is loaded for snappy pages only, and its absence fails -p
#    with a clear message;
#  - under valgrind (when it is installed; not for a sanitizer build), -c
#    and -z of one dump on 2 threads: no error.
. "$(dirname "$0")/../lib.sh" || exit 2

# same_file NAME DUMP OPTIONS -- THREADS...: one run per thread count;
# passes when every file has the first's md5.
same_file() {
	local name=$1 dump=$2 opts=() threads first sum differ=
	shift 2
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	for threads in "$@"; do
		if ! "$MDF" -f "${opts[@]}" --num-threads "$threads" "$dump" "$WORK/$name.$threads" \
			>"$WORK/$name.log" 2>&1; then
			fail "$name" "--num-threads $threads failed: $(tail -n 2 "$WORK/$name.log")"
			return 1
		fi
		sum=$(md5sum <"$WORK/$name.$threads" | cut -d' ' -f1)
		first=${first:-$sum}
		[ "$sum" = "$first" ] || differ="$differ --num-threads $threads: $sum;"
		# The first file stays for the page check; the others only gave their md5.
		[ "$threads" = "$1" ] || rm -f "$WORK/$name.$threads"
	done
	if [ -n "$differ" ]; then
		fail "$name" "--num-threads $1: $first;$differ"
		return 1
	fi
	pass "$name"
}

for guest in 6.1-kdump 6.1-qemu 7.2-qemu; do
	if ! dump=$(fixture "$guest.elf"); then
		skip "compress-$guest-zlib" "no $VMCORES/$guest/vmcore.elf.zst"
		continue
	fi
	if same_file "compress-$guest-zlib" "$dump" -c -d 31 -- 0 1 2 4 4; then
		check "compress-$guest-zlib-pages" $PYTHON "$PROJECT/tests/py/pagesmatch.py" \
			"$WORK/compress-$guest-zlib.0" "$dump"
	fi
	rm -f "$WORK/compress-$guest-zlib".*
done

dump=$(fixture 7.2-qemu.elf) || { skip compress-codecs "no $VMCORES/7.2-qemu/vmcore.elf.zst"; exit 0; }
for codec in lzo:-l snappy:-p zstd:-z; do
	same_file "compress-7.2-qemu-${codec%:*}" "$dump" "${codec#*:}" -d 31 -- 0 4
	rm -f "$WORK/compress-7.2-qemu-${codec%:*}".*
done

# no_threads NAME WHAT COMMAND...: passes when COMMAND, run under strace,
# writes $WORK/NAME.kdump and starts no thread (WHAT says for what).
no_threads() {
	local name=$1 what=$2 clones
	shift 2
	strace -f -qq -e trace=clone,clone3 -o "$WORK/$name.strace" \
		"$@" "$WORK/$name.kdump" >"$WORK/$name.log" 2>&1
	clones=$(grep -c 'clone' "$WORK/$name.strace")
	if [ ! -s "$WORK/$name.kdump" ]; then
		fail "$name" "the run failed: $(tail -n 2 "$WORK/$name.log")"
	elif [ "$clones" -ne 0 ]; then
		fail "$name" "$clones threads or processes started $what"
	else
		pass "$name"
	fi
	rm -f "$WORK/$name".*
}

# Pinned to one CPU (taskset, as nr_cpus=1 in a kdump kernel), no
# compression thread is started: they would only take turns with the main
# one.  Pages stored raw take none either, whatever the CPUs.  strace
# counts the threads the process makes.
if ! command -v strace >/dev/null; then
	skip compress-one-cpu-inline "strace is not installed"
	skip compress-raw-inline "strace is not installed"
elif [ -n "$MDF_SANITIZE" ]; then
	# LeakSanitizer clones a thread of its own at exit to look for leaks.
	skip compress-one-cpu-inline "a sanitizer build starts threads of its own"
	skip compress-raw-inline "a sanitizer build starts threads of its own"
else
	no_threads compress-one-cpu-inline "on one CPU" \
		taskset -c 0 "$MDF" -f -l -d 31 --no-extensions "$dump"
	if [ "$(nproc)" -lt 2 ]; then
		skip compress-raw-inline "one CPU: no thread would be started anyway"
	else
		no_threads compress-raw-inline "for pages stored raw" "$MDF" -f -d 31 --no-extensions "$dump"
	fi
fi

# libsnappy is loaded when a snappy page is first met (codec/snappy_lib.h):
# the dynamic loader's trace (LD_DEBUG=files) names every library the
# process opens, and an -l run opens neither libsnappy nor the libstdc++ it
# brings, where a -p run opens it (and wrote the files above).
LD_DEBUG=files "$MDF" -f -l -d 31 --no-extensions "$dump" "$WORK/loaded.kdump" \
	>"$WORK/loaded-l.log" 2>&1
LD_DEBUG=files "$MDF" -f -p -d 31 --no-extensions "$dump" "$WORK/loaded.kdump" \
	>"$WORK/loaded-p.log" 2>&1
if grep -q 'file=libsnappy' "$WORK/loaded-l.log"; then
	fail compress-snappy-on-use "an -l run loaded libsnappy: $(grep -m1 'file=libsnappy' "$WORK/loaded-l.log")"
elif ! grep -q 'file=libsnappy' "$WORK/loaded-p.log"; then
	fail compress-snappy-on-use "a -p run did not load libsnappy: $(tail -n 2 "$WORK/loaded-p.log")"
else
	pass compress-snappy-on-use
fi

# Without libsnappy (a private mount namespace hides it behind /dev/null),
# -p and reading a -p dump fail with the loader's reason and leave no file,
# while -l goes on as before.
snappy=$(ldconfig -p | awk '/libsnappy\.so\.1 /{ print $NF; exit }')
if [ "$(id -u)" != 0 ] || [ -z "$snappy" ] || ! unshare -m true 2>/dev/null; then
	skip compress-snappy-missing "needs root, unshare and libsnappy.so.1 in ldconfig's cache"
else
	"$MDF" -f -p -d 31 --no-extensions "$dump" "$WORK/snappy.kdump" >/dev/null 2>&1
	unshare -m sh -c 'mount --bind /dev/null "$1" && shift && "$@"' sh "$snappy" \
		"$PROJECT/tests/sh/missing-snappy.sh" "$MDF" "$dump" "$WORK" >"$WORK/missing.log" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ]; then
		fail compress-snappy-missing "$(tail -n 3 "$WORK/missing.log")"
	else
		pass compress-snappy-missing
	fi
	rm -f "$WORK/snappy.kdump" "$WORK"/missing*
fi
rm -f "$WORK"/loaded*

if [ -n "$MDF_SANITIZE" ]; then
	skip compress-valgrind "a sanitizer build does not run under valgrind"
elif ! command -v valgrind >/dev/null; then
	skip compress-valgrind "valgrind is not installed"
else
	for codec in zlib:-c zstd:-z; do
		check "compress-valgrind-${codec%:*}" valgrind -q --error-exitcode=97 \
			"$MDF" -f "${codec#*:}" -d 31 --num-threads 2 --message-level 4 "$dump" "$WORK/valgrind.kdump"
	done
	rm -f "$WORK/valgrind.kdump"
fi
