// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SPARSEMEM: physical memory is cut into sections of
 * 2^(SECTION_SIZE_BITS - PAGE_SHIFT) pages; each section has a struct
 * mem_section whose section_mem_map holds the address of the section's
 * struct page array minus the section's first pfn times sizeof(struct
 * page), with flag bits in its low bits (bit 0: present).  With
 * SPARSEMEM_EXTREME the mem_section structs are reached through an array
 * of root pointers, each root covering PAGE_SIZE / sizeof(struct
 * mem_section) sections.  VMCOREINFO's SYMBOL(mem_section) is the root
 * array on current kernels, but the address of a pointer to it on some; as
 * upstream does, the direct reading is tried first and the dereferenced one
 * when the first yields no valid section.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "input/vmcoreinfo.h"
#include "kernel/mem_map.h"
#include "kernel/kernel.h"
#include "memory/reader.h"
#include "util/error.h"
#include "util/message.h"
#include "util/search.h"

#define SECTION_MARKED_PRESENT 0x1ull
/* section_mem_map's flag bits since Linux 5.12 (4 before, all below 5). */
#define SECTION_MAP_LAST_BIT 5

struct mem_map {
	struct memory *mem;
	uint32_t page_size;
	uint64_t page_struct_size;
	uint64_t max_pfn;
	unsigned int section_shift;
	uint64_t nr_sections;
	uint64_t *starts;      /* per section: the struct page of its first pfn, or 0 */
	/* Sections with a mem_map, ordered by the address of their struct pages. */
	uint64_t *by_address;
	uint64_t nr_by_address;
};

/* @lookup's answer for the fact @line names, which the struct pages cannot be found without. */
static struct mdf_error *require(struct mdf_error *lookup, const char *line)
{
	if (!mdf_error_is_not_found(lookup))
		return lookup ? mdf_error_wrap(lookup, "cannot find the struct pages") : NULL;
	return mdf_error(-ENOENT, "VMCOREINFO has no %s: cannot find the struct pages", line);
}

/*
 * The section table.  Upstream sizes it from the highest pfn the dump's
 * ranges reach, then lowers max_pfn to the end of the last section that
 * has a mem_map.
 */
static struct mdf_error *read_sections(struct mem_map *map, struct kernel *k)
{
	uint64_t symbol, roots_addr, *roots = NULL, sections_per_root, nr_roots;
	int64_t section_size, map_offset, section_bits, physmem_bits, l5, length;
	unsigned int page_shift = (unsigned int)__builtin_ctz(map->page_size);
	bool extreme;
	struct mdf_error *err;

	err = require(kernel_lookup_symbol(k, "mem_section", &symbol), "SYMBOL(mem_section)");
	if (!err)
		err = require(kernel_lookup_size(k, "mem_section", &section_size), "SIZE(mem_section)");
	if (!err)
		err = require(kernel_lookup_offset(k, "mem_section.section_mem_map", &map_offset),
			      "OFFSET(mem_section.section_mem_map)");
	if (!err)
		err = require(kernel_lookup_number(k, "SECTION_SIZE_BITS", &section_bits),
			      "NUMBER(SECTION_SIZE_BITS)");
	if (err)
		return err;
	/* Without MAX_PHYSMEM_BITS, the kernel's own default for its paging mode. */
	if (mdf_error_drop(kernel_peek_number(k, "MAX_PHYSMEM_BITS", &physmem_bits)))
		physmem_bits = !mdf_error_drop(kernel_peek_number(k, "pgtable_l5_enabled", &l5)) && l5 ? 52
														      : 46;
	if (section_bits <= page_shift || section_bits > 40 || physmem_bits < section_bits ||
	    physmem_bits > 56 || section_size < 8 || section_size > (int64_t)map->page_size ||
	    map_offset < 0 || map_offset + 8 > section_size)
		return mdf_error(-MDF_ECORRUPT,
				 "VMCOREINFO's sparsemem numbers are implausible: SECTION_SIZE_BITS=%" PRId64
				 " MAX_PHYSMEM_BITS=%" PRId64 " SIZE(mem_section)=%" PRId64
				 " OFFSET(mem_section.section_mem_map)=%" PRId64,
				 section_bits, physmem_bits, section_size, map_offset);
	map->section_shift = (unsigned int)(section_bits - page_shift);
	map->nr_sections = (map->max_pfn + (1ull << map->section_shift) - 1) >>
			    map->section_shift;
	if (map->nr_sections > (1ull << (physmem_bits - section_bits)))
		return mdf_error(-MDF_ECORRUPT,
				 "the dump reaches pfn 0x%" PRIx64 ", beyond MAX_PHYSMEM_BITS=%" PRId64,
				 map->max_pfn, physmem_bits);
	/* SPARSEMEM_EXTREME when LENGTH(mem_section) counts roots, or is absent. */
	sections_per_root = map->page_size / (uint64_t)section_size;
	extreme = mdf_error_drop(kernel_peek_length(k, "mem_section", &length)) ||
		  (uint64_t)length == ((1ull << (physmem_bits - section_bits)) + sections_per_root - 1) /
					      sections_per_root;
	if (!extreme)
		sections_per_root = 1;
	nr_roots = (map->nr_sections + sections_per_root - 1) / sections_per_root;

