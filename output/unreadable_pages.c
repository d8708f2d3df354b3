// SPDX-License-Identifier: GPL-2.0-or-later
/* Pages the input could not give, counted and named once: unreadable_pages.h. */
#include <inttypes.h>
#include <stdio.h>

#include "output/unreadable_pages.h"

void unreadable_pages_add(struct unreadable_pages *u, uint64_t pfn, struct mdf_error *err)
{
	/* A second pass over the pages reads the same ones again. */
	if (u->count && pfn <= u->last_pfn) {
		mdf_error_free(err);
		return;
	}
	if (u->count < UNREADABLE_PFNS_LISTED)
		u->listed[u->count] = pfn;
	if (!u->first_error)
		u->first_error = err;
	else
		mdf_error_free(err);
	u->count++;
	u->last_pfn = pfn;
}

struct mdf_error *unreadable_pages_error(const struct unreadable_pages *u, const char *output)
{
	char pfns[UNREADABLE_PFNS_LISTED * 24 + 8] = "";
	size_t len = 0;

	if (!u->count)
		return NULL;
	for (uint64_t i = 0; i < u->count && i < UNREADABLE_PFNS_LISTED; i++)
		len += (size_t)snprintf(pfns + len, sizeof(pfns) - len, "%s0x%" PRIx64,
					i ? ", " : "", u->listed[i]);
	if (u->count > UNREADABLE_PFNS_LISTED)
		snprintf(pfns + len, sizeof(pfns) - len, ", ...");
	return mdf_error(-MDF_EUNREADABLE,
			 "%" PRIu64 " page%s to dump could not be read (pfn %s); the first: %s.  "
			 "%s holds every other page, and its header says it is incomplete", u->count, u->count == 1 ? "" : "s", pfns,
			 u->first_error ? mdf_error_text(u->first_error) : "?", output);
}

void unreadable_pages_free(struct unreadable_pages *u)
{
	mdf_error_free(u->first_error);
	u->first_error = NULL;
}
