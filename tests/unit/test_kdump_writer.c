// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_kdump_writer: the kdump-compressed writer on a synthetic memory of
 * known content, read back through input/kdump_compressed.c.  Needs no fixture:
 *  - every codec, one cycle and many (the two-pass path), plain and
 *    flattened (reassembled by flat_reassemble), a pfn count that is not a
 *    multiple of 8 and a classifier that scribbles past the cycle's end:
 *    every page reads back as written or as excluded / not dumped, zero
 *    pages counted, header fields as given;
 *  - the parts of a split dump: each page in the part of its pfn only;
 *  - failures: a classification that changes between the passes, a failing
 *    callback, a page to dump that the input excluded, nothing to dump,
 *    bad parameters, an existing file: an error, and no file left (or the
 *    old one kept);
 *  - a page the source cannot read: the rest written, the file marked
 *    incomplete.
 *
 * Prints one "ok" or "FAIL" line per check; exits 1 if any failed.
 */
#include <endian.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input/dump_input.h"
#include "output/flat.h"
#include "output/kdump_writer.h"
#include "unit_check.h"
#include "util/error.h"
#include "util/message.h"

#define PAGE 4096
#define MAX_PFN 1001
#define VMCOREINFO "OSRELEASE=6.1.0-test\nPAGESIZE=4096\n"

static char dir[] = "/tmp/test_kdump_writer.XXXXXX";

/* Prints @err, if any, as makedumpfile would, for the log; its code, or 0. */
static int said(struct mdf_error *err)
{
	return mdf_error_print(err, false);
}

/* The synthetic machine: which pages exist, which to dump, and their bytes. */
static bool is_present(uint64_t pfn)
{
	return pfn % 7 != 3 && pfn < MAX_PFN;
}

static bool is_dumpable(uint64_t pfn)
{
	return is_present(pfn) && pfn % 5 != 1;
}

static void fill_page(uint64_t pfn, unsigned char *buf)
{
	/* Zero pages, text-like pages that compress, and noise that does not. */
	if (pfn % 3 == 0) {
		memset(buf, 0, PAGE);
	} else if (pfn % 3 == 1) {
		for (size_t i = 0; i < PAGE; i++)
			buf[i] = (unsigned char)("page %llu of the test "[i % 22] + (pfn % 7));
	} else {
		uint64_t x = pfn * 0x9e3779b97f4a7c15ull + 1;

		for (size_t i = 0; i < PAGE; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[i] = (unsigned char)x;
		}
	}
}

struct source {
	/* Calls of classify, to change the answer of the second pass. */
	int classify_calls;
	int change_at_call;
	bool fail_classify;
	bool scribble;
	bool nothing;
	uint64_t excluded_pfn;
	/* With @lose, a page the source cannot read (page_source_unreadable). */
	bool lose;
	uint64_t lost_pfn;
	struct page_counts excluded;
};

static struct mdf_error *classify(void *ctx, uint64_t start, uint64_t end, uint8_t *present,
				  uint8_t *dumpable, struct page_counts *counts)
{
	struct source *s = ctx;
	size_t len = (size_t)(end - start + 7) / 8;

	s->classify_calls++;
	if (s->fail_classify)
		return mdf_error(-EIO, "test: classification failed");
	for (uint64_t pfn = start; pfn < end; pfn++) {
		if (is_present(pfn))
			present[(pfn - start) / 8] |= (uint8_t)(1u << ((pfn - start) % 8));
		if (is_dumpable(pfn) && !s->nothing)
			dumpable[(pfn - start) / 8] |= (uint8_t)(1u << ((pfn - start) % 8));
		else if (is_present(pfn))
			counts->free++;
	}
	if (s->scribble && (end - start) % 8) {
		/* Past the last pfn, in the bitmaps' last byte: the writer must drop it. */
		present[len - 1] |= 0x80;
		dumpable[len - 1] |= 0x80;
	}
	if (s->classify_calls == s->change_at_call)
		dumpable[0] ^= 1;
	return NULL;
}

static struct mdf_error *read_page(void *ctx, uint64_t pfn, void *buf)
{
	struct source *s = ctx;

