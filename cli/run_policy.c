// SPDX-License-Identifier: GPL-2.0-or-later
/* The run's decisions for the user: run_policy.h. */
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli/run_policy.h"
#include "codec/codec.h"
#include "util/message.h"

/* The cycle when the available memory is unknown, and the largest: 4 MiB of 2nd bitmap. */
#define MAX_AUTO_CYCLE_PFNS ((uint64_t)32 << 20)
/* The smallest cycle: a bitmap of one 4 KiB page. */
#define MIN_CYCLE_PFNS ((uint64_t)4096 * 8)
/* A thread per this much available memory, in KiB. */
#define KIB_PER_THREAD ((uint64_t)16 << 10)
#define MAX_THREADS 64

/* The kernel's estimate of the memory available to us, in KiB; 0 when unknown. */
static uint64_t mem_available_kib(void)
{
	uint64_t available = 0;
	char line[128];
	FILE *meminfo = fopen("/proc/meminfo", "re");

	while (meminfo && fgets(line, sizeof(line), meminfo))
		if (sscanf(line, "MemAvailable: %" SCNu64 " kB", &available) == 1)
			break;
	if (meminfo)
		fclose(meminfo);
	return available;
}

uint64_t policy_cycle_pfns(const struct mdf_options *opt, uint64_t max_pfn)
{
	uint64_t available, pfns;

	if (opt->cyclic_buffer_kib)
		return (uint64_t)opt->cyclic_buffer_kib * 1024 * 8;
	available = mem_available_kib();
	/* Two bitmaps, one bit each per pfn, in 40% of what is available. */
	pfns = available ? available * 1024 * 4 / 10 / 2 * 8 : MAX_AUTO_CYCLE_PFNS;
	if (pfns > MAX_AUTO_CYCLE_PFNS)
		pfns = MAX_AUTO_CYCLE_PFNS;
	if (pfns > max_pfn)
		pfns = max_pfn;
	pfns = (pfns + 7) & ~(uint64_t)7;
	return pfns < MIN_CYCLE_PFNS ? MIN_CYCLE_PFNS : pfns;
}

/*
 * The CPUs this process may run on: taskset, cpusets and nr_cpus= all
 * narrow it, and threads beyond it would only take turns.
 */
static long usable_cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		return CPU_COUNT(&set);
	return sysconf(_SC_NPROCESSORS_ONLN);
}

/*
 * Of @cpus, those the rest of the machine leaves idle, by the load
 * average of the last minute (rounded): a worker beyond them would only
 * take turns with other programs, and its handoffs would cost CPU for
 * nothing.  All of them when the load is unknown.
 */
static long idle_cpus(long cpus, double *load)
{
	long idle;

	if (getloadavg(load, 1) != 1)
		return cpus;
	idle = (long)((double)cpus - *load + 0.5);
	return idle < 0 ? 0 : idle > cpus ? cpus : idle;
}

unsigned int policy_compression_threads(const struct mdf_options *opt)
{
	long cpus, idle;
	uint64_t available;
	unsigned int threads;
	double load = 0;

	if (opt->num_threads_set)
		return (unsigned int)opt->num_threads;
	if ((enum mdf_codec)opt->codec == CODEC_NONE)
		return 0;
	cpus = usable_cpus();
	idle = idle_cpus(cpus, &load);
	available = mem_available_kib();
	threads = idle > 1 ? (unsigned int)(idle > MAX_THREADS ? MAX_THREADS : idle) : 0;
	if (available && threads > available / KIB_PER_THREAD)
		threads = (unsigned int)(available / KIB_PER_THREAD);
	msg_debug("compressing on %u threads besides the main one (%ld usable CPUs, load %.2f)", threads,
		  cpus, load);
	return threads;
}

void policy_leave_out(const struct pfn_ranges *frames, uint64_t start_pfn, uint64_t end_pfn,
		      uint8_t *dumpable)
{
	for (size_t i = 0; i < frames->count; i++) {
		uint64_t from = frames->ranges[i].start > start_pfn ? frames->ranges[i].start
								    : start_pfn;
		uint64_t to = frames->ranges[i].end < end_pfn ? frames->ranges[i].end : end_pfn;

		for (uint64_t pfn = from; pfn < to; pfn++)
			dumpable[(pfn - start_pfn) / 8] &= (uint8_t)~(1u << (pfn - start_pfn) % 8);
	}
}
