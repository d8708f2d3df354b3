// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_vmcoreinfo: input/vmcoreinfo.h on texts written here.
 *
 * The kernel writes "KEY=VALUE\n" lines (kernel/vmcore_info.c):
 * SYMBOL() in hex without 0x ("%lx"), SIZE()/OFFSET()/LENGTH() and most
 * NUMBER()s in signed decimal ("%lu"/"%ld"), a few NUMBER()s with 0x,
 * PAGESIZE and CRASHTIME in decimal, KERNELOFFSET in hex; the note is
 * padded with NULs.  What vmcoreinfo.h documents: a line without '=' is
 * an error naming the origin; the last of duplicate keys wins; typed
 * lookups are false for an absent or malformed line.
 *
 * Also, where ../shared holds them, the real VMCOREINFO texts of the
 * shared dumps: every line's value is found under its key.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/vmcoreinfo.h"
#include "unit_check.h"
#include "util/error.h"
#include "util/message.h"

/* Parses @len bytes of @text; NULL (and the error's words in @why) if it does not parse. */
/* Parses @text; @why gets the warnings printed, then the error, if any. */
/* Whether a lookup found its line, for checks of the value it gave. */
#define FOUND(lookup) (!mdf_error_drop(lookup))

/* Whether a lookup said its line is absent, and nothing else. */
static bool absent(struct mdf_error *err)
{
	bool not_found = err == &mdf_error_not_found;

	mdf_error_drop(err);
	return not_found;
}

/* Whether a lookup said its line is there but no number. */
static bool malformed(struct mdf_error *err)
{
	bool corrupt = err && err->code == -MDF_ECORRUPT && err->message;

	mdf_error_drop(err);
	return corrupt;
}

static struct vmcoreinfo *parse_n(const char *text, size_t len, const char *origin, char *why, size_t why_size)
{
	struct vmcoreinfo *vi = NULL;
	char *said = NULL;
	size_t said_len = 0;
	FILE *warnings = open_memstream(&said, &said_len);
	struct mdf_error *err;

	msg_set_streams(stdout, warnings ? warnings : stderr);
	err = vmcoreinfo_parse(text, len, origin, &vi);
	msg_set_streams(NULL, NULL);
	if (warnings)
		fclose(warnings);
	if (why)
		snprintf(why, why_size, "%s%s", said ? said : "", err ? mdf_error_text(err) : "");
	free(said);
	if (err && err->code >= 0)
		printf("FAIL error code %d is not negative\n", err->code);
	mdf_error_free(err);
	return err ? NULL : vi;
}

/* A string literal, all of it (NULs inside included) but its final NUL. */
#define PARSE_LIT(lit, origin, why) parse_n(lit, sizeof(lit) - 1, origin, why, sizeof(why))

static struct vmcoreinfo *parse(const char *text)
{
	return parse_n(text, strlen(text), "test", NULL, 0);
}

