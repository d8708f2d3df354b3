// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86_64: little-endian, 8-byte pointers, 4 KiB pages; 4- and 5-level
 * page tables rooted at init_top_pgt.  A dump is of it when its ELF says
 * EM_X86_64, its kdump header "x86_64", or else VMCOREINFO has the lines
 * only x86_64 writes: NUMBER(phys_base), SYMBOL(init_top_pgt) (named
 * init_level4_pgt before 4.13).
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
#include <elf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "input/vmcoreinfo.h"
#include "util/addr_set.h"
#include "util/error.h"

#define PAGE_SIZE 4096u
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
	uint64_t phys_base;
	/* VMCOREINFO's SYMBOL(_stext): whether the line is there, and whether it reads. */
	bool stext_line, stext_valid;
	uint64_t stext;
};

static struct mdf_error *x86_64_init(const struct vmcoreinfo *vi, const struct phys_reader *reader, void **out)
{
	struct x86_64_state *st;
	uint64_t top_pgt;
	int64_t phys_base, l5 = 0, sme_mask = 0;
	struct mdf_error *err;

	err = vmcoreinfo_lookup_symbol(vi, "init_top_pgt", &top_pgt);
	if (mdf_error_is_not_found(err))
		err = vmcoreinfo_lookup_symbol(vi, "init_level4_pgt", &top_pgt);
	if (mdf_error_is_not_found(err))
		return mdf_error(-MDF_ECORRUPT,
				 "VMCOREINFO has no SYMBOL(init_top_pgt): cannot walk the kernel page tables");
	if (!err)
		err = vmcoreinfo_lookup_number(vi, "phys_base", &phys_base);
	if (mdf_error_is_not_found(err))
		return mdf_error(-MDF_ECORRUPT,
				 "VMCOREINFO has no NUMBER(phys_base): cannot locate the kernel image");
	if (err)
		return err;
	if (top_pgt < START_KERNEL_MAP)
		return mdf_error(-MDF_ECORRUPT,
				 "SYMBOL(init_top_pgt)=%llx is outside the kernel image mapping",
				 (unsigned long long)top_pgt);
	mdf_error_drop(vmcoreinfo_lookup_number(vi, "pgtable_l5_enabled", &l5));
	mdf_error_drop(vmcoreinfo_lookup_number(vi, "sme_mask", &sme_mask));

	st = calloc(1, sizeof(*st));
	if (!st)
		return &mdf_error_enomem;
	st->reader = *reader;
	st->root = top_pgt - START_KERNEL_MAP + (uint64_t)phys_base;
	st->levels = l5 ? 5 : 4;
	st->sme_mask = (uint64_t)sme_mask;
	st->phys_base = (uint64_t)phys_base;
	st->stext_line = vmcoreinfo_has(vi, "SYMBOL", "_stext");
	st->stext_valid = !mdf_error_drop(vmcoreinfo_lookup_symbol(vi, "_stext", &st->stext));
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

		err = phys_read_u64(&st->reader, table + index * 8, &entry);
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
		uint64_t entry = dump_to_host64(st->reader.order, entries[i]), next = entry & ~st->sme_mask & PTE_ADDR_MASK;
		bool added;

