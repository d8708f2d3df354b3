/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The byte order of the dumped machine, which is never the host's by
 * assumption: a value read from a dump goes through these, the one place
 * that turns the dump's order into the host's, and a value written into a
 * dump file goes through their host_to_dump twins.
 *
 * A dump may hold values of more than one order: QEMU 7.2 writes a
 * little-endian ppc64 guest's ELF headers and notes big-endian
 * (arch/arch.c), so each reader is told the order of what it
 * reads, never the dump's in general.
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

/* "little-endian" or "big-endian", for messages. */
static inline const char *byte_order_name(enum byte_order order)
{
	return order == BYTE_ORDER_BIG ? "big-endian" : "little-endian";
}

static inline enum byte_order byte_order_other(enum byte_order order)
{
	return order == BYTE_ORDER_BIG ? BYTE_ORDER_LITTLE : BYTE_ORDER_BIG;
}

static inline uint16_t dump_to_host16(enum byte_order order, uint16_t raw)
{
	return order == BYTE_ORDER_BIG ? be16toh(raw) : le16toh(raw);
}

static inline uint32_t dump_to_host32(enum byte_order order, uint32_t raw)
{
	return order == BYTE_ORDER_BIG ? be32toh(raw) : le32toh(raw);
}

static inline uint64_t dump_to_host64(enum byte_order order, uint64_t raw)
{
	return order == BYTE_ORDER_BIG ? be64toh(raw) : le64toh(raw);
}

static inline uint16_t host_to_dump16(enum byte_order order, uint16_t value)
{
	return order == BYTE_ORDER_BIG ? htobe16(value) : htole16(value);
}

static inline uint32_t host_to_dump32(enum byte_order order, uint32_t value)
{
	return order == BYTE_ORDER_BIG ? htobe32(value) : htole32(value);
}

static inline uint64_t host_to_dump64(enum byte_order order, uint64_t value)
{
	return order == BYTE_ORDER_BIG ? htobe64(value) : htole64(value);
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
