// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Written for the series posted to the kexec list before upstream's API:
 * it relies on what upstream's makedumpfile.h brings in (ulong,
 * ULONG_MAX, free, reallocarray) without including their headers, and
 * acts from a constructor with the posted series' calls.
 */
#include "../makedumpfile.h"
#include "../kallsyms.h"
#include "../btf_info.h"

__attribute__((constructor)) static void posted_env(void)
{
	struct struct_member_info smi;
	INIT_STRUCT_MEMBER(task_struct, tasks);
	ulong head = get_kallsyms_value_by_name("init_task"), node;
	ulong *seen = NULL, count = 0;

	if (!head || !GET_STRUCT_MEMBER_MOFF(task_struct, tasks))
		return;
	head += GET_STRUCT_MEMBER_MOFF(task_struct, tasks) / 8;
	for (node = next_list(head); node && node != head && count < ULONG_MAX && count < 100000;
	     node = next_list(node)) {
		ulong *more = reallocarray(seen, count + 1, sizeof(*seen));

		if (!more)
			break;
		seen = more;
		seen[count++] = node;
	}
	free(seen);
	MSG("posted_env: %lu tasks\n", count);
}
