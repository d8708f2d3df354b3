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
#include "util/addr_set.h"
#include "util/error.h"

void klist_init(struct klist *list, struct memory *mem, uint64_t head, uint32_t max_count)
{
	*list = (struct klist){ .mem = mem, .head = head, .node = head, .max_count = max_count };
}

void klist_release(struct klist *list)
{
	addr_set_free(&list->seen);
}

struct mdf_error *klist_next(struct klist *list, uint64_t *node)
{
	struct mdf_error *err;
	uint64_t next;
	bool added;

	*node = 0;
	if (!list->started) {
		err = mem_read_u64(list->mem, list->head, &list->next);
		if (err)
			return mdf_error_wrap(err, "its next pointer is unreadable");
		list->started = true;
	}
	if (list->next == list->head)
		return NULL;
	if (addr_set_contains(&list->seen, list->next))
		return mdf_error(-MDF_ECORRUPT, "its next pointer 0x%" PRIx64 " leads back to an entry already walked",
				 list->next);
	if (list->count >= list->max_count)
		return mdf_error(-MDF_ECORRUPT, "the list goes on past %" PRIu32 " entries", list->max_count);
	/* A misaligned pointer is no list_head; reading through it would only mislead. */
	if (list->next & 7)
		return mdf_error(-MDF_ECORRUPT, "its next pointer 0x%" PRIx64 " is misaligned", list->next);
	err = mem_read_u64(list->mem, list->next, &next);
	if (err)
		return mdf_error_wrap(err, "its next pointer 0x%" PRIx64 " leads to memory the dump cannot give",
				      list->next);
	err = addr_set_add(&list->seen, list->next, &added);
	if (err)
		return err;
	list->node = list->next;
	list->next = next;
	list->count++;
	*node = list->node;
	return NULL;
}
