/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Growing an array: vec_reserve(items, &cap, count, more) makes room for
 * @more items after the @count in use, doubling the capacity as needed.
 * Returns NULL, or &mdf_error_enomem (the array is then as it was).
 *
 *	if (vec_reserve(list, &cap, n, 1))
 *		return &mdf_error_enomem;
 *	list[n++] = item;
 */
#ifndef MDF_UTIL_VEC_H
#define MDF_UTIL_VEC_H

#include <stddef.h>

struct mdf_error;

struct mdf_error *vec_reserve_items(void *items_ptr, size_t *cap, size_t count, size_t more, size_t item_size);

#define vec_reserve(items, cap, count, more) \
	vec_reserve_items(&(items), (cap), (count), (more), sizeof(*(items)))

/*
 * qsort() of the @count items in use, which may be none of an array never
 * allocated: qsort() must not be given NULL, even for nothing.
 */
void vec_sort_items(void *items, size_t count, size_t item_size, int (*compare)(const void *, const void *));

#define vec_sort(items, count, compare) vec_sort_items((items), (count), sizeof(*(items)), (compare))

#endif
