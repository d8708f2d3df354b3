// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The erase set: requests kept as page-sized pieces of physical memory,
 * applied to the pages as the writer reads them, and the eraseinfo text
 * built from what was applied.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "erase/erase_set.h"
#include "memory/reader.h"
#include "util/error.h"
#include "util/message.h"
#include "util/search.h"
#include "util/vec.h"

void erase_set_init(struct erase_set *set, uint32_t page_size, uint64_t max_pfn)
{
	memset(set, 0, sizeof(*set));
	set->page_size = page_size;
	set->max_pfn = max_pfn;
	set->sorted = true;
}

void erase_set_free(struct erase_set *set)
{
	for (size_t i = 0; i < set->nr_entries; i++)
		free(set->entries[i].text);
	free(set->entries);
	free(set->samples);
	free(set->pieces);
	erase_set_init(set, set->page_size, set->max_pfn);
}

static struct mdf_error *add_entry(struct erase_set *set, const char *text, bool nullify, unsigned char fill,
				   uint32_t *entry)
{
	char *copy;

	if (set->nr_entries >= UINT32_MAX)
		return mdf_error_code(-E2BIG);
	if (vec_reserve(set->entries, &set->cap_entries, set->nr_entries, 1))
		return &mdf_error_enomem;
	copy = strdup(text);
	if (!copy)
		return &mdf_error_enomem;
	set->entries[set->nr_entries] = (struct erase_entry){ copy, nullify, fill };
	*entry = (uint32_t)set->nr_entries++;
	return NULL;
}

struct mdf_error *erase_set_entry(struct erase_set *set, const char *text, bool nullify, uint32_t *entry)
{
	return add_entry(set, text, nullify, nullify ? ERASE_NULLIFY_FILL : ERASE_FILL, entry);
}

struct mdf_error *erase_set_entry_filled(struct erase_set *set, const char *text, unsigned char fill,
					 uint32_t *entry)
{
	return add_entry(set, text, false, fill, entry);
}

struct mdf_error *erase_set_sample(struct erase_set *set, uint32_t entry, uint32_t *sample)
{
	if (entry >= set->nr_entries)
		return mdf_error_code(-EINVAL);
	/* Each sample needs a piece at least: the pieces' bound is the samples'. */
	if (set->nr_samples >= ERASE_MAX_PIECES)
		return mdf_error_code(-E2BIG);
	if (vec_reserve(set->samples, &set->cap_samples, set->nr_samples, 1))
		return &mdf_error_enomem;
	set->samples[set->nr_samples] = (struct erase_sample){ entry, 0 };
	*sample = (uint32_t)set->nr_samples++;
	return NULL;
}

/* Room for the pieces of @len bytes starting at @addr, split at page boundaries. */
static struct mdf_error *reserve_pieces(struct erase_set *set, uint64_t addr, uint64_t len)
{
	uint64_t first = addr / set->page_size, last = (addr + len - 1) / set->page_size;
	uint64_t count = last - first + 1;

	if (count > ERASE_MAX_PIECES - set->nr_pieces)
		return mdf_error_code(-E2BIG);
	if (vec_reserve(set->pieces, &set->cap_pieces, set->nr_pieces, (size_t)count))
		return &mdf_error_enomem;
	return NULL;
}

static void add_piece(struct erase_set *set, uint32_t sample, uint64_t paddr, uint32_t len)
{
	struct erase_piece *p = &set->pieces[set->nr_pieces];

	*p = (struct erase_piece){ .paddr = paddr, .len = len, .sample = sample };
	if (set->nr_pieces && p[-1].paddr > paddr)
		set->sorted = false;
	set->nr_pieces++;
}

struct mdf_error *erase_set_add_phys(struct erase_set *set, uint32_t sample, uint64_t paddr, uint64_t len)
{
	uint64_t limit = set->max_pfn * set->page_size;
	struct mdf_error *err;

	if (sample >= set->nr_samples || !len)
		return mdf_error_code(-EINVAL);
	if (paddr >= limit || len > limit - paddr)
		return mdf_error_code(-ERANGE);
	err = reserve_pieces(set, paddr, len);
	if (err)
		return err;
	while (len) {
		uint64_t room = set->page_size - paddr % set->page_size;
		uint32_t n = (uint32_t)(len < room ? len : room);

		add_piece(set, sample, paddr, n);
		paddr += n;
		len -= n;
	}
	return NULL;
}

