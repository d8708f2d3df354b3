// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * user_stack_keep: keeps, whatever the dump level, the resident pages of
 * the user stack of the task that was running on the crashing CPU, and of
 * the tasks named with
 *     --extension-arg user_stack_keep:comm=NAME[,NAME...]
 *     --extension-arg user_stack_keep:pid=N[,N...]
 * so that a user-space backtrace can be read from a -d 31 dump (which
 * drops all user pages).  crash=no leaves the crashing task out.
 *
 * The user stack is the VMA that holds mm->start_stack (the main
 * thread's stack, set up by exec); its resident pages are those its
 * page tables map (mdf_uvtop), each kept by its own pfn.  Threads share
 * their process's mm and so its stack VMA.
 *
 * The crashing CPU: panic_cpu (kernel/panic.c, an atomic_t, -1 until a
 * CPU panics), else crashing_cpu (arch/x86/kernel/reboot.c, set by the
 * kdump shutdown, which an oops with panic_on_oops can reach before
 * panic() runs); a dump taken without a crash (QEMU's dump-guest-memory,
 * virsh dump) has neither, and then there is no crashing task: said, not
 * an error.  The task on that CPU: the per-cpu current_task (6.1; 7.2
 * has it again) or, in the kernels between that kept it in struct
 * pcpu_hot, pcpu_hot.current_task; at the CPU's __per_cpu_offset (6.1's
 * per-cpu symbols are offsets, 7.2's addresses: the sum is the same).
 *
 * Named tasks: every thread group leader (mdf_task_for_each); then, for
 * a name or pid no leader has, each leader's threads (signal->thread_head,
 * linked through task_struct.thread_node), so that a thread's name or id
 * finds its process.  Every list is bounded by the API's walker.
 *
 * Checked on: Debian's 6.1.0-57 (6.1.192) kernel (a real kdump: panic by
 * sysrq-c on CPU 1, init running) and 7.2.13 kernel (a QEMU dump: no
 * crashing task), labprobe's [stack] VMA in both; generated dumps
 * (tests/gen --amdgpu: a thread of Xorg on the crashing CPU).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "makedumpfile-extension.h"

#define MAX_NAMES 16
#define MAX_MMS 64
#define MAX_CPUS 8192                  /* NR_CPUS is at most 8192 on x86_64 */
#define MAX_THREADS (1u << 22)         /* PID_MAX_LIMIT */
#define MAX_STACK_PAGES (1u << 18)     /* 1 GiB of stack, the top of it */

struct layout {
	uint64_t task_mm, task_pid, task_comm, task_signal, task_thread_node;
	uint64_t signal_thread_head, mm_start_stack;
	uint64_t page_size;
};

struct wanted {
	const char *comm[MAX_NAMES];
	int ncomm;
	long pid[MAX_NAMES];
	int npid;
	bool comm_found[MAX_NAMES], pid_found[MAX_NAMES];
};

struct target {
	uint64_t mm;
	int32_t pid;
	char comm[16];
	const char *why;
};

struct keeper {
	struct layout l;
	struct wanted w;
	struct target t[MAX_MMS];
	int nt;
	uint64_t leader_mm;            /* while walking a leader's threads */
	bool threads;                  /* the second pass: threads too */
	int err;
};

static int layout(struct layout *l)
{
	static const struct {
		const char *type, *member;
		size_t field;
	} fields[] = {
		{ "task_struct", "mm", offsetof(struct layout, task_mm) },
		{ "task_struct", "pid", offsetof(struct layout, task_pid) },
		{ "task_struct", "comm", offsetof(struct layout, task_comm) },
		{ "task_struct", "signal", offsetof(struct layout, task_signal) },
		{ "task_struct", "thread_node", offsetof(struct layout, task_thread_node) },
		{ "signal_struct", "thread_head", offsetof(struct layout, signal_thread_head) },
		{ "mm_struct", "start_stack", offsetof(struct layout, mm_start_stack) },
	};

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		int err = mdf_member_offset("vmlinux", fields[i].type, fields[i].member,
					    (uint64_t *)((char *)l + fields[i].field));

		if (err) {
			mdf_log(MDF_LOG_ERROR, "no %s.%s in the kernel's BTF (%s)", fields[i].type,
				fields[i].member, strerror(-err));
			return err;
		}
	}
	l->page_size = mdf_page_size();
	return 0;
}

