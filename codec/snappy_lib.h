/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libsnappy, loaded the first time a snappy page is compressed or read
 * rather than linked into the executable.  It is C++: linking it loads
 * libstdc++ and libm too, and relocating them costs every run, whatever
 * its codec, about 1.2 MiB of resident memory and 2 ms of start-up, in the
 * kdump kernel as anywhere; only -p and dumps written with -p need it.
 */
#ifndef MDF_CODEC_SNAPPY_LIB_H
#define MDF_CODEC_SNAPPY_LIB_H

#include <snappy-c.h>

/* The functions of snappy-c.h that the codecs call. */
struct snappy_lib {
	snappy_status (*compress)(const char *input, size_t input_length, char *compressed,
				  size_t *compressed_length);
	snappy_status (*uncompress)(const char *compressed, size_t compressed_length,
				    char *uncompressed, size_t *uncompressed_length);
	size_t (*max_compressed_length)(size_t source_length);
	snappy_status (*uncompressed_length)(const char *compressed, size_t compressed_length,
					     size_t *result);
};

/*
 * The library, loaded on the first call from any thread; NULL when it
 * cannot be, and then snappy_lib_error() says why (dlerror()'s words).
 */
const struct snappy_lib *snappy_lib(void);
const char *snappy_lib_error(void);

#endif
