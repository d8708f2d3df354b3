// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Dump files being written; dump_file.h says what the writers get.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/dump_file.h"
#include "output/report.h"
#include "util/message.h"

int dump_file_open(struct dump_file *f, const char *path, bool force, bool flatten)
{
	int err;

	memset(f, 0, sizeof(*f));
	f->flatten = flatten;
	err = outfile_create(&f->out, path, force);
	if (err)
		return err;
	f->is_open = true;
	if (flatten)
		return flat_writer_start(&f->flat, f->out.fd, f->out.path);
	/* Headers are written before the data they describe is known. */
	if (lseek(f->out.fd, 0, SEEK_CUR) < 0 && errno == ESPIPE) {
		msg_error("%s: cannot seek: a dump file must be written to a regular file; use "
			  "the flattened format (-F) for a pipe", f->out.path);
		return -ESPIPE;
	}
	return 0;
}

static int write_positioned(struct dump_file *f, uint64_t offset, const void *buf, size_t len,
			    const char *what, bool count)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pwrite(f->out.fd, (const char *)buf + done, len - done,
				   (off_t)(offset + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* pwrite() returns 0 only when the device takes no more. */
			int err = n < 0 ? errno : ENOSPC;

			f->failed_done = done;
			if (!f->error) {
				if (f->progress)
					progress_break(f->progress);
				msg_error("%s: cannot write %s (0x%zx bytes at offset 0x%" PRIx64
					  "): %s; stopped after %" PRIu64 " bytes%s", f->out.path,
					  what, len - done, offset + done, strerror(err), f->written,
					  f->where);
			}
			f->error = -err;
			return -err;
		}
		done += (size_t)n;
		if (count)
			f->written += (uint64_t)n;
	}
	return 0;
}

static int write_record(struct dump_file *f, uint64_t offset, const void *buf, size_t len)
{
	int err;

	if (f->error)
		return f->error;
	/* The flattened writer names the stream and how far it got itself. */
	err = flat_writer_write(&f->flat, offset, buf, len);
	f->written = f->flat.written;
	f->failed_done = 0;
	if (err)
		f->error = err;
	return err;
}

int dump_file_write(struct dump_file *f, uint64_t offset, const void *buf, size_t len,
		    const char *what)
{
	if (f->flatten)
		return write_record(f, offset, buf, len);
	return write_positioned(f, offset, buf, len, what, true);
}

int dump_file_rewrite(struct dump_file *f, uint64_t offset, const void *buf, size_t len,
		      const char *what)
{
	if (f->flatten)
		return write_record(f, offset, buf, len);
	return write_positioned(f, offset, buf, len, what, false);
}

int dump_file_sync(struct dump_file *f)
{
	int err;

	if (f->flatten || f->out.is_stdout)
		return 0;
	err = outfile_sync(&f->out);
	if (err && !f->error)
		f->error = err;
	return err;
}

int dump_file_finish(struct dump_file *f)
{
	int err = 0;

	if (f->flatten) {
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
	if (err && !f->error)
		f->error = err;
	return err;
}

int dump_file_reopen(struct dump_file *f)
{
	if (f->is_open)
		return 0;
	f->out.fd = open(f->out.path, O_WRONLY | O_CLOEXEC);
	if (f->out.fd < 0) {
		int err = errno;

		msg_error("%s: cannot open it again to mark it: %s", f->out.path, strerror(err));
		return -err;
	}
	f->is_open = true;
	return 0;
}

void dump_file_extend(struct dump_file *f, uint64_t size)
{
	struct stat st;

	if (f->is_open && dump_file_is_regular(f) && fstat(f->out.fd, &st) == 0 &&
	    (uint64_t)st.st_size < size && ftruncate(f->out.fd, (off_t)size) != 0)
		msg_warn("%s: cannot extend it to %" PRIu64 " bytes: %s", f->out.path, size,
			 strerror(errno));
}

void dump_file_keep(struct dump_file *f)
{
	if (f->is_open)
		outfile_close(&f->out);
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
