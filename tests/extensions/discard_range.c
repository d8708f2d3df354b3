// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A test extension: discards --extension-arg discard_range:first=F and
 * count=N pfns [F, F + N) (default none), so that tests can see which
 * pages the host warns an extension about.
 */
#include <stdlib.h>

#include "makedumpfile-extension.h"

static uint64_t arg(struct mdf_extension *ext, const char *key)
{
	const char *value = mdf_extension_arg(ext, key);

	return value ? strtoull(value, NULL, 0) : 0;
}

int mdf_extension_init(struct mdf_extension *ext)
{
	uint64_t count = arg(ext, "count");

	return count ? mdf_discard_pfns(arg(ext, "first"), count) : 0;
}
