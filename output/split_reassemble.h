/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --reassemble: the files of a split dump (split.h) back into one
 * kdump-compressed file, laid out as a dump written in one piece, as
 * upstream makedumpfile's --reassemble lays it out.
 */
#ifndef MDF_OUTPUT_SPLIT_REASSEMBLE_H
#define MDF_OUTPUT_SPLIT_REASSEMBLE_H

#include <stdbool.h>

#include "output/dump_file.h"
#include "util/error.h"

/*
 * Reads the @nr_parts files @parts (any order) and writes @out_path,
 * created 0600, over an existing file only if @force, taking up to
 * @size_limit bytes of it (-L; 0: no limit).  The parts must come
 * from one split run and together cover every pfn.  A part marked
 * incomplete (DUMP_DH_COMPRESSED_INCOMPLETE) is taken: its missing pages
 * stay missing and the result is marked incomplete too.  Returns NULL or
 * one error; on failure the output is removed, or, when writing it
 * failed, kept marked incomplete as kdump_write() keeps a dump, and @fate
 * says so, to be told after the error.
 */
struct mdf_error *reassemble_dumpfiles(const char *const *parts, unsigned int nr_parts,
				       const char *out_path, bool force, uint64_t size_limit,
				       struct dump_file_fate *fate);

#endif
