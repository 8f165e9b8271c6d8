/*
 * The calibration file: the loop-count meter's idle rate, written whole or
 * not at all, read back only when it is exactly what was written.
 */
#ifndef ZC_CALIB_H
#define ZC_CALIB_H

#include <stddef.h>

#define CALIB_DEFAULT_PATH "counts_per_sec"

/* What a calibration file holds. */
struct calib {
	double loops_per_sec;	/* all soakers together, idle machine */
	int ncpus;		/* how many soakers that was; 0: not recorded */
	double spread;		/* (max - min) / median of the samples; 0: unknown */
};

/*
 * Read a calibration file: the first line is the rate alone (as the 2001
 * program wrote it), then optional "key value" lines ("ncpus 2"). -1 with
 * err filled when missing or malformed.
 */
int calib_load(const char *path, struct calib *c, char *err, size_t errlen);

/*
 * calib_for - calib_load, then check the file fits a measurement with ncpus
 * soakers: another recorded count is an error (the figures would be wrong);
 * no recorded count (a 2001 file) fills *warn (else "") and is accepted.
 */
int calib_for(const char *path, int ncpus, struct calib *c, char *warn,
	      size_t warnlen, char *err, size_t errlen);

/* Write a calibration file whole or not at all (temp file + fsync + rename). */
int calib_save(const char *path, const struct calib *c, char *err, size_t errlen);

#endif
