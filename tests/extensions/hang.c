// SPDX-License-Identifier: GPL-2.0-or-later
/* A test extension that never returns from mdf_extension_init(). */
#include "makedumpfile-extension.h"

int mdf_extension_init(struct mdf_extension *ext)
{
	(void)ext;
	mdf_discard_pfns(0x1000, 16);
	for (;;)
		;
}
