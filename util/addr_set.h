/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A set of addresses, for walks over the crashed kernel's linked
 * structures to notice that they came back to a node: a corrupt or
 * half-updated list can loop without ever returning to its anchor.
 */
#ifndef MDF_UTIL_ADDR_SET_H
#define MDF_UTIL_ADDR_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Zero-initialised: empty. */
struct addr_set {
	uint64_t *slots;      /* open addressing, at most half full; 0 marks a free slot */
	size_t mask;
	size_t count;
	bool has_zero;        /* 0 cannot sit in a slot */
};

bool addr_set_contains(const struct addr_set *set, uint64_t addr);
struct mdf_error;

/* Adds @addr; *@added says whether it was new. */
struct mdf_error *addr_set_add(struct addr_set *set, uint64_t addr, bool *added);
void addr_set_free(struct addr_set *set);

#endif
