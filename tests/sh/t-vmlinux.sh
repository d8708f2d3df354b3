#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# -x VMLINUX (symbols and types from a vmlinux's symbol table and DWARF)
# and -g (VMCOREINFO from a vmlinux), on the generator's dumps and the
# vmlinux it writes with them (mkvmcore --vmlinux: DWARF compiled from
# tests/gen/vmlinux_types.h):
# - --dump-type with -x answers as the dump's BTF does and as the
#   generator's tables say, for every member of its BTF types, and as the
#   C compiler does (offsetof, sizeof, the bits a bitfield sets) for
#   those, for VMCOREINFO's lines and for the shapes C has (bitfields,
#   arrays of arrays, qualifiers, 8-byte and negative enums, flexible
#   arrays);
# - a vmlinux of another build, or of another release where there is no
#   build ID, is refused with upstream's exit status 2; bad files are
#   refused clearly;
# - -g writes what upstream head's -g writes on the same vmlinux, byte
#   for byte, and agrees with the kernel's own VMCOREINFO;
# - a dump whose VMCOREINFO lacks the struct, member, enum and kallsyms
#   lines is filtered with -x as the full one is without it, and its
#   kernel log read; upstream head with -x does the same;
# - the GPU filters and a --config erase the same bytes with -x as with
#   the dump's BTF;
# - with Debian 6.1's debug vmlinux installed, the same on the shared 6.1
#   dumps (skipped without it: the package is 860 MB).
. "$(dirname "$0")/../lib.sh" || exit 2

GEN=$TOOLS/mkvmcore
HEADER=$PROJECT/tests/gen/vmlinux_types.h
ORACLE="$PYTHON $PROJECT/tests/py/ctypes_oracle.py $HEADER $WORK"
UPSTREAM=$SHARED/oracles/upstream-head/makedumpfile
KDUMPSET="$PYTHON $SHARED/tools/kdumpset.py"
EXT=$(dirname "$TOOLS")/extensions

if [ ! -x "$GEN" ]; then
	skip vmlinux "mkvmcore is not built ($GEN)"
	exit 0
fi

# expect_status NAME STATUS PATTERN CMD...: CMD exits STATUS and says PATTERN on stderr.
expect_status() {
	local name=$1 want=$2 pattern=$3 status
	shift 3
	timeout 60 "$@" >"$WORK/stdout" 2>"$WORK/stderr"
	status=$?
	if [ $status -ne "$want" ]; then
		fail "$name" "exit status $status (want $want): $(head -c 600 "$WORK/stderr")"
	elif ! grep -Eq -- "$pattern" "$WORK/stderr"; then
		fail "$name" "stderr lacks /$pattern/: $(head -c 600 "$WORK/stderr")"
	else
		pass "$name"
	fi
}

# types NAME OUT SPECS ARGS...: --dump-type SPECS ARGS... into OUT; false (said) when it fails.
types() {
	local name=$1 out=$2 specs=$3
	shift 3
	"$MDF" --dump-type "$specs" "$@" >"$out" 2>"$WORK/stderr" && return 0
	fail "$name" "--dump-type failed: $(head -c 400 "$WORK/stderr")"
	return 1
}

specs_of() { cut -d'|' -f3 "$1" | paste -sd, -; }

gen() {
	"$GEN" "$@" >"$WORK/gen.log" 2>&1 || { fail vmlinux-gen "mkvmcore $*: $(tail -n 3 "$WORK/gen.log")"; exit 0; }
}

gen --amdgpu --facts "$WORK/a.facts" --vmlinux "$WORK/a.vmlinux" "$WORK/a.elf"
gen --vmcoreinfo-out "$WORK/d.vi" --facts "$WORK/d.facts" --vmlinux "$WORK/d.vmlinux" "$WORK/d.elf"

# ---- Types: DWARF as BTF, as the generator's tables, as the compiler ----

# Every named member of the --amdgpu layout's vmlinux BTF, and paths
# through its anonymous unions: the facts give offsets and sizes.
awk '$1 == "btf_type" { print "size|struct " $2 "|" $2 }
     $1 == "btf_member" { split($2, p, "."); print "member|struct " p[1] "|" $2 }' \
	"$WORK/a.facts" >"$WORK/btf.specs"
