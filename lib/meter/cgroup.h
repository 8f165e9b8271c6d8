/*
 * The CPU quota of the cgroup this process runs in: v2 cpu.max, v1
 * cpu.cfs_quota_us over cpu.cfs_period_us, the tightest along the path up
 * to the hierarchy's root. The meter and the environment record both read
 * it here. Under a quota the soakers are throttled as soon
 * as anything else in the group runs, and a subtractive meter would read
 * the throttling as load: the meter measures within the quota instead.
 */
#ifndef ZC_CGROUP_H
#define ZC_CGROUP_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

struct cgroup_quota {
	double cpus;		/* quota / period, in CPUs; 0: no quota */
	long long quota_us;	/* that quota and its period, microseconds */
	long long period_us;
	char text[PATH_MAX + 96]; /* "cpu.max 50000 100000 in /sys/fs/cgroup/x" */
	char stat[PATH_MAX];	/* that group's cpu.stat (nr_periods, nr_throttled) */
	char group[PATH_MAX];	/* that group's path in its hierarchy: "/box" */
	int v1;			/* found in a v1 hierarchy */
	char acct[PATH_MAX];	/* v1: the same group's cpuacct.usage where the
				   cpuacct controller is mounted; "" none */
};

/*
 * cgroup_quota_find - the tightest quota of the group proc_cgroup (a
 * /proc/self/cgroup) names and of its ancestors, in every hierarchy with
 * the cpu controller (v1, v2, both on a hybrid machine), mounted as
 * mountinfo (a /proc/self/mountinfo) says; NULL for either reads this
 * process's own. 0, with q->cpus 0 when there is no quota; -1 when it
 * cannot be told (no such hierarchy mounted, a quota file unreadable or
 * not as the kernel writes it), with q holding what could be read: a
 * quota we cannot see we cannot report, and the figures' check against
 * /proc/stat still stands.
 */
int cgroup_quota_find(const char *proc_cgroup, const char *mountinfo,
		      struct cgroup_quota *q);

/*
 * cgroup_throttled - the group's cpu.stat counters: periods with the quota
 * in force and periods in which it throttled the group. -1 when unreadable.
 */
int cgroup_throttled(const struct cgroup_quota *q, uint64_t *periods, uint64_t *throttled);

/*
 * cgroup_usage_ns - the CPU time the quota's group (and every group below
 * it) has used, ns: v2 cpu.stat's usage_usec, else v1 cpuacct.usage in
 * the same directory or in the group of the same path under cpuacct's own
 * mount. -1 when none can be read.
 */
int cgroup_usage_ns(const struct cgroup_quota *q, uint64_t *ns);

#endif
