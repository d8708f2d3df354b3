/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's own symbol table, decoded from the dump's kallsyms tables
 * (located by VMCOREINFO's SYMBOL(kallsyms_*) lines).  Module symbols are
 * kernel/modules.h's.
 *
 * Each listing or lookup by name is one pass over the compressed names,
 * read through a small window: a pass that looks for names expands an
 * entry's tokens only while they still spell the start of a name asked.
 */
#ifndef MDF_KERNEL_KALLSYMS_H
#define MDF_KERNEL_KALLSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kallsyms;
struct mdf_error;
struct memory;
struct vmcoreinfo;

/* The kernel's KSYM_NAME_LEN: the longest name, its NUL included. */
#define KSYM_NAME_LEN 512

/* How the kernel encoded symbol addresses; found from the data. */
enum kallsyms_encoding {
	KALLSYMS_ABSOLUTE,        /* kallsyms_addresses[]: unsigned longs */
	KALLSYMS_ABS_PERCPU,      /* offsets >= 0 absolute, < 0 base - 1 - offset */
	KALLSYMS_BASE_RELATIVE,   /* kallsyms_relative_base + (u32)offset */
	KALLSYMS_PLACE_RELATIVE,  /* &kallsyms_offsets[i] + (s32)offset, kernels >= 7.0 */
};

struct ksym {
	uint64_t addr;
	char type;
	const char *name;
	const char *module;    /* NULL for the kernel's own */
};

/*
 * Opens the table.  Every size read from the dump is bounded; an error
 * says which table is wrong and where.  @mem must outlive it.
 */
struct mdf_error *kallsyms_new(struct memory *mem, const struct vmcoreinfo *vi, struct kallsyms **out);
/*
 * Whether VMCOREINFO itself has the SYMBOL() lines kallsyms_new needs:
 * for optional uses, which skip kallsyms quietly where they cannot be.
 */
bool kallsyms_in_vmcoreinfo(const struct vmcoreinfo *vi);
void kallsyms_free(struct kallsyms *ks);

size_t kallsyms_count(const struct kallsyms *ks);
/*
 * Calls @visit for each symbol in table order (/proc/kallsyms's), name
 * decoded, until it returns an error, which it returns.
 */
struct mdf_error *kallsyms_for_each(const struct kallsyms *ks,
				    struct mdf_error *(*visit)(void *ctx, const struct ksym *sym), void *ctx);
/* The address of symbol @index. */
struct mdf_error *kallsyms_address(const struct kallsyms *ks, size_t index, uint64_t *addr);
/* Every symbol's address, in table order, into @addrs (kallsyms_count of them). */
struct mdf_error *kallsyms_addresses(const struct kallsyms *ks, uint64_t *addrs);

/*
 * Finds @nr names in one pass: index[k] becomes the symbol named names[k]
 * that the kernel's lookups prefer (the first global one, else the first
 * local one; undefined symbols name no address), or -1.
 */
struct mdf_error *kallsyms_find(const struct kallsyms *ks, const char *const *names, size_t nr, int64_t *index);

const char *kallsyms_encoding_name(enum kallsyms_encoding encoding);

/* Whether a type letter marks an undefined symbol, which names no address of its own. */
static inline bool ksym_is_undefined(char type)
{
	return type == 'U' || type == 'u';
}

/*
 * The rule that picks, among symbols of one name in one table, the one a
 * lookup answers: whether one of type @type comes before the best so far
 * (@best_type; none yet when @have_best is false), seen in table order.
 */
static inline bool ksym_better(bool have_best, char best_type, char type)
{
	return !have_best || (!(best_type >= 'A' && best_type <= 'Z') && type >= 'A' && type <= 'Z');
}

#endif
