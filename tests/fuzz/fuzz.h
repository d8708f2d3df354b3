// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz.h: what every libFuzzer harness of tests/fuzz shares.
 *
 * The harnesses call the engine's own entry points, as makedumpfile
 * does.  Those that take a path get the input as an anonymous in-memory
 * file (memfd) named /proc/self/fd/N: nothing touches the disk, and no
 * two runs share a file.  Messages are silenced: the engine's warnings
 * about a corrupt input are what it should say, and printing one per
 * input would cost more than the input.
 *
 * A failure of the harness's own set-up (no memfd, no memory for its
 * scaffolding) aborts: it is no finding about the engine, and libFuzzer
 * must not mistake it for an uninteresting input.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/message.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static __attribute__((unused)) void fuzz_die(const char *what)
{
	perror(what);
	abort();
}

/*
 * A memfd holding @size bytes of @data, its offset back at 0 for a
 * reader of the descriptor itself; @path receives its name.  The caller
 * closes the descriptor.
 */
static __attribute__((unused)) int fuzz_memfd(const void *data, size_t size, char path[32])
{
	int fd = memfd_create("fuzz-input", MFD_CLOEXEC);
	size_t done = 0;

	if (fd < 0)
		fuzz_die("memfd_create");
	while (done < size) {
		ssize_t n = write(fd, (const char *)data + done, size - done);

		if (n <= 0)
			fuzz_die("write to a memfd");
		done += (size_t)n;
	}
	if (lseek(fd, 0, SEEK_SET) != 0)
		fuzz_die("lseek on a memfd");
	snprintf(path, 32, "/proc/self/fd/%d", fd);
	return fd;
}

static __attribute__((unused)) void fuzz_quiet(void)
{
	msg_set_level(0);
}

#endif
