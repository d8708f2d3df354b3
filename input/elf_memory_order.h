/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The byte order of an ELF dump's memory, which its header may misstate
 * (elf_memory_order.c says when and how it is settled).
 */
#ifndef MDF_INPUT_ELF_MEMORY_ORDER_H
#define MDF_INPUT_ELF_MEMORY_ORDER_H

struct dump_input;
struct mdf_error;

/*
 * Sets @in->memory_order, from the ELF machine and the notes (elf_machine,
 * byte_order, notes and notes_order set), and warns once where it is not
 * the headers' order.  An error when the notes contradict each other: the
 * order cannot be settled.
 */
struct mdf_error *elf_settle_memory_order(struct dump_input *in);

#endif
