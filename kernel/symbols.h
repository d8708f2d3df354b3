/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The dump's own symbols and types, each loaded the first time something
 * asks for it: the kernel's kallsyms, vmlinux's and the modules' BTF, the
 * modules' kallsyms.  Also the VMCOREINFO fallback that answers from them
 * for lines the dump's VMCOREINFO lacks.
 */
#ifndef MDF_KERNEL_SYMBOLS_H
#define MDF_KERNEL_SYMBOLS_H

#include <stddef.h>

struct btf_info;
struct kallsyms;
struct memory;
struct symbols;
struct vmcoreinfo;

/*
 * Reads nothing yet.  Installs the fallback in @vi (vmcoreinfo_set_fallback)
 * so that absent SYMBOL() lines come from kallsyms and absent OFFSET(),
 * SIZE(), LENGTH() and NUMBER() lines from vmlinux's BTF, each said at
 * debug level; symbols_free takes it out again.  @mem and @vi must outlive
 * the result.
 */
int symbols_new(struct memory *mem, struct vmcoreinfo *vi, struct symbols **out);
void symbols_free(struct symbols *sym);

/*
 * Each loads what it returns on the first call (later calls give the same
 * object, or the same error, reported once).
 */
int symbols_kallsyms(struct symbols *sym, struct kallsyms **out);
int symbols_btf(struct symbols *sym, struct btf_info **out);
/*
 * The kallsyms with the modules' symbols added (kallsyms_load_modules):
 * an error means there are none, and was reported; the kernel's symbols
 * are still there through symbols_kallsyms.
 */
int symbols_module_kallsyms(struct symbols *sym, struct kallsyms **out);
/*
 * Frees the types loaded so far (vmlinux's and the modules' BTF): a later
 * symbols_btf() loads them again.  For a process done with them while it
 * runs on; the module symbols located with them stay.
 */
void symbols_release_btf(struct symbols *sym);

/*
 * For a process that asks a few symbols by name and lists none (an
 * extension's child): kallsyms not loaded yet will be opened for lookups
 * by name only (kallsyms_open_lazy), expecting the kernel symbols BTF is
 * read through and @expected (names the caller will ask; the array must
 * stay until kallsyms are opened).  A table already loaded stays.
 */
void symbols_look_up_by_name_only(struct symbols *sym, const char *const *expected, size_t nr_expected);

#endif
