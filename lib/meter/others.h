/*
 * Other processes' share of the machine: how much CPU went, over a
 * metered period, to processes that are neither zc's programs, their
 * soakers, nor the kernel's own network work. The service demand is the
 * whole machine's CPU by design, so a package install or a build beside
 * the run lands in it; this names it.
 *
 * A snapshot (others_take) scans /proc once: for each process, utime +
 * stime of /proc/PID/stat (which holds its threads', the live ones and
 * those that ended), its parent, start time, flags and command name. Two
 * snapshots make a report (others_compute): each process's delta, a PID
 * that appeared in the period counting from 0 (a PID reused, told by its
 * start time, is a new process). What it cannot see, it undercounts:
 *   - a process that ended in the period: what it and its threads ran
 *     after the first snapshot is lost (its parent's cutime would hold
 *     it, but mixed with every other child's, zc's among them);
 *   - a process that began and ended inside the period: lost whole.
 * So a build's short compiler runs are seen only while they live across
 * a snapshot; the share is a floor.
 *
 * Left out (others_skip): the PIDs the caller names (the measuring
 * program, the soakers), any process whose command name is one of zc's
 * programs, and every descendant of either (zcs's connection processes,
 * cyclesoak's command, the soakers; one orphaned before the second
 * snapshot, its parent now init, is others); the idle task has no /proc
 * entry; kernel threads of the network:
 * ksoftirqd/N, napi/..., and irq/N-NAME where NAME begins with a network
 * interface's name. Where this fails: softirq work (the receive path,
 * NET_RX) that ran on whatever task it interrupted is charged to that
 * task's stime and cannot be told apart per task; /proc/stat's softirq
 * column is the whole machine's only. So a process that was merely
 * interrupted by the network carries some of the network's work.
 *
 * The share is of the CPUs the meter covers x the period's seconds; a
 * process not confined to those CPUs is counted whole (its time on other
 * CPUs too), so under a CPU subset the share can overstate.
 *
 * The snapshot is an array sorted by PID, as large as the processes
 * (bounded by OTHERS_MAX_PROCS); one readdir of /proc and one read of
 * each stat file at each end of the period.
 *
 * Like every function below lib/app these return -1 (or NULL) with a
 * "what: why" text in err; the line is lib/app/others_out.h's.
 */
#ifndef ZC_METER_OTHERS_H
#define ZC_METER_OTHERS_H

#include <stddef.h>
#include <stdint.h>

#define OTHERS_MARK 3.0		/* % of the machine: over it, the line is said */
#define OTHERS_TOP 5		/* names given, largest first */
#define OTHERS_NAME 16		/* a command name as the kernel keeps it */
#define OTHERS_MAX_PROCS 262144

struct others_snap;		/* opaque */

#define OTHERS_NETDEVS 64

/* What is not "others". */
struct others_skip {
	const int *pids;		/* the caller's (self, soakers) */
	int npids;
	int nnetdevs;			/* interface names, for irq/ threads */
	char netdevs[OTHERS_NETDEVS][16];
};

struct others_share {
	char name[OTHERS_NAME];
	double pct;			/* of the machine */
};

struct others_report {
	int valid;			/* both ends were read */
	double pct;			/* all others, % of the machine */
	int n;				/* names in top[] */
	int more;			/* names left out of top[] */
	struct others_share top[OTHERS_TOP];
};

/*
 * others_take - a snapshot of every process under proc_root ("/proc", or
 * a tree a test built). NULL with err when the directory cannot be read
 * or memory runs out; a process that vanishes mid-scan is left out.
 */
struct others_snap *others_take(const char *proc_root, char *err, size_t errlen);
void others_free(struct others_snap *s);

/*
 * others_compute - the CPU of processes not skipped between a and b, as a
 * share of cpus x secs (hz: clock ticks a second, the unit of stat's
 * utime), grouped by command name, the largest OTHERS_TOP named.
 */
void others_compute(const struct others_snap *a, const struct others_snap *b,
		    const struct others_skip *skip, double cpus, double secs, long hz,
		    struct others_report *r);

/* others_over - r is worth a line: valid and at least OTHERS_MARK. */
int others_over(const struct others_report *r);

/*
 * others_text - "others: 31.2% of the machine during the run (dpkg 18.4%,
 * man-db 9.1%, ...); the service demand includes it" into buf ("..." when
 * names were left out; figure names what includes it: "the service
 * demand", "the load"); "" when !others_over(r). Returns buf.
 */
const char *others_text(const struct others_report *r, const char *figure, char *buf,
			size_t len);

/* others_netdevs - the machine's network interface names into skip. */
void others_netdevs(struct others_skip *skip);

#endif
