// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the architectures' kernel_image hooks share.  The image is
 * [_text, _end) as kallsyms list them, rounded up to whole pages; each
 * architecture checks that the two bound an image where its layout puts
 * one, and, where its page tables map the image apart from the direct map
 * (arm64, riscv64, s390x), that they translate _text to the physical
 * address its VMCOREINFO says.
 */
#include <errno.h>
#include <inttypes.h>

#include "arch/arch.h"
#include "util/error.h"

struct mdf_error *arch_image_bounds(const struct arch_symbols *syms, uint64_t *text, uint64_t *end)
{
	if (mdf_error_drop(syms->address(syms->ctx, "_text", text)) ||
	    mdf_error_drop(syms->address(syms->ctx, "_end", end)))
		return mdf_error(-ENOENT, "kallsyms do not locate _text and _end, the kernel image's extent "
				 "(a kernel without CONFIG_KALLSYMS_ALL?)");
	return NULL;
}

struct mdf_error *arch_image_check_paddr(uint64_t text, uint64_t walked, uint64_t expected, const char *source)
{
	if (walked != expected)
		return mdf_error(-MDF_ECORRUPT, "the page tables map _text=%" PRIx64 " at physical 0x%" PRIx64
				 ", not at 0x%" PRIx64 " as %s says", text, walked, expected, source);
	return NULL;
}

void arch_image_set(struct arch_image *out, uint64_t text, uint64_t end, uint64_t paddr, uint64_t page_size)
{
	out->vaddr = text;
	out->paddr = paddr;
	out->size = (end - text + page_size - 1) / page_size * page_size;
}
