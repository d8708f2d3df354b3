/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The compatibility surface for extensions written for upstream
 * makedumpfile's extension API (they include "../extension.h").  What
 * they call is implemented in extension.c, on top of
 * makedumpfile-extension.h; the extension host itself is extension/.
 */
#ifndef MDF_EXTENSION_H
#define MDF_EXTENSION_H

#endif
