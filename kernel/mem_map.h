/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The crashed kernel's memory model: where the struct page of each page
 * frame lives (SPARSEMEM, with or without SPARSEMEM_EXTREME and VMEMMAP),
 * found through mem_section as VMCOREINFO describes it.
 */
#ifndef MDF_KERNEL_MEM_MAP_H
#define MDF_KERNEL_MEM_MAP_H

#include <stdint.h>

struct mdf_error;
struct mem_map;
struct memory;
struct kernel;

/*
 * Reads the section table for the pfns below @max_pfn (the highest the
 * dump reaches).  Prints what is missing or wrong and returns a negative
 * errno on failure.
 */
struct mdf_error *mem_map_new(struct memory *mem, struct kernel *k, uint32_t page_size, uint64_t max_pfn,
			       struct mem_map **out);
void mem_map_free(struct mem_map *map);

/*
 * One past the last pfn of a section that has a mem_map, if lower than the
 * @max_pfn given (upstream lowers its max_mapnr so, for memory the kernel
 * did not use, e.g. with mem=).
 */
uint64_t mem_map_max_pfn(const struct mem_map *map);
/* SIZE(page). */
uint64_t mem_map_page_struct_size(const struct mem_map *map);
/* log2 of the pfns per section. */
unsigned int mem_map_section_shift(const struct mem_map *map);
uint64_t mem_map_nr_sections(const struct mem_map *map);
/* The struct page of the first pfn of @section, or 0 when it has none. */
uint64_t mem_map_section_start(const struct mem_map *map, uint64_t section);

/* struct page address <-> pfn; &mdf_error_not_found when there is no such struct page. */
struct mdf_error *mem_map_pfn_to_page(const struct mem_map *map, uint64_t pfn, uint64_t *page);
struct mdf_error *mem_map_page_to_pfn(const struct mem_map *map, uint64_t page, uint64_t *pfn);

/*
 * Calls @fn with the runs of page frames that hold the struct pages (in
 * section order; a frame may come twice, where sections share a page),
 * skipping what does not translate; stops at @fn's first error.
 */
typedef struct mdf_error *(*mem_map_frames_fn)(uint64_t pfn, uint64_t count, void *arg);
struct mdf_error *mem_map_frames(const struct mem_map *map, mem_map_frames_fn fn, void *arg);

#endif
