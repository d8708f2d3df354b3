// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An extension's child loads megabytes of symbols and types into fresh
 * memory (libbpf's own copy of vmlinux's BTF is 4 MB).  Fresh memory costs
 * a page fault per 4 KiB page, 10-15 µs each in a VM, and under shadow
 * paging (PVM) every first touch of a 4 KiB page costs an exit too, even
 * prefaulted: loading vmlinux's BTF took 15-20 ms on 4 KiB pages and
 * 3 ms on transparent huge pages.  So the heap is grown at once by
 * HUGE_HEAP, asked for huge pages, and its free space made to start on a
 * huge page boundary, where the big buffers then land: a fault per 2 MiB
 * where the kernel has huge pages.  Untouched, the heap costs no memory,
 * and without huge pages it works as before.
 *
 * glibc serves an allocation from the heap below M_MMAP_THRESHOLD only:
 * the threshold is raised above anything such a process allocates.  The
 * setting is the process's, as malloc()'s are: so is this module's state.
 */
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "huge_heap.h"

#define HUGE_HEAP_MMAP_THRESHOLD (32u << 20)
#define DEFAULT_MMAP_THRESHOLD (128u << 10)
#define DEFAULT_TRIM_THRESHOLD (128u << 10)
#define HUGE_HEAP (24u << 20)
#define HUGE_PAGE (2u << 20)
/* glibc's chunk header before each allocation, and its chunk alignment. */
#define CHUNK_HEADER sizeof(size_t)
#define CHUNK_ALIGN 16u

static bool active, forking;

void huge_heap_begin(bool forks)
{
	uintptr_t start, end, touched;
	void *p;

	if (!mallopt(M_MMAP_THRESHOLD, HUGE_HEAP_MMAP_THRESHOLD) || !mallopt(M_TRIM_THRESHOLD, 2 * HUGE_HEAP))
		return;
	active = true;
	forking = forks;
	/*
	 * The heap's pages below its current end may be mapped (a child
	 * inherits them): 2 MiB with a single 4 KiB page mapped is never
	 * given a huge page, so the huge part starts past them.  With it
	 * starting any lower, 1 run in 4 took ~420 faults more, and twice the
	 * time, to read vmlinux's BTF.
	 */
	touched = (uintptr_t)sbrk(0);
	p = malloc(HUGE_HEAP);
	if (!p)
		return;
	if (touched < (uintptr_t)p || touched == (uintptr_t)-1)
		touched = (uintptr_t)p;
	start = (touched + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
	end = ((uintptr_t)p + HUGE_HEAP) & ~(uintptr_t)(HUGE_PAGE - 1);
	if (end > start)
		madvise((void *)start, end - start, MADV_HUGEPAGE);
	free(p);
	/*
	 * The heap's free space starts at p again: a block up to the boundary,
	 * never freed (a child exits; the parent keeps a few bytes), moves it
	 * to start.
	 */
	if (start - (uintptr_t)p >= CHUNK_ALIGN + CHUNK_HEADER) {
		void *pad = malloc(start - (uintptr_t)p - CHUNK_HEADER);

		/* Taken from a free block left by the parent rather than from p: no use. */
		if (pad != p)
			free(pad);
	}
}

void huge_heap_end(void)
{
	active = false;
	mallopt(M_MMAP_THRESHOLD, DEFAULT_MMAP_THRESHOLD);
	mallopt(M_TRIM_THRESHOLD, DEFAULT_TRIM_THRESHOLD);
	malloc_trim(0);
}

/*
 * Fresh memory costs a page fault per page (in a VM about 10 µs each, 15 ms
 * for 6.1's 4 MiB of BTF), so a big buffer lies on huge pages.  On the
 * heap it leaves its space to what follows (a huge page fewer in an
 * extension's child), unless children inherit the heap: their writes into
 * the freed space would copy it a page at a time.  Its own mapping asks
 * for transparent huge pages: a fault per 2 MiB where the kernel has them.
 */
int huge_buffer_get(struct huge_buffer *buf, size_t len)
{
	size_t span = (len + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);

	*buf = (struct huge_buffer){ 0 };
	if (active && !forking) {
		buf->data = malloc(len);
		return buf->data ? 0 : -ENOMEM;
	}
	buf->region = mmap(NULL, span + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf->region == MAP_FAILED) {
		buf->region = NULL;
		return -ENOMEM;
	}
	buf->region_len = span + HUGE_PAGE;
	buf->data = (char *)(((uintptr_t)buf->region + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
	/* Only a hint: without huge pages the buffer is as good. */
	madvise(buf->data, span, MADV_HUGEPAGE);
	return 0;
}

void huge_buffer_free(struct huge_buffer *buf)
{
	if (buf->region)
		munmap(buf->region, buf->region_len);
	else
		free(buf->data);
	*buf = (struct huge_buffer){ 0 };
}
