// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * makedumpfile's flattened format, both ways; flat.h describes it.
 *
 * Reassembly reads its input strictly forwards, because -R is fed by a
 * pipe, and copies each record through a bounded buffer, so that a record
 * of any size needs no more memory than that.  The dump file it writes is
 * built by positioned writes in record order: a later record over an
 * earlier one wins, as with makedumpfile, whose writer rewrites headers.
 */
#include <elf.h>
#include <endian.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/kdump_format.h"
#include "output/elf_format.h"
#include "output/flat.h"
#include "output/outfile.h"
#include "util/error.h"

#define COPY_CHUNK (1 << 20)
#define FLAT_SIGNATURE_FIELD 16
#define FLAT_END_MARK (-1)

struct reassembly {
	int in_fd;
	const char *in_name;
	struct outfile out;
	bool created;
	/* Bytes the file may take (-L); 0: no limit. */
	uint64_t size_limit;
	/* Bytes of the stream consumed. */
	uint64_t pos;
	/* Records copied whole. */
	uint64_t records;
	unsigned char *buf;
};

/* What went wrong followed by how far the reassembly got, in one message. */
static struct mdf_error *__attribute__((format(printf, 3, 4)))
reassembly_error(const struct reassembly *r, int code, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (r->created && r->records)
		return mdf_error(code, "%s; got through %" PRIu64 " records (%" PRIu64 " bytes of "
				 "the stream): %s is kept, marked incomplete", what, r->records, r->pos,
				 r->out.path);
	if (r->created)
		return mdf_error(code, "%s; no record came through: %s removed", what, r->out.path);
	return mdf_error(code, "%s", what);
}

/*
 * Reads exactly @len bytes of the stream; @what says what they are.  When
 * the stream ends before the first of them, @if_none (if given) words it.
 */
static struct mdf_error *read_stream(struct reassembly *r, void *buf, size_t len,
				     const char *what, const char *if_none)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(r->in_fd, (char *)buf + got, len - got);
		int err = errno;

		if (n < 0 && err == EINTR)
			continue;
		if (n < 0)
			return reassembly_error(r, -err, "%s: cannot read %s at byte %" PRIu64 ": %s",
						r->in_name, what, r->pos + got, strerror(err));
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got == 0 && if_none)
		return reassembly_error(r, -EIO, "%s: the stream ends at byte %" PRIu64
					" %s: truncated", r->in_name, r->pos, if_none);
	if (got < len)
		return reassembly_error(r, -EIO, "%s: the stream ends at byte %" PRIu64
					", inside %s: truncated", r->in_name, r->pos + got, what);
	r->pos += len;
	return NULL;
}

