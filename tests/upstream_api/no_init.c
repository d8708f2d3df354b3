// SPDX-License-Identifier: GPL-2.0-or-later
/* Declarations and a callback, but no extension_init(): skipped, as upstream skips it. */
#include "../makedumpfile.h"
#include "../kallsyms.h"
#include "../extension.h"

INIT_MOD_SYM(vmlinux, init_task);

int extension_callback(unsigned long pfn, const void *pcache)
{
	(void)pfn;
	(void)pcache;
	return PG_EXCLUDE;
}
