/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Errors as values, in the spirit of drgn's struct drgn_error.  A function
 * that can fail returns a struct mdf_error * (NULL on success) that says
 * what went wrong and where; each caller on the way up may add what it
 * was doing (mdf_error_wrap), act on the code, or drop the error; the top
 * prints it once (mdf_error_print) at the level it chooses.
 *
 * Reads of the dump fail often and for plain reasons (a page the dump
 * left out, an address no page table maps): those come as shared errors
 * that cost no allocation (mdf_error_excluded, ...), with no message of
 * their own; the caller knows what it was reading and wraps them.
 */
#ifndef MDF_UTIL_ERROR_H
#define MDF_UTIL_ERROR_H

#include <stdbool.h>

#include "util/message.h"

struct mdf_error {
	int code;             /* a negative errno, MDF_E* among them */
	char *message;        /* NULL: nothing more to say than the code's words */
	bool shared;          /* one of the errors below: never freed */
};

/* Shared errors, never freed: no memory (also for an error), and the reads' plain reasons. */
extern struct mdf_error mdf_error_enomem;
extern struct mdf_error mdf_error_excluded;    /* -MDF_EEXCLUDED */
extern struct mdf_error mdf_error_not_dumped;  /* -MDF_ENOTDUMPED */
extern struct mdf_error mdf_error_unmapped;    /* -MDF_EUNMAPPED */
/*
 * -ENOENT: a lookup (a VMCOREINFO line, a symbol, a type, a member, a
 * struct page) found nothing of that name; the caller says what it looked
 * for.  The extension API answers -ENOENT for the same.
 */
extern struct mdf_error mdf_error_not_found;
/* -EAGAIN: pages asked for in one piece of the file are not all there in one: read them one by one. */
extern struct mdf_error mdf_error_not_contiguous;

/* A new error of @code (negative) saying @fmt; never NULL. */
struct mdf_error *mdf_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An error of @code with nothing more to say: mdf_strerror() words it. */
struct mdf_error *mdf_error_code(int code);
/* Puts "@fmt: " before @err's message; returns @err, or a new error for a shared one. */
struct mdf_error *mdf_error_wrap(struct mdf_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A copy, for an error kept and handed out again (NULL for NULL). */
struct mdf_error *mdf_error_copy(const struct mdf_error *err);
void mdf_error_free(struct mdf_error *err);

/* What @err says: its message, or its code's words. */
const char *mdf_error_text(const struct mdf_error *err);

/*
 * Prints "makedumpfile: TEXT" (@as_warning: "makedumpfile: warning:
 * TEXT") at the error message level, frees @err and returns its code;
 * nothing and 0 for NULL.
 */
int mdf_error_print(struct mdf_error *err, bool as_warning);

/*
 * For a caller that counts plain failures (the shared errors above, with
 * nothing to say beyond their code) and reports the others: prints @err
 * only when it has a message of its own, frees it and returns its code
 * (0 for NULL).
 */
int mdf_error_print_unless_plain(struct mdf_error *err);

/* Frees @err and returns its code (0 for NULL): for a caller that acts on the code alone. */
int mdf_error_drop(struct mdf_error *err);

/*
 * Whether @err says a lookup found nothing, as opposed to failing.  An
 * address in none of the dump's ranges (mdf_error_not_dumped) is one too.
 */
static inline bool mdf_error_is_not_found(const struct mdf_error *err)
{
	return err && err->code == -ENOENT;
}

#endif
