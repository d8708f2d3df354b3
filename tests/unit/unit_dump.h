// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * unit_dump.h: generated dumps for unit tests.  unit_mkvmcore() runs the
 * generator, $TOOLS/mkvmcore (tests/gen/README.md), into a directory of
 * its own under $WORKROOT (else $TMPDIR or /tmp); unit_dump_open() opens
 * a dump as makedumpfile does, up to the memory reader.  A test that
 * needs the generator and cannot run it fails, saying why: it never
 * passes without having looked.
 *
 * Include after unit_check.h.
 */
#ifndef UNIT_DUMP_H
#define UNIT_DUMP_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arch/arch.h"
#include "input/dump_input.h"
#include "input/vmcoreinfo.h"
#include "memory/reader.h"
#include "util/error.h"

/* A scratch directory named after the test, made once; NULL (and a FAIL line) if it cannot be. */
static __attribute__((unused)) const char *unit_workdir(const char *test)
{
	static char dir[512];
	const char *root = getenv("WORKROOT");

	if (dir[0])
		return dir;
	if (!root || !*root)
		root = getenv("TMPDIR");
	if (!root || !*root)
		root = "/tmp";
	snprintf(dir, sizeof(dir), "%s/unit-%s.%d", root, test, (int)getpid());
	if (mkdir(dir, 0700) && errno != EEXIST) {
		check(0, "cannot make the scratch directory %s: %s", dir, strerror(errno));
		dir[0] = '\0';
		return NULL;
	}
	return dir;
}

/*
 * Runs $TOOLS/mkvmcore with @args (NULL-terminated) and then @out; its
 * output goes to the test's log.  False, with a FAIL line saying why,
 * when it cannot be run or fails.
 */
static __attribute__((unused)) bool unit_mkvmcore(const char *const *args, const char *out)
{
	const char *tools = getenv("TOOLS");
	char tool[1024];
	const char *argv[64];
	size_t argc = 0;
	int status;
	pid_t pid;
	/* Said once: the other dumps of the test cannot be made either. */
	static bool no_tool;

	if (no_tool)
		return false;
	if (!tools || !*tools) {
		check(0, "TOOLS is not set: run this test with make check (it needs $TOOLS/mkvmcore)");
		no_tool = true;
		return false;
	}
	snprintf(tool, sizeof(tool), "%s/mkvmcore", tools);
	if (access(tool, X_OK)) {
		check(0, "the generator %s is missing (%s): build it with make tests", tool, strerror(errno));
		no_tool = true;
		return false;
	}
	argv[argc++] = tool;
	for (size_t i = 0; args && args[i] && argc < 62; i++)
		argv[argc++] = args[i];
	argv[argc++] = out;
	argv[argc] = NULL;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execv(tool, (char *const *)argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
		check(0, "%s did not make %s", tool, out);
		return false;
	}
	return true;
}

/* A dump open up to the memory reader. */
struct unit_dump {
	struct dump_input *in;
	struct vmcoreinfo *vi;
	struct memory *mem;
};

static __attribute__((unused)) void unit_dump_close(struct unit_dump *d)
{
	memory_free(d->mem);
	vmcoreinfo_free(d->vi);
	if (d->in)
		input_close(d->in);
	memset(d, 0, sizeof(*d));
}

/*
 * Opens @path; with @vmcoreinfo, that text instead of the dump's own.
 * The error, if any, says what failed; nothing is left open then.
 */
static __attribute__((unused)) struct mdf_error *unit_dump_open(const char *path, const char *vmcoreinfo,
								 struct unit_dump *d)
{
	const struct arch_ops *arch;
	struct mdf_error *err;

	memset(d, 0, sizeof(*d));
	err = input_open(path, &d->in);
	if (!err && !vmcoreinfo && !d->in->vmcoreinfo)
		err = mdf_error(-ENOENT, "%s: no VMCOREINFO", path);
	if (!err)
		err = vmcoreinfo ? vmcoreinfo_parse(vmcoreinfo, strlen(vmcoreinfo), "test VMCOREINFO", &d->vi)
				 : vmcoreinfo_parse(d->in->vmcoreinfo, d->in->vmcoreinfo_size, path, &d->vi);
	if (!err)
		err = arch_detect(d->in, d->vi, &arch);
	if (!err)
		err = memory_new(d->in, arch, d->vi, &d->mem);
	if (err)
		unit_dump_close(d);
	return err;
}

/* Reads all of @path into a NUL-terminated string (*@len bytes before the NUL); NULL if it cannot. */
static __attribute__((unused)) char *unit_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	long size;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (text = malloc((size_t)size + 1)) && fread(text, 1, (size_t)size, f) == (size_t)size) {
		text[size] = '\0';
		if (len)
			*len = (size_t)size;
	} else {
		free(text);
		text = NULL;
	}
	fclose(f);
	return text;
}

#endif
