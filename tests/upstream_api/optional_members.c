// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Optional declarations: found ones have their values, missing ones are
 * 0 with EXIST false, and the extension runs either way.
 */
#include "../makedumpfile.h"
#include "../btf_info.h"
#include "../kallsyms.h"
#include "../extension.h"

INIT_OPT_MOD_SYM(vmlinux, init_task);
INIT_OPT_MOD_SYM(vmlinux, no_such_symbol_in_any_kernel);
INIT_OPT_MOD_STRUCT_MEMBER(vmlinux, task_struct, pid);
INIT_OPT_MOD_STRUCT_MEMBER(vmlinux, task_struct, no_such_member);
INIT_OPT_MOD_STRUCT(vmlinux, no_such_struct_anywhere);
INIT_OPT_MOD_STRUCT(vmlinux, vm_area_struct);
INIT_OPT_MOD_SYM(vgem, vgem_open);

void extension_init(void)
{
	MSG("optional_members: init_task %d %lx\n", MOD_SYM_EXIST(vmlinux, init_task),
	    GET_MOD_SYM(vmlinux, init_task));
	MSG("optional_members: no_such_symbol %d %lx\n",
	    MOD_SYM_EXIST(vmlinux, no_such_symbol_in_any_kernel),
	    GET_MOD_SYM(vmlinux, no_such_symbol_in_any_kernel));
	MSG("optional_members: task_struct.pid %d at %u bits, %u bytes\n",
	    MOD_STRUCT_MEMBER_EXIST(vmlinux, task_struct, pid),
	    GET_MOD_STRUCT_MEMBER_MOFF(vmlinux, task_struct, pid),
	    GET_MOD_STRUCT_MEMBER_MSIZE(vmlinux, task_struct, pid));
	MSG("optional_members: task_struct.no_such_member %d %u\n",
	    MOD_STRUCT_MEMBER_EXIST(vmlinux, task_struct, no_such_member),
	    GET_MOD_STRUCT_MEMBER_MOFF(vmlinux, task_struct, no_such_member));
	MSG("optional_members: no_such_struct %d %u\n", MOD_STRUCT_EXIST(vmlinux, no_such_struct_anywhere),
	    GET_MOD_STRUCT_SSIZE(vmlinux, no_such_struct_anywhere));
	MSG("optional_members: vm_area_struct %d %u\n", MOD_STRUCT_EXIST(vmlinux, vm_area_struct),
	    GET_MOD_STRUCT_SSIZE(vmlinux, vm_area_struct));
	MSG("optional_members: vgem_open %d %lx\n", MOD_SYM_EXIST(vgem, vgem_open),
	    GET_MOD_SYM(vgem, vgem_open));
}
