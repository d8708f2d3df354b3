// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * zlib, lzo, snappy and zstd, one page at a time, as makedumpfile stores
 * them: zlib as a zlib-format stream (RFC 1950, not raw deflate), lzo as
 * LZO1X, snappy as a raw snappy block, zstd as one frame.  Readers of the
 * format (crash, libkdumpfile, makedumpfile) decode exactly these.  The
 * compressors use makedumpfile's settings (level 1 for zlib-format and
 * zstd, LZO1X-1), so that output size compares with upstream's; the
 * zlib-format encoder is a faster one than zlib's (zlib_encoder.h).
 */
#include <lzo/lzo1x.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "codec/codec.h"
#include "codec/snappy_lib.h"
#include "codec/zlib_encoder.h"
#include "util/message.h"

struct codec_compressor {
	enum mdf_codec codec;
	size_t page_size;
	struct zlib_encoder *deflate;
	ZSTD_CCtx *zstd;
	/* lzo1x_1_compress() keeps its dictionary here: one per thread. */
	lzo_align_t *lzo_wrkmem;
	/*
	 * lzo and snappy write up to their bound whatever the room given, so
	 * they compress here when the caller's buffer is smaller than that.
	 */
	unsigned char *scratch;
};

static pthread_once_t lzo_once = PTHREAD_ONCE_INIT;
static int lzo_init_status;

static void init_lzo(void)
{
	lzo_init_status = lzo_init();
}

/* lzo_init() checks the library was built for this ABI; it must come first. */
static struct mdf_error *ensure_lzo(void)
{
	pthread_once(&lzo_once, init_lzo);
	if (lzo_init_status == LZO_E_OK)
		return NULL;
	return mdf_error(-ELIBBAD, "the lzo library does not have the ABI of the lzo headers "
			 "this makedumpfile was built with (lzo_init() returned %d)",
			 lzo_init_status);
}

const char *codec_name(enum mdf_codec codec)
{
	switch (codec) {
	case CODEC_NONE:
		return "none";
	case CODEC_ZLIB:
		return "zlib";
	case CODEC_LZO:
		return "lzo";
	case CODEC_SNAPPY:
		return "snappy";
	case CODEC_ZSTD:
		return "zstd";
	}
	return "unknown";
}

/* @srclen bytes of @codec data that are not a stream of @dstlen bytes. */
static struct mdf_error *corrupt(enum mdf_codec codec, size_t srclen, size_t dstlen)
{
	return mdf_error(-MDF_ECORRUPT, "%zu bytes of %s data do not decompress to %zu bytes",
			 srclen, codec_name(codec), dstlen);
}

static struct mdf_error *decompress_zlib(const void *src, size_t srclen, void *dst,
					 size_t dstlen)
{
	uLongf len = dstlen;
	int ret = uncompress(dst, &len, src, srclen);

	if (ret == Z_MEM_ERROR)
		return &mdf_error_enomem;
	return ret == Z_OK && len == dstlen ? NULL : corrupt(CODEC_ZLIB, srclen, dstlen);
}

static struct mdf_error *decompress_lzo(const void *src, size_t srclen, void *dst,
					size_t dstlen)
{
	lzo_uint len = dstlen;
	struct mdf_error *err = ensure_lzo();

	if (err)
		return err;
	if (lzo1x_decompress_safe(src, srclen, dst, &len, NULL) != LZO_E_OK || len != dstlen)
		return corrupt(CODEC_LZO, srclen, dstlen);
	return NULL;
}

static struct mdf_error *decompress_snappy(const void *src, size_t srclen, void *dst,
					   size_t dstlen)
{
	const struct snappy_lib *snappy = snappy_lib();
	size_t len;

	if (!snappy)
		return mdf_error(-ELIBACC, "cannot decompress snappy data: %s", snappy_lib_error());
	/* snappy_uncompress() would overrun a buffer shorter than the stream says. */
	if (snappy->uncompressed_length(src, srclen, &len) != SNAPPY_OK || len != dstlen ||
	    snappy->uncompress(src, srclen, dst, &len) != SNAPPY_OK || len != dstlen)
		return corrupt(CODEC_SNAPPY, srclen, dstlen);
	return NULL;
}

