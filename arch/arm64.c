// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm64 (aarch64): little-endian (Linux runs it so), 8-byte pointers; the
 * kernel's page tables from swapper_pg_dir, with 4K, 16K or 64K pages and
 * two to five levels.  A dump is of it when its ELF says EM_AARCH64, its
 * kdump header "aarch64", or else VMCOREINFO has NUMBER(kimage_voffset),
 * which only arm64 writes.
 *
 * VMCOREINFO says all that shapes a walk: PAGESIZE, NUMBER(VA_BITS) (what
 * the kernel was built for) and NUMBER(TCR_EL1_T1SZ), from which the
 * hardware walks 64 - T1SZ bits of address: a kernel built for 52 bits
 * falls back to 48 on a CPU without LVA/LPA2, and then walks fewer bits,
 * with fewer levels on 4K pages.  Each level resolves PAGE_SHIFT - 3 bits
 * above the page offset; the top level takes what is left.
 *
 * The kernel image is at its physical address plus kimage_voffset, which
 * locates swapper_pg_dir.  The linear map is __pa(va) = (va & ~PAGE_OFFSET)
 * + PHYS_OFFSET with PAGE_OFFSET = -(1 << VA_BITS): on a 52-bit kernel
 * that walks 48 bits the kernel moves PHYS_OFFSET (memstart_addr) rather
 * than PAGE_OFFSET, so the sum is right with the built-in VA_BITS, while
 * the linear region itself is the lower half of the walked range (since
 * Linux 5.4; the upper half before).  The linear map is translated by
 * that sum, checked once against the page tables.
 *
 * Descriptors: bits 1:0 are 0b11 for a table (a page at the last level)
 * and 0b01 for a block above it.  The output address is bits 47:PAGE_SHIFT;
 * 52-bit physical addresses add bits 51:48 from bits 15:12 with 64K pages
 * (FEAT_LPA), or bits 51:50 from bits 9:8 with 4K and 16K pages under
 * LPA2 (the 52-bit walk), which also widens the low part to bit 49.  The
 * contiguous bit only hints that neighbouring entries map neighbouring
 * pages: every entry still holds its own output address, so it changes
 * nothing here.
 *
 * With pointer authentication, a kernel pointer saved on a stack carries
 * a PAC in the bits NUMBER(KERNELPACMASK) names; those bits of a kernel
 * address are ones once stripped.
 *
 * The kernel's half is the walked range's: [-(1 << (64 - T1SZ)), 2^64).
 * Within it, besides the linear map (the direct map of physical memory)
 * and the image, newer kernels' VMCOREINFO (6.1's does) names vmalloc's
 * and vmemmap's ranges (NUMBER(VMALLOC_START), NUMBER(VMEMMAP_START));
 * older kernels' are not known here.  The image's extent is [_text, _end), which
 * kallsyms name only with CONFIG_KALLSYMS_ALL (Debian's kernels lack it:
 * kexec-tools takes the extent from /proc/iomem, which a dump lacks).
 */
#include <elf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>

#include "arch/arch.h"
#include "input/vmcoreinfo.h"
#include "util/addr_set.h"
#include "util/error.h"

#define DESC_TYPE_MASK 0x3ull
#define DESC_TABLE 0x3ull     /* a page at the last level */
#define DESC_BLOCK 0x1ull
#define KERNEL_ADDRESS_BIT 55  /* selects TTBR1, the kernel's half */
#define MAX_LEVELS 5
#define PAGE_SIZES (4096u | 16384u | 65536u)

struct arm64_state {
	struct phys_reader reader;
	unsigned int page_shift;
	int va_bits;          /* NUMBER(VA_BITS): the kernel's build */
	int va_bits_walked;   /* 64 - TCR_EL1_T1SZ: what the hardware walks */
	int levels;
	int top_index_bits;   /* of the root table's index */
	bool lpa2;            /* 52-bit output addresses in bits 9:8 */
	uint64_t root;        /* physical address of swapper_pg_dir */
	uint64_t phys_offset;
	uint64_t page_offset; /* -(1 << VA_BITS); -(1 << (VA_BITS - 1)) before 5.4 */
	uint64_t linear_start, linear_size;
	uint64_t pac_mask;
	uint64_t kimage_voffset;
	/* VMCOREINFO's ranges, 0 where it has none. */
	uint64_t vmemmap_start;
	uint64_t vmalloc_start, vmalloc_end;
};

