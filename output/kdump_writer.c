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
 * in large writes (flush_streams() says in which order, so that a failure
 * leaves no descriptor of data the file lacks).
 *
 * In a file, the disk header is written first with
 * DUMP_DH_COMPRESSED_INCOMPLETE set, and rewritten without it once all
 * the rest is on the disk.  A flattened stream carries it once, as it
 * will stay, as upstream writes it: crash reads a saved stream in place
 * and may take any of two records for one offset, and -R marks a stream
 * cut short incomplete itself.  (Pages that turn out unreadable make the
 * dump incomplete at its end: a stream then says so in a second header,
 * which -R applies.)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codec/compress_pool.h"
#include "input/elf_notes.h"
#include "output/dump_file.h"
#include "output/kdump_writer.h"
#include "output/report.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/message.h"
#include "util/stage_times.h"

/*
 * The two output streams are written in pieces of at most these sizes:
 * large enough for few system calls, small enough that the buffers stay a
 * small part of the memory (a descriptor is 24 bytes, a page 4 KiB at most).
 */
#define DESC_BUFFER_SIZE (128u << 10)
#define DATA_BUFFER_SIZE (1u << 20)
/* The 1st bitmap is built and written in pieces of this many pfns (a multiple of 8). */
#define PRESENT_PIECE_PFNS ((uint64_t)1 << 20)

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
	const struct page_source *src;
	struct dump_file file;
	/* The name for messages, before and after the file is open. */
	const char *path;
	/* The disk header, marked incomplete, reached the file. */
	bool header_written;
	/* It was rewritten as complete: a later failure must mark it again. */
	bool header_final;
	/* Headers and bitmaps are written: pages are being copied. */
	bool copying;

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
	/* Pages of this file's pfn range in the 2nd bitmap: pfn_dumpable unless split. */
	uint64_t part_dumpable;
	/* The pfns whose pages this file holds. */
	uint64_t first_pfn;
	uint64_t end_pfn;
	/* Pages whose descriptor has been queued, for messages and progress. */
	uint64_t pages_done;
	/* Pages whose descriptor and data are in the file. */
	uint64_t pages_flushed;
	/* Pages the source could not read: their descriptors are zero. */
	uint64_t pages_unreadable;
	struct out_stream desc;
	struct out_stream data;
	/* Where the erase information went, after the page data; 0 for none. */
	uint64_t eraseinfo_offset;
	uint64_t eraseinfo_size;
	/* The descriptor of every zero page, in the file's byte order. */
	struct kdump_page_desc zero_desc;
	/* Pages are read into a batch here and compressed by the pool. */
	struct compress_pool *pool;
	struct compress_batch *filling;
	struct progress progress;
};

static uint64_t div_round_up(uint64_t n, uint64_t d)
{
	return n / d + (n % d != 0);
}

/*
 * Walks the ELF notes as upstream's get_pt_note_info() does: counts the
 * crashed CPUs' NT_PRSTATUS notes, returned, and finds the last VMCOREINFO
 * note.  A note that runs past the end stops the walk, as it stops any
 * reader.  The notes are in their own order, most likely @likely's
 * (elf_notes.h); a block that reads in both orders holds no named note,
 * so either serves it.
 */
static int32_t scan_notes(const unsigned char *notes, size_t size, enum byte_order likely,
			  size_t *vmcoreinfo_offset, size_t *vmcoreinfo_size)
{
	enum byte_order order = elf_notes_order(notes, size, likely);
	struct elf_note note;
	int32_t nr_cpus = 0;
	size_t pos = 0;

	*vmcoreinfo_offset = 0;
	*vmcoreinfo_size = 0;
	while (elf_note_next(notes, size, order, &pos, &note) == ELF_NOTE_FOUND) {
		if (note.type == NT_PRSTATUS && elf_note_named(&note, NOTE_NAME_CORE)) {
			nr_cpus++;
		} else if (note.type == 0 && elf_note_named(&note, NOTE_NAME_VMCOREINFO)) {
			*vmcoreinfo_offset = (size_t)(note.desc - notes);
			*vmcoreinfo_size = note.desc_size;
		}
	}
	return nr_cpus;
}

int32_t kdump_count_cpus(const void *notes, size_t notes_size)
{
	size_t offset, size;

	return scan_notes(notes, notes_size, BYTE_ORDER_LITTLE, &offset, &size);
}