/*
 * ZSTD_decompress() sets up a context of its own per call, which costs as
 * much as decompressing a page: each thread keeps one instead, freed when
 * the thread ends.
 */
static pthread_key_t zstd_dctx_key;
static pthread_once_t zstd_dctx_once = PTHREAD_ONCE_INIT;
static int zstd_dctx_key_status;

static void free_zstd_dctx(void *dctx)
{
	ZSTD_freeDCtx(dctx);
}

static void init_zstd_dctx_key(void)
{
	zstd_dctx_key_status = pthread_key_create(&zstd_dctx_key, free_zstd_dctx);
}

static ZSTD_DCtx *thread_zstd_dctx(void)
{
	ZSTD_DCtx *dctx;

	pthread_once(&zstd_dctx_once, init_zstd_dctx_key);
	if (zstd_dctx_key_status)
		return NULL;
	dctx = pthread_getspecific(zstd_dctx_key);
	if (dctx)
		return dctx;
	dctx = ZSTD_createDCtx();
	if (dctx && pthread_setspecific(zstd_dctx_key, dctx)) {
		ZSTD_freeDCtx(dctx);
		dctx = NULL;
	}
	return dctx;
}

static struct mdf_error *decompress_zstd(const void *src, size_t srclen, void *dst,
					 size_t dstlen)
{
	ZSTD_DCtx *dctx = thread_zstd_dctx();
	size_t len;

	if (!dctx)
		return &mdf_error_enomem;
	len = ZSTD_decompressDCtx(dctx, dst, dstlen, src, srclen);
	if (ZSTD_isError(len) && ZSTD_getErrorCode(len) == ZSTD_error_memory_allocation)
		return &mdf_error_enomem;
	return !ZSTD_isError(len) && len == dstlen ? NULL : corrupt(CODEC_ZSTD, srclen, dstlen);
}

const char *codec_load_error(enum mdf_codec codec)
{
	return codec == CODEC_SNAPPY && !snappy_lib() ? snappy_lib_error() : NULL;
}

struct mdf_error *codec_decompress(enum mdf_codec codec, const void *src, size_t srclen,
				   void *dst, size_t dstlen)
{
	switch (codec) {
	case CODEC_NONE:
		if (srclen != dstlen)
			return corrupt(codec, srclen, dstlen);
		memcpy(dst, src, dstlen);
		return NULL;
	case CODEC_ZLIB:
		return decompress_zlib(src, srclen, dst, dstlen);
	case CODEC_LZO:
		return decompress_lzo(src, srclen, dst, dstlen);
	case CODEC_SNAPPY:
		return decompress_snappy(src, srclen, dst, dstlen);
	case CODEC_ZSTD:
		return decompress_zstd(src, srclen, dst, dstlen);
	}
	return mdf_error(-EINVAL, "no codec %d", (int)codec);
}

size_t codec_bound(enum mdf_codec codec, size_t page_size)
{
	switch (codec) {
	case CODEC_NONE:
		return page_size;
	case CODEC_ZLIB:
		return zlib_encoder_bound(page_size);
	case CODEC_LZO:
		/* The worst case documented by LZO for incompressible input. */
		return page_size + page_size / 16 + 64 + 3;
	case CODEC_SNAPPY:
		return snappy_lib() ? snappy_lib()->max_compressed_length(page_size) : 0;
	case CODEC_ZSTD:
		return ZSTD_compressBound(page_size);
	}
	return 0;
}

struct mdf_error *codec_compressor_new(enum mdf_codec codec, size_t page_size,
				       struct codec_compressor **out)
{
	struct codec_compressor *c;
	struct mdf_error *err = NULL;

