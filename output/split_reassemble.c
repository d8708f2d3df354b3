// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --reassemble: split parts back into one dump.
 *
 * Every part of a split dump (kdump_writer.h: split) has the same disk
 * header, sub header, notes and bitmaps, room for the descriptors of all
 * the pages, and the descriptors and data of its own pfn range only:
 * descriptors from the start of the descriptor area, in pfn order, data
 * after the room for all descriptors, the shared zero page first when the
 * dump level drops zero pages.  The result is the dump one file would
 * have held, as upstream lays it out:
 *
 *   - the disk header of the parts (marked incomplete if a part is);
 *   - part 1's sub header with the split fields zeroed, its notes and
 *     VMCOREINFO, its bitmaps (whole blocks);
 *   - one descriptor per pfn of the 2nd bitmap, in pfn order, pointing at
 *     the data copied from the parts in the same order, behind the zero
 *     page; a zero page's descriptor points at the new zero page;
 *   - the parts' erase information, one after the other, after the data.
 *
 * The result is in the parts' byte order, which is their machine's
 * (kdump_format.h): their headers and descriptors are read into the
 * host's order and written back in theirs.
 *
 * Page data is written before the descriptors that point at it, so that
 * a failure never leaves a descriptor of data the file lacks.  The 2nd
 * bitmap is held in memory: max_mapnr / 8 bytes.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "input/kdump_format.h"
#include "output/dump_file.h"
#include "output/report.h"
#include "output/split_reassemble.h"
#include "scan/page_scan.h"
#include "util/error.h"
#include "util/message.h"
#include "util/vec.h"

#define STREAM_BUFFER_SIZE (4u << 20)
#define COPY_CHUNK (1u << 20)

struct part {
	const char *path;
	int fd;
	uint64_t file_size;
	/* The headers, in the host's order; the file's is @order. */
	struct kdump_disk_header dh;
	struct kdump_sub_header sh;
	enum byte_order order;
	uint64_t start_pfn;
	uint64_t end_pfn;
	bool incomplete;
};

struct reassembly {
	struct part *parts;
	unsigned int nr_parts;
	const char *out_path;
	struct dump_file file;
	bool header_written;
	bool incomplete;
	/* Taken from part 1, in host order; the result is written in @order. */
	enum byte_order order;
	uint32_t block_size;
	uint64_t max_mapnr;
	int32_t dump_level;
	uint64_t bitmap_offset;
	uint64_t bitmap_len;
	uint64_t desc_offset;
	uint8_t *bitmap2;
	uint64_t nr_dumpable;
	/* Where the zero page is in the parts and in the result: the same place. */
	uint64_t zero_offset;
	/* Queued output: data, and descriptors (host order until flushed) of data queued before them. */
	unsigned char *data;
	size_t data_len;
	uint64_t data_offset;
	struct kdump_page_desc *desc;
	size_t desc_count;
	uint64_t desc_next;
	unsigned char *page;
	uint64_t pages_done;
	uint64_t pages_missing;
	struct progress progress;
};

static struct mdf_error *read_part(const struct part *p, void *buf, size_t len, uint64_t offset,
				   const char *what)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(p->fd, (char *)buf + done, len - done, (off_t)(offset + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;

			return mdf_error(-err, "%s: cannot read %s at offset 0x%" PRIx64 ": %s",
					 p->path, what, offset + done, strerror(err));
		}
		if (n == 0)
			return mdf_error(-MDF_ECORRUPT, "%s: the file ends at 0x%" PRIx64 ", inside "
					 "%s (0x%zx bytes at 0x%" PRIx64 "): truncated?", p->path,
					 offset + done, what, len, offset);
		done += (size_t)n;
	}
	return NULL;
}

/* Opens a part and reads its headers; the split fields say which pfns it holds. */
static struct mdf_error *open_part(struct part *p)
{
	struct mdf_error *err;
	struct stat st;
	int32_t version;

