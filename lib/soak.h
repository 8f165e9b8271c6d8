/*
 * The soaker: CPU load measured by subtraction. One low-priority busy
 * process per CPU bumps its own counter in shared memory; whatever else the
 * machine does slows them down against a calibrated idle rate.
 */
#ifndef ZC_SOAK_H
#define ZC_SOAK_H

#include <stddef.h>
#include <stdint.h>

#define CALIB_DEFAULT_PATH "counts_per_sec"

struct soak;			/* running soakers; opaque */

/*
 * soak_start - fork ncpus soakers (nice 19; bound to CPU i when bind) and
 * return once every one is counting. Each dies with its parent, however the
 * parent dies. NULL with err filled on failure (nothing left running).
 */
struct soak *soak_start(int ncpus, int bind, char *err, size_t errlen);

/* Number of soakers. */
int soak_count(const struct soak *s);

/* Current counter of each soaker into counts[soak_count(s)]. */
void soak_read(const struct soak *s, uint64_t *counts);

/* Sum of all counters. */
uint64_t soak_total(const struct soak *s);

/* Kill and reap every soaker, free s. Safe on NULL. */
void soak_stop(struct soak *s);

/* What a calibration file holds. */
struct calib {
	double loops_per_sec;	/* all soakers together, idle machine */
	int ncpus;		/* how many soakers that was */
};

/* Read a calibration file. -1 with err filled when missing or malformed. */
int calib_load(const char *path, struct calib *c, char *err, size_t errlen);

/* Write a calibration file whole or not at all (temp file + rename). */
int calib_save(const char *path, const struct calib *c, char *err, size_t errlen);

/*
 * soak_calibrate - run ncpus soakers on an idle machine and measure their
 * rate robustly (warm-up, several samples, a statistic that resists
 * outliers). report(rate, arg) is called once per sample so the program
 * can print "calibrating: N loops/sec". *warn is set to a message (else "")
 * when the samples spread as if the machine was not idle.
 */
int soak_calibrate(int ncpus, void (*report)(double rate, void *arg), void *arg,
		   struct calib *out, char *warn, size_t warnlen,
		   char *err, size_t errlen);

/* load = 1 - rate / calibrated rate, as a fraction (may be negative). */
double soak_load(double rate, const struct calib *c);

#endif
