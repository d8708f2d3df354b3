// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The memory reader.  Kernel structures are read a few bytes at a time and
 * page-table walks touch the same upper-level tables again and again, so
 * small direct-mapped caches sit in front of the input: one of whole
 * pages by frame number, one of virtual-to-physical translations by page.
 * Failed reads are not cached: the error is reported to each caller.
 * Bulk reads (BTF, symbol tables: megabytes) bypass the page cache: a run
 * of whole, physically contiguous pages that the input holds in one piece
 * is read in one call.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "memory/reader.h"
#include "util/message.h"

/*
 * Walks of tasks, VMAs and module lists read a hundred or more distinct
 * pages, page tables among them; slots cost memory only once used.
 */
#define PAGE_CACHE_SLOTS 256
#define TLB_SLOTS 512
#define INVALID_TAG UINT64_MAX

struct page_slot {
	uint64_t pfn;
	unsigned char *data;
};

struct tlb_slot {
	uint64_t vpage;
	uint64_t ppage;
};

struct memory {
	struct dump_input *in;
	const struct arch_ops *arch;
	void *arch_state;
	uint32_t page_size;
	unsigned int page_shift;
	struct page_slot pages[PAGE_CACHE_SLOTS];
	struct tlb_slot tlb[TLB_SLOTS];
	unsigned char *page_data;     /* PAGE_CACHE_SLOTS pages */
};

static struct mdf_error *read_phys_cb(void *ctx, uint64_t paddr, void *buf, size_t len)
{
	return mem_read_phys(ctx, paddr, buf, len);
}

struct mdf_error *memory_new(struct dump_input *in, const struct arch_ops *arch,
			      const struct vmcoreinfo *vi, struct memory **out)
{
	struct memory *mem;
	struct phys_reader reader;
	uint32_t page_size;
	struct mdf_error *err;

	if (!in->page_size || (in->page_size & (in->page_size - 1)))
		return mdf_error(-MDF_ECORRUPT, "%s: page size %u is not a power of two", in->path, in->page_size);
	mem = calloc(1, sizeof(*mem));
	if (!mem)
		return &mdf_error_enomem;
	mem->in = in;
	mem->arch = arch;
	mem->page_size = in->page_size;
	mem->page_shift = (unsigned int)__builtin_ctz(in->page_size);
	mem->page_data = malloc((size_t)PAGE_CACHE_SLOTS * mem->page_size);
	if (!mem->page_data) {
		err = &mdf_error_enomem;
		goto fail;
	}
	for (size_t i = 0; i < PAGE_CACHE_SLOTS; i++) {
		mem->pages[i].pfn = INVALID_TAG;
		mem->pages[i].data = mem->page_data + i * mem->page_size;
	}
	for (size_t i = 0; i < TLB_SLOTS; i++)
		mem->tlb[i].vpage = INVALID_TAG;

	reader.read = read_phys_cb;
	reader.ctx = mem;
	reader.order = arch->byte_order;
	err = arch->init(vi, &reader, &mem->arch_state);
	if (!err)
		err = arch_page_size(arch, vi, &page_size);
	if (!err && page_size != in->page_size)
		err = mdf_error(-MDF_ECORRUPT, "%s: the dump's pages are %u bytes, but this %s kernel's are %u",
				in->path, in->page_size, arch->name, page_size);
	if (err)
		goto fail;
	*out = mem;
	return NULL;
fail:
	memory_free(mem);
	return err;
}

void memory_free(struct memory *mem)
{
	if (!mem)
		return;
	if (mem->arch_state)
		mem->arch->free(mem->arch_state);
	free(mem->page_data);
	free(mem);
}

uint32_t mem_page_size(const struct memory *mem)
{
	return mem->page_size;
}

const struct arch_ops *mem_arch(const struct memory *mem)
{
	return mem->arch;
}

enum byte_order mem_byte_order(const struct memory *mem)
{
	return mem->arch->byte_order;
}

unsigned int mem_pointer_size(const struct memory *mem)
{
	return mem->arch->pointer_size;
}

bool mem_is_kernel_address(const struct memory *mem, uint64_t vaddr)
{
	return mem->arch->is_kernel_address(mem->arch_state, vaddr);
}

