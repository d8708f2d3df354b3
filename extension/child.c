// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "extension/child.h"
#include "util/error.h"
#include "util/message.h"

/* How long the rest of the output may take to arrive once the group is killed. */
#define DRAIN_MS 200

/* One line of the child's output on our stderr, named. */
static void relay_line(struct ext_child *c)
{
	size_t name_len = strlen(c->name);
	const char *line = c->line;
	bool named = c->line_len > name_len && !strncmp(line, c->name, name_len) &&
		     (line[name_len] == ':' || !strncmp(line + name_len, ".so:", 4));

	fflush(stdout);
	fprintf(stderr, "%s%s%.*s\n", named ? "" : c->name, named ? "" : ": ", (int)c->line_len, line);
}

/* Takes what the pipe holds; false at its end or on an error. */
static bool relay_some(struct ext_child *c)
{
	char buf[4096];
	ssize_t n = read(c->output_fd, buf, sizeof(buf));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0)
		return false;
	for (ssize_t i = 0; i < n; i++) {
		if (buf[i] != '\n')
			c->line[c->line_len++] = buf[i];
		if (buf[i] == '\n' || c->line_len == sizeof(c->line)) {
			relay_line(c);
			c->line_len = 0;
		}
	}
	return true;
}

static void close_output(struct ext_child *c)
{
	if (c->output_fd < 0)
		return;
	if (c->line_len)
		relay_line(c);
	c->line_len = 0;
	close(c->output_fd);
	c->output_fd = -1;
}

/*
 * The parent-death signal: caught, so that the child takes its process
 * group, the processes the extension started, down with it.  A real-time
 * signal, which an extension has no reason to handle; SIGKILL would leave
 * them to init.  Not the last two: qemu-user keeps them for itself, and
 * the cross-builds' checks (.ci/cross) run extensions under it.
 */
#define PARENT_DEATH_SIGNAL (SIGRTMAX - 2)

static void kill_own_group(int sig)
{
	(void)sig;
	kill(0, SIGKILL);
	_exit(2);
}

/* In the child: everything but the run itself. */
static void set_up_child(int output_fd, pid_t parent)
{
	int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int out = dup(STDOUT_FILENO), err = dup(STDERR_FILENO);
	FILE *own_out = out >= 0 ? fdopen(out, "w") : NULL, *own_err = err >= 0 ? fdopen(err, "w") : NULL;
	struct sigaction on_parent_death = { .sa_handler = kill_own_group };
	sigset_t parent_death;

	setpgid(0, 0);
	sigemptyset(&parent_death);
	sigaddset(&parent_death, PARENT_DEATH_SIGNAL);
	if (sigaction(PARENT_DEATH_SIGNAL, &on_parent_death, NULL) < 0 ||
	    sigprocmask(SIG_UNBLOCK, &parent_death, NULL) < 0 ||
	    prctl(PR_SET_PDEATHSIG, PARENT_DEATH_SIGNAL) < 0 || getppid() != parent)
		_exit(2);
	if (null_fd < 0 || !own_out || !own_err || dup2(null_fd, STDIN_FILENO) < 0 ||
	    dup2(output_fd, STDOUT_FILENO) < 0 || dup2(output_fd, STDERR_FILENO) < 0)
		_exit(2);
	fcntl(out, F_SETFD, FD_CLOEXEC);
	fcntl(err, F_SETFD, FD_CLOEXEC);
	close(null_fd);
	close(output_fd);
	msg_set_streams(own_out, own_err);
	/* Lines, not blocks: the parent relays as they come, in order with stderr's. */
	setvbuf(stdout, NULL, _IOLBF, 0);
}

struct mdf_error *ext_child_start(struct ext_child *c, const char *name, unsigned int timeout,
				  void (*run)(int report_fd, void *arg), void *arg)
{
	int report[2], output[2];
	pid_t parent = getpid();

	memset(c, 0, sizeof(*c));
	c->name = name;
	c->report_fd = c->output_fd = -1;
	if (pipe2(report, O_CLOEXEC) < 0)
		return mdf_error(-errno, "cannot create a pipe for extension %s: %s", name, strerror(errno));
	if (pipe2(output, O_CLOEXEC) < 0) {
		int code = -errno;

		close(report[0]);
		close(report[1]);
		return mdf_error(code, "cannot create a pipe for extension %s: %s", name, strerror(-code));
	}
	fflush(NULL);
	c->pid = fork();
	if (c->pid == 0) {
		close(report[0]);
		close(output[0]);
		set_up_child(output[1], parent);
		run(report[1], arg);
		_exit(2);
	}
	close(report[1]);
	close(output[1]);
	if (c->pid < 0) {
		int code = -errno;

		close(report[0]);
		close(output[0]);
		return mdf_error(code, "cannot fork for extension %s: %s", name, strerror(-code));
	}
	/* Also here: a group kill must not miss a child that has not run setpgid yet. */
	setpgid(c->pid, c->pid);
	c->report_fd = report[0];
	c->output_fd = output[0];
	clock_gettime(CLOCK_MONOTONIC, &c->deadline);
	c->deadline.tv_sec += timeout;
	return NULL;
}

static long ms_until(const struct timespec *deadline)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (deadline->tv_sec - now.tv_sec) * 1000 + (deadline->tv_nsec - now.tv_nsec) / 1000000;
}

struct mdf_error *ext_child_read(struct ext_child *c, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		struct pollfd fds[2] = { { .fd = c->report_fd, .events = POLLIN },
					 { .fd = c->output_fd, .events = POLLIN } };
		long ms = ms_until(&c->deadline);
		ssize_t n;

		if (ms <= 0)
			return mdf_error_code(-ETIMEDOUT);
		n = poll(fds, c->output_fd >= 0 ? 2 : 1, ms > INT_MAX ? INT_MAX : (int)ms);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return mdf_error(-errno, "cannot wait for the report: %s", strerror(errno));
		if (c->output_fd >= 0 && fds[1].revents && !relay_some(c))
			close_output(c);
		if (!fds[0].revents)
			continue;
		n = read(c->report_fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return mdf_error(-errno, "cannot read the report: %s", strerror(errno));
		if (n == 0)
			return mdf_error_code(-EPIPE);
		p += n;
		len -= (size_t)n;
	}
	return NULL;
}

/* What the group's processes still had to say, for at most DRAIN_MS. */
static void drain_output(struct ext_child *c)
{
	struct timespec until;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_nsec += DRAIN_MS * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	while (c->output_fd >= 0) {
		struct pollfd pfd = { .fd = c->output_fd, .events = POLLIN };
		long ms = ms_until(&until);

		if (ms <= 0 || poll(&pfd, 1, (int)ms) <= 0 || !relay_some(c))
			break;
	}
	close_output(c);
}

int ext_child_end(struct ext_child *c, bool kill_first, struct rusage *usage)
{
	siginfo_t info;
	int status = -1;

	if (kill_first)
		kill(-c->pid, SIGKILL);
	/* Waited for, not reaped: the group keeps its id until its leader is. */
	while (waitid(P_PID, (id_t)c->pid, &info, WEXITED | WNOWAIT) < 0 && errno == EINTR)
		;
	kill(-c->pid, SIGKILL);
	drain_output(c);
	while (wait4(c->pid, &status, 0, usage) < 0) {
		if (errno != EINTR) {
			status = -1;
			break;
		}
	}
	close(c->report_fd);
	c->report_fd = -1;
	return status;
}
