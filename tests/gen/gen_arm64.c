// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkvmcore --arch arm64: a small arm64 ELF vmcore for address translation,
 * in any of the kernel's page-table shapes, with the facts to check it.
 *
 *   mkvmcore --arch arm64 [--page-size 4K|16K|64K] [--va-bits N]
 *            [--t1sz N] [--pre-5.4] [--ram SIZE] [--damage loop]
 *            [--facts FILE] [--vmcoreinfo-out FILE] OUT.elf
 *
 * Defaults: 4K pages, VA_BITS 48, T1SZ = 64 - VA_BITS, 64 MiB of RAM at
 * 0x40000000 (QEMU virt's PHYS_OFFSET).  It holds what translation needs
 * and no more: swapper_pg_dir in the kernel image (at kimage_voffset from
 * its physical address), the linear map of all RAM, and the VMCOREINFO
 * lines the kernel writes for both; no mem_map, kallsyms or log.
 *
 * The tables use what the kernel's do: 2M (4K), 32M (16K) blocks in the
 * linear map, a 2M block in the image, runs of pages with the contiguous
 * bit elsewhere, and shareability bits set in every entry where they are
 * no address bits.  A vmalloc-like area maps single pages (some in a
 * memory bank above 2^48 when the physical address space is 52 bits:
 * 64K pages, or LPA2 with T1SZ 12), a block of each size the
 * architecture allows above the page-level one, and leaves holes.  A
 * kernel built for 52 bits that walks 48 (--va-bits 52 --t1sz 16) keeps
 * the whole root table and PHYS_OFFSET moved as the kernel moves it.
 *
 * --pre-5.4 lays the kernel's space out as kernels before 5.4 did: the
 * linear map in its upper half, the image and vmalloc in the lower, and
 * VMCOREINFO without TCR_EL1_T1SZ and KERNELPACMASK.
 *
 * --damage loop makes the root entry above _stext point at the root
 * itself: a reader must say so, not loop.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mkvmcore.h"

#define A64_PHYS_OFFSET 0x40000000ULL
#define A64_IMAGE_OFFSET (2ULL << 20)      /* _text from the start of RAM */
#define A64_IMAGE_SIZE (6ULL << 20)
#define A64_STEXT_OFFSET 0x10000ULL        /* _stext = _text + 64K */
#define A64_INIT_HOLE_OFFSET (4ULL << 20)  /* freed init text, unmapped */
#define A64_INIT_HOLE_SIZE (256ULL << 10)
#define A64_ROOT_OFFSET (5ULL << 20)       /* swapper_pg_dir in the image */
#define A64_KASLR 0x2fb743000000ULL
#define A64_HIGH_BASE 0x000a400000000000ULL /* bits 51, 49 and 46: above 2^48 */
#define A64_HIGH_SIZE (2ULL << 20)

#define DESC_TABLE 0x3ULL
#define DESC_PAGE 0x3ULL
#define DESC_BLOCK 0x1ULL
#define DESC_AF (1ULL << 10)
#define DESC_SH_INNER (3ULL << 8)
#define DESC_CONT (1ULL << 52)
#define DESC_PXN (1ULL << 53)

struct a64 {
	unsigned int page_shift;
	uint64_t page_size;
	int va_bits, va_walked, levels, top_bits;
	bool lpa2, pa52, loop;
	bool pre_5_4;                 /* the linear map in the upper half, the image in the lower */
	uint64_t ram_size;
	uint8_t *ram, *high;
	uint64_t next_table;          /* tables are taken from the top of RAM down */
	uint64_t root;
	uint64_t text_pa, text_va, kimage_voffset;
	uint64_t linear_start;        /* -(1 << va_walked) */
	uint64_t phys_offset_said;    /* VMCOREINFO's PHYS_OFFSET (memstart_addr) */
	uint64_t upper;               /* the upper half: modules, image, vmalloc */
	struct vtop_facts vtop;
	char vmcoreinfo[4096];
	size_t vmcoreinfo_len;
};

static uint8_t *a64_phys(struct a64 *a, uint64_t pa, size_t len)
{
	if (pa >= A64_PHYS_OFFSET && pa + len <= A64_PHYS_OFFSET + a->ram_size)
		return a->ram + (pa - A64_PHYS_OFFSET);
	if (a->high && pa >= A64_HIGH_BASE && pa + len <= A64_HIGH_BASE + A64_HIGH_SIZE)
		return a->high + (pa - A64_HIGH_BASE);
	die("internal: physical 0x%" PRIx64 " is in no memory of the dump", pa);
}

static int levels_for(int va_bits, unsigned int page_shift)
{
	int per_level = (int)page_shift - 3;

	return (va_bits - (int)page_shift + per_level - 1) / per_level;
}

/* A descriptor for output address @pa: the encodings the architecture has for 52-bit addresses. */
static uint64_t a64_desc(const struct a64 *a, uint64_t pa, uint64_t type)
{
	uint64_t low = pa & ~(a->page_size - 1);

	if (a->page_shift == 16)
		return (low & ((1ULL << 48) - 1)) | ((pa >> 48) & 0xf) << 12 | type | DESC_AF;
	if (a->lpa2)
		return (low & ((1ULL << 50) - 1)) | ((pa >> 50) & 0x3) << 8 | type | DESC_AF;
	return low | type | DESC_AF | DESC_SH_INNER;
}

static uint64_t a64_table_alloc(struct a64 *a)
{
	if (a->next_table < A64_PHYS_OFFSET + A64_IMAGE_OFFSET + A64_IMAGE_SIZE + a->page_size)
		die("arm64: out of RAM for page tables");
	a->next_table -= a->page_size;
	return a->next_table;
}

static unsigned int level_shift(const struct a64 *a, int below)
{
	return a->page_shift + (a->page_shift - 3) * (unsigned int)below;
}

static uint64_t level_index(const struct a64 *a, uint64_t va, int below)
{
	int bits = below == a->levels - 1 ? a->top_bits : (int)a->page_shift - 3;

	return (va >> level_shift(a, below)) & ((1ULL << bits) - 1);
}

/* Maps @va to @pa with one entry @below levels above the last (0: a page), tables made as needed. */
static void a64_map(struct a64 *a, uint64_t va, uint64_t pa, int below, uint64_t extra)
{
	uint64_t table = a->root;

	for (int level = a->levels - 1; level > below; level--) {
		uint8_t *slot = a64_phys(a, table + level_index(a, va, level) * 8, 8);
		uint64_t desc = get_le64(slot);

		if (!desc) {
			uint64_t child = a64_table_alloc(a);

			desc = a64_desc(a, child, DESC_TABLE);
			put_le64(slot, desc);
		}
		if ((desc & 3) != DESC_TABLE)
			die("internal: arm64 mapping of 0x%" PRIx64 " crosses a block", va);
		/* Back from the descriptor, as a walker decodes it. */
		if (a->page_shift == 16)
			table = (desc & ((1ULL << 48) - 1) & ~(a->page_size - 1)) | ((desc >> 12) & 0xf) << 48;
		else if (a->lpa2)
			table = (desc & ((1ULL << 50) - 1) & ~(a->page_size - 1)) | ((desc >> 8) & 0x3) << 50;
		else
			table = desc & ((1ULL << 48) - 1) & ~(a->page_size - 1);
	}
	put_le64(a64_phys(a, table + level_index(a, va, below) * 8, 8),
		 a64_desc(a, pa, below ? DESC_BLOCK : DESC_PAGE) | extra);
}

/* Pages of [@va, @va + @size) to @pa on, with the contiguous bit on each aligned whole run. */
static void a64_map_pages(struct a64 *a, uint64_t va, uint64_t pa, uint64_t size)
{
	/* CONT_PTES: 16 with 4K pages, 128 with 16K, 32 with 64K. */
	uint64_t run = (a->page_shift == 12 ? 16 : a->page_shift == 14 ? 128 : 32) * a->page_size;

	for (uint64_t off = 0; off < size; off += a->page_size) {
		uint64_t run_start = (va + off) & ~(run - 1);
		bool cont = run_start >= va && run_start + run <= va + size && !((pa + off - (va + off - run_start)) & (run - 1));

		a64_map(a, va + off, pa + off, 0, cont ? DESC_CONT : 0);
	}
}

/* A page that starts with an address that maps it: readers can tell pages apart. */
static void a64_stamp(struct a64 *a, uint64_t pa, uint64_t va)
{
	put_le64(a64_phys(a, pa, 8), va);
}

static void a64_image(struct a64 *a)
{
	uint64_t text = a->text_va, pa = a->text_pa, block = 2ULL << 20;
	uint64_t stext = text + A64_STEXT_OFFSET, hole = text + A64_INIT_HOLE_OFFSET, pac_bits;

	a->root = pa + A64_ROOT_OFFSET;
	/* _stext up to 2M: pages; 2M to 4M: one 2M block with 4K pages, else pages; a hole; pages. */
	a64_map_pages(a, stext, pa + A64_STEXT_OFFSET, block - A64_STEXT_OFFSET);
	if (a->page_shift == 12)
		a64_map(a, text + block, pa + block, 1, DESC_PXN);
	else
		a64_map_pages(a, text + block, pa + block, block);
	a64_map_pages(a, hole + A64_INIT_HOLE_SIZE, pa + A64_INIT_HOLE_OFFSET + A64_INIT_HOLE_SIZE,
		      A64_IMAGE_SIZE - A64_INIT_HOLE_OFFSET - A64_INIT_HOLE_SIZE);
	for (uint64_t off = A64_STEXT_OFFSET; off < A64_IMAGE_SIZE; off += a->page_size)
		if (off < A64_INIT_HOLE_OFFSET || off >= A64_INIT_HOLE_OFFSET + A64_INIT_HOLE_SIZE)
			if (off < A64_ROOT_OFFSET || off >= A64_ROOT_OFFSET + a->page_size)
				a64_stamp(a, pa + off, text + off);
	vtop_fact(&a->vtop, stext + 0x18, pa + A64_STEXT_OFFSET + 0x18);
	vtop_fact(&a->vtop, text + block - a->page_size + 0x20, pa + block - a->page_size + 0x20);
	vtop_fact(&a->vtop, text + block + 0x12340, pa + block + 0x12340);
	vtop_fact(&a->vtop, text + A64_ROOT_OFFSET + 8, a->root + 8);
	vtop_fact(&a->vtop, text + A64_IMAGE_SIZE - 8, pa + A64_IMAGE_SIZE - 8);
	vtop_fail(&a->vtop, text);                       /* the image's head: not mapped */
	vtop_fail(&a->vtop, hole + 0x100);
	vtop_fail(&a->vtop, text + A64_IMAGE_SIZE + 0x10);
	if (a->pre_5_4)
		return;
	/* A kernel pointer signed with a PAC: bit 55 kept, the other bits above the address are the code. */
	pac_bits = 0xa5a5a5a5a5a5a5a5ULL & (~0ULL << a->va_walked) & ~(1ULL << 55);
	vtop_fact(&a->vtop, ((stext + 0x40) & ~(~0ULL << a->va_walked)) | pac_bits | (1ULL << 55),
		 pa + A64_STEXT_OFFSET + 0x40);
}

/* The linear map of all RAM, in the largest blocks below 1G that fit, else pages. */
static void a64_linear(struct a64 *a)
{
	uint64_t block = a->page_shift == 12 ? 2ULL << 20 : a->page_shift == 14 ? 32ULL << 20 : 0;

	for (uint64_t off = 0; off < a->ram_size;) {
		uint64_t va = a->linear_start + off, pa = A64_PHYS_OFFSET + off;

		if (block && !(off & (block - 1)) && off + block <= a->ram_size) {
			a64_map(a, va, pa, 1, DESC_PXN);
			off += block;
		} else {
			a64_map_pages(a, va, pa, a->page_size);
			off += a->page_size;
		}
	}
	vtop_fact(&a->vtop, a->linear_start + 0x18, A64_PHYS_OFFSET + 0x18);
	vtop_fact(&a->vtop, a->linear_start + a->ram_size / 2 + 0x777, A64_PHYS_OFFSET + a->ram_size / 2 + 0x777);
	vtop_fact(&a->vtop, a->linear_start + a->ram_size - 8, A64_PHYS_OFFSET + a->ram_size - 8);
}

/*
 * A vmalloc-like area a quarter into the upper half: single pages, pages
 * in the high bank, and blocks of every size above the page that this
 * shape allows, with holes between them.
 */
static void a64_vmalloc(struct a64 *a)
{
	uint64_t area = a->upper + (1ULL << (a->va_walked - 2));
	uint64_t pa = A64_PHYS_OFFSET + a->ram_size / 4;

	for (int i = 0; i < 4; i++) {
		uint64_t va = area + (uint64_t)(2 * i) * a->page_size, target = pa + (uint64_t)(7 * i) * a->page_size;

		a64_map(a, va, target, 0, DESC_PXN);
		vtop_fact(&a->vtop, va + 0x10 * (uint64_t)i, target + 0x10 * (uint64_t)i);
		vtop_fail(&a->vtop, va + a->page_size);
	}
	if (a->pa52)
		for (uint64_t i = 0; i < 2; i++) {
			uint64_t va = area + (16 + i) * a->page_size, target = A64_HIGH_BASE + (3 + 2 * i) * a->page_size;

			a64_map(a, va, target, 0, DESC_PXN);
			a64_stamp(a, target, va);
			vtop_fact(&a->vtop, va + 0x28, target + 0x28);
		}
	/* Blocks: 1G and 2M (4K), 512G too with LPA2; 32M, 64G with LPA2 (16K); 512M, 4T with 52 bits (64K). */
	for (int below = 1; below < a->levels && below <= 3; below++) {
		uint64_t size = 1ULL << level_shift(a, below), va, target;
		bool allowed = below == 1 || (below == 2 && (a->page_shift == 12 || a->lpa2 || a->pa52)) ||
			       (below == 3 && a->page_shift == 12 && a->lpa2);

		/* Each block and the hole after it within the area's upper half. */
		if (!allowed || 2 * (uint64_t)below * size > (1ULL << (a->va_walked - 3)))
			continue;
		va = (area + (1ULL << (a->va_walked - 3)) + size - 1) & ~(size - 1);
		va += 2 * (uint64_t)(below - 1) * size;
		target = size * 5;
		a64_map(a, va, target, below, DESC_PXN);
		vtop_fact(&a->vtop, va + size / 2 + 0x1238, target + size / 2 + 0x1238);
		vtop_fail(&a->vtop, va + size + 0x1238);
	}
}

static void a64_vmcoreinfo(struct a64 *a, const char *osrelease)
{
	int n = snprintf(a->vmcoreinfo, sizeof(a->vmcoreinfo),
			 "OSRELEASE=%s\nPAGESIZE=%" PRIu64 "\nSYMBOL(swapper_pg_dir)=%" PRIx64
			 "\nSYMBOL(_stext)=%" PRIx64 "\nSYMBOL(mem_section)=%" PRIx64
			 "\nNUMBER(VA_BITS)=%d\nNUMBER(kimage_voffset)=0x%" PRIx64
			 "\nNUMBER(PHYS_OFFSET)=0x%" PRIx64 "\nKERNELOFFSET=%" PRIx64 "\n",
			 osrelease, a->page_size, (uint64_t)(a->text_va + A64_ROOT_OFFSET),
			 (uint64_t)(a->text_va + A64_STEXT_OFFSET), (uint64_t)(a->linear_start + 0x123440), a->va_bits,
			 a->kimage_voffset, a->phys_offset_said, (uint64_t)A64_KASLR);

	/* TCR_EL1_T1SZ came in 5.9, KERNELPACMASK in 5.7: a kernel before 5.4 has neither. */
	if (!a->pre_5_4)
		n += snprintf(a->vmcoreinfo + n, sizeof(a->vmcoreinfo) - (size_t)n,
			      "NUMBER(TCR_EL1_T1SZ)=0x%x\nNUMBER(KERNELPACMASK)=0x%" PRIx64 "\n", 64 - a->va_walked,
			      (uint64_t)(~0ULL << a->va_walked));
	a->vmcoreinfo_len = (size_t)n;
}

/* kexec's layout: the notes, the kernel image, then each bank's linear map. */
static void a64_write_elf(struct a64 *a, const char *path)
{
	uint8_t note[4096 + 64];
	size_t notes_len = vmcoreinfo_note(note, a->vmcoreinfo, a->vmcoreinfo_len, false);
	struct elf_load loads[3] = {
		{ a->text_va, a->text_pa, A64_IMAGE_SIZE, a64_phys(a, a->text_pa, A64_IMAGE_SIZE) },
		{ a->linear_start, A64_PHYS_OFFSET, a->ram_size, a->ram },
		{ 0, A64_HIGH_BASE, A64_HIGH_SIZE, a->high },
	};

	write_elf_vmcore(path, 183 /* EM_AARCH64 */, false, a->page_size, 0, note, notes_len, loads, a->high ? 3 : 2);
}

int arm64_main(int argc, char **argv)
{
	struct a64 a = { .page_shift = 12, .va_bits = 48, .ram_size = 64ULL << 20 };
	const char *out = NULL, *facts = NULL, *vmcoreinfo_out = NULL, *osrelease = "6.1.0-mkvmcore-arm64";
	int t1sz = 0;
	uint64_t min_ram;

	for (int i = 1; i < argc; i++) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(opt, "--arch") && val && !strcmp(val, "arm64")) {
			i++;
		} else if (!strcmp(opt, "--page-size") && val) {
			uint64_t size = parse_num(val, "arm64 --page-size");

			if (size != 4096 && size != 16384 && size != 65536)
				die("arm64: --page-size is 4K, 16K or 64K");
			a.page_shift = (unsigned int)__builtin_ctzll(size);
			i++;
		} else if (!strcmp(opt, "--va-bits") && val) {
			a.va_bits = atoi(val);
			i++;
		} else if (!strcmp(opt, "--t1sz") && val) {
			t1sz = atoi(val);
			i++;
		} else if (!strcmp(opt, "--ram") && val) {
			a.ram_size = parse_num(val, "arm64 --ram");
			i++;
		} else if (!strcmp(opt, "--pre-5.4")) {
			a.pre_5_4 = true;
		} else if (!strcmp(opt, "--damage") && val && !strcmp(val, "loop")) {
			a.loop = true;
			i++;
		} else if (!strcmp(opt, "--facts") && val) {
			facts = val;
			i++;
		} else if (!strcmp(opt, "--vmcoreinfo-out") && val) {
			vmcoreinfo_out = val;
			i++;
		} else if (!strcmp(opt, "--osrelease") && val) {
			osrelease = val;
			i++;
		} else if (opt[0] != '-' && !out) {
			out = opt;
		} else {
			die("arm64: unknown or incomplete option '%s' (see tests/gen/gen_arm64.c)", opt);
		}
	}
	if (a.pre_5_4 && !strcmp(osrelease, "6.1.0-mkvmcore-arm64"))
		osrelease = "4.19.0-mkvmcore-arm64";
	if (!out)
		die("usage: mkvmcore --arch arm64 [--page-size 4K|16K|64K] [--va-bits N] [--t1sz N] [--pre-5.4] [--ram SIZE] "
		    "[--damage loop] [--facts FILE] [--vmcoreinfo-out FILE] OUT.elf");
	a.page_size = 1ULL << a.page_shift;
	a.va_walked = t1sz ? 64 - t1sz : a.va_bits;
	if (a.va_bits < 36 || a.va_bits > 52 || a.va_walked > a.va_bits || a.va_walked < 36 ||
	    (a.pre_5_4 && (a.va_bits > 48 || a.va_walked != a.va_bits)))
		die("arm64: VA_BITS %d walking %d bits is no arm64 kernel%s", a.va_bits, a.va_walked,
		    a.pre_5_4 ? " before 5.4" : "");
	a.levels = levels_for(a.va_walked, a.page_shift);
	a.top_bits = a.va_walked - (int)level_shift(&a, a.levels - 1);
	if (levels_for(a.va_bits, a.page_shift) == a.levels)
		a.top_bits += a.va_bits - a.va_walked;
	a.lpa2 = a.va_walked == 52 && a.page_shift != 16;
	a.pa52 = a.lpa2 || (a.page_shift == 16 && a.va_bits == 52);
	min_ram = (a.page_shift == 14 ? 64ULL : 16ULL) << 20;
	if (a.ram_size < min_ram || a.ram_size & ((2ULL << 20) - 1) || a.ram_size > (4ULL << 30))
		die("arm64: --ram must be 2M-aligned, %" PRIu64 " MiB to 4 GiB", min_ram >> 20);

	a.ram = xcalloc(1, a.ram_size);
	if (a.pa52)
		a.high = xcalloc(1, A64_HIGH_SIZE);
	a.next_table = A64_PHYS_OFFSET + a.ram_size;
	/*
	 * Since 5.4: the linear map in the lower half of the kernel's space,
	 * the image and vmalloc above; 52-on-48 moves PHYS_OFFSET.  Before:
	 * the other way round.  (a.upper: the half with the image.)
	 */
	a.linear_start = ~0ULL << a.va_walked;
	a.phys_offset_said = A64_PHYS_OFFSET - ((1ULL << a.va_bits) - (1ULL << a.va_walked));
	a.upper = a.linear_start + (1ULL << (a.va_walked - 1));
	if (a.pre_5_4) {
		a.upper = a.linear_start;
		a.linear_start += 1ULL << (a.va_walked - 1);
	}
	a.text_pa = A64_PHYS_OFFSET + A64_IMAGE_OFFSET;
	a.text_va = a.upper + (128ULL << 20) + (A64_KASLR & ((1ULL << (a.va_walked - 3)) - 1) & ~((2ULL << 20) - 1));
	a.kimage_voffset = a.text_va - a.text_pa;

	a64_image(&a);
	a64_linear(&a);
	a64_vmalloc(&a);
	/* Every other page of RAM below the tables starts with its linear address. */
	for (uint64_t pa = A64_PHYS_OFFSET; pa < a.next_table; pa += a.page_size)
		if (pa < a.text_pa || pa >= a.text_pa + A64_IMAGE_SIZE)
			a64_stamp(&a, pa, a.linear_start + (pa - A64_PHYS_OFFSET));
	if (a.loop) {
		uint64_t stext = a.text_va + A64_STEXT_OFFSET;

		put_le64(a64_phys(&a, a.root + level_index(&a, stext, a.levels - 1) * 8, 8),
			 a64_desc(&a, a.root, DESC_TABLE));
	}
	a64_vmcoreinfo(&a, osrelease);
	a64_write_elf(&a, out);

	if (facts) {
		FILE *f = fopen(facts, "w");

		if (!f)
			die("%s: %s", facts, strerror(errno));
		fprintf(f, "# mkvmcore --arch arm64: %" PRIu64 "K pages, VA_BITS %d walking %d bits, %d levels%s\n",
			a.page_size >> 10, a.va_bits, a.va_walked, a.levels, a.lpa2 ? ", LPA2" : "");
		fprintf(f, "levels=%d\n", a.levels);
		vtop_facts_write(f, &a.vtop);
		if (fclose(f))
			die("%s: %s", facts, strerror(errno));
	}
	if (vmcoreinfo_out)
		write_file_or_die(vmcoreinfo_out, a.vmcoreinfo, a.vmcoreinfo_len);
	free(a.ram);
	free(a.high);
	return 0;
}
