/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The erase information a dump file carries, as upstream makedumpfile
 * stores it: text lines "erase EXPR size N" or "erase EXPR nullify", one
 * per erasure (erase/erase_set.h builds them).
 *
 *   - kdump-compressed: the text follows the page data, and the sub header
 *     (header version 5 and later) gives its offset_eraseinfo and
 *     size_eraseinfo; both are 0 when nothing was erased.
 *   - ELF: an ELF note named "ERASEINFO", type 0, whose descriptor is the
 *     text, padded with NUL bytes to the size reserved for it.
 *
 * A dump filtered again keeps the erase information of its input, with
 * that of the new erasures after it.
 */
#ifndef MDF_ERASE_ERASEINFO_H
#define MDF_ERASE_ERASEINFO_H

#include <stddef.h>

struct dump_input;
struct mdf_error;

#define ERASEINFO_NOTE_NAME "ERASEINFO"
/* A bound for a corrupt header: a line per erasure of a million erasures. */
#define ERASEINFO_MAX_SIZE (256u << 20)

/*
 * The erase information of @in: *@text malloc'ed and NUL-terminated,
 * *@len its length without the padding NULs; NULL and 0 when the dump has
 * none.  An offset or size that the file cannot hold is reported, with
 * the file's name, and is -MDF_ECORRUPT.
 */
struct mdf_error *eraseinfo_read(struct dump_input *in, char **text, size_t *len);

#endif
