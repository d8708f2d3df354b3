/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The run's policy: what makedumpfile decides for the user when the
 * command line does not, each decision made and explained here, so that
 * makedumpfile.c only puts the steps in order.
 *
 *   - memory: how many pfns a cycle classifies, which sizes the bitmaps;
 *   - CPUs: how many threads compress pages;
 *   - -e: which pages the dump leaves out beyond those the dump level
 *     excludes, and how the report counts them.
 */
#ifndef MDF_CLI_RUN_POLICY_H
#define MDF_CLI_RUN_POLICY_H

#include <stdint.h>

#include "cli/options.h"
#include "scan/pfn_ranges.h"

/*
 * Pfns per cycle, a multiple of 8.  With --cyclic-buffer KB each bitmap
 * gets KB KiB, as upstream.  Otherwise the bitmaps take at most 40% of
 * the available memory (upstream's share) and the 2nd at most 4 MiB (the
 * writer builds the 1st in small pieces), so that memory stays bounded
 * whatever the size of the dump: a dump of more than 128 GiB takes
 * several cycles, and each is classified twice, which reads its kept
 * pages twice.
 */
uint64_t policy_cycle_pfns(const struct mdf_options *opt, uint64_t max_pfn);

/*
 * Threads compressing pages besides the main one: --num-threads, or one
 * per usable CPU that the load average of the last minute leaves idle
 * (none for fewer than two: the main thread reads and writes, and would
 * only wait, or take turns), at most 64 and one per 16 MiB of available
 * memory (a thread keeps ~4 MiB of batches in flight).  None either for
 * pages stored raw: handing a page to a thread costs more than the look
 * for zeros it would take over.  The writer's pool then tries whether
 * they pay on the dump's pages (codec/compress_pool.h).
 */
unsigned int policy_compression_threads(const struct mdf_options *opt);

/*
 * -e: clears, in the 2nd bitmap @dumpable of the pfns [start_pfn,
 * end_pfn), the pfns of @frames, the frames of the struct pages of pages
 * left out (scan/unused_vmemmap.h).  They are taken out after the scan
 * classified and counted the cycle, so that, as upstream's, no count of
 * the report holds them: the run says how many apart.
 */
void policy_leave_out(const struct pfn_ranges *frames, uint64_t start_pfn, uint64_t end_pfn,
		      uint8_t *dumpable);

#endif
