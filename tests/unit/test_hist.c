/*
 * lib/base/hist.c against the exact figures of the same values sorted:
 * percentiles within the stated bound (and the contract's 1%) of the
 * order statistic hist.h defines, min, max, mean and deviation against a
 * two-pass computation (exact to long double even for a spread of 1 ns
 * beside a mean of 2^62), the budget count exact, merge the same as
 * recording everything into one, on synthetic sets from a fixed seed.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/hist.h"
#include "tools/rng.h"
#include "unit/t.h"

#define MAX_VALUES 200000

static uint64_t vals[MAX_VALUES];
static struct hist h, a, b;

/* A double in (0, 1], from 53 random bits. */
static double unit(void)
{
	uint64_t r = ((uint64_t)rnd() << 32 | rnd()) >> 11;

	return (double)(r + 1) / 9007199254740992.0;
}

/* The synthetic sets: fill vals, return how many. */
static size_t make_set(int which)
{
	size_t n = MAX_VALUES;

	for (size_t i = 0; i < n; i++) {
		switch (which) {
		case 0:		/* uniform, 1 us .. 1 ms */
			vals[i] = 1000 + below(999000);
			break;
		case 1:		/* exponential, mean 50 us */
			vals[i] = (uint64_t)(-50000.0 * log(unit()));
			break;
		case 2:		/* bimodal: 20 us and 2 ms, some spread each */
			vals[i] = below(10) ? 20000 + below(500) : 2000000 + below(40000);
			break;
		case 3:		/* heavy tail (Pareto 1.1) with a few huge outliers */
			vals[i] = i % 40000 == 7 ? 1000000000000ull * (1 + below(1000))
					       : (uint64_t)(1000.0 / pow(unit(), 1 / 1.1));
			break;
		case 4:		/* all equal */
			vals[i] = 123457;
			break;
		case 5:		/* 0 and 1 ns */
			vals[i] = below(3) ? 0 : 1;
			break;
		case 6:		/* near UINT64_MAX */
			vals[i] = UINT64_MAX - below(1u << 31) * (uint64_t)below(1u << 31);
			break;
		default:	/* 1 ns of spread beside a mean of 2^62 */
			vals[i] = (1ull << 62) + (i & 1);
			break;
		}
	}
	return which == 4 ? 1000 : n;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t p = *(const uint64_t *)x, q = *(const uint64_t *)y;

	return p < q ? -1 : p > q;
}

/* The order statistic hist.h defines, from the sorted values. */
static uint64_t exact_at(const uint64_t *sorted, size_t n, double q)
{
	unsigned __int128 part = (unsigned __int128)llround(q * 1e7);
	uint64_t k = (uint64_t)((part * n + 999999999) / 1000000000);

	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return sorted[k - 1];
}

static int within(uint64_t got, uint64_t want, double rel)
{
	long double d = (long double)got - (long double)want;

	return fabsl(d) <= rel * (long double)want;
}

/* Every q of the list and a thousand random ones, against the sort. */
static void check_percentiles(const char *set, const uint64_t *sorted, size_t n)
{
	static const double qs[] = { 0, 1, 10, 50, 90, 99, 99.9, 99.99, 99.999, 100 };
	unsigned bad = 0, bad1 = 0;
	uint64_t got, want;
	double q;

	for (unsigned i = 0; i < 1000 + sizeof(qs) / sizeof(qs[0]); i++) {
		q = i < sizeof(qs) / sizeof(qs[0]) ? qs[i] : unit() * 100;
		got = hist_at(&h, q);
		want = exact_at(sorted, n, q);
		bad += !within(got, want, HIST_REL_ERR);
		bad1 += !within(got, want, 0.01);
		if (!within(got, want, HIST_REL_ERR) && bad < 4)
			printf("# %s: p%g: %llu, exact %llu\n", set, q,
			       (unsigned long long)got, (unsigned long long)want);
	}
	CHECK(bad == 0 && bad1 == 0, "%s: every percentile within %.2f%% of the sort (%u off)",
	      set, HIST_REL_ERR * 100, bad);
	CHECK(hist_at(&h, 0) == sorted[0] && hist_at(&h, 100) == sorted[n - 1],
	      "%s: p0 is the min and p100 the max, exactly", set);
}

