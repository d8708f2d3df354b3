#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad input gets one precise message, exit status 1, no crash, no hang and
# no output file.  Each case damages one thing of a real dump.
. "$(dirname "$0")/../lib.sh" || exit 2

CORRUPT="$PYTHON $PROJECT/tests/py/corrupt.py"

# expect_rejected NAME PATTERN ARGS...: --dump-kallsyms must fail and leave
# no output file behind.
expect_rejected() {
	local name=$1 pattern=$2
	shift 2
	rm -f "$WORK/out.txt"
	expect_failure "$name" "$pattern" "$MDF" --dump-kallsyms "$@" "$WORK/out.txt"
	if [ -e "$WORK/out.txt" ]; then
		fail "$name-no-output" "left $WORK/out.txt behind"
	fi
}

head -c 5000 /etc/services >"$WORK/text"
expect_rejected bad-not-a-dump "not a crash dump" "$WORK/text"
: >"$WORK/empty"
expect_rejected bad-empty-file "not a crash dump" "$WORK/empty"
expect_rejected bad-missing-file "cannot open" "$WORK/does-not-exist"

dump=$(fixture 6.1-kdump.elf) || {
	skip bad-real-dump-cases "no $VMCORES/6.1-kdump/vmcore.elf.zst"
	exit 0
}
vi=$VMCORES/6.1-kdump/vmcoreinfo.txt

head -c 40 "$dump" >"$WORK/short"
expect_rejected bad-truncated-elf-header "cannot read the ELF header" "$WORK/short"
# Cut before the note (at 0x1000): the message names where the file ends, not where the note starts.
head -c 2048 "$dump" >"$WORK/before-note"
expect_rejected bad-cut-before-note "file ends at 0x800, before PT_NOTE \(0x[0-9a-f]+ bytes at 0x1000\)" \
	"$WORK/before-note"
$CORRUPT "$dump" "$WORK/cut" --sparse-after 65536 --truncate $((64 << 20))
expect_rejected bad-truncated-dump "PT_LOAD 3 \(paddr 0x100000\) .*file ends at 0x4000000: truncated dump" "$WORK/cut"
$CORRUPT "$dump" "$WORK/wild" --sparse-after 65536 --phdr 1:offset:0x7fffffff00000000
expect_rejected bad-pt-load-beyond-eof "PT_LOAD 1 .*needs file bytes 0x7fffffff00000000" "$WORK/wild"
$CORRUPT "$dump" "$WORK/fsz" --sparse-after 65536 --phdr 3:filesz:0x7fffffffffff
expect_rejected bad-filesz-above-memsz "PT_LOAD 3 has p_filesz 0x7fffffffffff above p_memsz" "$WORK/fsz"
$CORRUPT "$dump" "$WORK/noload" --sparse-after 65536 --phdr 1:type:6 --phdr 2:type:6 \
	--phdr 3:type:6 --phdr 4:type:6
expect_rejected bad-no-pt-load "no PT_LOAD segment" "$WORK/noload"
$CORRUPT "$dump" "$WORK/novi" --sparse-after 65536 --note-name VMCOREINFO:VMCOREJUNK
expect_rejected bad-no-vmcoreinfo "no VMCOREINFO note; give one with -i VMCOREINFO: nor does one start any of the [0-9]+ pages of memory it holds" "$WORK/novi"
$CORRUPT "$dump" "$WORK/notesz" --sparse-after 65536 --phdr 0:filesz:0x7fffffffff
expect_rejected bad-note-size "PT_NOTE at offset 0x[0-9a-f]+ claims 0x7fffffffff bytes" "$WORK/notesz"
rm -f "$WORK"/{cut,wild,fsz,noload,novi,notesz}

# Damaged VMCOREINFO, given with -i, on the real dump.
edit_vi() { sed -E "$1" "$vi" >"$WORK/vmcoreinfo"; }
sym() { grep "^SYMBOL($1)=" "$vi" | cut -d= -f2; }

