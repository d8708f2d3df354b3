// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The same job as labprobe_anon.c, written only with the names of the
 * extension API of the series posted to the kexec list (kallsyms.h,
 * btf_info.h, erase_info.h, makedumpfile.h), acting from a constructor:
 * the task list is followed with next_list(), and the task's page tables
 * are walked here, with readmem(), over the user half of a 4-level
 * address space (5-level kernels are out of this test's scope).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "btf_info.h"
#include "erase_info.h"
#include "kallsyms.h"
#include "makedumpfile.h"

#define PRESENT 0x1ull
#define LARGE 0x80ull
#define ADDR_MASK 0x000ffffffffff000ull
#define PAGE_SIZE 4096ull
#define PAGE_MAPPING_ANON 1ull

static uint64_t vmemmap, page_size_struct, mapping_offset;

static void mark(uint64_t pfn, uint64_t count)
{
	for (uint64_t i = 0; i < count; i++) {
		unsigned long mapping;

		if (!readmem(VADDR, vmemmap + (pfn + i) * page_size_struct + mapping_offset, &mapping,
			     sizeof(mapping)))
			continue;
		if (mapping & PAGE_MAPPING_ANON)
			update_filter_pages_info(pfn + i, 1, true);
	}
}

/* Level 4 is the PGD; user addresses use its lower half. */
static void walk(uint64_t table, int level, bool is_kernel_va)
{
	uint64_t entries[512];
	int count = level == 4 ? 256 : 512;

	if (!readmem(is_kernel_va ? VADDR : PADDR, table, entries, sizeof(entries)))
		return;
	for (int i = 0; i < count; i++) {
		uint64_t e = entries[i];

		if (!(e & PRESENT))
			continue;
		if (level == 1)
			mark((e & ADDR_MASK) / PAGE_SIZE, 1);
		else if (level == 2 && (e & LARGE))
			mark((e & ADDR_MASK & ~0x1fffffull) / PAGE_SIZE, 512);
		else if (level == 3 && (e & LARGE))
			mark((e & ADDR_MASK & ~0x3fffffffull) / PAGE_SIZE, 512 * 512);
		else
			walk(e & ADDR_MASK, level - 1, false);
	}
}

__attribute__((constructor)) static void labprobe_anon_compat(void)
{
	struct struct_member_info smi;
	INIT_STRUCT_MEMBER(task_struct, tasks);
	INIT_STRUCT_MEMBER(task_struct, comm);
	INIT_STRUCT_MEMBER(task_struct, mm);
	INIT_STRUCT_MEMBER(mm_struct, pgd);
	INIT_STRUCT_MEMBER(page, mapping);
	INIT_STRUCT(page);
	uint64_t init_task = get_kallsyms_value_by_name("init_task");
	uint64_t vmemmap_base = get_kallsyms_value_by_name("vmemmap_base");
	uint64_t head, node;
	unsigned int seen = 0;

	if (!init_task || !vmemmap_base || !GET_STRUCT_SSIZE(page) ||
	    !readmem(VADDR, vmemmap_base, &vmemmap, sizeof(vmemmap)))
		return;
	page_size_struct = GET_STRUCT_SSIZE(page);
	mapping_offset = GET_STRUCT_MEMBER_MOFF(page, mapping) / 8;
	head = init_task + GET_STRUCT_MEMBER_MOFF(task_struct, tasks) / 8;
	for (node = next_list(head); node && node != head && seen < 100000; node = next_list(node), seen++) {
		uint64_t task = node - GET_STRUCT_MEMBER_MOFF(task_struct, tasks) / 8;
		char comm[16];
		unsigned long mm, pgd;

		if (!readmem(VADDR, task + GET_STRUCT_MEMBER_MOFF(task_struct, comm) / 8, comm, sizeof(comm)) ||
		    strncmp(comm, "labprobe", sizeof(comm)))
			continue;
		if (!readmem(VADDR, task + GET_STRUCT_MEMBER_MOFF(task_struct, mm) / 8, &mm, sizeof(mm)) || !mm ||
		    !readmem(VADDR, mm + GET_STRUCT_MEMBER_MOFF(mm_struct, pgd) / 8, &pgd, sizeof(pgd)))
			return;
		walk(pgd, 4, true);
		return;
	}
}