	p->fd = open(p->path, O_RDONLY | O_CLOEXEC);
	if (p->fd < 0) {
		int code = errno;

		return mdf_error(-code, "%s: cannot open: %s", p->path, strerror(code));
	}
	if (fstat(p->fd, &st) == 0)
		p->file_size = (uint64_t)st.st_size;
	err = read_part(p, &p->dh, sizeof(p->dh), 0, "the disk header");
	if (err)
		return err;
	if (memcmp(p->dh.signature, KDUMP_SIGNATURE, KDUMP_SIGNATURE_LEN))
		return mdf_error(-EINVAL, "%s: not a kdump-compressed dump (no \"%s\" signature)",
				 p->path, KDUMP_SIGNATURE);
	p->order = kdump_header_order(&p->dh);
	kdump_disk_header_to_host(&p->dh, p->order);
	version = p->dh.header_version;
	if (version < 2)
		return mdf_error(-EINVAL, "%s: header version %" PRId32 " has no split fields",
				 p->path, version);
	err = read_part(p, &p->sh, sizeof(p->sh), (uint32_t)p->dh.block_size, "the sub header");
	if (err)
		return err;
	kdump_sub_header_to_host(&p->sh, p->order);
	p->start_pfn = version >= 6 ? p->sh.start_pfn_64 : p->sh.start_pfn;
	p->end_pfn = version >= 6 ? p->sh.end_pfn_64 : p->sh.end_pfn;
	p->incomplete = p->dh.status & DUMP_DH_COMPRESSED_INCOMPLETE;
	return NULL;
}

/* The bitmaps of two parts, compared a piece at a time. */
static struct mdf_error *same_bitmaps(struct reassembly *r, const struct part *a,
				      const struct part *b, bool *same)
{
	uint64_t offset = (1 + (uint64_t)(uint32_t)a->dh.sub_hdr_size) * (uint32_t)a->dh.block_size;
	uint64_t len = (uint64_t)a->dh.bitmap_blocks * (uint32_t)a->dh.block_size;
	unsigned char *other = r->data + COPY_CHUNK;

	*same = true;
	for (uint64_t done = 0; done < len && *same; done += COPY_CHUNK) {
		size_t chunk = len - done < COPY_CHUNK ? (size_t)(len - done) : COPY_CHUNK;
		struct mdf_error *err = read_part(a, r->data, chunk, offset + done, "the bitmaps");

		if (!err)
			err = read_part(b, other, chunk, offset + done, "the bitmaps");
		if (err)
			return err;
		*same = !memcmp(r->data, other, chunk);
	}
	return NULL;
}

/*
 * Parts of one dump share the disk header (but for the incomplete mark),
 * the sub header's facts and the bitmaps; upstream compares only the
 * first, and would put together parts dumped at different levels.
 */
static struct mdf_error *check_same_dump(struct reassembly *r, const struct part *a,
					 const struct part *b)
{
	struct kdump_disk_header x = a->dh, y = b->dh;
	struct mdf_error *err;
	bool same;

	x.status &= ~(uint32_t)DUMP_DH_COMPRESSED_INCOMPLETE;
	y.status &= ~(uint32_t)DUMP_DH_COMPRESSED_INCOMPLETE;
	same = a->order == b->order && !memcmp(&x, &y, sizeof(x)) && a->sh.phys_base == b->sh.phys_base &&
	       a->sh.dump_level == b->sh.dump_level && a->sh.size_note == b->sh.size_note &&
	       a->sh.max_mapnr_64 == b->sh.max_mapnr_64;
	if (same) {
		err = same_bitmaps(r, a, b, &same);
		if (err)
			return err;
	}
	if (!same)
		return mdf_error(-EINVAL, "%s: its headers or bitmaps differ from those of %s: not a "
				 "part of the same split dump", b->path, a->path);
	return NULL;
}

static int compare_parts(const void *a, const void *b)
{
	const struct part *pa = a, *pb = b;

	if (pa->start_pfn != pb->start_pfn)
		return pa->start_pfn < pb->start_pfn ? -1 : 1;
	return 0;
}

