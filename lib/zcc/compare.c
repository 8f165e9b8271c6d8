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
#include "app/out.h"
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

const struct compare_look compare_zcc_look = {
	.self = "zcc", .size_key = "chunk_bytes", .size_name = "chunk size",
};

/* A run's figures as the comparison keeps them, the receiver's beside. */
static struct compare_fig fig_of(const struct send_result *r)
{
	return (struct compare_fig){ .rate = r->rate, .load = r->load, .demand = r->demand,
				     .own = r->own, .measured = r->measured,
				     .has_rx = r->rx_ok, .rx_measured = r->rx_ok && r->rx.metered,
				     .rx_load = r->rx.load, .rx_demand = r->rx.demand,
				     .rx_own = r->rx.own };
}

/*
 * The figure that decides, as asked where the rounds allow: both ends one
 * machine are not added (one kernel's load counted twice), and a figure
 * some round lacks cannot decide. Either is said on one line.
 */
static enum compare_decide decided(const struct compare_look *look,
				   const struct compare_figs *figs, unsigned n, int same)
{
	enum compare_decide d = compare_decided(look, figs, n);

	if (look->decide == COMPARE_PATH && same) {
		error(0, 0, "--decide path: both ends are one machine (one boot id): "
		      "their loads are one, not to be added; deciding on zcc's figure");
		return COMPARE_SELF;
	}
	if (d != look->decide)
		error(0, 0, "--decide %s: not every round had the receiver's %s; deciding "
		      "on zcc's figure", look->decide == COMPARE_PATH ? "path" : "receiver",
		      look->decide == COMPARE_PATH ? "metered report and zcc's -c" : "report");
	return d;
}

/* The rows' names: the variants'. */
static void name_rows(const struct variants *vs, struct compare_row *rows)
{
	for (unsigned i = 0; i < vs->n; i++)
		rows[i] = (struct compare_row){ .name = vs->v[i].name,
			.method = vs->v[i].method->name, .size = vs->v[i].chunk,
			.sized = (vs->v[i].method->flags & TX_CHUNKED) != 0 };
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
	struct compare_figs *figs = compare_figs_new(vs->n, cc->rounds);
	struct compare_row rows[COMPARE_MAX];
	struct compare_look look = compare_zcc_look;
	unsigned done = 0;
	int stopped = 0, same = 0;

	name_rows(vs, rows);
	for (unsigned round = 0; round < cc->rounds && !stopped; round++) {
		for (unsigned j = 0; j < vs->n && !stopped; j++) {
			unsigned i = (round + j) % vs->n;	/* rotated */
			struct send_result r = run_variant(sd, cfg, &vs->v[i], cc->loops);
			struct compare_fig fig;

			if (r.interrupted || stop_signal) {
				stopped = 1;
				break;
			}
			compare_rate_short(vs->v[i].name, &r, cc->rate);
			fig = fig_of(&r);
			same |= r.rx_ok && rx_report_same(&r.rx);
			compare_keep(&figs[i], round, &fig);
			compare_round_line(&look, &rows[i], round, cc->rounds, j, &fig);
		}
		if (!stopped)
			done = round + 1;
	}
	/* Stopped: the rounds that ran whole are compared still. */
	if (done > 0) {
		look.decide = decided(&(struct compare_look){ .decide = cc->decide }, figs,
				      vs->n, same);
		compare_rows(&look, rows, vs->n, figs, done);
		compare_table(&look, rows, vs->n, figs[0].measured,
			      "the median of the rounds' ratios");
		if (same && figs[0].has_rx)
			out_text("both ends are one machine (one boot id): the sender's and the "
				 "receiver's load are one machine's, not to be added\n");
		if (cc->plot)
			compare_plot(&look, cc->plot, rows, figs, vs->n, done, vs->by_size);
		if (cc->base)
			against_base(cc->base, vs, figs, done);
	}
	compare_figs_free(figs, vs->n);
	if (stop_signal)
		stop_exit(stop_signal);
	return 0;
}
