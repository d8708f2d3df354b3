#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Page-filter extensions on the shared dumps: a test extension that finds
# labprobe and discards its anonymous pages removes every anon marker page
# at -d 1 and nothing else changes; kept, they survive -d 31; the same job
# written with the posted series' names does the same; extensions that
# crash, hang, fail or send garbage, and untrusted directories and files,
# cost the dump nothing but their own ranges.
. "$(dirname "$0")/../lib.sh" || exit 2

EXT=$TOOLS/extensions
CHECK="$PYTHON $PROJECT/tests/py/extcheck.py $TOOLS/dumpread"

# What makedumpfile exports: the names the public headers declare, each as
# name@@MDF_1.0, and none of its internals; a name left out of the headers
# is caught as a leak.
EXPORTS="$PYTHON $PROJECT/tests/py/exportcheck.py"
HEADERS="include/makedumpfile-extension.h makedumpfile.h kallsyms.h btf_info.h extension.h erase_info.h"
check ext-exports-are-the-headers $EXPORTS "$MDF" "$PROJECT" $HEADERS
$EXPORTS --without mdf_read_u64 "$MDF" "$PROJECT" $HEADERS >"$WORK/leak.log" 2>&1
grep -q "^mdf_read_u64@@MDF_1.0 is exported but no public header declares it$" "$WORK/leak.log" &&
	pass ext-exports-leak-caught || fail ext-exports-leak-caught "$(tail -n 3 "$WORK/leak.log")"

if [ ! -s "$EXT/labprobe_anon.so" ]; then
	skip extensions "the test extensions are not built ($EXT)"
	exit 0
fi
anon=$(extension_dir anon "$EXT" labprobe_anon)
compat=$(extension_dir compat "$EXT" labprobe_anon_compat)
# Extensions link against nothing: their references to makedumpfile carry
# no version, and must bind to MDF_1.0's definitions (the runs below).
for so in labprobe_anon labprobe_anon_compat; do
	readelf -V "$EXT/$so.so" | grep -q MDF_ && fail "ext-unversioned-$so" "it names a version of ours"
done