/* Writes @len bytes at @offset; dump_file_write() words a failure. */
static struct mdf_error *write_at(struct kdump_writer *w, uint64_t offset, const void *buf,
				  size_t len, const char *what)
{
	return dump_file_write(&w->file, offset, buf, len, what);
}

/*
 * The disk header, with @status; the first write marks the dump
 * incomplete, the last says what it is.
 */
static struct mdf_error *write_disk_header(struct kdump_writer *w, uint32_t status)
{
	const struct kdump_writer_params *p = w->p;
	struct kdump_disk_header dh;
	struct mdf_error *err;

	memset(&dh, 0, sizeof(dh));
	memcpy(dh.signature, KDUMP_SIGNATURE, KDUMP_SIGNATURE_LEN);
	dh.header_version = KDUMP_HEADER_VERSION;
	if (p->uts)
		dh.utsname = *p->uts;
	dh.timestamp_sec = p->timestamp_sec;
	dh.timestamp_usec = p->timestamp_usec;
	dh.status = status;
	dh.block_size = (int32_t)p->page_size;
	dh.sub_hdr_size = w->sub_hdr_blocks;
	dh.bitmap_blocks = w->bitmap_blocks;
	/* The 32-bit field saturates; max_mapnr_64 has the whole value. */
	dh.max_mapnr = p->max_pfn > UINT32_MAX ? UINT32_MAX : (uint32_t)p->max_pfn;
	dh.nr_cpus = p->nr_cpus;
	kdump_disk_header_to_dump(&dh, p->byte_order);
	if (w->header_written)
		return dump_file_rewrite(&w->file, 0, &dh, sizeof(dh), "the disk header");
	err = write_at(w, 0, &dh, sizeof(dh), "the disk header");
	w->header_written = !err;
	return err;
}

/* The sub header and, after it, the notes it points at. */
static struct mdf_error *write_sub_header(struct kdump_writer *w)
{
	const struct kdump_writer_params *p = w->p;
	uint64_t notes_offset = (uint64_t)p->page_size + sizeof(struct kdump_sub_header);
	struct kdump_sub_header sh;
	struct mdf_error *err;

	memset(&sh, 0, sizeof(sh));
	sh.phys_base = p->phys_base;
	sh.dump_level = p->dump_level;
	sh.max_mapnr_64 = p->max_pfn;
	if (p->split) {
		/* The 32-bit fields saturate, as the disk header's max_mapnr. */
		sh.split = 1;
		sh.start_pfn = p->start_pfn > UINT32_MAX ? UINT32_MAX : p->start_pfn;
		sh.end_pfn = p->end_pfn > UINT32_MAX ? UINT32_MAX : p->end_pfn;
		sh.start_pfn_64 = p->start_pfn;
		sh.end_pfn_64 = p->end_pfn;
	}
	sh.offset_eraseinfo = w->eraseinfo_offset;
	sh.size_eraseinfo = w->eraseinfo_size;
	if (p->notes_size) {
		sh.offset_note = notes_offset;
		sh.size_note = p->notes_size;
		if (w->vmcoreinfo_size) {
			sh.offset_vmcoreinfo = notes_offset + w->vmcoreinfo_offset;
			sh.size_vmcoreinfo = w->vmcoreinfo_size;
		}
	}
	kdump_sub_header_to_dump(&sh, p->byte_order);
	err = write_at(w, p->page_size, &sh, sizeof(sh), "the sub header");
	if (!err && p->notes_size)
		err = write_at(w, notes_offset, p->notes, p->notes_size, "the ELF notes");
	return err;
}

/* Checks the parameters and places every part of the file. */
static struct mdf_error *plan_layout(struct kdump_writer *w)
{
	const struct kdump_writer_params *p = w->p;
	const char *path = w->path;
	uint64_t block = p->page_size, sub_hdr_blocks, bitmap_blocks, bitmap_bytes;

