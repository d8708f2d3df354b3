#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Module lists and module data damaged in a copy of a real dump: the walks
# stop at a cycle or a bad pointer with a message naming the module and the
# address, a corrupt size is refused rather than allocated, and what could
# be read is still listed.  One copy is damaged and repaired case by case.
. "$(dirname "$0")/../lib.sh" || exit 2

dump=$(fixture 6.1-kdump.elf) || {
	skip btf-damage "no $VMCORES/6.1-kdump/vmcore.elf.zst"
	exit 0
}
copy=$WORK/damaged.elf
cp --sparse=always "$dump" "$copy" && chmod 600 "$copy" || {
	fail btf-damage "cannot copy $dump"
	exit 0
}
guest_modules=$VMCORES/6.1-kdump/guest/kallsyms.txt

hex() { printf '0x%x' "$1"; }
symbol() { "$TOOLS/dumpread" "$dump" symbol "$1" | awk '{ print $2 }'; }
offset() { "$MDF" --dump-type "vmlinux:$1" "$dump" | sed -E 's/.* offset=([0-9]+) .*/\1/'; }
read_u64() { printf '0x%s' "$("$TOOLS/dumpread" "$dump" virt "$1" 8 | od -An -tx8 | tr -d ' ')"; }
read_str() { "$TOOLS/dumpread" "$dump" virt "$1" 56 | tr -d '\0'; }
# patch VADDR HEX...: overwrite the copy's memory there; prints how to undo it.
patch() {
	local paddr
	paddr=$("$TOOLS/dumpread" "$dump" vtop "$1" | awk '{ print $2 }')
	$PYTHON "$PROJECT/tests/py/patchphys.py" "$copy" "$paddr:$2"
}
unpatch() { $PYTHON "$PROJECT/tests/py/patchphys.py" "$copy" $1 >/dev/null; }
le64() { printf '%016x' "$1" | sed -E 's/(..)(..)(..)(..)(..)(..)(..)(..)/\8\7\6\5\4\3\2\1/'; }

