// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kallsyms_bench VMCORE [RUNS]: what the kernel's kallsyms cost, median
 * and best of RUNS, each on a freshly opened dump: opening the tables and
 * decoding every name (--dump-kallsyms), opening them and finding the ten
 * names the shipped extensions ask first with a pass each (an extension
 * asking one name at a time), and all ten in one pass.
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
#include "util/error.h"
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

enum mode { LIST, ONE_BY_ONE, TOGETHER };
#define NR_ASKED (sizeof(asked) / sizeof(asked[0]))

static struct mdf_error *count_symbol(void *ctx, const struct ksym *sym)
{
	(void)sym;
	++*(size_t *)ctx;
	return NULL;
}

/*
 * Opens the table and decodes every name (as --dump-kallsyms), or finds
 * @asked one pass each or all in one pass: milliseconds.
 */
static struct mdf_error *time_one(const char *path, enum mode mode, double *ms, size_t *count)
{
	struct dump_input *in = NULL;
	struct vmcoreinfo *vi = NULL;
	struct memory *mem = NULL;
	struct kallsyms *ks = NULL;
	double start;
	int64_t index[NR_ASKED];
	size_t listed = 0;
	const struct arch_ops *arch;
	struct mdf_error *err;

	err = input_open(path, &in);
	if (!err)
		err = vmcoreinfo_parse(in->vmcoreinfo ? in->vmcoreinfo : "", in->vmcoreinfo_size, path, &vi);
	if (!err)
		err = arch_detect(in, vi, &arch);
	if (!err)
		err = memory_new(in, arch, vi, &mem);
	start = now_ms();
	if (!err)
		err = kallsyms_new(mem, vi, &ks);
	if (!err && mode == LIST)
		err = kallsyms_for_each(ks, count_symbol, &listed);
	for (size_t i = 0; !err && mode == ONE_BY_ONE && i < NR_ASKED; i++)
		err = kallsyms_find(ks, &asked[i], 1, &index[i]);
	if (!err && mode == TOGETHER)
		err = kallsyms_find(ks, asked, NR_ASKED, index);
	*ms = now_ms() - start;
	if (!err)
		*count = kallsyms_count(ks);
	kallsyms_free(ks);
	memory_free(mem);
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
	for (enum mode mode = LIST; mode <= TOGETHER; mode++) {
		for (int r = 0; r < runs; r++)
			if (mdf_error_print(time_one(argv[1], mode, &times[r], &count), false))
				return 1;
		qsort(times, (size_t)runs, sizeof(*times), compare_doubles);
		if (mode != LIST)
			printf("%16s open and find %zu names%s: median %.1f ms, best %.1f ms\n", "", NR_ASKED,
			       mode == TOGETHER ? " in one pass" : ", a pass each", times[runs / 2], times[0]);
		else
			printf("%zu symbols, open and decode all: median %.1f ms, best %.1f ms over %d runs\n",
			       count, times[runs / 2], times[0], runs);
	}
	free(times);
	return 0;
}