	map->starts = calloc(map->nr_sections, sizeof(*map->starts));
	roots = calloc(nr_roots, sizeof(*roots));
	if (!map->starts || !roots) {
		err = &mdf_error_enomem;
		goto out;
	}
	roots_addr = symbol;
	for (int attempt = 0; attempt < 2; attempt++) {
		bool any = false;

		if (extreme) {
			err = mem_read_u64_array(map->mem, roots_addr, roots, nr_roots);
			if (err) {
				err = mdf_error_wrap(err, "cannot read the mem_section root array at 0x%" PRIx64,
						     roots_addr);
				goto out;
			}
		}
		for (uint64_t nr = 0; nr < map->nr_sections; nr++) {
			uint64_t root = extreme ? roots[nr / sections_per_root] : roots_addr;
			uint64_t addr = root + (nr % sections_per_root) * (uint64_t)section_size +
					(extreme ? 0 : nr * (uint64_t)section_size);
			uint64_t coded;

			map->starts[nr] = 0;
			if (extreme && !root)
				continue;
			err = mem_read_u64(map->mem, addr + (uint64_t)map_offset, &coded);
			if (err) {
				err = mdf_error_wrap(err, "cannot read struct mem_section %" PRIu64 " at 0x%" PRIx64,
						     nr, addr);
				goto out;
			}
			if (!(coded & SECTION_MARKED_PRESENT))
				continue;
			coded &= ~((1ull << SECTION_MAP_LAST_BIT) - 1);
			coded += (nr << map->section_shift) * map->page_struct_size;
			/* A struct page array is kernel memory: else this reading was the wrong one. */
			if (!mem_is_kernel_address(map->mem, coded)) {
				any = false;
				break;
			}
			map->starts[nr] = coded;
			any = true;
		}
		if (any)
			break;
		memset(map->starts, 0, map->nr_sections * sizeof(*map->starts));
		if (!extreme || attempt == 1) {
			err = mdf_error(-MDF_ECORRUPT,
					"no valid mem_section found from SYMBOL(mem_section)=%" PRIx64
					" (read directly and as a pointer)", symbol);
			goto out;
		}
		err = mem_read_u64(map->mem, symbol, &roots_addr);
		if (err) {
			err = mdf_error_wrap(err, "cannot read the mem_section pointer at 0x%" PRIx64, symbol);
			goto out;
		}
	}
	for (uint64_t nr = map->nr_sections; nr > 0; nr--) {
		if (map->starts[nr - 1]) {
			uint64_t end = nr << map->section_shift;

			if (end < map->max_pfn)
				map->max_pfn = end;
			break;
		}
	}
	err = NULL;
out:
	free(roots);
	return err;
}

static int compare_section_starts(const void *a, const void *b, void *ctx)
{
	const uint64_t *starts = ctx;
	uint64_t sa = starts[*(const uint64_t *)a], sb = starts[*(const uint64_t *)b];

	return sa < sb ? -1 : sa > sb;
}

struct mdf_error *mem_map_new(struct memory *mem, struct kernel *k, uint32_t page_size,
		 uint64_t max_pfn, struct mem_map **out)
{
	struct mem_map *map;
	int64_t struct_size;
	struct mdf_error *err;

	err = require(kernel_lookup_size(k, "page", &struct_size), "SIZE(page)");
	if (err)
		return err;
	if (struct_size < 16 || struct_size > 1024)
		return mdf_error(-MDF_ECORRUPT,
				 "VMCOREINFO's SIZE(page)=%" PRId64 " is not a plausible struct page size",
				 struct_size);
	map = calloc(1, sizeof(*map));
	if (!map)
		return &mdf_error_enomem;
	map->mem = mem;
	map->page_size = page_size;
	map->page_struct_size = (uint64_t)struct_size;
	map->max_pfn = max_pfn;
	err = read_sections(map, k);
	if (err)
		goto fail;
	map->by_address = malloc(map->nr_sections * sizeof(*map->by_address) + 1);
	if (!map->by_address) {
		err = &mdf_error_enomem;
		goto fail;
	}
	for (uint64_t nr = 0; nr < map->nr_sections; nr++)
		if (map->starts[nr])
			map->by_address[map->nr_by_address++] = nr;
	qsort_r(map->by_address, map->nr_by_address, sizeof(*map->by_address),
		compare_section_starts, map->starts);
	*out = map;
	return NULL;
fail:
	mem_map_free(map);
	return err;
}