	if (block < 1024 || block > (1u << 20) || (block & (block - 1)))
		return mdf_error(-EINVAL, "%s: page size %" PRIu64 " is not a power of two from "
				 "1 KiB to 1 MiB", path, block);
	if (p->cycle_pfns == 0 || p->cycle_pfns % 8)
		return mdf_error(-EINVAL, "%s: %" PRIu64 " pfns per cycle: not a positive multiple "
				 "of 8", path, p->cycle_pfns);
	/* Beyond 2^52 pfns the offsets of the data would overflow. */
	if (p->max_pfn == 0 || p->max_pfn > UINT64_MAX / block / 2)
		return mdf_error(-EINVAL, "%s: %" PRIu64 " pfns: no dump of that size can be "
				 "written", path, p->max_pfn);
	if (p->split && (p->start_pfn > p->end_pfn || p->end_pfn > p->max_pfn))
		return mdf_error(-EINVAL, "%s: split part of pfns 0x%" PRIx64 "-0x%" PRIx64 ": not "
				 "a range within the %" PRIu64 " pfns of the dump", path,
				 p->start_pfn, p->end_pfn, p->max_pfn);
	w->first_pfn = p->split ? p->start_pfn : 0;
	w->end_pfn = p->split ? p->end_pfn : p->max_pfn;
	sub_hdr_blocks = div_round_up(sizeof(struct kdump_sub_header) + (uint64_t)p->notes_size,
				      block);
	/* Each bitmap starts on a block, as crash needs. */
	bitmap_bytes = div_round_up(p->max_pfn, 8);
	bitmap_blocks = 2 * div_round_up(bitmap_bytes, block);
	if (sub_hdr_blocks > INT32_MAX || bitmap_blocks > UINT32_MAX)
		return mdf_error(-EINVAL, "%s: %zu bytes of ELF notes and %" PRIu64 " pfns do not "
				 "fit the disk header's 32-bit block counts", path, p->notes_size,
				 p->max_pfn);
	w->sub_hdr_blocks = (int32_t)sub_hdr_blocks;
	w->bitmap_blocks = (uint32_t)bitmap_blocks;
	w->bitmap1_offset = (1 + sub_hdr_blocks) * block;
	w->bitmap2_offset = w->bitmap1_offset + bitmap_blocks / 2 * block;
	w->desc_offset = w->bitmap1_offset + bitmap_blocks * block;
	w->status = kdump_codec_flag(p->codec) | (p->excluded_vmemmap ? DUMP_DH_EXCLUDED_VMEMMAP : 0);
	/* The header takes its CPU count from the caller, who may know better. */
	scan_notes(p->notes, p->notes_size, p->byte_order, &w->vmcoreinfo_offset, &w->vmcoreinfo_size);
	w->nr_cycles = div_round_up(p->max_pfn, p->cycle_pfns);
	return NULL;
}

static struct mdf_error *allocate_buffers(struct kdump_writer *w)
{
	const struct kdump_writer_params *p = w->p;
	uint64_t cycle = p->cycle_pfns < p->max_pfn ? p->cycle_pfns : p->max_pfn;
	size_t bitmap = (size_t)div_round_up(cycle, 8);
	struct mdf_error *err;

	w->present = malloc(div_round_up(cycle < PRESENT_PIECE_PFNS ? cycle : PRESENT_PIECE_PFNS, 8));
	w->dumpable = malloc(bitmap);
	w->desc.buf = malloc(DESC_BUFFER_SIZE);
	w->data.buf = malloc(DATA_BUFFER_SIZE);
	if (w->nr_cycles > 1)
		w->cycle_hash = calloc(w->nr_cycles, sizeof(*w->cycle_hash));
	if (!w->present || !w->dumpable || !w->desc.buf || !w->data.buf ||
	    (w->nr_cycles > 1 && !w->cycle_hash))
		return mdf_error(-ENOMEM, "%s: no memory for the writer's buffers (bitmaps of %zu "
				 "bytes per cycle)", w->path, bitmap);
	err = compress_pool_new(p->codec, p->page_size, p->threads, !p->threads_asked,
				p->dump_level & DL_EXCLUDE_ZERO,
				&w->pool);
	return err ? mdf_error_wrap(err, "%s", w->path) : NULL;
}

/* One past the last pfn of cycle @i. */
static uint64_t cycle_end(const struct kdump_writer *w, uint64_t i)
{
	uint64_t start = i * w->p->cycle_pfns;

	return w->p->max_pfn - start < w->p->cycle_pfns ? w->p->max_pfn : start + w->p->cycle_pfns;
}

static uint64_t count_bits(const uint8_t *bitmap, size_t len)
{
	uint64_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += (uint64_t)__builtin_popcount(bitmap[i]);
	return n;
}

