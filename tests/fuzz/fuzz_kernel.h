// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_kernel.h: a small crashed kernel in a fake memory
 * (tests/unit/unit_fake_memory.h), for harnesses of code that reads
 * kernel structures through the kernel layer (kernel/kernel.h): the
 * walkers, the --config resolver.
 *
 * The fake memory maps FAKE_VIRT_BASE on.  Its first FUZZ_REGION_SIZE
 * bytes are the region each input fills (zeros past the input); the
 * kernel's symbols the harnesses reach (init_task, modules, ...) point
 * into it.  Above it, fixed for the run, lie what the kernel layer needs
 * to know the kernel: a kallsyms table (absolute addresses, one
 * character per token) naming those symbols and __start_BTF and
 * __stop_BTF, and between these the generator's vmlinux BTF
 * (generator_btf.h), whose types are close to 6.1's.
 *
 * Each input gets a new memory reader (an empty page cache) and a new
 * struct kernel, so nothing of one input is seen by the next.
 */
#ifndef FUZZ_KERNEL_H
#define FUZZ_KERNEL_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "generator_btf.h"
#include "input/vmcoreinfo.h"
#include "kernel/kernel.h"
#include "unit_fake_memory.h"

#define FUZZ_REGION_SIZE (256u << 10)

/* Where the kernel's symbols lie in the region, and the kallsyms table above it. */
struct fuzz_symbol {
	const char *name;
	char type;
	uint64_t offset;       /* from FAKE_VIRT_BASE */
};

/* The fixed part, from the region's end: the kallsyms tables, then the BTF from a page on. */
#define FIXED_NUM_SYMS 0x000u
#define FIXED_ADDRESSES 0x008u
#define FIXED_TOKEN_INDEX 0x200u
#define FIXED_TOKEN_TABLE 0x400u
#define FIXED_NAMES 0x800u
#define FIXED_BTF 0x1000u

static const struct fuzz_symbol fuzz_region_symbols[] = {
	{ "init_task", 'D', 0x0000 },
	{ "init_uts_ns", 'D', 0x1000 },
	{ "saved_command_line", 'B', 0x1800 },
	{ "boot_command_line", 'D', 0x1900 },
	{ "iomem_resource", 'D', 0x2000 },
	{ "modules", 'd', 0x2100 },
	{ "btf_modules", 'd', 0x2110 },
};
#define FUZZ_REGION_SYMBOLS (sizeof(fuzz_region_symbols) / sizeof(fuzz_region_symbols[0]))

struct fuzz_kernel {
	struct fake_memory *f;
	struct vmcoreinfo *vi;
	struct kernel *kernel;
};

/* One kallsyms_names entry for "<type><name>", each character its own token. */
static size_t fuzz_kernel_name(unsigned char *p, char type, const char *name)
{
	size_t len = strlen(name) + 1;

	p[0] = (unsigned char)len;
	p[1] = (unsigned char)type;
	memcpy(p + 2, name, len - 1);
	return 1 + len;
}

