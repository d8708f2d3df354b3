// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The functions of the compatibility surface that upstream keeps outside
 * kallsyms.c, btf_info.c and erase_info.c (readmem, in its makedumpfile.c),
 * on top of makedumpfile-extension.h; and the check that extension.h's
 * answers are those the host reads (extension/page_callback.h).
 */
#include "extension.h"
#include "extension/page_callback.h"
#include "makedumpfile-extension.h"
#include "makedumpfile.h"

_Static_assert((int)PG_INCLUDE == (int)CALLBACK_INCLUDE && (int)PG_EXCLUDE == (int)CALLBACK_EXCLUDE &&
		       (int)PG_UNDECID == (int)CALLBACK_UNDECIDED,
	       "extension_callback()'s answers are upstream's");

int readmem(int type_addr, unsigned long long addr, void *buf, size_t size)
{
	int err = type_addr == PADDR ? mdf_read_paddr(addr, buf, size) : mdf_read_kvaddr(addr, buf, size);

	return err ? 0 : (int)size;
}