void mem_map_free(struct mem_map *map)
{
	if (!map)
		return;
	free(map->starts);
	free(map->by_address);
	free(map);
}

uint64_t mem_map_max_pfn(const struct mem_map *map)
{
	return map->max_pfn;
}

uint64_t mem_map_page_struct_size(const struct mem_map *map)
{
	return map->page_struct_size;
}

unsigned int mem_map_section_shift(const struct mem_map *map)
{
	return map->section_shift;
}

uint64_t mem_map_nr_sections(const struct mem_map *map)
{
	return map->nr_sections;
}

uint64_t mem_map_section_start(const struct mem_map *map, uint64_t section)
{
	return section < map->nr_sections ? map->starts[section] : 0;
}

struct mdf_error *mem_map_pfn_to_page(const struct mem_map *map, uint64_t pfn, uint64_t *page)
{
	uint64_t section = pfn >> map->section_shift;

	if (section >= map->nr_sections || !map->starts[section])
		return &mdf_error_not_found;
	*page = map->starts[section] + (pfn - (section << map->section_shift)) * map->page_struct_size;
	return NULL;
}

struct section_search {
	const struct mem_map *map;
	uint64_t page;
};

static bool section_starts_at_or_below(void *ctx, size_t i)
{
	const struct section_search *s = ctx;

	return s->map->starts[s->map->by_address[i]] <= s->page;
}

struct mdf_error *mem_map_page_to_pfn(const struct mem_map *map, uint64_t page, uint64_t *pfn)
{
	uint64_t span = (1ull << map->section_shift) * map->page_struct_size;
	struct section_search s = { map, page };
	/* The last section whose struct pages start at or below @page. */
	size_t lo = search_partition_point(map->nr_by_address, section_starts_at_or_below, &s);

	if (lo == 0)
		return &mdf_error_not_found;
	uint64_t section = map->by_address[lo - 1];
	uint64_t offset = page - map->starts[section];

	if (offset >= span || offset % map->page_struct_size)
		return &mdf_error_not_found;
	*pfn = (section << map->section_shift) + offset / map->page_struct_size;
	return NULL;
}

/*
 * The frames of one stretch of struct pages: vmemmap is mapped in large
 * pages where it can be, so a stretch whose first and last pages are as
 * far apart physically as virtually is taken as contiguous, and only one
 * that is not is translated page by page.
 */
static struct mdf_error *stretch_frames(const struct mem_map *map, uint64_t vaddr, uint64_t len,
					mem_map_frames_fn fn, void *arg)
{
	uint64_t first, last, step = map->page_size;

	if (!mem_vtop(map->mem, vaddr, &first) && !mem_vtop(map->mem, vaddr + len - step, &last) &&
	    last - first == len - step)
		return fn(first / step, len / step, arg);
	for (uint64_t off = 0; off < len; off += step) {
		uint64_t paddr;
		struct mdf_error *err;

		if (mem_vtop(map->mem, vaddr + off, &paddr))
			continue;
		err = fn(paddr / step, 1, arg);
		if (err)
			return err;
	}
	return NULL;
}

struct mdf_error *mem_map_frames(const struct mem_map *map, mem_map_frames_fn fn, void *arg)
{
	uint64_t span = (1ull << map->section_shift) * map->page_struct_size;
	uint64_t stretch = 2ull << 20;

	for (uint64_t section = 0; section < map->nr_sections; section++) {
		uint64_t start = map->starts[section], end = start + span;

		if (!start)
			continue;
		/* Page-aligned stretches, ending at large-page boundaries. */
		start -= start % map->page_size;
		end += (map->page_size - end % map->page_size) % map->page_size;
		for (uint64_t at = start; at < end;) {
			uint64_t next = (at / stretch + 1) * stretch;
			struct mdf_error *err;

			if (next > end)
				next = end;
			err = stretch_frames(map, at, next - at, fn, arg);
			if (err)
				return err;
			at = next;
		}
	}
	return NULL;
}
