// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * failio.so: makes the writes to one file fail, or a read of it, so that
 * tests can see how makedumpfile reports, and leaves, a dump it cannot
 * finish or a page it cannot read: faults a real disk gives rarely and a
 * small tmpfs not at all.  Preloaded
 * (LD_PRELOAD), it is set up by the environment:
 *
 *   FAILIO_PATH   the file, as the program opens it
 *   FAILIO_OP     what fails:
 *                   write  a write once FAILIO_AFTER bytes were written
 *                          (the default): it returns -1 with FAILIO_ERRNO
 *                   short  the write that crosses FAILIO_AFTER writes only
 *                          up to it; every later one writes nothing (0)
 *                   fsync  fsync() and fdatasync() of the file
 *                   read   a read (pread) that takes in byte FAILIO_AFTER of
 *                          the file: it returns -1 with FAILIO_ERRNO, as a
 *                          bad sector or a poisoned page of /proc/vmcore does
 *   FAILIO_ERRNO  the error, a number (default EIO)
 *   FAILIO_AFTER  bytes that go through first (default 0)
 *
 * Only the descriptor opened from FAILIO_PATH is touched; every other
 * call goes to the C library.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static int target_fd = -1;
static unsigned long long written;

static const char *setting(const char *name, const char *fallback)
{
	const char *value = getenv(name);

	return value && *value ? value : fallback;
}

static bool fails(const char *op)
{
	return !strcmp(setting("FAILIO_OP", "write"), op);
}

static void *next(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

static int remember(const char *path, int fd)
{
	const char *target = getenv("FAILIO_PATH");

	if (fd >= 0 && target && !strcmp(path, target)) {
		target_fd = fd;
		written = 0;
	}
	return fd;
}

#define OPEN_WRAPPER(name, ...)                                                              \
	int name(__VA_ARGS__, int flags, ...)                                                \
	{                                                                                    \
		mode_t mode = 0;                                                             \
		if (flags & (O_CREAT | O_TMPFILE)) {                                         \
			va_list ap;                                                          \
			va_start(ap, flags);                                                 \
			mode = va_arg(ap, mode_t);                                           \
			va_end(ap);                                                          \
		}                                                                            \
		return remember(path, OPEN_CALL(name));                                      \
	}

#define OPEN_CALL(name) ((int (*)(const char *, int, ...))next(#name))(path, flags, mode)
OPEN_WRAPPER(open, const char *path)
OPEN_WRAPPER(open64, const char *path)
#undef OPEN_CALL
#define OPEN_CALL(name) ((int (*)(int, const char *, int, ...))next(#name))(dirfd, path, flags, mode)
OPEN_WRAPPER(openat, int dirfd, const char *path)
OPEN_WRAPPER(openat64, int dirfd, const char *path)
#undef OPEN_CALL

/* How much of @len bytes may go through; -1 (errno set) for none. */
static ssize_t allowed(int fd, size_t len)
{
	unsigned long long after = strtoull(setting("FAILIO_AFTER", "0"), NULL, 0);

	if (fd != target_fd || written + len <= after || fails("fsync"))
		return (ssize_t)len;
	if (fails("short"))
		return written >= after ? 0 : (ssize_t)(after - written);
	errno = atoi(setting("FAILIO_ERRNO", "5"));
	return -1;
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t offset)
{
	ssize_t n = allowed(fd, len), done;

	if (n <= 0)
		return n;
	done = ((ssize_t (*)(int, const void *, size_t, off_t))next("pwrite"))(fd, buf, (size_t)n,
									      offset);
	if (done > 0 && fd == target_fd)
		written += (unsigned long long)done;
	return done;
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off_t offset)
{
	return pwrite(fd, buf, len, offset);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	ssize_t n = allowed(fd, len), done;

	if (n <= 0)
		return n;
	done = ((ssize_t (*)(int, const void *, size_t))next("write"))(fd, buf, (size_t)n);
	if (done > 0 && fd == target_fd)
		written += (unsigned long long)done;
	return done;
}

static ssize_t read_at(const char *name, int fd, void *buf, size_t len, off_t offset)
{
	unsigned long long bad = strtoull(setting("FAILIO_AFTER", "0"), NULL, 0);

	if (fd == target_fd && fails("read") && (unsigned long long)offset <= bad &&
	    bad < (unsigned long long)offset + len) {
		errno = atoi(setting("FAILIO_ERRNO", "5"));
		return -1;
	}
	return ((ssize_t (*)(int, void *, size_t, off_t))next(name))(fd, buf, len, offset);
}

ssize_t pread(int fd, void *buf, size_t len, off_t offset)
{
	return read_at("pread", fd, buf, len, offset);
}

ssize_t pread64(int fd, void *buf, size_t len, off_t offset)
{
	return read_at("pread64", fd, buf, len, offset);
}

static int sync_call(const char *name, int fd)
{
	if (fd == target_fd && fails("fsync")) {
		errno = atoi(setting("FAILIO_ERRNO", "5"));
		return -1;
	}
	return ((int (*)(int))next(name))(fd);
}

int fsync(int fd)
{
	return sync_call("fsync", fd);
}

int fdatasync(int fd)
{
	return sync_call("fdatasync", fd);
}
