/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The compatibility surface for extensions written for upstream
 * makedumpfile's extension API (merged in June 2026) or for the series
 * posted to the kexec list before it.  Such an extension includes
 * "../makedumpfile.h" and the headers beside it (kallsyms.h, btf_info.h,
 * extension.h, erase_info.h) and is linked with makedumpfile.ld:
 *
 *     cc -O2 -g -fPIC -shared -Wl,-T,../makedumpfile.ld -o X.so X.c
 *
 * This header gives such an extension what upstream's makedumpfile.h
 * gives it: the C library headers it relies on without naming them, the
 * address types of readmem(), the message macros and a few of upstream's
 * common definitions.  New extensions use makedumpfile-extension.h, whose
 * calls return errors and bound their walks.
 */
#ifndef MDF_MAKEDUMPFILE_H
#define MDF_MAKEDUMPFILE_H

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#ifndef TRUE
#define TRUE (1)
#define FALSE (0)
#endif
#define ERROR (-1)
#ifndef ULONGLONG_MAX
#define ULONGLONG_MAX (~0ULL)
#endif
#ifndef MAX
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif
#define divideup(x, y) (((x) + ((y) - 1)) / (y))
#define roundup(x, y) ((((x) + ((y) - 1)) / (y)) * (y))

/* Address types of readmem(), with upstream's values. */
enum {
	VADDR,
	PADDR,
	VADDR_XEN,
};

/*
 * Reads @size bytes of the crashed kernel's memory at @addr, a kernel
 * virtual (VADDR) or physical (PADDR) address.  Returns @size, or 0 when
 * any of it cannot be read.
 */
int readmem(int type_addr, unsigned long long addr, void *buf, size_t size);

/* Values at a buffer address. */
#define ULONG(ADDR) (*(unsigned long *)(ADDR))
#define ULONGLONG(ADDR) (*(unsigned long long *)(ADDR))
#define UINT(ADDR) (*(unsigned int *)(ADDR))
#define INT(ADDR) (*(int *)(ADDR))
#define USHORT(ADDR) (*(unsigned short *)(ADDR))
#define UCHAR(ADDR) (*(unsigned char *)(ADDR))
#define VOID_PTR(ADDR) (*(void **)(ADDR))

/*
 * Messages.  --message-level sets message_level, whose bits choose what
 * is printed; flag_strerr_message sends common messages to stderr (set
 * when stdout carries the dump, as with -F).  makedumpfile sets both
 * before it loads an extension.
 */
extern int message_level;
extern int flag_strerr_message;

#define ML_PRINT_PROGRESS (0x001)
#define ML_PRINT_COMMON_MSG (0x002)
#define ML_PRINT_ERROR_MSG (0x004)
#define ML_PRINT_DEBUG_MSG (0x008)
#define ML_PRINT_REPORT_MSG (0x010)

/* Printed to stdout, or to stderr when flag_strerr_message is set. */
#define MDF_PRINT_AT_LEVEL_(bit, ...)                                        \
	do {                                                                 \
		if (message_level & (bit))                                   \
			fprintf(flag_strerr_message ? stderr : stdout,       \
				__VA_ARGS__);                                \
	} while (0)

#define MSG(...) MDF_PRINT_AT_LEVEL_(ML_PRINT_COMMON_MSG, __VA_ARGS__)
#define DEBUG_MSG(...) MDF_PRINT_AT_LEVEL_(ML_PRINT_DEBUG_MSG, __VA_ARGS__)
#define REPORT_MSG(...) MDF_PRINT_AT_LEVEL_(ML_PRINT_REPORT_MSG, __VA_ARGS__)
/* Always to stderr; errors name the function that reports them. */
#define ERRMSG(...)                                                          \
	do {                                                                 \
		if (message_level & ML_PRINT_ERROR_MSG) {                    \
			fprintf(stderr, "%s: ", __func__);                   \
			fprintf(stderr, __VA_ARGS__);                        \
		}                                                            \
	} while (0)
#define PROGRESS_MSG(...)                                                    \
	do {                                                                 \
		if (message_level & ML_PRINT_PROGRESS)                       \
			fprintf(stderr, __VA_ARGS__);                        \
	} while (0)

#endif
