/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Messages on stderr, filtered by upstream makedumpfile's message levels,
 * and the error codes every module returns.
 *
 * Functions return 0 on success or a negative errno value.  A few values
 * carry a meaning specific to crash dumps; mdf_strerror() words them.
 */
#ifndef MDF_UTIL_MESSAGE_H
#define MDF_UTIL_MESSAGE_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>

/* Message level bits, as upstream's --message-level. */
#define ML_PROGRESS 0x01
#define ML_COMMON 0x02
#define ML_ERROR 0x04
#define ML_DEBUG 0x08
#define ML_REPORT 0x10
#define ML_DEFAULT (ML_PROGRESS | ML_COMMON | ML_ERROR)
#define ML_MAX 0x1f

/* The page is not in the dump: it was excluded when the dump was filtered. */
#define MDF_EEXCLUDED ENODATA
/* The physical address lies in no memory range of the dump. */
#define MDF_ENOTDUMPED ENOENT
/* The kernel page tables do not map the virtual address. */
#define MDF_EUNMAPPED EFAULT
/* Data in the dump contradicts its own format or the kernel's. */
#define MDF_ECORRUPT EBADMSG
/*
 * A page the dump holds but cannot give (an I/O error, data that does not
 * decompress): the page source zeroed it and keeps what went wrong.
 */
#define MDF_EUNREADABLE EUCLEAN
/* The vmlinux given (-x) is not the dump's kernel: upstream exits with status 2 for it. */
#define MDF_EWRONGKERNEL EMEDIUMTYPE

void msg_set_level(int level);
int msg_level(void);
/*
 * Common, debug and report messages go to stdout, as upstream's do, unless
 * stdout carries data (a flattened dump, a listing): then to stderr.
 */
void msg_set_stdout_is_data(bool is_data);
bool msg_stdout_is_data(void);
/*
 * Messages to @out and @err instead of stdout and stderr: for a process
 * whose stdout and stderr belong to someone else (an extension's child).
 */
void msg_set_streams(FILE *out, FILE *err);

/* What went wrong, where; always printed unless errors are masked. */
void msg_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void msg_report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A description of a status returned by this project's functions. */
const char *mdf_strerror(int err);

#endif