/* Sorts the parts by pfn and checks that they cover [0, max_mapnr) exactly once. */
static struct mdf_error *check_coverage(struct reassembly *r)
{
	uint64_t end = 0;

	vec_sort(r->parts, r->nr_parts, compare_parts);
	for (unsigned int i = 0; i < r->nr_parts; i++) {
		const struct part *p = &r->parts[i];

		if (p->start_pfn != end || p->end_pfn < p->start_pfn)
			return mdf_error(-EINVAL, "%s: holds pfns 0x%" PRIx64 "-0x%" PRIx64 ", but the "
					 "parts before it end at 0x%" PRIx64 ": no part holds pfns "
					 "0x%" PRIx64 "-0x%" PRIx64 ", or two hold them", p->path,
					 p->start_pfn, p->end_pfn, end, end, p->start_pfn);
		end = p->end_pfn;
	}
	if (end != r->max_mapnr)
		return mdf_error(-EINVAL, "the parts end at pfn 0x%" PRIx64 " but the dump has 0x%"
				 PRIx64 " pfns: a part is missing", end, r->max_mapnr);
	return NULL;
}

static struct mdf_error *open_parts(struct reassembly *r)
{
	const struct part *first;
	struct mdf_error *err;
	int32_t version;

	for (unsigned int i = 0; i < r->nr_parts; i++) {
		err = open_part(&r->parts[i]);
		if (!err && i)
			err = check_same_dump(r, &r->parts[0], &r->parts[i]);
		if (err)
			return err;
		r->incomplete |= r->parts[i].incomplete;
	}
	first = &r->parts[0];
	version = first->dh.header_version;
	r->order = first->order;
	r->block_size = (uint32_t)first->dh.block_size;
	r->max_mapnr = version >= 6 ? first->sh.max_mapnr_64 : first->dh.max_mapnr;
	if (r->block_size < 1024 || r->block_size > (1u << 20) ||
	    (r->block_size & (r->block_size - 1)) || r->max_mapnr == 0 ||
	    r->max_mapnr > (uint64_t)first->dh.bitmap_blocks / 2 * r->block_size * 8)
		return mdf_error(-MDF_ECORRUPT, "%s: block size %" PRIu32 ", %" PRIu64 " pfns and %"
				 PRIu32 " bitmap blocks do not make a dump", first->path,
				 r->block_size, r->max_mapnr, first->dh.bitmap_blocks);
	return check_coverage(r);
}

/* Copies @len bytes at @offset of part 1 to the same place in the result. */
static struct mdf_error *copy_same(struct reassembly *r, uint64_t offset, uint64_t len,
				   const char *what)
{
	for (uint64_t done = 0; done < len;) {
		size_t chunk = len - done < COPY_CHUNK ? (size_t)(len - done) : COPY_CHUNK;
		struct mdf_error *err = read_part(&r->parts[0], r->data, chunk, offset + done, what);

		if (!err)
			err = dump_file_write(&r->file, offset + done, r->data, chunk, what);
		if (err)
			return err;
		done += chunk;
	}
	return NULL;
}

static struct mdf_error *write_disk_header(struct reassembly *r, bool incomplete)
{
	struct kdump_disk_header dh = r->parts[0].dh;
	struct mdf_error *err;

	dh.status &= ~(uint32_t)DUMP_DH_COMPRESSED_INCOMPLETE;
	if (incomplete)
		dh.status |= DUMP_DH_COMPRESSED_INCOMPLETE;
	kdump_disk_header_to_dump(&dh, r->order);
	if (r->header_written)
		return dump_file_rewrite(&r->file, 0, &dh, sizeof(dh), "the disk header");
	err = dump_file_write(&r->file, 0, &dh, sizeof(dh), "the disk header");
	r->header_written = !err;
	return err;
}