struct mdf_error *mem_kernel_image(struct memory *mem, const struct arch_symbols *syms, struct arch_image *out)
{
	memset(out, 0, sizeof(*out));
	if (!mem->arch->kernel_image)
		return mdf_error(-ENOTSUP, "%s: where the kernel image lies is not known here", mem->arch->name);
	return mem->arch->kernel_image(mem->arch_state, syms, out);
}

struct mdf_error *mem_address_space(struct memory *mem, const struct arch_symbols *syms,
				    struct arch_address_space *out)
{
	memset(out, 0, sizeof(*out));
	if (!mem->arch->address_space)
		return mdf_error(-ENOTSUP, "%s: where the kernel maps memory is not known here", mem->arch->name);
	return mem->arch->address_space(mem->arch_state, syms, out);
}

static struct mdf_error *cached_page(struct memory *mem, uint64_t pfn, const unsigned char **data)
{
	struct page_slot *slot = &mem->pages[pfn % PAGE_CACHE_SLOTS];
	struct mdf_error *err;

	if (slot->pfn != pfn) {
		slot->pfn = INVALID_TAG;
		err = input_read_page(mem->in, pfn, slot->data);
		if (err)
			return err;
		slot->pfn = pfn;
	}
	*data = slot->data;
	return NULL;
}

struct mdf_error *mem_read_phys(struct memory *mem, uint64_t paddr, void *buf, size_t len)
{
	unsigned char *dst = buf;

	while (len) {
		uint64_t offset = paddr & (mem->page_size - 1);
		size_t chunk = mem->page_size - offset;
		const unsigned char *page;
		struct mdf_error *err;

		if (chunk > len)
			chunk = len;
		/* A whole page goes straight to the caller: bulk reads are not re-read. */
		if (chunk == mem->page_size) {
			err = input_read_page(mem->in, paddr >> mem->page_shift, dst);
			if (err)
				return err;
			dst += chunk;
			paddr += chunk;
			len -= chunk;
			continue;
		}
		err = cached_page(mem, paddr >> mem->page_shift, &page);
		if (err)
			return err;
		memcpy(dst, page + offset, chunk);
		dst += chunk;
		paddr += chunk;
		len -= chunk;
	}
	return NULL;
}

struct mdf_error *mem_vtop(struct memory *mem, uint64_t vaddr, uint64_t *paddr)
{
	uint64_t vpage = vaddr >> mem->page_shift, found;
	struct tlb_slot *slot = &mem->tlb[vpage % TLB_SLOTS];
	struct mdf_error *err;

	if (slot->vpage != vpage) {
		err = mem->arch->vtop(mem->arch_state, vaddr & ~(uint64_t)(mem->page_size - 1), &found, NULL);
		if (err)
			return err;
		slot->vpage = vpage;
		slot->ppage = found >> mem->page_shift;
	}
	*paddr = (slot->ppage << mem->page_shift) | (vaddr & (mem->page_size - 1));
	return NULL;
}

struct mdf_error *mem_vtop_root(struct memory *mem, uint64_t root, uint64_t vaddr, uint64_t *paddr)
{
	return mem->arch->vtop_root(mem->arch_state, root, vaddr, paddr, NULL);
}

struct mdf_error *mem_for_each_table_page(struct memory *mem,
					  struct mdf_error *(*fn)(uint64_t paddr, void *arg), void *arg)
{
	if (!mem->arch->for_each_table_page)
		return mdf_error(-EOPNOTSUPP, "%s: the kernel's page-table pages cannot be listed",
				 mem->arch->name);
	return mem->arch->for_each_table_page(mem->arch_state, fn, arg);
}

/*
 * The whole pages from @vaddr on, at most @max, that are physically
 * contiguous with the first: *@pages of them (0 when fewer than 2), and
 * the file offset the input holds them at in one piece.
 */
static struct mdf_error *page_run(struct memory *mem, uint64_t vaddr, size_t max, size_t *pages, uint64_t *offset)
{
	uint64_t first, next;
	size_t n = 1;
	struct mdf_error *err;