/* Bits of a cycle's @bitmap (its bit 0 is @start) for the pfns [from, to). */
static uint64_t count_bits_between(const uint8_t *bitmap, uint64_t start, uint64_t from,
				   uint64_t to)
{
	uint64_t n = 0;

	for (uint64_t pfn = from; pfn < to; pfn++)
		n += bitmap[(pfn - start) / 8] >> ((pfn - start) % 8) & 1;
	return n;
}

/* The pfns of cycle @i that this file holds pages of: [*from, *to), maybe empty. */
static void cycle_part(const struct kdump_writer *w, uint64_t i, uint64_t *from, uint64_t *to)
{
	uint64_t start = i * w->p->cycle_pfns, end = cycle_end(w, i);

	*from = start > w->first_pfn ? start : w->first_pfn;
	*to = end < w->end_pfn ? end : w->end_pfn;
}

/*
 * Classifies cycle @i into the 2nd bitmap, whole, and its 1st bitmap a
 * piece of PRESENT_PIECE_PFNS at a time: only the first pass needs the
 * 1st bitmap, and writes each piece (@write_present) as it goes, so that
 * of the two bitmaps only the 2nd takes memory in proportion to the
 * cycle.  Returns the 2nd bitmap's length in bytes through @len.  Bits
 * past the last pfn are cleared whatever the callback left there, so that
 * the bitmaps never claim pages past max_pfn.
 */
static struct mdf_error *classify_cycle(struct kdump_writer *w, uint64_t i,
					struct page_counts *counts, bool write_present, size_t *len)
{
	uint64_t start = i * w->p->cycle_pfns, end = cycle_end(w, i);
	struct mdf_error *err = NULL;
	enum run_stage was;

	*len = (size_t)div_round_up(end - start, 8);
	memset(w->dumpable, 0, *len);
	for (uint64_t from = start; from < end && !err; from += PRESENT_PIECE_PFNS) {
		uint64_t to = end - from < PRESENT_PIECE_PFNS ? end : from + PRESENT_PIECE_PFNS;
		size_t piece = (size_t)div_round_up(to - from, 8);
		uint8_t *dumpable = w->dumpable + (from - start) / 8;
		unsigned int tail = (unsigned int)((to - from) % 8);

		memset(w->present, 0, piece);
		was = stage_enter(STAGE_CLASSIFY);
		err = w->src->classify(w->src->ctx, from, to, w->present, dumpable, counts);
		stage_enter(was);
		if (err) {
			progress_break(&w->progress);
			return err;
		}
		if (tail) {
			w->present[piece - 1] &= (uint8_t)((1u << tail) - 1);
			dumpable[piece - 1] &= (uint8_t)((1u << tail) - 1);
		}
		if (write_present) {
			err = write_at(w, w->bitmap1_offset + from / 8, w->present, piece,
				       "the 1st bitmap");
			w->pfn_present += count_bits(w->present, piece);
		}
	}
	return err;
}

/* Zeros from the end of each bitmap's bits to the end of its last block. */
static struct mdf_error *write_bitmap_tails(struct kdump_writer *w)
{
	static const unsigned char zeros[1 << 12];
	uint64_t bits_end = div_round_up(w->p->max_pfn, 8);
	uint64_t blocks_end = w->bitmap2_offset - w->bitmap1_offset;
	struct mdf_error *err = NULL;

	for (uint64_t at = bits_end; at < blocks_end && !err; at += sizeof(zeros)) {
		size_t len = blocks_end - at < sizeof(zeros) ? (size_t)(blocks_end - at) : sizeof(zeros);

		err = write_at(w, w->bitmap1_offset + at, zeros, len, "the 1st bitmap");
		if (!err)
			err = write_at(w, w->bitmap2_offset + at, zeros, len, "the 2nd bitmap");
	}
	return err;
}

/*
 * The first pass: both bitmaps, a cycle at a time, and the page counts
 * that place the page data.  With one cycle, its counts are the run's and
 * its bitmaps stay for the copy.
 */
static struct mdf_error *write_bitmaps(struct kdump_writer *w, struct page_counts *counts)
{
	struct page_counts first_pass = { 0 };
	bool single = w->nr_cycles == 1;

