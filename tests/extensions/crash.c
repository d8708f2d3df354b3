// SPDX-License-Identifier: GPL-2.0-or-later
/* A test extension that crashes in its constructor, after registering a range. */
#include <stddef.h>

#include "makedumpfile-extension.h"

__attribute__((constructor)) static void crash(void)
{
	volatile int *nowhere = NULL;

	mdf_discard_pfns(0x1000, 16);
	*nowhere = 1;
}
