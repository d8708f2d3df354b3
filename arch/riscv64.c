// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * riscv64: little-endian, 8-byte pointers, 4 KiB pages; the kernel's page
 * tables from swapper_pg_dir in Sv39, Sv48 or Sv57.  A dump is of it when
 * its ELF says EM_RISCV, its kdump header "riscv64", or else VMCOREINFO
 * has NUMBER(va_kernel_pa_offset) or NUMBER(phys_ram_base), which only
 * riscv64 writes.
 *
 * The walk.  Sv39, Sv48 and Sv57 translate 39, 48 or 57 bits of address
 * in 3, 4 or 5 levels of 512 8-byte entries: each level resolves 9 bits
 * above the 12 of the page offset.  The kernel picks the mode at boot (the
 * most the CPU has, less with no5lvl or no4lvl), so the kernel's build
 * does not tell it: VMCOREINFO's NUMBER(VA_BITS) does.  An address is
 * valid when the bits above the walked ones copy the top walked bit: the
 * kernel's half has them set, user space's clear.
 *
 * An entry: bit 0 V (valid), bits 1-3 R, W, X, bits 10-53 the physical
 * page number (PPN), bits 54-63 other things: Svpbmt's memory type
 * (61-62), Svnapot's N (63), T-Head's own memory type (59-63).  With R,
 * W and X all clear, a valid entry points to the next table; with any of
 * them set it is a leaf, at any level: a 4 KiB page at the last, a 2 MiB,
 * 1 GiB, 512 GiB or 256 TiB "huge" page above it, whose PPN's bits below
 * that size must be zero (the hardware faults otherwise; they are
 * ignored here).  W without R is reserved and not valid; neither is a
 * table entry at the last level.
 *
 * Svnapot: a last-level leaf with N set whose PPN ends in binary 1000
 * maps, with its 15 neighbours that say the same, one naturally aligned
 * 64 KiB (the only napot size Linux uses): the output address takes the
 * PPN without those four bits and the virtual address's low 16 bits.
 * T-Head's CPUs (which have no Svnapot) set bit 63 for I/O memory, on
 * entries whose PPN is anything: there N with another PPN ending is read
 * as the plain page it is.  Kernel mappings of RAM use neither.
 *
 * The layout (Documentation/arch/riscv/vm-layout.rst; the kernel's
 * arch_crash_save_vmcoreinfo() writes the numbers into VMCOREINFO):
 *  - the direct map of all RAM at NUMBER(PAGE_OFFSET): physical address
 *    p at PAGE_OFFSET + p - NUMBER(phys_ram_base), the start of RAM;
 *    a quarter of the walked space at most, but its last part may be
 *    KASAN's on Sv57, so only the first eighth (64 GiB on Sv39, 32 TiB on
 *    Sv48, 16 PiB on Sv57) is translated by that sum, checked once against
 *    the page tables; the rest of it is walked;
 *  - the kernel image, mapped apart from the direct map since 5.13, at
 *    NUMBER(KERNEL_LINK_ADDR) (moved by KASLR where the kernel has it):
 *    its virtual address less NUMBER(va_kernel_pa_offset) is its physical
 *    one.  swapper_pg_dir is in it, so SYMBOL(swapper_pg_dir) less that
 *    offset is the root of the walk, which satp holds for the kernel;
 *  - vmemmap's struct pages at NUMBER(VMEMMAP_START) (the page of pfn
 *    phys_ram_base >> 12 first), vmalloc at NUMBER(VMALLOC_START), modules
 *    at NUMBER(MODULES_VADDR): all walked.
 * The kernel's page tables are swapper_pg_dir and the tables below it;
 * every process's top table copies its kernel half, so those are the
 * kernel's too.
 */
#include <elf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>

#include "arch/arch.h"
#include "input/vmcoreinfo.h"
#include "util/addr_set.h"
#include "util/error.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

#define PAGE_SHIFT 12
#define PAGE_SIZE (1ull << PAGE_SHIFT)
#define BITS_PER_LEVEL 9
#define ENTRIES_PER_TABLE (1u << BITS_PER_LEVEL)
#define MAX_LEVELS 5

