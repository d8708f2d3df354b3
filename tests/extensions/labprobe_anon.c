// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A test extension built on makedumpfile-extension.h: finds the task named
 * by --extension-arg labprobe_anon:comm=NAME (default "labprobe") and
 * discards the anonymous pages it maps, or keeps them with mode=keep.  A
 * page counts when it is present in the task's page tables under one of
 * its VMAs and its struct page says anonymous (so the shared zero page,
 * mapped read-only into untouched memory, stays).  It also checks what
 * mdf_expect_kernel_symbols() promises: an empty name refused, announced
 * names answered as if asked alone, a name the kernel lacks still missing.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "makedumpfile-extension.h"

#define PAGE_MAPPING_ANON 1

struct search {
	const char *comm;
	uint64_t mm;
	int found;
};

struct marking {
	uint64_t mm;
	uint64_t mapping_offset;
	bool keep;
	uint64_t pages;
	int err;
};

static int find_task(const struct mdf_task *task, void *arg)
{
	struct search *s = arg;

	if (strcmp(task->comm, s->comm) || !task->mm)
		return 0;
	s->mm = task->mm;
	s->found++;
	return 0;
}

static int mark_vma(const struct mdf_vma *vma, void *arg)
{
	struct marking *m = arg;
	uint64_t page_size = mdf_page_size();

	for (uint64_t addr = vma->start; addr < vma->end; addr += page_size) {
		uint64_t paddr, page, mapping;
		uint64_t pfn;

		if (mdf_uvtop(m->mm, addr, &paddr))
			continue;
		pfn = paddr / page_size;
		if (mdf_pfn_to_page(pfn, &page) || mdf_read_u64(page + m->mapping_offset, &mapping) ||
		    !(mapping & PAGE_MAPPING_ANON))
			continue;
		m->err = m->keep ? mdf_keep_pfns(pfn, 1) : mdf_discard_pfns(pfn, 1);
		if (m->err)
			return m->err;
		m->pages++;
	}
	return 0;
}

static int check_expect_api(void)
{
	const char *const bad[] = { "jiffies", "" };
	const char *const names[] = { "jiffies", "no_such_symbol_anywhere" };
	uint64_t addr;

	if (mdf_expect_kernel_symbols(bad, 2) != -EINVAL || mdf_expect_kernel_symbols(names, 2) ||
	    mdf_symbol_addr("vmlinux", "jiffies", &addr) ||
	    mdf_symbol_addr("vmlinux", "no_such_symbol_anywhere", &addr) != -ENOENT) {
		mdf_log(MDF_LOG_ERROR, "mdf_expect_kernel_symbols does not keep its promises");
		return -EPROTO;
	}
	return 0;
}

int mdf_extension_init(struct mdf_extension *ext)
{
	const char *comm = mdf_extension_arg(ext, "comm");
	const char *mode = mdf_extension_arg(ext, "mode");
	struct search s = { .comm = comm ? comm : "labprobe" };
	struct marking m = { .keep = mode && !strcmp(mode, "keep") };
	int err;

	err = check_expect_api();
	if (!err)
		err = mdf_member_offset(NULL, "page", "mapping", &m.mapping_offset);
	if (!err)
		err = mdf_task_for_each(find_task, &s);
	if (err)
		return err;
	if (s.found != 1) {
		mdf_log(MDF_LOG_ERROR, "%d tasks named %s", s.found, s.comm);
		return -ENOENT;
	}
	m.mm = s.mm;
	err = mdf_vma_for_each(s.mm, mark_vma, &m);
	if (err)
		return err;
	mdf_log(MDF_LOG_INFO, "%s: %s %llu anonymous pages", s.comm, m.keep ? "keeping" : "discarding",
		(unsigned long long)m.pages);
	return 0;
}
