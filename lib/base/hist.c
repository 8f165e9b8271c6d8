#include <math.h>
#include <string.h>

#include "base/hist.h"

/* Percentiles are taken to this fraction of one (1e-9: 1e-7 of a percent). */
#define HIST_Q_UNIT 1000000000ull
#define HIST_Q_PER_PERCENT 1e7

size_t hist_index(uint64_t v)
{
	unsigned e, shift;

	if (v < HIST_SUB)
		return (size_t)v;
	e = 63u - (unsigned)__builtin_clzll(v);
	shift = e - HIST_SUB_BITS;
	/* v >> shift is HIST_SUB..2 * HIST_SUB - 1: the bucket in its power */
	return (size_t)shift * HIST_SUB + (size_t)(v >> shift);
}

/* The power a bucket sits in, as the shift of its width (0: width 1). */
static unsigned bucket_shift(size_t i)
{
	return i < 2 * HIST_SUB ? 0 : (unsigned)(i / HIST_SUB) - 1;
}

uint64_t hist_lo(size_t i)
{
	unsigned shift = bucket_shift(i);

	if (i < 2 * HIST_SUB)
		return i;
	return (uint64_t)(HIST_SUB + i % HIST_SUB) << shift;
}

uint64_t hist_hi(size_t i)
{
	return hist_lo(i) + ((1ull << bucket_shift(i)) - 1);
}

void hist_init(struct hist *h, uint64_t budget_ns)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
	h->budget = budget_ns;
}

void hist_reset(struct hist *h)
{
	hist_init(h, h->budget);
}

void hist_record(struct hist *h, uint64_t v)
{
	long double d;

	h->count[hist_index(v)]++;
	h->n++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	if (v > h->budget)
		h->over++;
	d = (long double)v - h->mean;
	h->mean += d / (long double)h->n;
	h->m2 += d * ((long double)v - h->mean);
}

int hist_merge(struct hist *into, const struct hist *from)
{
	long double na = (long double)into->n, nb = (long double)from->n, d;

	if (into->budget != from->budget)
		return -1;
	if (!from->n)
		return 0;
	/* Chan et al.: the two squared deviations plus the means' distance */
	d = from->mean - into->mean;
	into->m2 += from->m2 + d * d * na * nb / (na + nb);
	into->mean += d * nb / (na + nb);
	into->n += from->n;
	into->sum += from->sum;
	into->over += from->over;
	if (from->min < into->min)
		into->min = from->min;
	if (from->max > into->max)
		into->max = from->max;
	for (size_t i = 0; i < HIST_BUCKETS; i++)
		into->count[i] += from->count[i];
	return 0;
}

double hist_mean(const struct hist *h)
{
	return h->n ? (double)((long double)h->sum / (long double)h->n) : 0;
}

double hist_sd(const struct hist *h)
{
	return h->n > 1 ? (double)sqrtl(h->m2 / (long double)(h->n - 1)) : 0;
}

/* The middle of bucket i, rounded down, within [min, max]. */
static uint64_t representative(const struct hist *h, size_t i)
{
	uint64_t lo = hist_lo(i), rep = lo + (hist_hi(i) - lo) / 2;

	if (rep < h->min)
		rep = h->min;
	if (rep > h->max)
		rep = h->max;
	return rep;
}

/* k = ceil(n * q / 100), 1..n, for q given to 1e-7 of a percent. */
static uint64_t rank(uint64_t n, double q)
{
	unsigned __int128 part;
	uint64_t k;

	if (!(q > 0))
		return 1;
	if (q >= 100)
		return n;
	/* q / 100 as a count of HIST_Q_UNIT-ths, rounded to the nearest */
	part = (unsigned __int128)llround(q * HIST_Q_PER_PERCENT);
	k = (uint64_t)((part * n + HIST_Q_UNIT - 1) / HIST_Q_UNIT);
	return k ? k : 1;
}

uint64_t hist_at(const struct hist *h, double q)
{
	uint64_t k, seen = 0;

	if (!h->n)
		return 0;
	k = rank(h->n, q);
	if (k == 1)
		return h->min;
	if (k == h->n)
		return h->max;
	for (size_t i = 0; i < HIST_BUCKETS; i++) {
		seen += h->count[i];
		if (seen >= k)
			return representative(h, i);
	}
	return h->max;		/* not reached: the counts add up to n */
}

uint64_t hist_over(const struct hist *h, uint64_t t)
{
	uint64_t over = 0;

	if (!h->n || t >= h->max)
		return 0;
	if (t < h->min)
		return h->n;
	/* every bucket above the one holding t; that one's values all count
	 * as not over (exact when t is its top) */
	for (size_t i = hist_index(t) + 1; i < HIST_BUCKETS; i++)
		over += h->count[i];
	return over;
}

int hist_next(const struct hist *h, size_t *cursor, struct hist_bucket *b)
{
	for (size_t i = *cursor; i < HIST_BUCKETS; i++) {
		if (!h->count[i])
			continue;
		b->lo = hist_lo(i);
		b->hi = hist_hi(i);
		b->rep = representative(h, i);
		b->count = h->count[i];
		*cursor = i + 1;
		return 1;
	}
	*cursor = HIST_BUCKETS;
	return 0;
}
