/*
 * subreaper - run a command as a child subreaper and account for every
 * process it leaves behind.
 *
 *   subreaper [-s] [-o REPORT] [-t MSECS] command [arg ...]
 *
 * Orphans of the command's process tree are re-parented to us (not to PID 1,
 * which on some machines never reaps them), so after the command exits we
 * can tell whether its descendants were already gone, were reaped by us
 * (orphans), or were still alive after MSECS ms (default 1000): those are
 * listed, then killed by PID and reaped. Report lines, in REPORT (default
 * stderr):
 *
 *   child PID                  the command's PID, as soon as it runs
 *   status exit N | signal N   how the command ended
 *   orphan PID after MS ms     a descendant we reaped, relative to the end
 *   left PID STATE COMM        a descendant alive after MSECS ms
 *   gone after MS ms           every descendant gone, MS after the command
 *
 * Exit status: 0 when nothing was left, 3 when something was. With -s, for
 * scripts that run a command through us as if directly: SIGINT, SIGTERM and
 * SIGHUP are passed on to the command, and we exit with its status (128+N
 * when signal N killed it), or 125 when something was left.
 */
#include <dirent.h>
#include <error.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "opt.h"

static FILE *report;
static int cfg_as_command;	/* -s */
static volatile sig_atomic_t pending_signal;

static void on_signal(int sig)
{
	pending_signal = sig;
}

/* Parent PID and state of pid from /proc/PID/stat; comm may hold spaces. */
static int proc_stat(pid_t pid, pid_t *ppid, char *state, char *comm, size_t len)
{
	char path[64], buf[512], *open_paren, *close_paren, *end;
	FILE *f;
	size_t n;
	long pp;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	open_paren = strchr(buf, '(');
	close_paren = strrchr(buf, ')');
	/* After the comm: " S PPID ..." */
	if (!open_paren || !close_paren || close_paren < open_paren ||
	    close_paren[1] != ' ' || !close_paren[2] || close_paren[3] != ' ')
		return -1;
	*state = close_paren[2];
	pp = strtol(close_paren + 4, &end, 10);
	if (end == close_paren + 4)
		return -1;
	*ppid = (pid_t)pp;
	snprintf(comm, len, "%.*s", (int)(close_paren - open_paren - 1), open_paren + 1);
	return 0;
}

/*
 * List, kill and reap whatever children we still have. Returns how many.
 * A killed one hands its own children to us: repeat until a pass finds none.
 */
static int kill_leftovers(void)
{
	DIR *d;
	struct dirent *e;
	char state, comm[64];
	pid_t pid, ppid;
	long long v;
	const char *why;
	int left = 0, found;

	do {
		d = opendir("/proc");
		if (!d) {
			error(0, errno, "/proc");
			return left + 1;	/* cannot tell: count it as left */
		}
		found = 0;
		while ((e = readdir(d))) {
			if (parse_num(e->d_name, 1, INT_MAX, &v, &why) < 0)
				continue;	/* not a process */
			pid = (pid_t)v;
			if (proc_stat(pid, &ppid, &state, comm, sizeof(comm)) < 0)
				continue;
			if (ppid != getpid())
				continue;
			fprintf(report, "left %d %c %s\n", (int)pid, state, comm);
			kill(pid, SIGKILL);
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
			found++;
		}
		closedir(d);
		left += found;
	} while (found);
	return left;
}

static int exit_status(int cmd_status, int left)
{
	if (!cfg_as_command)
		return left ? 3 : 0;
	if (left)
		return 125;
	if (WIFSIGNALED(cmd_status))
		return 128 + WTERMSIG(cmd_status);
	return WEXITSTATUS(cmd_status);
}

int main(int argc, char **argv)
{
	long long grace_ms = 1000;
	uint64_t end = 0, t;
	int opt, status, cmd_status = 0, main_done = 0;
	pid_t child, pid;

	report = stderr;
	while ((opt = getopt(argc, argv, "+ho:st:")) != -1) {
		switch (opt) {
		case 'o':
			report = fopen(optarg, "we");
			if (!report)
				error(1, errno, "%s", optarg);
			break;
		case 's': cfg_as_command = 1; break;
		case 't': grace_ms = opt_num(opt, optarg, 0, 600000); break;
		case 'h':
			printf("usage: subreaper [-s] [-o REPORT] [-t MSECS] command [arg ...]\n");
			return 0;
		default: return 2;
		}
	}
	if (optind >= argc)
		usage_error("no command");
	setvbuf(report, NULL, _IOLBF, 0);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		error(1, errno, "PR_SET_CHILD_SUBREAPER");
	if (cfg_as_command) {
		struct sigaction sa = { .sa_handler = on_signal };

		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
	}

	child = fork();
	if (child < 0)
		error(1, errno, "fork");
	if (child == 0) {
		/* Die with us; and a background sh job ignores SIGINT: undo that. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		execvp(argv[optind], argv + optind);
		error(127, errno, "%s", argv[optind]);
	}
	fprintf(report, "child %d\n", (int)child);

	for (;;) {
		/* -s: a signal we got goes to the command, while it runs. */
		if (pending_signal && !main_done)
			kill(child, pending_signal);
		pending_signal = 0;
		pid = waitpid(-1, &status, main_done ? WNOHANG : 0);
		t = now_ns();
		if (pid == child) {
			main_done = 1;
			end = t;
			cmd_status = status;
			if (WIFSIGNALED(status))
				fprintf(report, "status signal %d\n", WTERMSIG(status));
			else
				fprintf(report, "status exit %d\n", WEXITSTATUS(status));
		} else if (pid > 0) {
			fprintf(report, "orphan %d after %lld ms\n", (int)pid,
				main_done ? (long long)((t - end) / 1000000) : 0LL);
		} else if (pid < 0 && errno == ECHILD) {
			fprintf(report, "gone after %lld ms\n",
				(long long)((t - end) / 1000000));
			return exit_status(cmd_status, 0);
		} else if (pid < 0 && errno != EINTR) {
			error(1, errno, "waitpid");
		} else if (main_done) {
			if (t - end > (uint64_t)grace_ms * 1000000u)
				return exit_status(cmd_status, kill_leftovers());
			nanosleep(&(struct timespec){ .tv_nsec = 2000000 }, NULL);
		}
	}
}
