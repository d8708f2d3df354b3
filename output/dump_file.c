// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Dump files being written; dump_file.h says what the writers get.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/dump_file.h"
#include "output/report.h"
#include "util/error.h"
#include "util/message.h"

/*
 * A failure met while the file is given up, after the one the writer
 * returns: printed now, it would come before its cause.
 */
static void fail_later(struct dump_file *f, struct mdf_error *err)
{
	if (!f->fate.error)
		f->fate.error = err;
	else
		/* Giving a file up stops at its first failure: there is no second. */
		mdf_error_free(err);
}

/*
 * The first failure goes back to the writer, which returns it for the top
 * to print; a later one worth telling waits in the fate, and the writer
 * gets only its code.
 */
static struct mdf_error *failed(struct dump_file *f, struct mdf_error *err)
{
	int code = err->code;

	if (!f->error) {
		f->error = code;
		return err;
	}
	fail_later(f, err);
	return mdf_error_code(code);
}

struct mdf_error *dump_file_open(struct dump_file *f, const char *path, bool force, bool flatten)
{
	struct mdf_error *err;

	memset(f, 0, sizeof(*f));
	f->flatten = flatten;
	err = outfile_open(&f->out, path, force);
	if (err)
		return err;
	f->is_open = true;
	if (flatten)
		return flat_writer_start(&f->flat, f->out.fd, f->out.path);
	/* Headers are written before the data they describe is known. */
	if (lseek(f->out.fd, 0, SEEK_CUR) < 0 && errno == ESPIPE)
		return mdf_error(-ESPIPE, "%s: cannot seek: a dump file must be written to a "
				 "regular file; use the flattened format (-F) for a pipe",
				 f->out.path);
	return NULL;
}

void dump_file_limit(struct dump_file *f, uint64_t bytes)
{
	f->limit = bytes;
}

/* The failure of a write that would take the file past its limit. */
static struct mdf_error *limit_reached(struct dump_file *f, uint64_t offset, size_t len,
				       const char *what)
{
	if (f->error)
		return mdf_error_code(-ENOSPC);
	f->error = -ENOSPC;
	if (f->progress)
		progress_break(f->progress);
	return mdf_error(-ENOSPC, "%s: cannot write %s (0x%zx bytes at offset 0x%" PRIx64 "): "
			 "the size limit (-L) of %" PRIu64 " bytes is reached; stopped after %"
			 PRIu64 " bytes%s", f->out.path, what, len, offset, f->limit, f->written,
			 f->where);
}

/* How many of @len bytes at @offset the limit lets a regular file take. */
static size_t within_limit(const struct dump_file *f, uint64_t offset, size_t len)
{
	if (!f->limit || offset + len <= f->limit)
		return len;
	return offset >= f->limit ? 0 : (size_t)(f->limit - offset);
}

/*
 * The final fsync should find little left to write: every so often the
 * device is asked to start on what is dirty, which it does while pages
 * are compressed.  On one CPU that overlap is the difference between
 * waiting for the whole file at the end and waiting for its tail.
 */
#define WRITEBACK_EVERY (8u << 20)

static void start_writeback(struct dump_file *f)
{
	if (f->written - f->writeback_started_at < WRITEBACK_EVERY || !f->out.is_regular)
		return;
	f->writeback_started_at = f->written;
	/* Only a hint: a file system without it still gets the fsync. */
	(void)sync_file_range(f->out.fd, 0, 0, SYNC_FILE_RANGE_WRITE);
}

