/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a dump format gives input_open(): one entry of its table
 * (input/input_open.c), as libkdumpfile's format_ops.
 *
 * The probe says whether a file is of the format, from its first bytes
 * and, where those cannot tell (a kcore is an ELF core too), from the
 * file; it neither fails nor keeps anything.  input_open() tries the
 * probes in the table's order and opens the file with the first format
 * whose probe says yes.  The open reads the format's headers into the
 * struct dump_input: its input_ops, the page size, the physical ranges,
 * VMCOREINFO, the notes and what the format says of the dumped machine.
 * What it attached before an error, input_close() frees.
 */
#ifndef MDF_INPUT_DUMP_FORMAT_H
#define MDF_INPUT_DUMP_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

struct dump_input;
struct mdf_error;

/* The bytes a probe is given: an ELF header's, the longest signature a probe reads. */
#define DUMP_FORMAT_HEAD_SIZE 64

struct dump_format {
	/*
	 * @head: the file's first @len bytes, DUMP_FORMAT_HEAD_SIZE but
	 * for a shorter file; @in has the file open, path and size set.
	 */
	bool (*probe)(struct dump_input *in, const unsigned char *head, size_t len);
	struct mdf_error *(*open)(struct dump_input *in);
	/* A running system's memory, no crash dump: only input_open_live() tries it. */
	bool live;
};

extern const struct dump_format elf_dump_format;         /* elf_dump.c */
extern const struct dump_format kdump_compressed_format; /* kdump_compressed.c */
extern const struct dump_format kcore_format;            /* kcore.c */

#endif
