/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The encoder behind -c: one page in, one zlib-format stream (RFC 1950)
 * out, which readers decode with zlib's uncompress().  Its output depends
 * on the page alone, never on the pages before it or on where the encoder
 * lives, so that -c writes the same file on any number of threads.
 */
#ifndef MDF_CODEC_ZLIB_ENCODER_H
#define MDF_CODEC_ZLIB_ENCODER_H

#include <stddef.h>

#include "util/error.h"

struct zlib_encoder;

struct mdf_error *zlib_encoder_new(struct zlib_encoder **out);
void zlib_encoder_free(struct zlib_encoder *enc);

/* The most bytes one stream of @len input bytes can take. */
size_t zlib_encoder_bound(size_t len);

/*
 * Compresses @len bytes of @src into @dst, at most @dstcap bytes: the
 * stream's length, or 0 when it does not fit.
 */
size_t zlib_encoder_compress(struct zlib_encoder *enc, const void *src, size_t len, void *dst,
			     size_t dstcap);

/* The library's name, for -v. */
const char *zlib_encoder_library(void);

#endif
