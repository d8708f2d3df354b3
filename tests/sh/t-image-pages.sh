#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel's own pages, whatever their struct pages say (scan/owned_pages.h):
# upstream makedumpfile's issue #21, where -d 31 dropped the page of
# idt_table (.bss) as page cache because its struct page carried PG_lru, and
# crash could not open the dump.
#  - Generated dumps whose image pages (text, rodata, data, bss) and reserved
#    pages carry PG_lru, with and without a mapping, with and without
#    PG_reserved: every level keeps them (the facts), -d 31 says so in one
#    line naming the first page's symbol (the generator's kallsyms), upstream
#    1.7.2 drops them, and freed init and gap pages flagged so are dropped
#    by both; an extension's discard still takes one.
#  - Bad input (_end before _text in kallsyms, the image's last page out of
#    the file): one line says so, the dump is written, and the image's
#    pages go by their flags as upstream's do.
#  - 6.1-kdump with image pages marked PG_lru in a copy: ours keeps every
#    page it keeps of the dump unmarked (upstream 1.7.2's output for it),
#    upstream's head drops the marked ones.
#  - ppc64el and riscv64 put init before data, s390x between data and bss:
#    the image's pages are the guest kallsyms' sections, quietly.
#  - arm64 Debian kernels list no data symbols: the rule goes without the
#    image, said only at the debug level.
. "$(dirname "$0")/../lib.sh" || exit 2

GEN=$TOOLS/mkvmcore
PAGES="$PYTHON $PROJECT/tests/py/imagepages.py"
CHECK="$PYTHON $PROJECT/tests/py/gencheck.py $TOOLS/dumpread"
UPSTREAM=$(command -v makedumpfile)
HEAD=$SHARED/oracles/upstream-head/makedumpfile

# expect_line NAME TEXT FILE: FILE has the line TEXT, exactly, once.
expect_line() {
	local n
	n=$(grep -cxF -- "$2" "$3")
	if [ "$n" = 1 ]; then
		pass "$1"
	else
		fail "$1" "want once: $2; got: $(grep -i 'warning' "$3" | head -n 3)"
	fi
}

# flagged FACTS REGEX: the pfns of the facts' page runs whose category
# matches REGEX, comma separated (the *_lru ones: pages the kernel owns,
# flagged PG_lru).
flagged() {
	local kind first count category mask i out=
	while read -r kind first count category mask; do
		[ "$kind" = pages ] && [[ $category =~ $2 ]] || continue
		for ((i = 0; i < count; i++)); do out+="${out:+,}$(printf '0x%x' $((first + i)))"; done
	done <"$1"
	echo "$out"
}

# fact FACTS KEY: a key=value fact.
fact() {
	sed -n "s/^$2=//p" "$1"
}

# ksym KALLSYMS NAME: a symbol's address in the generator's listing.
ksym() {
	awk -v n="$2" '$3 == n { print "0x" $1; exit }' "$1"
}

spec=$WORK/lru.spec
cat >"$spec" <<'EOF'
cache 0x2020 32
anon 0x2070 48
free 0x2100 8
lru _text+3 1 none unreserved
lru __start_rodata+2 1 anon
lru _sdata+1 1 file unreserved
lru __bss_start 1
lru 0x50 2 file
lru __init_begin 2 file
lru _etext+1 1 file
EOF

if [ ! -x "$GEN" ]; then
	skip image-pages-gen "no $GEN"
elif ! "$GEN" --sparse --pages "$spec" --facts "$WORK/g.facts" --kallsyms-out "$WORK/g.ksyms" \
	"$WORK/g.elf" >"$WORK/gen.log" 2>&1; then
	fail image-pages-gen "mkvmcore failed: $(tail -n 2 "$WORK/gen.log")"
