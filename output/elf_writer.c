// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ELF writer; elf_writer.h draws the file.
 *
 * Where each segment's data goes depends on how many program headers come
 * before it, and that depends on every page, so the pages are walked
 * twice, as upstream walks them: the first pass classifies (dropping zero
 * pages at a dump level with bit 1) and counts each input PT_LOAD's
 * segments and bytes; the second writes them.  The walk keeps, for each
 * input PT_LOAD, the segment it is building: pages to dump extend it, a
 * run of pages not to dump is held back until the next page to dump says
 * whether it is short enough to stay (its bytes are then written) or
 * long enough to end the segment.  With one cycle its bitmaps serve both
 * passes; with several, each cycle is classified again and must come out
 * as before, which a hash of its 2nd bitmap proves.
 *
 * Page data is written before the program header that points at it, so
 * that a failure leaves only headers of data the file holds: the others
 * stay zero (PT_NULL), which readers skip.  In a file, the ELF header
 * says DUMP_ELF_INCOMPLETE until the end; a flattened stream carries the
 * header once, as it will stay, and no zeros over the program headers,
 * as upstream writes it: crash reads a saved stream in place and may take
 * either of two records for one offset (unreadable pages, found as it
 * goes, make a stream say it is incomplete in a second header).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/dump_file.h"
#include "output/elf_format.h"
#include "output/elf_writer.h"
#include "output/report.h"
#include "scan/pfn_ranges.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/message.h"
#include "util/zero_page.h"

/* Data and program headers are each written in pieces of up to this size. */
#define BUFFER_SIZE (4u << 20)
/* Upstream's NOT_PADDR: a PT_LOAD without a physical address, not dumped. */
#define NOT_PADDR UINT64_MAX

/* Bytes that go to consecutive offsets of the file, written in one piece. */
struct run_buffer {
	const char *what;
	unsigned char *buf;
	size_t len;
	uint64_t offset;
};

/* One input PT_LOAD and the output segment being built from it. */
struct load {
	const Elf64_Phdr *in;
	uint64_t pfn_start;
	uint64_t pfn_end;
	uint64_t frac_tail;
	/* The next pfn to walk. */
	uint64_t next;
	/* The segment being built: its header, sizes and data offset. */
	Elf64_Phdr seg;
	uint64_t memsz;
	uint64_t filesz;
	uint64_t seg_offset;
	/* Where its next data byte goes. */
	uint64_t data_pos;
	/* Where its data starts, and where the part surely in the file ends. */
	uint64_t data_start;
	uint64_t data_in_file;
	/* Pages not to dump held back: their count and first pfn. */
	uint64_t held;
	uint64_t held_start;
	/* From the first pass: its program headers and data bytes. */
	uint64_t nr_phdrs;
	uint64_t nr_bytes;
	/* For the second: the index of its next program header. */
	uint64_t phdr_next;
	/* Its last segment is written. */
	bool ended;
};

struct elf_writer {
	const struct elf_writer_params *p;
	const struct page_source *src;
	const char *path;
	struct dump_file file;
	bool header_written;
	bool header_final;
	bool writing;

	struct load *loads;
	size_t nr_loads;
	/* Program headers, the PT_NOTE's included; from 65535 on, e_phnum is PN_XNUM. */
	uint64_t nr_phdrs;
	uint64_t note_offset;
	uint64_t data_offset;

	uint64_t nr_cycles;
	uint8_t *present;
	uint8_t *dumpable;
	uint64_t *cycle_hash;
	struct pfn_cursor keep;

	uint64_t pfn_present;
	uint64_t pfn_dumpable;
	uint64_t elf_excluded;
	/* Reads of pages the source could not read, in either pass: zeros instead. */
	uint64_t unreadable_reads;
	/* Pages to dump met by the walk (twice for a page two PT_LOADs hold). */
	uint64_t steps;
	uint64_t steps_done;

	struct run_buffer data;
	struct run_buffer phdrs;
	unsigned char *page;
	struct progress progress;
};

static uint64_t div_round_up(uint64_t n, uint64_t d)
{
	return n / d + (n % d != 0);
}

static uint64_t cycle_end(const struct elf_writer *w, uint64_t i)
{
	uint64_t start = i * w->p->cycle_pfns;

	return w->p->max_pfn - start < w->p->cycle_pfns ? w->p->max_pfn : start + w->p->cycle_pfns;
}

