/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What upstream makedumpfile adds to the ELF format in the dump files it
 * writes (-E): a mark in the ELF header of a dump cut short.  Its writer
 * (elf_writer.c) sets it, and so does -R (flat.c) for a stream cut short.
 */
#ifndef MDF_OUTPUT_ELF_FORMAT_H
#define MDF_OUTPUT_ELF_FORMAT_H

/* Upstream's mark of an ELF dump cut short, in e_flags. */
#define DUMP_ELF_INCOMPLETE 0x1

#endif
