// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuzz_kallsyms: the kallsyms decoder (kernel/kallsyms.c) on tables in a
 * fake memory (tests/unit/unit_fake_memory.h).
 *
 * Input: VMCOREINFO text (the SYMBOL(kallsyms_*) lines say where the
 * tables are, SYMBOL(_stext) and the others which address encoding is
 * right), a NUL, then the memory mapped at FAKE_VIRT_BASE.  The seeds
 * are the generator's tables in each of the four encodings, moved to
 * that address.  A table that opens is listed whole, its addresses read
 * each way, and names looked up: some of the table's own, near misses
 * and absent ones.
 */
#include <string.h>

#include "fuzz.h"
#include "input/vmcoreinfo.h"
#include "kernel/kallsyms.h"
#include "unit_fake_memory.h"

/* Far more than any seed: the tables of a real kernel are a few MiB, the generator's 8 KiB. */
#define MAX_IMAGE (1u << 20)
/* Names of the table kept for kallsyms_find, besides the fixed ones. */
#define OWN_NAMES 8

static volatile uint64_t sink;

struct listing {
	size_t seen;
	char names[OWN_NAMES][KSYM_NAME_LEN];
};

static struct mdf_error *list_symbol(void *ctx, const struct ksym *sym)
{
	struct listing *ls = ctx;

	sink += sym->addr + (unsigned char)sym->type + strlen(sym->name);
	if (ls->seen % 37 == 0 && ls->seen / 37 < OWN_NAMES)
		snprintf(ls->names[ls->seen / 37], KSYM_NAME_LEN, "%s", sym->name);
	ls->seen++;
	return NULL;
}

static void exercise(const struct kallsyms *ks)
{
	struct listing ls = { 0 };
	const char *names[OWN_NAMES + 6] = { "_stext", "_stex", "_stextt", "init_task", "", "no_such_symbol" };
	int64_t index[OWN_NAMES + 6];
	size_t count = kallsyms_count(ks), nr = 6;
	uint64_t addr, *addrs;

	sink += mdf_error_drop(kallsyms_for_each(ks, list_symbol, &ls));
	for (size_t i = 0; i < OWN_NAMES && i * 37 < ls.seen; i++)
		names[nr++] = ls.names[i];
	if (!mdf_error_drop(kallsyms_find(ks, names, nr, index)))
		for (size_t i = 0; i < nr; i++)
			if (index[i] >= 0 && !mdf_error_drop(kallsyms_address(ks, (size_t)index[i], &addr)))
				sink += addr;
	sink += mdf_error_drop(kallsyms_address(ks, count - 1, &addr));
	addrs = malloc(count * sizeof(*addrs));
	if (!addrs)
		fuzz_die("malloc of the addresses");
	if (!mdf_error_drop(kallsyms_addresses(ks, addrs)))
		sink += addrs[count - 1];
	free(addrs);
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
	const uint8_t *nul = memchr(data, '\0', size);
	struct vmcoreinfo *vi = NULL;
	struct kallsyms *ks = NULL;
	struct fake_memory *f;
	struct mdf_error *err;
	size_t image;

	if (!nul)
		return -1;
	image = size - (size_t)(nul + 1 - data);
	if (image > MAX_IMAGE)
		return -1;
	err = vmcoreinfo_parse((const char *)data, (size_t)(nul - data), "fuzz input", &vi);
	if (err) {
		mdf_error_free(err);
		return 0;
	}
	f = fake_memory_new((image + FAKE_PAGE) / FAKE_PAGE * FAKE_PAGE);
	if (!f)
		fuzz_die("fake_memory_new");
	memcpy(f->bytes, nul + 1, image);
	err = fake_memory_open(f, vi);
	if (!err)
		err = kallsyms_new(f->mem, vi, &ks);
	if (!err)
		exercise(ks);
	mdf_error_free(err);
	kallsyms_free(ks);
	fake_memory_free(f);
	vmcoreinfo_free(vi);
	return 0;
}
