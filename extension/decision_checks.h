/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Decisions of an extension that would cripple the dump, said as
 * warnings: leaving out more than half of its pages, or frames that the
 * tools reading the dump need to make sense of the rest (those holding
 * struct pages, the kernel's top-level page table).  The user asked for
 * the extension, so it is not overruled; but a dump of 16 pages with no
 * word said is not what anyone asked for.
 */
#ifndef MDF_EXTENSION_DECISION_CHECKS_H
#define MDF_EXTENSION_DECISION_CHECKS_H

#include <stdbool.h>
#include <stdint.h>

#include "scan/pfn_ranges.h"

struct extension_env;

struct decision_checks {
	const struct extension_env *env;
	bool critical_found;        /* critical is filled (on first need) */
	struct pfn_ranges critical; /* merged */
};

void decision_checks_init(struct decision_checks *c, const struct extension_env *env);
void decision_checks_free(struct decision_checks *c);
/* Warns about what extension @name leaves out, @dropped (merged). */
void decision_checks_warn(struct decision_checks *c, const char *name, const struct pfn_ranges *dropped);

#endif
