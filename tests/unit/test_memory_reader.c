// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_memory_reader: memory/reader.c's page cache (256 slots, direct
 * mapped by pfn), on a generated dump whose marker pages hold known
 * bytes: the marker of their kind, "pfn=0x<pfn>;", then 'X' to the end
 * (tests/gen/README.md), built here from the facts file.
 *
 * The input's read_page is wrapped to count reads per pfn, and to make
 * chosen pfns fail as a page the dump left out would.  Checked:
 *  - a second read of a page is a hit (no input read);
 *  - two pfns 256 apart share a slot: A, B, A reads A twice, each time
 *    with A's bytes;
 *  - failed reads are not cached: each caller gets the error, the input
 *    is asked again, and once the page reads it gives its own bytes, not
 *    another's nor the failed attempt's; the same for pages in no range
 *    of the dump and addresses no page table maps;
 *  - reads across page boundaries; whole pages bypass the cache (read
 *    every time, evicting nothing); bulk virtual reads of contiguous
 *    pages go to the file in one piece, not page by page.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_check.h"
#include "unit_dump.h"
#include "util/message.h"

/* check(), with the message's arguments taken after the condition ran. */
#define check_after(cond, ...)                     \
	do {                                       \
		bool cond_ = (cond);               \
		check(cond_, __VA_ARGS__);         \
	} while (0)

#define PAGE 4096u
#define SLOTS 256u
#define MAX_PFNS 0x10000u

/* The facts the test needs. */
static struct {
	char kind_text[32][64];
	char kind_name[32][32];
	size_t nr_kinds;
	int8_t kind_of[MAX_PFNS];   /* -1: no marker */
	uint64_t max_pfn;
	uint64_t page_offset_base;
	uint64_t unmapped;
} facts;

/* The counting wrapper around the input's operations. */
static const struct input_ops *real_ops;
static struct input_ops counting_ops;
static uint32_t reads[MAX_PFNS];
static uint64_t fail_pfn = UINT64_MAX;
static unsigned int file_offset_calls;

static struct mdf_error *counting_read_page(struct dump_input *in, uint64_t pfn, void *buf)
{
	if (pfn < MAX_PFNS)
		reads[pfn]++;
	if (pfn == fail_pfn) {
		/* What a failing input may leave in the buffer: nobody may see it. */
		memset(buf, 0xee, in->page_size);
		return &mdf_error_excluded;
	}
	return real_ops->read_page(in, pfn, buf);
}

static struct mdf_error *counting_file_offset(struct dump_input *in, uint64_t pfn, uint64_t count,
					      uint64_t *offset)
{
	file_offset_calls++;
	return real_ops->file_offset(in, pfn, count, offset);
}

static bool load_facts(const char *path)
{
	FILE *f = fopen(path, "re");
	char line[512];

	memset(facts.kind_of, -1, sizeof(facts.kind_of));
	while (f && fgets(line, sizeof(line), f)) {
		char kind[32], text[64];
		uint64_t pfn;

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "marker_text %31s %63s", kind, text) == 2 && facts.nr_kinds < 32) {
			snprintf(facts.kind_name[facts.nr_kinds], 32, "%s", kind);
			snprintf(facts.kind_text[facts.nr_kinds], 64, "%s", text);
			facts.nr_kinds++;
		} else if (sscanf(line, "marker %31s %" SCNx64, kind, &pfn) == 2 && pfn < MAX_PFNS) {
			for (size_t k = 0; k < facts.nr_kinds; k++)
				if (!strcmp(facts.kind_name[k], kind))
					facts.kind_of[pfn] = (int8_t)k;
		} else if (sscanf(line, "max_pfn=%" SCNx64, &facts.max_pfn) == 1 ||
			   sscanf(line, "page_offset_base=%" SCNx64, &facts.page_offset_base) == 1) {
			continue;
		} else if (!facts.unmapped && sscanf(line, "vtop_fail %" SCNx64, &facts.unmapped) != 1) {
			facts.unmapped = 0;
		}
	}
	if (f)
		fclose(f);
	return f && facts.nr_kinds && facts.max_pfn && facts.max_pfn < MAX_PFNS && facts.page_offset_base &&
	       facts.unmapped;
}

