// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kdump-compressed writer.  The file it writes is what upstream
 * makedumpfile 1.7.2 writes for the same pages, down to the byte:
 *
 *   offset 0                the disk header (464 bytes; the rest of the
 *                           block is a hole)
 *   block_size              the sub header (104 bytes), then the input's
 *                           ELF notes; sub_hdr_size blocks in all
 *   (1 + sub_hdr_size) blks the 1st bitmap, then the 2nd, each rounded up
 *                           to whole blocks; only their first
 *                           ceil(max_pfn / 8) bytes are written
 *   after the bitmaps       one page descriptor per pfn of the 2nd bitmap
 *   after the descriptors   page data: first the one shared zero page when
 *                           the dump level drops zero pages, then each
 *                           page, compressed or raw, in pfn order
 *
 * Zero pages stay in the 2nd bitmap: their descriptors all point at the
 * shared zero page, as upstream's do.
 *
 * Page data can only start once the number of descriptors is known, and
 * the bitmaps must not be held whole, so a dump of many cycles is
 * classified twice: the first pass writes the bitmaps and counts the pages,
 * the second writes descriptors and data.  The second pass must see the
 * same pages as the first; a hash of each cycle's 2nd bitmap proves it.
 *
 * Descriptors and data are two output streams, each buffered and flushed
 * in large writes, descriptors first, so that whatever reaches the disk
 * before a failure has its descriptors.  The disk header is written first
 * from the writer's state, and can be rewritten with a different status.
 */
#include <endian.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flat.h"
#include "kdump_writer.h"
#include "message.h"
#include "outfile.h"
#include "report.h"

/* Each of the two output streams is written in pieces of this size. */
#define STREAM_BUFFER_SIZE (4u << 20)

#define NOTE_NAME_CORE "CORE"
#define NOTE_NAME_VMCOREINFO "VMCOREINFO"
#define NT_PRSTATUS 1

struct out_stream {
	const char *what;
	unsigned char *buf;
	size_t len;
	/* Where buf[0] goes in the dump file. */
	uint64_t offset;
};

struct kdump_writer {
	const struct kdump_writer_params *p;
	const struct kdump_page_source *src;
	struct outfile out;
	bool out_open;
	struct flat_writer flat;
	/* Bytes written so far, counted as kdump_write_result says. */
	uint64_t written;

	/* The disk header's status: the codec's flag. */
	uint32_t status;
	int32_t sub_hdr_blocks;
	uint32_t bitmap_blocks;
	uint64_t bitmap1_offset;
	uint64_t bitmap2_offset;
	uint64_t desc_offset;
	/* Where the VMCOREINFO text lies in the notes; size 0 if it does not. */
	size_t vmcoreinfo_offset;
	size_t vmcoreinfo_size;

	uint64_t nr_cycles;
	uint8_t *present;
	uint8_t *dumpable;
	/* For two passes: a hash of each cycle's 2nd bitmap in the first. */
	uint64_t *cycle_hash;

	uint64_t pfn_present;
	uint64_t pfn_dumpable;
	/* Set once pages are being copied. */
	bool copying;
	/* Pages whose descriptor has been queued, for messages and progress. */
	uint64_t pages_done;
	struct out_stream desc;
	struct out_stream data;
	/* The descriptor of every zero page, in file byte order. */
	struct kdump_page_desc zero_desc;
	struct codec_compressor *comp;
	unsigned char *page;
	unsigned char *packed;
	struct progress progress;
};

static uint64_t div_round_up(uint64_t n, uint64_t d)
{
	return n / d + (n % d != 0);
}

