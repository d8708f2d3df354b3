/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writing a kdump-compressed dump file, laid out byte for byte as upstream
 * makedumpfile 1.7.2 lays it out (kdump_format.h draws the layout), in the
 * dumped machine's byte order, to a regular file or as a flattened stream
 * (makedumpfile -F).
 *
 * The pages come from a page source (page_source.h), which classifies them
 * a cycle (a range of pfns) at a time into the two bitmaps.  The writer's
 * memory is bounded by the cycle size and its write buffers, whatever the
 * size of the dump.
 */
#ifndef MDF_OUTPUT_KDUMP_WRITER_H
#define MDF_OUTPUT_KDUMP_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/codec.h"
#include "input/kdump_format.h"
#include "output/dump_file.h"
#include "util/byte_order.h"
#include "output/page_source.h"
#include "util/error.h"

struct kdump_writer_params {
	/* The dump file; NULL or "-" for standard output. */
	const char *path;
	/* Overwrite an existing file (-f). */
	bool force;
	/* Write makedumpfile's flattened format (-F), which needs no seeking. */
	bool flatten;
	/* Bytes the file (or stream) may take, as dump_file_limit(); 0: no limit. */
	uint64_t size_limit;
	enum mdf_codec codec;
	/* -e left out struct pages of pages left out: DUMP_DH_EXCLUDED_VMEMMAP. */
	bool excluded_vmemmap;
	/* Stored in the sub header; its bit 1 (DL_EXCLUDE_ZERO) drops zero pages. */
	int dump_level;
	uint32_t page_size;
	/*
	 * The dumped machine's byte order (mem_byte_order()): the headers and
	 * descriptors are written in it, as upstream running on that machine
	 * writes them.  The notes go as they are, in theirs.
	 */
	enum byte_order byte_order;
	/* One past the highest pfn: upstream's max_mapnr (page_scan_max_pfn()). */
	uint64_t max_pfn;
	uint64_t phys_base;
	/* The crashed kernel's utsname (init_uts_ns.name); NULL writes zeros. */
	const struct kdump_utsname *uts;
	/* The time of the crash: VMCOREINFO's CRASHTIME, or a kdump input's header. */
	int64_t timestamp_sec;
	int64_t timestamp_usec;
	/* See kdump_count_cpus(); a kdump input's header has its own. */
	int32_t nr_cpus;
	/*
	 * The input's ELF notes, raw; embedded after the sub header.  The
	 * VMCOREINFO note among them is what the sub header points at.
	 */
	const void *notes;
	size_t notes_size;
	/* Pfns classified at a time: a positive multiple of 8. */
	uint64_t cycle_pfns;
	/*
	 * Write each bitmap to the end of its last block, zeros past
	 * max_pfn, as upstream does when it re-filters a kdump-compressed
	 * dump (its bitmaps then come from a file, a block at a time): the
	 * same file, and the same "Write bytes".
	 */
	bool whole_bitmap_blocks;
	/*
	 * A file the disk has no room for (ENOSPC) is removed, not kept
	 * incomplete: the caller writes it again at another dump level.
	 */
	bool remove_when_full;
	/* Threads compressing pages; 0 compresses in the caller's. */
	unsigned int threads;
	/* The threads were asked for (--num-threads): they take every batch, paying or not. */
	bool threads_asked;
	/*
	 * One part of a split dump (--split): the whole bitmaps, room for the
	 * descriptors of every page, but descriptors and data only for the
	 * pages of [start_pfn, end_pfn), as upstream writes each part.
	 */
	bool split;
	uint64_t start_pfn;
	uint64_t end_pfn;
};

struct kdump_write_result {
	/* Pfns set in the 1st bitmap ("Original pages" of the report). */
	uint64_t pfn_present;
	/* Pfns set in the 2nd bitmap: pages to dump, zero pages included. */
	uint64_t pfn_dumpable;
	/* Of those, the pages this file holds: all but in a split part. */
	uint64_t pages_written;
	/*
	 * Bytes written, counted as upstream counts them for its "Write
	 * bytes": every byte of every write, flattened-format framing
	 * included, the unwritten gaps of a regular file not.
	 */
	uint64_t bytes_written;
	/*
	 * After a failure, what became of the file, to be told after the
	 * error (dump_file_fate_tell()).
	 */
	struct dump_file_fate fate;
};

/*
 * Writes the dump.  The classification is done in two passes over the
 * cycles, as upstream does (the first writes the bitmaps and counts the
 * pages, so that the page data can start after all the descriptors; the
 * second writes descriptors and data), or once when one cycle covers every
 * pfn.  The counts of the pass that wrote the pages are added to @counts,
 * with the zero pages the writer found.
 *
 * A file's disk header says DUMP_DH_COMPRESSED_INCOMPLETE until
 * everything else is written and synced, so that a dump cut short by
 * anything, a kill included, never looks complete; a flattened stream has
 * its header once, complete (-R marks a stream cut short), and again,
 * marked, only if pages turn out unreadable.
 *
 * Returns NULL, or one error saying what failed and how far the writing
 * got (or the page source's own).  When writing the file failed (a full
 * disk, an I/O error, a failed fsync or close), a regular file whose
 * header made it to the disk is kept, incomplete and marked so, with
 * descriptors only for pages whose data is in it, as upstream leaves a
 * dump on a full disk, and @result->fate says so; any other failure
 * removes it.
 */
struct mdf_error *kdump_write(const struct kdump_writer_params *p,
			      const struct page_source *src, struct page_counts *counts,
			      struct kdump_write_result *result);

/*
 * The number of CPUs upstream records for an ELF input: the NT_PRSTATUS
 * notes named "CORE" that the crashed kernel wrote, one per CPU, in
 * whichever byte order they are.
 */
int32_t kdump_count_cpus(const void *notes, size_t notes_size);

#endif