static void test_well_formed(void)
{
	const char text[] =
		"OSRELEASE=6.1.0-57-amd64\n"
		"BUILD-ID=0123abcd=ef\n"
		"PAGESIZE=4096\n"
		"SYMBOL(init_uts_ns)=ffffffffb8215ee0\n"
		"SYMBOL(mem_section)=ffff8e0b3ffd6000\n"
		"SIZE(page)=64\n"
		"OFFSET(page.flags)=0\n"
		"LENGTH(zone.free_area)=11\n"
		"NUMBER(PAGE_BUDDY_MAPCOUNT_VALUE)=-129\n"
		"NUMBER(VMALLOC_START)=0xffffc90000000000\n"
		"NUMBER(phys_base)=-872415232\n"
		"KERNELOFFSET=34000000\n"
		"CRASHTIME=1733436000\n";
	struct vmcoreinfo *vi = parse(text);
	uint64_t u = 0;
	int64_t v = 0;
	const char *s;
	bool ok;

	check(vi != NULL, "a kernel-like VMCOREINFO parses");
	if (!vi)
		return;
	s = vmcoreinfo_get(vi, "OSRELEASE");
	check(s && !strcmp(s, "6.1.0-57-amd64"), "vmcoreinfo_get(OSRELEASE): %s", s ? s : "(null)");
	s = vmcoreinfo_get(vi, "BUILD-ID");
	check(s && !strcmp(s, "0123abcd=ef"), "a value may hold '=': the key ends at the first");
	s = vmcoreinfo_get(vi, "KERNELOFFSET");
	check(s && !strcmp(s, "34000000"), "vmcoreinfo_get gives the raw text (KERNELOFFSET)");
	ok = FOUND(vmcoreinfo_lookup_symbol(vi, "init_uts_ns", &u)) && u == 0xffffffffb8215ee0ull;
	check(ok, "SYMBOL(init_uts_ns) is hex without 0x: %" PRIx64, u);
	check(FOUND(vmcoreinfo_lookup_symbol(vi, "mem_section", &u)) && u == 0xffff8e0b3ffd6000ull, "SYMBOL(mem_section)");
	check(FOUND(vmcoreinfo_lookup_size(vi, "page", &v)) && v == 64, "SIZE(page) 64");
	check(FOUND(vmcoreinfo_lookup_offset(vi, "page.flags", &v)) && v == 0, "OFFSET(page.flags) 0 (zero is a value)");
	check(FOUND(vmcoreinfo_lookup_length(vi, "zone.free_area", &v)) && v == 11, "LENGTH(zone.free_area) 11");
	check(FOUND(vmcoreinfo_lookup_number(vi, "PAGE_BUDDY_MAPCOUNT_VALUE", &v)) && v == -129, "a negative NUMBER");
	ok = FOUND(vmcoreinfo_lookup_number(vi, "VMALLOC_START", &v)) && (uint64_t)v == 0xffffc90000000000ull;
	check(ok, "a NUMBER printed with 0x: 0x%" PRIx64, (uint64_t)v);
	check(FOUND(vmcoreinfo_lookup_number(vi, "phys_base", &v)) && v == -872415232, "NUMBER(phys_base) negative decimal");
	check(FOUND(vmcoreinfo_lookup_plain(vi, "PAGESIZE", &v)) && v == 4096, "PAGESIZE 4096");
	check(FOUND(vmcoreinfo_lookup_plain(vi, "CRASHTIME", &v)) && v == 1733436000, "CRASHTIME");
	check(vmcoreinfo_has(vi, "SYMBOL", "init_uts_ns") && vmcoreinfo_has(vi, "OFFSET", "page.flags") &&
	      vmcoreinfo_has(vi, "NUMBER", "VMALLOC_START"), "vmcoreinfo_has finds present lines");

	/* Absent lines: every lookup says so. */
	check(!vmcoreinfo_get(vi, "NOSUCHKEY") && !vmcoreinfo_get(vi, "") && !vmcoreinfo_get(vi, "OSRELEASE "),
	      "vmcoreinfo_get of absent keys (and of a key with a trailing space) is NULL");
	check(!vmcoreinfo_has(vi, "SYMBOL", "no_such") && !vmcoreinfo_has(vi, "SIZE", "page.flags") &&
	      !vmcoreinfo_has(vi, "OFFSET", "page"), "vmcoreinfo_has is false for absent lines, and for the "
	      "right name under the wrong kind");
	check(absent(vmcoreinfo_lookup_symbol(vi, "no_such", &u)) && absent(vmcoreinfo_lookup_size(vi, "no_such", &v)) &&
	      absent(vmcoreinfo_lookup_offset(vi, "page.no_such", &v)) && absent(vmcoreinfo_lookup_length(vi, "no_such", &v)) &&
	      absent(vmcoreinfo_lookup_number(vi, "no_such", &v)) && absent(vmcoreinfo_lookup_plain(vi, "NO_SUCH", &v)),
	      "each typed lookup of an absent line says not found");
	check(absent(vmcoreinfo_lookup_symbol(vi, "page", &u)) && absent(vmcoreinfo_lookup_number(vi, "page", &v)),
	      "SIZE(page) does not answer SYMBOL(page) nor NUMBER(page)");
	check(malformed(vmcoreinfo_lookup_plain(vi, "OSRELEASE", &v)), "OSRELEASE is no number");
	{
		char name[400];

		memset(name, 'a', sizeof(name) - 1);
		name[sizeof(name) - 1] = '\0';
		check(!vmcoreinfo_has(vi, "SYMBOL", name) && absent(vmcoreinfo_lookup_symbol(vi, name, &u)),
		      "a 399-character name is simply absent");
	}
	vmcoreinfo_free(vi);
}

