// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ELF64 crash dumps: /proc/vmcore as kexec builds it, and QEMU's
 * dump-guest-memory output.
 *
 * Both put physical memory in PT_LOAD segments and the VMCOREINFO text in
 * a note.  They differ in ways that matter to a reader:
 *  - kexec writes program headers right after the ELF header and gives each
 *    PT_LOAD a kernel virtual address; the kernel image's physical range is
 *    present twice, once in its own text segment and once in the direct map;
 *  - QEMU >= 7.2 puts the section header table before the program headers
 *    and leaves p_vaddr at 0.
 * libelf reads either layout from e_phoff, in either byte order; the
 * notes are in theirs (elf_notes.h), and the memory in the machine's
 * (arch/arch.c settles it).  Segments are indexed by physical address with
 * overlaps trimmed, so each physical page is read from exactly one place.
 * Bytes past p_filesz (up to p_memsz) read as zero.
 */
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/dump_format.h"
#include "input/dump_input.h"
#include "input/elf_notes.h"
#include "util/message.h"
#include "util/search.h"
#include "util/vec.h"

/* An ELF dump does not say its page size: VMCOREINFO's PAGESIZE does, else the smallest. */
#define DEFAULT_PAGE_SIZE 4096

struct elf_segment {
	uint64_t phys_start;
	uint64_t phys_end;     /* phys_start + p_memsz */
	uint64_t file_offset;
	uint64_t file_size;    /* bytes backed by the file, <= phys_end - phys_start */
};

/*
 * Pages are mostly read in ascending order (the page scan, the writer):
 * after two consecutive pages, the following ones come from a window read
 * ahead in one call, so that a dump costs a read per window, not per page.
 * The window starts small and doubles while the reads stay sequential:
 * walks of kernel structures meet neighbouring pages often, and a
 * megabyte read for each would cost more than the pages it saves.
 * Scattered reads (page tables, symbol tables) read what they ask.
 */
#define READ_AHEAD_MIN (64u << 10)
#define READ_AHEAD_MAX (1u << 20)

struct elf_input {
	struct elf_segment *segments;
	size_t nr_segments, cap_segments;
	unsigned char *window;    /* READ_AHEAD_MAX bytes, allocated on first use */
	uint64_t window_offset;   /* file offset of window[0] */
	size_t window_len;
	size_t ahead;             /* the size of the next window */
	/* A window read failed: pages before this offset are read one by one. */
	uint64_t single_until;
	uint64_t next_offset;     /* where a sequential reader reads next */
	/* Bytes [start, end) of the file failed to read in one piece: read_pages() leaves them alone. */
	uint64_t bulk_failed_start, bulk_failed_end;
};

/* The first segment (sorted, disjoint) that ends after @paddr; nr_segments if none. */
struct segment_search {
	const struct elf_segment *segments;
	uint64_t paddr;
};

static bool segment_ends_before(void *ctx, size_t i)
{
	const struct segment_search *s = ctx;

	return s->segments[i].phys_end <= s->paddr;
}

static size_t first_segment_after(const struct elf_input *ei, uint64_t paddr)
{
	struct segment_search s = { ei->segments, paddr };

	return search_partition_point(ei->nr_segments, segment_ends_before, &s);
}

/* Reads the page at file offset @offset of @seg, through the read-ahead window. */
static struct mdf_error *read_whole_page(struct dump_input *in, struct elf_input *ei,
					 const struct elf_segment *seg, uint64_t offset, void *buf)
{
	uint64_t seg_file_end = seg->file_offset + seg->file_size;
	bool sequential = offset == ei->next_offset;
	struct mdf_error *err;

	ei->next_offset = offset + in->page_size;
	/* Mapped, the page is read where it is: a window would copy its neighbours too. */
	if (in->map)
		return input_pread(in, buf, in->page_size, offset, "a PT_LOAD segment");
	if (offset >= ei->window_offset && offset + in->page_size <= ei->window_offset + ei->window_len) {
		memcpy(buf, ei->window + (offset - ei->window_offset), in->page_size);
		return NULL;
	}
	/* Past a failed window only the page that fails must be lost. */
	if (!sequential || offset < ei->single_until) {
		ei->ahead = READ_AHEAD_MIN;
		return input_pread(in, buf, in->page_size, offset, "a PT_LOAD segment");
	}
	if (!ei->window && !(ei->window = malloc(READ_AHEAD_MAX)))
		return input_pread(in, buf, in->page_size, offset, "a PT_LOAD segment");
	ei->window_len = seg_file_end - offset < ei->ahead ? (size_t)(seg_file_end - offset) : ei->ahead;
	if (ei->ahead < READ_AHEAD_MAX)
		ei->ahead *= 2;
	ei->window_offset = offset;
	err = input_pread(in, ei->window, ei->window_len, offset, "a PT_LOAD segment");
	if (err) {
		mdf_error_free(err);
		ei->single_until = offset + ei->window_len;
		ei->window_len = 0;
		ei->ahead = READ_AHEAD_MIN;
		return input_pread(in, buf, in->page_size, offset, "a PT_LOAD segment");
	}
	memcpy(buf, ei->window, in->page_size);
	return NULL;
}

