/*
 * The rounds of a comparison (compare.h): every variant once a round, the
 * order rotated so that no variant always runs first (after the idle
 * gap) or last (beside the previous variant's last packets), each round's
 * figures kept; the ratios are taken round by round, so what drifts
 * between rounds (another program's load, the CPU's clock) moves both
 * sides of a ratio alike.
 */
#include <errno.h>
#include <error.h>
#include <math.h>
#include <stdlib.h>

#include "zcc/compare.h"
#include "zcc/compare_internal.h"
#include "zcc/report.h"
#include "app/stop_exit.h"
#include "zcc/send.h"

/* One run of v, its lines printed as a lone run's would be. */
static struct send_result run_variant(struct sender *sd, struct send_cfg *cfg,
				      const struct variant *v, uint32_t loops)
{
	cfg->method = v->method;
	cfg->chunk = v->chunk;
	return send_run(sd, loops);
}

/* The deciding figure: service demand when measured, else zcc's own. */
static double decider(const struct compare_figs *f, size_t round)
{
	return f->measured ? f->demand[round] : f->own[round];
}

/* The rows of the table from the first done rounds of figs. */
static void make_rows(const struct variants *vs, const struct compare_figs *figs,
		      size_t done, struct compare_row *rows)
{
	double *a = calloc(done + 1, sizeof(*a)), *b = calloc(done + 1, sizeof(*b));

	if (!a || !b)
		error(1, errno, "memory");
	for (unsigned i = 0; i < vs->n; i++) {
		const struct compare_figs *f = &figs[i];
		struct compare_row *row = &rows[i];

		*row = (struct compare_row){ .name = vs->v[i].name, .variant = &vs->v[i],
					     .rounds = done, .agree = -1 };
		row->rate = compare_median(f->rate, done);
		row->own = compare_median(f->own, done);
		row->load = f->measured ? compare_median(f->load, done) : NAN;
		row->demand = f->measured ? compare_median(f->demand, done) : NAN;
		if (i == 0)
			continue;
		for (size_t k = 0; k < done; k++) {
			a[k] = decider(f, k);
			b[k] = decider(&figs[0], k);
		}
		row->has_ratio = 1;
		stats_ratios(a, b, done, &row->ratio);
		row->agree = (long)stats_ratio_agree(&row->ratio);
		row->verdict = stats_ratio_verdict(&row->ratio);
	}
	free(a);
	free(b);
}

static struct compare_figs *figs_alloc(unsigned n, unsigned rounds)
{
	struct compare_figs *figs = calloc(n, sizeof(*figs));

	if (!figs)
		error(1, errno, "memory");
	for (unsigned i = 0; i < n; i++) {
		figs[i].rate = calloc(rounds, sizeof(double));
		figs[i].load = calloc(rounds, sizeof(double));
		figs[i].demand = calloc(rounds, sizeof(double));
		figs[i].own = calloc(rounds, sizeof(double));
		if (!figs[i].rate || !figs[i].load || !figs[i].demand || !figs[i].own)
			error(1, errno, "memory");
	}
	return figs;
}

static void figs_free(struct compare_figs *figs, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		free(figs[i].rate);
		free(figs[i].load);
		free(figs[i].demand);
		free(figs[i].own);
	}
	free(figs);
}

/* Each variant's rounds against the baseline's (baseline.h). */
static void against_base(const struct baseline *b, const struct variants *vs,
			 const struct compare_figs *figs, size_t done)
{
	struct baseline_now now[COMPARE_MAX];

	for (unsigned i = 0; i < vs->n; i++)
		now[i] = (struct baseline_now){ .v = &vs->v[i], .n = done,
			.own = figs[i].own, .rate = figs[i].rate, .load = figs[i].load,
			.demand = figs[i].measured ? figs[i].demand : NULL };
	baseline_report(b, now, vs->n);
}

int compare_run(struct sender *sd, struct send_cfg *cfg, const struct variants *vs,
		const struct compare_cfg *cc)
{
	struct compare_figs *figs = figs_alloc(vs->n, cc->rounds);
	struct compare_row rows[COMPARE_MAX];
	unsigned done = 0;
	int stopped = 0;

	for (unsigned round = 0; round < cc->rounds && !stopped; round++) {
		for (unsigned j = 0; j < vs->n && !stopped; j++) {
			unsigned i = (round + j) % vs->n;	/* rotated */
			struct send_result r = run_variant(sd, cfg, &vs->v[i], cc->loops);

			if (r.interrupted || stop_signal) {
				stopped = 1;
				break;
			}
			compare_rate_short(vs->v[i].name, &r, cc->rate);
			compare_keep(&figs[i], round, &r);
			compare_round_line(&vs->v[i], round, cc->rounds, j, &r);
		}
		if (!stopped)
			done = round + 1;
	}
	/* Stopped: the rounds that ran whole are compared still. */
	if (done > 0) {
		make_rows(vs, figs, done, rows);
		compare_table(rows, vs->n, figs[0].measured, "the median of the rounds' ratios");
		if (cc->plot)
			compare_plot(cc->plot, vs, figs, rows, done);
		if (cc->base)
			against_base(cc->base, vs, figs, done);
	}
	figs_free(figs, vs->n);
	if (stop_signal)
		stop_exit(stop_signal);
	return 0;
}
