// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A fixed set of batch slots moves FREE -> FILLING (the caller reads pages
 * in) -> QUEUED -> WORKING (a worker compresses) -> DONE -> TAKEN (the
 * caller writes the results) -> FREE.  Batches are numbered as they are
 * submitted and taken back in that order, whatever order the workers
 * finish them in.  Memory is bounded by the slots: threads + 2 batches.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codec/compress_pool.h"
#include "util/message.h"
#include "util/stage_times.h"
#include "util/zero_page.h"

enum slot_state { SLOT_FREE, SLOT_FILLING, SLOT_QUEUED, SLOT_WORKING, SLOT_DONE, SLOT_TAKEN };

struct slot {
	struct compress_batch batch;
	enum slot_state state;
	uint64_t seq;
};

struct compress_pool {
	enum mdf_codec codec;
	size_t page_size;
	bool find_zero;
	unsigned int nr_threads;
	pthread_t *threads;
	unsigned int started;
	/* One compressor per worker; [0] also serves the caller when there are none. */
	struct codec_compressor **compressors;
	struct slot *slots;
	size_t nr_slots;
	pthread_mutex_t lock;
	pthread_cond_t work;
	pthread_cond_t done;
	uint64_t next_seq;   /* the number the next submitted batch gets */
	uint64_t next_out;   /* the number of the batch to be taken back next */
	bool stopping;
	/* Whether the workers are worth their handoffs: decided on the first full batches. */
	enum { WORKERS_UNDECIDED, WORKERS_USED, WORKERS_IDLE } workers;
	/* Wall time of a batch's round trip through a worker, measured at start. */
	uint64_t handoff_ns;
	/* The trial before the decision: decide_workers(). */
	unsigned int trial_batches;
	uint64_t trial_start_ns;
	uint64_t trial_compress_ns;
};

struct worker_arg {
	struct compress_pool *pool;
	struct codec_compressor *compressor;
};

static void compress_batch(const struct compress_pool *pool, struct codec_compressor *c,
			   struct compress_batch *b)
{
	size_t ps = pool->page_size;

	for (size_t i = 0; i < b->count; i++) {
		const unsigned char *page = b->pages + i * ps;
		unsigned char *out = b->packed + i * ps;
		size_t len;

		b->zero[i] = pool->find_zero && page_is_zero(page, ps);
		if (b->zero[i])
			continue;
		/* Compressed only when that makes the page smaller, as upstream. */
		len = 0;
		if (pool->codec != CODEC_NONE)
			b->error = codec_compress(c, page, out, ps - 1, &len);
		if (b->error) {
			b->error_index = i;
			return;
		}
		if (!len) {
			b->size[i] = (uint32_t)ps;
			b->compressed[i] = false;
		} else {
			b->size[i] = (uint32_t)len;
			b->compressed[i] = true;
		}
	}
}

/* The queued batch submitted first, or NULL. */
static struct slot *oldest_queued(struct compress_pool *pool)
{
	struct slot *oldest = NULL;

	for (size_t i = 0; i < pool->nr_slots; i++)
		if (pool->slots[i].state == SLOT_QUEUED && (!oldest || pool->slots[i].seq < oldest->seq))
			oldest = &pool->slots[i];
	return oldest;
}

static void *worker(void *arg)
{
	struct worker_arg *w = arg;
	struct compress_pool *pool = w->pool;

	stage_enter(STAGE_COMPRESS);
	pthread_mutex_lock(&pool->lock);
	for (;;) {
		struct slot *s = NULL;

		while (!pool->stopping && !(s = oldest_queued(pool)))
			pthread_cond_wait(&pool->work, &pool->lock);
		if (pool->stopping)
			break;
		s->state = SLOT_WORKING;
		pthread_mutex_unlock(&pool->lock);
		compress_batch(pool, w->compressor, &s->batch);
		pthread_mutex_lock(&pool->lock);
		s->state = SLOT_DONE;
		pthread_cond_broadcast(&pool->done);
	}
	pthread_mutex_unlock(&pool->lock);
	free(w);
	stage_thread_end();
	return NULL;
}

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * Measures what handing a batch to a worker and taking it back costs
 * here, now: the median of a few round trips of an empty batch, which
 * take in the wake-ups of both threads (dear on a busy machine or in a
 * virtual machine) and no compression.
 */
#define HANDOFF_ROUNDS 5

