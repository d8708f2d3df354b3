// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "message.h"

static int message_level = ML_DEFAULT;

void msg_set_level(int level)
{
	message_level = level;
}

int msg_level(void)
{
	return message_level;
}

static void vprint(int level, const char *prefix, const char *fmt, va_list ap)
{
	if (!(message_level & level))
		return;
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

#define DEFINE_PRINTER(fn, level, prefix)        \
	void fn(const char *fmt, ...)            \
	{                                        \
		va_list ap;                      \
		va_start(ap, fmt);               \
		vprint(level, prefix, fmt, ap);  \
		va_end(ap);                      \
	}

DEFINE_PRINTER(msg_error, ML_ERROR, "makedumpfile: ")
DEFINE_PRINTER(msg_warn, ML_ERROR, "makedumpfile: warning: ")
DEFINE_PRINTER(msg_info, ML_COMMON, "")
DEFINE_PRINTER(msg_debug, ML_DEBUG, "debug: ")
DEFINE_PRINTER(msg_report, ML_REPORT, "")

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
	default:
		return strerror(err < 0 ? -err : err);
	}
}