static bool test_bit(const uint8_t *bitmap, uint64_t i)
{
	return bitmap[i / 8] >> (i % 8) & 1;
}

/* Of the data written at @offset, @len bytes reached the file: their load's data ends there. */
static void note_data_in_file(struct elf_writer *w, uint64_t offset, uint64_t len)
{
	for (size_t i = 0; i < w->nr_loads; i++) {
		struct load *l = &w->loads[i];

		if (offset >= l->data_start && offset < l->data_start + l->nr_bytes)
			l->data_in_file = offset + len;
	}
}

static struct mdf_error *flush_run(struct elf_writer *w, struct run_buffer *b)
{
	struct mdf_error *err = dump_file_write(&w->file, b->offset, b->buf, b->len, b->what);

	if (b == &w->data && b->len)
		note_data_in_file(w, b->offset, err ? w->file.failed_done : b->len);
	b->offset += b->len;
	b->len = 0;
	return err;
}

/* Queues @len bytes for @offset; a gap or a full buffer flushes it first. */
static struct mdf_error *put_run(struct elf_writer *w, struct run_buffer *b, uint64_t offset,
				 const void *bytes, size_t len)
{
	if (b->len && (offset != b->offset + b->len || b->len + len > BUFFER_SIZE)) {
		struct mdf_error *err = flush_run(w, b);

		if (err)
			return err;
	}
	if (!b->len)
		b->offset = offset;
	memcpy(b->buf + b->len, bytes, len);
	b->len += len;
	return NULL;
}

/* A page to dump; one the source could not read comes zeroed, and makes the file incomplete. */
static struct mdf_error *read_page(struct elf_writer *w, uint64_t pfn)
{
	bool unreadable;
	struct mdf_error *err = page_source_read_dumped(w->src, pfn, w->page, w->path, &unreadable);

	w->unreadable_reads += unreadable;
	if (err)
		progress_break(&w->progress);
	return err;
}

/* @len bytes of page @pfn from byte @from become the load's next data. */
static struct mdf_error *put_data(struct elf_writer *w, struct load *l, uint64_t pfn,
				  uint64_t from, uint64_t len)
{
	struct mdf_error *err = NULL;

	if (w->writing) {
		err = read_page(w, pfn);
		if (!err)
			err = put_run(w, &w->data, l->data_pos, w->page + from, (size_t)len);
	}
	l->data_pos += len;
	return err;
}

/*
 * Ends the load's current segment: in the second pass its header is
 * written, after the data it points at.
 */
static struct mdf_error *end_segment(struct elf_writer *w, struct load *l, uint64_t offset)
{
	enum byte_order order = w->p->input->order;
	Elf64_Phdr ph = l->seg;
	uint64_t index = l->phdr_next++;
	struct mdf_error *err;

	if (!w->writing) {
		l->nr_phdrs++;
		return NULL;
	}
	ph.p_type = host_to_dump32(order, PT_LOAD);
	ph.p_flags = host_to_dump32(order, l->seg.p_flags);
	ph.p_offset = host_to_dump64(order, offset);
	ph.p_vaddr = host_to_dump64(order, l->seg.p_vaddr);
	ph.p_paddr = host_to_dump64(order, l->seg.p_paddr);
	ph.p_filesz = host_to_dump64(order, l->filesz);
	ph.p_memsz = host_to_dump64(order, l->memsz);
	ph.p_align = host_to_dump64(order, l->seg.p_align);
	err = flush_run(w, &w->data);
	if (!err)
		err = put_run(w, &w->phdrs, sizeof(Elf64_Ehdr) + index * sizeof(ph), &ph, sizeof(ph));
	return err;
}

/* Starts walking a load; a partial first page is always dumped, as upstream. */
static struct mdf_error *start_load(struct elf_writer *w, struct load *l, uint64_t data_start)
{
	uint64_t ps = w->p->page_size, paddr = l->in->p_paddr, end = paddr + l->in->p_memsz;

	l->pfn_start = paddr / ps;
	l->pfn_end = end / ps;
	l->frac_tail = end % ps;
	l->seg = *l->in;
	l->memsz = l->filesz = 0;
	l->held = 0;
	l->seg_offset = l->data_pos = l->data_start = l->data_in_file = data_start;
	l->ended = false;
	if (l->frac_tail)
		l->pfn_end++;
	if (paddr % ps) {
		l->memsz = l->filesz = ps - paddr % ps;
		l->next = ++l->pfn_start;
		return put_data(w, l, paddr / ps, paddr % ps, ps - paddr % ps);
	}
	l->next = l->pfn_start;
	return NULL;
}