	for (uint64_t i = 0; i < w->nr_cycles; i++) {
		uint64_t byte = i * w->p->cycle_pfns / 8;
		struct mdf_error *err;
		size_t len;

		err = classify_cycle(w, i, single ? counts : &first_pass, true, &len);
		if (!err)
			err = write_at(w, w->bitmap2_offset + byte, w->dumpable, len,
				       "the 2nd bitmap");
		if (err)
			return err;
		w->pfn_dumpable += count_bits(w->dumpable, len);
		if (w->p->split) {
			uint64_t from, to;

			cycle_part(w, i, &from, &to);
			if (from < to)
				w->part_dumpable += count_bits_between(w->dumpable,
								       i * w->p->cycle_pfns, from, to);
		} else {
			w->part_dumpable = w->pfn_dumpable;
		}
		if (!single)
			w->cycle_hash[i] = fnv1a64(w->dumpable, len);
	}
	if (w->pfn_dumpable == 0)
		return mdf_error(-EINVAL, "%s: no page is left to dump at dump level %d", w->path,
				 w->p->dump_level);
	return w->p->whole_bitmap_blocks ? write_bitmap_tails(w) : NULL;
}

static struct mdf_error *write_stream(struct kdump_writer *w, struct out_stream *s)
{
	struct mdf_error *err = write_at(w, s->offset, s->buf, s->len, s->what);

	s->offset += s->len;
	s->len = 0;
	return err;
}

/* Zeros over @len bytes at @offset, where descriptors go: not counted as written. */
static struct mdf_error *write_zeros(struct kdump_writer *w, uint64_t offset, size_t len)
{
	static const unsigned char zeros[1 << 16];
	struct mdf_error *err = NULL;

	for (size_t done = 0; done < len && !err; done += sizeof(zeros))
		err = dump_file_rewrite(&w->file, offset + done, zeros,
					len - done < sizeof(zeros) ? len - done : sizeof(zeros),
					"the page descriptors");
	return err;
}

/*
 * After the data of a flush failed: the queued descriptors whose data does
 * not lie below @data_end become zero, as upstream zeroes them; readers of
 * an incomplete dump take a zero descriptor for an excluded page.  Returns
 * how many stay.
 */
static uint64_t drop_missing_data(struct kdump_writer *w, uint64_t data_end)
{
	struct kdump_page_desc *pd = (struct kdump_page_desc *)w->desc.buf;
	size_t n = w->desc.len / sizeof(*pd);
	uint64_t kept = 0;

	for (size_t i = 0; i < n; i++) {
		struct kdump_page_desc host = pd[i];

		kdump_page_desc_to_host(&host, w->p->byte_order);
		if ((uint64_t)host.offset + host.size > data_end)
			memset(&pd[i], 0, sizeof(pd[i]));
		else
			kept++;
	}
	return kept;
}

/*
 * Writes the queued descriptors and data.  The descriptors' place is
 * filled with zeros first, then the data is written, then the descriptors
 * over the zeros: their blocks exist before the data, so that on a full
 * disk they can still be written, as upstream writes descriptors first;
 * and no descriptor in the file ever points at data that is not there.
 * A flattened stream needs neither: it is reassembled whole or not at all.
 */
static struct mdf_error *flush_streams(struct kdump_writer *w)
{
	uint64_t data_offset = w->data.offset;
	uint64_t pages = w->desc.len / sizeof(struct kdump_page_desc);
	struct mdf_error *err = NULL, *desc_err;

	snprintf(w->file.where, sizeof(w->file.where), ", at page %" PRIu64 " of %" PRIu64,
		 w->pages_done, w->part_dumpable);
	if (!w->p->flatten)
		err = write_zeros(w, w->desc.offset, w->desc.len);
	if (err)
		return err;
	err = write_stream(w, &w->data);
	if (err)
		pages = drop_missing_data(w, data_offset + w->file.failed_done);
	desc_err = write_stream(w, &w->desc);
	if (!desc_err)
		w->pages_flushed += pages;
	if (!err)
		return desc_err;
	/* After the data failed, a failure of the descriptors is not told again. */
	mdf_error_free(desc_err);
	return err;
}

/*
 * Queues one page: @size bytes of @data stored with @flags, or, with no
 * @data, the descriptor @pd as it goes to the file (the shared zero
 * page's, or all zero for a page missing from an incomplete dump).
 */
