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
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cpu.h"
#include "opt.h"

/* 127, as a shell says it for a command it cannot run. */
#define EXIT_CANNOT_RUN 127

/* A day of real-time CPU without one blocking call is no limit at all. */
#define MAX_RTTIME_MS (24LL * 3600 * 1000)

static int cfg_prio;
static long long cfg_rttime_ms;	/* 0: leave RLIMIT_RTTIME as inherited */

static void usage(int prio_min, int prio_max)
{
	printf("usage: run_rr [-h] [-p priority] [-l msecs] [command [arg ...]]\n"
	       "\n"
	       "Run command under the SCHED_RR real-time policy; with no command,\n"
	       "$SHELL (or /bin/sh) as an interactive shell. Everything it starts\n"
	       "inherits SCHED_RR.\n"
	       "\n"
	       "  -p PRIO   SCHED_RR priority, %d..%d (default %d, the highest)\n"
	       "  -l MSECS  safety net (RLIMIT_RTTIME): a real-time thread of the\n"
	       "            command that runs MSECS ms of CPU without a blocking\n"
	       "            system call gets SIGXCPU, which ends it unless caught,\n"
	       "            and SIGKILL after one more second of such CPU.\n"
	       "            1..%lld; default: the inherited limit, usually none\n"
	       "  -h        this help\n"
	       "\n"
	       "A real-time task that never blocks can starve the whole machine:\n"
	       "give -l to anything that might spin.\n"
	       "\n"
	       "Setting SCHED_RR needs root or CAP_SYS_NICE. Installed setuid-root,\n"
	       "run_rr sets the policy and then returns to the caller's user, group\n"
	       "and supplementary groups before the command starts.\n"
	       "\n"
	       "Exit status: the command's; 1 if the policy cannot be set, 2 for a\n"
	       "usage error, 127 if the command cannot be run.\n",
	       prio_min, prio_max, prio_max, MAX_RTTIME_MS);
}

/*
 * RLIMIT_RTTIME is counted in microseconds of CPU since the last blocking
 * call. The soft limit sends SIGXCPU (and moves up a second each time),
 * the hard one SIGKILL: one second apart, a command can catch the first to
 * say why it is dying, and cannot outlive the second.
 */
static void set_rttime_limit(long long msecs)
{
	struct rlimit rl;

	rl.rlim_cur = (rlim_t)msecs * 1000;
	rl.rlim_max = rl.rlim_cur + 1000000;
	if (setrlimit(RLIMIT_RTTIME, &rl) < 0)
		error(1, errno, "-l %lld: set RLIMIT_RTTIME", msecs);
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

int main(int argc, char **argv)
{
	int prio_min = sched_get_priority_min(SCHED_RR);
	int prio_max = sched_get_priority_max(SCHED_RR);
	char *shell_argv[3];
	char **cmd;
	int c;

	if (prio_min < 0 || prio_max < 0)
		error(1, errno, "SCHED_RR priority range");
	cfg_prio = prio_max;

	/* "+": the first non-option is the command; its options are its own. */
	while ((c = getopt(argc, argv, "+:hl:p:")) != -1) {
		switch (c) {
		case 'h':
			usage(prio_min, prio_max);
			return 0;
		case 'l':
			cfg_rttime_ms = opt_num('l', optarg, 1, MAX_RTTIME_MS);
			break;
		case 'p':
			cfg_prio = (int)opt_num('p', optarg, prio_min, prio_max);
			break;
		default:
			opt_refused(c);
		}
	}

	if (optind < argc) {
		cmd = argv + optind;
	} else {
		const char *shell = getenv("SHELL");

		shell_argv[0] = (char *)(shell && *shell ? shell : "/bin/sh");
		shell_argv[1] = (char *)"-i";
		shell_argv[2] = NULL;
		cmd = shell_argv;
	}

	/* The limit first: the command must never run real-time without it. */
	if (cfg_rttime_ms)
		set_rttime_limit(cfg_rttime_ms);
	set_policy(cfg_prio);
	drop_privileges();

	execvp(cmd[0], cmd);
	error(EXIT_CANNOT_RUN, errno, "cannot run %s", cmd[0]);
	return EXIT_CANNOT_RUN;
}