static struct mdf_error *write_sub_header(struct reassembly *r, uint64_t eraseinfo_offset,
					  uint64_t eraseinfo_size)
{
	struct kdump_sub_header sh = r->parts[0].sh;

	sh.split = 0;
	sh.start_pfn = 0;
	sh.end_pfn = 0;
	sh.start_pfn_64 = 0;
	sh.end_pfn_64 = 0;
	if (eraseinfo_size) {
		sh.offset_eraseinfo = eraseinfo_offset;
		sh.size_eraseinfo = eraseinfo_size;
	}
	kdump_sub_header_to_dump(&sh, r->order);
	return dump_file_write(&r->file, r->block_size, &sh, sizeof(sh), "the sub header");
}

/* Headers, notes and bitmaps, from part 1; the 2nd bitmap is kept. */
static struct mdf_error *write_headers(struct reassembly *r)
{
	const struct part *first = &r->parts[0];
	uint64_t sub_hdr_blocks = (uint64_t)(uint32_t)first->dh.sub_hdr_size;
	uint64_t note_size = first->sh.size_note;
	uint64_t info_size = first->sh.size_vmcoreinfo;
	struct mdf_error *err;

	r->dump_level = first->sh.dump_level;
	r->bitmap_offset = (1 + sub_hdr_blocks) * r->block_size;
	r->bitmap_len = (uint64_t)first->dh.bitmap_blocks * r->block_size;
	r->desc_offset = r->bitmap_offset + r->bitmap_len;
	r->bitmap2 = malloc((size_t)((r->max_mapnr + 7) / 8));
	if (!r->bitmap2)
		return mdf_error(-ENOMEM, "no memory for the 2nd bitmap of %" PRIu64 " pfns",
				 r->max_mapnr);
	err = write_disk_header(r, true);
	if (!err)
		err = write_sub_header(r, 0, 0);
	if (!err && note_size)
		err = copy_same(r, first->sh.offset_note, note_size, "the ELF notes");
	if (!err && info_size)
		err = copy_same(r, first->sh.offset_vmcoreinfo, info_size, "VMCOREINFO");
	if (!err)
		err = copy_same(r, r->bitmap_offset, r->bitmap_len, "the bitmaps");
	if (!err)
		err = read_part(first, r->bitmap2, (size_t)((r->max_mapnr + 7) / 8),
				r->bitmap_offset + r->bitmap_len / 2, "the 2nd bitmap");
	if (err)
		return err;
	for (uint64_t i = 0; i < (r->max_mapnr + 7) / 8; i++)
		r->nr_dumpable += (uint64_t)__builtin_popcount(r->bitmap2[i]);
	/* Bits past max_mapnr in the last byte belong to no page. */
	if (r->max_mapnr % 8)
		r->nr_dumpable -= (uint64_t)__builtin_popcount(
			r->bitmap2[r->max_mapnr / 8] >> (r->max_mapnr % 8));
	return NULL;
}

/* The first @count queued descriptors, in the host's order, into the file's. */
static void descs_to_dump(struct reassembly *r, size_t count)
{
	for (size_t i = 0; i < count; i++)
		kdump_page_desc_to_dump(&r->desc[i], r->order);
}

/* Writes the queued data, then the descriptors that point into it. */
static struct mdf_error *flush(struct reassembly *r)
{
	size_t desc_bytes = r->desc_count * sizeof(*r->desc);
	struct mdf_error *err;

	snprintf(r->file.where, sizeof(r->file.where), ", at page %" PRIu64 " of %" PRIu64,
		 r->pages_done, r->nr_dumpable);
	err = dump_file_write(&r->file, r->data_offset, r->data, r->data_len, "the page data");
	if (err) {
		uint64_t data_end = r->data_offset + r->file.failed_done;
		size_t valid = 0;

		/* The descriptors of data that did make it are worth writing; once. */
		while (valid < r->desc_count &&
		       (uint64_t)r->desc[valid].offset + r->desc[valid].size <= data_end)
			valid++;
		descs_to_dump(r, valid);
		mdf_error_drop(dump_file_write(&r->file, r->desc_next, r->desc,
					       valid * sizeof(*r->desc), "the page descriptors"));
		return err;
	}
	descs_to_dump(r, r->desc_count);
	err = dump_file_write(&r->file, r->desc_next, r->desc, desc_bytes, "the page descriptors");
	r->data_offset += r->data_len;
	r->data_len = 0;
	r->desc_next += desc_bytes;
	r->desc_count = 0;
	return err;
}

