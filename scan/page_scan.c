// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Page classification over the struct pages mem_map.c finds: batches of
 * struct pages read from the dump, a cycle of pfns at a time, the bitmaps
 * and the counts.  Which category one struct page falls in is
 * page_rules.c's.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/dump_input.h"
#include "kernel/mem_map.h"
#include "kernel/kernel.h"
#include "memory/reader.h"
#include "scan/owned_pages.h"
#include "scan/page_rules.h"
#include "scan/page_scan.h"
#include "scan/pfn_ranges.h"
#include "util/error.h"
#include "util/message.h"

/* struct pages read at a time; a power of two, so no compound head is last. */
#define BATCH_PFNS 512
#define NOT_FOUND PAGE_LAYOUT_NOT_FOUND

struct page_scan {
	struct dump_input *in;
	struct memory *mem;
	int dump_level;
	uint32_t page_size;
	uint64_t max_pfn;
	struct page_layout l;
	bool classify;         /* whether any struct page rule applies */
	bool partial_pages;    /* a page the dump holds in part is present */

	/* The pages no flag excludes (owned_pages.h); NULL when the dump level overrides no rule. */
	struct owned_pages *owned;

	struct mem_map *mem_map;
	unsigned int section_pfn_shift;
	uint64_t nr_sections;

	/*
	 * Extensions' decisions; the cursors of the classification pass, then
	 * those of the discard pass (a cursor serves ascending queries).
	 */
	const struct page_decisions *decisions;
	struct pfn_cursor keep_cursor, include_cursor, exclude_cursor;
	struct pfn_cursor keep_cursor_discard, include_cursor_discard;

	/* A multi-page block excluded past the end of the previous cycle. */
	uint64_t pending_end;
	enum page_category pending_category;
	uint64_t next_cycle_start;

	unsigned char *batch;
	uint64_t batch_start;
	uint64_t batch_end;    /* batch_start == batch_end: nothing loaded */
	uint64_t unreadable_end;   /* end of the last batch that could not be read */
	bool warned_unreadable;
};

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

struct mdf_error *page_scan_new(struct dump_input *in, struct memory *mem, struct kernel *k,
		   int dump_level, struct page_scan **out)
{
	struct page_scan *scan;
	struct mdf_error *err;

	scan = calloc(1, sizeof(*scan));
	if (!scan)
		return &mdf_error_enomem;
	scan->in = in;
	scan->mem = mem;
	/*
	 * What a kdump-compressed input left out stays out, and the rules
	 * must find it again to count it: its dump level is part of ours.
	 */
	scan->dump_level = dump_level | (in->kdump ? in->kdump->dump_level : 0);
	scan->page_size = in->page_size;
	scan->max_pfn = in->kdump ? in->kdump->max_mapnr : in->max_pfn;
	scan->partial_pages = upstream_counts_partial_pages(scan->max_pfn);

	err = mem_map_new(mem, k, scan->page_size, scan->max_pfn, &scan->mem_map);
	if (err)
		goto fail;
	scan->l.size = (int64_t)mem_map_page_struct_size(scan->mem_map);
	scan->l.order = mem_byte_order(mem);
	err = page_layout_read(k, &scan->l);
	if (err)
		goto fail;
	scan->max_pfn = mem_map_max_pfn(scan->mem_map);
	scan->section_pfn_shift = mem_map_section_shift(scan->mem_map);
	scan->nr_sections = mem_map_nr_sections(scan->mem_map);
	scan->classify = page_layout_classifies(&scan->l, scan->dump_level);
	if (scan->classify)
		err = owned_pages_init(in, mem, k, &scan->l, scan->dump_level, &scan->owned);
	if (err)
		goto fail;
	if ((scan->dump_level & DL_EXCLUDE_FREE) && scan->l.buddy_value == NOT_FOUND)
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
	owned_pages_free(scan->owned);
	mem_map_free(scan->mem_map);
	free(scan->batch);
	free(scan);
}

void page_decisions_merge(struct page_decisions *d)
{
	pfn_ranges_merge(&d->keep);
	pfn_ranges_merge(&d->include);
	pfn_ranges_merge(&d->discard);
	pfn_ranges_merge(&d->exclude);
}

void page_decisions_free(struct page_decisions *d)
{
	pfn_ranges_free(&d->keep);
	pfn_ranges_free(&d->include);
	pfn_ranges_free(&d->discard);
	pfn_ranges_free(&d->exclude);
}

