// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kallsyms.h's functions for extensions written for upstream makedumpfile
 * or for the series posted to the kexec list, on top of
 * makedumpfile-extension.h.  The declarations an extension makes with
 * INIT_MOD_SYM() are filled by extension/declarations.c, whose twin of
 * struct ksym_info must keep upstream's layout.
 */
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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

/* Room for 4 pointers, then half as much again each time it is full. */
bool add_to_arr(void ***arr, int *arr_len, int *arr_cap, void *elem)
{
	int cap = *arr ? *arr_cap : 0;

	if (!*arr)
		*arr_len = 0;
	if (*arr_len >= cap) {
		int grown = cap < 4 ? 4 : cap + cap / 2;
		void **more;

		if (cap > INT_MAX / 3 * 2)
			return false;
		more = reallocarray(*arr, (size_t)grown, sizeof(**arr));
		if (!more)
			return false;
		*arr = more;
		*arr_cap = grown;
	}
	(*arr)[(*arr_len)++] = elem;
	return true;
}

bool push_uniq_str(void ***arr, int *arr_len, int *arr_cap, char *str)
{
	for (int i = 0; *arr && i < *arr_len; i++)
		if (!strcmp((*arr)[i], str))
			return true;
	return add_to_arr(arr, arr_len, arr_cap, str);
}
