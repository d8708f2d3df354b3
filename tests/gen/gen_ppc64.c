// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkvmcore --arch ppc64: a small ppc64 ELF vmcore for address translation,
 * with either MMU's Linux page tables and either page size, and the facts
 * to check it.
 *
 *   mkvmcore --arch ppc64 [--mmu radix|hash] [--page-size 4K|64K]
 *            [--big-endian] [--no-radix-line] [--pre-5.2] [--ram SIZE]
 *            [--damage loop|outside] [--facts FILE] [--vmcoreinfo-out FILE]
 *            OUT.elf
 *
 * Defaults: radix, 4K pages, little-endian, 64 MiB of RAM from physical 0.
 * It holds what translation needs and no more: the kernel image at
 * PAGE_OFFSET (0xc000000000000000) with swapper_pg_dir in it, page tables
 * for vmalloc (and, under radix, for the linear map and vmemmap), the
 * vmemmap_list a hash kernel keeps instead, and the VMCOREINFO lines a
 * 6.12 kernel writes for them (arch/powerpc/kexec/core.c); no mem_map,
 * kallsyms or log.
 *
 * The tables are the kernel's (arch/ppc64.c explains them): four levels
 * whose widths depend on the MMU and page size, entries big-endian
 * whatever the kernel's order, table pointers with the radix MMU's
 * next-level size in their low bits, tables smaller than a page packed
 * together as the kernel's fragments are, leaves with _PAGE_PTE, and hash
 * PTEs with the HPTE slot bits the kernel keeps above the physical
 * address.  Radix maps the linear map in 2M leaves (the first 2M in
 * pages), vmemmap in 2M leaves, and vmalloc in pages and one 2M and one 1G
 * leaf; hash maps vmalloc in pages and vmemmap through vmemmap_list:
 * blocks of 4K (4K pages) or 16M (64K pages), one far from the others as
 * hotplugged memory's would be.
 *
 * --big-endian is a big-endian kernel's dump: ELF headers, notes and the
 * kernel's variables in its order (the entries stay big-endian either
 * way).  --no-radix-line leaves NUMBER(RADIX_MMU) out, as kernels before
 * it did: the MMU is then cur_cpu_spec->mmu_features'.  --pre-5.2 lays
 * a hash kernel out as kernels before 5.2 did, vmalloc at
 * 0xd000000000000000 and vmemmap at 0xf000000000000000, and writes a 4.18
 * kernel's VMCOREINFO (no RADIX_MMU, VMALLOC_START or vmemmap lines:
 * vmap_area_list's first area instead).  --damage loop
 * points the PGD entry of _stext at the PGD itself, --damage outside the
 * PUD entry of _stext at a table beyond memory: a reader must say so, not
 * loop or read garbage.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mkvmcore.h"

#define P64_PAGE_OFFSET UINT64_C(0xc000000000000000)
/* struct elf_prstatus on ppc64: 112 bytes, pt_regs (48 words), pr_fpvalid and padding. */
#define P64_PRSTATUS_SIZE 504
#define P64_IMAGE_SIZE (8ULL << 20)
#define P64_ROOT_OFFSET (2ULL << 20)        /* swapper_pg_dir in the image */
#define P64_DATA_OFFSET (UINT64_C(3) << 20)       /* the kernel's variables below */
#define P64_TARGETS (8ULL << 20)            /* vmalloc's pages */
#define P64_VMEMMAP_PHYS (16ULL << 20)      /* radix's 2M vmemmap, hash 4K's blocks */
#define P64_BIG_BLOCK_PHYS (32ULL << 20)    /* hash 64K's 16M vmemmap block */
#define P64_FAR UINT64_C(0x4000000000)           /* physical addresses beyond RAM: 256 GiB */

#define E_PRESENT (1ULL << 63)
#define E_LEAF (1ULL << 62)                 /* _PAGE_PTE */
/* _PAGE_ACCESSED | _PAGE_DIRTY | _PAGE_PRIVILEGED | _PAGE_READ | _PAGE_WRITE */
#define E_KERNEL_RW 0x18eULL
/* Hash PTEs: HPTE slot and busy bits above _PAGE_PA_MAX (53), which are no address bits. */
#define E_HASH_SLOT 0x00e0000000000000ULL

