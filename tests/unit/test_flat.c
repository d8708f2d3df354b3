// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_flat: the flattened format both ways.  A stream written by
 * flat_writer from overlapping records must reassemble, through
 * flat_reassemble() and through upstream makedumpfile -R when it is
 * installed, into the image the records describe; damaged streams must fail
 * and leave no output file; a full disk and a vanished reader must be
 * errors, not crashes.
 *
 * Prints one "ok" or "FAIL" line per check; exits 1 if any failed.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/flat.h"
#include "unit_check.h"
#include "util/error.h"
#include "util/message.h"

#define IMAGE_SIZE (3 << 20)

static char dir[] = "/tmp/test_flat.XXXXXX";

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

/* Prints @err, if any, as makedumpfile would, for the log; its code, or 0. */
static int said(struct mdf_error *err)
{
	return err ? mdf_error_print(err, false) : 0;
}

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/*
 * Writes a stream of random records, later ones partly over earlier ones
 * as a dump writer rewrites its headers, and builds the image they make.
 */
static int write_stream(const char *path, unsigned char *image, size_t *image_len)
{
	struct flat_writer w;
	unsigned char *buf = malloc(1 << 16);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int err = -EIO;

	*image_len = 0;
	if (fd < 0 || !buf)
		goto out;
	memset(image, 0, IMAGE_SIZE);
	err = said(flat_writer_start(&w, fd, path));
	for (int i = 0; i < 400 && !err; i++) {
		size_t len = rng() % (1 << 16);
		uint64_t off = rng() % (IMAGE_SIZE - len);

		for (size_t b = 0; b < len; b++)
			buf[b] = (unsigned char)rng();
		err = said(flat_writer_write(&w, off, buf, len));
		memcpy(image + off, buf, len);
		if (len && off + len > *image_len)
			*image_len = off + len;
	}
	if (!err)
		err = said(flat_writer_finish(&w));
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return err;
}

static int same_as_image(const char *path, const unsigned char *image, size_t len)
{
	unsigned char *got = malloc(len + 1);
	int fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 && got ? read(fd, got, len + 1) : -1;
	int same = n == (ssize_t)len && !memcmp(got, image, len);

	if (fd >= 0)
		close(fd);
	free(got);
	return same;
}

static int reassemble_file(const char *stream, const char *out, bool force)
{
	int fd = open(stream, O_RDONLY);
	int err;

	if (fd < 0)
		return -errno;
	err = said(flat_reassemble(fd, stream, out, force, 0));
	close(fd);
	return err;
}

/* A copy of the first @len bytes of @src, with @patch_len bytes put at @at. */
static void cut_copy(const char *src, const char *dst, size_t len, size_t at,
		     const void *patch_bytes, size_t patch_len)
{
	unsigned char *buf = malloc(len);
	int in = open(src, O_RDONLY), out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (buf && in >= 0 && out >= 0 && read(in, buf, len) == (ssize_t)len) {
		if (patch_len)
			memcpy(buf + at, patch_bytes, patch_len);
		if (write(out, buf, len) != (ssize_t)len)
			check(0, "write %s", dst);
	} else {
		check(0, "copy %s", src);
	}
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	free(buf);
}

static void test_damaged(const char *stream, size_t stream_len)
{
	static const unsigned char bad_offset[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe };
	static const unsigned char type2[8] = { 0, 0, 0, 0, 0, 0, 0, 2 };
	const char *bad = unit_path(dir, "bad.flat"), *out = unit_path(dir, "bad.out");
	/* What came through whole records is kept (marked incomplete); without one record, nothing. */
	struct {
		const char *what;
		size_t len, at;
		const void *patch;
		size_t patch_len;
		bool kept;
	} cases[] = {
		{ "cut inside the header", 100, 0, NULL, 0, false },
		{ "cut inside a record header", FLAT_HEADER_SIZE + 7, 0, NULL, 0, false },
		{ "cut inside record data", FLAT_HEADER_SIZE + 16 + 5, 0, NULL, 0, false },
		{ "no end record", stream_len - 16, 0, NULL, 0, true },
		{ "bad signature", stream_len, 3, "X", 1, false },
		{ "type 2", stream_len, 16, type2, 8, false },
		{ "offset -2 in the first record", stream_len, FLAT_HEADER_SIZE, bad_offset, 8, false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int err;

		cut_copy(stream, bad, cases[i].len, cases[i].at, cases[i].patch, cases[i].patch_len);
		err = reassemble_file(bad, out, false);
		check(err < 0 && (access(out, F_OK) == 0) == cases[i].kept, "%s: error %d, %s", cases[i].what, err,
		      cases[i].kept ? "what came kept" : "no output left");
		unlink(out);
	}
}

static void test_write_errors(void)
{
	struct flat_writer w;
	int fds[2];
	char page[4096] = { 0 };
	int fd = open("/dev/full", O_WRONLY);
	int err;

	if (fd >= 0) {
		err = said(flat_writer_start(&w, fd, "/dev/full"));
		check(err == -ENOSPC, "a full disk is -ENOSPC (%d)", err);
		close(fd);
	}
	/* SIGPIPE ignored, as a program writing to a pipe should. */
	signal(SIGPIPE, SIG_IGN);
	if (pipe(fds) == 0) {
		close(fds[0]);
		err = said(flat_writer_start(&w, fds[1], "pipe"));
		if (!err)
			err = said(flat_writer_write(&w, 0, page, sizeof(page)));
		check(err == -EPIPE, "a vanished reader is -EPIPE (%d)", err);
		close(fds[1]);
	}
}

/* Debian installs it in /usr/bin, other distributions in /usr/sbin. */
static const char *find_upstream(void)
{
	static const char *const places[] = { "/usr/sbin/makedumpfile", "/usr/bin/makedumpfile" };

	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++)
		if (access(places[i], X_OK) == 0)
			return places[i];
	return NULL;
}

int main(void)
{
	const char *upstream = find_upstream();
	unsigned char *image = malloc(IMAGE_SIZE);
	const char *stream = NULL, *out = NULL;
	size_t image_len = 0;
	struct stat st;
	char cmd[512];
	int err;

	if (!image || !mkdtemp(dir)) {
		printf("FAIL setup\n");
		return 1;
	}
	stream = unit_path(dir, "stream.flat");
	out = unit_path(dir, "out.img");
	err = write_stream(stream, image, &image_len);
	check(!err, "write a stream of 400 records");
	err = reassemble_file(stream, out, false);
	check(!err && same_as_image(out, image, image_len), "flat_reassemble rebuilds the image");
	check(stat(out, &st) == 0 && (st.st_mode & 0777) == 0600, "the output is mode 0600");
	err = reassemble_file(stream, out, false);
	check(err == -EEXIST, "an existing output is refused without force");
	err = reassemble_file(stream, out, true);
	check(!err && same_as_image(out, image, image_len), "force overwrites it");
	unlink(out);

	if (upstream) {
		snprintf(cmd, sizeof(cmd), "%s -R %s < %s > /dev/null", upstream, out, stream);
		check(system(cmd) == 0 && same_as_image(out, image, image_len),
		      "upstream makedumpfile -R rebuilds the same image");
		unlink(out);
	} else {
		printf("skip upstream makedumpfile -R: not installed\n");
	}

	stat(stream, &st);
	test_damaged(stream, (size_t)st.st_size);
	test_write_errors();

	unlink(stream);
	unlink(unit_path(dir, "bad.flat"));
	rmdir(dir);
	free(image);
	printf("%s\n", unit_failures ? "FAIL" : "ok all");
	return unit_exit_status();
}
