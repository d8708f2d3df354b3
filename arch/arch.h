/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Architectures: one table per architecture holding all that the rest of
 * the program asks of one, in the spirit of drgn's struct
 * drgn_architecture_info.
 *
 *   recognition    an ELF dump's e_machine and byte order; the machine a
 *                  format names in text (a kdump header's utsname); else
 *                  the VMCOREINFO lines only this architecture writes
 *   its data       byte order, pointer size, page sizes
 *   translation    walks of the kernel's page tables and of a process's
 *   address space  the kernel's half, the direct map, the kernel image's
 *                  mapping and physical extent, vmemmap, vmalloc
 *   table pages    each page of the kernel's page tables, which no
 *                  filter may drop
 *   -E             the virtual addresses kexec gives a dump's segments
 *
 * An architecture reads physical memory only through the reader it is
 * given and asks for kernel symbols only through the lookup it is given,
 * so it knows nothing of dump formats or of kallsyms.  Each lives in a
 * file of its own (x86_64.c, arm64.c, ppc64.c, riscv64.c, s390x.c) that explains its layout before its
 * code; arch.c holds the list of them and the recognition.
 */
#ifndef MDF_ARCH_ARCH_H
#define MDF_ARCH_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/byte_order.h"

struct dump_input;
struct mdf_error;
struct vmcoreinfo;

/* Physical memory of the dump, and the order its values are stored in. */
struct phys_reader {
	struct mdf_error *(*read)(void *ctx, uint64_t paddr, void *buf, size_t len);
	void *ctx;
	enum byte_order order;
};

/* The 8-byte value at @paddr (a page-table entry), in the host's order. */
static inline struct mdf_error *phys_read_u64(const struct phys_reader *reader, uint64_t paddr,
					      uint64_t *value)
{
	uint64_t raw;
	struct mdf_error *err = reader->read(reader->ctx, paddr, &raw, sizeof(raw));

	if (!err)
		*value = dump_to_host64(reader->order, raw);
	return err;
}

/*
 * The crashed kernel's symbols, as the layers above find them: run-time
 * addresses (kallsyms', or -x's vmlinux moved by KERNELOFFSET).
 */
struct arch_symbols {
	/* The address of the kernel's own (not a module's) @name; -ENOENT when there is none. */
	struct mdf_error *(*address)(void *ctx, const char *name, uint64_t *addr);
	void *ctx;
};

/* The kernel image: [_text, _end) in whole pages, size bytes from virtual vaddr mapping those from paddr. */
struct arch_image {
	uint64_t vaddr;
	uint64_t paddr;
	uint64_t size;
};

/*
 * For the architectures' kernel_image hooks (arch/kernel_image.c):
 * _text and _end from kallsyms, or an error saying they are missing; an
 * error unless the page tables' translation @walked of _text is
 * @expected, the address @source (a VMCOREINFO line, say) gives; and
 * @out for the image [@text, @end) at @paddr, in whole pages of
 * @page_size.
 */
struct mdf_error *arch_image_bounds(const struct arch_symbols *syms, uint64_t *text, uint64_t *end);
struct mdf_error *arch_image_check_paddr(uint64_t text, uint64_t walked, uint64_t expected, const char *source);
void arch_image_set(struct arch_image *out, uint64_t text, uint64_t end, uint64_t paddr, uint64_t page_size);

/* Where the kernel maps memory besides its image. */
struct arch_address_space {
	/* The direct (linear) map: physical address p at virtual direct_map + p. */
	uint64_t direct_map;
	/* Where SPARSEMEM_VMEMMAP's struct pages start; 0 when not known. */
	uint64_t vmemmap_start;
	/* vmalloc's addresses, [vmalloc_start, vmalloc_end); both 0 when not known. */
	uint64_t vmalloc_start;
	uint64_t vmalloc_end;
};

struct arch_ops {
	/* As `uname -m` names it; a kdump header's utsname.machine says the same. */
	const char *name;
	/* Its ELF e_machine (EM_*). */
	uint16_t elf_machine;
	/*
	 * VMCOREINFO keys only this architecture writes, NULL-terminated:
	 * any one of them says a dump is of it where the format names no
	 * machine.
	 */
	const char *const *vmcoreinfo_keys;

	enum byte_order byte_order;
	/*
	 * The machine runs in no other byte order (x86_64, s390x): a dump's
	 * headers that say another misstate it, and its memory is read in
	 * this one, with a warning.  Elsewhere such headers are believed.
	 */
	bool one_byte_order;
	/*
	 * Optional, for a machine that runs in either byte order under one
	 * e_machine, with a table for each (ppc64): the order the dump's CPUs
	 * ran in, from their notes.  NULL with *@order set;
	 * &mdf_error_not_found when no CPU says; an error when they disagree.
	 */
	struct mdf_error *(*cpus_byte_order)(const struct dump_input *in, enum byte_order *order);
	unsigned int pointer_size;
	/* The page sizes its kernels are built with (a mask of powers of two), and the one assumed. */
	uint32_t page_sizes;
	uint32_t default_page_size;

	/* Sets up translation from VMCOREINFO; the error says what is missing or wrong. */
	struct mdf_error *(*init)(const struct vmcoreinfo *vi, const struct phys_reader *reader, void **state);
	void (*free)(void *state);
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
	/* Whether @vaddr lies in the kernel's half of the address space. */
	bool (*is_kernel_address)(const void *state, uint64_t vaddr);
	/*
	 * Optional: where the kernel image lies, virtually and physically,
	 * checked against the page tables; an error saying what is missing
	 * or does not agree.
	 */
	struct mdf_error *(*kernel_image)(void *state, const struct arch_symbols *syms, struct arch_image *out);
	/*
	 * Optional: where the kernel maps the rest of memory.  The direct
	 * map, checked against the page tables, or an error; vmemmap and
	 * vmalloc where they are known, else 0.
	 */
	struct mdf_error *(*address_space)(void *state, const struct arch_symbols *syms,
					   struct arch_address_space *out);
	/*
	 * -E: whether kexec's /proc/vmcore is known to address this
	 * architecture's segments as -E writes them for a dump that has
	 * physical addresses only (output/elf_vaddrs.h): the kernel image's
	 * segment first, then each at the direct map.
	 */
	bool kexec_vaddrs;
};

extern const struct arch_ops arch_x86_64;
extern const struct arch_ops arch_arm64;
/* One machine (EM_PPC64) in two byte orders: two tables, alike but for their name and order. */
extern const struct arch_ops arch_ppc64le;
extern const struct arch_ops arch_ppc64;
extern const struct arch_ops arch_riscv64;
extern const struct arch_ops arch_s390x;

/*
 * The architecture of the dump @in, as its format says (input/dump_input.h):
 * an ELF's e_machine and the memory's byte order, else the machine the
 * format names in text.  *@out is NULL when the format names none (QEMU's
 * kdump files): arch_from_vmcoreinfo() tells then.  An error when it names
 * one that no table here describes, in that order.
 */
struct mdf_error *arch_from_format(const struct dump_input *in, const struct arch_ops **out);
/*
 * The architecture whose own lines @vi holds; an error when none, or more
 * than one, has lines there, or when they are a machine's that runs in
 * either byte order (ppc64): VMCOREINFO's text does not say which.
 */
struct mdf_error *arch_from_vmcoreinfo(const struct vmcoreinfo *vi, const struct arch_ops **out);
/* Both in turn: the format's word, else VMCOREINFO's, in the memory's byte order. */
struct mdf_error *arch_detect(const struct dump_input *in, const struct vmcoreinfo *vi,
			      const struct arch_ops **out);

/*
 * The page size of a dump of @arch that @vi describes: its PAGESIZE, which
 * must be one of the architecture's, or the default where @vi (which may
 * be NULL) does not say.
 */
struct mdf_error *arch_page_size(const struct arch_ops *arch, const struct vmcoreinfo *vi, uint32_t *size);

#endif
