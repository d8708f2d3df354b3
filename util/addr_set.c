// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>

#include "util/addr_set.h"
#include "util/error.h"

/* The first table: lists of a few hundred nodes are the common case. */
#define ADDR_SET_MIN_SLOTS 64

/* Fibonacci hashing of the address without its always-zero alignment bits. */
static size_t first_slot(uint64_t addr, size_t mask)
{
	return (size_t)((addr >> 3) * 0x9e3779b97f4a7c15ull >> 32) & mask;
}

static void insert(uint64_t *slots, size_t mask, uint64_t addr)
{
	size_t slot = first_slot(addr, mask);

	while (slots[slot])
		slot = (slot + 1) & mask;
	slots[slot] = addr;
}

bool addr_set_contains(const struct addr_set *set, uint64_t addr)
{
	if (!addr)
		return set->has_zero;
	if (!set->slots)
		return false;
	for (size_t slot = first_slot(addr, set->mask); set->slots[slot]; slot = (slot + 1) & set->mask)
		if (set->slots[slot] == addr)
			return true;
	return false;
}

/* Doubles the table once it would be more than half full. */
static int make_room(struct addr_set *set)
{
	size_t size = set->slots ? set->mask + 1 : 0, new_size;
	uint64_t *slots;

	if (set->count + 1 <= size / 2)
		return 0;
	new_size = size ? size * 2 : ADDR_SET_MIN_SLOTS;
	if (new_size > 0x7fffffff)
		return -ENOMEM;
	slots = calloc(new_size, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < size; i++)
		if (set->slots[i])
			insert(slots, new_size - 1, set->slots[i]);
	free(set->slots);
	set->slots = slots;
	set->mask = new_size - 1;
	return 0;
}

struct mdf_error *addr_set_add(struct addr_set *set, uint64_t addr, bool *added)
{
	*added = false;
	if (addr_set_contains(set, addr))
		return NULL;
	if (!addr) {
		set->has_zero = *added = true;
		return NULL;
	}
	if (make_room(set))
		return &mdf_error_enomem;
	insert(set->slots, set->mask, addr);
	set->count++;
	*added = true;
	return NULL;
}

void addr_set_free(struct addr_set *set)
{
	free(set->slots);
	*set = (struct addr_set){ 0 };
}
