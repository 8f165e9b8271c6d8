/*
 * subreaper - run a command as a child subreaper, account for every
 * process it leaves behind, and report the CPU time they all used.
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
 *   child PID                  the command's PID, once it runs
 *   status exit N | signal N   how the command ended
 *   orphan PID after MS ms     a descendant we reaped, relative to the end
 *   left PID STATE COMM        a descendant alive after MSECS ms
 *   gone after MS ms           every descendant gone, MS after the command
 *   maxrss KB                  the largest resident set any of them had
 *   cputime USER_US SYS_US TOTAL_US
 *                              last, once every descendant is reaped (or
 *                              killed and reaped): the CPU time the command
 *                              and all of them used, in microseconds
 *
 * The cputime line comes from getrusage(RUSAGE_CHILDREN). The kernel scales
 * user and system time to the scheduler's exact run time, so TOTAL_US is
 * exact (the split between the two is an estimate from tick samples). Only
 * processes someone waited for are counted: a descendant orphaned by the
 * command (a shell's "cmd &") counts because it comes to us and we reap it,
 * which is why we are a subreaper. A bench runs "ip netns exec NS subreaper
 * -s -o FILE zcc ..." so that the namespace's set-up is not in the figure.
 *
 * Exit status: 0 when nothing was left, 3 when something was. With -s, for
 * scripts that run a command through us as if directly: SIGINT, SIGTERM and
 * SIGHUP are passed on to the command, and we exit with its status (128+N
 * when signal N killed it), or 125 when something was left. Either way: 127
 * when the command could not be run (one line on stderr, no report), 125
 * when we failed ourselves, 2 for a usage error.
 */
#include <dirent.h>
#include <error.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app/opt.h"
#include "base/clock.h"
#include "base/cpu.h"
#include "meter/proc.h"

#define OUR_FAILURE 125

static FILE *report;
static const char *cfg_report;			/* -o; NULL: stderr */
static int cfg_as_command;			/* -s */
static long long cfg_grace_ms = 1000;		/* -t */

/*
 * List, kill and reap whatever children we still have. Returns how many.
 * A killed one hands its own children to us: repeat until a pass finds none.
 */