/* The load's pfn @pfn, to dump or not. */
static struct mdf_error *walk_pfn(struct elf_writer *w, struct load *l, uint64_t pfn, bool dump)
{
	uint64_t ps = w->p->page_size;
	uint64_t size = pfn == l->pfn_end - 1 && l->frac_tail ? l->frac_tail : ps;
	struct mdf_error *err = NULL;

	l->next = pfn + 1;
	if (!dump) {
		if (!l->held++)
			l->held_start = pfn;
		l->memsz += size;
		return NULL;
	}
	if (w->writing)
		progress_update(&w->progress, w->steps_done++, w->steps);
	else
		w->steps++;
	if (l->held < ELF_MIN_HOLE_PAGES) {
		/* Too short a run to leave out: its pages stay, with their bytes. */
		for (uint64_t i = 0; i < l->held && !err; i++)
			err = put_data(w, l, l->held_start + i, 0, ps);
		l->memsz += size;
		l->filesz += l->held * ps + size;
		l->held = 0;
		return err ? err : put_data(w, l, pfn, 0, size);
	}
	w->elf_excluded += l->held;
	err = end_segment(w, l, l->filesz ? l->seg_offset : 0);
	l->seg.p_paddr += l->memsz;
	l->seg.p_vaddr += l->memsz;
	l->seg_offset += l->filesz;
	l->held = 0;
	l->memsz = l->filesz = ps;
	return err ? err : put_data(w, l, pfn, 0, ps);
}

/*
 * Whether to dump a page of a load past max_pfn (QEMU's BIOS ROM, say):
 * without a struct page no rule excludes it but the zero page's, as
 * upstream finds; a partial last page stays out, as everywhere.
 */
static struct mdf_error *dump_past_max_pfn(struct elf_writer *w, const struct load *l,
					   uint64_t pfn, bool *dump)
{
	struct mdf_error *err;

	*dump = false;
	if (pfn == l->pfn_end - 1 && l->frac_tail)
		return NULL;
	err = w->src->read_page(w->src->ctx, pfn, w->page);
	switch (err ? err->code : 0) {
	case 0:
		break;
	case -MDF_EEXCLUDED:
	case -MDF_ENOTDUMPED:
		mdf_error_free(err);
		return NULL;
	case -MDF_EUNREADABLE:
		mdf_error_free(err);
		w->unreadable_reads++;
		break;
	default:
		progress_break(&w->progress);
		return err;
	}
	*dump = !(w->p->dump_level & DL_EXCLUDE_ZERO) ||
		(w->p->keep && pfn_cursor_contains(&w->keep, pfn)) ||
		!page_is_zero(w->page, w->p->page_size);
	return NULL;
}

/* The rest of the load, past the last cycle, and its last segment, once. */
static struct mdf_error *end_load(struct elf_writer *w, struct load *l)
{
	struct mdf_error *err = NULL;

	if (l->ended)
		return NULL;
	while (l->next < l->pfn_end && !err) {
		bool dump;

		err = dump_past_max_pfn(w, l, l->next, &dump);
		if (!err)
			err = walk_pfn(w, l, l->next, dump);
	}
	w->elf_excluded += l->held;
	l->ended = true;
	return err ? err : end_segment(w, l, l->seg_offset);
}

/* Walks the pfns of cycle @i [start, end) that each load holds. */
static struct mdf_error *walk_cycle(struct elf_writer *w, uint64_t start, uint64_t end)
{
	for (size_t i = 0; i < w->nr_loads; i++) {
		struct load *l = &w->loads[i];
		uint64_t pfn = l->next > start ? l->next : start;
		uint64_t stop = l->pfn_end < end ? l->pfn_end : end;

		struct mdf_error *err = NULL;

		for (; pfn < stop && !err; pfn++)
			err = walk_pfn(w, l, pfn, test_bit(w->dumpable, pfn - start));
		/* A load walked to its end has its last header written now, not at the end. */
		if (!err && l->next == l->pfn_end)
			err = end_load(w, l);
		if (err)
			return err;
	}
	return NULL;
}