	if (pfn == s->excluded_pfn)
		return &mdf_error_excluded;
	if (s->lose && pfn == s->lost_pfn) {
		memset(buf, 0, PAGE);
		return &page_source_unreadable;
	}
	fill_page(pfn, buf);
	return NULL;
}

/* Notes as a kexec'd kernel leaves them: two CPUs, then VMCOREINFO. */
static size_t make_notes(unsigned char *notes)
{
	size_t pos = 0;

	for (int cpu = 0; cpu < 3; cpu++) {
		static const char vmcoreinfo[] = VMCOREINFO;
		bool info = cpu == 2;
		uint32_t hdr[3] = { info ? 11 : 5, info ? sizeof(vmcoreinfo) - 1 : 336, info ? 0 : 1 };

		memcpy(notes + pos, hdr, sizeof(hdr));
		memcpy(notes + pos + 12, info ? "VMCOREINFO\0\0" : "CORE\0\0\0\0", info ? 12 : 8);
		pos += 12 + (info ? 12 : 8);
		if (info)
			memcpy(notes + pos, vmcoreinfo, sizeof(vmcoreinfo) - 1);
		else
			memset(notes + pos, cpu + 1, 336);
		pos += (hdr[1] + 3) & ~3u;
	}
	return pos;
}

static unsigned char notes[4096];
static size_t notes_size;

static struct kdump_writer_params params(const char *path, enum mdf_codec codec, uint64_t cycle)
{
	static struct kdump_utsname uts = { .sysname = "Linux", .release = "6.1.0-test" };

	return (struct kdump_writer_params){
		.path = path,
		.codec = codec,
		.dump_level = 1,
		.page_size = PAGE,
		.max_pfn = MAX_PFN,
		.phys_base = 0x12345000,
		.uts = &uts,
		.timestamp_sec = 1700000000,
		.nr_cpus = kdump_count_cpus(notes, notes_size),
		.notes = notes,
		.notes_size = notes_size,
		.cycle_pfns = cycle,
	};
}

static int write_dump(const struct kdump_writer_params *p, struct source *s,
		      struct page_counts *counts, struct kdump_write_result *result)
{
	struct page_source src = { .classify = classify, .read_page = read_page, .ctx = s };

	int err;

	memset(counts, 0, sizeof(*counts));
	err = said(kdump_write(p, &src, counts, result));
	said(result->fate.error);
	result->fate.error = NULL;
	dump_file_fate_tell(&result->fate);
	return err;
}

/* Every pfn reads back as the synthetic machine has it. */
static void check_readback(const char *path, const char *what)
{
	unsigned char want[PAGE], got[PAGE];
	struct dump_input *in;
	int bad = 0;

	if (mdf_error_print(input_open(path, &in), false)) {
		check(0, "%s: our reader opens it", what);
		return;
	}
	for (uint64_t pfn = 0; pfn < MAX_PFN + 10; pfn++) {
		int err = mdf_error_drop(input_read_page(in, pfn, got)), want_err = 0;

		if (!is_present(pfn))
			want_err = -MDF_ENOTDUMPED;
		else if (!is_dumpable(pfn))
			want_err = -MDF_EEXCLUDED;
		fill_page(pfn, want);
		if (err != want_err || (!err && memcmp(got, want, PAGE)))
			bad++;
	}
	check(!bad, "%s: every pfn reads back as written (%d wrong)", what, bad);
	check(in->kdump && in->kdump->nr_cpus == 2 && in->kdump->dump_level == 1 &&
	      in->kdump->phys_base == 0x12345000 && in->kdump->max_mapnr == MAX_PFN &&
	      !strcmp(in->kdump->release, "6.1.0-test"), "%s: header fields", what);
	check(in->vmcoreinfo && !strcmp(in->vmcoreinfo, VMCOREINFO) &&
	      in->notes_size == notes_size && !memcmp(in->notes, notes, notes_size),
	      "%s: notes and VMCOREINFO embedded", what);
	input_close(in);
}

static bool same_files(const char *a, const char *b)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "cmp -s %s %s", a, b);
	return system(cmd) == 0;
}

