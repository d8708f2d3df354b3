/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Types from the dump's own BTF, parsed with libbpf: vmlinux's, between
 * the kernel symbols __start_BTF and __stop_BTF, and each loaded module's,
 * from the kernel's btf_modules list, split on vmlinux's.
 *
 * Nothing is read until a lookup needs it: vmlinux's BTF on the first
 * lookup, the list of module BTFs when a lookup names a module or vmlinux
 * lacks the name, and each module's BTF when a lookup reaches it.
 *
 * With -x VMLINUX, vmlinux's types come from that file's DWARF instead
 * (kernel/dwarf.h), made into BTF the first time they are needed; the
 * modules' BTF stays the dump's, split on the dump's own vmlinux BTF.
 *
 * A scope names where to look: NULL for vmlinux and then each module in
 * btf_modules order, "vmlinux" for vmlinux alone, or a module's name for
 * that module's types and then vmlinux's (a module's BTF holds only what
 * vmlinux's lacks).
 */
#ifndef MDF_KERNEL_BTF_H
#define MDF_KERNEL_BTF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct btf;
struct btf_info;
struct mdf_error;
struct memory;
struct vmlinux;

/* Where the kernel keeps its BTF: what its symbols say. */
struct btf_location {
	bool has_vmlinux;        /* the symbols have __start_BTF and __stop_BTF */
	uint64_t start;
	uint64_t stop;
	bool has_modules;        /* the symbols have btf_modules */
	uint64_t btf_modules;
	struct vmlinux *vmlinux; /* -x: vmlinux's types from its DWARF; NULL: from the dump */
	/*
	 * Where kallsyms lack btf_modules, asked for it once, when a lookup
	 * first reaches the modules (vmlinux's BTF is loaded then): false
	 * when it is not found either.  Optional.
	 */
	bool (*find_btf_modules)(void *ctx, uint64_t *btf_modules);
	void *find_ctx;
};

/* Reads nothing yet; @mem and loc->vmlinux must outlive the result. */
struct mdf_error *btf_info_new(struct memory *mem, const struct btf_location *loc, struct btf_info **out);
void btf_info_free(struct btf_info *bi);

enum btf_info_kind {
	BTF_INFO_TYPE,        /* a struct, union, typedef, enum or base type */
	BTF_INFO_MEMBER,      /* a member, possibly nested: "page.lru", "a.b.c" */
	BTF_INFO_ENUM_VALUE,  /* an enum constant: "PG_lru" or "pageflags.PG_lru" */
	BTF_INFO_VARIABLE,    /* a variable BTF describes (per-cpu ones, mostly) */
};

struct btf_info_result {
	enum btf_info_kind kind;
	const char *scope;          /* "vmlinux" or the module whose BTF answered */
	const struct btf *btf;      /* libbpf's, for further questions about type_id */
	uint32_t type_id;           /* the type; a member's or a variable's type */
	uint16_t btf_kind;          /* BTF_KIND_* of type_id, typedefs and qualifiers left on */
	int64_t size;               /* bytes of the type; of a bitfield's underlying type */
	uint64_t bit_offset;        /* a member's, from the start of the outermost type */
	uint32_t bitfield_size;     /* bits; 0 when the member is no bitfield */
	int64_t value;              /* an enum constant's (an unsigned enum64's, cast) */
	int64_t array_length;       /* elements when the type is an array, else -1 */
};

/*
 * Looks up @path ("NAME", "NAME.MEMBER[.MEMBER...]") in @scope.  Members
 * are found inside anonymous structs and unions too, as C finds them.
 * NAME is a struct or union first, then a typedef, an enum, a base type,
 * a variable; failing all, an enum constant.  The first BTF of the scope
 * that has NAME answers.  The error is -ENOENT when there is no such
 * thing (a caller with other sources drops it), -EINVAL for a malformed
 * path, -ENOTUNIQ for an enum constant with different values in different
 * enums of one BTF, or the error that kept the BTF from loading.  A
 * module whose BTF does not load is said once, as a warning, and passed
 * over in a search of several.
 */
struct mdf_error *btf_info_lookup(struct btf_info *bi, const char *scope, const char *path,
				  struct btf_info_result *result);

/*
 * For `--dump-type [MODULE:]NAME[.MEMBER...][,...]`: prints for each spec
 * "NAME size=S", "NAME.MEMBER offset=O size=S bitfield=B" (with
 * " bit_offset=N" for a bitfield, whose byte offset alone would not place
 * it) or "NAME=VALUE" to @out, or gives @say the error of a spec that has
 * no answer.  Every spec is tried; an error with the first one's code is
 * returned, with nothing more to say.
 */
struct mdf_error *btf_info_describe(struct btf_info *bi, const char *specs, FILE *out,
				    void (*say)(struct mdf_error *err));

/*
 * Whether there are types at all (a vmlinux was given, or the kernel's
 * symbols have __start_BTF and __stop_BTF), without reading them: for
 * optional uses, which go without quietly where there are none.
 */
bool btf_info_present(const struct btf_info *bi);

/*
 * The parsed BTF of @scope alone: vmlinux's (@scope NULL or "vmlinux") or
 * one module's, split on vmlinux's (its type ids continue vmlinux's, and
 * libbpf resolves both through it).  For callers that walk types with
 * libbpf.  -ENOENT, with nothing more to say, for a module without BTF.
 */
struct mdf_error *btf_info_scope_btf(struct btf_info *bi, const char *scope, const struct btf **out);

/* Parses vmlinux's BTF and every module's now: for benchmarks and tests. */
struct mdf_error *btf_info_load_all(struct btf_info *bi);
/* Module BTFs found so far (after a lookup that reached modules, or load_all). */
size_t btf_info_module_count(const struct btf_info *bi);

#endif