/* Zero pages are not dumped in an ELF file at a level with bit 1, unless kept. */
static struct mdf_error *exclude_zero_pages(struct elf_writer *w, uint64_t start, uint64_t end,
					    struct page_counts *counts)
{
	if (!(w->p->dump_level & DL_EXCLUDE_ZERO))
		return NULL;
	for (uint64_t pfn = start; pfn < end; pfn++) {
		struct mdf_error *err;

		if (!test_bit(w->dumpable, pfn - start) ||
		    (w->p->keep && pfn_cursor_contains(&w->keep, pfn)))
			continue;
		err = read_page(w, pfn);
		if (err)
			return err;
		if (page_is_zero(w->page, w->p->page_size)) {
			w->dumpable[(pfn - start) / 8] &= (uint8_t)~(1u << ((pfn - start) % 8));
			counts->zero++;
		}
	}
	return NULL;
}

/* Classifies cycle @i, zero pages included; bits past the last pfn are cleared. */
static struct mdf_error *classify_cycle(struct elf_writer *w, uint64_t i,
					struct page_counts *counts)
{
	uint64_t start = i * w->p->cycle_pfns, end = cycle_end(w, i);
	size_t len = (size_t)div_round_up(end - start, 8);
	unsigned int tail = (unsigned int)((end - start) % 8);
	struct mdf_error *err;

	memset(w->present, 0, len);
	memset(w->dumpable, 0, len);
	err = w->src->classify(w->src->ctx, start, end, w->present, w->dumpable, counts);
	if (err) {
		progress_break(&w->progress);
		return err;
	}
	if (tail) {
		w->present[len - 1] &= (uint8_t)((1u << tail) - 1);
		w->dumpable[len - 1] &= (uint8_t)((1u << tail) - 1);
	}
	return exclude_zero_pages(w, start, end, counts);
}

/*
 * The first pass: classification, then each load's segments and bytes.
 * With one cycle, its counts are the run's and its bitmaps stay.
 */
static struct mdf_error *count_segments(struct elf_writer *w, struct page_counts *counts)
{
	struct page_counts first_pass = { 0 };
	bool single = w->nr_cycles == 1;
	struct mdf_error *err = NULL;

	for (size_t i = 0; i < w->nr_loads && !err; i++)
		err = start_load(w, &w->loads[i], 0);
	for (uint64_t i = 0; i < w->nr_cycles && !err; i++) {
		uint64_t start = i * w->p->cycle_pfns, end = cycle_end(w, i);
		size_t len = (size_t)div_round_up(end - start, 8);

		err = classify_cycle(w, i, single ? counts : &first_pass);
		if (err)
			break;
		for (size_t b = 0; b < len; b++) {
			w->pfn_present += (uint64_t)__builtin_popcount(w->present[b]);
			w->pfn_dumpable += (uint64_t)__builtin_popcount(w->dumpable[b]);
		}
		if (!single)
			w->cycle_hash[i] = fnv1a64(w->dumpable, len);
		err = walk_cycle(w, start, end);
	}
	for (size_t i = 0; i < w->nr_loads && !err; i++) {
		err = end_load(w, &w->loads[i]);
		w->loads[i].nr_bytes = w->loads[i].data_pos;
	}
	return err;
}

/* Where each load's headers and data go, now that their numbers are known. */
static struct mdf_error *plan_file(struct elf_writer *w)
{
	uint64_t phdrs = 1, bytes = 0;

	for (size_t i = 0; i < w->nr_loads; i++)
		phdrs += w->loads[i].nr_phdrs;
	w->nr_phdrs = phdrs;
	w->note_offset = sizeof(Elf64_Ehdr) + phdrs * sizeof(Elf64_Phdr) +
			 (phdrs >= PN_XNUM ? sizeof(Elf64_Shdr) : 0);
	w->data_offset = w->note_offset + w->p->input->note.p_filesz;
	phdrs = 1;
	for (size_t i = 0; i < w->nr_loads; i++) {
		struct load *l = &w->loads[i];

		l->phdr_next = phdrs;
		phdrs += l->nr_phdrs;
		bytes += l->nr_bytes;
	}
	if (phdrs > UINT32_MAX || w->data_offset + bytes < w->data_offset)
		return mdf_error(-EFBIG, "%s: %" PRIu64 " program headers and %" PRIu64 " bytes of "
				 "data do not fit an ELF64 file", w->path, phdrs, bytes);
	return NULL;
}