static void test_codecs(void)
{
	static const enum mdf_codec codecs[] = { CODEC_NONE, CODEC_ZLIB, CODEC_LZO, CODEC_SNAPPY,
						 CODEC_ZSTD };
	uint64_t zero = 0, dumpable = 0, present = 0;

	for (uint64_t pfn = 0; pfn < MAX_PFN; pfn++) {
		present += is_present(pfn);
		dumpable += is_dumpable(pfn);
		zero += is_dumpable(pfn) && pfn % 3 == 0;
	}
	for (size_t i = 0; i < sizeof(codecs) / sizeof(codecs[0]); i++) {
		const char *one = unit_path(dir, "one.kdump"), *many = unit_path(dir, "many.kdump");
		struct kdump_writer_params p = params(one, codecs[i], 1 << 20);
		struct source s = { .scribble = true, .excluded_pfn = UINT64_MAX };
		struct kdump_write_result r;
		struct page_counts counts;
		int err = write_dump(&p, &s, &counts, &r);

		check(!err && s.classify_calls == 1 && r.pfn_present == present &&
		      r.pfn_dumpable == dumpable && counts.zero == zero &&
		      counts.free == present - dumpable,
		      "%s, one cycle: classified once, %llu present, %llu dumpable, %llu zero",
		      codec_name(codecs[i]), (unsigned long long)r.pfn_present,
		      (unsigned long long)r.pfn_dumpable, (unsigned long long)counts.zero);
		check_readback(one, codec_name(codecs[i]));

		p = params(many, codecs[i], 64);
		s.classify_calls = 0;
		err = write_dump(&p, &s, &counts, &r);
		check(!err && s.classify_calls == 2 * 16 && counts.zero == zero &&
		      counts.free == present - dumpable && same_files(one, many),
		      "%s, 16 cycles: classified twice, counted once, the same file",
		      codec_name(codecs[i]));
		unlink(one);
		unlink(many);
	}
}

static void test_flattened(void)
{
	const char *plain = unit_path(dir, "plain.kdump"), *flat = unit_path(dir, "dump.flat");
	const char *back = unit_path(dir, "back.kdump");
	struct kdump_writer_params p = params(plain, CODEC_LZO, 128);
	struct source s = { .excluded_pfn = UINT64_MAX };
	struct kdump_write_result r, rf;
	struct page_counts counts;
	int err = write_dump(&p, &s, &counts, &r);
	int fd;

	p = params(flat, CODEC_LZO, 128);
	p.flatten = true;
	err = err ? err : write_dump(&p, &s, &counts, &rf);
	fd = open(flat, O_RDONLY);
	err = err ? err : said(flat_reassemble(fd, flat, back, false, 0));
	check(!err && same_files(plain, back) && rf.bytes_written > r.bytes_written,
	      "flattened: reassembles into the plain file; its framing is counted (%llu > %llu)",
	      (unsigned long long)rf.bytes_written, (unsigned long long)r.bytes_written);
	if (fd >= 0)
		close(fd);
	unlink(plain);
	unlink(flat);
	unlink(back);
}

/* Three parts of a split dump: each pfn to dump reads from the part that holds it only. */
static void test_split(void)
{
	static const uint64_t bounds[] = { 0, 300, 304, MAX_PFN };
	struct dump_input *in[3] = { NULL };
	unsigned char got[PAGE], want[PAGE];
	int bad = 0, err = 0;

	for (int i = 0; i < 3 && !err; i++) {
		struct kdump_writer_params p = params(unit_path(dir, i ? i == 1 ? "p2" : "p3" : "p1"),
						      CODEC_ZSTD, 64);
		struct source s = { .excluded_pfn = UINT64_MAX };
		struct kdump_write_result r;
		struct page_counts counts;

		p.split = true;
		p.start_pfn = bounds[i];
		p.end_pfn = bounds[i + 1];
		err = write_dump(&p, &s, &counts, &r);
		if (!err)
			err = mdf_error_print(input_open(p.path, &in[i]), false);
	}
	for (uint64_t pfn = 0; pfn < MAX_PFN && !err; pfn++) {
		fill_page(pfn, want);
		for (int i = 0; i < 3; i++) {
			bool mine = pfn >= bounds[i] && pfn < bounds[i + 1] && is_dumpable(pfn);
			int e = mdf_error_drop(input_read_page(in[i], pfn, got));

			if (mine ? e || memcmp(got, want, PAGE) : !e)
				bad++;
		}
	}
	check(!err && !bad && in[0]->kdump->split && in[2]->kdump->start_pfn == 304 &&
	      in[2]->kdump->end_pfn == MAX_PFN,
	      "split into 3 parts (one of 4 pfns): each page in its part only (%d wrong)", bad);
	for (int i = 0; i < 3; i++)
		input_close(in[i]);
	unlink(unit_path(dir, "p1"));
	unlink(unit_path(dir, "p2"));
	unlink(unit_path(dir, "p3"));
}