else
	# The generator made what the spec says: four image pages and two
	# low-memory pages flagged, the freed ones made page cache.
	phys=$(fact "$WORK/g.facts" kernel_phys)
	text=$(fact "$WORK/g.facts" text_vaddr)
	init=$(printf '0x%x' $(((phys + $(ksym "$WORK/g.ksyms" __init_begin) - text) / 4096)))
	gap=$(printf '0x%x' $(((phys + $(ksym "$WORK/g.ksyms" _etext) - text) / 4096 + 1)))
	own=$(flagged "$WORK/g.facts" '_lru')
	if [ "$(tr ',' '\n' <<<"$own" | wc -l)" = 6 ] && grep -qx "pages $init 2 cache 0x6" "$WORK/g.facts" &&
		grep -qx "pages $gap 1 cache 0x6" "$WORK/g.facts"; then
		pass image-pages-gen-spec
	else
		fail image-pages-gen-spec "owned pfns $own; init $init, gap $gap: $(grep -E ' (cache|.*_lru) ' "$WORK/g.facts")"
	fi
	for level in 0 1 2 4 8 16 31; do
		check "image-pages-gen-d$level" $CHECK "$WORK/g.elf" "$WORK/g.facts" scan "$level"
	done
	"$MDF" -f -l -d 31 "$WORK/g.elf" "$WORK/g.kdump" >"$WORK/g.out" 2>&1 ||
		fail image-pages-gen-dump "makedumpfile failed: $(tail -n 3 "$WORK/g.out")"
	expect_line image-pages-gen-warning "makedumpfile: warning: 4 kernel image pages and 2 reserved pages flagged as page cache or user data were kept (first: pfn 0x50)" "$WORK/g.out"
	if [ -n "$UPSTREAM" ]; then
		# Upstream trusts the flags: it drops the six, and the freed init
		# and gap pages, which ours drops too.
		makedumpfile -f -l -d 31 --message-level 0 "$WORK/g.elf" "$WORK/g.up.kdump" &&
			check image-pages-gen-vs-upstream $PAGES sets "$WORK/g.kdump" "$WORK/g.up.kdump" "$own" ||
			fail image-pages-gen-vs-upstream "upstream makedumpfile failed"
		check image-pages-gen-freed-dropped $PAGES absent "$WORK/g.kdump" "$init" $((init + 1)) "$gap"
	else
		skip image-pages-gen-vs-upstream "upstream makedumpfile is not installed"
	fi

	# An extension's discard is its choice: the bss page goes, and is not counted.
	if [ -s "$TOOLS/extensions/discard_range.so" ]; then
		ranged=$(extension_dir ranged "$TOOLS/extensions" discard_range)
		bss=$(printf '0x%x' $(((phys + $(ksym "$WORK/g.ksyms" __bss_start) - text) / 4096)))
		"$MDF" -f -l -d 31 --extension-dir "$ranged" --extension-arg discard_range:first=$bss \
			--extension-arg discard_range:count=1 "$WORK/g.elf" "$WORK/g.ext.kdump" >"$WORK/g.ext.out" 2>&1 ||
			fail image-pages-gen-extension "makedumpfile failed: $(tail -n 3 "$WORK/g.ext.out")"
		check image-pages-gen-extension-discards $PAGES absent "$WORK/g.ext.kdump" "$bss"
		expect_line image-pages-gen-extension-warning "makedumpfile: warning: 3 kernel image pages and 2 reserved pages flagged as page cache or user data were kept (first: pfn 0x50)" "$WORK/g.ext.out"
	else
		skip image-pages-gen-extension "no discard_range.so (make tests)"
	fi

	# Bad input: _end before _text (kallsyms_addresses, in table order).
	# Only the pages whose flags contradict each other are kept then.
	reserved=$(flagged "$WORK/g.facts" '^reserved_lru')
	if "$GEN" --sparse --kallsyms absolute --pages "$spec" --facts "$WORK/a.facts" --kallsyms-out "$WORK/a.ksyms" \
		"$WORK/a.elf" >"$WORK/gen.log" 2>&1; then
		index=$(grep -n ' _end$' "$WORK/a.ksyms" | cut -d: -f1)
		table=$(ksym "$WORK/a.ksyms" kallsyms_addresses)
		text=$(fact "$WORK/a.facts" text_vaddr)
		value=$($PYTHON -c "import struct; print(struct.pack('<Q', $text - 4096).hex())")
		$PYTHON "$PROJECT/tests/py/corrupt.py" "$WORK/a.elf" "$WORK/bad-end.elf" \
			--phys "$((table - text + $(fact "$WORK/a.facts" kernel_phys) + 8 * (index - 1))):$value"
		expect_warning image-pages-bad-end "the kernel image's pages are not known \(_text=[0-9a-f]+ and _end=[0-9a-f]+ do not bound a kernel image at __START_KERNEL_map\): they are classified by their flags alone" \
			"$MDF" -f -l -d 31 "$WORK/bad-end.elf" "$WORK/bad.kdump"
		[ "$(grep -c warning "$WORK/stderr")" = 2 ] || fail image-pages-bad-end-lines "$(cat "$WORK/stderr")"
		if [ -n "$UPSTREAM" ]; then
			makedumpfile -f -l -d 31 --message-level 0 "$WORK/bad-end.elf" "$WORK/bad.up.kdump" &&
				check image-pages-bad-end-as-upstream $PAGES sets "$WORK/bad.kdump" "$WORK/bad.up.kdump" "$reserved" ||
				fail image-pages-bad-end-as-upstream "upstream makedumpfile failed"
		fi
	else
		fail image-pages-bad-end "mkvmcore failed: $(tail -n 2 "$WORK/gen.log")"
	fi

	# Bad input: the image's last page is not in the file.  The image ends
	# where RAM does, so that the file loses nothing else.
	if "$GEN" --sparse --ram 0x3e18000 --kernel-phys 0x3800000 --pages "$spec" --facts "$WORK/t.facts" \
		"$WORK/t.elf" >"$WORK/gen.log" 2>&1; then
		end=$(($(fact "$WORK/t.facts" kernel_phys) + $(fact "$WORK/t.facts" image_end) - $(fact "$WORK/t.facts" text_vaddr)))
		last=$(readelf -lW "$WORK/t.elf" | awk '$1 == "LOAD" { n++ } END { print n }')
		filesz=$(readelf -lW "$WORK/t.elf" | awk '$1 == "LOAD" { s = $5 } END { print s }')
		text_filesz=$(readelf -lW "$WORK/t.elf" | awk '$1 == "LOAD" { print $5; exit }')
		$PYTHON "$PROJECT/tests/py/corrupt.py" "$WORK/t.elf" "$WORK/short.elf" \
			--phdr "$last:filesz:$((filesz - 4096))" --phdr "1:filesz:$((text_filesz - 4096))"
		expect_warning image-pages-not-in-dump "the kernel image's page at pfn $(printf '0x%x' $((end / 4096 - 1))) \(physical 0x[0-9a-f]+\) is not in the dump: its pages are classified by their flags alone" \
			"$MDF" -f -l -d 31 "$WORK/short.elf" "$WORK/short.kdump"
		if [ -n "$UPSTREAM" ]; then
			short_reserved=$(flagged "$WORK/t.facts" '^reserved_lru')
			makedumpfile -f -l -d 31 --message-level 0 "$WORK/short.elf" "$WORK/short.up.kdump" &&
				check image-pages-not-in-dump-as-upstream $PAGES sets "$WORK/short.kdump" "$WORK/short.up.kdump" "$short_reserved" ||
				fail image-pages-not-in-dump-as-upstream "upstream makedumpfile failed"
		fi
	else
		fail image-pages-not-in-dump "mkvmcore failed: $(tail -n 2 "$WORK/gen.log")"
	fi

	# Image pages alone: the warning names the first one's symbol.
	printf 'lru _text+3 1\nlru __bss_start 1 file\n' >"$WORK/image.spec"
	if "$GEN" --sparse --pages "$WORK/image.spec" --facts "$WORK/i.facts" --kallsyms-out "$WORK/i.ksyms" \
		"$WORK/i.elf" >"$WORK/gen.log" 2>&1; then
		first=$(printf '0x%x' $(($(fact "$WORK/i.facts" kernel_phys) / 4096 + 3)))
		symbol=$($PAGES symbol "$WORK/i.ksyms" "$(printf '0x%x' $(($(fact "$WORK/i.facts" text_vaddr) + 3 * 4096)))")
		"$MDF" -f -l -d 31 "$WORK/i.elf" "$WORK/i.kdump" >"$WORK/i.out" 2>&1
		expect_line image-pages-gen-symbol "makedumpfile: warning: 2 kernel image pages flagged as page cache were kept (first: pfn $first, $symbol)" "$WORK/i.out"
	else
		fail image-pages-gen-symbol "mkvmcore failed: $(tail -n 2 "$WORK/gen.log")"
	fi
	# Sane flags: nothing to say.
	if "$GEN" --sparse "$WORK/plain.elf" >"$WORK/gen.log" 2>&1 &&
		"$MDF" -f -l -d 31 "$WORK/plain.elf" "$WORK/plain.kdump" >"$WORK/plain.out" 2>&1 &&
		! grep -q warning "$WORK/plain.out"; then
		pass image-pages-gen-silent
	else
		fail image-pages-gen-silent "$(grep warning "$WORK/plain.out")"
	fi
	rm -f "$WORK"/*.elf "$WORK"/*.kdump
fi

# 6.1-kdump, marked as upstream's issue #21 measured it: a page of .bss
# (idt_table's), of .data and of .rodata carry PG_lru, nothing else changed.
guest=$VMCORES/6.1-kdump/guest
oracle=$FIXTURES/upstream/6.1-kdump.d31.kdump
if ! dump=$(fixture 6.1-kdump.elf); then
	skip image-pages-6.1-kdump "no $VMCORES/6.1-kdump"
elif [ ! -s "$oracle" ]; then
	skip image-pages-6.1-kdump "upstream makedumpfile's output is absent"
else
	cp --sparse=always "$dump" "$WORK/marked.elf"
	read -r bss _ < <($PAGES pfn "$guest/kallsyms.txt" "$guest/iomem.txt" idt_table)
	read -r data _ < <($PAGES pfn "$guest/kallsyms.txt" "$guest/iomem.txt" _sdata+0x100)
	read -r rodata rodata_vaddr < <($PAGES pfn "$guest/kallsyms.txt" "$guest/iomem.txt" __start_rodata+0x200)
	if $PAGES mark "$TOOLS/dumpread" "$WORK/marked.elf" "$bss" "$data" "$rodata" >"$WORK/mark.log" 2>&1; then
		"$MDF" -f -l -d 31 "$WORK/marked.elf" "$WORK/ours.kdump" >"$WORK/ours.out" 2>&1 ||
			fail image-pages-6.1-kdump "makedumpfile failed: $(tail -n 3 "$WORK/ours.out")"
		symbol=$($PAGES symbol "$guest/kallsyms.txt" "$rodata_vaddr")
		expect_line image-pages-6.1-kdump-warning "makedumpfile: warning: 3 kernel image pages flagged as page cache were kept (first: pfn $rodata, $symbol)" "$WORK/ours.out"
		check image-pages-6.1-kdump-keeps $PAGES sets "$WORK/ours.kdump" "$oracle"
		if [ -x "$HEAD" ]; then
			"$HEAD" -f -l -d 31 "$WORK/marked.elf" "$WORK/head.kdump" >"$WORK/head.out" 2>&1 &&
				check image-pages-6.1-kdump-head-drops $PAGES sets "$oracle" "$WORK/head.kdump" "$bss,$data,$rodata" ||
				fail image-pages-6.1-kdump-head-drops "upstream's head failed: $(tail -n 3 "$WORK/head.out")"
		else
			skip image-pages-6.1-kdump-head-drops "no $HEAD"
		fi

		# More of them: text, and mappings (a page-cache and an anonymous
		# page's, labprobe's markers), a reserved page outside the image,
		# and two pages the kernel freed (init, the text/rodata gap), which
		# go as they do upstream.
		read -r text text_vaddr < <($PAGES pfn "$guest/kallsyms.txt" "$guest/iomem.txt" _text+0x10)
		read -r data2 _ < <($PAGES pfn "$guest/kallsyms.txt" "$guest/iomem.txt" _sdata+0x101)
		read -r rodata2 _ < <($PAGES pfn "$guest/kallsyms.txt" "$guest/iomem.txt" __start_rodata+0x300)
		read -r init _ < <($PAGES pfn "$guest/kallsyms.txt" "$guest/iomem.txt" __init_begin+0x10)
		read -r gap _ < <($PAGES pfn "$guest/kallsyms.txt" "$guest/iomem.txt" _etext+1)
		cache_donor=$(awk '$1 == "pagecache" { print $2; exit }' "$VMCORES/6.1-kdump/marker-pfns.txt")
		anon_donor=$(awk '$1 == "anon" { print $2; exit }' "$VMCORES/6.1-kdump/marker-pfns.txt")
		# memblock's allocations at the top of RAM stay PG_reserved
		reserved=0x2e180
		if $PAGES mark "$TOOLS/dumpread" "$WORK/marked.elf" "$text" "$data2:file=$cache_donor" \
			"$rodata2:anon=$anon_donor" "$reserved:file=$cache_donor" "$init:file=$cache_donor" \
			"$gap:file=$cache_donor" >"$WORK/mark.log" 2>&1; then
			"$MDF" -f -l -d 31 "$WORK/marked.elf" "$WORK/ours.kdump" >"$WORK/ours.out" 2>&1
			symbol=$($PAGES symbol "$guest/kallsyms.txt" "$text_vaddr")
			expect_line image-pages-6.1-kdump-more-warning "makedumpfile: warning: 6 kernel image pages and 1 reserved page flagged as page cache or user data were kept (first: pfn $text, $symbol)" "$WORK/ours.out"
			check image-pages-6.1-kdump-freed-dropped $PAGES absent "$WORK/ours.kdump" "$init" "$gap"
			if [ -x "$HEAD" ]; then
				"$HEAD" -f -l -d 31 "$WORK/marked.elf" "$WORK/head.kdump" >"$WORK/head.out" 2>&1 &&
					check image-pages-6.1-kdump-more-vs-head $PAGES sets "$WORK/ours.kdump" "$WORK/head.kdump" \
						"$bss,$data,$rodata,$text,$data2,$rodata2,$reserved" ||
					fail image-pages-6.1-kdump-more-vs-head "upstream's head failed: $(tail -n 3 "$WORK/head.out")"
			fi
		else
			fail image-pages-6.1-kdump-more "marking failed: $(tail -n 3 "$WORK/mark.log")"
		fi
	else
		fail image-pages-6.1-kdump "marking failed: $(tail -n 3 "$WORK/mark.log")"
	fi
	rm -f "$WORK/marked.elf" "$WORK/ours.kdump" "$WORK/head.kdump"
fi

# arm64: Debian's kallsyms list text symbols only; the image's extent is
# not known, which is no fault of the dump: said at the debug level only.
if dump=$(fixture 6.1-arm64-kdump.elf); then
	"$MDF" -f -l -d 31 "$dump" "$WORK/arm64.kdump" >"$WORK/arm64.out" 2>&1
	"$MDF" -f -l -d 31 --message-level 31 "$dump" "$WORK/arm64.kdump" >"$WORK/arm64.debug" 2>&1
	if ! grep -q "kernel image" "$WORK/arm64.out" &&
		grep -q "kallsyms list no data symbols (no CONFIG_KALLSYMS_ALL): its image's sections are not known: the kernel image's pages are classified by their flags alone" "$WORK/arm64.debug"; then
		pass image-pages-arm64-quiet
	else
		fail image-pages-arm64-quiet "$(grep -i "kernel image's" "$WORK/arm64.out" "$WORK/arm64.debug")"
	fi
	rm -f "$WORK/arm64.kdump"
else
	skip image-pages-arm64-quiet "no $VMCORES/6.1-arm64-kdump"
fi

# ppc64el and riscv64 put init before their data, s390x after it: the
# extent is their sections as the guests' kallsyms bound them, quietly.
for name in 6.12-ppc64el-qemu 6.12-riscv64-qemu 6.12-s390x-qemu; do
	if ! dump=$(fixture $name.elf); then
		skip image-pages-$name "no $VMCORES/$name"
		continue
	fi
	want=$($PAGES extent "$VMCORES/$name/guest/kallsyms.txt" 4096)
	"$MDF" -f -l -d 31 --message-level 31 "$dump" "$WORK/image.kdump" >"$WORK/image.debug" 2>&1
	if grep -q "kernel image: $want from pfn" "$WORK/image.debug" &&
		! grep -q "kernel image's pages are not known" "$WORK/image.debug"; then
		pass image-pages-$name
	else
		fail image-pages-$name "want '$want': $(grep -i "kernel image" "$WORK/image.debug" | tail -n 2)"
	fi
	rm -f "$WORK/image.kdump"
done