static bool is_marker(uint64_t pfn)
{
	return pfn < MAX_PFNS && facts.kind_of[pfn] >= 0;
}

/* The bytes of marker page @pfn, as the generator writes them. */
static void expected_page(uint64_t pfn, unsigned char *buf)
{
	int n;

	memset(buf, 'X', PAGE);
	n = snprintf((char *)buf, PAGE, "%spfn=0x%" PRIx64 ";", facts.kind_text[facts.kind_of[pfn]], pfn);
	buf[n] = 'X';
}

/* Whether @len bytes at physical @paddr read back as the marker pages there say. */
static bool matches(uint64_t paddr, const unsigned char *got, size_t len)
{
	unsigned char want[PAGE];

	while (len) {
		uint64_t pfn = paddr / PAGE, offset = paddr % PAGE;
		size_t chunk = PAGE - offset < len ? PAGE - offset : len;

		if (!is_marker(pfn))
			return false;
		expected_page(pfn, want);
		if (memcmp(got, want + offset, chunk))
			return false;
		got += chunk;
		paddr += chunk;
		len -= chunk;
	}
	return true;
}

/* Reads @len bytes at physical @paddr: whether they came and are the expected ones. */
static bool read_ok(struct memory *mem, uint64_t paddr, size_t len)
{
	unsigned char *buf = malloc(len);
	struct mdf_error *err = buf ? mem_read_phys(mem, paddr, buf, len) : &mdf_error_enomem;
	bool ok = !err && matches(paddr, buf, len);

	if (err)
		printf("  reading 0x%zx bytes at 0x%" PRIx64 ": %s\n", len, paddr, mdf_error_text(err));
	mdf_error_free(err);
	free(buf);
	return ok;
}

/* The code of the error reading @len bytes at @paddr (0: it read). */
static int read_code(struct memory *mem, uint64_t paddr, size_t len)
{
	unsigned char buf[2 * PAGE];

	return mdf_error_drop(mem_read_phys(mem, paddr, buf, len));
}

/*
 * The next pfn from *@from on that starts a run of marker pages @span
 * long whose pfns 256 on are markers too; each subtest takes its own, in
 * slots no other uses.
 */
static uint64_t take_pair(uint64_t *from, unsigned int span)
{
	for (uint64_t p = *from; p + SLOTS + span < facts.max_pfn; p++) {
		bool ok = true;

		for (unsigned int i = 0; i < span && ok; i++)
			ok = is_marker(p + i) && is_marker(p + SLOTS + i);
		if (ok) {
			*from = p + span + 1;
			return p;
		}
	}
	return 0;
}

