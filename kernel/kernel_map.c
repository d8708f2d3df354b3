// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's mappings of physical memory, found as kexec-tools finds
 * them on a live system, but in the dump: the architecture knows where to
 * look (arch/arch.h), and asks the kernel's symbols here, as kallsyms (or
 * -x's vmlinux) answers for the kernel itself.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kallsyms.h"
#include "kernel/kernel.h"
#include "kernel/kernel_map.h"
#include "memory/reader.h"
#include "util/error.h"
#include "util/message.h"

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

/*
 * What of the image the kernel keeps, and what it gives back.
 *
 * Every architecture's linker script bounds the same sections with the
 * same symbols (include/asm-generic/vmlinux.lds.h and each
 * arch/ARCH/kernel/vmlinux.lds.S), in orders of its own: x86_64, arm64 and
 * ppc64 put init between rodata and data, s390x between data and bss,
 * riscv64 before its data, whose _sdata to _edata holds its rodata too.
 * So each section is taken on its own, overlaps merge, and what is freed
 * is taken out of them all.  The text starts at the image's start, _text,
 * which the architecture gives; pages a section touches are kept whole.
 *
 * Freed once booted, with free_reserved_area(), which frees only the
 * pages wholly inside (the first page of a range that starts inside a
 * page, and the last that ends inside one, stay):
 *   init                  [__init_begin, __init_end), free_initmem(), every
 *                         architecture
 *   unused decrypted bss  [__start_bss_decrypted_unused, __end_bss_decrypted),
 *                         inside x86's bss: mem_encrypt_free_decrypted_mem()
 * x86 also frees the gaps after _etext and __end_rodata (mark_rodata_ro()),
 * which no section holds.  Between _edata and __init_begin, where the
 * others put nothing (their init comes first, or right at _edata), x86_64
 * keeps its ORC unwind tables, bug table and vvar page: kept.  Elsewhere
 * between the sections lie things the kernel may free (x86's .smp_locks,
 * its brk area past _brk_end): never taken for the image's own.
 *
 * A pair of symbols the kernel lacks is passed over: a section unnamed is
 * left to its struct pages, as everything was before.
 */
static const struct {
	const char *start;
	const char *end;
} kept_sections[] = {
	{ NULL, "_etext" },   /* NULL: the image's start, _text */
	{ "__start_rodata", "__end_rodata" },
	{ "_sdata", "_edata" },
	{ "_edata", "__init_begin" },   /* x86_64's unwind and bug tables, vvar; empty elsewhere */
	{ "__bss_start", "__bss_stop" },
}, freed_parts[] = {
	{ "__init_begin", "__init_end" },
	{ "__start_bss_decrypted_unused", "__end_bss_decrypted" },
};

static bool image_symbol(struct kernel *k, const char *name, uint64_t *addr)
{
	return !mdf_error_drop(kernel_symbol_address(k, "vmlinux", name, addr));
}

/*
 * Whether the kernel's kallsyms list text symbols only, so that the
 * image's sections cannot be told: kallsyms that lack data symbols by
 * kernel.h's measure (no init_task) and name none of the bounds of the
 * data either.  Asked of kallsyms alone: a lookup that misses would
 * search the image for each, in vain (the linker's symbols are in no
 * export table).
 */
static bool kallsyms_list_text_only(struct kernel *k)
{
	static const char *const data_bounds[] = { "_sdata", "_edata", "__bss_start", "_end" };
	int64_t index[sizeof(data_bounds) / sizeof(data_bounds[0])];
	struct kallsyms *ks;

	if (!kernel_kallsyms_lack_data(k) || mdf_error_drop(kernel_kallsyms(k, &ks)) ||
	    mdf_error_drop(kallsyms_find(ks, data_bounds, sizeof(data_bounds) / sizeof(data_bounds[0]), index)))
		return false;
	for (size_t i = 0; i < sizeof(index) / sizeof(index[0]); i++)
		if (index[i] >= 0)
			return false;
	return true;
}

/* The symbols this file asks for, looked up in one pass. */
static void expect_section_symbols(struct kernel *k)
{
	const char *names[2 * (sizeof(kept_sections) + sizeof(freed_parts)) / sizeof(kept_sections[0])];
	size_t nr = 0;


	for (size_t i = 0; i < sizeof(kept_sections) / sizeof(kept_sections[0]); i++) {
		if (kept_sections[i].start)
			names[nr++] = kept_sections[i].start;
		names[nr++] = kept_sections[i].end;
	}
	for (size_t i = 0; i < sizeof(freed_parts) / sizeof(freed_parts[0]); i++) {
		names[nr++] = freed_parts[i].start;
		names[nr++] = freed_parts[i].end;
	}
	/* A hint: each lookup below says for itself what it cannot find. */
	mdf_error_drop(kernel_expect_symbols(k, names, nr));
}

/*
 * The virtual bounds [*@start, *@end) kallsyms give a section (@start_name
 * NULL: the image's start), checked to lie in the image; false, quietly,
 * where one is missing.
 */
static struct mdf_error *section_bounds(struct kernel *k, const struct arch_image *image, const char *start_name,
					const char *end_name, bool *found, uint64_t *start, uint64_t *end)
{
	*found = false;
	*start = image->vaddr;
	if ((start_name && !image_symbol(k, start_name, start)) || !image_symbol(k, end_name, end)) {
		msg_debug("kernel image: kallsyms lack %s or %s: that part is left to its struct pages",
			  start_name ? start_name : "_text", end_name);
		return NULL;
	}
	if (*start > *end || *start < image->vaddr || *end - image->vaddr > image->size)
		return mdf_error(-MDF_ECORRUPT, "kallsyms put %s=%" PRIx64 " and %s=%" PRIx64 " outside the kernel "
				 "image [%" PRIx64 ", %" PRIx64 ")", start_name ? start_name : "_text", *start,
				 end_name, *end, image->vaddr, image->vaddr + image->size);
	*found = true;
	return NULL;
}

