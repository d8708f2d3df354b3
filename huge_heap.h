/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The heap on transparent huge pages, for a process about to load
 * megabytes at once: an extension's child, or makedumpfile before the
 * children of several extensions (see huge_heap.c).
 */
#ifndef MDF_HUGE_HEAP_H
#define MDF_HUGE_HEAP_H

#include <stdbool.h>

/*
 * Grows the heap, asks huge pages for it and has malloc() serve even
 * megabytes from it.  @forks: children will inherit the heap (and write
 * into its free space, at a copy per page).
 */
void huge_heap_begin(bool forks);
/* glibc's own settings again, the heap's free top given back. */
void huge_heap_end(void);
/*
 * Whether a buffer of megabytes, freed at once, is best taken from the
 * heap now: it is on huge pages, and its space serves this process's
 * next allocations rather than children's.
 */
bool huge_heap_for_passing_buffers(void);

#endif
