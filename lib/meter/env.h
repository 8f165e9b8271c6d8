/*
 * The machine a figure was measured on, for the environment record
 * (lib/app/env_out.h): what the kernel and the CPUs are, and which of
 * them this process may use. Unknown stays unknown: "" for a text, -1
 * for a number or a flag, never a guess.
 */
#ifndef ZC_ENV_H
#define ZC_ENV_H

#include <sys/utsname.h>

struct env_machine {
	char kernel[sizeof(((struct utsname *)0)->release)];	/* uname -r */
	char cpu_model[128];	/* /proc/cpuinfo "model name" */
	int cpus_online;
	int virtual;		/* 1: the CPU flags say "hypervisor" */
	int smt;		/* /sys/devices/system/cpu/smt/active */
	char governor[32];	/* the first allowed CPU's scaling_governor */
	char cpus_allowed[256];	/* sched_getaffinity, as ranges: "0-3,6" */
	int n_allowed;
	char cpu_quota[48];	/* "max", or "QUOTA/PERIOD" microseconds */
};

/* env_machine_read - everything of *m that can be read, now. */
void env_machine_read(struct env_machine *m);

/*
 * env_cpuinfo - from a cpuinfo file (ZC_CPUINFO or /proc/cpuinfo), the
 * first "model name" into model ("" when none), and whether a "flags"
 * line holds "hypervisor": 1 yes, 0 flags lines without it, -1 no flags
 * line or no file.
 */
int env_cpuinfo(char *model, size_t len);

/*
 * env_cpu_quota - the cgroup CPU quota (cgroup.h; its arguments as
 * cgroup_quota_find's) as the record gives it: "max" when there is none,
 * "QUOTA/PERIOD" in microseconds (150000/100000: one and a half CPUs'
 * worth), "" when it cannot be told.
 */
void env_cpu_quota(const char *proc_cgroup, const char *mountinfo, char *buf, size_t len);

/* env_cpu_ranges - cpus[0..n), ascending, as "0-3,6" into buf. */
void env_cpu_ranges(const int *cpus, int n, char *buf, size_t len);

#endif
