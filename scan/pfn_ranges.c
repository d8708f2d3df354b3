// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>

#include "scan/pfn_ranges.h"
#include "util/error.h"
#include "util/search.h"
#include "util/vec.h"

struct mdf_error *pfn_ranges_reserve(struct pfn_ranges *set, size_t count)
{
	return vec_reserve(set->ranges, &set->capacity, set->count, count);
}

struct mdf_error *pfn_ranges_add(struct pfn_ranges *set, uint64_t start, uint64_t count)
{
	struct mdf_error *err;

	if (count == 0 || start + count < start)
		return mdf_error(-EINVAL, "pfn range 0x%" PRIx64 " + 0x%" PRIx64 " is empty or wraps", start,
				 count);
	err = pfn_ranges_reserve(set, 1);
	if (err)
		return err;
	set->ranges[set->count++] = (struct pfn_range){ start, start + count };
	set->merged = false;
	return NULL;
}

/*
 * Ranges are sorted by start in place.  qsort() sorts a copy it
 * allocates, and for an extension's hundred thousand ranges that fresh
 * memory costs more than the comparisons: quicksort on a median of three,
 * insertion sort for short runs, and heapsort past a depth that only an
 * order chosen to defeat quicksort (an extension chooses it) reaches.
 */
#define SHORT_RUN 16

static void swap_ranges(struct pfn_range *a, struct pfn_range *b)
{
	struct pfn_range t = *a;

	*a = *b;
	*b = t;
}

static void insertion_sort(struct pfn_range *r, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct pfn_range x = r[i];
		size_t j = i;

		for (; j && r[j - 1].start > x.start; j--)
			r[j] = r[j - 1];
		r[j] = x;
	}
}

static void sift_down(struct pfn_range *r, size_t root, size_t n)
{
	for (size_t child; (child = 2 * root + 1) < n; root = child) {
		if (child + 1 < n && r[child + 1].start > r[child].start)
			child++;
		if (r[root].start >= r[child].start)
			return;
		swap_ranges(&r[root], &r[child]);
	}
}

static void heap_sort(struct pfn_range *r, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift_down(r, i, n);
	for (size_t end = n; end-- > 1;) {
		swap_ranges(&r[0], &r[end]);
		sift_down(r, 0, end);
	}
}

static void sort_by_start(struct pfn_range *r, size_t n, unsigned int depth)
{
	while (n > SHORT_RUN) {
		size_t mid = n / 2, i = (size_t)-1, j = n;
		uint64_t pivot;

		if (!depth--) {
			heap_sort(r, n);
			return;
		}
		if (r[mid].start < r[0].start)
			swap_ranges(&r[mid], &r[0]);
		if (r[n - 1].start < r[0].start)
			swap_ranges(&r[n - 1], &r[0]);
		if (r[n - 1].start < r[mid].start)
			swap_ranges(&r[n - 1], &r[mid]);
		pivot = r[mid].start;
		/* Hoare's partition: [0, j] holds starts <= pivot, [j + 1, n) starts >= pivot. */
		for (;;) {
			do
				i++;
			while (r[i].start < pivot);
			do
				j--;
			while (r[j].start > pivot);
			if (i >= j)
				break;
			swap_ranges(&r[i], &r[j]);
		}
		/* The shorter side by recursion, so that the stack stays logarithmic. */
		if (j + 1 < n - (j + 1)) {
			sort_by_start(r, j + 1, depth);
			r += j + 1;
			n -= j + 1;
		} else {
			sort_by_start(r + j + 1, n - (j + 1), depth);
			n = j + 1;
		}
	}
	insertion_sort(r, n);
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
	if (!sorted) {
		unsigned int depth = 0;

		for (size_t n = set->count; n; n /= 2)
			depth += 2;
		sort_by_start(set->ranges, set->count, depth);
	}
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

struct range_search {
	const struct pfn_range *ranges;
	uint64_t pfn;
};

static bool range_ends_before(void *ctx, size_t i)
{
	const struct range_search *s = ctx;

	return s->ranges[i].end <= s->pfn;
}

size_t pfn_ranges_first_ending_after(const struct pfn_ranges *set, uint64_t pfn)
{
	struct range_search s = { set->ranges, pfn };

	return search_partition_point(set->count, range_ends_before, &s);
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
		cursor->index = pfn_ranges_first_ending_after(set, pfn);
	}
	cursor->last = pfn;
	while (cursor->index < set->count && set->ranges[cursor->index].end <= pfn)
		cursor->index++;
	return cursor->index < set->count && set->ranges[cursor->index].start <= pfn;
}