/* The kernel's variables, at P64_DATA_OFFSET on in the image. */
#define V_VMEMMAP_LIST 0x0
#define V_VMEMMAP_PSIZE 0x8
#define V_CUR_CPU_SPEC 0x10
#define V_VMAP_AREA_LIST 0x20               /* list_head, before 6.9 */
#define V_VMAP_AREA 0x80                    /* struct vmap_area: va_start at 0, list at 48 */
#define VMAP_AREA_LIST_OFFSET 48
#define V_CPU_SPEC 0x100                    /* struct cpu_spec, mmu_features at 32 */
#define V_PSIZE_DEFS 0x200                  /* 16 struct mmu_psize_def of 96 bytes, shift at 0 */
#define V_BACKING 0x1000                    /* struct vmemmap_backing { list, phys, virt_addr } */
#define PSIZE_DEF_SIZE 96
#define CPU_SPEC_MMU_FEATURES 32
#define MMU_FTR_TYPE_RADIX 0x40
#define MMU_PAGE_4K 0
#define MMU_PAGE_16M 8

struct p64 {
	bool radix, big_endian, no_radix_line;
	bool pre_5_2;                       /* hash's 0xd and 0xf regions; VMCOREINFO of 4.18 */
	const char *damage;
	unsigned int page_shift;
	uint64_t page_size;
	unsigned int bits[4], shift[4];     /* PTE, PMD, PUD, PGD */
	uint64_t ram_size;
	uint8_t *ram;
	uint64_t next_table;                /* tables are taken from the top of RAM down */
	uint64_t root;
	uint64_t vmalloc_start, vmemmap_start;
	uint64_t block_size;                /* hash: vmemmap_list's blocks */
	unsigned int nr_blocks;
	struct vtop_facts vtop;
	uint64_t table_pages[256];          /* pages holding tables, each once */
	int ntable_pages;
	char vmcoreinfo[4096];
	size_t vmcoreinfo_len;
};

static uint8_t *p64_phys(struct p64 *p, uint64_t pa, size_t len)
{
	if (pa + len > p->ram_size || pa + len < pa)
		die("internal: physical 0x%" PRIx64 " is beyond the dump's memory", pa);
	return p->ram + pa;
}

/* The kernel's values: in its byte order. */
static void put_kernel64(const struct p64 *p, uint8_t *at, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		at[p->big_endian ? 7 - i : i] = (uint8_t)(v >> (8 * i));
}

static void put_kernel32(const struct p64 *p, uint8_t *at, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		at[p->big_endian ? 3 - i : i] = (uint8_t)(v >> (8 * i));
}