static void test_duplicates(void)
{
	struct vmcoreinfo *vi = parse("NUMBER(x)=1\nSIZE(page)=56\nNUMBER(x)=2\nOSRELEASE=a\nNUMBER(x)=3\n"
				      "SIZE(page)=64\nOSRELEASE=b\nSYMBOL(s)=10\nSYMBOL(s)=zz\n");
	int64_t v = 0;
	uint64_t u = 0;
	const char *s;
	bool ok;

	check(vi != NULL, "duplicates parse");
	if (!vi)
		return;
	ok = FOUND(vmcoreinfo_lookup_number(vi, "x", &v)) && v == 3;
	check(ok, "the last of three NUMBER(x) lines wins: %" PRId64, v);
	ok = FOUND(vmcoreinfo_lookup_size(vi, "page", &v)) && v == 64;
	check(ok, "the last SIZE(page) wins: %" PRId64, v);
	s = vmcoreinfo_get(vi, "OSRELEASE");
	check(s && !strcmp(s, "b"), "the last OSRELEASE wins");
	check(vmcoreinfo_has(vi, "SYMBOL", "s") && malformed(vmcoreinfo_lookup_symbol(vi, "s", &u)),
	      "a malformed last duplicate is the answer: SYMBOL(s) is there but not a number");
	vmcoreinfo_free(vi);

	/* Many copies, sorted among other keys. */
	{
		char text[8192];
		size_t len = 0;

		for (int i = 0; i < 100; i++)
			len += (size_t)snprintf(text + len, sizeof(text) - len, "NUMBER(k%d)=%d\nNUMBER(dup)=%d\n",
						i % 7, i, i);
		vi = parse(text);
		check(vi && FOUND(vmcoreinfo_lookup_number(vi, "dup", &v)) && v == 99, "the last of 100 NUMBER(dup) lines wins");
		check(vi && FOUND(vmcoreinfo_lookup_number(vi, "k0", &v)) && v == 98 && FOUND(vmcoreinfo_lookup_number(vi, "k6", &v)) && v == 97,
		      "and the last of each interleaved key");
		vmcoreinfo_free(vi);
	}
}

