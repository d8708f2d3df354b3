/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The compatibility surface for extensions: what they decide of page
 * frames, under the names extensions written for upstream makedumpfile or
 * for the series posted to the kexec list call (they include
 * "../erase_info.h").  New extensions use makedumpfile-extension.h.
 */
#ifndef MDF_ERASE_INFO_H
#define MDF_ERASE_INFO_H

#include <stdbool.h>

/*
 * For extensions written against the series posted to the kexec list:
 * registers [pfn, pfn + num) to discard (or, to_discard false, to keep).
 * New extensions use makedumpfile-extension.h.
 */
bool update_filter_pages_info(unsigned long pfn, unsigned long num, bool to_discard);

#endif
