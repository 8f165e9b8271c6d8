/*
 * reaper - run a command as a child subreaper and tell whether it left
 * anything behind. Tests use it to check that a script cleans up every
 * process it started: whatever the command forked and orphaned comes back
 * to us (PR_SET_CHILD_SUBREAPER), not to a PID 1 that may never reap it.
 *
 *     reaper COMMAND [ARG...]
 *
 * SIGINT, SIGTERM and SIGHUP sent to reaper are passed on to the command.
 * Once the command has exited, descendants still alive after a grace of
 * two seconds are listed on stderr ("reaper: left running: PID NAME"),
 * killed and reaped. Exit: the command's status (128+N when killed by
 * signal N), or 125 when something was left running, 126 on set-up errors.
 */
#include <dirent.h>
#include <errno.h>
#include <error.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "opt.h"

#define LEFT_RUNNING 125
#define SETUP_FAILED 126

static volatile sig_atomic_t pending_signal;

static void on_signal(int sig)
{
	pending_signal = sig;
}

/* Our remaining children: after the command exits, its orphans are ours. */
static int list_children(pid_t *pids, int max)
{
	char path[300], line[512];
	int n = 0;
	DIR *d = opendir("/proc");
	struct dirent *e;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		long long pid, ppid = -1;
		const char *why;
		FILE *f;

		if (parse_num(e->d_name, 1, INT_MAX, &pid, &why) < 0)
			continue;	/* not a process */
		snprintf(path, sizeof(path), "/proc/%s/status", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			char *v = line + 5;

			if (strncmp(line, "PPid:", 5) != 0)
				continue;
			v += strspn(v, " \t");
			v[strcspn(v, "\n")] = '\0';
			if (parse_num(v, 0, INT_MAX, &ppid, &why) < 0)
				ppid = -1;
			break;
		}
		fclose(f);
		if (ppid == (long long)getpid())
			pids[n++] = (pid_t)pid;
	}
	closedir(d);
	return n;
}

static void name_of(pid_t pid, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(buf, len, "?");
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* Reap whatever has exited; returns how many children are still there. */
static int reap_and_count(pid_t *pids, int max)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	return list_children(pids, max);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	pid_t child, left[256];
	int status, n, i, tenths;

	if (argc < 2) {
		fprintf(stderr, "usage: reaper COMMAND [ARG...]\n");
		return 2;
	}
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
		error(SETUP_FAILED, errno, "PR_SET_CHILD_SUBREAPER");
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	child = fork();
	if (child < 0)
		error(SETUP_FAILED, errno, "fork");
	if (child == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		execvp(argv[1], argv + 1);
		error(127, errno, "%s", argv[1]);
	}

	while (waitpid(child, &status, 0) < 0) {
		if (errno != EINTR)
			error(SETUP_FAILED, errno, "waitpid");
		if (pending_signal) {
			kill(child, pending_signal);
			pending_signal = 0;
		}
	}

	for (tenths = 20; (n = reap_and_count(left, 256)) > 0 && tenths > 0; tenths--) {
		struct timespec ts = { .tv_nsec = 100000000 };

		nanosleep(&ts, NULL);
	}
	for (i = 0; i < n; i++) {
		char name[64];

		name_of(left[i], name, sizeof(name));
		fprintf(stderr, "reaper: left running: %d %s\n", (int)left[i], name);
	}
	/* Killing one may orphan its own children onto us: repeat till none. */
	for (tenths = 50, i = n; i > 0 && tenths > 0; tenths--) {
		struct timespec ts = { .tv_nsec = 100000000 };
		int j;

		for (j = 0; j < i; j++)
			kill(left[j], SIGKILL);
		nanosleep(&ts, NULL);
		i = reap_and_count(left, 256);
	}
	if (n > 0)
		return LEFT_RUNNING;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
