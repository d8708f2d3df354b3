/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The compatibility surface for extensions: kernel and module symbols
 * under the names extensions written for upstream makedumpfile or for the
 * series posted to the kexec list call (they include "../kallsyms.h").
 * makedumpfile's own code uses kernel/kallsyms.h; new extensions use
 * makedumpfile-extension.h.
 */
#ifndef MDF_KALLSYMS_H
#define MDF_KALLSYMS_H

#include <stdint.h>

/*
 * For extensions written against the series posted to the kexec list:
 * the address of a kernel or module symbol, 0 when there is none; the
 * next pointer of the list_head at @list_head_addr, 0 when unreadable.
 * New extensions use makedumpfile-extension.h.
 */
uint64_t get_kallsyms_value_by_name(char *name);
uint64_t next_list(uint64_t list_head_addr);

#endif