static void test_garbage(void)
{
	char why[512];
	struct vmcoreinfo *vi;
	int64_t v = 0;
	const char *s;

	/* A damaged line is skipped with a warning: the rest may still make a dump. */
	vi = PARSE_LIT("OSRELEASE=6.1\nPAGESIZE=4096\nthis line has no equals sign\nSIZE(page)=64\n", "/proc/vmcore",
		       why);
	check(vi && strstr(why, "/proc/vmcore") && strstr(why, "line 3") && strstr(why, "this line has no") &&
	      strstr(why, "warning") && FOUND(vmcoreinfo_lookup_size(vi, "page", &v)) && v == 64,
	      "a line without '=' is skipped with a warning naming the origin, the line number and the line, "
	      "and the lines after it are read: %s", why);
	vmcoreinfo_free(vi);

	vi = PARSE_LIT("OSRELEASE=6.1\n=value\n", "origin-x", why);
	check(vi && strstr(why, "origin-x") && strstr(why, "line 2") && vmcoreinfo_get(vi, "OSRELEASE") &&
	      !vmcoreinfo_get(vi, ""), "an empty key is skipped with a warning: %s", why);
	vmcoreinfo_free(vi);

	{
		const char junk[] = "OSRELEASE=6.1\n\x01\x02\xfe\xff\x80\x7f junk\nPAGESIZE=4096\n";

		vi = parse_n(junk, sizeof(junk) - 1, "junk.bin", why, sizeof(why));
		check(vi && strstr(why, "junk.bin") && strstr(why, "line 2") && FOUND(vmcoreinfo_lookup_plain(vi, "PAGESIZE", &v)) &&
		      v == 4096, "binary junk without '=' is skipped with a warning: %s", why);
		vmcoreinfo_free(vi);
	}
	{
		const char nul[] = "A=1\nB\0C=2\nD=3\n\0\0";

		vi = parse_n(nul, sizeof(nul) - 1, "nul", why, sizeof(why));
		check(vi && strstr(why, "line 2 holds a NUL byte") && vmcoreinfo_get(vi, "D") &&
		      !vmcoreinfo_get(vi, "B") && !vmcoreinfo_get(vi, "C"),
		      "a line with a NUL byte is skipped, the lines after it read, the padding ignored: %s", why);
		vmcoreinfo_free(vi);
	}
	{
		const char junk[] = "\xff\xfe=\x01\x02\nNUMBER(n)=7\n";

		vi = parse_n(junk, sizeof(junk) - 1, "junk", why, sizeof(why));
		check(vi && FOUND(vmcoreinfo_lookup_number(vi, "n", &v)) && v == 7 && (s = vmcoreinfo_get(vi, "\xff\xfe")) &&
		      !strcmp(s, "\x01\x02"), "binary bytes with '=' are a line like any other");
		vmcoreinfo_free(vi);
	}
	{
		/* A long line: the message quotes its start only. */
		char text[3000];

		memset(text, 'z', sizeof(text));
		memcpy(text, "A=1\n", 4);
		vi = parse_n(text, sizeof(text), "long", why, sizeof(why));
		check(vi && strlen(why) < 200 && strstr(why, "line 2"),
		      "a 3000-byte line without '=': a short warning (%zu bytes)",
		      strlen(why));
		vmcoreinfo_free(vi);
	}

	/* The kernel pads the note with NULs: the text stops at the first. */
	{
		const char padded[] = "NUMBER(a)=1\n\0NUMBER(b)=2\nno equals here\n\0\0\0";

		vi = parse_n(padded, sizeof(padded) - 1, "padded", why, sizeof(why));
		check(vi && FOUND(vmcoreinfo_lookup_number(vi, "a", &v)) && v == 1 && !vmcoreinfo_has(vi, "NUMBER", "b"),
		      "a NUL ends no text but its own line, garbage after it skipped too (%s)", why);
		vmcoreinfo_free(vi);
	}
	/* @len is honoured: bytes past it are not read. */
	vi = parse_n("NUMBER(a)=12345\n", 12, "short", why, sizeof(why));
	check(vi && FOUND(vmcoreinfo_lookup_number(vi, "a", &v)) && v == 12, "only @len bytes are parsed (NUMBER(a)=12)");
	vmcoreinfo_free(vi);

	vi = PARSE_LIT("OSRELEASE=6.1\nNUMBER(last)=42", "nonl", why);
	check(vi && FOUND(vmcoreinfo_lookup_number(vi, "last", &v)) && v == 42, "a last line without a newline counts");
	vmcoreinfo_free(vi);

	vi = PARSE_LIT("\n\nNUMBER(a)=1\n\n\nNUMBER(b)=2\n\n", "blank", why);
	check(vi && FOUND(vmcoreinfo_lookup_number(vi, "b", &v)) && v == 2, "blank lines are skipped");
	vmcoreinfo_free(vi);

	vi = PARSE_LIT("", "empty-origin", why);
	check(!vi && strstr(why, "empty-origin") && strstr(why, "empty"), "an empty text is an error: %s", why);
	vmcoreinfo_free(vi);
	vi = PARSE_LIT("\n\n\n", "newlines", why);
	check(!vi && strstr(why, "newlines"), "a text of newlines alone is an error: %s", why);
	vmcoreinfo_free(vi);
	vi = PARSE_LIT("\0NUMBER(a)=1\n", "nul-first", why);
	check(!vi && strstr(why, "nul-first"), "a text starting with NUL is empty: %s", why);
	vmcoreinfo_free(vi);

	/*
	 * The kernel writes "\n" only.  A CRLF text (a VMCOREINFO file edited
	 * elsewhere) keeps the '\r' in each value: numbers are then malformed,
	 * as upstream makedumpfile finds them too ("Invalid data").
	 */
	vi = PARSE_LIT("OSRELEASE=6.1\r\nNUMBER(a)=5\r\nSYMBOL(s)=ff\r\n", "crlf", why);
	{
		uint64_t u;

		check(vi && malformed(vmcoreinfo_lookup_number(vi, "a", &v)) && malformed(vmcoreinfo_lookup_symbol(vi, "s", &u)) &&
		      vmcoreinfo_has(vi, "NUMBER", "a") && (s = vmcoreinfo_get(vi, "OSRELEASE")) && !strcmp(s, "6.1\r"),
		      "CRLF: the lines are there, the '\\r' stays in the value, numbers are malformed");
	}
	vmcoreinfo_free(vi);
}

