// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * proc_names: erases the command name (task_struct.comm) of every thread
 * of every user process, the job of upstream's eppic script proc_names,
 * with the dump's BTF instead of debuginfo.
 *
 * A user process is a thread group leader with an mm (kernel threads have
 * none).  Its threads are on its signal_struct's thread_head list, linked
 * through task_struct.thread_node, the leader among them; where BTF lacks
 * those members, the leader's name alone is erased.
 */
#include <stdbool.h>

#include "makedumpfile-extension.h"

struct job {
	struct mdf_member comm;
	uint64_t mm;
	uint64_t signal;
	uint64_t thread_head;     /* in signal_struct */
	uint64_t thread_node;     /* in task_struct */
	bool threads;             /* BTF has the thread list */
	uint64_t processes, names;
};

static int erase_comm(struct job *job, uint64_t task)
{
	int err = mdf_erase_kvaddr(task + job->comm.offset, job->comm.size, "task_struct.comm");

	if (!err)
		job->names++;
	return err;
}

static int erase_thread(uint64_t node, void *arg)
{
	struct job *job = arg;

	return erase_comm(job, node - job->thread_node);
}

static int erase_process(const struct mdf_task *task, void *arg)
{
	struct job *job = arg;
	uint64_t signal;
	int err;

	if (!task->mm)
		return 0;
	job->processes++;
	if (job->threads && !mdf_read_u64(task->task + job->signal, &signal) && signal) {
		/* A broken thread list was reported; the leader's name goes all the same. */
		err = mdf_list_for_each(signal + job->thread_head, 0, erase_thread, job);
		if (!err)
			return 0;
	}
	err = erase_comm(job, task->task);
	if (err)
		mdf_log(MDF_LOG_ERROR, "cannot erase the name of pid %d: %d", task->pid, err);
	return 0;
}

int mdf_extension_init(struct mdf_extension *ext)
{
	struct job job = { 0 };
	int err;

	(void)ext;
	err = mdf_member(NULL, "task_struct", "comm", &job.comm);
	if (err) {
		mdf_log(MDF_LOG_ERROR, "no task_struct.comm in the dump's BTF");
		return err;
	}
	job.threads = !mdf_member_offset(NULL, "task_struct", "signal", &job.signal) &&
		      !mdf_member_offset(NULL, "task_struct", "thread_node", &job.thread_node) &&
		      !mdf_member_offset(NULL, "signal_struct", "thread_head", &job.thread_head);
	err = mdf_task_for_each(erase_process, &job);
	if (err < 0)
		return err;
	mdf_log(MDF_LOG_INFO, "erased the names of %llu threads of %llu user processes",
		(unsigned long long)job.names, (unsigned long long)job.processes);
	return 0;
}
