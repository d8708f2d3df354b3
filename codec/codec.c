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
static int ensure_lzo(void)
{
	pthread_once(&lzo_once, init_lzo);
	return lzo_init_status == LZO_E_OK ? 0 : -ELIBBAD;
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

static int decompress_zlib(const void *src, size_t srclen, void *dst, size_t dstlen)
{
	uLongf len = dstlen;
	int ret = uncompress(dst, &len, src, srclen);

	if (ret == Z_MEM_ERROR)
		return -ENOMEM;
	return ret == Z_OK && len == dstlen ? 0 : -MDF_ECORRUPT;
}

static int decompress_lzo(const void *src, size_t srclen, void *dst, size_t dstlen)
{
	lzo_uint len = dstlen;
	int err = ensure_lzo();

	if (err)
		return err;
	if (lzo1x_decompress_safe(src, srclen, dst, &len, NULL) != LZO_E_OK || len != dstlen)
		return -MDF_ECORRUPT;
	return 0;
}

static int decompress_snappy(const void *src, size_t srclen, void *dst, size_t dstlen)
{
	const struct snappy_lib *snappy = snappy_lib();
	size_t len;

	if (!snappy)
		return -ELIBACC;
	/* snappy_uncompress() would overrun a buffer shorter than the stream says. */
	if (snappy->uncompressed_length(src, srclen, &len) != SNAPPY_OK || len != dstlen)
		return -MDF_ECORRUPT;
	if (snappy->uncompress(src, srclen, dst, &len) != SNAPPY_OK || len != dstlen)
		return -MDF_ECORRUPT;
	return 0;
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

static int decompress_zstd(const void *src, size_t srclen, void *dst, size_t dstlen)
{
	ZSTD_DCtx *dctx = thread_zstd_dctx();
	size_t len;

	if (!dctx)
		return -ENOMEM;
	len = ZSTD_decompressDCtx(dctx, dst, dstlen, src, srclen);
	if (ZSTD_isError(len))
		return ZSTD_getErrorCode(len) == ZSTD_error_memory_allocation ? -ENOMEM
									   : -MDF_ECORRUPT;
	return len == dstlen ? 0 : -MDF_ECORRUPT;
}

const char *codec_load_error(enum mdf_codec codec)
{
	return codec == CODEC_SNAPPY && !snappy_lib() ? snappy_lib_error() : NULL;
}

int codec_decompress(enum mdf_codec codec, const void *src, size_t srclen, void *dst,
		     size_t dstlen)
{
	switch (codec) {
	case CODEC_NONE:
		if (srclen != dstlen)
			return -MDF_ECORRUPT;
		memcpy(dst, src, dstlen);
		return 0;
	case CODEC_ZLIB:
		return decompress_zlib(src, srclen, dst, dstlen);
	case CODEC_LZO:
		return decompress_lzo(src, srclen, dst, dstlen);
	case CODEC_SNAPPY:
		return decompress_snappy(src, srclen, dst, dstlen);
	case CODEC_ZSTD:
		return decompress_zstd(src, srclen, dst, dstlen);
	}
	return -EINVAL;
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

int codec_compressor_new(enum mdf_codec codec, size_t page_size, struct codec_compressor **out)
{
	struct codec_compressor *c;
	int err = -ENOMEM;

	if (codec == CODEC_SNAPPY && !snappy_lib())
		return -ELIBACC;
	/* zlib counts in uInt; pages are far smaller. */
	if (page_size == 0 || page_size > UINT32_MAX / 2 || codec_bound(codec, page_size) == 0)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->codec = codec;
	c->page_size = page_size;
	switch (codec) {
	case CODEC_NONE:
		break;
	case CODEC_ZLIB:
		c->deflate = zlib_encoder_new();
		if (!c->deflate)
			goto fail;
		break;
	case CODEC_LZO:
		err = ensure_lzo();
		if (err)
			goto fail;
		err = -ENOMEM;
		c->lzo_wrkmem = malloc(LZO1X_1_MEM_COMPRESS);
		c->scratch = malloc(codec_bound(codec, page_size));
		if (!c->lzo_wrkmem || !c->scratch)
			goto fail;
		break;
	case CODEC_SNAPPY:
		c->scratch = malloc(codec_bound(codec, page_size));
		if (!c->scratch)
			goto fail;
		break;
	case CODEC_ZSTD:
		c->zstd = ZSTD_createCCtx();
		if (!c->zstd)
			goto fail;
		break;
	}
	*out = c;
	return 0;
fail:
	codec_compressor_free(c);
	return err;
}

static int compress_zlib(struct codec_compressor *c, const void *src, void *dst, size_t dstcap,
			 size_t *outlen)
{
	size_t len = zlib_encoder_compress(c->deflate, src, c->page_size, dst, dstcap);

	/* 0: the stream would not fit in @dstcap bytes. */
	if (!len)
		return -E2BIG;
	*outlen = len;
	return 0;
}

static int compress_zstd(struct codec_compressor *c, const void *src, void *dst, size_t dstcap,
			 size_t *outlen)
{
	size_t len = ZSTD_compressCCtx(c->zstd, dst, dstcap, src, c->page_size, 1);

	if (ZSTD_isError(len)) {
		switch (ZSTD_getErrorCode(len)) {
		case ZSTD_error_dstSize_tooSmall:
			return -E2BIG;
		case ZSTD_error_memory_allocation:
			return -ENOMEM;
		default:
			return -EINVAL;
		}
	}
	*outlen = len;
	return 0;
}

/* For lzo and snappy, which need room for their bound. */
static int compress_bounded(struct codec_compressor *c, const void *src, void *dst, size_t dstcap,
			    size_t *outlen)
{
	size_t bound = codec_bound(c->codec, c->page_size);
	unsigned char *out = dstcap >= bound ? dst : c->scratch;
	size_t len;

	if (c->codec == CODEC_LZO) {
		lzo_uint lzo_len = bound;

		if (lzo1x_1_compress(src, c->page_size, out, &lzo_len, c->lzo_wrkmem) != LZO_E_OK)
			return -EINVAL;
		len = lzo_len;
	} else {
		len = bound;
		if (snappy_lib()->compress(src, c->page_size, (char *)out, &len) != SNAPPY_OK)
			return -EINVAL;
	}
	if (len > dstcap)
		return -E2BIG;
	if (out != dst)
		memcpy(dst, out, len);
	*outlen = len;
	return 0;
}

int codec_compress(struct codec_compressor *c, const void *src, void *dst, size_t dstcap,
		   size_t *outlen)
{
	switch (c->codec) {
	case CODEC_NONE:
		if (dstcap < c->page_size)
			return -E2BIG;
		memcpy(dst, src, c->page_size);
		*outlen = c->page_size;
		return 0;
	case CODEC_ZLIB:
		return compress_zlib(c, src, dst, dstcap, outlen);
	case CODEC_LZO:
	case CODEC_SNAPPY:
		return compress_bounded(c, src, dst, dstcap, outlen);
	case CODEC_ZSTD:
		return compress_zstd(c, src, dst, dstcap, outlen);
	}
	return -EINVAL;
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
