/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The pages kprobes keep their copied instructions in: /proc/kallsyms
 * lists each, after the modules' symbols, as a text symbol of the module
 * "__builtin__kprobes" (kernel/kprobes.c, kprobe_get_kallsym()).
 */
#ifndef MDF_KERNEL_KPROBE_PAGES_H
#define MDF_KERNEL_KPROBE_PAGES_H

#include <stdint.h>

#include "kernel/kallsyms.h"

struct memory;
struct mdf_error;

/* Where the caches are, and the members read: the kernel's symbols and types. */
struct kprobe_caches {
	uint64_t insn_slots;       /* kprobe_insn_slots, or 0 */
	uint64_t optinsn_slots;    /* kprobe_optinsn_slots, or 0 */
	int64_t cache_pages, cache_sym;      /* kprobe_insn_cache.pages, .sym */
	int64_t page_list, page_insns;       /* kprobe_insn_page.list, .insns */
};

/*
 * Calls @fn with each page's symbol, in /proc/kallsyms' order.  A list
 * that cannot be read is warned of and left; @fn's error is returned.
 */
struct mdf_error *kprobe_pages_for_each(struct memory *mem, const struct kprobe_caches *caches,
					struct mdf_error *(*fn)(void *ctx, const struct ksym *sym), void *ctx);

#endif