/* "a,b,c" into @out (at most MAX_NAMES); the strings stay in @copy. */
static int split(char *copy, const char **out, int *n)
{
	for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*n == MAX_NAMES) {
			mdf_log(MDF_LOG_ERROR, "more than %d names or pids", MAX_NAMES);
			return -E2BIG;
		}
		out[(*n)++] = tok;
	}
	return 0;
}

static int parse_args(struct wanted *w, char **comm_copy, char **pid_copy)
{
	const char *comm = mdf_extension_arg(NULL, "comm"), *pid = mdf_extension_arg(NULL, "pid");
	const char *pids[MAX_NAMES];
	int npids = 0, err = 0;

	if (comm) {
		*comm_copy = strdup(comm);
		err = *comm_copy ? split(*comm_copy, w->comm, &w->ncomm) : -ENOMEM;
	}
	if (!err && pid) {
		*pid_copy = strdup(pid);
		err = *pid_copy ? split(*pid_copy, pids, &npids) : -ENOMEM;
	}
	for (int i = 0; !err && i < npids; i++) {
		char *end;

		w->pid[i] = strtol(pids[i], &end, 10);
		if (*end || w->pid[i] < 0) {
			mdf_log(MDF_LOG_ERROR, "pid=%s: not a process id", pids[i]);
			err = -EINVAL;
		}
		w->npid = i + 1;
	}
	return err;
}

/* Records @mm once, with the first reason given for it. */
static int add_target(struct keeper *k, uint64_t mm, int32_t pid, const char *comm, const char *why)
{
	for (int i = 0; i < k->nt; i++)
		if (k->t[i].mm == mm)
			return 0;
	if (k->nt == MAX_MMS) {
		mdf_log(MDF_LOG_ERROR, "more than %d processes to keep the stacks of", MAX_MMS);
		return -E2BIG;
	}
	k->t[k->nt] = (struct target){ .mm = mm, .pid = pid, .why = why };
	memcpy(k->t[k->nt].comm, comm, sizeof(k->t[k->nt].comm) - 1);
	k->nt++;
	return 0;
}

/* ---- the crashing task ---- */

static int read_int(const char *symbol, int32_t *value)
{
	uint64_t addr;
	uint32_t v;
	int err = mdf_symbol_addr("vmlinux", symbol, &addr);

	if (!err)
		err = mdf_read_u32(addr, &v);
	if (!err)
		*value = (int32_t)v;
	return err;
}

/* The task_struct running on @cpu: its per-cpu current_task. */
static int cpu_current(int cpu, uint64_t *task)
{
	uint64_t var, offsets, offset, member = 0;
	int err = mdf_symbol_addr("vmlinux", "current_task", &var);

	if (err) {
		err = mdf_symbol_addr("vmlinux", "pcpu_hot", &var);
		if (!err)
			err = mdf_member_offset("vmlinux", "pcpu_hot", "current_task", &member);
	}
	if (err) {
		mdf_log(MDF_LOG_ERROR, "neither current_task nor pcpu_hot.current_task: cannot tell "
			"which task runs on CPU %d", cpu);
		return err;
	}
	err = mdf_symbol_addr("vmlinux", "__per_cpu_offset", &offsets);
	if (!err)
		err = mdf_read_u64(offsets + 8ull * (uint64_t)cpu, &offset);
	if (!err)
		err = mdf_read_u64(var + member + offset, task);
	if (err)
		mdf_log(MDF_LOG_ERROR, "the current task of CPU %d cannot be read (%s)", cpu,
			strerror(-err));
	return err;
}

/* The kernel symbols that find the crashing task. */
static const char *const crash_symbols[] = {
	"panic_cpu", "crashing_cpu", "current_task", "pcpu_hot", "__per_cpu_offset",
};

