// SPDX-License-Identifier: GPL-2.0-or-later
/* A required symbol no kernel has: the extension is skipped, its init never runs. */
#include "../makedumpfile.h"
#include "../kallsyms.h"
#include "../extension.h"

INIT_MOD_SYM(vmlinux, init_task);
INIT_MOD_SYM(vmlinux, no_such_symbol_in_any_kernel);

int extension_callback(unsigned long pfn, const void *pcache)
{
	(void)pfn;
	(void)pcache;
	return PG_EXCLUDE;
}

void extension_init(void)
{
	MSG("missing_symbol: init ran\n");
}