/*
 * Where the file holds page @pfn whole, in one segment: *@offset, and
 * the segment in *@seg, which the caller gives back as a guess for the
 * next page (most follow in the same segment); false for a page it does
 * not hold so.
 */
static bool whole_page_offset(const struct dump_input *in, const struct elf_input *ei, uint64_t pfn,
			      size_t *seg, uint64_t *offset)
{
	uint64_t start = pfn * in->page_size;
	const struct elf_segment *s;

	if (*seg >= ei->nr_segments || ei->segments[*seg].phys_start > start ||
	    ei->segments[*seg].phys_end <= start)
		*seg = first_segment_after(ei, start);
	if (*seg == ei->nr_segments)
		return false;
	s = &ei->segments[*seg];
	if (s->phys_start > start || start + in->page_size > s->phys_start + s->file_size)
		return false;
	*offset = s->file_offset + (start - s->phys_start);
	return true;
}

/*
 * The writers' pages, straight into the codec's input: one pread() for
 * each run of pages that follow one another in the file, with no window
 * between (a copy of each page fewer than read_page()).  Mapped memory
 * would spare the kernel's copy too, but a first touch of each mapped
 * page costs more than the copy where page faults are dear (virtual
 * machines that shadow the page tables); a read into a buffer that
 * stays mapped costs neither.
 */
static size_t elf_read_pages(struct dump_input *in, const uint64_t *pfns, size_t count, void *buf)
{
	struct elf_input *ei = in->priv;
	size_t page = in->page_size, done = 0, seg = ei->nr_segments;

	while (done < count) {
		uint64_t offset, next;
		size_t run = 1;
		struct mdf_error *err;

		if (!whole_page_offset(in, ei, pfns[done], &seg, &offset) ||
		    (offset < ei->bulk_failed_end && offset >= ei->bulk_failed_start))
			break;
		while (done + run < count &&
		       whole_page_offset(in, ei, pfns[done + run], &seg, &next) && next == offset + run * page &&
		       !(next < ei->bulk_failed_end && next >= ei->bulk_failed_start))
			run++;
		err = input_pread(in, (unsigned char *)buf + done * page, run * page, offset, "a PT_LOAD segment");
		if (err) {
			/* Read one by one, only the page that fails is lost. */
			mdf_error_free(err);
			ei->bulk_failed_start = offset;
			ei->bulk_failed_end = offset + run * page;
			break;
		}
		done += run;
	}
	return done;
}

/* A run of pages that one segment's file data holds whole. */
static struct mdf_error *elf_file_offset(struct dump_input *in, uint64_t pfn, uint64_t count,
					 uint64_t *offset)
{
	struct elf_input *ei = in->priv;
	uint64_t start = pfn * in->page_size, len = count * in->page_size;
	size_t lo = first_segment_after(ei, start);

	if (lo == ei->nr_segments || ei->segments[lo].phys_start > start ||
	    start + len > ei->segments[lo].phys_start + ei->segments[lo].file_size)
		return &mdf_error_not_contiguous;
	*offset = ei->segments[lo].file_offset + (start - ei->segments[lo].phys_start);
	return NULL;
}

static int compare_segments(const void *a, const void *b)
{
	const struct elf_segment *sa = a, *sb = b;

	if (sa->phys_start != sb->phys_start)
		return sa->phys_start < sb->phys_start ? -1 : 1;
	/* At the same start, the longer segment first: it covers the other. */
	if (sa->phys_end != sb->phys_end)
		return sa->phys_end > sb->phys_end ? -1 : 1;
	return 0;
}

