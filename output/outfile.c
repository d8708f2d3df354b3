// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/outfile.h"
#include "util/error.h"

struct mdf_error *outfile_open(struct outfile *out, const char *path, bool force)
{
	/* Never through a symbolic link: as root, a planted link would aim the dump anywhere. */
	int flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (force ? O_TRUNC : O_EXCL);
	struct stat st;

	memset(out, 0, sizeof(*out));
	out->fd = -1;
	if (!path || !strcmp(path, "-")) {
		out->path = "standard output";
		out->is_stdout = true;
		out->fd = STDOUT_FILENO;
		out->stream = stdout;
		return NULL;
	}
	out->path = path;
	out->fd = open(path, flags, 0600);
	if (out->fd < 0) {
		int err = errno;

		if (err == EEXIST)
			return mdf_error(-err, "%s: already exists; use -f to overwrite it", path);
		if (err == ELOOP)
			return mdf_error(-err, "%s: a symbolic link, not followed: name the file itself", path);
		return mdf_error(-err, "%s: cannot create: %s", path, strerror(err));
	}
	out->is_regular = fstat(out->fd, &st) == 0 && S_ISREG(st.st_mode);
	/* A file overwritten with -f keeps its mode otherwise: the dump is for its owner only. */
	if (out->is_regular && (st.st_mode & 07777) != 0600 && fchmod(out->fd, 0600) < 0) {
		int err = errno;

		outfile_abort(out);
		return mdf_error(-err, "%s: cannot make it mode 0600: %s", path, strerror(err));
	}
	out->stream = fdopen(out->fd, "w");
	if (!out->stream) {
		int err = errno;

		outfile_abort(out);
		return mdf_error(-err, "%s: %s", path, strerror(err));
	}
	return NULL;
}

struct mdf_error *outfile_sync(struct outfile *out)
{
	if (fflush(out->stream) != 0) {
		int err = errno;

		return mdf_error(-err, "%s: write failed: %s", out->path, strerror(err));
	}
	/* EINVAL: a device or pipe that cannot be synced has nothing to lose. */
	if (!out->is_stdout && fsync(out->fd) != 0 && errno != EINVAL) {
		int err = errno;

		return mdf_error(-err, "%s: cannot sync the written data to the device (fsync): %s",
				 out->path, strerror(err));
	}
	return NULL;
}

struct mdf_error *outfile_close(struct outfile *out)
{
	struct mdf_error *err = NULL;

	if (out->is_stdout || out->fd < 0)
		return NULL;
	if ((out->stream ? fclose(out->stream) : close(out->fd)) != 0) {
		int code = errno;

		err = mdf_error(-code, "%s: closing it failed: %s", out->path, strerror(code));
	}
	out->stream = NULL;
	out->fd = -1;
	return err;
}

struct mdf_error *outfile_finish(struct outfile *out)
{
	struct mdf_error *err = outfile_sync(out);

	if (!err)
		err = outfile_close(out);
	if (err)
		outfile_abort(out);
	return err;
}

void outfile_abort(struct outfile *out)
{
	if (out->is_stdout)
		return;
	if (out->stream)
		fclose(out->stream);
	else if (out->fd >= 0)
		close(out->fd);
	out->stream = NULL;
	out->fd = -1;
	if (out->is_regular)
		unlink(out->path);
}
