/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The flattened format of makedumpfile -F: a dump written as a stream, so
 * that it can go through a pipe or ssh, and put back in place by -R.
 *
 * The stream is a 4096-byte header (the signature "makedumpfile" padded
 * with NULs to 16 bytes, then type 1 and version 1 as big-endian int64s,
 * then zeros) followed by records: a big-endian int64 offset and int64
 * size, then size bytes that belong at that offset of the dump file.  A
 * record with offset and size both -1 ends the stream.
 */
#ifndef MDF_OUTPUT_FLAT_H
#define MDF_OUTPUT_FLAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

#define FLAT_SIGNATURE "makedumpfile"
#define FLAT_HEADER_SIZE 4096
#define FLAT_TYPE 1
#define FLAT_VERSION 1
/* Before each record's data: its offset and size, big-endian 64-bit numbers. */
#define FLAT_RECORD_HEADER 16

/*
 * makedumpfile -R: reads the flattened stream from @in_fd (a pipe is fine:
 * it is only read forwards; @in_name names it in messages) and writes the
 * dump it holds to @out_path, created with mode 0600, and only over an
 * existing file if @force, taking up to @size_limit bytes of it (-L; 0:
 * no limit).  On an error once a record is written (a limit reached
 * included), the output is kept, marked incomplete; before, it is
 * removed.  The error says how far it got.
 */
struct mdf_error *flat_reassemble(int in_fd, const char *in_name, const char *out_path, bool force,
				  uint64_t size_limit);

/*
 * Turns positioned writes into a flattened stream on a file descriptor.
 * A reader that goes away raises SIGPIPE; a program that ignores that
 * signal gets an -EPIPE error instead of dying.
 */
struct flat_writer {
	int fd;
	const char *name;
	/* Bytes of stream written, for messages. */
	uint64_t written;
};

/* Writes the stream header to @fd (@name names it in messages). */
struct mdf_error *flat_writer_start(struct flat_writer *w, int fd, const char *name);

/* One record: @len bytes that belong at @offset of the dump file. */
struct mdf_error *flat_writer_write(struct flat_writer *w, uint64_t offset, const void *buf,
				    size_t len);

/*
 * Writes the end record.  The stream is complete only once this returned
 * no error; closing @fd is left to the caller.
 */
struct mdf_error *flat_writer_finish(struct flat_writer *w);

#endif
