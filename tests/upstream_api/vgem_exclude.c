// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A callback that excludes the vgem buffer's pages (the "vgem" lines of
 * the dump's marker-pfns.txt) and decides nothing else.  It checks that
 * each one's struct page is a page cache page (mapping without the
 * anonymous bit): pcache is that pfn's struct page, or they stay.
 */
#include "../makedumpfile.h"
#include "../btf_info.h"
#include "../extension.h"
#include "pfn_list.h"

INIT_MOD_STRUCT_MEMBER(vmlinux, page, mapping);

int extension_callback(unsigned long pfn, const void *pcache)
{
	unsigned long mapping;

	if (!is_listed(pfn))
		return PG_UNDECID;
	mapping = ULONG((const char *)pcache + GET_MOD_STRUCT_MEMBER_MOFF(vmlinux, page, mapping) / 8);
	return mapping && !(mapping & 1) ? PG_EXCLUDE : PG_UNDECID;
}

void extension_init(void)
{
	MSG("vgem_exclude: %zu pfns listed\n", read_pfn_list() ? nr_listed : 0);
}
