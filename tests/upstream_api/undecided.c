// SPDX-License-Identifier: GPL-2.0-or-later
/* A callback that decides nothing: what the per-page callback itself costs (make bench). */
#include "../makedumpfile.h"
#include "../extension.h"

int extension_callback(unsigned long pfn, const void *pcache)
{
	(void)pfn;
	(void)pcache;
	return PG_UNDECID;
}

void extension_init(void)
{
}
