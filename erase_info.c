// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * erase_info.h's functions for extensions written for upstream
 * makedumpfile or for the series posted to the kexec list, on top of
 * makedumpfile-extension.h and the extension runtime.
 */
#include "erase_info.h"
#include "extension/runtime.h"
#include "makedumpfile-extension.h"

int update_filter_info_raw(unsigned long long vaddr, int ch, int len)
{
	if (len <= 0)
		return 0;
	return !extension_runtime_erase_kvaddr(vaddr, (uint64_t)len, "update_filter_info_raw", (unsigned char)ch);
}

bool update_filter_pages_info(unsigned long pfn, unsigned long num, bool to_discard)
{
	return !(to_discard ? mdf_discard_pfns(pfn, num) : mdf_keep_pfns(pfn, num));
}