static void measure_handoff(struct compress_pool *pool)
{
	uint64_t rounds[HANDOFF_ROUNDS];
	struct compress_batch *b;

	for (int i = 0; i < HANDOFF_ROUNDS; i++) {
		uint64_t start = clock_ns(CLOCK_MONOTONIC);

		b = compress_pool_get(pool);
		compress_pool_submit(pool, b);
		compress_pool_release(pool, compress_pool_next_done(pool));
		rounds[i] = clock_ns(CLOCK_MONOTONIC) - start;
	}
	for (int i = 1; i < HANDOFF_ROUNDS; i++)
		for (int j = i; j > 0 && rounds[j] < rounds[j - 1]; j--) {
			uint64_t t = rounds[j];

			rounds[j] = rounds[j - 1];
			rounds[j - 1] = t;
		}
	pool->handoff_ns = rounds[HANDOFF_ROUNDS / 2];
}

/*
 * What stopped the pool being set up: a library that cannot be loaded
 * says so itself; the rest say what was being set up.
 */
static struct mdf_error *setup_error(enum mdf_codec codec, unsigned int threads,
				     struct mdf_error *cause)
{
	struct mdf_error *err;

	if (cause->code == -ELIBACC)
		return cause;
	err = mdf_error(cause->code, "cannot set up %s compression on %u threads: %s",
			codec_name(codec), threads, mdf_error_text(cause));
	mdf_error_free(cause);
	return err;
}

struct mdf_error *compress_pool_new(enum mdf_codec codec, size_t page_size, unsigned int threads,
				    bool try_inline, bool find_zero, struct compress_pool **out)
{
	struct compress_pool *pool;
	unsigned int nr_compressors = threads ? threads : 1;
	struct mdf_error *err = &mdf_error_enomem;
	int code;

	pool = calloc(1, sizeof(*pool));
	if (!pool)
		return setup_error(codec, threads, err);
	pool->codec = codec;
	pool->page_size = page_size;
	pool->find_zero = find_zero;
	pool->nr_threads = threads;
	pool->nr_slots = threads ? threads + 2 : 1;
	pthread_mutex_init(&pool->lock, NULL);
	pthread_cond_init(&pool->work, NULL);
	pthread_cond_init(&pool->done, NULL);
	pool->threads = calloc(threads + 1, sizeof(*pool->threads));
	pool->compressors = calloc(nr_compressors, sizeof(*pool->compressors));
	pool->slots = calloc(pool->nr_slots, sizeof(*pool->slots));
	if (!pool->threads || !pool->compressors || !pool->slots)
		goto fail;
	for (size_t i = 0; i < pool->nr_slots; i++) {
		pool->slots[i].batch.pages = malloc(COMPRESS_BATCH_PAGES * page_size);
		pool->slots[i].batch.packed = malloc(COMPRESS_BATCH_PAGES * page_size);
		if (!pool->slots[i].batch.pages || !pool->slots[i].batch.packed)
			goto fail;
	}
	for (unsigned int i = 0; i < nr_compressors; i++) {
		err = codec_compressor_new(codec, page_size, &pool->compressors[i]);
		if (err)
			goto fail;
	}
	for (unsigned int i = 0; i < threads; i++) {
		struct worker_arg *arg = malloc(sizeof(*arg));

		err = &mdf_error_enomem;
		if (!arg)
			goto fail;
		*arg = (struct worker_arg){ pool, pool->compressors[i] };
		code = pthread_create(&pool->threads[i], NULL, worker, arg);
		if (code) {
			free(arg);
			err = mdf_error_code(-code);
			goto fail;
		}
		pool->started++;
	}
	pool->workers = threads ? WORKERS_USED : WORKERS_IDLE;
	if (threads && try_inline) {
		measure_handoff(pool);
		pool->workers = WORKERS_UNDECIDED;
	}
	*out = pool;
	return NULL;
fail:
	compress_pool_free(pool);
	return setup_error(codec, threads, err);
}

void compress_pool_free(struct compress_pool *pool)
{
	if (!pool)
		return;
	pthread_mutex_lock(&pool->lock);
	pool->stopping = true;
	pthread_cond_broadcast(&pool->work);
	pthread_mutex_unlock(&pool->lock);
	for (unsigned int i = 0; i < pool->started; i++)
		pthread_join(pool->threads[i], NULL);
	for (unsigned int i = 0; pool->compressors && i < (pool->nr_threads ? pool->nr_threads : 1); i++)
		codec_compressor_free(pool->compressors[i]);
	for (size_t i = 0; pool->slots && i < pool->nr_slots; i++) {
		free(pool->slots[i].batch.pages);
		free(pool->slots[i].batch.packed);
		mdf_error_free(pool->slots[i].batch.error);
	}
	pthread_mutex_destroy(&pool->lock);
	pthread_cond_destroy(&pool->work);
	pthread_cond_destroy(&pool->done);
	free(pool->threads);
	free(pool->compressors);
	free(pool->slots);
	free(pool);
}

