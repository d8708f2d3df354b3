/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * This makedumpfile's version and the day it was released: `makedumpfile
 * -v` prints them in upstream's form, the pkg-config file carries the
 * version (the Makefile reads it).
 */
#ifndef MDF_UTIL_VERSION_H
#define MDF_UTIL_VERSION_H

#define MDF_VERSION "0.1.0"
#define MDF_RELEASE_DATE "5 Dec 2026"

#endif
