/* lib/base/stats.c: the summaries and the verdict every figure goes through. */
#include <math.h>
#include <string.h>

#include "base/stats.h"
#include "unit/t.h"

static int near(double got, double want, double tol)
{
	return fabs(got - want) <= tol;
}

static void medians(void)
{
	double odd[] = { 5, 1, 3 };
	double even[] = { 4, 1, 3, 2 };
	double one[] = { -7.5 };
	double neg[] = { -1, -3, -2, 10, -5 };

	CHECK(stats_median(odd, 3) == 3, "median of 5 1 3 is 3");
	CHECK(odd[0] == 1 && odd[1] == 3 && odd[2] == 5, "median sorts in place");
	CHECK(stats_median(even, 4) == 2.5, "median of four is the mean of the middle two");
	CHECK(stats_median(one, 1) == -7.5, "median of one value is that value");
	CHECK(stats_median(neg, 5) == -2, "median with negatives");
	CHECK(isnan(stats_median(odd, 0)), "median of nothing is NAN");
}

static void extremes_and_mean(void)
{
	double v[] = { 2, -4, 9, 0.5 };

	CHECK(stats_min(v, 4) == -4, "min");
	CHECK(stats_max(v, 4) == 9, "max");
	CHECK(near(stats_mean(v, 4), 1.875, 1e-12), "mean");
	CHECK(isnan(stats_min(v, 0)) && isnan(stats_max(v, 0)) && isnan(stats_mean(v, 0)),
	      "min, max, mean of nothing are NAN");
}

static void deviation(void)
{
	/* mean 5, squares sum 32, n - 1 = 7: sd = sqrt(32 / 7) */
	double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	double same[] = { 3, 3, 3 };
	double big[] = { 1e150, 3e150 };
	double sd = stats_sd(v, 8);

	CHECK(near(sd, sqrt(32.0 / 7), 1e-9), "sample sd (got %.12f)", sd);
	CHECK(stats_sd(same, 3) == 0, "sd of equal values is 0");
	CHECK(isnan(stats_sd(v, 1)), "sd of one value is NAN");
	CHECK(near(stats_sd(big, 2) / 1e150, sqrt(2), 1e-9), "sd of huge values");
}

static void student_t(void)
{
	CHECK(near(stats_t95(1), 12.706, 0.001), "t95(1) 12.706");
	CHECK(near(stats_t95(4), 2.776, 0.001), "t95(4) 2.776");
	CHECK(near(stats_t95(30), 2.042, 0.001), "t95(30) 2.042");
	CHECK(near(stats_t95(40), 2.021, 0.002), "t95(40) 2.021 (got %.4f)", stats_t95(40));
	CHECK(near(stats_t95(120), 1.980, 0.002), "t95(120) 1.980 (got %.4f)", stats_t95(120));
	CHECK(near(stats_t95(1000000), 1.960, 0.001), "t95 tends to 1.960");
	CHECK(stats_t95(31) < stats_t95(30) && stats_t95(31) > stats_t95(32),
	      "t95 falls smoothly past the table");
	CHECK(isnan(stats_t95(0)), "t95(0) is NAN");
}

static void summary(void)
{
	/* 10 12 14: mean 12, sd 2, half = 4.3027 * 2 / sqrt(3) */
	double v[] = { 14, 10, 12 };
	struct stats_sum s;

	stats_summarise(v, 3, &s);
	CHECK(s.n == 3 && s.median == 12 && s.min == 10 && s.max == 14 && s.mean == 12,
	      "summary: n, median, min, max, mean");
	CHECK(near(s.half, 4.3027 * 2 / sqrt(3), 1e-3) && near(s.lo, 12 - s.half, 1e-12) &&
	      near(s.hi, 12 + s.half, 1e-12), "summary: 95%% interval (half %.4f)", s.half);
	stats_summarise(v, 1, &s);
	CHECK(s.n == 1 && isnan(s.half) && s.median == v[0], "summary of one: no interval");
}

/* One verdict, checked with its reason. */
static void verdict(const double *a, const double *b, size_t n,
		    enum stats_verdict want, const char *want_why, const char *what)
{
	const char *why = NULL;
	enum stats_verdict got = stats_compare(a, b, n, &why);

	CHECK(got == want && why && strcmp(why, want_why) == 0,
	      "%s (got %d, '%s')", what, (int)got, why ? why : "(null)");
}

static void verdicts(void)
{
	double lo[] = { 1.0, 1.1, 0.9, 1.0, 1.05 };
	double hi[] = { 3.0, 3.2, 2.9, 3.1, 3.0 };
	double cross[] = { 3.0, 3.2, 0.8, 3.1, 3.0 };	/* below lo once */
	double noisy[] = { 0.5, 6.0, 0.6, 5.5, 0.4 };
	double up[] = { 0.6, 6.1, 0.7, 5.6, 0.5 };	/* above noisy every round */

	verdict(lo, hi, 5, STATS_LESS, "", "clear difference: less, resolved");
	verdict(hi, lo, 5, STATS_MORE, "", "the other way: more, resolved");
	verdict(cross, lo, 5, STATS_UNRESOLVED, "rounds disagree in sign",
		"one round the other way: unresolved");
	verdict(noisy, up, 5, STATS_UNRESOLVED, "intervals overlap",
		"same sign every round, overlapping intervals: unresolved");
	verdict(lo, lo, 5, STATS_UNRESOLVED, "rounds disagree in sign",
		"equal rounds are no difference");
	verdict(lo, hi, 1, STATS_UNRESOLVED, "fewer than 2 rounds",
		"one round resolves nothing");
	CHECK(lo[0] == 1.0 && hi[4] == 3.0 && noisy[1] == 6.0,
	      "compare leaves its samples as they were");
}

int main(void)
{
	medians();
	extremes_and_mean();
	deviation();
	student_t();
	summary();
	verdicts();
	return t_exit();
}
