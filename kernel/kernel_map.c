// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's mappings of physical memory, found as kexec-tools finds
 * them on a live system, but in the dump: the architecture knows where to
 * look (arch/arch.h), and asks the kernel's symbols here, as kallsyms (or
 * -x's vmlinux) answers for the kernel itself.
 */
#include <string.h>

#include "kernel/kernel.h"
#include "kernel/kernel_map.h"
#include "memory/reader.h"
#include "util/error.h"

static struct mdf_error *vmlinux_symbol(void *ctx, const char *name, uint64_t *addr)
{
	return kernel_symbol_address(ctx, "vmlinux", name, addr);
}

struct mdf_error *kernel_image_find(struct kernel *k, struct memory *mem, struct arch_image *out)
{
	struct arch_symbols syms = { .address = vmlinux_symbol, .ctx = k };

	return mem_kernel_image(mem, &syms, out);
}

struct mdf_error *kernel_address_space_find(struct kernel *k, struct memory *mem,
					    struct arch_address_space *out)
{
	struct arch_symbols syms = { .address = vmlinux_symbol, .ctx = k };

	return mem_address_space(mem, &syms, out);
}

struct mdf_error *kernel_map_find(struct kernel *k, struct memory *mem, struct kernel_map *out)
{
	const struct arch_ops *arch = mem_arch(mem);
	struct arch_address_space space;
	struct arch_image image;
	struct mdf_error *err;

	memset(out, 0, sizeof(*out));
	if (!arch->kexec_vaddrs)
		return mdf_error(-ENOTSUP, "%s: the addresses kexec gives a dump's segments are not "
				 "known here", arch->name);
	err = kernel_image_find(k, mem, &image);
	if (!err)
		err = kernel_address_space_find(k, mem, &space);
	if (err)
		return err;
	out->direct_map = space.direct_map;
	out->text_vaddr = image.vaddr;
	out->text_paddr = image.paddr;
	out->text_size = image.size;
	return NULL;
}
