// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_codec [ELF]: round trips of the four page codecs on synthetic pages
 * and on real pages from a kdump ELF (build/fixtures/6.1-kdump.elf under
 * $PROJECT or the current directory, unless named), and their answers to
 * damaged data.  Upstream makedumpfile on
 * Debian has neither snappy nor zstd, so these round trips are what shows
 * that our writer and reader agree on them.
 *
 * Prints one "ok" or "FAIL" line per check; exits 1 if any failed.
 */
#include <elf.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "codec/codec.h"
#include "input/kdump_format.h"
#include "unit_check.h"
#include "util/message.h"

#define PAGE_SIZE 4096
#define ELF_PAGES 2000
#define DEFAULT_ELF "build/fixtures/6.1-kdump.elf"


static const enum mdf_codec all_codecs[] = {
	CODEC_NONE, CODEC_ZLIB, CODEC_LZO, CODEC_SNAPPY, CODEC_ZSTD,
};
#define NR_CODECS (sizeof(all_codecs) / sizeof(all_codecs[0]))

/* Zeros, ones, text, a repeated pattern and noise: the shapes memory has. */
static size_t synthetic_pages(unsigned char *pages, size_t max)
{
	static const char text[] = "The quick brown fox jumps over the lazy dog. ";
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	size_t n = 0;

	memset(pages + n++ * PAGE_SIZE, 0, PAGE_SIZE);
	memset(pages + n++ * PAGE_SIZE, 0xff, PAGE_SIZE);
	for (size_t i = 0; i < PAGE_SIZE; i++)
		pages[n * PAGE_SIZE + i] = (unsigned char)text[i % (sizeof(text) - 1)];
	n++;
	for (size_t i = 0; i < PAGE_SIZE; i++)
		pages[n * PAGE_SIZE + i] = (unsigned char)(i * 7 / 64);
	n++;
	while (n < max) {
		for (size_t i = 0; i < PAGE_SIZE; i++) {
			seed ^= seed << 13;
			seed ^= seed >> 7;
			seed ^= seed << 17;
			pages[n * PAGE_SIZE + i] = (unsigned char)seed;
		}
		n++;
	}
	return n;
}

/* Pages spread over the PT_LOAD segments of an ELF64 core. */
static size_t elf_pages(const char *path, unsigned char *pages, size_t max)
{
	Elf64_Ehdr eh;
	Elf64_Phdr *ph = NULL;
	uint64_t total = 0, stride, seen = 0;
	size_t n = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return 0;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_phentsize != sizeof(*ph) || eh.e_phnum == 0)
		goto out;
	ph = calloc(eh.e_phnum, sizeof(*ph));
	if (!ph || pread(fd, ph, eh.e_phnum * sizeof(*ph), (off_t)eh.e_phoff) !=
			   (ssize_t)(eh.e_phnum * sizeof(*ph)))
		goto out;
	for (int i = 0; i < eh.e_phnum; i++)
		if (ph[i].p_type == PT_LOAD)
			total += ph[i].p_filesz / PAGE_SIZE;
	stride = total / max + 1;
	for (int i = 0; i < eh.e_phnum && n < max; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		for (uint64_t p = 0; p < ph[i].p_filesz / PAGE_SIZE && n < max; p++, seen++) {
			if (seen % stride)
				continue;
			if (pread(fd, pages + n * PAGE_SIZE, PAGE_SIZE,
				  (off_t)(ph[i].p_offset + p * PAGE_SIZE)) != PAGE_SIZE)
				goto out;
			n++;
		}
	}
out:
	free(ph);
	close(fd);
	return n;
}

static void test_flags(void)
{
	for (size_t i = 0; i < NR_CODECS; i++) {
		enum mdf_codec back = CODEC_NONE;
		uint32_t flag = kdump_codec_flag(all_codecs[i]);

		check(!kdump_codec_of_flags(flag | DUMP_DH_COMPRESSED_INCOMPLETE, &back) &&
			      back == all_codecs[i],
		      "flag 0x%" PRIx32 " <-> %s", flag, codec_name(all_codecs[i]));
	}
	{
		enum mdf_codec c;

		check(mdf_error_drop(kdump_codec_of_flags(DUMP_DH_COMPRESSED_ZLIB |
							  DUMP_DH_COMPRESSED_ZSTD, &c)) == -MDF_ECORRUPT,
		      "two compression flags are corrupt");
	}
}

