// SPDX-License-Identifier: GPL-2.0-or-later
/* Per-stage CPU times of a run: stage_times.h. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/stage_times.h"

bool stage_times_on;

static const char *const stage_names[STAGE_COUNT] = {
	[STAGE_SETUP] = "setup",
	[STAGE_CLASSIFY] = "classify",
	[STAGE_READ] = "read",
	[STAGE_COMPRESS] = "compress",
	[STAGE_WRITE] = "write",
};

static _Atomic uint64_t stage_ns[STAGE_COUNT];
static _Atomic uint64_t rss_anon_peak_kib;
static __thread enum run_stage current_stage;
static __thread uint64_t stage_since_ns;
static __thread bool thread_started;

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void stage_times_init(void)
{
	const char *value = getenv("MAKEDUMPFILE_STAGE_TIMES");

	stage_times_on = value && *value && strcmp(value, "0");
	if (stage_times_on)
		stage_times_switch(STAGE_SETUP);
}

enum run_stage stage_times_switch(enum run_stage stage)
{
	uint64_t now = thread_cpu_ns();
	enum run_stage was = current_stage;

	/* A thread's first switch starts its clock: its time before is nobody's stage. */
	if (thread_started)
		atomic_fetch_add(&stage_ns[was], now - stage_since_ns);
	else
		was = stage;
	thread_started = true;
	current_stage = stage;
	stage_since_ns = now;
	return was;
}

void stage_thread_end(void)
{
	if (stage_times_on && thread_started) {
		stage_times_switch(current_stage);
		thread_started = false;
	}
}

/* A "Name:   1234 kB" line of /proc/self/status, in KiB; 0 when absent. */
static uint64_t status_kib(const char *name)
{
	FILE *f = fopen("/proc/self/status", "r");
	size_t len = strlen(name);
	char line[256];
	uint64_t kib = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, len) && line[len] == ':') {
			kib = strtoull(line + len + 1, NULL, 10);
			break;
		}
	fclose(f);
	return kib;
}

void stage_times_sample_memory(void)
{
	uint64_t now, peak;

	if (!stage_times_on)
		return;
	now = status_kib("RssAnon");
	peak = atomic_load(&rss_anon_peak_kib);
	while (now > peak && !atomic_compare_exchange_weak(&rss_anon_peak_kib, &peak, now))
		;
}

void stage_times_report(void)
{
	if (!stage_times_on)
		return;
	stage_thread_end();
	stage_times_sample_memory();
	fprintf(stderr, "stage CPU seconds:");
	for (int i = 0; i < STAGE_COUNT; i++)
		fprintf(stderr, " %s %.4f", stage_names[i], (double)atomic_load(&stage_ns[i]) / 1e9);
	fprintf(stderr, "; RssAnon peak %llu KiB, VmHWM %llu KiB\n",
		(unsigned long long)atomic_load(&rss_anon_peak_kib),
		(unsigned long long)status_kib("VmHWM"));
}
