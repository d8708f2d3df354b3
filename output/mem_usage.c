// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The --mem-usage count and table; mem_usage.h says what is counted.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "output/mem_usage.h"
#include "util/error.h"
#include "util/message.h"
#include "util/zero_page.h"

static struct mdf_error *count_cycle(const struct page_source *src, uint64_t start,
				     uint64_t end, uint8_t *present, uint8_t *dumpable,
				     unsigned char *page, struct mem_usage *u)
{
	size_t len = (size_t)((end - start + 7) / 8);
	struct mdf_error *err;

	memset(present, 0, len);
	memset(dumpable, 0, len);
	err = src->classify(src->ctx, start, end, present, dumpable, &u->counts);
	if (err)
		return err;
	for (uint64_t pfn = start; pfn < end; pfn++) {
		uint64_t bit = pfn - start;

		u->pages += present[bit / 8] >> (bit % 8) & 1;
		if (!(dumpable[bit / 8] >> (bit % 8) & 1))
			continue;
		err = src->read_page(src->ctx, pfn, page);
		/* Not known to be zero: the caller tells the unreadable ones. */
		if (err && err->code == -MDF_EUNREADABLE) {
			mdf_error_free(err);
			continue;
		}
		if (err)
			return mdf_error_wrap(err, "cannot read pfn 0x%" PRIx64 " to see whether "
					      "it is zero", pfn);
		u->counts.zero += page_is_zero(page, u->page_size);
	}
	return NULL;
}

struct mdf_error *mem_usage_count(const struct page_source *src, uint64_t max_pfn,
				  uint64_t cycle_pfns, uint32_t page_size, struct mem_usage *out)
{
	uint64_t cycle = cycle_pfns < max_pfn ? cycle_pfns : max_pfn;
	uint8_t *present = malloc((size_t)((cycle + 7) / 8));
	uint8_t *dumpable = malloc((size_t)((cycle + 7) / 8));
	unsigned char *page = malloc(page_size);
	struct mdf_error *err = NULL;

	memset(out, 0, sizeof(*out));
	out->page_size = page_size;
	if (!present || !dumpable || !page)
		err = mdf_error(-ENOMEM, "no memory for bitmaps of %" PRIu64 " pfns", cycle);
	for (uint64_t start = 0; start < max_pfn && !err; start += cycle)
		err = count_cycle(src, start, max_pfn - start < cycle ? max_pfn : start + cycle,
				  present, dumpable, page, out);
	free(present);
	free(dumpable);
	free(page);
	return err;
}

void mem_usage_print(const struct mem_usage *u)
{
	const struct page_counts *c = &u->counts;
	uint64_t excluded = c->zero + c->cache + c->cache_private + c->user + c->free +
			    c->hwpoison + c->offline;

	msg_info("%s", "");
	msg_info("TYPE\t\tPAGES\t\t\tEXCLUDABLE\tDESCRIPTION");
	msg_info("----------------------------------------------------------------------");
	msg_info("ZERO\t\t%-16" PRIu64 "\tyes\t\tPages filled with zero", c->zero);
	msg_info("NON_PRI_CACHE\t%-16" PRIu64 "\tyes\t\tCache pages without private flag",
		 c->cache);
	msg_info("PRI_CACHE\t%-16" PRIu64 "\tyes\t\tCache pages with private flag",
		 c->cache_private);
	msg_info("USER\t\t%-16" PRIu64 "\tyes\t\tUser process pages", c->user);
	msg_info("FREE\t\t%-16" PRIu64 "\tyes\t\tFree pages", c->free);
	msg_info("KERN_DATA\t%-16" PRIu64 "\tno\t\tDumpable kernel data ", u->pages - excluded);
	msg_info("%s", "");
	msg_info("page size:\t\t%-16" PRIu32, u->page_size);
	msg_info("Total pages on system:\t%-16" PRIu64, u->pages);
	msg_info("Total size on system:\t%-16" PRIu64 " Byte", u->pages * u->page_size);
}