cat >>"$WORK/btf.specs" <<'EOF'
member|struct maple_range_64|maple_range_64.meta
member|struct maple_range_64|maple_range_64.meta.gap
member|struct maple_range_64|maple_range_64.slot
member|struct maple_node|maple_node.parent
member|struct maple_node|maple_node.slot
member|struct maple_node|maple_node.mr64.pivot
member|struct maple_node|maple_node.ma64.meta.end
member|struct task_struct|task_struct.tasks.prev
member|struct module|module.core_kallsyms.num_symtab
EOF
awk '$1 == "btf_type" { print $2 " size=" $3 }
     $1 == "btf_member" { print $2 " offset=" $3 " size=" $4 " bitfield=0" }' "$WORK/a.facts" >"$WORK/btf.facts"
if types dwarf-types-btf "$WORK/btf.btf" "$(specs_of "$WORK/btf.specs")" "$WORK/a.elf" &&
	types dwarf-types-btf "$WORK/btf.dwarf" "$(specs_of "$WORK/btf.specs")" -x "$WORK/a.vmlinux" "$WORK/a.elf"; then
	same dwarf-types-btf "$WORK/btf.dwarf" "$WORK/btf.btf"
	head -n "$(wc -l <"$WORK/btf.facts")" "$WORK/btf.dwarf" >"$WORK/btf.dwarf.named"
	same dwarf-types-generator-tables "$WORK/btf.dwarf.named" "$WORK/btf.facts"
	if $ORACLE <"$WORK/btf.specs" >"$WORK/btf.c" 2>"$WORK/stderr"; then
		same dwarf-types-btf-compiler "$WORK/btf.dwarf" "$WORK/btf.c"
	else
		fail dwarf-types-btf-compiler "$(tail -n 5 "$WORK/stderr")"
	fi
fi

# Modules' types: their BTF in the dump, split on the dump's own vmlinux BTF, as without -x.
modules=amdgpu:ttm_tt.pages,drm:drm_device.driver,drm_shmem_helper:drm_gem_shmem_object.pages
modules+=,ttm_buffer_object.base.size,amdgpu_bo.tbo.ttm,ttm_bo_type_sg,drm_gem_object.funcs
if types dwarf-types-modules "$WORK/modules.btf" "$modules" "$WORK/a.elf" &&
	types dwarf-types-modules "$WORK/modules.dwarf" "$modules" -x "$WORK/a.vmlinux" "$WORK/a.elf"; then
	same dwarf-types-modules "$WORK/modules.dwarf" "$WORK/modules.btf"
fi

