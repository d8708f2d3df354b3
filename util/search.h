/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Binary search over a sorted table, written once.
 *
 * Every table searched here is ordered so that a question about its items
 * is answered yes for a prefix of them and no for the rest: "does this
 * range end at or before the address?", "does this key sort before the
 * name?".  The search finds where the yeses end, the partition point (as
 * C++'s std::partition_point and Rust's slice::partition_point name it),
 * in log2(count) questions; the caller then looks at the item there: the
 * range that may hold the address, the first entry of the key.
 *
 * It is inline, so that the question, a static function of the caller,
 * is inlined too where the search runs once per page.
 */
#ifndef MDF_UTIL_SEARCH_H
#define MDF_UTIL_SEARCH_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The index of the first of @count items for which @before(@ctx, index)
 * is false, @count when it is true for all; @before must be true for a
 * prefix of the items and false for the rest.
 */
static inline size_t search_partition_point(size_t count, bool (*before)(void *ctx, size_t index),
					    void *ctx)
{
	size_t lo = 0, hi = count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (before(ctx, mid))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif
