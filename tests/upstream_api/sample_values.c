// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Upstream's extension API, as its extensions/sample.c uses it: declared
 * symbols and types, printed from extension_init().  A member inside an
 * anonymous union (page.mapping), a struct alone and a bitfield check the
 * units: offsets in bits, sizes in bytes.
 */
#include "../makedumpfile.h"
#include "../btf_info.h"
#include "../kallsyms.h"
#include "../extension.h"

INIT_MOD_SYM(vmlinux, init_task);
INIT_MOD_SYM(vmlinux, init_uts_ns);
INIT_MOD_STRUCT_MEMBER(vmlinux, task_struct, mm);
INIT_MOD_STRUCT_MEMBER(vmlinux, task_struct, comm);
INIT_MOD_STRUCT_MEMBER(vmlinux, page, mapping);
INIT_MOD_STRUCT_MEMBER(vmlinux, list_head, next);
INIT_MOD_STRUCT_MEMBER(vmlinux, sk_buff, pkt_type);
INIT_MOD_STRUCT(vmlinux, mm_struct);
INIT_MOD_STRUCT_MEMBER(vmlinux, uts_namespace, name);
INIT_MOD_STRUCT_MEMBER(vmlinux, new_utsname, release);
INIT_OPT_MOD_STRUCT_MEMBER(vmlinux, mm_struct, mm_mt);
INIT_OPT_MOD_STRUCT_MEMBER(vmlinux, mm_struct, mm_rb);

void extension_init(void)
{
	char release[65] = "";

	MSG("sample_values: init_task %lx\n", GET_MOD_SYM(vmlinux, init_task));
	MSG("sample_values: task_struct size %u, mm at %u bits, %u bytes\n",
	    GET_MOD_STRUCT_MEMBER_SSIZE(vmlinux, task_struct, mm),
	    GET_MOD_STRUCT_MEMBER_MOFF(vmlinux, task_struct, mm),
	    GET_MOD_STRUCT_MEMBER_MSIZE(vmlinux, task_struct, mm));
	MSG("sample_values: comm at %u bytes, %u bytes\n",
	    GET_MOD_STRUCT_MEMBER_MOFF(vmlinux, task_struct, comm) / 8,
	    GET_MOD_STRUCT_MEMBER_MSIZE(vmlinux, task_struct, comm));
	MSG("sample_values: page size %u, mapping at %u bits\n",
	    GET_MOD_STRUCT_MEMBER_SSIZE(vmlinux, page, mapping),
	    GET_MOD_STRUCT_MEMBER_MOFF(vmlinux, page, mapping));
	MSG("sample_values: list_head.next at %u, %u bytes, struct %u\n",
	    GET_MOD_STRUCT_MEMBER_MOFF(vmlinux, list_head, next),
	    GET_MOD_STRUCT_MEMBER_MSIZE(vmlinux, list_head, next),
	    GET_MOD_STRUCT_MEMBER_SSIZE(vmlinux, list_head, next));
	MSG("sample_values: sk_buff.pkt_type at bit %u, %u bits wide\n",
	    GET_MOD_STRUCT_MEMBER_MOFF(vmlinux, sk_buff, pkt_type),
	    GET_MOD_STRUCT_MEMBER_MSIZE(vmlinux, sk_buff, pkt_type) ?
		    _vmlinux_sk_buff_pkt_type.member_bit_sz : 0);
	MSG("sample_values: mm_struct size %u\n", GET_MOD_STRUCT_SSIZE(vmlinux, mm_struct));
	MSG("sample_values: maple tree %d, rb tree %d\n",
	    MOD_STRUCT_MEMBER_EXIST(vmlinux, mm_struct, mm_mt),
	    MOD_STRUCT_MEMBER_EXIST(vmlinux, mm_struct, mm_rb));
	if (readmem(VADDR, GET_MOD_SYM(vmlinux, init_uts_ns) +
			    GET_MOD_STRUCT_MEMBER_MOFF(vmlinux, uts_namespace, name) / 8 +
			    GET_MOD_STRUCT_MEMBER_MOFF(vmlinux, new_utsname, release) / 8,
		    release, 64) == 64)
		MSG("sample_values: init_uts_ns %.64s\n", release);
}