static struct mdf_error *queue(struct reassembly *r, const struct kdump_page_desc *pd,
				const void *data)
{
	uint32_t size = data ? pd->size : 0;
	struct mdf_error *err = NULL;

	if (r->desc_count == STREAM_BUFFER_SIZE / sizeof(*r->desc) ||
	    r->data_len + size > STREAM_BUFFER_SIZE)
		err = flush(r);
	if (err)
		return err;
	r->desc[r->desc_count] = *pd;
	if (data) {
		r->desc[r->desc_count].offset = (int64_t)(r->data_offset + r->data_len);
		memcpy(r->data + r->data_len, data, size);
		r->data_len += size;
	}
	r->desc_count++;
	r->pages_done++;
	return NULL;
}

/*
 * One page of part @p whose descriptor is at @pos.  A page an incomplete
 * part lacks gets a zero descriptor, which readers of an incomplete dump
 * take for an excluded page.
 */
static struct mdf_error *copy_page(struct reassembly *r, const struct part *p, uint64_t pfn,
				   uint64_t pos)
{
	static const struct kdump_page_desc missing;
	struct kdump_page_desc pd;
	struct mdf_error *err;
	uint64_t offset;
	uint32_t size;

	err = read_part(p, &pd, sizeof(pd), pos, "a page descriptor");
	if (err)
		return err;
	kdump_page_desc_to_host(&pd, p->order);
	offset = (uint64_t)pd.offset;
	size = pd.size;
	if ((r->dump_level & DL_EXCLUDE_ZERO) && offset == r->zero_offset)
		return queue(r, &pd, NULL);
	if (size == 0 || size > r->block_size || offset > p->file_size ||
	    size > p->file_size - offset) {
		if (p->incomplete) {
			r->pages_missing++;
			return queue(r, &missing, NULL);
		}
		return mdf_error(-MDF_ECORRUPT, "%s: the descriptor of pfn 0x%" PRIx64 " at offset "
				 "0x%" PRIx64 " says %" PRIu32 " bytes at 0x%" PRIx64 ", which the "
				 "file (size %" PRIu64 ") does not hold", p->path, pfn, pos, size,
				 offset, p->file_size);
	}
	err = read_part(p, r->page, size, offset, "page data");
	return err ? err : queue(r, &pd, r->page);
}

static struct mdf_error *copy_pages(struct reassembly *r)
{
	struct mdf_error *err = NULL;

	r->zero_offset = r->desc_offset + r->nr_dumpable * sizeof(struct kdump_page_desc);
	r->data_offset = r->zero_offset;
	r->desc_next = r->desc_offset;
	if (r->dump_level & DL_EXCLUDE_ZERO) {
		/* Every part stores the zero page first: so does the result. */
		memset(r->data, 0, r->block_size);
		r->data_len = r->block_size;
	}
	progress_start(&r->progress, PROGRESS_COPY, r->nr_dumpable);
	for (unsigned int i = 0; i < r->nr_parts && !err; i++) {
		const struct part *p = &r->parts[i];
		uint64_t pos = r->desc_offset;

		for (uint64_t pfn = p->start_pfn; pfn < p->end_pfn && !err; pfn++) {
			if (!(r->bitmap2[pfn / 8] >> (pfn % 8) & 1))
				continue;
			progress_update(&r->progress, r->pages_done, r->nr_dumpable);
			err = copy_page(r, p, pfn, pos);
			pos += sizeof(struct kdump_page_desc);
		}
	}
	if (!err)
		err = flush(r);
	if (!err)
		progress_done(&r->progress);
	return err;
}

