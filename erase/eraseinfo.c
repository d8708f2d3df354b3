// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading the erase information of a dump file (eraseinfo.h draws where it is). */
#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "erase/eraseinfo.h"
#include "input/dump_input.h"
#include "input/elf_notes.h"
#include "util/message.h"

/* The first eraseinfo version of the kdump sub header. */
#define ERASEINFO_HEADER_VERSION 5

/* A copy of the note's @size bytes, NUL-terminated; its length stops at the padding. */
static struct mdf_error *copy_text(const void *data, size_t size, char **text, size_t *len)
{
	char *copy = malloc(size + 1);

	if (!copy)
		return &mdf_error_enomem;
	memcpy(copy, data, size);
	copy[size] = '\0';
	*text = copy;
	*len = strlen(copy);
	return NULL;
}

static struct mdf_error *read_kdump(struct dump_input *in, char **text, size_t *len)
{
	uint64_t offset = in->kdump->eraseinfo_offset, size = in->kdump->eraseinfo_size;
	char *buf;
	struct mdf_error *err;

	if (in->kdump->header_version < ERASEINFO_HEADER_VERSION || !size)
		return NULL;
	if (size > ERASEINFO_MAX_SIZE || offset > in->file_size || size > in->file_size - offset)
		return mdf_error(-MDF_ECORRUPT,
				 "%s: the sub header's offset_eraseinfo 0x%" PRIx64 " and size_eraseinfo %"
				 PRIu64 " are not inside the file (size %" PRIu64 ")", in->path, offset, size,
				 in->file_size);
	buf = malloc((size_t)size + 1);
	if (!buf)
		return &mdf_error_enomem;
	err = input_pread(in, buf, (size_t)size, offset, "the erase information");
	if (err) {
		free(buf);
		return err;
	}
	buf[size] = '\0';
	*text = buf;
	*len = strlen(buf);
	return NULL;
}

/* The ERASEINFO note among the input's notes (whose layout the input checked). */
static struct mdf_error *read_elf(struct dump_input *in, char **text, size_t *len)
{
	struct elf_note note;
	size_t pos = 0;

	while (elf_note_next(in->notes, in->notes_size, in->notes_order, &pos, &note) == ELF_NOTE_FOUND &&
	       !elf_note_is_padding(&note))
		if (note.type == 0 && elf_note_named(&note, ERASEINFO_NOTE_NAME))
			return copy_text(note.desc, note.desc_size, text, len);
	return NULL;
}

struct mdf_error *eraseinfo_read(struct dump_input *in, char **text, size_t *len)
{
	*text = NULL;
	*len = 0;
	return in->kdump ? read_kdump(in, text, len) : read_elf(in, text, len);
}
