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
	bool gap;   /* between two sections: none where the second comes first */
} kept_sections[] = {
	{ NULL, "_etext", false },   /* NULL: the image's start, _text */
	{ "__start_rodata", "__end_rodata", false },
	{ "_sdata", "_edata", false },
	{ "_edata", "__init_begin", true },   /* x86_64's unwind and bug tables, vvar; empty elsewhere */
	{ "__bss_start", "__bss_stop", false },
}, freed_parts[] = {
	{ "__init_begin", "__init_end", false },
	{ "__start_bss_decrypted_unused", "__end_bss_decrypted", false },
};

/* The symbols kept_sections and freed_parts name, and _end, each looked up once. */
#define MAX_SECTION_SYMBOLS 16

struct section_symbols {
	const char *names[MAX_SECTION_SYMBOLS];
	uint64_t addrs[MAX_SECTION_SYMBOLS];
	bool found[MAX_SECTION_SYMBOLS];
	size_t nr;
	bool from_kallsyms_alone;   /* they list no data symbols: kernel_kallsyms_lack_data() */
};

static void add_name(struct section_symbols *s, const char *name)
{
	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->names[i], name))
			return;
	if (s->nr < MAX_SECTION_SYMBOLS)
		s->names[s->nr++] = name;
}

static bool section_symbol(const struct section_symbols *s, const char *name, uint64_t *addr)
{
	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->names[i], name)) {
			*addr = s->addrs[i];
			return s->found[i];
		}
	return false;
}

/*
 * Through kernel_symbol_address() (kallsyms, or -x's vmlinux); but from
 * kallsyms alone where they list no data symbols (kernel.h's
 * kernel_kallsyms_lack_data): a lookup that missed would search the
 * image's export tables, in vain, as the linker's symbols are in none.
 */
static void look_up_sections(struct kernel *k, struct section_symbols *s)
{
	int64_t index[MAX_SECTION_SYMBOLS];
	struct kallsyms *ks;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < sizeof(kept_sections) / sizeof(kept_sections[0]); i++) {
		if (kept_sections[i].start)
			add_name(s, kept_sections[i].start);
		add_name(s, kept_sections[i].end);
	}
	for (size_t i = 0; i < sizeof(freed_parts) / sizeof(freed_parts[0]); i++) {
		add_name(s, freed_parts[i].start);
		add_name(s, freed_parts[i].end);
	}
	add_name(s, "_end");
	s->from_kallsyms_alone = kernel_kallsyms_lack_data(k);
	if (!s->from_kallsyms_alone) {
		/* A hint: the lookups below find what it could not. */
		mdf_error_drop(kernel_expect_symbols(k, s->names, s->nr));
		for (size_t i = 0; i < s->nr; i++)
			s->found[i] = !mdf_error_drop(kernel_symbol_address(k, "vmlinux", s->names[i], &s->addrs[i]));
		return;
	}
	if (mdf_error_drop(kernel_kallsyms(k, &ks)) || mdf_error_drop(kallsyms_find(ks, s->names, s->nr, index)))
		return;
	for (size_t i = 0; i < s->nr; i++)
		s->found[i] = index[i] >= 0 && !mdf_error_drop(kallsyms_address(ks, (size_t)index[i], &s->addrs[i]));
}

/* Whether kallsyms list text symbols only: no data symbols, and no bound of the kernel's data either. */
static bool text_only(const struct section_symbols *s)
{
	static const char *const data_bounds[] = { "_sdata", "_edata", "__bss_start", "_end" };
	uint64_t addr;

	if (!s->from_kallsyms_alone)
		return false;
	for (size_t i = 0; i < sizeof(data_bounds) / sizeof(data_bounds[0]); i++)
		if (section_symbol(s, data_bounds[i], &addr))
			return false;
	return true;
}

/*
 * The virtual bounds [*@start, *@end) kallsyms give a section (@start_name
 * NULL: the image's start), checked to lie in the image; *@found false,
 * quietly, where one is missing, or where a @gap's bounds come in the
 * other order (ppc64 and riscv64 put init before data).
 */
static struct mdf_error *section_bounds(const struct section_symbols *s, const struct arch_image *image,
					const char *start_name, const char *end_name, bool gap, bool *found,
					uint64_t *start, uint64_t *end)
{
	*found = false;
	*start = image->vaddr;
	if ((start_name && !section_symbol(s, start_name, start)) || !section_symbol(s, end_name, end)) {
		msg_debug("kernel image: kallsyms lack %s or %s: that part is left to its struct pages",
			  start_name ? start_name : "_text", end_name);
		return NULL;
	}
	if (gap && *start > *end)
		return NULL;
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
	struct section_symbols syms;
	struct mdf_error *err;
	bool found;

	memset(out, 0, sizeof(*out));
	look_up_sections(k, &syms);
	if (text_only(&syms))
		return mdf_error(-ENOTSUP, "the kernel's kallsyms list no data symbols (no CONFIG_KALLSYMS_ALL): "
				 "its image's sections are not known");
	err = kernel_image_find(k, mem, &out->image);
	if (err)
		return err;
	if ((out->image.vaddr | out->image.paddr) & mask)
		return mdf_error(-MDF_ECORRUPT, "the kernel image at %" PRIx64 " (physical 0x%" PRIx64 ") does "
				 "not start on a page", out->image.vaddr, out->image.paddr);
	for (size_t i = 0; i < sizeof(kept_sections) / sizeof(kept_sections[0]); i++) {
		err = section_bounds(&syms, &out->image, kept_sections[i].start, kept_sections[i].end,
				     kept_sections[i].gap, &found, &start, &end);
		if (err)
			return err;
		if (found)
			add_range(out, start & ~mask, (end + mask) & ~mask);
	}
	for (size_t i = 0; i < sizeof(freed_parts) / sizeof(freed_parts[0]); i++) {
		err = section_bounds(&syms, &out->image, freed_parts[i].start, freed_parts[i].end, false,
				     &found, &start, &end);
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