#define PTE_V 0x1ull
#define PTE_R 0x2ull
#define PTE_W 0x4ull
#define PTE_X 0x8ull
#define PTE_LEAF (PTE_R | PTE_W | PTE_X)
#define PTE_PPN_SHIFT 10
#define PTE_PPN_MASK ((1ull << 44) - 1)
#define PTE_NAPOT (1ull << 63)
#define NAPOT_PPN_MASK 0xfull
#define NAPOT_64K_PPN 0x8ull
#define NAPOT_64K_SHIFT 16

struct riscv64_state {
	struct phys_reader reader;
	int va_bits;
	int levels;
	uint64_t root;                  /* physical address of swapper_pg_dir */
	uint64_t page_offset;
	uint64_t phys_ram_base;
	uint64_t va_kernel_pa_offset;
	uint64_t sum_size;              /* the part of the direct map translated by the sum */
	uint64_t vmemmap_start;
	uint64_t vmalloc_start, vmalloc_end;
};

static uint64_t kernel_half(const struct riscv64_state *st)
{
	return ~0ull << (st->va_bits - 1);
}

enum entry_kind { ENTRY_INVALID, ENTRY_TABLE, ENTRY_LEAF };

static enum entry_kind entry_kind(uint64_t pte, int level)
{
	if (!(pte & PTE_V) || (pte & (PTE_R | PTE_W)) == PTE_W)
		return ENTRY_INVALID;
	if (pte & PTE_LEAF)
		return ENTRY_LEAF;
	return level == 0 ? ENTRY_INVALID : ENTRY_TABLE;
}

static uint64_t entry_address(uint64_t pte)
{
	return ((pte >> PTE_PPN_SHIFT) & PTE_PPN_MASK) << PAGE_SHIFT;
}

/*
 * Walks from @root.  A table the reader cannot read is named in
 * *@unread_table (when not NULL), and the table whose entry points to it
 * in *@parent (the root itself: 0).
 */
static struct mdf_error *walk_traced(const struct riscv64_state *st, uint64_t root, uint64_t vaddr,
				     uint64_t *paddr, uint64_t *page_size, uint64_t *unread_table, uint64_t *parent)
{
	uint64_t tables[MAX_LEVELS];
	uint64_t table = root;

	for (int level = st->levels - 1; level >= 0; level--) {
		/* @level counts the levels below this one: 0 is the last. */
		unsigned int shift = PAGE_SHIFT + BITS_PER_LEVEL * (unsigned int)level;
		uint64_t index = (vaddr >> shift) & (ENTRIES_PER_TABLE - 1);
		uint64_t pte, next, size;
		struct mdf_error *err;

		tables[st->levels - 1 - level] = table;
		err = phys_read_u64(&st->reader, table + index * 8, &pte);
		if (err) {
			if (unread_table) {
				*unread_table = table;
				*parent = level == st->levels - 1 ? 0 : tables[st->levels - 2 - level];
			}
			return err;
		}
		next = entry_address(pte);
		switch (entry_kind(pte, level)) {
		case ENTRY_INVALID:
			return &mdf_error_unmapped;
		case ENTRY_LEAF:
			size = 1ull << shift;
			if (level == 0 && (pte & PTE_NAPOT) &&
			    ((pte >> PTE_PPN_SHIFT) & NAPOT_PPN_MASK) == NAPOT_64K_PPN)
				size = 1ull << NAPOT_64K_SHIFT;
			*paddr = (next & ~(size - 1)) | (vaddr & (size - 1));
			if (page_size)
				*page_size = size;
			return NULL;
		case ENTRY_TABLE:
			break;
		}
		for (int above = 0; above <= st->levels - 1 - level; above++)
			if (tables[above] == next)
				return mdf_error(-MDF_ECORRUPT,
						 "page-table loop: walking 0x%" PRIx64 ", the table at 0x%"
						 PRIx64 " points back to the table at 0x%" PRIx64,
						 vaddr, table, next);
		table = next;
	}
	return &mdf_error_unmapped;
}

