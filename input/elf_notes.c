// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * elf_notes.c: one walk over ELF notes, bounds-checked, for every reader.
 * Dumps are little-endian: the header words are read as such.
 */
#include <elf.h>
#include <endian.h>
#include <string.h>

#include "input/elf_notes.h"

static size_t note_align(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

enum elf_note_step elf_note_next(const void *notes, size_t size, size_t *pos,
				 struct elf_note *note)
{
	const unsigned char *base = notes;
	size_t name_off, desc_off, next;
	Elf64_Nhdr nh;

	if (*pos > size || size - *pos < sizeof(nh))
		return ELF_NOTE_END;
	memcpy(&nh, base + *pos, sizeof(nh));
	note->type = le32toh(nh.n_type);
	note->name_size = le32toh(nh.n_namesz);
	note->desc_size = le32toh(nh.n_descsz);
	name_off = *pos + sizeof(nh);
	/* Sizes are 32-bit and size_t is 64-bit: these sums cannot wrap. */
	desc_off = name_off + note_align(note->name_size);
	next = desc_off + note_align(note->desc_size);
	if (desc_off > size || next > size)
		return ELF_NOTE_OVERRUN;
	note->name = (const char *)base + name_off;
	note->desc = base + desc_off;
	*pos = next;
	return ELF_NOTE_FOUND;
}

bool elf_note_named(const struct elf_note *note, const char *name)
{
	size_t len = strlen(name) + 1;

	return note->name_size == len && !memcmp(note->name, name, len);
}
