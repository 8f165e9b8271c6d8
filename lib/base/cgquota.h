/*
 * The CPU limit a cgroup puts on this process, for the environment
 * record: cgroup v2's cpu.max or v1's cpu.cfs_quota_us and
 * cpu.cfs_period_us, of the process's own cgroup and of every ancestor
 * up to the mount's root; the tightest one holds.
 */
#ifndef ZC_CGQUOTA_H
#define ZC_CGQUOTA_H

#include <stddef.h>

/*
 * cgquota_line - one line of /proc/PID/cgroup: the path of the cgroup
 * that holds the CPU controller into path. Returns 2 for v2's "0::/path",
 * 1 for a v1 line whose controllers include "cpu", 0 for any other line.
 */
int cgquota_line(const char *line, char *path, size_t len);

/*
 * cgquota_parse_max - a cpu.max line ("max 100000", "150000 100000"):
 * *quota (-1 for max) and *period in microseconds; -1 when it is neither.
 */
int cgquota_parse_max(const char *s, long long *quota, long long *period);

/*
 * cgquota_read - the tightest limit into out: "max" when no cgroup limits
 * the process, else "QUOTA/PERIOD" in microseconds (150000/100000: one
 * and a half CPUs' worth). proc_cgroup and root are /proc/self/cgroup and
 * /sys/fs/cgroup (others for tests). -1 when it cannot be told.
 */
int cgquota_read(const char *proc_cgroup, const char *root, char *out, size_t len);

#endif
