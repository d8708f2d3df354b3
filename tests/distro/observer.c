// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mdf-observer LOGFILE: in a kdump crash kernel, watches each makedumpfile
 * process that kdump-tools starts and, when it ends, prints one line
 *
 *   MDF-OBSERVER pid=P ppid=Q start=S end=E elapsed=T vmhwm_kb=K cmd=ARGS
 *
 * to stdout and appends it to LOGFILE (fsync'ed: the crash kernel reboots
 * with "reboot -f" right after the save).  S and E are seconds since boot;
 * K is the process's peak resident set (VmHWM, what time(1) calls maximum
 * RSS).  It measures from outside, so that kdump-tools runs makedumpfile
 * unchanged.
 *
 * How: every 50 ms /proc is scanned for processes named makedumpfile (an
 * extension's child has that name too: ppid tells them apart) and the
 * VmHWM of each is read; a pidfd per process wakes the loop the moment it
 * exits, so E is exact while K is the last reading before the exit, which
 * only misses a peak reached in its last 50 ms.  The start comes from the
 * kernel's own record (/proc/PID/stat, field 22).
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_WATCHED 64
#define POLL_MS 50

struct watched {
	int pid, ppid, pidfd;
	double start;
	long hwm_kb;
	char cmd[512];
};

static struct watched watched[MAX_WATCHED];
static int nwatched;

static int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return (int)n;
}

static double now_since_boot(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long vmhwm_kb(int pid)
{
	char path[64], buf[4096], *line;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (read_file(path, buf, sizeof(buf)) < 0 || !(line = strstr(buf, "\nVmHWM:")))
		return -1;
	return strtol(line + strlen("\nVmHWM:"), NULL, 10);
}

static int is_watched(int pid)
{
	for (int i = 0; i < nwatched; i++)
		if (watched[i].pid == pid)
			return 1;
	return 0;
}

/* A new makedumpfile process: its pidfd, parent, start and command line. */
static void watch(int pid)
{
	struct watched *w = &watched[nwatched];
	char path[64], buf[4096], *after_comm;
	unsigned long long start_ticks;
	int n;

	w->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (w->pidfd < 0)
		return;
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	/* Fields after the ")" that ends the name: state ppid ... starttime (22nd). */
	if (read_file(path, buf, sizeof(buf)) < 0 || !(after_comm = strrchr(buf, ')')) ||
	    sscanf(after_comm + 2, "%*c %d %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu",
		   &w->ppid, &start_ticks) != 2) {
		close(w->pidfd);
		return;
	}
	w->pid = pid;
	w->start = (double)start_ticks / sysconf(_SC_CLK_TCK);
	w->hwm_kb = vmhwm_kb(pid);
	snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
	n = read_file(path, w->cmd, sizeof(w->cmd));
	for (int i = 0; i < n - 1; i++)
		if (w->cmd[i] == '\0')
			w->cmd[i] = ' ';
	nwatched++;
}

static void scan_proc(void)
{
	DIR *proc = opendir("/proc");
	struct dirent *e;
	char path[300], comm[64];

	if (!proc)
		return;
	while ((e = readdir(proc)) && nwatched < MAX_WATCHED) {
		int pid;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		pid = atoi(e->d_name);
		snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
		if (!is_watched(pid) && read_file(path, comm, sizeof(comm)) > 0 && !strcmp(comm, "makedumpfile\n"))
			watch(pid);
	}
	closedir(proc);
}

static void report(const struct watched *w, double end, FILE *log)
{
	char line[1024];

	snprintf(line, sizeof(line), "MDF-OBSERVER pid=%d ppid=%d start=%.2f end=%.2f elapsed=%.2f vmhwm_kb=%ld cmd=%s\n",
		 w->pid, w->ppid, w->start, end, end - w->start, w->hwm_kb, w->cmd);
	fputs(line, stdout);
	fflush(stdout);
	if (log) {
		fputs(line, log);
		fflush(log);
		fsync(fileno(log));
	}
}

int main(int argc, char **argv)
{
	FILE *log = argc > 1 ? fopen(argv[1], "a") : NULL;
	struct pollfd fds[MAX_WATCHED];

	for (;;) {
		scan_proc();
		for (int i = 0; i < nwatched; i++) {
			long kb = vmhwm_kb(watched[i].pid);

			if (kb > watched[i].hwm_kb)
				watched[i].hwm_kb = kb;
			fds[i] = (struct pollfd){ .fd = watched[i].pidfd, .events = POLLIN };
		}
		if (poll(fds, nwatched, POLL_MS) <= 0)
			continue;
		double end = now_since_boot();
		for (int i = nwatched - 1; i >= 0; i--) {
			if (!(fds[i].revents & POLLIN))
				continue;
			report(&watched[i], end, log);
			close(watched[i].pidfd);
			watched[i] = watched[--nwatched];
		}
	}
}