static struct slot *slot_of(struct compress_batch *batch)
{
	return (struct slot *)((char *)batch - offsetof(struct slot, batch));
}

struct compress_batch *compress_pool_get(struct compress_pool *pool)
{
	struct compress_batch *found = NULL;

	pthread_mutex_lock(&pool->lock);
	for (size_t i = 0; i < pool->nr_slots && !found; i++) {
		if (pool->slots[i].state == SLOT_FREE) {
			pool->slots[i].state = SLOT_FILLING;
			found = &pool->slots[i].batch;
			found->count = 0;
		}
	}
	pthread_mutex_unlock(&pool->lock);
	return found;
}

/*
 * Whether the workers pay, from the first full batches, compressed in the
 * caller's thread: one in each slot to warm up (their first touch of
 * fresh memory is no codec's cost), then TRIAL_BATCHES measured: what the
 * codec costs a batch on this dump's pages, here (C), and what the caller
 * does besides (R: reading the pages, writing the results).  With
 * workers, the caller and a worker overlap at most min(R, C) of a batch,
 * and each batch costs a handoff: the workers take the batches only when
 * the overlap is worth more than the handoff, else they sleep.
 */
#define TRIAL_BATCHES 4

static void decide_workers(struct compress_pool *pool, uint64_t before_ns, uint64_t after_ns)
{
	uint64_t compress_ns, other_ns, overlap_ns;

	if (pool->trial_batches < pool->nr_slots) {
		pool->trial_batches++;
		pool->trial_start_ns = after_ns;
		return;
	}
	pool->trial_batches++;
	pool->trial_compress_ns += after_ns - before_ns;
	if (pool->trial_batches < pool->nr_slots + TRIAL_BATCHES)
		return;
	compress_ns = pool->trial_compress_ns / TRIAL_BATCHES;
	other_ns = (after_ns - pool->trial_start_ns - pool->trial_compress_ns) / TRIAL_BATCHES;
	overlap_ns = compress_ns < other_ns ? compress_ns : other_ns;
	pool->workers = overlap_ns > pool->handoff_ns ? WORKERS_USED : WORKERS_IDLE;
	msg_debug("%s, a batch of %d pages: %.1f us to compress, %.1f us besides, %.1f us to hand "
		  "it to a worker and back: %s", codec_name(pool->codec), COMPRESS_BATCH_PAGES,
		  compress_ns / 1e3, other_ns / 1e3, pool->handoff_ns / 1e3,
		  pool->workers == WORKERS_USED ? "on the workers" : "no worker");
}

void compress_pool_submit(struct compress_pool *pool, struct compress_batch *batch)
{
	struct slot *s = slot_of(batch);

	bool inline_ = pool->workers != WORKERS_USED;

	if (inline_) {
		enum run_stage was = stage_enter(STAGE_COMPRESS);
		bool trial = pool->workers == WORKERS_UNDECIDED && batch->count == COMPRESS_BATCH_PAGES;
		uint64_t before = trial ? clock_ns(CLOCK_THREAD_CPUTIME_ID) : 0;

		compress_batch(pool, pool->compressors[0], batch);
		stage_enter(was);
		if (trial)
			decide_workers(pool, before, clock_ns(CLOCK_THREAD_CPUTIME_ID));
	}
	pthread_mutex_lock(&pool->lock);
	s->seq = pool->next_seq++;
	s->state = inline_ ? SLOT_DONE : SLOT_QUEUED;
	pthread_cond_signal(&pool->work);
	pthread_mutex_unlock(&pool->lock);
}

struct compress_batch *compress_pool_next_done(struct compress_pool *pool)
{
	struct slot *s = NULL;

	pthread_mutex_lock(&pool->lock);
	if (pool->next_out < pool->next_seq) {
		for (;;) {
			for (size_t i = 0; i < pool->nr_slots && !s; i++)
				if (pool->slots[i].seq == pool->next_out &&
				    pool->slots[i].state == SLOT_DONE)
					s = &pool->slots[i];
			if (s)
				break;
			pthread_cond_wait(&pool->done, &pool->lock);
		}
		s->state = SLOT_TAKEN;
		pool->next_out++;
	}
	pthread_mutex_unlock(&pool->lock);
	return s ? &s->batch : NULL;
}

void compress_pool_release(struct compress_pool *pool, struct compress_batch *batch)
{
	pthread_mutex_lock(&pool->lock);
	slot_of(batch)->state = SLOT_FREE;
	pthread_mutex_unlock(&pool->lock);
}
