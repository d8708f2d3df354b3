/* SPDX-License-Identifier: GPL-2.0-or-later */
/* This makedumpfile's version: `makedumpfile -v`, the pkg-config file (the Makefile reads it). */
#ifndef MDF_UTIL_VERSION_H
#define MDF_UTIL_VERSION_H

#define MDF_VERSION "0.1.0"

#endif
