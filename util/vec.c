// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/vec.h"

/* The first allocation: small arrays are the common case. */
#define VEC_MIN_CAP 8

struct mdf_error *vec_reserve_items(void *items_ptr, size_t *cap, size_t count, size_t more, size_t item_size)
{
	size_t need, grown = *cap ? *cap : VEC_MIN_CAP;
	void *items;

	if (more > SIZE_MAX / item_size - count)
		return &mdf_error_enomem;
	need = count + more;
	if (need <= *cap)
		return NULL;
	while (grown < need)
		grown = grown > SIZE_MAX / 2 / item_size ? need : grown * 2;
	/* items_ptr points to the caller's pointer, whatever its type. */
	memcpy(&items, items_ptr, sizeof(items));
	items = realloc(items, grown * item_size);
	if (!items)
		return &mdf_error_enomem;
	memcpy(items_ptr, &items, sizeof(items));
	*cap = grown;
	return NULL;
}

void vec_sort_items(void *items, size_t count, size_t item_size, int (*compare)(const void *, const void *))
{
	if (count > 1)
		qsort(items, count, item_size, compare);
}
