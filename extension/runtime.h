/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The side of makedumpfile that an extension talks to: the state behind
 * the functions of makedumpfile-extension.h, in the child process that
 * runs one extension.
 */
#ifndef MDF_EXTENSION_RUNTIME_H
#define MDF_EXTENSION_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

struct erase_set;
struct extension_arg;
struct extension_env;
struct mdf_extension;
struct page_decisions;

/* Different WHATs of mdf_erase_*() one extension may use. */
#define EXTENSION_MAX_ERASE_WHATS 256

/* In the parent, before the extensions' children: what they share. */
void extension_runtime_prepare(const struct extension_env *env);
/* In the parent, after the children: lets go of what they shared. */
void extension_runtime_finish(const struct extension_env *env);
/* In a child, before the extension is loaded. */
void extension_runtime_begin(const struct extension_env *env, const char *name,
			     const struct extension_arg *args, size_t nr_args);
/* The handle given to mdf_extension_init(). */
struct mdf_extension *extension_runtime_handle(void);
/* What the extension decided of pages, and what it asked to erase. */
void extension_runtime_results(struct page_decisions **decisions, struct erase_set **erase);
/*
 * mdf_erase_kvaddr() writing @fill rather than ERASE_FILL, for
 * update_filter_info_raw() of upstream's API.
 */
int extension_runtime_erase_kvaddr(uint64_t vaddr, uint64_t len, const char *what, unsigned char fill);

#endif