static struct mdf_error *write_ehdr(struct elf_writer *w, uint32_t extra_flags)
{
	enum byte_order order = w->p->input->order;
	Elf64_Ehdr eh = w->p->input->ehdr;
	bool xnum = w->nr_phdrs >= PN_XNUM;
	struct mdf_error *err;

	/* The input's header, but for what says where this file's parts are. */
	eh.e_type = host_to_dump16(order, eh.e_type);
	eh.e_machine = host_to_dump16(order, eh.e_machine);
	eh.e_version = host_to_dump32(order, eh.e_version);
	eh.e_entry = host_to_dump64(order, eh.e_entry);
	eh.e_phoff = host_to_dump64(order, sizeof(Elf64_Ehdr));
	eh.e_flags = host_to_dump32(order, eh.e_flags | extra_flags);
	eh.e_ehsize = host_to_dump16(order, sizeof(Elf64_Ehdr));
	eh.e_phentsize = host_to_dump16(order, sizeof(Elf64_Phdr));
	eh.e_phnum = host_to_dump16(order, xnum ? PN_XNUM : (uint16_t)w->nr_phdrs);
	if (xnum) {
		eh.e_shoff = host_to_dump64(order, sizeof(Elf64_Ehdr) + w->nr_phdrs * sizeof(Elf64_Phdr));
		eh.e_shentsize = host_to_dump16(order, sizeof(Elf64_Shdr));
		eh.e_shnum = host_to_dump16(order, 1);
		eh.e_shstrndx = host_to_dump16(order, SHN_UNDEF);
	} else {
		/* Section headers of the input (QEMU writes some) are not copied. */
		eh.e_shoff = 0;
		eh.e_shentsize = 0;
		eh.e_shnum = 0;
		eh.e_shstrndx = 0;
	}
	if (w->header_written)
		return dump_file_rewrite(&w->file, 0, &eh, sizeof(eh), "the ELF header");
	err = dump_file_write(&w->file, 0, &eh, sizeof(eh), "the ELF header");
	w->header_written = !err;
	return err;
}

/*
 * Zeros where the program headers go, in a file (as upstream reserves the
 * space, so that a header never written reads as PT_NULL), the section
 * header of PN_XNUM, the ELF header, the notes and their program header.
 */
static struct mdf_error *write_headers(struct elf_writer *w)
{
	enum byte_order order = w->p->input->order;
	const Elf64_Phdr *in = &w->p->input->note;
	uint64_t table_end = sizeof(Elf64_Ehdr) + w->nr_phdrs * sizeof(Elf64_Phdr);
	Elf64_Phdr note = {
		.p_type = host_to_dump32(order, PT_NOTE),
		.p_flags = host_to_dump32(order, in->p_flags),
		.p_offset = host_to_dump64(order, w->note_offset),
		.p_vaddr = host_to_dump64(order, in->p_vaddr),
		.p_paddr = host_to_dump64(order, in->p_paddr),
		.p_filesz = host_to_dump64(order, in->p_filesz),
		.p_memsz = host_to_dump64(order, in->p_memsz),
		.p_align = host_to_dump64(order, in->p_align),
	};
	struct mdf_error *err = NULL;

	memset(w->data.buf, 0, BUFFER_SIZE);
	for (uint64_t at = sizeof(Elf64_Ehdr); !w->p->flatten && at < table_end && !err;
	     at += BUFFER_SIZE)
		err = dump_file_write(&w->file, at, w->data.buf,
				      (size_t)(table_end - at < BUFFER_SIZE ? table_end - at
									    : BUFFER_SIZE),
				      "the program headers");
	if (!err && w->nr_phdrs >= PN_XNUM) {
		Elf64_Shdr sh = {
			.sh_type = host_to_dump32(order, SHT_NULL),
			.sh_size = host_to_dump64(order, 1),
			.sh_link = host_to_dump32(order, SHN_UNDEF),
			.sh_info = host_to_dump32(order, (uint32_t)w->nr_phdrs),
		};

		err = dump_file_write(&w->file, table_end, &sh, sizeof(sh), "the section header");
	}
	if (!err)
		err = write_ehdr(w, w->p->flatten ? 0 : DUMP_ELF_INCOMPLETE);
	if (!err)
		err = dump_file_write(&w->file, w->note_offset, w->p->input->note_bytes,
				      in->p_filesz, "the ELF notes");
	if (!err)
		err = put_run(w, &w->phdrs, sizeof(Elf64_Ehdr), &note, sizeof(note));
	return err;
}

