// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>

#include "extension/page_callback.h"
#include "scan/page_scan.h"
#include "scan/pfn_ranges.h"
#include "util/error.h"

struct walk {
	page_callback_fn callback;
	struct page_decisions *decisions;
};

/* Pfns come in ascending order: most extend the last range. */
static struct mdf_error *add_pfn(struct pfn_ranges *set, uint64_t pfn)
{
	if (set->count && set->ranges[set->count - 1].end == pfn) {
		set->ranges[set->count - 1].end++;
		return NULL;
	}
	return pfn_ranges_add(set, pfn, 1);
}

static struct mdf_error *decide(uint64_t pfn, const void *page, void *arg, bool *pass_over_rules)
{
	const struct walk *w = arg;
	int answer = w->callback((unsigned long)pfn, page);

	switch (answer) {
	case CALLBACK_INCLUDE:
		*pass_over_rules = true;
		return add_pfn(&w->decisions->include, pfn);
	case CALLBACK_EXCLUDE:
		return add_pfn(&w->decisions->exclude, pfn);
	case CALLBACK_UNDECIDED:
		return NULL;
	}
	return mdf_error(-EBADMSG, "extension_callback() returned %d for pfn 0x%" PRIx64
			 ", not PG_INCLUDE (0), PG_EXCLUDE (1) or PG_UNDECID (2)", answer, pfn);
}

struct mdf_error *page_callback_run(struct page_scan *scan, page_callback_fn callback,
				    struct page_decisions *d)
{
	struct walk w = { callback, d };

	return page_scan_each_struct_page(scan, decide, &w);
}
