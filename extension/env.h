/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the extensions are given: the readers of the dump they walk, where
 * their erasures go, and the --extension-arg values.  The loader
 * (host.h) fills it, the runtime behind makedumpfile-extension.h
 * (runtime.h) reads the dump through it in each child, and the warnings
 * of decision_checks.h measure what an extension drops against it.
 */
#ifndef MDF_EXTENSION_ENV_H
#define MDF_EXTENSION_ENV_H

#include <stdint.h>

struct erase_set;
struct kernel;
struct mem_map;
struct memory;
struct page_scan;

/* --extension-arg NAME:KEY=VALUE */
struct extension_arg {
	const char *extension;   /* NAME */
	const char *key;
	const char *value;
};

struct extension_env {
	struct memory *mem;
	struct kernel *kernel;
	struct page_scan *scan;  /* for extension_callback(); the children's copies move it */
	const struct mem_map *mem_map;
	uint32_t page_size;
	uint64_t max_pfn;
	/*
	 * Where the extensions' erasures go, each entry named "EXTENSION:WHAT".
	 * NULL in a run that erases nothing: an extension's requests are then
	 * dropped, with a warning.
	 */
	struct erase_set *erase;
};

#endif