/* Trim overlaps so that every physical byte belongs to one segment. */
static void trim_overlaps(struct elf_input *ei)
{
	uint64_t covered_end = 0;
	size_t kept = 0;

	vec_sort(ei->segments, ei->nr_segments, compare_segments);
	for (size_t i = 0; i < ei->nr_segments; i++) {
		struct elf_segment seg = ei->segments[i];

		if (kept && seg.phys_end <= covered_end)
			continue;
		if (kept && seg.phys_start < covered_end) {
			uint64_t cut = covered_end - seg.phys_start;

			seg.phys_start = covered_end;
			seg.file_offset += cut;
			seg.file_size = seg.file_size > cut ? seg.file_size - cut : 0;
		}
		ei->segments[kept++] = seg;
		covered_end = seg.phys_end;
	}
	ei->nr_segments = kept;
}

static struct mdf_error *elf_read_page(struct dump_input *in, uint64_t pfn, void *buf)
{
	struct elf_input *ei = in->priv;
	uint64_t page_start = pfn * in->page_size;
	uint64_t page_end = page_start + in->page_size;
	size_t lo = first_segment_after(ei, page_start);
	bool found = false;

	/* The common case: one segment holds the whole page in the file. */
	if (lo < ei->nr_segments && ei->segments[lo].phys_start <= page_start &&
	    ei->segments[lo].phys_start + ei->segments[lo].file_size >= page_end)
		return read_whole_page(in, ei, &ei->segments[lo],
				       ei->segments[lo].file_offset + (page_start - ei->segments[lo].phys_start),
				       buf);
	memset(buf, 0, in->page_size);
	for (size_t i = lo; i < ei->nr_segments && ei->segments[i].phys_start < page_end; i++) {
		const struct elf_segment *seg = &ei->segments[i];
		uint64_t from = seg->phys_start > page_start ? seg->phys_start : page_start;
		uint64_t to = seg->phys_end < page_end ? seg->phys_end : page_end;
		uint64_t file_end = seg->phys_start + seg->file_size;

		found = true;
		if (to > file_end)
			to = file_end;
		if (from >= to)
			continue;
		struct mdf_error *err = input_pread(in, (char *)buf + (from - page_start), to - from,
						    seg->file_offset + (from - seg->phys_start),
						    "a PT_LOAD segment");
		if (err)
			return err;
	}
	return found ? NULL : &mdf_error_not_dumped;
}

static void elf_clear_missing(struct dump_input *in, uint64_t start_pfn, uint64_t end_pfn,
			      uint8_t *bitmap)
{
	const struct elf_input *ei = in->priv;

	for (size_t i = 0; i < ei->nr_segments; i++) {
		const struct elf_segment *seg = &ei->segments[i];
		/*
		 * From the page where the file data ends, as upstream's
		 * exclude_nodata_pages: a page the file holds only in part
		 * has no data to dump.
		 */
		uint64_t from = (seg->phys_start + seg->file_size) / in->page_size;
		uint64_t to = (seg->phys_end + in->page_size - 1) / in->page_size;

		if (from < start_pfn)
			from = start_pfn;
		if (to > end_pfn)
			to = end_pfn;
		for (uint64_t pfn = from; pfn < to; pfn++)
			bitmap[(pfn - start_pfn) / 8] &= (uint8_t)~(1u << ((pfn - start_pfn) % 8));
	}
}

static void elf_close(struct dump_input *in)
{
	struct elf_input *ei = in->priv;

	if (ei) {
		free(ei->segments);
		free(ei->window);
	}
	free(ei);
	in->priv = NULL;
}

static const struct input_ops elf_ops = {
	.name = "ELF",
	.read_page = elf_read_page,
	.read_pages = elf_read_pages,
	.file_offset = elf_file_offset,
	.clear_missing = elf_clear_missing,
	.close = elf_close,
};

static struct mdf_error *append_notes(struct dump_input *in, const GElf_Phdr *ph)
{
	unsigned char *grown;
	struct mdf_error *err;

