/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --split: which pfns each of N dump files holds.
 *
 * As upstream makedumpfile divides them: memory is cut into split blocks
 * (--splitblock-size, 1 GiB by default), the pages to dump are counted in
 * each, and every file but the last takes whole blocks until it holds at
 * least 1/N of those pages; the last takes the rest.  Each file is then a
 * kdump-compressed dump of its own (kdump_writer.h: split), and
 * --reassemble (split_reassemble.h) puts them back into one.
 */
#ifndef MDF_OUTPUT_SPLIT_H
#define MDF_OUTPUT_SPLIT_H

#include <stdint.h>

#include "output/page_source.h"

/* Upstream's default split block: 1 GiB of memory. */
#define SPLITBLOCK_DEFAULT_BYTES (UINT64_C(1) << 30)

struct split_part {
	uint64_t start_pfn;
	uint64_t end_pfn;       /* exclusive */
};

/*
 * Classifies every pfn of [0, max_pfn) through @src, @cycle_pfns at a
 * time, and divides them into @nr_parts ranges (@nr_parts >= 2), in pfn
 * order, that cover them all; a part may be empty when one block holds
 * more than a part's share.  @block_bytes is a non-zero multiple of
 * @page_size.  Returns NULL or an error (the source's, when classifying
 * fails).
 */
struct mdf_error *split_plan(const struct page_source *src, uint64_t max_pfn,
			     uint64_t cycle_pfns, uint32_t page_size, uint64_t block_bytes,
			     unsigned int nr_parts, struct split_part *parts);

#endif