void page_scan_set_decisions(struct page_scan *scan, const struct page_decisions *d)
{
	scan->decisions = d;
	pfn_cursor_init(&scan->keep_cursor, &d->keep);
	pfn_cursor_init(&scan->include_cursor, &d->include);
	pfn_cursor_init(&scan->exclude_cursor, &d->exclude);
	pfn_cursor_init(&scan->keep_cursor_discard, &d->keep);
	pfn_cursor_init(&scan->include_cursor_discard, &d->include);
	/* Page-by-page decisions need the struct pages, whatever the dump level. */
	if (d->include.count || d->exclude.count)
		scan->classify = true;
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
 * The pfns of the dump's range @range: its first pfn rounded down; see
 * upstream_counts_partial_pages() for its last.
 */
static void present_pfns(const struct page_scan *scan, size_t range, uint64_t *from, uint64_t *to)
{
	const struct phys_range *r = &scan->in->ranges[range];

	*from = r->start / scan->page_size;
	*to = (r->end + (scan->partial_pages ? scan->page_size - 1 : 0)) / scan->page_size;
	if (*to > scan->max_pfn)
		*to = scan->max_pfn;
}

uint64_t page_scan_present_pages(const struct page_scan *scan)
{
	uint64_t pages = 0;

	for (size_t i = 0; i < scan->in->nr_ranges; i++) {
		uint64_t from, to;

		present_pfns(scan, i, &from, &to);
		pages += to > from ? to - from : 0;
	}
	return pages;
}

/* The 1st bitmap: pages of the dump's ranges. */
static void mark_present(const struct page_scan *scan, uint64_t start_pfn, uint64_t end_pfn,
			 uint8_t *present)
{
	memset(present, 0, (end_pfn - start_pfn + 7) / 8);
	for (size_t i = 0; i < scan->in->nr_ranges; i++) {
		uint64_t from, to;

		present_pfns(scan, i, &from, &to);
		if (from < start_pfn)
			from = start_pfn;
		if (to > end_pfn)
			to = end_pfn;
		if (from < to)
			set_bits(present, from - start_pfn, to - start_pfn);
	}
}

static uint64_t *category_counter(struct page_counts *counts, enum page_category category)
{
	switch (category) {
	case PAGE_CAT_FREE:
		return &counts->free;
	case PAGE_CAT_CACHE:
		return &counts->cache;
	case PAGE_CAT_CACHE_PRIVATE:
		return &counts->cache_private;
	case PAGE_CAT_USER:
		return &counts->user;
	case PAGE_CAT_HWPOISON:
		return &counts->hwpoison;
	case PAGE_CAT_OFFLINE:
		return &counts->offline;
	case PAGE_CAT_NONE:
	case PAGE_CAT_COMPOUND_TAIL:
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

static bool kept(struct page_scan *scan, uint64_t pfn)
{
	return scan->decisions && pfn_cursor_contains(&scan->keep_cursor, pfn);
}

/* Clears [from, to) in the cycle; what lies past its end waits for the next one. */
static void exclude(struct page_scan *scan, struct cycle *c, uint64_t from, uint64_t to,
		    enum page_category category)
{
	uint64_t *counter = category_counter(c->counts, category);

	if (to > c->end) {
		scan->pending_end = to;
		scan->pending_category = category;
		to = c->end;
	}
	for (uint64_t pfn = from; pfn < to; pfn++) {
		uint64_t bit = pfn - c->start;

		if (!(c->dumpable[bit / 8] & (1u << (bit % 8))) || kept(scan, pfn))
			continue;
		/* A block the head decided may reach into the kernel's own pages. */
		if (owned_pages_keep(scan->owned, pfn, NULL, category)) {
			owned_pages_note(scan->owned, c->start, c->end, pfn, category);
			continue;
		}
		c->dumpable[bit / 8] &= (uint8_t)~(1u << (bit % 8));
		(*counter)++;
	}
}

/* Discard ranges take what the flag rules left, except what is kept or included. */
static void apply_discards(struct page_scan *scan, struct cycle *c)
{
	const struct pfn_ranges *set = scan->decisions ? &scan->decisions->discard : NULL;
	size_t lo = set ? pfn_ranges_first_ending_after(set, c->start) : 0;

	for (size_t i = lo; set && i < set->count && set->ranges[i].start < c->end; i++) {
		uint64_t from = set->ranges[i].start > c->start ? set->ranges[i].start : c->start;
		uint64_t to = set->ranges[i].end < c->end ? set->ranges[i].end : c->end;

		for (uint64_t pfn = from; pfn < to; pfn++) {
			uint64_t bit = pfn - c->start;

			if ((c->dumpable[bit / 8] & (1u << (bit % 8))) &&
			    !pfn_cursor_contains(&scan->keep_cursor_discard, pfn) &&
			    !pfn_cursor_contains(&scan->include_cursor_discard, pfn)) {
				c->dumpable[bit / 8] &= (uint8_t)~(1u << (bit % 8));
				c->counts->extension++;
			}
		}
	}
}

/* A page no rule excluded: an extension's PG_EXCLUDE takes it, unless it is kept. */
static void apply_exclude(struct page_scan *scan, struct cycle *c, uint64_t pfn)
{
	uint64_t bit = pfn - c->start;

	if (!scan->decisions || !pfn_cursor_contains(&scan->exclude_cursor, pfn) || kept(scan, pfn) ||
	    !(c->dumpable[bit / 8] & (1u << (bit % 8))))
		return;
	c->dumpable[bit / 8] &= (uint8_t)~(1u << (bit % 8));
	c->counts->extension++;
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

static void classify_section(struct page_scan *scan, struct cycle *c, uint64_t from, uint64_t to)
{
	for (uint64_t pfn = from; pfn < to; pfn++) {
		uint64_t bit = pfn - c->start, nr_pages;
		const unsigned char *page;
		enum page_category category;

		if (!(c->present[bit / 8] & (1u << (bit % 8))))
			continue;
		if (scan->decisions && pfn_cursor_contains(&scan->include_cursor, pfn))
			continue;
		if (!load_struct_page(scan, pfn, &page)) {
			pfn = scan->unreadable_end - 1;
			continue;
		}
		category = page_classify(&scan->l, scan->dump_level, pfn, page, pfn + 1 < scan->batch_end,
					 &nr_pages);
		if (owned_pages_keep(scan->owned, pfn, page, category)) {
			owned_pages_note(scan->owned, c->start, c->end, pfn, category);
			category = PAGE_CAT_NONE;
		}
		if (category == PAGE_CAT_NONE)
			apply_exclude(scan, c, pfn);
		if (category == PAGE_CAT_NONE || category == PAGE_CAT_COMPOUND_TAIL)
			continue;
		exclude(scan, c, pfn, pfn + nr_pages, category);
		pfn += nr_pages - 1;
	}
}

struct mdf_error *page_scan_each_struct_page(struct page_scan *scan, page_scan_visit_fn visit, void *arg)
{
	uint64_t next = 0;   /* the first pfn not passed yet: ranges may overlap, blocks span holes */

	/* The classification that follows says what cannot be read; once is enough. */
	scan->warned_unreadable = true;
	for (size_t i = 0; i < scan->in->nr_ranges; i++) {
		uint64_t from, to;

		present_pfns(scan, i, &from, &to);
		for (uint64_t pfn = from > next ? from : next; pfn < to; pfn = next) {
			uint64_t section = pfn >> scan->section_pfn_shift, nr_pages = 1;
			const unsigned char *page;
			enum page_category category;
			struct mdf_error *err;
			bool pass_over_rules = false;

			next = pfn + 1;
			if (section >= scan->nr_sections)
				break;
			if (!mem_map_section_start(scan->mem_map, section)) {
				next = (section + 1) << scan->section_pfn_shift;
				continue;
			}
			if (!load_struct_page(scan, pfn, &page)) {
				next = scan->unreadable_end;
				continue;
			}
			err = visit(pfn, page, arg, &pass_over_rules);
			if (err)
				return err;
			if (pass_over_rules)
				continue;
			category = page_classify(&scan->l, scan->dump_level, pfn, page, pfn + 1 < scan->batch_end,
						 &nr_pages);
			if (owned_pages_keep(scan->owned, pfn, page, category))
				category = PAGE_CAT_NONE;
			if (category != PAGE_CAT_NONE && category != PAGE_CAT_COMPOUND_TAIL)
				next = pfn + nr_pages;
		}
	}
	return NULL;
}

static uint64_t count_bits(const uint8_t *bitmap, size_t len)
{
	uint64_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += (uint64_t)__builtin_popcount(bitmap[i]);
	return n;
}

/*
 * The pages a kdump-compressed input left out that no rule excluded
 * again: they cannot be dumped.  The dump level the input was made at is
 * part of this one (upstream's update_dump_level()), so the rules find
 * again, and count by kind, what that level left out; what is left was
 * left out by a filter beyond the dump level, an extension's, and counts
 * as such.
 */
static void exclude_left_out(struct page_scan *scan, struct cycle *c)
{
	size_t len = (size_t)((c->end - c->start + 7) / 8);
	uint64_t before = count_bits(c->dumpable, len);

	scan->in->ops->clear_missing(scan->in, c->start, c->end, c->dumpable);
	c->counts->extension += before - count_bits(c->dumpable, len);
}

/*
 * The rules, the extensions' discards, then for a kdump-compressed input
 * the pages it left out; then what the kernel's own pages kept of it is
 * counted.
 */
static void classify_cycle(struct page_scan *scan, struct cycle *c, uint64_t from)
{
	if (scan->classify) {
		for (uint64_t section = from >> scan->section_pfn_shift; section < scan->nr_sections;
		     section++) {
			uint64_t sec_start = section << scan->section_pfn_shift;
			uint64_t sec_end = sec_start + (1ull << scan->section_pfn_shift);

			if (sec_start >= c->end)
				break;
			if (!mem_map_section_start(scan->mem_map, section))
				continue;
			classify_section(scan, c, sec_start > from ? sec_start : from,
					 sec_end < c->end ? sec_end : c->end);
		}
	}
	apply_discards(scan, c);
	if (scan->in->kdump && scan->in->ops->clear_missing)
		exclude_left_out(scan, c);
	owned_pages_cycle_done(scan->owned, c->start, c->end, c->dumpable, scan->max_pfn);
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
	/*
	 * An ELF input's pages past a segment's file data go before the
	 * rules, uncounted, as upstream's exclude_nodata_pages(); a
	 * kdump-compressed input's are left to the rules (exclude_left_out).
	 */
	if (!scan->in->kdump && scan->in->ops->clear_missing)
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
	classify_cycle(scan, &c, from);
}