	*pages = 0;
	if (!mem->in->ops->file_offset || max < 2 || (vaddr & (mem->page_size - 1)))
		return NULL;
	err = mem_vtop(mem, vaddr, &first);
	if (err)
		return err;
	while (n < max && !mem_vtop(mem, vaddr + ((uint64_t)n << mem->page_shift), &next) &&
	       next == first + ((uint64_t)n << mem->page_shift))
		n++;
	if (n < 2)
		return NULL;
	err = mem->in->ops->file_offset(mem->in, first >> mem->page_shift, n, offset);
	/* Not simply all there in one piece: a page at a time, then. */
	if (err == &mdf_error_not_contiguous)
		return NULL;
	if (!err)
		*pages = n;
	return err;
}

/*
 * Reads the whole pages at the start of [@vaddr, @vaddr + @len) that are
 * physically contiguous with the first in one read of the input, if it
 * can: *@done becomes the bytes read (0 when nothing was read so).
 */
static struct mdf_error *read_page_run(struct memory *mem, uint64_t vaddr, unsigned char *dst,
				       size_t len, size_t *done)
{
	size_t pages;
	uint64_t offset;
	struct mdf_error *err = page_run(mem, vaddr, len >> mem->page_shift, &pages, &offset);

	*done = 0;
	if (err || !pages)
		return err;
	err = input_pread(mem->in, dst, pages << mem->page_shift, offset, "a PT_LOAD segment");
	if (!err)
		*done = pages << mem->page_shift;
	return err;
}

struct mdf_error *mem_read_virt(struct memory *mem, uint64_t vaddr, void *buf, size_t len)
{
	unsigned char *dst = buf;

	while (len) {
		size_t done;
		struct mdf_error *err = read_page_run(mem, vaddr, dst, len, &done);

		if (err)
			return err;
		if (done) {
			dst += done;
			vaddr += done;
			len -= done;
			continue;
		}
		uint64_t offset = vaddr & (mem->page_size - 1);
		size_t chunk = mem->page_size - offset;
		uint64_t paddr;

		if (chunk > len)
			chunk = len;
		err = mem_vtop(mem, vaddr, &paddr);
		if (!err)
			err = mem_read_phys(mem, paddr, dst, chunk);
		if (err)
			return err;
		dst += chunk;
		vaddr += chunk;
		len -= chunk;
	}
	return NULL;
}

struct mdf_error *mem_read_prefix(struct memory *mem, uint64_t vaddr, void *buf, size_t min, size_t *len)
{
	for (;;) {
		struct mdf_error *err = mem_read_virt(mem, vaddr, buf, *len);

		if (!err || *len <= min)
			return err;
		mdf_error_free(err);
		*len = min + (*len - min) / 2;
	}
}

struct mdf_error *mem_read_u16(struct memory *mem, uint64_t vaddr, uint16_t *value)
{
	uint16_t raw;
	struct mdf_error *err = mem_read_virt(mem, vaddr, &raw, sizeof(raw));

	if (!err)
		*value = dump_to_host16(mem->arch->byte_order, raw);
	return err;
}

struct mdf_error *mem_read_u32(struct memory *mem, uint64_t vaddr, uint32_t *value)
{
	uint32_t raw;
	struct mdf_error *err = mem_read_virt(mem, vaddr, &raw, sizeof(raw));

	if (!err)
		*value = dump_to_host32(mem->arch->byte_order, raw);
	return err;
}

struct mdf_error *mem_read_u64(struct memory *mem, uint64_t vaddr, uint64_t *value)
{
	uint64_t raw;
	struct mdf_error *err = mem_read_virt(mem, vaddr, &raw, sizeof(raw));

	if (!err)
		*value = dump_to_host64(mem->arch->byte_order, raw);
	return err;
}

struct mdf_error *mem_read_u64_array(struct memory *mem, uint64_t vaddr, uint64_t *values, size_t count)
{
	struct mdf_error *err;

	if (count > SIZE_MAX / sizeof(*values))
		return mdf_error(-EINVAL, "an array of %zu 64-bit values at 0x%" PRIx64 " is too large", count, vaddr);
	err = mem_read_virt(mem, vaddr, values, count * sizeof(*values));
	for (size_t i = 0; i < count && !err; i++)
		values[i] = dump_to_host64(mem->arch->byte_order, values[i]);
	return err;
}
