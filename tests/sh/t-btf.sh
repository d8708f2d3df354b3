#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Types from the dump's own BTF, on every shared dump: --dump-type agrees
# with every OFFSET() and SIZE() line of the dump's VMCOREINFO, finds
# members of anonymous unions, module types and enum constants, and fails
# clearly.  Then VMCOREINFO is stripped of every line the dump's BTF and
# kallsyms can stand in for: they must give the same values, and the page
# classification must not change.
. "$(dirname "$0")/../lib.sh" || exit 2

DUMPREAD=$TOOLS/dumpread

# check_types GUEST DUMP: every OFFSET() and SIZE() of VMCOREINFO, in one run.
check_types() {
	local guest=$1 dump=$2 vi=$VMCORES/$1/vmcoreinfo.txt specs
	specs=$(grep -E '^(OFFSET|SIZE)\(' "$vi" | sed -E 's/^[A-Z]+\(([^)]*)\)=.*/\1/' | paste -sd, -)
	grep -E '^(OFFSET|SIZE)\(' "$vi" |
		sed -E 's/^OFFSET\(([^)]*)\)=(.*)/\1 offset=\2/; s/^SIZE\(([^)]*)\)=(.*)/\1 size=\2/' \
			>"$WORK/$guest.types.expected"
	if ! "$MDF" --dump-type "$specs" "$dump" >"$WORK/$guest.types" 2>"$WORK/$guest.types.err"; then
		fail "btf-$guest-vmcoreinfo-types" "exit status $?: $(head -c 400 "$WORK/$guest.types.err")"
		return
	fi
	sed -E 's/^([^ ]+ (offset|size)=[0-9]+).*/\1/' "$WORK/$guest.types" >"$WORK/$guest.types.got"
	if cmp -s "$WORK/$guest.types.got" "$WORK/$guest.types.expected"; then
		pass "btf-$guest-vmcoreinfo-types"
	else
		fail "btf-$guest-vmcoreinfo-types" "$(diff "$WORK/$guest.types.got" "$WORK/$guest.types.expected" | head -n 6)"
	fi
}

# expect_type NAME PATTERN SPEC DUMP: --dump-type SPEC prints a line matching PATTERN (an ERE).
expect_type() {
	local name=$1 pattern=$2 spec=$3 dump=$4 out
	if ! out=$("$MDF" --dump-type "$spec" "$dump" 2>"$WORK/stderr"); then
		fail "$name" "exit status $?: $(head -c 400 "$WORK/stderr")"
	elif grep -Eqx -- "$pattern" <<<"$out"; then
		pass "$name"
	else
		fail "$name" "printed \"$out\", not /$pattern/"
	fi
}

vi_value() { grep -m1 "^$1=" "$2" | cut -d= -f2; }