		if (!(entry & PTE_PRESENT) || ((level == 2 || level == 3) && (entry & PTE_LARGE)))
			continue;
		err = addr_set_add(&w->seen, next, &added);
		if (err)
			return err;
		if (!added)
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

/* The kernel's half: the canonical addresses with the top bit set. */
static bool x86_64_is_kernel_address(const void *state, uint64_t vaddr)
{
	const struct x86_64_state *st = state;

	return vaddr >= (st->levels == 5 ? 0xff00000000000000ull : 0xffff800000000000ull);
}

/*
 * Where x86_64 maps memory (the kernel's Documentation/arch/x86/x86_64/mm.rst):
 *
 *   kernel image  __START_KERNEL_map (0xffffffff80000000) plus its physical
 *                 address less phys_base; [_text, _end) is its extent, as
 *                 kexec-tools takes it from /proc/kcore's text segment.
 *                 Symbols are run-time addresses (kallsyms', or a vmlinux's
 *                 moved by KERNELOFFSET), so with KASLR phys_base, which
 *                 moves with the image physically, is all that is needed.
 *                 The kernel puts _stext, which VMCOREINFO names, at _text.
 *   direct map    PAGE_OFFSET: page_offset_base's value where the kernel
 *                 has the variable (KASLR's CONFIG_RANDOMIZE_MEMORY, and
 *                 kernels that can run 5-level), else fixed:
 *                 0xffff888000000000 (4 levels) or 0xff11000000000000 (5)
 *                 since Linux 4.20, 0xffff880000000000 before.  Which one,
 *                 the page tables tell.
 *   vmalloc       vmalloc_base, else 0xffffc90000000000 (4 levels) or
 *                 0xffa0000000000000 (5): 32 TiB, or 12800 TiB.
 *   vmemmap       vmemmap_base, else 0xffffea0000000000 (4 levels) or
 *                 0xffd4000000000000 (5).
 *
 * The image and the direct map are checked against the page tables,
 * which a reader will translate through; the variables' values are the
 * kernel's own word.
 */

/* KERNEL_IMAGE_SIZE at its largest (with KASLR): the image mapping's extent. */
#define MAX_IMAGE_SIZE (1ull << 30)
#define TIB (1ull << 40)

/* PAGE_OFFSET without KASLR: 4 and 5 levels since Linux 4.20, and 4 levels before it. */
static const uint64_t fixed_page_offsets[] = {
	0xffff888000000000ull,
	0xff11000000000000ull,
	0xffff880000000000ull,
};

/* Whether the page tables map @vaddr to @paddr. */
static bool maps_to(struct x86_64_state *st, uint64_t vaddr, uint64_t paddr)
{
	uint64_t found;

	return !mdf_error_drop(x86_64_vtop(st, vaddr, &found, NULL)) && found == paddr;
}

/* The kernel's 8-byte variable at @vaddr. */
static struct mdf_error *read_variable(struct x86_64_state *st, uint64_t vaddr, uint64_t *value)
{
	uint64_t paddr;
	struct mdf_error *err = x86_64_vtop(st, vaddr, &paddr, NULL);

	return err ? err : phys_read_u64(&st->reader, paddr, value);
}

/* SYMBOL(_stext) as VMCOREINFO says it, or kallsyms where it does not. */
static bool find_stext(struct x86_64_state *st, const struct arch_symbols *syms, uint64_t *stext)
{
	if (!st->stext_line)
		return !mdf_error_drop(syms->address(syms->ctx, "_stext", stext));
	*stext = st->stext;
	return st->stext_valid;
}

static struct mdf_error *x86_64_kernel_image(void *state, const struct arch_symbols *syms, struct arch_image *out)
{
	struct x86_64_state *st = state;
	uint64_t text, end;

