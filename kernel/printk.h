/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --dump-dmesg: the crashed kernel's log, from its memory, in upstream
 * makedumpfile's format: one line per record,
 *
 *   [    5.123456] text
 *
 * the seconds right-aligned in five columns, then microseconds; a newline
 * inside a record continues on a line indented as far as the text; a byte
 * that is neither printable nor white space as "\xNN" (upstream prints a
 * byte of 0x80 or more through a signed char: "\xffffffNN", and so does
 * this).
 *
 * Three layouts of the log, chosen by what VMCOREINFO describes:
 *   - the lockless ring buffer of kernels 5.10 and later (SYMBOL(prb));
 *   - the record buffer of kernels 3.5 to 5.9 (SYMBOL(log_buf) with
 *     log_first_idx and log_next_idx, struct printk_log or log);
 *   - the plain text buffer before 3.5 (log_buf, log_end), copied as is.
 */
#ifndef MDF_KERNEL_PRINTK_H
#define MDF_KERNEL_PRINTK_H

#include <stdbool.h>
#include <stdio.h>

struct memory;
struct kernel;
struct mdf_error;

/*
 * Writes the log to @out (@out_name names it in messages); with
 * @since_clear (--partial-dmesg) only the records since it was last
 * cleared (dmesg --clear): from clear_seq, or clear_idx before 5.10; the
 * plain text buffer before 3.5 is written whole.  A write error of @out
 * is the caller's to find when it flushes.
 */
struct mdf_error *printk_dump(struct memory *mem, struct kernel *k, bool since_clear, FILE *out,
			      const char *out_name);

#endif
