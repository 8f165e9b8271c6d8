/*
 * run_rr - run a command, or an interactive shell, under SCHED_RR, so that
 * a measured program is never starved by cyclesoak's soakers.
 *
 *   run_rr [-h] [-p priority] [-l msecs] [command [arg ...]]
 *
 * Installed setuid-root it sets the policy with root's privilege and then
 * becomes the caller again before running anything: the original called
 * setuid(0) and so handed a root shell to whoever ran it.
 */
#include <errno.h>
#include <error.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "app/exits.h"
#include "app/opt.h"
#include "app/optab.h"
#include "base/sched.h"
#include "base/safe_text.h"

/* A day of real-time CPU without one blocking call is no limit at all. */
#define MAX_RTTIME_MS (24LL * 3600 * 1000)

/*
 * Run setuid-root by a user who is not root, the command gets at most this
 * much CPU without a blocking call (RLIMIT_RTTIME's hard limit, SIGKILL):
 * the setuid bit hands real-time priority to every local user, and one
 * thread that spins at priority 99 holds its CPU until the kernel's
 * real-time throttling lets others in for 50 ms a second. Five seconds is
 * far more than a measured program runs between blocking calls (a send on
 * a full socket blocks), and short enough that a runaway ends.
 */
#define USER_RTTIME_MS 5000LL

/*
 * Every option, once: getopt_long's tables and the option lines of -h are
 * made from it, and man/run_rr.1 is checked against -h.
 */
static const struct optab options[] = {
	{ 'p', "priority", "PRIO", "SCHED_RR priority (default the highest)" },
	{ 'l', "rt-limit", "MSECS",
	  "safety net (RLIMIT_RTTIME's soft limit): a real-time thread of the "
	  "command that runs MSECS ms of CPU without a blocking system call gets "
	  "SIGXCPU, which ends it unless caught (then once more every second). "
	  "1..86400000, and never above the hard limit you already have (ulimit -H "
	  "-R): run_rr never raises the hard limit, which sends SIGKILL when it is "
	  "reached. Default: the inherited limits, usually none; run setuid-root "
	  "by a user who is not root, at most 5000 (the hard limit then, below)" },
	{ 'h', "help", NULL, "this help" },
	{ OPTAB_VERSION, "version", NULL, "print run_rr and its version" },
	{ 0, NULL, NULL, NULL },
};

/* Made from options[] by parse_args; "+": the command's options are its own. */
static struct optab_parser parser;

/* Everything the command line says, set by parse_args only. */
struct settings {
	int prio;			/* -p; default the highest */
	long long rttime_ms;		/* -l; 0: RLIMIT_RTTIME as inherited */
	int user;			/* setuid-root, run by another user: USER_RTTIME_MS */
	char **command;			/* the operands; NULL: an interactive shell */
};

static struct settings cfg;

static void usage(FILE *f, int status)
{
	int prio_min = sched_get_priority_min(SCHED_RR);
	int prio_max = sched_get_priority_max(SCHED_RR);

	fprintf(f, "usage: run_rr [-h] [-p priority] [-l msecs] [command [arg ...]]\n"
	       "       run_rr --help | --version\n"
	       "\n"
	       "Run command under the SCHED_RR real-time policy; with no command,\n"
	       "$SHELL (or /bin/sh) as an interactive shell. Everything it starts\n"
	       "inherits SCHED_RR.\n"
	       "\n"
	       "SCHED_RR priorities here run from %d to %d.\n"
	       "\n", prio_min, prio_max);
	optab_help(f, options);
	fprintf(f, "\n"
	       "Long options take their value as --opt=VALUE or --opt VALUE, and may\n"
	       "be shortened to any unambiguous prefix.\n"
	       "\n"
	       "A real-time task that never blocks can starve the whole machine:\n"
	       "give -l to anything that might spin.\n"
	       "\n"
	       "Setting SCHED_RR needs root or CAP_SYS_NICE. Installed setuid-root,\n"
	       "run_rr sets the policy and then returns to the caller's user, group\n"
	       "and supplementary groups before the command starts. Run so by a user\n"
	       "who is not root, it also lowers RLIMIT_RTTIME's hard limit to %lld ms\n"
	       "(the soft one to that or -l): a thread of the command that runs that\n"
	       "long without a blocking call is killed (SIGKILL). The dynamic linker\n"
	       "then runs run_rr in secure mode, which removes LD_LIBRARY_PATH,\n"
	       "LD_PRELOAD, TMPDIR, TZDIR, LOCPATH, NLSPATH and others from the\n"
	       "environment the command inherits (run_rr(1), ENVIRONMENT).\n"
	       "\n"
	       "Exit status: the command's when it runs; otherwise 1 when the policy\n"
	       "or the limit cannot be set or the help cannot be written, 2 for a\n"
	       "usage error (an -l above the hard limit, or above %lld for a user\n"
	       "run so, included), 126 when the command is found but cannot be\n"
	       "executed (no execute permission, a directory), 127 when it is not\n"
	       "found.\n", USER_RTTIME_MS, USER_RTTIME_MS);
	exit(status);
}

