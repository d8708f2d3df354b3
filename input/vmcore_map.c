// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "input/vmcore_map.h"
#include "util/error.h"

struct vmcore_map {
	int fd;
	uint64_t file_size;
	size_t window;
	/* The window mapped now: [start, start + len) of the file; NULL for none. */
	unsigned char *base;
	uint64_t start;
	size_t len;
};

/*
 * SIGBUS while copying out of a mapping: the thread's copy in progress
 * jumps back (guarded_copy()); a SIGBUS anywhere else is none of ours, and
 * gets the action it had before.  SA_NODEFER leaves SIGBUS unblocked in
 * the handler, so that the jump needs no signal mask restored.  The
 * fences keep the compiler from moving the copy out from between the
 * stores that arm and disarm the jump, or from dropping the first.
 */
static __thread sigjmp_buf *volatile copy_in_progress;
static struct sigaction sigbus_before;
static pthread_once_t sigbus_once = PTHREAD_ONCE_INIT;
/* Why catch_sigbus() failed (an errno); 0 when it did not. */
static int sigbus_not_caught;

static void on_sigbus(int sig, siginfo_t *info, void *context)
{
	(void)info;
	(void)context;
	if (copy_in_progress)
		siglongjmp(*copy_in_progress, 1);
	/* Delivered again under the action it had before (a fault, or a kill). */
	sigaction(sig, &sigbus_before, NULL);
	raise(sig);
}

static void catch_sigbus(void)
{
	struct sigaction action = { .sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO | SA_NODEFER };

	sigemptyset(&action.sa_mask);
	sigbus_not_caught = sigaction(SIGBUS, &action, &sigbus_before) == 0 ? 0 : errno;
}

/* Whether all @len bytes were copied: false when a page of @src faulted. */
static bool guarded_copy(void *dst, const void *src, size_t len)
{
	sigjmp_buf landing;

	if (sigsetjmp(landing, 0)) {
		copy_in_progress = NULL;
		return false;
	}
	copy_in_progress = &landing;
	atomic_signal_fence(memory_order_seq_cst);
	memcpy(dst, src, len);
	atomic_signal_fence(memory_order_seq_cst);
	copy_in_progress = NULL;
	return true;
}

void vmcore_map_catch_sigbus_again(void)
{
	catch_sigbus();
}

struct mdf_error *vmcore_map_new(int fd, uint64_t file_size, size_t window, struct vmcore_map **out)
{
	struct vmcore_map *map;
	struct mdf_error *err;

	*out = NULL;
	pthread_once(&sigbus_once, catch_sigbus);
	if (sigbus_not_caught)
		return mdf_error(-sigbus_not_caught, "cannot catch SIGBUS: %s", strerror(sigbus_not_caught));
	if (window == 0 || file_size == 0)
		return mdf_error(-EINVAL, "nothing to map: a window of %zu bytes over %" PRIu64 " bytes",
				 window, file_size);
	map = calloc(1, sizeof(*map));
	if (!map)
		return &mdf_error_enomem;
	*map = (struct vmcore_map){ .fd = fd, .file_size = file_size, .window = window };
	/* A first window says whether mmap() works on this file at all. */
	err = vmcore_map_read(map, &(char){ 0 }, 1, 0);
	if (err) {
		vmcore_map_free(map);
		return err;
	}
	*out = map;
	return NULL;
}

/* Maps the window that holds file offset @offset. */
static struct mdf_error *map_window(struct vmcore_map *map, uint64_t offset)
{
	uint64_t start = offset - offset % map->window;
	size_t len = map->file_size - start < map->window ? (size_t)(map->file_size - start)
							  : map->window;
	void *base;

	if (map->base)
		munmap(map->base, map->len);
	map->base = NULL;
	base = mmap(NULL, len, PROT_READ, MAP_PRIVATE, map->fd, (off_t)start);
	if (base == MAP_FAILED)
		return mdf_error(-errno, "cannot map 0x%zx bytes at offset 0x%" PRIx64 ": %s", len, start,
				 strerror(errno));
	map->base = base;
	map->start = start;
	map->len = len;
	return NULL;
}

struct mdf_error *vmcore_map_read(struct vmcore_map *map, void *buf, size_t len, uint64_t offset)
{
	unsigned char *dst = buf;

	if (offset > map->file_size || len > map->file_size - offset)
		return mdf_error(-ERANGE, "0x%zx bytes at offset 0x%" PRIx64 " end past the mapped 0x%" PRIx64,
				 len, offset, map->file_size);
	while (len) {
		size_t chunk;

		if (!map->base || offset < map->start || offset >= map->start + map->len) {
			struct mdf_error *err = map_window(map, offset);

			if (err)
				return err;
		}
		chunk = map->start + map->len - offset;
		if (chunk > len)
			chunk = len;
		if (!guarded_copy(dst, map->base + (offset - map->start), chunk))
			return mdf_error(-EFAULT, "a page of the mapping at offset 0x%" PRIx64 " faulted (SIGBUS)",
					 offset);
		dst += chunk;
		offset += chunk;
		len -= chunk;
	}
	return NULL;
}

void vmcore_map_free(struct vmcore_map *map)
{
	if (map && map->base)
		munmap(map->base, map->len);
	free(map);
}