static int crashing_task(struct keeper *k)
{
	int32_t cpu = -1, pid;
	const char *source = "panic_cpu";
	uint64_t task, mm;
	char comm[16] = "";
	int err;

	/* Found in one pass over the kernel's symbols rather than one each. */
	mdf_expect_kernel_symbols(crash_symbols, sizeof(crash_symbols) / sizeof(crash_symbols[0]));
	if (read_int("panic_cpu", &cpu) || cpu < 0) {
		source = "crashing_cpu";
		if (read_int("crashing_cpu", &cpu) || cpu < 0) {
			mdf_log(MDF_LOG_INFO, "no crashing CPU (panic_cpu and crashing_cpu unset: a dump "
				"taken without a panic): no crashing task's stack to keep");
			return 0;
		}
	}
	if (cpu >= MAX_CPUS) {
		mdf_log(MDF_LOG_ERROR, "%s is %" PRId32 ": no CPU", source, cpu);
		return 0;
	}
	if (cpu_current(cpu, &task))
		return 0;
	err = mdf_read_u64(task + k->l.task_mm, &mm);
	if (!err)
		err = mdf_read_u32(task + k->l.task_pid, (uint32_t *)&pid);
	if (!err)
		err = mdf_read_kvaddr(task + k->l.task_comm, comm, sizeof(comm) - 1);
	if (err) {
		mdf_log(MDF_LOG_ERROR, "the task_struct at 0x%" PRIx64 " on the crashing CPU %" PRId32
			" cannot be read (%s)", task, cpu, strerror(-err));
		return 0;
	}
	if (!mm) {
		mdf_log(MDF_LOG_INFO, "the crashing task on CPU %" PRId32 ", %s (pid %" PRId32 "), is a "
			"kernel thread: no user stack", cpu, comm, pid);
		return 0;
	}
	mdf_log(MDF_LOG_DEBUG, "CPU %" PRId32 " (%s) crashed running %s (pid %" PRId32 ")", cpu,
		source, comm, pid);
	return add_target(k, mm, pid, comm, "the crashing task");
}

/* ---- named tasks ---- */

/* Whether a task of that pid and name is wanted; notes which name or pid found it. */
static bool wanted(struct wanted *w, int32_t pid, const char *comm)
{
	bool found = false;

	for (int i = 0; i < w->npid; i++)
		if (w->pid[i] == pid)
			found = w->pid_found[i] = true;
	for (int i = 0; i < w->ncomm; i++)
		if (!strcmp(w->comm[i], comm))
			found = w->comm_found[i] = true;
	return found;
}

/* Whether some name or pid found no thread group leader: threads are then looked at. */
static bool unfound(const struct wanted *w)
{
	for (int i = 0; i < w->npid; i++)
		if (!w->pid_found[i])
			return true;
	for (int i = 0; i < w->ncomm; i++)
		if (!w->comm_found[i])
			return true;
	return false;
}

static int thread(uint64_t node, void *arg)
{
	struct keeper *k = arg;
	uint64_t task = node - k->l.task_thread_node;
	char comm[16] = "";
	int32_t pid;
	int err = mdf_read_u32(task + k->l.task_pid, (uint32_t *)&pid);

	if (!err)
		err = mdf_read_kvaddr(task + k->l.task_comm, comm, sizeof(comm) - 1);
	if (err)
		return err;
	if (wanted(&k->w, pid, comm))
		k->err = add_target(k, k->leader_mm, pid, comm, "named");
	return k->err;
}

static int leader(const struct mdf_task *task, void *arg)
{
	struct keeper *k = arg;
	uint64_t signal;
	int err;

	if (!task->mm)
		return 0;
	if (!k->threads) {
		if (wanted(&k->w, task->pid, task->comm))
			k->err = add_target(k, task->mm, task->pid, task->comm, "named");
		return k->err;
	}
	/* Its threads: their ids and names (a thread may have renamed itself). */
	err = mdf_read_u64(task->task + k->l.task_signal, &signal);
	if (err || !signal)
		return 0;
	k->leader_mm = task->mm;
	/* A damaged thread list ends its own walk only; the other processes are still looked at. */
	mdf_list_for_each(signal + k->l.signal_thread_head, MAX_THREADS, thread, k);
	return k->err;
}

/* ---- keeping a stack ---- */

struct stack_search {
	uint64_t addr, start, end;
};

static int find_vma(const struct mdf_vma *vma, void *arg)
{
	struct stack_search *s = arg;

	if (s->addr < vma->start || s->addr >= vma->end)
		return 0;
	s->start = vma->start;
	s->end = vma->end;
	return 1;
}

