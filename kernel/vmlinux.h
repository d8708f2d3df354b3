/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A vmlinux file, given with -x: the crashed kernel's image as it was
 * linked, with its symbol table, its build ID and its DWARF, which is
 * read only when types are asked (kernel/dwarf.h).
 *
 * Its symbols are where the kernel was linked.  A kernel that moved
 * itself at boot (KASLR) has them KERNELOFFSET higher, all but the
 * absolute and the per-cpu ones (sections linked at 0).
 */
#ifndef MDF_KERNEL_VMLINUX_H
#define MDF_KERNEL_VMLINUX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct btf;
struct mdf_error;
struct vmlinux;

/* Opens @path and reads its symbol table; an error for a file that is no 64-bit vmlinux. */
struct mdf_error *vmlinux_open(const char *path, struct vmlinux **out);
void vmlinux_close(struct vmlinux *vm);

const char *vmlinux_path(const struct vmlinux *vm);

/*
 * The address of symbol @name, the first global one of the name or else
 * the first local one, with @offset added if it moves with the kernel.
 */
struct mdf_error *vmlinux_symbol(const struct vmlinux *vm, const char *name, uint64_t offset, uint64_t *addr);

/* The bytes of its GNU build ID note; 0 when it has none. */
size_t vmlinux_build_id(const struct vmlinux *vm, const uint8_t **id);

/* Reads what the file holds at link-time address @vaddr: a PT_LOAD's bytes, as upstream reads them. */
struct mdf_error *vmlinux_read(const struct vmlinux *vm, uint64_t vaddr, void *buf, size_t len);

/*
 * The kernel release its image holds (init_uts_ns.name.release, or
 * system_utsname.release in old kernels), NUL-terminated in @buf of
 * @len bytes; @name_offset is the offset of uts_namespace.name.
 */
struct mdf_error *vmlinux_release(const struct vmlinux *vm, uint64_t name_offset, char *buf, size_t len);

/* A new BTF of the types and variables of its DWARF; the caller frees it (btf__free). */
struct mdf_error *vmlinux_types(struct vmlinux *vm, struct btf **out);
/* The file typedef @name is declared in, as DWARF says; NULL when unknown. */
const char *vmlinux_typedef_file(struct vmlinux *vm, const char *name);

#endif
