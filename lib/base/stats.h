/*
 * The statistics of repeated runs: median, least, most, mean, standard
 * deviation, the Student-t 95% interval of the mean, and the verdict on two
 * samples taken in the same rounds. zcc's rounds, the bench (through
 * tests/tools/zcstat) and the tests all use these, so a figure is summarised
 * one way everywhere.
 */
#ifndef ZC_STATS_H
#define ZC_STATS_H

#include <stddef.h>

/* stats_sort - sort v[0..n) in place, smallest first. */
void stats_sort(double *v, size_t n);

/*
 * stats_median - the middle value of v[0..n) (the mean of the two middle
 * ones when n is even). Sorts v in place. NAN when n is 0.
 */
double stats_median(double *v, size_t n);

/* stats_min, stats_max, stats_mean - of v[0..n); NAN when n is 0. */
double stats_min(const double *v, size_t n);
double stats_max(const double *v, size_t n);
double stats_mean(const double *v, size_t n);

/* stats_sd - the sample standard deviation (n - 1); NAN when n < 2. */
double stats_sd(const double *v, size_t n);

/*
 * stats_t95 - the two-sided 95% critical value of Student's t with df
 * degrees of freedom (12.706 for 1, tending to 1.960); NAN for df 0.
 */
double stats_t95(size_t df);

/* A sample summarised. half is the half width of the 95% interval of the
 * mean, lo and hi its ends: NAN with fewer than two values. */
struct stats_sum {
	size_t n;
	double median, min, max, mean, sd, half, lo, hi;
};

/* stats_summarise - fill *s from v[0..n), which is sorted in place. */
void stats_summarise(double *v, size_t n, struct stats_sum *s);

/*
 * The verdict on two samples a and b of the same rounds (a[i] and b[i]
 * measured in round i). A difference is "resolved" only when a is on the
 * same side of b in every round AND the two 95% intervals do not overlap:
 * either alone is too easily met by noise in a handful of rounds.
 */
enum stats_verdict {
	STATS_UNRESOLVED = 0,
	STATS_LESS,		/* a below b, resolved */
	STATS_MORE,		/* a above b, resolved */
};

/*
 * stats_compare - the verdict on a[0..n) against b[0..n) (left unchanged).
 * When why is given it is set to a short reason for an unresolved verdict
 * ("fewer than 2 rounds", "rounds disagree in sign", "intervals overlap"),
 * or to "" when resolved.
 */
enum stats_verdict stats_compare(const double *a, const double *b, size_t n,
				 const char **why);

/*
 * The paired view of two samples of the same rounds: the figure is each
 * round's ratio a[i] / b[i], and the verdict rests on those ratios, so that
 * one wild round moves one ratio rather than blowing open an interval.
 * The interval of the median ratio is distribution-free: the order
 * statistics k and n+1-k of the ratios, k the largest that keeps the
 * binomial coverage at 95% or more. Fewer than 6 rounds cannot reach 95%:
 * then it is the least and the most ratio, and conf says what they cover
 * (93.75% for 5, 87.5% for 4, 75% for 3, 0 for fewer).
 */
struct stats_ratio {
	size_t n;		/* rounds with a usable ratio (b[i] > 0) */
	double median, lo, hi;	/* NAN when n is 0 */
	double conf;		/* the interval's coverage, 0..1 */
	size_t above, below;	/* rounds with a ratio above 1, below 1 */
};

/*
 * stats_ratios - *r from a[0..n) over b[0..n) (left unchanged); a round
 * whose b is not above 0 or whose ratio is not finite is left out.
 */
void stats_ratios(const double *a, const double *b, size_t n, struct stats_ratio *r);

/* stats_sign_coverage - the coverage of the order statistics k and n+1-k
 * (1-based) as an interval of the median of n values: 1 - 2 P(X < k),
 * X binomial (n, 1/2). 0 when k is 0 or above (n + 1) / 2. */
double stats_sign_coverage(size_t n, size_t k);

/*
 * stats_median_interval - the distribution-free interval of the median of
 * v[0..n), which must be sorted (stats_sort): *lo and *hi the order
 * statistics k and n+1-k, k the largest whose coverage is 95% or more (the
 * least and most value when n < 6). Returns the coverage, 0..1; NANs and 0
 * when n is 0. stats_ratios' interval is this one, of the ratios.
 */
double stats_median_interval(const double *v, size_t n, double *lo, double *hi);

/*
 * stats_ratio_verdict - the word on a ratio summary of "a against b":
 * STATS_LESS when its whole interval lies below 1 (a is the smaller in
 * all but the rounds the interval leaves out), STATS_MORE when wholly
 * above 1, STATS_UNRESOLVED when the interval holds 1 or there is no ratio.
 */
enum stats_verdict stats_ratio_verdict(const struct stats_ratio *r);

/*
 * stats_ratio_agree - how many of the rounds put a on the side of 1 the
 * median ratio is on (above for a median above 1, below for one below 1);
 * 0 when the median is 1 or missing.
 */
size_t stats_ratio_agree(const struct stats_ratio *r);

#endif
