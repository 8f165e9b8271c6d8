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
#include <string.h>

#include "zcc/compare.h"
#include "app/others_tally.h"
#include "app/out.h"
#include "zcc/report.h"
#include "app/stop_exit.h"
#include "zcc/send.h"

/* One run of v, its lines printed as a lone run's would be. */
static struct send_result run_variant(struct sender *sd, struct send_cfg *cfg,
				      const struct variant *v, const struct compare_cfg *cc)
{
	cfg->method = v->method;
	cfg->chunk = v->chunk;
	if (cc->rr)
		return rr_variant_run(sd, cc->rr, v);
	return send_run(sd, cc->loops);
}

const struct compare_look compare_zcc_look = {
	.self = "zcc", .size_key = "chunk_bytes", .size_name = "chunk size",
};

const struct compare_look compare_rr_look = {
	.self = "zcc", .size_key = "request_bytes", .size_name = "request size",
	.decide = COMPARE_FIGURE, .fig = FIG_P99,
};

struct fig_run compare_fig_of(const struct send_result *r)
{
	struct fig_run f = fig_run_none();

	if (r->rr.on)
		return rr_fig_of(r);
	f.v[FIG_RATE] = r->rate;
	f.v[FIG_OWN] = r->own;
	if (r->measured) {
		f.v[FIG_LOAD] = r->load;
		f.v[FIG_DEMAND] = r->demand;
	}
	if (r->rx_ok)
		f.v[FIG_RX_OWN] = r->rx.own;
	if (r->rx_ok && r->rx.metered) {
		f.v[FIG_RX_LOAD] = r->rx.load;
		f.v[FIG_RX_DEMAND] = r->rx.demand;
	}
	return f;
}

/*
 * The figure that decides, as asked where the rounds allow: both ends one
 * machine are not added (one kernel's load counted twice), and a figure
 * some round lacks cannot decide. Either is said on one line.
 */
static enum compare_decide decided(const struct compare_look *look,
				   const struct fig_rounds *figs, unsigned n, size_t done, int same)
{
	enum compare_decide d = compare_decided(look, figs, n, done);

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
			 const struct fig_rounds *figs, size_t done,
			 const struct compare_look *look)
{
	struct baseline_now now[COMPARE_MAX];

	for (unsigned i = 0; i < vs->n; i++)
		now[i] = (struct baseline_now){ .v = &vs->v[i], .r = figs[i].r, .n = done,
						.fig = look->fig };
	baseline_report(b, now, vs->n, look->decide);
}

/* A comparison under way: the variants the kernel has not refused. */
struct live {
	struct variants v;
	struct fig_rounds *figs;	/* in v's order; a dropped one's at the end */
	struct compare_row rows[COMPARE_MAX];
	unsigned total;			/* figs made */
	int same;			/* a receiver's report: one machine */
	struct others_tally others;	/* other processes' share, run by run */
};

/*
 * Variant i, refused by the kernel on its connection (sd->refusal says
 * why), leaves the comparison: one line; its figures move to the end of
 * figs (still freed there). The others run on; none left is exit 1.
 */
static void drop_variant(const struct sender *sd, struct live *l, unsigned i)
{
	struct fig_rounds f = l->figs[i];

	error(0, 0, "-M %s: %s; compared without it", l->v.v[i].name, sd->refusal);
	for (unsigned k = i; k + 1 < l->total; k++)
		l->figs[k] = l->figs[k + 1];
	l->figs[l->total - 1] = f;
	for (unsigned k = i; k + 1 < l->v.n; k++) {
		l->v.v[k] = l->v.v[k + 1];
		l->rows[k] = l->rows[k + 1];
	}
	if (--l->v.n == 0)
		exit(1);
}

/* The index in l of the variant called name. */
static unsigned live_index(const struct live *l, const char *name)
{
	unsigned i = 0;

	while (i + 1 < l->v.n && strcmp(l->v.v[i].name, name) != 0)
		i++;
	return i;
}

/* One round of every live variant, rotated. 0, or 1 when stopped. */
static int run_round(struct sender *sd, struct send_cfg *cfg, struct live *l,
		     const struct compare_look *look, const struct compare_cfg *cc,
		     unsigned round)
{
	struct variant order[COMPARE_MAX];
	unsigned n = l->v.n;

	for (unsigned j = 0; j < n; j++)
		order[j] = l->v.v[(round + j) % n];	/* rotated */
	for (unsigned j = 0; j < n; j++) {
		unsigned i = live_index(l, order[j].name);
		struct send_result r = run_variant(sd, cfg, &l->v.v[i], cc);
		struct fig_run fig;

		if (r.refused) {
			drop_variant(sd, l, i);
			continue;
		}
		if (r.interrupted || stop_signal)
			return 1;
		compare_rate_short(l->v.v[i].name, &r, cc->rate);
		fig = compare_fig_of(&r);
		l->same |= r.rx_ok && rx_report_same(&r.rx);
		fig_rounds_put(&l->figs[i], round, &fig);
		others_tally_add(&l->others, l->v.v[i].name, &r.others);
		compare_round_line(look, &l->rows[i], round, cc->rounds, j, &fig, &r.others);
	}
	return 0;
}

int compare_run(struct sender *sd, struct send_cfg *cfg, const struct variants *vs,
		const struct compare_cfg *cc)
{
	struct fig_rounds *figs = calloc(vs->n, sizeof(*figs));
	struct live l = { .v = *vs, .figs = figs, .total = vs->n };
	struct compare_look look = cc->rr ? compare_rr_look : compare_zcc_look;
	unsigned done = 0;

	if (!figs)
		error(1, errno, "memory");
	name_rows(vs, l.rows);
	sd->refusal_ok = 1;
	for (unsigned round = 0; round < cc->rounds; round++) {
		if (run_round(sd, cfg, &l, &look, cc, round))
			break;
		done = round + 1;
	}
	/* Stopped: the rounds that ran whole are compared still. */
	if (done > 0) {
		look.fig = cc->fig;
		look.decide = decided(&(struct compare_look){ .decide = cc->decide,
				      .fig = cc->fig }, l.figs, l.v.n, done, l.same);
		compare_rows(&look, l.rows, l.v.n, l.figs, done);
		compare_table(&look, l.rows, l.v.n, "the median of the rounds' ratios");
		others_tally_line(&l.others, l.v.rr ? "us/Tran" : "the service demand");
		if (l.same && l.rows[0].groups & 1u << FIG_RX)
			out_text("both ends are one machine (one boot id): the sender's and the "
				 "receiver's load are one machine's, not to be added\n");
		if (cc->plot)
			compare_plot(&look, cc->plot, l.rows, l.figs, l.v.n, done, vs->by_size);
		if (cc->base)
			against_base(cc->base, &l.v, l.figs, done, &look);
	}
	for (unsigned i = 0; i < l.total; i++)
		fig_rounds_free(&figs[i]);
	free(figs);
	if (stop_signal)
		stop_exit(stop_signal);
	return 0;
}
