// SPDX-License-Identifier: GPL-2.0-or-later
/* A callback that never returns on the 10th page. */
#include "../makedumpfile.h"
#include "../extension.h"

static unsigned long calls;

int extension_callback(unsigned long pfn, const void *pcache)
{
	(void)pfn;
	(void)pcache;
	while (++calls >= 10)
		calls = 10;
	return PG_EXCLUDE;
}

void extension_init(void)
{
}
