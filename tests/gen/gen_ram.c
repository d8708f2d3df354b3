// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Physical memory of the generated machine.
 *
 * The RAM map is the PC one QEMU's q35 machine gives a Linux guest: the
 * first page and the ISA hole [0x9fc00, 0x100000) are not RAM, and when RAM
 * reaches 2.75 GiB the part above 2 GiB moves above 4 GiB.  The dump file
 * holds either that RAM (kexec) or QEMU's RAM blocks, which include the low
 * holes, plus the 256 KiB BIOS ROM below 4 GiB (qemu).
 *
 * Contents live in 2 MiB chunks allocated on first write; a chunk never
 * written reads as zeros, which is what lets a 16 GiB machine be cheap.
 *
 * Allocation is top-down like memblock's: the first-fit search starts below
 * everything handed out so far, skips pfns the page spec or the kernel
 * image claimed, and honours alignment.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mkvmcore.h"

#define BIOS_ROM	0xfffc0000ULL	/* 256 KiB below 4 GiB */


static void add_range(struct range *r, int *n, uint64_t start, uint64_t end)
{
	if (start >= end)
		return;
	if (*n == MAX_RANGES)
		die("too many memory ranges");
	r[*n].start = start;
	r[*n].end = end;
	(*n)++;
}

/* Cuts [hs, he) out of a list of ranges. */
static void cut_range(struct range *r, int *n, uint64_t hs, uint64_t he)
{
	struct range out[MAX_RANGES];
	int nout = 0;

	for (int i = 0; i < *n; i++) {
		if (he <= r[i].start || hs >= r[i].end) {
			add_range(out, &nout, r[i].start, r[i].end);
			continue;
		}
		add_range(out, &nout, r[i].start, hs);
		add_range(out, &nout, he, r[i].end);
	}
	memcpy(r, out, sizeof(out[0]) * nout);
	*n = nout;
}

static void cut_holes(const struct gen *g, struct range *r, int *n)
{
	for (int h = 0; h < g->nholes; h++)
		cut_range(r, n, g->holes[h].start, g->holes[h].end);
}

void ram_init(struct gen *g)
{
	const uint64_t four_g = 1ULL << 32;
	uint64_t low_end = g->ram_size, high = 0, file_end = 0;

	if (g->ram_size >= 0xb0000000ULL) {
		low_end = 0x80000000ULL;
		high = g->ram_size - low_end;
	}
	add_range(g->ram, &g->nram, 0x1000, 0x9fc00);
	add_range(g->ram, &g->nram, 0x100000, low_end);
	add_range(g->ram, &g->nram, four_g, four_g + high);
	cut_holes(g, g->ram, &g->nram);

	if (g->layout == LAYOUT_QEMU) {
		add_range(g->file, &g->nfile, 0, low_end);
		add_range(g->file, &g->nfile, BIOS_ROM, four_g);
		add_range(g->file, &g->nfile, four_g, four_g + high);
		cut_holes(g, g->file, &g->nfile);
	} else {
		/* the crash kernel's own memory is not in its /proc/vmcore */
		memcpy(g->file, g->ram, sizeof(g->ram));
		g->nfile = g->nram;
		cut_range(g->file, &g->nfile, g->crashkernel.start,
			  g->crashkernel.end);
	}

	g->max_pfn = g->ram[g->nram - 1].end >> PAGE_SHIFT;
	g->nsections = (g->max_pfn + PAGES_PER_SECTION - 1) / PAGES_PER_SECTION;
	g->npfns = g->nsections * PAGES_PER_SECTION;
	for (int i = 0; i < g->nfile; i++)
		if (g->file[i].end > file_end)
			file_end = g->file[i].end;
	if ((file_end >> PAGE_SHIFT) > g->npfns)
		g->npfns = (file_end + PAGE_SIZE - 1) >> PAGE_SHIFT;
	g->pi = xcalloc(g->npfns, sizeof(*g->pi));
	g->nchunks = (g->npfns + (CHUNK_SIZE >> PAGE_SHIFT) - 1) >>
		     (CHUNK_SHIFT - PAGE_SHIFT);
	g->chunk = xcalloc(g->nchunks, sizeof(*g->chunk));
	g->memmap_paddr = xcalloc(g->nsections, sizeof(*g->memmap_paddr));

	/* The kernel gives non-RAM pfns of a present section reserved pages. */
	for (uint64_t s = 0; s < g->nsections; s++) {
		uint64_t first = s * PAGES_PER_SECTION;
		bool present = false;

		for (int i = 0; i < g->nram && !present; i++)
			present = g->ram[i].start >> PAGE_SHIFT <
				  first + PAGES_PER_SECTION &&
				  g->ram[i].end >> PAGE_SHIFT > first;
		if (!present)
			continue;
		g->memmap_paddr[s] = 1;	/* placeholder until mm_setup */
		for (uint64_t pfn = first; pfn < first + PAGES_PER_SECTION;
		     pfn++)
			g->pi[pfn].cat = PC_RESERVED;
	}
	/* Only whole pages are RAM: the partial page at 0x9f000 is not. */
	for (int i = 0; i < g->nram; i++)
		for (uint64_t pfn = (g->ram[i].start + PAGE_SIZE - 1) >>
			PAGE_SHIFT; pfn < g->ram[i].end >> PAGE_SHIFT; pfn++) {
			g->pi[pfn].flags |= PI_RAM;
			g->pi[pfn].cat = PC_UNCLAIMED;
		}
	/* x86 keeps the first MiB to itself (real-mode trampoline, BIOS). */
	for (uint64_t pfn = 0; pfn < 0x100; pfn++)
		if (g->pi[pfn].cat == PC_UNCLAIMED)
			g->pi[pfn].cat = PC_RESERVED;
	if (g->crashkernel.end)
		claim(g, g->crashkernel.start >> PAGE_SHIFT,
		      (g->crashkernel.end - g->crashkernel.start) >> PAGE_SHIFT,
		      PC_RESERVED);
	g->alloc_cursor = g->max_pfn;

	/* the firmware's code sits at the top of the ROM QEMU dumps too */
	if (g->layout == LAYOUT_QEMU) {
		uint64_t rng = g->seed ^ 0x62696f73726f6dULL;

		for (uint64_t pa = four_g - 0x10000; pa < four_g; pa += 8)
			put_le64(phys_ptr(g, pa, 8), rng_next(&rng));
	}
}

