/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writing a kdump-compressed dump file, laid out byte for byte as upstream
 * makedumpfile 1.7.2 lays it out (kdump_format.h draws the layout), to a
 * regular file or as a flattened stream (makedumpfile -F).
 *
 * The writer does not know what a page is for: a caller-supplied callback
 * classifies the pages a cycle (a range of pfns) at a time into the two
 * bitmaps, and another reads a page's bytes.  Its memory is bounded by the
 * cycle size and its write buffers, whatever the size of the dump.
 */
#ifndef MDF_OUTPUT_KDUMP_WRITER_H
#define MDF_OUTPUT_KDUMP_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/codec.h"
#include "input/kdump_format.h"
#include "output/dump_file.h"
#include "scan/page_scan.h"
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
	/* Threads compressing pages; 0 compresses in the caller's. */
	unsigned int threads;
	/*
	 * One part of a split dump (--split): the whole bitmaps, room for the
	 * descriptors of every page, but descriptors and data only for the
	 * pages of [start_pfn, end_pfn), as upstream writes each part.
	 */
	bool split;
	uint64_t start_pfn;
	uint64_t end_pfn;
};

/*
 * Where the pages come from.  classify() has the shape of
 * page_scan_cycle(): it sets, for the pfns [start_pfn, end_pfn), bit
 * (pfn - start_pfn) of @present for a page the input holds and of
 * @dumpable for a page to write; the writer clears both first.  It adds
 * its exclusions to @counts and prints its own error messages.
 *
 * read_page() reads one page; it returns 0 or a negative errno, and prints
 * its own message for any error but -MDF_EEXCLUDED and -MDF_ENOTDUMPED,
 * which the writer words (as input_read_page() does), and
 * -MDF_EUNREADABLE: the page is in the input but could not be read (bad
 * sectors, data that does not decompress), the source keeps why, and the
 * writer writes the rest and marks its file incomplete, as a lost page
 * must not cost the others.
 *
 * The callbacks return ints and print their own messages, for they belong
 * to the layers that make the pages: a negative return is an error
 * already said.  The writers pass it on as page_source_error(), an error
 * with the callback's code and nothing more to say, which the caller that
 * would print it drops (page_source_said()).  They add words of their own
 * only to a page to dump that read_page() says is excluded or not in the
 * dump (and mem_usage_count() to any page it cannot read).
 */
struct kdump_page_source {
	int (*classify)(void *ctx, uint64_t start_pfn, uint64_t end_pfn, uint8_t *present,
			uint8_t *dumpable, struct page_counts *counts);
	int (*read_page)(void *ctx, uint64_t pfn, void *buf);
	/*
	 * Optional, asked once the pages are written: the erase information
	 * to store after them (malloc'ed; *len 0 for none), upstream's text.
	 */
	int (*eraseinfo)(void *ctx, char **text, size_t *len);
	void *ctx;
};

/* A page source's failure, with its @code: its message is out already. */
struct mdf_error *page_source_error(int code);
/* Whether @err is one of those, for the caller to drop rather than print. */
bool page_source_said(const struct mdf_error *err);

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
 * The disk header says DUMP_DH_COMPRESSED_INCOMPLETE until everything
 * else is written and synced, so that a dump cut short by anything, a
 * kill included, never looks complete.
 *
 * Returns NULL, or one error saying what failed and how far the writing
 * got (or page_source_error()).  When writing the file failed (a full
 * disk, an I/O error, a failed fsync or close), a regular file whose
 * header made it to the disk is kept, incomplete and marked so, with
 * descriptors only for pages whose data is in it, as upstream leaves a
 * dump on a full disk, and @result->fate says so; any other failure
 * removes it.
 */
struct mdf_error *kdump_write(const struct kdump_writer_params *p,
			      const struct kdump_page_source *src, struct page_counts *counts,
			      struct kdump_write_result *result);

/*
 * The number of CPUs upstream records for an ELF input: the NT_PRSTATUS
 * notes named "CORE" that the crashed kernel wrote, one per CPU.
 */
int32_t kdump_count_cpus(const void *notes, size_t notes_size);

#endif