/* The second pass: segments, their data and their headers. */
static struct mdf_error *write_segments(struct elf_writer *w, struct page_counts *counts)
{
	uint64_t data_start = w->data_offset;
	struct mdf_error *err = NULL;

	w->writing = true;
	w->elf_excluded = 0;
	progress_start(&w->progress, PROGRESS_COPY, w->steps);
	for (size_t i = 0; i < w->nr_loads && !err; i++) {
		err = start_load(w, &w->loads[i], data_start);
		data_start += w->loads[i].nr_bytes;
	}
	for (uint64_t i = 0; i < w->nr_cycles && !err; i++) {
		uint64_t start = i * w->p->cycle_pfns, end = cycle_end(w, i);

		if (w->nr_cycles > 1) {
			err = classify_cycle(w, i, counts);
			if (!err && fnv1a64(w->dumpable, (size_t)div_round_up(end - start, 8)) !=
					    w->cycle_hash[i]) {
				progress_break(&w->progress);
				err = mdf_error(-EAGAIN, "%s: the pages to dump in pfns 0x%" PRIx64
						"-0x%" PRIx64 " changed between the two passes over "
						"them; the headers already written would not match "
						"the pages", w->path, start, end - 1);
			}
		}
		if (!err)
			err = walk_cycle(w, start, end);
	}
	for (size_t i = 0; i < w->nr_loads && !err; i++)
		err = end_load(w, &w->loads[i]);
	if (!err)
		err = flush_run(w, &w->data);
	if (!err)
		err = flush_run(w, &w->phdrs);
	if (!err)
		progress_done(&w->progress);
	return err;
}

static struct mdf_error *setup(struct elf_writer *w)
{
	const struct elf_writer_params *p = w->p;
	uint64_t cycle = p->cycle_pfns < p->max_pfn ? p->cycle_pfns : p->max_pfn;
	size_t bitmap = (size_t)div_round_up(cycle, 8);

	if (p->cycle_pfns == 0 || p->cycle_pfns % 8 || p->max_pfn == 0 || p->page_size < 1024 ||
	    (p->page_size & (p->page_size - 1)))
		return mdf_error(-EINVAL, "%s: %" PRIu64 " pfns of %" PRIu32 " bytes, %" PRIu64
				 " per cycle: no ELF dump can be written so", w->path, p->max_pfn,
				 p->page_size, p->cycle_pfns);
	w->nr_cycles = div_round_up(p->max_pfn, p->cycle_pfns);
	w->loads = calloc(p->input->nr_loads ? p->input->nr_loads : 1, sizeof(*w->loads));
	w->present = malloc(bitmap);
	w->dumpable = malloc(bitmap);
	w->data.buf = malloc(BUFFER_SIZE);
	w->phdrs.buf = malloc(BUFFER_SIZE);
	w->page = malloc(p->page_size);
	if (w->nr_cycles > 1)
		w->cycle_hash = calloc(w->nr_cycles, sizeof(*w->cycle_hash));
	if (!w->loads || !w->present || !w->dumpable || !w->data.buf || !w->phdrs.buf ||
	    !w->page || (w->nr_cycles > 1 && !w->cycle_hash))
		return mdf_error(-ENOMEM, "%s: no memory for the writer's buffers (bitmaps of %zu "
				 "bytes per cycle)", w->path, bitmap);
	/* Segments without a physical address hold nothing a dump wants. */
	for (size_t i = 0; i < p->input->nr_loads; i++)
		if (p->input->loads[i].p_paddr != NOT_PADDR && p->input->loads[i].p_memsz)
			w->loads[w->nr_loads++].in = &p->input->loads[i];
	if (p->keep)
		pfn_cursor_init(&w->keep, p->keep);
	w->data.what = "the page data";
	w->phdrs.what = "the program headers";
	return NULL;
}

static struct mdf_error *finish(struct elf_writer *w)
{
	struct mdf_error *err = dump_file_sync(&w->file);

