/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --mem-usage: how many pages of each kind the memory holds, in upstream
 * makedumpfile's table, so that a kdump setup can estimate the size of a
 * dump at each dump level.  Pages are counted as a dump at level 31
 * classifies them, zero pages included (among the pages no other rule
 * excludes).
 */
#ifndef MDF_OUTPUT_MEM_USAGE_H
#define MDF_OUTPUT_MEM_USAGE_H

#include <stdint.h>

#include "output/page_source.h"

struct mem_usage {
	uint32_t page_size;
	/* Pages the memory holds (the 1st bitmap's count). */
	uint64_t pages;
	/* Pages of each excludable kind. */
	struct page_counts counts;
};

/*
 * Classifies [0, @max_pfn) through @src, @cycle_pfns at a time, at the
 * dump level @src classifies for, and reads each page left to find the
 * zero ones; an unreadable one (page_source.h) counts as not zero.
 * Returns NULL or an error: the source's, with the pfn when reading it
 * failed.
 */
struct mdf_error *mem_usage_count(const struct page_source *src, uint64_t max_pfn,
				  uint64_t cycle_pfns, uint32_t page_size, struct mem_usage *out);

/* Prints upstream's table at the common message level. */
void mem_usage_print(const struct mem_usage *u);

#endif
