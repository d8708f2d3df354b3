/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The byte order of the dumped machine, which is never the host's by
 * assumption: a value read from a dump goes through these, the one place
 * that turns the dump's order into the host's.
 */
#ifndef MDF_UTIL_BYTE_ORDER_H
#define MDF_UTIL_BYTE_ORDER_H

#include <endian.h>
#include <stddef.h>
#include <stdint.h>

enum byte_order {
	BYTE_ORDER_LITTLE,
	BYTE_ORDER_BIG,
};

static inline uint32_t dump_to_host32(enum byte_order order, uint32_t raw)
{
	return order == BYTE_ORDER_BIG ? be32toh(raw) : le32toh(raw);
}

static inline uint64_t dump_to_host64(enum byte_order order, uint64_t raw)
{
	return order == BYTE_ORDER_BIG ? be64toh(raw) : le64toh(raw);
}

/* The unsigned integer of @size bytes (at most 8) at @bytes, stored in @order. */
static inline uint64_t dump_to_host_bytes(enum byte_order order, const unsigned char *bytes, size_t size)
{
	uint64_t value = 0;

	for (size_t i = 0; i < size; i++)
		value = value << 8 | bytes[order == BYTE_ORDER_BIG ? i : size - 1 - i];
	return value;
}

#endif