static void test_failures(void)
{
	const char *path = unit_path(dir, "fail.kdump");
	struct kdump_writer_params p;
	struct kdump_write_result r;
	struct page_counts counts;
	int err;

	p = params(path, CODEC_ZLIB, 64);
	err = write_dump(&p, &(struct source){ .change_at_call = 16 + 5,
					       .excluded_pfn = UINT64_MAX },
			 &counts, &r);
	check(err == -EAGAIN && access(path, F_OK) != 0,
	      "a classification that changes between the passes: %d, no file", err);

	err = write_dump(&p, &(struct source){ .fail_classify = true }, &counts, &r);
	check(err == -EIO && access(path, F_OK) != 0, "a failing classifier: %d, no file", err);

	err = write_dump(&p, &(struct source){ .excluded_pfn = 502 }, &counts, &r);
	check(err == -MDF_EEXCLUDED && access(path, F_OK) != 0,
	      "an unreadable page: %d, no file", err);

	err = write_dump(&p, &(struct source){ .nothing = true }, &counts, &r);
	check(err == -EINVAL && access(path, F_OK) != 0, "nothing to dump: %d, no file", err);

	p.cycle_pfns = 12;
	err = write_dump(&p, &(struct source){ 0 }, &counts, &r);
	check(err == -EINVAL && access(path, F_OK) != 0, "a cycle of 12 pfns: %d, no file", err);

	p = params(path, CODEC_ZLIB, 64);
	p.page_size = 3000;
	err = write_dump(&p, &(struct source){ 0 }, &counts, &r);
	check(err == -EINVAL && access(path, F_OK) != 0, "a page size of 3000: %d", err);

	p = params(path, CODEC_ZLIB, 64);
	close(open(path, O_WRONLY | O_CREAT, 0600));
	err = write_dump(&p, &(struct source){ .excluded_pfn = UINT64_MAX }, &counts, &r);
	check(err == -EEXIST && access(path, F_OK) == 0, "an existing file: %d, kept", err);
	p.force = true;
	err = write_dump(&p, &(struct source){ .excluded_pfn = UINT64_MAX }, &counts, &r);
	check(!err, "an existing file with force: %d", err);
	unlink(path);
}

/* A page the source cannot read costs that page only, and the header says so. */
static void test_unreadable(void)
{
	const char *path = unit_path(dir, "lost.kdump");
	struct kdump_writer_params p = params(path, CODEC_ZLIB, 64);
	struct source s = { .excluded_pfn = UINT64_MAX, .lose = true, .lost_pfn = 502 };
	struct kdump_disk_header dh = { 0 };
	struct kdump_write_result r;
	struct page_counts counts;
	int err, fd;

	err = write_dump(&p, &s, &counts, &r);
	fd = open(path, O_RDONLY);
	check(!err && fd >= 0 && pread(fd, &dh, sizeof(dh), 0) == (ssize_t)sizeof(dh) &&
	      (le32toh(dh.status) & DUMP_DH_COMPRESSED_INCOMPLETE),
	      "an unreadable page: %d, the file written and marked incomplete", err);
	if (fd >= 0)
		close(fd);
	unlink(path);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	msg_set_level(ML_ERROR);
	notes_size = make_notes(notes);
	check(kdump_count_cpus(notes, notes_size) == 2, "two NT_PRSTATUS notes counted");
	test_codecs();
	test_flattened();
	test_split();
	test_failures();
	test_unreadable();
	rmdir(dir);
	return unit_exit_status();
}