static struct mdf_error *walk(const struct riscv64_state *st, uint64_t root, uint64_t vaddr, uint64_t *paddr,
			      uint64_t *page_size)
{
	return walk_traced(st, root, vaddr, paddr, page_size, NULL, NULL);
}

static struct mdf_error *riscv64_vtop(void *state, uint64_t vaddr, uint64_t *paddr, uint64_t *page_size)
{
	const struct riscv64_state *st = state;

	if (vaddr < kernel_half(st))
		return &mdf_error_unmapped;
	if (vaddr - st->page_offset < st->sum_size) {
		*paddr = vaddr - st->page_offset + st->phys_ram_base;
		if (page_size)
			*page_size = PAGE_SIZE;
		return NULL;
	}
	return walk(st, st->root, vaddr, paddr, page_size);
}

/* A process's tables map its user half; their kernel half is the kernel's. */
static struct mdf_error *riscv64_vtop_root(void *state, uint64_t root, uint64_t vaddr, uint64_t *paddr,
					   uint64_t *page_size)
{
	const struct riscv64_state *st = state;

	if (vaddr >= kernel_half(st))
		return riscv64_vtop(state, vaddr, paddr, page_size);
	if (vaddr >> (st->va_bits - 1))
		return &mdf_error_unmapped;
	return walk(st, root, vaddr, paddr, page_size);
}

/* More table pages than this is a loop in damaged tables: 64 TiB mapped with 4 KiB pages needs fewer. */
#define MAX_TABLE_PAGES (1u << 25)

struct table_walk {
	const struct riscv64_state *st;
	struct mdf_error *(*fn)(uint64_t paddr, void *arg);
	void *arg;
	struct addr_set seen;
	uint64_t *entries;    /* a table's worth for each level in turn */
};

/* @table, @level levels above the last, and the tables below it. */
static struct mdf_error *walk_tables(struct table_walk *w, uint64_t table, int level)
{
	const struct riscv64_state *st = w->st;
	uint64_t *entries = w->entries + (size_t)level * ENTRIES_PER_TABLE;
	struct mdf_error *err = w->fn(table, w->arg);

	if (err || level == 0)
		return err;
	if (mdf_error_drop(st->reader.read(st->reader.ctx, table, entries, ENTRIES_PER_TABLE * 8)))
		return NULL;
	for (size_t i = 0; i < ENTRIES_PER_TABLE && !err; i++) {
		uint64_t pte = dump_to_host64(st->reader.order, entries[i]), next = entry_address(pte);
		bool added;

		if (entry_kind(pte, level) != ENTRY_TABLE)
			continue;
		err = addr_set_add(&w->seen, next, &added);
		if (err)
			return err;
		if (!added)
			continue;
		if (w->seen.count > MAX_TABLE_PAGES)
			return mdf_error(-MDF_ECORRUPT, "the kernel page tables hold more than %u tables below "
					 "swapper_pg_dir: a loop?", MAX_TABLE_PAGES);
		err = walk_tables(w, next, level - 1);
	}
	return err;
}

static struct mdf_error *riscv64_for_each_table_page(void *state,
						     struct mdf_error *(*fn)(uint64_t paddr, void *arg),
						     void *arg)
{
	const struct riscv64_state *st = state;
	struct table_walk w = { .st = st, .fn = fn, .arg = arg };
	struct mdf_error *err;

	w.entries = malloc((size_t)st->levels * ENTRIES_PER_TABLE * 8);
	if (!w.entries)
		return &mdf_error_enomem;
	err = walk_tables(&w, st->root, st->levels - 1);
	addr_set_free(&w.seen);
	free(w.entries);
	return err;
}

static struct mdf_error *need_number(const struct vmcoreinfo *vi, const char *name, const char *why,
				     uint64_t *value)
{
	int64_t number;
	struct mdf_error *err = vmcoreinfo_lookup_number(vi, name, &number);

	if (mdf_error_is_not_found(err))
		return mdf_error(-MDF_ECORRUPT, "VMCOREINFO has no NUMBER(%s): %s", name, why);
	if (err)
		return err;
	*value = (uint64_t)number;
	return NULL;
}

