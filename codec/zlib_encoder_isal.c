// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * zlib-format pages through ISA-L's igzip, at its level 1: faster than
 * libdeflate's fastest level for streams a little larger, and the
 * compressor is most of what -c costs (the figures are in the commit
 * that chose it).
 */
#include <isa-l/igzip_lib.h>
#include <stdint.h>
#include <stdlib.h>

#include "codec/zlib_encoder.h"

struct zlib_encoder {
	struct isal_zstream stream;
};

struct zlib_encoder *zlib_encoder_new(void)
{
	return malloc(sizeof(struct zlib_encoder));
}

void zlib_encoder_free(struct zlib_encoder *enc)
{
	free(enc);
}

/*
 * Input that does not compress comes out as stored blocks of up to 64 KiB,
 * 5 bytes of header each, inside zlib's 2-byte header and 4-byte trailer;
 * the rest is margin.
 */
size_t zlib_encoder_bound(size_t len)
{
	return len + 5 * (len / 65535 + 1) + 6 + 64;
}

size_t zlib_encoder_compress(struct zlib_encoder *enc, const void *src, size_t len, void *dst,
			     size_t dstcap)
{
	struct isal_zstream *s = &enc->stream;

	if (len > UINT32_MAX || dstcap > UINT32_MAX)
		return 0;
	isal_deflate_stateless_init(s);
	/* Level 1 without a level buffer: igzip then uses its own, inside the stream. */
	s->level = 1;
	s->gzip_flag = IGZIP_ZLIB;
	s->end_of_stream = 1;
	s->flush = NO_FLUSH;
	s->next_in = (uint8_t *)src;
	s->avail_in = (uint32_t)len;
	s->next_out = dst;
	s->avail_out = (uint32_t)dstcap;
	if (isal_deflate_stateless(s) != COMP_OK)
		return 0;
	return s->total_out;
}

const char *zlib_encoder_library(void)
{
	return "isa-l";
}