/* Lays out the kallsyms tables at @fixed (fixed part's offset) for @syms; returns the table's VMCOREINFO lines. */
static void fuzz_kernel_kallsyms(unsigned char *bytes, uint64_t fixed, const struct fuzz_symbol *syms, uint32_t nr,
				 char *vmcoreinfo, size_t vmcoreinfo_size)
{
	const uint64_t base = FAKE_VIRT_BASE + fixed;
	uint16_t index[256];
	size_t table = 0, names = 0;

	memcpy(bytes + fixed + FIXED_NUM_SYMS, &nr, sizeof(nr));
	for (uint32_t i = 0; i < nr; i++) {
		uint64_t addr = FAKE_VIRT_BASE + syms[i].offset;

		memcpy(bytes + fixed + FIXED_ADDRESSES + 8 * i, &addr, sizeof(addr));
		names += fuzz_kernel_name(bytes + fixed + FIXED_NAMES + names, syms[i].type, syms[i].name);
	}
	/* Printable characters stand for themselves; the other tokens are empty and unused. */
	for (int c = 0; c < 256; c++) {
		index[c] = (uint16_t)table;
		if (c >= 0x20 && c < 0x7f)
			bytes[fixed + FIXED_TOKEN_TABLE + table++] = (unsigned char)c;
		bytes[fixed + FIXED_TOKEN_TABLE + table++] = '\0';
	}
	memcpy(bytes + fixed + FIXED_TOKEN_INDEX, index, sizeof(index));
	snprintf(vmcoreinfo, vmcoreinfo_size,
		 "OSRELEASE=6.1.0-fuzz\nPAGESIZE=%u\nSYMBOL(_stext)=%" PRIx64 "\n"
		 "SYMBOL(kallsyms_num_syms)=%" PRIx64 "\nSYMBOL(kallsyms_names)=%" PRIx64 "\n"
		 "SYMBOL(kallsyms_token_table)=%" PRIx64 "\nSYMBOL(kallsyms_token_index)=%" PRIx64 "\n"
		 "SYMBOL(kallsyms_addresses)=%" PRIx64 "\n",
		 FAKE_PAGE, (uint64_t)(FAKE_VIRT_BASE + syms[0].offset), base + FIXED_NUM_SYMS, base + FIXED_NAMES,
		 base + FIXED_TOKEN_TABLE, base + FIXED_TOKEN_INDEX, base + FIXED_ADDRESSES);
}

/* Builds the fixed part, once per run. */
static void fuzz_kernel_init(struct fuzz_kernel *fk)
{
	const uint64_t fixed = FUZZ_REGION_SIZE;
	struct fuzz_symbol syms[FUZZ_REGION_SYMBOLS + 3];
	uint32_t btf_size, nr = 0;
	const void *btf = generator_btf(&btf_size);
	uint64_t size = fixed + FIXED_BTF + btf_size;
	char vmcoreinfo[1024];
	struct mdf_error *err;

	/* _stext first: VMCOREINFO's SYMBOL(_stext) is the first symbol's address. */
	syms[nr++] = (struct fuzz_symbol){ "_stext", 'T', fixed };
	for (size_t i = 0; i < FUZZ_REGION_SYMBOLS; i++)
		syms[nr++] = fuzz_region_symbols[i];
	syms[nr++] = (struct fuzz_symbol){ "__start_BTF", 'R', fixed + FIXED_BTF };
	syms[nr++] = (struct fuzz_symbol){ "__stop_BTF", 'R', fixed + FIXED_BTF + btf_size };

	fk->f = fake_memory_new((size + FAKE_PAGE - 1) / FAKE_PAGE * FAKE_PAGE);
	if (!fk->f)
		fuzz_die("fake_memory_new");
	fuzz_kernel_kallsyms(fk->f->bytes, fixed, syms, nr, vmcoreinfo, sizeof(vmcoreinfo));
	memcpy(fk->f->bytes + fixed + FIXED_BTF, btf, btf_size);
	err = vmcoreinfo_parse(vmcoreinfo, strlen(vmcoreinfo), "the fuzz kernel", &fk->vi);
	if (err) {
		fprintf(stderr, "%s\n", mdf_error_text(err));
		abort();
	}
}

/* Fills the region with @size bytes of @data and opens the kernel on it. */
static void fuzz_kernel_open(struct fuzz_kernel *fk, const uint8_t *data, size_t size)
{
	struct mdf_error *err;

	if (size > FUZZ_REGION_SIZE)
		size = FUZZ_REGION_SIZE;
	memset(fk->f->bytes, 0, FUZZ_REGION_SIZE);
	memcpy(fk->f->bytes, data, size);
	err = fake_memory_open(fk->f, fk->vi);
	if (!err)
		err = kernel_new(fk->f->mem, fk->vi, &fk->kernel);
	if (err) {
		fprintf(stderr, "%s\n", mdf_error_text(err));
		abort();
	}
}

static void fuzz_kernel_close(struct fuzz_kernel *fk)
{
	kernel_free(fk->kernel);
	fk->kernel = NULL;
	memory_free(fk->f->mem);
	fk->f->mem = NULL;
}

#endif
