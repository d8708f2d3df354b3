/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -g VMCOREINFO -x VMLINUX: the VMCOREINFO text upstream makedumpfile
 * writes from a vmlinux, the same lines in the same order, for a dump
 * whose own VMCOREINFO is missing or wanting (-i reads it back).
 */
#ifndef MDF_OUTPUT_VMCOREINFO_WRITER_H
#define MDF_OUTPUT_VMCOREINFO_WRITER_H

#include <stdio.h>

struct mdf_error;
struct vmlinux;

/*
 * Writes @vm's VMCOREINFO to @out.  An error, with nothing written, when
 * the vmlinux says no release or no memory model (neither SPARSEMEM's
 * mem_section nor FLATMEM's mem_map, or no struct page), as upstream.
 */
struct mdf_error *vmcoreinfo_write(struct vmlinux *vm, FILE *out);

#endif
