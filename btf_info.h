/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The compatibility surface for extensions: types from the dump's BTF
 * under the names extensions written for upstream makedumpfile or for the
 * series posted to the kexec list use (they include "../btf_info.h").
 * makedumpfile's own code uses kernel/btf.h; new extensions use
 * makedumpfile-extension.h.
 */
#ifndef MDF_BTF_INFO_H
#define MDF_BTF_INFO_H

#include <stdbool.h>
#include <stdint.h>

/*
 * For extensions written against the series posted to the kexec list.
 * get_struct_member_by_name() fills the sizes and the member's offset in
 * bits (its bit width, for a bitfield, in member_bit_sz; otherwise
 * member_size * 8); with member_name NULL, only struct_size.
 *
 * INIT_STRUCT_MEMBER(S, M) and its kin declare a local holding the lookup
 * of S.M, done through the caller's `struct struct_member_info smi`; the
 * GET_ macros read it.  New extensions use makedumpfile-extension.h.
 */
struct struct_member_info {
	char *modname;
	char *struct_name;
	char *member_name;
	uint32_t member_bit_offset;
	uint32_t member_bit_sz;
	uint32_t member_size;
	uint32_t struct_size;
};

bool get_struct_member_by_name(struct struct_member_info *smi);

#define INIT_MOD_STRUCT_MEMBER(MOD, S, M)                                                 \
	struct struct_member_info _smi_##MOD##_##S##_##M = ({                              \
		smi = (struct struct_member_info){ .modname = #MOD, .struct_name = #S,      \
						   .member_name = #M };                     \
		get_struct_member_by_name(&smi);                                           \
		smi;                                                                       \
	})
#define INIT_STRUCT_MEMBER(S, M)                                                          \
	struct struct_member_info _smi__##S##_##M = ({                                     \
		smi = (struct struct_member_info){ .struct_name = #S, .member_name = #M };  \
		get_struct_member_by_name(&smi);                                           \
		smi;                                                                       \
	})
#define INIT_STRUCT(S)                                                                    \
	struct struct_member_info _smi__##S = ({                                           \
		smi = (struct struct_member_info){ .struct_name = #S };                     \
		get_struct_member_by_name(&smi);                                           \
		smi;                                                                       \
	})
#define GET_STRUCT_MEMBER_MOFF(S, M) (_smi__##S##_##M.member_bit_offset)
#define GET_STRUCT_MEMBER_MSIZE(S, M) (_smi__##S##_##M.member_size)
#define GET_STRUCT_MEMBER_SSIZE(S, M) (_smi__##S##_##M.struct_size)
#define GET_MOD_STRUCT_MEMBER_MOFF(MOD, S, M) (_smi_##MOD##_##S##_##M.member_bit_offset)
#define GET_MOD_STRUCT_MEMBER_MSIZE(MOD, S, M) (_smi_##MOD##_##S##_##M.member_size)
#define GET_MOD_STRUCT_MEMBER_SSIZE(MOD, S, M) (_smi_##MOD##_##S##_##M.struct_size)
#define GET_STRUCT_SSIZE(S) (_smi__##S.struct_size)

#endif