/* Writes @len bytes at @offset, as far as the size limit lets them go. */
static struct mdf_error *pwrite_full(struct reassembly *r, const void *buf, size_t len,
				     uint64_t offset)
{
	size_t done = 0, allowed = len;

	if (r->size_limit && offset + len > r->size_limit)
		allowed = offset >= r->size_limit ? 0 : (size_t)(r->size_limit - offset);
	while (done < allowed) {
		ssize_t n = pwrite(r->out.fd, (const char *)buf + done, allowed - done,
				   (off_t)(offset + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int err = n < 0 ? errno : EIO;

			return reassembly_error(r, -err, "%s: cannot write 0x%zx bytes at offset "
						"0x%" PRIx64 ": %s", r->out.path, len - done,
						offset + done, strerror(err));
		}
		done += (size_t)n;
	}
	if (allowed < len)
		return reassembly_error(r, -ENOSPC, "%s: cannot write 0x%zx bytes at offset 0x%"
					PRIx64 ": the size limit (-L) of %" PRIu64 " bytes is "
					"reached", r->out.path, len - allowed, offset + allowed,
					r->size_limit);
	return NULL;
}

static struct mdf_error *check_stream_header(struct reassembly *r, const unsigned char *hdr)
{
	static const char signature[FLAT_SIGNATURE_FIELD] = FLAT_SIGNATURE;
	uint64_t type, version;

	if (memcmp(hdr, signature, sizeof(signature)))
		return reassembly_error(r, -EINVAL, "%s: not a flattened dump: the first 16 bytes "
					"are not the signature \"%s\"", r->in_name,
					FLAT_SIGNATURE);
	memcpy(&type, hdr + FLAT_SIGNATURE_FIELD, sizeof(type));
	memcpy(&version, hdr + FLAT_SIGNATURE_FIELD + sizeof(type), sizeof(version));
	type = be64toh(type);
	version = be64toh(version);
	if (type != FLAT_TYPE || version != FLAT_VERSION)
		return reassembly_error(r, -EINVAL, "%s: flattened header type %" PRIu64
					" version %" PRIu64 " at byte 16: only type %d version %d "
					"is known", r->in_name, type, version, FLAT_TYPE,
					FLAT_VERSION);
	return NULL;
}

static struct mdf_error *copy_record(struct reassembly *r, uint64_t offset, uint64_t size)
{
	char what[128];

	snprintf(what, sizeof(what), "the data of record %" PRIu64 " (0x%" PRIx64
		 " bytes for offset 0x%" PRIx64 ")", r->records + 1, size, offset);
	for (uint64_t done = 0; done < size;) {
		size_t chunk = size - done < COPY_CHUNK ? (size_t)(size - done) : COPY_CHUNK;
		struct mdf_error *err = read_stream(r, r->buf, chunk, what, NULL);

		if (err)
			return err;
		err = pwrite_full(r, r->buf, chunk, offset + done);
		if (err)
			return err;
		done += chunk;
	}
	r->records++;
	return NULL;
}

static struct mdf_error *copy_records(struct reassembly *r)
{
	for (;;) {
		uint64_t rec[2];
		int64_t offset, size;
		char what[64];
		struct mdf_error *err;

		snprintf(what, sizeof(what), "the header of record %" PRIu64, r->records + 1);
		err = read_stream(r, rec, sizeof(rec), what, "without its end record");
		if (err)
			return err;
		offset = (int64_t)be64toh(rec[0]);
		size = (int64_t)be64toh(rec[1]);
		if (offset == FLAT_END_MARK && size == FLAT_END_MARK)
			return NULL;
		if (offset < 0 || size < 0 || offset > INT64_MAX - size)
			return reassembly_error(r, -EINVAL, "%s: record %" PRIu64 " at byte %" PRIu64
						": offset %" PRId64 " and size %" PRId64
						" do not make a record", r->in_name,
						r->records + 1, r->pos - sizeof(rec), offset, size);
		err = copy_record(r, (uint64_t)offset, (uint64_t)size);
		if (err)
			return err;
	}
}

/*
 * Marks the dump written so far incomplete, as its own writer would have:
 * a stream cut short is kept (what came through is worth reading, and
 * upstream keeps it too), but must not look complete.  Dumps from this
 * makedumpfile say so already, their final header coming last; those
 * of another writer may not.
 */
static void mark_incomplete(struct reassembly *r)
{
	/* The output is open write-only: the header is read through a descriptor of its own. */
	int fd = open(r->out.path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	unsigned char head[64];
	uint32_t value;
	size_t at;

	if (fd < 0)
		return;
	if (pread(fd, head, sizeof(head), 0) != (ssize_t)sizeof(head))
		goto out;
	if (!memcmp(head, KDUMP_SIGNATURE, KDUMP_SIGNATURE_LEN)) {
		at = offsetof(struct kdump_disk_header, status);
		if (pread(fd, &value, sizeof(value), (off_t)at) != (ssize_t)sizeof(value))
			goto out;
		value = htole32(le32toh(value) | DUMP_DH_COMPRESSED_INCOMPLETE);
	} else if (!memcmp(head, ELFMAG, SELFMAG) && head[EI_CLASS] == ELFCLASS64) {
		at = offsetof(Elf64_Ehdr, e_flags);
		memcpy(&value, head + at, sizeof(value));
		value = htole32(le32toh(value) | DUMP_ELF_INCOMPLETE);
	} else {
		goto out;
	}
	if (pwrite(fd, &value, sizeof(value), (off_t)at) == (ssize_t)sizeof(value))
		fsync(fd);
out:
	close(fd);
}

struct mdf_error *flat_reassemble(int in_fd, const char *in_name, const char *out_path, bool force,
				  uint64_t size_limit)
{
	struct reassembly r = { .in_fd = in_fd, .in_name = in_name, .size_limit = size_limit };
	struct mdf_error *err;

	if (!out_path || !strcmp(out_path, "-"))
		return mdf_error(-EINVAL, "reassembling %s needs an output file: records are "
				 "written at their offsets", in_name);
	r.buf = malloc(COPY_CHUNK);
	if (!r.buf)
		return mdf_error(-ENOMEM, "no memory to reassemble %s", in_name);
	/* The header first: no output file for what is not a flattened dump. */
	err = read_stream(&r, r.buf, FLAT_HEADER_SIZE, "the flattened header", NULL);
	if (err)
		goto out;
	err = check_stream_header(&r, r.buf);
	if (err)
		goto out;
	err = outfile_open(&r.out, out_path, force);
	if (err)
		goto out;
	r.created = true;
	err = copy_records(&r);
	if (err && r.records) {
		mark_incomplete(&r);
		mdf_error_drop(outfile_close(&r.out));
		r.created = false;
	}
	if (err)
		goto out;
	r.created = false;
	err = outfile_finish(&r.out);
out:
	if (r.created)
		outfile_abort(&r.out);
	free(r.buf);
	return err;
}

static struct mdf_error *write_stream(struct flat_writer *w, const void *buf, size_t len,
				      const char *what)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(w->fd, (const char *)buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int err = n < 0 ? errno : EIO;

			if (err == EPIPE)
				return mdf_error(-err, "%s: the reader of the flattened stream went "
						 "away at byte %" PRIu64 " (writing %s)", w->name,
						 w->written, what);
			return mdf_error(-err, "%s: cannot write %s at byte %" PRIu64
					 " of the flattened stream: %s", w->name, what, w->written,
					 strerror(err));
		}
		done += (size_t)n;
		w->written += (uint64_t)n;
	}
	return NULL;
}

