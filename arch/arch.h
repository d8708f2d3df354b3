/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Address translation, one table of operations per architecture.
 *
 * An architecture turns kernel virtual addresses into physical ones by
 * walking the crashed kernel's page tables.  It reads physical memory only
 * through the reader it is given, so it knows nothing of dump formats.
 */
#ifndef MDF_ARCH_ARCH_H
#define MDF_ARCH_ARCH_H

#include <stddef.h>
#include <stdint.h>

struct mdf_error;
struct vmcoreinfo;

struct phys_reader {
	struct mdf_error *(*read)(void *ctx, uint64_t paddr, void *buf, size_t len);
	void *ctx;
};

struct arch_ops {
	const char *name;
	/* Sets up translation from VMCOREINFO; the error says what is missing or wrong. */
	struct mdf_error *(*init)(const struct vmcoreinfo *vi, const struct phys_reader *reader, void **state);
	/*
	 * Translates @vaddr.  Returns NULL, &mdf_error_unmapped when the page
	 * tables do not map it, or the reader's error for a page-table page it
	 * cannot read.  @page_size receives the size of the mapping found.
	 */
	struct mdf_error *(*vtop)(void *state, uint64_t vaddr, uint64_t *paddr, uint64_t *page_size);
	/*
	 * The same through the page tables whose top level is at physical
	 * address @root: a process's, for its user addresses.
	 */
	struct mdf_error *(*vtop_root)(void *state, uint64_t root, uint64_t vaddr, uint64_t *paddr,
				       uint64_t *page_size);
	/*
	 * Optional: calls @fn with the physical address of each page of the
	 * kernel's page tables, once each: the top level and every table
	 * below it that maps kernel addresses.  Readers of the dump need them
	 * all to translate, so no filter may leave one out.  Stops at @fn's
	 * error; a table it cannot read is still named, and not descended.
	 */
	struct mdf_error *(*for_each_table_page)(void *state,
						 struct mdf_error *(*fn)(uint64_t paddr, void *arg),
						 void *arg);
	void (*free)(void *state);
};

extern const struct arch_ops arch_x86_64;
extern const struct arch_ops arch_arm64;

/* The architecture named as in `uname -m`, or NULL. */
const struct arch_ops *arch_find(const char *machine);

#endif
