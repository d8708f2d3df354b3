/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A dump file being written, as the writers (kdump_writer.c, elf_writer.c,
 * split_reassemble.c) see it: bytes put at offsets, whether they go to a regular
 * file with pwrite() or into makedumpfile's flattened stream (-F) as
 * records, so that a writer lays its file out once for both.
 *
 * Every failure comes back from here as one error whose message names the
 * file, what was being written, where, why, and how far the dump had got.
 * What becomes of a failed file is the writer's decision: a writer whose
 * header can say "incomplete" keeps it, marked so; others remove it.
 *
 * The error is printed by the top, after the writer has returned, and so
 * after the writer has given the file up.  What giving it up has to tell
 * (the file was kept, how; closing or marking it failed too) comes after
 * the cause, so it waits in the file's fate (struct dump_file_fate), which
 * the writer hands to its caller.
 */
#ifndef MDF_OUTPUT_DUMP_FILE_H
#define MDF_OUTPUT_DUMP_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output/flat.h"
#include "output/outfile.h"
#include "util/error.h"

struct progress;

/* The warnings a fate holds: the file could not be extended; it was kept. */
#define DUMP_FILE_FATE_WARNINGS 2

/*
 * What became of a dump file whose writing failed, to be told after the
 * error the writer returned, in this order: the failure of giving the
 * file up (marking, syncing or closing it), then the warnings.  Empty
 * when the writing succeeded.
 */
struct dump_file_fate {
	struct mdf_error *error;
	char *warnings[DUMP_FILE_FATE_WARNINGS];
	unsigned int nr_warnings;
};

struct dump_file {
	struct outfile out;
	bool is_open;
	bool flatten;
	struct flat_writer flat;
	/*
	 * Bytes written, as upstream counts them for its report's "Write
	 * bytes": every byte of every write (flattened framing included), but
	 * for a regular file not the rewrites of bytes already written.
	 */
	uint64_t written;
	/*
	 * After a failed write: how many bytes of it reached the file.  A
	 * flattened stream takes a record whole or not at all, so there it
	 * is 0.
	 */
	size_t failed_done;
	/*
	 * The code of the first failure.  Its error went back, once, from the
	 * call that met it; a later write that fails is not told again, only
	 * its code comes back, and what giving the file up meets goes to @fate.
	 */
	int error;
	/*
	 * Appended to a failure message: how far the dump got, in the
	 * writer's terms (", at page N of M"); the writer keeps it current.
	 */
	char where[96];
	/* A progress line to end before a message; may be NULL. */
	struct progress *progress;
	/* Bytes the file may take (-L); 0: no limit.  dump_file_limit() sets it. */
	uint64_t limit;
	/* @written when writeback of the file was last started. */
	uint64_t writeback_started_at;
	struct dump_file_fate fate;
};

/*
 * Creates @path (NULL or "-": standard output), 0600, over an existing
 * file only if @force; with @flatten, starts the flattened stream.  A file
 * written out of order must be seekable: a pipe without -F is refused,
 * with the advice to use -F.
 */
struct mdf_error *dump_file_open(struct dump_file *f, const char *path, bool force, bool flatten);

/*
 * Limits the file to @bytes (-L; 0: no limit), as upstream limits it: a
 * regular file gets the bytes below the limit of the write that would
 * cross it, a flattened stream the records that fit whole; that write
 * then fails with -ENOSPC, as on a full disk, and the writer keeps what
 * it wrote, marked incomplete.  An incomplete file is not extended past
 * the limit either.
 */
void dump_file_limit(struct dump_file *f, uint64_t bytes);

/* Writes @len bytes of @what at @offset of the dump. */
struct mdf_error *dump_file_write(struct dump_file *f, uint64_t offset, const void *buf,
				  size_t len, const char *what);

/*
 * Writes over bytes written before (a header whose status changes): the
 * same as dump_file_write(), but a regular file's byte count stays.
 */
struct mdf_error *dump_file_rewrite(struct dump_file *f, uint64_t offset, const void *buf,
				    size_t len, const char *what);

/*
 * Makes what was written durable: fsync() of a regular file; nothing for
 * a stream.
 */
struct mdf_error *dump_file_sync(struct dump_file *f);

/*
 * Ends the flattened stream, syncs and closes.  On failure the file is
 * left for the caller's dump_file_keep() or dump_file_discard().
 */
struct mdf_error *dump_file_finish(struct dump_file *f);

/*
 * Opens a regular file again after dump_file_finish() failed to close it,
 * so that its header can still be marked.
 */
struct mdf_error *dump_file_reopen(struct dump_file *f);

/*
 * Makes a regular file at least @size bytes long, the rest a hole that
 * reads as zeros: an incomplete dump then holds every place its headers
 * say there is, which readers that map the file need.  Best effort: a
 * failure is a warning in the fate.
 */
void dump_file_extend(struct dump_file *f, uint64_t size);

/* Closes a failed dump file and leaves it where it is; a failure goes to the fate. */
void dump_file_keep(struct dump_file *f);

/* Closes a failed dump file and removes it, if it is a regular file. */
void dump_file_discard(struct dump_file *f);

/* Whether the dump goes to a regular file, which can be kept or removed. */
bool dump_file_is_regular(const struct dump_file *f);

/* A warning about a failed file (that it was kept, and how), kept in its fate. */
void dump_file_warn_later(struct dump_file *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Prints the warnings of @fate and empties it.  Its error is the caller's
 * to print first, right after the writer's; one left there is dropped.
 */
void dump_file_fate_tell(struct dump_file_fate *fate);

#endif
