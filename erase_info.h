/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The compatibility surface for extensions: erasing data and deciding
 * pages, under upstream makedumpfile's names (extension API of June 2026)
 * and those of the series posted to the kexec list before it.  New
 * extensions use makedumpfile-extension.h.
 */
#ifndef MDF_ERASE_INFO_H
#define MDF_ERASE_INFO_H

#include <stdbool.h>

/*
 * Overwrites the @len bytes of kernel virtual memory at @vaddr with the
 * byte @ch in the dump written.  Returns TRUE (1), or FALSE (0) when the
 * range cannot be erased (it does not translate, or is not in the dump).
 * Unlike upstream, the dump's erase information records it, as
 * "erase EXTENSION:update_filter_info_raw size N".
 */
int update_filter_info_raw(unsigned long long vaddr, int ch, int len);

/*
 * The series posted before upstream's: registers [pfn, pfn + num) to
 * discard (or, to_discard false, to keep).
 */
bool update_filter_pages_info(unsigned long pfn, unsigned long num, bool to_discard);

#endif
