// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_elf_input: the ELF dump reader (input/elf_dump.c) through
 * input_open_live(), on inputs that start with the ELF magic: kexec's and
 * QEMU's layouts, makedumpfile -E's, and those with a PT_LOAD of no
 * physical address, which the kcore reader (input/kcore.c) takes, as
 * --mem-usage has it take them.  fuzz_dump.h says what is read.
 */
#include <elf.h>

#include "fuzz_dump.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_dump_one(data, size, ELFMAG, SELFMAG, input_open_live);
}
