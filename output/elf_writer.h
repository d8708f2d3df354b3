/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writing an ELF dump file (makedumpfile -E), laid out as upstream
 * makedumpfile 1.7.2 lays it out:
 *
 *   0                  the input's ELF header, e_phnum and the layout
 *                      fields set for this file
 *   64                 the program headers: the input's PT_NOTE first,
 *                      then the PT_LOADs; with 65535 or more of them,
 *                      e_phnum is PN_XNUM and one section header follows,
 *                      whose sh_info holds the count
 *   after them         the input's PT_NOTE segment, byte for byte
 *   right after it     the data of each PT_LOAD, in order
 *
 * The PT_LOADs follow the input's, in the input's order (elf_vaddrs.h
 * gives a QEMU dump's its kernel virtual addresses first; a kexec dump's
 * kernel image segment included, though the direct map holds the same
 * pages): each is cut where 256 or more pages in a row are not to be
 * dumped, and ends its p_filesz before pages not dumped at its end; a run
 * of fewer than 256 pages not to be dumped stays in the file, with its
 * bytes, as upstream keeps it.  At a dump level with bit 1, zero pages
 * are not dumped (but for pfns an extension keeps).
 *
 * The headers are written in the input's byte order, EI_DATA unchanged:
 * the notes are copied as they are, and EI_DATA must be theirs too.  The
 * pages are memory, in the machine's order, whatever the headers say: the
 * file of QEMU's mislabelled ppc64el dump is mislabelled the same way,
 * and read right the same way (arch/arch.c settles the memory's order).
 *
 * The pages come from a page source (page_source.h).
 */
#ifndef MDF_OUTPUT_ELF_WRITER_H
#define MDF_OUTPUT_ELF_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "input/elf_segments.h"
#include "output/dump_file.h"
#include "output/page_source.h"

/* Upstream's PFN_EXCLUDED: shorter runs of pages not dumped stay in the file. */
#define ELF_MIN_HOLE_PAGES 256

struct pfn_ranges;

struct elf_writer_params {
	/* The dump file; NULL or "-" for standard output. */
	const char *path;
	bool force;
	/* Write makedumpfile's flattened format (-F). */
	bool flatten;
	/* Bytes the file (or stream) may take, as dump_file_limit(); 0: no limit. */
	uint64_t size_limit;
	int dump_level;
	uint32_t page_size;
	/* One past the highest pfn the page source classifies. */
	uint64_t max_pfn;
	/* Pfns classified at a time: a positive multiple of 8. */
	uint64_t cycle_pfns;
	/* The input's headers and notes. */
	const struct elf_segments *input;
	/* Pfns never excluded, zero pages included; NULL: none. */
	const struct pfn_ranges *keep;
	/* As kdump_writer_params' remove_when_full. */
	bool remove_when_full;
};

struct elf_write_result {
	/* Pfns the input holds (the 1st bitmap's count). */
	uint64_t pfn_present;
	/* Pages dumped, counted once however many segments hold them. */
	uint64_t pfn_dumpable;
	/* Upstream's "in ELF format" count of pages left out of segments. */
	uint64_t pfn_elf_excluded;
	/* Bytes written, as upstream counts them for "Write bytes". */
	uint64_t bytes_written;
	/* After a failure, what became of the file (as kdump_write_result's). */
	struct dump_file_fate fate;
};

/*
 * Writes the dump, classifying each cycle of pfns twice when there are
 * several (the headers come first and depend on every page) and once
 * otherwise.  Zero pages found are added to @counts, with the
 * classification's counts.
 *
 * A file's ELF header carries DUMP_ELF_INCOMPLETE until everything else
 * is written and synced; a flattened stream's header goes out once,
 * complete, and again, marked, only if pages turn out unreadable.
 * Returns NULL or one error (as kdump_write()).  When writing the file
 * failed once its headers and notes were written, a regular file is
 * kept, marked so, with program headers only of the data it holds (a
 * segment cut short up to its last whole page there), and @result->fate
 * says so; any other failure removes it.
 */
struct mdf_error *elf_write(const struct elf_writer_params *p, const struct page_source *src,
			    struct page_counts *counts, struct elf_write_result *result);

#endif
