/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel symbols decoded from the dump's own kallsyms tables.
 */
#ifndef MDF_KALLSYMS_H
#define MDF_KALLSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct kallsyms;
struct memory;
struct vmcoreinfo;

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
};

/*
 * Decodes the kernel's symbol table, located by VMCOREINFO's
 * SYMBOL(kallsyms_*) lines.  Every size read from the dump is bounded;
 * on failure one message says which table is wrong and where.
 */
int kallsyms_load_kernel(struct memory *mem, const struct vmcoreinfo *vi, struct kallsyms **out);
void kallsyms_free(struct kallsyms *ks);

size_t kallsyms_count(const struct kallsyms *ks);
/* Symbol @index in the kernel's table order. */
void kallsyms_get(const struct kallsyms *ks, size_t index, struct ksym *sym);
/* A global symbol of that name if there is one, else the first local. */
bool kallsyms_lookup_name(const struct kallsyms *ks, const char *name, uint64_t *addr);
/* The symbol at or below @addr (the last one at the highest address). */
bool kallsyms_lookup_addr(const struct kallsyms *ks, uint64_t addr, struct ksym *sym);

enum kallsyms_encoding kallsyms_get_encoding(const struct kallsyms *ks);
const char *kallsyms_encoding_name(enum kallsyms_encoding encoding);

/* Writes the table as /proc/kallsyms does: "%016lx %c %s\n", table order. */
int kallsyms_write(const struct kallsyms *ks, FILE *out);

#endif
