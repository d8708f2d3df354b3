/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The VMCOREINFO table: the kernel's "KEY=VALUE" lines (OSRELEASE,
 * PAGESIZE, SYMBOL(name), SIZE(type), OFFSET(type.member), LENGTH(name),
 * NUMBER(name), KERNELOFFSET, CRASHTIME, BUILD-ID, ...) indexed for lookup.
 */
#ifndef MDF_INPUT_VMCOREINFO_H
#define MDF_INPUT_VMCOREINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct vmcoreinfo;

/*
 * Parses @len bytes of VMCOREINFO text; @origin names where it came from
 * for messages.  Lines without '=' are an error; the last of duplicate
 * keys wins, as in the kernel's own reading.
 */
int vmcoreinfo_parse(const char *text, size_t len, const char *origin, struct vmcoreinfo **out);
/* Reads a VMCOREINFO file, as `makedumpfile -g` writes and `-i` takes. */
int vmcoreinfo_load_file(const char *path, struct vmcoreinfo **out);
void vmcoreinfo_free(struct vmcoreinfo *vi);

/* The raw value of a whole key such as "OSRELEASE" or "SYMBOL(_stext)". */
const char *vmcoreinfo_get(const struct vmcoreinfo *vi, const char *key);

/*
 * Where VMCOREINFO lacks a line, a resolver may know the fact from the
 * dump's own kallsyms and BTF.  Each hook returns true and sets @value when
 * it knows; a NULL hook knows nothing.  Arguments are as for the lookups
 * below.  A hook may itself read VMCOREINFO (kallsyms are found through
 * it): it must then answer false to the lookups it makes meanwhile.
 */
struct vmcoreinfo_fallback {
	bool (*symbol)(void *ctx, const char *name, uint64_t *value);
	bool (*size)(void *ctx, const char *type, int64_t *value);
	bool (*offset)(void *ctx, const char *type_member, int64_t *value);
	bool (*length)(void *ctx, const char *name, int64_t *value);
	bool (*number)(void *ctx, const char *name, int64_t *value);
	/* Whether it can answer without decoding anything first. */
	bool (*ready)(void *ctx);
};

/* Installs @ops (NULL: none) for the typed lookups below; @ctx is theirs. */
void vmcoreinfo_set_fallback(struct vmcoreinfo *vi, const struct vmcoreinfo_fallback *ops, void *ctx);

/*
 * Typed lookups; each returns false when the line is malformed, or absent
 * and the fallback, if any, does not know it either.
 */
bool vmcoreinfo_symbol(const struct vmcoreinfo *vi, const char *name, uint64_t *value);
bool vmcoreinfo_size(const struct vmcoreinfo *vi, const char *type, int64_t *value);
bool vmcoreinfo_offset(const struct vmcoreinfo *vi, const char *type_member, int64_t *value);
bool vmcoreinfo_length(const struct vmcoreinfo *vi, const char *name, int64_t *value);
bool vmcoreinfo_number(const struct vmcoreinfo *vi, const char *name, int64_t *value);

/*
 * The same for facts the caller can do without: the fallback is asked only
 * when it is ready, so that a VMCOREINFO with every required line never
 * costs decoding symbols and types, and the caller then sees what
 * upstream makedumpfile sees.
 */
bool vmcoreinfo_offset_optional(const struct vmcoreinfo *vi, const char *type_member, int64_t *value);
bool vmcoreinfo_length_optional(const struct vmcoreinfo *vi, const char *name, int64_t *value);
bool vmcoreinfo_number_optional(const struct vmcoreinfo *vi, const char *name, int64_t *value);
/* A plain decimal line such as PAGESIZE or CRASHTIME. */
bool vmcoreinfo_plain_number(const struct vmcoreinfo *vi, const char *key, int64_t *value);
/* KERNELOFFSET, a hexadecimal value without prefix; 0 when absent. */
uint64_t vmcoreinfo_kernel_offset(const struct vmcoreinfo *vi);

/* The text as parsed, for writers that embed it. */
const char *vmcoreinfo_text(const struct vmcoreinfo *vi, size_t *len);

#endif
