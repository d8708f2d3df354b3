/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The program headers of an ELF dump as its file lists them: for the ELF
 * writer, which keeps the input's segments (order, virtual addresses,
 * flags, the kernel image's second copy in a kexec dump) as upstream
 * makedumpfile keeps them.  The input layer (elf_dump.c) merges them into
 * physical ranges, which is what every other reader wants.
 */
#ifndef MDF_INPUT_ELF_SEGMENTS_H
#define MDF_INPUT_ELF_SEGMENTS_H

#include <elf.h>
#include <stddef.h>

struct dump_input;
struct mdf_error;

struct elf_segments {
	Elf64_Ehdr ehdr;
	/* The first PT_NOTE and its bytes, which the ELF writer copies. */
	Elf64_Phdr note;
	unsigned char *note_bytes;
	/* Every PT_LOAD, in file order. */
	Elf64_Phdr *loads;
	size_t nr_loads;
};

/*
 * Reads the ELF header and program headers of @in, which must be an ELF
 * dump (elf_dump.c checked its class, byte order and machine).  On
 * failure it holds nothing.
 */
struct mdf_error *elf_segments_read(struct dump_input *in, struct elf_segments *out);
void elf_segments_free(struct elf_segments *segs);

#endif