static size_t note_align(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/*
 * Walks the ELF notes as upstream's get_pt_note_info() does: counts the
 * crashed CPUs' NT_PRSTATUS notes, returned, and finds the last VMCOREINFO
 * note.  A note that runs past the end stops the walk, as it stops any
 * reader.
 */
static int32_t scan_notes(const unsigned char *notes, size_t size, size_t *vmcoreinfo_offset,
			  size_t *vmcoreinfo_size)
{
	int32_t nr_cpus = 0;
	size_t pos = 0;

	*vmcoreinfo_offset = 0;
	*vmcoreinfo_size = 0;
	while (size - pos >= 3 * sizeof(uint32_t)) {
		uint32_t hdr[3];
		size_t name, desc, next;

		memcpy(hdr, notes + pos, sizeof(hdr));
		name = pos + sizeof(hdr);
		desc = name + note_align(le32toh(hdr[0]));
		next = desc + note_align(le32toh(hdr[1]));
		if (desc > size || next > size)
			break;
		if (le32toh(hdr[0]) == sizeof(NOTE_NAME_CORE) &&
		    !memcmp(notes + name, NOTE_NAME_CORE, sizeof(NOTE_NAME_CORE)) &&
		    le32toh(hdr[2]) == NT_PRSTATUS)
			nr_cpus++;
		else if (le32toh(hdr[0]) == sizeof(NOTE_NAME_VMCOREINFO) &&
			 !memcmp(notes + name, NOTE_NAME_VMCOREINFO, sizeof(NOTE_NAME_VMCOREINFO)) &&
			 le32toh(hdr[2]) == 0) {
			*vmcoreinfo_offset = desc;
			*vmcoreinfo_size = le32toh(hdr[1]);
		}
		pos = next;
	}
	return nr_cpus;
}

int32_t kdump_count_cpus(const void *notes, size_t notes_size)
{
	size_t offset, size;

	return scan_notes(notes, notes_size, &offset, &size);
}

/*
 * Writes @len bytes at @offset of the dump file, or as a record of the
 * flattened stream.  A failure is reported here, with how far the dump got.
 */
static int write_at(struct kdump_writer *w, uint64_t offset, const void *buf, size_t len,
		    const char *what)
{
	size_t done = 0;
	int err;

	if (w->p->flatten) {
		/* The flattened writer names the stream and its position itself. */
		err = flat_writer_write(&w->flat, offset, buf, len);
		w->written = w->flat.written;
		return err;
	}
	while (done < len) {
		ssize_t n = pwrite(w->out.fd, (const char *)buf + done, len - done,
				   (off_t)(offset + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			char pages[64] = "";

			err = n < 0 ? errno : EIO;
			if (w->copying)
				snprintf(pages, sizeof(pages), ", at page %" PRIu64 " of %" PRIu64,
					 w->pages_done, w->pfn_dumpable);
			progress_break(&w->progress);
			msg_error("%s: cannot write %s (0x%zx bytes at offset 0x%" PRIx64 "): %s; "
				  "stopped after %" PRIu64 " bytes%s", w->out.path, what, len - done,
				  offset + done, strerror(err), w->written, pages);
			return -err;
		}
		done += (size_t)n;
		w->written += (uint64_t)n;
	}
	return 0;
}

static int write_disk_header(struct kdump_writer *w)
{
	const struct kdump_writer_params *p = w->p;
	struct kdump_disk_header dh;

	memset(&dh, 0, sizeof(dh));
	memcpy(dh.signature, KDUMP_SIGNATURE, KDUMP_SIGNATURE_LEN);
	dh.header_version = (int32_t)htole32(KDUMP_HEADER_VERSION);
	if (p->uts)
		dh.utsname = *p->uts;
	dh.timestamp_sec = (int64_t)htole64((uint64_t)p->timestamp_sec);
	dh.timestamp_usec = (int64_t)htole64((uint64_t)p->timestamp_usec);
	dh.status = htole32(w->status);
	dh.block_size = (int32_t)htole32(p->page_size);
	dh.sub_hdr_size = (int32_t)htole32((uint32_t)w->sub_hdr_blocks);
	dh.bitmap_blocks = htole32(w->bitmap_blocks);
	/* The 32-bit field saturates; max_mapnr_64 has the whole value. */
	dh.max_mapnr = htole32(p->max_pfn > UINT32_MAX ? UINT32_MAX : (uint32_t)p->max_pfn);
	dh.nr_cpus = (int32_t)htole32((uint32_t)p->nr_cpus);
	return write_at(w, 0, &dh, sizeof(dh), "the disk header");
}

/* The sub header and, after it, the notes it points at. */
static int write_sub_header(struct kdump_writer *w)
{
	const struct kdump_writer_params *p = w->p;
	uint64_t notes_offset = (uint64_t)p->page_size + sizeof(struct kdump_sub_header);
	struct kdump_sub_header sh;
	int err;

	memset(&sh, 0, sizeof(sh));
	sh.phys_base = htole64(p->phys_base);
	sh.dump_level = (int32_t)htole32((uint32_t)p->dump_level);
	sh.max_mapnr_64 = htole64(p->max_pfn);
	if (p->notes_size) {
		sh.offset_note = htole64(notes_offset);
		sh.size_note = htole64(p->notes_size);
		if (w->vmcoreinfo_size) {
			sh.offset_vmcoreinfo = htole64(notes_offset + w->vmcoreinfo_offset);
			sh.size_vmcoreinfo = htole64(w->vmcoreinfo_size);
		}
	}
	err = write_at(w, p->page_size, &sh, sizeof(sh), "the sub header");
	if (!err && p->notes_size)
		err = write_at(w, notes_offset, p->notes, p->notes_size, "the ELF notes");
	return err;
}

/* Checks the parameters and places every part of the file. */
static int plan_layout(struct kdump_writer *w)
{
	const struct kdump_writer_params *p = w->p;
	const char *path = w->out.path;
	uint64_t block = p->page_size, sub_hdr_blocks, bitmap_blocks, bitmap_bytes;

	if (block < 1024 || block > (1u << 20) || (block & (block - 1))) {
		msg_error("%s: page size %" PRIu64 " is not a power of two from 1 KiB to 1 MiB",
			  path, block);
		return -EINVAL;
	}
	if (p->cycle_pfns == 0 || p->cycle_pfns % 8) {
		msg_error("%s: %" PRIu64 " pfns per cycle: not a positive multiple of 8", path,
			  p->cycle_pfns);
		return -EINVAL;
	}
	/* Beyond 2^52 pfns the offsets of the data would overflow. */
	if (p->max_pfn == 0 || p->max_pfn > UINT64_MAX / block / 2) {
		msg_error("%s: %" PRIu64 " pfns: no dump of that size can be written", path,
			  p->max_pfn);
		return -EINVAL;
	}
	sub_hdr_blocks = div_round_up(sizeof(struct kdump_sub_header) + (uint64_t)p->notes_size,
				      block);
	/* Each bitmap starts on a block, as crash needs. */
	bitmap_bytes = div_round_up(p->max_pfn, 8);
	bitmap_blocks = 2 * div_round_up(bitmap_bytes, block);
	if (sub_hdr_blocks > INT32_MAX || bitmap_blocks > UINT32_MAX) {
		msg_error("%s: %zu bytes of ELF notes and %" PRIu64 " pfns do not fit the disk "
			  "header's 32-bit block counts", path, p->notes_size, p->max_pfn);
		return -EINVAL;
	}
	w->sub_hdr_blocks = (int32_t)sub_hdr_blocks;
	w->bitmap_blocks = (uint32_t)bitmap_blocks;
	w->bitmap1_offset = (1 + sub_hdr_blocks) * block;
	w->bitmap2_offset = w->bitmap1_offset + bitmap_blocks / 2 * block;
	w->desc_offset = w->bitmap1_offset + bitmap_blocks * block;
	w->status = codec_to_flag(p->codec);
	/* The header takes its CPU count from the caller, who may know better. */
	scan_notes(p->notes, p->notes_size, &w->vmcoreinfo_offset, &w->vmcoreinfo_size);
	w->nr_cycles = div_round_up(p->max_pfn, p->cycle_pfns);
	return 0;
}

static int allocate_buffers(struct kdump_writer *w)
{
	const struct kdump_writer_params *p = w->p;
	uint64_t cycle = p->cycle_pfns < p->max_pfn ? p->cycle_pfns : p->max_pfn;
	size_t bitmap = (size_t)div_round_up(cycle, 8);
	int err;

	w->present = malloc(bitmap);
	w->dumpable = malloc(bitmap);
	w->desc.buf = malloc(STREAM_BUFFER_SIZE);
	w->data.buf = malloc(STREAM_BUFFER_SIZE);
	w->page = malloc(p->page_size);
	w->packed = malloc(p->page_size);
	if (w->nr_cycles > 1)
		w->cycle_hash = calloc(w->nr_cycles, sizeof(*w->cycle_hash));
	if (!w->present || !w->dumpable || !w->desc.buf || !w->data.buf || !w->page ||
	    !w->packed || (w->nr_cycles > 1 && !w->cycle_hash)) {
		msg_error("%s: no memory for the writer's buffers (bitmaps of %zu bytes per cycle)",
			  w->out.path, bitmap);
		return -ENOMEM;
	}
	err = codec_compressor_new(p->codec, p->page_size, &w->comp);
	if (err)
		msg_error("%s: cannot set up %s compression: %s", w->out.path,
			  codec_name(p->codec), mdf_strerror(err));
	return err;
}

/* One past the last pfn of cycle @i. */
static uint64_t cycle_end(const struct kdump_writer *w, uint64_t i)
{
	uint64_t start = i * w->p->cycle_pfns;

	return w->p->max_pfn - start < w->p->cycle_pfns ? w->p->max_pfn : start + w->p->cycle_pfns;
}

static uint64_t fnv1a64(const uint8_t *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

static uint64_t count_bits(const uint8_t *bitmap, size_t len)
{
	uint64_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += (uint64_t)__builtin_popcount(bitmap[i]);
	return n;
}

/*
 * Classifies cycle @i into the writer's bitmaps; returns their length in
 * bytes through @len.  Bits past the last pfn are cleared whatever the
 * callback left there, so that the bitmaps never claim pages past max_pfn.
 */
static int classify_cycle(struct kdump_writer *w, uint64_t i, struct page_counts *counts,
			  size_t *len)
{
	uint64_t start = i * w->p->cycle_pfns, end = cycle_end(w, i);
	unsigned int tail = (unsigned int)((end - start) % 8);
	int err;

	*len = (size_t)div_round_up(end - start, 8);
	memset(w->present, 0, *len);
	memset(w->dumpable, 0, *len);
	err = w->src->classify(w->src->ctx, start, end, w->present, w->dumpable, counts);
	if (err)
		return err;
	if (tail) {
		w->present[*len - 1] &= (uint8_t)((1u << tail) - 1);
		w->dumpable[*len - 1] &= (uint8_t)((1u << tail) - 1);
	}
	return 0;
}

/*
 * The first pass: both bitmaps, a cycle at a time, and the page counts
 * that place the page data.  With one cycle, its counts are the run's and
 * its bitmaps stay for the copy.
 */
static int write_bitmaps(struct kdump_writer *w, struct page_counts *counts)
{
	struct page_counts first_pass = { 0 };
	bool single = w->nr_cycles == 1;

	for (uint64_t i = 0; i < w->nr_cycles; i++) {
		uint64_t byte = i * w->p->cycle_pfns / 8;
		size_t len;
		int err;

		err = classify_cycle(w, i, single ? counts : &first_pass, &len);
		if (!err)
			err = write_at(w, w->bitmap1_offset + byte, w->present, len,
				       "the 1st bitmap");
		if (!err)
			err = write_at(w, w->bitmap2_offset + byte, w->dumpable, len,
				       "the 2nd bitmap");
		if (err)
			return err;
		w->pfn_present += count_bits(w->present, len);
		w->pfn_dumpable += count_bits(w->dumpable, len);
		if (!single)
			w->cycle_hash[i] = fnv1a64(w->dumpable, len);
	}
	if (w->pfn_dumpable == 0) {
		msg_error("%s: no page is left to dump at dump level %d", w->out.path,
			  w->p->dump_level);
		return -EINVAL;
	}
	return 0;
}

static int write_stream(struct kdump_writer *w, struct out_stream *s)
{
	int err = write_at(w, s->offset, s->buf, s->len, s->what);

	s->offset += s->len;
	s->len = 0;
	return err;
}

/* Descriptors first: data on the disk is never without its descriptor. */
static int flush_streams(struct kdump_writer *w)
{
	int err = write_stream(w, &w->desc);

	return err ? err : write_stream(w, &w->data);
}

/*
 * Queues one page: @size bytes of @data stored with @flags, or, with no
 * @data, a descriptor of the shared zero page.
 */
static int add_page(struct kdump_writer *w, const void *data, uint32_t size, uint32_t flags)
{
	struct kdump_page_desc pd = w->zero_desc;

	if (w->desc.len + sizeof(pd) > STREAM_BUFFER_SIZE ||
	    (data && w->data.len + size > STREAM_BUFFER_SIZE)) {
		int err = flush_streams(w);

		if (err)
			return err;
	}
	if (data) {
		pd.offset = (int64_t)htole64(w->data.offset + w->data.len);
		pd.size = htole32(size);
		pd.flags = htole32(flags);
		pd.page_flags = 0;
		memcpy(w->data.buf + w->data.len, data, size);
		w->data.len += size;
	}
	memcpy(w->desc.buf + w->desc.len, &pd, sizeof(pd));
	w->desc.len += sizeof(pd);
	w->pages_done++;
	return 0;
}

static bool is_zero_page(const unsigned char *page, size_t size)
{
	uint64_t acc = 0;

	/* Page sizes are multiples of 8: or whole words together. */
	for (size_t i = 0; i < size; i += sizeof(uint64_t)) {
		uint64_t word;

		memcpy(&word, page + i, sizeof(word));
		acc |= word;
	}
	return acc == 0;
}

static int copy_page(struct kdump_writer *w, uint64_t pfn, struct page_counts *counts)
{
	const struct kdump_writer_params *p = w->p;
	size_t len;
	int err;

	err = w->src->read_page(w->src->ctx, pfn, w->page);
	if (err == -MDF_EEXCLUDED || err == -MDF_ENOTDUMPED) {
		progress_break(&w->progress);
		msg_error("%s: pfn 0x%" PRIx64 " is to be dumped but the input %s", w->out.path,
			  pfn, err == -MDF_EEXCLUDED ? "excluded it" : "does not hold it");
	}
	if (err)
		return err;
	if ((p->dump_level & DL_EXCLUDE_ZERO) && is_zero_page(w->page, p->page_size)) {
		counts->zero++;
		return add_page(w, NULL, 0, 0);
	}
	/* Compressed only when that makes the page smaller, as upstream. */
	err = codec_compress(w->comp, w->page, w->packed, p->page_size - 1, &len);
	if (err == -E2BIG)
		return add_page(w, w->page, p->page_size, 0);
	if (err) {
		progress_break(&w->progress);
		msg_error("%s: %s compression of pfn 0x%" PRIx64 " failed: %s", w->out.path,
			  codec_name(p->codec), pfn, mdf_strerror(err));
		return err;
	}
	return add_page(w, w->packed, (uint32_t)len, codec_to_flag(p->codec));
}

/* Copies the pages set in the 2nd bitmap of the cycle starting at @first_pfn. */
static int copy_cycle(struct kdump_writer *w, uint64_t first_pfn, size_t len,
		      struct page_counts *counts)
{
	for (size_t byte = 0; byte < len; byte++) {
		unsigned int bits = w->dumpable[byte];

		while (bits) {
			uint64_t pfn = first_pfn + byte * 8 + (unsigned int)__builtin_ctz(bits);
			int err;

			bits &= bits - 1;
			progress_update(&w->progress, w->pages_done, w->pfn_dumpable);
			err = copy_page(w, pfn, counts);
			if (err)
				return err;
		}
	}
	return 0;
}

/* The second pass over cycle @i must see the pages the first one saw. */
static int reclassify_cycle(struct kdump_writer *w, uint64_t i, struct page_counts *counts)
{
	size_t len;
	int err = classify_cycle(w, i, counts, &len);

	if (!err && fnv1a64(w->dumpable, len) != w->cycle_hash[i]) {
		progress_break(&w->progress);
		msg_error("%s: the pages to dump in pfns 0x%" PRIx64 "-0x%" PRIx64 " changed "
			  "between the two passes over them; the bitmaps already written would "
			  "not match the pages", w->out.path, i * w->p->cycle_pfns,
			  cycle_end(w, i) - 1);
		err = -EAGAIN;
	}
	return err;
}

/*
 * The second pass: descriptors and page data.  With several cycles each is
 * classified again, and must come out as it did in the first pass.
 */
static int write_pages(struct kdump_writer *w, struct page_counts *counts)
{
	const struct kdump_writer_params *p = w->p;
	uint64_t data_start = w->desc_offset + w->pfn_dumpable * sizeof(struct kdump_page_desc);
	int err = 0;

	w->desc.what = "the page descriptors";
	w->desc.offset = w->desc_offset;
	w->data.what = "the page data";
	w->data.offset = data_start;
	if (p->dump_level & DL_EXCLUDE_ZERO) {
		/* Upstream stores the zero page whether or not a page uses it. */
		w->zero_desc.offset = (int64_t)htole64(data_start);
		w->zero_desc.size = htole32(p->page_size);
		memset(w->data.buf, 0, p->page_size);
		w->data.len = p->page_size;
	}
	progress_start(&w->progress, PROGRESS_COPY, w->pfn_dumpable);
	w->copying = true;
	for (uint64_t i = 0; i < w->nr_cycles && !err; i++) {
		size_t len = (size_t)div_round_up(cycle_end(w, i) - i * p->cycle_pfns, 8);

		if (w->nr_cycles > 1)
			err = reclassify_cycle(w, i, counts);
		if (!err)
			err = copy_cycle(w, i * p->cycle_pfns, len, counts);
	}
	if (!err)
		err = flush_streams(w);
	if (!err)
		progress_done(&w->progress);
	return err;
}

static int open_output(struct kdump_writer *w)
{
	const struct kdump_writer_params *p = w->p;
	int err = outfile_create(&w->out, p->path, p->force);

	if (err)
		return err;
	w->out_open = true;
	if (p->flatten)
		return flat_writer_start(&w->flat, w->out.fd, w->out.path);
	/* A kdump-compressed file is written out of order. */
	if (lseek(w->out.fd, 0, SEEK_CUR) < 0 && errno == ESPIPE) {
		msg_error("%s: cannot seek: a kdump-compressed file must be written to a regular "
			  "file; use the flattened format (-F) for a pipe", w->out.path);
		return -ESPIPE;
	}
	return 0;
}

static int finish_output(struct kdump_writer *w)
{
	if (w->p->flatten) {
		int err = flat_writer_finish(&w->flat);

		w->written = w->flat.written;
		if (err)
			return err;
	}
	/* outfile_finish() reports its own failure and removes the file. */
	w->out_open = false;
	return outfile_finish(&w->out);
}

static void free_writer(struct kdump_writer *w)
{
	if (w->out_open)
		outfile_abort(&w->out);
	codec_compressor_free(w->comp);
	free(w->present);
	free(w->dumpable);
	free(w->cycle_hash);
	free(w->desc.buf);
	free(w->data.buf);
	free(w->page);
	free(w->packed);
}

int kdump_write(const struct kdump_writer_params *p, const struct kdump_page_source *src,
		struct page_counts *counts, struct kdump_write_result *result)
{
	struct kdump_writer w = { .p = p, .src = src };
	int err;

	/* Messages before the file exists name it as it will be named. */
	w.out.path = p->path && strcmp(p->path, "-") ? p->path : "standard output";
	err = plan_layout(&w);
	if (!err)
		err = allocate_buffers(&w);
	if (!err)
		err = open_output(&w);
	if (!err)
		err = write_disk_header(&w);
	if (!err)
		err = write_sub_header(&w);
	if (!err)
		err = write_bitmaps(&w, counts);
	if (!err)
		err = write_pages(&w, counts);
	if (!err)
		err = finish_output(&w);
	if (!err) {
		result->pfn_present = w.pfn_present;
		result->pfn_dumpable = w.pfn_dumpable;
		result->bytes_written = w.written;
	}
	free_writer(&w);
	return err;
}
