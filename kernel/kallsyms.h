/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel symbols decoded from the dump's own kallsyms tables, and the
 * symbols of the loaded modules, read from the kernel's modules list.
 */
#ifndef MDF_KERNEL_KALLSYMS_H
#define MDF_KERNEL_KALLSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct btf_info;
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
	const char *module;    /* NULL for the kernel's own */
};

/*
 * Decodes the kernel's symbol table, located by VMCOREINFO's
 * SYMBOL(kallsyms_*) lines.  Every size read from the dump is bounded;
 * on failure one message says which table is wrong and where.
 */
int kallsyms_load_kernel(struct memory *mem, const struct vmcoreinfo *vi, struct kallsyms **out);
/*
 * Opens the same table for lookups by name only, for a process that asks
 * a few names: each lookup (kallsyms_lookup_module_name) reads the dump's
 * compressed names again and decodes none but the one it finds, and
 * kallsyms_load_modules() only locates the modules, whose tables are read
 * when one of their symbols is asked.  Opening makes one such pass anyway:
 * the kernel's symbols named in @expected (at most KALLSYMS_MAX_EXPECTED)
 * are found in it, and their lookups cost nothing later.  Such a table
 * lists nothing: its count is 0 and kallsyms_lookup_addr() finds nothing.
 * @mem must outlive it.
 */
#define KALLSYMS_MAX_EXPECTED 20
int kallsyms_open_lazy(struct memory *mem, const struct vmcoreinfo *vi, const char *const *expected,
		       size_t nr_expected, struct kallsyms **out);
/*
 * Whether VMCOREINFO itself has the SYMBOL() lines kallsyms_load_kernel
 * needs: for optional uses, which skip kallsyms quietly where they cannot be.
 */
bool kallsyms_in_vmcoreinfo(const struct vmcoreinfo *vi);
void kallsyms_free(struct kallsyms *ks);

/*
 * Adds the symbols of every loaded module, as /proc/kallsyms lists them:
 * modules in the order of the kernel's modules list, each one's symbols in
 * its symbol table's order, unnamed ones left out, the type letter upper
 * case when the module exports the symbol.  struct module's layout comes
 * from vmlinux's BTF.  Once per table.
 *
 * A damaged module is reported and passed over, and a broken link of the
 * list ends the walk with a message naming the module before it: the
 * modules read stay listed and 0 is returned.  An error means no module
 * symbols at all (the kernel's are still there).
 */
int kallsyms_load_modules(struct kallsyms *ks, struct memory *mem, struct btf_info *btf);

/* Symbols: the kernel's, then the modules' once loaded. */
size_t kallsyms_count(const struct kallsyms *ks);
/*
 * Symbol @index in /proc/kallsyms order: the kernel's table, then each
 * module's.  Its name and module point into the table, valid until it
 * grows (kallsyms_load_modules) or is freed.
 */
void kallsyms_get(const struct kallsyms *ks, size_t index, struct ksym *sym);
/*
 * The address of @name in @module: NULL looks in the kernel and then in
 * each module in list order, "vmlinux" in the kernel only.  Within one of
 * them a global (or exported) symbol wins over locals, the first local
 * over later ones.
 */
bool kallsyms_lookup_module_name(const struct kallsyms *ks, const char *module, const char *name,
				 uint64_t *addr);
/*
 * Kernel symbols about to be asked (with module "vmlinux" or NULL): a
 * table opened by name only finds those it was not asked before in one
 * pass, where each lookup would make its own.  Tables loaded whole need
 * nothing.  Past the few dozen answers such a table remembers, names are
 * left for their lookups.  An error is one reading the dump (reported).
 */
int kallsyms_expect_kernel_names(const struct kallsyms *ks, const char *const *names, size_t nr);
/* kallsyms_lookup_module_name(ks, NULL, name, addr) */
bool kallsyms_lookup_name(const struct kallsyms *ks, const char *name, uint64_t *addr);
/* The symbol at or below @addr (the last one at the highest address). */
bool kallsyms_lookup_addr(const struct kallsyms *ks, uint64_t addr, struct ksym *sym);

enum kallsyms_encoding kallsyms_get_encoding(const struct kallsyms *ks);
const char *kallsyms_encoding_name(enum kallsyms_encoding encoding);

/*
 * Writes the symbols as /proc/kallsyms does: "%016lx %c %s\n" for the
 * kernel's, "%016lx %c %s\t[%s]\n" for a module's, in kallsyms_get order.
 */
int kallsyms_write(const struct kallsyms *ks, FILE *out);

#endif