	if (ph->p_filesz > (16u << 20))
		return mdf_error(-MDF_ECORRUPT,
				 "%s: PT_NOTE at offset 0x%llx claims 0x%llx bytes: corrupt", in->path,
				 (unsigned long long)ph->p_offset, (unsigned long long)ph->p_filesz);
	grown = realloc(in->notes, in->notes_size + ph->p_filesz);
	if (!grown)
		return &mdf_error_enomem;
	in->notes = grown;
	err = input_pread(in, in->notes + in->notes_size, ph->p_filesz, ph->p_offset, "PT_NOTE");
	if (err)
		return err;
	in->notes_size += ph->p_filesz;
	return NULL;
}

/* Finds the last VMCOREINFO note among all notes and keeps a copy of its text. */
static struct mdf_error *find_vmcoreinfo(struct dump_input *in)
{
	struct elf_note note;
	enum elf_note_step step;
	size_t pos = 0;
	struct mdf_error *err = NULL;

	while (!err && (step = elf_note_next(in->notes, in->notes_size, in->notes_order, &pos, &note)) ==
			       ELF_NOTE_FOUND) {
		/* A zero-filled tail is padding from kexec, not corruption. */
		if (elf_note_is_padding(&note))
			return NULL;
		if (elf_note_named(&note, "VMCOREINFO"))
			err = input_set_vmcoreinfo(in, note.desc, note.desc_size);
	}
	if (!err && step == ELF_NOTE_OVERRUN)
		err = mdf_error(-MDF_ECORRUPT,
				"%s: ELF note at note offset 0x%zx runs past the notes' end (namesz %u, descsz %u)",
				in->path, pos, note.name_size, note.desc_size);
	return err;
}

static struct mdf_error *add_segment(struct dump_input *in, struct elf_input *ei, const GElf_Phdr *ph,
				     size_t index)
{

	if (ph->p_filesz > ph->p_memsz)
		return mdf_error(-MDF_ECORRUPT,
				 "%s: PT_LOAD %zu has p_filesz 0x%llx above p_memsz 0x%llx", in->path, index,
				 (unsigned long long)ph->p_filesz, (unsigned long long)ph->p_memsz);
	if (ph->p_offset > in->file_size || ph->p_filesz > in->file_size - ph->p_offset)
		return mdf_error(-MDF_ECORRUPT,
				 "%s: PT_LOAD %zu (paddr 0x%llx) needs file bytes 0x%llx-0x%llx but the file "
				 "ends at 0x%llx: truncated dump?", in->path, index,
				 (unsigned long long)ph->p_paddr, (unsigned long long)ph->p_offset,
				 (unsigned long long)(ph->p_offset + ph->p_filesz),
				 (unsigned long long)in->file_size);
	if (ph->p_paddr + ph->p_memsz < ph->p_paddr)
		return mdf_error(-MDF_ECORRUPT,
				 "%s: PT_LOAD %zu: paddr 0x%llx + memsz 0x%llx wraps around", in->path, index,
				 (unsigned long long)ph->p_paddr, (unsigned long long)ph->p_memsz);
	if (ph->p_memsz == 0)
		return NULL;
	if (vec_reserve(ei->segments, &ei->cap_segments, ei->nr_segments, 1))
		return &mdf_error_enomem;
	ei->segments[ei->nr_segments++] = (struct elf_segment){
		.phys_start = ph->p_paddr,
		.phys_end = ph->p_paddr + ph->p_memsz,
		.file_offset = ph->p_offset,
		.file_size = ph->p_filesz,
	};
	return NULL;
}

/* libelf's reason for its last failure; it has none for some headers it refuses. */
static const char *libelf_says(void)
{
	int code = elf_errno();

	return code ? elf_errmsg(code) : "libelf refuses it without saying why";
}

/*
 * The identification bytes, checked here: libelf refuses a wrong class
 * or version without a reason to give, and those are what damage shows.
 */
static struct mdf_error *check_ident(const struct dump_input *in)
{
	unsigned char ident[EI_NIDENT];
	ssize_t n = pread(in->fd, ident, sizeof(ident), 0);

