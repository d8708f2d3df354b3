// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/error.h"
#include "util/text_file.h"

struct mdf_error *text_file_read(const char *path, size_t max, const char *what, bool nul_is_error, char **text,
				 size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	/* One byte more than allowed tells a file that is too large. */
	char *buf = fd >= 0 ? malloc(max + 2) : NULL;
	struct mdf_error *err = NULL;
	size_t got = 0;
	char *nul;

	if (fd < 0)
		return mdf_error(-errno, "cannot open %s %s: %s", what, path, strerror(errno));
	if (!buf) {
		close(fd);
		return &mdf_error_enomem;
	}
	while (got <= max) {
		ssize_t n = read(fd, buf + got, max + 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = mdf_error(-errno, "cannot read %s %s: %s", what, path, strerror(errno));
			break;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (!err && got > max)
		err = mdf_error(-EFBIG, "%s %s is larger than %zu KiB: not what it should be", what, path, max >> 10);
	if (!err && nul_is_error && (nul = memchr(buf, '\0', got)))
		err = mdf_error(-EINVAL, "%s %s holds a NUL byte at offset %zu: not text", what, path,
				(size_t)(nul - buf));
	if (err) {
		free(buf);
		return err;
	}
	buf[got] = '\0';
	*text = buf;
	*len = got;
	return NULL;
}
