/*
 * The judgement of a calibration attempt: did its samples see an idle
 * machine? Pure arithmetic on figures the caller took; declared in calib_file.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/err.h"
#include "meter/calib_file.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* "12.3%" (or "2.95%" under 10, where a tenth would hide the limit) into buf. */
static const char *pct(double frac, char *buf, size_t len)
{
	snprintf(buf, len, frac < 0.1 ? "%.2f%%" : "%.1f%%", frac * 100);
	return buf;
}

int calib_judge(const double *samples, int n, double others, struct calib *out,
		char *err, size_t errlen)
{
	double rate[CALIB_SAMPLES_MAX], median, spread;
	char a[16], b[16];
	int i, noisy, busy;

	if (n < 1 || n > CALIB_SAMPLES_MAX)
		return err_fill(err, errlen, 0, "%d samples: 1 to %d can be judged",
				n, CALIB_SAMPLES_MAX);
	for (i = 0; i < n; i++) {
		if (!(samples[i] >= 0) || !isfinite(samples[i]))
			return err_fill(err, errlen, 0, "sample %d is %g loops/sec, "
					"not a rate", i + 1, samples[i]);
		rate[i] = samples[i];
	}
	/* The median: one disturbed sample cannot move it. */
	qsort(rate, (size_t)n, sizeof(rate[0]), cmp_double);
	median = n % 2 ? rate[n / 2] : (rate[n / 2 - 1] + rate[n / 2]) / 2;
	if (median <= 0)
		return err_fill(err, errlen, 0, "soakers did not count");
	spread = (rate[n - 1] - rate[0]) / median;
	noisy = spread > CALIB_SPREAD_LIMIT;
	busy = others > CALIB_BUSY_LIMIT;
	if (busy && noisy)
		return err_fill(err, errlen, 0, "other work used %s of the CPUs (limit %g%%), "
				"samples spread %s (limit %g%%)", pct(others, a, sizeof(a)),
				CALIB_BUSY_LIMIT * 100, pct(spread, b, sizeof(b)),
				CALIB_SPREAD_LIMIT * 100);
	if (busy)
		return err_fill(err, errlen, 0, "other work used %s of the CPUs (limit %g%%)",
				pct(others, a, sizeof(a)), CALIB_BUSY_LIMIT * 100);
	if (noisy)
		return err_fill(err, errlen, 0, "samples spread %s (limit %g%%)",
				pct(spread, b, sizeof(b)), CALIB_SPREAD_LIMIT * 100);
	if (median < CALIB_RATE_MIN || median > CALIB_RATE_MAX)
		return err_fill(err, errlen, 0, "%.0f loops/sec is out of range "
				"(1000 to 10^15)", median);
	out->loops_per_sec = median;
	out->spread = spread;
	return 0;
}

int calib_refused(char *err, size_t errlen, int tries, const char *why, const char *path)
{
	return err_fill(err, errlen, 0, "calibration refused after %d %s: %s; %s unchanged",
			tries, tries == 1 ? "try" : "tries", why, path);
}
