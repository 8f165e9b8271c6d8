#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/cpu.h"
#include "base/err.h"
#include "base/stop.h"
#include "meter/calib_file.h"
#include "meter/env.h"
#include "meter/lock.h"
#include "meter/meter.h"
#include "meter/meter_internal.h"
#include "meter/proc.h"
#include "meter/soak.h"

/* Settle time after the soakers start: page faults, scheduler placement. */
#define SETTLE_MS 300

void meter_compute(const struct meter_delta *d, double *load_counts,
		   double *load_runtime, double *cpu_counts, double *cpu_runtime)
{
	double share = d->share > 0 ? d->share : 1, sum_c = 0, sum_r = 0;
	double per_cpu = d->loops_per_sec / (d->calib_ncpus > 0 ? d->calib_ncpus : d->ncpus);
	int i;

	for (i = 0; i < d->ncpus; i++) {
		cpu_counts[i] = d->loops_per_sec > 0 && d->secs > 0
			? 1.0 - (double)d->counts[i] / d->secs / share / per_cpu : NAN;
		cpu_runtime[i] = d->secs > 0
			? 1.0 - (double)d->run_ns[i] / 1e9 / d->secs / share : NAN;
		sum_c += cpu_counts[i];
		sum_r += cpu_runtime[i];
	}
	*load_counts = sum_c / d->ncpus;
	*load_runtime = sum_r / d->ncpus;
}

void meter_span_add(struct meter_span *s, const struct meter_reading *r)
{
	s->load_secs += r->load * r->secs;
	s->secs += r->secs;
}

double meter_span_load(const struct meter_span *s)
{
	return s->secs > 0 ? s->load_secs / s->secs : 0;
}

double meter_presence(const struct meter_reading *r)
{
	if (!(r->soaker_switches > 0) || r->secs <= 0 || r->ncpus <= 0)
		return 0;
	return r->soaker_switches / r->secs / r->ncpus * PRESENCE_PAIR_US * 1e-6;
}

double meter_cpus_load(const struct meter_reading *r)
{
	return r->ncpus > 0 && r->cpus > 0 ? r->load * r->cpus / r->ncpus : r->load;
}

double service_demand_us_per_kb(double load, int ncpus, double secs, uint64_t bytes)
{
	return cpu_us_per_kb(load * ncpus * secs, bytes);
}

double cpu_us_per_kb(double cpu_secs, uint64_t bytes)
{
	if (bytes == 0)
		return 0;
	return cpu_secs * 1e6 / ((double)bytes / 1024.0);
}

double cpu_us_per_tran(double cpu_secs, uint64_t transactions)
{
	return transactions ? cpu_secs * 1e6 / (double)transactions : NAN;
}

/* Is "hypervisor" a word of a "flags" line of the cpuinfo file? */
int meter_machine_is_virtual(void)
{
	char model[128];

	return env_cpuinfo(model, sizeof(model)) == 1;
}

/*
 * Choose the method; load the calibration where there is one.
 * Loop counts need it; run time uses it only for the second figure, so a
 * missing or unfitting file is then no error.
 */
static int choose(struct meter *m, const struct meter_cfg *cfg, char *err, size_t errlen)
{
	const char *path = cfg->calib_path ? cfg->calib_path : CALIB_DEFAULT_PATH;
	int is_vm = cfg->method == METER_DEFAULT && cfg->dflt == METER_DEFAULT &&
		    meter_machine_is_virtual();
	struct calib c;
	char cerr[256], warn[160];

	if (calib_for(path, m->ncpus, &c, warn, sizeof(warn), cerr, sizeof(cerr)) == 0)
		m->loops_per_sec = c.loops_per_sec;
	m->method = cfg->method;
	if (m->method == METER_DEFAULT)
		m->method = cfg->dflt;
	if (m->method == METER_DEFAULT)
		m->method = is_vm ? METER_RUNTIME : METER_COUNTS;
	if (m->method == METER_COUNTS && !m->loops_per_sec) {
		err_wrap(err, errlen, "loop counts", cerr);
		errno = ENODATA;
		return -1;
	}
	if (m->method == METER_COUNTS)
		snprintf(m->warning, sizeof(m->warning), "%s", warn);
	return 0;
}

