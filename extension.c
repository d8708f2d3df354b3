// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The functions of the compatibility surface that upstream keeps outside
 * kallsyms.c, btf_info.c and erase_info.c (readmem, in its makedumpfile.c),
 * on top of makedumpfile-extension.h.
 */
#include "extension.h"
#include "makedumpfile-extension.h"
#include "makedumpfile.h"

int readmem(int type_addr, unsigned long long addr, void *buf, size_t size)
{
	int err = type_addr == PADDR ? mdf_read_paddr(addr, buf, size) : mdf_read_kvaddr(addr, buf, size);

	return err ? 0 : (int)size;
}