for guest in 6.1-kdump 6.1-qemu 7.2-qemu; do
	dump=$(fixture "$guest.elf") || { skip "extensions-$guest" "no $VMCORES/$guest"; continue; }
	markers=$VMCORES/$guest/marker-pfns.txt
	t=ext-$guest
	"$MDF" -f -l -d 1 --no-extensions --message-level 0 "$dump" "$WORK/base.kdump" ||
		{ fail "$t" "the run without extensions failed"; continue; }
	if "$MDF" -f -l -d 1 --extension-dir "$anon" --message-level 31 "$dump" "$WORK/anon.kdump" \
		>"$WORK/$t-discard.out" 2>&1; then
		grep -q "^Loaded extension: $anon/labprobe_anon.so$" "$WORK/$t-discard.out" ||
			fail "$t-loaded-message" "no 'Loaded extension' line"
		# The CPU its process took is what wait4 gave back: never nothing.  bench/extcost.py reads the total.
		grep -Eq "^extension labprobe_anon: ([1-9][0-9]*\.[0-9]|0\.[1-9]) ms of CPU in its process, [0-9]+\.[0-9] ms in makedumpfile's$" \
			"$WORK/$t-discard.out" && grep -Eq "^extensions: [0-9]+\.[0-9] ms of CPU in their processes, [0-9]+\.[0-9] ms in makedumpfile's$" \
			"$WORK/$t-discard.out" || fail "$t-cpu-message" "no line with the CPU time of labprobe_anon's process"
		check "$t-discard" $CHECK "$WORK/base.kdump" "$WORK/anon.kdump" --markers "$markers" \
			--kind anon --removed --report "$WORK/$t-discard.out"
	else
		fail "$t-discard" "$(tail -n 3 "$WORK/$t-discard.out")"
	fi
	if "$MDF" -f -l -d 31 --extension-dir "$anon" --extension-arg labprobe_anon:mode=keep \
		--message-level 7 "$dump" "$WORK/keep.kdump" >"$WORK/$t-keep.out" 2>&1; then
		check "$t-keep" $CHECK "$WORK/base.kdump" "$WORK/keep.kdump" --markers "$markers" --kind anon --kept
	else
		fail "$t-keep" "$(tail -n 3 "$WORK/$t-keep.out")"
	fi
	# The posted series' names build unchanged (-I the source tree) and do the same.
	if [ -s "$EXT/labprobe_anon_compat.so" ] &&
		"$MDF" -f -l -d 1 --extension-dir "$compat" --message-level 7 "$dump" "$WORK/compat.kdump" \
			>"$WORK/$t-compat.out" 2>&1; then
		check "$t-compat" $CHECK "$WORK/base.kdump" "$WORK/compat.kdump" --markers "$markers" \
			--kind anon --removed --same-as "$WORK/anon.kdump"
	else
		fail "$t-compat" "$(tail -n 3 "$WORK/$t-compat.out")"
	fi
	rm -f "$WORK"/*.kdump
done

# Misbehaving extensions: each is reported, its ranges dropped, the dump written.
dump=$(fixture 6.1-kdump.elf) || { skip extensions-failures "no $VMCORES/6.1-kdump"; exit 0; }
bad=$(extension_dir bad "$EXT" crash hang garbage fails)
if "$MDF" -f -l -d 1 --extension-dir "$bad" --extension-timeout 3 --message-level 31 \
	"$dump" "$WORK/bad.kdump" >"$WORK/bad.out" 2>&1; then
	pass ext-failures-dump-written
else
	fail ext-failures-dump-written "$(tail -n 3 "$WORK/bad.out")"
fi
for case in "crash:crashed \\(signal 11" "hang:did not finish within 3 s" \
	"garbage:registered pfns 0x4000000000000-0x4000000000003 beyond the dump's last pfn" \
	"fails:mdf_extension_init\\(\\) returned -2"; do
	name=${case%%:*}
	grep -Eq "extension $bad/$name.so failed: ${case#*:}" "$WORK/bad.out" &&
		grep -Eq "^Extension $name: failed, its ranges dropped" "$WORK/bad.out" &&
		pass "ext-failure-$name" || fail "ext-failure-$name" "$(grep -i "$name" "$WORK/bad.out" | head -n 2)"
done
grep -q 'Extension filter pages  : 0x0000000000000000' "$WORK/bad.out" &&
	pass ext-failures-ranges-dropped || fail ext-failures-ranges-dropped "some range was applied"

# Trust: a group-writable directory, a file owned by another user, a
# symlink out of the directory, a world-writable file.
untrusted=$(extension_dir untrusted "$EXT" labprobe_anon)
chmod 0775 "$untrusted"
"$MDF" -f -l -d 1 --extension-dir "$untrusted" "$dump" "$WORK/u.kdump" >"$WORK/untrusted.out" 2>&1 &&
	grep -q "extensions directory $untrusted is not trusted (writable by its group" "$WORK/untrusted.out" &&
	! grep -q "Loaded extension" "$WORK/untrusted.out" &&
	pass ext-untrusted-directory || fail ext-untrusted-directory "$(tail -n 2 "$WORK/untrusted.out")"
files=$(extension_dir files "$EXT" labprobe_anon crash fails)
chown 65534 "$files/labprobe_anon.so"
chmod 0666 "$files/crash.so"
ln -s /usr/lib/x86_64-linux-gnu/libz.so.1 "$files/outside.so"
"$MDF" -f -l -d 1 --extension-dir "$files" --message-level 31 "$dump" "$WORK/f.kdump" >"$WORK/files.out" 2>&1 || true
for case in "labprobe_anon:owned by uid 65534" "crash:writable by others" \
	"outside:it leads to .*, outside the extensions directory"; do
	name=${case%%:*}
	grep -Eq "extension $files/$name.so refused: ${case#*:}" "$WORK/files.out" &&
		pass "ext-refused-$name" || fail "ext-refused-$name" "$(grep "$name" "$WORK/files.out" | head -n 2)"
done
grep -q "extension $files/fails.so failed" "$WORK/files.out" &&
	pass ext-trusted-file-still-runs || fail ext-trusted-file-still-runs "fails.so did not run"
# Never the current directory by default.
(cd "$anon" && "$MDF" -f -l -d 1 --message-level 31 "$dump" "$WORK/cwd.kdump") >"$WORK/cwd.out" 2>&1
grep -q "Loaded extension" "$WORK/cwd.out" && fail ext-not-from-cwd "loaded from the current directory" ||
	pass ext-not-from-cwd
rm -f "$WORK"/*.kdump
