// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pfn ranges of the files of a split dump; split.h says how they are
 * chosen.  Two details follow upstream exactly, so that both programs cut
 * a dump at the same pfns: a trailing block shorter than a whole block
 * counts no pages, and a part's share is the integer quotient of the pages
 * to dump by the number of files.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "output/split.h"
#include "util/error.h"
#include "util/message.h"

struct split_count {
	uint64_t pfns_per_block;
	/* Pages to dump in each block; a partial last block keeps 0. */
	uint64_t *block_pages;
	uint64_t nr_blocks;
	/* One past the last pfn of the last whole block. */
	uint64_t whole_end;
	uint64_t total;
	uint8_t *present;
	uint8_t *dumpable;
};

static struct mdf_error *count_cycle(struct split_count *c, const struct page_source *src,
				     uint64_t start, uint64_t end)
{
	size_t len = (size_t)((end - start + 7) / 8);
	struct page_counts scratch = { 0 };
	struct mdf_error *err;

	memset(c->present, 0, len);
	memset(c->dumpable, 0, len);
	err = src->classify(src->ctx, start, end, c->present, c->dumpable, &scratch);
	if (err)
		return err;
	for (uint64_t pfn = start; pfn < end; pfn++) {
		if (!(c->dumpable[(pfn - start) / 8] >> ((pfn - start) % 8) & 1))
			continue;
		c->total++;
		if (pfn < c->whole_end)
			c->block_pages[pfn / c->pfns_per_block]++;
	}
	return NULL;
}

/* Upstream's division: each part but the last takes blocks until its share is met. */
static void divide(const struct split_count *c, uint64_t max_pfn, unsigned int nr_parts,
		   struct split_part *parts)
{
	int64_t share = (int64_t)(c->total / nr_parts);
	uint64_t block = 0, end = 0;

	for (unsigned int i = 0; i + 1 < nr_parts; i++) {
		int64_t needed = share;

		parts[i].start_pfn = end;
		if (end < max_pfn) {
			while (block < c->nr_blocks && needed > 0)
				needed -= (int64_t)c->block_pages[block++];
			end = block * c->pfns_per_block;
			if (end > max_pfn)
				end = max_pfn;
		}
		parts[i].end_pfn = end;
	}
	parts[nr_parts - 1].start_pfn = end;
	parts[nr_parts - 1].end_pfn = max_pfn;
}

struct mdf_error *split_plan(const struct page_source *src, uint64_t max_pfn,
			     uint64_t cycle_pfns, uint32_t page_size, uint64_t block_bytes,
			     unsigned int nr_parts, struct split_part *parts)
{
	struct split_count c = { 0 };
	uint64_t cycle = cycle_pfns < max_pfn ? cycle_pfns : max_pfn;
	struct mdf_error *err = NULL;

	c.pfns_per_block = block_bytes / page_size;
	c.nr_blocks = max_pfn / c.pfns_per_block + (max_pfn % c.pfns_per_block != 0);
	c.whole_end = max_pfn / c.pfns_per_block * c.pfns_per_block;
	c.block_pages = calloc(c.nr_blocks, sizeof(*c.block_pages));
	c.present = malloc((size_t)((cycle + 7) / 8));
	c.dumpable = malloc((size_t)((cycle + 7) / 8));
	if (!c.block_pages || !c.present || !c.dumpable) {
		err = mdf_error(-ENOMEM, "no memory to count the pages of %" PRIu64 " split blocks",
				c.nr_blocks);
		goto out;
	}
	for (uint64_t start = 0; start < max_pfn && !err; start += cycle)
		err = count_cycle(&c, src, start, max_pfn - start < cycle ? max_pfn : start + cycle);
	if (err)
		goto out;
	divide(&c, max_pfn, nr_parts, parts);
	for (unsigned int i = 0; i < nr_parts; i++)
		msg_debug("split part %u: pfns 0x%" PRIx64 "-0x%" PRIx64, i + 1, parts[i].start_pfn,
			  parts[i].end_pfn);
out:
	free(c.block_pages);
	free(c.present);
	free(c.dumpable);
	return err;
}
