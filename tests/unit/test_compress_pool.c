// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_compress_pool: pages compressed on 0, 1, 2 and 4 worker threads,
 * with every codec, come back in submission order, byte for byte the same
 * whatever the number of threads, and decompress to the pages given.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/codec.h"
#include "codec/compress_pool.h"
#include "unit_check.h"

#define PAGE 4096
#define PAGES 2000

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

/* Runs every page through a pool; returns the concatenated output. */
static unsigned char *run(enum mdf_codec codec, unsigned int threads, const unsigned char *pages,
			  size_t *out_len, bool *ok)
{
	struct compress_pool *pool;
	unsigned char *out = malloc((size_t)PAGES * (PAGE + 16)), *back = malloc(PAGE);
	size_t len = 0, next = 0, taken = 0;

	*ok = out && back && !compress_pool_new(codec, PAGE, threads, true, &pool);
	while (*ok && taken < PAGES) {
		struct compress_batch *b;

		while (next < PAGES && (b = compress_pool_get(pool))) {
			for (b->count = 0; b->count < COMPRESS_BATCH_PAGES && next < PAGES; b->count++, next++) {
				b->pfn[b->count] = next;
				memcpy(b->pages + b->count * PAGE, pages + next * PAGE, PAGE);
			}
			compress_pool_submit(pool, b);
		}
		b = compress_pool_next_done(pool);
		for (size_t i = 0; b && i < b->count; i++, taken++) {
			const unsigned char *page = pages + b->pfn[i] * PAGE;
			enum mdf_codec used;

			*ok = *ok && !b->error && b->pfn[i] == taken;
			if (b->zero[i]) {
				*ok = *ok && page[0] == 0 && !memcmp(page, page + 1, PAGE - 1);
				out[len++] = 'Z';
				continue;
			}
			used = b->compressed[i] ? codec : CODEC_NONE;
			*ok = *ok && !codec_decompress(used, b->packed + i * PAGE, b->size[i], back, PAGE) &&
			      !memcmp(back, page, PAGE);
			memcpy(out + len, &b->size[i], sizeof(b->size[i]));
			memcpy(out + len + 4, b->packed + i * PAGE, b->size[i]);
			len += 4 + b->size[i];
		}
		if (b)
			compress_pool_release(pool, b);
		else
			*ok = false;
	}
	if (pool)
		compress_pool_free(pool);
	free(back);
	*out_len = len;
	return out;
}

int main(void)
{
	static const enum mdf_codec codecs[] = { CODEC_NONE, CODEC_ZLIB, CODEC_LZO, CODEC_SNAPPY, CODEC_ZSTD };
	static const unsigned int thread_counts[] = { 0, 1, 2, 4 };
	unsigned char *pages = malloc((size_t)PAGES * PAGE);
	unsigned int seed = 1;

	if (!pages)
		return 1;
	for (size_t n = 0; n < PAGES; n++)
		make_page(pages + n * PAGE, n, &seed);
	for (size_t c = 0; c < sizeof(codecs) / sizeof(codecs[0]); c++) {
		unsigned char *first = NULL;
		size_t first_len = 0;

		for (size_t t = 0; t < sizeof(thread_counts) / sizeof(thread_counts[0]); t++) {
			size_t len;
			bool ok;
			unsigned char *out = run(codecs[c], thread_counts[t], pages, &len, &ok);

			check(ok, "in order, each page decompresses to itself: %s, %u threads",
			      codec_name(codecs[c]), thread_counts[t]);
			if (!first) {
				first = out;
				first_len = len;
				continue;
			}
			check(len == first_len && !memcmp(out, first, len),
			      "the same output as with no thread: %s, %u threads",
			      codec_name(codecs[c]), thread_counts[t]);
			free(out);
		}
		free(first);
	}
	free(pages);
	return unit_exit_status();
}
