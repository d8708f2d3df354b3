/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * FNV-1a, 64 bits: a fast hash for tables keyed by names and for telling
 * whether a buffer changed between two passes.  Not for anything an
 * attacker may choose to collide: a collision costs a comparison, never
 * a wrong answer, wherever it is used.
 */
#ifndef MDF_UTIL_HASH_H
#define MDF_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>

#define FNV1A64_OFFSET 0xcbf29ce484222325ull
#define FNV1A64_PRIME 0x100000001b3ull

static inline uint64_t fnv1a64(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = FNV1A64_OFFSET;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * FNV1A64_PRIME;
	return h;
}

static inline uint64_t fnv1a64_str(const char *s)
{
	uint64_t h = FNV1A64_OFFSET;

	while (*s)
		h = (h ^ (unsigned char)*s++) * FNV1A64_PRIME;
	return h;
}

#endif
