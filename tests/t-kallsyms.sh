#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# --dump-kallsyms on every shared dump, in every form we read, must equal
# the kernel lines of the guest's own /proc/kallsyms.
. "$PROJECT/tests/lib.sh"

check_kallsyms() {
	local name=$1 dump=$2 guest=$3
	if ! "$MDF" --dump-kallsyms "$dump" "$WORK/$name.out" 2>"$WORK/$name.err"; then
		fail "$name" "exit status $?: $(head -c 400 "$WORK/$name.err")"
		return
	fi
	guest_kernel_kallsyms "$guest" >"$WORK/$name.expected"
	if cmp -s "$WORK/$name.out" "$WORK/$name.expected"; then
		pass "$name"
	else
		fail "$name" "differs from guest kallsyms: $(diff "$WORK/$name.out" "$WORK/$name.expected" | head -n 6)"
	fi
}

for guest in 6.1-qemu 6.1-kdump 7.2-qemu; do
	if dump=$(fixture "$guest.elf"); then
		check_kallsyms "kallsyms-$guest-elf" "$dump" "$guest"
	else
		skip "kallsyms-$guest-elf" "no $VMCORES/$guest/vmcore.elf.zst"
	fi
	if [ "$guest" != 6.1-kdump ]; then
		if dump=$(fixture "$guest.relayout.elf"); then
			check_kallsyms "kallsyms-$guest-relayout" "$dump" "$guest"
		else
			skip "kallsyms-$guest-relayout" "no kexec-layout copy of $guest"
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
	skip kallsyms-6.1-qemu-kdump-zlib "no $flat"
fi

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
