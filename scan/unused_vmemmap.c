// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * -e: the frames of struct pages that describe only pages left out;
 * unused_vmemmap.h says which.
 *
 * The pages are classified a cycle at a time, as the writers classify
 * them, and the runs of pfns the dump holds and leaves out are followed
 * across cycles.  The struct pages of a run lie together within each
 * memory section (with SPARSEMEM_VMEMMAP, across sections too); the whole
 * pages among them are translated to the frames that hold them.
 */
#include <stdlib.h>

#include "kernel/mem_map.h"
#include "memory/reader.h"
#include "scan/page_scan.h"
#include "scan/unused_vmemmap.h"
#include "util/error.h"

struct vmemmap_walk {
	const struct mem_map *map;
	struct memory *mem;
	uint64_t page_size;
	struct pfn_cursor keep;
	bool has_keep;
	struct pfn_ranges *frames;
	/* Frames found and not yet added: consecutive ones make one range. */
	uint64_t pending_start, pending_end;
};

static int flush_pending(struct vmemmap_walk *w)
{
	int err = 0;

	if (w->pending_end > w->pending_start)
		err = mdf_error_drop(pfn_ranges_add(w->frames, w->pending_start, w->pending_end - w->pending_start));
	w->pending_start = w->pending_end = 0;
	return err;
}

static int add_frame(struct vmemmap_walk *w, uint64_t pfn)
{
	int err = 0;

	if (w->has_keep && pfn_cursor_contains(&w->keep, pfn))
		return 0;
	if (pfn != w->pending_end || w->pending_end == w->pending_start) {
		err = flush_pending(w);
		w->pending_start = pfn;
		w->pending_end = pfn;
	}
	w->pending_end++;
	return err;
}

/* The whole pages of the struct pages of [start, end), a section at most, and their frames. */
static int section_run_frames(struct vmemmap_walk *w, uint64_t start, uint64_t end)
{
	uint64_t size = mem_map_page_struct_size(w->map), first, from, to;
	int err = 0;

	if (mem_map_pfn_to_page(w->map, start, &first))
		return 0;
	from = (first + w->page_size - 1) / w->page_size * w->page_size;
	to = (first + (end - start) * size) / w->page_size * w->page_size;
	for (uint64_t vaddr = from; vaddr < to && !err; vaddr += w->page_size) {
		uint64_t paddr;

		/* A page of the mem_map the tables do not map holds nothing to leave out. */
		if (mdf_error_drop(mem_vtop(w->mem, vaddr, &paddr)))
			continue;
		err = add_frame(w, paddr / w->page_size);
	}
	return err;
}

static int run_frames(struct vmemmap_walk *w, uint64_t start, uint64_t end)
{
	unsigned int shift = mem_map_section_shift(w->map);
	int err = 0;

	while (start < end && !err) {
		uint64_t section_end = ((start >> shift) + 1) << shift;
		uint64_t stop = end < section_end ? end : section_end;

		err = section_run_frames(w, start, stop);
		start = stop;
	}
	return err;
}

static bool bit(const uint8_t *map, uint64_t i)
{
	return map[i / 8] >> (i % 8) & 1;
}

struct mdf_error *unused_vmemmap_frames(struct page_scan *scan, struct memory *mem, uint32_t page_size,
					uint64_t cycle_pfns, const struct pfn_ranges *keep,
					struct pfn_ranges *frames)
{
	struct vmemmap_walk w = {
		.map = page_scan_mem_map(scan),
		.mem = mem,
		.page_size = page_size,
		.has_keep = keep && keep->count,
		.frames = frames,
	};
	uint64_t max_pfn = page_scan_max_pfn(scan), run_start = 0;
	uint8_t *present = calloc(1, cycle_pfns / 8), *dumpable = calloc(1, cycle_pfns / 8);
	bool in_run = false;
	int err = 0;

	if (!present || !dumpable) {
		free(present);
		free(dumpable);
		return &mdf_error_enomem;
	}
	if (w.has_keep)
		pfn_cursor_init(&w.keep, keep);
	for (uint64_t start = 0; start < max_pfn && !err; start += cycle_pfns) {
		uint64_t end = max_pfn - start < cycle_pfns ? max_pfn : start + cycle_pfns;
		struct page_counts ignored = { 0 };

		page_scan_cycle(scan, start, end, present, dumpable, &ignored);
		for (uint64_t pfn = start; pfn < end && !err; pfn++) {
			bool unused = bit(present, pfn - start) && !bit(dumpable, pfn - start);

			if (unused && !in_run)
				run_start = pfn;
			else if (!unused && in_run)
				err = run_frames(&w, run_start, pfn);
			in_run = unused;
		}
	}
	if (!err && in_run)
		err = run_frames(&w, run_start, max_pfn);
	if (!err)
		err = flush_pending(&w);
	free(present);
	free(dumpable);
	if (err)
		return mdf_error(err, "cannot list the unused vmemmap pages: %s", mdf_strerror(err));
	pfn_ranges_merge(frames);
	return NULL;
}
