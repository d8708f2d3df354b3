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

struct mdf_error;
struct vmcoreinfo;

/*
 * Parses @len bytes of VMCOREINFO text; @origin names where it came from
 * for messages.  Lines without '=' are an error; the last of duplicate
 * keys wins, as in the kernel's own reading.
 */
struct mdf_error *vmcoreinfo_parse(const char *text, size_t len, const char *origin, struct vmcoreinfo **out);
/* Reads a VMCOREINFO file, as `makedumpfile -g` writes and `-i` takes. */
struct mdf_error *vmcoreinfo_load_file(const char *path, struct vmcoreinfo **out);
void vmcoreinfo_free(struct vmcoreinfo *vi);

/* The raw value of a whole key such as "OSRELEASE" or "SYMBOL(_stext)". */
const char *vmcoreinfo_get(const struct vmcoreinfo *vi, const char *key);

/* Whether the line KIND(NAME) is there, as in vmcoreinfo_has(vi, "OFFSET", "page.flags"). */
bool vmcoreinfo_has(const struct vmcoreinfo *vi, const char *kind, const char *name);

/*
 * Typed lookups of the line KIND(@name): each returns NULL with *@value
 * set, &mdf_error_not_found when the line is absent, or an error of
 * -MDF_ECORRUPT that quotes a line whose value is no number.
 * kernel/kernel.h asks the dump's own symbols and types where a line is
 * absent.
 */
struct mdf_error *vmcoreinfo_lookup_symbol(const struct vmcoreinfo *vi, const char *name, uint64_t *value);
struct mdf_error *vmcoreinfo_lookup_size(const struct vmcoreinfo *vi, const char *type, int64_t *value);
struct mdf_error *vmcoreinfo_lookup_offset(const struct vmcoreinfo *vi, const char *type_member,
					   int64_t *value);
struct mdf_error *vmcoreinfo_lookup_length(const struct vmcoreinfo *vi, const char *name, int64_t *value);
struct mdf_error *vmcoreinfo_lookup_number(const struct vmcoreinfo *vi, const char *name, int64_t *value);
/* The same for a plain decimal line such as PAGESIZE or CRASHTIME, named by its key. */
struct mdf_error *vmcoreinfo_lookup_plain(const struct vmcoreinfo *vi, const char *key, int64_t *value);
#endif
