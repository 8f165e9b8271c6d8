#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/stop.h"
#include "base/clock.h"
#include "base/err.h"
#include "meter/calib.h"
#include "meter/cpu.h"
#include "meter/env.h"
#include "meter/lock.h"
#include "meter/meter.h"
#include "meter/meter_internal.h"
#include "meter/proc.h"
#include "meter/soak.h"

/* Settle time after the soakers start: page faults, scheduler placement. */
#define SETTLE_MS 300

struct meter {
	struct soak *soak;
	pid_t owner;			/* who opened it: only it kills */
	int lock_fd;
	int ncpus;
	enum meter_method method;
	char why[96];
	char warning[160];		/* about the calibration in use, or "" */
	double loops_per_sec;		/* calibrated; 0: no calibration */
	uint64_t t0;			/* the mark */
	uint64_t *counts0, *counts;	/* at the mark, gained since */
	int64_t *run0, *run;
	double *cpu_counts, *cpu_runtime, *cpu_free;
};

void meter_compute(const struct meter_delta *d, double *load_counts,
		   double *load_runtime, double *cpu_counts, double *cpu_runtime)
{
	double per_cpu = d->loops_per_sec / d->ncpus, sum_c = 0, sum_r = 0;
	int i;

	for (i = 0; i < d->ncpus; i++) {
		cpu_counts[i] = d->loops_per_sec > 0 && d->secs > 0
			? 1.0 - (double)d->counts[i] / d->secs / per_cpu : NAN;
		cpu_runtime[i] = d->secs > 0
			? 1.0 - (double)d->run_ns[i] / 1e9 / d->secs : NAN;
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

/* Is "hypervisor" a word of a "flags" line of the cpuinfo file? */
int meter_machine_is_virtual(void)
{
	char model[128];

	return env_cpuinfo(model, sizeof(model)) == 1;
}

/*
 * Choose the method and say why; load the calibration where there is one.
 * Loop counts need it; run time uses it only for the second figure, so a
 * missing or unfitting file is then no error.
 */
static int choose(struct meter *m, const struct meter_cfg *cfg, char *err, size_t errlen)
{
	const char *path = cfg->calib_path ? cfg->calib_path : CALIB_DEFAULT_PATH;
	int is_vm = cfg->method == METER_DEFAULT && meter_machine_is_virtual();
	struct calib c;
	char cerr[256], warn[160];

	if (calib_for(path, m->ncpus, &c, warn, sizeof(warn), cerr, sizeof(cerr)) == 0)
		m->loops_per_sec = c.loops_per_sec;
	m->method = cfg->method;
	if (m->method == METER_DEFAULT)
		m->method = is_vm ? METER_RUNTIME : METER_COUNTS;
	if (m->method == METER_COUNTS && !m->loops_per_sec)
		return err_fill(err, errlen, 0, "loop counts: %s", cerr);
	if (m->method == METER_COUNTS)
		snprintf(m->warning, sizeof(m->warning), "%s", warn);
	if (cfg->method == METER_RUNTIME)
		snprintf(m->why, sizeof(m->why), "run time (-r)");
	else if (cfg->method == METER_COUNTS)
		snprintf(m->why, sizeof(m->why), "loop counts (-L)");
	else if (is_vm)
		snprintf(m->why, sizeof(m->why), "run time (virtual machine; -L for loop counts)");
	else
		snprintf(m->why, sizeof(m->why), "loop counts (bare metal; -r for run time)");
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
	return m->counts0 && m->counts && m->run0 && m->run && m->cpu_counts &&
	       m->cpu_runtime && m->cpu_free ? 0 : -1;
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
	m->ncpus = cfg->ncpus > 0 ? cfg->ncpus : cpu_online();
	if (alloc_arrays(m) < 0) {
		err_fill(err, errlen, errno, "meter");
		goto fail;
	}
	if (choose(m, cfg, err, errlen) < 0)
		goto fail;
	m->lock_fd = meter_lock_take(err, errlen);
	if (m->lock_fd < 0)
		goto fail;
	m->soak = soak_start_cfg(m->ncpus, &scfg, err, errlen);
	if (!m->soak)
		goto fail;
	if (stop_wait_until(now_ns() + SETTLE_MS * 1000000ull) < 0) {
		err_fill(err, errlen, errno, "meter start");
		goto fail;
	}
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
	return method == METER_COUNTS ? "loop counts" : "run time";
}

const char *meter_why(const struct meter *m)
{
	return m->why;
}

int meter_ncpus(const struct meter *m)
{
	return m->ncpus;
}

int meter_soakers(const struct meter *m, int *pids, int max)
{
	int i;

	for (i = 0; i < m->ncpus && i < max; i++)
		pids[i] = soak_pid(m->soak, i);
	return i;
}

/* Each soaker's loop count and run time less system time, now. */
static int read_soakers(struct meter *m, uint64_t *counts, int64_t *run,
			char *err, size_t errlen)
{
	uint64_t run_ns, sys_ns;
	int i;

	/* A dead or stopped soaker first: its /proc files may be gone. */
	if (soak_check(m->soak, err, errlen) < 0)
		return -1;
	soak_read(m->soak, counts);
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
	}
	return 0;
}

int meter_mark(struct meter *m, char *err, size_t errlen)
{
	m->t0 = now_ns();
	return read_soakers(m, m->counts0, m->run0, err, errlen);
}

int meter_sample(struct meter *m, struct meter_reading *r, char *err, size_t errlen)
{
	struct meter_delta d = {
		.ncpus = m->ncpus,
		.counts = m->counts,
		.run_ns = m->run,
		.loops_per_sec = m->loops_per_sec,
	};
	uint64_t t1 = now_ns(), c;
	int64_t run;
	int i;

	if (read_soakers(m, m->counts, m->run, err, errlen) < 0)
		return -1;
	for (i = 0; i < m->ncpus; i++) {
		c = m->counts[i];
		run = m->run[i];
		m->counts[i] -= m->counts0[i];
		m->run[i] -= m->run0[i];
		m->counts0[i] = c;
		m->run0[i] = run;
	}
	d.secs = (double)(t1 - m->t0) / 1e9;
	m->t0 = t1;
	memset(r, 0, sizeof(*r));
	meter_compute(&d, &r->load_counts, &r->load_runtime, m->cpu_counts, m->cpu_runtime);
	r->secs = d.secs;
	r->ncpus = m->ncpus;
	r->cpu_load = m->method == METER_COUNTS ? m->cpu_counts : m->cpu_runtime;
	r->load = m->method == METER_COUNTS ? r->load_counts : r->load_runtime;
	for (i = 0; i < m->ncpus; i++)
		m->cpu_free[i] = 1.0 - r->cpu_load[i];
	r->cpu_free = m->cpu_free;
	r->cpu_load_counts = m->cpu_counts;
	r->cpu_load_runtime = m->cpu_runtime;
	return 0;
}

void meter_kill(struct meter *m)
{
	if (!m || getpid() != m->owner)
		return;
	if (m->soak)
		soak_kill(m->soak);
	meter_lock_drop(m->lock_fd);
	m->lock_fd = -1;
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

int meter_method_opt(int opt, enum meter_method *m)
{
	enum meter_method want = opt == 'r' ? METER_RUNTIME : METER_COUNTS;

	if (*m != METER_DEFAULT && *m != want)
		return -1;
	*m = want;
	return 0;
}