struct mdf_error *erase_set_add_virt(struct erase_set *set, struct memory *mem, uint32_t sample, uint64_t vaddr,
				     uint64_t len)
{
	uint64_t limit = set->max_pfn * set->page_size;
	size_t rollback = set->nr_pieces;
	bool sorted = set->sorted;
	struct mdf_error *err;

	if (sample >= set->nr_samples || !len || vaddr + len < vaddr)
		return mdf_error_code(-EINVAL);
	err = reserve_pieces(set, vaddr, len);
	while (!err && len) {
		uint64_t room = set->page_size - vaddr % set->page_size;
		uint32_t n = (uint32_t)(len < room ? len : room);
		uint64_t paddr;

		err = mem_vtop(mem, vaddr, &paddr);
		if (!err && (paddr >= limit || n > limit - paddr))
			err = mdf_error_code(-ERANGE);
		if (!err)
			add_piece(set, sample, paddr, n);
		vaddr += n;
		len -= n;
	}
	if (err) {
		set->nr_pieces = rollback;
		set->sorted = sorted;
	}
	return err;
}

uint64_t erase_set_bytes(const struct erase_set *set)
{
	uint64_t bytes = 0;

	for (size_t i = 0; i < set->nr_pieces; i++)
		bytes += set->pieces[i].len;
	return bytes;
}

static int compare_pieces(const void *a, const void *b)
{
	const struct erase_piece *pa = a, *pb = b;

	if (pa->paddr != pb->paddr)
		return pa->paddr < pb->paddr ? -1 : 1;
	return pa->sample < pb->sample ? -1 : pa->sample > pb->sample;
}

void erase_set_sort(struct erase_set *set)
{
	if (!set->sorted)
		vec_sort(set->pieces, set->nr_pieces, compare_pieces);
	set->sorted = true;
}

struct piece_search {
	const struct erase_piece *pieces;
	uint64_t paddr;
};

static bool piece_before(void *ctx, size_t i)
{
	const struct piece_search *s = ctx;

	return s->pieces[i].paddr < s->paddr;
}

void erase_set_apply(struct erase_set *set, uint64_t pfn, void *page)
{
	uint64_t start = pfn * set->page_size;
	struct piece_search s = { set->pieces, start };
	/* The first piece at or after the page: pieces never cross into the next page. */
	size_t lo = search_partition_point(set->nr_pieces, piece_before, &s);

	for (; lo < set->nr_pieces && set->pieces[lo].paddr - start < set->page_size; lo++) {
		struct erase_piece *p = &set->pieces[lo];
		const struct erase_entry *e = &set->entries[set->samples[p->sample].entry];

		memset((unsigned char *)page + (p->paddr - start), e->fill, p->len);
		if (!p->applied)
			set->samples[p->sample].erased += p->len;
		p->applied = true;
	}
}

struct text {
	char *buf;
	size_t len, cap;
};

static struct mdf_error *append(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static struct mdf_error *append(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->buf ? t->buf + t->len : NULL, t->cap - t->len, fmt, ap);
		va_end(ap);
		if (n < 0)
			return mdf_error_code(-EINVAL);
		if (t->len + (size_t)n < t->cap)
			break;
		if (vec_reserve(t->buf, &t->cap, t->len, (size_t)n + 1))
			return &mdf_error_enomem;
	}
	t->len += (size_t)n;
	return NULL;
}

struct mdf_error *eraseinfo_text(const struct erase_set *set, bool planned, char **text, size_t *len)
{
	struct text t = { 0 };
	uint64_t *planned_bytes = NULL;
	size_t *order = NULL, *first = NULL;
	struct mdf_error *err = NULL;

	/* Samples grouped by entry, in creation order within each (a counting sort). */
	order = malloc((set->nr_samples + 1) * sizeof(*order));
	first = calloc(set->nr_entries + 1, sizeof(*first));
	if (planned)
		planned_bytes = calloc(set->nr_samples + 1, sizeof(*planned_bytes));
	if (!order || !first || (planned && !planned_bytes)) {
		err = &mdf_error_enomem;
		goto out;
	}
	for (size_t i = 0; i < set->nr_samples; i++)
		first[set->samples[i].entry + 1]++;
	for (size_t e = 0; e < set->nr_entries; e++)
		first[e + 1] += first[e];
	for (size_t i = 0; i < set->nr_samples; i++)
		order[first[set->samples[i].entry]++] = i;
	if (planned)
		for (size_t i = 0; i < set->nr_pieces; i++)
			planned_bytes[set->pieces[i].sample] += set->pieces[i].len;
	for (size_t k = 0; k < set->nr_samples && !err; k++) {
		size_t i = order[k];
		const struct erase_entry *e = &set->entries[set->samples[i].entry];
		uint64_t bytes = planned ? planned_bytes[i] : set->samples[i].erased;

		if (!bytes)
			continue;
		if (e->nullify)
			err = append(&t, "erase %s nullify\n", e->text);
		else
			err = append(&t, "erase %s size %" PRIu64 "\n", e->text, bytes);
	}
	if (!err && !t.buf)
		err = append(&t, "%s", "");
out:
	free(order);
	free(first);
	free(planned_bytes);
	if (err) {
		free(t.buf);
		return err;
	}
	*text = t.buf;
	*len = t.len;
	return NULL;
}
