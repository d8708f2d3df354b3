// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_compress_pool: pages compressed on 0, 1, 2 and 4 worker threads,
 * and on 2 that the pool may leave idle after trying the first batches
 * in the caller's thread, with every codec, come back in submission order, decompress to the
 * pages given, and are byte for byte what a new compressor makes of each
 * page on its own: the output depends on the page alone, not on the
 * pages a compressor saw before, nor on which compressor (which thread)
 * took it.  The pages are synthetic ones (zeros, random bytes, a short
 * pattern) and the memory of a generated dump (the generator's kernel
 * structures).  Real kernels' pages, which met an encoder's dependence on
 * its own address that these pages never met, are tests/sh/t-compress.sh's.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codec/codec.h"
#include "codec/compress_pool.h"
#include "unit_check.h"
#include "unit_dump.h"
#include "util/zero_page.h"

#define PAGE 4096
#define SYNTHETIC_PAGES 1000
/* Enough of the generated dump to fill many batches on every thread. */
#define MAX_DUMP_PAGES 6000

struct page_set {
	unsigned char *pages;
	size_t count;
};

static void make_page(unsigned char *p, size_t n, unsigned int *seed)
{
	switch (n % 4) {
	case 0:
		memset(p, 0, PAGE);
		break;
	case 1:
		for (size_t i = 0; i < PAGE; i++)
			p[i] = (unsigned char)(rand_r(seed) & 0xff);
		break;
	default:
		for (size_t i = 0; i < PAGE; i++)
			p[i] = (unsigned char)("pattern of a page "[i % 18] + (n & 7));
	}
}

/* Adds the pages of the generated dump that are not all zeros, up to MAX_DUMP_PAGES. */
static void add_dump_pages(struct page_set *set)
{
	const char *dir = unit_workdir("test_compress_pool");
	char elf[600];
	struct dump_input *in = NULL;
	struct mdf_error *err;

	if (!dir)
		return;
	snprintf(elf, sizeof(elf), "%s/pool.elf", dir);
	if (!unit_mkvmcore(NULL, elf))
		goto out;
	err = input_open(elf, &in);
	check(!err, "the generated dump opens: %s", err ? mdf_error_text(err) : "yes");
	mdf_error_free(err);
	for (size_t r = 0; in && r < in->nr_ranges && set->count < SYNTHETIC_PAGES + MAX_DUMP_PAGES; r++) {
		for (uint64_t pfn = in->ranges[r].start / PAGE;
		     pfn < in->ranges[r].end / PAGE && set->count < SYNTHETIC_PAGES + MAX_DUMP_PAGES; pfn++) {
			unsigned char *p = set->pages + set->count * PAGE;

			err = input_read_page(in, pfn, p);
			if (err) {
				check(0, "pfn 0x%" PRIx64 " of the generated dump reads: %s", pfn,
				      mdf_error_text(err));
				mdf_error_free(err);
				goto out;
			}
			set->count += !page_is_zero(p, PAGE);
		}
	}
	check(set->count > SYNTHETIC_PAGES + MAX_DUMP_PAGES / 2, "%zu pages of the generated dump",
	      set->count - SYNTHETIC_PAGES);
out:
	if (in)
		input_close(in);
	unlink(elf);
	rmdir(dir);
}

/*
 * What each page should come out as: compressed by a compressor made for
 * it alone, or stored when that makes it no smaller (as the pool does),
 * each as its 4-byte size then its bytes; a zero page is 'Z'.
 */
static unsigned char *expected(enum mdf_codec codec, const struct page_set *set, size_t *out_len)
{
	unsigned char *out = malloc(set->count * (PAGE + 4)), *packed = malloc(PAGE);
	size_t len = 0;

	for (size_t n = 0; out && packed && n < set->count; n++) {
		const unsigned char *page = set->pages + n * PAGE;
		struct codec_compressor *c = NULL;
		size_t size = 0;
		uint32_t size32;

		if (page_is_zero(page, PAGE)) {
			out[len++] = 'Z';
			continue;
		}
		if (mdf_error_drop(codec_compressor_new(codec, PAGE, &c)) ||
		    mdf_error_drop(codec_compress(c, page, packed, PAGE - 1, &size)))
			size = 0;
		codec_compressor_free(c);
		if (!size) {
			memcpy(packed, page, PAGE);
			size = PAGE;
		}
		size32 = (uint32_t)size;
		memcpy(out + len, &size32, sizeof(size32));
		memcpy(out + len + 4, packed, size);
		len += 4 + size;
	}
	free(packed);
	*out_len = len;
	return out;
}

