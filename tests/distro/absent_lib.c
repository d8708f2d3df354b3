// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A test extension linked against a library that is not installed
 * (libmdfabsent.so.1, built only to link this): loading it fails, and
 * with it only itself.
 */
#include "makedumpfile-extension.h"

int mdf_absent_function(void);

int mdf_extension_init(struct mdf_extension *ext)
{
	(void)ext;
	return mdf_absent_function();
}
