/*
 * The meter's insides, shared by lib/meter/meter.c (open, sample, close),
 * lib/meter/meter_cpus.c (which CPUs, and CPUs that come and go) and the
 * tests: the struct, and the arithmetic as a pure function.
 */
#ifndef ZC_METER_INTERNAL_H
#define ZC_METER_INTERNAL_H

#include <stdint.h>
#include <sys/types.h>

#include "meter/cgroup.h"
#include "meter/meter.h"
#include "meter/proc.h"

struct meter {
	struct soak *soak;
	pid_t owner;			/* who opened it: only it kills */
	int lock_fd;
	int ncpus;
	struct meter_cpus cpus;		/* which CPUs the soakers cover */
	struct cgroup_quota quota;	/* the group's CPU quota; cpus 0: none */
	char quota_text[sizeof(((struct cgroup_quota *)0)->text) + 96];
	uint64_t periods0, throttled0;	/* cpu.stat at the mark */
	int throttle_ok;		/* and those could be read */
	enum meter_method method;
	char warning[160];		/* about the calibration in use, or "" */
	double loops_per_sec;		/* calibrated; 0: no calibration */
	uint64_t t0;			/* the mark */
	uint64_t *counts0, *counts;	/* at the mark, gained since */
	int64_t *run0, *run;
	uint64_t *gap0, *gap;
	uint64_t *slices0, *slices;	/* each soaker's times on its CPU */
	/* the reading: the soakers whose CPU is online, packed */
	uint64_t *r_counts;
	int64_t *r_run;
	int *r_cpu;
	double *cpu_counts, *cpu_runtime, *cpu_free;
	/* kernel idle time: /proc/stat's rows of CPUs 0..tick_max-1 at the
	 * mark and now, the text read, the group's usage at the mark */
	int tick_max;
	uint64_t (*tick0)[PROC_STAT_COLS], (*tick)[PROC_STAT_COLS];
	char *stat_text;
	size_t stat_len;
	uint64_t usage0;
	double *cpu_kernel;
};

/*
 * meter_hotplug - the CPUs that went offline or came back since the last
 * call, and soakers whose pinning the kernel dropped: park, unpark, mend.
 * 0 nothing happened; 1 something did, said in note (no figure from this
 * period); -1 with note filled when a soaker cannot be mended.
 */
int meter_hotplug(struct meter *m, char *note, size_t len);

/*
 * lib/meter/meter_host.c: meter_find_quota - the group's CPU quota where it
 * is less than the CPUs covered, and the line saying so.
 * meter_throttle_mark - cpu.stat's periods and throttled periods now.
 * meter_throttle_read - the reading's throttling since the last mark.
 * meter_unseen_steal - the share of the n CPUs of the reading (r_run, r_cpu
 * holding soaker indexes) the host took unseen over secs.
 */
void meter_find_quota(struct meter *m);
void meter_throttle_mark(struct meter *m, uint64_t *periods, uint64_t *throttled);
void meter_throttle_read(struct meter *m, struct meter_reading *r);
double meter_unseen_steal(const struct meter *m, int n, double secs, double share);

/* What each soaker gained over one period. */
struct meter_delta {
	int ncpus;
	double secs;			/* wall time of the period */
	const uint64_t *counts;		/* loop counts, one per soaker */
	const int64_t *run_ns;		/* run time less system time, ns */
	double loops_per_sec;		/* calibrated, all soakers; 0: none */
	int calib_ncpus;		/* the soakers of the calibration */
	double share;			/* of a CPU each soaker may have: 1, or
					   less under a CPU quota */
};

/*
 * meter_compute - the load of each CPU and of the whole machine by both
 * methods, as fractions. Loop counts: 1 - counts / (secs x share x
 * calibrated rate / calib_ncpus), all NAN without a calibration. Run time:
 * 1 - run_ns / (secs x share). The whole machine's load is the mean of its
 * CPUs'. cpu_counts and cpu_runtime have ncpus entries each.
 */
void meter_compute(const struct meter_delta *d, double *load_counts,
		   double *load_runtime, double *cpu_counts, double *cpu_runtime);

/*
 * lib/meter/meter_kernel.c: kernel idle time.
 * meter_kernel_compute - the load of each of the n CPUs cpu[] between two
 * /proc/stat samples a and b (rows by CPU number): 1 - (idle + iowait
 * gained) / (every column gained), the hypervisor's steal being load, 0
 * where no tick was counted yet. A CPU without a row in either sample
 * (offline) is left out. Packed into load[] with its CPU in which[]; returns how many,
 * their mean in *mean (NAN when none).
 * meter_kernel_moves - the CPUs of cpu[] that went offline or came back
 * between a and b, said in note ("CPU 1 went offline"); how many.
 */
int meter_kernel_compute(const uint64_t (*a)[PROC_STAT_COLS],
			 const uint64_t (*b)[PROC_STAT_COLS], const int *cpu, int n,
			 double *load, int *which, double *mean);
int meter_kernel_moves(const uint64_t (*a)[PROC_STAT_COLS],
		       const uint64_t (*b)[PROC_STAT_COLS], const int *cpu, int n,
		       char *note, size_t len);

/*
 * meter_kernel_open - the buffers kernel idle time needs, and under a quota
 * the group's usage; -1 with err filled. meter_kernel_mark and
 * meter_kernel_sample: meter_mark's and meter_sample's work for it.
 */
int meter_kernel_open(struct meter *m, char *err, size_t errlen);
void meter_kernel_close(struct meter *m);
int meter_kernel_mark(struct meter *m, char *err, size_t errlen);
int meter_kernel_sample(struct meter *m, struct meter_reading *r, char *err, size_t errlen);

#endif
