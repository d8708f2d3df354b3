/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * elf_notes.h: walking a block of ELF notes (Elf64_Nhdr, name, description,
 * each padded to four bytes), as a dump's PT_NOTE segments and /proc/kcore
 * hold them.  Every reader of notes (VMCOREINFO, ERASEINFO, the crashed
 * CPUs' NT_PRSTATUS) walks them the same way, with the same bounds checks.
 *
 * The notes are in the byte order of whoever wrote them, which is not
 * always the order of the file around them: elf-relayout.py rewrites an
 * ELF's headers in the other order and leaves the notes as they were, and
 * a kdump-compressed file of QEMU's ppc64el ELF holds big-endian notes
 * under a little-endian header.  The notes say their order themselves:
 * their sizes, read in the wrong one, run past the block.
 */
#ifndef MDF_INPUT_ELF_NOTES_H
#define MDF_INPUT_ELF_NOTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/byte_order.h"

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

/* The note at *@pos of the @size bytes at @notes, its header in @order: see enum elf_note_step. */
enum elf_note_step elf_note_next(const void *notes, size_t size, enum byte_order order, size_t *pos,
				 struct elf_note *note);

/*
 * The order the notes' headers are in: @likely when every note reads
 * whole in it (and for an empty block, which reads in both), else the
 * other one when every note reads whole in that, else @likely, in which
 * a reader then meets the note that runs past the end.
 */
enum byte_order elf_notes_order(const void *notes, size_t size, enum byte_order likely);

/* Whether @note's name is @name (n_namesz counts the NUL). */
bool elf_note_named(const struct elf_note *note, const char *name);

/* A zero header: kexec pads its note segments with zeros. */
static inline bool elf_note_is_padding(const struct elf_note *note)
{
	return !note->name_size && !note->desc_size;
}

#endif