check_lookups() {
	local guest=$1 dump=$2 vi=$VMCORES/$1/vmcoreinfo.txt
	expect_type "btf-$guest-anonymous-union-mapping" \
		"page\.mapping offset=$(vi_value 'OFFSET(page.mapping)' "$vi") size=8 bitfield=0" page.mapping "$dump"
	expect_type "btf-$guest-anonymous-union-lru" \
		"page\.lru offset=$(vi_value 'OFFSET(page.lru)' "$vi") size=16 bitfield=0" page.lru "$dump"
	expect_type "btf-$guest-nested-members" "task_struct\.se\.load\.weight offset=[0-9]+ size=8 bitfield=0" \
		task_struct.se.load.weight "$dump"
	expect_type "btf-$guest-bitfield" \
		"task_struct\.sched_reset_on_fork offset=[0-9]+ size=4 bitfield=1 bit_offset=[0-9]+" \
		task_struct.sched_reset_on_fork "$dump"
	expect_type "btf-$guest-enum-constant" "PG_lru=$(vi_value 'NUMBER(PG_lru)' "$vi")" PG_lru "$dump"
	expect_type "btf-$guest-enum-qualified" "pageflags\.PG_swapcache=$(vi_value 'NUMBER(PG_swapcache)' "$vi")" \
		pageflags.PG_swapcache "$dump"
	# Module types, each where its module's BTF has it, and not in vmlinux's.
	expect_type "btf-$guest-module-amdgpu" "amdgpu:ttm_tt\.pages offset=0 size=8 bitfield=0" \
		amdgpu:ttm_tt.pages "$dump"
	expect_type "btf-$guest-module-ttm" "ttm:ttm_buffer_object\.ttm offset=[0-9]+ size=8 bitfield=0" \
		ttm:ttm_buffer_object.ttm "$dump"
	expect_type "btf-$guest-module-drm-shmem" \
		"drm_shmem_helper:drm_gem_shmem_object\.pages offset=[0-9]+ size=8 bitfield=0" \
		drm_shmem_helper:drm_gem_shmem_object.pages "$dump"
	expect_type "btf-$guest-module-unscoped" "ttm_tt\.pages offset=0 size=8 bitfield=0" ttm_tt.pages "$dump"
	expect_failure "btf-$guest-module-type-not-in-vmlinux" "ttm_tt: no struct, union, typedef, enum, base type or variable of that name in the BTF of vmlinux$" \
		"$MDF" --dump-type vmlinux:ttm_tt.pages "$dump"
	expect_failure "btf-$guest-no-member" "vmlinux: page \(struct page\) has no member nope" \
		"$MDF" --dump-type page.nope "$dump"
	expect_failure "btf-$guest-no-module" "nosuchmodule: no such module in btf_modules \([0-9]+ modules have BTF there\)" \
		"$MDF" --dump-type nosuchmodule:page "$dump"
	expect_failure "btf-$guest-no-name" "no_such_type_xyz: no struct, union, typedef, enum, base type, variable or enum constant of that name in the BTF of vmlinux or any module" \
		"$MDF" --dump-type no_such_type_xyz "$dump"
	expect_failure "btf-$guest-not-a-struct" "vmlinux: zone\.free_area is an array, not a struct or union: it has no member free_list" \
		"$MDF" --dump-type zone.free_area.free_list "$dump"
	expect_failure "btf-$guest-bad-spec" '"page\.\.x" is not NAME or NAME\.MEMBER' \
		"$MDF" --dump-type page..x "$dump"
	# Lazy: a vmlinux type reads no module's BTF, a module's type only that module's.
	"$MDF" --message-level 31 --dump-type page.flags "$dump" 2>"$WORK/lazy.vmlinux" >/dev/null
	"$MDF" --message-level 31 --dump-type ttm:ttm_tt.pages "$dump" 2>"$WORK/lazy.ttm" >/dev/null
	if grep -q "^BTF of vmlinux:" "$WORK/lazy.vmlinux" && ! grep -q "^BTF of [^v]" "$WORK/lazy.vmlinux" &&
		[ "$(grep '^BTF of ' "$WORK/lazy.ttm" | cut -d: -f1 | paste -sd, -)" = "BTF of vmlinux,BTF of ttm" ]; then
		pass "btf-$guest-lazy"
	else
		fail "btf-$guest-lazy" "parsed: $(grep -h '^BTF of ' "$WORK"/lazy.* | cut -d: -f1 | paste -sd, -)"
	fi
}

# Lines the engine reads that the dump's BTF and kallsyms must be able to give.
ENGINE_LINES='SIZE(page) OFFSET(page.flags) OFFSET(page._refcount) OFFSET(page.mapping) OFFSET(page._mapcount)
OFFSET(page.private) NUMBER(PG_lru) NUMBER(PG_private) NUMBER(PG_swapcache) NUMBER(PG_swapbacked)
NUMBER(PG_head_mask) NUMBER(PG_hwpoison) SYMBOL(mem_section) SIZE(mem_section)
OFFSET(mem_section.section_mem_map) LENGTH(zone.free_area)'

