// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A test extension that leaves something behind: it prints a line with
 * printf() (to the stdout it was given), starts a grandchild that sleeps
 * for a minute holding that stdout and stderr, writes both pids to the
 * file --extension-arg lingers:pids=PATH names, and then returns, or with
 * --extension-arg lingers:hang=1 sleeps itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "makedumpfile-extension.h"

int mdf_extension_init(struct mdf_extension *ext)
{
	const char *path = mdf_extension_arg(ext, "pids"), *hang = mdf_extension_arg(ext, "hang");
	pid_t grandchild;
	FILE *f;

	printf("printed on the stdout an extension is given\n");
	fflush(stdout);
	grandchild = fork();
	if (grandchild == 0) {
		sleep(60);
		_exit(0);
	}
	if (path && (f = fopen(path, "w"))) {
		fprintf(f, "%d %d\n", (int)getpid(), (int)grandchild);
		fclose(f);
	}
	if (hang && *hang == '1')
		sleep(60);
	return 0;
}