static void test_cache(struct memory *mem)
{
	uint64_t next = 0, a, b, c, s, t, v;
	unsigned char page[PAGE];
	struct mdf_error *err;

	/* The marker format, on a whole page. */
	a = take_pair(&next, 1);
	err = mem_read_phys(mem, a * PAGE, page, PAGE);
	check_after(a && !err && matches(a * PAGE, page, PAGE),
	            "marker page 0x%" PRIx64 " reads as the generator wrote it",
	      a);
	mdf_error_free(err);

	/* Hits. */
	a = take_pair(&next, 2);
	check_after(a != 0, "the dump has marker pages 256 apart (0x%" PRIx64 ")", a);
	if (!a)
		return;
	check_after(read_ok(mem, a * PAGE + 16, 48) && reads[a] == 1,
	            "a first read of 0x%" PRIx64 " asks the input once",
	      a);
	check_after(read_ok(mem, a * PAGE + 100, 8) && read_ok(mem, a * PAGE + 1, PAGE - 1) && reads[a] == 1,
	      "two more reads of that page are hits (input reads: %u)", reads[a]);

	/* Eviction: a and a + 256 share a slot; a + 1 does not. */
	b = a + SLOTS;
	check_after(read_ok(mem, b * PAGE + 8, 8) && reads[b] == 1, "0x%" PRIx64 ", 256 pages on, is read", b);
	check_after(read_ok(mem, a * PAGE + 8, 8) && reads[a] == 2,
	      "then 0x%" PRIx64 " again: read again (%u input reads), with its own bytes", a, reads[a]);
	check_after(read_ok(mem, b * PAGE + 8, 8) && reads[b] == 2, "and 0x%" PRIx64 " again: read again (%u)", b,
	            reads[b]);
	check_after(read_ok(mem, (a + 1) * PAGE, 8) && read_ok(mem, (a + 1) * PAGE + 8, 8) && reads[a + 1] == 1,
	      "0x%" PRIx64 ", the next slot, read twice: once from the input", a + 1);

	/* Failures are not cached. */
	c = take_pair(&next, 1);
	check_after(c && read_ok(mem, c * PAGE + 24, 16) && reads[c] == 1, "0x%" PRIx64 " is cached", c);
	fail_pfn = c + SLOTS;
	check_after(read_code(mem, fail_pfn * PAGE + 24, 16) == -MDF_EEXCLUDED && reads[fail_pfn] == 1,
	      "0x%" PRIx64 " in the same slot, left out of the dump: excluded", fail_pfn);
	check_after(read_code(mem, fail_pfn * PAGE + 24, 16) == -MDF_EEXCLUDED && reads[fail_pfn] == 2,
	      "read again: excluded again, and the input was asked again (%u)", reads[fail_pfn]);
	check_after(read_code(mem, fail_pfn * PAGE, PAGE) == -MDF_EEXCLUDED && reads[fail_pfn] == 3,
	      "read whole: excluded too");
	check_after(read_ok(mem, c * PAGE + 24, 16), "0x%" PRIx64 " then reads its own bytes, not the failed read's",
	            c);
	check_after(read_code(mem, (c + SLOTS + 1) * PAGE - 8, 16) == -MDF_EEXCLUDED,
	      "a read that ends in the excluded page fails");
	fail_pfn = UINT64_MAX;
	check_after(read_ok(mem, (c + SLOTS) * PAGE + 24, 16) && reads[c + SLOTS] == 5,
	      "once it reads, 0x%" PRIx64 " gives its own bytes: no error was kept", c + SLOTS);

	/* A page in no range of the dump (past the end of RAM), in the slot of a cached page. */
	t = take_pair(&next, 1);
	{
		uint64_t beyond = t + ((facts.max_pfn - t + SLOTS - 1) / SLOTS + 1) * SLOTS;

		check_after(t && read_ok(mem, t * PAGE, 32) && reads[t] == 1, "0x%" PRIx64 " is cached", t);
		check_after(beyond < MAX_PFNS && read_code(mem, beyond * PAGE, 32) == -MDF_ENOTDUMPED &&
		      read_code(mem, beyond * PAGE, 32) == -MDF_ENOTDUMPED && reads[beyond] == 2,
		      "0x%" PRIx64 " (same slot, past RAM) is not dumped, twice, the input asked each time", beyond);
		check_after(read_ok(mem, t * PAGE, 32), "0x%" PRIx64 " still reads its own bytes", t);
	}

	/* Across page boundaries. */
	s = take_pair(&next, 3);
	check_after(s && read_ok(mem, (s + 1) * PAGE - 32, 64) && reads[s] == 1 && reads[s + 1] == 1,
	      "64 bytes across the boundary of 0x%" PRIx64 " and the next: each page read once", s);
	check_after(read_ok(mem, (s + 1) * PAGE - 40, 80) && reads[s] == 1 && reads[s + 1] == 1,
	      "again, 80 bytes: both hits");
	check_after(read_ok(mem, s * PAGE + 4000,
	            PAGE + 200) && reads[s] == 1 && reads[s + 1] == 2 && reads[s + 2] == 1,
	      "a read over three pages: the whole middle page goes to the input, the ends to the cache");
	check_after(read_ok(mem, (s + 1) * PAGE + 5, 5) && reads[s + 1] == 2, "the middle page stayed cached");

	/* Whole pages bypass the cache, and evict nothing. */
	v = take_pair(&next, 1);
	check_after(v && read_ok(mem, v * PAGE + 8, 8) && reads[v] == 1, "0x%" PRIx64 " is cached", v);
	check_after(read_ok(mem, (v + SLOTS) * PAGE, PAGE) && read_ok(mem, (v + SLOTS) * PAGE, PAGE) &&
	      reads[v + SLOTS] == 2, "a whole page of its slot read twice: two input reads");
	check_after(read_ok(mem, v * PAGE + 16, 8) && reads[v] == 1, "0x%" PRIx64 " is still cached", v);
	check_after(read_ok(mem, v * PAGE, PAGE) && reads[v] == 2, "0x%" PRIx64 " read whole goes to the input", v);
}