/*
 * RLIMIT_RTTIME is counted in microseconds of CPU since the last blocking
 * call. A larger -l than the hard limit the caller has is refused at the
 * door, because run_rr may be setuid-root and raising the hard limit would
 * lift a limit an administrator set. For a caller made privileged by the
 * setuid bit the hard limit is at most USER_RTTIME_MS, so -l above that
 * is refused too.
 */
static void check_rttime_limit(long long msecs)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_RTTIME, &rl) < 0)
		error(1, errno, "read RLIMIT_RTTIME");
	if (cfg.user && msecs > USER_RTTIME_MS)
		usage_error("-l '%lld': above %lld ms, the most run_rr gives a user "
			    "who is not root (it is installed setuid-root)", msecs,
			    USER_RTTIME_MS);
	if (rl.rlim_max != RLIM_INFINITY && (rlim_t)msecs * 1000 > rl.rlim_max)
		usage_error("-l '%lld': above RLIMIT_RTTIME's hard limit, %llu us "
			    "(ulimit -H -R), which run_rr never raises", msecs,
			    (unsigned long long)rl.rlim_max);
}

/*
 * The soft limit to -l (0: as inherited); for a setuid caller the hard
 * limit lowered to USER_RTTIME_MS too (never raised), and the soft one
 * with it: the command runs as that user and could otherwise raise its
 * soft limit to the hard one, and the kernel enforces the hard limit only
 * while a soft one is set.
 */
static void set_rttime_limit(long long msecs)
{
	struct rlimit rl;
	rlim_t cap = (rlim_t)USER_RTTIME_MS * 1000;

	if (getrlimit(RLIMIT_RTTIME, &rl) < 0)
		error(1, errno, "read RLIMIT_RTTIME");
	if (cfg.user && (rl.rlim_max == RLIM_INFINITY || rl.rlim_max > cap))
		rl.rlim_max = cap;
	if (msecs)
		rl.rlim_cur = (rlim_t)msecs * 1000;
	if (rl.rlim_cur > rl.rlim_max)	/* RLIM_INFINITY is above any other */
		rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_RTTIME, &rl) < 0)
		error(1, errno, "set RLIMIT_RTTIME");
}

/* Privileged by the setuid bit alone: a real user other than root. */
static int setuid_caller(void)
{
	uid_t ruid, euid, suid;

	if (getresuid(&ruid, &euid, &suid) < 0)
		error(1, errno, "read user ids");
	return ruid != 0 && euid != ruid;
}

static void set_policy(int prio)
{
	if (sched_set_rr(prio) == 0)
		return;
	if (errno == EPERM)
		error(1, 0, "cannot set SCHED_RR: not permitted "
		      "(needs root or CAP_SYS_NICE)");
	error(1, errno, "set SCHED_RR priority %d", prio);
}

