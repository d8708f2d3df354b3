/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the crashed kernel maps physical memory, found with its own
 * symbols by its architecture (arch_ops.kernel_image and .address_space),
 * and what kexec-tools tells the readers of /proc/vmcore of it in its
 * program headers: the direct map, where physical address p is at virtual
 * address direct_map + p, and the kernel image, [_text, _end).  A QEMU
 * dump says neither (its segments have physical addresses only); readers
 * such as drgn need both to start translating.
 *
 * Also which of the image's pages the kernel still owns, whatever their
 * struct pages say (the page scan keeps them), and the symbol a page of
 * the image holds, to name it.
 */
#ifndef MDF_KERNEL_KERNEL_MAP_H
#define MDF_KERNEL_KERNEL_MAP_H

#include <stdbool.h>
#include <stddef.h>
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

/*
 * The pages of the kernel image that the kernel still owns after boot:
 * its text, read-only data, data and bss, as the generic linker script
 * names them (_text to _etext, __start_rodata to __end_rodata, _sdata to
 * _edata, __bss_start to __bss_stop), less what the kernel gives back to
 * the page allocator once booted, whose pages are then memory like any
 * other.  Physical ranges [start, end) of whole pages, sorted and apart.
 */
#define KERNEL_IMAGE_MAX_RANGES 12

struct kernel_image_pages {
	/* The image as arch_ops.kernel_image gives it: physical address p is at virtual p + vaddr - paddr. */
	struct arch_image image;
	struct {
		uint64_t start;
		uint64_t end;
	} ranges[KERNEL_IMAGE_MAX_RANGES];
	size_t nr_ranges;
};

/*
 * Finds them with the image's extent from kernel_image_find() and the
 * sections' bounds from kallsyms.  -ENOTSUP where the kernel's kallsyms
 * list text symbols only (a kernel built without CONFIG_KALLSYMS_ALL, as
 * Debian's arm64 ones): no symbol bounds its data there; another error
 * says what is missing or does not agree.
 */
struct mdf_error *kernel_image_pages_find(struct kernel *k, struct memory *mem, uint32_t page_size,
					  struct kernel_image_pages *out);

/*
 * The name of the kernel symbol nearest at or below @vaddr in kallsyms,
 * into @name (NUL-terminated, cut to @len bytes); false, with @name
 * empty, where there is none or kallsyms cannot be read.
 */
bool kernel_symbol_at_or_below(struct kernel *k, uint64_t vaddr, char *name, size_t len);

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
