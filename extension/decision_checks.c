// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "extension/decision_checks.h"
#include "extension/env.h"
#include "kernel/kernel.h"
#include "kernel/mem_map.h"
#include "memory/reader.h"
#include "scan/page_scan.h"
#include "util/error.h"
#include "util/message.h"

void decision_checks_init(struct decision_checks *c, const struct extension_env *env)
{
	memset(c, 0, sizeof(*c));
	c->env = env;
}

void decision_checks_free(struct decision_checks *c)
{
	pfn_ranges_free(&c->critical);
}

static struct mdf_error *add_frames(uint64_t pfn, uint64_t count, void *arg)
{
	return pfn_ranges_add(arg, pfn, count);
}

struct table_pages {
	struct pfn_ranges *ranges;
	uint32_t page_size;
};

static struct mdf_error *add_table_page(uint64_t paddr, void *arg)
{
	struct table_pages *t = arg;

	return pfn_ranges_add(t->ranges, paddr / t->page_size, 1);
}

/*
 * Every page of the kernel's page tables; where the architecture cannot
 * list them, the top level, by the names the architectures give it.
 */
static void add_page_tables(struct decision_checks *c)
{
	static const char *const names[] = { "init_top_pgt", "swapper_pg_dir" };
	struct table_pages tables = { .ranges = &c->critical, .page_size = c->env->page_size };
	int listed = mdf_error_drop(mem_for_each_table_page(c->env->mem, add_table_page, &tables));
	uint64_t vaddr, paddr;

	if (listed != -EOPNOTSUPP)
		return;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (mdf_error_drop(kernel_symbol_address(c->env->kernel, "vmlinux", names[i], &vaddr)) ||
		    mdf_error_drop(mem_vtop(c->env->mem, vaddr, &paddr)))
			continue;
		/* Without memory, the check only warns of fewer pages. */
		mdf_error_drop(pfn_ranges_add(&c->critical, paddr / c->env->page_size, 1));
		return;
	}
}

static void find_critical(struct decision_checks *c)
{
	c->critical_found = true;
	if (c->env->mem_map)
		mdf_error_drop(mem_map_frames(c->env->mem_map, add_frames, &c->critical));
	add_page_tables(c);
	pfn_ranges_merge(&c->critical);
}

/* The first pfn of @a that is in @b, or UINT64_MAX; both merged. */
static uint64_t first_common(const struct pfn_ranges *a, const struct pfn_ranges *b, uint64_t *count)
{
	uint64_t first = UINT64_MAX;
	size_t i = 0, j = 0;

	*count = 0;
	while (i < a->count && j < b->count) {
		uint64_t lo = a->ranges[i].start > b->ranges[j].start ? a->ranges[i].start : b->ranges[j].start;
		uint64_t hi = a->ranges[i].end < b->ranges[j].end ? a->ranges[i].end : b->ranges[j].end;

		if (lo < hi) {
			if (first == UINT64_MAX)
				first = lo;
			*count += hi - lo;
		}
		if (a->ranges[i].end < b->ranges[j].end)
			i++;
		else
			j++;
	}
	return first;
}

void decision_checks_warn(struct decision_checks *c, const char *name, const struct pfn_ranges *dropped)
{
	uint64_t pages = pfn_ranges_pages(dropped), present, count, first;

	if (!pages)
		return;
	present = c->env->scan ? page_scan_present_pages(c->env->scan) : c->env->max_pfn;
	if (pages > present / 2)
		msg_warn("extension %s leaves out 0x%" PRIx64 " of the dump's 0x%" PRIx64
			 " pages, more than half", name, pages, present);
	if (!c->critical_found)
		find_critical(c);
	first = first_common(dropped, &c->critical, &count);
	if (first != UINT64_MAX)
		msg_warn("extension %s leaves out 0x%" PRIx64 " pages that hold struct pages or the kernel's "
			 "page tables (the first: pfn 0x%" PRIx64 "): tools reading the dump need them", name,
			 count, first);
}
