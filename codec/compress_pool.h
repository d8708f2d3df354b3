/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Page compression on worker threads, results in submission order.
 *
 * The writer reads pages into a batch, submits it, and takes finished
 * batches back in the order it submitted them; meanwhile it reads the next
 * batch.  Each page is compressed on its own, so the output does not depend
 * on the number of threads: a dump written with eight is byte for byte the
 * dump written with none.
 */
#ifndef MDF_CODEC_COMPRESS_POOL_H
#define MDF_CODEC_COMPRESS_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/codec.h"
#include "util/error.h"

#define COMPRESS_BATCH_PAGES 64

struct compress_batch {
	size_t count;
	uint64_t pfn[COMPRESS_BATCH_PAGES];
	/* Filled by the caller: page i at i * page_size. */
	unsigned char *pages;
	/* Set by the caller, left alone by the pool: page i could not be read. */
	bool unreadable[COMPRESS_BATCH_PAGES];
	/*
	 * Filled by the pool: a zero page (when zero pages are looked for), or
	 * @size bytes, @compressed with the pool's codec at packed + i *
	 * page_size, or stored as it is (size == page_size), where it was
	 * read: compress_batch_data() says where.
	 */
	bool zero[COMPRESS_BATCH_PAGES];
	uint32_t size[COMPRESS_BATCH_PAGES];
	bool compressed[COMPRESS_BATCH_PAGES];
	unsigned char *packed;
	/* Why compressing page error_index failed: the caller's to take (and NULL it). */
	struct mdf_error *error;
	size_t error_index;
};

struct compress_pool;

/* The bytes to store of page @i of @b, compressed or as read. */
static inline const unsigned char *compress_batch_data(const struct compress_batch *b, size_t i,
						       size_t page_size)
{
	return (b->compressed[i] ? b->packed : b->pages) + i * page_size;
}

/*
 * @threads 0 compresses in the caller's thread, at submission.  With
 * @try_inline, the first batches are compressed there too, timed, to
 * learn whether the workers pay for their handoffs on these pages, here:
 * if not, every batch stays in the caller's thread (compress_pool.c
 * says how it decides).  With @find_zero, pages of zeros are flagged
 * instead of compressed.  Fails with -ELIBACC when the codec's library
 * cannot be loaded, saying why, or when a worker or its memory cannot be
 * had.
 */
struct mdf_error *compress_pool_new(enum mdf_codec codec, size_t page_size, unsigned int threads,
				    bool try_inline, bool find_zero, struct compress_pool **out);
/* Waits for the workers and frees everything. */
void compress_pool_free(struct compress_pool *pool);

/* A batch to fill, or NULL when all are in flight (take one back first). */
struct compress_batch *compress_pool_get(struct compress_pool *pool);
void compress_pool_submit(struct compress_pool *pool, struct compress_batch *batch);
/* The oldest submitted batch, once done; NULL when none is in flight. */
struct compress_batch *compress_pool_next_done(struct compress_pool *pool);
/* Gives a batch taken back with compress_pool_next_done() to be filled again. */
void compress_pool_release(struct compress_pool *pool, struct compress_batch *batch);

#endif
