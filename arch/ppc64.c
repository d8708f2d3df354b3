// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ppc64 (64-bit POWER, Book3S): 8-byte pointers, 4 KiB or 64 KiB pages,
 * and two byte orders under one ELF machine (EM_PPC64): ppc64le, which
 * distributions ship today, and big-endian ppc64.  Two tables describe
 * them, alike but for their name and order.  A dump is of one when its
 * ELF says EM_PPC64 in that order, or its kdump header names it; VMCOREINFO
 * tells ppc64 apart from other machines (SYMBOL(mmu_psize_defs),
 * NUMBER(RADIX_MMU) and friends) but not its byte order.
 *
 * Whatever the kernel's byte order, its page-table entries are big-endian
 * (since 4.7, so that the radix MMU, which reads them in hardware, finds
 * them in its own order): they are read so here, and everything else in
 * the kernel's order.
 *
 * Where the kernel maps memory (its regions, top nibble 0xc):
 *
 *   linear map   PAGE_OFFSET 0xc000000000000000 plus the physical
 *                address, up to KERN_VIRT_START.  The kernel image lies
 *                in it (__pa(x) = x - PAGE_OFFSET, even when relocated).
 *   vmalloc, IO  from KERN_VIRT_START = VMALLOC_START: 0xc008000000000000
 *                with the radix MMU, and with 64K pages under hash since
 *                5.2, each region 2^49 bytes; 0xc000100000000000 (2^44
 *                each) with 4K pages under hash; 0xd000000000000000 in
 *                hash kernels before 5.2.  Recent kernels (6.12's) say
 *                NUMBER(VMALLOC_START); for older ones the first area on
 *                vmap_area_list tells, as upstream takes it.  Mapped by
 *                the Linux page tables alone.
 *   vmemmap      after IO (SYMBOL(vmemmap), the value of the kernel's
 *                `vmemmap`: 0xc00c000000000000 or 0xc000300000000000);
 *                0xf000000000000000 in older hash kernels.
 *
 * The radix MMU walks the Linux page tables in hardware, so they map the
 * linear map too (in 1G and 2M leaves).  The hash MMU walks its own hashed
 * page table; the kernel bolts the linear map and vmemmap there and keeps
 * Linux page tables for vmalloc and IO only.  For vmemmap it keeps instead
 * `vmemmap_list`, a list of struct vmemmap_backing { list, phys,
 * virt_addr }, each a block of 1 << mmu_psize_defs[mmu_vmemmap_psize].shift
 * bytes at virt_addr backed by phys; upstream makedumpfile and crash read
 * the list whenever it is not empty, and so does this file.
 *
 * The Linux page tables (swapper_pg_dir, or a process's mm->pgd) have four
 * levels, PGD, PUD, PMD and PTE, whose index widths depend on the MMU and
 * the page size (asm/book3s/64/radix-*.h, hash-*.h):
 *
 *             PTE PMD PUD PGD   bits walked
 *   radix 4K    9   9   9  13   52 (the PGD is 64 KiB: 16 pages)
 *   radix 64K   5   9   9  13   52 (a PTE table is 256 bytes)
 *   hash 4K     9   7   9   9   46
 *   hash 64K    8  10  10   8   52 (since 4.17; PUD 7 in 4.12 to 4.16;
 *                                    PMD 5, PUD 5, PGD 12 in 4.7 to 4.11)
 *
 * An index is taken from the address's low bits only (the region nibble
 * is ignored), so that the kernel's 0xc region indexes its own table from
 * entry 0.  Tables below the PGD are often smaller than a page (fragments
 * share a page), so no address here is assumed page-aligned.
 *
 * Entries: 0 is none.  _PAGE_PRESENT (bit 63) marks a valid entry at every
 * level; _PAGE_PTE (bit 62) marks a leaf: a page at the PTE level, a huge
 * mapping (2M at the PMD, 1G at the PUD, with either page size under
 * radix) above it.  A pointer to a table below is its physical address
 * with flags in 0xc0000000000000ff (the radix MMU's next-level size in the
 * low bits).  A leaf's physical address is bits PAGE_SHIFT to
 * _PAGE_PA_MAX - 1 (53; 57 before 4.11).  Hash kernels with 4K pages may
 * point at hugetlb pages through "hugepd" entries (present, not a leaf,
 * with a page-size code in the low bits): only user hugetlbfs mappings
 * use them, which are taken as unmapped here.  Kernels before 4.7 stored
 * entries in the kernel's order, tables by virtual address and other
 * flags, and are not read here.
 *
 * Which MMU: NUMBER(RADIX_MMU) where the kernel writes it, else
 * MMU_FTR_TYPE_RADIX (0x40) in cur_cpu_spec->mmu_features, else hash.  The
 * choice is checked against the tables: radix ones map _stext at its
 * linear address, hash ones never map the linear map.
 */
#include <elf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "input/dump_input.h"
#include "input/elf_notes.h"
#include "input/vmcoreinfo.h"
#include "util/addr_set.h"
#include "util/error.h"

#define PAGE_OFFSET UINT64_C(0xc000000000000000)
#define REGION_SHIFT 60
#define PTE_PRESENT (UINT64_C(1) << 63)
#define PTE_LEAF (UINT64_C(1) << 62)         /* _PAGE_PTE */
#define TABLE_FLAGS UINT64_C(0xc0000000000000ff)
#define HUGEPD_SHIFT_MASK UINT64_C(0x3f)
#define MMU_FTR_TYPE_RADIX 0x40u
#define RADIX_KERN_VIRT_START UINT64_C(0xc008000000000000)
#define LEVELS 4
#define PGD 3
#define PAGE_SIZES (4096u | 65536u)
/* mmu_psize_defs[] has MMU_PAGE_COUNT (16) entries, 4K to 16G pages. */
#define MMU_PAGE_COUNT 16

struct vmemmap_block {
	uint64_t virt;
	uint64_t phys;
};

struct ppc64_state {
	struct phys_reader reader;    /* in the kernel's order */
	unsigned int page_shift;
	bool radix;
	unsigned int index_bits[LEVELS];  /* PTE, PMD, PUD, PGD */
	unsigned int shift[LEVELS];       /* of the address bits each level indexes */
	unsigned int walked_bits;         /* of the address the tables cover */
	uint64_t rpn_mask;                /* a leaf's physical address bits */
	uint64_t root;                    /* swapper_pg_dir, physical */
	uint64_t linear_end;              /* KERN_VIRT_START */
	uint64_t vmalloc_start, vmalloc_end;
	uint64_t vmemmap_start;
	/* vmemmap_list, where the kernel keeps one: blocks of block_size bytes. */
	struct vmemmap_block *blocks;
	size_t nr_blocks;
	uint64_t block_size;
	uint64_t blocks_start, blocks_end;
};

/* A page-table entry: big-endian whatever the kernel's order. */
static struct mdf_error *read_entry(const struct ppc64_state *st, uint64_t paddr, uint64_t *entry)
{
	uint64_t raw;
	struct mdf_error *err = st->reader.read(st->reader.ctx, paddr, &raw, sizeof(raw));

	if (!err)
		*entry = dump_to_host64(BYTE_ORDER_BIG, raw);
	return err;
}

static uint64_t table_bytes(const struct ppc64_state *st, int level)
{
	return 8ull << st->index_bits[level];
}

static uint64_t entry_index(const struct ppc64_state *st, uint64_t vaddr, int level)
{
	return (vaddr >> st->shift[level]) & ((1ull << st->index_bits[level]) - 1);
}

/* A hash kernel's pointer to a hugetlb page directory: the low bits say a page size, not a table's. */
static bool is_hugepd(const struct ppc64_state *st, uint64_t entry)
{
	return !st->radix && (entry & HUGEPD_SHIFT_MASK);
}

static struct mdf_error *walk(const struct ppc64_state *st, uint64_t root, uint64_t vaddr, uint64_t *paddr,
			      uint64_t *page_size)
{
	uint64_t tables[LEVELS];
	uint64_t table = root, pointer = 0;

	for (int level = PGD; level >= 0; level--) {
		uint64_t entry, size = 1ull << st->shift[level], slot = table + entry_index(st, vaddr, level) * 8;
		struct mdf_error *err;

		tables[PGD - level] = table;
		err = read_entry(st, slot, &entry);
		if (err == &mdf_error_not_dumped && level < PGD)
			return mdf_error(-MDF_ECORRUPT, "walking 0x%" PRIx64 ", the entry at 0x%" PRIx64 " points to "
					 "a table at 0x%" PRIx64 ", outside the dump's memory", vaddr, pointer, table);
		if (err)
			return err;
		pointer = slot;
		if (!(entry & PTE_PRESENT))
			return &mdf_error_unmapped;
		if (level == 0 || (entry & PTE_LEAF)) {
			*paddr = (entry & st->rpn_mask & ~(size - 1)) | (vaddr & (size - 1));
			if (page_size)
				*page_size = size;
			return NULL;
		}
		if (is_hugepd(st, entry))
			return &mdf_error_unmapped;
		table = entry & ~TABLE_FLAGS;
		for (int above = 0; above <= PGD - level; above++)
			if (tables[above] == table)
				return mdf_error(-MDF_ECORRUPT, "page-table loop: walking 0x%" PRIx64 ", the table "
						 "at 0x%" PRIx64 " points back to the table at 0x%" PRIx64, vaddr,
						 tables[PGD - level], table);
	}
	return &mdf_error_unmapped;
}

/* The block of vmemmap_list holding @vaddr, or NULL. */
static const struct vmemmap_block *vmemmap_block_of(const struct ppc64_state *st, uint64_t vaddr)
{
	size_t low = 0, high = st->nr_blocks;

	while (low < high) {
		size_t mid = low + (high - low) / 2;

		if (vaddr < st->blocks[mid].virt)
			high = mid;
		else if (vaddr - st->blocks[mid].virt >= st->block_size)
			low = mid + 1;
		else
			return &st->blocks[mid];
	}
	return NULL;
}

static bool in_linear_map(const struct ppc64_state *st, uint64_t vaddr)
{
	return vaddr >= PAGE_OFFSET && vaddr < st->linear_end;
}

/* The kernel's address space: walked for its low bits, whatever region the top nibble names. */
static bool walkable(const struct ppc64_state *st, uint64_t vaddr)
{
	return !((vaddr & ~(0xfull << REGION_SHIFT)) >> st->walked_bits);
}

static struct mdf_error *ppc64_vtop(void *state, uint64_t vaddr, uint64_t *paddr, uint64_t *page_size)
{
	const struct ppc64_state *st = state;

	if (vaddr < PAGE_OFFSET)
		return &mdf_error_unmapped;
	if (st->nr_blocks && vaddr >= st->blocks_start && vaddr < st->blocks_end) {
		const struct vmemmap_block *block = vmemmap_block_of(st, vaddr);

		if (!block)
			return &mdf_error_unmapped;
		*paddr = block->phys + (vaddr - block->virt);
		if (page_size)
			*page_size = st->block_size;
		return NULL;
	}
	if (in_linear_map(st, vaddr)) {
		*paddr = vaddr - PAGE_OFFSET;
		if (page_size)
			*page_size = 1ull << st->page_shift;
		return NULL;
	}
	if (!walkable(st, vaddr))
		return &mdf_error_unmapped;
	return walk(st, st->root, vaddr, paddr, page_size);
}

/* A process's tables map its user addresses, below the kernel's regions; the rest is the kernel's. */
static struct mdf_error *ppc64_vtop_root(void *state, uint64_t root, uint64_t vaddr, uint64_t *paddr,
					 uint64_t *page_size)
{
	const struct ppc64_state *st = state;

	if (vaddr >= PAGE_OFFSET)
		return ppc64_vtop(state, vaddr, paddr, page_size);
	if (vaddr >> st->walked_bits)
		return &mdf_error_unmapped;
	return walk(st, root, vaddr, paddr, page_size);
}

/*
 * More table pages than this is a loop in damaged tables: 64 TiB mapped
 * with 4 KiB pages alone would need fewer.
 */
#define MAX_TABLE_PAGES (1u << 25)

struct table_walk {
	const struct ppc64_state *st;
	struct mdf_error *(*fn)(uint64_t paddr, void *arg);
	void *arg;
	struct addr_set tables;   /* each table once */
	struct addr_set pages;    /* each page once: tables share pages */
	uint64_t *entries;        /* a table's worth, for each level in turn */
	size_t widest;            /* entries of the largest table: each level's room */
};

/* The pages @table spans, each named once. */
static struct mdf_error *name_pages(struct table_walk *w, uint64_t table, uint64_t bytes)
{
	uint64_t page_size = 1ull << w->st->page_shift;

	for (uint64_t page = table & ~(page_size - 1); page < table + bytes; page += page_size) {
		bool added;
		struct mdf_error *err = addr_set_add(&w->pages, page, &added);

		if (err)
			return err;
		if (!added)
			continue;
		err = w->fn(page, w->arg);
		if (err)
			return err;
	}
	return NULL;
}

/* @table, at @level, and the tables below it. */
static struct mdf_error *walk_tables(struct table_walk *w, uint64_t table, int level)
{
	const struct ppc64_state *st = w->st;
	size_t count = (size_t)1 << st->index_bits[level];
	uint64_t *entries = w->entries + (size_t)(PGD - level) * w->widest;
	struct mdf_error *err = name_pages(w, table, table_bytes(st, level));

	if (err || level == 0)
		return err;
	if (mdf_error_drop(st->reader.read(st->reader.ctx, table, entries, count * 8)))
		return NULL;
	for (size_t i = 0; i < count && !err; i++) {
		uint64_t entry = dump_to_host64(BYTE_ORDER_BIG, entries[i]), next = entry & ~TABLE_FLAGS;
		bool added;

		if (!(entry & PTE_PRESENT) || (entry & PTE_LEAF) || is_hugepd(st, entry))
			continue;
		err = addr_set_add(&w->tables, next, &added);
		if (err)
			return err;
		if (!added)
			continue;
		if (w->pages.count > MAX_TABLE_PAGES)
			return mdf_error(-MDF_ECORRUPT, "the kernel page tables span more than %u pages below "
					 "swapper_pg_dir: a loop?", MAX_TABLE_PAGES);
		err = walk_tables(w, next, level - 1);
	}
	return err;
}

static struct mdf_error *ppc64_for_each_table_page(void *state, struct mdf_error *(*fn)(uint64_t paddr, void *arg),
						   void *arg)
{
	const struct ppc64_state *st = state;
	struct table_walk w = { .st = st, .fn = fn, .arg = arg };
	struct mdf_error *err;

	for (int level = 0; level < LEVELS; level++)
		if (((size_t)1 << st->index_bits[level]) > w.widest)
			w.widest = (size_t)1 << st->index_bits[level];
	w.entries = malloc(LEVELS * w.widest * sizeof(*w.entries));
	if (!w.entries)
		return &mdf_error_enomem;
	err = walk_tables(&w, st->root, PGD);
	addr_set_free(&w.tables);
	addr_set_free(&w.pages);
	free(w.entries);
	return err;
}

/* The kernel's 8- or 4-byte variable at linear address @vaddr, in the kernel's order. */
static struct mdf_error *read_kernel(const struct ppc64_state *st, uint64_t vaddr, void *value, size_t size)
{
	unsigned char raw[8];
	struct mdf_error *err;

	if (!in_linear_map(st, vaddr))
		return mdf_error(-MDF_ECORRUPT, "0x%" PRIx64 " is not in the linear map", vaddr);
	err = st->reader.read(st->reader.ctx, vaddr - PAGE_OFFSET, raw, size);
	if (err)
		return err;
	if (size == 8)
		*(uint64_t *)value = dump_to_host_bytes(st->reader.order, raw, 8);
	else
		*(uint32_t *)value = (uint32_t)dump_to_host_bytes(st->reader.order, raw, 4);
	return NULL;
}

/* "6.12.113+deb13-powerpc64le": 6 * 256 + 12; 0 when OSRELEASE does not say. */
static unsigned int kernel_version(const struct vmcoreinfo *vi)
{
	const char *release = vmcoreinfo_get(vi, "OSRELEASE");
	unsigned int major, minor;

	if (!release || sscanf(release, "%u.%u", &major, &minor) != 2)
		return 0;
	return major * 256 + minor;
}

#define VERSION(major, minor) ((major) * 256u + (minor))

/* The index widths and leaf address bits of the kernel's MMU, page size and version: the table above. */
static struct mdf_error *set_shape(struct ppc64_state *st, unsigned int version)
{
	static const unsigned int radix_4k[] = { 9, 9, 9, 13 }, radix_64k[] = { 5, 9, 9, 13 },
				  hash_4k[] = { 9, 7, 9, 9 }, hash_64k[] = { 8, 10, 10, 8 },
				  hash_64k_4_12[] = { 8, 10, 7, 8 }, hash_64k_4_7[] = { 8, 5, 5, 12 };
	const unsigned int *bits;
	unsigned int pa_max = version && version < VERSION(4, 11) ? 57 : 53;

	if (version && version < VERSION(4, 7))
		return mdf_error(-ENOTSUP, "a ppc64 kernel %u.%u: page tables before 4.7 are not read here",
				 version / 256, version % 256);
	if (st->radix)
		bits = st->page_shift == 12 ? radix_4k : radix_64k;
	else if (st->page_shift == 12)
		bits = hash_4k;
	else if (version && version < VERSION(4, 12))
		bits = hash_64k_4_7;
	else if (version && version < VERSION(4, 17))
		bits = hash_64k_4_12;
	else
		bits = hash_64k;
	st->walked_bits = st->page_shift;
	for (int level = 0; level < LEVELS; level++) {
		st->index_bits[level] = bits[level];
		st->shift[level] = st->walked_bits;
		st->walked_bits += bits[level];
	}
	st->rpn_mask = ((1ull << pa_max) - 1) & ~((1ull << st->page_shift) - 1);
	return NULL;
}

/* NUMBER(RADIX_MMU), else the CPU's MMU features, else hash (kernels before radix). */
static struct mdf_error *find_mmu(struct ppc64_state *st, const struct vmcoreinfo *vi)
{
	int64_t radix, features_offset;
	uint64_t spec_symbol, spec;
	uint32_t features;
	struct mdf_error *err;

	if (!mdf_error_drop(vmcoreinfo_lookup_number(vi, "RADIX_MMU", &radix))) {
		if (radix != 0 && radix != 1)
			return mdf_error(-MDF_ECORRUPT, "NUMBER(RADIX_MMU)=%" PRId64 " is neither 0 nor 1", radix);
		st->radix = radix;
		return NULL;
	}
	if (mdf_error_drop(vmcoreinfo_lookup_symbol(vi, "cur_cpu_spec", &spec_symbol)) ||
	    mdf_error_drop(vmcoreinfo_lookup_offset(vi, "cpu_spec.mmu_features", &features_offset)))
		return NULL;
	err = read_kernel(st, spec_symbol, &spec, 8);
	if (!err)
		err = read_kernel(st, spec + (uint64_t)features_offset, &features, 4);
	if (err)
		return mdf_error_wrap(err, "reading cur_cpu_spec->mmu_features (VMCOREINFO has no NUMBER(RADIX_MMU))");
	st->radix = features & MMU_FTR_TYPE_RADIX;
	return NULL;
}

/*
 * Where the linear map ends: NUMBER(VMALLOC_START), else the first vmalloc
 * area's address on vmap_area_list (as upstream takes it), else radix's
 * fixed start.
 */
static struct mdf_error *find_linear_end(struct ppc64_state *st, const struct vmcoreinfo *vi)
{
	int64_t vmalloc_start, va_start_offset, list_offset;
	uint64_t head, first;
	struct mdf_error *err;

	if (!mdf_error_drop(vmcoreinfo_lookup_number(vi, "VMALLOC_START", &vmalloc_start))) {
		st->linear_end = (uint64_t)vmalloc_start;
	} else if (!mdf_error_drop(vmcoreinfo_lookup_symbol(vi, "vmap_area_list", &head)) &&
		   !mdf_error_drop(vmcoreinfo_lookup_offset(vi, "vmap_area.va_start", &va_start_offset)) &&
		   !mdf_error_drop(vmcoreinfo_lookup_offset(vi, "vmap_area.list", &list_offset))) {
		err = read_kernel(st, head, &first, 8);
		if (!err && first != head)
			err = read_kernel(st, first - (uint64_t)list_offset + (uint64_t)va_start_offset,
					  &st->linear_end, 8);
		if (err)
			return mdf_error_wrap(err, "reading the first vmalloc area on vmap_area_list");
		if (first == head)
			st->linear_end = st->radix ? RADIX_KERN_VIRT_START : 0;
	} else if (st->radix) {
		st->linear_end = RADIX_KERN_VIRT_START;
	}
	if (!st->linear_end)
		return mdf_error(-MDF_ECORRUPT, "VMCOREINFO has neither NUMBER(VMALLOC_START) nor a vmalloc area "
				 "on vmap_area_list: where the linear map ends is unknown");
	if (st->linear_end <= PAGE_OFFSET || st->linear_end >> REGION_SHIFT < 0xc)
		return mdf_error(-MDF_ECORRUPT, "VMALLOC_START=0x%" PRIx64 " is not above the linear map at "
				 "0x%" PRIx64, st->linear_end, PAGE_OFFSET);
	/* The modern layouts' vmalloc regions; others' ends are not known here. */
	st->vmalloc_start = st->linear_end;
	if (st->linear_end == RADIX_KERN_VIRT_START)
		st->vmalloc_end = st->linear_end + (1ull << 49);
	else if (st->linear_end == 0xc000100000000000ull)
		st->vmalloc_end = st->linear_end + (1ull << 44);
	else
		st->vmalloc_start = 0;
	return NULL;
}

static int compare_blocks(const void *a, const void *b)
{
	const struct vmemmap_block *x = a, *y = b;

	return x->virt < y->virt ? -1 : x->virt > y->virt;
}

/* More vmemmap blocks than this is a loop: 16 PiB of memory in 16 MiB blocks. */
#define MAX_VMEMMAP_BLOCKS (1u << 22)

/* @lookup's answer for the line @line names, which vmemmap_list's blocks cannot be read without. */
static struct mdf_error *need(struct mdf_error *lookup, const char *line)
{
	if (!mdf_error_is_not_found(lookup))
		return lookup;
	return mdf_error(-MDF_ECORRUPT, "vmemmap_list is not empty, but VMCOREINFO has no %s", line);
}

/* vmemmap_list's blocks, sorted, where the list is not empty. */
static struct mdf_error *read_vmemmap_list(struct ppc64_state *st, const struct vmcoreinfo *vi)
{
	int64_t psize_size, shift_offset, list_offset, phys_offset, virt_offset;
	uint64_t list, psize_symbol, defs, node;
	uint32_t psize, shift;
	struct addr_set seen = { 0 };
	size_t cap = 0;
	struct mdf_error *err;

	if (mdf_error_drop(vmcoreinfo_lookup_symbol(vi, "vmemmap_list", &list)))
		return NULL;
	err = read_kernel(st, list, &node, 8);
	if (err)
		return mdf_error_wrap(err, "reading vmemmap_list");
	if (!node)
		return NULL;
	err = need(vmcoreinfo_lookup_symbol(vi, "mmu_vmemmap_psize", &psize_symbol), "SYMBOL(mmu_vmemmap_psize)");
	if (!err)
		err = need(vmcoreinfo_lookup_symbol(vi, "mmu_psize_defs", &defs), "SYMBOL(mmu_psize_defs)");
	if (!err)
		err = need(vmcoreinfo_lookup_size(vi, "mmu_psize_def", &psize_size), "SIZE(mmu_psize_def)");
	if (!err)
		err = need(vmcoreinfo_lookup_offset(vi, "mmu_psize_def.shift", &shift_offset),
			   "OFFSET(mmu_psize_def.shift)");
	if (!err)
		err = need(vmcoreinfo_lookup_offset(vi, "vmemmap_backing.list", &list_offset),
			   "OFFSET(vmemmap_backing.list)");
	if (!err)
		err = need(vmcoreinfo_lookup_offset(vi, "vmemmap_backing.phys", &phys_offset),
			   "OFFSET(vmemmap_backing.phys)");
	if (!err)
		err = need(vmcoreinfo_lookup_offset(vi, "vmemmap_backing.virt_addr", &virt_offset),
			   "OFFSET(vmemmap_backing.virt_addr)");
	if (!err)
		err = read_kernel(st, psize_symbol, &psize, 4);
	if (!err && psize >= MMU_PAGE_COUNT)
		err = mdf_error(-MDF_ECORRUPT, "mmu_vmemmap_psize=%u is no MMU page size", psize);
	if (!err)
		err = read_kernel(st, defs + psize * (uint64_t)psize_size + (uint64_t)shift_offset, &shift, 4);
	if (!err && (shift < st->page_shift || shift > 34))
		err = mdf_error(-MDF_ECORRUPT, "mmu_psize_defs[%u].shift=%u: no vmemmap page size", psize, shift);
	if (err)
		return err;
	st->block_size = 1ull << shift;
	while (node && !err) {
		struct vmemmap_block block;
		bool added;

		err = addr_set_add(&seen, node, &added);
		if (err)
			break;
		if (!added || seen.count > MAX_VMEMMAP_BLOCKS) {
			err = mdf_error(-MDF_ECORRUPT, "vmemmap_list loops back to the node at 0x%" PRIx64, node);
			break;
		}
		err = read_kernel(st, node + (uint64_t)virt_offset, &block.virt, 8);
		if (!err)
			err = read_kernel(st, node + (uint64_t)phys_offset, &block.phys, 8);
		if (!err)
			err = read_kernel(st, node + (uint64_t)list_offset, &node, 8);
		if (err) {
			err = mdf_error_wrap(err, "reading vmemmap_list");
			break;
		}
		if (block.virt < PAGE_OFFSET || block.virt & (st->block_size - 1) || block.virt + st->block_size < block.virt) {
			err = mdf_error(-MDF_ECORRUPT, "vmemmap_list names a block at 0x%" PRIx64 ", not a kernel "
					"address aligned to its %" PRIu64 " bytes", block.virt, st->block_size);
			break;
		}
		if (st->nr_blocks == cap) {
			struct vmemmap_block *grown;

			cap = cap ? cap * 2 : 64;
			grown = realloc(st->blocks, cap * sizeof(*grown));
			if (!grown) {
				err = &mdf_error_enomem;
				break;
			}
			st->blocks = grown;
		}
		st->blocks[st->nr_blocks++] = block;
	}
	addr_set_free(&seen);
	if (err)
		return err;
	qsort(st->blocks, st->nr_blocks, sizeof(*st->blocks), compare_blocks);
	for (size_t i = 1; i < st->nr_blocks; i++)
		if (st->blocks[i].virt == st->blocks[i - 1].virt)
			return mdf_error(-MDF_ECORRUPT, "vmemmap_list names the block at 0x%" PRIx64 " twice",
					 st->blocks[i].virt);
	st->blocks_start = st->blocks[0].virt;
	st->blocks_end = st->blocks[st->nr_blocks - 1].virt + st->block_size;
	return NULL;
}

/*
 * The MMU VMCOREINFO names against swapper_pg_dir: radix tables map
 * _stext where the linear map puts it, hash ones never hold the linear
 * map.  A wrong MMU, page size or root says so here, rather than as
 * wrong data everywhere.
 */
static struct mdf_error *check_tables(const struct ppc64_state *st, uint64_t stext, unsigned int version)
{
	struct ppc64_state as_radix = *st;
	uint64_t paddr;
	struct mdf_error *err = walk(st, st->root, stext, &paddr, NULL);
	bool maps_linear = !err && paddr == stext - PAGE_OFFSET;

	/* Radix tables read in hash's shape take radix's next-level sizes for hugepd codes: read them as radix. */
	if (!st->radix && (!err || err == &mdf_error_unmapped)) {
		as_radix.radix = true;
		mdf_error_free(set_shape(&as_radix, version));
		maps_linear = maps_linear || (!mdf_error_drop(walk(&as_radix, st->root, stext, &paddr, NULL)) &&
					      paddr == stext - PAGE_OFFSET);
	}

	if (err && err != &mdf_error_unmapped && err->shared)
		return mdf_error(-MDF_ECORRUPT, "the kernel page tables at physical 0x%" PRIx64 " (SYMBOL("
				 "swapper_pg_dir)) are not in the dump (%s)", st->root, mdf_error_text(err));
	if (err && err != &mdf_error_unmapped)
		return mdf_error_wrap(err, "translating SYMBOL(_stext)");
	if (st->radix && !maps_linear)
		return mdf_error(-MDF_ECORRUPT, "VMCOREINFO says the radix MMU with %u KiB pages, but those page "
				 "tables at SYMBOL(swapper_pg_dir) do not map SYMBOL(_stext)=%" PRIx64 " at physical "
				 "0x%" PRIx64, 1u << (st->page_shift - 10), stext, stext - PAGE_OFFSET);
	if (!st->radix && maps_linear)
		return mdf_error(-MDF_ECORRUPT, "VMCOREINFO says the hash MMU, but the page tables at SYMBOL("
				 "swapper_pg_dir) map the linear map (SYMBOL(_stext)=%" PRIx64 "), as radix ones do",
				 stext);
	return NULL;
}

/*
 * swapper_pg_dir's entries are empty or point at tables in memory: a root
 * elsewhere (a wrong SYMBOL(swapper_pg_dir), another page size) shows in
 * them even where no known address is mapped, as under hash.
 */
static struct mdf_error *check_root(const struct ppc64_state *st, uint64_t swapper)
{
	size_t count = (size_t)1 << st->index_bits[PGD];
	uint64_t *entries = malloc(count * 8);
	struct mdf_error *err;

	if (!entries)
		return &mdf_error_enomem;
	err = st->reader.read(st->reader.ctx, st->root, entries, count * 8);
	if (err && err->shared)
		err = mdf_error(-MDF_ECORRUPT, "the kernel page tables at physical 0x%" PRIx64 " (SYMBOL("
				"swapper_pg_dir)) are not in the dump (%s)", st->root, mdf_error_text(err));
	for (size_t i = 0; i < count && !err; i++) {
		uint64_t entry = dump_to_host64(BYTE_ORDER_BIG, entries[i]), probe;

		if (!entry)
			continue;
		if (!(entry & PTE_PRESENT) || (entry & PTE_LEAF) || is_hugepd(st, entry))
			err = mdf_error(-MDF_ECORRUPT, "SYMBOL(swapper_pg_dir)=%" PRIx64 " holds no page directory of "
					"%u KiB pages: its entry %zu, 0x%016" PRIx64 ", points to no table", swapper,
					1u << (st->page_shift - 10), i, entry);
		else if (mdf_error_drop(read_entry(st, entry & ~TABLE_FLAGS, &probe)))
			err = mdf_error(-MDF_ECORRUPT, "SYMBOL(swapper_pg_dir)=%" PRIx64 "'s entry %zu points to a "
					"table at 0x%" PRIx64 ", outside the dump's memory", swapper, i,
					entry & ~TABLE_FLAGS);
	}
	free(entries);
	return err;
}

static void ppc64_free(void *state)
{
	struct ppc64_state *st = state;

	if (st)
		free(st->blocks);
	free(st);
}

static struct mdf_error *ppc64_init(const struct vmcoreinfo *vi, const struct phys_reader *reader, void **out)
{
	struct ppc64_state *st = calloc(1, sizeof(*st));
	int64_t page_size;
	uint64_t swapper, stext;
	struct mdf_error *err = NULL;

	if (!st)
		return &mdf_error_enomem;
	st->reader = *reader;
	if (mdf_error_drop(vmcoreinfo_lookup_plain(vi, "PAGESIZE", &page_size)) ||
	    (page_size != 4096 && page_size != 65536))
		err = mdf_error(-MDF_ECORRUPT, "VMCOREINFO's PAGESIZE=%.40s is no ppc64 page size (4096 or 65536)",
				vmcoreinfo_get(vi, "PAGESIZE") ? vmcoreinfo_get(vi, "PAGESIZE") : "(none)");
	if (!err && mdf_error_drop(vmcoreinfo_lookup_symbol(vi, "swapper_pg_dir", &swapper)))
		err = mdf_error(-MDF_ECORRUPT, "VMCOREINFO has no SYMBOL(swapper_pg_dir): cannot walk the kernel "
				"page tables");
	if (!err && mdf_error_drop(vmcoreinfo_lookup_symbol(vi, "_stext", &stext)))
		err = mdf_error(-MDF_ECORRUPT, "VMCOREINFO has no SYMBOL(_stext): the page tables cannot be checked");
	if (err)
		goto fail;
	st->page_shift = (unsigned int)__builtin_ctzll((uint64_t)page_size);
	/* Until the linear map's end is known, all of the 0xc region reads as linear. */
	st->linear_end = RADIX_KERN_VIRT_START;
	if (swapper < PAGE_OFFSET || stext < PAGE_OFFSET || swapper >= RADIX_KERN_VIRT_START ||
	    stext >= RADIX_KERN_VIRT_START) {
		err = mdf_error(-MDF_ECORRUPT, "SYMBOL(swapper_pg_dir)=%" PRIx64 " and SYMBOL(_stext)=%" PRIx64
				" are not both in the linear map at 0x%" PRIx64, swapper, stext, PAGE_OFFSET);
		goto fail;
	}
	st->root = swapper - PAGE_OFFSET;
	err = find_mmu(st, vi);
	if (!err)
		err = set_shape(st, kernel_version(vi));
	if (!err)
		err = find_linear_end(st, vi);
	if (!err && (swapper >= st->linear_end || stext >= st->linear_end))
		err = mdf_error(-MDF_ECORRUPT, "SYMBOL(swapper_pg_dir)=%" PRIx64 " and SYMBOL(_stext)=%" PRIx64
				" are not both below VMALLOC_START=0x%" PRIx64, swapper, stext, st->linear_end);
	if (!err)
		err = check_tables(st, stext, kernel_version(vi));
	if (!err)
		err = check_root(st, swapper);
	if (!err)
		err = read_vmemmap_list(st, vi);
	if (err)
		goto fail;
	if (mdf_error_drop(vmcoreinfo_lookup_symbol(vi, "vmemmap", &st->vmemmap_start)))
		st->vmemmap_start = st->blocks_start;
	*out = st;
	return NULL;
fail:
	ppc64_free(st);
	return err;
}

static bool ppc64_is_kernel_address(const void *state, uint64_t vaddr)
{
	(void)state;
	return vaddr >= PAGE_OFFSET;
}

/* [_text, _end) in the linear map. */
static struct mdf_error *ppc64_kernel_image(void *state, const struct arch_symbols *syms, struct arch_image *out)
{
	const struct ppc64_state *st = state;
	uint64_t text, end, page_size = 1ull << st->page_shift;
	struct mdf_error *err = arch_image_bounds(syms, &text, &end);

	if (err)
		return err;
	if (end <= text || text % page_size || !in_linear_map(st, text) || !in_linear_map(st, end - 1))
		return mdf_error(-MDF_ECORRUPT, "_text=%" PRIx64 " and _end=%" PRIx64 " do not bound a kernel "
				 "image in the linear map", text, end);
	arch_image_set(out, text, end, text - PAGE_OFFSET, page_size);
	return NULL;
}

static struct mdf_error *ppc64_address_space(void *state, const struct arch_symbols *syms,
					     struct arch_address_space *out)
{
	const struct ppc64_state *st = state;

	(void)syms;
	out->direct_map = PAGE_OFFSET;
	out->vmemmap_start = st->vmemmap_start;
	out->vmalloc_start = st->vmalloc_start;
	out->vmalloc_end = st->vmalloc_end;
	return NULL;
}

/* Lines only ppc64 kernels write (arch/powerpc/kexec/core.c). */
static const char *const ppc64_vmcoreinfo_keys[] = {
	"SYMBOL(mmu_psize_defs)",
	"SYMBOL(mmu_vmemmap_psize)",
	"NUMBER(RADIX_MMU)",
	NULL,
};

/*
 * -E keeps a QEMU dump's addresses: kexec-tools gives ppc64's segments
 * linear-map addresses alone, with no kernel-image segment first.
 */
#define PPC64_PR_REG_OFFSET 112
#define PPC64_PT_MSR 33
#define PPC64_MSR_OFFSET (PPC64_PR_REG_OFFSET + PPC64_PT_MSR * 8)
#define MSR_SF (UINT64_C(1) << 63)
#define MSR_PR (UINT64_C(1) << 14)
#define MSR_IR (UINT64_C(1) << 5)
#define MSR_DR (UINT64_C(1) << 4)
#define MSR_LE (UINT64_C(1) << 0)

/* What the ppc64 CPUs' MSRs say: the first witness, and the first that disagrees with it. */
struct msr_witnesses {
	unsigned int count;
	unsigned int first_cpu, other_cpu;
	uint64_t first_msr, other_msr;
	bool disagree;
};

static bool msr_testifies(uint64_t msr)
{
	return (msr & MSR_SF) && !(msr & MSR_PR) && (msr & (MSR_IR | MSR_DR)) == (MSR_IR | MSR_DR);
}

static enum byte_order msr_order(uint64_t msr)
{
	return msr & MSR_LE ? BYTE_ORDER_LITTLE : BYTE_ORDER_BIG;
}

static void hear_ppc64_cpus(const struct dump_input *in, struct msr_witnesses *w)
{
	struct elf_note note;
	unsigned int cpu = 0;
	size_t pos = 0;

	memset(w, 0, sizeof(*w));
	while (elf_note_next(in->notes, in->notes_size, in->notes_order, &pos, &note) == ELF_NOTE_FOUND) {
		uint64_t msr;

		if (note.type != NT_PRSTATUS || !elf_note_named(&note, "CORE"))
			continue;
		cpu++;
		if (note.desc_size < PPC64_MSR_OFFSET + sizeof(msr))
			continue;
		msr = dump_to_host_bytes(in->notes_order, note.desc + PPC64_MSR_OFFSET, sizeof(msr));
		if (!msr_testifies(msr))
			continue;
		if (!w->count++) {
			w->first_cpu = cpu - 1;
			w->first_msr = msr;
		} else if (!w->disagree && msr_order(msr) != msr_order(w->first_msr)) {
			w->disagree = true;
			w->other_cpu = cpu - 1;
			w->other_msr = msr;
		}
	}
}

/*
 * The byte order a ppc64 dump's CPUs ran in: each CPU's Machine State
 * Register, in the pr_reg of its NT_PRSTATUS note (struct elf_prstatus:
 * pr_reg, the kernel's struct pt_regs, at byte 112; the MSR is its word
 * 33, PT_MSR), says it in bit 0, LE, in QEMU's dumps as in kexec's.  A
 * CPU's word counts when it was running the kernel: in 64-bit mode (SF,
 * bit 63, which a word read in the wrong order lacks), with address
 * translation on (IR and DR, bits 5 and 4: firmware calls, RTAS and OPAL,
 * run big-endian in real mode) and not in user mode (PR, bit 14: a
 * process may switch its own order with prctl(PR_SET_ENDIAN)).  The MSR
 * is the CPU's own word on how it ran, in every ppc64 dump, before
 * anything is known of the kernel: QEMU 7.2 labels a ppc64el guest's ELF
 * big-endian.  CPUs that disagree leave the order unsettled, an error: a
 * wrong guess would make a wrong dump.
 */
static struct mdf_error *ppc64_cpus_byte_order(const struct dump_input *in, enum byte_order *order)
{
	struct msr_witnesses w;

	hear_ppc64_cpus(in, &w);
	if (w.disagree)
		return mdf_error(-MDF_ECORRUPT, "%s: the byte order of the memory cannot be settled: the "
				 "MSR of CPU %u (0x%" PRIx64 ") says %s, that of CPU %u (0x%" PRIx64 ") %s",
				 in->path, w.first_cpu, w.first_msr, byte_order_name(msr_order(w.first_msr)),
				 w.other_cpu, w.other_msr, byte_order_name(msr_order(w.other_msr)));
	if (!w.count)
		return &mdf_error_not_found;
	*order = msr_order(w.first_msr);
	return NULL;
}

#define PPC64_OPS                                               \
	.elf_machine = EM_PPC64,                                \
	.cpus_byte_order = ppc64_cpus_byte_order,               \
	.vmcoreinfo_keys = ppc64_vmcoreinfo_keys,               \
	.pointer_size = 8,                                      \
	.page_sizes = PAGE_SIZES,                               \
	.default_page_size = 65536,                             \
	.init = ppc64_init,                                     \
	.free = ppc64_free,                                     \
	.vtop = ppc64_vtop,                                     \
	.vtop_root = ppc64_vtop_root,                           \
	.for_each_table_page = ppc64_for_each_table_page,       \
	.is_kernel_address = ppc64_is_kernel_address,           \
	.kernel_image = ppc64_kernel_image,                     \
	.address_space = ppc64_address_space,                   \
	.kexec_vaddrs = false

const struct arch_ops arch_ppc64le = {
	.name = "ppc64le",
	.byte_order = BYTE_ORDER_LITTLE,
	PPC64_OPS,
};

const struct arch_ops arch_ppc64 = {
	.name = "ppc64",
	.byte_order = BYTE_ORDER_BIG,
	PPC64_OPS,
};
