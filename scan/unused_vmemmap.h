/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -e, upstream's "exclude unused vmemmap": the page frames that hold
 * struct pages describing only pages the dump leaves out.  On a machine of
 * much memory, mostly free, the struct pages are 1/64 of it; those of the
 * free pages say nothing an analysis needs.  The dump that leaves them out
 * says so in its header (DUMP_DH_EXCLUDED_VMEMMAP), and crash warns that
 * commands reading struct pages (kmem) may fail on it.
 *
 * A frame is left out when every struct page it holds describes a page the
 * dump holds and leaves out (upstream's rule: the 1st bitmap set, the 2nd
 * clear), and no extension keeps it.  Upstream looks only within each
 * 2 MiB vmemmap mapping and each 32768-pfn block of its bitmap; here any
 * whole frame of such struct pages goes.
 */
#ifndef MDF_SCAN_UNUSED_VMEMMAP_H
#define MDF_SCAN_UNUSED_VMEMMAP_H

#include <stdint.h>

#include "scan/pfn_ranges.h"

struct mdf_error;
struct memory;
struct page_scan;

/*
 * Classifies every pfn of @scan, @cycle_pfns at a time (a multiple of 8),
 * and adds the frames to leave out to @frames (merged on return); @keep
 * (merged, may be NULL) are frames never left out.  @page_size is the
 * dump's.
 */
struct mdf_error *unused_vmemmap_frames(struct page_scan *scan, struct memory *mem, uint32_t page_size,
					uint64_t cycle_pfns, const struct pfn_ranges *keep,
					struct pfn_ranges *frames);

#endif
