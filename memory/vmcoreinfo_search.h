/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * VMCOREINFO for a dump that carries none: the crashed kernel's own note,
 * found in the dump's physical memory and checked against the kernel it
 * describes.  QEMU writes the note into its ELF only when the guest has
 * its vmcoreinfo device (on fw_cfg): s390x and ppc64 pseries guests, which
 * have no fw_cfg, and guests not given the device give ELF dumps without
 * one.
 */
#ifndef MDF_MEMORY_VMCOREINFO_SEARCH_H
#define MDF_MEMORY_VMCOREINFO_SEARCH_H

#include <stdint.h>

#include "arch/arch.h"
#include "input/dump_input.h"

struct mdf_error;
struct vmcoreinfo;

struct vmcoreinfo_found {
	struct vmcoreinfo *vi;   /* the caller frees it (vmcoreinfo_free) */
	uint64_t paddr;          /* where the note's header lies */
	enum byte_order order;   /* the note's byte order */
	/* The pages read and the time taken, for the caller's debug message. */
	uint64_t pages_read;
	double seconds;
};

/*
 * Searches @in's memory for the kernel's VMCOREINFO note and checks it:
 * its header, its text, and that the kernel release it names is the one
 * init_uts_ns holds, read through the translation it sets up.  @arch is
 * the machine the format names (arch_from_format()), or NULL to take the
 * one the note's lines name.  The error says what was searched and why
 * each note found (the first of them) was not taken.
 */
struct mdf_error *vmcoreinfo_search(struct dump_input *in, const struct arch_ops *arch,
				    struct vmcoreinfo_found *out);

#endif