/* The parts' erase information, one after the other, after the data. */
static struct mdf_error *copy_eraseinfo(struct reassembly *r)
{
	uint64_t start = r->data_offset, offset = start;
	struct mdf_error *err = NULL;

	for (unsigned int i = 0; i < r->nr_parts && !err; i++) {
		const struct part *p = &r->parts[i];
		uint64_t size = p->sh.size_eraseinfo;
		uint64_t from = p->sh.offset_eraseinfo;

		for (uint64_t done = 0; done < size && !err; done += COPY_CHUNK) {
			size_t chunk = size - done < COPY_CHUNK ? (size_t)(size - done) : COPY_CHUNK;

			err = read_part(p, r->data, chunk, from + done, "the erase information");
			if (!err)
				err = dump_file_write(&r->file, offset, r->data, chunk,
						      "the erase information");
			offset += chunk;
		}
	}
	if (!err && offset > start)
		err = write_sub_header(r, start, offset - start);
	return err;
}

static struct mdf_error *finish(struct reassembly *r)
{
	struct mdf_error *err = dump_file_sync(&r->file);

	if (!err)
		err = write_disk_header(r, r->incomplete);
	if (!err)
		err = dump_file_finish(&r->file);
	return err;
}

/* As kdump_write(): a result that failed to be written is kept, marked. */
static void abandon(struct reassembly *r)
{
	bool keep = r->file.error && r->header_written && dump_file_is_regular(&r->file);

	/* The file's failures here were told (or wait in its fate): only success counts. */
	if (keep && !r->file.is_open)
		keep = !mdf_error_drop(dump_file_reopen(&r->file));
	if (keep)
		keep = !mdf_error_drop(write_disk_header(r, true));
	if (!keep) {
		dump_file_discard(&r->file);
		return;
	}
	dump_file_keep(&r->file);
	dump_file_warn_later(&r->file, "%s: kept incomplete, %" PRIu64 " of %" PRIu64 " pages "
			     "copied: its header says so (DUMP_DH_COMPRESSED_INCOMPLETE)",
			     r->out_path, r->pages_done, r->nr_dumpable);
}

struct mdf_error *reassemble_dumpfiles(const char *const *paths, unsigned int nr_parts,
				       const char *out_path, bool force, uint64_t size_limit,
				       struct dump_file_fate *fate)
{
	struct reassembly r = { .nr_parts = nr_parts, .out_path = out_path };
	struct mdf_error *err;

	r.parts = calloc(nr_parts, sizeof(*r.parts));
	r.data = malloc(STREAM_BUFFER_SIZE);
	r.desc = malloc(STREAM_BUFFER_SIZE);
	r.page = malloc(1u << 20);
	if (!r.parts || !r.data || !r.desc || !r.page) {
		err = mdf_error(-ENOMEM, "no memory to reassemble %u dump files", nr_parts);
		goto out;
	}
	for (unsigned int i = 0; i < nr_parts; i++) {
		r.parts[i].path = paths[i];
		r.parts[i].fd = -1;
	}
	err = open_parts(&r);
	if (err)
		goto out;
	err = dump_file_open(&r.file, out_path, force, false);
	dump_file_limit(&r.file, size_limit);
	r.file.progress = &r.progress;
	if (!err)
		err = write_headers(&r);
	if (!err)
		err = copy_pages(&r);
	if (!err)
		err = copy_eraseinfo(&r);
	if (!err)
		err = finish(&r);
	if (err)
		abandon(&r);
	else if (r.pages_missing)
		msg_warn("%s: incomplete like its parts: %" PRIu64 " pages missing", out_path,
			 r.pages_missing);
out:
	*fate = r.file.fate;
	for (unsigned int i = 0; r.parts && i < nr_parts; i++)
		if (r.parts[i].fd >= 0)
			close(r.parts[i].fd);
	free(r.parts);
	free(r.data);
	free(r.desc);
	free(r.page);
	free(r.bitmap2);
	return err;
}
