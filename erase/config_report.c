// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the resolver says, each message naming the config's line: a
 * command it cannot resolve in this dump is an error the statement's
 * runner prints as a warning and goes on from; only the erase set's own
 * failures (no memory, too many pieces) are fatal and stop the run.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "erase/config_internal.h"
#include "util/error.h"
#include "util/message.h"

bool config_error_is_fatal(const struct mdf_error *err)
{
	return err && (err->code == -ENOMEM || err->code == -E2BIG);
}

struct mdf_error *config_unresolved(const struct resolver *r, int code, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	return mdf_error(code, "%s:%u: %s", r->cfg->path, r->line, text);
}

void config_warn(const struct resolver *r, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	msg_warn("%s:%u: %s", r->cfg->path, r->line, text);
}