static struct mdf_error *add_page(struct kdump_writer *w, struct kdump_page_desc pd,
				  const void *data, uint32_t size, uint32_t flags)
{

	if (w->desc.len + sizeof(pd) > DESC_BUFFER_SIZE ||
	    (data && w->data.len + size > DATA_BUFFER_SIZE)) {
		struct mdf_error *err = flush_streams(w);

		if (err)
			return err;
	}
	if (data) {
		pd = (struct kdump_page_desc){
			.offset = (int64_t)(w->data.offset + w->data.len),
			.size = size,
			.flags = flags,
		};
		kdump_page_desc_to_dump(&pd, w->p->byte_order);
		memcpy(w->data.buf + w->data.len, data, size);
		w->data.len += size;
	}
	memcpy(w->desc.buf + w->desc.len, &pd, sizeof(pd));
	w->desc.len += sizeof(pd);
	w->pages_done++;
	return NULL;
}

/* Writes the descriptors and data of a batch the pool has compressed. */
static struct mdf_error *emit_batch(struct kdump_writer *w, struct compress_batch *b,
				    struct page_counts *counts)
{
	const struct kdump_writer_params *p = w->p;
	enum run_stage was = stage_enter(STAGE_WRITE);
	struct mdf_error *err = NULL;

	if (b->error) {
		progress_break(&w->progress);
		err = mdf_error_wrap(b->error, "%s: %s compression of pfn 0x%" PRIx64 " failed",
				     w->path, codec_name(p->codec), b->pfn[b->error_index]);
		b->error = NULL;
	}
	for (size_t i = 0; i < b->count && !err; i++) {
		progress_update(&w->progress, w->pages_done, w->part_dumpable);
		if (b->unreadable[i]) {
			/* Readers of an incomplete dump take it for a page left out. */
			w->pages_unreadable++;
			err = add_page(w, (struct kdump_page_desc){ 0 }, NULL, 0, 0);
		} else if (b->zero[i]) {
			counts->zero++;
			err = add_page(w, w->zero_desc, NULL, 0, 0);
		} else {
			err = add_page(w, w->zero_desc, compress_batch_data(b, i, p->page_size), b->size[i],
				       b->compressed[i] ? kdump_codec_flag(p->codec) : 0);
		}
	}
	compress_pool_release(w->pool, b);
	stage_enter(was);
	return err;
}

/* Writes the oldest batch in flight, if any: *@none says there was none. */
static struct mdf_error *drain_one(struct kdump_writer *w, struct page_counts *counts, bool *none)
{
	struct compress_batch *b = compress_pool_next_done(w->pool);

	*none = !b;
	return b ? emit_batch(w, b, counts) : NULL;
}

/*
 * Reads the pages of the batch being filled, straight into it, and sends
 * it to the pool, if it holds pages.
 */
static struct mdf_error *submit_filling(struct kdump_writer *w)
{
	struct compress_batch *b = w->filling;
	struct mdf_error *err = NULL;

	w->filling = NULL;
	if (b && b->count) {
		err = page_source_read_dumped_pages(w->src, b->pfn, b->count, w->p->page_size, b->pages,
						    w->path, b->unreadable);
		if (err) {
			progress_break(&w->progress);
			compress_pool_release(w->pool, b);
			return err;
		}
		compress_pool_submit(w->pool, b);
	} else if (b) {
		compress_pool_release(w->pool, b);
	}
	return NULL;
}

/*
 * Adds a page to the batch being filled; a full batch is read and goes to
 * the pool, and while every batch is in flight the oldest is written first.
 */
static struct mdf_error *copy_page(struct kdump_writer *w, uint64_t pfn,
				   struct page_counts *counts)
{
	struct compress_batch *b;

	while (!w->filling && !(w->filling = compress_pool_get(w->pool))) {
		bool none;
		struct mdf_error *drained = drain_one(w, counts, &none);

		if (drained)
			return drained;
		/* Cannot be: a pool with no batch free has one in flight. */
		if (none)
			return mdf_error(-EIO, "%s: no compression batch is free and none is in "
					 "flight", w->path);
	}
	b = w->filling;
	b->pfn[b->count++] = pfn;
	return b->count == COMPRESS_BATCH_PAGES ? submit_filling(w) : NULL;
}