static int alloc_arrays(struct meter *m)
{
	size_t n = (size_t)m->ncpus;

	m->counts0 = calloc(n, sizeof(*m->counts0));
	m->counts = calloc(n, sizeof(*m->counts));
	m->run0 = calloc(n, sizeof(*m->run0));
	m->run = calloc(n, sizeof(*m->run));
	m->cpu_counts = calloc(n, sizeof(*m->cpu_counts));
	m->cpu_runtime = calloc(n, sizeof(*m->cpu_runtime));
	m->cpu_free = calloc(n, sizeof(*m->cpu_free));
	m->gap0 = calloc(n, sizeof(*m->gap0));
	m->slices0 = calloc(n, sizeof(*m->slices0));
	m->slices = calloc(n, sizeof(*m->slices));
	m->gap = calloc(n, sizeof(*m->gap));
	m->r_counts = calloc(n, sizeof(*m->r_counts));
	m->r_run = calloc(n, sizeof(*m->r_run));
	m->r_cpu = calloc(n, sizeof(*m->r_cpu));
	return m->counts0 && m->counts && m->run0 && m->run && m->cpu_counts &&
	       m->cpu_runtime && m->cpu_free && m->gap0 && m->gap && m->slices0 &&
	       m->slices && m->r_counts &&
	       m->r_run && m->r_cpu ? 0 : -1;
}

static void free_arrays(struct meter *m)
{
	free(m->counts0);
	free(m->counts);
	free(m->run0);
	free(m->run);
	free(m->cpu_counts);
	free(m->cpu_runtime);
	free(m->cpu_free);
	free(m->gap0);
	free(m->gap);
	free(m->slices0);
	free(m->slices);
	free(m->r_counts);
	free(m->r_run);
	free(m->r_cpu);
	meter_kernel_close(m);
	free(m);
}

struct meter *meter_open(const struct meter_cfg *cfg, char *err, size_t errlen)
{
	struct soak_cfg scfg = { .bind = cfg->bind, .policy = cfg->policy };
	struct meter *m = calloc(1, sizeof(*m));
	int saved;

	if (!m) {
		err_fill(err, errlen, errno, "meter");
		return NULL;
	}
	m->lock_fd = -1;
	m->owner = getpid();
	if (meter_cpus_pick(cfg, &m->cpus, err, errlen) < 0) {
		free(m);
		errno = EDOM;
		return NULL;
	}
	m->ncpus = m->cpus.n;
	scfg.cpus = m->cpus.cpu;
	if (alloc_arrays(m) < 0) {
		err_fill(err, errlen, errno, "meter");
		goto fail;
	}
	if (choose(m, cfg, err, errlen) < 0)
		goto fail;
	meter_find_quota(m);
	if (m->method == METER_KERNEL && meter_kernel_open(m, err, errlen) < 0)
		goto fail;
	m->lock_fd = meter_lock_take(err, errlen);
	if (m->lock_fd < 0)
		goto fail;
	if (m->method == METER_KERNEL)	/* no soakers: nothing to settle */
		goto mark;
	m->soak = soak_start_cfg(m->ncpus, &scfg, err, errlen);
	if (!m->soak)
		goto fail;
	if (stop_wait_until(now_ns() + SETTLE_MS * 1000000ull) < 0) {
		err_fill(err, errlen, errno, "meter start");
		goto fail;
	}
mark:
	if (meter_mark(m, err, errlen) == 0)
		return m;
fail:
	saved = errno;
	meter_close(m);
	errno = saved;
	return NULL;
}

enum meter_method meter_method(const struct meter *m)
{
	return m->method;
}

const char *meter_warning(const struct meter *m)
{
	return m->warning;
}

const char *meter_method_name(enum meter_method method)
{
	return method == METER_COUNTS ? "loop counts"
	     : method == METER_KERNEL ? "kernel idle time" : "run time";
}

int meter_ncpus(const struct meter *m)
{
	return m->ncpus;
}

const struct meter_cpus *meter_cpus(const struct meter *m)
{
	return &m->cpus;
}

double meter_quota(const struct meter *m)
{
	return m->quota.cpus;
}

const char *meter_quota_text(const struct meter *m)
{
	return m->quota_text;
}

int meter_soakers(const struct meter *m, int *pids, int max)
{
	int i;

	for (i = 0; m->soak && i < m->ncpus && i < max; i++)
		pids[i] = soak_pid(m->soak, i);
	return i;
}

/* Each soaker's loop count, run time less system time, gaps and times on
 * its CPU, now. */
static int read_soakers(struct meter *m, uint64_t now, uint64_t *counts, int64_t *run,
			uint64_t *gap, uint64_t *slices, char *err, size_t errlen)
{
	uint64_t run_ns, sys_ns;
	int i;

	/* A dead or stopped soaker first: its /proc files may be gone. */
	if (soak_check(m->soak, err, errlen) < 0)
		return -1;
	soak_read(m->soak, counts);
	soak_gaps(m->soak, now, gap);
	for (i = 0; i < m->ncpus; i++) {
		if (proc_task_ns(soak_pid(m->soak, i), &run_ns, &sys_ns, err, errlen) < 0) {
			soak_check(m->soak, err, errlen);
			return -1;
		}
		/*
		 * A soaker never enters the kernel on its own: its system time
		 * is the interrupts and softirqs that ran on its time.
		 */
		run[i] = (int64_t)run_ns - (int64_t)sys_ns;
		if (proc_task_slices(soak_pid(m->soak, i), &slices[i]) < 0)
			slices[i] = 0;
	}
	return 0;
}

