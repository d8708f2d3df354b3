// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkvmcore --arch s390x: a small big-endian s390x ELF vmcore for address
 * translation and for finding VMCOREINFO in memory, with 3, 4 or 5 levels
 * of DAT tables, and the facts to check it.
 *
 *   mkvmcore --arch s390x [--levels 3|4|5] [--pre-6.10] [--no-note]
 *            [--damage loop|outside] [--facts FILE] [--vmcoreinfo-out FILE]
 *            OUT.elf
 *
 * 64 MiB of RAM at physical 0, in one PT_LOAD whose virtual address is
 * its physical one, as QEMU writes it.  The kernel's tables (arch/s390x.c
 * explains them) hold every kind of entry a walk meets: 4 KiB pages, 1 MiB
 * segment frames (the identity map), a 2 GiB region-third frame, a page
 * Linux aged (hardware-invalid, still present), holes (an invalid page,
 * an invalid segment and region entry, a page-table entry with its
 * must-be-zero bit), and a segment table with only its first page (TF=TL=0),
 * past which addresses are unmapped.  Region and segment tables are 16 KiB
 * and start full of invalid entries of their type, as the kernel's
 * crst_table_init() makes them; page tables are 2 KiB, two to a page.
 *
 * The layout since 6.10 (the default): the identity map at IDENTITYBASE
 * (not 0 here, so that the sum is tested), the kernel image apart from it
 * near the top of the address space the tables reach, KERNELOFFSET and
 * KERNELOFFPHYS its virtual and physical bases less 1 MiB (the kernel's
 * TEXT_OFFSET).  --pre-6.10: the identity map at 0 with the image inside
 * it, VMCOREINFO without KERNELOFFPHYS and IDENTITYBASE.
 *
 * The kernel's VMCOREINFO note is in RAM, in a page of its own; the ELF
 * has it too, unless --no-note (QEMU's dump of a machine without fw_cfg).
 * Bad input: --damage loop points _stext's root entry at the root itself;
 * --damage outside points its next-level entry at a table beyond memory.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mkvmcore.h"

#define S_PAGE UINT64_C(4096)
#define S_RAM_SIZE (UINT64_C(64) << 20)
#define S_TEXT_OFFSET (UINT64_C(1) << 20)        /* the kernel's TEXT_OFFSET */
#define S_IMAGE_PA (UINT64_C(4) << 20)           /* _text */
#define S_IMAGE_SIZE (UINT64_C(8) << 20)
#define S_HOLE_OFFSET (UINT64_C(3) << 20)        /* freed init text, unmapped */
#define S_HOLE_SIZE (UINT64_C(64) << 10)
#define S_ROOT_OFFSET (UINT64_C(5) << 20)        /* swapper_pg_dir: 16 KiB */
#define S_UTS_OFFSET ((UINT64_C(5) << 20) + 0x4000 + 0x100)
#define S_HIGH_MEMORY_OFFSET ((UINT64_C(5) << 20) + 0x5000)
#define S_NOTE_PA (UINT64_C(20) << 20)           /* vmcoreinfo_note */
#define S_LOWCORE_VMCOREINFO UINT64_C(0xe0c)     /* lowcore.vmcore_info: the note's physical address */
#define S_MEM_SECTION_PA ((UINT64_C(21) << 20) + 0x2340)
#define S_TABLES_FLOOR (UINT64_C(32) << 20)      /* tables from the top of RAM down to here */
#define S_OUTSIDE UINT64_C(0x4000000000)         /* no memory of the dump is there */

#define TT_SEGMENT 0
#define S390_ENTRY_INVALID UINT64_C(0x20)
#define S390_ENTRY_FC UINT64_C(0x400)
#define S390_PTE_INVALID UINT64_C(0x400)
#define S390_PTE_MUST_BE_ZERO UINT64_C(0x800)
#define S390_PTE_PRESENT UINT64_C(0x001)
#define CRST_BYTES UINT64_C(16384)
#define PT_BYTES UINT64_C(2048)

struct s3 {
	int levels, root_type;
	bool pre_610;
	uint8_t *ram;
	uint64_t next_table, pt_half;   /* tables from the top of RAM down; a page table's free half */
	uint64_t root, text_va, identity_base, vmalloc_start;
	struct vtop_facts vtop;
	char vmcoreinfo[4096];
	size_t vmcoreinfo_len;
};

static uint8_t *s_phys(struct s3 *s, uint64_t pa, size_t len)
{
	if (pa + len <= S_RAM_SIZE)
		return s->ram + pa;
	die("internal: physical 0x%" PRIx64 " is in no RAM of the dump", pa);
}

/* A region or segment table of @type, full of invalid entries of that type. */
static uint64_t crst_alloc(struct s3 *s, int type)
{
	s->next_table -= CRST_BYTES;
	if (s->next_table < S_TABLES_FLOOR)
		die("s390x: out of RAM for page tables");
	for (uint64_t i = 0; i < CRST_BYTES / 8; i++)
		put_be64(s_phys(s, s->next_table + i * 8, 8), (uint64_t)type << 2 | S390_ENTRY_INVALID);
	return s->next_table;
}

/* A 2 KiB page table, every entry invalid: the second half of a page when the first is taken. */
static uint64_t pt_alloc(struct s3 *s)
{
	uint64_t pt = s->pt_half;

	if (pt) {
		s->pt_half = 0;
	} else {
		s->next_table -= S_PAGE;
		if (s->next_table < S_TABLES_FLOOR)
			die("s390x: out of RAM for page tables");
		pt = s->next_table;
		s->pt_half = pt + PT_BYTES;
	}
	for (uint64_t i = 0; i < PT_BYTES / 8; i++)
		put_be64(s_phys(s, pt + i * 8, 8), S390_PTE_INVALID);
	return pt;
}

static uint64_t s_index(uint64_t va, int type)
{
	return (va >> (20 + 11 * type)) & 2047;
}

/* The slot of @va's entry in its table of @type (-1: the page table), tables made as needed. */
static uint8_t *s_slot(struct s3 *s, uint64_t va, int type)
{
	uint64_t table = s->root;

	for (int t = s->root_type; t > type; t--) {
		uint8_t *slot = s_phys(s, table + s_index(va, t) * 8, 8);
		uint64_t entry = get_be64(slot);

		if (entry & S390_ENTRY_INVALID) {
			/* Region entries: the next table's four pages, TF 0 to TL 3. */
			entry = t == TT_SEGMENT ? pt_alloc(s) : crst_alloc(s, t - 1) | 3;
			put_be64(slot, entry | (uint64_t)t << 2);
		}
		if ((t == TT_SEGMENT || t == TT_SEGMENT + 1) && (entry & S390_ENTRY_FC))
			die("internal: s390x mapping of 0x%" PRIx64 " crosses a frame", va);
		table = entry & (t == TT_SEGMENT ? ~UINT64_C(0x7ff) : ~UINT64_C(0xfff));
	}
	if (type < 0)
		return s_phys(s, table + ((va >> 12) & 255) * 8, 8);
	return s_phys(s, table + s_index(va, type) * 8, 8);
}

static void map_page(struct s3 *s, uint64_t va, uint64_t pa, uint64_t bits)
{
	put_be64(s_slot(s, va, -1), pa | bits);
}

static void map_pages(struct s3 *s, uint64_t va, uint64_t pa, uint64_t size)
{
	for (uint64_t off = 0; off < size; off += S_PAGE)
		map_page(s, va + off, pa + off, 0);
}

/* A 1 MiB segment frame or (type 1) a 2 GiB region-third frame. */
static void map_frame(struct s3 *s, uint64_t va, uint64_t pa, int type)
{
	put_be64(s_slot(s, va, type), pa | S390_ENTRY_FC | (uint64_t)type << 2);
}

/* The image's virtual address of physical @pa in it. */
static uint64_t image_va(const struct s3 *s, uint64_t pa)
{
	return s->text_va + (pa - S_IMAGE_PA);
}

/*
 * The image in pages: since 6.10 apart, with a hole of freed init text;
 * before, in the identity map, which maps all of it.
 */
static void s_image(struct s3 *s)
{
	uint64_t va = s->text_va, pa = S_IMAGE_PA;

	if (s->pre_610) {
		map_pages(s, va, pa, S_IMAGE_SIZE);
	} else {
		map_pages(s, va, pa, S_HOLE_OFFSET);
		map_pages(s, va + S_HOLE_OFFSET + S_HOLE_SIZE, pa + S_HOLE_OFFSET + S_HOLE_SIZE,
			  S_IMAGE_SIZE - S_HOLE_OFFSET - S_HOLE_SIZE);
		vtop_fail(&s->vtop, va + S_HOLE_OFFSET + 0x100);
		vtop_fail(&s->vtop, va + S_IMAGE_SIZE + 0x10);
	}
	vtop_fact(&s->vtop, va + 0x18, pa + 0x18);
	vtop_fact(&s->vtop, va + S_HOLE_OFFSET - 8, pa + S_HOLE_OFFSET - 8);
	vtop_fact(&s->vtop, va + S_ROOT_OFFSET + 8, s->root + 8);
	vtop_fact(&s->vtop, va + S_UTS_OFFSET, pa + S_UTS_OFFSET);
	vtop_fact(&s->vtop, va + S_IMAGE_SIZE - 8, pa + S_IMAGE_SIZE - 8);
}

/*
 * The identity map in 1 MiB frames but its first MiB (the lowcores) and,
 * before 6.10, the image, in pages.
 */
static void s_identity_map(struct s3 *s)
{
	uint64_t base = s->identity_base, mib = UINT64_C(1) << 20;

	map_pages(s, base, 0, mib);
	for (uint64_t pa = mib; pa < S_RAM_SIZE; pa += mib)
		if (!s->pre_610 || pa < S_IMAGE_PA || pa >= S_IMAGE_PA + S_IMAGE_SIZE)
			map_frame(s, base + pa, pa, TT_SEGMENT);
	vtop_fact(&s->vtop, base + 0x1238, 0x1238);
	vtop_fact(&s->vtop, base + mib + 0x18, mib + 0x18);
	vtop_fact(&s->vtop, base + S_RAM_SIZE / 2 + 0x777, S_RAM_SIZE / 2 + 0x777);
	vtop_fact(&s->vtop, base + S_RAM_SIZE - 8, S_RAM_SIZE - 8);
	vtop_fail(&s->vtop, base + S_RAM_SIZE + 0x1000);
}

/*
 * vmalloc: pages with holes between, an aged page, an invalid one and one
 * with the must-be-zero bit; a 1 MiB frame; a segment table with only its
 * first page; a 2 GiB region-third frame onto physical 0.
 */
static void s_vmalloc(struct s3 *s)
{
	uint64_t area = s->vmalloc_start, pa = S_RAM_SIZE / 4, mib = UINT64_C(1) << 20;
	uint64_t two_gib = UINT64_C(1) << 31, gib_area;
	uint8_t *slot;

	for (uint64_t i = 0; i < 3; i++) {
		uint64_t va = area + 2 * i * S_PAGE, target = pa + 7 * i * S_PAGE;

		/* The second is one Linux aged: invalid for the hardware, present for the kernel. */
		map_page(s, va, target, i == 1 ? S390_PTE_INVALID | S390_PTE_PRESENT : 0);
		vtop_fact(&s->vtop, va + 0x10 * i, target + 0x10 * i);
		vtop_fail(&s->vtop, va + S_PAGE);
	}
	map_page(s, area + 8 * S_PAGE, pa, S390_PTE_INVALID);
	vtop_fail(&s->vtop, area + 8 * S_PAGE);
	map_page(s, area + 10 * S_PAGE, pa, S390_PTE_MUST_BE_ZERO);
	vtop_fail(&s->vtop, area + 10 * S_PAGE);
	map_frame(s, area + 4 * mib, pa + 2 * mib, TT_SEGMENT);
	vtop_fact(&s->vtop, area + 4 * mib + 0xabc8, pa + 2 * mib + 0xabc8);
	vtop_fail(&s->vtop, area + 5 * mib + 0x10);

	/* A segment table with only its first page (512 MiB): TF = TL = 0. */
	gib_area = (area + 2 * two_gib) & ~(two_gib - 1);
	map_page(s, gib_area + 0x3000, pa + 0x30000, 0);
	vtop_fact(&s->vtop, gib_area + 0x3008, pa + 0x30008);
	slot = s_slot(s, gib_area, 1);
	put_be64(slot, get_be64(slot) & ~UINT64_C(0xc3));
	vtop_fail(&s->vtop, gib_area + 3 * (mib << 9) + 0x3000);

	/* A 2 GiB frame onto physical 0, where RAM lies. */
	map_frame(s, gib_area + two_gib, 0, 1);
	vtop_fact(&s->vtop, gib_area + two_gib + S_RAM_SIZE - 16, S_RAM_SIZE - 16);
	vtop_fail(&s->vtop, gib_area + 2 * two_gib + 0x1000);
}

/* The lines arch_crash_save_vmcoreinfo() and the generic code write. */
static void s_vmcoreinfo(struct s3 *s, const char *osrelease)
{
	size_t n;

	n = (size_t)snprintf(s->vmcoreinfo, sizeof(s->vmcoreinfo),
		"OSRELEASE=%s\nPAGESIZE=4096\nSYMBOL(init_uts_ns)=%" PRIx64 "\nOFFSET(uts_namespace.name)=0\n"
		"SYMBOL(swapper_pg_dir)=%" PRIx64 "\nSYMBOL(_stext)=%" PRIx64 "\nNUMBER(VMALLOC_START)=0x%" PRIx64
		"\nSYMBOL(vmemmap)=%" PRIx64 "\nSYMBOL(mem_section)=%" PRIx64 "\nSYMBOL(lowcore_ptr)=%" PRIx64
		"\nLENGTH(lowcore_ptr)=2\nSYMBOL(high_memory)=%" PRIx64 "\nSAMODE31=%" PRIx64 "\nEAMODE31=%" PRIx64
		"\nKERNELOFFSET=%" PRIx64 "\n",
		osrelease, image_va(s, S_IMAGE_PA + S_UTS_OFFSET), image_va(s, s->root), s->text_va,
		s->vmalloc_start, s->vmalloc_start - (UINT64_C(1) << 34), s->identity_base + S_MEM_SECTION_PA,
		image_va(s, S_IMAGE_PA + S_HIGH_MEMORY_OFFSET + 8), image_va(s, S_IMAGE_PA + S_HIGH_MEMORY_OFFSET),
		S_IMAGE_PA - 0x3000, S_IMAGE_PA, s->text_va - S_TEXT_OFFSET);
	if (!s->pre_610)
		n += (size_t)snprintf(s->vmcoreinfo + n, sizeof(s->vmcoreinfo) - n,
				      "IDENTITYBASE=%" PRIx64 "\nKERNELOFFPHYS=%" PRIx64 "\n", s->identity_base,
				      S_IMAGE_PA - S_TEXT_OFFSET);
	s->vmcoreinfo_len = n;
}

/* Big-endian ELF: the note (unless @no_note), then RAM at physical 0, zero pages as holes. */
static void s_write_elf(struct s3 *s, bool no_note, const char *path)
{
	uint8_t note[4096 + 64];
	size_t notes_len = no_note ? 0 : vmcoreinfo_note(note, s->vmcoreinfo, s->vmcoreinfo_len, true);
	struct elf_load ram = { .paddr = 0, .size = S_RAM_SIZE, .mem = s->ram };

	write_elf_vmcore(path, 22 /* EM_S390 */, true, S_PAGE, 0, note, notes_len, &ram, 1);
}

/* Where the image and the identity map lie in an address space of @levels levels. */
static void s_layout(struct s3 *s)
{
	unsigned int bits = 20 + 11 * (unsigned int)(s->root_type + 1);
	uint64_t top = bits >= 64 ? 0 : UINT64_C(1) << bits;

	/* The image just below the top, as the kernel puts it; vmalloc below that. */
	if (s->pre_610) {
		s->identity_base = 0;
		s->text_va = S_IMAGE_PA;
	} else {
		s->identity_base = UINT64_C(1) << (bits - 2);
		s->text_va = top - (UINT64_C(1) << 30) + S_IMAGE_PA;
	}
	s->vmalloc_start = (top - (UINT64_C(1) << 38)) & ~((UINT64_C(1) << 31) - 1);
}

int s390x_main(int argc, char **argv)
{
	struct s3 s = { .levels = 3 };
	const char *out = NULL, *facts = NULL, *vmcoreinfo_out = NULL, *damage = NULL;
	const char *osrelease = "6.12.0-mkvmcore-s390x";
	bool no_note = false;
	uint64_t stext;

	for (int i = 1; i < argc; i++) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(opt, "--arch") && val && !strcmp(val, "s390x")) {
			i++;
		} else if (!strcmp(opt, "--levels") && val) {
			s.levels = atoi(val);
			i++;
		} else if (!strcmp(opt, "--pre-6.10")) {
			s.pre_610 = true;
		} else if (!strcmp(opt, "--no-note")) {
			no_note = true;
		} else if (!strcmp(opt, "--damage") && val && (!strcmp(val, "loop") || !strcmp(val, "outside"))) {
			damage = val;
			i++;
		} else if (!strcmp(opt, "--facts") && val) {
			facts = val;
			i++;
		} else if (!strcmp(opt, "--vmcoreinfo-out") && val) {
			vmcoreinfo_out = val;
			i++;
		} else if (opt[0] != '-' && !out) {
			out = opt;
		} else {
			die("s390x: unknown or incomplete option '%s' (see tests/gen/gen_s390x.c)", opt);
		}
	}
	if (!out)
		die("usage: mkvmcore --arch s390x [--levels 3|4|5] [--pre-6.10] [--no-note] [--damage loop|outside] "
		    "[--facts FILE] [--vmcoreinfo-out FILE] OUT.elf");
	if (s.levels < 3 || s.levels > 5)
		die("s390x: --levels must be 3, 4 or 5");
	s.root_type = s.levels - 2;
	s.ram = xcalloc(1, S_RAM_SIZE);
	s.next_table = S_RAM_SIZE;
	s_layout(&s);
	/* swapper_pg_dir lies in the image. */
	s.root = S_IMAGE_PA + S_ROOT_OFFSET;
	for (uint64_t i = 0; i < CRST_BYTES / 8; i++)
		put_be64(s_phys(&s, s.root + i * 8, 8), (uint64_t)s.root_type << 2 | S390_ENTRY_INVALID);

	s_image(&s);
	s_identity_map(&s);
	s_vmalloc(&s);
	/* init_uts_ns.name: six 65-byte fields, release the third; high_memory, __va() of RAM's end. */
	snprintf((char *)s_phys(&s, S_IMAGE_PA + S_UTS_OFFSET, 65), 65, "Linux");
	snprintf((char *)s_phys(&s, S_IMAGE_PA + S_UTS_OFFSET + 65, 65), 65, "mkvmcore");
	snprintf((char *)s_phys(&s, S_IMAGE_PA + S_UTS_OFFSET + 130, 65), 65, "%s", osrelease);
	snprintf((char *)s_phys(&s, S_IMAGE_PA + S_UTS_OFFSET + 195, 65), 65, "#1 SMP");
	snprintf((char *)s_phys(&s, S_IMAGE_PA + S_UTS_OFFSET + 260, 65), 65, "s390x");
	put_be64(s_phys(&s, S_IMAGE_PA + S_HIGH_MEMORY_OFFSET, 8), s.identity_base + S_RAM_SIZE);
	/* Every other page below the tables starts with an address that maps it. */
	for (uint64_t pa = 0; pa < s.next_table; pa += S_PAGE) {
		bool in_image = pa >= S_IMAGE_PA && pa < S_IMAGE_PA + S_IMAGE_SIZE;

		if (pa == S_NOTE_PA || (pa >= s.root && pa < s.root + CRST_BYTES) || get_be64(s_phys(&s, pa, 8)))
			continue;
		put_be64(s_phys(&s, pa, 8), in_image ? image_va(&s, pa) : s.identity_base + pa);
	}
	s_vmcoreinfo(&s, osrelease);
	vmcoreinfo_note(s_phys(&s, S_NOTE_PA, S_PAGE), s.vmcoreinfo, s.vmcoreinfo_len, true);
	/* The absolute lowcore's pointer to it, which libkdumpfile reads. */
	put_be64(s_phys(&s, S_LOWCORE_VMCOREINFO, 8), S_NOTE_PA);

	stext = s.text_va;
	if (damage && !strcmp(damage, "loop"))
		put_be64(s_phys(&s, s.root + s_index(stext, s.root_type) * 8, 8),
			 s.root | 3 | (uint64_t)s.root_type << 2);
	if (damage && !strcmp(damage, "outside")) {
		uint64_t next = get_be64(s_phys(&s, s.root + s_index(stext, s.root_type) * 8, 8)) & ~UINT64_C(0xfff);
		int type = s.root_type - 1;

		put_be64(s_phys(&s, next + s_index(stext, type) * 8, 8),
			 S_OUTSIDE | (uint64_t)type << 2 | (type == TT_SEGMENT ? 0 : 3));
	}
	s_write_elf(&s, no_note, out);

	if (facts) {
		FILE *f = fopen(facts, "w");

		if (!f)
			die("%s: %s", facts, strerror(errno));
		fprintf(f, "# mkvmcore --arch s390x: %d levels, the layout %s 6.10\n", s.levels,
			s.pre_610 ? "before" : "since");
		fprintf(f, "levels=%d\nnote_paddr=0x%" PRIx64 "\n", s.levels, (uint64_t)S_NOTE_PA);
		vtop_facts_write(f, &s.vtop);
		if (fclose(f))
			die("%s: %s", facts, strerror(errno));
	}
	if (vmcoreinfo_out)
		write_file_or_die(vmcoreinfo_out, s.vmcoreinfo, s.vmcoreinfo_len);
	free(s.ram);
	return 0;
}
