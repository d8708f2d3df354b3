/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * /proc/kcore as a dump input, for --mem-usage on a running system.
 *
 * kcore is an ELF core of the kernel's whole address space.  Its PT_LOADs
 * that map memory (RAM through the direct map, the kernel image) carry
 * physical addresses; the others (vmalloc, modules, vmemmap) have p_paddr
 * -1, which no crash dump has, and which tells a kcore from a vmcore.
 * Only the first kind is read, each physical page once.  On the running
 * system (/proc/kcore itself) the crashkernel reservation of /proc/iomem
 * is left out, as upstream leaves it out: a dump never holds it.
 *
 * VMCOREINFO is kcore's own note (kernels 4.19 and later); without it,
 * /sys/kernel/vmcoreinfo gives the physical address of the kernel's note.
 */
#ifndef MDF_INPUT_KCORE_H
#define MDF_INPUT_KCORE_H

struct dump_input;
struct mdf_error;

/*
 * Opens @path if it is a kcore and sets *@out; *@out is NULL, and no error
 * is returned, when it is not one (nothing is opened: input_open() is for
 * it).
 */
struct mdf_error *kcore_input_open(const char *path, struct dump_input **out);

#endif
