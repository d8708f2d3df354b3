/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Page classification: which pages a dump level keeps.
 *
 * The scan walks the kernel's mem_map (struct page array, found through
 * SPARSEMEM's mem_section) and applies upstream makedumpfile's rules for
 * each dump-level bit (the rules for one struct page, and the DL_* bits,
 * are scan/page_rules.h's).  It works a cycle at a time, a range of pfns
 * whose bitmaps the caller provides, so its memory does not grow with the
 * dump.
 */
#ifndef MDF_SCAN_PAGE_SCAN_H
#define MDF_SCAN_PAGE_SCAN_H

#include <stdint.h>

#include "scan/page_rules.h"

struct dump_input;
struct mdf_error;
struct mem_map;
struct memory;
struct pfn_ranges;
struct kernel;
struct page_scan;

/* Pages excluded, per category, as upstream's report counts them. */
struct page_counts {
	uint64_t zero;
	uint64_t cache;
	uint64_t cache_private;
	uint64_t user;
	uint64_t free;
	uint64_t hwpoison;
	uint64_t offline;
	uint64_t extension;
};

struct mdf_error *page_scan_init(struct dump_input *in, struct memory *mem, struct kernel *k, int dump_level,
				 struct page_scan **out);
void page_scan_free(struct page_scan *scan);

/*
 * Ranges from extensions, sorted and merged (pfn_ranges_merge): a pfn to
 * keep is never excluded, by any rule; a pfn to discard that no rule
 * excluded is excluded and counted as an extension page.  The sets must
 * outlive the scan.
 */
void page_scan_set_extension_ranges(struct page_scan *scan, const struct pfn_ranges *keep,
				    const struct pfn_ranges *discard);

/* One past the highest pfn the bitmaps cover (upstream's max_mapnr). */
uint64_t page_scan_max_pfn(const struct page_scan *scan);
/* The memory model the scan found, for pfn <-> struct page. */
const struct mem_map *page_scan_mem_map(const struct page_scan *scan);

/*
 * Fills, for the pfns [start_pfn, end_pfn), @present (bit set: the dump
 * holds the page; upstream's 1st bitmap) and @dumpable (bit set: the page
 * is kept at this dump level; the 2nd bitmap).  Bit i of each bitmap is
 * pfn start_pfn + i, least significant bit first; start_pfn is a multiple
 * of 8.  Exclusions are added to @counts.  Zero pages are not excluded
 * here: a kdump-compressed writer finds them as it copies (as upstream
 * does) and counts them itself.
 */
void page_scan_cycle(struct page_scan *scan, uint64_t start_pfn, uint64_t end_pfn, uint8_t *present,
		     uint8_t *dumpable, struct page_counts *counts);

#endif
