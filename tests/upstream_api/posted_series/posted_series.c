// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The usage of the series posted to the kexec list before upstream's API,
 * built with nothing but `cc -O2 -fPIC -shared` and no define: as its
 * amdgpu filter did, functions declare the members they use inside
 * themselves, with INIT_MOD_STRUCT_MEMBER() beside a local `struct
 * struct_member_info smi`, and read them with GET_MOD_STRUCT_MEMBER_*();
 * two functions declare the same member, each its own.  What the second
 * file declares comes through DECLARE_*() (posted_series.h).  The lines
 * printed are sample_values.c's, and a count of the tasks: the test
 * compares them with upstream's makedumpfile running the same source.
 */
#include "../makedumpfile.h"
#include "../btf_info.h"
#include "../kallsyms.h"
#include "../extension.h"
#include "posted_series.h"

INIT_MOD_SYM(vmlinux, init_uts_ns);
INIT_OPT_KERN_STRUCT_MEMBER(mm_struct, mm_mt);
INIT_OPT_KERN_STRUCT_MEMBER(mm_struct, mm_rb);

static void print_task_struct(void)
{
	struct struct_member_info smi;
	INIT_MOD_STRUCT_MEMBER(vmlinux, task_struct, mm);
	INIT_MOD_STRUCT_MEMBER(vmlinux, task_struct, comm);

	MSG("posted_series: task_struct size %u, mm at %u bits, %u bytes\n",
	    GET_MOD_STRUCT_MEMBER_SSIZE(vmlinux, task_struct, mm),
	    GET_MOD_STRUCT_MEMBER_MOFF(vmlinux, task_struct, mm),
	    GET_MOD_STRUCT_MEMBER_MSIZE(vmlinux, task_struct, mm));
	MSG("posted_series: comm at %u bytes, %u bytes\n",
	    GET_MOD_STRUCT_MEMBER_MOFF(vmlinux, task_struct, comm) / 8,
	    GET_MOD_STRUCT_MEMBER_MSIZE(vmlinux, task_struct, comm));
}

static void print_release(void)
{
	struct struct_member_info smi;
	INIT_MOD_STRUCT_MEMBER(vmlinux, uts_namespace, name);
	INIT_MOD_STRUCT_MEMBER(vmlinux, new_utsname, release);
	char release[65] = "";

	if (readmem(VADDR, GET_MOD_SYM(vmlinux, init_uts_ns) +
			    GET_MOD_STRUCT_MEMBER_MOFF(vmlinux, uts_namespace, name) / 8 +
			    GET_MOD_STRUCT_MEMBER_MOFF(vmlinux, new_utsname, release) / 8,
		    release, 64) == 64)
		MSG("posted_series: init_uts_ns %.64s\n", release);
}

static void print_tasks(void)
{
	struct struct_member_info smi;
	INIT_MOD_STRUCT_MEMBER(vmlinux, task_struct, mm);
	int count, with_mm = 0;
	unsigned long *tasks = collect_tasks(&count);
	unsigned long mm;

	for (int i = 0; i < count; i++)
		if (readmem(VADDR, tasks[i] + GET_MOD_STRUCT_MEMBER_MOFF(vmlinux, task_struct, mm) / 8,
			    &mm, sizeof(mm)) && mm)
			with_mm++;
	free(tasks);
	MSG("posted_series: %d tasks, %d with an mm\n", count, with_mm);
}

void extension_init(void)
{
	MSG("posted_series: init_task %lx\n", init_task_address());
	print_task_struct();
	MSG("posted_series: page size %u, mapping at %u bits\n",
	    GET_KERN_STRUCT_MEMBER_SSIZE(page, mapping), GET_KERN_STRUCT_MEMBER_MOFF(page, mapping));
	MSG("posted_series: list_head.next at %u, %u bytes, struct %u\n",
	    GET_MOD_STRUCT_MEMBER_MOFF(vmlinux, list_head, next),
	    GET_MOD_STRUCT_MEMBER_MSIZE(vmlinux, list_head, next),
	    GET_MOD_STRUCT_MEMBER_SSIZE(vmlinux, list_head, next));
	MSG("posted_series: mm_struct size %u\n", GET_KERN_STRUCT_SSIZE(mm_struct));
	MSG("posted_series: maple tree %d, rb tree %d\n", KERN_STRUCT_MEMBER_EXIST(mm_struct, mm_mt),
	    KERN_STRUCT_MEMBER_EXIST(mm_struct, mm_rb));
	print_release();
	print_tasks();
}
