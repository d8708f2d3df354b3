// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A callback that keeps labprobe's anonymous pages (the "anon" lines of
 * the dump's marker-pfns.txt) whatever the dump level says.
 */
#include "../makedumpfile.h"
#include "../extension.h"
#include "pfn_list.h"

int extension_callback(unsigned long pfn, const void *pcache)
{
	(void)pcache;
	return is_listed(pfn) ? PG_INCLUDE : PG_UNDECID;
}

void extension_init(void)
{
	MSG("labprobe_include: %zu pfns listed\n", read_pfn_list() ? nr_listed : 0);
}
