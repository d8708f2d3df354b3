// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_pfn_ranges: extension pfn ranges.  Random overlapping ranges are
 * registered, merged and looked up with a cursor, in ascending order and
 * after a restart; every answer must equal a plain bitmap's.  Ranges in
 * the orders that trouble a sort (descending, equal, sawtooth, organ pipe,
 * alternating ends) merge to what a bitmap of them says.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "scan/pfn_ranges.h"
#include "util/error.h"
#include "unit_check.h"

#define SPAN 200000
#define RANGES 100000
#define ORDERED 50000

/* The start of range i of ORDERED in one of the orders. */
static uint64_t ordered_start(int order, uint64_t i)
{
	switch (order) {
	case 0:
		return ORDERED - i;                                  /* descending */
	case 1:
		return 77;                                           /* all equal */
	case 2:
		return i % 1000;                                     /* sawtooth */
	case 3:
		return i < ORDERED / 2 ? i : ORDERED - i;            /* organ pipe */
	default:
		return i % 2 ? i : ORDERED - i;                      /* alternating ends */
	}
}

/* Registers ORDERED ranges of 1-3 pages in @order; merged, they must cover what the bitmap says. */
static bool merges_in_order(int order, unsigned char *truth)
{
	struct pfn_ranges set = { 0 };
	uint64_t pages = 0, covered = 0;
	bool ok = true;

	for (uint64_t p = 0; p < SPAN + 64; p++)
		truth[p] = 0;
	for (uint64_t i = 0; i < ORDERED; i++) {
		uint64_t start = ordered_start(order, i), count = 1 + i % 3;

		if (mdf_error_drop(pfn_ranges_add(&set, start, count)))
			return false;
		for (uint64_t p = start; p < start + count; p++)
			truth[p] = 1;
	}
	pfn_ranges_merge(&set);
	for (size_t i = 0; i < set.count; i++) {
		ok &= set.ranges[i].start < set.ranges[i].end && (!i || set.ranges[i].start > set.ranges[i - 1].end);
		for (uint64_t p = set.ranges[i].start; p < set.ranges[i].end && ok; p++)
			ok = truth[p];
		covered += set.ranges[i].end - set.ranges[i].start;
	}
	for (uint64_t p = 0; p < SPAN + 64; p++)
		pages += truth[p];
	pfn_ranges_free(&set);
	return ok && covered == pages;
}

int main(void)
{
	struct pfn_ranges set = { 0 };
	struct pfn_cursor cursor;
	unsigned char *truth = calloc(SPAN + 64, 1);
	bool merged_ok = true, lookups_ok = true, restart_ok = true;
	uint64_t pages = 0;

	if (!truth)
		return 1;
	srand(7);
	for (int i = 0; i < RANGES; i++) {
		uint64_t start = (uint64_t)rand() % SPAN, count = 1 + (uint64_t)rand() % 8;

		if (mdf_error_drop(pfn_ranges_add(&set, start, count)))
			return 1;
		for (uint64_t p = start; p < start + count; p++)
			truth[p] = 1;
	}
	check(mdf_error_drop(pfn_ranges_add(&set, 5, 0)) == -EINVAL, "an empty range is refused");
	check(mdf_error_drop(pfn_ranges_add(&set, UINT64_MAX - 1, 4)) == -EINVAL, "a wrapping range is refused");
	pfn_ranges_merge(&set);
	for (size_t i = 0; i < set.count; i++) {
		if (set.ranges[i].start >= set.ranges[i].end ||
		    (i && set.ranges[i].start <= set.ranges[i - 1].end))
			merged_ok = false;
	}
	check(merged_ok, "merged ranges are sorted, disjoint and not adjacent");
	for (uint64_t p = 0; p < SPAN + 64; p++)
		pages += truth[p];
	check(pfn_ranges_pages(&set) == pages, "merged ranges cover exactly the registered pages");

	pfn_cursor_init(&cursor, &set);
	for (uint64_t p = 0; p < SPAN + 64; p++)
		if (pfn_cursor_contains(&cursor, p) != (bool)truth[p])
			lookups_ok = false;
	check(lookups_ok, "ascending cursor lookups equal the bitmap");
	for (uint64_t p = SPAN / 2; p < SPAN / 2 + 1000; p++)
		if (pfn_cursor_contains(&cursor, p) != (bool)truth[p])
			restart_ok = false;
	check(restart_ok, "a second pass from a lower pfn restarts correctly");

	pfn_ranges_free(&set);
	pfn_cursor_init(&cursor, &set);
	check(!pfn_cursor_contains(&cursor, 3), "an empty set contains nothing");
	for (int order = 0; order < 5; order++)
		check(merges_in_order(order, truth), "ranges in order %d merge to what they cover", order);
	free(truth);
	return unit_exit_status();
}
