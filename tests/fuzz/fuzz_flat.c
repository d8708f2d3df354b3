// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_flat: makedumpfile -R, the flattened-stream reader of
 * output/flat.c (flat_reassemble), reading the input from a memfd as it
 * would read a pipe.  The dump goes to a file of a directory of the
 * run's own, in /dev/shm where there is one, removed after each input:
 * -R writes through no symbolic link, so not to a memfd's /proc name.
 * Records may name any offset: the file is sparse, so a far one costs
 * no memory, and one past what a file can hold is an error to report.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "output/flat.h"

static char dir[256], out_path[272];

static void remove_dir(void)
{
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");

	(void)argc;
	(void)argv;
	fuzz_quiet();
	if (!tmp || !*tmp)
		tmp = access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm";
	if (snprintf(dir, sizeof(dir), "%s/fuzz_flat.XXXXXX", tmp) >= (int)sizeof(dir) || !mkdtemp(dir))
		fuzz_die("mkdtemp");
	snprintf(out_path, sizeof(out_path), "%s/dump", dir);
	atexit(remove_dir);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char in_path[32];
	int in_fd = fuzz_memfd(data, size, in_path);

	mdf_error_free(flat_reassemble(in_fd, "fuzz input", out_path, true, 0));
	unlink(out_path);
	close(in_fd);
	return 0;
}
