// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The per-page rules of page classification, following upstream
 * makedumpfile's; page_scan.c applies them over the struct pages mem_map.c
 * finds.
 *
 * What a struct page says (upstream's __exclude_unnecessary_pages, in the
 * form of its current sources, which know kernels up to 7.x):
 *  - a compound head's order is in the first tail page (compound_order, or
 *    the low byte of folio._flags_1 on newer kernels) and a hugetlb folio is
 *    marked there too (compound_dtor, PG_hugetlb) or in the head's page type
 *    (PAGE_HUGETLB_MAPCOUNT_VALUE, kernels >= 6.9); tail pages (bit 0 of
 *    compound_head) are skipped: their head decides for the whole block;
 *  - free: the buddy allocator's head page carries the buddy page type in
 *    _mapcount and its order in private; the whole 2^order block goes;
 *  - cache: on the LRU, or swap cache with PG_swapbacked, and not anonymous;
 *    private cache has PG_private;
 *  - user data: mapping with the anonymous bit (not a slab page), or a
 *    hugetlb folio;
 *  - hwpoison and logically offline pages go at every dump level.
 * The first rule that matches decides, in that order.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "input/vmcoreinfo.h"
#include "kernel/btf_enum.h"
#include "kernel/kernel.h"
#include "scan/page_rules.h"
#include "util/error.h"
#include "util/message.h"

#define PAGE_MAPPING_ANON 0x1ull
#define NOT_FOUND PAGE_LAYOUT_NOT_FOUND

/*
 * Two kinds of VMCOREINFO lines.  Those every supported kernel exports
 * (page.flags, page._mapcount, PG_lru, ...) may come from the dump's BTF
 * when VMCOREINFO lacks them (vmcoreinfo_offset and friends).  Those whose
 * absence means a kernel without the feature (folio._folio_order,
 * PAGE_SLAB_MAPCOUNT_VALUE, ...) come from VMCOREINFO alone, unless BTF is
 * already in use: a complete VMCOREINFO then costs no decoding, and the
 * rules see what upstream makedumpfile sees.
 */
static int64_t offset_or(struct kernel *k, const char *name, int64_t fallback)
{
	int64_t value;

	return !mdf_error_drop(kernel_lookup_offset(k, name, &value)) ? value : fallback;
}

static int64_t number_or(struct kernel *k, const char *name, int64_t fallback)
{
	int64_t value;

	return !mdf_error_drop(kernel_lookup_number(k, name, &value)) ? value : fallback;
}

static int64_t optional_offset(struct kernel *k, const char *name, int64_t fallback)
{
	int64_t value;

	return !mdf_error_drop(kernel_peek_offset(k, name, &value)) ? value : fallback;
}

static int64_t optional_number(struct kernel *k, const char *name, int64_t fallback)
{
	int64_t value;

	return !mdf_error_drop(kernel_peek_number(k, name, &value)) ? value : fallback;
}

/* Major and minor of OSRELEASE, e.g. 6.1 from "6.1.0-57-amd64". */
static bool kernel_at_least(struct kernel *k, int major, int minor)
{
	const char *release = vmcoreinfo_get(kernel_vmcoreinfo(k), "OSRELEASE");
	int have_major, have_minor;

	if (!release || sscanf(release, "%d.%d", &have_major, &have_minor) != 2)
		return true;
	return have_major > major || (have_major == major && have_minor >= minor);
}

/* @lookup's answer for the fact @line names, which the page rules cannot do without. */
static struct mdf_error *require(struct mdf_error *lookup, const char *line)
{
	if (!mdf_error_is_not_found(lookup))
		return lookup ? mdf_error_wrap(lookup, "cannot classify pages") : NULL;
	return mdf_error(-ENOENT, "VMCOREINFO has no %s: cannot classify pages", line);
}

/*
 * Whether the field at @offset, @width bytes, lies inside a struct page of
 * @l->size bytes (@optional: NOT_FOUND is fine).  Checked once here, so
 * that page_classify() may read every field it is given without a bound.
 */
static struct mdf_error *check_field(const struct page_layout *l, const char *name, int64_t offset,
				     int64_t width, bool optional)
{
	if ((optional && offset == NOT_FOUND) || (offset >= 0 && offset <= l->size - width))
		return NULL;
	return mdf_error(-MDF_ECORRUPT, "VMCOREINFO's %s=%" PRId64 " does not fit a struct page of %" PRId64
			 " bytes (SIZE(page)): cannot classify pages", name, offset, l->size);
}

