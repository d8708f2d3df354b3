/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Output files: created 0600, never over an existing file without -f.  A
 * listing that fails is removed (outfile_finish, outfile_abort); a dump
 * writer whose header can say "incomplete" closes its file step by step
 * (outfile_sync, outfile_close) and decides itself what stays.
 */
#ifndef MDF_OUTPUT_OUTFILE_H
#define MDF_OUTPUT_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/error.h"

struct outfile {
	const char *path;
	int fd;
	FILE *stream;   /* for text listings; NULL for binary writers */
	bool is_stdout;
	/* Only a regular file is removed on failure: never /dev/full or a FIFO. */
	bool is_regular;
};

/* Opens @path, or stdout when @path is NULL or "-"; the error names the file. */
struct mdf_error *outfile_open(struct outfile *out, const char *path, bool force);
/* Flushes the stream and, but for stdout, fsyncs; the error says which failed, and why. */
struct mdf_error *outfile_sync(struct outfile *out);
/* Closes (not stdout), the error saying why if that fails; removes nothing. */
struct mdf_error *outfile_close(struct outfile *out);
/* outfile_sync() and outfile_close(); a failure removes the file. */
struct mdf_error *outfile_finish(struct outfile *out);
/* Closes and removes a file that will not be completed. */
void outfile_abort(struct outfile *out);

#endif
