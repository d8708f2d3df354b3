// SPDX-License-Identifier: GPL-2.0-or-later
/* A callback that answers 7 at the 1000th page: it loses its decisions, the dump goes on. */
#include "../makedumpfile.h"
#include "../extension.h"

static unsigned long calls;

int extension_callback(unsigned long pfn, const void *pcache)
{
	(void)pfn;
	(void)pcache;
	return ++calls == 1000 ? 7 : PG_EXCLUDE;
}

void extension_init(void)
{
}
