// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The program headers of an ELF dump, read as they lie in the file: the
 * ELF header gives where (e_phoff, which QEMU's layout puts after its
 * section headers) and how many; e_phnum PN_XNUM means the count is in
 * section header 0's sh_info.  Little-endian ELF64 only, as the input.
 */
#include <endian.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "input/dump_input.h"
#include "input/elf_segments.h"
#include "util/message.h"

/* Upstream's bound on a PT_NOTE segment, and elf_dump.c's. */
#define NOTE_MAX_SIZE (16u << 20)

static void host_ehdr(Elf64_Ehdr *e)
{
	e->e_type = le16toh(e->e_type);
	e->e_machine = le16toh(e->e_machine);
	e->e_version = le32toh(e->e_version);
	e->e_entry = le64toh(e->e_entry);
	e->e_phoff = le64toh(e->e_phoff);
	e->e_shoff = le64toh(e->e_shoff);
	e->e_flags = le32toh(e->e_flags);
	e->e_ehsize = le16toh(e->e_ehsize);
	e->e_phentsize = le16toh(e->e_phentsize);
	e->e_phnum = le16toh(e->e_phnum);
	e->e_shentsize = le16toh(e->e_shentsize);
	e->e_shnum = le16toh(e->e_shnum);
	e->e_shstrndx = le16toh(e->e_shstrndx);
}

static void host_phdr(Elf64_Phdr *p)
{
	p->p_type = le32toh(p->p_type);
	p->p_flags = le32toh(p->p_flags);
	p->p_offset = le64toh(p->p_offset);
	p->p_vaddr = le64toh(p->p_vaddr);
	p->p_paddr = le64toh(p->p_paddr);
	p->p_filesz = le64toh(p->p_filesz);
	p->p_memsz = le64toh(p->p_memsz);
	p->p_align = le64toh(p->p_align);
}

/* The number of program headers, from section header 0 past 65534 of them. */
static struct mdf_error *count_phdrs(struct dump_input *in, const Elf64_Ehdr *e, uint64_t *count)
{
	Elf64_Shdr sh;
	struct mdf_error *err;

	*count = e->e_phnum;
	if (e->e_phnum != PN_XNUM)
		return NULL;
	if (e->e_shoff == 0)
		return mdf_error(-MDF_ECORRUPT,
				 "%s: e_phnum is PN_XNUM but there is no section header to give the count",
				 in->path);
	err = input_pread(in, &sh, sizeof(sh), e->e_shoff, "section header 0");
	if (!err)
		*count = le32toh(sh.sh_info);
	return err;
}

static struct mdf_error *read_phdrs(struct dump_input *in, struct elf_segments *out, uint64_t count)
{
	bool have_note = false;

	for (uint64_t i = 0; i < count; i++) {
		Elf64_Phdr ph;
		struct mdf_error *err = input_pread(in, &ph, sizeof(ph), out->ehdr.e_phoff + i * sizeof(ph),
						    "a program header");

		if (err)
			return err;
		host_phdr(&ph);
		if (ph.p_type == PT_LOAD)
			out->loads[out->nr_loads++] = ph;
		else if (ph.p_type == PT_NOTE && !have_note)
			out->note = ph;
		have_note |= ph.p_type == PT_NOTE;
	}
	if (!have_note)
		return mdf_error(-MDF_ECORRUPT,
				 "%s: no PT_NOTE program header: an ELF dump file needs its notes",
				 in->path);
	if (out->note.p_filesz > NOTE_MAX_SIZE)
		return mdf_error(-MDF_ECORRUPT,
				 "%s: PT_NOTE of 0x%" PRIx64 " bytes: corrupt", in->path,
				 (uint64_t)out->note.p_filesz);
	out->note_bytes = malloc(out->note.p_filesz ? out->note.p_filesz : 1);
	if (!out->note_bytes)
		return &mdf_error_enomem;
	return input_pread(in, out->note_bytes, out->note.p_filesz, out->note.p_offset, "PT_NOTE");
}

struct mdf_error *elf_segments_read(struct dump_input *in, struct elf_segments *out)
{
	uint64_t count;
	struct mdf_error *err;

	memset(out, 0, sizeof(*out));
	err = input_pread(in, &out->ehdr, sizeof(out->ehdr), 0, "the ELF header");
	if (err)
		return err;
	host_ehdr(&out->ehdr);
	err = count_phdrs(in, &out->ehdr, &count);
	if (err)
		return err;
	if (out->ehdr.e_phentsize != sizeof(Elf64_Phdr) || count > in->file_size / sizeof(Elf64_Phdr))
		return mdf_error(-MDF_ECORRUPT,
				 "%s: %" PRIu64 " program headers of %u bytes: not an ELF64 dump's",
				 in->path, count, out->ehdr.e_phentsize);
	out->loads = calloc(count ? count : 1, sizeof(*out->loads));
	if (!out->loads)
		return mdf_error(-ENOMEM,
				 "%s: no memory for %" PRIu64 " program headers", in->path, count);
	err = read_phdrs(in, out, count);
	if (err)
		elf_segments_free(out);
	return err;
}

void elf_segments_free(struct elf_segments *segs)
{
	free(segs->loads);
	free(segs->note_bytes);
	segs->loads = NULL;
	segs->note_bytes = NULL;
	segs->nr_loads = 0;
}
