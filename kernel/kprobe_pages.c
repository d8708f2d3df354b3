// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kprobes copy each probed instruction into a slot of a page a cache
 * keeps: kprobe_insn_slots and, with optimized probes,
 * kprobe_optinsn_slots, each a struct kprobe_insn_cache whose `pages`
 * list holds struct kprobe_insn_page { list, insns, ... }, and whose
 * `sym` names the pages.  /proc/kallsyms prints one line per page,
 * "insns t sym [__builtin__kprobes]", the first cache's pages first, each
 * in list order.  ppc64 keeps such a page from boot on (its optprobes
 * area in the kernel text, and a page of instruction slots).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "kernel/kprobe_pages.h"
#include "memory/reader.h"
#include "util/error.h"
#include "util/message.h"

#define KPROBE_MODULE "__builtin__kprobes"
/* KSYM_NAME_LEN */
#define NAME_MAX_LEN 512
/* More pages than this on one cache is a loop in a damaged list. */
#define MAX_PAGES (1u << 20)

/* The NUL-terminated name at @vaddr, read a byte run at a time so as not to run past its page. */
static struct mdf_error *read_name(struct memory *mem, uint64_t vaddr, char *name, size_t size)
{
	for (size_t i = 0; i < size; i++) {
		struct mdf_error *err = mem_read_virt(mem, vaddr + i, name + i, 1);

		if (err)
			return err;
		if (!name[i])
			return NULL;
	}
	return mdf_error(-MDF_ECORRUPT, "the name at 0x%" PRIx64 " runs past %zu bytes", vaddr, size);
}

static struct mdf_error *list_cache(struct memory *mem, const struct kprobe_caches *l, uint64_t cache,
				    struct mdf_error *(*fn)(void *ctx, const struct ksym *sym), void *ctx,
				    bool *fn_failed)
{
	uint64_t head = cache + (uint64_t)l->cache_pages, name_ptr, node;
	char name[NAME_MAX_LEN];
	struct mdf_error *err = mem_read_u64(mem, head, &node);
	unsigned int count = 0;

	if (err || node == head)
		return err;
	err = mem_read_u64(mem, cache + (uint64_t)l->cache_sym, &name_ptr);
	if (!err)
		err = read_name(mem, name_ptr, name, sizeof(name));
	while (!err && node != head) {
		struct ksym sym = { .type = 't', .name = name, .module = KPROBE_MODULE };
		uint64_t page = node - (uint64_t)l->page_list;

		if (++count > MAX_PAGES)
			return mdf_error(-MDF_ECORRUPT, "more than %u pages: a loop?", MAX_PAGES);
		err = mem_read_u64(mem, page + (uint64_t)l->page_insns, &sym.addr);
		if (!err)
			err = mem_read_u64(mem, node, &node);
		if (err)
			break;
		err = fn(ctx, &sym);
		if (err)
			*fn_failed = true;
	}
	return err;
}

struct mdf_error *kprobe_pages_for_each(struct memory *mem, const struct kprobe_caches *caches,
					struct mdf_error *(*fn)(void *ctx, const struct ksym *sym), void *ctx)
{
	const struct {
		const char *name;
		uint64_t addr;
	} lists[] = { { "kprobe_insn_slots", caches->insn_slots }, { "kprobe_optinsn_slots", caches->optinsn_slots } };

	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		bool fn_failed = false;
		struct mdf_error *err;

		if (!lists[i].addr)
			continue;
		err = list_cache(mem, caches, lists[i].addr, fn, ctx, &fn_failed);
		if (fn_failed)
			return err;
		if (err) {
			msg_warn("%s's pages are left out of the listing: %s", lists[i].name, mdf_error_text(err));
			mdf_error_free(err);
		}
	}
	return NULL;
}
