/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The loaded modules' symbols, read from the kernel's modules list through
 * struct module's layout in vmlinux's BTF, as /proc/kallsyms lists them:
 * modules in list order, each one's symbols in its symbol table's order,
 * unnamed ones left out, the type letter upper case when the module
 * exports the symbol.
 *
 * Nothing is kept: each listing or lookup reads the modules it needs.  A
 * damaged module is reported and passed over, and a broken link of the
 * list ends the walk with a message naming the module before it.
 */
#ifndef MDF_KERNEL_MODULES_H
#define MDF_KERNEL_MODULES_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/kallsyms.h"

struct btf_info;
struct mdf_error;
struct memory;
struct modules;

/*
 * Reads struct module's layout from @btf for the list at @head (the
 * kernel's "modules").  @mem must outlive the result.
 */
struct mdf_error *modules_new(struct memory *mem, struct btf_info *btf, uint64_t head, struct modules **out);
void modules_free(struct modules *mods);

/*
 * Calls @visit for each symbol of each module, in /proc/kallsyms order
 * (sym->module names the module); stops at the first error @visit
 * returns, and returns it.  An error of its own is one of memory.
 */
struct mdf_error *modules_for_each_symbol(struct modules *mods,
					  struct mdf_error *(*visit)(void *ctx, const struct ksym *sym), void *ctx);

/*
 * The address of @name in module @module, or in the first module of the
 * list that has it when @module is NULL, by the rule kallsyms_find
 * follows.
 */
struct mdf_error *modules_lookup(struct modules *mods, const char *module, const char *name, uint64_t *addr);

/* Whether a module of that name is loaded (and formed). */
bool modules_loaded(struct modules *mods, const char *module);

#endif
