// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's mappings of physical memory, found as kexec-tools finds
 * them on a live system, but in the dump: the image from _text and _end
 * (kexec-tools reads them in /proc/kcore's text segment, whose physical
 * start is /proc/iomem's "Kernel code", __pa_symbol(_text)), the direct
 * map from page_offset_base, the variable KASLR (CONFIG_RANDOMIZE_MEMORY)
 * makes of PAGE_OFFSET.  A kernel without it has PAGE_OFFSET fixed; which
 * of the known values, the page tables tell.  Each answer is checked
 * against the page tables, for a reader will translate through them.
 */
#include <inttypes.h>
#include <string.h>

#include "input/vmcoreinfo.h"
#include "kernel/kernel.h"
#include "kernel/kernel_map.h"
#include "memory/reader.h"
#include "util/error.h"

#define START_KERNEL_MAP 0xffffffff80000000ull
/* KERNEL_IMAGE_SIZE at its largest (with KASLR): the image mapping's extent. */
#define MAX_IMAGE_SIZE (1ull << 30)

/* PAGE_OFFSET without KASLR: 4 and 5 levels since Linux 4.20, and 4 levels before it. */
static const uint64_t fixed_page_offsets[] = {
	0xffff888000000000ull,
	0xff11000000000000ull,
	0xffff880000000000ull,
};

/* Whether the page tables map @vaddr to @paddr. */
static bool maps_to(struct memory *mem, uint64_t vaddr, uint64_t paddr)
{
	uint64_t found;

	return !mdf_error_drop(mem_vtop(mem, vaddr, &found)) && found == paddr;
}

static struct mdf_error *find_image(struct kernel *k, struct memory *mem, struct kernel_map *out)
{
	uint32_t page_size = mem_page_size(mem);
	uint64_t text, end;
	int64_t phys_base;

	/* x86_64 puts _stext, which VMCOREINFO names, at _text. */
	if (mdf_error_drop(kernel_symbol_address(k, "vmlinux", "_text", &text)) &&
	    !kernel_symbol(k, "_stext", &text))
		return mdf_error(-ENOENT, "neither kallsyms nor VMCOREINFO locate _text, where the "
				 "kernel image starts");
	if (mdf_error_drop(kernel_symbol_address(k, "vmlinux", "_end", &end)))
		return mdf_error(-ENOENT, "kallsyms do not locate _end, where the kernel image ends");
	if (!kernel_number(k, "phys_base", &phys_base))
		return mdf_error(-ENOENT, "VMCOREINFO has no NUMBER(phys_base)");
	if (text < START_KERNEL_MAP || end <= text || end - text > MAX_IMAGE_SIZE ||
	    text % page_size)
		return mdf_error(-MDF_ECORRUPT, "_text=%" PRIx64 " and _end=%" PRIx64 " do not bound "
				 "a kernel image at __START_KERNEL_map", text, end);
	out->text_vaddr = text;
	out->text_paddr = text - START_KERNEL_MAP + (uint64_t)phys_base;
	out->text_size = (end - text + page_size - 1) / page_size * page_size;
	if (!maps_to(mem, text, out->text_paddr))
		return mdf_error(-MDF_ECORRUPT, "the page tables do not map _text=%" PRIx64 " at "
				 "physical 0x%" PRIx64 ", where NUMBER(phys_base) puts it", text,
				 out->text_paddr);
	return NULL;
}

static struct mdf_error *find_direct_map(struct kernel *k, struct memory *mem,
					 struct kernel_map *out)
{
	uint64_t symbol, page_offset;
	struct mdf_error *err;

	/* The image's first page is memory, so the direct map holds it too. */
	if (!mdf_error_drop(kernel_symbol_address(k, "vmlinux", "page_offset_base", &symbol))) {
		err = mem_read_u64(mem, symbol, &page_offset);
		if (err)
			return mdf_error_wrap(err, "reading page_offset_base");
		if (!maps_to(mem, page_offset + out->text_paddr, out->text_paddr))
			return mdf_error(-MDF_ECORRUPT, "the page tables do not map page_offset_base="
					 "%" PRIx64 " plus 0x%" PRIx64 " at physical 0x%" PRIx64,
					 page_offset, out->text_paddr, out->text_paddr);
		out->direct_map = page_offset;
		return NULL;
	}
	for (size_t i = 0; i < sizeof(fixed_page_offsets) / sizeof(fixed_page_offsets[0]); i++) {
		if (maps_to(mem, fixed_page_offsets[i] + out->text_paddr, out->text_paddr)) {
			out->direct_map = fixed_page_offsets[i];
			return NULL;
		}
	}
	return mdf_error(-ENOENT, "kallsyms do not locate page_offset_base, and the page tables "
			 "map no fixed PAGE_OFFSET to the kernel image's memory");
}

struct mdf_error *kernel_map_find(struct kernel *k, struct memory *mem, const char *machine,
				  struct kernel_map *out)
{
	struct mdf_error *err;

	memset(out, 0, sizeof(*out));
	if (strcmp(machine, "x86_64"))
		return mdf_error(-ENOTSUP, "%s: where the kernel maps memory is not known here",
				 machine);
	err = find_image(k, mem, out);
	if (!err)
		err = find_direct_map(k, mem, out);
	return err;
}
