// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit_fake_memory.h: a memory reader (memory/reader.h) over bytes a test
 * lays out itself, for code that reads the crashed kernel's memory.
 * Physical memory is @size bytes from address 0; the kernel virtual
 * addresses [FAKE_VIRT_BASE, FAKE_VIRT_BASE + size) map it one to one,
 * and nothing else is mapped.  One fake memory at a time.
 */
#ifndef UNIT_FAKE_MEMORY_H
#define UNIT_FAKE_MEMORY_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "input/dump_input.h"
#include "memory/reader.h"
#include "util/error.h"

#define FAKE_PAGE 4096u
#define FAKE_VIRT_BASE 0xffffffff81000000ull

struct fake_memory {
	struct dump_input in;
	unsigned char *bytes;
	size_t size;
	struct memory *mem;
};

static struct fake_memory *fake_current;

static struct mdf_error *fake_read_page(struct dump_input *in, uint64_t pfn, void *buf)
{
	struct fake_memory *f = in->priv;

	if (pfn >= f->size / FAKE_PAGE)
		return &mdf_error_not_dumped;
	memcpy(buf, f->bytes + pfn * FAKE_PAGE, FAKE_PAGE);
	return NULL;
}

static const struct input_ops fake_input_ops = {
	.name = "fake",
	.read_page = fake_read_page,
};

static struct mdf_error *fake_arch_init(const struct vmcoreinfo *vi, const struct phys_reader *reader,
					void **state)
{
	(void)vi;
	(void)reader;
	*state = fake_current;
	return NULL;
}

static struct mdf_error *fake_vtop(void *state, uint64_t vaddr, uint64_t *paddr, uint64_t *page_size)
{
	struct fake_memory *f = state;

	if (vaddr < FAKE_VIRT_BASE || vaddr - FAKE_VIRT_BASE >= f->size)
		return &mdf_error_unmapped;
	*paddr = vaddr - FAKE_VIRT_BASE;
	if (page_size)
		*page_size = FAKE_PAGE;
	return NULL;
}

static struct mdf_error *fake_vtop_root(void *state, uint64_t root, uint64_t vaddr, uint64_t *paddr,
					uint64_t *page_size)
{
	(void)root;
	return fake_vtop(state, vaddr, paddr, page_size);
}

static void fake_arch_free(void *state)
{
	(void)state;
}

/* The kernel's half: the top one. */
static bool fake_is_kernel_address(const void *state, uint64_t vaddr)
{
	(void)state;
	return vaddr >> 63;
}

static const struct arch_ops fake_arch = {
	.name = "fake",
	.byte_order = BYTE_ORDER_LITTLE,
	.pointer_size = 8,
	.page_sizes = FAKE_PAGE,
	.default_page_size = FAKE_PAGE,
	.init = fake_arch_init,
	.vtop = fake_vtop,
	.vtop_root = fake_vtop_root,
	.is_kernel_address = fake_is_kernel_address,
	.free = fake_arch_free,
};

/* @size bytes of zeros (a multiple of FAKE_PAGE), to fill in before fake_memory_open. */
static __attribute__((unused)) struct fake_memory *fake_memory_new(size_t size)
{
	struct fake_memory *f = calloc(1, sizeof(*f));

	if (!f || !(f->bytes = calloc(1, size))) {
		free(f);
		return NULL;
	}
	f->size = size;
	f->in.ops = &fake_input_ops;
	f->in.path = "fake memory";
	f->in.fd = -1;
	f->in.page_size = FAKE_PAGE;
	f->in.max_pfn = size / FAKE_PAGE;
	f->in.priv = f;
	return f;
}

/* Opens the memory reader over @f's bytes as they are now (its page cache keeps what it reads). */
static __attribute__((unused)) struct mdf_error *fake_memory_open(struct fake_memory *f,
								   const struct vmcoreinfo *vi)
{
	memory_free(f->mem);
	f->mem = NULL;
	fake_current = f;
	return memory_new(&f->in, &fake_arch, vi, &f->mem);
}

static __attribute__((unused)) void fake_memory_free(struct fake_memory *f)
{
	if (!f)
		return;
	memory_free(f->mem);
	free(f->bytes);
	free(f);
}

#endif
