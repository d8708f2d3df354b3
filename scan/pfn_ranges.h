/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Page ranges that extensions ask the engine to discard or to keep.
 *
 * Extensions register ranges in any order and may overlap them; the
 * engine sorts and merges each set once, then consults it through a
 * cursor that moves with the ascending pfn scan of page classification,
 * so a lookup costs amortised O(1).
 */
#ifndef MDF_SCAN_PFN_RANGES_H
#define MDF_SCAN_PFN_RANGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pfn_range {
	uint64_t start;
	uint64_t end;   /* exclusive */
};

struct pfn_ranges {
	struct pfn_range *ranges;
	size_t count;
	size_t capacity;
	bool merged;    /* sorted, disjoint, not adjacent */
};

/* Adds [start, start + count); an empty or wrapping range is an error of -EINVAL. */
struct mdf_error *pfn_ranges_add(struct pfn_ranges *set, uint64_t start, uint64_t count);
/* Makes room for @count more ranges. */
struct mdf_error *pfn_ranges_reserve(struct pfn_ranges *set, size_t count);
/* Sorts and merges, in O(n log n); idempotent. */
void pfn_ranges_merge(struct pfn_ranges *set);
void pfn_ranges_free(struct pfn_ranges *set);
/* Pages covered by a merged set. */
uint64_t pfn_ranges_pages(const struct pfn_ranges *set);
/* The index of the first range of a merged set that ends after @pfn; set->count if none. */
size_t pfn_ranges_first_ending_after(const struct pfn_ranges *set, uint64_t pfn);

/*
 * A position in a merged set.  Queries should come in ascending pfn
 * order; a query below the previous one restarts with a binary search,
 * so a new pass over the pfns needs no reset.
 */
struct pfn_cursor {
	const struct pfn_ranges *set;
	size_t index;
	uint64_t last;
};

void pfn_cursor_init(struct pfn_cursor *cursor, const struct pfn_ranges *set);
bool pfn_cursor_contains(struct pfn_cursor *cursor, uint64_t pfn);

#endif
