// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's VMCOREINFO note, found in the dump's memory.
 *
 * The note.  An ELF note as the kernel writes its others: a header of
 * three 32-bit words in the machine's byte order (n_namesz = 11, n_descsz
 * = the text's length, n_type = 0), the name "VMCOREINFO\0" padded to 12
 * bytes, then the text, "KEY=VALUE\n" lines beginning with OSRELEASE.
 * The text is VMCOREINFO_BYTES (a page) at most.
 *
 * Where it is.  Since Linux 4.13 the note lies in pages of its own,
 * vmcoreinfo_note, allocated at boot (alloc_pages_exact() in
 * crash_save_vmcoreinfo_init()): its header starts a page, in RAM the
 * page allocator chose, which /sys/kernel/vmcoreinfo names on the running
 * system and nothing names in the dump.  On the shared QEMU dumps it is
 * 24 MiB into RAM (x86_64), 38 MiB (arm64), 7.8 MiB (s390x), 60 MiB
 * (ppc64) and in the last MiB (riscv64): early allocations come from
 * either end.  Before 4.13 the note was an array in the image's .bss,
 * only 4-byte aligned: such kernels are not searched for (-i gives their
 * VMCOREINFO).
 *
 * The search.  Page starts only: the first 24 bytes of each page of the
 * dump's memory are the header or not.  It takes the memory in blocks of
 * a MiB, the first block of the lowest range, then the last of the
 * highest, and so on towards the middle, each block in ascending order so
 * that the input reads it in large pieces (elf_dump.c's read-ahead), and
 * only the pages the dump holds data for (clear_missing).  A page whose
 * start is the header is a candidate; it is taken only when
 *  - its text is whole in the dump, printable, one KEY=VALUE per line,
 *    with OSRELEASE and PAGESIZE;
 *  - the architecture (the format's, else the one its lines name) stores
 *    its values in the note's byte order, and sets up translation from it
 *    (arch_ops.init checks the kernel's page tables where it can);
 *  - init_uts_ns.name.release, read through that translation at
 *    SYMBOL(init_uts_ns), is its OSRELEASE.
 * A stale copy (a previous kernel's, before kexec) fails the last test:
 * its symbols do not fit the page tables of the kernel that crashed.
 * The first candidate that passes is taken; the search stops there.  A
 * dump with no note at all costs one read of all the memory it holds.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "input/elf_notes.h"
#include "input/vmcoreinfo.h"
#include "memory/reader.h"
#include "memory/vmcoreinfo_search.h"
#include "util/error.h"

#define NOTE_HEADER_SIZE 12
#define NOTE_NAME "VMCOREINFO"
#define NOTE_NAME_SIZE 11       /* with its NUL */
#define NOTE_DESC_OFFSET 24     /* header and name padded to 4 bytes */
/* VMCOREINFO_BYTES is a page: 64 KiB at most. */
#define MAX_TEXT (65536 - NOTE_DESC_OFFSET)
#define SEARCH_STEP (1u << 20)

/* struct new_utsname: six fields of 65 bytes; release is the third. */
#define UTS_FIELD_LEN 65
#define UTS_RELEASE_OFFSET (2 * UTS_FIELD_LEN)
/* Before uts_namespace.name was first (and VMCOREINFO said so) a struct kref preceded it. */
#define UTS_NAME_OFFSET_OLD 4

struct search {
	struct dump_input *in;
	const struct arch_ops *arch;
	unsigned char *pages;     /* room for a note's header and text */
	uint8_t *present;         /* a block's pages that the dump holds */
	uint64_t pages_read;
	unsigned int candidates;
	/* Why the first candidate was not taken, and where it is. */
	struct mdf_error *first_rejection;
	uint64_t first_paddr;
};

/* The note header at @p: its byte order and text length, or false. */
static bool read_header(const unsigned char *p, enum byte_order *order, uint32_t *text_len)
{
	uint32_t word;

	if (memcmp(p + NOTE_HEADER_SIZE, NOTE_NAME, NOTE_NAME_SIZE))
		return false;
	memcpy(&word, p, sizeof(word));
	if (dump_to_host32(BYTE_ORDER_LITTLE, word) == NOTE_NAME_SIZE)
		*order = BYTE_ORDER_LITTLE;
	else if (dump_to_host32(BYTE_ORDER_BIG, word) == NOTE_NAME_SIZE)
		*order = BYTE_ORDER_BIG;
	else
		return false;
	memcpy(&word, p + 8, sizeof(word));
	if (word)
		return false;
	memcpy(&word, p + 4, sizeof(word));
	*text_len = dump_to_host32(*order, word);
	return *text_len > 0 && *text_len <= MAX_TEXT;
}

/* Printable lines, each KEY=VALUE, OSRELEASE and PAGESIZE among them. */
static struct mdf_error *check_text(const char *text, size_t len)
{
	bool release = false, page_size = false;

	for (size_t start = 0, i = 0; i <= len; i++) {
		if (i < len && text[i] != '\n') {
			if ((unsigned char)text[i] < 0x20 || (unsigned char)text[i] > 0x7e)
				return mdf_error(-MDF_ECORRUPT, "its text holds byte 0x%02x at offset %zu",
						 (unsigned char)text[i], i);
			continue;
		}
		if (i > start && !memchr(text + start, '=', i - start))
			return mdf_error(-MDF_ECORRUPT, "its line at offset %zu has no '='", start);
		release |= i - start > 10 && !memcmp(text + start, "OSRELEASE=", 10);
		page_size |= i - start > 9 && !memcmp(text + start, "PAGESIZE=", 9);
		start = i + 1;
	}
	if (!release || !page_size)
		return mdf_error(-MDF_ECORRUPT, "its text has no %s line", release ? "PAGESIZE" : "OSRELEASE");
	return NULL;
}

/* init_uts_ns.name.release through @mem must be @vi's OSRELEASE. */
static struct mdf_error *check_release(struct memory *mem, const struct vmcoreinfo *vi)
{
	const char *release = vmcoreinfo_get(vi, "OSRELEASE");
	char found[UTS_FIELD_LEN];
	int64_t name_offset;
	uint64_t uts_ns;
	struct mdf_error *err;

	if (mdf_error_drop(vmcoreinfo_lookup_symbol(vi, "init_uts_ns", &uts_ns)))
		return mdf_error(-MDF_ECORRUPT, "it has no SYMBOL(init_uts_ns) to check its OSRELEASE against");
	if (mdf_error_drop(vmcoreinfo_lookup_offset(vi, "uts_namespace.name", &name_offset)))
		name_offset = UTS_NAME_OFFSET_OLD;
	err = mem_read_virt(mem, uts_ns + (uint64_t)name_offset + UTS_RELEASE_OFFSET, found, sizeof(found));
	if (err)
		return mdf_error_wrap(err, "its SYMBOL(init_uts_ns)=%" PRIx64 " does not read", uts_ns);
	found[sizeof(found) - 1] = '\0';
	if (strcmp(found, release))
		return mdf_error(-MDF_ECORRUPT, "its OSRELEASE=%.64s is not init_uts_ns's release \"%.64s\"",
				 release, found);
	return NULL;
}

/* Whether the candidate at @pfn, of @text_len bytes in @order, is the crashed kernel's note. */
static struct mdf_error *check_candidate(struct search *s, uint64_t pfn, enum byte_order order,
					 uint32_t text_len, struct vmcoreinfo **out)
{
	uint32_t page_size = s->in->page_size;
	size_t pages = (NOTE_DESC_OFFSET + (size_t)text_len + page_size - 1) / page_size;
	const char *text = (const char *)s->pages + NOTE_DESC_OFFSET;
	const struct arch_ops *arch = s->arch;
	struct vmcoreinfo *vi = NULL;
	struct memory *mem = NULL;
	struct mdf_error *err = NULL;
	char origin[64];

	for (size_t i = 1; i < pages && !err; i++) {
		err = input_read_page(s->in, pfn + i, s->pages + i * page_size);
		s->pages_read++;
		if (err)
			err = mdf_error_wrap(err, "its text runs into pfn 0x%" PRIx64, pfn + i);
	}
	if (!err)
		err = check_text(text, text_len);
	snprintf(origin, sizeof(origin), "the note at physical 0x%" PRIx64, pfn * page_size);
	if (!err)
		err = vmcoreinfo_parse(text, text_len, origin, &vi);
	if (!err && !arch)
		err = arch_from_vmcoreinfo(vi, &arch);
	if (!err && arch->byte_order != order)
		err = mdf_error(-MDF_ECORRUPT, "it is %s-endian, %s is not",
				order == BYTE_ORDER_BIG ? "big" : "little", arch->name);
	if (!err)
		err = memory_new(s->in, arch, vi, &mem);
	if (!err)
		err = check_release(mem, vi);
	memory_free(mem);
	if (err) {
		vmcoreinfo_free(vi);
		return err;
	}
	*out = vi;
	return NULL;
}

/* The page at @pfn: the note, or not; a candidate that fails is remembered. */
static bool try_page(struct search *s, uint64_t pfn, struct vmcoreinfo_found *out)
{
	enum byte_order order;
	uint32_t text_len;
	struct mdf_error *err;

	s->pages_read++;
	if (mdf_error_drop(input_read_page(s->in, pfn, s->pages)) || !read_header(s->pages, &order, &text_len))
		return false;
	s->candidates++;
	err = check_candidate(s, pfn, order, text_len, &out->vi);
	if (!err) {
		out->paddr = pfn * s->in->page_size;
		out->order = order;
		return true;
	}
	if (s->first_rejection) {
		mdf_error_free(err);
	} else {
		s->first_rejection = err;
		s->first_paddr = pfn * s->in->page_size;
	}
	return false;
}

/*
 * The search is for a dump whose notes hold no VMCOREINFO, not for one
 * whose notes are damaged: there the note may be among those lost, and
 * the notes a writer copies into the new dump would be as damaged.  Every
 * byte of the notes must be in a whole note, or in zeros to their end
 * (kexec pads its note segments so).
 */
static struct mdf_error *check_notes_whole(const struct dump_input *in)
{
	const unsigned char *notes = in->notes;
	struct elf_note note;
	size_t pos = 0, at = 0;

	while (at = pos, elf_note_next(notes, in->notes_size, in->notes_order, &pos, &note) == ELF_NOTE_FOUND)
		if (elf_note_is_padding(&note))
			break;
	for (size_t i = at; i < in->notes_size; i++)
		if (notes[i])
			return mdf_error(-MDF_ECORRUPT, "its notes are damaged from note offset 0x%zx on, where one "
					 "may have been; its memory is not searched", at);
	return NULL;
}

/* The dump's memory as blocks of @step pages or fewer, each in one range from its start: how many. */
static uint64_t count_blocks(const struct dump_input *in, uint64_t step)
{
	uint64_t total = 0;

	for (size_t i = 0; i < in->nr_ranges; i++) {
		uint64_t first = in->ranges[i].start / in->page_size;
		uint64_t end = (in->ranges[i].end + in->page_size - 1) / in->page_size;

		total += (end - first + step - 1) / step;
	}
	return total;
}

/* Block @index's pfns, [*@first, *@end). */
static void block_at(const struct dump_input *in, uint64_t step, uint64_t index, uint64_t *first, uint64_t *end)
{
	for (size_t i = 0; i < in->nr_ranges; i++) {
		uint64_t start = in->ranges[i].start / in->page_size;
		uint64_t stop = (in->ranges[i].end + in->page_size - 1) / in->page_size;
		uint64_t blocks = (stop - start + step - 1) / step;

		if (index < blocks) {
			*first = start + index * step;
			*end = stop - *first < step ? stop : *first + step;
			return;
		}
		index -= blocks;
	}
	*first = *end = 0;
}

/*
 * The pages of block @index that the dump holds data for (an ELF segment's
 * past its file data, a kdump file's excluded pages are not read), in
 * ascending order; whether the note was found.
 */
static bool try_block(struct search *s, uint64_t step, uint64_t index, struct vmcoreinfo_found *out)
{
	uint64_t first, end, base;

	block_at(s->in, step, index, &first, &end);
	base = first & ~(uint64_t)7;
	memset(s->present, 0xff, (size_t)((end - base + 7) / 8));
	if (s->in->ops->clear_missing)
		s->in->ops->clear_missing(s->in, base, end, s->present);
	for (uint64_t pfn = first; pfn < end; pfn++)
		if (s->present[(pfn - base) / 8] >> ((pfn - base) % 8) & 1 && try_page(s, pfn, out))
			return true;
	return false;
}

struct mdf_error *vmcoreinfo_search(struct dump_input *in, const struct arch_ops *arch,
				    struct vmcoreinfo_found *out)
{
	struct search s = { .in = in, .arch = arch };
	uint64_t step = SEARCH_STEP / in->page_size ? SEARCH_STEP / in->page_size : 1;
	uint64_t low = 0, high = count_blocks(in, step);
	struct timespec start, end;
	bool found = false, from_low = true;
	struct mdf_error *err;

	memset(out, 0, sizeof(*out));
	err = check_notes_whole(in);
	if (err)
		return err;
	s.pages = malloc(((NOTE_DESC_OFFSET + MAX_TEXT) / in->page_size + 1) * (size_t)in->page_size);
	s.present = malloc(step / 8 + 2);
	if (!s.pages || !s.present) {
		free(s.pages);
		free(s.present);
		return &mdf_error_enomem;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (low < high && !found) {
		found = try_block(&s, step, from_low ? low++ : --high, out);
		from_low = !from_low;
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	out->pages_read = s.pages_read;
	out->seconds = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9;
	free(s.pages);
	free(s.present);
	if (found) {
		mdf_error_free(s.first_rejection);
		return NULL;
	}
	if (!s.candidates)
		return mdf_error(-ENOENT, "nor does one start any of the %" PRIu64 " pages of memory it holds",
				 s.pages_read);
	if (s.candidates == 1)
		return mdf_error_wrap(s.first_rejection, "the one in its memory at physical 0x%" PRIx64 " is not "
				      "the crashed kernel's", s.first_paddr);
	return mdf_error_wrap(s.first_rejection, "none of the %u in its memory is the crashed kernel's; the "
			      "first, at physical 0x%" PRIx64, s.candidates, s.first_paddr);
}