static struct mdf_error *read_config(struct riscv64_state *st, const struct vmcoreinfo *vi)
{
	int64_t page_size, va_bits, start, end;
	struct mdf_error *err;

	if (!mdf_error_drop(vmcoreinfo_lookup_plain(vi, "PAGESIZE", &page_size)) && page_size != (int64_t)PAGE_SIZE)
		return mdf_error(-MDF_ECORRUPT, "VMCOREINFO's PAGESIZE=%" PRId64 " is not riscv64's 4096",
				 page_size);
	if (mdf_error_drop(vmcoreinfo_lookup_number(vi, "VA_BITS", &va_bits)))
		return mdf_error(-MDF_ECORRUPT, "VMCOREINFO has no NUMBER(VA_BITS): whether the kernel walks "
				 "Sv39, Sv48 or Sv57 is unknown");
	if (va_bits != 39 && va_bits != 48 && va_bits != 57)
		return mdf_error(-MDF_ECORRUPT, "NUMBER(VA_BITS)=%" PRId64 " is none of riscv64's Sv39, Sv48 "
				 "and Sv57", va_bits);
	st->va_bits = (int)va_bits;
	st->levels = (st->va_bits - PAGE_SHIFT) / BITS_PER_LEVEL;
	err = need_number(vi, "PAGE_OFFSET", "the direct map is not located", &st->page_offset);
	if (!err)
		err = need_number(vi, "phys_ram_base", "the direct map is not located", &st->phys_ram_base);
	if (!err)
		err = need_number(vi, "va_kernel_pa_offset", "the kernel image and its page tables are not "
				  "located", &st->va_kernel_pa_offset);
	if (err)
		return err;
	if (st->page_offset < kernel_half(st) || st->page_offset % PAGE_SIZE)
		return mdf_error(-MDF_ECORRUPT, "NUMBER(PAGE_OFFSET)=%#" PRIx64 " is not in the kernel's half of "
				 "the %d-bit address space NUMBER(VA_BITS) gives", st->page_offset, st->va_bits);
	if (st->phys_ram_base % PAGE_SIZE)
		return mdf_error(-MDF_ECORRUPT, "NUMBER(phys_ram_base)=%#" PRIx64 " is not page-aligned",
				 st->phys_ram_base);
	st->sum_size = 1ull << (st->va_bits - 3);
	if (st->sum_size > -st->page_offset)
		st->sum_size = -st->page_offset;
	if (!mdf_error_drop(vmcoreinfo_lookup_number(vi, "VMEMMAP_START", &start)) && !mdf_error_drop(vmcoreinfo_lookup_number(vi, "VMEMMAP_END", &end)) &&
	    (uint64_t)start < (uint64_t)end)
		st->vmemmap_start = (uint64_t)start;
	if (!mdf_error_drop(vmcoreinfo_lookup_number(vi, "VMALLOC_START", &start)) && !mdf_error_drop(vmcoreinfo_lookup_number(vi, "VMALLOC_END", &end)) &&
	    (uint64_t)start < (uint64_t)end) {
		st->vmalloc_start = (uint64_t)start;
		st->vmalloc_end = (uint64_t)end;
	}
	return NULL;
}

/* _stext through the page tables must land where va_kernel_pa_offset says. */
static struct mdf_error *check_kernel_image(const struct riscv64_state *st, uint64_t stext)
{
	uint64_t paddr, unread = 0, parent = 0;
	struct mdf_error *err;