/* Every offset page_classify() reads, against SIZE(page). */
static struct mdf_error *check_layout(const struct page_layout *l)
{
	struct mdf_error *err = check_field(l, "OFFSET(page.flags)", l->flags, 8, false);

	if (!err)
		err = check_field(l, "OFFSET(page.mapping)", l->mapping, 8, false);
	if (!err)
		err = check_field(l, "OFFSET(page._mapcount)", l->mapcount, 4, true);
	if (!err)
		err = check_field(l, "OFFSET(page.private)", l->private, 8, true);
	if (!err)
		err = check_field(l, "OFFSET(page.compound_head)", l->compound_head, 8, true);
	/* In the first tail page; 0 stands for unknown and is never read. */
	if (!err)
		err = check_field(l, "the compound order's offset", l->compound_order, 2, false);
	if (!err)
		err = check_field(l, "the compound destructor's offset", l->compound_dtor, 2, false);
	return err;
}

/* @l->size, SIZE(page), is mem_map's; the rest comes from VMCOREINFO. */
struct mdf_error *page_layout_read(struct kernel *k, struct page_layout *l)
{
	int64_t refcount, folio_order, folio_dtor;
	struct mdf_error *err;

	err = require(kernel_lookup_offset(k, "page.flags", &l->flags), "OFFSET(page.flags)");
	if (!err) {
		/* _refcount was _count before Linux 4.7. */
		err = kernel_lookup_offset(k, "page._refcount", &refcount);
		if (mdf_error_is_not_found(err))
			err = kernel_lookup_offset(k, "page._count", &refcount);
		err = require(err, "OFFSET(page._refcount)");
	}
	if (!err)
		err = require(kernel_lookup_offset(k, "page.mapping", &l->mapping), "OFFSET(page.mapping)");
	if (err)
		return err;
	l->mapcount = offset_or(k, "page._mapcount", NOT_FOUND);
	l->private = offset_or(k, "page.private", NOT_FOUND);
	/* Kernels 7.1 and later call compound_head compound_info. */
	l->compound_head = optional_offset(k, "page.compound_head", NOT_FOUND);
	if (l->compound_head == NOT_FOUND)
		l->compound_head = optional_offset(k, "page.compound_info", NOT_FOUND);
	if (l->compound_head == NOT_FOUND)
		l->compound_head = offset_or(k, "page.compound_head",
					     offset_or(k, "page.compound_info", NOT_FOUND));

	/* Folio fields are offsets from the head page; the tail page starts SIZE(page) on. */
	folio_order = optional_offset(k, "folio._folio_order", NOT_FOUND);
	folio_dtor = optional_offset(k, "folio._folio_dtor", NOT_FOUND);
	l->compound_order = folio_order != NOT_FOUND ? folio_order - l->size
						     : optional_offset(k, "page.compound_order", 0);
	l->compound_dtor = folio_dtor != NOT_FOUND ? folio_dtor - l->size
						   : optional_offset(k, "page.compound_dtor", 0);
	l->order_is_byte = kernel_at_least(k, 4, 16);

	l->pg_lru = number_or(k, "PG_lru", NOT_FOUND);
	l->pg_private = number_or(k, "PG_private", NOT_FOUND);
	l->pg_swapcache = number_or(k, "PG_swapcache", NOT_FOUND);
	l->pg_hwpoison = number_or(k, "PG_hwpoison", NOT_FOUND);
	l->pg_head_mask = number_or(k, "PG_head_mask", 0);
	l->buddy_value = number_or(k, "PAGE_BUDDY_MAPCOUNT_VALUE", NOT_FOUND);
	l->pg_swapbacked = optional_number(k, "PG_swapbacked", NOT_FOUND);
	l->pg_slab = optional_number(k, "PG_slab", NOT_FOUND);
	l->pg_hugetlb = optional_number(k, "PG_hugetlb", NOT_FOUND);
	l->pg_reserved = NOT_FOUND;
	l->offline_value = optional_number(k, "PAGE_OFFLINE_MAPCOUNT_VALUE", NOT_FOUND);
	l->slab_value = optional_number(k, "PAGE_SLAB_MAPCOUNT_VALUE", NOT_FOUND);
	l->hugetlb_value = optional_number(k, "PAGE_HUGETLB_MAPCOUNT_VALUE", NOT_FOUND);
	l->unaccepted_value = optional_number(k, "PAGE_UNACCEPTED_MAPCOUNT_VALUE", NOT_FOUND);
	l->hugetlb_dtor = optional_number(k, "HUGETLB_PAGE_DTOR", NOT_FOUND);
	if (mdf_error_drop(kernel_lookup_length(k, "zone.free_area", &l->free_area_length)))
		l->free_area_length = NOT_FOUND;

