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
	unsigned __int128 sq = (unsigned __int128)v * v;

	h->count[hist_index(v)]++;
	h->n++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	if (v > h->budget)
		h->over++;
	h->sq_lo += sq;
	h->sq_hi += h->sq_lo < sq;
}

int hist_merge(struct hist *into, const struct hist *from)
{
	if (into->budget != from->budget)
		return -1;
	into->n += from->n;
	into->sum += from->sum;
	into->over += from->over;
	into->sq_lo += from->sq_lo;
	into->sq_hi += from->sq_hi + (into->sq_lo < from->sq_lo);
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

/* r += x * 2^(64 i), in four 64-bit limbs, least significant first. */
static void add_at(uint64_t r[4], unsigned i, uint64_t x)
{
	for (; x && i < 4; i++) {
		r[i] += x;
		x = r[i] < x;		/* the carry */
	}
}

/* r += a * b * 2^(64 i). */
static void mul_add(uint64_t r[4], unsigned i, uint64_t a, uint64_t b)
{
	unsigned __int128 p = (unsigned __int128)a * b;

	add_at(r, i, (uint64_t)p);
	add_at(r, i + 1, (uint64_t)(p >> 64));
}

/* n * sum of squares - sum^2 (n^2 times the population variance), exact. */
static long double spread(const struct hist *h)
{
	uint64_t a[4] = { 0 }, b[4] = { 0 }, s0 = (uint64_t)h->sum, s1 = (uint64_t)(h->sum >> 64);
	unsigned __int128 d;
	uint64_t borrow = 0;
	long double r = 0;

	mul_add(a, 0, (uint64_t)h->sq_lo, h->n);
	mul_add(a, 1, (uint64_t)(h->sq_lo >> 64), h->n);
	mul_add(a, 2, h->sq_hi, h->n);
	mul_add(b, 0, s0, s0);
	mul_add(b, 1, s0, s1);
	mul_add(b, 1, s0, s1);
	mul_add(b, 2, s1, s1);
	for (unsigned i = 0; i < 4; i++) {	/* a -= b; a >= b by Cauchy-Schwarz */
		d = (unsigned __int128)a[i] - b[i] - borrow;
		a[i] = (uint64_t)d;
		borrow = (uint64_t)(d >> 64) & 1;	/* all ones when it went below 0 */
	}
	for (unsigned i = 4; i-- > 0;)
		r = r * 18446744073709551616.0L + (long double)a[i];
	return r;
}

double hist_sd(const struct hist *h)
{
	long double n = (long double)h->n;

	return h->n > 1 ? (double)sqrtl(spread(h) / (n * (n - 1))) : 0;
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