/* Page-table entries: big-endian always. */
static void put_entry(struct p64 *p, uint64_t pa, uint64_t v)
{
	uint8_t *at = p64_phys(p, pa, 8);

	for (int i = 0; i < 8; i++)
		at[7 - i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_entry(struct p64 *p, uint64_t pa)
{
	const uint8_t *at = p64_phys(p, pa, 8);
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | at[i];
	return v;
}

static uint64_t table_bytes(const struct p64 *p, int level)
{
	return 8ULL << p->bits[level];
}

/* The pages of the table at @table for @level, in the facts. */
static void p64_note_table(struct p64 *p, uint64_t table, int level)
{
	for (uint64_t page = table & ~(p->page_size - 1); page < table + table_bytes(p, level); page += p->page_size) {
		int i = 0;

		while (i < p->ntable_pages && p->table_pages[i] != page)
			i++;
		if (i < p->ntable_pages)
			continue;
		if (p->ntable_pages == (int)(sizeof(p->table_pages) / sizeof(p->table_pages[0])))
			die("internal: too many ppc64 table pages");
		p->table_pages[p->ntable_pages++] = page;
	}
}

/* A table for @level, aligned to its size: tables smaller than a page share pages. */
static uint64_t p64_table_alloc(struct p64 *p, int level)
{
	uint64_t size = table_bytes(p, level);

	p->next_table = (p->next_table - size) & ~(size - 1);
	if (p->next_table < P64_BIG_BLOCK_PHYS + (16ULL << 20))
		die("ppc64: out of RAM for page tables");
	p64_note_table(p, p->next_table, level);
	return p->next_table;
}

static uint64_t index_of(const struct p64 *p, uint64_t va, int level)
{
	return (va >> p->shift[level]) & ((1ULL << p->bits[level]) - 1);
}

/* A pointer to the table of @level: radix puts the next level's index width in the low bits. */
static uint64_t pointer_entry(const struct p64 *p, uint64_t table, int level)
{
	return E_PRESENT | table | (p->radix ? p->bits[level] : 0);
}

/* Maps @va to @pa with a leaf at @level (0: a page), tables made as needed. */
static void p64_map(struct p64 *p, uint64_t va, uint64_t pa, int level)
{
	uint64_t table = p->root;

	for (int at = 3; at > level; at--) {
		uint64_t slot = table + index_of(p, va, at) * 8, entry = get_entry(p, slot);

		if (!entry) {
			entry = pointer_entry(p, p64_table_alloc(p, at - 1), at - 1);
			put_entry(p, slot, entry);
		}
		if (entry & E_LEAF)
			die("internal: ppc64 mapping of 0x%" PRIx64 " crosses a leaf", va);
		table = entry & ~0xc0000000000000ffULL;
	}
	put_entry(p, table + index_of(p, va, level) * 8,
		  E_PRESENT | E_LEAF | pa | E_KERNEL_RW | (p->radix ? 0 : E_HASH_SLOT));
}

/* A page that starts with an address that maps it: readers can tell pages apart. */
static void p64_stamp(struct p64 *p, uint64_t pa, uint64_t va)
{
	put_kernel64(p, p64_phys(p, pa, 8), va);
}

/* Radix: the linear map in the tables, 2M leaves but for the first 2M, in pages. */
static void p64_linear(struct p64 *p)
{
	uint64_t block = 2ULL << 20;

	if (!p->radix)
		return;
	for (uint64_t off = 0; off < block; off += p->page_size)
		p64_map(p, P64_PAGE_OFFSET + off, off, 0);
	for (uint64_t off = block; off + block <= p->ram_size; off += block)
		p64_map(p, P64_PAGE_OFFSET + off, off, 1);
}

/* Single pages with holes between; radix adds a 2M and a 1G leaf beyond RAM. */
static void p64_vmalloc(struct p64 *p)
{
	for (uint64_t i = 0; i < 6; i++) {
		uint64_t va = p->vmalloc_start + 2 * i * p->page_size + (i >= 3 ? 0x3000000 : 0);
		uint64_t pa = P64_TARGETS + 5 * i * p->page_size;

		p64_map(p, va, pa, 0);
		p64_stamp(p, pa, va);
		vtop_fact(&p->vtop, va + 0x10 * i, pa + 0x10 * i);
		vtop_fail(&p->vtop, va + p->page_size);
	}
	if (!p->radix)
		return;
	for (int level = 1; level <= 2; level++) {
		uint64_t size = 1ULL << p->shift[level];
		uint64_t va = p->vmalloc_start + (4ULL << 30) * (uint64_t)level, pa = P64_FAR + size * 3;

		p64_map(p, va, pa, level);
		vtop_fact(&p->vtop, va + size / 2 + 0x1238, pa + size / 2 + 0x1238);
		vtop_fail(&p->vtop, va + size + 0x1238);
	}
}

/*
 * The struct pages of all RAM (64 bytes each) at vmemmap.  Radix: 2M
 * leaves.  Hash: vmemmap_list's blocks, newest first as the kernel adds
 * them, 4K blocks backed by pages in reverse order so that no one offset
 * translates them all, and a hotplugged block far above them.
 */
static void p64_vmemmap(struct p64 *p)
{
	uint64_t bytes = (p->ram_size >> p->page_shift) * 64, data = P64_DATA_OFFSET, head = 0;
	uint64_t block = p->radix ? 2ULL << 20 : p->block_size, nr = (bytes + block - 1) / block;
	uint64_t far_va = p->vmemmap_start + (64ULL << 30);

	if (p->radix) {
		for (uint64_t i = 0; i < nr; i++)
			p64_map(p, p->vmemmap_start + i * block, P64_VMEMMAP_PHYS + i * block, 1);
		vtop_fact(&p->vtop, p->vmemmap_start + 0x40 * 3 + 8, P64_VMEMMAP_PHYS + 0x40 * 3 + 8);
		vtop_fact(&p->vtop, p->vmemmap_start + bytes - 0x40, P64_VMEMMAP_PHYS + bytes - 0x40);
		vtop_fail(&p->vtop, p->vmemmap_start + nr * block + 0x40);
		return;
	}
	for (uint64_t i = 0; i <= nr; i++) {
		uint64_t va = i == nr ? far_va : p->vmemmap_start + i * block, node = data + V_BACKING + 24 * i;
		uint64_t pa;

		if (i == nr)
			pa = P64_FAR;
		else if (block == p->page_size)
			pa = P64_VMEMMAP_PHYS + (nr - 1 - i) * block;
		else
			pa = P64_BIG_BLOCK_PHYS + i * block;
		if (i < nr && pa + block > P64_BIG_BLOCK_PHYS + (16ULL << 20))
			die("ppc64: too much RAM for the generator's vmemmap");
		if (i < nr)
			p64_stamp(p, pa, va);
		put_kernel64(p, p64_phys(p, node, 8), head);   /* list: the older nodes */
		put_kernel64(p, p64_phys(p, node + 8, 8), pa);
		put_kernel64(p, p64_phys(p, node + 16, 8), va);
		head = P64_PAGE_OFFSET + node;
		if (i == 0 || i == nr - 1 || i == nr) {
			vtop_fact(&p->vtop, va + 0x48, pa + 0x48);
			vtop_fact(&p->vtop, va + block - 8, pa + block - 8);
		}
	}
	put_kernel64(p, p64_phys(p, data + V_VMEMMAP_LIST, 8), head);
	p->nr_blocks = (unsigned int)nr + 1;
	vtop_fail(&p->vtop, p->vmemmap_start + nr * block + 0x40);
	vtop_fail(&p->vtop, far_va - 8);
}

static void p64_image(struct p64 *p)
{
	uint64_t data = P64_DATA_OFFSET;
	unsigned int psize = p->radix || p->block_size == p->page_size ? MMU_PAGE_4K : MMU_PAGE_16M;

	for (uint64_t off = 0; off < P64_IMAGE_SIZE; off += p->page_size)
		if (off < P64_ROOT_OFFSET || off >= P64_DATA_OFFSET + (64ULL << 10))
			p64_stamp(p, off, P64_PAGE_OFFSET + off);
	put_kernel32(p, p64_phys(p, data + V_VMEMMAP_PSIZE, 4), psize);
	put_kernel32(p, p64_phys(p, data + V_PSIZE_DEFS + MMU_PAGE_4K * PSIZE_DEF_SIZE, 4), 12);
	put_kernel32(p, p64_phys(p, data + V_PSIZE_DEFS + MMU_PAGE_16M * PSIZE_DEF_SIZE, 4), 24);
	put_kernel64(p, p64_phys(p, data + V_CUR_CPU_SPEC, 8), P64_PAGE_OFFSET + data + V_CPU_SPEC);
	put_kernel32(p, p64_phys(p, data + V_CPU_SPEC + CPU_SPEC_MMU_FEATURES, 4),
		     0x1001 | (p->radix ? MMU_FTR_TYPE_RADIX : 0));
	/* vmap_area_list holding one area, at the start of vmalloc. */
	put_kernel64(p, p64_phys(p, data + V_VMAP_AREA_LIST, 8),
		     P64_PAGE_OFFSET + data + V_VMAP_AREA + VMAP_AREA_LIST_OFFSET);
	put_kernel64(p, p64_phys(p, data + V_VMAP_AREA_LIST + 8, 8),
		     P64_PAGE_OFFSET + data + V_VMAP_AREA + VMAP_AREA_LIST_OFFSET);
	put_kernel64(p, p64_phys(p, data + V_VMAP_AREA, 8), p->vmalloc_start);
	put_kernel64(p, p64_phys(p, data + V_VMAP_AREA + VMAP_AREA_LIST_OFFSET, 8),
		     P64_PAGE_OFFSET + data + V_VMAP_AREA_LIST);
	put_kernel64(p, p64_phys(p, data + V_VMAP_AREA + VMAP_AREA_LIST_OFFSET + 8, 8),
		     P64_PAGE_OFFSET + data + V_VMAP_AREA_LIST);
	vtop_fact(&p->vtop, P64_PAGE_OFFSET + 0x18, 0x18);
	vtop_fact(&p->vtop, P64_PAGE_OFFSET + 0x123458, 0x123458);
	vtop_fact(&p->vtop, P64_PAGE_OFFSET + p->ram_size / 2 + 0x777, p->ram_size / 2 + 0x777);
	vtop_fact(&p->vtop, P64_PAGE_OFFSET + p->ram_size - 8, p->ram_size - 8);
	/* Above what the tables can index: the top nibble aside, beyond their bits. */
	vtop_fail(&p->vtop, p->vmalloc_start | (1ULL << (p->shift[3] + p->bits[3])));
}

/* The loop in swapper_pg_dir's entry for _stext; the table outside memory one level below it. */
static void p64_damage(struct p64 *p)
{
	uint64_t slot = p->root + index_of(p, P64_PAGE_OFFSET, 3) * 8, entry = get_entry(p, slot), pud;

	if (!strcmp(p->damage, "loop")) {
		put_entry(p, slot, pointer_entry(p, p->root, 2));
		return;
	}
	if (entry) {
		pud = entry & ~0xc0000000000000ffULL;
	} else {
		pud = p64_table_alloc(p, 2);
		put_entry(p, slot, pointer_entry(p, pud, 2));
	}
	put_entry(p, pud + index_of(p, P64_PAGE_OFFSET, 2) * 8, pointer_entry(p, P64_FAR, 1));
}

static void p64_vmcoreinfo(struct p64 *p, const char *osrelease)
{
	uint64_t data = P64_PAGE_OFFSET + P64_DATA_OFFSET;
	int n = snprintf(p->vmcoreinfo, sizeof(p->vmcoreinfo),
			 "OSRELEASE=%s\nPAGESIZE=%" PRIu64 "\nSYMBOL(swapper_pg_dir)=%" PRIx64 "\nSYMBOL(_stext)=%" PRIx64 "\n",
			 osrelease, p->page_size, P64_PAGE_OFFSET + p->root, P64_PAGE_OFFSET);

	/* 4.18 has no VMALLOC_START or vmemmap lines: the first vmalloc area tells, as upstream reads it. */
	if (p->pre_5_2)
		n += snprintf(p->vmcoreinfo + n, sizeof(p->vmcoreinfo) - (size_t)n,
			      "SYMBOL(vmap_area_list)=%" PRIx64 "\nOFFSET(vmap_area.va_start)=0\n"
			      "OFFSET(vmap_area.list)=%d\n", data + V_VMAP_AREA_LIST, VMAP_AREA_LIST_OFFSET);
	else
		n += snprintf(p->vmcoreinfo + n, sizeof(p->vmcoreinfo) - (size_t)n,
			      "NUMBER(VMALLOC_START)=0x%" PRIx64 "\nSYMBOL(vmemmap)=%" PRIx64 "\n", p->vmalloc_start,
			      p->vmemmap_start);
	n += snprintf(p->vmcoreinfo + n, sizeof(p->vmcoreinfo) - (size_t)n,
			 "SYMBOL(vmemmap_list)=%" PRIx64 "\nSYMBOL(mmu_vmemmap_psize)=%" PRIx64
			 "\nSYMBOL(mmu_psize_defs)=%" PRIx64 "\nSIZE(vmemmap_backing)=24"
			 "\nOFFSET(vmemmap_backing.list)=0\nOFFSET(vmemmap_backing.phys)=8"
			 "\nOFFSET(vmemmap_backing.virt_addr)=16\nSIZE(mmu_psize_def)=%d"
			 "\nOFFSET(mmu_psize_def.shift)=0\nSYMBOL(cur_cpu_spec)=%" PRIx64
			 "\nOFFSET(cpu_spec.cpu_features)=16\nOFFSET(cpu_spec.mmu_features)=%d\n",
			 data + V_VMEMMAP_LIST, data + V_VMEMMAP_PSIZE, data + V_PSIZE_DEFS, PSIZE_DEF_SIZE,
			 data + V_CUR_CPU_SPEC, CPU_SPEC_MMU_FEATURES);
	if (!p->no_radix_line && !p->pre_5_2)
		n += snprintf(p->vmcoreinfo + n, sizeof(p->vmcoreinfo) - (size_t)n, "NUMBER(RADIX_MMU)=%d\n",
			      p->radix);
	n += snprintf(p->vmcoreinfo + n, sizeof(p->vmcoreinfo) - (size_t)n, "KERNELOFFSET=0\n");
	p->vmcoreinfo_len = (size_t)n;
}

/*
 * One CPU's NT_PRSTATUS, named "CORE", at @note: struct elf_prstatus of
 * 504 bytes, whose pr_reg (struct pt_regs, from byte 112) holds the MSR
 * as its word 33.  The CPU ran the kernel: 64-bit mode, translation on,
 * and the LE bit of the kernel's byte order.  Returns the note's length.
 */
static uint64_t p64_prstatus_note(struct p64 *p, uint8_t *note)
{
	uint64_t msr = (1ull << 63) | (1ull << 5) | (1ull << 4) | (p->big_endian ? 0 : 1);

	put_kernel32(p, note, 5);           /* "CORE" */
	put_kernel32(p, note + 4, P64_PRSTATUS_SIZE);
	put_kernel32(p, note + 8, 1);       /* NT_PRSTATUS */
	memcpy(note + 12, "CORE\0\0\0\0", 8);
	memset(note + 20, 0, P64_PRSTATUS_SIZE);
	put_kernel64(p, note + 20 + 112 + 33 * 8, msr);
	return 20 + P64_PRSTATUS_SIZE;
}

/*
 * kexec's layout: a CPU's NT_PRSTATUS and the VMCOREINFO note, then all
 * RAM at its linear address; zero pages left as holes.
 */
static void p64_write_elf(struct p64 *p, const char *path)
{
	uint8_t note[4096 + 64 + 20 + P64_PRSTATUS_SIZE];
	size_t notes_len = p64_prstatus_note(p, note);
	struct elf_load ram = { P64_PAGE_OFFSET, 0, p->ram_size, p->ram };

	notes_len += vmcoreinfo_note(note + notes_len, p->vmcoreinfo, p->vmcoreinfo_len, p->big_endian);
	write_elf_vmcore(path, 21 /* EM_PPC64 */, p->big_endian, p->page_size, p->page_size, note, notes_len, &ram, 1);
}

/* The index widths of the MMU and page size (6.12's, arch/ppc64.c's table). */
static void p64_shape(struct p64 *p)
{
	static const unsigned int radix_4k[] = { 9, 9, 9, 13 }, radix_64k[] = { 5, 9, 9, 13 },
				  hash_4k[] = { 9, 7, 9, 9 }, hash_64k[] = { 8, 10, 10, 8 };
	const unsigned int *bits = p->radix ? (p->page_shift == 12 ? radix_4k : radix_64k)
					    : (p->page_shift == 12 ? hash_4k : hash_64k);
	unsigned int shift = p->page_shift;

	for (int level = 0; level < 4; level++) {
		p->bits[level] = bits[level];
		p->shift[level] = shift;
		shift += bits[level];
	}
	/* KERN_VIRT_START, then vmalloc, IO and vmemmap regions of 2^49 bytes (2^44 with 4K hash) since 5.2. */
	p->vmalloc_start = !p->radix && p->page_shift == 12 ? 0xc000100000000000ULL : 0xc008000000000000ULL;
	p->vmemmap_start = p->vmalloc_start + 2 * (!p->radix && p->page_shift == 12 ? 1ULL << 44 : 1ULL << 49);
	/* Hash kernels before 5.2: vmalloc and IO in the 0xd region, vmemmap in the 0xf one. */
	if (p->pre_5_2) {
		p->vmalloc_start = 0xd000000000000000ULL;
		p->vmemmap_start = 0xf000000000000000ULL;
	}
	p->block_size = p->page_shift == 12 ? p->page_size : 16ULL << 20;
}

int ppc64_main(int argc, char **argv)
{
	struct p64 p = { .radix = true, .page_shift = 12, .ram_size = 64ULL << 20, .damage = NULL };
	const char *out = NULL, *facts = NULL, *vmcoreinfo_out = NULL, *osrelease = "6.12.0-mkvmcore-ppc64";

	for (int i = 1; i < argc; i++) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(opt, "--arch") && val && !strcmp(val, "ppc64")) {
			i++;
		} else if (!strcmp(opt, "--mmu") && val && (!strcmp(val, "radix") || !strcmp(val, "hash"))) {
			p.radix = !strcmp(val, "radix");
			i++;
		} else if (!strcmp(opt, "--page-size") && val) {
			uint64_t size = parse_num(val, "ppc64 --page-size");

			if (size != 4096 && size != 65536)
				die("ppc64: --page-size is 4K or 64K");
			p.page_shift = (unsigned int)__builtin_ctzll(size);
			i++;
		} else if (!strcmp(opt, "--big-endian")) {
			p.big_endian = true;
		} else if (!strcmp(opt, "--no-radix-line")) {
			p.no_radix_line = true;
		} else if (!strcmp(opt, "--pre-5.2")) {
			p.pre_5_2 = true;
		} else if (!strcmp(opt, "--ram") && val) {
			p.ram_size = parse_num(val, "ppc64 --ram");
			i++;
		} else if (!strcmp(opt, "--damage") && val && (!strcmp(val, "loop") || !strcmp(val, "outside"))) {
			p.damage = val;
			i++;
		} else if (!strcmp(opt, "--facts") && val) {
			facts = val;
			i++;
		} else if (!strcmp(opt, "--vmcoreinfo-out") && val) {
			vmcoreinfo_out = val;
			i++;
		} else if (!strcmp(opt, "--osrelease") && val) {
			osrelease = val;
			i++;
		} else if (opt[0] != '-' && !out) {
			out = opt;
		} else {
			die("ppc64: unknown or incomplete option '%s' (see tests/gen/gen_ppc64.c)", opt);
		}
	}
	if (p.pre_5_2 && p.radix)
		die("ppc64: --pre-5.2 is a hash MMU's layout (--mmu hash)");
	if (p.pre_5_2 && !strcmp(osrelease, "6.12.0-mkvmcore-ppc64"))
		osrelease = "4.18.0-mkvmcore-ppc64";
	if (!out)
		die("usage: mkvmcore --arch ppc64 [--mmu radix|hash] [--page-size 4K|64K] [--big-endian] "
		    "[--no-radix-line] [--pre-5.2] [--ram SIZE] [--damage loop|outside] [--facts FILE] [--vmcoreinfo-out FILE] OUT.elf");
	p.page_size = 1ULL << p.page_shift;
	if (p.ram_size < (64ULL << 20) || p.ram_size & ((2ULL << 20) - 1) || p.ram_size > (1ULL << 30))
		die("ppc64: --ram must be 2M-aligned, 64 MiB to 1 GiB");
	p64_shape(&p);
	p.ram = xcalloc(1, p.ram_size);
	p.next_table = p.ram_size;
	p.root = P64_ROOT_OFFSET;
	p64_note_table(&p, p.root, 3);

	p64_image(&p);
	p64_linear(&p);
	p64_vmalloc(&p);
	p64_vmemmap(&p);
	if (p.damage)
		p64_damage(&p);
	p64_vmcoreinfo(&p, osrelease);
	p64_write_elf(&p, out);

	if (facts) {
		FILE *f = fopen(facts, "w");

		if (!f)
			die("%s: %s", facts, strerror(errno));
		fprintf(f, "# mkvmcore --arch ppc64: %s MMU, %" PRIu64 "K pages, %s-endian\n", p.radix ? "radix" : "hash",
			p.page_size >> 10, p.big_endian ? "big" : "little");
		fprintf(f, "mmu=%s\npage_size=%" PRIu64 "\nvmemmap_blocks=%u\n", p.radix ? "radix" : "hash", p.page_size,
			p.nr_blocks);
		vtop_facts_write(f, &p.vtop);
		for (int i = 0; i < p.ntable_pages; i++)
			fprintf(f, "table_page 0x%" PRIx64 "\n", p.table_pages[i]);
		if (fclose(f))
			die("%s: %s", facts, strerror(errno));
	}
	if (vmcoreinfo_out)
		write_file_or_die(vmcoreinfo_out, p.vmcoreinfo, p.vmcoreinfo_len);
	free(p.ram);
	return 0;
}