int meter_mark(struct meter *m, char *err, size_t errlen)
{
	if (m->method == METER_KERNEL)
		return meter_kernel_mark(m, err, errlen);
	m->t0 = now_ns();
	meter_throttle_mark(m, &m->periods0, &m->throttled0);
	return read_soakers(m, m->t0, m->counts0, m->run0, m->gap0, m->slices0, err, errlen);
}

/* What every soaker gained since the mark, into counts, run and gap; mark. */
static int gained(struct meter *m, uint64_t now, char *err, size_t errlen)
{
	uint64_t c, g, sl;
	int64_t run;
	int i;

	if (read_soakers(m, now, m->counts, m->run, m->gap, m->slices, err, errlen) < 0)
		return -1;
	for (i = 0; i < m->ncpus; i++) {
		sl = m->slices[i];
		m->slices[i] = sl > m->slices0[i] ? sl - m->slices0[i] : 0;
		m->slices0[i] = sl;
		c = m->counts[i];
		run = m->run[i];
		g = m->gap[i];
		m->counts[i] -= m->counts0[i];
		m->run[i] -= m->run0[i];
		m->gap[i] -= m->gap0[i];
		m->counts0[i] = c;
		m->run0[i] = run;
		m->gap0[i] = g;
	}
	return 0;
}

int meter_sample(struct meter *m, struct meter_reading *r, char *err, size_t errlen)
{
	struct meter_delta d = {
		.counts = m->r_counts,
		.run_ns = m->r_run,
		.loops_per_sec = m->loops_per_sec,
		.calib_ncpus = m->ncpus,
	};
	uint64_t t1 = now_ns();
	int i, n = 0, rc;

	if (m->method == METER_KERNEL)
		return meter_kernel_sample(m, r, err, errlen);
	memset(r, 0, sizeof(*r));
	/*
	 * CPUs first: a soaker another copy of this meter (zcs's connection
	 * process) parked is stopped, and must be known as parked before
	 * soak_check would call it broken.
	 */
	rc = meter_hotplug(m, err, errlen);
	if (rc < 0 || gained(m, t1, err, errlen) < 0)
		return -1;
	d.secs = (double)(t1 - m->t0) / 1e9;
	m->t0 = t1;
	meter_throttle_read(m, r);
	if (rc > 0)
		return 1;	/* the note is in err */
	/* The soakers whose CPU is online; the gap index stays the soaker's. */
	for (i = 0; i < m->ncpus; i++) {
		if (soak_parked(m->soak, i))
			continue;
		m->r_counts[n] = m->counts[i];
		m->r_run[n] = m->run[i];
		m->r_cpu[n] = i;
		r->soaker_switches += (double)m->slices[i];
		n++;
	}
	if (n == 0)
		return err_fill(err, errlen, 0, "every CPU the meter covers is offline");
	d.ncpus = n;
	d.share = m->quota.cpus > 0 ? m->quota.cpus / m->ncpus : 1;
	meter_compute(&d, &r->load_counts, &r->load_runtime, m->cpu_counts, m->cpu_runtime);
	r->unseen_steal = meter_unseen_steal(m, n, d.secs, d.share);
	for (i = 0; i < n; i++)
		m->r_cpu[i] = soak_cpu(m->soak, m->r_cpu[i]);
	r->secs = d.secs;
	r->ncpus = n;
	r->cpus = n * d.share;
	r->cpu = m->r_cpu;
	r->cpu_load = m->method == METER_COUNTS ? m->cpu_counts : m->cpu_runtime;
	r->load = m->method == METER_COUNTS ? r->load_counts : r->load_runtime;
	for (i = 0; i < n; i++)
		m->cpu_free[i] = 1.0 - r->cpu_load[i];
	r->cpu_free = m->cpu_free;
	r->cpu_load_counts = m->cpu_counts;
	r->cpu_load_runtime = m->cpu_runtime;
	return 0;
}

void meter_close(struct meter *m)
{
	if (!m)
		return;
	if (getpid() == m->owner) {
		soak_stop(m->soak);
		meter_lock_drop(m->lock_fd);
	} else {
		soak_forget(m->soak);	/* a forked copy: the soakers are not ours */
		if (m->lock_fd >= 0)
			close(m->lock_fd);	/* the lock stays its owner's */
	}
	free_arrays(m);
}
