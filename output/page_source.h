/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the writers get their pages (kdump_writer.h, elf_writer.h), and
 * split.h and mem_usage.h their counts: a page source.  The writers do not
 * know what a page is for; the source, made by the layers that do (the
 * scan, the input, the erasures), classifies the pages a cycle (a range
 * of pfns) at a time into two bitmaps and reads a page's bytes.
 *
 * Its callbacks return errors as everything else does: NULL, or an error
 * that says what failed, which the writer hands up whole, to be printed
 * once by the top.  Two kinds of error say something the writer acts on:
 *
 *   - -MDF_EEXCLUDED and -MDF_ENOTDUMPED (the input's shared errors): the
 *     input excluded the page, or does not hold it.  Only the writer
 *     knows the page was to be dumped, so it words these itself;
 *   - page_source_unreadable: the page is in the input but could not be
 *     read (bad sectors, data that does not decompress).  The source
 *     zeroed it and keeps why; the writer writes the rest and marks its
 *     file incomplete (unreadable_pages.h), as a lost page must not cost
 *     the others.
 */
#ifndef MDF_OUTPUT_PAGE_SOURCE_H
#define MDF_OUTPUT_PAGE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scan/page_scan.h"
#include "util/error.h"

struct page_source {
	/*
	 * Has the shape of page_scan_cycle(): sets, for the pfns
	 * [start_pfn, end_pfn), bit (pfn - start_pfn) of @present for a page
	 * the input holds and of @dumpable for a page to write (the caller
	 * clears both first), and adds its exclusions to @counts.
	 */
	struct mdf_error *(*classify)(void *ctx, uint64_t start_pfn, uint64_t end_pfn,
				      uint8_t *present, uint8_t *dumpable,
				      struct page_counts *counts);
	/* Reads page @pfn into @buf, page_size bytes. */
	struct mdf_error *(*read_page)(void *ctx, uint64_t pfn, void *buf);
	/*
	 * Optional: reads the pages @pfns[0..@count), rising, into @buf,
	 * page i at i * page_size, as read_page() would, in fewer reads.
	 * Returns how many of the first it read; it stops before a page it
	 * cannot read so, for read_page() to read.
	 */
	size_t (*read_pages)(void *ctx, const uint64_t *pfns, size_t count, void *buf);
	/*
	 * Optional, asked once the pages are written: the erase information
	 * to store after them (malloc'ed; *len 0 for none), upstream's text.
	 */
	struct mdf_error *(*eraseinfo)(void *ctx, char **text, size_t *len);
	void *ctx;
};

/*
 * What read_page() returns for a page the input holds but cannot give,
 * having zeroed @buf; shared, never freed, with nothing to say: the
 * source keeps why.
 */
extern struct mdf_error page_source_unreadable;

/*
 * Reads page @pfn, one to dump in the file @path, into @buf: NULL when
 * @buf holds the page, or zeros for an unreadable one (*@unreadable
 * says which).  A page the input excluded or does not hold is an error
 * worded here; any other is the source's.
 */
struct mdf_error *page_source_read_dumped(const struct page_source *src, uint64_t pfn, void *buf,
					  const char *path, bool *unreadable);

/*
 * As page_source_read_dumped(), for the pages @pfns[0..@count) into @buf
 * (page i at i * page_size): @unreadable[i] says which are zeros.
 */
struct mdf_error *page_source_read_dumped_pages(const struct page_source *src, const uint64_t *pfns,
						size_t count, size_t page_size, void *buf,
						const char *path, bool *unreadable);

#endif
