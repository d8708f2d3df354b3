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

/*
 * Page sizes are multiples of ZERO_TEST_CHUNK: or whole words together a
 * chunk at a time, so that the loop stays one the compiler vectorises and
 * a page of data, most often not zero in its first bytes, is left after
 * one chunk instead of read whole.
 */
#define ZERO_TEST_CHUNK 256

static inline bool page_is_zero(const void *page, size_t size)
{
	const unsigned char *bytes = page;

	for (size_t chunk = 0; chunk < size; chunk += ZERO_TEST_CHUNK) {
		uint64_t acc = 0;

		for (size_t i = 0; i < ZERO_TEST_CHUNK; i += sizeof(uint64_t)) {
			uint64_t word;

			memcpy(&word, bytes + chunk + i, sizeof(word));
			acc |= word;
		}
		if (acc)
			return false;
	}
	return true;
}

#endif