/*
 * Become the caller again: real, effective, saved (and so filesystem) ids
 * all set to the real ones, group first while we still may. The
 * supplementary groups are left alone on purpose: exec of a setuid program
 * does not touch them, so they are already exactly the caller's, and
 * rebuilding them from the group database (initgroups) could hand back a
 * group the caller had dropped. Plain root (real = effective) changes
 * nothing.
 */
static void drop_privileges(void)
{
	uid_t ruid, euid, suid;
	gid_t rgid, egid, sgid;

	if (getresuid(&ruid, &euid, &suid) < 0 || getresgid(&rgid, &egid, &sgid) < 0)
		error(1, errno, "read user and group ids");
	if (ruid == euid && ruid == suid && rgid == egid && rgid == sgid)
		return;
	if (setresgid(rgid, rgid, rgid) < 0)
		error(1, errno, "return to group id %u", (unsigned)rgid);
	if (setresuid(ruid, ruid, ruid) < 0)
		error(1, errno, "return to user id %u", (unsigned)ruid);

	/* Trust nothing: the ids must read back, and root must stay lost. */
	if (getresuid(&ruid, &euid, &suid) < 0 || getresgid(&rgid, &egid, &sgid) < 0)
		error(1, errno, "read user and group ids");
	if (euid != ruid || suid != ruid || egid != rgid || sgid != rgid)
		error(1, 0, "user and group ids did not change back; not running anything");
	if (ruid != 0 && (setuid(0) == 0 || setgid(0) == 0))
		error(1, 0, "root privilege could be regained; not running anything");
}

/* execvp failed: say why, and exit as a shell would. */
static void cannot_run(const char *cmd, int err)
{
	char shown[SAFE_LEN];

	safe_text(cmd, shown, sizeof(shown));
	error(exit_exec_failed(err), err, "cannot run %s", shown);
}

/* The options into cfg; the priority range is the kernel's. */
static void parse_args(int argc, char **argv)
{
	int prio_min = sched_get_priority_min(SCHED_RR);
	int prio_max = sched_get_priority_max(SCHED_RR);
	const char *why;
	int c;

	if (optab_build(&parser, options, "+", &why) < 0)
		error(1, 0, "option table: %s", why);
	opt_common(argc, argv, &parser, usage);
	if (prio_min < 0 || prio_max < 0)
		error(1, errno, "SCHED_RR priority range");
	cfg.prio = prio_max;
	cfg.user = setuid_caller();
	while ((c = opt_next(argc, argv, &parser)) != -1) {
		switch (c) {
		case 'h': usage(stdout, 0); break;
		case 'l': cfg.rttime_ms = opt_num('l', optarg, 1, MAX_RTTIME_MS); break;
		case 'p': cfg.prio = (int)opt_num('p', optarg, prio_min, prio_max); break;
		default: opt_refused(c);
		}
	}
	if (optind < argc)
		cfg.command = argv + optind;
}

/* An -l the caller may not have is refused at the door. */
static void check_args(void)
{
	if (cfg.rttime_ms)
		check_rttime_limit(cfg.rttime_ms);
}

int main(int argc, char **argv)
{
	struct sigaction ignore = { .sa_handler = SIG_IGN }, pipe_was;
	const char *shell = getenv("SHELL");
	char *shell_argv[] = { (char *)(shell && *shell ? shell : "/bin/sh"),
			       (char *)"-i", NULL };
	char **cmd;

	/*
	 * A closed pipe is a write error, said, not a silent death, while
	 * run_rr itself writes (help, version). The command gets SIGPIPE's
	 * disposition as it came: an ignored signal stays ignored after exec.
	 */
	sigaction(SIGPIPE, &ignore, &pipe_was);
	parse_args(argc, argv);
	check_args();
	cmd = cfg.command ? cfg.command : shell_argv;

	/* The limit first: the command must never run real-time without it. */
	if (cfg.rttime_ms || cfg.user)
		set_rttime_limit(cfg.rttime_ms);
	set_policy(cfg.prio);
	drop_privileges();

	sigaction(SIGPIPE, &pipe_was, NULL);
	execvp(cmd[0], cmd);
	cannot_run(cmd[0], errno);
	return EXIT_NOT_FOUND;
}
