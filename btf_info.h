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

/* Its declarations are made as kallsyms.h makes those of symbols. */
#include "kallsyms.h"

/*
 * A struct, or a member of one, that an extension declares:
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
#define MDF_KTYPE_PTR_(NAME) MDF_CONCAT_(_ptr, NAME)

/*
 * A declaration is two static objects: the struct ktype_info, named after
 * what it declares (_vmlinux_task_struct_mm), and the pointer to it in
 * .init_ktypes.  Upstream writes the declarations at file scope; the
 * series posted before it wrote INIT_MOD_STRUCT_MEMBER() inside the
 * function that uses it.  Static objects serve both: gcc refuses a
 * section for an automatic variable, not for a static one, and a static
 * one has the constant address the pointer needs.  Inside a function the
 * declaration is that function's own, filled like the others when the
 * extension is loaded, before extension_init() runs: code that runs
 * earlier, a constructor, reads zeros there and looks its types up with
 * INIT_STRUCT_MEMBER() below instead.
 */
#define MDF_KTYPE_DECLARE_(NAME, MOD, S, M, SR, MR)                           \
	static struct ktype_info NAME = { #MOD, #S, M, SR, MR, 0, 0, 0, 0, -1 }; \
	static struct ktype_info *MDF_KTYPE_PTR_(NAME)                        \
		__attribute__((section(".init_ktypes"), used)) = &NAME

#define INIT_MOD_STRUCT_MEMBER(MOD, S, M)                                     \
	MDF_KTYPE_DECLARE_(MDF_KTYPE_NAME3_(MOD, S, M), MOD, S, #M, 1, 1)
#define INIT_OPT_MOD_STRUCT_MEMBER(MOD, S, M)                                 \
	MDF_KTYPE_DECLARE_(MDF_KTYPE_NAME3_(MOD, S, M), MOD, S, #M, 0, 0)
#define INIT_MOD_STRUCT(MOD, S)                                               \
	MDF_KTYPE_DECLARE_(MDF_KTYPE_NAME2_(MOD, S), MOD, S, 0, 1, 0)
#define INIT_OPT_MOD_STRUCT(MOD, S)                                           \
	MDF_KTYPE_DECLARE_(MDF_KTYPE_NAME2_(MOD, S), MOD, S, 0, 0, 0)

/*
 * A file that uses a declaration another file of the extension makes
 * (upstream's words for it: an extern declaration) gets a copy of its
 * own, which makedumpfile fills too: another file's static objects are
 * out of reach.  The copy is a tentative definition, so that a file may
 * also make the declaration itself (a header of DECLARE_*() included
 * where the INIT_*() are): the copy is then that declaration.  Alone, it
 * gets its names from a constructor, which runs before makedumpfile reads
 * the section; it is optional there, the file that makes the declaration
 * says whether it is required.  At file scope only.
 */
#define MDF_KTYPE_COPY_(NAME, MOD, S, M)                                      \
	static struct ktype_info NAME;                                         \
	static struct ktype_info *MDF_UNIQUE_(_ptr_copy)                       \
		__attribute__((section(".init_ktypes"), used)) = &NAME;        \
	__attribute__((constructor)) static void MDF_UNIQUE_(_name_copy)(void) \
	{                                                                      \
		if (!NAME.modname)                                             \
			NAME = (struct ktype_info){ #MOD, #S, M, 0, 0, 0, 0, 0, 0, -1 }; \
	}                                                                      \
	extern struct ktype_info NAME

#define DECLARE_MOD_STRUCT_MEMBER(MOD, S, M) MDF_KTYPE_COPY_(MDF_KTYPE_NAME3_(MOD, S, M), MOD, S, #M)
#define DECLARE_MOD_STRUCT(MOD, S) MDF_KTYPE_COPY_(MDF_KTYPE_NAME2_(MOD, S), MOD, S, 0)

#define GET_MOD_STRUCT_MEMBER_MOFF(MOD, S, M) (MDF_KTYPE_NAME3_(MOD, S, M).member_bit_offset)
#define GET_MOD_STRUCT_MEMBER_MSIZE(MOD, S, M) (MDF_KTYPE_NAME3_(MOD, S, M).member_size)
#define GET_MOD_STRUCT_MEMBER_SSIZE(MOD, S, M) (MDF_KTYPE_NAME3_(MOD, S, M).struct_size)
#define MOD_STRUCT_MEMBER_EXIST(MOD, S, M) (MDF_KTYPE_NAME3_(MOD, S, M).index >= 0)
#define GET_MOD_STRUCT_SSIZE(MOD, S) (MDF_KTYPE_NAME2_(MOD, S).struct_size)
#define MOD_STRUCT_EXIST(MOD, S) (MDF_KTYPE_NAME2_(MOD, S).index >= 0)
#define TYPE_EXIST(p) ((p)->index >= 0)

/* The posted series' shorthands for the kernel's own types (module vmlinux). */
#define INIT_KERN_STRUCT_MEMBER(S, M) INIT_MOD_STRUCT_MEMBER(vmlinux, S, M)
#define INIT_OPT_KERN_STRUCT_MEMBER(S, M) INIT_OPT_MOD_STRUCT_MEMBER(vmlinux, S, M)
#define INIT_KERN_STRUCT(S) INIT_MOD_STRUCT(vmlinux, S)
#define INIT_OPT_KERN_STRUCT(S) INIT_OPT_MOD_STRUCT(vmlinux, S)
#define DECLARE_KERN_STRUCT_MEMBER(S, M) DECLARE_MOD_STRUCT_MEMBER(vmlinux, S, M)
#define DECLARE_KERN_STRUCT(S) DECLARE_MOD_STRUCT(vmlinux, S)
#define GET_KERN_STRUCT_MEMBER_MOFF(S, M) GET_MOD_STRUCT_MEMBER_MOFF(vmlinux, S, M)
#define GET_KERN_STRUCT_MEMBER_MSIZE(S, M) GET_MOD_STRUCT_MEMBER_MSIZE(vmlinux, S, M)
#define GET_KERN_STRUCT_MEMBER_SSIZE(S, M) GET_MOD_STRUCT_MEMBER_SSIZE(vmlinux, S, M)
#define KERN_STRUCT_MEMBER_EXIST(S, M) MOD_STRUCT_MEMBER_EXIST(vmlinux, S, M)
#define GET_KERN_STRUCT_SSIZE(S) GET_MOD_STRUCT_SSIZE(vmlinux, S)
#define KERN_STRUCT_EXIST(S) MOD_STRUCT_EXIST(vmlinux, S)

/*
 * The series posted before upstream's also looked types up where the
 * code runs, inside a function that has a local `struct struct_member_info
 * smi`, which works in constructors too.  get_struct_member_by_name()
 * fills the sizes and the member's offset in bits (its width in
 * member_bit_sz: the bitfield's, or member_size * 8); with member_name
 * NULL, only struct_size.
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

#endif
