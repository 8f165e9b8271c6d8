/*
 * cputime - run a command and report the exact CPU time it and every
 * process it started used.
 *
 *   cputime [-o FILE] command [arg ...]
 *
 * When the command ends, prints one line to FILE (default stderr):
 *
 *   cputime: USER_US SYS_US TOTAL_US
 *
 * in microseconds, from getrusage(RUSAGE_CHILDREN). The kernel scales user
 * and system time to the scheduler's exact run time, so TOTAL_US is exact
 * (the split between the two is an estimate from tick samples).
 *
 * Only waited-for processes are counted, so we become a child subreaper:
 * descendants orphaned by the command (a shell's "cmd &") come to us, and we
 * reap them too. We wait for them at most 10 s after the command ended, and
 * never kill them: if any are still running then, they are named on stderr,
 * left running, not counted, and we exit 125.
 *
 * Exit status: the command's (128+N when signal N killed it); 127 when it
 * could not be run; 125 for leftovers or our own failure; 2 for a usage
 * error. SIGINT, SIGTERM and SIGHUP sent to us go to the command. A bench
 * runs "ip netns exec NS cputime zcc ..." so that the set-up of the
 * namespace is not in the figure.
 */
#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "opt.h"

#define LEFTOVER_WAIT_NS (10 * 1000000000ull)

static const char *cfg_out;

static void usage(FILE *f)
{
	fprintf(f, "usage: cputime [-o FILE] command [arg ...]\n"
		"  runs the command; when it and every descendant it leaves are done,\n"
		"  prints \"cputime: USER_US SYS_US TOTAL_US\" (their CPU time, us) to\n"
		"  FILE or stderr and exits with the command's status\n");
}

/* Reap every child that has ended; note the command's status when it is one. */
static void reap(pid_t cmd, int *cmd_status, int *cmd_done)
{
	pid_t pid;
	int status;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		if (pid == cmd) {
			*cmd_status = status;
			*cmd_done = 1;
		}
	}
}

/* Name the children we still have (they are left running). */
static void name_leftovers(void)
{
	char path[64], pids[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : read(fd, pids, sizeof(pids) - 1);
	if (fd >= 0)
		close(fd);
	if (n > 0 && pids[n - 1] == ' ')
		n--;
	pids[n > 0 ? n : 0] = '\0';
	error(0, 0, "processes still running 10 s after the command ended%s%s:"
	      " left running, their CPU time not counted",
	      n > 0 ? ": " : "", pids);
}

int main(int argc, char **argv)
{
	sigset_t wanted, old;
	siginfo_t info;
	struct rusage ru;
	struct timespec wait_ts;
	uint64_t end = 0, left;
	long long user_us, sys_us;
	FILE *out = stderr;
	int opt, exec_pipe[2], exec_errno, cmd_status = 0, cmd_done = 0, sig;
	int leftovers = 0;
	ssize_t n;
	pid_t cmd;

	while ((opt = getopt(argc, argv, "+:ho:")) != -1) {
		switch (opt) {
		case 'h': usage(stdout); return 0;
		case 'o': cfg_out = optarg; break;
		default: opt_refused(opt);
		}
	}
	if (optind >= argc)
		usage_error("no command");
	if (cfg_out) {
		out = fopen(cfg_out, "we");
		if (!out)
			error(125, errno, "%s", cfg_out);
	}
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		error(125, errno, "PR_SET_CHILD_SUBREAPER");

	/*
	 * No handlers: the signals we act on stay blocked and are taken with
	 * sigtimedwait, so none can slip in between a check and a wait. An
	 * inherited SIG_IGN for SIGCHLD would reap children before we can.
	 */
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&wanted);
	sigaddset(&wanted, SIGCHLD);
	sigaddset(&wanted, SIGINT);
	sigaddset(&wanted, SIGTERM);
	sigaddset(&wanted, SIGHUP);
	sigprocmask(SIG_BLOCK, &wanted, &old);
	if (pipe2(exec_pipe, O_CLOEXEC) < 0)
		error(125, errno, "pipe");

	cmd = fork();
	if (cmd < 0)
		error(125, errno, "fork");
	if (cmd == 0) {
		/* Die with us; and a background sh job ignores SIGINT: undo that. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		execvp(argv[optind], argv + optind);
		exec_errno = errno;
		(void)!write(exec_pipe[1], &exec_errno, sizeof(exec_errno));
		_exit(127);
	}
	close(exec_pipe[1]);
	/* Closed by a successful exec: nothing to read. */
	do
		n = read(exec_pipe[0], &exec_errno, sizeof(exec_errno));
	while (n < 0 && errno == EINTR);
	close(exec_pipe[0]);
	if (n == (ssize_t)sizeof(exec_errno)) {
		while (waitpid(cmd, NULL, 0) < 0 && errno == EINTR)
			;
		error(127, exec_errno, "%s", argv[optind]);
	}

	for (;;) {
		reap(cmd, &cmd_status, &cmd_done);
		if (cmd_done && !end)
			end = now_ns();
		if (cmd_done) {
			if (waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD)
				break;	/* everything reaped */
			left = now_ns() - end;
			if (left >= LEFTOVER_WAIT_NS) {
				name_leftovers();
				leftovers = 1;
				break;
			}
			left = LEFTOVER_WAIT_NS - left;
			wait_ts.tv_sec = (time_t)(left / 1000000000u);
			wait_ts.tv_nsec = (long)(left % 1000000000u);
			sig = sigtimedwait(&wanted, &info, &wait_ts);
		} else {
			sig = sigwaitinfo(&wanted, &info);
		}
		if (sig < 0 && errno != EINTR && errno != EAGAIN)
			error(125, errno, "sigtimedwait");
		/* A signal for us goes to the command, while it runs. */
		if (sig > 0 && sig != SIGCHLD && !cmd_done)
			kill(cmd, sig);
	}

	if (getrusage(RUSAGE_CHILDREN, &ru) < 0)
		error(125, errno, "getrusage");
	user_us = (long long)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec;
	sys_us = (long long)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec;
	fprintf(out, "cputime: %lld %lld %lld\n", user_us, sys_us, user_us + sys_us);
	if (fflush(out) == EOF || (out != stderr && fclose(out) == EOF))
		error(125, errno, "%s", cfg_out ? cfg_out : "stderr");
	if (leftovers)
		return 125;
	if (WIFSIGNALED(cmd_status))
		return 128 + WTERMSIG(cmd_status);
	return WEXITSTATUS(cmd_status);
}
