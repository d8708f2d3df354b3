/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Walking a list of the crashed kernel (struct list_head, as the modules
 * and btf_modules lists are) without trusting it: the walk stops at a bad
 * pointer, at a node seen before and after a bound on the count.
 */
#ifndef MDF_KERNEL_LIST_H
#define MDF_KERNEL_LIST_H

#include <stdbool.h>
#include <stdint.h>

#include "util/addr_set.h"

struct mdf_error;
struct memory;

struct klist {
	struct memory *mem;
	uint64_t head;        /* the list_head that anchors the list */
	uint64_t node;        /* the current node's list_head; head before the first */
	uint64_t next;        /* the current node's next pointer, read when it was reached */
	bool started;
	uint32_t count;       /* nodes returned so far */
	uint32_t max_count;
	struct addr_set seen; /* the nodes walked */
};

void klist_init(struct klist *list, struct memory *mem, uint64_t head, uint32_t max_count);
void klist_release(struct klist *list);
/*
 * Advances to the next node: @node is the address of its list_head, 0 at
 * the end of the list.  An error says what is wrong with list->node's
 * next pointer (the head's, before the first node); the caller knows which
 * entry list->node belongs to, and says so.  A node is returned only once
 * its own next pointer has been read, so a bad pointer is blamed on the
 * node that holds it.
 */
struct mdf_error *klist_next(struct klist *list, uint64_t *node);

#endif
