// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/message.h"

/*
 * The one level of the process.  Its name is upstream's: the message
 * macros of the extensions' makedumpfile.h read it (and an extension may
 * set it, in its own process), so it is exported, not static.
 */
int message_level = ML_DEFAULT;
static bool stdout_is_data;
/* Where messages go when not to stdout and stderr (msg_set_streams). */
static FILE *out_stream, *err_stream;

void msg_set_level(int level)
{
	message_level = level;
}

int msg_level(void)
{
	return message_level;
}

void msg_set_stdout_is_data(bool is_data)
{
	stdout_is_data = is_data;
}

bool msg_stdout_is_data(void)
{
	return stdout_is_data;
}

void msg_set_streams(FILE *out, FILE *err)
{
	out_stream = out;
	err_stream = err;
}

static void vprint(int level, bool to_stdout, const char *prefix, const char *fmt, va_list ap)
{
	FILE *std_out = out_stream ? out_stream : stdout, *std_err = err_stream ? err_stream : stderr;
	FILE *out = to_stdout && !stdout_is_data ? std_out : std_err;

	if (!(message_level & level))
		return;
	/* Keep the order of stdout and stderr lines on a shared terminal. */
	if (out == std_err)
		fflush(std_out);
	fputs(prefix, out);
	vfprintf(out, fmt, ap);
	fputc('\n', out);
}

#define DEFINE_PRINTER(fn, level, to_stdout, prefix)        \
	void fn(const char *fmt, ...)                       \
	{                                                   \
		va_list ap;                                 \
		va_start(ap, fmt);                          \
		vprint(level, to_stdout, prefix, fmt, ap);  \
		va_end(ap);                                 \
	}

DEFINE_PRINTER(msg_error, ML_ERROR, false, "makedumpfile: ")
DEFINE_PRINTER(msg_warn, ML_ERROR, false, "makedumpfile: warning: ")
DEFINE_PRINTER(msg_info, ML_COMMON, true, "")
DEFINE_PRINTER(msg_debug, ML_DEBUG, true, "")
DEFINE_PRINTER(msg_report, ML_REPORT, true, "")

const char *mdf_strerror(int err)
{
	switch (err < 0 ? -err : err) {
	case MDF_EEXCLUDED:
		return "page excluded from the dump";
	case MDF_ENOTDUMPED:
		return "address not in the dump's memory";
	case MDF_EUNMAPPED:
		return "virtual address not mapped by the kernel page tables";
	case MDF_ECORRUPT:
		return "corrupt data";
	case MDF_EUNREADABLE:
		return "page unreadable in the dump";
	case MDF_EWRONGKERNEL:
		return "the vmlinux is not the dump's kernel";
	default:
		return strerror(err < 0 ? -err : err);
	}
}
