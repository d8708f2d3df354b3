// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * generator_btf.c: tests/gen/gen_btf.c's vmlinux BTF, whose layouts
 * (maple nodes, xarray nodes, tasks, VMAs, modules) are close to 6.1's,
 * built in the harness's process.  gen_btf.c reports its failures
 * through die() and allocates through xcalloc(), both of mkvmcore.c,
 * which also has a main(): the harness brings its own.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "generator_btf.h"
#include "mkvmcore.h"

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

const void *generator_btf(uint32_t *size)
{
	static struct gen g;

	if (!g.btf[BTF_VMLINUX])
		btf_build(&g);
	*size = g.btf_size[BTF_VMLINUX];
	return g.btf[BTF_VMLINUX];
}