	if (n != (ssize_t)sizeof(ident))
		return mdf_error(-MDF_ECORRUPT, "%s: shorter than an ELF header (%zd bytes)", in->path, n < 0 ? 0 : n);
	if (memcmp(ident, ELFMAG, SELFMAG))
		return mdf_error(-MDF_ECORRUPT, "%s: no ELF magic number", in->path);
	if (ident[EI_CLASS] != ELFCLASS64)
		return mdf_error(-ENOTSUP, "%s: only ELF64 dumps are supported (class %u)", in->path,
				 ident[EI_CLASS]);
	if (ident[EI_DATA] != ELFDATA2LSB && ident[EI_DATA] != ELFDATA2MSB)
		return mdf_error(-MDF_ECORRUPT, "%s: EI_DATA %u names no byte order (1 little-endian, "
				 "2 big-endian): corrupt", in->path, ident[EI_DATA]);
	if (ident[EI_VERSION] != EV_CURRENT)
		return mdf_error(-MDF_ECORRUPT, "%s: ELF version %u in its header, not %u: corrupt", in->path,
				 ident[EI_VERSION], EV_CURRENT);
	return NULL;
}

static struct mdf_error *elf_input_open(struct dump_input *in)
{
	struct elf_input *ei;
	struct mdf_error *err;
	Elf *elf = NULL;
	GElf_Ehdr eh;
	size_t phnum;

	ei = calloc(1, sizeof(*ei));
	if (!ei)
		return &mdf_error_enomem;
	ei->ahead = READ_AHEAD_MIN;
	in->priv = ei;
	in->ops = &elf_ops;

	err = check_ident(in);
	if (err)
		goto out;
	elf_version(EV_CURRENT);
	elf = elf_begin(in->fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		err = mdf_error(-MDF_ECORRUPT, "%s: cannot read the ELF header: %s", in->path, libelf_says());
		goto out;
	}
	if (eh.e_type != ET_CORE) {
		err = mdf_error(-EINVAL,
				"%s: an ELF file but not a core dump (e_type %u)", in->path, eh.e_type);
		goto out;
	}
	in->elf_machine = eh.e_machine;
	in->elf_data = eh.e_ident[EI_DATA];
	/* libelf reads the headers in this order; the notes are read raw. */
	in->byte_order = in->elf_data == ELFDATA2MSB ? BYTE_ORDER_BIG : BYTE_ORDER_LITTLE;
	in->page_size = DEFAULT_PAGE_SIZE;
	if (elf_getphdrnum(elf, &phnum) < 0) {
		err = mdf_error(-MDF_ECORRUPT,
				"%s: cannot count the program headers: %s", in->path, libelf_says());
		goto out;
	}
	if (eh.e_phoff > in->file_size || phnum * (uint64_t)sizeof(Elf64_Phdr) > in->file_size - eh.e_phoff) {
		err = mdf_error(-MDF_ECORRUPT,
				"%s: %zu program headers at offset 0x%llx run past the end of the file (0x%llx)",
				in->path, phnum, (unsigned long long)eh.e_phoff,
				(unsigned long long)in->file_size);
		goto out;
	}
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph)) {
			err = mdf_error(-MDF_ECORRUPT,
					"%s: cannot read program header %zu: %s", in->path, i, libelf_says());
			goto out;
		}
		if (ph.p_type == PT_LOAD)
			err = add_segment(in, ei, &ph, i);
		else if (ph.p_type == PT_NOTE)
			err = append_notes(in, &ph);
		else
			err = NULL;
		if (err)
			goto out;
	}
	if (!ei->nr_segments) {
		err = mdf_error(-MDF_ECORRUPT,
				"%s: no PT_LOAD segment: the dump holds no memory", in->path);
		goto out;
	}
	in->notes_order = elf_notes_order(in->notes, in->notes_size, in->byte_order);
	err = find_vmcoreinfo(in);
	if (err)
		goto out;
	in->page_size = input_vmcoreinfo_page_size(in, DEFAULT_PAGE_SIZE);
	trim_overlaps(ei);
	for (size_t i = 0; i < ei->nr_segments; i++) {
		err = input_add_range(in, ei->segments[i].phys_start, ei->segments[i].phys_end);
		if (err)
			goto out;
	}
	input_normalise_ranges(in);
out:
	if (elf)
		elf_end(elf);
	return err;
}

/* Any file with the ELF magic: its open says what else is wrong with it. */
static bool elf_probe(struct dump_input *in, const unsigned char *head, size_t len)
{
	(void)in;
	return len >= SELFMAG && !memcmp(head, ELFMAG, SELFMAG);
}

const struct dump_format elf_dump_format = {
	.probe = elf_probe,
	.open = elf_input_open,
};