static struct mdf_error *write_positioned(struct dump_file *f, uint64_t offset, const void *buf,
					  size_t len, const char *what, bool count)
{
	size_t allowed = within_limit(f, offset, len);
	size_t done = 0;

	while (done < allowed) {
		ssize_t n = pwrite(f->out.fd, (const char *)buf + done, allowed - done,
				   (off_t)(offset + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* pwrite() returns 0 only when the device takes no more. */
			int err = n < 0 ? errno : ENOSPC;

			f->failed_done = done;
			if (f->error)
				return mdf_error_code(-err);
			f->error = -err;
			if (f->progress)
				progress_break(f->progress);
			return mdf_error(-err, "%s: cannot write %s (0x%zx bytes at offset 0x%" PRIx64
					 "): %s; stopped after %" PRIu64 " bytes%s", f->out.path,
					 what, len - done, offset + done, strerror(err), f->written,
					 f->where);
		}
		done += (size_t)n;
		if (count)
			f->written += (uint64_t)n;
	}
	if (done < len) {
		f->failed_done = done;
		return limit_reached(f, offset + done, len - done, what);
	}
	if (count)
		start_writeback(f);
	return NULL;
}

static struct mdf_error *write_record(struct dump_file *f, uint64_t offset, const void *buf,
				      size_t len)
{
	struct mdf_error *err;

	if (f->error)
		return mdf_error_code(f->error);
	if (f->limit && f->flat.written + FLAT_RECORD_HEADER + len > f->limit) {
		f->failed_done = 0;
		return limit_reached(f, offset, len, "a record");
	}
	/* The flattened writer names the stream and how far it got itself. */
	err = flat_writer_write(&f->flat, offset, buf, len);
	f->written = f->flat.written;
	f->failed_done = 0;
	if (err)
		f->error = err->code;
	return err;
}

struct mdf_error *dump_file_write(struct dump_file *f, uint64_t offset, const void *buf,
				  size_t len, const char *what)
{
	if (f->flatten)
		return write_record(f, offset, buf, len);
	return write_positioned(f, offset, buf, len, what, true);
}

struct mdf_error *dump_file_rewrite(struct dump_file *f, uint64_t offset, const void *buf,
				    size_t len, const char *what)
{
	if (f->flatten)
		return write_record(f, offset, buf, len);
	return write_positioned(f, offset, buf, len, what, false);
}

struct mdf_error *dump_file_sync(struct dump_file *f)
{
	struct mdf_error *err;

	if (f->flatten || f->out.is_stdout)
		return NULL;
	err = outfile_sync(&f->out);
	return err ? failed(f, err) : NULL;
}

struct mdf_error *dump_file_finish(struct dump_file *f)
{
	struct mdf_error *err = NULL;

	if (f->flatten && f->limit && f->flat.written + FLAT_RECORD_HEADER > f->limit)
		err = limit_reached(f, f->flat.written, FLAT_RECORD_HEADER, "the end record");
	else if (f->flatten) {
		err = flat_writer_finish(&f->flat);
		f->written = f->flat.written;
	}
	if (!err)
		err = outfile_sync(&f->out);
	if (!err) {
		/* Closed whatever close() says: only a reopen can mend it. */
		f->is_open = false;
		err = outfile_close(&f->out);
	}
	return err ? failed(f, err) : NULL;
}

struct mdf_error *dump_file_reopen(struct dump_file *f)
{
	if (f->is_open)
		return NULL;
	f->out.fd = open(f->out.path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	if (f->out.fd < 0) {
		int err = errno;

		return failed(f, mdf_error(-err, "%s: cannot open it again to mark it: %s",
					   f->out.path, strerror(err)));
	}
	f->is_open = true;
	return NULL;
}

void dump_file_extend(struct dump_file *f, uint64_t size)
{
	struct stat st;

	if (f->limit && size > f->limit)
		size = f->limit;
	if (f->is_open && dump_file_is_regular(f) && fstat(f->out.fd, &st) == 0 &&
	    (uint64_t)st.st_size < size && ftruncate(f->out.fd, (off_t)size) != 0)
		dump_file_warn_later(f, "%s: cannot extend it to %" PRIu64 " bytes: %s",
				     f->out.path, size, strerror(errno));
}

void dump_file_keep(struct dump_file *f)
{
	struct mdf_error *err = f->is_open ? outfile_close(&f->out) : NULL;

	if (err)
		fail_later(f, err);
	f->is_open = false;
}

void dump_file_discard(struct dump_file *f)
{
	if (f->is_open)
		outfile_abort(&f->out);
	else if (dump_file_is_regular(f))
		unlink(f->out.path);
	f->is_open = false;
}

bool dump_file_is_regular(const struct dump_file *f)
{
	return f->out.is_regular && !f->out.is_stdout;
}

void dump_file_warn_later(struct dump_file *f, const char *fmt, ...)
{
	struct dump_file_fate *fate = &f->fate;
	char *text = NULL;
	va_list ap, again;

	va_start(ap, fmt);
	va_copy(again, ap);
	if (fate->nr_warnings < DUMP_FILE_FATE_WARNINGS && vasprintf(&text, fmt, ap) >= 0) {
		fate->warnings[fate->nr_warnings++] = text;
	} else {
		/* Said out of order rather than not at all. */
		char now[1024];

		vsnprintf(now, sizeof(now), fmt, again);
		msg_warn("%s", now);
	}
	va_end(again);
	va_end(ap);
}

void dump_file_fate_tell(struct dump_file_fate *fate)
{
	for (unsigned int i = 0; i < fate->nr_warnings; i++) {
		msg_warn("%s", fate->warnings[i]);
		free(fate->warnings[i]);
	}
	mdf_error_free(fate->error);
	memset(fate, 0, sizeof(*fate));
}
