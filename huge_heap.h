/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The heap on transparent huge pages, for a process about to load
 * megabytes at once: an extension's child, or makedumpfile before the
 * children of several extensions (see huge_heap.c).
 */
#ifndef MDF_HUGE_HEAP_H
#define MDF_HUGE_HEAP_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Grows the heap, asks huge pages for it and has malloc() serve even
 * megabytes from it.  @forks: children will inherit the heap (and write
 * into its free space, at a copy per page).
 */
void huge_heap_begin(bool forks);
/* glibc's own settings again, the heap's free top given back. */
void huge_heap_end(void);
/* A buffer of megabytes on huge pages, let go soon after it is filled. */
struct huge_buffer {
	char *data;
	void *region;             /* its own mapping, NULL when on the heap */
	size_t region_len;
};

/*
 * On the heap where it is on huge pages and no child will inherit it (its
 * space then serves the allocations that follow); else on a mapping of
 * its own on huge page boundaries.  -ENOMEM.
 */
int huge_buffer_get(struct huge_buffer *buf, size_t len);
/* Harmless on a buffer huge_buffer_get() failed to give. */
void huge_buffer_free(struct huge_buffer *buf);

#endif