/* The last batch goes to the pool, and every batch in flight is written. */
static struct mdf_error *drain_all(struct kdump_writer *w, struct page_counts *counts)
{
	struct mdf_error *err = submit_filling(w);
	bool none = false;

	while (!err && !none)
		err = drain_one(w, counts, &none);
	return err;
}

/*
 * Copies the pages of [from, to) set in the 2nd bitmap of the cycle
 * starting at @first_pfn.
 */
static struct mdf_error *copy_cycle(struct kdump_writer *w, uint64_t first_pfn, uint64_t from,
				    uint64_t to, struct page_counts *counts)
{
	for (size_t byte = (from - first_pfn) / 8; byte < (to - first_pfn + 7) / 8; byte++) {
		unsigned int bits = w->dumpable[byte];

		while (bits) {
			uint64_t pfn = first_pfn + byte * 8 + (unsigned int)__builtin_ctz(bits);
			struct mdf_error *err;

			bits &= bits - 1;
			if (pfn < from || pfn >= to)
				continue;
			err = copy_page(w, pfn, counts);
			if (err)
				return err;
		}
	}
	return NULL;
}

/* The second pass over cycle @i must see the pages the first one saw. */
static struct mdf_error *reclassify_cycle(struct kdump_writer *w, uint64_t i,
					  struct page_counts *counts)
{
	size_t len;
	struct mdf_error *err = classify_cycle(w, i, counts, false, &len);

	if (!err && fnv1a64(w->dumpable, len) != w->cycle_hash[i]) {
		progress_break(&w->progress);
		err = mdf_error(-EAGAIN, "%s: the pages to dump in pfns 0x%" PRIx64 "-0x%" PRIx64
				" changed between the two passes over them; the bitmaps already "
				"written would not match the pages", w->path,
				i * w->p->cycle_pfns, cycle_end(w, i) - 1);
	}
	return err;
}

/*
 * The second pass: descriptors and page data.  With several cycles each is
 * classified again, and must come out as it did in the first pass.
 */
static struct mdf_error *write_pages(struct kdump_writer *w, struct page_counts *counts)
{
	const struct kdump_writer_params *p = w->p;
	uint64_t data_start = w->desc_offset + w->pfn_dumpable * sizeof(struct kdump_page_desc);
	struct mdf_error *err = NULL;

	w->desc.what = "the page descriptors";
	w->desc.offset = w->desc_offset;
	w->data.what = "the page data";
	w->data.offset = data_start;
	if (p->dump_level & DL_EXCLUDE_ZERO) {
		/* Upstream stores the zero page whether or not a page uses it. */
		w->zero_desc.offset = (int64_t)data_start;
		w->zero_desc.size = p->page_size;
		kdump_page_desc_to_dump(&w->zero_desc, p->byte_order);
		memset(w->data.buf, 0, p->page_size);
		w->data.len = p->page_size;
	}
	progress_start(&w->progress, PROGRESS_COPY, w->part_dumpable);
	w->copying = true;
	stage_enter(STAGE_READ);
	for (uint64_t i = 0; i < w->nr_cycles && !err; i++) {
		uint64_t from, to;

		/* A split part reads only the cycles of its own pfns. */
		cycle_part(w, i, &from, &to);
		if (from >= to)
			continue;
		if (w->nr_cycles > 1)
			err = reclassify_cycle(w, i, counts);
		if (!err)
			err = copy_cycle(w, i * p->cycle_pfns, from, to, counts);
	}
	if (!err)
		err = drain_all(w, counts);
	stage_enter(STAGE_WRITE);
	stage_times_sample_memory();
	if (!err)
		err = flush_streams(w);
	if (!err)
		progress_done(&w->progress);
	return err;
}

/*
 * The erase information goes after the page data, and the sub header,
 * written again, says where: upstream's layout.  In a flattened stream the
 * sub header's second record comes last, and -R applies it over the first.
 */
static struct mdf_error *write_eraseinfo(struct kdump_writer *w)
{
	struct mdf_error *err;
	char *text = NULL;
	size_t len = 0;

	if (!w->src->eraseinfo)
		return NULL;
	err = w->src->eraseinfo(w->src->ctx, &text, &len);
	if (!err && len) {
		w->eraseinfo_offset = w->data.offset + w->data.len;
		w->eraseinfo_size = len;
		err = write_at(w, w->eraseinfo_offset, text, len, "the erase information");
		if (!err)
			err = write_sub_header(w);
	}
	free(text);
	return err;
}

