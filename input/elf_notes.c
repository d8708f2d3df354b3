// SPDX-License-Identifier: GPL-2.0-or-later
/* elf_notes.c: one walk over ELF notes, bounds-checked, for every reader. */
#include <elf.h>
#include <string.h>

#include "input/elf_notes.h"

static size_t note_align(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

enum elf_note_step elf_note_next(const void *notes, size_t size, enum byte_order order, size_t *pos,
				 struct elf_note *note)
{
	const unsigned char *base = notes;
	size_t name_off, desc_off, next;
	Elf64_Nhdr nh;

	if (*pos > size || size - *pos < sizeof(nh))
		return ELF_NOTE_END;
	memcpy(&nh, base + *pos, sizeof(nh));
	note->type = dump_to_host32(order, nh.n_type);
	note->name_size = dump_to_host32(order, nh.n_namesz);
	note->desc_size = dump_to_host32(order, nh.n_descsz);
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

/* Whether every note of the block reads whole with its header in @order. */
static bool reads_whole(const void *notes, size_t size, enum byte_order order)
{
	struct elf_note note;
	enum elf_note_step step;
	size_t pos = 0;

	while ((step = elf_note_next(notes, size, order, &pos, &note)) == ELF_NOTE_FOUND)
		;
	return step == ELF_NOTE_END;
}

enum byte_order elf_notes_order(const void *notes, size_t size, enum byte_order likely)
{
	if (!notes || reads_whole(notes, size, likely))
		return likely;
	return reads_whole(notes, size, byte_order_other(likely)) ? byte_order_other(likely) : likely;
}

bool elf_note_named(const struct elf_note *note, const char *name)
{
	size_t len = strlen(name) + 1;

	return note->name_size == len && !memcmp(note->name, name, len);
}