static int keep_stack(struct keeper *k, const struct target *t)
{
	struct stack_search s = { 0 };
	uint64_t kept = 0, run_start = 0, run_len = 0, first;
	int walk_err = 0, err = mdf_read_u64(t->mm + k->l.mm_start_stack, &s.addr);

	if (err) {
		mdf_log(MDF_LOG_ERROR, "%s (pid %" PRId32 "): its mm_struct at 0x%" PRIx64
			" cannot be read (%s)", t->comm, t->pid, t->mm, strerror(-err));
		return 0;
	}
	err = mdf_vma_for_each(t->mm, find_vma, &s);
	if (err < 0)
		return 0; /* the walker said why */
	if (!s.end) {
		mdf_log(MDF_LOG_INFO, "%s (pid %" PRId32 "): no VMA holds its start_stack 0x%" PRIx64,
			t->comm, t->pid, s.addr);
		return 0;
	}
	first = s.end - s.start > (uint64_t)MAX_STACK_PAGES * k->l.page_size
			? s.end - (uint64_t)MAX_STACK_PAGES * k->l.page_size : s.start;
	for (uint64_t va = first; va < s.end; va += k->l.page_size) {
		uint64_t paddr, pfn;

		walk_err = mdf_uvtop(t->mm, va, &paddr);
		if (walk_err == -ENOENT || walk_err == -ENODATA) {
			walk_err = 0;
			continue; /* not present, or its page table not in the dump */
		}
		if (walk_err)
			break;    /* the mm's page tables cannot be read: said once by the walker */
		pfn = paddr / k->l.page_size;
		if (run_len && pfn == run_start + run_len) {
			run_len++;
		} else {
			if (run_len && (err = mdf_keep_pfns(run_start, run_len)))
				return err;
			run_start = pfn;
			run_len = 1;
		}
		kept++;
	}
	if (run_len && (err = mdf_keep_pfns(run_start, run_len)))
		return err;
	if (walk_err)
		mdf_log(MDF_LOG_INFO, "%s (pid %" PRId32 "): the walk of its stack's page tables ended "
			"early (%s)", t->comm, t->pid, strerror(-walk_err));
	mdf_log(MDF_LOG_INFO, "%s (pid %" PRId32 ", %s): keeping the %" PRIu64 " resident pages of "
		"its stack 0x%" PRIx64 "-0x%" PRIx64, t->comm, t->pid, t->why, kept, s.start, s.end);
	return 0;
}

int mdf_extension_init(struct mdf_extension *ext)
{
	struct keeper *k = calloc(1, sizeof(*k));
	char *comm_copy = NULL, *pid_copy = NULL;
	const char *crash = mdf_extension_arg(ext, "crash");
	struct timespec start, end, cpu_start, cpu_end;
	int err;

	clock_gettime(CLOCK_MONOTONIC, &start);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu_start);
	if (!k)
		return -ENOMEM;
	err = layout(&k->l);
	if (!err)
		err = parse_args(&k->w, &comm_copy, &pid_copy);
	if (!err && !(crash && !strcmp(crash, "no")))
		err = crashing_task(k);
	if (!err && (k->w.ncomm || k->w.npid)) {
		int found = k->nt;

		/* leaders first; their threads only for a name or pid no leader has */
		err = mdf_task_for_each(leader, k);
		if (!err && !k->err && unfound(&k->w)) {
			k->threads = true;
			err = mdf_task_for_each(leader, k);
		}
		if (k->err) {
			err = k->err;
		} else if (err < 0) {
			mdf_log(MDF_LOG_INFO, "the task list walk ended early (%s): tasks past that point "
				"were not looked at", strerror(-err));
			err = 0;
		}
		if (!err && k->nt == found)
			mdf_log(MDF_LOG_INFO, "no task matches the names or pids given");
	}
	for (int i = 0; !err && i < k->nt; i++)
		err = keep_stack(k, &k->t[i]);
	free(comm_copy);
	free(pid_copy);
	free(k);
	clock_gettime(CLOCK_MONOTONIC, &end);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu_end);
	mdf_log(MDF_LOG_DEBUG, "the scan took %.1f ms (%.1f ms of CPU)",
		(double)(end.tv_sec - start.tv_sec) * 1e3 + (double)(end.tv_nsec - start.tv_nsec) / 1e6,
		(double)(cpu_end.tv_sec - cpu_start.tv_sec) * 1e3 +
			(double)(cpu_end.tv_nsec - cpu_start.tv_nsec) / 1e6);
	return err;
}
