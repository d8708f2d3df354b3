/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Upstream makedumpfile's per-page extension_callback(pfn, pcache), run in
 * the extension's own process: it is called for the pages upstream would
 * call it for (page_scan_each_struct_page()), in ascending pfn order, with
 * the bytes of each one's struct page, and its answers come back as
 * ranges, coalesced.
 */
#ifndef MDF_EXTENSION_PAGE_CALLBACK_H
#define MDF_EXTENSION_PAGE_CALLBACK_H

struct mdf_error;
struct page_decisions;
struct page_scan;

/* What the callback returns: upstream's PG_INCLUDE, PG_EXCLUDE, PG_UNDECID. */
enum {
	CALLBACK_INCLUDE,
	CALLBACK_EXCLUDE,
	CALLBACK_UNDECIDED,
};

typedef int (*page_callback_fn)(unsigned long pfn, const void *pcache);

/*
 * Adds the pfns @callback includes to d->include and those it excludes to
 * d->exclude.  Any other answer is an error that names the pfn: the
 * callback's decisions are not to be trusted then.
 */
struct mdf_error *page_callback_run(struct page_scan *scan, page_callback_fn callback,
				    struct page_decisions *d);

#endif
