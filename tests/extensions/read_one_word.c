// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A reference for make bench: an extension that reads one word of the
 * crashed kernel's memory (init_task's first) and registers nothing: the
 * least any extension that looks at kernel structures pays, the child
 * process, the kernel's kallsyms and this first read, which in a fresh
 * child pays for the memory reader's first translation and page reads.
 * The GPU filters' bench shows their cost over it too.  Like them it says,
 * at message level 31, how long its scan took.
 */
#include <time.h>

#include "makedumpfile-extension.h"

static double ms(clockid_t clock)
{
	struct timespec t;

	clock_gettime(clock, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int mdf_extension_init(struct mdf_extension *ext)
{
	double start = ms(CLOCK_MONOTONIC), cpu = ms(CLOCK_PROCESS_CPUTIME_ID);
	uint64_t addr, word;

	(void)ext;
	if (mdf_symbol_addr("vmlinux", "init_task", &addr) || mdf_read_u64(addr, &word))
		mdf_log(MDF_LOG_INFO, "init_task cannot be read");
	mdf_log(MDF_LOG_DEBUG, "the scan took %.1f ms (%.1f ms of CPU)", ms(CLOCK_MONOTONIC) - start,
		ms(CLOCK_PROCESS_CPUTIME_ID) - cpu);
	return 0;
}
