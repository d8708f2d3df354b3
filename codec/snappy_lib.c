// SPDX-License-Identifier: GPL-2.0-or-later
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#include "codec/snappy_lib.h"

/* The soname of the ABI snappy-c.h describes. */
#define SNAPPY_SONAME "libsnappy.so.1"

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static struct snappy_lib lib;
static const struct snappy_lib *loaded;
static char load_error[256];

static void *symbol(void *handle, const char *name, bool *missing)
{
	void *address = dlsym(handle, name);

	if (!address && !*missing) {
		snprintf(load_error, sizeof(load_error), "%s has no %s", SNAPPY_SONAME, name);
		*missing = true;
	}
	return address;
}

static void load(void)
{
	void *handle = dlopen(SNAPPY_SONAME, RTLD_NOW | RTLD_LOCAL);
	bool missing = false;

	if (!handle) {
		snprintf(load_error, sizeof(load_error), "%s", dlerror());
		return;
	}
	lib.compress = symbol(handle, "snappy_compress", &missing);
	lib.uncompress = symbol(handle, "snappy_uncompress", &missing);
	lib.max_compressed_length = symbol(handle, "snappy_max_compressed_length", &missing);
	lib.uncompressed_length = symbol(handle, "snappy_uncompressed_length", &missing);
	if (missing) {
		dlclose(handle);
		return;
	}
	/* Kept open to the end: the codecs of every thread call into it. */
	loaded = &lib;
}

const struct snappy_lib *snappy_lib(void)
{
	pthread_once(&load_once, load);
	return loaded;
}

const char *snappy_lib_error(void)
{
	return load_error;
}