bool pfn_is_ram(const struct gen *g, uint64_t pfn)
{
	return pfn < g->npfns && (g->pi[pfn].flags & PI_RAM);
}

uint8_t *phys_ptr(struct gen *g, uint64_t paddr, size_t len)
{
	uint64_t c = paddr >> CHUNK_SHIFT;

	if (c >= g->nchunks || (paddr & (CHUNK_SIZE - 1)) + len > CHUNK_SIZE)
		die("internal: physical access %#" PRIx64 "+%zu out of range",
		    paddr, len);
	if (!g->chunk[c])
		g->chunk[c] = xcalloc(1, CHUNK_SIZE);
	return g->chunk[c] + (paddr & (CHUNK_SIZE - 1));
}

void phys_write(struct gen *g, uint64_t paddr, const void *buf, size_t len)
{
	const uint8_t *src = buf;

	while (len) {
		size_t n = CHUNK_SIZE - (paddr & (CHUNK_SIZE - 1));

		if (n > len)
			n = len;
		memcpy(phys_ptr(g, paddr, n), src, n);
		paddr += n;
		src += n;
		len -= n;
	}
}

/* NULL when the chunk was never written, i.e. reads as zeros. */
const uint8_t *phys_peek(const struct gen *g, uint64_t paddr)
{
	uint64_t c = paddr >> CHUNK_SHIFT;

	if (c >= g->nchunks || !g->chunk[c])
		return NULL;
	return g->chunk[c] + (paddr & (CHUNK_SIZE - 1));
}

bool page_is_zero(const struct gen *g, uint64_t pfn)
{
	const uint8_t *p = phys_peek(g, pfn << PAGE_SHIFT);

	if (!p)
		return true;
	for (size_t i = 0; i < PAGE_SIZE; i++)
		if (p[i])
			return false;
	return true;
}

void claim(struct gen *g, uint64_t pfn, uint64_t count, enum page_cat cat)
{
	for (uint64_t i = pfn; i < pfn + count; i++) {
		if (!pfn_is_ram(g, i))
			die("pfn %#" PRIx64 " is not RAM", i);
		if (g->pi[i].cat != PC_UNCLAIMED)
			die("pfn %#" PRIx64 " is already %s", i,
			    cat_name(g->pi[i].cat));
		g->pi[i].cat = cat;
	}
}

static uint64_t alloc_topdown(struct gen *g, uint64_t npages, uint64_t align,
			      enum page_cat cat)
{
	uint64_t end = g->alloc_cursor;

	while (end >= npages) {
		uint64_t start = (end - npages) & ~(align - 1);
		uint64_t obstacle = 0;
		bool blocked = false;

		for (uint64_t pfn = start + npages; pfn > start; pfn--) {
			if (!pfn_is_ram(g, pfn - 1) ||
			    g->pi[pfn - 1].cat != PC_UNCLAIMED) {
				obstacle = pfn - 1;
				blocked = true;
				break;
			}
		}
		if (!blocked) {
			for (uint64_t pfn = start; pfn < start + npages; pfn++)
				g->pi[pfn].cat = cat;
			g->alloc_cursor = start;
			/* a recycled page may hold old bytes, as in a kernel */
			for (uint64_t pa = start << PAGE_SHIFT;
			     pa < (start + npages) << PAGE_SHIFT;
			     pa += PAGE_SIZE)
				if (phys_peek(g, pa))
					memset(phys_ptr(g, pa, PAGE_SIZE), 0,
					       PAGE_SIZE);
			return start << PAGE_SHIFT;
		}
		end = obstacle;
	}
	die("out of RAM for a %" PRIu64 "-page allocation", npages);
}

uint64_t memblock_alloc(struct gen *g, uint64_t size, uint64_t align)
{
	uint64_t npages = (size + PAGE_SIZE - 1) >> PAGE_SHIFT;
	uint64_t apages = align > PAGE_SIZE ? align >> PAGE_SHIFT : 1;

	return alloc_topdown(g, npages, apages, PC_RESERVED);
}

uint64_t page_alloc(struct gen *g, enum page_cat cat)
{
	return alloc_topdown(g, 1, 1, cat);
}

uint64_t pages_alloc(struct gen *g, uint64_t npages, uint64_t align_pages,
		     enum page_cat cat)
{
	return alloc_topdown(g, npages, align_pages, cat);
}

/*
 * A page with known content: the marker, the pfn, then 'X' up to the end,
 * like the marker pages of the real fixtures.
 */
void fill_marker_page(struct gen *g, uint64_t pfn, int marker)
{
	uint8_t *p = phys_ptr(g, pfn << PAGE_SHIFT, PAGE_SIZE);
	int n;

	memset(p, 'X', PAGE_SIZE);
	n = snprintf((char *)p, PAGE_SIZE, "%spfn=%#" PRIx64 ";",
		     marker_kinds[marker].text, pfn);
	p[n] = 'X';	/* snprintf's NUL would end the text early */
	g->pi[pfn].marker = marker;
}
