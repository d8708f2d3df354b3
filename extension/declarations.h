/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The symbols and types an extension written for upstream makedumpfile's
 * API declares (INIT_MOD_SYM, INIT_MOD_STRUCT_MEMBER and their kin):
 * found in the loaded extension, checked, and filled from the dump.
 *
 * Each declaration is a struct in the extension's data, and a pointer to
 * it sits in the section .init_ksyms (symbols) or .init_ktypes (types).
 * makedumpfile.ld makes __start_/__stop_ symbols around each section;
 * an extension linked without it still has the sections, which are then
 * found through its ELF section headers.  The structs' layouts below are
 * upstream's, byte for byte: a .so built against upstream's headers
 * runs here unchanged (the top-level kallsyms.c and btf_info.c check that
 * their public twins agree).
 */
#ifndef MDF_EXTENSION_DECLARATIONS_H
#define MDF_EXTENSION_DECLARATIONS_H

#include <stdbool.h>
#include <stdint.h>

struct kernel;
struct mdf_error;

/* upstream's struct ksym_info */
struct declared_symbol {
	char *modname;           /* "vmlinux" for the kernel */
	char *symname;
	bool required;
	uint64_t value;          /* out: the address, 0 when not found */
	int index;               /* out: >= 0 when found, -1 otherwise */
};

/* upstream's struct ktype_info */
struct declared_type {
	char *modname;
	char *struct_name;
	char *member_name;       /* NULL: the struct alone */
	bool struct_required : 1;
	bool member_required : 1;
	uint32_t member_bit_offset;   /* out, in bits */
	uint32_t member_bit_sz;       /* out: a bitfield's width, else 0 */
	uint32_t member_size;         /* out, in bytes */
	uint32_t struct_size;         /* out, in bytes */
	int index;                    /* out: >= 0 when found, -1 otherwise */
};

/*
 * Fills the declarations of the extension loaded as @handle from @path.
 * *@declared says whether it has any.  The error, when there is one, is
 * why the extension cannot run: a required symbol or type the dump lacks
 * (upstream's words: "Symbol S in M not found", "Member M of struct S in
 * MOD not found", "Struct S in MOD not found"; all of them, one per line)
 * or a section that does not hold what the macros put there.
 */
struct mdf_error *declarations_resolve(void *handle, const char *path, struct kernel *k, bool *declared);

#endif