static void check_moments(const char *set, const uint64_t *sorted, size_t n)
{
	unsigned __int128 sum = 0;
	long double dev = 0, mean, sd;

	if (n == 0)
		return;
	/* the mean to the precision of a long double, however large the sum */
	for (size_t i = 0; i < n; i++)
		sum += sorted[i];
	mean = (long double)(uint64_t)(sum / n) + (long double)(uint64_t)(sum % n) / n;
	for (size_t i = 0; i < n; i++)
		dev += ((long double)sorted[i] - mean) * ((long double)sorted[i] - mean);
	sd = n > 1 ? sqrtl(dev / (n - 1)) : 0;
	CHECK(hist_count(&h) == n && hist_min(&h) == sorted[0] && hist_max(&h) == sorted[n - 1],
	      "%s: count, min and max exact", set);
	CHECK(fabsl(hist_mean(&h) - mean) <= 1e-12L * mean,
	      "%s: mean %.6Lg as two passes give (%.6g)", set, mean, hist_mean(&h));
	CHECK(fabsl(hist_sd(&h) - sd) <= 1e-12L * sd + 1e-9L,
	      "%s: standard deviation %.9Lg as two passes give (%.9g)", set, sd, hist_sd(&h));
}

/* The budget: exact at any value; hist_over exact at a bucket's top, and
 * short by at most the bucket holding t elsewhere. */
static void check_budget(const char *set, const uint64_t *sorted, size_t n, uint64_t budget)
{
	uint64_t over = 0, over_edge = 0, edge = hist_hi(hist_index(budget)), got;

	for (size_t i = 0; i < n; i++) {
		over += sorted[i] > budget;
		over_edge += sorted[i] > edge;
	}
	CHECK(hist_over_budget(&h) == over, "%s: over the budget %llu: %llu, exactly (%llu)",
	      set, (unsigned long long)budget, (unsigned long long)over,
	      (unsigned long long)hist_over_budget(&h));
	CHECK(hist_over(&h, edge) == over_edge, "%s: over a bucket's top %llu: exact", set,
	      (unsigned long long)edge);
	got = hist_over(&h, budget);
	CHECK(got <= over && over - got <= h.count[hist_index(budget)],
	      "%s: over %llu from the buckets: short by at most its bucket (%llu of %llu)",
	      set, (unsigned long long)budget, (unsigned long long)got, (unsigned long long)over);
}

/* Two halves, split at random, merged: the same as all in one. */
static void check_merge(const char *set, size_t n, uint64_t budget)
{
	struct hist_bucket x, y;
	size_t cx = 0, cy = 0;
	int same = 1;

	hist_init(&a, budget);
	hist_init(&b, budget);
	for (size_t i = 0; i < n; i++)
		hist_record(below(3) ? &a : &b, vals[i]);
	CHECK(hist_merge(&a, &b) == 0, "%s: merge of the same budget", set);
	same = a.n == h.n && a.min == h.min && a.max == h.max && a.sum == h.sum &&
	       a.sq_lo == h.sq_lo && a.sq_hi == h.sq_hi && a.over == h.over &&
	       memcmp(a.count, h.count, sizeof(a.count)) == 0;
	while (hist_next(&h, &cx, &x) && same)
		same = hist_next(&a, &cy, &y) && memcmp(&x, &y, sizeof(x)) == 0;
	CHECK(same && !hist_next(&a, &cy, &y) && hist_sd(&a) == hist_sd(&h),
	      "%s: merged halves: the same counts, buckets, extremes, sums and budget", set);
}

