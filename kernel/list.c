// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A kernel list_head is { next, prev }, the same in every kernel: the walk
 * follows next from the anchor until it comes back to it.  In a crash dump
 * the list may be mid-update or overwritten, so every node is remembered
 * (a cycle that never returns to the anchor would otherwise go on until
 * the bound) and the prev pointers are not trusted or checked: a list_add
 * interrupted by the crash leaves them inconsistent in a list that still
 * walks correctly.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernel/list.h"
#include "memory/reader.h"
#include "util/message.h"

void klist_init(struct klist *list, struct memory *mem, uint64_t head, uint32_t max_count)
{
	*list = (struct klist){ .mem = mem, .head = head, .node = head, .max_count = max_count };
}

void klist_release(struct klist *list)
{
	free(list->seen);
	list->seen = NULL;
}

static uint32_t hash_addr(uint64_t addr)
{
	return (uint32_t)((addr >> 3) * 0x9e3779b97f4a7c15ull >> 32);
}

static void seen_insert(uint64_t *slots, uint32_t mask, uint64_t addr)
{
	uint32_t slot = hash_addr(addr) & mask;

	while (slots[slot])
		slot = (slot + 1) & mask;
	slots[slot] = addr;
}

static bool seen_contains(const struct klist *list, uint64_t addr)
{
	uint32_t slot;

	if (!list->seen)
		return false;
	for (slot = hash_addr(addr) & list->seen_mask; list->seen[slot];
	     slot = (slot + 1) & list->seen_mask)
		if (list->seen[slot] == addr)
			return true;
	return false;
}

/* Records @addr, keeping the set at most half full. */
static int seen_add(struct klist *list, uint64_t addr)
{
	uint32_t size = list->seen ? list->seen_mask + 1 : 0;

	if (list->count + 1 > size / 2) {
		uint32_t new_size = size ? size * 2 : 64;
		uint64_t *grown = calloc(new_size, sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		for (uint32_t i = 0; i < size; i++)
			if (list->seen[i])
				seen_insert(grown, new_size - 1, list->seen[i]);
		free(list->seen);
		list->seen = grown;
		list->seen_mask = new_size - 1;
	}
	seen_insert(list->seen, list->seen_mask, addr);
	return 0;
}

int klist_next(struct klist *list, uint64_t *node)
{
	uint64_t next;
	int err;

	if (!list->started) {
		err = mem_read_u64(list->mem, list->head, &list->next);
		if (err) {
			snprintf(list->reason, sizeof(list->reason), "its next pointer is unreadable: %s",
				 mdf_strerror(err));
			return err;
		}
		list->started = true;
	}
	if (list->next == list->head)
		return 0;
	if (seen_contains(list, list->next)) {
		snprintf(list->reason, sizeof(list->reason),
			 "its next pointer 0x%" PRIx64 " leads back to an entry already walked", list->next);
		return -MDF_ECORRUPT;
	}
	if (list->count >= list->max_count) {
		snprintf(list->reason, sizeof(list->reason), "the list goes on past %" PRIu32 " entries",
			 list->max_count);
		return -MDF_ECORRUPT;
	}
	/* A misaligned pointer is no list_head; reading through it would only mislead. */
	if (list->next & 7) {
		snprintf(list->reason, sizeof(list->reason), "its next pointer 0x%" PRIx64 " is misaligned",
			 list->next);
		return -MDF_ECORRUPT;
	}
	err = mem_read_u64(list->mem, list->next, &next);
	if (err) {
		snprintf(list->reason, sizeof(list->reason), "its next pointer 0x%" PRIx64 " leads to memory "
			 "the dump cannot give: %s", list->next, mdf_strerror(err));
		return err;
	}
	err = seen_add(list, list->next);
	if (err)
		return err;
	list->node = list->next;
	list->next = next;
	list->count++;
	*node = list->node;
	return 1;
}
