/*
 * The calibration: the loop-count meter's idle rate, the judgement of
 * whether a calibration run saw an idle machine, and the file that keeps
 * it, written whole or not at all and read back only when it is exactly
 * what was written.
 */
#ifndef ZC_CALIB_FILE_H
#define ZC_CALIB_FILE_H

#include <stddef.h>

#define CALIB_DEFAULT_PATH "counts_per_sec"

/*
 * The range of a believable rate, all soakers together. A soaker's count
 * is eight cache-line writes; one CPU makes tens of millions a second, and
 * even an emulated CPU (qemu without KVM) over a million, so below 1000
 * something is wrong (or the number was typed in), and a sample's one-count
 * granularity would be a visible error. Above: CPU_SETSIZE (1024) CPUs at a
 * billion counts a second each is about 1e12; 1e15 leaves a thousandfold
 * margin and stays below 2^53, so the integer is exact in a double.
 */
#define CALIB_RATE_MIN 1000ull
#define CALIB_RATE_MAX 1000000000000000ull

/*
 * The judgement of one calibration attempt. An attempt is refused when its
 * samples spread more than CALIB_SPREAD_LIMIT of their median (a quiet
 * machine spreads well under 1%), or when /proc/stat says other work took
 * more than CALIB_BUSY_LIMIT of the CPUs during it (a steady load lowers
 * every sample alike and spreads nothing, so only this sees it). A refused
 * attempt is tried again, CALIB_ATTEMPTS in all, before giving up.
 */
#define CALIB_SPREAD_LIMIT 0.03
#define CALIB_BUSY_LIMIT 0.03
#define CALIB_ATTEMPTS 3
#define CALIB_SAMPLES_MAX 100	/* most samples one attempt may judge */

/* What a calibration file holds. */
struct calib {
	double loops_per_sec;	/* all soakers together, idle machine */
	int ncpus;		/* how many soakers that was; 0: not recorded */
	double spread;		/* (max - min) / median of the samples; 0: unknown */
};

/*
 * The file, exactly as calib_save writes it (tabs are not in it):
 *
 *	123456789			loops/sec, a whole number, no sign or
 *					leading zero, CALIB_RATE_MIN..MAX
 *	ncpus 2				1..CPU_SETSIZE, no leading zero
 *	spread 0.42%			two decimals, 0.00..9999.99
 *	written-by zc cyclesoak
 *
 * every line ended by a newline. The 2001 program's file is the first line
 * alone, and the first two lines alone are what a person writes by hand:
 * both are read (a file cut after any whole line is). Anything else is
 * refused: another spelling of a number (0x10, 1e6, +5, 5.0, " 5"), a
 * value out of range, a line too many, a line not ended, a NUL byte, more
 * than a few hundred bytes, a path that is not a regular file (a symlink
 * is not followed).
 */

/*
 * calib_load - read path into *c; -1 with err filled (one line) and errno
 * ENOENT when there is no such file (a fresh machine: the run-time meter
 * needs none), EBADMSG when its contents are not as above (calibrating
 * again writes a good one), EINVAL when it is not a regular file, EACCES
 * when it is not to be trusted (owned by a user other than the caller and
 * root, or writable by group or others), else what failed. err says what
 * is wrong, not which option mends it: that is the program's to add.
 */
int calib_load(const char *path, struct calib *c, char *err, size_t errlen);

/*
 * calib_for - calib_load, then check the file fits a measurement with ncpus
 * soakers: another recorded count is an error, errno ERANGE, with *c as
 * read (the figures would be wrong); no recorded count (a 2001 file) fills
 * *warn (else "") and is accepted.
 */
int calib_for(const char *path, int ncpus, struct calib *c, char *warn,
	      size_t warnlen, char *err, size_t errlen);

/*
 * calib_format - the text calib_save writes for c (the rate rounded to a
 * whole number), into text; its length, or -1 with err filled when c holds
 * what the file cannot (a rate out of range, ncpus outside 1..CPU_SETSIZE,
 * a spread that is negative, not a number or over 9999.99%).
 */
int calib_format(const struct calib *c, char *text, size_t len, char *err, size_t errlen);

/*
 * calib_check_path - whether calib_save may write path: it is missing or
 * a regular file. A device node, a FIFO, a socket, a directory or a symlink
 * (to anything, even a regular file) is refused: -1, err "PATH: a FIFO,
 * not a regular file: refusing to replace it". A program calls this before
 * it calibrates, so the refusal comes at once; calib_save checks again.
 */
int calib_check_path(const char *path, char *err, size_t errlen);

/*
 * calib_save - write c to path whole or not at all: a temporary file
 * beside it (O_EXCL, so never through a symlink), fsync, then renamed over
 * path only while path is missing or a regular file (checked with lstat
 * just before; a missing name is taken with RENAME_NOREPLACE). On failure
 * path is as it was and no temporary file is left.
 */
int calib_save(const char *path, const struct calib *c, char *err, size_t errlen);

/*
 * calib_judge - judge one calibration attempt: samples[n] are its rates
 * (loops/sec, all soakers together, one per sample period, after the
 * warm-up), others the share of the machine (0..1) that /proc/stat says
 * other work used over those same periods, negative when it could not be
 * read. Returns 0 with out->loops_per_sec the median of the samples and
 * out->spread (max - min) / median, out->ncpus left as the caller set it;
 * or -1, out untouched, err one reason without the path, e.g.
 * "samples spread 12.3% (limit 3%)" or "other work used 7.5% of the CPUs
 * (limit 3%)" (both, joined by ", ", when both are so), or "soakers did
 * not count" (median 0: other work held every CPU). Pure: no I/O.
 * The loop that calls it, up to CALIB_ATTEMPTS times, is meter_calibrate()
 * in lib/meter/meter_calib.c; others comes from proc_machine_ticks().
 */
int calib_judge(const double *samples, int n, double others, struct calib *out,
		char *err, size_t errlen);

/*
 * calib_refused - the one line for a calibration given up after tries
 * attempts, why the last one's reason from calib_judge:
 *
 *	calibration refused after 3 tries: samples spread 12.3% (limit 3%); PATH unchanged
 *
 * into err; returns -1. Every program that calibrates prints it after its
 * "prog: " and exits 1, so all refuse identically.
 */
int calib_refused(char *err, size_t errlen, int tries, const char *why, const char *path);

#endif
