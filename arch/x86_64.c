// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86_64: 4- and 5-level page tables rooted at init_top_pgt.
 *
 * The root table lives in the kernel image, whose physical address is its
 * virtual address minus __START_KERNEL_map plus phys_base; with KASLR both
 * the virtual symbol (VMCOREINFO's SYMBOL() lines are run-time addresses)
 * and phys_base move, so no other knowledge is needed.  From the root a
 * walk descends four (or five, NUMBER(pgtable_l5_enabled)=1) levels; PUD
 * and PMD entries with the PS bit map 1 GiB and 2 MiB pages.  AMD SME sets
 * a physical-address bit in every entry (NUMBER(sme_mask)), which the walk
 * masks off.
 */
#include <endian.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "input/vmcoreinfo.h"
#include "util/addr_set.h"
#include "util/error.h"

#define START_KERNEL_MAP 0xffffffff80000000ull
#define PTE_PRESENT 0x1ull
#define PTE_LARGE 0x80ull
#define PTE_ADDR_MASK 0x000ffffffffff000ull
#define ENTRIES_PER_TABLE 512

struct x86_64_state {
	struct phys_reader reader;
	uint64_t root;        /* physical address of init_top_pgt */
	int levels;
	uint64_t sme_mask;
};

static struct mdf_error *x86_64_init(const struct vmcoreinfo *vi, const struct phys_reader *reader, void **out)
{
	struct x86_64_state *st;
	uint64_t top_pgt;
	int64_t phys_base, l5 = 0, sme_mask = 0;

	if (!vmcoreinfo_symbol(vi, "init_top_pgt", &top_pgt) &&
	    !vmcoreinfo_symbol(vi, "init_level4_pgt", &top_pgt))
		return mdf_error(-MDF_ECORRUPT,
				 "VMCOREINFO has no SYMBOL(init_top_pgt): cannot walk the kernel page tables");
	if (!vmcoreinfo_number(vi, "phys_base", &phys_base))
		return mdf_error(-MDF_ECORRUPT,
				 "VMCOREINFO has no NUMBER(phys_base): cannot locate the kernel image");
	if (top_pgt < START_KERNEL_MAP)
		return mdf_error(-MDF_ECORRUPT,
				 "SYMBOL(init_top_pgt)=%llx is outside the kernel image mapping",
				 (unsigned long long)top_pgt);
	vmcoreinfo_number(vi, "pgtable_l5_enabled", &l5);
	vmcoreinfo_number(vi, "sme_mask", &sme_mask);

	st = calloc(1, sizeof(*st));
	if (!st)
		return &mdf_error_enomem;
	st->reader = *reader;
	st->root = top_pgt - START_KERNEL_MAP + (uint64_t)phys_base;
	st->levels = l5 ? 5 : 4;
	st->sme_mask = (uint64_t)sme_mask;
	*out = st;
	return NULL;
}

static bool is_canonical(uint64_t vaddr, int levels)
{
	int bits = levels == 5 ? 57 : 48;
	int64_t sign_extended = (int64_t)(vaddr << (64 - bits)) >> (64 - bits);

	return (uint64_t)sign_extended == vaddr;
}

static struct mdf_error *x86_64_vtop_root(void *state, uint64_t root, uint64_t vaddr, uint64_t *paddr,
					  uint64_t *page_size)
{
	struct x86_64_state *st = state;
	uint64_t table = root & ~st->sme_mask & PTE_ADDR_MASK;

	if (!is_canonical(vaddr, st->levels))
		return &mdf_error_unmapped;
	for (int level = st->levels; level >= 1; level--) {
		/* Level 1 is the PTE table; each level above it covers 9 more bits. */
		int shift = 12 + 9 * (level - 1);
		uint64_t index = (vaddr >> shift) & (ENTRIES_PER_TABLE - 1);
		uint64_t entry, next;
		struct mdf_error *err;

		err = st->reader.read(st->reader.ctx, table + index * 8, &entry, sizeof(entry));
		if (err)
			return err;
		if (!(entry & PTE_PRESENT))
			return &mdf_error_unmapped;
		next = entry & ~st->sme_mask & PTE_ADDR_MASK;
		if (level == 1 || ((level == 2 || level == 3) && (entry & PTE_LARGE))) {
			uint64_t size = 1ull << shift;

			*paddr = (next & ~(size - 1)) | (vaddr & (size - 1));
			if (page_size)
				*page_size = size;
			return NULL;
		}
		table = next;
	}
	return &mdf_error_unmapped;
}

static struct mdf_error *x86_64_vtop(void *state, uint64_t vaddr, uint64_t *paddr, uint64_t *page_size)
{
	struct x86_64_state *st = state;

	return x86_64_vtop_root(state, st->root, vaddr, paddr, page_size);
}

/*
 * More table pages than this is a loop in damaged tables: a 64 TiB machine
 * mapped with 4 KiB pages alone would need fewer.
 */
#define MAX_TABLE_PAGES (1u << 25)

struct table_walk {
	struct x86_64_state *st;
	struct mdf_error *(*fn)(uint64_t paddr, void *arg);
	void *arg;
	struct addr_set seen;
};

/* @table, at @level, and the tables below it; at the top only the kernel's half. */
static struct mdf_error *walk_table(struct table_walk *w, uint64_t table, int level)
{
	struct x86_64_state *st = w->st;
	uint64_t entries[ENTRIES_PER_TABLE];
	size_t first = level == st->levels ? ENTRIES_PER_TABLE / 2 : 0;
	struct mdf_error *err = w->fn(table, w->arg);

	if (err || level == 1)
		return err;
	if (mdf_error_drop(st->reader.read(st->reader.ctx, table, entries, sizeof(entries))))
		return NULL;
	for (size_t i = first; i < ENTRIES_PER_TABLE && !err; i++) {
		uint64_t entry = le64toh(entries[i]), next = entry & ~st->sme_mask & PTE_ADDR_MASK;
		int added;

		if (!(entry & PTE_PRESENT) || ((level == 2 || level == 3) && (entry & PTE_LARGE)))
			continue;
		added = addr_set_add(&w->seen, next);
		if (added < 0)
			return &mdf_error_enomem;
		if (added == 1)
			continue;
		if (w->seen.count > MAX_TABLE_PAGES)
			return mdf_error(-MDF_ECORRUPT, "the kernel page tables hold more than %u "
					 "tables below init_top_pgt: a loop?", MAX_TABLE_PAGES);
		err = walk_table(w, next, level - 1);
	}
	return err;
}

static struct mdf_error *x86_64_for_each_table_page(void *state,
						    struct mdf_error *(*fn)(uint64_t paddr, void *arg),
						    void *arg)
{
	struct x86_64_state *st = state;
	struct table_walk w = { .st = st, .fn = fn, .arg = arg };
	struct mdf_error *err = walk_table(&w, st->root & ~st->sme_mask & PTE_ADDR_MASK, st->levels);

	addr_set_free(&w.seen);
	return err;
}

static void x86_64_free(void *state)
{
	free(state);
}

const struct arch_ops arch_x86_64 = {
	.name = "x86_64",
	.init = x86_64_init,
	.vtop = x86_64_vtop,
	.vtop_root = x86_64_vtop_root,
	.for_each_table_page = x86_64_for_each_table_page,
	.free = x86_64_free,
};
