/*
 * A latency histogram on the log-linear idea: constant memory, O(1)
 * recording, exact merging, percentiles with a stated relative error at
 * any magnitude, from 0 ns to UINT64_MAX ns.
 *
 * Buckets. Values below 2 * HIST_SUB (128 ns) have a bucket each. Above,
 * every power of two [2^e, 2^(e+1)) is cut into HIST_SUB equal buckets
 * of width 2^(e - HIST_SUB_BITS). A bucket is reported by its
 * representative, the middle of the bucket, rounded down (the value
 * itself where the width is 1). So a bucket whose lowest value is
 * lo >= 2^e and whose width is w <= 2^e / HIST_SUB holds values v with
 * |rep - v| <= w / 2, and
 *
 *     |rep - v| / v <= (w / 2) / lo <= 1 / (2 * HIST_SUB) = HIST_REL_ERR
 *
 * which is 1/128, 0.78%: every percentile below is within that of the
 * exact order statistic it stands for (which lies in the same bucket).
 * Clamping to [min, max] only moves it closer. The price is
 * HIST_BUCKETS counters of 8 bytes (about 30 KiB), in the struct itself:
 * no allocation, so a flow or an interval can hold one.
 *
 * Mean and standard deviation come from running sums, not buckets: the
 * sum in 128 bits and the sum of squares in 192, both exact (no sum of
 * 2^64 values can overflow them) and merged by adding. The variance's
 * numerator, n * sum of squares - sum^2, is formed exactly in 256 bits
 * before its one rounding to long double, so nothing cancels however
 * small the spread beside the mean. A record is a multiply and a few
 * adds, no division: it costs next to nothing beside a message.
 *
 * Use (zcc --rr, and zcs for one-way times): each flow records into its
 * own histogram, one for the run and one for the current interval; an
 * -I line reads the interval's and resets it; the run's summary merges
 * the flows'. --budget sets the one budget counted exactly. --plot and
 * JSON walk the non-empty buckets with hist_next. The histogram does
 * not lock: one writer at a time, merged after.
 */
#ifndef ZC_HIST_H
#define ZC_HIST_H

#include <stddef.h>
#include <stdint.h>

#define HIST_SUB_BITS 6
#define HIST_SUB ((size_t)1 << HIST_SUB_BITS)	/* buckets per power of two */
/* Powers 2^HIST_SUB_BITS .. 2^63 each HIST_SUB buckets, below them 2 * HIST_SUB. */
#define HIST_BUCKETS ((64 - HIST_SUB_BITS + 1) * HIST_SUB)
#define HIST_REL_ERR (1.0 / (2 * HIST_SUB))	/* the bound above */

struct hist {
	uint64_t n;			/* values recorded */
	uint64_t min, max;		/* exact; min UINT64_MAX when n is 0 */
	unsigned __int128 sum;		/* exact */
	unsigned __int128 sq_lo;	/* the sum of squares, exact: */
	uint64_t sq_hi;			/*   sq_hi * 2^128 + sq_lo */
	uint64_t budget;		/* the exactly counted budget, ns */
	uint64_t over;			/* values > budget */
	uint64_t count[HIST_BUCKETS];
};

/* One non-empty bucket: its values are lo..hi (inclusive), shown as rep. */
struct hist_bucket {
	uint64_t lo, hi, rep, count;
};

/*
 * hist_init - empty, counting exactly the values above budget_ns
 * (UINT64_MAX: no budget, hist_over_budget is then 0).
 */
void hist_init(struct hist *h, uint64_t budget_ns);

/* hist_reset - empty again, the budget kept. */
void hist_reset(struct hist *h);

/* hist_record - one value, in ns. */
void hist_record(struct hist *h, uint64_t v);

/*
 * hist_merge - add every value of from into into, exactly as if each had
 * been recorded there. -1 (into unchanged) when the two count different
 * budgets, else 0.
 */
int hist_merge(struct hist *into, const struct hist *from);

static inline uint64_t hist_count(const struct hist *h) { return h->n; }
/* hist_min, hist_max - exact; 0 when empty. */
static inline uint64_t hist_min(const struct hist *h) { return h->n ? h->min : 0; }
static inline uint64_t hist_max(const struct hist *h) { return h->max; }

/* hist_mean - exact to the division, ns; 0 when empty. */
double hist_mean(const struct hist *h);

/* hist_sd - the sample standard deviation (n - 1), ns, to long double
 * precision; 0 below two values. */
double hist_sd(const struct hist *h);

/*
 * hist_at - the value at percentile q (0..100): the k-th smallest value,
 * k = ceil(n * q / 100) and at least 1, with q taken to 1e-7 of a percent
 * (so 99.99 is exactly 99.99). That is the smallest recorded v such that
 * at least q% of the values are <= v. Reported as its bucket's
 * representative clamped to [min, max]: within HIST_REL_ERR of v, and
 * exact for k = 1 (the min) and k = n (the max). 0 when empty.
 */
uint64_t hist_at(const struct hist *h, double q);

/* hist_over_budget - the values above the budget of hist_init: exact. */
static inline uint64_t hist_over_budget(const struct hist *h) { return h->over; }

/*
 * hist_over - the values above t ns, from the buckets: exact when t is
 * below min, at or above max, or the top of a bucket (t + 1 is a bucket's
 * lowest value; every value below 2 * HIST_SUB is). Otherwise the bucket
 * holding t counts as not over: an undercount of at most that bucket's
 * values, none of which is more than HIST_REL_ERR * 2 above t.
 */
uint64_t hist_over(const struct hist *h, uint64_t t);

/*
 * hist_next - the first non-empty bucket at or after *cursor (start with
 * 0), smallest values first: fills *b and advances *cursor past it;
 * 0 when there is none left.
 */
int hist_next(const struct hist *h, size_t *cursor, struct hist_bucket *b);

/* hist_index, hist_lo, hist_hi - the bucket of v, and a bucket's bounds. */
size_t hist_index(uint64_t v);
uint64_t hist_lo(size_t i);
uint64_t hist_hi(size_t i);

#endif
