// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86_64 page tables of the generated kernel, rooted at init_top_pgt.
 *
 * 4-level: PGD(39) PUD(30) PMD(21) PTE(12); 5-level adds P4D(39) under a
 * PML5 at 48.  Large pages set PSE in a PUD (1 GiB) or PMD (2 MiB) entry.
 * Tables made while "booting" come from memblock (they stay PG_reserved);
 * tables made later come from the page allocator, as split_large_page() and
 * vmalloc do.
 *
 * The direct map is laid out the way init_mem_mapping() does it: the ISA
 * range with 4 KiB pages, then memory_map_top_down() maps RAM in chunks that
 * grow from 2 MiB by a factor of 256, each chunk split by split_mem_range()
 * into 4 KiB heads and tails, 2 MiB runs and 1 GiB middles.  1 GiB pages
 * therefore only appear for whole GiBs of RAM well below the top of memory.
 */
#include <inttypes.h>
#include <string.h>

#include "mkvmcore.h"

#define PAGE_KERNEL		(PTE_PRESENT | PTE_RW | PTE_ACCESSED | \
				 PTE_DIRTY | PTE_GLOBAL | PTE_NX)

static int level_shift(const struct gen *g, int level)
{
	/* level 0 is the root */
	return (g->levels == 5 ? 48 : 39) - 9 * level;
}

static uint64_t read_entry(const struct gen *g, uint64_t table, int idx)
{
	const uint8_t *p = phys_peek(g, table + idx * 8);

	return p ? get_le64(p) : 0;
}

static void write_entry(struct gen *g, uint64_t table, int idx, uint64_t v)
{
	put_le64(phys_ptr(g, table + idx * 8, 8), v);
}

static uint64_t new_table(struct gen *g, bool late)
{
	uint64_t pa = late ? page_alloc(g, PC_KERNEL)
			   : memblock_alloc(g, PAGE_SIZE, PAGE_SIZE);

	memset(phys_ptr(g, pa, PAGE_SIZE), 0, PAGE_SIZE);
	return pa;
}

void pt_link_table(struct gen *g, uint64_t table_paddr, int index,
		   uint64_t child_paddr)
{
	write_entry(g, table_paddr, index, child_paddr | KERNPG_TABLE);
}

/*
 * Maps one page of the given size.  Returns false, mapping nothing, when a
 * table already covers the place the large page would go: the kernel then
 * keeps the table and fills it with smaller pages.
 */
static bool try_map(struct gen *g, uint64_t vaddr, uint64_t paddr,
		    uint64_t size, uint64_t prot, bool late)
{
	int leaf = size == PUD_SIZE ? 30 : size == PMD_SIZE ? 21 : 12;
	uint64_t table = g->pgd_paddr, e;
	int level, idx;

	if ((vaddr | paddr) & (size - 1))
		die("internal: misaligned mapping %#" PRIx64 " -> %#" PRIx64,
		    vaddr, paddr);
	for (level = 0; level_shift(g, level) > leaf; level++) {
		idx = (vaddr >> level_shift(g, level)) & 511;
		e = read_entry(g, table, idx);
		if (!(e & PTE_PRESENT)) {
			e = new_table(g, late) | KERNPG_TABLE;
			write_entry(g, table, idx, e);
		} else if (e & PTE_PSE) {
			die("internal: %#" PRIx64 " already in a large page",
			    vaddr);
		}
		table = e & PTE_ADDR_MASK;
	}
	idx = (vaddr >> leaf) & 511;
	e = read_entry(g, table, idx);
	if (e & PTE_PRESENT) {
		if (leaf > 12 && !(e & PTE_PSE))
			return false;
		die("internal: %#" PRIx64 " mapped twice", vaddr);
	}
	write_entry(g, table, idx, paddr | prot | PTE_PRESENT |
		    (leaf > 12 ? PTE_PSE : 0));
	return true;
}

void pt_map(struct gen *g, uint64_t vaddr, uint64_t paddr, uint64_t size,
	    uint64_t prot, bool late)
{
	if (!try_map(g, vaddr, paddr, size, prot, late))
		die("internal: %#" PRIx64 " already has a table", vaddr);
}

