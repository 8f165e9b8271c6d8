#include <math.h>
#include <stdlib.h>

#include "base/stats_unpaired.h"

/* Exact counts up to this many values in all; the normal law beyond. */
#define EXACT_MAX 400

/*
 * The law of U exactly: the number of orderings of n a's and m b's with u
 * pairs in order is the coefficient of q^u in the Gaussian binomial
 * [n+m choose n]_q, the product over i = 1..n of (1 - q^(m+i)) / (1 - q^i),
 * built one factor at a time. Into cdf[u]: P(U <= u), u = 0..n*m. NULL
 * when memory runs out.
 */
static double *mw_cdf_exact(size_t n, size_t m)
{
	size_t top = n * m, u, i;
	double *c = calloc(top + 1, sizeof(*c)), all = 0;

	if (!c)
		return NULL;
	c[0] = 1;
	for (i = 1; i <= n; i++) {
		for (u = top; u >= m + i && u <= top; u--)	/* times (1 - q^(m+i)) */
			c[u] -= c[u - (m + i)];
		for (u = i; u <= top; u++)			/* over (1 - q^i) */
			c[u] += c[u - i];
	}
	for (u = 0; u <= top; u++)
		all += c[u];
	for (u = 0; u <= top; u++)
		c[u] = (u ? c[u - 1] : 0) + c[u] / all;
	return c;
}

static double mw_below_exact(size_t n, size_t m, size_t k)
{
	double *cdf = mw_cdf_exact(n, m), p;

	if (!cdf)
		return NAN;
	p = k ? cdf[k - 1] : 0;
	free(cdf);
	return p;
}

/* P(U < k) by the normal law, with the continuity correction. */
static double mw_below_normal(size_t n, size_t m, size_t k)
{
	double nm = (double)n * (double)m;
	double sd = sqrt(nm * (double)(n + m + 1) / 12);
	double z = ((double)k - 0.5 - nm / 2) / sd;

	return 0.5 * erfc(-z / sqrt(2));
}

double stats_mw_coverage(size_t n, size_t m, size_t k)
{
	if (k == 0 || 2 * k > n * m + 1)
		return 0;
	if (n + m <= EXACT_MAX)
		return 1 - 2 * mw_below_exact(n, m, k);
	return 1 - 2 * mw_below_normal(n, m, k);
}

/* The largest k whose coverage is 95% or more; 1 when none is. */
static size_t interval_k(size_t n, size_t m)
{
	double *cdf = n + m <= EXACT_MAX ? mw_cdf_exact(n, m) : NULL;
	size_t k = 1;

	/* P(U < k + 1) at most 2.5%: k + 1 still holds 95%. */
	while (2 * (k + 1) <= n * m + 1 &&
	       (cdf ? cdf[k] : mw_below_normal(n, m, k + 1)) <= 0.025)
		k++;
	free(cdf);
	return k;
}

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* The finite values above 0 of v[0..n) into out, sorted; how many. */
static size_t usable(const double *v, size_t n, double *out)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]) && v[i] > 0)
			out[k++] = v[i];
	qsort(out, k, sizeof(*out), by_value);
	return k;
}

static double median_of_sorted(const double *v, size_t n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void stats_unpaired(const double *a, size_t na, const double *b, size_t nb,
		    struct stats_ratio *r)
{
	double *la = malloc((na ? na : 1) * sizeof(*la));
	double *lb = malloc((nb ? nb : 1) * sizeof(*lb));
	double *d = NULL;
	size_t n, m, k, p = 0;

	*r = (struct stats_ratio){ .median = NAN, .lo = NAN, .hi = NAN };
	if (!la || !lb)
		goto out;
	n = usable(a, na, la);
	m = usable(b, nb, lb);
	if (!n || !m || n > STATS_UNPAIRED_MAX_PAIRS / m)
		goto out;
	d = malloc(n * m * sizeof(*d));
	if (!d)
		goto out;
	r->median = median_of_sorted(la, n) / median_of_sorted(lb, m);
	for (size_t i = 0; i < n; i++)
		la[i] = log(la[i]);
	for (size_t j = 0; j < m; j++)
		lb[j] = log(lb[j]);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < m; j++) {
			d[p] = la[i] - lb[j];
			r->above += d[p] > 0;
			r->below += d[p] < 0;
			p++;
		}
	qsort(d, p, sizeof(*d), by_value);
	k = interval_k(n, m);
	r->n = p;
	r->lo = exp(d[k - 1]);
	r->hi = exp(d[p - k]);
	r->conf = stats_mw_coverage(n, m, k);
out:
	free(la);
	free(lb);
	free(d);
}
