/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The compatibility surface for extensions written for upstream
 * makedumpfile's extension API (merged in June 2026).
 *
 * Such an extension defines
 *
 *     void extension_init(void);
 *
 * which makedumpfile calls once its declarations (kallsyms.h, btf_info.h)
 * are resolved, and may define
 *
 *     int extension_callback(unsigned long pfn, const void *pcache);
 *
 * which is called for each page frame the dump holds whose struct page
 * makedumpfile can read, pcache pointing at that struct page's bytes.  It
 * returns one of the values below.  Across extensions, one PG_INCLUDE
 * keeps the page from the dump-level rules; otherwise one PG_EXCLUDE
 * drops it (that one page) unless a rule already did; otherwise the rules
 * decide.  Pages of zeros are excluded at -d 1 whatever an extension says,
 * as in upstream.
 *
 * Unlike upstream, makedumpfile runs each extension in a process of its
 * own with a time limit: one that crashes, hangs or returns another value
 * loses its own decisions, never the dump.
 */
#ifndef MDF_EXTENSION_H
#define MDF_EXTENSION_H

#include <stdbool.h>

enum {
	PG_INCLUDE,     /* keep the page */
	PG_EXCLUDE,     /* discard the page */
	PG_UNDECID,     /* no decision: other extensions and the dump level decide */
};

#endif
