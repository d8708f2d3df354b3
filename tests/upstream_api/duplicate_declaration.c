// SPDX-License-Identifier: GPL-2.0-or-later
/* The same declaration listed twice in .init_ksyms: harmless, resolved twice alike. */
#include "../makedumpfile.h"
#include "../kallsyms.h"
#include "../extension.h"

INIT_MOD_SYM(vmlinux, init_task);
__attribute__((section(".init_ksyms"), used)) static struct ksym_info *again = &_vmlinux_init_task;

void extension_init(void)
{
	MSG("duplicate_declaration: init_task %lx\n", GET_MOD_SYM(vmlinux, init_task));
}
