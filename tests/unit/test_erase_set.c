// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_erase_set: the erase set.  Random physical ranges of random
 * entries (some "nullify") are added out of order, split at page
 * boundaries and sorted; every page is then erased as the writer would,
 * some pages twice and some never (excluded), and the result must equal a
 * plain byte-by-byte model, in the pages and in the eraseinfo text.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "erase/erase_set.h"
#include "util/error.h"
#include "unit_check.h"

#define PAGE 4096u
#define PAGES 64u
#define ENTRIES 5
#define REQUESTS 300

struct request {
	uint32_t sample;
	uint64_t paddr, len;
};

/* The eraseinfo as the model sees it: per entry, per sample, bytes in pages written. */
static char *model_text(const struct erase_set *set, const struct request *req, size_t nr,
			const bool *written, bool planned)
{
	size_t cap = 1 << 20, len = 0;
	char *text = malloc(cap);

	text[0] = '\0';
	for (size_t e = 0; e < set->nr_entries; e++) {
		for (size_t i = 0; i < nr; i++) {
			uint64_t bytes = 0;

			if (set->samples[req[i].sample].entry != e)
				continue;
			for (uint64_t a = req[i].paddr; a < req[i].paddr + req[i].len; a++)
				bytes += planned || written[a / PAGE];
			if (!bytes)
				continue;
			if (set->entries[e].nullify)
				len += (size_t)snprintf(text + len, cap - len, "erase %s nullify\n",
							set->entries[e].text);
			else
				len += (size_t)snprintf(text + len, cap - len, "erase %s size %" PRIu64 "\n",
							set->entries[e].text, bytes);
		}
	}
	return text;
}

int main(void)
{
	struct erase_set set;
	struct request req[REQUESTS];
	unsigned char *mem = malloc(PAGES * PAGE), *want = malloc(PAGES * PAGE);
	bool written[PAGES] = { false };
	uint32_t entries[ENTRIES];
	char *text, *model;
	size_t len;
	bool sorted = true, pages_ok = true;

	if (!mem || !want)
		return 1;
	srand(11);
	erase_set_init(&set, PAGE, PAGES);
	for (int e = 0; e < ENTRIES; e++) {
		char name[32];

		snprintf(name, sizeof(name), "sym%d.member", e);
		if (erase_set_entry(&set, name, e == 3, &entries[e]))
			return 1;
	}
	for (size_t i = 0; i < PAGES * PAGE; i++)
		mem[i] = want[i] = (unsigned char)(i * 7 + 1);
	for (int i = 0; i < REQUESTS; i++) {
		uint32_t e = entries[rand() % ENTRIES];

		req[i].paddr = (uint64_t)rand() % (PAGES * PAGE - 3 * PAGE);
		req[i].len = 1 + (uint64_t)rand() % (2 * PAGE + 100);
		if (erase_set_sample(&set, e, &req[i].sample) ||
		    erase_set_add_phys(&set, req[i].sample, req[i].paddr, req[i].len))
			return 1;
	}
	check(mdf_error_drop(erase_set_add_phys(&set, 0, PAGES * PAGE - 1, 2)) == -ERANGE,
	      "a range past the dump is refused");
	check(mdf_error_drop(erase_set_add_phys(&set, 0, 0, 0)) == -EINVAL, "an empty range is refused");
	check(mdf_error_drop(erase_set_add_phys(&set, REQUESTS + 7, 0, 1)) == -EINVAL,
	      "an unknown sample is refused");
	check(mdf_error_drop(erase_set_sample(&set, ENTRIES, &req[0].sample)) == -EINVAL,
	      "a sample of an unknown entry is refused");
	erase_set_sort(&set);
	for (size_t i = 0; i < set.nr_pieces; i++) {
		const struct erase_piece *p = &set.pieces[i];

		sorted &= p->len && p->paddr % PAGE + p->len <= PAGE &&
			  (!i || p[-1].paddr < p->paddr ||
			   (p[-1].paddr == p->paddr && p[-1].sample <= p->sample));
	}
	check(sorted, "pieces are sorted, each inside one page");
	check(erase_set_bytes(&set) == ({
		uint64_t sum = 0;
		for (int i = 0; i < REQUESTS; i++)
			sum += req[i].len;
		sum;
	}), "the pieces cover the requests' bytes");

	/* The model: requests in address order, a later sample's fill last at equal addresses. */
	for (size_t i = 0; i < set.nr_pieces; i++) {
		const struct erase_piece *p = &set.pieces[i];

		memset(want + p->paddr, set.entries[set.samples[p->sample].entry].nullify ? 0 : 'X', p->len);
	}
	for (uint64_t pfn = 0; pfn < PAGES; pfn++) {
		/* Every third page is "excluded"; every fifth is read twice, as a second pass would. */
		if (pfn % 3 == 1)
			continue;
		written[pfn] = true;
		erase_set_apply(&set, pfn, mem + pfn * PAGE);
		if (pfn % 5 == 0)
			erase_set_apply(&set, pfn, mem + pfn * PAGE);
	}
	for (uint64_t pfn = 0; pfn < PAGES; pfn++) {
		if (!written[pfn])
			continue;
		pages_ok &= !memcmp(mem + pfn * PAGE, want + pfn * PAGE, PAGE);
	}
	check(pages_ok, "each page written equals the model, bytes outside the pieces unchanged");
	check(!eraseinfo_text(&set, false, &text, &len), "the eraseinfo is built");
	model = model_text(&set, req, REQUESTS, written, false);
	check(!strcmp(text, model) && len == strlen(text), "the eraseinfo lists what reached the dump");
	free(text);
	free(model);
	check(!eraseinfo_text(&set, true, &text, &len), "the planned eraseinfo is built");
	model = model_text(&set, req, REQUESTS, written, true);
	check(!strcmp(text, model), "the planned eraseinfo lists every request whole");
	free(text);
	free(model);
	erase_set_free(&set);
	erase_set_init(&set, PAGE, PAGES);
	check(!eraseinfo_text(&set, false, &text, &len) && len == 0 && !strcmp(text, ""),
	      "an empty set has an empty eraseinfo");
	free(text);
	erase_set_free(&set);
	free(mem);
	free(want);
	return unit_exit_status();
}