/* The entry that maps vaddr at the level of the given page size. */
static uint64_t entry_addr(const struct gen *g, uint64_t vaddr, int leaf)
{
	uint64_t table = g->pgd_paddr, e;
	int level;

	for (level = 0; level_shift(g, level) > leaf; level++) {
		e = read_entry(g, table, (vaddr >> level_shift(g, level)) & 511);
		if (!(e & PTE_PRESENT) || (e & PTE_PSE))
			die("internal: no table above %#" PRIx64, vaddr);
		table = e & PTE_ADDR_MASK;
	}
	return table + ((vaddr >> leaf) & 511) * 8;
}

/*
 * split_large_page(): a 2 MiB page becomes a table of 512 small pages with
 * the same protections, so that some of them can change.
 */
void pt_split_2m(struct gen *g, uint64_t vaddr)
{
	uint64_t ea = entry_addr(g, vaddr, 21);
	uint64_t e = get_le64(phys_ptr(g, ea, 8)), pte_table, prot;

	if (!(e & PTE_PRESENT) || !(e & PTE_PSE))
		die("internal: %#" PRIx64 " is not a 2 MiB page", vaddr);
	pte_table = new_table(g, true);
	prot = e & ~PTE_ADDR_MASK & ~PTE_PSE;
	for (int i = 0; i < 512; i++)
		write_entry(g, pte_table, i,
			    ((e & PTE_ADDR_MASK) + i * PAGE_SIZE) | prot);
	put_le64(phys_ptr(g, ea, 8), pte_table | KERNPG_TABLE);
}

void pt_unmap_4k(struct gen *g, uint64_t vaddr)
{
	put_le64(phys_ptr(g, entry_addr(g, vaddr, 12), 8), 0);
}

bool pt_walk(const struct gen *g, uint64_t vaddr, uint64_t *paddr,
	     uint64_t *pagesize)
{
	uint64_t table = g->pgd_paddr, e;

	for (int level = 0; level < g->levels; level++) {
		int shift = level_shift(g, level);

		e = read_entry(g, table, (vaddr >> shift) & 511);
		if (!(e & PTE_PRESENT))
			return false;
		if (shift == 12 || (shift <= 30 && (e & PTE_PSE))) {
			uint64_t size = 1ULL << shift;

			*paddr = (e & PTE_ADDR_MASK & ~(size - 1)) +
				 (vaddr & (size - 1));
			*pagesize = size;
			return true;
		}
		table = e & PTE_ADDR_MASK;
	}
	return false;
}

void kv_write(struct gen *g, uint64_t vaddr, const void *buf, size_t len)
{
	const uint8_t *src = buf;

	while (len) {
		size_t n = PAGE_SIZE - (vaddr & (PAGE_SIZE - 1));
		uint64_t pa, size;

		if (!pt_walk(g, vaddr, &pa, &size))
			die("internal: write to unmapped %#" PRIx64, vaddr);
		if (n > len)
			n = len;
		phys_write(g, pa, src, n);
		vaddr += n;
		src += n;
		len -= n;
	}
}

void kv_write64(struct gen *g, uint64_t vaddr, uint64_t val)
{
	uint8_t b[8];

	put_le64(b, val);
	kv_write(g, vaddr, b, 8);
}

uint64_t dm_vaddr(const struct gen *g, uint64_t paddr)
{
	return g->page_offset + paddr;
}

void note_vtop(struct gen *g, uint64_t vaddr, const char *region)
{
	if (g->nvtops == (int)(sizeof(g->vtops) / sizeof(g->vtops[0])))
		die("internal: too many vtop samples");
	g->vtops[g->nvtops].vaddr = vaddr;
	g->vtops[g->nvtops].region = region;
	g->nvtops++;
}

void note_vtop_fail(struct gen *g, uint64_t vaddr)
{
	uint64_t pa, size;

	if (pt_walk(g, vaddr, &pa, &size))
		die("internal: %#" PRIx64 " should be unmapped", vaddr);
	if (g->nvtop_fail == (int)(sizeof(g->vtop_fail) /
				   sizeof(g->vtop_fail[0])))
		die("internal: too many vtop_fail samples");
	g->vtop_fail[g->nvtop_fail++] = vaddr;
}

