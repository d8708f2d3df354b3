// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_config: the --config filter config (erase/config.h): the parser,
 * on the file makedumpfile would open (a memfd here), and what parses
 * resolved against fuzz_kernel.h's kernel, whose types are the
 * generator's and whose init_task, init_uts_ns, saved_command_line,
 * modules and other symbols lie in the region.
 *
 * Input: the config text, then, after a NUL, the region's bytes (none:
 * zeros), so that loops over lists and arrays meet the memory they
 * would in a dump, wild pointers included.  Then the erase information
 * of what was resolved is written out, as a dump's would be.
 */
#include <stdlib.h>
#include <string.h>

#include "erase/config.h"
#include "erase/erase_set.h"
#include "fuzz_kernel.h"

/* The kernel the configs resolve against, built once. */
static struct fuzz_kernel fk;

static void resolve(const struct erase_config *cfg, const uint8_t *region, size_t size)
{
	struct erase_set set;
	char *text = NULL;
	size_t len;

	fuzz_kernel_open(&fk, region, size);
	erase_set_init(&set, FAKE_PAGE, fk.f->size / FAKE_PAGE);
	mdf_error_free(erase_config_resolve(cfg, fk.f->mem, fk.kernel, &set));
	erase_set_sort(&set);
	if (!mdf_error_drop(eraseinfo_text(&set, true, &text, &len)))
		free(text);
	erase_set_free(&set);
	fuzz_kernel_close(&fk);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	fuzz_kernel_init(&fk);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t text = nul ? (size_t)(nul - data) : size;
	struct erase_config *cfg = NULL;
	struct mdf_error *err;
	char path[32];
	int fd = fuzz_memfd(data, text, path);

	err = erase_config_load(path, &cfg);
	close(fd);
	if (!err)
		resolve(cfg, nul ? nul + 1 : data + size, nul ? size - text - 1 : 0);
	mdf_error_free(err);
	erase_config_free(cfg);
	return 0;
}
