/*
 * lib/base/stats_unpaired.c: two runs' rounds against each other. Every
 * figure below was worked out by hand (the sums in the comments), not by
 * running the code, so the code is checked against an independent count.
 */
#include <math.h>
#include <stdlib.h>

#include "base/stats_unpaired.h"
#include "unit/t.h"

static int near(double got, double want, double tol)
{
	return fabs(got - want) <= tol;
}

/*
 * The Mann-Whitney law by counting. 5 against 5: C(10,5) = 252 orderings;
 * U = 0, 1, 2, 3 have 1, 1, 2, 3 of them (the partitions of u into at most
 * 5 parts of at most 5). P(U < 3) = 4/252, coverage 1 - 8/252 = 0.968254;
 * P(U < 4) = 7/252, coverage 0.944444. 4 against 4: C(8,4) = 70, U = 0 and
 * 1 one ordering each: k = 1 covers 1 - 2/70 = 0.971429, k = 2 covers
 * 1 - 4/70 = 0.942857. 3 against 3: C(6,3) = 20, k = 1 covers 1 - 2/20.
 * 10 against 10: the published tables' two-sided 5% critical value of U
 * is 23, so the 24th smallest difference still covers 95% and the 25th
 * does not.
 */
static void coverage(void)
{
	CHECK(near(stats_mw_coverage(5, 5, 3), 1 - 8.0 / 252, 1e-9), "5 vs 5, k 3: 0.968254");
	CHECK(near(stats_mw_coverage(5, 5, 4), 1 - 14.0 / 252, 1e-9), "5 vs 5, k 4: 0.944444");
	CHECK(near(stats_mw_coverage(4, 4, 1), 1 - 2.0 / 70, 1e-9), "4 vs 4, k 1: 0.971429");
	CHECK(near(stats_mw_coverage(4, 4, 2), 1 - 4.0 / 70, 1e-9), "4 vs 4, k 2: 0.942857");
	CHECK(near(stats_mw_coverage(3, 3, 1), 0.9, 1e-9), "3 vs 3, k 1: 0.9");
	CHECK(stats_mw_coverage(10, 10, 24) >= 0.95 && stats_mw_coverage(10, 10, 25) < 0.95,
	      "10 vs 10: k 24 is the table's (critical U 23)");
	CHECK(stats_mw_coverage(5, 5, 0) == 0 && stats_mw_coverage(5, 5, 14) == 0,
	      "no coverage for k 0 or past the middle");
	/* Beyond the exact counts, the normal law: for 300 against 300 the
	 * 95% k is about nm/2 - 1.96 sd, sd = sqrt(90000 * 601 / 12) = 2123.1:
	 * 45000 - 4161.3 = 40839. */
	CHECK(stats_mw_coverage(300, 300, 40700) > 0.95 &&
	      stats_mw_coverage(300, 300, 40950) < 0.95, "300 vs 300: the normal law's k");
}

/*
 * a = 2 3 4 5 6 against b = 1 2 3 4 5. Ratio of the medians 4/3. The 25
 * ratios a/b, smallest first: 0.4 (2/5), 0.5 (2/4), 0.6 (3/5), 0.667 ...;
 * largest first: 6 (6/1), 5 (5/1), 4 (4/1), 3 (6/2, 3/1) ...; 5 vs 5 takes
 * k = 3, so the interval is [0.6, 4]: it holds 1. Above 1: 1 + 2 + 3 + 4 + 5 =
 * 15 pairs (a = 2: 2/1; a = 3: 3/1, 3/2; ...); below: 3 + 2 + 1 = 6
 * (2/3, 2/4, 2/5; 3/4, 3/5; 4/5); 4 pairs equal.
 */
static void overlapping(void)
{
	double a[] = { 6, 2, 4, 3, 5 }, b[] = { 3, 1, 5, 2, 4 };
	struct stats_ratio r;

	stats_unpaired(a, 5, b, 5, &r);
	CHECK(r.n == 25, "25 pairs (%zu)", r.n);
	CHECK(near(r.median, 4.0 / 3, 1e-12), "ratio of the medians 4/3 (%g)", r.median);
	CHECK(near(r.lo, 0.6, 1e-12) && near(r.hi, 4, 1e-12),
	      "interval [0.6, 4] (%g, %g)", r.lo, r.hi);
	CHECK(near(r.conf, 1 - 8.0 / 252, 1e-9), "coverage 0.968 (%g)", r.conf);
	CHECK(r.above == 15 && r.below == 6, "15 pairs above 1, 6 below (%zu, %zu)",
	      r.above, r.below);
	CHECK(a[0] == 6 && b[0] == 3, "the samples are left as they were");
}

