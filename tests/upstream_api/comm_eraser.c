// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Like upstream's extensions/erase_sample.c: every thread's
 * task_struct.comm, found through init_task.tasks and each thread group's
 * signal->thread_head with next_list(), overwritten with '#' by
 * update_filter_info_raw().
 */
#include "../makedumpfile.h"
#include "../btf_info.h"
#include "../kallsyms.h"
#include "../extension.h"
#include "../erase_info.h"

INIT_MOD_SYM(vmlinux, init_task);
INIT_MOD_STRUCT_MEMBER(vmlinux, task_struct, tasks);
INIT_MOD_STRUCT_MEMBER(vmlinux, task_struct, thread_node);
INIT_MOD_STRUCT_MEMBER(vmlinux, task_struct, signal);
INIT_MOD_STRUCT_MEMBER(vmlinux, task_struct, comm);
INIT_MOD_STRUCT_MEMBER(vmlinux, signal_struct, thread_head);

#define OFF(S, M) (GET_MOD_STRUCT_MEMBER_MOFF(vmlinux, S, M) / 8)

void extension_init(void)
{
	uint64_t head = GET_MOD_SYM(vmlinux, init_task) + OFF(task_struct, tasks);
	uint64_t tasks = head, signal, thread_head, thread;
	unsigned int threads = 0, limit = 100000;

	do {
		uint64_t task = tasks - OFF(task_struct, tasks);

		if (!readmem(VADDR, task + OFF(task_struct, signal), &signal, sizeof(signal))) {
			ERRMSG("comm_eraser: cannot read task_struct.signal of %lx\n", task);
			return;
		}
		thread_head = signal + OFF(signal_struct, thread_head);
		thread = task + OFF(task_struct, thread_node);
		do {
			uint64_t comm = thread - OFF(task_struct, thread_node) + OFF(task_struct, comm);

			if (!update_filter_info_raw(comm, '#',
						    GET_MOD_STRUCT_MEMBER_MSIZE(vmlinux, task_struct, comm))) {
				ERRMSG("comm_eraser: cannot erase %lx\n", comm);
				return;
			}
			threads++;
			thread = next_list(thread);
		} while (thread && thread != thread_head && threads < limit);
		tasks = next_list(tasks);
	} while (tasks && tasks != head && threads < limit);
	MSG("comm_eraser: %u threads\n", threads);
}
