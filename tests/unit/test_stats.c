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

static void paired(void)
{
	/* The link part's case: one wild round among steady ones. */
	double a[] = { 0.12, 0.10, 0.15, 0.07, 0.13, 0.11 };
	double b[] = { 0.45, 0.40, 1.78, 0.50, 0.47, 0.04 };
	double one[] = { 2 }, two[] = { 1 };
	double zero[] = { 1, 1 }, nob[] = { 0, 4 };
	struct stats_ratio r;

	CHECK(near(stats_sign_coverage(5, 1), 1 - 2.0 / 32, 1e-12), "5 rounds: min..max covers 93.75%%");
	CHECK(near(stats_sign_coverage(6, 1), 1 - 2.0 / 64, 1e-12), "6 rounds: min..max covers 96.9%%");
	CHECK(near(stats_sign_coverage(9, 2), 1 - 2 * 10.0 / 512, 1e-12),
	      "9 rounds: 2nd..8th cover 96.1%%");
	CHECK(stats_sign_coverage(4, 3) == 0 && stats_sign_coverage(4, 0) == 0,
	      "no interval beyond the middle");

	stats_ratios(a, b, 6, &r);
	CHECK(r.n == 6 && r.below == 5 && r.above == 1, "5 of 6 rounds below 1 (got %zu/%zu)",
	      r.below, r.above);
	CHECK(near(r.median, (0.10 / 0.40 + 0.12 / 0.45) / 2, 1e-9),
	      "median of the ratios, not the ratio of medians (got %g)", r.median);
	CHECK(near(r.lo, 0.15 / 1.78, 1e-9) && near(r.hi, 0.11 / 0.04, 1e-9) &&
	      near(r.conf, 1 - 2.0 / 64, 1e-12), "6 rounds: the least and most ratio, 96.9%%");
	CHECK(a[2] == 0.15 && b[2] == 1.78, "ratios leave the samples as they were");

	double ma[] = { 1.1, 1.2, 0.9, 1.3, 1.05, 1.15, 1.25, 1.0, 1.4, 1.12 };
	double mb[10] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };

	stats_ratios(ma, mb, 10, &r);
	/* 10 rounds: k = 2 covers 97.9%, k = 3 only 89.1%. */
	CHECK(near(r.lo, 1.0, 1e-12) && near(r.hi, 1.3, 1e-12) && r.conf > 0.95 && r.conf < 0.98,
	      "10 rounds: 2nd and 9th ratio (got %g..%g, %g)", r.lo, r.hi, r.conf);
	CHECK(r.above == 8 && r.below == 1, "a ratio of exactly 1 is neither above nor below");

	stats_ratios(one, two, 1, &r);
	CHECK(r.n == 1 && r.median == 2 && r.lo == 2 && r.hi == 2 && r.conf == 0,
	      "one round: its ratio, no coverage");
	stats_ratios(zero, nob, 2, &r);
	CHECK(r.n == 1 && near(r.median, 0.25, 1e-12), "a round with b = 0 is left out");
	stats_ratios(zero, nob, 0, &r);
	CHECK(r.n == 0 && isnan(r.median) && isnan(r.lo), "no rounds: NAN");
}

/* The interval of one sample's median, the verdict word and the rounds
 * that agree: what zcc's comparisons print. */
static void median_interval_and_words(void)
{
	double v[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	double lo, hi, conf;
	struct stats_ratio r;
	double up[] = { 2.0, 1.8, 2.2, 1.9, 2.1 }, base[] = { 1, 1, 1, 1, 1 };
	double mixed[] = { 0.9, 1.1, 0.95, 1.2, 1.0 };
	double down[] = { 0.5, 0.6, 0.4, 0.55, 1.01 };

	conf = stats_median_interval(v, 10, &lo, &hi);
	CHECK(lo == 2 && hi == 9 && conf > 0.97 && conf < 0.98,
	      "10 values: 2nd..9th, 97.9%% (got %g..%g, %g)", lo, hi, conf);
	conf = stats_median_interval(v, 5, &lo, &hi);
	CHECK(lo == 1 && hi == 5 && near(conf, 0.9375, 1e-12), "5 values: least..most, 93.75%%");
	conf = stats_median_interval(v, 0, &lo, &hi);
	CHECK(conf == 0 && isnan(lo) && isnan(hi), "no values: no interval");

	stats_ratios(up, base, 5, &r);
	CHECK(stats_ratio_verdict(&r) == STATS_MORE && stats_ratio_agree(&r) == 5,
	      "every ratio above 1: more, 5 agree");
	stats_ratios(base, up, 5, &r);
	CHECK(stats_ratio_verdict(&r) == STATS_LESS && stats_ratio_agree(&r) == 5,
	      "every ratio below 1: less, 5 agree");
	stats_ratios(mixed, base, 5, &r);
	CHECK(stats_ratio_verdict(&r) == STATS_UNRESOLVED, "an interval holding 1: unresolved");
	CHECK(stats_ratio_agree(&r) == 0, "median ratio exactly 1: none agree");
	stats_ratios(down, base, 5, &r);
	CHECK(stats_ratio_verdict(&r) == STATS_UNRESOLVED && stats_ratio_agree(&r) == 4,
	      "4 of 5 below 1: the interval holds 1, 4 agree (got %zu)", stats_ratio_agree(&r));
	stats_ratios(up, base, 1, &r);
	CHECK(stats_ratio_verdict(&r) == STATS_UNRESOLVED, "one round covers nothing: unresolved");
}

int main(void)
{
	medians();
	extremes_and_mean();
	deviation();
	student_t();
	summary();
	verdicts();
	paired();
	median_interval_and_words();
	return t_exit();
}