	if (stext < kernel_half(st))
		return mdf_error(-MDF_ECORRUPT, "SYMBOL(_stext)=%" PRIx64 " is not in the kernel's half of the "
				 "%d-bit address space NUMBER(VA_BITS) gives", stext, st->va_bits);
	err = walk_traced(st, st->root, stext, &paddr, NULL, &unread, &parent);
	if (err == &mdf_error_unmapped)
		return mdf_error(-MDF_ECORRUPT, "SYMBOL(_stext)=%" PRIx64 " is not mapped by the %d-level page "
				 "tables at physical 0x%" PRIx64 " that SYMBOL(swapper_pg_dir), "
				 "NUMBER(va_kernel_pa_offset) and NUMBER(VA_BITS)=%d locate", stext, st->levels,
				 st->root, st->va_bits);
	if (err && err->shared && !parent)
		return mdf_error(-MDF_ECORRUPT, "the kernel page tables at physical 0x%" PRIx64 " (SYMBOL("
				 "swapper_pg_dir) - NUMBER(va_kernel_pa_offset)) are not in the dump (%s)", st->root,
				 mdf_error_text(err));
	if (err && err->shared)
		return mdf_error(-MDF_ECORRUPT, "the page table at 0x%" PRIx64 " is not in the dump (%s), but the "
				 "one at 0x%" PRIx64 " points there for SYMBOL(_stext)=%" PRIx64, unread,
				 mdf_error_text(err), parent, stext);
	if (err)
		return mdf_error_wrap(err, "translating SYMBOL(_stext)");
	if (paddr != stext - st->va_kernel_pa_offset)
		return mdf_error(-MDF_ECORRUPT, "SYMBOL(_stext)=%" PRIx64 " maps to physical 0x%" PRIx64 " through "
				 "the %d-level page tables, not to 0x%" PRIx64 " as NUMBER(va_kernel_pa_offset)=%#"
				 PRIx64 " says: NUMBER(VA_BITS)=%d or the offset is wrong", stext, paddr, st->levels,
				 stext - st->va_kernel_pa_offset, st->va_kernel_pa_offset, st->va_bits);
	return NULL;
}

/*
 * The direct map's sum against the page tables, at an address known to be
 * in it (SYMBOL(mem_section), allocated at boot): a phys_ram_base or a
 * PAGE_OFFSET that puts the map elsewhere is the dump's error, said here
 * rather than as wrong data everywhere.
 */
static struct mdf_error *check_direct_map(const struct riscv64_state *st, const struct vmcoreinfo *vi)
{
	uint64_t probe, by_tables, by_sum;
	struct mdf_error *err;

	if (mdf_error_drop(vmcoreinfo_lookup_symbol(vi, "mem_section", &probe)) || probe - st->page_offset >= st->sum_size)
		return NULL;
	by_sum = probe - st->page_offset + st->phys_ram_base;
	err = walk(st, st->root, probe, &by_tables, NULL);
	if (err == &mdf_error_unmapped)
		return NULL;
	if (!err && by_tables == by_sum)
		return NULL;
	if (err && err->shared)
		return mdf_error(-MDF_ECORRUPT, "NUMBER(phys_ram_base)=%#" PRIx64 " cannot be checked: the page "
				 "tables at 0x%" PRIx64 " are not in the dump (%s)", st->phys_ram_base, st->root,
				 mdf_error_text(err));
	if (err)
		return mdf_error_wrap(err, "checking NUMBER(phys_ram_base)");
	return mdf_error(-MDF_ECORRUPT, "NUMBER(PAGE_OFFSET)=%#" PRIx64 " and NUMBER(phys_ram_base)=%#" PRIx64
			 " put the direct-map address 0x%" PRIx64 " at physical 0x%" PRIx64 ", but the page "
			 "tables map it at 0x%" PRIx64, st->page_offset, st->phys_ram_base, probe, by_sum,
			 by_tables);
}

static struct mdf_error *riscv64_init(const struct vmcoreinfo *vi, const struct phys_reader *reader, void **out)
{
	struct riscv64_state *st = calloc(1, sizeof(*st));
	uint64_t swapper, stext;
	struct mdf_error *err;

