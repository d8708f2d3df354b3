/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The compatibility surface for extensions: reading the dump's memory
 * under the names extensions written for upstream makedumpfile or for the
 * series posted to the kexec list use (they include "../makedumpfile.h").
 * New extensions use makedumpfile-extension.h.
 */
#ifndef MDF_MAKEDUMPFILE_H
#define MDF_MAKEDUMPFILE_H

/*
 * For extensions written against the series posted to the kexec list:
 * readmem(VADDR, addr, buf, size) returns size on success and 0 on failure,
 * as upstream's; the accessors read a value at a buffer address.  New
 * extensions use makedumpfile-extension.h.
 */
#include <stddef.h>

#define PADDR 1
#define VADDR 2
#define ULONG(ADDR) (*(unsigned long *)(ADDR))
#define UINT(ADDR) (*(unsigned int *)(ADDR))
#define VOID_PTR(ADDR) (*(void **)(ADDR))

int readmem(int type_addr, unsigned long long addr, void *buf, size_t size);

#endif
