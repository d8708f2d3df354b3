// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * elf_notes.h: walking a block of ELF notes (Elf64_Nhdr, name, description,
 * each padded to four bytes), as a dump's PT_NOTE segments and /proc/kcore
 * hold them.  Every reader of notes (VMCOREINFO, ERASEINFO, the crashed
 * CPUs' NT_PRSTATUS) walks them the same way, with the same bounds checks.
 */
#ifndef MDF_INPUT_ELF_NOTES_H
#define MDF_INPUT_ELF_NOTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct elf_note {
	uint32_t type;
	uint32_t name_size;	/* n_namesz: the name's bytes with its NUL */
	uint32_t desc_size;
	const char *name;
	const unsigned char *desc;
};

enum elf_note_step {
	ELF_NOTE_END = 0,	/* fewer bytes than a note header remain */
	ELF_NOTE_FOUND = 1,	/* *note is the note at *pos; *pos is past it */
	ELF_NOTE_OVERRUN = -1,	/* the note at *pos runs past the block; *note has its sizes */
};

/* The note at *@pos of the @size bytes at @notes: see enum elf_note_step. */
enum elf_note_step elf_note_next(const void *notes, size_t size, size_t *pos,
				 struct elf_note *note);

/* Whether @note's name is @name (n_namesz counts the NUL). */
bool elf_note_named(const struct elf_note *note, const char *name);

/* A zero header: kexec pads its note segments with zeros. */
static inline bool elf_note_is_padding(const struct elf_note *note)
{
	return !note->name_size && !note->desc_size;
}

#endif
