// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_dump.h: one dump file through the input layer, as makedumpfile
 * reads one before it filters: input_open() on the fuzz input (a memfd),
 * then its notes, its VMCOREINFO, a few pages of each range, the
 * optional operations, and the memory reader with the architecture's
 * page-table walk on top.  fuzz_elf_input.c and fuzz_kdump_input.c each
 * keep to their format's signature, so that each corpus grows inputs of
 * its own format.
 */
#ifndef FUZZ_DUMP_H
#define FUZZ_DUMP_H

#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "fuzz.h"
#include "input/dump_input.h"
#include "input/elf_notes.h"
#include "input/vmcoreinfo.h"
#include "memory/reader.h"
#include "util/error.h"

/* Reading memory the sanitizers watch is the point; the sum only keeps the reads. */
static volatile unsigned int fuzz_dump_sink;

/* Ranges and pages looked at: enough for every kind of range a dump has, few enough to stay fast. */
#define FUZZ_DUMP_RANGES 8
#define FUZZ_DUMP_NOTES 4096

static void fuzz_dump_touch(const void *bytes, size_t len)
{
	const unsigned char *p = bytes;
	unsigned int sum = 0;

	for (size_t i = 0; i < len; i++)
		sum += p[i];
	fuzz_dump_sink += sum;
}

static void fuzz_dump_notes(const struct dump_input *in)
{
	struct elf_note note;
	size_t pos = 0;

	for (int i = 0; i < FUZZ_DUMP_NOTES &&
			elf_note_next(in->notes, in->notes_size, &pos, &note) == ELF_NOTE_FOUND; i++) {
		fuzz_dump_touch(note.name, note.name_size);
		fuzz_dump_touch(note.desc, note.desc_size);
		fuzz_dump_sink += elf_note_named(&note, "VMCOREINFO");
	}
}

static void fuzz_dump_read_page(struct dump_input *in, uint64_t pfn, void *page)
{
	struct mdf_error *err = input_read_page(in, pfn, page);

	if (!err)
		fuzz_dump_touch(page, in->page_size);
	mdf_error_free(err);
}

static void fuzz_dump_pages(struct dump_input *in)
{
	unsigned char *page = malloc(in->page_size);

	if (!page)
		fuzz_die("malloc of a page");
	fuzz_dump_read_page(in, 0, page);
	fuzz_dump_read_page(in, in->max_pfn, page);
	for (size_t i = 0; i < in->nr_ranges && i < FUZZ_DUMP_RANGES; i++) {
		uint64_t first = in->ranges[i].start / in->page_size;
		uint64_t last = (in->ranges[i].end - 1) / in->page_size;

		/* Twice in a row, as a sequential reader does: the ELF reader then reads ahead. */
		fuzz_dump_read_page(in, first, page);
		fuzz_dump_read_page(in, first + 1, page);
		fuzz_dump_read_page(in, first + 2, page);
		fuzz_dump_read_page(in, last, page);
	}
	free(page);
}

static void fuzz_dump_optional_ops(struct dump_input *in)
{
	uint64_t start, offset;
	uint8_t bitmap[32];

	if (!in->nr_ranges)
		return;
	start = in->ranges[0].start / in->page_size;
	if (in->ops->file_offset) {
		fuzz_dump_sink += mdf_error_drop(in->ops->file_offset(in, start, 1, &offset));
		fuzz_dump_sink += mdf_error_drop(in->ops->file_offset(in, start, 64, &offset));
	}
	if (in->ops->clear_missing) {
		memset(bitmap, 0xff, sizeof(bitmap));
		start &= ~(uint64_t)7;
		in->ops->clear_missing(in, start, start + 8 * sizeof(bitmap), bitmap);
		fuzz_dump_touch(bitmap, sizeof(bitmap));
	}
}

/* What the kernel image's translation meets first: the symbols VMCOREINFO names. */
static void fuzz_dump_memory(struct dump_input *in, const struct vmcoreinfo *vi)
{
	static const char *const symbols[] = { "_stext", "init_uts_ns", "swapper_pg_dir", "mem_section" };
	const struct arch_ops *arch;
	struct memory *mem = NULL;
	struct mdf_error *err = arch_detect(in, vi, &arch);

	if (!err)
		err = memory_new(in, arch, vi, &mem);
	for (size_t i = 0; !err && i < sizeof(symbols) / sizeof(symbols[0]); i++) {
		unsigned char bytes[64];
		uint64_t vaddr, paddr;

		if (mdf_error_drop(vmcoreinfo_lookup_symbol(vi, symbols[i], &vaddr)))
			continue;
		fuzz_dump_sink += mdf_error_drop(mem_vtop(mem, vaddr, &paddr));
		if (!mdf_error_drop(mem_read_virt(mem, vaddr, bytes, sizeof(bytes))))
			fuzz_dump_touch(bytes, sizeof(bytes));
	}
	mdf_error_free(err);
	memory_free(mem);
}

static void fuzz_dump_vmcoreinfo(struct dump_input *in)
{
	struct vmcoreinfo *vi = NULL;
	int64_t page_size;
	struct mdf_error *err;

	if (!in->vmcoreinfo)
		return;
	err = vmcoreinfo_parse(in->vmcoreinfo, in->vmcoreinfo_size, in->path, &vi);
	if (!err) {
		fuzz_dump_sink += !mdf_error_drop(vmcoreinfo_lookup_plain(vi, "PAGESIZE", &page_size));
		fuzz_dump_memory(in, vi);
	}
	mdf_error_free(err);
	vmcoreinfo_free(vi);
}

/*
 * Opens @data with @open unless it lacks @signature; -1 tells libFuzzer
 * to keep no such input.
 */
static int fuzz_dump_one(const uint8_t *data, size_t size, const char *signature, size_t signature_len,
			 struct mdf_error *(*open)(const char *path, struct dump_input **out))
{
	struct dump_input *in = NULL;
	struct mdf_error *err;
	char path[32];
	int fd;

	if (size < signature_len || memcmp(data, signature, signature_len))
		return -1;
	fd = fuzz_memfd(data, size, path);
	err = open(path, &in);
	if (!err) {
		fuzz_dump_notes(in);
		fuzz_dump_pages(in);
		fuzz_dump_optional_ops(in);
		fuzz_dump_vmcoreinfo(in);
	}
	mdf_error_free(err);
	input_close(in);
	close(fd);
	return 0;
}

#endif