# A malformed line (one without '=', one with a NUL byte) is skipped with a
# warning naming it; the rest of VMCOREINFO serves, and the listing is the
# one the dump's own VMCOREINFO gives.
{ head -n 3 "$vi"; echo 'not a key value line'; printf 'KEY\0=damaged\n'; tail -n +4 "$vi"; } >"$WORK/vmcoreinfo"
"$MDF" --dump-kallsyms "$dump" >"$WORK/kallsyms.own" 2>/dev/null
if "$MDF" --dump-kallsyms -i "$WORK/vmcoreinfo" "$dump" >"$WORK/kallsyms.damaged" 2>"$WORK/damaged.err" &&
	grep -q "VMCOREINFO line 4 is not KEY=VALUE, skipped" "$WORK/damaged.err" &&
	grep -q "VMCOREINFO line 5 holds a NUL byte: skipped" "$WORK/damaged.err" &&
	[ -s "$WORK/kallsyms.own" ] && cmp -s "$WORK/kallsyms.own" "$WORK/kallsyms.damaged"; then
	pass bad-vmcoreinfo-line-skipped
else
	fail bad-vmcoreinfo-line-skipped "$(head -c 400 "$WORK/damaged.err")"
fi
rm -f "$WORK/kallsyms.own" "$WORK/kallsyms.damaged"
edit_vi '/^SYMBOL\(kallsyms_token_table\)/d'
expect_rejected bad-missing-kallsyms-line "no SYMBOL\(kallsyms_token_table\)" -i "$WORK/vmcoreinfo" "$dump"
edit_vi '/^SYMBOL\(kallsyms_(offsets|relative_base)\)/d'
expect_rejected bad-missing-kallsyms-addresses "neither SYMBOL\(kallsyms_offsets\) nor SYMBOL\(kallsyms_addresses\)" \
	-i "$WORK/vmcoreinfo" "$dump"
edit_vi "s/^SYMBOL\(kallsyms_num_syms\)=.*/SYMBOL(kallsyms_num_syms)=$(sym init_uts_ns)/"
expect_rejected bad-kallsyms-count "kallsyms_num_syms at 0x$(sym init_uts_ns) is [0-9]+, outside 1\.\.4000000" \
	-i "$WORK/vmcoreinfo" "$dump"
edit_vi "s/^SYMBOL\(kallsyms_names\)=.*/SYMBOL(kallsyms_names)=$(sym kallsyms_offsets)/"
expect_rejected bad-kallsyms-names "kallsyms_names entry [0-9]+ at 0x[0-9a-f]+ (has length|decodes to)" \
	-i "$WORK/vmcoreinfo" "$dump"
edit_vi "s/^SYMBOL\(kallsyms_token_index\)=.*/SYMBOL(kallsyms_token_index)=$(sym kallsyms_offsets)/"
expect_rejected bad-kallsyms-tokens "kallsyms_names entry [0-9]+ .* decodes to more than 511 characters|kallsyms_token_table .* not terminated" \
	-i "$WORK/vmcoreinfo" "$dump"
edit_vi "s/^SYMBOL\(kallsyms_offsets\)=.*/SYMBOL(kallsyms_offsets)=$(sym kallsyms_names)/"
expect_rejected bad-kallsyms-offsets "no kallsyms address encoding puts _stext at SYMBOL\(_stext\)=$(sym _stext)" \
	-i "$WORK/vmcoreinfo" "$dump"
edit_vi "s/^SYMBOL\(kallsyms_names\)=.*/SYMBOL(kallsyms_names)=ffffc90000000000/"
expect_rejected bad-kallsyms-unmapped "cannot read kallsyms_names at 0xffffc90000000000: virtual address not mapped" \
	-i "$WORK/vmcoreinfo" "$dump"
edit_vi 's/^NUMBER\(phys_base\)=.*/NUMBER(phys_base)=0/'
expect_rejected bad-phys-base "cannot read kallsyms_num_syms .*: address not in the dump's memory" \
	-i "$WORK/vmcoreinfo" "$dump"
edit_vi '/^SYMBOL\(init_top_pgt\)/d'
expect_rejected bad-no-page-table-root "no SYMBOL\(init_top_pgt\)" -i "$WORK/vmcoreinfo" "$dump"
edit_vi 's/^PAGESIZE=.*/PAGESIZE=16384/'
expect_rejected bad-page-size "PAGESIZE=16384 but the dump's pages are 4096 bytes" -i "$WORK/vmcoreinfo" "$dump"