static void test_numbers(void)
{
	const char text[] =
		"NUMBER(empty)=\n"
		"NUMBER(letters)=12abc\n"
		"NUMBER(hexnoprefix)=ff\n"
		"NUMBER(prefixonly)=0x\n"
		"NUMBER(badhex)=0xzz\n"
		"NUMBER(neghex)=-0x10\n"
		"NUMBER(space)=5 \n"
		"NUMBER(toobig)=99999999999999999999\n"
		"NUMBER(u64max)=18446744073709551615\n"
		"NUMBER(i64min)=-9223372036854775808\n"
		"NUMBER(toonegative)=-9223372036854775809\n"
		"NUMBER(zero)=0\n"
		"NUMBER(hexbig)=0xffffffffffffffff\n"
		"NUMBER(hextoobig)=0x1ffffffffffffffff\n"
		"SIZE(neg)=-1\n"
		"OFFSET(x.y)=1.5\n"
		"LENGTH(z)=+7\n"
		"SYMBOL(prefixed)=0xffffffff81000000\n"
		"SYMBOL(upper)=FFFFFFFF81000000\n"
		"SYMBOL(neg)=-1\n"
		"SYMBOL(notahex)=ffffg\n"
		"SYMBOL(empty)=\n"
		"SYMBOL(toobig)=1ffffffffffffffff\n"
		"SYMBOL(zero)=0\n"
		"PAGESIZE=4k\n"
		"CRASHTIME=1733436000\n";
	struct vmcoreinfo *vi = parse(text);
	int64_t v = 0;
	uint64_t u = 0;

	check(vi != NULL, "a text of odd numbers parses (values are checked when asked)");
	if (!vi)
		return;
	check(malformed(vmcoreinfo_lookup_number(vi, "empty", &v)), "NUMBER(empty)= is malformed");
	check(malformed(vmcoreinfo_lookup_number(vi, "letters", &v)), "12abc is malformed");
	check(malformed(vmcoreinfo_lookup_number(vi, "hexnoprefix", &v)),
	      "ff is malformed: the kernel prints hex NUMBERs with 0x (upstream would retry it as hex)");
	check(malformed(vmcoreinfo_lookup_number(vi, "prefixonly", &v)), "0x alone is malformed");
	check(malformed(vmcoreinfo_lookup_number(vi, "badhex", &v)), "0xzz is malformed");
	check(malformed(vmcoreinfo_lookup_number(vi, "neghex", &v)), "-0x10 is malformed");
	check(malformed(vmcoreinfo_lookup_number(vi, "space", &v)), "a trailing space makes it malformed");
	check(malformed(vmcoreinfo_lookup_number(vi, "toobig", &v)), "20 nines overflow 64 bits: malformed");
	check(FOUND(vmcoreinfo_lookup_number(vi, "u64max", &v)) && v == -1, "2^64-1 in decimal reads as its 64 bits (-1)");
	check(FOUND(vmcoreinfo_lookup_number(vi, "i64min", &v)) && v == INT64_MIN, "-2^63");
	check(malformed(vmcoreinfo_lookup_number(vi, "toonegative", &v)), "below -2^63: malformed");
	check(FOUND(vmcoreinfo_lookup_number(vi, "zero", &v)) && v == 0, "0");
	check(FOUND(vmcoreinfo_lookup_number(vi, "hexbig", &v)) && (uint64_t)v == UINT64_MAX, "0xffffffffffffffff");
	check(malformed(vmcoreinfo_lookup_number(vi, "hextoobig", &v)), "a 65-bit hex NUMBER is malformed");
	check(FOUND(vmcoreinfo_lookup_size(vi, "neg", &v)) && v == -1, "SIZE(neg)=-1 is read as -1");
	check(malformed(vmcoreinfo_lookup_offset(vi, "x.y", &v)), "OFFSET 1.5 is malformed");
	check(FOUND(vmcoreinfo_lookup_length(vi, "z", &v)) && v == 7, "LENGTH +7 is 7 (strtoll's sign)");
	check(FOUND(vmcoreinfo_lookup_symbol(vi, "prefixed", &u)) && u == 0xffffffff81000000ull, "SYMBOL with 0x reads the same");
	check(FOUND(vmcoreinfo_lookup_symbol(vi, "upper", &u)) && u == 0xffffffff81000000ull, "SYMBOL in upper case");
	check(malformed(vmcoreinfo_lookup_symbol(vi, "neg", &u)), "SYMBOL -1 is malformed");
	check(malformed(vmcoreinfo_lookup_symbol(vi, "notahex", &u)), "SYMBOL ffffg is malformed");
	check(malformed(vmcoreinfo_lookup_symbol(vi, "empty", &u)), "SYMBOL empty is malformed");
	check(malformed(vmcoreinfo_lookup_symbol(vi, "toobig", &u)), "a 65-bit SYMBOL is malformed");
	check(FOUND(vmcoreinfo_lookup_symbol(vi, "zero", &u)) && u == 0, "SYMBOL 0 is 0");
	check(vmcoreinfo_has(vi, "NUMBER", "letters") && vmcoreinfo_has(vi, "SYMBOL", "neg"),
	      "vmcoreinfo_has is true for a malformed line");
	check(malformed(vmcoreinfo_lookup_plain(vi, "PAGESIZE", &v)), "PAGESIZE=4k is malformed");
	check(FOUND(vmcoreinfo_lookup_plain(vi, "CRASHTIME", &v)) && v == 1733436000, "CRASHTIME");
	vmcoreinfo_free(vi);
}

