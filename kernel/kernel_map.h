/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the crashed kernel maps physical memory, found with its own
 * symbols by its architecture (arch_ops.kernel_image and .address_space),
 * and what kexec-tools tells the readers of /proc/vmcore of it in its
 * program headers: the direct map, where physical address p is at virtual
 * address direct_map + p, and the kernel image, [_text, _end).  A QEMU
 * dump says neither (its segments have physical addresses only); readers
 * such as drgn need both to start translating.
 */
#ifndef MDF_KERNEL_KERNEL_MAP_H
#define MDF_KERNEL_KERNEL_MAP_H

#include <stdint.h>

#include "arch/arch.h"

struct kernel;
struct mdf_error;
struct memory;

/* The kernel image, virtually and physically: arch_ops.kernel_image with the kernel's symbols. */
struct mdf_error *kernel_image_find(struct kernel *k, struct memory *mem, struct arch_image *out);
/* The rest of the kernel's address space: arch_ops.address_space with the kernel's symbols. */
struct mdf_error *kernel_address_space_find(struct kernel *k, struct memory *mem,
					    struct arch_address_space *out);

struct kernel_map {
	/* The direct map's virtual address of physical address 0. */
	uint64_t direct_map;
	/* The kernel image, whole pages: its virtual and physical start, its size. */
	uint64_t text_vaddr;
	uint64_t text_paddr;
	uint64_t text_size;
};

/*
 * Both mappings as kexec gives them, each checked against the kernel's
 * page tables.  -ENOTSUP for an architecture whose kexec addresses are
 * not known here (arch_ops.kexec_vaddrs); an error saying what is missing
 * or does not agree otherwise.
 */
struct mdf_error *kernel_map_find(struct kernel *k, struct memory *mem, struct kernel_map *out);

#endif
