// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * btf_bench VMCORE [RUNS]: what it costs to get the dump's symbols and
 * types ready, each run on a freshly opened dump: the kernel's kallsyms,
 * vmlinux's BTF, every module's BTF, the modules' kallsyms; the memory
 * they take; then 10,000 member lookups.  Medians of RUNS, measured two
 * ways: cold, each run in a process of its own, as one makedumpfile run
 * pays it (fresh memory costs a page fault per page); warm, the runs one
 * after another in one process, which shows the code's own cost.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "arch/arch.h"
#include "input/dump_input.h"
#include "input/vmcoreinfo.h"
#include "kernel/btf.h"
#include "kernel/kallsyms.h"
#include "kernel/kernel.h"
#include "kernel/modules.h"
#include "memory/reader.h"
#include "util/error.h"
#include "util/message.h"

#define LOOKUPS 10000

enum phase { KERNEL_KALLSYMS, VMLINUX_BTF, MODULE_BTF, MODULE_KALLSYMS, TOTAL, NR_PHASES };

static const char *const phase_names[NR_PHASES] = {
	"kernel kallsyms", "vmlinux BTF", "module BTF", "module kallsyms", "total",
};

/* What an extension or the engine asks: members of vmlinux's and modules' types. */
static const struct {
	const char *scope;
	const char *path;
} paths[] = {
	{ NULL, "page.flags" }, { NULL, "page.mapping" }, { NULL, "page.lru" }, { NULL, "page._mapcount" },
	{ NULL, "page.private" }, { NULL, "zone.free_area" }, { NULL, "pglist_data.node_zones" },
	{ NULL, "task_struct.se.load.weight" }, { NULL, "module.list" },
	{ NULL, "mem_section.section_mem_map" },
	{ "amdgpu", "ttm_tt.pages" }, { "ttm", "ttm_buffer_object.ttm" },
	{ "drm_shmem_helper", "drm_gem_shmem_object.pages" }, { NULL, "list_head.next" },
};