/*
 * Everything is written: once it is on the disk, the header of a file
 * says the dump is complete (a stream's said so from the start), and the
 * file is closed.
 */
static struct mdf_error *finish_output(struct kdump_writer *w)
{
	struct mdf_error *err = dump_file_sync(&w->file);

	/* A page the source could not read makes the dump incomplete, though written. */
	if (w->pages_unreadable)
		w->status |= DUMP_DH_COMPRESSED_INCOMPLETE;
	/* A stream's header went out complete: only an incomplete dump needs another. */
	if (!err && (!w->p->flatten || w->pages_unreadable))
		err = write_disk_header(w, w->status);
	w->header_final = !err;
	if (!err)
		err = dump_file_finish(&w->file);
	return err;
}

/*
 * After a failure: a regular file that failed to be written while its
 * pages were copied is kept, marked incomplete, and long enough to hold
 * every descriptor; one that holds no page, or failed for another
 * reason, or filled a disk that the caller will try again, goes.
 */
static void abandon_output(struct kdump_writer *w, bool write_failed)
{
	bool keep = write_failed && w->copying && dump_file_is_regular(&w->file) &&
		    !(w->p->remove_when_full && w->file.error == -ENOSPC);

	/* The file's failures here were told (or wait in its fate): only success counts. */
	if (keep && w->header_final)
		keep = !mdf_error_drop(dump_file_reopen(&w->file)) &&
		       !mdf_error_drop(write_disk_header(w, w->status |
							    DUMP_DH_COMPRESSED_INCOMPLETE)) &&
		       !mdf_error_drop(dump_file_sync(&w->file));
	if (!keep) {
		dump_file_discard(&w->file);
		return;
	}
	dump_file_extend(&w->file, w->desc_offset + w->pfn_dumpable * sizeof(struct kdump_page_desc));
	dump_file_keep(&w->file);
	if (w->pages_flushed == w->part_dumpable)
		dump_file_warn_later(&w->file, "%s: kept, marked incomplete "
				     "(DUMP_DH_COMPRESSED_INCOMPLETE): every page was written, but "
				     "not surely onto the disk", w->path);
	else
		dump_file_warn_later(&w->file, "%s: kept incomplete, %" PRIu64 " of %" PRIu64
				     " pages written: its header says so "
				     "(DUMP_DH_COMPRESSED_INCOMPLETE) and the descriptors of the "
				     "pages not written are zero", w->path, w->pages_flushed,
				     w->part_dumpable);
}

static void free_writer(struct kdump_writer *w)
{
	compress_pool_free(w->pool);
	free(w->present);
	free(w->dumpable);
	free(w->cycle_hash);
	free(w->desc.buf);
	free(w->data.buf);
}

struct mdf_error *kdump_write(const struct kdump_writer_params *p,
			      const struct page_source *src, struct page_counts *counts,
			      struct kdump_write_result *result)
{
	struct kdump_writer w = { .p = p, .src = src };
	struct mdf_error *err;

	/* Messages before the file exists name it as it will be named. */
	w.path = p->path && strcmp(p->path, "-") ? p->path : "standard output";
	err = plan_layout(&w);
	if (!err)
		err = allocate_buffers(&w);
	if (!err)
		err = dump_file_open(&w.file, p->path, p->force, p->flatten);
	dump_file_limit(&w.file, p->size_limit);
	w.file.progress = &w.progress;
	if (!err)
		err = write_disk_header(&w, p->flatten ? w.status
						       : w.status | DUMP_DH_COMPRESSED_INCOMPLETE);
	if (!err)
		err = write_sub_header(&w);
	if (!err)
		err = write_bitmaps(&w, counts);
	if (!err)
		err = write_pages(&w, counts);
	if (!err)
		err = write_eraseinfo(&w);
	if (!err)
		err = finish_output(&w);
	if (!err) {
		result->pfn_present = w.pfn_present;
		result->pfn_dumpable = w.pfn_dumpable;
		result->pages_written = w.pages_done;
		result->bytes_written = w.file.written;
	} else {
		abandon_output(&w, w.file.error != 0);
	}
	result->fate = w.file.fate;
	free_writer(&w);
	return err;
}
