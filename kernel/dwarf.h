/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A vmlinux's types from its DWARF (-x VMLINUX), made into BTF: whatever
 * reads types (kernel/btf.h and all it serves) then reads a vmlinux's
 * DWARF as it reads a dump's BTF, and gets the same answers.
 *
 * The BTF holds one type for each named struct, union, enum, typedef and
 * base type (the first definition of the name, as DWARF has a copy in
 * every compilation unit that uses it), the types these refer to, and a
 * BTF_KIND_VAR for each global variable: DWARF knows every variable's
 * type, where a kernel's BTF knows only the per-cpu ones'.
 */
#ifndef MDF_KERNEL_DWARF_H
#define MDF_KERNEL_DWARF_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>

struct btf;
struct mdf_error;
struct vmlinux_dwarf;

/*
 * Opens the DWARF of @elf (which must outlive the result); @path names
 * the file in messages.  Nothing is read but the section headers: an
 * error when there is no DWARF at all.
 */
struct mdf_error *vmlinux_dwarf_open(Elf *elf, const char *path, struct vmlinux_dwarf **out);
void vmlinux_dwarf_close(struct vmlinux_dwarf *d);

/* A new BTF of every type and variable the DWARF names; the caller frees it (btf__free). */
struct mdf_error *vmlinux_dwarf_btf(struct vmlinux_dwarf *d, struct btf **out);

/*
 * The file DWARF says typedef @name is declared in, as libdw gives it
 * (upstream's SRCFILE() lines); NULL when there is no such typedef.
 */
const char *vmlinux_dwarf_typedef_file(struct vmlinux_dwarf *d, const char *name);

#endif
