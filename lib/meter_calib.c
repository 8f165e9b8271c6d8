/*
 * Calibrating the loop-count meter: the soakers' idle rate, sampled after a
 * warm-up, the median kept, a noisy or busy machine refused.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "calib.h"
#include "clock.h"
#include "cpu.h"
#include "err.h"
#include "lock.h"
#include "meter.h"
#include "proc.h"
#include "soak.h"

/* Tries before a calibration on a noisy machine is refused. */
#define CALIB_TRIES 3

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * One attempt: start the soakers, warm up, take n samples of their total
 * rate into rate[], and the share of the machine that work at nice 0 or
 * better held meanwhile (/proc/stat; 0 when it does not say) into *others.
 */
static int take_samples(int ncpus, const struct soak_cfg *cfg, unsigned warmup_ms,
			unsigned sample_ms, unsigned n,
			void (*report)(double rate, void *arg), void *arg,
			double *rate, double *others, char *err, size_t errlen)
{
	uint64_t t0, t1, c0, c1, busy0 = 0, busy1 = 0, total0 = 0, total1 = 0;
	struct soak *s;
	unsigned i;
	int ticks, saved;

	*others = 0;
	s = soak_start_cfg(ncpus, cfg, err, errlen);
	if (!s)
		return -1;
	/* Warm-up: page faults, CPU frequency, the scheduler's first guesses. */
	if (sleep_until(now_ns() + warmup_ms * 1000000ull) < 0)
		goto interrupted;
	ticks = proc_machine_ticks(&busy0, &total0);
	t0 = now_ns();
	c0 = soak_total(s);
	for (i = 0; i < n; i++) {
		if (sleep_until(t0 + sample_ms * 1000000ull) < 0)
			goto interrupted;
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
	if (soak_check(s, err, errlen) < 0) {
		soak_stop(s);
		return -1;
	}
	soak_stop(s);
	return 0;
interrupted:
	saved = errno;
	soak_stop(s);
	err_fill(err, errlen, saved, "calibration interrupted");
	errno = saved;
	return -1;
}

/* The median (one disturbed sample cannot move it) and the spread around it. */
static void summarize(double *rate, unsigned n, double *median, double *spread)
{
	qsort(rate, n, sizeof(*rate), cmp_double);
	*median = n % 2 ? rate[n / 2] : (rate[n / 2 - 1] + rate[n / 2]) / 2;
	*spread = *median > 0 ? (rate[n - 1] - rate[0]) / *median : 0;
}

int soak_calibrate_cfg(int ncpus, const struct soak_cfg *cfg,
		       void (*report)(double rate, void *arg), void *arg,
		       struct calib *out, char *warn, size_t warnlen,
		       char *err, size_t errlen)
{
	static const struct soak_cfg defaults;
	unsigned n;
	double *rate, median, spread, others;

	if (!cfg)
		cfg = &defaults;
	n = cfg->samples ? cfg->samples : 5;
	if (warn && warnlen)
		warn[0] = '\0';
	rate = calloc(n, sizeof(*rate));
	if (!rate)
		return err_fill(err, errlen, errno, "calibrate");
	if (take_samples(ncpus, cfg, cfg->warmup_ms ? cfg->warmup_ms : 1000,
			 cfg->sample_ms ? cfg->sample_ms : 1000, n, report, arg,
			 rate, &others, err, errlen) < 0) {
		free(rate);
		return -1;
	}
	summarize(rate, n, &median, &spread);
	free(rate);
	if (median <= 0)
		return err_fill(err, errlen, 0, "soakers did not count");
	out->loops_per_sec = median;
	out->ncpus = ncpus;
	out->spread = spread;
	if (others > 0.03 && warn && warnlen)
		snprintf(warn, warnlen, "other work used %.1f%% of the CPUs during "
			 "calibration: calibrate again on an idle machine", others * 100);
	else if (spread > 0.02 && warn && warnlen)
		snprintf(warn, warnlen, "samples spread %.1f%%: was the machine "
			 "idle? calibrate again when it is", spread * 100);
	return 0;
}

int soak_calibrate(int ncpus, void (*report)(double rate, void *arg), void *arg,
		   struct calib *out, char *warn, size_t warnlen,
		   char *err, size_t errlen)
{
	return soak_calibrate_cfg(ncpus, NULL, report, arg, out, warn, warnlen,
				  err, errlen);
}

double soak_load(double rate, const struct calib *c)
{
	return 1.0 - rate / c->loops_per_sec;
}

/*
 * Accept one attempt or say why not: samples spread over 3%, or other work
 * holding over 3% of the machine (a steady load lowers every sample alike,
 * so only /proc/stat sees it).
 */
static int judge(double median, double spread, double others, char *why, size_t len)
{
	if (median <= 0)
		return err_fill(why, len, 0, "the soakers did not count");
	if (spread > 0.03)
		return err_fill(why, len, 0, "samples spread %.1f%% (over 3%%)", spread * 100);
	if (others > 0.03)
		return err_fill(why, len, 0, "samples spread %.1f%%, but other work held "
				"%.1f%% of the CPUs (over 3%%)", spread * 100, others * 100);
	return 0;
}

/* One try: samples, their median and spread, and the verdict in why. */
static int calibrate_once(const struct meter_cfg *cfg, int ncpus, unsigned sample_ms,
			  void (*report)(double, void *), void *arg,
			  struct calib *out, char *why, size_t whylen,
			  char *err, size_t errlen)
{
	struct soak_cfg scfg = { .bind = cfg->bind, .policy = cfg->policy };
	double rate[5], others;
	unsigned n = sizeof(rate) / sizeof(rate[0]);

	if (take_samples(ncpus, &scfg, sample_ms < 500 ? 2 * sample_ms : 1000,
			 sample_ms, n, report, arg, rate, &others, err, errlen) < 0)
		return -1;
	summarize(rate, n, &out->loops_per_sec, &out->spread);
	out->ncpus = ncpus;
	if (judge(out->loops_per_sec, out->spread, others, why, whylen) < 0)
		return 1;
	return 0;
}

int meter_calibrate(const struct meter_cfg *cfg, unsigned sample_ms,
		    void (*report)(double loops_per_sec, void *arg), void *arg,
		    struct calib *out, char *err, size_t errlen)
{
	const char *path = cfg->calib_path ? cfg->calib_path : CALIB_DEFAULT_PATH;
	int ncpus = cfg->ncpus > 0 ? cfg->ncpus : cpu_online();
	char why[CALIB_TRIES][96];
	int lock, tries, rc = 1;

	lock = meter_lock_take(err, errlen);
	if (lock < 0)
		return -1;
	for (tries = 0; tries < CALIB_TRIES && rc == 1; tries++)
		rc = calibrate_once(cfg, ncpus, sample_ms ? sample_ms : 1000, report,
				    arg, out, why[tries], sizeof(why[0]), err, errlen);
	meter_lock_drop(lock);
	if (rc < 0)
		return -1;
	if (rc == 1)
		return err_fill(err, errlen, 0, "calibration refused after %d tries, "
				"the file left as it was: %s; %s; %s: calibrate on an "
				"idle machine", CALIB_TRIES, why[0], why[1], why[2]);
	return calib_save(path, out, err, errlen);
}
