// SPDX-License-Identifier: GPL-2.0-or-later
/* A declaration whose symbol name has no NUL before the end of the extension's data. */
#include "../makedumpfile.h"
#include "../kallsyms.h"
#include "../extension.h"

/* The last bytes of the data: no NUL after them. */
__attribute__((aligned(4096))) char unterminated[4096] = { [0 ... 4095] = 'A' };
static struct ksym_info endless = { "vmlinux", unterminated, 1, 0, -1 };
__attribute__((section(".init_ksyms"), used)) static struct ksym_info *endless_ptr = &endless;

void extension_init(void)
{
	MSG("unterminated_name: init ran\n");
}
