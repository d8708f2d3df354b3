/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What posted_series.c takes from posted_series_tasks.c, as the posted
 * series' amdgpu filter took its maple tree walk from a file of its own:
 * the declarations the other file makes (DECLARE_*: each file that
 * includes this gets a copy, filled too) and its functions.  The file
 * that makes the declarations includes this as well.
 */
#ifndef POSTED_SERIES_H
#define POSTED_SERIES_H

#include "../btf_info.h"

DECLARE_KERN_STRUCT_MEMBER(page, mapping);
DECLARE_MOD_STRUCT_MEMBER(vmlinux, list_head, next);
DECLARE_KERN_STRUCT(mm_struct);

/* init_task's address, from the other file's declaration. */
unsigned long init_task_address(void);
/* Every task of init_task's list, init_task first, in an array the caller frees; NULL when none. */
unsigned long *collect_tasks(int *count);

#endif
