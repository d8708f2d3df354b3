// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * erase_info.h's functions for extensions written for upstream makedumpfile
 * or for the series posted to the kexec list, on top of
 * makedumpfile-extension.h.
 */
#include "erase_info.h"
#include "makedumpfile-extension.h"

bool update_filter_pages_info(unsigned long pfn, unsigned long num, bool to_discard)
{
	return !(to_discard ? mdf_discard_pfns(pfn, num) : mdf_keep_pfns(pfn, num));
}