/* Maps [start, end) of the direct map with pages of at most maxsize. */
static void map_direct_range(struct gen *g, uint64_t start, uint64_t end,
			     uint64_t maxsize)
{
	static const uint64_t sizes[] = { PUD_SIZE, PMD_SIZE, PAGE_SIZE };

	while (start < end) {
		for (size_t i = 0; i < 3; i++) {
			uint64_t size = sizes[i];

			if (size > maxsize || start & (size - 1) ||
			    end - start < size)
				continue;
			if (try_map(g, dm_vaddr(g, start), start, size,
				    PAGE_KERNEL, false)) {
				/* one sample per page size, off the first page */
				if (!(g->dm_sampled & (1 << i)) && start) {
					g->dm_sampled |= 1 << i;
					note_vtop(g, dm_vaddr(g, start) +
						  size / 2 + 0x7b8, "direct");
				}
				start += size;
				break;
			}
		}
	}
}

/* init_memory_mapping() with split_mem_range()'s page-size choice */
static void init_memory_mapping(struct gen *g, uint64_t start, uint64_t end)
{
	uint64_t a = start, b;

	b = (a + PMD_SIZE - 1) & ~(PMD_SIZE - 1);
	if (b > end)
		b = end;
	map_direct_range(g, a, b, PAGE_SIZE);
	a = b;

	b = (a + PUD_SIZE - 1) & ~(PUD_SIZE - 1);
	if (b > (end & ~(PMD_SIZE - 1)))
		b = end & ~(PMD_SIZE - 1);
	if (a < b) {
		map_direct_range(g, a, b, PMD_SIZE);
		a = b;
	}

	b = end & ~(PUD_SIZE - 1);
	if (((a + PUD_SIZE - 1) & ~(PUD_SIZE - 1)) < b) {
		a = (a + PUD_SIZE - 1) & ~(PUD_SIZE - 1);
		map_direct_range(g, a, b, PUD_SIZE);
		a = b;
	}

	b = end & ~(PMD_SIZE - 1);
	if (((a + PMD_SIZE - 1) & ~(PMD_SIZE - 1)) < b) {
		a = (a + PMD_SIZE - 1) & ~(PMD_SIZE - 1);
		map_direct_range(g, a, b, PMD_SIZE);
		a = b;
	}
	map_direct_range(g, a, end, PAGE_SIZE);
}

static uint64_t init_range_memory_mapping(struct gen *g, uint64_t rstart,
					  uint64_t rend)
{
	uint64_t mapped = 0;

	for (int i = 0; i < g->nram; i++) {
		uint64_t s = (g->ram[i].start + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
		uint64_t e = g->ram[i].end & ~(PAGE_SIZE - 1);

		if (s < rstart)
			s = rstart;
		if (e > rend)
			e = rend;
		if (s >= e)
			continue;
		init_memory_mapping(g, s, e);
		mapped += e - s;
	}
	return mapped;
}

void pt_map_direct(struct gen *g)
{
	uint64_t map_start = 0x100000, map_end = g->max_pfn << PAGE_SHIFT;
	uint64_t real_end = 0, last_start, step = PMD_SIZE, mapped = 0;

	init_memory_mapping(g, 0, map_start);

	/* the highest free 2 MiB block: where top-down mapping begins */
	for (int i = g->nram - 1; i >= 0 && !real_end; i--) {
		uint64_t e = g->ram[i].end & ~(PMD_SIZE - 1);

		if (e >= g->ram[i].start + PMD_SIZE && e > map_start)
			real_end = e;
	}
	last_start = real_end;
	while (last_start > map_start) {
		uint64_t start = map_start;

		if (last_start > step) {
			start = (last_start - 1) & ~(step - 1);
			if (start < map_start)
				start = map_start;
		}
		mapped += init_range_memory_mapping(g, start, last_start);
		last_start = start;
		if (mapped >= step)
			step <<= 8;
	}
	if (real_end < map_end)
		init_range_memory_mapping(g, real_end, map_end);
	note_vtop_fail(g, dm_vaddr(g, map_end));
}