/* Runs every page through a pool; returns the concatenated output, as expected() lays it. */
static unsigned char *run(enum mdf_codec codec, unsigned int threads, bool try_inline,
			  const struct page_set *set, size_t *out_len, bool *ok)
{
	struct compress_pool *pool = NULL;
	unsigned char *out = malloc(set->count * (PAGE + 4)), *back = malloc(PAGE);
	size_t len = 0, next = 0, taken = 0;

	*ok = out && back && !mdf_error_drop(compress_pool_new(codec, PAGE, threads, try_inline, true, &pool));
	while (*ok && taken < set->count) {
		struct compress_batch *b;

		while (next < set->count && (b = compress_pool_get(pool))) {
			for (b->count = 0; b->count < COMPRESS_BATCH_PAGES && next < set->count;
			     b->count++, next++) {
				b->pfn[b->count] = next;
				memcpy(b->pages + b->count * PAGE, set->pages + next * PAGE, PAGE);
			}
			compress_pool_submit(pool, b);
		}
		b = compress_pool_next_done(pool);
		for (size_t i = 0; b && i < b->count; i++, taken++) {
			const unsigned char *page = set->pages + b->pfn[i] * PAGE;
			enum mdf_codec used;

			*ok = *ok && !b->error && b->pfn[i] == taken;
			if (b->zero[i]) {
				*ok = *ok && page_is_zero(page, PAGE);
				out[len++] = 'Z';
				continue;
			}
			used = b->compressed[i] ? codec : CODEC_NONE;
			*ok = *ok &&
			      !mdf_error_drop(codec_decompress(used, compress_batch_data(b, i, PAGE),
							       b->size[i], back, PAGE)) &&
			      !memcmp(back, page, PAGE);
			memcpy(out + len, &b->size[i], sizeof(b->size[i]));
			memcpy(out + len + 4, compress_batch_data(b, i, PAGE), b->size[i]);
			len += 4 + b->size[i];
		}
		if (b)
			compress_pool_release(pool, b);
		else
			*ok = false;
	}
	compress_pool_free(pool);
	free(back);
	*out_len = len;
	return out;
}

int main(void)
{
	static const enum mdf_codec codecs[] = { CODEC_NONE, CODEC_ZLIB, CODEC_LZO, CODEC_SNAPPY, CODEC_ZSTD };
	/* The last: 2 threads, the first batches tried in the caller's. */
	static const unsigned int thread_counts[] = { 0, 1, 2, 4, 2 };
	const size_t tried = sizeof(thread_counts) / sizeof(thread_counts[0]) - 1;
	struct page_set set = { malloc((size_t)(SYNTHETIC_PAGES + MAX_DUMP_PAGES) * PAGE), 0 };
	unsigned int seed = 1;

	if (!set.pages)
		return 1;
	for (; set.count < SYNTHETIC_PAGES; set.count++)
		make_page(set.pages + set.count * PAGE, set.count, &seed);
	add_dump_pages(&set);
	for (size_t c = 0; c < sizeof(codecs) / sizeof(codecs[0]); c++) {
		size_t want_len;
		unsigned char *want = expected(codecs[c], &set, &want_len);

		for (size_t t = 0; want && t < sizeof(thread_counts) / sizeof(thread_counts[0]); t++) {
			size_t len;
			bool ok;
			unsigned char *out = run(codecs[c], thread_counts[t], t == tried, &set, &len, &ok);
			const char *how = t == tried ? " if they pay" : "";

			check(ok, "in order, each page decompresses to itself: %s, %u threads%s",
			      codec_name(codecs[c]), thread_counts[t], how);
			check(out && len == want_len && !memcmp(out, want, len),
			      "each of %zu pages as a new compressor makes it alone: %s, %u threads%s",
			      set.count, codec_name(codecs[c]), thread_counts[t], how);
			free(out);
		}
		check(want != NULL, "memory for the expected output of %s", codec_name(codecs[c]));
		free(want);
	}
	free(set.pages);
	return unit_exit_status();
}
