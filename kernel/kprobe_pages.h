/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The pages kprobes keep their copied instructions in: /proc/kallsyms
 * lists each, after the modules' symbols, as a text symbol of the module
 * "__builtin__kprobes" (kernel/kprobes.c, kprobe_get_kallsym()).
 */
#ifndef MDF_KERNEL_KPROBE_PAGES_H
#define MDF_KERNEL_KPROBE_PAGES_H

#include "kernel/kallsyms.h"

struct kernel;
struct memory;
struct mdf_error;

/*
 * Calls @fn with each page's symbol, in /proc/kallsyms' order; nothing
 * for a kernel whose symbols or types do not locate the caches.  A list
 * that cannot be read is warned of and left; @fn's error is returned.
 */
struct mdf_error *kprobe_pages_for_each(struct kernel *k, struct memory *mem,
					struct mdf_error *(*fn)(void *ctx, const struct ksym *sym), void *ctx);

#endif
