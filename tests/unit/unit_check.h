// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit_check.h: what every unit test under tests/unit prints.  One "ok" or
 * "FAIL" line per check, and an exit status of 1 when any check failed;
 * tests/run.sh keeps the lines in the test's log.
 */
#ifndef UNIT_CHECK_H
#define UNIT_CHECK_H

#include <stdarg.h>
#include <stdio.h>

static int unit_failures;

static void __attribute__((format(printf, 2, 3), unused)) check(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s ", cond ? "ok" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		unit_failures++;
}

/* name inside dir; the last eight results stay valid, enough for one call. */
static __attribute__((unused)) char *unit_path(const char *dir, const char *name)
{
	static char paths[8][128];
	static int next;
	char *p = paths[next++ % 8];

	snprintf(p, sizeof(paths[0]), "%s/%s", dir, name);
	return p;
}

static int __attribute__((unused)) unit_exit_status(void)
{
	return unit_failures ? 1 : 0;
}

#endif
