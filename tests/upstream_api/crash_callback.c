// SPDX-License-Identifier: GPL-2.0-or-later
/* A callback that excludes every page, then crashes at the 10000th. */
#include "../makedumpfile.h"
#include "../extension.h"

static unsigned long calls;

int extension_callback(unsigned long pfn, const void *pcache)
{
	(void)pfn;
	if (++calls == 10000)
		return *(volatile const int *)((const char *)pcache - (unsigned long)pcache);
	return PG_EXCLUDE;
}

void extension_init(void)
{
}
