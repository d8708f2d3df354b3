/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Dump input formats behind one small interface.
 *
 * An input gives physical memory page by page, the list of physical ranges
 * it holds, the VMCOREINFO text and the ELF notes.  It knows nothing of what
 * a page is for.  One file implements each format: elf_dump.c (kexec's
 * /proc/vmcore and QEMU's dump-guest-memory), kdump_compressed.c
 * (kdump-compressed files, whole or split), kcore.c (/proc/kcore);
 * input_open.c holds their table (input/dump_format.h).
 */
#ifndef MDF_INPUT_DUMP_INPUT_H
#define MDF_INPUT_DUMP_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/byte_order.h"
#include "util/error.h"

/* A byte range [start, end) of physical memory. */
struct phys_range {
	uint64_t start;
	uint64_t end;
};

struct dump_input;

struct input_ops {
	const char *name;
	/*
	 * Reads the page of frame number @pfn into @buf (page_size bytes).
	 * Returns NULL, &mdf_error_excluded when the dump left the page out,
	 * &mdf_error_not_dumped when the page is in none of the ranges, or an
	 * error saying what is wrong with the file.  Bytes of a partly present
	 * page that lie outside every range read as zero.
	 */
	struct mdf_error *(*read_page)(struct dump_input *in, uint64_t pfn, void *buf);
	/*
	 * Optional: reads the pages of the frames @pfns[0..@count), rising,
	 * into @buf, page i at i * page_size, straight from the file, one
	 * read for each run of them that lies in one piece in the file.
	 * Returns how many of the first it read: it stops before a page it
	 * cannot read so (one not simply whole in the file, one whose read
	 * failed), which the caller reads with read_page() to learn its fate.
	 */
	size_t (*read_pages)(struct dump_input *in, const uint64_t *pfns, size_t count, void *buf);
	/*
	 * Optional: where the file holds the @count whole pages from frame
	 * @pfn on, one after the other (*@offset), for bulk reads (BTF,
	 * symbol tables) in one call or one mapping rather than page by page.
	 * &mdf_error_not_contiguous when they are not simply all there: the
	 * caller then reads a page at a time.
	 */
	struct mdf_error *(*file_offset)(struct dump_input *in, uint64_t pfn, uint64_t count,
					 uint64_t *offset);
	/*
	 * Clears in @bitmap (bit i is pfn start_pfn + i, start_pfn a multiple
	 * of 8) the pfns that lie in a range but whose data the dump does not
	 * hold: pages an earlier filtering excluded, ELF pages past a
	 * segment's p_filesz.
	 */
	void (*clear_missing)(struct dump_input *in, uint64_t start_pfn, uint64_t end_pfn,
			      uint8_t *bitmap);
	void (*close)(struct dump_input *in);
};

/* What the kdump-compressed header said, where the input is one. */
struct kdump_header_info {
	int header_version;
	int dump_level;
	uint32_t status;
	bool split;
	uint64_t start_pfn;
	uint64_t end_pfn;
	uint64_t phys_base;
	/* Where the erase information is (header version 5 on); size 0 for none. */
	uint64_t eraseinfo_offset;
	uint64_t eraseinfo_size;
	uint64_t max_mapnr;
	int nr_cpus;
	int64_t timestamp_sec;
	int64_t timestamp_usec;
	char release[65];
	char machine[65];
};

struct dump_input {
	const struct input_ops *ops;
	const char *path;
	int fd;
	uint64_t file_size;
	uint32_t page_size;
	/*
	 * What the format says of the dumped machine, raw: arch/ decides.
	 * An ELF or kcore file's e_machine (EM_NONE otherwise) and EI_DATA
	 * (ELFDATA2LSB or ELFDATA2MSB; 0 otherwise); the machine the format
	 * names in text (a kdump header's utsname.machine), NULL when it
	 * names none or says "Unknown".
	 */
	uint16_t elf_machine;
	unsigned char elf_data;
	const char *machine;
	/*
	 * Byte orders, which one dump may mix (util/byte_order.h): the
	 * order of the format's own headers (an ELF's EI_DATA, the order a
	 * kdump header's header_version reads in), and of the notes (their
	 * own: elf_notes_order()).  The memory's is the dumped machine's,
	 * which arch/ settles (an ELF's headers may misstate it; a kdump file
	 * is written in it).
	 */
	enum byte_order byte_order;
	enum byte_order notes_order;
	/* Physical memory held, sorted, disjoint, each page once. */
	struct phys_range *ranges;
	size_t nr_ranges, cap_ranges;
	/* One past the highest pfn of any range. */
	uint64_t max_pfn;
	/* The VMCOREINFO text, NUL-terminated; NULL if the dump has none. */
	char *vmcoreinfo;
	size_t vmcoreinfo_size;
	/* Every ELF note of the dump, raw (Elf64_Nhdr, name, desc, ...), in notes_order. */
	unsigned char *notes;
	size_t notes_size;
	/* Set when the input is kdump-compressed. */
	const struct kdump_header_info *kdump;
	/* Set when the file is read through mmap windows: input_map_procfs(). */
	struct vmcore_map *map;
	void *priv;
};

/*
 * Opens @path, a crash dump, recognising its format from its first bytes
 * (input_open.c); the error says what is wrong with it.
 */
struct mdf_error *input_open(const char *path, struct dump_input **out);
/* As input_open(), and a running system's memory too (/proc/kcore, or a copy): --mem-usage counts it. */
struct mdf_error *input_open_live(const char *path, struct dump_input **out);
void input_close(struct dump_input *in);

static inline struct mdf_error *input_read_page(struct dump_input *in, uint64_t pfn, void *buf)
{
	return in->ops->read_page(in, pfn, buf);
}

/* As input_ops.read_pages; 0 for an input that reads only page by page. */
static inline size_t input_read_pages(struct dump_input *in, const uint64_t *pfns, size_t count, void *buf)
{
	return in->ops->read_pages ? in->ops->read_pages(in, pfns, count, buf) : 0;
}

/*
 * Reads the file through mmap windows from now on, when it is a file of
 * procfs (/proc/vmcore) that can be mapped (input/vmcore_map.h says why
 * only those); returns whether it does.
 */
bool input_map_procfs(struct dump_input *in);

/* Replaces in->vmcoreinfo with a NUL-terminated copy of @size bytes of @text. */
struct mdf_error *input_set_vmcoreinfo(struct dump_input *in, const void *text, size_t size);

/*
 * The page size VMCOREINFO's PAGESIZE line gives, where the format does
 * not say (ELF dumps); @fallback when the line is absent or no power of
 * two from 4 KiB to 64 KiB.
 */
uint32_t input_vmcoreinfo_page_size(const struct dump_input *in, uint32_t fallback);


/*
 * Helpers for the formats: keep ranges sorted and drop overlaps so that
 * each physical page is held once; find the range holding an address.
 */
struct mdf_error *input_add_range(struct dump_input *in, uint64_t start, uint64_t end);
void input_normalise_ranges(struct dump_input *in);
const struct phys_range *input_find_range(const struct dump_input *in, uint64_t paddr);

/* Reads exactly @len bytes at @offset; @what names them in the error. */
struct mdf_error *input_pread(struct dump_input *in, void *buf, size_t len, uint64_t offset, const char *what);

#endif
