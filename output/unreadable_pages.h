/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pages the input holds but cannot give: a bad sector under /proc/vmcore,
 * a page of a saved dump whose data does not decompress.  Upstream gives
 * up on the whole dump at the first; we write every other page, zero
 * that one (a zero descriptor, zeros in an ELF segment), mark the file
 * incomplete, and warn once, after writing, how many and which: the run
 * succeeds, for the dump is worth keeping and its header tells readers.
 */
#ifndef MDF_OUTPUT_UNREADABLE_PAGES_H
#define MDF_OUTPUT_UNREADABLE_PAGES_H

#include <stdint.h>

#include "util/error.h"

/* How many pfns the warning names. */
#define UNREADABLE_PFNS_LISTED 8

struct unreadable_pages {
	/* Distinct pfns: writers read in rising pfn order, some twice over. */
	uint64_t count;
	uint64_t last_pfn;
	uint64_t listed[UNREADABLE_PFNS_LISTED];
	/* Why the first could not be read. */
	struct mdf_error *first_error;
};

/* Takes @err, why @pfn could not be read. */
void unreadable_pages_add(struct unreadable_pages *u, uint64_t pfn, struct mdf_error *err);
/*
 * A warning for the writer's caller to print, when there were any: how
 * many pages @output lacks, which, and why the first; NULL when none.
 */
struct mdf_error *unreadable_pages_error(const struct unreadable_pages *u, const char *output);
void unreadable_pages_free(struct unreadable_pages *u);

#endif