# check_fallback GUEST DUMP: VMCOREINFO without what BTF and kallsyms can say.
check_fallback() {
	local guest=$1 dump=$2 vi=$VMCORES/$1/vmcoreinfo.txt name=btf-$1-fallback
	local minimal=$WORK/$guest.vmcoreinfo.minimal edited=$WORK/$guest.vmcoreinfo.edited key
	local wrong missing
	# What memory and kallsyms need to be found at all, and no typed line besides.
	grep -vE '^(SYMBOL|SIZE|OFFSET|LENGTH|NUMBER)\(' "$vi" >"$minimal"
	grep -E '^(SYMBOL\((kallsyms_[a-z_]+|init_top_pgt)\)|NUMBER\((phys_base|pgtable_l5_enabled|sme_mask)\))=' \
		"$vi" >>"$minimal"
	grep -E '^(SYMBOL|SIZE|OFFSET|LENGTH|NUMBER)\(' "$vi" | sed 's/=/ /' >"$WORK/$guest.lines"
	if ! "$DUMPREAD" -i "$minimal" "$dump" vmcoreinfo $(cut -d' ' -f1 "$WORK/$guest.lines") \
		>"$WORK/$guest.fallback" 2>"$WORK/stderr"; then
		fail "$name-values" "dumpread failed: $(head -c 400 "$WORK/stderr")"
		return
	fi
	# A fallback answer is the dump's own line or nothing; never another value.
	wrong=$(paste -d' ' "$WORK/$guest.lines" "$WORK/$guest.fallback" | awk '$4 != "missing" && $2 != $4')
	missing=$(awk '$2 == "missing" && $1 ~ /^(OFFSET|SIZE)\(/ { print $1 }' "$WORK/$guest.fallback")
	for key in $ENGINE_LINES; do
		grep -qF "$key=" "$vi" && grep -qxF "$key missing" "$WORK/$guest.fallback" && missing+=" $key"
	done
	# LENGTH() of a variable BTF describes: per-cpu ones, as struct worker_pool cpu_worker_pools[2].
	"$DUMPREAD" "$dump" vmcoreinfo 'LENGTH(cpu_worker_pools)' | grep -qx 'LENGTH(cpu_worker_pools) 2' ||
		missing+=" LENGTH(cpu_worker_pools)"
	if [ -n "$wrong" ]; then
		fail "$name-values" "BTF or kallsyms contradict VMCOREINFO: $(head -n 3 <<<"$wrong")"
	elif [ -n "$missing" ]; then
		fail "$name-values" "BTF or kallsyms cannot give: $missing"
	else
		pass "$name-values"
	fi

	# Without every line the fallback gives, the classification is the same.
	cp "$minimal" "$edited"
	awk '$2 == "missing" { print $1 "=" }' "$WORK/$guest.fallback" >"$WORK/$guest.kept"
	awk 'NR == FNR { kept[$0] = 1; next } { key = substr($0, 1, index($0, "=")) } key in kept' \
		"$WORK/$guest.kept" "$vi" >>"$edited"
	if ! "$DUMPREAD" "$dump" scan 31 >"$WORK/$guest.scan" 2>"$WORK/stderr" ||
		! "$DUMPREAD" -i "$edited" "$dump" scan 31 >"$WORK/$guest.scan.edited" 2>>"$WORK/stderr"; then
		fail "$name-scan" "dumpread scan failed: $(head -c 400 "$WORK/stderr")"
	elif cmp -s "$WORK/$guest.scan" "$WORK/$guest.scan.edited"; then
		pass "$name-scan"
	else
		fail "$name-scan" "$(grep -c . "$edited") lines left; $(diff "$WORK/$guest.scan" "$WORK/$guest.scan.edited" | head -n 4)"
	fi

	# makedumpfile says where each missing line came from, and excludes the same pages.
	"$MDF" -F -d 31 --message-level 31 "$dump" 2>"$WORK/$guest.full.log" >/dev/null
	if ! "$MDF" -F -d 31 --message-level 31 -i "$edited" "$dump" 2>"$WORK/$guest.edited.log" >/dev/null; then
		fail "$name-dump" "exit status $?: $(grep makedumpfile: "$WORK/$guest.edited.log" | head -c 400)"
	elif ! grep -qx "OFFSET(page.flags) from BTF: 0" "$WORK/$guest.edited.log" ||
		! grep -qx "NUMBER(PG_lru) from BTF: $(vi_value 'NUMBER(PG_lru)' "$vi")" "$WORK/$guest.edited.log"; then
		fail "$name-dump" "no debug line for OFFSET(page.flags) or NUMBER(PG_lru) from BTF"
	elif ! diff <(grep -iE '^ *(excluded|pages|original)' "$WORK/$guest.full.log") \
		<(grep -iE '^ *(excluded|pages|original)' "$WORK/$guest.edited.log") >"$WORK/stderr"; then
		fail "$name-dump" "report differs: $(head -n 4 "$WORK/stderr")"
	else
		pass "$name-dump"
	fi
	rm -f "$WORK/$guest".*
}

for guest in 6.1-qemu 6.1-kdump 7.2-qemu; do
	if dump=$(fixture "$guest.elf"); then
		check_types "$guest" "$dump"
		check_lookups "$guest" "$dump"
		check_fallback "$guest" "$dump"
	else
		skip "btf-$guest" "no $VMCORES/$guest/vmcore.elf.zst"
	fi
done
