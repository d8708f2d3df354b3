// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "scan/pfn_ranges.h"
#include "util/vec.h"

int pfn_ranges_reserve(struct pfn_ranges *set, size_t count)
{
	return vec_reserve(set->ranges, &set->capacity, set->count, count);
}

int pfn_ranges_add(struct pfn_ranges *set, uint64_t start, uint64_t count)
{
	int err;

	if (count == 0 || start + count < start)
		return -EINVAL;
	err = pfn_ranges_reserve(set, 1);
	if (err)
		return err;
	set->ranges[set->count++] = (struct pfn_range){ start, start + count };
	set->merged = false;
	return 0;
}

static int compare_starts(const void *a, const void *b)
{
	const struct pfn_range *ra = a, *rb = b;

	return ra->start < rb->start ? -1 : ra->start > rb->start;
}

void pfn_ranges_merge(struct pfn_ranges *set)
{
	size_t kept = 0;
	bool sorted = true;

	if (set->merged)
		return;
	/* Ranges often arrive in order (one extension's, already merged): no sort then. */
	for (size_t i = 1; i < set->count && sorted; i++)
		sorted = set->ranges[i - 1].start <= set->ranges[i].start;
	if (!sorted)
		vec_sort(set->ranges, set->count, compare_starts);
	for (size_t i = 0; i < set->count; i++) {
		struct pfn_range *last = kept ? &set->ranges[kept - 1] : NULL;

		if (last && set->ranges[i].start <= last->end) {
			if (set->ranges[i].end > last->end)
				last->end = set->ranges[i].end;
		} else {
			set->ranges[kept++] = set->ranges[i];
		}
	}
	set->count = kept;
	set->merged = true;
}

void pfn_ranges_free(struct pfn_ranges *set)
{
	free(set->ranges);
	*set = (struct pfn_ranges){ 0 };
}

uint64_t pfn_ranges_pages(const struct pfn_ranges *set)
{
	uint64_t pages = 0;

	for (size_t i = 0; i < set->count; i++)
		pages += set->ranges[i].end - set->ranges[i].start;
	return pages;
}

void pfn_cursor_init(struct pfn_cursor *cursor, const struct pfn_ranges *set)
{
	cursor->set = set;
	cursor->index = 0;
	cursor->last = 0;
}

bool pfn_cursor_contains(struct pfn_cursor *cursor, uint64_t pfn)
{
	const struct pfn_ranges *set = cursor->set;

	if (!set || !set->count)
		return false;
	if (pfn < cursor->last) {
		/* A new pass: find the first range that ends past pfn. */
		size_t lo = 0, hi = set->count;

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (set->ranges[mid].end <= pfn)
				lo = mid + 1;
			else
				hi = mid;
		}
		cursor->index = lo;
	}
	cursor->last = pfn;
	while (cursor->index < set->count && set->ranges[cursor->index].end <= pfn)
		cursor->index++;
	return cursor->index < set->count && set->ranges[cursor->index].start <= pfn;
}
