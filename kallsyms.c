// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kallsyms.h's functions for extensions written for upstream makedumpfile
 * or for the series posted to the kexec list, on top of
 * makedumpfile-extension.h.
 */
#include "kallsyms.h"
#include "makedumpfile-extension.h"

uint64_t get_kallsyms_value_by_name(char *name)
{
	uint64_t addr;

	return mdf_symbol_addr(NULL, name, &addr) ? 0 : addr;
}

uint64_t next_list(uint64_t list_head_addr)
{
	uint64_t next;

	return mdf_read_u64(list_head_addr, &next) ? 0 : next;
}