/* The levels a walk of @va_bits takes with pages of 1 << @page_shift bytes. */
static int levels_for(int va_bits, unsigned int page_shift)
{
	int per_level = (int)page_shift - 3;

	return (va_bits - (int)page_shift + per_level - 1) / per_level;
}

static uint64_t output_address(const struct arm64_state *st, uint64_t desc)
{
	uint64_t low_mask;

	if (st->page_shift == 16) {
		low_mask = ((1ull << 48) - 1) & ~((1ull << 16) - 1);
		return (desc & low_mask) | (((desc >> 12) & 0xf) << 48);
	}
	if (st->lpa2) {
		low_mask = ((1ull << 50) - 1) & ~((1ull << st->page_shift) - 1);
		return (desc & low_mask) | (((desc >> 8) & 0x3) << 50);
	}
	low_mask = ((1ull << 48) - 1) & ~((1ull << st->page_shift) - 1);
	return desc & low_mask;
}

/*
 * Blocks sit at the levels that map 1 GiB or less with 4K pages (512 GiB
 * with LPA2), 32 MiB (64 GiB with LPA2) with 16K, and 512 MiB (4 TiB with
 * 52-bit addresses) with 64K: the architecture's levels 1 and 2 at most.
 * A 4 TiB block is taken with 48-bit addresses too, where no kernel
 * writes one.
 */
static bool block_allowed(const struct arm64_state *st, int levels_below)
{
	if (levels_below == 1)
		return true;
	if (levels_below == 2)
		return st->page_shift == 12 || st->lpa2 || st->page_shift == 16;
	return levels_below == 3 && st->page_shift == 12 && st->lpa2;
}

