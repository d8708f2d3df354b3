// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mkvmcore --arch riscv64: a small riscv64 ELF vmcore for address
 * translation and for finding VMCOREINFO in memory, in Sv39, Sv48 or Sv57,
 * with the facts to check it.
 *
 *   mkvmcore --arch riscv64 [--va-bits 39|48|57] [--layout kexec|qemu]
 *            [--ram SIZE] [--damage loop|outside] [--vmcoreinfo-va-bits N]
 *            [--facts FILE] [--vmcoreinfo-out FILE] OUT.elf
 *
 * Defaults: Sv57, kexec's layout, 64 MiB of RAM at 0x80000000 (QEMU
 * virt's phys_ram_base), the kernel image 2 MiB into it (after OpenSBI's,
 * which the direct map leaves out) and mapped at KERNEL_LINK_ADDR.  It
 * holds what translation needs and no more: swapper_pg_dir in the image,
 * the direct map of RAM at the mode's PAGE_OFFSET, init_uts_ns, and the
 * VMCOREINFO lines riscv64 kernels write; no mem_map, kallsyms or log.
 *
 * The tables use every kind of leaf: 4 KiB pages, 2 MiB leaves (the
 * image's head, the direct map), 1 GiB, 512 GiB (Sv48, Sv57) and 256 TiB
 * (Sv57, in the root table) leaves in the vmalloc area, Svnapot's 64 KiB
 * groups (in the image and in vmalloc), entries with Svpbmt's memory-type
 * bits, a T-Head-style entry with bit 63 on a page whose PPN does not end
 * in binary 1000 (a plain page), and holes: an invalid entry with other
 * bits set, a reserved W-without-R leaf, freed init text.
 *
 * The kernel's VMCOREINFO note is in RAM, a page of its own as the kernel
 * allocates it (vmcoreinfo_note), in both layouts; lower in RAM lies a
 * stale note of a previous kernel (another release) that a search must
 * pass over.  --layout kexec also puts the note in the ELF, with PT_LOADs
 * at the image's and the direct map's virtual addresses; --layout qemu
 * writes QEMU's dump of a machine without fw_cfg: PT_LOADs with physical
 * addresses only, a 60 KiB boot ROM at 0x1000, no VMCOREINFO note.
 *
 * Bad input: --damage loop points _stext's root entry at the root itself;
 * --damage outside points its next-level entry at a table beyond the
 * dump's memory; --vmcoreinfo-va-bits N writes VMCOREINFO for another
 * mode (its VA_BITS and addresses) than the tables are.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mkvmcore.h"

#define RV_RAM_BASE UINT64_C(0x80000000)
#define RV_ROM_BASE UINT64_C(0x1000)
#define RV_ROM_SIZE UINT64_C(0xf000)
#define RV_PAGE UINT64_C(4096)
#define RV_IMAGE_OFFSET (UINT64_C(2) << 20)      /* _start from the start of RAM */
#define RV_IMAGE_SIZE (UINT64_C(8) << 20)
#define RV_STEXT_OFFSET UINT64_C(0x2000)
#define RV_HOLE_OFFSET (UINT64_C(3) << 20)       /* freed init text, unmapped */
#define RV_HOLE_SIZE (UINT64_C(256) << 10)
#define RV_NAPOT_OFFSET (UINT64_C(4) << 20)      /* two 64 KiB napot groups in the image */
#define RV_ROOT_OFFSET (UINT64_C(5) << 20)       /* swapper_pg_dir */
#define RV_UTS_OFFSET ((UINT64_C(5) << 20) + RV_PAGE + 0x100)
#define RV_KERNEL_LINK_ADDR UINT64_C(0xffffffff80000000)
#define RV_NOTE_FROM_TOP (UINT64_C(4) << 20)     /* vmcoreinfo_note: 4 MiB below the top of RAM */
#define RV_STALE_NOTE_ABOVE (UINT64_C(1) << 20)  /* a stale note 1 MiB above it */
#define RV_OUTSIDE UINT64_C(0x4000000000)        /* no memory of the dump is there */

#define PTE_V (UINT64_C(1) << 0)
#define PTE_R (UINT64_C(1) << 1)
#define PTE_W (UINT64_C(1) << 2)
#define PTE_X (UINT64_C(1) << 3)
#define PTE_G (UINT64_C(1) << 5)
#define PTE_A (UINT64_C(1) << 6)
#define PTE_D (UINT64_C(1) << 7)
#define PTE_KERNEL (PTE_V | PTE_R | PTE_W | PTE_G | PTE_A | PTE_D)
#define PTE_KERNEL_EXEC (PTE_KERNEL | PTE_X)
#define PTE_PBMT_IO (UINT64_C(1) << 62)
#define PTE_N (UINT64_C(1) << 63)

struct rv_mode {
	int va_bits;
	uint64_t page_offset, vmalloc_start, vmemmap_start;
};

/* Documentation/arch/riscv/vm-layout.rst */
static const struct rv_mode rv_modes[] = {
	{ 39, 0xffffffd600000000ULL, 0xffffffc600000000ULL, 0xffffffc500000000ULL },
	{ 48, 0xffffaf8000000000ULL, 0xffff8f8000000000ULL, 0xffff8d8000000000ULL },
	{ 57, 0xff60000000000000ULL, 0xff20000000000000ULL, 0xff1c000000000000ULL },
};

struct rv {
	const struct rv_mode *mode;
	int levels;
	uint64_t ram_size;
	uint8_t *ram, *rom;
	uint64_t next_table;          /* tables are taken from the top of RAM down */
	uint64_t root, text_pa, text_va, va_kernel_pa_offset, note_pa;
	bool qemu;
	struct vtop_facts vtop;
	char vmcoreinfo[4096];
	size_t vmcoreinfo_len;
};

static uint8_t *rv_phys(struct rv *r, uint64_t pa, size_t len)
{
	if (pa >= RV_RAM_BASE && pa + len <= RV_RAM_BASE + r->ram_size)
		return r->ram + (pa - RV_RAM_BASE);
	die("internal: physical 0x%" PRIx64 " is in no RAM of the dump", pa);
}

static uint64_t rv_pte(uint64_t pa, uint64_t flags)
{
	return (pa >> 12) << 10 | flags;
}

static uint64_t rv_table_alloc(struct rv *r)
{
	r->next_table -= RV_PAGE;
	if (r->next_table < r->note_pa + RV_PAGE)
		die("riscv64: out of RAM for page tables");
	return r->next_table;
}

static uint64_t rv_index(uint64_t va, int level)
{
	return (va >> (12 + 9 * level)) & 511;
}

/* The slot for @va's entry @level levels above the last, tables made as needed. */
static uint8_t *rv_slot(struct rv *r, uint64_t va, int level)
{
	uint64_t table = r->root;

	for (int l = r->levels - 1; l > level; l--) {
		uint8_t *slot = rv_phys(r, table + rv_index(va, l) * 8, 8);
		uint64_t pte = get_le64(slot);

		if (!pte) {
			pte = rv_pte(rv_table_alloc(r), PTE_V);
			put_le64(slot, pte);
		}
		if ((pte & (PTE_R | PTE_W | PTE_X)) || !(pte & PTE_V))
			die("internal: riscv64 mapping of 0x%" PRIx64 " crosses a leaf", va);
		table = ((pte >> 10) & ((UINT64_C(1) << 44) - 1)) << 12;
	}
	return rv_phys(r, table + rv_index(va, level) * 8, 8);
}

static void rv_map(struct rv *r, uint64_t va, uint64_t pa, int level, uint64_t flags)
{
	put_le64(rv_slot(r, va, level), rv_pte(pa, flags));
}

static void rv_map_pages(struct rv *r, uint64_t va, uint64_t pa, uint64_t size, uint64_t flags)
{
	for (uint64_t off = 0; off < size; off += RV_PAGE)
		rv_map(r, va + off, pa + off, 0, flags);
}

/* A napot group: 16 entries, each with the group's PPN less its low bits, ending in binary 1000. */
static void rv_map_napot(struct rv *r, uint64_t va, uint64_t pa, uint64_t flags)
{
	for (uint64_t i = 0; i < 16; i++)
		put_le64(rv_slot(r, va + i * RV_PAGE, 0), rv_pte(pa | 0x8000, flags | PTE_N));
}

/* A page that starts with an address that maps it: readers can tell pages apart. */
static void rv_stamp(struct rv *r, uint64_t pa, uint64_t va)
{
	put_le64(rv_phys(r, pa, 8), va);
}

static void rv_image(struct rv *r)
{
	uint64_t va = r->text_va, pa = r->text_pa, block = 2ULL << 20;

	/* The head: one 2 MiB leaf; then pages with a hole; napot groups; pages. */
	rv_map(r, va, pa, 1, PTE_KERNEL_EXEC);
	rv_map_pages(r, va + block, pa + block, RV_HOLE_OFFSET - block, PTE_KERNEL_EXEC);
	rv_map_pages(r, va + RV_HOLE_OFFSET + RV_HOLE_SIZE, pa + RV_HOLE_OFFSET + RV_HOLE_SIZE,
		     RV_NAPOT_OFFSET - RV_HOLE_OFFSET - RV_HOLE_SIZE, PTE_KERNEL_EXEC);
	rv_map_napot(r, va + RV_NAPOT_OFFSET, pa + RV_NAPOT_OFFSET, PTE_KERNEL);
	rv_map_napot(r, va + RV_NAPOT_OFFSET + 0x10000, pa + RV_NAPOT_OFFSET + 0x10000, PTE_KERNEL);
	rv_map_pages(r, va + RV_NAPOT_OFFSET + 0x20000, pa + RV_NAPOT_OFFSET + 0x20000,
		     RV_IMAGE_SIZE - RV_NAPOT_OFFSET - 0x20000, PTE_KERNEL);
	for (uint64_t off = 0; off < RV_IMAGE_SIZE; off += RV_PAGE)
		if ((off < RV_HOLE_OFFSET || off >= RV_HOLE_OFFSET + RV_HOLE_SIZE) && off != RV_ROOT_OFFSET)
			rv_stamp(r, pa + off, va + off);
	vtop_fact(&r->vtop, va + RV_STEXT_OFFSET + 0x18, pa + RV_STEXT_OFFSET + 0x18);
	vtop_fact(&r->vtop, va + block - 8, pa + block - 8);
	vtop_fact(&r->vtop, va + block + 0x1230, pa + block + 0x1230);
	vtop_fact(&r->vtop, va + RV_NAPOT_OFFSET + 0x5678, pa + RV_NAPOT_OFFSET + 0x5678);
	vtop_fact(&r->vtop, va + RV_NAPOT_OFFSET + 0x1fff8, pa + RV_NAPOT_OFFSET + 0x1fff8);
	vtop_fact(&r->vtop, va + RV_ROOT_OFFSET + 8, r->root + 8);
	vtop_fact(&r->vtop, va + RV_UTS_OFFSET, pa + RV_UTS_OFFSET);
	vtop_fact(&r->vtop, va + RV_IMAGE_SIZE - 8, pa + RV_IMAGE_SIZE - 8);
	vtop_fail(&r->vtop, va + RV_HOLE_OFFSET + 0x100);
	vtop_fail(&r->vtop, va + RV_IMAGE_SIZE + 0x10);
}

/* RAM but OpenSBI's first 2 MiB, in 2 MiB leaves; the image's part in pages, as STRICT_KERNEL_RWX splits it. */
static void rv_direct_map(struct rv *r)
{
	uint64_t block = 2ULL << 20, base = r->mode->page_offset;

	for (uint64_t off = block; off < r->ram_size; off += block) {
		uint64_t pa = RV_RAM_BASE + off;

		if (pa >= r->text_pa && pa < r->text_pa + RV_IMAGE_SIZE)
			rv_map_pages(r, base + off, pa, block, PTE_KERNEL);
		else
			rv_map(r, base + off, pa, 1, PTE_KERNEL);
	}
	vtop_fact(&r->vtop, base + block + 0x18, RV_RAM_BASE + block + 0x18);
	vtop_fact(&r->vtop, base + r->ram_size / 2 + 0x777, RV_RAM_BASE + r->ram_size / 2 + 0x777);
	vtop_fact(&r->vtop, base + r->ram_size - 8, RV_RAM_BASE + r->ram_size - 8);
}

/*
 * vmalloc: single pages with holes between, the kinds of entry a walk
 * must read right, and a leaf at each level above the page that the
 * mode has (256 TiB in Sv57's root).
 */
static void rv_vmalloc(struct rv *r)
{
	uint64_t area = r->mode->vmalloc_start + (UINT64_C(1) << 30), pa = RV_RAM_BASE + r->ram_size / 4;

	for (uint64_t i = 0; i < 4; i++) {
		uint64_t va = area + 2 * i * RV_PAGE, target = pa + 7 * i * RV_PAGE;

		rv_map(r, va, target, 0, PTE_KERNEL | (i == 1 ? PTE_PBMT_IO : 0) | (i == 2 ? PTE_N : 0));
		rv_stamp(r, target, va);
		vtop_fact(&r->vtop, va + 0x10 * i, target + 0x10 * i);
		vtop_fail(&r->vtop, va + RV_PAGE);
	}
	/* Not valid, with the other bits of a page; a reserved W-without-R leaf. */
	put_le64(rv_slot(r, area + 16 * RV_PAGE, 0), rv_pte(pa, PTE_KERNEL & ~PTE_V));
	vtop_fail(&r->vtop, area + 16 * RV_PAGE);
	put_le64(rv_slot(r, area + 18 * RV_PAGE, 0), rv_pte(pa, PTE_V | PTE_W));
	vtop_fail(&r->vtop, area + 18 * RV_PAGE);
	rv_map_napot(r, area + 0x40000, pa + 0x100000, PTE_KERNEL);
	vtop_fact(&r->vtop, area + 0x40000 + 0xabc8, pa + 0x100000 + 0xabc8);
	vtop_fact(&r->vtop, area + 0x4fff0, pa + 0x10fff0);

	/* 1 GiB at level 2, onto RAM's start (1 GiB-aligned); a hole after it. */
	rv_map(r, area + (UINT64_C(2) << 30), RV_RAM_BASE, 2, PTE_KERNEL);
	vtop_fact(&r->vtop, area + (UINT64_C(2) << 30) + 0x123458, RV_RAM_BASE + 0x123458);
	vtop_fail(&r->vtop, area + (UINT64_C(3) << 30) + 0x1000);
	if (r->levels >= 4) {
		/* 512 GiB at level 3, onto physical 0: RAM lies within. */
		uint64_t va = (r->mode->vmalloc_start + (UINT64_C(2) << 39)) & ~((UINT64_C(1) << 39) - 1);

		rv_map(r, va, 0, 3, PTE_KERNEL);
		vtop_fact(&r->vtop, va + RV_RAM_BASE + 0x3458, RV_RAM_BASE + 0x3458);
		vtop_fail(&r->vtop, va + (UINT64_C(1) << 39) + 0x1000);
	}
	if (r->levels == 5) {
		/* 256 TiB in the root, in vmalloc's upper half. */
		uint64_t va = 0xff40000000000000ULL;

		rv_map(r, va, 0, 4, PTE_KERNEL);
		vtop_fact(&r->vtop, va + RV_RAM_BASE + r->ram_size - 16, RV_RAM_BASE + r->ram_size - 16);
		vtop_fail(&r->vtop, va + (UINT64_C(1) << 48) + 0x1000);
	}
}

/* The module area below the image: one page. */
static void rv_modules(struct rv *r, uint64_t modules_vaddr)
{
	uint64_t pa = RV_RAM_BASE + r->ram_size / 4 + 0x200000;

	rv_map(r, modules_vaddr + 0x5000, pa, 0, PTE_KERNEL_EXEC);
	rv_stamp(r, pa, modules_vaddr + 0x5000);
	vtop_fact(&r->vtop, modules_vaddr + 0x5008, pa + 8);
	vtop_fail(&r->vtop, modules_vaddr + 0x4000);
}

/* The lines arch_crash_save_vmcoreinfo() and the generic code write, as a @mode kernel would. */
static void rv_vmcoreinfo(struct rv *r, const struct rv_mode *mode, const char *osrelease, uint64_t modules_vaddr)
{
	uint64_t stext = r->text_va + RV_STEXT_OFFSET;

	r->vmcoreinfo_len = (size_t)snprintf(r->vmcoreinfo, sizeof(r->vmcoreinfo),
		"OSRELEASE=%s\nPAGESIZE=4096\nSYMBOL(init_uts_ns)=%" PRIx64 "\nOFFSET(uts_namespace.name)=0\n"
		"SYMBOL(swapper_pg_dir)=%" PRIx64 "\nSYMBOL(_stext)=%" PRIx64 "\nSYMBOL(mem_section)=%" PRIx64
		"\nNUMBER(VMALLOC_START)=0x%" PRIx64 "\nNUMBER(phys_ram_base)=%" PRIu64 "\nNUMBER(PAGE_OFFSET)=0x%"
		PRIx64 "\nNUMBER(VMALLOC_END)=0x%" PRIx64 "\nNUMBER(VA_BITS)=%d\nNUMBER(VMEMMAP_START)=0x%" PRIx64
		"\nNUMBER(VMEMMAP_END)=0x%" PRIx64 "\nNUMBER(MODULES_VADDR)=0x%" PRIx64 "\nNUMBER(MODULES_END)=0x%"
		PRIx64 "\nNUMBER(KERNEL_LINK_ADDR)=0x%" PRIx64 "\nNUMBER(va_kernel_pa_offset)=0x%" PRIx64 "\n",
		osrelease, r->text_va + RV_UTS_OFFSET, r->text_va + RV_ROOT_OFFSET, stext,
		mode->page_offset + (UINT64_C(16) << 20) + 0x123440, mode->vmalloc_start, RV_RAM_BASE, mode->page_offset,
		mode->page_offset, mode->va_bits, mode->vmemmap_start, mode->vmalloc_start, modules_vaddr,
		RV_KERNEL_LINK_ADDR, RV_KERNEL_LINK_ADDR, r->va_kernel_pa_offset);
}

/*
 * kexec's layout: the note, the image's PT_LOAD, then RAM at the direct
 * map.  QEMU's: the boot ROM and RAM at physical addresses, no note.
 */
static void rv_write_elf(struct rv *r, const char *path)
{
	uint8_t note[4096 + 64];
	size_t notes_len = 0;
	struct elf_load loads[2] = {
		{ 0, RV_ROM_BASE, RV_ROM_SIZE, r->rom },
		{ 0, RV_RAM_BASE, r->ram_size, r->ram },
	};

	if (!r->qemu) {
		notes_len = vmcoreinfo_note(note, r->vmcoreinfo, r->vmcoreinfo_len, false);
		loads[0] = (struct elf_load){ r->text_va, r->text_pa, RV_IMAGE_SIZE, rv_phys(r, r->text_pa, RV_IMAGE_SIZE) };
		loads[1].vaddr = r->mode->page_offset;
	}
	write_elf_vmcore(path, 243 /* EM_RISCV */, false, RV_PAGE, 0, note, notes_len, loads, 2);
}

static const struct rv_mode *mode_of(int va_bits)
{
	for (size_t i = 0; i < sizeof(rv_modes) / sizeof(rv_modes[0]); i++)
		if (rv_modes[i].va_bits == va_bits)
			return &rv_modes[i];
	die("riscv64: VA_BITS %d is none of Sv39, Sv48 and Sv57", va_bits);
}

int riscv64_main(int argc, char **argv)
{
	struct rv r = { .ram_size = 64ULL << 20 };
	const char *out = NULL, *facts = NULL, *vmcoreinfo_out = NULL, *damage = NULL;
	const char *osrelease = "6.12.0-mkvmcore-riscv64";
	int va_bits = 57, said_va_bits = 0;
	uint64_t stext, modules_vaddr, stale_pa;

	for (int i = 1; i < argc; i++) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(opt, "--arch") && val && !strcmp(val, "riscv64")) {
			i++;
		} else if (!strcmp(opt, "--va-bits") && val) {
			va_bits = atoi(val);
			i++;
		} else if (!strcmp(opt, "--vmcoreinfo-va-bits") && val) {
			said_va_bits = atoi(val);
			i++;
		} else if (!strcmp(opt, "--layout") && val && (!strcmp(val, "kexec") || !strcmp(val, "qemu"))) {
			r.qemu = !strcmp(val, "qemu");
			i++;
		} else if (!strcmp(opt, "--ram") && val) {
			r.ram_size = parse_num(val, "riscv64 --ram");
			i++;
		} else if (!strcmp(opt, "--damage") && val && (!strcmp(val, "loop") || !strcmp(val, "outside"))) {
			damage = val;
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
			die("riscv64: unknown or incomplete option '%s' (see tests/gen/gen_riscv64.c)", opt);
		}
	}
	if (!out)
		die("usage: mkvmcore --arch riscv64 [--va-bits 39|48|57] [--layout kexec|qemu] [--ram SIZE] "
		    "[--damage loop|outside] [--vmcoreinfo-va-bits N] [--facts FILE] [--vmcoreinfo-out FILE] OUT.elf");
	if (r.ram_size < (UINT64_C(48) << 20) || r.ram_size > (UINT64_C(1) << 30) || r.ram_size & ((UINT64_C(2) << 20) - 1))
		die("riscv64: --ram must be 2M-aligned, 48 MiB to 1 GiB");
	r.mode = mode_of(va_bits);
	r.levels = (va_bits - 12) / 9;
	r.ram = xcalloc(1, r.ram_size);
	r.rom = xcalloc(1, RV_ROM_SIZE);
	memcpy(r.rom, "mkvmcore riscv64 boot ROM", 25);
	r.note_pa = RV_RAM_BASE + r.ram_size - RV_NOTE_FROM_TOP;
	r.next_table = RV_RAM_BASE + r.ram_size;
	r.text_pa = RV_RAM_BASE + RV_IMAGE_OFFSET;
	r.text_va = RV_KERNEL_LINK_ADDR;
	r.va_kernel_pa_offset = r.text_va - r.text_pa;
	r.root = r.text_pa + RV_ROOT_OFFSET;
	modules_vaddr = ((r.text_va + RV_IMAGE_SIZE + RV_PAGE - 1) & ~(RV_PAGE - 1)) - (UINT64_C(2) << 30);

	rv_image(&r);
	rv_direct_map(&r);
	rv_vmalloc(&r);
	rv_modules(&r, modules_vaddr);
	/* init_uts_ns.name.release, the third 65-byte field. */
	snprintf((char *)rv_phys(&r, r.text_pa + RV_UTS_OFFSET + 130, 65), 65, "%s", osrelease);
	/* Every other page of RAM below the tables starts with its direct-map address. */
	for (uint64_t pa = RV_RAM_BASE + (UINT64_C(2) << 20); pa < r.next_table; pa += RV_PAGE)
		if ((pa < r.text_pa || pa >= r.text_pa + RV_IMAGE_SIZE) && !get_le64(rv_phys(&r, pa, 8)))
			rv_stamp(&r, pa, r.mode->page_offset + (pa - RV_RAM_BASE));

	/* A previous kernel's note, left in RAM where a search meets it first: its release is not this kernel's. */
	rv_vmcoreinfo(&r, r.mode, "6.11.0-previous-riscv64", modules_vaddr);
	stale_pa = r.note_pa + RV_STALE_NOTE_ABOVE;
	if (stale_pa + RV_PAGE > r.next_table)
		die("riscv64: the page tables reach the stale note");
	memset(rv_phys(&r, stale_pa, RV_PAGE), 0, RV_PAGE);
	vmcoreinfo_note(rv_phys(&r, stale_pa, RV_PAGE), r.vmcoreinfo, r.vmcoreinfo_len, false);
	/* This kernel's, and what the ELF says (--vmcoreinfo-va-bits: another mode's lines). */
	rv_vmcoreinfo(&r, r.mode, osrelease, modules_vaddr);
	memset(rv_phys(&r, r.note_pa, RV_PAGE), 0, RV_PAGE);
	vmcoreinfo_note(rv_phys(&r, r.note_pa, RV_PAGE), r.vmcoreinfo, r.vmcoreinfo_len, false);
	if (said_va_bits)
		rv_vmcoreinfo(&r, mode_of(said_va_bits), osrelease, modules_vaddr);

	stext = r.text_va + RV_STEXT_OFFSET;
	if (damage && !strcmp(damage, "loop"))
		put_le64(rv_phys(&r, r.root + rv_index(stext, r.levels - 1) * 8, 8), rv_pte(r.root, PTE_V));
	if (damage && !strcmp(damage, "outside")) {
		uint64_t root_pte = get_le64(rv_phys(&r, r.root + rv_index(stext, r.levels - 1) * 8, 8));
		uint64_t next = ((root_pte >> 10) & ((UINT64_C(1) << 44) - 1)) << 12;

		put_le64(rv_phys(&r, next + rv_index(stext, r.levels - 2) * 8, 8), rv_pte(RV_OUTSIDE, PTE_V));
	}
	rv_write_elf(&r, out);

	if (facts) {
		FILE *f = fopen(facts, "w");

		if (!f)
			die("%s: %s", facts, strerror(errno));
		fprintf(f, "# mkvmcore --arch riscv64: Sv%d, %d levels, %s layout\n", va_bits, r.levels,
			r.qemu ? "QEMU's" : "kexec's");
		fprintf(f, "levels=%d\nnote_paddr=0x%" PRIx64 "\nstale_note_paddr=0x%" PRIx64 "\n", r.levels,
			r.note_pa, stale_pa);
		vtop_facts_write(f, &r.vtop);
		if (fclose(f))
			die("%s: %s", facts, strerror(errno));
	}
	if (vmcoreinfo_out)
		write_file_or_die(vmcoreinfo_out, r.vmcoreinfo, r.vmcoreinfo_len);
	free(r.ram);
	free(r.rom);
	return 0;
}
