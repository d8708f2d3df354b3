// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kallsyms_bench VMCORE [RUNS]: the time to decode the kernel's kallsyms
 * from a dump (tables read through the memory reader, names decoded,
 * indexes built), median and best of RUNS, each on a freshly opened dump;
 * then the same table opened for lookups by name only (what an extension's
 * child does) and asked the ten names the shipped extensions ask first,
 * one at a time, then the same with the ten expected at opening.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "arch/arch.h"
#include "input/dump_input.h"
#include "input/vmcoreinfo.h"
#include "kernel/kallsyms.h"
#include "memory/reader.h"
#include "util/message.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static const char *const asked[] = {
	"init_task", "modules", "__start_BTF", "__stop_BTF", "btf_modules",
	"__per_cpu_offset", "current_task", "panic_cpu", "crashing_cpu", "jiffies",
};

enum mode { DECODE, BY_NAME, BY_NAME_EXPECTED };
#define NR_ASKED (sizeof(asked) / sizeof(asked[0]))

/* Decodes the table or opens it by name only and asks @asked: milliseconds. */
static int time_one(const char *path, enum mode mode, double *ms, size_t *count)
{
	struct dump_input *in = NULL;
	struct vmcoreinfo *vi = NULL;
	struct memory *mem = NULL;
	struct kallsyms *ks = NULL;
	double start;
	uint64_t addr;
	int err;

	err = input_open(path, &in);
	if (!err)
		err = vmcoreinfo_parse(in->vmcoreinfo ? in->vmcoreinfo : "", in->vmcoreinfo_size, path, &vi);
	if (!err)
		err = memory_open(in, &arch_x86_64, vi, &mem);
	start = now_ms();
	if (!err)
		err = mode == DECODE ? kallsyms_load_kernel(mem, vi, &ks)
				     : kallsyms_open_lazy(mem, vi, asked, mode == BY_NAME_EXPECTED ? NR_ASKED : 0, &ks);
	for (size_t i = 0; !err && mode != DECODE && i < NR_ASKED; i++)
		kallsyms_lookup_module_name(ks, "vmlinux", asked[i], &addr);
	*ms = now_ms() - start;
	if (!err && mode == DECODE)
		*count = kallsyms_count(ks);
	kallsyms_free(ks);
	memory_close(mem);
	vmcoreinfo_free(vi);
	input_close(in);
	return err;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int runs = argc > 2 ? atoi(argv[2]) : 10;
	double *times;
	size_t count = 0;

	if (argc < 2 || runs < 1) {
		fprintf(stderr, "usage: kallsyms_bench VMCORE [RUNS]\n");
		return 2;
	}
	times = calloc((size_t)runs, sizeof(*times));
	if (!times)
		return 1;
	for (enum mode mode = DECODE; mode <= BY_NAME_EXPECTED; mode++) {
		for (int r = 0; r < runs; r++)
			if (time_one(argv[1], mode, &times[r], &count))
				return 1;
		qsort(times, (size_t)runs, sizeof(*times), compare_doubles);
		if (mode != DECODE)
			printf("%16s lookups by name only, open and %zu names%s: median %.1f ms, best %.1f ms\n",
			       "", NR_ASKED, mode == BY_NAME_EXPECTED ? " expected at opening" : " asked one by one",
			       times[runs / 2], times[0]);
		else
			printf("%zu symbols: median %.1f ms, best %.1f ms over %d runs\n", count, times[runs / 2],
			       times[0], runs);
	}
	free(times);
	return 0;
}
