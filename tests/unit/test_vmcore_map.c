// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_vmcore_map: reading a file through mmap windows (input/vmcore_map.h)
 * gives what pread() gives, across windows and up to the file's last byte;
 * a page that faults (here: a file cut short under its mapping, where the
 * kernel sends SIGBUS as it does for a poisoned page of /proc/vmcore) is
 * an error returned, not a dead process, and the pages before it still
 * read, also in a forked child that set SIGBUS back to SIG_DFL (as an
 * extension's does), where a SIGBUS outside a copy still kills; a pipe
 * cannot be mapped; input_map_procfs() leaves a regular file to pread().
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "input/dump_input.h"
#include "input/vmcore_map.h"
#include "unit_check.h"

static unsigned char pattern(uint64_t offset)
{
	return (unsigned char)((offset * 2654435761u) >> 13);
}

static bool same_as_pread(int fd, struct vmcore_map *map, uint64_t offset, size_t len)
{
	unsigned char *want = malloc(len), *got = malloc(len);
	bool same = want && got && pread(fd, want, len, (off_t)offset) == (ssize_t)len &&
		    !mdf_error_drop(vmcore_map_read(map, got, len, offset)) && !memcmp(want, got, len);

	free(want);
	free(got);
	return same;
}

int main(void)
{
	char path[] = "/tmp/test_vmcore_map.XXXXXX";
	size_t page = (size_t)sysconf(_SC_PAGESIZE), window = 16 * page;
	uint64_t size = 3 * window + 1000;
	unsigned char *data = malloc(size), byte;
	struct vmcore_map *map;
	int fd = mkstemp(path), pipefd[2];

	if (fd < 0 || !data) {
		printf("FAIL setup\n");
		return 1;
	}
	unlink(path);
	for (uint64_t i = 0; i < size; i++)
		data[i] = pattern(i);
	if (write(fd, data, size) != (ssize_t)size) {
		printf("FAIL setup: write\n");
		return 1;
	}

	check(!vmcore_map_new(fd, size, window, &map), "a regular file maps");
	if (!map)
		return unit_exit_status();
	check(same_as_pread(fd, map, 0, page), "the first page");
	check(same_as_pread(fd, map, window - 100, 200), "200 bytes across a window's end");
	check(same_as_pread(fd, map, 10, 3 * window), "three windows' worth in one read");
	check(same_as_pread(fd, map, size - 1000, 1000), "the file's last bytes, past the last window");
	check(same_as_pread(fd, map, page, page), "back to an earlier window");
	check(mdf_error_drop(vmcore_map_read(map, &byte, 2, size - 1)) == -ERANGE,
	      "a read past the end: -ERANGE");

	/* The second window mapped, then the file cut inside its first page. */
	check(same_as_pread(fd, map, window, 8), "the second window mapped");
	check(ftruncate(fd, (off_t)(window + 100)) == 0, "the file cut short");
	check(mdf_error_drop(vmcore_map_read(map, data, page, window + page)) == -EFAULT,
	      "a page past the cut faults: -EFAULT, the process lives");
	check(!mdf_error_drop(vmcore_map_read(map, data, 100, window)) && data[99] == pattern(window + 99),
	      "the bytes before the cut still read");
	check(mdf_error_drop(vmcore_map_read(map, data, page, window + page)) == -EFAULT,
	      "and the fault again");

	/*
	 * Children as an extension's: SIGBUS set to SIG_DFL, then caught
	 * again.  A fault in a copy is returned (exit status 3); a fault of
	 * the child's own, in a mapping of its own, kills it.
	 */
	int status = 0;
	pid_t child = fork();

	if (child == 0) {
		signal(SIGBUS, SIG_DFL);
		vmcore_map_catch_sigbus_again();
		_exit(mdf_error_drop(vmcore_map_read(map, data, page, window + page)) == -EFAULT ? 3 : 1);
	}
	check(child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 3, "a child with SIGBUS reset and caught again: -EFAULT");
	child = fork();
	if (child == 0) {
		volatile unsigned char *own;

		signal(SIGBUS, SIG_DFL);
		vmcore_map_catch_sigbus_again();
		own = mmap(NULL, 2 * window, PROT_READ, MAP_PRIVATE, fd, 0);
		if (own == MAP_FAILED)
			_exit(1);
		(void)own[window + page];
		_exit(2);
	}
	check(child > 0 && waitpid(child, &status, 0) == child && WIFSIGNALED(status) &&
	      WTERMSIG(status) == SIGBUS, "and a fault of its own kills it with SIGBUS");
	vmcore_map_free(map);

	check(pipe(pipefd) == 0 && mdf_error_drop(vmcore_map_new(pipefd[0], size, window, &map)) &&
	      map == NULL, "a pipe does not map");

	struct dump_input in = { .fd = fd, .file_size = window + 100 };

	check(!input_map_procfs(&in) && in.map == NULL, "input_map_procfs: a regular file is pread");
	close(fd);
	free(data);
	return unit_exit_status();
}
