// SPDX-License-Identifier: GPL-2.0-or-later
/* A test extension that discards every page frame up to the kernel's max_pfn. */
#include "makedumpfile-extension.h"

int mdf_extension_init(struct mdf_extension *ext)
{
	uint64_t addr, max_pfn;
	int err;

	(void)ext;
	err = mdf_symbol_addr("vmlinux", "max_pfn", &addr);
	if (!err)
		err = mdf_read_u64(addr, &max_pfn);
	return err ? err : mdf_discard_pfns(0, max_pfn);
}
