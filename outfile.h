/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Output files: created 0600, never over an existing file without -f, and
 * removed again when the run fails, so that no file looks complete when it
 * is not.
 */
#ifndef MDF_OUTFILE_H
#define MDF_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct outfile {
	const char *path;
	int fd;
	FILE *stream;   /* for text listings; NULL for binary writers */
	bool is_stdout;
	/* Only a regular file is removed on failure: never /dev/full or a FIFO. */
	bool is_regular;
};

/* Opens @path, or stdout when @path is NULL or "-". */
int outfile_create(struct outfile *out, const char *path, bool force);
/* Flushes, fsyncs and closes; a failure here fails the run. */
int outfile_finish(struct outfile *out);
/* Closes and removes a file that will not be completed. */
void outfile_abort(struct outfile *out);

#endif