# VMCOREINFO's SIZE() and OFFSET() lines, and the enum constants of its NUMBER() lines.
ctype() { case $1 in *_t) echo "$1" ;; *) echo "struct $1" ;; esac; }
while IFS= read -r line; do
	case $line in
	SIZE\(*) name=${line#SIZE(}; name=${name%%)*}
		echo "size|$(ctype "$name")|$name" ;;
	OFFSET\(*) name=${line#OFFSET(}; name=${name%%)*}
		echo "member|$(ctype "${name%%.*}")|$name" ;;
	NUMBER\(PG_head_mask\)*) ;;
	NUMBER\(PG_*\)* | NUMBER\(NR_FREE_PAGES\)* | NUMBER\(HUGETLB_PAGE_DTOR\)*)
		name=${line#NUMBER(}; echo "enum||${name%%)*}" ;;
	esac
done <"$WORK/d.vi" >"$WORK/vi.specs"
sed -nE 's/^SIZE\(([^)]*)\)=(.*)/\1 size=\2/p; s/^OFFSET\(([^)]*)\)=(.*)/\1 offset=\2/p
	/^NUMBER\(PG_head_mask\)/d; s/^NUMBER\((PG_[a-z_]*|NR_FREE_PAGES|HUGETLB_PAGE_DTOR)\)=(.*)/\1=\2/p' \
	"$WORK/d.vi" >"$WORK/vi.expected"
if types dwarf-types-vmcoreinfo "$WORK/vi.dwarf" "$(specs_of "$WORK/vi.specs")" -x "$WORK/d.vmlinux" "$WORK/d.elf"; then
	sed -E 's/^([^ ]+ (offset|size)=[0-9]+).*/\1/' "$WORK/vi.dwarf" >"$WORK/vi.got"
	same dwarf-types-vmcoreinfo "$WORK/vi.got" "$WORK/vi.expected"
	if $ORACLE <"$WORK/vi.specs" >"$WORK/vi.c" 2>"$WORK/stderr"; then
		same dwarf-types-vmcoreinfo-compiler "$WORK/vi.dwarf" "$WORK/vi.c"
	else
		fail dwarf-types-vmcoreinfo-compiler "$(tail -n 5 "$WORK/stderr")"
	fi
fi

# What else C says.
cat >"$WORK/shapes.specs" <<'EOF'
size|struct shapes|shapes
member|struct shapes|shapes.c
member|struct shapes|shapes.b
member|struct shapes|shapes.s
member|struct shapes|shapes.cv
member|struct shapes|shapes.ull
member|struct shapes|shapes.chained
bitfield|struct shapes|shapes.bf_low|4
bitfield|struct shapes|shapes.bf_mid|4
bitfield|struct shapes|shapes.bf_signed|4
bitfield|struct shapes|shapes.bf_wide|8
member|struct shapes|shapes.grid
member|struct shapes|shapes.cube
member|struct shapes|shapes.d
member|struct shapes|shapes.f
member|struct shapes|shapes.wide
member|struct shapes|shapes.sign
member|struct shapes|shapes.opaque
member|struct shapes|shapes.callback
member|struct shapes|shapes.names
member|struct shapes|shapes.lo
member|struct shapes|shapes.hi
member|struct shapes|shapes.both
member|struct shapes|shapes.nested
member|struct shapes|shapes.nested.x
member|struct shapes|shapes.nested.y
member|struct shapes|shapes.nested.z
member|struct shapes|shapes.nested.zz
member|struct shapes|shapes.empty
size|enum shape_wide|shape_wide
size|enum shape_signed|shape_signed
size|shape_u32_again|shape_u32_again
size|spinlock_t|spinlock_t
size|pg_data_t|pg_data_t
member|spinlock_t|spinlock_t.rlock.raw_lock.tail
member|struct page|page.callback_head.func
member|struct page|page.compound_mapcount
member|struct page|page.pt_mm
member|struct zone|zone._pad1_
member|struct zone|zone._pad3_
member|struct printk_info|printk_info.dev_info.device
bitfield|struct printk_info|printk_info.flags|1
bitfield|struct printk_info|printk_info.level|1
enum||SHAPE_NEGATIVE
enum||shape_signed.SHAPE_POSITIVE
enum||shape_wide.SHAPE_WIDE_HIGH
enum||pageflags.PG_head
enum||PG_reported
enum||node_states.N_ONLINE
enum||MODULE_STATE_GOING
EOF
if types dwarf-types-shapes "$WORK/shapes.dwarf" "$(specs_of "$WORK/shapes.specs")" -x "$WORK/d.vmlinux" "$WORK/d.elf"; then
	if $ORACLE <"$WORK/shapes.specs" >"$WORK/shapes.c" 2>"$WORK/stderr"; then
		same dwarf-types-shapes-compiler "$WORK/shapes.dwarf" "$WORK/shapes.c"
	else
		fail dwarf-types-shapes-compiler "$(tail -n 5 "$WORK/stderr")"
	fi
fi

# A variable's type, which the kernel's BTF does not know: DWARF does.
if types dwarf-variable "$WORK/var" init_task,__per_cpu_offset -x "$WORK/a.vmlinux" "$WORK/a.elf" &&
	grep -qx "init_task size=$(awk '$1 == "btf_type" && $2 == "task_struct" { print $3 }' "$WORK/a.facts")" \
		"$WORK/var" && grep -qx "__per_cpu_offset size=512" "$WORK/var"; then
	pass dwarf-variable
else
	fail dwarf-variable "$(cat "$WORK/var")"
fi

# ---- Which kernel: build ID, else release; upstream's status 2 ----

gen --seed 2 --vmlinux "$WORK/other.vmlinux" "$WORK/other.elf"
expect_status vmlinux-other-build 2 "other.vmlinux and the dump don't match: its build ID is [0-9a-f]{40}, the dump's \(VMCOREINFO's BUILD-ID\) is [0-9a-f]{40}" \
	"$MDF" --dump-type page -x "$WORK/other.vmlinux" "$WORK/d.elf"
expect_status vmlinux-other-build-dump 2 "don't match" \
	"$MDF" -l -d 31 -x "$WORK/other.vmlinux" "$WORK/d.elf" "$WORK/never.kdump"
if [ -e "$WORK/never.kdump" ]; then
	fail vmlinux-other-build-no-output "a dump file was written"
else
	pass vmlinux-other-build-no-output
fi
gen --no-build-id --vmcoreinfo-drop 'OFFSET(uts_namespace' --osrelease 6.1.0-one --vmlinux "$WORK/one.vmlinux" "$WORK/one.elf"
gen --no-build-id --vmcoreinfo-drop 'OFFSET(uts_namespace' --osrelease 6.1.0-two --vmlinux "$WORK/two.vmlinux" "$WORK/two.elf"
expect_status vmlinux-other-release 2 "two.vmlinux and the dump don't match: it is release 6.1.0-two, the dump's \(VMCOREINFO's OSRELEASE\) is 6.1.0-one" \
	"$MDF" --dump-type page -x "$WORK/two.vmlinux" "$WORK/one.elf"
check vmlinux-same-release "$MDF" --dump-type page -x "$WORK/one.vmlinux" "$WORK/one.elf"

expect_failure vmlinux-missing "cannot open the kernel file .*/nope: No such file" \
	"$MDF" --dump-type page -x "$WORK/nope" "$WORK/d.elf"
printf 'not an ELF file\n' >"$WORK/text"
expect_failure vmlinux-not-elf "text is not an ELF file" "$MDF" --dump-type page -x "$WORK/text" "$WORK/d.elf"
expect_failure vmlinux-core-file "d.elf is not a 64-bit vmlinux \(an ELF core file" \
	"$MDF" --dump-type page -x "$WORK/d.elf" "$WORK/d.elf"
if objcopy --strip-debug "$WORK/d.vmlinux" "$WORK/nodebug.vmlinux" 2>"$WORK/stderr"; then
	expect_failure vmlinux-no-dwarf "nodebug.vmlinux has no DWARF" \
		"$MDF" --dump-type page -x "$WORK/nodebug.vmlinux" "$WORK/d.elf"
else
	skip vmlinux-no-dwarf "objcopy cannot strip the sample vmlinux: $(head -c 200 "$WORK/stderr")"
fi
if objcopy --strip-all "$WORK/d.vmlinux" "$WORK/stripped.vmlinux" 2>"$WORK/stderr"; then
	expect_failure vmlinux-stripped "stripped.vmlinux has no symbol table" \
		"$MDF" --dump-type page -x "$WORK/stripped.vmlinux" "$WORK/d.elf"
else
	skip vmlinux-stripped "objcopy cannot strip the sample vmlinux: $(head -c 200 "$WORK/stderr")"
fi
head -c 50000 "$WORK/d.vmlinux" >"$WORK/truncated.vmlinux"
expect_failure vmlinux-truncated "truncated.vmlinux has no section headers: a truncated or damaged file" \
	"$MDF" --dump-type page -x "$WORK/truncated.vmlinux" "$WORK/d.elf"
# .debug_info overwritten past its first unit's header: libdw finds no unit.
$PYTHON - "$WORK/d.vmlinux" "$WORK/junk.vmlinux" <<'EOF'
import subprocess, sys
data = bytearray(open(sys.argv[1], "rb").read())
for line in subprocess.run(["readelf", "-S", "-W", sys.argv[1]], capture_output=True, text=True).stdout.splitlines():
    if "] .debug_info " in line:
        fields = line.split("]")[1].split()
        offset, size = int(fields[3], 16), int(fields[4], 16)
        data[offset + 12:offset + size] = b"\xff" * (size - 12)
open(sys.argv[2], "wb").write(data)
EOF
expect_failure vmlinux-damaged-dwarf "junk.vmlinux: its DWARF describes no type and no variable" \
	"$MDF" --dump-type page -x "$WORK/junk.vmlinux" "$WORK/d.elf"
expect_failure vmlinux-with-i "Commandline parameter is invalid" \
	"$MDF" -l -d 31 -x "$WORK/d.vmlinux" -i "$WORK/d.vi" "$WORK/d.elf" "$WORK/never.kdump"
expect_failure vmlinux-g-without-x "Commandline parameter is invalid" "$MDF" -g "$WORK/never.vi"
expect_failure vmlinux-g-with-dump "Commandline parameter is invalid" \
	"$MDF" -g "$WORK/never.vi" -x "$WORK/d.vmlinux" "$WORK/d.elf"

# ---- -g: upstream's file, and the kernel's own values ----

for v in a d; do
	if ! "$MDF" -g "$WORK/$v.g" -x "$WORK/$v.vmlinux" >"$WORK/g.out" 2>&1 ||
		! grep -q "The vmcoreinfo is saved to $WORK/$v.g" "$WORK/g.out"; then
		fail "vmlinux-g-$v" "$(tail -n 3 "$WORK/g.out")"
		continue
	fi
	if [ -x "$UPSTREAM" ]; then
		"$UPSTREAM" -g "$WORK/$v.upstream.g" -x "$WORK/$v.vmlinux" >/dev/null 2>&1
		if grep -q '^LENGTH(zone.free_area)=' "$WORK/$v.upstream.g"; then
			same "vmlinux-g-$v-upstream" "$WORK/$v.g" "$WORK/$v.upstream.g"
		else
			# Upstream reads an array's DW_AT_upper_bound alone: clang's
			# DW_AT_count leaves it without LENGTH() lines, which we write.
			same "vmlinux-g-$v-upstream" <(grep -v '^LENGTH(' "$WORK/$v.g") \
				<(grep -v '^LENGTH(' "$WORK/$v.upstream.g")
		fi
	else
		skip "vmlinux-g-$v-upstream" "no $UPSTREAM"
	fi
done
# Each typed line -g writes is the kernel's own (VMCOREINFO's) where it has
# the line; its symbols are VMCOREINFO's less KERNELOFFSET (mem_section's
# line is the pointer's value there).
if result=$($PYTHON - "$WORK/d.vi" "$WORK/d.g" <<'EOF'
import sys
vi = dict(l.rstrip("\n").split("=", 1) for l in open(sys.argv[1]) if "=" in l)
offset = int(vi.get("KERNELOFFSET", "0"), 16)
compared, wrong = 0, []
for line in open(sys.argv[2]):
    key, value = line.rstrip("\n").split("=", 1)
    if key not in vi or key in ("SYMBOL(mem_section)", "LENGTH(node_data)") or key.startswith("SRCFILE"):
        continue
    compared += 1
    if key.startswith("SYMBOL(") and int(vi[key], 16) - offset != int(value, 16) or \
            not key.startswith("SYMBOL(") and vi[key] != value:
        wrong.append(f"{line.strip()}, VMCOREINFO: {vi[key]}")
print(f"{compared} lines compared" + "".join("; " + w for w in wrong[:3]))
sys.exit(1 if wrong or compared < 40 else 0)
EOF
); then
	pass vmlinux-g-vmcoreinfo
else
	fail vmlinux-g-vmcoreinfo "$result"
fi

# ---- A VMCOREINFO without the lines DWARF and the vmlinux can give ----

drops=()
for prefix in 'OFFSET(' 'SIZE(' 'LENGTH(zone' 'LENGTH(free_area' 'NUMBER(PG_' 'NUMBER(NR_FREE' \
	'NUMBER(HUGETLB' 'SYMBOL(kallsyms' 'SYMBOL(mem_section' 'SYMBOL(prb' 'SYMBOL(clear_seq' \
	'SYMBOL(vmap_area_list' 'SYMBOL(node_online' 'SYMBOL(init_uts_ns'; do
	drops+=(--vmcoreinfo-drop "$prefix")
done
gen "${drops[@]}" --vmcoreinfo-out "$WORK/gap.vi" --vmlinux "$WORK/gap.vmlinux" "$WORK/gap.elf"
expect_failure vmlinux-gap-without-x "VMCOREINFO has no SIZE\(page\)" \
	"$MDF" -f -l -d 31 "$WORK/gap.elf" "$WORK/gap.nox.kdump"
if "$MDF" -f -l -d 31 --message-level 31 "$WORK/d.elf" "$WORK/full.kdump" >"$WORK/full.log" 2>&1 &&
	"$MDF" -f -l -d 31 --message-level 31 -x "$WORK/gap.vmlinux" "$WORK/gap.elf" "$WORK/gap.kdump" \
		>"$WORK/gap.log" 2>&1; then
	if grep -qx "OFFSET(page.flags) from DWARF: 0" "$WORK/gap.log" &&
		grep -qx "LENGTH(zone.free_area) from DWARF: 11" "$WORK/gap.log" &&
		grep -Eq "^SYMBOL\(mem_section\) from the vmlinux, the pointer at " "$WORK/gap.log"; then
		pass vmlinux-gap-sources
	else
		fail vmlinux-gap-sources "no debug line for OFFSET(page.flags) or LENGTH(zone.free_area) from DWARF, or SYMBOL(mem_section) from the vmlinux"
	fi
	report() { grep -iE '^ *(excluded|pages|original|remaining)' "$1"; }
	same vmlinux-gap-report <(report "$WORK/gap.log") <(report "$WORK/full.log")
	same vmlinux-gap-pages <($KDUMPSET pfns "$WORK/gap.kdump") <($KDUMPSET pfns "$WORK/full.kdump")
else
	fail vmlinux-gap-dump "$(grep makedumpfile: "$WORK/gap.log" "$WORK/full.log" | head -c 400)"
fi
if "$MDF" --dump-dmesg -x "$WORK/gap.vmlinux" "$WORK/gap.elf" "$WORK/gap.dmesg" >"$WORK/stderr" 2>&1; then
	same vmlinux-gap-dmesg "$WORK/gap.dmesg" <(sed -n 's/^dmesg //p' "$WORK/d.facts")
else
	fail vmlinux-gap-dmesg "$(tail -n 3 "$WORK/stderr")"
fi
if [ -x "$UPSTREAM" ]; then
	"$UPSTREAM" -f -l -d 31 "$WORK/d.elf" "$WORK/full.upstream.kdump" >/dev/null 2>&1
	"$UPSTREAM" -f -l -d 31 -x "$WORK/gap.vmlinux" "$WORK/gap.elf" "$WORK/gap.upstream.kdump" >/dev/null 2>&1
	same vmlinux-gap-upstream <($KDUMPSET pfns "$WORK/gap.upstream.kdump") \
		<($KDUMPSET pfns "$WORK/full.upstream.kdump")
else
	skip vmlinux-gap-upstream "no $UPSTREAM"
fi

# ---- Extensions and --config read DWARF as they read BTF ----

if [ -s "$EXT/amdgpu_filter.so" ] && [ -s "$EXT/drm_shmem_filter.so" ] && [ -s "$EXT/user_stack_keep.so" ]; then
	gpu=$(extension_dir gpu "$EXT" amdgpu_filter drm_shmem_filter user_stack_keep)
	if "$MDF" -f -l -d 31 --extension-dir "$gpu" "$WORK/a.elf" "$WORK/ext.btf" >"$WORK/ext.btf.log" 2>&1 &&
		"$MDF" -f -l -d 31 --extension-dir "$gpu" -x "$WORK/a.vmlinux" "$WORK/a.elf" "$WORK/ext.dwarf" \
			>"$WORK/ext.dwarf.log" 2>&1 && grep -q "discarding 64 pages" "$WORK/ext.dwarf.log"; then
		same vmlinux-extensions "$WORK/ext.dwarf" "$WORK/ext.btf"
	else
		fail vmlinux-extensions "$(grep -h 'makedumpfile:\|filter' "$WORK"/ext.*.log | head -c 400)"
	fi
	# Without kallsyms (VMCOREINFO does not locate them): the vmlinux's symbols serve.
	gen --amdgpu --vmcoreinfo-drop 'SYMBOL(kallsyms' --vmlinux "$WORK/nks.vmlinux" "$WORK/nks.elf"
	if "$MDF" -f -l -d 31 --extension-dir "$gpu" -x "$WORK/nks.vmlinux" "$WORK/nks.elf" "$WORK/ext.nks" \
		>"$WORK/ext.nks.log" 2>&1 && grep -q "discarding 64 pages" "$WORK/ext.nks.log"; then
		same vmlinux-extensions-no-kallsyms <($KDUMPSET pfns "$WORK/ext.nks") <($KDUMPSET pfns "$WORK/ext.btf")
	else
		fail vmlinux-extensions-no-kallsyms "$(grep -h 'makedumpfile:\|filter' "$WORK/ext.nks.log" | head -c 400)"
	fi
else
	skip vmlinux-extensions "the extensions of extensions/ are not built"
fi
cat >"$WORK/erase.conf" <<'EOF'
erase init_task.comm
for t in init_task.tasks within task_struct:tasks
	erase t.comm
endfor
EOF
if "$MDF" -f -l -d 31 --no-extensions --config "$WORK/erase.conf" "$WORK/a.elf" "$WORK/erase.btf" \
	>"$WORK/erase.btf.log" 2>&1 &&
	"$MDF" -f -l -d 31 --no-extensions --config "$WORK/erase.conf" -x "$WORK/a.vmlinux" "$WORK/a.elf" \
		"$WORK/erase.dwarf" >"$WORK/erase.dwarf.log" 2>&1; then
	same vmlinux-config "$WORK/erase.dwarf" "$WORK/erase.btf"
	# BTF has no type for init_task: it is guessed.  DWARF has.
	if grep -q "init_task taken to be struct task_struct" "$WORK/erase.btf.log" &&
		! grep -q "taken to be" "$WORK/erase.dwarf.log"; then
		pass vmlinux-config-variable-type
	else
		fail vmlinux-config-variable-type "$(grep -h 'taken to be' "$WORK"/erase.*.log | head -n 2)"
	fi
else
	fail vmlinux-config "$(grep -h 'makedumpfile:' "$WORK"/erase.*.log | head -c 400)"
fi

# ---- Debian 6.1's own debug vmlinux, when installed ----

DEBUG_VMLINUX=
for candidate in /usr/lib/debug/boot/vmlinux-6.1.0-57-amd64 /usr/lib/debug/lib/modules/6.1.0-57-amd64/vmlinux; do
	[ -s "$candidate" ] && DEBUG_VMLINUX=$candidate && break
done
if [ -z "$DEBUG_VMLINUX" ]; then
	skip vmlinux-debian-6.1 "no /usr/lib/debug/boot/vmlinux-6.1.0-57-amd64 (linux-image-6.1.0-57-amd64-dbg)"
elif ! dump=$(fixture 6.1-kdump.elf); then
	skip vmlinux-debian-6.1 "no $VMCORES/6.1-kdump/vmcore.elf.zst"
else
	vi=$VMCORES/6.1-kdump/vmcoreinfo.txt
	specs=$(grep -E '^(OFFSET|SIZE)\(' "$vi" | sed -E 's/^[A-Z]+\(([^)]*)\)=.*/\1/' | paste -sd, -)
	specs+=,page.mapping,page.lru,task_struct.se.load.weight,task_struct.sched_reset_on_fork,PG_lru
	specs+=,pageflags.PG_swapcache,amdgpu:ttm_tt.pages,ttm:ttm_buffer_object.ttm
	if types vmlinux-debian-6.1-types "$WORK/deb.btf" "$specs" "$dump" &&
		types vmlinux-debian-6.1-types "$WORK/deb.dwarf" "$specs" -x "$DEBUG_VMLINUX" "$dump"; then
		same vmlinux-debian-6.1-types "$WORK/deb.dwarf" "$WORK/deb.btf"
	fi
	"$MDF" -g "$WORK/deb.g" -x "$DEBUG_VMLINUX" >/dev/null 2>&1
	if [ -x "$UPSTREAM" ]; then
		"$UPSTREAM" -g "$WORK/deb.upstream.g" -x "$DEBUG_VMLINUX" >/dev/null 2>&1
		same vmlinux-debian-6.1-g-upstream "$WORK/deb.g" "$WORK/deb.upstream.g"
	fi
	if other=$(fixture 7.2-qemu.elf); then
		expect_status vmlinux-debian-6.1-other-kernel 2 "don't match" \
			"$MDF" --dump-type page -x "$DEBUG_VMLINUX" "$other"
	fi
fi
