/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The virtual addresses of an ELF dump's segments, for -E of a dump whose
 * segments have none (QEMU's dump-guest-memory gives each PT_LOAD its
 * physical address, or 0, as p_vaddr): the addresses kexec's /proc/vmcore
 * gives, so that readers which start from them (drgn, libkdumpfile,
 * crash) read the file as they read kdump's.
 *
 *   first       the kernel image, [_text, _end) at its kernel text mapping
 *               address, as kexec-tools puts it before the others
 *   then        each of the input's PT_LOADs, in its order, at its direct
 *               map address (PAGE_OFFSET + p_paddr)
 *
 * As in a kexec dump, the image's pages are then in two segments.
 */
#ifndef MDF_OUTPUT_ELF_VADDRS_H
#define MDF_OUTPUT_ELF_VADDRS_H

#include <stdbool.h>
#include <stdint.h>

#include "input/elf_segments.h"
#include "kernel/kernel_map.h"

struct memory;

/* Whether a PT_LOAD of @segs has a kernel virtual address of the dumped machine (@mem's). */
bool elf_segments_have_kernel_vaddrs(const struct elf_segments *segs, const struct memory *mem);

/*
 * Gives @segs' PT_LOADs the addresses above, the image's segment flagged
 * and aligned as the input's segment that holds it.  An error, and @segs
 * unchanged, when no PT_LOAD holds the whole image.
 */
struct mdf_error *elf_segments_set_kernel_vaddrs(struct elf_segments *segs,
						 const struct kernel_map *map);

#endif
