// SPDX-License-Identifier: GPL-2.0-or-later
/* Kernel virtual addresses for an ELF dump's segments; elf_vaddrs.h says which. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "memory/reader.h"
#include "output/elf_vaddrs.h"
#include "util/error.h"

/* Upstream's NOT_PADDR: a PT_LOAD without a physical address. */
#define NOT_PADDR UINT64_MAX

bool elf_segments_have_kernel_vaddrs(const struct elf_segments *segs, const struct memory *mem)
{
	for (size_t i = 0; i < segs->nr_loads; i++)
		if (mem_is_kernel_address(mem, segs->loads[i].p_vaddr))
			return true;
	return false;
}

/* The PT_LOAD whose file data holds [paddr, paddr + size), or NULL. */
static const Elf64_Phdr *holder(const struct elf_segments *segs, uint64_t paddr, uint64_t size)
{
	for (size_t i = 0; i < segs->nr_loads; i++) {
		const Elf64_Phdr *ph = &segs->loads[i];

		if (ph->p_paddr != NOT_PADDR && paddr >= ph->p_paddr &&
		    paddr - ph->p_paddr <= ph->p_filesz && size <= ph->p_filesz - (paddr - ph->p_paddr))
			return ph;
	}
	return NULL;
}

struct mdf_error *elf_segments_set_kernel_vaddrs(struct elf_segments *segs,
						 const struct kernel_map *map)
{
	const Elf64_Phdr *in = holder(segs, map->text_paddr, map->text_size);
	Elf64_Phdr *loads;

	if (!in)
		return mdf_error(-MDF_ECORRUPT, "no PT_LOAD holds the kernel image, physical "
				 "0x%" PRIx64 "-0x%" PRIx64, map->text_paddr,
				 map->text_paddr + map->text_size - 1);
	loads = calloc(segs->nr_loads + 1, sizeof(*loads));
	if (!loads)
		return &mdf_error_enomem;
	loads[0] = (Elf64_Phdr){
		.p_type = PT_LOAD,
		.p_flags = in->p_flags,
		.p_offset = in->p_offset + (map->text_paddr - in->p_paddr),
		.p_vaddr = map->text_vaddr,
		.p_paddr = map->text_paddr,
		.p_filesz = map->text_size,
		.p_memsz = map->text_size,
		.p_align = in->p_align,
	};
	for (size_t i = 0; i < segs->nr_loads; i++) {
		loads[i + 1] = segs->loads[i];
		if (loads[i + 1].p_paddr != NOT_PADDR)
			loads[i + 1].p_vaddr = map->direct_map + loads[i + 1].p_paddr;
	}
	free(segs->loads);
	segs->loads = loads;
	segs->nr_loads++;
	return NULL;
}