	if (codec == CODEC_SNAPPY && !snappy_lib())
		return mdf_error(-ELIBACC, "cannot compress with snappy: %s", snappy_lib_error());
	/* zlib counts in uInt; pages are far smaller. */
	if (page_size == 0 || page_size > UINT32_MAX / 2 || codec_bound(codec, page_size) == 0)
		return mdf_error(-EINVAL, "%s cannot compress pages of %zu bytes",
				 codec_name(codec), page_size);
	c = calloc(1, sizeof(*c));
	if (!c)
		return &mdf_error_enomem;
	c->codec = codec;
	c->page_size = page_size;
	switch (codec) {
	case CODEC_NONE:
		break;
	case CODEC_ZLIB:
		err = zlib_encoder_new(&c->deflate);
		break;
	case CODEC_LZO:
		err = ensure_lzo();
		if (err)
			break;
		c->lzo_wrkmem = malloc(LZO1X_1_MEM_COMPRESS);
		c->scratch = malloc(codec_bound(codec, page_size));
		if (!c->lzo_wrkmem || !c->scratch)
			err = &mdf_error_enomem;
		break;
	case CODEC_SNAPPY:
		c->scratch = malloc(codec_bound(codec, page_size));
		if (!c->scratch)
			err = &mdf_error_enomem;
		break;
	case CODEC_ZSTD:
		c->zstd = ZSTD_createCCtx();
		if (!c->zstd)
			err = &mdf_error_enomem;
		break;
	}
	if (err) {
		codec_compressor_free(c);
		return err;
	}
	*out = c;
	return NULL;
}

static struct mdf_error *compress_zstd(struct codec_compressor *c, const void *src, void *dst,
				       size_t dstcap, size_t *outlen)
{
	size_t len = ZSTD_compressCCtx(c->zstd, dst, dstcap, src, c->page_size, 1);

	*outlen = 0;
	if (!ZSTD_isError(len))
		*outlen = len;
	else if (ZSTD_getErrorCode(len) == ZSTD_error_memory_allocation)
		return &mdf_error_enomem;
	else if (ZSTD_getErrorCode(len) != ZSTD_error_dstSize_tooSmall)
		return mdf_error(-EINVAL, "ZSTD_compressCCtx(): %s", ZSTD_getErrorName(len));
	return NULL;
}

/* For lzo and snappy, which need room for their bound. */
static struct mdf_error *compress_bounded(struct codec_compressor *c, const void *src, void *dst,
					  size_t dstcap, size_t *outlen)
{
	size_t bound = codec_bound(c->codec, c->page_size);
	unsigned char *out = dstcap >= bound ? dst : c->scratch;
	size_t len;

	*outlen = 0;
	if (c->codec == CODEC_LZO) {
		lzo_uint lzo_len = bound;

		if (lzo1x_1_compress(src, c->page_size, out, &lzo_len, c->lzo_wrkmem) != LZO_E_OK)
			return mdf_error(-EINVAL, "lzo1x_1_compress() failed");
		len = lzo_len;
	} else {
		len = bound;
		if (snappy_lib()->compress(src, c->page_size, (char *)out, &len) != SNAPPY_OK)
			return mdf_error(-EINVAL, "snappy_compress() failed");
	}
	if (len > dstcap)
		return NULL;
	if (out != dst)
		memcpy(dst, out, len);
	*outlen = len;
	return NULL;
}

struct mdf_error *codec_compress(struct codec_compressor *c, const void *src, void *dst,
				 size_t dstcap, size_t *outlen)
{
	switch (c->codec) {
	case CODEC_NONE:
		*outlen = dstcap < c->page_size ? 0 : c->page_size;
		memcpy(dst, src, *outlen);
		return NULL;
	case CODEC_ZLIB:
		/* 0: the stream would not fit in @dstcap bytes. */
		*outlen = zlib_encoder_compress(c->deflate, src, c->page_size, dst, dstcap);
		return NULL;
	case CODEC_LZO:
	case CODEC_SNAPPY:
		return compress_bounded(c, src, dst, dstcap, outlen);
	case CODEC_ZSTD:
		return compress_zstd(c, src, dst, dstcap, outlen);
	}
	return mdf_error(-EINVAL, "no codec %d", (int)c->codec);
}

void codec_compressor_free(struct codec_compressor *c)
{
	if (!c)
		return;
	zlib_encoder_free(c->deflate);
	ZSTD_freeCCtx(c->zstd);
	free(c->lzo_wrkmem);
	free(c->scratch);
	free(c);
}
