/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What is known of the crashed kernel, asked in one order: VMCOREINFO
 * first, then the dump's own kallsyms (SYMBOL() facts) and vmlinux's BTF
 * (SIZE(), OFFSET(), LENGTH(), NUMBER()), each said at debug level when
 * it answers.  VMCOREINFO describes the kernel, so the fallback answers
 * from vmlinux's symbols and types only, never a module's.
 *
 * The kernel's kallsyms, its BTF and the module symbols are each loaded
 * the first time something needs them; a failure to load one is kept, and
 * each later call gets a copy of its error.
 */
#ifndef MDF_KERNEL_KERNEL_H
#define MDF_KERNEL_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct btf_info;
struct kallsyms;
struct kernel;
struct mdf_error;
struct memory;
struct modules;
struct vmcoreinfo;
struct vmlinux;

/* Reads nothing yet; @mem and @vi must outlive the result. */
struct mdf_error *kernel_new(struct memory *mem, const struct vmcoreinfo *vi, struct kernel **out);
void kernel_free(struct kernel *k);

const struct vmcoreinfo *kernel_vmcoreinfo(const struct kernel *k);

/*
 * -x VMLINUX: the kernel's symbols and types from @vm (which must outlive
 * @k) from now on, moved by VMCOREINFO's KERNELOFFSET.  First @vm must be
 * the dump's kernel: the same build ID as VMCOREINFO's BUILD-ID where
 * both have one, else the same release as its OSRELEASE; an error of
 * code -MDF_EWRONGKERNEL when it is not.
 */
struct mdf_error *kernel_use_vmlinux(struct kernel *k, struct vmlinux *vm);

/*
 * VMCOREINFO's SYMBOL(), SIZE(), OFFSET(), LENGTH() and NUMBER() facts;
 * where a line is absent, kallsyms' or BTF's answer.  Each returns NULL
 * with *@value set; &mdf_error_not_found (mdf_error_is_not_found()) when
 * the line is absent and the dump's symbols and types do not know the
 * fact either; or the error of a malformed line, the dump's word and a
 * wrong one, after which nothing else is asked.  SYMBOL(mem_section) is
 * the value of the kernel's mem_section, as VMCOREINFO gives it, not its
 * address.
 */
struct mdf_error *kernel_lookup_symbol(struct kernel *k, const char *name, uint64_t *value);
struct mdf_error *kernel_lookup_size(struct kernel *k, const char *type, int64_t *value);
struct mdf_error *kernel_lookup_offset(struct kernel *k, const char *type_member, int64_t *value);
struct mdf_error *kernel_lookup_length(struct kernel *k, const char *name, int64_t *value);
struct mdf_error *kernel_lookup_number(struct kernel *k, const char *name, int64_t *value);
/*
 * The same for facts the caller can do without: BTF answers only when it
 * is loaded already, so that a VMCOREINFO with every required line never
 * costs decoding symbols and types, and the caller then sees what
 * upstream makedumpfile sees.
 */
struct mdf_error *kernel_peek_offset(struct kernel *k, const char *type_member, int64_t *value);
struct mdf_error *kernel_peek_length(struct kernel *k, const char *name, int64_t *value);
struct mdf_error *kernel_peek_number(struct kernel *k, const char *name, int64_t *value);

/*
 * The address of symbol @name: @module NULL looks in the kernel and then
 * in each module in list order, "vmlinux" in the kernel only, another
 * name in that module only.  -ENOENT, with nothing more to say, when there
 * is none (a table that does not load counts as having none).  Answers
 * are kept: a name costs a pass over the kernel's table once.
 */
struct mdf_error *kernel_symbol_address(struct kernel *k, const char *module, const char *name, uint64_t *addr);
/*
 * Whether the kernel's kallsyms list no data symbols (a kernel built
 * without CONFIG_KALLSYMS_ALL, as Debian's arm64 ones): a symbol they lack
 * is then looked for in the kernel image, which costs a search, and the
 * linker's symbols (_end, _sdata, ...) are not found at all.  False with a
 * vmlinux (-x), or kallsyms that cannot be read.
 */
bool kernel_kallsyms_lack_data(struct kernel *k);

/*
 * Kernel symbols about to be asked: found in one pass rather than one
 * each.  A hint: an error is one loading kallsyms.
 */
struct mdf_error *kernel_expect_symbols(struct kernel *k, const char *const *names, size_t nr);

/*
 * Whether the kernel's own symbols can be looked up: none to load with a
 * vmlinux (-x), else the error of opening kallsyms.
 */
struct mdf_error *kernel_symbols_ready(struct kernel *k);

/* Each loads what it returns on the first call. */
struct mdf_error *kernel_kallsyms(struct kernel *k, struct kallsyms **out);
struct mdf_error *kernel_btf(struct kernel *k, struct btf_info **out);
/*
 * The module symbols; an error (-ENOENT without BTF) where they cannot
 * be read, none with *@out NULL for a kernel without modules.
 */
struct mdf_error *kernel_modules(struct kernel *k, struct modules **out);
/*
 * Frees the types loaded so far (vmlinux's and the modules' BTF): a later
 * kernel_btf() loads them again.  For a process done with them while it
 * runs on.
 */
void kernel_release_btf(struct kernel *k);

/*
 * Writes the kernel's and the modules' symbols as /proc/kallsyms does:
 * "%016lx %c %s\n" for the kernel's, "%016lx %c %s\t[%s]\n" for a
 * module's.  Without module symbols (kernel_modules says why), the
 * kernel's alone.  Where the kernel's kallsyms have no data symbols and
 * some were found by searching the image, a warning says so on stderr:
 * the listing itself stays /proc/kallsyms' format.
 */
struct mdf_error *kernel_write_kallsyms(struct kernel *k, FILE *out);

#endif
