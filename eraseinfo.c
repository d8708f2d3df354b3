// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading the erase information of a dump file (eraseinfo.h draws where it is). */
#include <elf.h>
#include <endian.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "eraseinfo.h"
#include "input.h"
#include "kdump_format.h"
#include "message.h"

/* The first eraseinfo version of the kdump sub header. */
#define ERASEINFO_HEADER_VERSION 5

/* A copy of the note's @size bytes, NUL-terminated; its length stops at the padding. */
static int copy_text(const void *data, size_t size, char **text, size_t *len)
{
	char *copy = malloc(size + 1);

	if (!copy)
		return -ENOMEM;
	memcpy(copy, data, size);
	copy[size] = '\0';
	*text = copy;
	*len = strlen(copy);
	return 0;
}

static int read_kdump(struct dump_input *in, char **text, size_t *len)
{
	struct kdump_sub_header sh;
	uint64_t offset, size;
	char *buf;
	int err;

	if (in->kdump->header_version < ERASEINFO_HEADER_VERSION)
		return 0;
	err = input_pread(in, &sh, sizeof(sh), in->page_size, "the kdump sub header");
	if (err)
		return err;
	offset = le64toh(sh.offset_eraseinfo);
	size = le64toh(sh.size_eraseinfo);
	if (!size)
		return 0;
	if (size > ERASEINFO_MAX_SIZE || offset > in->file_size || size > in->file_size - offset) {
		msg_error("%s: the sub header's offset_eraseinfo 0x%" PRIx64 " and size_eraseinfo %"
			  PRIu64 " are not inside the file (size %" PRIu64 ")", in->path, offset, size,
			  in->file_size);
		return -MDF_ECORRUPT;
	}
	buf = malloc((size_t)size + 1);
	if (!buf)
		return -ENOMEM;
	err = input_pread(in, buf, (size_t)size, offset, "the erase information");
	if (err) {
		free(buf);
		return err;
	}
	buf[size] = '\0';
	*text = buf;
	*len = strlen(buf);
	return 0;
}

/* The ERASEINFO note among the input's notes (whose layout the input checked). */
static int read_elf(struct dump_input *in, char **text, size_t *len)
{
	size_t pos = 0;

	while (pos + sizeof(Elf64_Nhdr) <= in->notes_size) {
		Elf64_Nhdr nh;
		size_t name_off, desc_off, next;

		memcpy(&nh, in->notes + pos, sizeof(nh));
		name_off = pos + sizeof(nh);
		desc_off = name_off + ((nh.n_namesz + 3) & ~(size_t)3);
		next = desc_off + ((nh.n_descsz + 3) & ~(size_t)3);
		if (next > in->notes_size || (!nh.n_namesz && !nh.n_descsz))
			break;
		if (nh.n_type == 0 && nh.n_namesz == sizeof(ERASEINFO_NOTE_NAME) &&
		    !memcmp(in->notes + name_off, ERASEINFO_NOTE_NAME, sizeof(ERASEINFO_NOTE_NAME)))
			return copy_text(in->notes + desc_off, nh.n_descsz, text, len);
		pos = next;
	}
	return 0;
}

int eraseinfo_read(struct dump_input *in, char **text, size_t *len)
{
	*text = NULL;
	*len = 0;
	return in->kdump ? read_kdump(in, text, len) : read_elf(in, text, len);
}
