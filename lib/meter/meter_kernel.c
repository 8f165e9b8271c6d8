/*
 * Kernel idle time: the meter without soakers (meter.h says when to choose
 * it). The CPUs covered are the soakers' would-be CPUs (meter_cpus_pick);
 * each one's idle and iowait columns of /proc/stat against all of its
 * columns give its load. Under a CPU quota the group's own usage over the
 * period, as a share of what the quota allows, is the load, as the soakers
 * measure within the quota. A CPU that goes offline or comes back takes
 * its /proc/stat line with it: that period gives no figure, as with the
 * soakers.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/err.h"
#include "meter/cgroup.h"
#include "meter/meter.h"
#include "meter/meter_internal.h"
#include "meter/proc.h"

/* /proc/stat's cpuN line runs to about 100 bytes: room for each, and more. */
#define STAT_BYTES_PER_CPU 160

static uint64_t gained(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

static int present(const uint64_t *row)
{
	int k;

	for (k = 0; k < PROC_STAT_COLS; k++)
		if (row[k])
			return 1;
	return 0;
}

int meter_kernel_compute(const uint64_t (*a)[PROC_STAT_COLS],
			 const uint64_t (*b)[PROC_STAT_COLS], const int *cpu, int n,
			 double *load, int *which, double *mean)
{
	uint64_t idle, all;
	double sum = 0;
	int i, k, got = 0;

	for (i = 0; i < n; i++) {
		const uint64_t *x = a[cpu[i]], *y = b[cpu[i]];

		if (!present(x) || !present(y))
			continue;
		for (k = 0, all = 0; k < PROC_STAT_COLS; k++)
			all += gained(x[k], y[k]);
		idle = gained(x[3], y[3]) + gained(x[4], y[4]);	/* idle, iowait */
		/* Under a tick: nothing counted yet, no load seen. */
		load[got] = all ? 1.0 - (double)idle / (double)all : 0;
		which[got] = cpu[i];
		sum += load[got++];
	}
	*mean = got ? sum / got : NAN;
	return got;
}

/* Append one clause to note, "; " between clauses. */
static void say(char *note, size_t len, const char *what, int cpu)
{
	size_t used = strlen(note);

	if (used + 2 < len)
		snprintf(note + used, len - used, "%sCPU %d %s", used ? "; " : "", cpu, what);
}

int meter_kernel_moves(const uint64_t (*a)[PROC_STAT_COLS],
		       const uint64_t (*b)[PROC_STAT_COLS], const int *cpu, int n,
		       char *note, size_t len)
{
	int i, was, is, moved = 0;

	note[0] = '\0';
	for (i = 0; i < n; i++) {
		was = present(a[cpu[i]]);
		is = present(b[cpu[i]]);
		if (was == is)
			continue;
		say(note, len, was ? "went offline" : "came back online", cpu[i]);
		moved++;
	}
	return moved;
}

int meter_kernel_open(struct meter *m, char *err, size_t errlen)
{
	int i;

	for (i = 0; i < m->ncpus; i++)
		if (m->cpus.cpu[i] + 1 > m->tick_max)
			m->tick_max = m->cpus.cpu[i] + 1;
	m->tick0 = calloc((size_t)m->tick_max, sizeof(*m->tick0));
	m->tick = calloc((size_t)m->tick_max, sizeof(*m->tick));
	m->stat_len = (size_t)(m->tick_max + 1) * STAT_BYTES_PER_CPU;
	m->stat_text = malloc(m->stat_len);
	m->cpu_kernel = calloc((size_t)m->ncpus, sizeof(*m->cpu_kernel));
	if (!m->tick0 || !m->tick || !m->stat_text || !m->cpu_kernel)
		return err_fill(err, errlen, errno, "meter");
	if (m->quota.cpus > 0 && cgroup_usage_ns(&m->quota, &m->usage0) < 0)
		return err_fill(err, errlen, 0, "kernel idle time: a CPU quota binds (%s) "
				"but the group's usage (cpu.stat usage_usec, cpuacct.usage) "
				"cannot be read; the soakers' run time measures within the quota",
				m->quota.text);
	return 0;
}

void meter_kernel_close(struct meter *m)
{
	free(m->tick0);
	free(m->tick);
	free(m->stat_text);
	free(m->cpu_kernel);
}

/* /proc/stat's rows now into tick. */
static int read_ticks(struct meter *m, uint64_t (*tick)[PROC_STAT_COLS], char *err,
		      size_t errlen)
{
	if (proc_stat_head(m->stat_text, m->stat_len) < 0)
		return err_fill(err, errlen, errno, "/proc/stat");
	if (proc_stat_cpus(m->stat_text, tick, m->tick_max) < 0)
		return err_fill(err, errlen, 0, "/proc/stat: a cpu line short of columns");
	return 0;
}

int meter_kernel_mark(struct meter *m, char *err, size_t errlen)
{
	m->t0 = now_ns();
	meter_throttle_mark(m, &m->periods0, &m->throttled0);
	if (m->quota.cpus > 0 && cgroup_usage_ns(&m->quota, &m->usage0) < 0)
		return err_fill(err, errlen, 0, "%s: usage unreadable", m->quota.stat);
	return read_ticks(m, m->tick0, err, errlen);
}

/* The group's usage since the mark as a share of what the quota allows. */
static int quota_load(struct meter *m, double secs, double *load, char *err, size_t errlen)
{
	uint64_t usage;

	if (cgroup_usage_ns(&m->quota, &usage) < 0)
		return err_fill(err, errlen, 0, "%s: usage unreadable", m->quota.stat);
	*load = (double)gained(m->usage0, usage) / 1e9 / (m->quota.cpus * secs);
	m->usage0 = usage;
	return 0;
}

int meter_kernel_sample(struct meter *m, struct meter_reading *r, char *err, size_t errlen)
{
	uint64_t t1 = now_ns(), (*swap)[PROC_STAT_COLS];
	double secs = (double)(t1 - m->t0) / 1e9, quota_share = 0;
	int i, n, moved;

	memset(r, 0, sizeof(*r));
	if (read_ticks(m, m->tick, err, errlen) < 0)
		return -1;
	if (m->quota.cpus > 0 && quota_load(m, secs, &quota_share, err, errlen) < 0)
		return -1;
	m->t0 = t1;
	meter_throttle_read(m, r);
	moved = meter_kernel_moves(m->tick0, m->tick, m->cpus.cpu, m->ncpus, err, errlen);
	n = meter_kernel_compute(m->tick0, m->tick, m->cpus.cpu, m->ncpus, m->cpu_kernel,
				 m->r_cpu, &r->load);
	swap = m->tick0;
	m->tick0 = m->tick;
	m->tick = swap;
	if (moved)
		return 1;	/* the note is in err */
	if (n == 0)
		return err_fill(err, errlen, 0, "every CPU the meter covers is offline");
	r->secs = secs;
	r->ncpus = n;
	r->cpus = n;
	if (m->quota.cpus > 0) {
		r->cpus = n * m->quota.cpus / m->ncpus;
		r->load = quota_share;
	}
	r->load_counts = r->load_runtime = r->unseen_steal = r->soaker_switches = NAN;
	r->cpu = m->r_cpu;
	r->cpu_load = m->cpu_kernel;
	for (i = 0; i < n; i++)
		m->cpu_free[i] = 1.0 - m->cpu_kernel[i];
	r->cpu_free = m->cpu_free;
	r->cpu_load_counts = r->cpu_load_runtime = m->cpu_kernel;
	return 0;
}
