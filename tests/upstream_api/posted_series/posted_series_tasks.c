// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The second file of posted_series.so: file-scope declarations with the
 * posted series' shorthands (INIT_KERN_*), some of which the other file
 * uses through DECLARE_*, and a list walk that grows its array with
 * upstream's add_to_arr().
 */
#include "../makedumpfile.h"
#include "../btf_info.h"
#include "../kallsyms.h"
#include "posted_series.h"

INIT_KERN_SYM(init_task);
INIT_KERN_STRUCT_MEMBER(task_struct, tasks);
INIT_KERN_STRUCT_MEMBER(list_head, next);
INIT_KERN_STRUCT_MEMBER(page, mapping);
INIT_OPT_KERN_STRUCT(mm_struct);

#define TASKS_OFFSET (GET_KERN_STRUCT_MEMBER_MOFF(task_struct, tasks) / 8)
#define MAX_TASKS 100000

unsigned long init_task_address(void)
{
	return GET_KERN_SYM(init_task);
}

unsigned long *collect_tasks(int *count)
{
	unsigned long head = GET_KERN_SYM(init_task) + TASKS_OFFSET, node = head;
	void **tasks = NULL;
	int cap = 0;

	*count = 0;
	do {
		if (!add_to_arr(&tasks, count, &cap, (void *)(node - TASKS_OFFSET)))
			break;
		node = next_list(node);
	} while (node && node != head && *count < MAX_TASKS);
	return (unsigned long *)tasks;
}