static void test_virtual(struct memory *mem)
{
	uint64_t first = 0, vaddr;
	unsigned int run = 16, pages_read = 0;
	unsigned char *buf = malloc(run * PAGE);
	struct mdf_error *err;
	bool ok;

	/* A run of 16 marker pages, not touched before (the last quarter of RAM's markers). */
	for (uint64_t p = facts.max_pfn - run; p > 0 && !first; p--) {
		bool all = true;

		for (unsigned int i = 0; i < run && all; i++)
			all = is_marker(p + i) && !reads[p + i];
		if (all)
			first = p;
	}
	check_after(first && buf, "a run of %u marker pages: 0x%" PRIx64, run, first);
	if (!first || !buf) {
		free(buf);
		return;
	}
	vaddr = facts.page_offset_base + first * PAGE;
	file_offset_calls = 0;
	err = mem_read_virt(mem, vaddr, buf, run * PAGE);
	ok = !err && matches(first * PAGE, buf, run * PAGE);
	for (unsigned int i = 0; i < run; i++)
		pages_read += reads[first + i];
	check_after(ok, "a bulk read of %u pages in the direct map gives their bytes%s%s", run, err ? ": " : "",
	      err ? mdf_error_text(err) : "");
	check_after(ok && !pages_read && file_offset_calls > 0,
	      "... from the file in one piece: no page read on its own (%u), file_offset asked %u times", pages_read,
	      file_offset_calls);
	mdf_error_free(err);

	err = mem_read_virt(mem, vaddr + 100, buf, 3 * PAGE);
	check_after(!err && matches(first * PAGE + 100, buf, 3 * PAGE), "3 pages from 100 bytes into a page");
	mdf_error_free(err);

	err = mem_read_virt(mem, facts.unmapped, buf, 8);
	check_after(err && err->code == -MDF_EUNMAPPED, "0x%" PRIx64 ", which no page table maps: unmapped",
	            facts.unmapped);
	mdf_error_free(err);
	err = mem_read_virt(mem, facts.unmapped, buf, 8);
	check_after(err && err->code == -MDF_EUNMAPPED, "... and again");
	mdf_error_free(err);
	free(buf);
}

int main(void)
{
	const char *dir;
	char elf[600], factsfile[600];
	const char *args[] = { "--facts", factsfile, NULL };
	struct unit_dump d;
	struct mdf_error *err;

	msg_set_level(ML_ERROR);
	dir = unit_workdir("test_memory_reader");
	if (!dir)
		return unit_exit_status();
	snprintf(elf, sizeof(elf), "%s/cache.elf", dir);
	snprintf(factsfile, sizeof(factsfile), "%s/cache.facts", dir);
	if (!unit_mkvmcore(args, elf)) {
		rmdir(dir);
		return unit_exit_status();
	}
	if (!load_facts(factsfile)) {
		check_after(0, "the facts file %s has marker texts, markers, max_pfn, page_offset_base and a vtop_fail",
		      factsfile);
		return unit_exit_status();
	}
	err = unit_dump_open(elf, NULL, &d);
	if (err) {
		check_after(0, "the generated dump opens: %s", mdf_error_text(err));
		mdf_error_free(err);
		return unit_exit_status();
	}
	real_ops = d.in->ops;
	counting_ops = *real_ops;
	counting_ops.read_page = counting_read_page;
	if (real_ops->file_offset)
		counting_ops.file_offset = counting_file_offset;
	d.in->ops = &counting_ops;
	memset(reads, 0, sizeof(reads));

	test_cache(d.mem);
	test_virtual(d.mem);

	unit_dump_close(&d);
	unlink(elf);
	unlink(factsfile);
	rmdir(dir);
	return unit_exit_status();
}
