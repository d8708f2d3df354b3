// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A benchmark extension: registers --extension-arg many_ranges:count=N
 * (default 100000) single-page ranges to discard, every stride=S pfns
 * (default 2) from pfn first=F (default 0x1000), in descending order so
 * that the engine must sort them.
 */
#include <stdlib.h>

#include "makedumpfile-extension.h"

static uint64_t arg(struct mdf_extension *ext, const char *key, uint64_t fallback)
{
	const char *value = mdf_extension_arg(ext, key);

	return value ? strtoull(value, NULL, 0) : fallback;
}

int mdf_extension_init(struct mdf_extension *ext)
{
	uint64_t count = arg(ext, "count", 100000), stride = arg(ext, "stride", 2);
	uint64_t first = arg(ext, "first", 0x1000);

	for (uint64_t i = count; i > 0; i--) {
		int err = mdf_discard_pfns(first + (i - 1) * stride, 1);

		if (err)
			return err;
	}
	return 0;
}
