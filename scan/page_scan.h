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

#include <stdbool.h>
#include <stdint.h>

#include "scan/page_rules.h"
#include "scan/pfn_ranges.h"

struct dump_input;
struct mdf_error;
struct mem_map;
struct memory;
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

struct mdf_error *page_scan_new(struct dump_input *in, struct memory *mem, struct kernel *k, int dump_level,
				 struct page_scan **out);
void page_scan_free(struct page_scan *scan);

/*
 * What extensions decided of page frames, each set sorted and merged
 * (pfn_ranges_merge) before the scan uses it.  Keeping wins over
 * discarding, whoever asked:
 *  - keep: never excluded, by any rule (mdf_keep_pfns);
 *  - include: upstream's PG_INCLUDE, the page rules pass over these pfns
 *    (a multi-page block excluded from an earlier pfn still covers them,
 *    and pages of zeros are still excluded at -d 1, as upstream does);
 *  - discard: excluded where no rule excluded them (mdf_discard_pfns);
 *  - exclude: upstream's PG_EXCLUDE, the same but for compound tail
 *    pages, which upstream leaves to their head.
 * Pages excluded only by discard or exclude count as extension pages.
 */
struct page_decisions {
	struct pfn_ranges keep;
	struct pfn_ranges include;
	struct pfn_ranges discard;
	struct pfn_ranges exclude;
};

void page_decisions_merge(struct page_decisions *d);
void page_decisions_free(struct page_decisions *d);

/* @d must outlive the scan. */
void page_scan_set_decisions(struct page_scan *scan, const struct page_decisions *d);

/*
 * Visits, in ascending order, the pfns upstream makedumpfile's page rules
 * reach (the dump holds them and their struct page can be read), with the
 * bytes of each one's struct page: the pages a multi-page block excluded
 * at its first pfn (the rest of a free block, the tails of an excluded
 * compound page) are passed over, unless the visit of that first pfn said
 * *@pass_over_rules, as upstream's PG_INCLUDE does.  Stops at the first
 * error a visit returns.  For extension_callback().
 */
typedef struct mdf_error *(*page_scan_visit_fn)(uint64_t pfn, const void *page, void *arg,
						 bool *pass_over_rules);
struct mdf_error *page_scan_each_struct_page(struct page_scan *scan, page_scan_visit_fn visit, void *arg);

/* One past the highest pfn the bitmaps cover (upstream's max_mapnr). */
uint64_t page_scan_max_pfn(const struct page_scan *scan);
/* Pages the dump holds (its ranges, as the 1st bitmap counts them). */
uint64_t page_scan_present_pages(const struct page_scan *scan);
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
 *
 * A kdump-compressed input (a dump re-filtered) is classified at the
 * scan's dump level with the input's added, as upstream does, so that
 * what the input left out is excluded again and counted by kind; pages
 * it left out that no rule excludes (an extension's, which no dump level
 * tells) count as extension pages.  An ELF input's pages past a
 * segment's file data are not dumpable and count as nothing.
 */
void page_scan_cycle(struct page_scan *scan, uint64_t start_pfn, uint64_t end_pfn, uint8_t *present,
		     uint8_t *dumpable, struct page_counts *counts);

#endif