static int kill_leftovers(void)
{
	struct proc_task kids[64];
	int left = 0, found, i;

	do {
		found = proc_children(getpid(), kids, 64);
		if (found < 0) {
			error(0, errno, "/proc");
			return left + 1;	/* cannot tell: count it as left */
		}
		for (i = 0; i < found && i < 64; i++) {
			fprintf(report, "left %d %c %s\n", (int)kids[i].pid, kids[i].state,
				kids[i].name);
			kill(kids[i].pid, SIGKILL);
			while (waitpid(kids[i].pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
		left += found < 64 ? found : 64;
	} while (found > 0);
	return left;
}

/* Start the command; exit 127 with one line if it cannot be run. */
static pid_t start(char **argv, const sigset_t *old_mask)
{
	int exec_pipe[2], exec_errno;
	ssize_t n;
	pid_t child;

	if (pipe2(exec_pipe, O_CLOEXEC) < 0)
		error(OUR_FAILURE, errno, "pipe");
	child = fork();
	if (child < 0)
		error(OUR_FAILURE, errno, "fork");
	if (child == 0) {
		/* Die with us; and a background sh job ignores SIGINT: undo that. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		sigprocmask(SIG_SETMASK, old_mask, NULL);
		execvp(argv[0], argv);
		exec_errno = errno;
		(void)!write(exec_pipe[1], &exec_errno, sizeof(exec_errno));
		_exit(127);
	}
	close(exec_pipe[1]);
	/* A successful exec closes the pipe: nothing to read. */
	do
		n = read(exec_pipe[0], &exec_errno, sizeof(exec_errno));
	while (n < 0 && errno == EINTR);
	close(exec_pipe[0]);
	if (n == (ssize_t)sizeof(exec_errno)) {
		while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
			;
		error(127, exec_errno, "%s", argv[0]);
	}
	return child;
}

/* The last report lines: the memory and CPU time of everything we reaped. */
static void report_cputime(void)
{
	struct rusage ru;
	long long user_us, sys_us;

	if (getrusage(RUSAGE_CHILDREN, &ru) < 0)
		error(OUR_FAILURE, errno, "getrusage");
	user_us = (long long)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec;
	sys_us = (long long)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec;
	fprintf(report, "maxrss %ld\n", ru.ru_maxrss);
	fprintf(report, "cputime %lld %lld %lld\n", user_us, sys_us, user_us + sys_us);
	if (fflush(report) == EOF || (report != stderr && fclose(report) == EOF))
		error(OUR_FAILURE, errno, "%s", cfg_report ? cfg_report : "stderr");
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
	sigset_t wanted, old_mask;
	struct timespec timeout;
	uint64_t end = 0, t, grace_ns;
	int opt, sig, status, cmd_status = 0, main_done = 0, left = 0;
	pid_t child, pid;

	report = stderr;
	while ((opt = getopt(argc, argv, "+:ho:st:")) != -1) {
		switch (opt) {
		case 'o': cfg_report = optarg; break;
		case 's': cfg_as_command = 1; break;
		case 't': cfg_grace_ms = opt_num(opt, optarg, 0, 600000); break;
		case 'h':
			printf("usage: subreaper [-s] [-o REPORT] [-t MSECS] command [arg ...]\n");
			return 0;
		default: opt_refused(opt);
		}
	}
	if (optind >= argc)
		usage_error("no command");
	if (cfg_report) {
		report = fopen(cfg_report, "we");
		if (!report)
			error(OUR_FAILURE, errno, "%s", cfg_report);
	}
	setvbuf(report, NULL, _IOLBF, 0);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		error(OUR_FAILURE, errno, "PR_SET_CHILD_SUBREAPER");

	/*
	 * No handlers: the signals we act on stay blocked and are taken with
	 * sigtimedwait, so none can slip in between a check and a wait. An
	 * inherited SIG_IGN would drop them (SIGCHLD: reap children before
	 * we can), so they get their default action, which blocking defers.
	 */
	sigemptyset(&wanted);
	sigaddset(&wanted, SIGCHLD);
	signal(SIGCHLD, SIG_DFL);
	if (cfg_as_command) {
		sigaddset(&wanted, SIGINT);
		sigaddset(&wanted, SIGTERM);
		sigaddset(&wanted, SIGHUP);
	}
	sigprocmask(SIG_BLOCK, &wanted, &old_mask);
	if (cfg_as_command) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
	}

	child = start(argv + optind, &old_mask);
	fprintf(report, "child %d\n", (int)child);

	grace_ns = (uint64_t)cfg_grace_ms * 1000000u;
	for (;;) {
		pid = waitpid(-1, &status, WNOHANG);
		t = now_ns();
		if (pid == child) {
			main_done = 1;
			end = t;
			cmd_status = status;
			if (WIFSIGNALED(status))
				fprintf(report, "status signal %d\n", WTERMSIG(status));
			else
				fprintf(report, "status exit %d\n", WEXITSTATUS(status));
			continue;
		}
		if (pid > 0) {
			fprintf(report, "orphan %d after %lld ms\n", (int)pid,
				main_done ? (long long)((t - end) / 1000000) : 0LL);
			continue;
		}
		if (pid < 0 && errno == ECHILD) {
			fprintf(report, "gone after %lld ms\n",
				(long long)((t - end) / 1000000));
			break;
		}
		if (pid < 0)
			error(OUR_FAILURE, errno, "waitpid");

		/* Children remain, none has ended: wait for a signal. */
		if (main_done) {
			if (t - end >= grace_ns) {
				left = kill_leftovers();
				break;
			}
			t = grace_ns - (t - end);
			timeout.tv_sec = (time_t)(t / 1000000000u);
			timeout.tv_nsec = (long)(t % 1000000000u);
			sig = sigtimedwait(&wanted, NULL, &timeout);
		} else {
			sig = sigwaitinfo(&wanted, NULL);
		}
		if (sig < 0 && errno != EINTR && errno != EAGAIN)
			error(OUR_FAILURE, errno, "sigtimedwait");
		/* -s: a signal we got goes to the command, while it runs. */
		if (sig > 0 && sig != SIGCHLD && !main_done)
			kill(child, sig);
	}
	report_cputime();
	return exit_status(cmd_status, left);
}
