// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Opening a dump: the table of the formats this program reads, each
 * recognised by its probe (input/dump_format.h), tried in order.
 *
 *   kcore              /proc/kcore, or a copy: an ELF core whose PT_LOADs
 *                      include some of no physical address (kcore.c);
 *                      tried by input_open_live() only
 *   ELF                kexec's /proc/vmcore, QEMU's dump-guest-memory
 *                      (elf_dump.c): the ELF magic
 *   kdump-compressed   whole or one part of a split dump
 *                      (kdump_compressed.c): "KDUMP   "
 *   flattened          makedumpfile -F's stream ("makedumpfile"): not
 *                      read as it is; its open says how to reassemble it
 *
 * kcore comes before ELF, whose probe would take it too.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/dump_format.h"
#include "input/dump_input.h"

/* The signature at the start of a flattened stream's header. */
#define FLATTENED_SIGNATURE "makedumpfile"

static bool flattened_probe(struct dump_input *in, const unsigned char *head, size_t len)
{
	(void)in;
	return len >= strlen(FLATTENED_SIGNATURE) &&
	       !memcmp(head, FLATTENED_SIGNATURE, strlen(FLATTENED_SIGNATURE));
}

/* The stream interleaves its records' offsets with their data: only -R makes a file of it. */
static struct mdf_error *flattened_open(struct dump_input *in)
{
	return mdf_error(-EINVAL,
			 "%s: a flattened dump (makedumpfile -F): reassemble it first with "
			 "'makedumpfile -R FILE < %s'", in->path, in->path);
}

static const struct dump_format flattened_format = {
	.probe = flattened_probe,
	.open = flattened_open,
};

static const struct dump_format *const formats[] = {
	&kcore_format,
	&elf_dump_format,
	&kdump_compressed_format,
	&flattened_format,
};

/* The first format of the table whose probe takes @in; NULL if none does. */
static const struct dump_format *probe_formats(struct dump_input *in, const unsigned char *head,
					       size_t len, bool live)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if ((live || !formats[i]->live) && formats[i]->probe(in, head, len))
			return formats[i];
	return NULL;
}

static struct mdf_error *open_formats(const char *path, bool live, struct dump_input **out)
{
	unsigned char head[DUMP_FORMAT_HEAD_SIZE];
	const struct dump_format *format;
	struct dump_input *in;
	struct mdf_error *err;
	struct stat st;
	ssize_t got;

	in = calloc(1, sizeof(*in));
	if (!in)
		return &mdf_error_enomem;
	in->path = path;
	in->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (in->fd < 0) {
		err = mdf_error(-errno, "%s: cannot open: %s", path, strerror(errno));
		goto fail;
	}
	if (fstat(in->fd, &st) < 0) {
		err = mdf_error(-errno, "%s: cannot stat: %s", path, strerror(errno));
		goto fail;
	}
	in->file_size = (uint64_t)st.st_size;

	got = pread(in->fd, head, sizeof(head), 0);
	if (got < 0) {
		err = mdf_error(-errno, "%s: cannot read: %s", path, strerror(errno));
		goto fail;
	}
	format = probe_formats(in, head, (size_t)got, live);
	if (format)
		err = format->open(in);
	else
		err = mdf_error(-EINVAL,
				"%s: not a crash dump: no ELF or kdump-compressed signature", path);
	if (err)
		goto fail;
	*out = in;
	return NULL;
fail:
	input_close(in);
	return err;
}

struct mdf_error *input_open(const char *path, struct dump_input **out)
{
	return open_formats(path, false, out);
}

struct mdf_error *input_open_live(const char *path, struct dump_input **out)
{
	return open_formats(path, true, out);
}