# The modules list: its nodes (struct module.list) in order, and their names.
list_off=$(offset module.list)
name_off=$(offset module.name)
modules=$(symbol modules)
nodes=()
names=()
node=$(read_u64 "$modules")
while [ "$node" != "$modules" ] && [ ${#nodes[@]} -lt 64 ]; do
	nodes+=("$node")
	names+=("$(read_str $(hex $((node - list_off + name_off))))")
	node=$(read_u64 "$node")
done
# module_lines NAME...: the guest's /proc/kallsyms lines of these modules.
module_lines() {
	local pattern
	pattern=$(printf '\\[%s\\]$|' "$@")
	grep -E "${pattern%|}" "$guest_modules"
}

# kallsyms_case NAME PATTERN MODULE...: --dump-kallsyms on the damaged copy
# succeeds, warns as PATTERN says and lists exactly these modules' symbols.
kallsyms_case() {
	local name=$1 pattern=$2
	shift 2
	if ! timeout 60 "$MDF" --dump-kallsyms "$copy" >"$WORK/out" 2>"$WORK/err"; then
		fail "$name" "exit status $?: $(head -c 400 "$WORK/err")"
	elif ! grep -Eq -- "$pattern" "$WORK/err"; then
		fail "$name" "stderr lacks /$pattern/: $(head -c 400 "$WORK/err")"
	elif ! cmp -s <(grep $'\t\\[' "$WORK/out") <(module_lines "$@"); then
		fail "$name" "module lines differ: $(diff <(grep $'\t\\[' "$WORK/out") <(module_lines "$@") | head -n 4)"
	else
		pass "$name"
	fi
}

if [ ${#nodes[@]} -lt 14 ] || [ "${names[2]}" != drm_buddy ] || [ "${names[12]}" != vgem ]; then
	fail btf-damage "unexpected modules list: ${names[*]}"
	exit 0
fi

# A cycle: drm_buddy's next points back to gpu_sched.
undo=$(patch "${nodes[2]}" "$(le64 "${nodes[1]}")")
kallsyms_case modsyms-damage-cycle \
	"modules list at $modules: after module drm_buddy \(struct module at $(hex $((nodes[2] - list_off)))\), its next pointer ${nodes[1]} leads back to an entry already walked; modules past it are not listed" \
	amdgpu gpu_sched drm_buddy
unpatch "$undo"

# A bad pointer: gpu_sched's next is the kernel's LIST_POISON1.
undo=$(patch "${nodes[1]}" "$(le64 0xdead000000000100)")
kallsyms_case modsyms-damage-bad-pointer \
	"modules list at $modules: after module gpu_sched \(struct module at $(hex $((nodes[1] - list_off)))\), its next pointer 0xdead000000000100 leads to memory the dump cannot give" \
	amdgpu gpu_sched
unpatch "$undo"

# A symbol count far too large: vgem is left out, the others are listed.
vgem=$(hex $((nodes[12] - list_off)))
vgem_kallsyms=$(read_u64 $(hex $((vgem + $(offset module.kallsyms)))))
count_addr=$(hex $((vgem_kallsyms + $(offset mod_kallsyms.num_symtab))))
undo=$(patch "$count_addr" ffffffff)
kallsyms_case modsyms-damage-symbol-count \
	"module vgem \(struct module at $vgem\): num_symtab at $count_addr is 4294967295, above 4000000: its symbols are not listed" \
	$(printf '%s\n' "${names[@]}" | grep -vx vgem)
unpatch "$undo"

# The btf_modules list: each entry's module name and struct btf.
bm_list=$(offset btf_module.list)
bm_module=$(offset btf_module.module)
bm_btf=$(offset btf_module.btf)
btf_modules=$(symbol btf_modules)
entries=()
btf_names=()
btfs=()
node=$(read_u64 "$btf_modules")
while [ "$node" != "$btf_modules" ] && [ ${#entries[@]} -lt 64 ]; do
	entry=$(hex $((node - bm_list)))
	entries+=("$node")
	btf_names+=("$(read_str $(hex $(($(read_u64 $(hex $((entry + bm_module)))) + name_off))))")
	btfs+=("$(read_u64 $(hex $((entry + bm_btf))))")
	node=$(read_u64 "$node")
done
if [ "${btf_names[0]}" != amdgpu ] || [ ${#entries[@]} -lt 14 ]; then
	fail btf-damage "unexpected btf_modules list: ${btf_names[*]}"
	exit 0
fi

# amdgpu's BTF claims 2 GiB: refused, not allocated; ttm's BTF still answers.
undo=$(patch $(hex $((btfs[0] + $(offset btf.data_size)))) 00000080)
expect_failure btf-damage-data-size \
	"module amdgpu: struct btf at ${btfs[0]} says its BTF has 2147483648 bytes, not 1 byte to 64 MiB: corrupt, not used" \
	"$MDF" --dump-type amdgpu:ttm_tt.pages "$copy"
if out=$("$MDF" --dump-type ttm_tt.pages "$copy" 2>"$WORK/err") && [ "$out" = "ttm_tt.pages offset=0 size=8 bitfield=0" ]; then
	pass btf-damage-data-size-others-usable
else
	fail btf-damage-data-size-others-usable "printed \"$out\": $(head -c 400 "$WORK/err")"
fi
unpatch "$undo"

# A cycle in btf_modules: the modules after it are not searched, with a warning.
undo=$(patch "${entries[1]}" "$(le64 "${entries[0]}")")
expect_failure btf-damage-btf-modules-cycle \
	"btf_modules list at $btf_modules: after module ${btf_names[1]} \(struct btf_module at $(hex $((entries[1] - bm_list)))\), its next pointer ${entries[0]} leads back to an entry already walked" \
	"$MDF" --dump-type drm_shmem_helper:drm_gem_shmem_object.pages "$copy"
grep -q "drm_shmem_helper: no such module in btf_modules (2 modules have BTF there)" "$WORK/stderr" &&
	pass btf-damage-btf-modules-cycle-searched ||
	fail btf-damage-btf-modules-cycle-searched "$(head -c 400 "$WORK/stderr")"
unpatch "$undo"

# vmlinux's BTF damaged: --dump-type fails saying so; --dump-kallsyms still
# lists the kernel's symbols, but no module's (their layout comes from BTF).
undo=$(patch "$(symbol __start_BTF)" 0000)
expect_failure btf-damage-vmlinux-btf "vmlinux: the BTF at $(symbol __start_BTF) \([0-9]+ bytes\) does not parse" \
	"$MDF" --dump-type page.flags "$copy"
if "$MDF" --dump-kallsyms "$copy" >"$WORK/out" 2>"$WORK/err" &&
	cmp -s "$WORK/out" <(grep -v $'\t\\[' "$guest_modules") && grep -q "does not parse" "$WORK/err"; then
	pass btf-damage-vmlinux-btf-kallsyms
else
	fail btf-damage-vmlinux-btf-kallsyms "$(head -c 400 "$WORK/err")"
fi
unpatch "$undo"

# Repaired, the copy reads as the original again.
if cmp -s <("$MDF" --dump-kallsyms "$copy" 2>&1) <("$MDF" --dump-kallsyms "$dump" 2>&1); then
	pass btf-damage-repaired
else
	fail btf-damage-repaired "the undo of a patch left the copy different"
fi
rm -f "$copy" "$WORK/out" "$WORK/err"
