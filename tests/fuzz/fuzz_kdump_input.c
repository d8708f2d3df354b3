// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_kdump_input: the kdump-compressed reader (input/kdump_compressed.c)
 * through input_open(), on inputs that start with "KDUMP   ": the
 * headers, both bitmaps, the page descriptors and each codec's page data.
 * fuzz_dump.h says what is read.
 */
#include "fuzz_dump.h"
#include "input/kdump_format.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_dump_one(data, size, KDUMP_SIGNATURE, KDUMP_SIGNATURE_LEN, input_open);
}
