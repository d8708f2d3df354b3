// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kallsyms.h's functions for extensions written for upstream makedumpfile
 * or for the series posted to the kexec list, on top of
 * makedumpfile-extension.h.  The declarations an extension makes with
 * INIT_MOD_SYM() are filled by extension/declarations.c, whose twin of
 * struct ksym_info must keep upstream's layout.
 */
#include <stddef.h>

#include "extension/declarations.h"
#include "kallsyms.h"
#include "makedumpfile-extension.h"

#define SAME_FIELD(a, b) (offsetof(struct ksym_info, a) == offsetof(struct declared_symbol, b))
_Static_assert(sizeof(struct ksym_info) == sizeof(struct declared_symbol) && SAME_FIELD(modname, modname) &&
		       SAME_FIELD(symname, symname) && SAME_FIELD(sym_required, required) &&
		       SAME_FIELD(value, value) && SAME_FIELD(index, index),
	       "struct ksym_info is upstream's ABI, as extension/declarations.h reads it");

uint64_t get_kallsyms_value_by_name(char *name)
{
	uint64_t addr;

	return mdf_symbol_addr(NULL, name, &addr) ? 0 : addr;
}

uint64_t next_list(uint64_t list)
{
	uint64_t next;

	return mdf_read_u64(list, &next) ? 0 : next;
}