	if (!st)
		return &mdf_error_enomem;
	st->reader = *reader;
	err = read_config(st, vi);
	if (!err && mdf_error_drop(vmcoreinfo_lookup_symbol(vi, "swapper_pg_dir", &swapper)))
		err = mdf_error(-MDF_ECORRUPT, "VMCOREINFO has no SYMBOL(swapper_pg_dir): cannot walk the "
				"kernel page tables");
	if (!err && mdf_error_drop(vmcoreinfo_lookup_symbol(vi, "_stext", &stext)))
		err = mdf_error(-MDF_ECORRUPT, "VMCOREINFO has no SYMBOL(_stext): the kernel image cannot "
				"be checked");
	if (err)
		goto fail;
	st->root = swapper - st->va_kernel_pa_offset;
	if (st->root % PAGE_SIZE) {
		err = mdf_error(-MDF_ECORRUPT, "SYMBOL(swapper_pg_dir)=%" PRIx64 " less NUMBER(va_kernel_pa_offset)"
				"=%#" PRIx64 " is no page-aligned physical address", swapper,
				st->va_kernel_pa_offset);
		goto fail;
	}
	err = check_kernel_image(st, stext);
	if (!err)
		err = check_direct_map(st, vi);
	if (err)
		goto fail;
	*out = st;
	return NULL;
fail:
	free(st);
	return err;
}

static bool riscv64_is_kernel_address(const void *state, uint64_t vaddr)
{
	return vaddr >= kernel_half(state);
}

static struct mdf_error *riscv64_kernel_image(void *state, const struct arch_symbols *syms,
					      struct arch_image *out)
{
	const struct riscv64_state *st = state;
	uint64_t text, end, paddr;
	struct mdf_error *err;

	err = arch_image_bounds(syms, &text, &end);
	if (err)
		return err;
	if (end <= text || text % PAGE_SIZE || text < kernel_half(st) || text - st->page_offset < st->sum_size)
		return mdf_error(-MDF_ECORRUPT, "_text=%" PRIx64 " and _end=%" PRIx64 " do not bound a kernel "
				 "image outside the direct map", text, end);
	err = walk(st, st->root, text, &paddr, NULL);
	if (err)
		return mdf_error_wrap(err, "translating _text=%" PRIx64, text);
	err = arch_image_check_paddr(text, paddr, text - st->va_kernel_pa_offset, "NUMBER(va_kernel_pa_offset)");
	if (!err)
		arch_image_set(out, text, end, paddr, PAGE_SIZE);
	return err;
}

/* __va(p) = p - phys_ram_base + PAGE_OFFSET: the sum init checked against the page tables. */
static struct mdf_error *riscv64_address_space(void *state, const struct arch_symbols *syms,
					       struct arch_address_space *out)
{
	const struct riscv64_state *st = state;

	(void)syms;
	out->direct_map = st->page_offset - st->phys_ram_base;
	out->vmemmap_start = st->vmemmap_start;
	out->vmalloc_start = st->vmalloc_start;
	out->vmalloc_end = st->vmalloc_end;
	return NULL;
}

static void riscv64_free(void *state)
{
	free(state);
}

static const char *const riscv64_vmcoreinfo_keys[] = {
	"NUMBER(va_kernel_pa_offset)",
	"NUMBER(phys_ram_base)",
	NULL,
};

/* -E keeps a QEMU dump's addresses: kexec's for riscv64 have not been checked against one. */
const struct arch_ops arch_riscv64 = {
	.name = "riscv64",
	.elf_machine = EM_RISCV,
	.vmcoreinfo_keys = riscv64_vmcoreinfo_keys,
	.byte_order = BYTE_ORDER_LITTLE,
	.pointer_size = 8,
	.page_sizes = PAGE_SIZE,
	.default_page_size = PAGE_SIZE,
	.init = riscv64_init,
	.free = riscv64_free,
	.vtop = riscv64_vtop,
	.vtop_root = riscv64_vtop_root,
	.for_each_table_page = riscv64_for_each_table_page,
	.is_kernel_address = riscv64_is_kernel_address,
	.kernel_image = riscv64_kernel_image,
	.address_space = riscv64_address_space,
	.kexec_vaddrs = false,
};
