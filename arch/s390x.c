// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * s390x (IBM Z, z/Architecture): big-endian, 8-byte pointers, 4 KiB
 * pages.  A dump is of it when its ELF says EM_S390, its kdump header
 * "s390x", or else VMCOREINFO has a line only s390x writes
 * (SYMBOL(lowcore_ptr) and the others of s390x_vmcoreinfo_keys).
 *
 * Dynamic address translation (DAT; the Principles of Operation, chapter
 * 3, and the kernel's asm/pgtable.h).  An address-space-control element
 * (ASCE) names the top table and its type; below it come region-first,
 * region-second and region-third tables, a segment table and page tables.
 * A walk starts at whichever the ASCE names, so it has 5 (region-first),
 * 4 (region-second), 3 (region-third) or 2 (segment) levels and reaches
 * 2^64, 2^53, 2^42 or 2^31 bytes of address:
 *
 *   bits   63..53  52..42  41..31  30..20   19..12  11..0
 *          RFX     RSX     RTX     SX       PX      byte
 *
 * Region and segment tables have 2048 8-byte entries (16 KiB, four
 * pages); page tables 256 (2 KiB: two share a page).  An entry:
 *  - bit 0x20, I: invalid; the walk ends there, the address is unmapped;
 *  - bits 0x0c, TT: the type of the table the entry lies in (3 region-
 *    first, 2 region-second, 1 region-third, 0 segment); the hardware
 *    faults on an entry whose TT is not its table's;
 *  - a region entry points (bits 63..12) to the next table and says
 *    which of its four pages exist: TF (bits 0xc0) the first, TL (bits
 *    0x03) the last; an index into a missing page is unmapped;
 *  - a segment entry points (bits 63..11) to a page table;
 *  - FC (bit 0x400) in a region-third entry makes it a 2 GiB frame (bits
 *    63..31), in a segment entry a 1 MiB frame (bits 63..20): the
 *    kernel's "huge" and "large" pages, with EDAT-2 and EDAT-1 (QEMU's TCG
 *    CPU has neither, so the shared dump maps 4 KiB pages only);
 *  - a page-table entry holds a 4 KiB frame (bits 63..12); 0x400 is its
 *    invalid bit, and 0x800 must be zero.  Linux marks a page it ages for
 *    reclaim (pte_mkold) invalid for the hardware and keeps it present for
 *    itself (_PAGE_PRESENT, 0x001, a software bit; swap entries have it
 *    clear): its frame is still the page's, so a present entry maps here
 *    whatever its invalid bit.
 *
 * How many levels.  The kernel's ASCE is in control register 1 of each
 * CPU (the dump's NT_S390_CTRS notes) and in each lowcore, but the notes
 * are the dump format's, absent from a kdump-compressed file written from
 * another one, and the lowcore's layout changes with the kernel.  Every
 * entry names its own table's type, and Linux writes TT into the invalid
 * entries of its tables too: so the type of the top table is read from
 * swapper_pg_dir itself, from its valid entries, which must all agree, as
 * makedumpfile and libkdumpfile take it.  Every entry below is checked to
 * be of the type its level needs, as the hardware checks it.  A process's
 * tables (mm->pgd) are read the same way: its address space may have more
 * levels than the kernel's.  On the shared dump control register 1 holds
 * 0x2040007: a region-third table (3 levels) at 0x2040000, the physical
 * address of swapper_pg_dir.
 *
 * Address spaces.  The kernel and each process have address spaces of
 * their own (the kernel's ASCE translates kernel addresses; a process's,
 * in control registers 7 and 13, its user ones): user and kernel
 * addresses overlap, and every address the kernel's tables can reach is
 * a kernel address.
 *
 * Where the kernel maps memory, since Linux 6.10 (arch/s390/boot/
 * startup.c; arch_crash_save_vmcoreinfo() writes the three numbers):
 *  - the identity map: physical address p at IDENTITYBASE + p, randomized
 *    with KASLR (IDENTITYBASE=0 on the shared dump), up to high_memory;
 *  - the kernel image, apart from it: KERNELOFFSET is the virtual address
 *    of the image's base and KERNELOFFPHYS its physical one, so a symbol
 *    at v lies at v - KERNELOFFSET + KERNELOFFPHYS (_stext at 0x3fffe8f4000
 *    is at 0x9f4000 on the shared dump); swapper_pg_dir is in the image,
 *    so this sum gives the root of the walk;
 *  - vmemmap (SYMBOL(vmemmap), the value of the kernel's `vmemmap`),
 *    vmalloc (NUMBER(VMALLOC_START)) and the modules below the image:
 *    walked;
 *  - the lowcore and the AMODE31 section (SAMODE31..EAMODE31, code that
 *    runs with 31-bit addresses) are mapped at their physical addresses
 *    too: walked.
 * Before 6.10 the identity map starts at 0 and the kernel image lies in
 * it (KASLR moved it physically, and its virtual address with it):
 * SYMBOL(swapper_pg_dir) is the root's physical address, and VMCOREINFO
 * has neither IDENTITYBASE nor KERNELOFFPHYS, which tell the two layouts
 * apart.  The identity map is translated by its sum, checked once against
 * the page tables; everything else is walked.
 *
 * Lowcore and prefix.  Each CPU's prefix register (NT_S390_PREFIX) swaps,
 * for that CPU alone, real addresses 0..8K with the 8K at the prefix: its
 * lowcore.  A dump holds absolute memory, as no CPU sees it: each CPU's
 * lowcore at its prefix (where lowcore_ptr[cpu] points through the
 * identity map), and at 0 the absolute lowcore the kernel writes through
 * its own mapping (the vmcoreinfo and os_info pointers at 0xe0c and 0xe18
 * on the shared dump).  Which of them a real address 0..8K means depends
 * on the CPU that uses it, so no swap can be right for all: crash,
 * makedumpfile and libkdumpfile read the dump's physical addresses as
 * absolute ones, lowcores through lowcore_ptr[], and so does this file.
 * The kernel's /proc/vmcore (arch/s390/kernel/crash_dump.c) swaps only
 * the crashkernel area back, so its pages are absolute memory too.
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "input/vmcoreinfo.h"
#include "util/addr_set.h"
#include "util/error.h"

#ifndef EM_S390
#define EM_S390 22
#endif

#define PAGE_SHIFT 12
#define PAGE_SIZE (UINT64_C(1) << PAGE_SHIFT)

/* Table types, as TT and the ASCE's DT name them. */
#define TT_SEGMENT 0
#define TT_REGION3 1
#define TT_REGION1 3
#define MAX_TABLE_LEVELS 4         /* region-first down to segment */

#define CRST_ENTRIES 2048u         /* region and segment tables */
#define CRST_BYTES (CRST_ENTRIES * 8u)
#define CRST_PAGE_ENTRIES 512u     /* the entries of one of its pages: TF and TL's unit */
#define PT_ENTRIES 256u
#define PT_BYTES (PT_ENTRIES * 8u)
#define INDEX_BITS 11
#define SEGMENT_SHIFT 20

#define ENTRY_INVALID UINT64_C(0x20)
#define ENTRY_TT(e) (((e) >> 2) & 3)
#define ENTRY_TF(e) (((e) >> 6) & 3)
#define ENTRY_TL(e) ((e) & 3)
#define ENTRY_FC UINT64_C(0x400)
#define REGION_ORIGIN (~UINT64_C(0xfff))
#define SEGMENT_ORIGIN (~UINT64_C(0x7ff))
#define HUGE_SHIFT 31              /* a region-third frame: 2 GiB */
#define LARGE_SHIFT 20             /* a segment frame: 1 MiB */
#define PTE_INVALID UINT64_C(0x400)
#define PTE_MUST_BE_ZERO UINT64_C(0x800)
#define PTE_PRESENT UINT64_C(0x001)
#define PTE_ORIGIN (~UINT64_C(0xfff))

struct s390x_state {
	struct phys_reader reader;
	uint64_t root;                /* physical address of swapper_pg_dir */
	int root_type;                /* its table type: TT_REGION3 (3 levels) to TT_REGION1 (5) */
	/* The 6.10 layout: the image apart from the identity map. */
	bool image_apart;
	uint64_t identity_base;       /* IDENTITYBASE; 0 before 6.10 */
	uint64_t kernel_offset;       /* KERNELOFFSET: the image's virtual base (6.10+) */
	uint64_t kernel_offset_phys;  /* KERNELOFFPHYS: its physical base */
	/* [identity_base, identity_base + sum_size) is translated by the sum. */
	uint64_t sum_size;
	uint64_t vmemmap_start;
	uint64_t vmalloc_start, vmalloc_end;
	/* The process tables vtop_root saw last, and their type. */
	uint64_t user_root;
	int user_type;
};

/* The bytes of address a walk from a table of type @type reaches (0: all 2^64). */
static uint64_t reach(int type)
{
	unsigned int bits = SEGMENT_SHIFT + INDEX_BITS * (unsigned int)(type + 1);

	return bits >= 64 ? 0 : 1ull << bits;
}

static bool within_reach(int type, uint64_t vaddr)
{
	return !reach(type) || vaddr < reach(type);
}

static const char *const table_names[] = { "segment", "region-third", "region-second", "region-first" };

static struct mdf_error *read_entry(const struct s390x_state *st, uint64_t paddr, uint64_t *entry)
{
	return phys_read_u64(&st->reader, paddr, entry);
}

/*
 * Walks the tables from @root, of type @type.  A table the reader cannot
 * read is named in *@unread_table (when not NULL), and the table whose
 * entry points to it in *@parent (the root itself: 0).
 */
static struct mdf_error *walk_traced(const struct s390x_state *st, uint64_t root, int type, uint64_t vaddr,
				     uint64_t *paddr, uint64_t *page_size, uint64_t *unread_table,
				     uint64_t *parent)
{
	uint64_t tables[MAX_TABLE_LEVELS + 1];
	unsigned int depth = 0, first_page = 0, last_page = 3;
	uint64_t table = root, entry, next, size;
	struct mdf_error *err;

	if (!within_reach(type, vaddr))
		return &mdf_error_unmapped;
	for (int t = type; t >= TT_SEGMENT; t--) {
		unsigned int index = (unsigned int)(vaddr >> (SEGMENT_SHIFT + INDEX_BITS * t)) & (CRST_ENTRIES - 1);

		tables[depth++] = table;
		if (index / CRST_PAGE_ENTRIES < first_page || index / CRST_PAGE_ENTRIES > last_page)
			return &mdf_error_unmapped;
		err = read_entry(st, table + index * 8ull, &entry);
		if (err)
			goto unread;
		if (entry & ENTRY_INVALID)
			return &mdf_error_unmapped;
		if ((int)ENTRY_TT(entry) != t)
			return mdf_error(-MDF_ECORRUPT, "walking 0x%" PRIx64 ": entry %u of the %s table at 0x%"
					 PRIx64 " says it is in a %s table", vaddr, index, table_names[t], table,
					 table_names[ENTRY_TT(entry)]);
		if ((t == TT_REGION3 || t == TT_SEGMENT) && (entry & ENTRY_FC)) {
			size = 1ull << (t == TT_REGION3 ? HUGE_SHIFT : LARGE_SHIFT);
			*paddr = (entry & ~(size - 1)) | (vaddr & (size - 1));
			if (page_size)
				*page_size = size;
			return NULL;
		}
		next = entry & (t == TT_SEGMENT ? SEGMENT_ORIGIN : REGION_ORIGIN);
		first_page = (unsigned int)ENTRY_TF(entry);
		last_page = (unsigned int)ENTRY_TL(entry);
		for (unsigned int above = 0; above < depth; above++)
			if (tables[above] == next)
				return mdf_error(-MDF_ECORRUPT, "page-table loop: walking 0x%" PRIx64 ", the table "
						 "at 0x%" PRIx64 " points back to the table at 0x%" PRIx64, vaddr,
						 table, next);
		table = next;
	}
	tables[depth++] = table;
	err = read_entry(st, table + ((vaddr >> PAGE_SHIFT) & (PT_ENTRIES - 1)) * 8, &entry);
	if (err)
		goto unread;
	if ((entry & PTE_MUST_BE_ZERO) || ((entry & PTE_INVALID) && !(entry & PTE_PRESENT)))
		return &mdf_error_unmapped;
	*paddr = (entry & PTE_ORIGIN) | (vaddr & (PAGE_SIZE - 1));
	if (page_size)
		*page_size = PAGE_SIZE;
	return NULL;
unread:
	if (unread_table) {
		*unread_table = table;
		*parent = depth > 1 ? tables[depth - 2] : 0;
	}
	return err;
}

static struct mdf_error *walk(const struct s390x_state *st, uint64_t root, int type, uint64_t vaddr,
			      uint64_t *paddr, uint64_t *page_size)
{
	return walk_traced(st, root, type, vaddr, paddr, page_size, NULL, NULL);
}

/*
 * The type of the region or segment table at @root (@what, in messages):
 * its valid entries', which must agree; an error when it has none or
 * they disagree.
 */
static struct mdf_error *table_type(const struct s390x_state *st, uint64_t root, const char *what, int *type)
{
	uint64_t entries[CRST_PAGE_ENTRIES];
	int found = -1;
	unsigned int found_at = 0;

	for (unsigned int page = 0; page < CRST_ENTRIES / CRST_PAGE_ENTRIES; page++) {
		struct mdf_error *err = st->reader.read(st->reader.ctx, root + page * PAGE_SIZE, entries,
							sizeof(entries));

		if (err)
			return mdf_error_wrap(err, "%s at physical 0x%" PRIx64 " does not read", what,
					      root + page * PAGE_SIZE);
		for (unsigned int i = 0; i < CRST_PAGE_ENTRIES; i++) {
			uint64_t entry = dump_to_host64(st->reader.order, entries[i]);
			int tt = (int)ENTRY_TT(entry);

			if (entry & ENTRY_INVALID)
				continue;
			if (found >= 0 && tt != found)
				return mdf_error(-MDF_ECORRUPT, "%s at physical 0x%" PRIx64 " is no page table: "
						 "its entry %u says %s table, its entry %u %s table", what, root,
						 found_at, table_names[found], page * CRST_PAGE_ENTRIES + i,
						 table_names[tt]);
			if (found < 0) {
				found = tt;
				found_at = page * CRST_PAGE_ENTRIES + i;
			}
		}
	}
	if (found < 0)
		return mdf_error(-MDF_ECORRUPT, "%s at physical 0x%" PRIx64 " has no valid entry", what, root);
	*type = found;
	return NULL;
}

static bool in_identity_sum(const struct s390x_state *st, uint64_t vaddr)
{
	return vaddr - st->identity_base < st->sum_size;
}

static struct mdf_error *s390x_vtop(void *state, uint64_t vaddr, uint64_t *paddr, uint64_t *page_size)
{
	const struct s390x_state *st = state;

	if (in_identity_sum(st, vaddr)) {
		*paddr = vaddr - st->identity_base;
		if (page_size)
			*page_size = PAGE_SIZE;
		return NULL;
	}
	return walk(st, st->root, st->root_type, vaddr, paddr, page_size);
}

/* A process's address space: its own tables for every address, of the type they say. */
static struct mdf_error *s390x_vtop_root(void *state, uint64_t root, uint64_t vaddr, uint64_t *paddr,
					 uint64_t *page_size)
{
	struct s390x_state *st = state;

	if (root != st->user_root || st->user_type < 0) {
		struct mdf_error *err = table_type(st, root, "the process's top page table", &st->user_type);

		if (err) {
			st->user_type = -1;
			return err;
		}
		st->user_root = root;
	}
	return walk(st, root, st->user_type, vaddr, paddr, page_size);
}

/* More table pages than this is a loop in damaged tables: 64 TiB mapped with 4 KiB pages needs fewer. */
#define MAX_TABLE_PAGES (1u << 25)

struct table_walk {
	const struct s390x_state *st;
	struct mdf_error *(*fn)(uint64_t paddr, void *arg);
	void *arg;
	struct addr_set seen;      /* pages named */
	struct addr_set tables;    /* region and segment tables descended */
	uint64_t *entries;         /* a table's worth for each level in turn */
};

/* Names the page holding @paddr, once. */
static struct mdf_error *name_page(struct table_walk *w, uint64_t paddr)
{
	bool added;
	struct mdf_error *err = addr_set_add(&w->seen, paddr & ~(PAGE_SIZE - 1), &added);

	if (err || !added)
		return err;
	if (w->seen.count > MAX_TABLE_PAGES)
		return mdf_error(-MDF_ECORRUPT, "the kernel page tables hold more than %u pages below "
				 "swapper_pg_dir: a loop?", MAX_TABLE_PAGES);
	return w->fn(paddr & ~(PAGE_SIZE - 1), w->arg);
}

/*
 * The region or segment table at @table, of type @type, whose pages
 * @first_page to @last_page exist, and every table below it.
 */
static struct mdf_error *walk_tables(struct table_walk *w, uint64_t table, int type, unsigned int first_page,
				     unsigned int last_page)
{
	const struct s390x_state *st = w->st;
	uint64_t *entries = w->entries + (size_t)type * CRST_ENTRIES;
	struct mdf_error *err = NULL;
	bool added;

	for (unsigned int page = first_page; page <= last_page && !err; page++)
		err = name_page(w, table + page * PAGE_SIZE);
	if (!err)
		err = addr_set_add(&w->tables, table, &added);
	if (err || !added)
		return err;
	for (unsigned int page = first_page; page <= last_page && !err; page++) {
		uint64_t *part = entries + page * CRST_PAGE_ENTRIES;

		if (mdf_error_drop(st->reader.read(st->reader.ctx, table + page * PAGE_SIZE, part, PAGE_SIZE)))
			continue;
		for (unsigned int i = 0; i < CRST_PAGE_ENTRIES && !err; i++) {
			uint64_t entry = dump_to_host64(st->reader.order, part[i]);

			if ((entry & ENTRY_INVALID) || (int)ENTRY_TT(entry) != type ||
			    ((type == TT_REGION3 || type == TT_SEGMENT) && (entry & ENTRY_FC)))
				continue;
			if (type == TT_SEGMENT)
				err = name_page(w, entry & SEGMENT_ORIGIN);
			else if (ENTRY_TF(entry) <= ENTRY_TL(entry))
				err = walk_tables(w, entry & REGION_ORIGIN, type - 1, (unsigned int)ENTRY_TF(entry),
						  (unsigned int)ENTRY_TL(entry));
		}
	}
	return err;
}

static struct mdf_error *s390x_for_each_table_page(void *state,
						   struct mdf_error *(*fn)(uint64_t paddr, void *arg), void *arg)
{
	const struct s390x_state *st = state;
	struct table_walk w = { .st = st, .fn = fn, .arg = arg };
	struct mdf_error *err;

	w.entries = malloc((size_t)(st->root_type + 1) * CRST_BYTES);
	if (!w.entries)
		return &mdf_error_enomem;
	err = walk_tables(&w, st->root, st->root_type, 0, 3);
	addr_set_free(&w.seen);
	addr_set_free(&w.tables);
	free(w.entries);
	return err;
}

/* A line of VMCOREINFO written in hexadecimal without 0x, as KERNELOFFSET is. */
static struct mdf_error *hex_line(const struct vmcoreinfo *vi, const char *key, uint64_t *value)
{
	const char *text = vmcoreinfo_get(vi, key);
	char *end;

	if (!text)
		return &mdf_error_not_found;
	errno = 0;
	*value = strtoull(text, &end, 16);
	if (errno || end == text || *end)
		return mdf_error(-MDF_ECORRUPT, "VMCOREINFO's %s=%.40s is not a hex number", key, text);
	return NULL;
}

/* The physical address of the kernel image's @vaddr, by the layout's sum. */
static uint64_t image_paddr(const struct s390x_state *st, uint64_t vaddr)
{
	return st->image_apart ? vaddr - st->kernel_offset + st->kernel_offset_phys : vaddr - st->identity_base;
}

static struct mdf_error *read_layout(struct s390x_state *st, const struct vmcoreinfo *vi)
{
	int64_t page_size, start, end;
	uint64_t value;
	struct mdf_error *err;

	if (!mdf_error_drop(vmcoreinfo_lookup_plain(vi, "PAGESIZE", &page_size)) && page_size != (int64_t)PAGE_SIZE)
		return mdf_error(-MDF_ECORRUPT, "VMCOREINFO's PAGESIZE=%" PRId64 " is not s390x's 4096", page_size);
	err = hex_line(vi, "KERNELOFFPHYS", &st->kernel_offset_phys);
	st->image_apart = !err;
	if (mdf_error_is_not_found(err))
		err = NULL;
	if (!err && st->image_apart)
		err = hex_line(vi, "IDENTITYBASE", &st->identity_base);
	if (!err && st->image_apart)
		err = hex_line(vi, "KERNELOFFSET", &st->kernel_offset);
	if (mdf_error_is_not_found(err))
		return mdf_error(-MDF_ECORRUPT, "VMCOREINFO has KERNELOFFPHYS, the kernel image apart from the "
				 "identity map (Linux 6.10 and later), but not IDENTITYBASE and KERNELOFFSET too");
	if (err)
		return err;
	if (st->image_apart && ((st->identity_base | st->kernel_offset | st->kernel_offset_phys) & (PAGE_SIZE - 1)))
		return mdf_error(-MDF_ECORRUPT, "VMCOREINFO's IDENTITYBASE=%" PRIx64 ", KERNELOFFSET=%" PRIx64
				 " and KERNELOFFPHYS=%" PRIx64 " are not all page-aligned", st->identity_base,
				 st->kernel_offset, st->kernel_offset_phys);
	if (!mdf_error_drop(vmcoreinfo_lookup_symbol(vi, "vmemmap", &value)))
		st->vmemmap_start = value;
	if (!mdf_error_drop(vmcoreinfo_lookup_number(vi, "VMALLOC_START", &start)) &&
	    !mdf_error_drop(vmcoreinfo_lookup_number(vi, "VMALLOC_END", &end)) && (uint64_t)start < (uint64_t)end) {
		st->vmalloc_start = (uint64_t)start;
		st->vmalloc_end = (uint64_t)end;
	}
	return NULL;
}

/* What the layout calls the sum that locates swapper_pg_dir, for messages. */
static const char *root_origin(const struct s390x_state *st)
{
	return st->image_apart ? "SYMBOL(swapper_pg_dir) - KERNELOFFSET + KERNELOFFPHYS"
			       : "SYMBOL(swapper_pg_dir), the image in the identity map at 0";
}

/* _stext through the page tables must land where the layout's sum puts it. */
static struct mdf_error *check_kernel_image(const struct s390x_state *st, uint64_t stext)
{
	uint64_t paddr, unread = 0, parent = 0, want = image_paddr(st, stext);
	struct mdf_error *err;

	if (st->image_apart && stext < st->kernel_offset)
		return mdf_error(-MDF_ECORRUPT, "SYMBOL(_stext)=%" PRIx64 " lies below the kernel image's base, "
				 "KERNELOFFSET=%" PRIx64, stext, st->kernel_offset);
	err = walk_traced(st, st->root, st->root_type, stext, &paddr, NULL, &unread, &parent);
	if (err == &mdf_error_unmapped)
		return mdf_error(-MDF_ECORRUPT, "SYMBOL(_stext)=%" PRIx64 " is not mapped by the %d-level page "
				 "tables at physical 0x%" PRIx64 " (%s)", stext, st->root_type + 2, st->root,
				 root_origin(st));
	if (err && err->shared)
		return mdf_error(-MDF_ECORRUPT, "the page table at 0x%" PRIx64 " is not in the dump (%s), but the "
				 "one at 0x%" PRIx64 " points there for SYMBOL(_stext)=%" PRIx64, unread,
				 mdf_error_text(err), parent, stext);
	if (err)
		return mdf_error_wrap(err, "translating SYMBOL(_stext)");
	if (paddr != want)
		return mdf_error(-MDF_ECORRUPT, "SYMBOL(_stext)=%" PRIx64 " maps to physical 0x%" PRIx64 " through "
				 "the page tables, not to 0x%" PRIx64 " as %s say", stext, paddr, want,
				 st->image_apart ? "KERNELOFFSET and KERNELOFFPHYS" : "the layout before 6.10 would");
	return NULL;
}

/*
 * The identity map's extent, [IDENTITYBASE, high_memory), which the sum
 * translates: high_memory is __va() of its end.  Without it, or with a
 * value that is no end of it, the identity map is walked like the rest.
 */
static void find_identity_end(struct s390x_state *st, const struct vmcoreinfo *vi)
{
	uint64_t sym, high = 0;

	if (mdf_error_drop(vmcoreinfo_lookup_symbol(vi, "high_memory", &sym)) ||
	    mdf_error_drop(phys_read_u64(&st->reader, image_paddr(st, sym), &high)) || high <= st->identity_base ||
	    (high - st->identity_base) % PAGE_SIZE || !within_reach(st->root_type, high - 1))
		return;
	st->sum_size = high - st->identity_base;
}

/*
 * The identity map's sum against the page tables, at an address known to
 * be in it (SYMBOL(mem_section), allocated at boot): an IDENTITYBASE that
 * puts the map elsewhere is the dump's error, said here rather than as
 * wrong data everywhere.
 */
static struct mdf_error *check_identity_map(struct s390x_state *st, const struct vmcoreinfo *vi)
{
	uint64_t probe, by_tables;
	struct mdf_error *err;

	if (mdf_error_drop(vmcoreinfo_lookup_symbol(vi, "mem_section", &probe)) || !in_identity_sum(st, probe))
		return NULL;
	err = walk(st, st->root, st->root_type, probe, &by_tables, NULL);
	if (!err && by_tables == probe - st->identity_base)
		return NULL;
	if (err == &mdf_error_unmapped || (!err && by_tables != probe - st->identity_base)) {
		mdf_error_free(err);
		return mdf_error(-MDF_ECORRUPT, "IDENTITYBASE=%" PRIx64 " puts SYMBOL(mem_section)=%" PRIx64 " at "
				 "physical 0x%" PRIx64 ", but the page tables %s", st->identity_base, probe,
				 probe - st->identity_base, err ? "do not map it" : "map it elsewhere");
	}
	return mdf_error_wrap(err, "checking IDENTITYBASE against the page tables");
}

static struct mdf_error *s390x_init(const struct vmcoreinfo *vi, const struct phys_reader *reader, void **out)
{
	struct s390x_state *st = calloc(1, sizeof(*st));
	uint64_t swapper, stext;
	struct mdf_error *err;

	if (!st)
		return &mdf_error_enomem;
	st->reader = *reader;
	st->user_type = -1;
	err = read_layout(st, vi);
	if (!err && mdf_error_drop(vmcoreinfo_lookup_symbol(vi, "swapper_pg_dir", &swapper)))
		err = mdf_error(-MDF_ECORRUPT, "VMCOREINFO has no SYMBOL(swapper_pg_dir): cannot walk the "
				"kernel page tables");
	if (!err && mdf_error_drop(vmcoreinfo_lookup_symbol(vi, "_stext", &stext)))
		err = mdf_error(-MDF_ECORRUPT, "VMCOREINFO has no SYMBOL(_stext): the kernel image cannot "
				"be checked");
	if (err)
		goto fail;
	st->root = image_paddr(st, swapper);
	if (st->root % PAGE_SIZE) {
		err = mdf_error(-MDF_ECORRUPT, "%s=0x%" PRIx64 " is no page-aligned physical address", root_origin(st),
				st->root);
		goto fail;
	}
	err = table_type(st, st->root, "swapper_pg_dir", &st->root_type);
	if (!err && st->root_type < TT_REGION3)
		err = mdf_error(-MDF_ECORRUPT, "swapper_pg_dir at physical 0x%" PRIx64 " is a segment table: "
				"no 64-bit kernel runs with 2 levels", st->root);
	if (err) {
		err = mdf_error_wrap(err, "the kernel page tables (%s)", root_origin(st));
		goto fail;
	}
	err = check_kernel_image(st, stext);
	if (err)
		goto fail;
	find_identity_end(st, vi);
	err = check_identity_map(st, vi);
	if (err)
		goto fail;
	*out = st;
	return NULL;
fail:
	free(st);
	return err;
}

/* Every address the kernel's tables can reach: the kernel has an address space of its own. */
static bool s390x_is_kernel_address(const void *state, uint64_t vaddr)
{
	const struct s390x_state *st = state;

	return within_reach(st->root_type, vaddr);
}

static struct mdf_error *s390x_kernel_image(void *state, const struct arch_symbols *syms, struct arch_image *out)
{
	const struct s390x_state *st = state;
	uint64_t text, end, paddr;
	struct mdf_error *err;

	err = arch_image_bounds(syms, &text, &end);
	if (err)
		return err;
	if (end <= text || text % PAGE_SIZE || (st->image_apart && text < st->kernel_offset))
		return mdf_error(-MDF_ECORRUPT, "_text=%" PRIx64 " and _end=%" PRIx64 " do not bound a kernel "
				 "image%s", text, end, st->image_apart ? " above KERNELOFFSET" : "");
	err = walk(st, st->root, st->root_type, text, &paddr, NULL);
	if (err)
		return mdf_error_wrap(err, "translating _text=%" PRIx64, text);
	err = arch_image_check_paddr(text, paddr, image_paddr(st, text), "the layout");
	if (!err)
		arch_image_set(out, text, end, paddr, PAGE_SIZE);
	return err;
}

/* __va(p) = p + IDENTITYBASE (0 before 6.10). */
static struct mdf_error *s390x_address_space(void *state, const struct arch_symbols *syms,
					     struct arch_address_space *out)
{
	const struct s390x_state *st = state;

	(void)syms;
	out->direct_map = st->identity_base;
	out->vmemmap_start = st->vmemmap_start;
	out->vmalloc_start = st->vmalloc_start;
	out->vmalloc_end = st->vmalloc_end;
	return NULL;
}

static void s390x_free(void *state)
{
	free(state);
}

static const char *const s390x_vmcoreinfo_keys[] = {
	"SYMBOL(lowcore_ptr)",
	"LENGTH(lowcore_ptr)",
	"SAMODE31",
	"SDMA",
	"IDENTITYBASE",
	"KERNELOFFPHYS",
	NULL,
};

/*
 * -E keeps a QEMU dump's addresses: the kernel's /proc/vmcore on s390x
 * (arch/s390/kernel/crash_dump.c) has no kernel image segment.
 */
const struct arch_ops arch_s390x = {
	.name = "s390x",
	.elf_machine = EM_S390,
	.vmcoreinfo_keys = s390x_vmcoreinfo_keys,
	.byte_order = BYTE_ORDER_BIG,
	.one_byte_order = true,
	.pointer_size = 8,
	.page_sizes = PAGE_SIZE,
	.default_page_size = PAGE_SIZE,
	.init = s390x_init,
	.free = s390x_free,
	.vtop = s390x_vtop,
	.vtop_root = s390x_vtop_root,
	.for_each_table_page = s390x_for_each_table_page,
	.is_kernel_address = s390x_is_kernel_address,
	.kernel_image = s390x_kernel_image,
	.address_space = s390x_address_space,
	.kexec_vaddrs = false,
};
