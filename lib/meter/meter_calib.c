/*
 * Calibrating the loop-count meter: the soakers' idle rate, sampled after a
 * warm-up, the median kept, a noisy or busy machine refused.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/clock.h"
#include "base/cpu.h"
#include "base/err.h"
#include "base/stop.h"
#include "meter/calib_file.h"
#include "meter/lock.h"
#include "meter/meter.h"
#include "meter/proc.h"
#include "meter/soak.h"

/* Samples in one calibration attempt. */
#define CALIB_SAMPLES 5

/* Start the soakers and let them settle: page faults, CPU frequency, placement. */
static struct soak *start_warm(int ncpus, const struct soak_cfg *cfg, unsigned warmup_ms,
			       char *err, size_t errlen)
{
	struct soak *s = soak_start_cfg(ncpus, cfg, err, errlen);
	int saved;

	if (s && stop_wait_until(now_ns() + warmup_ms * 1000000ull) < 0) {
		saved = errno;
		soak_stop(s);
		err_fill(err, errlen, saved, "calibration interrupted");
		errno = saved;
		return NULL;
	}
	return s;
}

/*
 * One attempt's samples: n rates of the soakers together, sample_ms each,
 * into rate[], and the share of the machine that work at nice 0 or better
 * held meanwhile (/proc/stat) into *others, -1 when it does not say.
 */
static int take_samples(struct soak *s, unsigned sample_ms, unsigned n,
			void (*report)(double rate, void *arg), void *arg,
			double *rate, double *others, char *err, size_t errlen)
{
	uint64_t t0, t1, c0, c1, busy0 = 0, busy1 = 0, total0 = 0, total1 = 0;
	unsigned i;
	int ticks;

	*others = -1;
	ticks = proc_machine_ticks(&busy0, &total0);
	t0 = now_ns();
	c0 = soak_total(s);
	for (i = 0; i < n; i++) {
		if (stop_wait_until(t0 + sample_ms * 1000000ull) < 0)
			return err_fill(err, errlen, errno, "calibration interrupted");
		t1 = now_ns();
		c1 = soak_total(s);
		rate[i] = (double)(c1 - c0) * 1e9 / (double)(t1 - t0);
		if (report)
			report(rate[i], arg);
		t0 = t1;
		c0 = c1;
	}
	if (ticks == 0 && proc_machine_ticks(&busy1, &total1) == 0 && total1 > total0)
		*others = (double)(busy1 - busy0) / (double)(total1 - total0);
	return soak_check(s, err, errlen);
}

/*
 * The attempts: the soakers warm up once and stay up between them; each
 * attempt's samples are judged (calib_judge) and the first accepted kept.
 */
static int attempts(struct soak *s, unsigned sample_ms,
		    void (*report)(double, void *), void *arg, const char *path,
		    struct calib *out, char *err, size_t errlen)
{
	double rate[CALIB_SAMPLES], others;
	char why[160];
	int try;

	for (try = 1;; try++) {
		if (take_samples(s, sample_ms, CALIB_SAMPLES, report, arg, rate,
				 &others, err, errlen) < 0)
			return -1;
		if (calib_judge(rate, CALIB_SAMPLES, others, out, why, sizeof(why)) == 0)
			return 0;
		if (try >= CALIB_ATTEMPTS)
			return calib_refused(err, errlen, try, why, path);
	}
}

int meter_calibrate(const struct meter_cfg *cfg, unsigned sample_ms,
		    void (*report)(double loops_per_sec, void *arg), void *arg,
		    struct calib *out, char *err, size_t errlen)
{
	struct soak_cfg scfg = { .bind = cfg->bind, .policy = cfg->policy };
	const char *path = cfg->calib_path ? cfg->calib_path : CALIB_DEFAULT_PATH;
	struct meter_cpus cpus;
	struct soak *s;
	int lock, rc, saved, ncpus;

	if (meter_cpus_pick(cfg, &cpus, err, errlen) < 0) {
		errno = EDOM;
		return -1;
	}
	ncpus = cpus.n;
	scfg.cpus = cpus.cpu;
	if (!sample_ms)
		sample_ms = 1000;
	if (calib_check_path(path, err, errlen) < 0)
		return -1;
	lock = meter_lock_take(err, errlen);
	if (lock < 0)
		return -1;
	s = start_warm(ncpus, &scfg, sample_ms < 500 ? 2 * sample_ms : 1000, err, errlen);
	rc = s ? attempts(s, sample_ms, report, arg, path, out, err, errlen) : -1;
	saved = errno;
	soak_stop(s);
	meter_lock_drop(lock);
	errno = saved;
	if (rc < 0)
		return -1;
	out->ncpus = ncpus;
	return calib_save(path, out, err, errlen);
}
