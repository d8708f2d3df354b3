// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Page classification, following upstream makedumpfile's rules, over the
 * struct pages mem_map.c finds.
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
#include <stdlib.h>
#include <string.h>

#include "input/dump_input.h"
#include "input/vmcoreinfo.h"
#include "kernel/mem_map.h"
#include "kernel/kernel.h"
#include "memory/reader.h"
#include "scan/page_scan.h"
#include "scan/pfn_ranges.h"
#include "util/error.h"
#include "util/message.h"

/* struct pages read at a time; a power of two, so no compound head is last. */
#define BATCH_PFNS 512
#define PAGE_MAPPING_ANON 0x1ull
#define NOT_FOUND (-1)

enum category {
	CAT_NONE,
	CAT_FREE,
	CAT_CACHE,
	CAT_CACHE_PRIVATE,
	CAT_USER,
	CAT_HWPOISON,
	CAT_OFFLINE,
};

/* What upstream reads from VMCOREINFO about struct page; NOT_FOUND when absent. */
struct page_layout {
	int64_t size;
	int64_t flags;
	int64_t mapping;
	int64_t mapcount;
	int64_t private;
	int64_t compound_head;
	/* In the first tail page, relative to its start; 0 when unknown. */
	int64_t compound_order;
	int64_t compound_dtor;
	bool order_is_byte;   /* kernels >= 4.16; a u16 before */

	int64_t pg_lru;
	int64_t pg_private;
	int64_t pg_swapcache;
	int64_t pg_swapbacked;
	int64_t pg_slab;
	int64_t pg_hwpoison;
	int64_t pg_head_mask;
	int64_t pg_hugetlb;
	int64_t buddy_value;
	int64_t offline_value;
	int64_t slab_value;
	int64_t hugetlb_value;
	int64_t unaccepted_value;
	int64_t hugetlb_dtor;
	int64_t free_area_length;
};

struct page_scan {
	struct dump_input *in;
	struct memory *mem;
	int dump_level;
	uint32_t page_size;
	uint64_t max_pfn;
	struct page_layout l;
	bool classify;         /* whether any struct page rule applies */
	bool partial_pages;    /* a page the dump holds in part is present */

	struct mem_map *mem_map;
	unsigned int section_pfn_shift;
	uint64_t nr_sections;

	/* Extension ranges; keep_cursor follows exclusions, the other the discard pass. */
	const struct pfn_ranges *discard;
	struct pfn_cursor keep_cursor;
	struct pfn_cursor keep_cursor_discard;

	/* A multi-page block excluded past the end of the previous cycle. */
	uint64_t pending_end;
	enum category pending_category;
	uint64_t next_cycle_start;

	unsigned char *batch;
	uint64_t batch_start;
	uint64_t batch_end;    /* batch_start == batch_end: nothing loaded */
	uint64_t unreadable_end;   /* end of the last batch that could not be read */
	bool warned_unreadable;
};

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

	return kernel_offset(k, name, &value) ? value : fallback;
}

static int64_t number_or(struct kernel *k, const char *name, int64_t fallback)
{
	int64_t value;

	return kernel_number(k, name, &value) ? value : fallback;
}

static int64_t optional_offset(struct kernel *k, const char *name, int64_t fallback)
{
	int64_t value;

	return kernel_offset_optional(k, name, &value) ? value : fallback;
}