	/* A stream's header went out complete: only an incomplete dump needs another. */
	if (!err && (!w->p->flatten || w->unreadable_reads))
		err = write_ehdr(w, w->unreadable_reads ? DUMP_ELF_INCOMPLETE : 0);
	w->header_final = !err;
	if (!err)
		err = dump_file_finish(&w->file);
	return err;
}

/*
 * The segments a failure cut short, each up to the last whole page of its
 * data in the file, p_memsz as p_filesz: no page it does not hold.
 */
static void queue_cut_segments(struct elf_writer *w)
{
	enum byte_order order = w->p->input->order;

	for (size_t i = 0; i < w->nr_loads; i++) {
		const struct load *l = &w->loads[i];
		uint64_t held = l->data_in_file > l->seg_offset ? l->data_in_file - l->seg_offset : 0;
		Elf64_Phdr ph;

		if (held > l->filesz)
			held = l->filesz;
		held -= (l->seg.p_paddr + held) % w->p->page_size < held
				? (l->seg.p_paddr + held) % w->p->page_size : held;
		if (l->ended || !held)
			continue;
		ph.p_type = host_to_dump32(order, PT_LOAD);
		ph.p_flags = host_to_dump32(order, l->seg.p_flags);
		ph.p_offset = host_to_dump64(order, l->seg_offset);
		ph.p_vaddr = host_to_dump64(order, l->seg.p_vaddr);
		ph.p_paddr = host_to_dump64(order, l->seg.p_paddr);
		ph.p_filesz = host_to_dump64(order, held);
		ph.p_memsz = host_to_dump64(order, held);
		ph.p_align = host_to_dump64(order, l->seg.p_align);
		mdf_error_drop(put_run(w, &w->phdrs, sizeof(Elf64_Ehdr) + l->phdr_next * sizeof(ph),
				       &ph, sizeof(ph)));
	}
}

/*
 * As the kdump writer: a file that failed to be written once its headers
 * and notes were in it is kept, marked, even if the disk filled before
 * its first segment was done; it has program headers of the segments
 * whose data is in it, those cut short up to where their data ends.
 */
static void abandon(struct elf_writer *w)
{
	bool keep = w->file.error && w->writing && dump_file_is_regular(&w->file) &&
		    !(w->p->remove_when_full && w->file.error == -ENOSPC);

	/* The file's failures here were told (or wait in its fate): only success counts. */
	if (keep && w->header_final)
		keep = !mdf_error_drop(dump_file_reopen(&w->file)) &&
		       !mdf_error_drop(write_ehdr(w, DUMP_ELF_INCOMPLETE)) &&
		       !mdf_error_drop(dump_file_sync(&w->file));
	if (!keep) {
		dump_file_discard(&w->file);
		return;
	}
	queue_cut_segments(w);
	mdf_error_drop(flush_run(w, &w->phdrs));
	dump_file_keep(&w->file);
	dump_file_warn_later(&w->file, "%s: kept incomplete: its ELF header says so (e_flags "
			     "DUMP_ELF_INCOMPLETE), and its program headers cover only the data "
			     "it holds", w->path);
}

static void free_writer(struct elf_writer *w)
{
	free(w->loads);
	free(w->present);
	free(w->dumpable);
	free(w->cycle_hash);
	free(w->data.buf);
	free(w->phdrs.buf);
	free(w->page);
}

struct mdf_error *elf_write(const struct elf_writer_params *p, const struct page_source *src,
			    struct page_counts *counts, struct elf_write_result *result)
{
	struct elf_writer w = { .p = p, .src = src };
	struct mdf_error *err;

	w.path = p->path && strcmp(p->path, "-") ? p->path : "standard output";
	err = setup(&w);
	if (!err)
		err = count_segments(&w, counts);
	if (!err)
		err = plan_file(&w);
	if (!err)
		err = dump_file_open(&w.file, p->path, p->force, p->flatten);
	dump_file_limit(&w.file, p->size_limit);
	w.file.progress = &w.progress;
	if (!err)
		err = write_headers(&w);
	if (!err)
		err = write_segments(&w, counts);
	if (!err)
		err = finish(&w);
	if (!err) {
		result->pfn_present = w.pfn_present;
		result->pfn_dumpable = w.pfn_dumpable;
		result->pfn_elf_excluded = w.elf_excluded;
		result->bytes_written = w.file.written;
	} else {
		abandon(&w);
	}
	result->fate = w.file.fate;
	free_writer(&w);
	return err;
}
