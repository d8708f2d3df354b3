/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The process one extension runs in, as the parent sees it.
 *
 * The child leads a process group of its own and dies with the parent
 * (PR_SET_PDEATHSIG), so that nothing it starts outlives makedumpfile: at
 * its end, or at the time limit, the whole group is killed.  Its stdin is
 * /dev/null; its stdout and stderr are a pipe the parent relays to its own
 * stderr, each line prefixed with the extension's name (unless the line
 * names it already), so that the dump's descriptors (the -F stream on
 * stdout) are never the extension's.  makedumpfile's own messages in the
 * child keep the original streams (msg_set_streams).  Its report comes
 * through a second pipe, read with a deadline.
 */
#ifndef MDF_EXTENSION_CHILD_H
#define MDF_EXTENSION_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <time.h>

struct mdf_error;

#define EXT_CHILD_LINE_MAX 1024

struct ext_child {
	pid_t pid;
	int report_fd;           /* read end of the report pipe */
	int output_fd;           /* read end of the child's stdout and stderr; -1 once drained */
	const char *name;        /* the prefix of its output lines */
	struct timespec deadline;
	char line[EXT_CHILD_LINE_MAX];
	size_t line_len;
};

/*
 * Forks; in the child, sets the process up as above and calls
 * @run(report_fd, @arg), which must not return.  @timeout seconds from
 * now is the deadline of ext_child_read().
 */
struct mdf_error *ext_child_start(struct ext_child *c, const char *name, unsigned int timeout,
				  void (*run)(int report_fd, void *arg), void *arg);

/*
 * Reads exactly @len bytes of the report, relaying the child's output
 * meanwhile: NULL, or an error of -ETIMEDOUT at the deadline, -EPIPE at
 * the end of the report, or what reading said.
 */
struct mdf_error *ext_child_read(struct ext_child *c, void *buf, size_t len);

/*
 * Ends the child: kills it first if @kill_first, waits for it, kills what
 * is left of its process group, relays the rest of its output, reaps it
 * and closes the pipes.  Returns its wait status (-1 if it was lost) and
 * fills @usage (may be NULL).
 */
int ext_child_end(struct ext_child *c, bool kill_first, struct rusage *usage);

#endif
