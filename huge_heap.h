/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The heap on transparent huge pages, for a process about to load
 * megabytes at once: an extension's child, or makedumpfile before the
 * children of several extensions (see huge_heap.c).
 */
#ifndef MDF_HUGE_HEAP_H
#define MDF_HUGE_HEAP_H

#include <stdbool.h>

/* Grows the heap, asks huge pages for it and has malloc() serve even megabytes from it. */
void huge_heap_begin(void);
/* glibc's own settings again, the heap's free top given back. */
void huge_heap_end(void);
/*
 * Whether malloc() now serves a buffer of megabytes from the heap on huge
 * pages, where its space is used again once freed.
 */
bool huge_heap_active(void);

#endif
