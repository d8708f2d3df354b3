/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading the crashed kernel's memory by physical or kernel virtual
 * address, through the dump input and the architecture's page-table walk,
 * with a small cache of pages and of translations; and the architecture's
 * facts (arch/arch.h) for the layers above, which hold no architecture
 * state of their own.
 */
#ifndef MDF_MEMORY_READER_H
#define MDF_MEMORY_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/arch.h"
#include "input/dump_input.h"

struct memory;
struct vmcoreinfo;

/*
 * Reads @in as a dump of @arch (arch_detect()) that @vi describes; the
 * error says what does not fit.
 */
struct mdf_error *memory_new(struct dump_input *in, const struct arch_ops *arch,
			      const struct vmcoreinfo *vi, struct memory **out);
void memory_free(struct memory *mem);

/*
 * Each returns NULL or an error: &mdf_error_excluded, &mdf_error_not_dumped
 * and &mdf_error_unmapped say why the bytes are not available; callers
 * name what they were reading (mdf_error_wrap).  No partial results are
 * valid.
 */
struct mdf_error *mem_read_phys(struct memory *mem, uint64_t paddr, void *buf, size_t len);
struct mdf_error *mem_read_virt(struct memory *mem, uint64_t vaddr, void *buf, size_t len);

struct mdf_error *mem_vtop(struct memory *mem, uint64_t vaddr, uint64_t *paddr);
/*
 * Translates through the page tables whose top level is at physical
 * address @root (a process's: its mm_struct.pgd, translated), uncached.
 */
struct mdf_error *mem_vtop_root(struct memory *mem, uint64_t root, uint64_t vaddr, uint64_t *paddr);
/* The physical address of each page of the kernel's page tables (arch_ops.for_each_table_page). */
struct mdf_error *mem_for_each_table_page(struct memory *mem,
					  struct mdf_error *(*fn)(uint64_t paddr, void *arg), void *arg);

/*
 * Reads *@len bytes at @vaddr or, when the end of them is not readable (a
 * table near the end of a mapping, whose exact end is unknown), the
 * longest prefix of at least @min bytes that is, halving the unreadable
 * part: *@len becomes what was read.
 */
struct mdf_error *mem_read_prefix(struct memory *mem, uint64_t vaddr, void *buf, size_t min, size_t *len);

/* Values of the dump, in the host's byte order. */
struct mdf_error *mem_read_u16(struct memory *mem, uint64_t vaddr, uint16_t *value);
struct mdf_error *mem_read_u32(struct memory *mem, uint64_t vaddr, uint32_t *value);
struct mdf_error *mem_read_u64(struct memory *mem, uint64_t vaddr, uint64_t *value);
/* @count consecutive 64-bit values (an array of pointers, say), in one read. */
struct mdf_error *mem_read_u64_array(struct memory *mem, uint64_t vaddr, uint64_t *values, size_t count);

uint32_t mem_page_size(const struct memory *mem);

/* The dumped machine's architecture, and its facts that every reader needs. */
const struct arch_ops *mem_arch(const struct memory *mem);
enum byte_order mem_byte_order(const struct memory *mem);
unsigned int mem_pointer_size(const struct memory *mem);

/* Whether @vaddr lies in the kernel's half of the address space. */
bool mem_is_kernel_address(const struct memory *mem, uint64_t vaddr);
/* Where the kernel maps its image and the rest of memory: arch_ops.kernel_image and .address_space. */
struct mdf_error *mem_kernel_image(struct memory *mem, const struct arch_symbols *syms, struct arch_image *out);
struct mdf_error *mem_address_space(struct memory *mem, const struct arch_symbols *syms,
				    struct arch_address_space *out);

#endif
