// SPDX-License-Identifier: GPL-2.0-or-later
/* A test extension that registers page frames far beyond any dump. */
#include "makedumpfile-extension.h"

int mdf_extension_init(struct mdf_extension *ext)
{
	(void)ext;
	mdf_discard_pfns(0x1000, 16);
	return mdf_discard_pfns(1ull << 50, 4);
}