/* Compresses and decompresses every page; counts what shrank. */
static void test_round_trip(enum mdf_codec codec, const unsigned char *pages, size_t n,
			    const char *what)
{
	struct codec_compressor *c = NULL;
	size_t bound = codec_bound(codec, PAGE_SIZE);
	unsigned char *packed = malloc(bound), *back = malloc(PAGE_SIZE);
	size_t bad = 0, shrank = 0, packed_total = 0;
	struct timespec t0, t1;
	int err;

	err = mdf_error_drop(codec_compressor_new(codec, PAGE_SIZE, &c));
	check(!err && packed && back, "%s: compressor for %s pages", codec_name(codec), what);
	if (err || !packed || !back)
		goto out;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (size_t i = 0; i < n; i++) {
		const unsigned char *page = pages + i * PAGE_SIZE;
		size_t len = 0;

		if (mdf_error_drop(codec_compress(c, page, packed, bound, &len)) || !len ||
		    len > bound ||
		    mdf_error_drop(codec_decompress(codec, packed, len, back, PAGE_SIZE)) ||
		    memcmp(back, page, PAGE_SIZE)) {
			if (!bad++)
				printf("# %s: page %zu does not round-trip\n", codec_name(codec), i);
			continue;
		}
		shrank += len < PAGE_SIZE;
		packed_total += len;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	check(bad == 0, "%s: %zu %s pages round-trip (%zu shrank, %zu bytes in all, %.1f us/page)",
	      codec_name(codec), n, what, shrank, packed_total,
	      ((double)(t1.tv_sec - t0.tv_sec) * 1e6 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e3) /
		      (double)(n ? n : 1));
out:
	codec_compressor_free(c);
	free(packed);
	free(back);
}

/* Room for less than the result must say so (a length of 0), not write past it. */
static void test_small_room(enum mdf_codec codec, const unsigned char *text_page,
			    const unsigned char *noise_page)
{
	struct codec_compressor *c = NULL;
	unsigned char *dst = malloc(PAGE_SIZE + 64);
	size_t len = 0;

	if (mdf_error_drop(codec_compressor_new(codec, PAGE_SIZE, &c)) || !dst) {
		check(0, "%s: compressor", codec_name(codec));
		goto out;
	}
	check(!mdf_error_drop(codec_compress(c, noise_page, dst, PAGE_SIZE - 1, &len)) && !len,
	      "%s: noise does not fit in page_size - 1 bytes", codec_name(codec));
	len = 1;
	check(!mdf_error_drop(codec_compress(c, text_page, dst, 8, &len)) && !len,
	      "%s: a text page does not fit in 8 bytes", codec_name(codec));
	/* The compressor must still work after refusing. */
	if (codec == CODEC_NONE)
		check(!mdf_error_drop(codec_compress(c, text_page, dst, PAGE_SIZE, &len)) &&
			      len == PAGE_SIZE,
		      "%s: a page fits in page_size bytes after a refusal", codec_name(codec));
	else
		check(!mdf_error_drop(codec_compress(c, text_page, dst, PAGE_SIZE - 1, &len)) &&
			      len > 0 && len < PAGE_SIZE,
		      "%s: a text page fits in page_size - 1 bytes after a refusal",
		      codec_name(codec));
out:
	codec_compressor_free(c);
	free(dst);
}

/* Damaged streams: an error, never a crash, never a silent short page. */
static void test_damage(enum mdf_codec codec, const unsigned char *page)
{
	struct codec_compressor *c = NULL;
	size_t bound = codec_bound(codec, PAGE_SIZE), len = 0;
	unsigned char *packed = malloc(bound), *back = malloc(PAGE_SIZE);
	size_t wrong = 0, flipped_ok = 0;

	if (mdf_error_drop(codec_compressor_new(codec, PAGE_SIZE, &c)) || !packed || !back ||
	    mdf_error_drop(codec_compress(c, page, packed, bound, &len)) || !len) {
		check(0, "%s: compress a page to damage", codec_name(codec));
		goto out;
	}
	check(mdf_error_drop(codec_decompress(codec, packed, len - 1, back, PAGE_SIZE)) ==
		      -MDF_ECORRUPT,
	      "%s: a stream one byte short is corrupt", codec_name(codec));
	check(mdf_error_drop(codec_decompress(codec, packed, len, back, PAGE_SIZE / 2)) ==
		      -MDF_ECORRUPT,
	      "%s: a page into half the room is corrupt", codec_name(codec));
	check(!mdf_error_drop(codec_decompress(codec, packed, len, back, PAGE_SIZE)) &&
		      !memcmp(back, page, PAGE_SIZE),
	      "%s: the undamaged stream still decompresses", codec_name(codec));
	/* A flipped byte may still decode: then only the length is checked. */
	for (size_t i = 0; i < len; i++) {
		int err;

		packed[i] ^= 0x5a;
		err = mdf_error_drop(codec_decompress(codec, packed, len, back, PAGE_SIZE));
		packed[i] ^= 0x5a;
		if (err == 0)
			flipped_ok++;
		else if (err != -MDF_ECORRUPT)
			wrong++;
	}
	check(wrong == 0, "%s: %zu single-byte flips give 0 or -MDF_ECORRUPT (%zu decoded)",
	      codec_name(codec), len, flipped_ok);
out:
	codec_compressor_free(c);
	free(packed);
	free(back);
}

struct thread_job {
	const unsigned char *packed;
	size_t len;
	const unsigned char *page;
	int ok;
};

static void *decompress_in_thread(void *arg)
{
	struct thread_job *job = arg;
	unsigned char back[PAGE_SIZE];

	job->ok = 1;
	for (int i = 0; i < 100; i++)
		if (mdf_error_drop(codec_decompress(CODEC_ZSTD, job->packed, job->len, back,
						    PAGE_SIZE)) ||
		    memcmp(back, job->page, PAGE_SIZE))
			job->ok = 0;
	return NULL;
}

/* zstd keeps a context per thread: threads that end must not leak it. */
static void test_zstd_threads(const unsigned char *page)
{
	struct codec_compressor *c = NULL;
	unsigned char packed[PAGE_SIZE * 2];
	struct thread_job jobs[4];
	pthread_t threads[4];
	size_t len = 0;
	int ok;

	ok = !mdf_error_drop(codec_compressor_new(CODEC_ZSTD, PAGE_SIZE, &c)) &&
	     !mdf_error_drop(codec_compress(c, page, packed, sizeof(packed), &len)) && len;
	for (int i = 0; ok && i < 4; i++) {
		jobs[i] = (struct thread_job){ .packed = packed, .len = len, .page = page };
		ok = !pthread_create(&threads[i], NULL, decompress_in_thread, &jobs[i]);
		if (!ok)
			while (i--)
				pthread_join(threads[i], NULL);
	}
	for (int i = 0; ok && i < 4; i++) {
		pthread_join(threads[i], NULL);
		ok = ok && jobs[i].ok;
	}
	check(ok, "zstd: 4 threads decompress at once");
	codec_compressor_free(c);
}

int main(int argc, char **argv)
{
	const char *project = getenv("PROJECT");
	char elf[4096];
	unsigned char *synthetic = malloc(8 * PAGE_SIZE);
	unsigned char *real = malloc((size_t)ELF_PAGES * PAGE_SIZE);
	size_t nsynth, nreal;

	if (!synthetic || !real) {
		printf("FAIL no memory for test pages\n");
		return 1;
	}
	if (argc > 1)
		snprintf(elf, sizeof(elf), "%s", argv[1]);
	else
		snprintf(elf, sizeof(elf), "%s%s" DEFAULT_ELF, project ? project : "",
			 project ? "/" : "");
	nsynth = synthetic_pages(synthetic, 8);
	nreal = elf_pages(elf, real, ELF_PAGES);
	if (nreal == 0)
		printf("skip pages from %s: cannot read it as an ELF core\n", elf);

	test_flags();
	for (size_t i = 0; i < NR_CODECS; i++) {
		enum mdf_codec codec = all_codecs[i];

		test_round_trip(codec, synthetic, nsynth, "synthetic");
		if (nreal)
			test_round_trip(codec, real, nreal, "ELF");
		test_small_room(codec, synthetic + 2 * PAGE_SIZE, synthetic + 4 * PAGE_SIZE);
		test_damage(codec, synthetic + 2 * PAGE_SIZE);
	}
	test_zstd_threads(synthetic + 2 * PAGE_SIZE);
	{
		struct codec_compressor *c = NULL;

		struct mdf_error *err = codec_compressor_new(CODEC_ZLIB, 0, &c);

		check(err && err->code == -EINVAL && !c, "a page size of 0 is refused: %s",
		      err ? mdf_error_text(err) : "no error");
		mdf_error_free(err);
	}
	free(synthetic);
	free(real);
	printf("%s\n", unit_failures ? "FAIL" : "ok all");
	return unit_exit_status();
}
