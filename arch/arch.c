// SPDX-License-Identifier: GPL-2.0-or-later
#include <string.h>

#include "arch/arch.h"

const struct arch_ops *arch_find(const char *machine)
{
	static const struct arch_ops *const all[] = { &arch_x86_64, &arch_arm64 };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(all[i]->name, machine))
			return all[i];
	return NULL;
}
