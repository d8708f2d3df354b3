// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

struct mdf_error mdf_error_enomem = { .code = -ENOMEM, .shared = true };
struct mdf_error mdf_error_excluded = { .code = -MDF_EEXCLUDED, .shared = true };
struct mdf_error mdf_error_not_dumped = { .code = -MDF_ENOTDUMPED, .shared = true };
struct mdf_error mdf_error_unmapped = { .code = -MDF_EUNMAPPED, .shared = true };
struct mdf_error mdf_error_not_found = { .code = -ENOENT, .shared = true };
struct mdf_error mdf_error_not_contiguous = { .code = -EAGAIN, .shared = true };

static struct mdf_error *new_error(int code, char *message)
{
	struct mdf_error *err;

	if (code == -ENOMEM && !message)
		return &mdf_error_enomem;
	err = calloc(1, sizeof(*err));
	if (!err) {
		free(message);
		return &mdf_error_enomem;
	}
	err->code = code;
	err->message = message;
	return err;
}

struct mdf_error *mdf_error(int code, const char *fmt, ...)
{
	char *message;
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vasprintf(&message, fmt, ap);
	va_end(ap);
	return new_error(code, len < 0 ? NULL : message);
}

struct mdf_error *mdf_error_code(int code)
{
	return new_error(code, NULL);
}

struct mdf_error *mdf_error_wrap(struct mdf_error *err, const char *fmt, ...)
{
	char *context, *message;
	va_list ap;
	int len;

	if (err == &mdf_error_enomem)
		return err;
	va_start(ap, fmt);
	len = vasprintf(&context, fmt, ap);
	va_end(ap);
	if (len < 0)
		return err;
	len = asprintf(&message, "%s: %s", context, mdf_error_text(err));
	free(context);
	if (len < 0)
		return err;
	if (err->shared)
		return new_error(err->code, message);
	free(err->message);
	err->message = message;
	return err;
}

struct mdf_error *mdf_error_copy(const struct mdf_error *err)
{
	char *message;

	if (!err || err->shared)
		return (struct mdf_error *)err;
	message = err->message ? strdup(err->message) : NULL;
	if (err->message && !message)
		return &mdf_error_enomem;
	return new_error(err->code, message);
}

void mdf_error_free(struct mdf_error *err)
{
	if (!err || err->shared)
		return;
	free(err->message);
	free(err);
}

const char *mdf_error_text(const struct mdf_error *err)
{
	return err->message ? err->message : mdf_strerror(err->code);
}

int mdf_error_print(struct mdf_error *err, bool as_warning)
{
	int code;

	if (!err)
		return 0;
	code = err->code;
	if (as_warning)
		msg_warn("%s", mdf_error_text(err));
	else
		msg_error("%s", mdf_error_text(err));
	mdf_error_free(err);
	return code;
}

int mdf_error_print_unless_plain(struct mdf_error *err)
{
	if (err && err->message)
		return mdf_error_print(err, false);
	return mdf_error_drop(err);
}

int mdf_error_drop(struct mdf_error *err)
{
	int code = err ? err->code : 0;

	mdf_error_free(err);
	return code;
}