struct mdf_error *flat_writer_start(struct flat_writer *w, int fd, const char *name)
{
	struct mdf_error *err;
	unsigned char *hdr;
	uint64_t field;

	w->fd = fd;
	w->name = name;
	w->written = 0;
	hdr = calloc(1, FLAT_HEADER_SIZE);
	if (!hdr)
		return mdf_error(-ENOMEM, "%s: no memory for the flattened header", name);
	memcpy(hdr, FLAT_SIGNATURE, strlen(FLAT_SIGNATURE));
	/* Big-endian whatever the host, so any machine can reassemble it. */
	field = htobe64(FLAT_TYPE);
	memcpy(hdr + FLAT_SIGNATURE_FIELD, &field, sizeof(field));
	field = htobe64(FLAT_VERSION);
	memcpy(hdr + FLAT_SIGNATURE_FIELD + sizeof(field), &field, sizeof(field));
	err = write_stream(w, hdr, FLAT_HEADER_SIZE, "the flattened header");
	free(hdr);
	return err;
}

struct mdf_error *flat_writer_write(struct flat_writer *w, uint64_t offset, const void *buf,
				    size_t len)
{
	struct mdf_error *err;
	uint64_t rec[2];

	/* A record of size 0 reads as the end of the stream to makedumpfile -R. */
	if (len == 0)
		return NULL;
	if (offset > (uint64_t)INT64_MAX || len > (uint64_t)INT64_MAX - offset)
		return mdf_error(-EINVAL, "%s: 0x%zx bytes at offset 0x%" PRIx64 " do not fit a "
				 "flattened record", w->name, len, offset);
	rec[0] = htobe64(offset);
	rec[1] = htobe64((uint64_t)len);
	err = write_stream(w, rec, sizeof(rec), "a record header");
	if (err)
		return err;
	return write_stream(w, buf, len, "record data");
}

struct mdf_error *flat_writer_finish(struct flat_writer *w)
{
	uint64_t rec[2] = { htobe64((uint64_t)FLAT_END_MARK), htobe64((uint64_t)FLAT_END_MARK) };

	return write_stream(w, rec, sizeof(rec), "the end record");
}