	if (l->pg_lru == NOT_FOUND || l->pg_private == NOT_FOUND || l->pg_swapcache == NOT_FOUND)
		return mdf_error(-ENOENT, "VMCOREINFO lacks NUMBER(PG_lru), NUMBER(PG_private) or "
				 "NUMBER(PG_swapcache): cannot classify pages");
	return check_layout(l);
}

/*
 * VMCOREINFO's line, or BTF's answer where the types are loaded already;
 * else the one enum constant read in place from the vmlinux BTF kallsyms
 * locate; else the types loaded (a vmlinux's, with -x, or BTF found by
 * searching the image).
 */
bool page_layout_read_reserved(struct kernel *k, struct memory *mem, struct page_layout *l)
{
	uint64_t start, stop;
	int64_t value;
	struct mdf_error *err;

	if (!mdf_error_drop(kernel_peek_number(k, "PG_reserved", &value))) {
		l->pg_reserved = value;
	} else if (!mdf_error_drop(kernel_symbol_address(k, "vmlinux", "__start_BTF", &start)) &&
		   !mdf_error_drop(kernel_symbol_address(k, "vmlinux", "__stop_BTF", &stop))) {
		err = btf_enum_constant(mem, start, stop, "pageflags", "PG_reserved", &value);
		l->pg_reserved = err ? NOT_FOUND : value;
		if (err)
			msg_debug("pageflags.PG_reserved in vmlinux's BTF: %s", mdf_error_text(err));
		mdf_error_free(err);
	} else {
		l->pg_reserved = number_or(k, "PG_reserved", NOT_FOUND);
	}
	msg_debug("NUMBER(PG_reserved): %" PRId64, l->pg_reserved);
	if (l->pg_reserved < 0 || l->pg_reserved >= 64)
		l->pg_reserved = NOT_FOUND;
	return l->pg_reserved != NOT_FOUND;
}

bool page_layout_classifies(const struct page_layout *l, int dump_level)
{
	/* Upstream looks at struct pages only when some rule can exclude. */
	return (dump_level & (DL_EXCLUDE_CACHE | DL_EXCLUDE_CACHE_PRI | DL_EXCLUDE_USER_DATA)) ||
	       l->pg_hwpoison != NOT_FOUND ||
	       ((dump_level & DL_EXCLUDE_FREE) && l->buddy_value != NOT_FOUND && l->mapcount != NOT_FOUND &&
		l->private != NOT_FOUND);
}

/* Fields of one struct page, at the offsets VMCOREINFO gives, in the memory's byte order. */
static uint64_t field_u64(const struct page_layout *l, const unsigned char *page, int64_t offset)
{
	return dump_to_host_bytes(l->order, page + offset, 8);
}

static uint32_t field_u32(const struct page_layout *l, const unsigned char *page, int64_t offset)
{
	return (uint32_t)dump_to_host_bytes(l->order, page + offset, 4);
}

/*
 * The compound order or destructor in the first tail page: a byte since
 * 4.16 (the one at its offset, whatever the byte order), a u16 before.
 */
static unsigned int tail_byte_or_u16(const struct page_layout *l, const unsigned char *tail, int64_t offset)
{
	return l->order_is_byte ? tail[offset] : (unsigned int)dump_to_host_bytes(l->order, tail + offset, 2);
}

static bool flag_set(uint64_t flags, int64_t bit)
{
	return bit >= 0 && bit < 64 && (flags >> bit) & 1;
}

static bool is_slab(const struct page_layout *l, uint64_t flags, uint32_t mapcount)
{
	if (l->slab_value != NOT_FOUND && mapcount == (uint32_t)l->slab_value)
		return true;
	return flag_set(flags, l->pg_slab);
}

static bool is_cache(const struct page_layout *l, uint64_t flags)
{
	if (flag_set(flags, l->pg_lru))
		return true;
	/* PG_swapcache means swap cache only together with PG_swapbacked (4.10+). */
	return (l->pg_swapbacked == NOT_FOUND || flag_set(flags, l->pg_swapbacked)) &&
	       flag_set(flags, l->pg_swapcache);
}

