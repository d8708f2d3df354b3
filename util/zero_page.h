/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether a page holds only zero bytes: the test behind dump level bit 1,
 * shared by the writers and --mem-usage.
 */
#ifndef MDF_UTIL_ZERO_PAGE_H
#define MDF_UTIL_ZERO_PAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline bool page_is_zero(const void *page, size_t size)
{
	const unsigned char *bytes = page;
	uint64_t acc = 0;

	/* Page sizes are multiples of 8: or whole words together. */
	for (size_t i = 0; i < size; i += sizeof(uint64_t)) {
		uint64_t word;

		memcpy(&word, bytes + i, sizeof(word));
		acc |= word;
	}
	return acc == 0;
}

#endif
