/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the crashed kernel maps physical memory, as kexec-tools tells the
 * readers of /proc/vmcore in its program headers: the direct map, where
 * physical address p is at virtual address direct_map + p, and the kernel
 * image, [_text, _end) at __START_KERNEL_map plus its physical address
 * less phys_base.  A QEMU dump says neither (its segments have physical
 * addresses only); readers such as drgn need both to start translating.
 */
#ifndef MDF_KERNEL_KERNEL_MAP_H
#define MDF_KERNEL_KERNEL_MAP_H

#include <stdint.h>

struct kernel;
struct mdf_error;
struct memory;

struct kernel_map {
	/* The direct map's virtual address of physical address 0. */
	uint64_t direct_map;
	/* The kernel image, whole pages: its virtual and physical start, its size. */
	uint64_t text_vaddr;
	uint64_t text_paddr;
	uint64_t text_size;
};

/*
 * Finds both mappings of a dump of a @machine machine (uname -m), each
 * checked against the kernel's page tables.  -ENOTSUP for a machine whose
 * mappings are not known here (arm64: Debian's kernel lists neither _text
 * nor _end in kallsyms, and kexec-tools takes the image's extent from
 * /proc/iomem, which a dump lacks); an error saying what is missing or
 * does not agree otherwise.
 */
struct mdf_error *kernel_map_find(struct kernel *k, struct memory *mem, const char *machine,
				  struct kernel_map *out);

#endif