	if (mdf_error_drop(syms->address(syms->ctx, "_text", &text)) && !find_stext(st, syms, &text))
		return mdf_error(-ENOENT, "neither kallsyms nor VMCOREINFO locate _text, where the "
				 "kernel image starts");
	if (mdf_error_drop(syms->address(syms->ctx, "_end", &end)))
		return mdf_error(-ENOENT, "kallsyms do not locate _end, where the kernel image ends");
	if (text < START_KERNEL_MAP || end <= text || end - text > MAX_IMAGE_SIZE || text % PAGE_SIZE)
		return mdf_error(-MDF_ECORRUPT, "_text=%" PRIx64 " and _end=%" PRIx64 " do not bound "
				 "a kernel image at __START_KERNEL_map", text, end);
	arch_image_set(out, text, end, text - START_KERNEL_MAP + st->phys_base, PAGE_SIZE);
	if (!maps_to(st, text, out->paddr))
		return mdf_error(-MDF_ECORRUPT, "the page tables do not map _text=%" PRIx64 " at "
				 "physical 0x%" PRIx64 ", where NUMBER(phys_base) puts it", text, out->paddr);
	return NULL;
}

/* The value of the kernel's variable @name, or @fixed where it has none; 0 when it cannot be read. */
static uint64_t base_of(struct x86_64_state *st, const struct arch_symbols *syms, const char *name,
			uint64_t fixed)
{
	uint64_t symbol, value;

	if (mdf_error_drop(syms->address(syms->ctx, name, &symbol)))
		return fixed;
	return mdf_error_drop(read_variable(st, symbol, &value)) ? 0 : value;
}

static struct mdf_error *x86_64_address_space(void *state, const struct arch_symbols *syms,
					      struct arch_address_space *out)
{
	struct x86_64_state *st = state;
	bool l5 = st->levels == 5;
	/* init_top_pgt's page is memory, so the direct map holds it too. */
	uint64_t probe = st->root, symbol, page_offset;
	struct mdf_error *err;

	if (!mdf_error_drop(syms->address(syms->ctx, "page_offset_base", &symbol))) {
		err = read_variable(st, symbol, &page_offset);
		if (err)
			return mdf_error_wrap(err, "reading page_offset_base");
		if (!maps_to(st, page_offset + probe, probe))
			return mdf_error(-MDF_ECORRUPT, "the page tables do not map page_offset_base="
					 "%" PRIx64 " plus 0x%" PRIx64 " at physical 0x%" PRIx64,
					 page_offset, probe, probe);
		out->direct_map = page_offset;
	} else {
		size_t i = 0;

		while (i < sizeof(fixed_page_offsets) / sizeof(fixed_page_offsets[0]) &&
		       !maps_to(st, fixed_page_offsets[i] + probe, probe))
			i++;
		if (i == sizeof(fixed_page_offsets) / sizeof(fixed_page_offsets[0]))
			return mdf_error(-ENOENT, "kallsyms do not locate page_offset_base, and the page "
					 "tables map no fixed PAGE_OFFSET to the kernel image's memory");
		out->direct_map = fixed_page_offsets[i];
	}
	out->vmalloc_start = base_of(st, syms, "vmalloc_base", l5 ? 0xffa0000000000000ull : 0xffffc90000000000ull);
	if (out->vmalloc_start)
		out->vmalloc_end = out->vmalloc_start + (l5 ? 12800 : 32) * TIB;
	out->vmemmap_start = base_of(st, syms, "vmemmap_base", l5 ? 0xffd4000000000000ull : 0xffffea0000000000ull);
	return NULL;
}

static void x86_64_free(void *state)
{
	free(state);
}

static const char *const x86_64_vmcoreinfo_keys[] = {
	"NUMBER(phys_base)",
	"SYMBOL(init_top_pgt)",
	"SYMBOL(init_level4_pgt)",
	NULL,
};

const struct arch_ops arch_x86_64 = {
	.name = "x86_64",
	.elf_machine = EM_X86_64,
	.vmcoreinfo_keys = x86_64_vmcoreinfo_keys,
	.byte_order = BYTE_ORDER_LITTLE,
	.one_byte_order = true,
	.pointer_size = 8,
	.page_sizes = PAGE_SIZE,
	.default_page_size = PAGE_SIZE,
	.init = x86_64_init,
	.free = x86_64_free,
	.vtop = x86_64_vtop,
	.vtop_root = x86_64_vtop_root,
	.for_each_table_page = x86_64_for_each_table_page,
	.is_kernel_address = x86_64_is_kernel_address,
	.kernel_image = x86_64_kernel_image,
	.address_space = x86_64_address_space,
	.kexec_vaddrs = true,
};