static int64_t optional_number(struct kernel *k, const char *name, int64_t fallback)
{
	int64_t value;

	return kernel_number_optional(k, name, &value) ? value : fallback;
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

static struct mdf_error *require(bool found, const char *line)
{
	if (found)
		return NULL;
	return mdf_error(-ENOENT, "VMCOREINFO has no %s: cannot classify pages", line);
}

/* @l->size, SIZE(page), is mem_map's; the rest comes from VMCOREINFO. */
static struct mdf_error *read_layout(struct kernel *k, struct page_layout *l)
{
	int64_t refcount, folio_order, folio_dtor;
	struct mdf_error *err;

	err = require(kernel_offset(k, "page.flags", &l->flags), "OFFSET(page.flags)");
	if (!err)
		err = require(kernel_offset(k, "page._refcount", &refcount) ||
				      kernel_offset(k, "page._count", &refcount),
			      "OFFSET(page._refcount)");
	if (!err)
		err = require(kernel_offset(k, "page.mapping", &l->mapping), "OFFSET(page.mapping)");
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
	l->offline_value = optional_number(k, "PAGE_OFFLINE_MAPCOUNT_VALUE", NOT_FOUND);
	l->slab_value = optional_number(k, "PAGE_SLAB_MAPCOUNT_VALUE", NOT_FOUND);
	l->hugetlb_value = optional_number(k, "PAGE_HUGETLB_MAPCOUNT_VALUE", NOT_FOUND);
	l->unaccepted_value = optional_number(k, "PAGE_UNACCEPTED_MAPCOUNT_VALUE", NOT_FOUND);
	l->hugetlb_dtor = optional_number(k, "HUGETLB_PAGE_DTOR", NOT_FOUND);
	if (!kernel_length(k, "zone.free_area", &l->free_area_length))
		l->free_area_length = NOT_FOUND;

	if (l->pg_lru == NOT_FOUND || l->pg_private == NOT_FOUND || l->pg_swapcache == NOT_FOUND)
		return mdf_error(-ENOENT, "VMCOREINFO lacks NUMBER(PG_lru), NUMBER(PG_private) or "
				 "NUMBER(PG_swapcache): cannot classify pages");
	return NULL;
}

/* Fields of one struct page, at the offsets VMCOREINFO gives. */
static uint64_t field_u64(const unsigned char *page, int64_t offset)
{
	uint64_t value;

	memcpy(&value, page + offset, sizeof(value));
	return value;
}

static uint32_t field_u32(const unsigned char *page, int64_t offset)
{
	uint32_t value;

	memcpy(&value, page + offset, sizeof(value));
	return value;
}

static bool flag_set(uint64_t flags, int64_t bit)
{
	return bit >= 0 && bit < 64 && (flags >> bit) & 1;
}

/*
 * Whether a range's partial last page counts as present.  Upstream 1.7.2
 * builds its 1st bitmap one way when it works in one cycle (the page
 * counts) and another in cyclic mode (it does not).  It works in one cycle
 * when both bitmaps fit its 4 MiB buffer exactly: max_mapnr * 2 / 8 bytes,
 * rounded down, must hold max_mapnr * 2 bits, with max_mapnr taken from
 * the dump's segments before it looks at mem_map.  Dumps only match
 * upstream's pfn for pfn if that choice is made the same way.  (Upstream
 * also limits the buffer to 60% of free memory; that never decides for
 * bitmaps of 4 MiB or less.)
 */
static bool upstream_counts_partial_pages(uint64_t max_pfn)
{
	uint64_t bitmap_bytes = max_pfn * 2 / 8;

	return bitmap_bytes * 8 >= max_pfn * 2 && bitmap_bytes <= (4u << 20);
}

struct mdf_error *page_scan_init(struct dump_input *in, struct memory *mem, struct kernel *k,
		   int dump_level, struct page_scan **out)
{
	struct page_scan *scan;
	struct mdf_error *err;

	scan = calloc(1, sizeof(*scan));
	if (!scan)
		return &mdf_error_enomem;
	scan->in = in;
	scan->mem = mem;
	scan->dump_level = dump_level;
	scan->page_size = in->page_size;
	scan->max_pfn = in->kdump ? in->kdump->max_mapnr : in->max_pfn;
	scan->partial_pages = upstream_counts_partial_pages(scan->max_pfn);

	err = mem_map_open(mem, k, scan->page_size, scan->max_pfn, &scan->mem_map);
	if (err)
		goto fail;
	scan->l.size = (int64_t)mem_map_page_struct_size(scan->mem_map);
	err = read_layout(k, &scan->l);
	if (err)
		goto fail;
	scan->max_pfn = mem_map_max_pfn(scan->mem_map);
	scan->section_pfn_shift = mem_map_section_shift(scan->mem_map);
	scan->nr_sections = mem_map_nr_sections(scan->mem_map);
	/* Upstream looks at struct pages only when some rule can exclude. */
	scan->classify = (dump_level & (DL_EXCLUDE_CACHE | DL_EXCLUDE_CACHE_PRI | DL_EXCLUDE_USER_DATA)) ||
			 scan->l.pg_hwpoison != NOT_FOUND ||
			 ((dump_level & DL_EXCLUDE_FREE) && scan->l.buddy_value != NOT_FOUND &&
			  scan->l.mapcount != NOT_FOUND && scan->l.private != NOT_FOUND);
	if ((dump_level & DL_EXCLUDE_FREE) && scan->l.buddy_value == NOT_FOUND)
		msg_warn("VMCOREINFO has no NUMBER(PAGE_BUDDY_MAPCOUNT_VALUE): free pages are kept");
	scan->batch = malloc(BATCH_PFNS * (size_t)scan->l.size);
	if (!scan->batch) {
		err = &mdf_error_enomem;
		goto fail;
	}
	msg_debug("page scan: max_pfn 0x%" PRIx64 ", %" PRIu64 " sections of 2^%u pages, struct page %" PRId64
		  " bytes", scan->max_pfn, scan->nr_sections, scan->section_pfn_shift, scan->l.size);
	*out = scan;
	return NULL;
fail:
	page_scan_free(scan);
	return err;
}

void page_scan_free(struct page_scan *scan)
{
	if (!scan)
		return;
	mem_map_free(scan->mem_map);
	free(scan->batch);
	free(scan);
}

void page_scan_set_extension_ranges(struct page_scan *scan, const struct pfn_ranges *keep,
				    const struct pfn_ranges *discard)
{
	pfn_cursor_init(&scan->keep_cursor, keep);
	pfn_cursor_init(&scan->keep_cursor_discard, keep);
	scan->discard = discard;
}

uint64_t page_scan_max_pfn(const struct page_scan *scan)
{
	return scan->max_pfn;
}

const struct mem_map *page_scan_mem_map(const struct page_scan *scan)
{
	return scan->mem_map;
}

static void set_bits(uint8_t *bitmap, uint64_t from, uint64_t to)
{
	while (from < to && from % 8)
		bitmap[from / 8] |= (uint8_t)(1u << (from % 8)), from++;
	if (to - from >= 8) {
		memset(bitmap + from / 8, 0xff, (to - from) / 8);
		from += (to - from) / 8 * 8;
	}
	while (from < to)
		bitmap[from / 8] |= (uint8_t)(1u << (from % 8)), from++;
}

/*
 * The 1st bitmap: pages of the dump's ranges, each range's first pfn
 * rounded down; see upstream_counts_partial_pages() for its last.
 */
static void mark_present(const struct page_scan *scan, uint64_t start_pfn, uint64_t end_pfn,
			 uint8_t *present)
{
	const struct dump_input *in = scan->in;

	memset(present, 0, (end_pfn - start_pfn + 7) / 8);
	for (size_t i = 0; i < in->nr_ranges; i++) {
		uint64_t from = in->ranges[i].start / scan->page_size;
		uint64_t to = (in->ranges[i].end + (scan->partial_pages ? scan->page_size - 1 : 0)) /
			      scan->page_size;

		if (from < start_pfn)
			from = start_pfn;
		if (to > end_pfn)
			to = end_pfn;
		if (from < to)
			set_bits(present, from - start_pfn, to - start_pfn);
	}
}

static uint64_t *category_counter(struct page_counts *counts, enum category category)
{
	switch (category) {
	case CAT_FREE:
		return &counts->free;
	case CAT_CACHE:
		return &counts->cache;
	case CAT_CACHE_PRIVATE:
		return &counts->cache_private;
	case CAT_USER:
		return &counts->user;
	case CAT_HWPOISON:
		return &counts->hwpoison;
	case CAT_OFFLINE:
		return &counts->offline;
	case CAT_NONE:
		break;
	}
	return NULL;
}

/* The pfns of the current cycle a scan step works on. */
struct cycle {
	uint64_t start;
	uint64_t end;
	const uint8_t *present;
	uint8_t *dumpable;
	struct page_counts *counts;
};

/* Clears [from, to) in the cycle; what lies past its end waits for the next one. */
static void exclude(struct page_scan *scan, struct cycle *c, uint64_t from, uint64_t to,
		    enum category category)
{
	uint64_t *counter = category_counter(c->counts, category);

	if (to > c->end) {
		scan->pending_end = to;
		scan->pending_category = category;
		to = c->end;
	}
	for (uint64_t pfn = from; pfn < to; pfn++) {
		uint64_t bit = pfn - c->start;

		if ((c->dumpable[bit / 8] & (1u << (bit % 8))) &&
		    !pfn_cursor_contains(&scan->keep_cursor, pfn)) {
			c->dumpable[bit / 8] &= (uint8_t)~(1u << (bit % 8));
			(*counter)++;
		}
	}
}

/* Discard ranges take what the flag rules left, except what is kept. */
static void apply_discards(struct page_scan *scan, struct cycle *c)
{
	const struct pfn_ranges *set = scan->discard;
	size_t lo = 0, hi = set ? set->count : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (set->ranges[mid].end <= c->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; set && i < set->count && set->ranges[i].start < c->end; i++) {
		uint64_t from = set->ranges[i].start > c->start ? set->ranges[i].start : c->start;
		uint64_t to = set->ranges[i].end < c->end ? set->ranges[i].end : c->end;

		for (uint64_t pfn = from; pfn < to; pfn++) {
			uint64_t bit = pfn - c->start;

			if ((c->dumpable[bit / 8] & (1u << (bit % 8))) &&
			    !pfn_cursor_contains(&scan->keep_cursor_discard, pfn)) {
				c->dumpable[bit / 8] &= (uint8_t)~(1u << (bit % 8));
				c->counts->extension++;
			}
		}
	}
}

/*
 * Points @page at the struct page of @pfn, reading a batch when needed.
 * A batch that cannot be read leaves its pages in the dump: better a
 * larger dump than a lost one.
 */
static bool load_struct_page(struct page_scan *scan, uint64_t pfn, const unsigned char **page)
{
	uint64_t section = pfn >> scan->section_pfn_shift;
	uint64_t section_end = (section + 1) << scan->section_pfn_shift;
	struct mdf_error *err;

	if (pfn < scan->batch_start || pfn >= scan->batch_end) {
		uint64_t start = pfn & ~(uint64_t)(BATCH_PFNS - 1);
		uint64_t end = start + BATCH_PFNS;

		if (end > section_end)
			end = section_end;
		if (end > scan->max_pfn)
			end = scan->max_pfn;
		scan->batch_start = start;
		scan->batch_end = end;
		err = mem_read_virt(scan->mem, mem_map_section_start(scan->mem_map, section) +
					(start - (section << scan->section_pfn_shift)) * (uint64_t)scan->l.size,
				    scan->batch, (end - start) * (size_t)scan->l.size);
		if (err) {
			if (!scan->warned_unreadable)
				msg_warn("cannot read the struct pages of pfns 0x%" PRIx64 "-0x%" PRIx64
					 " (%s): those pages are kept, as are others like them",
					 start, end - 1, mdf_error_text(err));
			else
				msg_debug("struct pages of pfns 0x%" PRIx64 "-0x%" PRIx64 " unreadable: %s",
					  start, end - 1, mdf_error_text(err));
			mdf_error_free(err);
			scan->warned_unreadable = true;
			scan->unreadable_end = end;
			scan->batch_start = scan->batch_end = 0;
			return false;
		}
	}
	*page = scan->batch + (pfn - scan->batch_start) * (uint64_t)scan->l.size;
	return true;
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

/* The decision for one head or single page: a category and how many pages. */
static enum category classify_page(const struct page_scan *scan, uint64_t pfn,
				   const unsigned char *page, bool tail_loaded, uint64_t *nr_pages)
{
	const struct page_layout *l = &scan->l;
	uint64_t flags = field_u64(page, l->flags);
	uint64_t mapping = field_u64(page, l->mapping);
	uint32_t mapcount = l->mapcount != NOT_FOUND ? field_u32(page, l->mapcount) : 0;
	uint64_t private = l->private != NOT_FOUND ? field_u64(page, l->private) : 0;
	unsigned int order = 0;
	bool hugetlb = false, anon;
	int level = scan->dump_level;

	if (tail_loaded && (flags & (uint64_t)l->pg_head_mask)) {
		const unsigned char *tail = page + l->size;

		if (l->hugetlb_value != NOT_FOUND || l->pg_hugetlb != NOT_FOUND) {
			uint64_t tail_flags = field_u64(tail, l->flags);

			order = tail_flags & 0xff;
			hugetlb = l->hugetlb_value != NOT_FOUND ? mapcount == (uint32_t)l->hugetlb_value
								: flag_set(tail_flags, l->pg_hugetlb);
		} else {
			uint16_t value;

			if (l->compound_order) {
				memcpy(&value, tail + l->compound_order, sizeof(value));
				order = l->order_is_byte ? (value & 0xff) : value;
			}
			if (l->compound_dtor) {
				memcpy(&value, tail + l->compound_dtor, sizeof(value));
				hugetlb = l->hugetlb_dtor != NOT_FOUND &&
					  (uint64_t)l->hugetlb_dtor == (l->order_is_byte ? (value & 0xffu) : value);
			}
		}
		if (order >= 64 || (pfn & ((1ull << order) - 1)))
			order = 0;
	}
	*nr_pages = 1ull << order;

	if (l->compound_head != NOT_FOUND && (field_u64(page, l->compound_head) & 1))
		return CAT_NONE;
	if ((level & DL_EXCLUDE_FREE) && l->buddy_value != NOT_FOUND && l->mapcount != NOT_FOUND &&
	    l->private != NOT_FOUND && !is_slab(l, flags, mapcount) && mapcount == (uint32_t)l->buddy_value) {
		uint64_t max_orders = l->free_area_length != NOT_FOUND ? (uint64_t)l->free_area_length : 64;

		if (private >= max_orders || private >= 64) {
			msg_warn("invalid free page order: pfn=0x%" PRIx64 ", order=%" PRIu64 ", max order=%" PRIu64,
				 pfn, private, max_orders - 1);
			return CAT_NONE;
		}
		*nr_pages = 1ull << private;
		return CAT_FREE;
	}
	if ((level & DL_EXCLUDE_FREE) && l->unaccepted_value != NOT_FOUND &&
	    mapcount == (uint32_t)l->unaccepted_value && l->free_area_length > 0 &&
	    l->free_area_length <= 64) {
		*nr_pages = 1ull << (l->free_area_length - 1);
		return CAT_FREE;
	}
	anon = (mapping & PAGE_MAPPING_ANON) && !is_slab(l, flags, mapcount);
	if ((level & DL_EXCLUDE_CACHE) && is_cache(l, flags) && !flag_set(flags, l->pg_private) && !anon)
		return CAT_CACHE;
	if ((level & DL_EXCLUDE_CACHE_PRI) && is_cache(l, flags) && !anon)
		return flag_set(flags, l->pg_private) ? CAT_CACHE_PRIVATE : CAT_CACHE;
	if ((level & DL_EXCLUDE_USER_DATA) && (anon || hugetlb))
		return CAT_USER;
	if (flag_set(flags, l->pg_hwpoison))
		return CAT_HWPOISON;
	if (l->offline_value != NOT_FOUND && !is_slab(l, flags, mapcount) &&
	    mapcount == (uint32_t)l->offline_value)
		return CAT_OFFLINE;
	return CAT_NONE;
}

static void classify_section(struct page_scan *scan, struct cycle *c, uint64_t from, uint64_t to)
{
	for (uint64_t pfn = from; pfn < to; pfn++) {
		uint64_t bit = pfn - c->start, nr_pages;
		const unsigned char *page;
		enum category category;

		if (!(c->present[bit / 8] & (1u << (bit % 8))))
			continue;
		if (!load_struct_page(scan, pfn, &page)) {
			pfn = scan->unreadable_end - 1;
			continue;
		}
		category = classify_page(scan, pfn, page, pfn + 1 < scan->batch_end, &nr_pages);
		if (category == CAT_NONE)
			continue;
		exclude(scan, c, pfn, pfn + nr_pages, category);
		pfn += nr_pages - 1;
	}
}

void page_scan_cycle(struct page_scan *scan, uint64_t start_pfn, uint64_t end_pfn, uint8_t *present,
		     uint8_t *dumpable, struct page_counts *counts)
{
	struct cycle c = { start_pfn, end_pfn, present, dumpable, counts };
	uint64_t from = start_pfn;

	if (end_pfn > scan->max_pfn)
		end_pfn = c.end = scan->max_pfn;
	if (start_pfn >= end_pfn)
		return;
	mark_present(scan, start_pfn, end_pfn, present);
	memcpy(dumpable, present, (end_pfn - start_pfn + 7) / 8);
	if (scan->in->ops->clear_missing)
		scan->in->ops->clear_missing(scan->in, start_pfn, end_pfn, dumpable);

	/* A new pass over the dump starts without a block pending. */
	if (start_pfn != scan->next_cycle_start)
		scan->pending_end = 0;
	scan->next_cycle_start = end_pfn;
	if (scan->pending_end > start_pfn) {
		uint64_t pending_end = scan->pending_end;

		scan->pending_end = 0;
		exclude(scan, &c, start_pfn, pending_end, scan->pending_category);
		from = pending_end < end_pfn ? pending_end : end_pfn;
	}
	if (!scan->classify) {
		apply_discards(scan, &c);
		return;
	}
	for (uint64_t section = from >> scan->section_pfn_shift; section < scan->nr_sections; section++) {
		uint64_t sec_start = section << scan->section_pfn_shift;
		uint64_t sec_end = sec_start + (1ull << scan->section_pfn_shift);

		if (sec_start >= end_pfn)
			break;
		if (!mem_map_section_start(scan->mem_map, section))
			continue;
		classify_section(scan, &c, sec_start > from ? sec_start : from,
				 sec_end < end_pfn ? sec_end : end_pfn);
	}
	apply_discards(scan, &c);
}
