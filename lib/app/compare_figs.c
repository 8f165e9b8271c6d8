/*
 * A comparison's figures (compare.h): each variant's, round by round, and
 * the table's rows made from them. The ratios are taken round by round,
 * so what drifts between rounds (another program's load, the CPU's clock)
 * moves both sides of a ratio alike.
 */
#include <errno.h>
#include <error.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/compare.h"

static double *grown(double *v, size_t cap)
{
	double *g = realloc(v, (cap ? cap : 1) * sizeof(*g));

	if (!g)
		error(1, errno, "memory");
	return g;
}

void compare_figs_grow(struct compare_figs *figs, unsigned n, size_t rounds)
{
	for (unsigned i = 0; i < n; i++) {
		struct compare_figs *f = &figs[i];
		size_t cap = f->cap + rounds;

		f->rate = grown(f->rate, cap);
		f->load = grown(f->load, cap);
		f->demand = grown(f->demand, cap);
		f->own = grown(f->own, cap);
		f->rx_load = grown(f->rx_load, cap);
		f->rx_demand = grown(f->rx_demand, cap);
		f->rx_own = grown(f->rx_own, cap);
		f->cap = cap;
	}
}

struct compare_figs *compare_figs_new(unsigned n, size_t rounds)
{
	struct compare_figs *figs = calloc(n ? n : 1, sizeof(*figs));

	if (!figs)
		error(1, errno, "memory");
	for (unsigned i = 0; i < n; i++)
		figs[i].has_rx = figs[i].rx_measured = 1;	/* until a round lacks them */
	compare_figs_grow(figs, n, rounds);
	return figs;
}

void compare_figs_free(struct compare_figs *figs, unsigned n)
{
	for (unsigned i = 0; figs && i < n; i++) {
		free(figs[i].rate);
		free(figs[i].load);
		free(figs[i].demand);
		free(figs[i].own);
		free(figs[i].rx_load);
		free(figs[i].rx_demand);
		free(figs[i].rx_own);
	}
	free(figs);
}

void compare_keep(struct compare_figs *f, size_t round, const struct compare_fig *r)
{
	f->rate[round] = r->rate;
	f->own[round] = r->own;
	f->measured = r->measured;
	f->load[round] = r->measured ? r->load : NAN;
	f->demand[round] = r->measured ? r->demand : NAN;
	f->has_rx &= r->has_rx;
	f->rx_measured &= r->has_rx && r->rx_measured;
	f->rx_own[round] = r->has_rx ? r->rx_own : NAN;
	f->rx_load[round] = r->has_rx && r->rx_measured ? r->rx_load : NAN;
	f->rx_demand[round] = r->has_rx && r->rx_measured ? r->rx_demand : NAN;
}

double compare_median(const double *v, size_t n)
{
	double *c = malloc((n ? n : 1) * sizeof(*c)), m;

	if (!c)
		error(1, errno, "memory");
	if (n)
		memcpy(c, v, n * sizeof(*c));
	m = stats_median(c, n);
	free(c);
	return m;
}

enum compare_decide compare_decided(const struct compare_look *look,
				    const struct compare_figs *figs, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (look->decide == COMPARE_RECEIVER && !figs[i].has_rx)
			return COMPARE_SELF;
		if (look->decide == COMPARE_PATH && !(figs[i].measured && figs[i].rx_measured))
			return COMPARE_SELF;
	}
	return look->decide;
}

double compare_decider(const struct compare_look *look, const struct compare_figs *f,
		       size_t round)
{
	switch (look->decide) {
	case COMPARE_RECEIVER:
		return f->rx_measured ? f->rx_demand[round] : f->rx_own[round];
	case COMPARE_PATH:
		return f->demand[round] + f->rx_demand[round];
	default:
		return f->measured ? f->demand[round] : f->own[round];
	}
}

void compare_medians(struct compare_row *row, const struct compare_figs *f, size_t n)
{
	row->rounds = n;
	row->agree = -1;
	row->has_ratio = 0;
	row->rate = compare_median(f->rate, n);
	row->own = compare_median(f->own, n);
	row->load = f->measured ? compare_median(f->load, n) : NAN;
	row->demand = f->measured ? compare_median(f->demand, n) : NAN;
	row->has_rx = f->has_rx;
	row->rx_measured = f->rx_measured;
	row->rx_own = f->has_rx ? compare_median(f->rx_own, n) : NAN;
	row->rx_load = f->rx_measured ? compare_median(f->rx_load, n) : NAN;
	row->rx_demand = f->rx_measured ? compare_median(f->rx_demand, n) : NAN;
}

void compare_rows(const struct compare_look *look, struct compare_row *rows, unsigned n,
		  const struct compare_figs *figs, size_t done)
{
	double *a = calloc(done + 1, sizeof(*a)), *b = calloc(done + 1, sizeof(*b));

	if (!a || !b)
		error(1, errno, "memory");
	for (unsigned i = 0; i < n; i++) {
		const struct compare_figs *f = &figs[i];
		struct compare_row *row = &rows[i];

		compare_medians(row, f, done);
		if (i == 0)
			continue;
		for (size_t k = 0; k < done; k++) {
			a[k] = compare_decider(look, f, k);
			b[k] = compare_decider(look, &figs[0], k);
		}
		row->has_ratio = 1;
		stats_ratios(a, b, done, &row->ratio);
		row->agree = (long)stats_ratio_agree(&row->ratio);
		row->verdict = stats_ratio_verdict(&row->ratio);
	}
	free(a);
	free(b);
}
