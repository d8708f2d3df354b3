/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading a small text file whole, with a bound: a VMCOREINFO file (-i)
 * or a filter config (--config) named by mistake as /dev/zero, a dump or
 * a FIFO must end in an error, not in memory growing without end.
 */
#ifndef MDF_UTIL_TEXT_FILE_H
#define MDF_UTIL_TEXT_FILE_H

#include <stdbool.h>
#include <stddef.h>

struct mdf_error;

/*
 * Reads @path, at most @max bytes, NUL-terminated in *@text (malloc'ed),
 * its length in *@len.  The errors name @what ("the filter config") and
 * @path: one larger than @max; with @nul_is_error, one holding a NUL byte
 * (not text; a reader that skips damaged lines takes it as it is).
 */
struct mdf_error *text_file_read(const char *path, size_t max, const char *what, bool nul_is_error, char **text,
				 size_t *len);

#endif