static void add_range(struct kernel_image_pages *out, uint64_t start, uint64_t end)
{
	if (start < end && out->nr_ranges < KERNEL_IMAGE_MAX_RANGES) {
		out->ranges[out->nr_ranges].start = start;
		out->ranges[out->nr_ranges].end = end;
		out->nr_ranges++;
	}
}

/* Takes [start, end) out of every range; a range it falls inside becomes two. */
static void subtract_range(struct kernel_image_pages *out, uint64_t start, uint64_t end)
{
	size_t nr = out->nr_ranges;

	for (size_t i = 0; i < nr; i++) {
		uint64_t r_start = out->ranges[i].start, r_end = out->ranges[i].end;

		if (end <= r_start || start >= r_end)
			continue;
		out->ranges[i].end = start > r_start ? start : r_start;
		add_range(out, end, r_end);
	}
}

static int compare_ranges(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sorts, drops the empty, merges what overlaps or touches. */
static void normalize_ranges(struct kernel_image_pages *out)
{
	size_t kept = 0;

	qsort(out->ranges, out->nr_ranges, sizeof(out->ranges[0]), compare_ranges);
	for (size_t i = 0; i < out->nr_ranges; i++) {
		if (out->ranges[i].start >= out->ranges[i].end)
			continue;
		if (kept && out->ranges[i].start <= out->ranges[kept - 1].end) {
			if (out->ranges[i].end > out->ranges[kept - 1].end)
				out->ranges[kept - 1].end = out->ranges[i].end;
			continue;
		}
		out->ranges[kept++] = out->ranges[i];
	}
	out->nr_ranges = kept;
}

struct mdf_error *kernel_image_pages_find(struct kernel *k, struct memory *mem, uint32_t page_size,
					  struct kernel_image_pages *out)
{
	uint64_t mask = (uint64_t)page_size - 1, start, end;
	struct mdf_error *err;
	bool found;

	memset(out, 0, sizeof(*out));
	if (kallsyms_list_text_only(k))
		return mdf_error(-ENOTSUP, "the kernel's kallsyms list no data symbols (no CONFIG_KALLSYMS_ALL): "
				 "its image's sections are not known");
	expect_section_symbols(k);
	err = kernel_image_find(k, mem, &out->image);
	if (err)
		return err;
	if ((out->image.vaddr | out->image.paddr) & mask)
		return mdf_error(-MDF_ECORRUPT, "the kernel image at %" PRIx64 " (physical 0x%" PRIx64 ") does "
				 "not start on a page", out->image.vaddr, out->image.paddr);
	for (size_t i = 0; i < sizeof(kept_sections) / sizeof(kept_sections[0]); i++) {
		err = section_bounds(k, &out->image, kept_sections[i].start, kept_sections[i].end, &found,
				     &start, &end);
		if (err)
			return err;
		if (found)
			add_range(out, start & ~mask, (end + mask) & ~mask);
	}
	for (size_t i = 0; i < sizeof(freed_parts) / sizeof(freed_parts[0]); i++) {
		err = section_bounds(k, &out->image, freed_parts[i].start, freed_parts[i].end, &found, &start,
				     &end);
		if (err)
			return err;
		if (found)
			subtract_range(out, (start + mask) & ~mask, end & ~mask);
	}
	normalize_ranges(out);
	if (!out->nr_ranges)
		return mdf_error(-ENOENT, "kallsyms bound none of the kernel image's sections (_etext, "
				 "__start_rodata, _sdata, __bss_start and their ends)");
	for (size_t i = 0; i < out->nr_ranges; i++) {
		out->ranges[i].start = out->ranges[i].start - out->image.vaddr + out->image.paddr;
		out->ranges[i].end = out->ranges[i].end - out->image.vaddr + out->image.paddr;
	}
	return NULL;
}

/* The best symbol so far of a search for the one nearest at or below an address. */
struct nearest_symbol {
	uint64_t vaddr;
	bool found;
	uint64_t addr;
	char type;
	char *name;
	size_t len;
};

/*
 * Among symbols at one address, the one a lookup by address answers as
 * one by name does (ksym_better: the first global one, else the first).
 */
static struct mdf_error *consider_symbol(void *ctx, const struct ksym *sym)
{
	struct nearest_symbol *n = ctx;

	if (sym->module || ksym_is_undefined(sym->type) || sym->addr > n->vaddr)
		return NULL;
	if (n->found && (sym->addr < n->addr || (sym->addr == n->addr && !ksym_better(true, n->type, sym->type))))
		return NULL;
	n->found = true;
	n->addr = sym->addr;
	n->type = sym->type;
	snprintf(n->name, n->len, "%s", sym->name);
	return NULL;
}

bool kernel_symbol_at_or_below(struct kernel *k, uint64_t vaddr, char *name, size_t len)
{
	struct nearest_symbol n = { .vaddr = vaddr, .name = name, .len = len };
	struct kallsyms *ks;

	if (!len)
		return false;
	name[0] = '\0';
	if (mdf_error_drop(kernel_kallsyms(k, &ks)) || mdf_error_drop(kallsyms_for_each(ks, consider_symbol, &n))) {
		name[0] = '\0';
		return false;
	}
	return n.found;
}
