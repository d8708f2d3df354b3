// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_vmcoreinfo: VMCOREINFO parsing (input/vmcoreinfo.c), as a dump's
 * note gives it (vmcoreinfo_parse) and as -i reads a file
 * (vmcoreinfo_load_file, from a memfd), then the lookups of each kind:
 * for every key the text has, and for keys of each kind it may lack.
 */
#include <string.h>

#include "fuzz.h"
#include "input/vmcoreinfo.h"
#include "util/error.h"

static volatile uint64_t sink;

/* The lookups of every kind on "KIND(NAME)" or a plain key. */
static void look_up(const struct vmcoreinfo *vi, const char *key)
{
	const char *open = strchr(key, '('), *close = strrchr(key, ')');
	char kind[64], name[256];
	uint64_t address;
	int64_t value;

	sink += vmcoreinfo_get(vi, key) != NULL;
	sink += !mdf_error_drop(vmcoreinfo_lookup_plain(vi, key, &value)) ? (uint64_t)value : 0;
	if (!open || !close || close < open || (size_t)(open - key) >= sizeof(kind) ||
	    (size_t)(close - open - 1) >= sizeof(name))
		return;
	memcpy(kind, key, (size_t)(open - key));
	kind[open - key] = '\0';
	memcpy(name, open + 1, (size_t)(close - open - 1));
	name[close - open - 1] = '\0';
	sink += vmcoreinfo_has(vi, kind, name);
	sink += !mdf_error_drop(vmcoreinfo_lookup_symbol(vi, name, &address)) ? address : 0;
	sink += !mdf_error_drop(vmcoreinfo_lookup_size(vi, name, &value)) ? (uint64_t)value : 0;
	sink += !mdf_error_drop(vmcoreinfo_lookup_offset(vi, name, &value)) ? (uint64_t)value : 0;
	sink += !mdf_error_drop(vmcoreinfo_lookup_length(vi, name, &value)) ? (uint64_t)value : 0;
	sink += !mdf_error_drop(vmcoreinfo_lookup_number(vi, name, &value)) ? (uint64_t)value : 0;
}

/* Each line's key, as the parser would cut it: up to '=' (or the line's end). */
static void look_up_lines(const struct vmcoreinfo *vi, const uint8_t *data, size_t size)
{
	static const char *const absent[] = { "OSRELEASE", "PAGESIZE", "CRASHTIME", "KERNELOFFSET",
					      "SYMBOL(_stext)", "SIZE(page)", "OFFSET(page.flags)",
					      "LENGTH(mem_section)", "NUMBER(phys_base)" };
	char key[512];

	for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
		look_up(vi, absent[i]);
	for (size_t at = 0; at < size;) {
		const uint8_t *nl = memchr(data + at, '\n', size - at);
		size_t len = (nl ? (size_t)(nl - data) : size) - at;
		const uint8_t *eq = memchr(data + at, '=', len);
		size_t key_len = eq ? (size_t)(eq - (data + at)) : len;

		if (key_len < sizeof(key)) {
			memcpy(key, data + at, key_len);
			key[key_len] = '\0';
			look_up(vi, key);
		}
		at += len + 1;
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vmcoreinfo *vi = NULL, *from_file = NULL;
	struct mdf_error *err;
	char path[32];
	int fd;

	err = vmcoreinfo_parse((const char *)data, size, "fuzz input", &vi);
	if (!err)
		look_up_lines(vi, data, size);
	mdf_error_free(err);
	vmcoreinfo_free(vi);

	fd = fuzz_memfd(data, size, path);
	err = vmcoreinfo_load_file(path, &from_file);
	if (!err)
		look_up(from_file, "OSRELEASE");
	mdf_error_free(err);
	vmcoreinfo_free(from_file);
	close(fd);
	return 0;
}