struct run {
	double ms[NR_PHASES];
	double lookup_ns;
	size_t heap;        /* bytes allocated and kept */
	size_t phase_heap[NR_PHASES];
	long phase_resident[NR_PHASES];
	long resident;      /* bytes the process gained in RAM */
	size_t symbols;
	size_t modules;
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static size_t heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

static long resident_bytes(void)
{
	long size = 0, resident = 0;
	FILE *statm = fopen("/proc/self/statm", "re");

	if (statm) {
		if (fscanf(statm, "%ld %ld", &size, &resident) != 2)
			resident = 0;
		fclose(statm);
	}
	return resident * sysconf(_SC_PAGESIZE);
}

/* Ends phase @p, begun at *@t: its time, and the heap and memory so far. */
static void end_phase(struct run *run, enum phase p, double *t)
{
	double end = now_ms();

	run->ms[p] = end - *t;
	run->phase_heap[p] = heap_in_use();
	run->phase_resident[p] = resident_bytes();
	*t = now_ms();
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static struct mdf_error *count_symbol(void *ctx, const struct ksym *sym)
{
	(void)sym;
	++*(size_t *)ctx;
	return NULL;
}

/* One run; 0, or the error's code once it is said. */
static int one_run(const char *path, struct run *run)
{
	struct dump_input *in = NULL;
	struct vmcoreinfo *vi = NULL;
	struct memory *mem = NULL;
	struct kernel *kernel = NULL;
	struct kallsyms *ks = NULL;
	struct btf_info *btf = NULL;
	struct modules *mods = NULL;
	struct btf_info_result r;
	size_t module_symbols = 0;
	size_t heap_before;
	long resident_before;
	double start, t;
	const struct arch_ops *arch;
	struct mdf_error *err;

	err = input_open(path, &in);
	if (!err)
		err = vmcoreinfo_parse(in->vmcoreinfo ? in->vmcoreinfo : "", in->vmcoreinfo_size, path, &vi);
	if (!err)
		err = arch_detect(in, vi, &arch);
	if (!err)
		err = memory_new(in, arch, vi, &mem);
	if (!err)
		err = kernel_new(mem, vi, &kernel);
	if (err)
		goto out;
	heap_before = heap_in_use();
	resident_before = resident_bytes();
	start = t = now_ms();
	err = kernel_kallsyms(kernel, &ks);
	end_phase(run, KERNEL_KALLSYMS, &t);
	if (!err)
		err = kernel_btf(kernel, &btf);
	if (!err)
		err = btf_info_lookup(btf, "vmlinux", "page", &r);
	end_phase(run, VMLINUX_BTF, &t);
	if (!err)
		err = btf_info_load_all(btf);
	end_phase(run, MODULE_BTF, &t);
	if (!err)
		err = kernel_modules(kernel, &mods);
	if (!err && mods)
		err = modules_for_each_symbol(mods, count_symbol, &module_symbols);
	end_phase(run, MODULE_KALLSYMS, &t);
	run->ms[TOTAL] = now_ms() - start;
	if (err)
		goto out;
	/* What each phase added; the total is what all of them did. */
	for (int p = MODULE_KALLSYMS; p > KERNEL_KALLSYMS; p--) {
		run->phase_heap[p] -= run->phase_heap[p - 1];
		run->phase_resident[p] -= run->phase_resident[p - 1];
	}
	run->phase_heap[KERNEL_KALLSYMS] -= heap_before;
	run->phase_resident[KERNEL_KALLSYMS] -= resident_before;
	run->heap = run->phase_heap[TOTAL] = heap_in_use() - heap_before;
	run->resident = run->phase_resident[TOTAL] = resident_bytes() - resident_before;
	run->symbols = kallsyms_count(ks) + module_symbols;
	run->modules = btf_info_module_count(btf);
	t = now_ms();
	for (int i = 0; i < LOOKUPS && !err; i++)
		err = btf_info_lookup(btf, paths[i % (sizeof(paths) / sizeof(paths[0]))].scope,
				      paths[i % (sizeof(paths) / sizeof(paths[0]))].path, &r);
	run->lookup_ns = (now_ms() - t) * 1e6 / LOOKUPS;
	if (err)
		err = mdf_error_wrap(err, "a lookup failed");
out:
	kernel_free(kernel);
	memory_free(mem);
	vmcoreinfo_free(vi);
	input_close(in);
	return mdf_error_print(err, false);
}

/* One run in a child process of its own; its results come back through a pipe. */
static int cold_run(const char *path, struct run *run)
{
	int fds[2], status;
	pid_t pid;
	ssize_t got;

	if (pipe(fds))
		return -errno;
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		status = one_run(path, run) || write(fds[1], run, sizeof(*run)) != (ssize_t)sizeof(*run);
		_exit(status);
	}
	close(fds[1]);
	got = pid < 0 ? -1 : read(fds[0], run, sizeof(*run));
	close(fds[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) ||
	    got != (ssize_t)sizeof(*run))
		return -EIO;
	return 0;
}

static double median(struct run *runs, int nr, double (*get)(const struct run *, int), int p, double *column)
{
	for (int i = 0; i < nr; i++)
		column[i] = get(&runs[i], p);
	qsort(column, (size_t)nr, sizeof(*column), compare_doubles);
	return column[nr / 2];
}

static double phase_ms(const struct run *r, int p)
{
	return r->ms[p];
}

static double lookup_ns(const struct run *r, int p)
{
	(void)p;
	return r->lookup_ns;
}

static double resident_mib(const struct run *r, int p)
{
	(void)p;
	return r->resident / 1048576.0;
}

static void print_phases(const char *how, struct run *runs, int nr, double *column)
{
	printf("  %s:", how);
	for (int p = 0; p < NR_PHASES; p++)
		printf(" %s %.1f ms%s", phase_names[p], median(runs, nr, phase_ms, p, column),
		       p == NR_PHASES - 1 ? "" : ",");
	printf("\n");
}

int main(int argc, char **argv)
{
	int runs = argc > 2 ? atoi(argv[2]) : 5;
	struct run *cold, *warm;
	double *column;
	int rc = 1;

	if (argc < 2 || runs < 1) {
		fprintf(stderr, "usage: btf_bench VMCORE [RUNS]\n");
		return 2;
	}
	cold = calloc((size_t)runs, sizeof(*cold));
	warm = calloc((size_t)runs, sizeof(*warm));
	column = calloc((size_t)runs, sizeof(*column));
	if (!cold || !warm || !column)
		goto out;
	for (int i = 0; i < runs; i++)
		if (cold_run(argv[1], &cold[i]))
			goto out;
	for (int i = 0; i < runs; i++)
		if (one_run(argv[1], &warm[i]))
			goto out;
	printf("%zu symbols, %zu module BTFs; cold: %.1f MiB resident, %.1f MiB of heap kept\n",
	       cold[0].symbols, cold[0].modules, median(cold, runs, resident_mib, 0, column),
	       cold[0].heap / 1048576.0);
	printf("  by phase, resident/heap kept (first cold run):");
	for (int p = 0; p < NR_PHASES; p++)
		printf(" %s %.1f/%.1f MiB%s", phase_names[p], cold[0].phase_resident[p] / 1048576.0,
		       cold[0].phase_heap[p] / 1048576.0, p == NR_PHASES - 1 ? "" : ",");
	printf("\n");
	print_phases("cold (a process each)", cold, runs, column);
	print_phases("warm (one process)   ", warm, runs, column);
	printf("  %d member lookups: %.2f ms, %.0f ns each (warm)\n", LOOKUPS,
	       median(warm, runs, lookup_ns, 0, column) * LOOKUPS / 1e6,
	       median(warm, runs, lookup_ns, 0, column));
	rc = 0;
out:
	free(cold);
	free(warm);
	free(column);
	return rc;
}
