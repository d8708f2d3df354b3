/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The filter config of --config FILE: upstream makedumpfile's erase
 * commands (makedumpfile.conf(5)), resolved with the dump's own kallsyms
 * and BTF instead of the kernel's DWARF debuginfo.
 *
 *   [MODULE]                       the commands that follow name symbols of
 *                                  MODULE (or vmlinux, the default section)
 *   erase EXPR                     erase what EXPR is, or points to
 *   erase EXPR size N[K|M]         ... N bytes of it
 *   erase EXPR size EXPR2          ... as many bytes as the integer EXPR2 says
 *   erase EXPR nullify             write zeros over the pointer EXPR
 *   for ID in ARRAY                run the erase commands that follow, up
 *   for ID in STRUCT [via MEMBER]  to endfor, for each element of an array,
 *   for ID in LIST_HEAD within STRUCT[:MEMBER]
 *     erase ID[.MEMBER...] ...     of a list linked through MEMBER (default
 *   endfor                         next), or of a list_head list
 *
 * EXPR is SYMBOL[.MEMBER...] (ID[.MEMBER...] inside a loop); a member of
 * a pointer is the member of what it points to.  '#' starts a comment.
 *
 * BTF describes types, not most variables: a symbol's type is known when
 * BTF has the variable, or when a struct or union has the symbol's name
 * and fits before the next symbol (udp_table is a struct udp_table).
 * Otherwise the config names it, C-style: (TYPE)SYMBOL or (TYPE*)SYMBOL,
 * as in "erase (task_struct)init_task.comm" — an addition to upstream's
 * syntax, which read types from DWARF.
 */
#ifndef MDF_ERASE_CONFIG_H
#define MDF_ERASE_CONFIG_H

struct erase_config;
struct erase_set;
struct memory;
struct kernel;
struct mdf_error;

/*
 * Reads and parses @path.  Syntax errors are fatal: the first one is an
 * -EINVAL error "PATH:LINE: ..." (a dump must not be written with less
 * erased than its config asks).
 */
struct mdf_error *erase_config_load(const char *path, struct erase_config **out);
void erase_config_free(struct erase_config *cfg);

/*
 * Resolves each command against the dump and adds what it erases to
 * @set.  A command that cannot be resolved in this dump (a symbol, type
 * or member it lacks, memory it cannot read, a module not loaded) is
 * reported as a warning naming its line, and erases nothing; the others
 * go on, as upstream's do.  An error only when the set cannot grow (no
 * memory, ERASE_MAX_PIECES) or the dump's kallsyms cannot be read.
 */
struct mdf_error *erase_config_resolve(const struct erase_config *cfg, struct memory *mem, struct kernel *kernel,
				       struct erase_set *set);

#endif
