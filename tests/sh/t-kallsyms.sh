#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# --dump-kallsyms on every shared dump, in every form we read, must equal
# the guest's own /proc/kallsyms: its kernel lines (kallsyms-*) and its
# "[module]" lines (modsyms-*: names, addresses, type letters, modules, order).
. "$(dirname "$0")/../lib.sh" || exit 2

check_kallsyms() {
	local name=$1 dump=$2 guest=$3
	if ! "$MDF" --dump-kallsyms "$dump" "$WORK/$name.out" 2>"$WORK/$name.err"; then
		fail "$name" "exit status $?: $(head -c 400 "$WORK/$name.err")"
		return
	fi
	grep -v $'\t\\[' "$WORK/$name.out" >"$WORK/$name.kernel"
	guest_kernel_kallsyms "$guest" >"$WORK/$name.expected"
	if cmp -s "$WORK/$name.kernel" "$WORK/$name.expected"; then
		pass "$name"
	else
		fail "$name" "differs from guest kallsyms: $(diff "$WORK/$name.kernel" "$WORK/$name.expected" | head -n 6)"
	fi
	grep $'\t\\[' "$WORK/$name.out" >"$WORK/$name.modules"
	grep $'\t\\[' "$VMCORES/$guest/guest/kallsyms.txt" >"$WORK/$name.expected"
	if [ -s "$WORK/$name.expected" ] && cmp -s "$WORK/$name.modules" "$WORK/$name.expected"; then
		pass "${name/kallsyms/modsyms}"
	else
		fail "${name/kallsyms/modsyms}" "$(wc -l <"$WORK/$name.modules") module lines; differ from the guest's $(wc -l <"$WORK/$name.expected"): $(diff "$WORK/$name.modules" "$WORK/$name.expected" | head -n 6)"
	fi
	rm -f "$WORK/$name".{out,kernel,modules,expected}
}

skip_kallsyms() {
	skip "$1" "$2"
	skip "${1/kallsyms/modsyms}" "$2"
}

for guest in 6.1-qemu 6.1-kdump 7.2-qemu; do
	if dump=$(fixture "$guest.elf"); then
		check_kallsyms "kallsyms-$guest-elf" "$dump" "$guest"
	else
		skip_kallsyms "kallsyms-$guest-elf" "no $VMCORES/$guest/vmcore.elf.zst"
	fi
	if [ "$guest" != 6.1-kdump ]; then
		if dump=$(fixture "$guest.relayout.elf"); then
			check_kallsyms "kallsyms-$guest-relayout" "$dump" "$guest"
		else
			skip_kallsyms "kallsyms-$guest-relayout" "no kexec-layout copy of $guest"
		fi
	fi
done

flat=$VMCORES/6.1-qemu/vmcore.qemu-kdump-zlib.flat
if [ -s "$flat" ]; then
	if "$MDF" -R "$WORK/qemu.kdump" <"$flat" 2>"$WORK/reassemble.err"; then
		check_kallsyms kallsyms-6.1-qemu-kdump-zlib "$WORK/qemu.kdump" 6.1-qemu
	else
		fail kallsyms-6.1-qemu-kdump-zlib "-R failed: $(head -c 400 "$WORK/reassemble.err")"
	fi
	rm -f "$WORK/qemu.kdump"
else
	skip_kallsyms kallsyms-6.1-qemu-kdump-zlib "no $flat"
fi

# Filtering keeps the kernel's own memory: upstream makedumpfile's -d 31
# dumps still hold every kernel and module symbol.
for name in 6.1-kdump 6.1-qemu.relayout 7.2-qemu.relayout; do
	guest=${name%.relayout}
	if dump=$(fixture "upstream/$name.d31.kdump"); then
		check_kallsyms "kallsyms-$guest-upstream-d31" "$dump" "$guest"
	else
		skip_kallsyms "kallsyms-$guest-upstream-d31" "no upstream makedumpfile -d 31 dump of $name"
	fi
done

# Output to a file that exists needs -f; stdout works without a file.
if dump=$(fixture 6.1-kdump.elf); then
	: >"$WORK/exists"
	expect_failure kallsyms-refuses-existing-output "already exists; use -f" \
		"$MDF" --dump-kallsyms "$dump" "$WORK/exists"
	if "$MDF" --dump-kallsyms -f "$dump" "$WORK/exists" && [ -s "$WORK/exists" ] &&
		[ "$(stat -c %a "$WORK/exists")" = 600 -o "$(stat -c %a "$WORK/exists")" = 644 ]; then
		pass kallsyms-force-overwrites
	else
		fail kallsyms-force-overwrites "-f did not overwrite"
	fi
	rm -f "$WORK"/*.out "$WORK/exists"
fi

# Lookups by name (what extensions and the VMCOREINFO fallback ask) find
# what the guest's /proc/kallsyms says: kernel and module symbols,
# duplicated names, names nowhere.
for guest in 6.1-kdump 6.1-qemu 7.2-qemu; do
	if dump=$(fixture "$guest.elf"); then
		if out=$(/usr/bin/python3 "$PROJECT/tests/py/symlookupcheck.py" "$TOOLS/dumpread" "$dump" \
			"$VMCORES/$guest/guest/kallsyms.txt" 2>&1); then
			pass "kallsyms-$guest-lookups-by-name"
		else
			fail "kallsyms-$guest-lookups-by-name" "$(echo "$out" | head -n 6)"
		fi
	else
		skip "kallsyms-$guest-lookups-by-name" "no $VMCORES/$guest/vmcore.elf.zst"
	fi
done