/*
 * a = 1.0 .. 1.4 against b = 2.0 .. 2.4 (steps of 0.1): the ratio of the
 * medians 1.2/2.2 = 0.545455. Smallest ratios: 1.0/2.4 = 0.41667,
 * 1.0/2.3 = 0.43478, 1.0/2.2 = 0.45455, then 1.1/2.4 = 0.45833: the third
 * is 1/2.2. Largest: 1.4/2.0 = 0.7, 1.4/2.1 = 0.66667, 1.3/2.0 = 0.65,
 * then 1.4/2.2 = 0.63636: the third is 0.65. Wholly below 1: cheaper.
 */
static void below(void)
{
	double a[] = { 1.0, 1.1, 1.2, 1.3, 1.4 }, b[] = { 2.0, 2.1, 2.2, 2.3, 2.4 };
	struct stats_ratio r;

	stats_unpaired(a, 5, b, 5, &r);
	CHECK(near(r.median, 1.2 / 2.2, 1e-12), "ratio of the medians 0.5455 (%g)", r.median);
	CHECK(near(r.lo, 1.0 / 2.2, 1e-12), "lower end 1/2.2 (%g)", r.lo);
	CHECK(near(r.hi, 0.65, 1e-12), "upper end 1.3/2.0 (%g)", r.hi);
	CHECK(r.above == 0 && r.below == 25, "every pair below 1");
}

/*
 * Even counts and too few: a = 1 2 3 4 against four 1s: medians 2.5 and 1;
 * 4 vs 4 reaches 95% only with k = 1: [1, 4], 0.971. One against one: the
 * single ratio, coverage 0.
 */
static void small(void)
{
	double a[] = { 1, 2, 3, 4 }, b[] = { 1, 1, 1, 1 }, two[] = { 2 }, one[] = { 1 };
	struct stats_ratio r;

	stats_unpaired(a, 4, b, 4, &r);
	CHECK(near(r.median, 2.5, 1e-12), "even counts: 2.5/1 (%g)", r.median);
	CHECK(near(r.lo, 1, 1e-12) && near(r.hi, 4, 1e-12), "4 vs 4: [1, 4]");
	CHECK(near(r.conf, 1 - 2.0 / 70, 1e-9), "4 vs 4: 0.971 (%g)", r.conf);
	stats_unpaired(two, 1, one, 1, &r);
	CHECK(r.n == 1 && r.median == 2 && r.lo == 2 && r.hi == 2 && r.conf == 0,
	      "one against one: the ratio, no coverage");
}

static void unusable(void)
{
	double a[] = { NAN, -1, 0, 2 }, b[] = { 1 }, none[] = { 0 };
	double *big = calloc(1001, sizeof(*big));
	struct stats_ratio r;

	stats_unpaired(a, 4, b, 1, &r);
	CHECK(r.n == 1 && r.median == 2, "NAN, negative and 0 values left out");
	stats_unpaired(none, 1, b, 1, &r);
	CHECK(r.n == 0 && isnan(r.median) && isnan(r.lo) && isnan(r.hi),
	      "nothing usable on a side: no figures");
	stats_unpaired(a, 0, b, 1, &r);
	CHECK(r.n == 0 && isnan(r.median), "an empty side: no figures");
	for (int i = 0; big && i < 1001; i++)
		big[i] = 1 + i;
	if (big) {
		stats_unpaired(big, 1001, big, 1000, &r);
		CHECK(r.n == 0 && isnan(r.median), "more than %d pairs: refused",
		      STATS_UNPAIRED_MAX_PAIRS);
	}
	free(big);
}

/*
 * A large exact case and the normal law against each other: 150 values
 * against 150 with a shift of 1.5x: the interval holds 1.5, its coverage
 * is at least 95% and not much more.
 */
static void large(void)
{
	static double a[300], b[300];
	struct stats_ratio r;

	for (int i = 0; i < 300; i++) {
		b[i] = 100 + (i * 37) % 50;
		a[i] = 1.5 * b[i];
	}
	stats_unpaired(a, 150, b, 150, &r);
	CHECK(r.lo <= 1.5 && r.hi >= 1.5 && r.conf >= 0.95 && r.conf < 0.96,
	      "150 vs 150 exact: [%g, %g] holds 1.5, coverage %g", r.lo, r.hi, r.conf);
	stats_unpaired(a, 300, b, 300, &r);
	CHECK(r.lo <= 1.5 && r.hi >= 1.5 && r.conf >= 0.95 && r.conf < 0.96,
	      "300 vs 300 normal: [%g, %g] holds 1.5, coverage %g", r.lo, r.hi, r.conf);
}

int main(void)
{
	coverage();
	overlapping();
	below();
	small();
	unusable();
	large();
	return t_exit();
}