static void test_files(void)
{
	char dir[] = "/tmp/test_vmcoreinfo.XXXXXX", path[300], missing[300];
	struct vmcoreinfo *vi = NULL;
	struct mdf_error *err;
	int64_t v = 0;
	FILE *f;

	if (!mkdtemp(dir)) {
		check(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(missing, sizeof(missing), "%s/no-such-vmcoreinfo", dir);
	err = vmcoreinfo_load_file(missing, &vi);
	check(err && err->code == -ENOENT && strstr(mdf_error_text(err), missing) && !vi,
	      "a missing file: -ENOENT, the error names it (%s)", err ? mdf_error_text(err) : "no error");
	mdf_error_free(err);

	snprintf(path, sizeof(path), "%s/vmcoreinfo", dir);
	f = fopen(path, "w");
	if (f) {
		fputs("OSRELEASE=6.1.0\nNUMBER(a)=1\nNUMBER(a)=2\n", f);
		fclose(f);
	}
	err = vmcoreinfo_load_file(path, &vi);
	check(!err && vi && FOUND(vmcoreinfo_lookup_number(vi, "a", &v)) && v == 2, "a file as makedumpfile -g writes it loads");
	mdf_error_free(err);
	vmcoreinfo_free(vi);
	vi = NULL;

	f = fopen(path, "w");
	if (f) {
		fputs("OSRELEASE=6.1.0\ngarbage line\n", f);
		fclose(f);
	}
	err = vmcoreinfo_load_file(path, &vi);
	check(!err && vi && vmcoreinfo_get(vi, "OSRELEASE"), "a file with a bad line loads, the line skipped (%s)",
	      err ? mdf_error_text(err) : "no error");
	mdf_error_free(err);
	vmcoreinfo_free(vi);
	vi = NULL;

	f = fopen(path, "w");
	if (f) {
		for (int i = 0; i < 70000; i++)
			fprintf(f, "NUMBER(n%d)=%d\n", i, i);
		fclose(f);
	}
	err = vmcoreinfo_load_file(path, &vi);
	check(err && strstr(mdf_error_text(err), path) && !vi, "a file over 1 MiB is refused, named (%s)",
	      err ? mdf_error_text(err) : "no error");
	mdf_error_free(err);

	err = vmcoreinfo_load_file(dir, &vi);
	check(err && strstr(mdf_error_text(err), dir) && !vi, "a directory: an error naming it (%s)",
	      err ? mdf_error_text(err) : "no error");
	mdf_error_free(err);

	unlink(path);
	rmdir(dir);
}

/* The shared dumps' VMCOREINFO: each line's value under its key, the last of duplicates. */
static void test_real(void)
{
	static const char *const dumps[] = { "6.1-kdump", "6.1-qemu", "7.2-qemu", "6.1-arm64-kdump" };
	const char *project = getenv("PROJECT");
	int found = 0;

	for (size_t i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++) {
		char path[1024], line[4096];
		struct vmcoreinfo *vi = NULL;
		struct mdf_error *err;
		size_t lines = 0, wrong = 0;
		FILE *f;

		snprintf(path, sizeof(path), "%s%s../shared/vmcores/%s/vmcoreinfo.txt", project ? project : "",
			 project ? "/" : "", dumps[i]);
		f = fopen(path, "re");
		if (!f)
			continue;
		found++;
		err = vmcoreinfo_load_file(path, &vi);
		check(!err, "%s: the real VMCOREINFO loads%s%s", dumps[i], err ? ": " : "",
		      err ? mdf_error_text(err) : "");
		mdf_error_free(err);
		while (vi && fgets(line, sizeof(line), f)) {
			char *eq = strchr(line, '=');
			const char *got;

			line[strcspn(line, "\n")] = '\0';
			if (!eq)
				continue;
			*eq = '\0';
			lines++;
			got = vmcoreinfo_get(vi, line);
			/* A later line of the same key would win; the shared texts have none. */
			if (!got || strcmp(got, eq + 1))
				wrong++;
		}
		fclose(f);
		if (vi) {
			uint64_t u;
			int64_t v;

			check(lines > 50 && !wrong, "%s: each of its %zu lines is found under its key (%zu wrong)",
			      dumps[i],
			      lines, wrong);
			check(FOUND(vmcoreinfo_lookup_symbol(vi, "swapper_pg_dir", &u)) && u >> 63 &&
			      FOUND(vmcoreinfo_lookup_plain(vi, "PAGESIZE", &v)) && v == 4096 &&
			      FOUND(vmcoreinfo_lookup_size(vi, "page", &v)) && v == 64 &&
			      FOUND(vmcoreinfo_lookup_number(vi, "PAGE_BUDDY_MAPCOUNT_VALUE", &v)) && v < 0,
			      "%s: SYMBOL(swapper_pg_dir), PAGESIZE, SIZE(page), "
			      "NUMBER(PAGE_BUDDY_MAPCOUNT_VALUE) read",
			      dumps[i]);
		}
		vmcoreinfo_free(vi);
	}
	if (!found)
		printf("skip the real VMCOREINFO texts: none under %s%s../shared/vmcores\n", project ? project : "",
		       project ? "/" : "");
}

int main(void)
{
	msg_set_level(ML_ERROR);
	test_well_formed();
	test_duplicates();
	test_garbage();
	test_numbers();
	test_files();
	test_real();
	return unit_exit_status();
}