static struct mdf_error *walk(const struct arm64_state *st, uint64_t root, uint64_t vaddr, uint64_t *paddr,
			      uint64_t *page_size)
{
	uint64_t tables[MAX_LEVELS];
	uint64_t table = root;

	for (int level = st->levels - 1; level >= 0; level--) {
		/* @level counts the levels below this one: 0 is the last. */
		unsigned int shift = st->page_shift + (st->page_shift - 3) * (unsigned int)level;
		int index_bits = level == st->levels - 1 ? st->top_index_bits : (int)st->page_shift - 3;
		uint64_t index = (vaddr >> shift) & ((1ull << index_bits) - 1);
		uint64_t desc, next, type;
		struct mdf_error *err;

		tables[st->levels - 1 - level] = table;
		err = phys_read_u64(&st->reader, table + index * 8, &desc);
		if (err)
			return err;
		type = desc & DESC_TYPE_MASK;
		next = output_address(st, desc);
		if (level == 0 && type == DESC_TABLE) {
			*paddr = next | (vaddr & ((1ull << shift) - 1));
			if (page_size)
				*page_size = 1ull << shift;
			return NULL;
		}
		if (level > 0 && type == DESC_BLOCK && block_allowed(st, level)) {
			uint64_t size = 1ull << shift;

			*paddr = (next & ~(size - 1)) | (vaddr & (size - 1));
			if (page_size)
				*page_size = size;
			return NULL;
		}
		if (level == 0 || type != DESC_TABLE)
			return &mdf_error_unmapped;
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

static struct mdf_error *arm64_vtop(void *state, uint64_t vaddr, uint64_t *paddr, uint64_t *page_size)
{
	const struct arm64_state *st = state;
	uint64_t walked_half = ~0ull << st->va_bits_walked;

	if (!(vaddr >> KERNEL_ADDRESS_BIT & 1))
		return &mdf_error_unmapped;
	vaddr |= st->pac_mask;
	if ((vaddr & walked_half) != walked_half)
		return &mdf_error_unmapped;
	if (vaddr - st->linear_start < st->linear_size) {
		*paddr = (vaddr & ~st->page_offset) + st->phys_offset;
		if (page_size)
			*page_size = 1ull << st->page_shift;
		return NULL;
	}
	return walk(st, st->root, vaddr, paddr, page_size);
}

/*
 * A process's tables cover the lower half only (TTBR0); its kernel
 * addresses are the kernel's.  User pointers may carry a tag in their top
 * byte (TBI), which the hardware ignores.
 */
static struct mdf_error *arm64_vtop_root(void *state, uint64_t root, uint64_t vaddr, uint64_t *paddr,
					 uint64_t *page_size)
{
	const struct arm64_state *st = state;

	if (vaddr >> KERNEL_ADDRESS_BIT & 1)
		return arm64_vtop(state, vaddr, paddr, page_size);
	vaddr &= (1ull << 56) - 1;
	if (vaddr >> st->va_bits_walked)
		return &mdf_error_unmapped;
	/* A pgd smaller than a page comes from a slab cache: @root need not be page-aligned. */
	return walk(st, root, vaddr, paddr, page_size);
}

/*
 * More table pages than this is a loop in damaged tables: 64 TiB mapped
 * with 4 KiB pages alone would need fewer.
 */
#define MAX_TABLE_PAGES (1u << 25)

struct table_walk {
	const struct arm64_state *st;
	struct mdf_error *(*fn)(uint64_t paddr, void *arg);
	void *arg;
	struct addr_set seen;
	uint64_t *entries;    /* a page's worth, for each level in turn */
};

/* @table, @below levels above the last, and the tables below it. */
static struct mdf_error *walk_tables(struct table_walk *w, uint64_t table, int below)
{
	const struct arm64_state *st = w->st;
	size_t count = (size_t)1 << (below == st->levels - 1 ? st->top_index_bits : (int)st->page_shift - 3);
	uint64_t *entries = w->entries + (size_t)below * ((size_t)1 << (st->page_shift - 3));
	struct mdf_error *err = w->fn(table, w->arg);

	if (err || below == 0)
		return err;
	if (mdf_error_drop(st->reader.read(st->reader.ctx, table, entries, count * 8)))
		return NULL;
	for (size_t i = 0; i < count && !err; i++) {
		uint64_t desc = dump_to_host64(st->reader.order, entries[i]), next = output_address(st, desc);
		bool added;

		if ((desc & DESC_TYPE_MASK) != DESC_TABLE)
			continue;
		err = addr_set_add(&w->seen, next, &added);
		if (err)
			return err;
		if (!added)
			continue;
		if (w->seen.count > MAX_TABLE_PAGES)
			return mdf_error(-MDF_ECORRUPT, "the kernel page tables hold more than %u tables below "
					 "swapper_pg_dir: a loop?", MAX_TABLE_PAGES);
		err = walk_tables(w, next, below - 1);
	}
	return err;
}

/* swapper_pg_dir maps the kernel's half alone (TTBR1): all of it. */
static struct mdf_error *arm64_for_each_table_page(void *state, struct mdf_error *(*fn)(uint64_t paddr, void *arg),
						   void *arg)
{
	const struct arm64_state *st = state;
	struct table_walk w = { .st = st, .fn = fn, .arg = arg };
	struct mdf_error *err;

	w.entries = malloc((size_t)st->levels << st->page_shift);
	if (!w.entries)
		return &mdf_error_enomem;
	err = walk_tables(&w, st->root, st->levels - 1);
	addr_set_free(&w.seen);
	free(w.entries);
	return err;
}

static struct mdf_error *read_config(struct arm64_state *st, const struct vmcoreinfo *vi)
{
	int64_t page_size, va_bits, t1sz;

	if (mdf_error_drop(vmcoreinfo_lookup_plain(vi, "PAGESIZE", &page_size)))
		return mdf_error(-MDF_ECORRUPT, "VMCOREINFO has no PAGESIZE: the arm64 page tables' shape is unknown");
	if (page_size <= 0 || page_size > UINT32_MAX || (page_size & (page_size - 1)) ||
	    !(PAGE_SIZES & (uint32_t)page_size))
		return mdf_error(-MDF_ECORRUPT, "VMCOREINFO's PAGESIZE=%" PRId64 " is no arm64 page size "
				 "(4096, 16384 or 65536)", page_size);
	st->page_shift = (unsigned int)__builtin_ctzll((uint64_t)page_size);
	if (mdf_error_drop(vmcoreinfo_lookup_number(vi, "VA_BITS", &va_bits)))
		return mdf_error(-MDF_ECORRUPT, "VMCOREINFO has no NUMBER(VA_BITS): the kernel's address "
				 "space is unknown");
	/* Kernels before 5.9 do not say: they walk what they were built for. */
	if (mdf_error_drop(vmcoreinfo_lookup_number(vi, "TCR_EL1_T1SZ", &t1sz)))
		t1sz = 64 - va_bits;
	if (va_bits < 36 || va_bits > 52)
		return mdf_error(-MDF_ECORRUPT, "NUMBER(VA_BITS)=%" PRId64 " is outside arm64's 36 to 52",
				 va_bits);
	if (t1sz < 12 || t1sz > 28)
		return mdf_error(-MDF_ECORRUPT, "NUMBER(TCR_EL1_T1SZ)=%#" PRIx64 " is outside arm64's 12 to 28 "
				 "(52- to 36-bit kernel addresses)", t1sz);
	/*
	 * A kernel walks at most what it was built for; one built for 52
	 * bits falls back to VA_BITS_MIN on a CPU without LVA/LPA2: 47 bits
	 * with 16K pages, 48 with the others.
	 */
	if (64 - t1sz > va_bits ||
	    (64 - t1sz < va_bits && !(va_bits == 52 && 64 - t1sz == (page_size == 16384 ? 47 : 48))))
		return mdf_error(-MDF_ECORRUPT, "NUMBER(TCR_EL1_T1SZ)=%#" PRIx64 " (%" PRId64 "-bit kernel "
				 "addresses) does not fit NUMBER(VA_BITS)=%" PRId64, t1sz, 64 - t1sz, va_bits);
	st->va_bits = (int)va_bits;
	st->va_bits_walked = (int)(64 - t1sz);
	st->levels = levels_for(st->va_bits_walked, st->page_shift);
	if (st->levels < 2 || st->levels > MAX_LEVELS || (st->levels == 5 && st->page_shift != 12))
		return mdf_error(-MDF_ECORRUPT, "%d-bit kernel addresses with %" PRId64 "-byte pages: "
				 "no arm64 page-table layout", st->va_bits_walked, page_size);
	/*
	 * A 52-bit kernel walking 48 bits with as many levels keeps its
	 * root table whole and starts the walk inside it (TTBR1's offset):
	 * its index takes the built-in width.
	 */
	st->top_index_bits = st->va_bits_walked - (int)st->page_shift - ((int)st->page_shift - 3) * (st->levels - 1);
	if (levels_for(st->va_bits, st->page_shift) == st->levels)
		st->top_index_bits += st->va_bits - st->va_bits_walked;
	st->lpa2 = st->va_bits_walked == 52 && st->page_shift != 16;
	return NULL;
}

/*
 * The linear map's sum against the page tables, at an address known to be
 * in it (SYMBOL(mem_section), allocated at boot): a PHYS_OFFSET that puts
 * the map elsewhere is the dump's error, said here rather than as wrong
 * data everywhere.
 */
static struct mdf_error *check_linear_map(const struct arm64_state *st, const struct vmcoreinfo *vi)
{
	uint64_t probe, by_tables, by_sum;
	struct mdf_error *err;

	if (mdf_error_drop(vmcoreinfo_lookup_symbol(vi, "mem_section", &probe)) ||
	    probe - st->linear_start >= st->linear_size)
		return NULL;
	by_sum = (probe & ~st->page_offset) + st->phys_offset;
	err = walk(st, st->root, probe, &by_tables, NULL);
	if (err == &mdf_error_unmapped)
		return NULL;
	if (!err && by_tables == by_sum)
		return NULL;
	if (err && err->shared)
		return mdf_error(-MDF_ECORRUPT, "NUMBER(PHYS_OFFSET)=%#" PRIx64 " cannot be checked: the page "
				 "tables at 0x%" PRIx64 " are not in the dump (%s)", st->phys_offset, st->root,
				 mdf_error_text(err));
	if (err)
		return mdf_error_wrap(err, "checking NUMBER(PHYS_OFFSET)");
	return mdf_error(-MDF_ECORRUPT, "NUMBER(PHYS_OFFSET)=%#" PRIx64 " puts the linear address 0x%" PRIx64
			 " at physical 0x%" PRIx64 ", but the page tables map it at 0x%" PRIx64, st->phys_offset,
			 probe, by_sum, by_tables);
}

/* _stext through the page tables must land where kimage_voffset says. */
static struct mdf_error *check_kernel_image(const struct arm64_state *st, uint64_t stext, uint64_t kimage_voffset)
{
	uint64_t paddr;
	struct mdf_error *err = walk(st, st->root, stext, &paddr, NULL);

	if (err == &mdf_error_unmapped)
		return mdf_error(-MDF_ECORRUPT, "SYMBOL(_stext)=%" PRIx64 " is not mapped by the page tables "
				 "that SYMBOL(swapper_pg_dir) and NUMBER(kimage_voffset)=%#" PRIx64 " locate",
				 stext, kimage_voffset);
	if (err && err->shared)
		return mdf_error(-MDF_ECORRUPT, "the kernel page tables at physical 0x%" PRIx64 " (SYMBOL("
				 "swapper_pg_dir) - NUMBER(kimage_voffset)) are not in the dump (%s)", st->root,
				 mdf_error_text(err));
	if (err)
		return mdf_error_wrap(err, "translating SYMBOL(_stext)");
	if (paddr != stext - kimage_voffset)
		return mdf_error(-MDF_ECORRUPT, "SYMBOL(_stext)=%" PRIx64 " maps to physical 0x%" PRIx64 ", not to "
				 "0x%" PRIx64 " as NUMBER(kimage_voffset)=%#" PRIx64 " says: the kernel image is "
				 "not where VMCOREINFO puts it", stext, paddr, stext - kimage_voffset,
				 kimage_voffset);
	return NULL;
}

/* The ranges VMCOREINFO names, where both ends are there and in order. */
static void read_ranges(struct arm64_state *st, const struct vmcoreinfo *vi)
{
	int64_t start, end;

	if (!mdf_error_drop(vmcoreinfo_lookup_number(vi, "VMEMMAP_START", &start)) &&
	    !mdf_error_drop(vmcoreinfo_lookup_number(vi, "VMEMMAP_END", &end)) &&
	    (uint64_t)start < (uint64_t)end)
		st->vmemmap_start = (uint64_t)start;
	if (!mdf_error_drop(vmcoreinfo_lookup_number(vi, "VMALLOC_START", &start)) &&
	    !mdf_error_drop(vmcoreinfo_lookup_number(vi, "VMALLOC_END", &end)) &&
	    (uint64_t)start < (uint64_t)end) {
		st->vmalloc_start = (uint64_t)start;
		st->vmalloc_end = (uint64_t)end;
	}
}

static struct mdf_error *arm64_init(const struct vmcoreinfo *vi, const struct phys_reader *reader, void **out)
{
	struct arm64_state *st = calloc(1, sizeof(*st));
	uint64_t swapper, stext, walked_half;
	int64_t kimage_voffset, phys_offset, pac_mask = 0;
	struct mdf_error *err;

	if (!st)
		return &mdf_error_enomem;
	st->reader = *reader;
	err = read_config(st, vi);
	if (!err && mdf_error_drop(vmcoreinfo_lookup_number(vi, "kimage_voffset", &kimage_voffset)))
		err = mdf_error(-MDF_ECORRUPT, "VMCOREINFO has no NUMBER(kimage_voffset): the kernel image "
				"cannot be located");
	if (!err && mdf_error_drop(vmcoreinfo_lookup_number(vi, "PHYS_OFFSET", &phys_offset)))
		err = mdf_error(-MDF_ECORRUPT, "VMCOREINFO has no NUMBER(PHYS_OFFSET): the linear map cannot "
				"be translated");
	if (!err && mdf_error_drop(vmcoreinfo_lookup_symbol(vi, "swapper_pg_dir", &swapper)))
		err = mdf_error(-MDF_ECORRUPT, "VMCOREINFO has no SYMBOL(swapper_pg_dir): cannot walk the "
				"kernel page tables");
	if (!err && mdf_error_drop(vmcoreinfo_lookup_symbol(vi, "_stext", &stext)))
		err = mdf_error(-MDF_ECORRUPT, "VMCOREINFO has no SYMBOL(_stext): the kernel image cannot "
				"be checked");
	if (err)
		goto fail;
	mdf_error_drop(vmcoreinfo_lookup_number(vi, "KERNELPACMASK", &pac_mask));
	st->pac_mask = (uint64_t)pac_mask;
	st->kimage_voffset = (uint64_t)kimage_voffset;
	read_ranges(st, vi);
	st->phys_offset = (uint64_t)phys_offset;
	walked_half = ~0ull << st->va_bits_walked;
	st->linear_size = 1ull << (st->va_bits_walked - 1);
	/* The image lies above the linear map since 5.4 and below it before. */
	if (stext >= walked_half + st->linear_size) {
		st->linear_start = walked_half;
		st->page_offset = ~0ull << st->va_bits;
	} else {
		st->linear_start = walked_half + st->linear_size;
		st->page_offset = ~0ull << (st->va_bits - 1);
	}
	if (stext < walked_half || stext - st->linear_start < st->linear_size) {
		err = mdf_error(-MDF_ECORRUPT, "SYMBOL(_stext)=%" PRIx64 " is not in the kernel image's part of a "
				"%d-bit address space", stext, st->va_bits_walked);
		goto fail;
	}
	st->root = swapper - (uint64_t)kimage_voffset;
	err = check_kernel_image(st, stext, (uint64_t)kimage_voffset);
	if (!err)
		err = check_linear_map(st, vi);
	if (err)
		goto fail;
	*out = st;
	return NULL;
fail:
	free(st);
	return err;
}

static bool arm64_is_kernel_address(const void *state, uint64_t vaddr)
{
	const struct arm64_state *st = state;

	return vaddr >= ~0ull << st->va_bits_walked;
}

static struct mdf_error *arm64_kernel_image(void *state, const struct arch_symbols *syms, struct arch_image *out)
{
	const struct arm64_state *st = state;
	uint64_t text, end, paddr, page_size = 1ull << st->page_shift;
	struct mdf_error *err;

	err = arch_image_bounds(syms, &text, &end);
	if (err)
		return err;
	if (end <= text || text % page_size || text - st->linear_start < st->linear_size ||
	    text < ~0ull << st->va_bits_walked)
		return mdf_error(-MDF_ECORRUPT, "_text=%" PRIx64 " and _end=%" PRIx64 " do not bound a kernel "
				 "image outside the linear map", text, end);
	err = walk(st, st->root, text, &paddr, NULL);
	if (err)
		return mdf_error_wrap(err, "translating _text=%" PRIx64, text);
	err = arch_image_check_paddr(text, paddr, text - st->kimage_voffset, "NUMBER(kimage_voffset)");
	if (!err)
		arch_image_set(out, text, end, paddr, page_size);
	return err;
}

/* __va(p) = (p - PHYS_OFFSET) | PAGE_OFFSET: the sum init checked against the page tables. */
static struct mdf_error *arm64_address_space(void *state, const struct arch_symbols *syms,
					     struct arch_address_space *out)
{
	const struct arm64_state *st = state;

	(void)syms;
	out->direct_map = st->page_offset - st->phys_offset;
	out->vmemmap_start = st->vmemmap_start;
	out->vmalloc_start = st->vmalloc_start;
	out->vmalloc_end = st->vmalloc_end;
	return NULL;
}

static void arm64_free(void *state)
{
	free(state);
}

static const char *const arm64_vmcoreinfo_keys[] = {
	"NUMBER(kimage_voffset)",
	NULL,
};

/* -E keeps a QEMU dump's addresses: kexec's for arm64 have not been checked against one. */
const struct arch_ops arch_arm64 = {
	.name = "aarch64",
	.elf_machine = EM_AARCH64,
	.vmcoreinfo_keys = arm64_vmcoreinfo_keys,
	.byte_order = BYTE_ORDER_LITTLE,
	.pointer_size = 8,
	.page_sizes = PAGE_SIZES,
	.default_page_size = 4096,
	.init = arm64_init,
	.free = arm64_free,
	.vtop = arm64_vtop,
	.vtop_root = arm64_vtop_root,
	.for_each_table_page = arm64_for_each_table_page,
	.is_kernel_address = arm64_is_kernel_address,
	.kernel_image = arm64_kernel_image,
	.address_space = arm64_address_space,
	.kexec_vaddrs = false,
};