bool page_flags_contradict(const struct page_layout *l, const unsigned char *page)
{
	uint64_t flags = field_u64(l, page, l->flags);

	return l->pg_reserved != NOT_FOUND && flag_set(flags, l->pg_reserved) && flag_set(flags, l->pg_lru);
}

/* The decision for one head or single page: a category and how many pages (page_rules.h). */
enum page_category page_classify(const struct page_layout *l, int dump_level, uint64_t pfn,
				 const unsigned char *page, bool tail_loaded, uint64_t *nr_pages)
{
	uint64_t flags = field_u64(l, page, l->flags);
	uint64_t mapping = field_u64(l, page, l->mapping);
	uint32_t mapcount = l->mapcount != NOT_FOUND ? field_u32(l, page, l->mapcount) : 0;
	uint64_t private = l->private != NOT_FOUND ? field_u64(l, page, l->private) : 0;
	unsigned int order = 0;
	bool hugetlb = false, anon;
	int level = dump_level;

	if (tail_loaded && (flags & (uint64_t)l->pg_head_mask)) {
		const unsigned char *tail = page + l->size;

		if (l->hugetlb_value != NOT_FOUND || l->pg_hugetlb != NOT_FOUND) {
			uint64_t tail_flags = field_u64(l, tail, l->flags);

			order = tail_flags & 0xff;
			hugetlb = l->hugetlb_value != NOT_FOUND ? mapcount == (uint32_t)l->hugetlb_value
								: flag_set(tail_flags, l->pg_hugetlb);
		} else {
			if (l->compound_order)
				order = tail_byte_or_u16(l, tail, l->compound_order);
			if (l->compound_dtor)
				hugetlb = l->hugetlb_dtor != NOT_FOUND &&
					  (uint64_t)l->hugetlb_dtor == tail_byte_or_u16(l, tail, l->compound_dtor);
		}
		if (order >= 64 || (pfn & ((1ull << order) - 1)))
			order = 0;
	}
	*nr_pages = 1ull << order;

	if (l->compound_head != NOT_FOUND && (field_u64(l, page, l->compound_head) & 1))
		return PAGE_CAT_COMPOUND_TAIL;
	if ((level & DL_EXCLUDE_FREE) && l->buddy_value != NOT_FOUND && l->mapcount != NOT_FOUND &&
	    l->private != NOT_FOUND && !is_slab(l, flags, mapcount) && mapcount == (uint32_t)l->buddy_value) {
		uint64_t max_orders = l->free_area_length != NOT_FOUND ? (uint64_t)l->free_area_length : 64;

		if (private >= max_orders || private >= 64) {
			msg_warn("invalid free page order: pfn=0x%" PRIx64 ", order=%" PRIu64 ", max order=%" PRIu64,
				 pfn, private, max_orders - 1);
			return PAGE_CAT_NONE;
		}
		*nr_pages = 1ull << private;
		return PAGE_CAT_FREE;
	}
	if ((level & DL_EXCLUDE_FREE) && l->unaccepted_value != NOT_FOUND &&
	    mapcount == (uint32_t)l->unaccepted_value && l->free_area_length > 0 &&
	    l->free_area_length <= 64) {
		*nr_pages = 1ull << (l->free_area_length - 1);
		return PAGE_CAT_FREE;
	}
	anon = (mapping & PAGE_MAPPING_ANON) && !is_slab(l, flags, mapcount);
	if ((level & DL_EXCLUDE_CACHE) && is_cache(l, flags) && !flag_set(flags, l->pg_private) && !anon)
		return PAGE_CAT_CACHE;
	if ((level & DL_EXCLUDE_CACHE_PRI) && is_cache(l, flags) && !anon)
		return flag_set(flags, l->pg_private) ? PAGE_CAT_CACHE_PRIVATE : PAGE_CAT_CACHE;
	if ((level & DL_EXCLUDE_USER_DATA) && (anon || hugetlb))
		return PAGE_CAT_USER;
	if (flag_set(flags, l->pg_hwpoison))
		return PAGE_CAT_HWPOISON;
	if (l->offline_value != NOT_FOUND && !is_slab(l, flags, mapcount) &&
	    mapcount == (uint32_t)l->offline_value)
		return PAGE_CAT_OFFLINE;
	return PAGE_CAT_NONE;
}
