// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A hand-made .init_ksyms entry that points nowhere, beside a good one:
 * the extension is skipped with what is wrong, nothing is read from the
 * wild address.
 */
#include "../makedumpfile.h"
#include "../kallsyms.h"
#include "../extension.h"

INIT_MOD_SYM(vmlinux, init_task);
__attribute__((section(".init_ksyms"), used)) static void *wild = (void *)0x1234;

void extension_init(void)
{
	MSG("garbage_section: init ran\n");
}