static void check_set(int which, const char *set)
{
	size_t n = make_set(which);
	uint64_t budget;

	budget = vals[n / 2] - vals[n / 2] / 300;	/* inside the set, off an edge */
	hist_init(&h, budget);
	for (size_t i = 0; i < n; i++)
		hist_record(&h, vals[i]);
	check_merge(set, n, budget);
	qsort(vals, n, sizeof(vals[0]), cmp_u64);
	check_percentiles(set, vals, n);
	check_moments(set, vals, n);
	check_budget(set, vals, n, budget);
}

/* The buckets tile 0..UINT64_MAX in order and keep the stated bound. */
static void check_layout(void)
{
	int ok = hist_lo(0) == 0 && hist_hi(HIST_BUCKETS - 1) == UINT64_MAX, worst = 1;
	double err, max_err = 0;
	uint64_t half;

	for (size_t i = 0; i < HIST_BUCKETS; i++) {
		ok &= hist_index(hist_lo(i)) == i && hist_index(hist_hi(i)) == i;
		if (i + 1 < HIST_BUCKETS)
			ok &= hist_hi(i) + 1 == hist_lo(i + 1);
		if (hist_lo(i)) {
			half = (hist_hi(i) - hist_lo(i) + 1) / 2;
			err = (double)half / (double)hist_lo(i);
			max_err = err > max_err ? err : max_err;
		}
	}
	worst = max_err <= HIST_REL_ERR && HIST_REL_ERR <= 0.01;
	CHECK(ok, "%zu buckets tile 0..2^64-1, each value in its own", HIST_BUCKETS);
	CHECK(worst, "the worst bucket's relative error %.5f: within the stated %.5f, under 1%%",
	      max_err, HIST_REL_ERR);
	CHECK(sizeof(struct hist) < 40000, "a histogram is %zu bytes, fixed", sizeof(struct hist));
}

static void check_edges(void)
{
	struct hist_bucket bk;
	size_t c = 0;

	hist_init(&h, 100);
	CHECK(hist_at(&h, 50) == 0 && hist_min(&h) == 0 && hist_mean(&h) == 0 &&
	      hist_sd(&h) == 0 && !hist_next(&h, &c, &bk), "empty: every figure 0, no bucket");
	hist_record(&h, 987654321);
	CHECK(hist_at(&h, 50) == 987654321 && hist_at(&h, 99.99) == 987654321 &&
	      hist_sd(&h) == 0, "one value: every percentile is it, exactly");
	hist_reset(&h);
	CHECK(hist_count(&h) == 0 && h.budget == 100 && hist_at(&h, 50) == 0,
	      "reset: empty, the budget kept");
	hist_init(&a, 200);
	CHECK(hist_merge(&h, &a) == -1, "merge of different budgets refused");
	for (uint64_t v = 0; v < 10; v++)
		hist_record(&h, v * 1000);
	c = 0;
	for (uint64_t v = 0; hist_next(&h, &c, &bk); v++)
		if (bk.count != 1 || bk.lo > v * 1000 || bk.hi < v * 1000)
			break;
	CHECK(c == HIST_BUCKETS, "ten values: ten buckets in order, each holding its value");
	/* p90 of 0..9000 by 1000 is the 9th value, 8000 */
	CHECK(within(hist_at(&h, 90), 8000, HIST_REL_ERR) && hist_at(&h, 90.01) == 9000,
	      "ten values: p90 is the 9th (%llu), p90.01 the 10th",
	      (unsigned long long)hist_at(&h, 90));
}

int main(void)
{
	static const char *const sets[] = { "uniform", "exponential", "bimodal",
		"heavy tail", "all equal", "0 and 1 ns", "near 2^64", "1 ns beside 2^62" };

	rng_seed(56, 0);
	check_layout();
	check_edges();
	for (int i = 0; i < 8; i++)
		check_set(i, sets[i]);
	return t_exit();
}
