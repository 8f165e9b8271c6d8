#include <math.h>
#include <stdlib.h>

#include "base/stats.h"

static int by_value(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

void stats_sort(double *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), by_value);
}

double stats_median(double *v, size_t n)
{
	if (n == 0)
		return NAN;
	stats_sort(v, n);
	if (n % 2)
		return v[n / 2];
	return (v[n / 2 - 1] + v[n / 2]) / 2;
}

double stats_min(const double *v, size_t n)
{
	double m = n ? v[0] : NAN;

	for (size_t i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

double stats_max(const double *v, size_t n)
{
	double m = n ? v[0] : NAN;

	for (size_t i = 1; i < n; i++)
		if (v[i] > m)
			m = v[i];
	return m;
}

double stats_mean(const double *v, size_t n)
{
	double sum = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

double stats_sd(const double *v, size_t n)
{
	double mean, ss = 0;

	if (n < 2)
		return NAN;
	mean = stats_mean(v, n);
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return sqrt(ss / (double)(n - 1));
}

/* Student's t, two-sided 95%, for 1 to 30 degrees of freedom. */
static const double t95_table[30] = {
	12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060,
	2.2622, 2.2281, 2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199,
	2.1098, 2.1009, 2.0930, 2.0860, 2.0796, 2.0739, 2.0687, 2.0639,
	2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
};

double stats_t95(size_t df)
{
	const double z = 1.959964;	/* the normal's 97.5% point */
	double d = (double)df;

	if (df == 0)
		return NAN;
	if (df <= 30)
		return t95_table[df - 1];
	/* Beyond the table, the first two terms of the Cornish-Fisher
	 * expansion of t around z: within 0.001 from 31 on. */
	return z + (z * z * z + z) / (4 * d) +
	       (5 * z * z * z * z * z + 16 * z * z * z + 3 * z) / (96 * d * d);
}

static double half_width(double sd, size_t n)
{
	if (n < 2)
		return NAN;
	return stats_t95(n - 1) * sd / sqrt((double)n);
}

void stats_summarise(double *v, size_t n, struct stats_sum *s)
{
	s->n = n;
	s->mean = stats_mean(v, n);
	s->sd = stats_sd(v, n);
	s->half = half_width(s->sd, n);
	s->lo = s->mean - s->half;
	s->hi = s->mean + s->half;
	s->median = stats_median(v, n);
	s->min = stats_min(v, n);
	s->max = stats_max(v, n);
}

enum stats_verdict stats_compare(const double *a, const double *b, size_t n,
				 const char **why)
{
	size_t below = 0, above = 0;
	double ma, mb, ha, hb;

	if (why)
		*why = "";
	if (n < 2) {
		if (why)
			*why = "fewer than 2 rounds";
		return STATS_UNRESOLVED;
	}
	for (size_t i = 0; i < n; i++) {
		below += a[i] < b[i];
		above += a[i] > b[i];
	}
	if (below != n && above != n) {
		if (why)
			*why = "rounds disagree in sign";
		return STATS_UNRESOLVED;
	}
	ma = stats_mean(a, n);
	mb = stats_mean(b, n);
	ha = half_width(stats_sd(a, n), n);
	hb = half_width(stats_sd(b, n), n);
	if (below == n && ma + ha < mb - hb)
		return STATS_LESS;
	if (above == n && ma - ha > mb + hb)
		return STATS_MORE;
	if (why)
		*why = "intervals overlap";
	return STATS_UNRESOLVED;
}

double stats_sign_coverage(size_t n, size_t k)
{
	double p = 0, term;

	if (k == 0 || 2 * k > n + 1)
		return 0;
	/* P(X < k) = sum over i < k of C(n, i) / 2^n, built term by term. */
	term = 1;
	for (size_t i = 0; i < n; i++)
		term /= 2;
	for (size_t i = 0; i < k; i++) {
		p += term;
		term = term * (double)(n - i) / (double)(i + 1);
	}
	return 1 - 2 * p;
}

void stats_ratios(const double *a, const double *b, size_t n, struct stats_ratio *r)
{
	double *v = malloc((n ? n : 1) * sizeof(*v));
	size_t m = 0;

	*r = (struct stats_ratio){ .median = NAN, .lo = NAN, .hi = NAN };
	if (!v)
		return;
	for (size_t i = 0; i < n; i++) {
		double x = b[i] > 0 ? a[i] / b[i] : NAN;

		if (!isfinite(x))
			continue;
		v[m++] = x;
		r->above += x > 1;
		r->below += x < 1;
	}
	r->n = m;
	if (m) {
		r->median = stats_median(v, m);	/* sorts v */
		r->conf = stats_median_interval(v, m, &r->lo, &r->hi);
	}
	free(v);
}

double stats_median_interval(const double *v, size_t n, double *lo, double *hi)
{
	size_t k;

	if (n == 0) {
		*lo = *hi = NAN;
		return 0;
	}
	for (k = (n + 1) / 2; k > 1 && stats_sign_coverage(n, k) < 0.95; k--)
		;
	*lo = v[k - 1];
	*hi = v[n - k];
	return stats_sign_coverage(n, k);
}

enum stats_verdict stats_ratio_verdict(const struct stats_ratio *r)
{
	if (r->conf <= 0 || isnan(r->lo) || isnan(r->hi))
		return STATS_UNRESOLVED;
	if (r->hi < 1)
		return STATS_LESS;
	if (r->lo > 1)
		return STATS_MORE;
	return STATS_UNRESOLVED;
}

size_t stats_ratio_agree(const struct stats_ratio *r)
{
	if (r->median > 1)
		return r->above;
	if (r->median < 1)
		return r->below;
	return 0;
}
