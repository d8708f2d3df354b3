/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The compatibility surface for extensions: types from the dump's BTF
 * under upstream makedumpfile's names (extension API of June 2026) and
 * those of the series posted to the kexec list before it.  makedumpfile's
 * own code uses kernel/btf.h; new extensions use makedumpfile-extension.h.
 */
#ifndef MDF_BTF_INFO_H
#define MDF_BTF_INFO_H

#include <stdbool.h>
#include <stdint.h>

/*
 * A struct, or a member of one, that an extension declares at file scope:
 *
 *     INIT_MOD_STRUCT_MEMBER(vmlinux, task_struct, mm);      required
 *     INIT_OPT_MOD_STRUCT_MEMBER(vmlinux, mm_struct, mm_rb); optional
 *     INIT_MOD_STRUCT(vmlinux, page);  INIT_OPT_MOD_STRUCT(amdgpu, amdgpu_bo);
 *
 * A pointer to each goes to the section .init_ktypes (see kallsyms.h for
 * how makedumpfile finds and fills them).  Units: the member's offset is
 * in BITS (GET_MOD_STRUCT_MEMBER_MOFF(...) / 8 is the byte offset), its
 * width in bits for a bitfield (0 otherwise), its size and the struct's
 * in bytes.  A member of an anonymous struct or union inside the struct
 * is found by its name, its offset counted from the outer struct.  The
 * layout is upstream's.
 */
struct ktype_info {
	char *modname;
	char *struct_name;
	char *member_name;       /* NULL: the struct alone */
	bool struct_required : 1;
	bool member_required : 1;
	uint32_t member_bit_offset;
	uint32_t member_bit_sz;
	uint32_t member_size;
	uint32_t struct_size;
	int index;               /* -1 until found */
};

#define MDF_KTYPE_NAME2_(MOD, S) _##MOD##_##S
#define MDF_KTYPE_NAME3_(MOD, S, M) _##MOD##_##S##_##M
#define MDF_KTYPE_PTR_(NAME) MDF_KTYPE_PTR2_(_ptr, NAME)
#define MDF_KTYPE_PTR2_(P, NAME) P##NAME

#define MDF_KTYPE_DECLARE_(NAME, MOD, S, M, SR, MR)                           \
	struct ktype_info NAME = { #MOD, #S, M, SR, MR, 0, 0, 0, 0, -1 };      \
	__attribute__((section(".init_ktypes"), used))                        \
	struct ktype_info *MDF_KTYPE_PTR_(NAME) = &NAME

#define INIT_MOD_STRUCT_MEMBER(MOD, S, M)                                     \
	MDF_KTYPE_DECLARE_(MDF_KTYPE_NAME3_(MOD, S, M), MOD, S, #M, 1, 1)
#define INIT_OPT_MOD_STRUCT_MEMBER(MOD, S, M)                                 \
	MDF_KTYPE_DECLARE_(MDF_KTYPE_NAME3_(MOD, S, M), MOD, S, #M, 0, 0)
#define INIT_MOD_STRUCT(MOD, S)                                               \
	MDF_KTYPE_DECLARE_(MDF_KTYPE_NAME2_(MOD, S), MOD, S, 0, 1, 0)
#define INIT_OPT_MOD_STRUCT(MOD, S)                                           \
	MDF_KTYPE_DECLARE_(MDF_KTYPE_NAME2_(MOD, S), MOD, S, 0, 0, 0)

/* For a declaration made in another file of the same extension. */
#define DECLARE_MOD_STRUCT_MEMBER(MOD, S, M) extern struct ktype_info MDF_KTYPE_NAME3_(MOD, S, M)
#define DECLARE_MOD_STRUCT(MOD, S) extern struct ktype_info MDF_KTYPE_NAME2_(MOD, S)

#define GET_MOD_STRUCT_MEMBER_MOFF(MOD, S, M) (MDF_KTYPE_NAME3_(MOD, S, M).member_bit_offset)
#define GET_MOD_STRUCT_MEMBER_MSIZE(MOD, S, M) (MDF_KTYPE_NAME3_(MOD, S, M).member_size)
#define GET_MOD_STRUCT_MEMBER_SSIZE(MOD, S, M) (MDF_KTYPE_NAME3_(MOD, S, M).struct_size)
#define MOD_STRUCT_MEMBER_EXIST(MOD, S, M) (MDF_KTYPE_NAME3_(MOD, S, M).index >= 0)
#define GET_MOD_STRUCT_SSIZE(MOD, S) (MDF_KTYPE_NAME2_(MOD, S).struct_size)
#define MOD_STRUCT_EXIST(MOD, S) (MDF_KTYPE_NAME2_(MOD, S).index >= 0)
#define TYPE_EXIST(p) ((p)->index >= 0)

/*
 * The series posted before upstream's: lookups made where they are
 * written, inside a function that has a local `struct struct_member_info
 * smi`.  get_struct_member_by_name() fills the sizes and the member's
 * offset in bits (its width in member_bit_sz: the bitfield's, or
 * member_size * 8); with member_name NULL, only struct_size.
 *
 * That series named one macro like upstream's, INIT_MOD_STRUCT_MEMBER,
 * for a lookup inside a function; upstream's file-scope declaration has
 * the name here.  Code written for the posted series that uses it defines
 * MDF_POSTED_SERIES_API before including this header.
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

#define MDF_POSTED_LOOKUP_(VAR, MOD, S, M)                                    \
	struct struct_member_info VAR = ({                                     \
		smi = (struct struct_member_info){ .modname = MOD, .struct_name = S, \
						   .member_name = M };         \
		get_struct_member_by_name(&smi);                               \
		smi;                                                           \
	})
#define INIT_STRUCT_MEMBER(S, M) MDF_POSTED_LOOKUP_(_smi__##S##_##M, 0, #S, #M)
#define INIT_STRUCT(S) MDF_POSTED_LOOKUP_(_smi__##S, 0, #S, 0)
#define GET_STRUCT_MEMBER_MOFF(S, M) (_smi__##S##_##M.member_bit_offset)
#define GET_STRUCT_MEMBER_MSIZE(S, M) (_smi__##S##_##M.member_size)
#define GET_STRUCT_MEMBER_SSIZE(S, M) (_smi__##S##_##M.struct_size)
#define GET_STRUCT_SSIZE(S) (_smi__##S.struct_size)

#ifdef MDF_POSTED_SERIES_API
#undef INIT_MOD_STRUCT_MEMBER
#undef GET_MOD_STRUCT_MEMBER_MOFF
#undef GET_MOD_STRUCT_MEMBER_MSIZE
#undef GET_MOD_STRUCT_MEMBER_SSIZE
#define INIT_MOD_STRUCT_MEMBER(MOD, S, M) MDF_POSTED_LOOKUP_(_smi_##MOD##_##S##_##M, #MOD, #S, #M)
#define GET_MOD_STRUCT_MEMBER_MOFF(MOD, S, M) (_smi_##MOD##_##S##_##M.member_bit_offset)
#define GET_MOD_STRUCT_MEMBER_MSIZE(MOD, S, M) (_smi_##MOD##_##S##_##M.member_size)
#define GET_MOD_STRUCT_MEMBER_SSIZE(MOD, S, M) (_smi_##MOD##_##S##_##M.struct_size)
#endif

#endif
