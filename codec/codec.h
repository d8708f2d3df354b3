/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The page codecs of the kdump-compressed format: each page is compressed
 * on its own, and its page descriptor names the codec by one flag bit.
 *
 * Their errors say what the codec knows (which codec, what it made of the
 * data); the caller adds which file and page the data belongs to.
 */
#ifndef MDF_CODEC_CODEC_H
#define MDF_CODEC_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

enum mdf_codec {
	CODEC_NONE,
	CODEC_ZLIB,
	CODEC_LZO,
	CODEC_SNAPPY,
	CODEC_ZSTD,
};

/* "none", "zlib", "lzo", "snappy" or "zstd". */
const char *codec_name(enum mdf_codec codec);

/*
 * Why the codec's library cannot be loaded, when a call failed with
 * -ELIBACC (snappy's is loaded on first use: codec/snappy_lib.h); NULL
 * otherwise.
 */
const char *codec_load_error(enum mdf_codec codec);

/*
 * Decompresses @srclen bytes at @src into @dst.  Returns NULL only when
 * exactly @dstlen bytes came out; else an error of -MDF_ECORRUPT for data
 * that is not a valid stream of that length, -ENOMEM, or -ELIBACC.
 * CODEC_NONE copies, and needs srclen == dstlen.  Safe to call from
 * several threads at once.
 */
struct mdf_error *codec_decompress(enum mdf_codec codec, const void *src, size_t srclen,
				   void *dst, size_t dstlen);

/* The most bytes codec_compress() can produce from one page. */
size_t codec_bound(enum mdf_codec codec, size_t page_size);

/*
 * A compressor holds one thread's working state (zlib stream, lzo work
 * memory, zstd context): create one per writer thread.
 */
struct codec_compressor;

/* Fails with -ENOMEM, -EINVAL for a page size out of range, or -ELIBACC. */
struct mdf_error *codec_compressor_new(enum mdf_codec codec, size_t page_size,
				       struct codec_compressor **out);

/*
 * Compresses one page (page_size bytes at @src) into @dst.  The size
 * comes back in *@outlen, 0 when the result does not fit in @dstcap: a
 * writer that gives dstcap = page_size - 1 learns that storing the page
 * raw is better.  That is no error, for it is the fate of every page of
 * random bytes.  CODEC_NONE copies.
 */
struct mdf_error *codec_compress(struct codec_compressor *c, const void *src, void *dst,
				 size_t dstcap, size_t *outlen);

void codec_compressor_free(struct codec_compressor *c);

#endif
