/*
 * lib/app/figures.c and compare_figs.c: the table of figures, records
 * kept round by round and grown, the rows' medians and ratios on each
 * deciding figure, the fall back when a figure is missing, and no
 * verdict word from an interval that covers less than 90%.
 */
#include <math.h>
#include <string.h>

#include "t.h"
#include "app/compare.h"

static void keep(struct fig_rounds *f, size_t round, double own, double demand,
		 double rx_own, double rx_demand, int rx)
{
	struct fig_run r = fig_run_none();

	r.v[FIG_RATE] = 1000;
	r.v[FIG_OWN] = own;
	r.v[FIG_LOAD] = 0.5;
	r.v[FIG_DEMAND] = demand;
	if (rx) {
		r.v[FIG_RX_OWN] = rx_own;
		r.v[FIG_RX_LOAD] = 0.25;
		r.v[FIG_RX_DEMAND] = rx_demand;
	}
	fig_rounds_put(f, round, &r);
}

/* Every figure has a name, a unit, a key; a column has its head and place. */
static void table(void)
{
	struct fig_run path;
	int places = 0;

	for (int i = 0; i < FIG_N; i++) {
		const struct fig_def *d = &fig_defs[i];

		CHECK(d->name && d->unit && d->key && d->scale > 0, "figure %d is whole", i);
		CHECK(!d->head || (d->width > 0 && d->col >= 0 && d->col < FIG_N),
		      "%s: its column", d->key);
		if (d->head)
			places |= 1 << d->col;
		CHECK(d->of || d->line, "%s: a measured figure has its round line", d->key);
	}
	CHECK(places == (1 << 11) - 1, "the columns' places run 0..10 without a gap (%x)", places);
	for (int i = 0; i < FIG_N; i++)
		path.v[i] = 1;
	path.v[FIG_RX_DEMAND] = NAN;
	CHECK(isnan(fig_value(&path, FIG_PATH)), "the path's needs both ends' demand");
}

/* n rounds where b's figure is half a's: cheaper from 5 rounds on. */
static void coverage(void)
{
	struct compare_look look = { .self = "zcc" };
	struct fig_rounds figs[2] = { { 0 } };
	struct compare_row rows[2] = { { .name = "a" }, { .name = "b" } };

	for (size_t k = 0; k < 5; k++) {
		keep(&figs[0], k, 1, 4 + (double)k / 10, 0, 0, 0);
		keep(&figs[1], k, 1, 2, 0, 0, 0);
		compare_rows(&look, rows, 2, figs, k + 1);
		if (k < 4)
			CHECK(rows[1].verdict == STATS_UNRESOLVED && rows[1].why[0] &&
			      rows[1].ratio.median < 1, "%zu rounds: ~ (%s)", k + 1, rows[1].why);
	}
	CHECK(rows[1].verdict == STATS_LESS && !rows[1].why[0], "5 rounds: cheaper");
	compare_rows(&look, rows, 2, figs, 3);
	CHECK(strcmp(rows[1].why, "3 rounds: 5 needed") == 0, "why: %s", rows[1].why);
	fig_rounds_free(&figs[0]);
	fig_rounds_free(&figs[1]);
}

/* A ratio wholly below 1: cheaper on a cost, dearer on a figure where
 * higher is better (the rate). */
static void better(void)
{
	struct compare_row row = { .ratio = { .n = 6, .median = 0.5, .lo = 0.4, .hi = 0.6,
					      .conf = 0.97 } };

	compare_verdict(&row, FIG_DEMAND, 6, 0);
	CHECK(row.verdict == STATS_LESS && !row.why[0], "service demand halved: cheaper");
	compare_verdict(&row, FIG_RATE, 6, 0);
	CHECK(row.verdict == STATS_MORE, "rate halved: dearer");
	row.ratio.conf = 0.875;
	compare_verdict(&row, FIG_DEMAND, 4, 0);
	CHECK(row.verdict == STATS_UNRESOLVED && strcmp(row.why, "4 rounds: 5 needed") == 0,
	      "87.5%% coverage: ~ (%s)", row.why);
}

int main(void)
{
	struct compare_look look = { .self = "zcc" };
	struct fig_rounds figs[2] = { { 0 } };
	struct compare_row rows[2] = { { .name = "a" }, { .name = "b" } };

	table();
	coverage();
	better();
	/* Six rounds, grown from none: b's sender figure is half a's, its
	 * receiver's twice, the path's (2 + 4) / (4 + 2) = 1. */
	for (size_t k = 0; k < 6; k++) {
		keep(&figs[0], k, 1, 4, 1, 2, 1);
		keep(&figs[1], k, 1, 2, 2, 4, 1);
	}
	CHECK(figs[0].cap >= 6 && figs[1].r[0].v[FIG_DEMAND] == 2 &&
	      figs[1].r[2].v[FIG_RX_DEMAND] == 4, "grown a round at a time, the kept figures stay");
	CHECK(compare_decided(&look, figs, 2, 6) == COMPARE_SELF, "the sender decides by default");
	compare_rows(&look, rows, 2, figs, 6);
	CHECK(rows[1].has_ratio && rows[1].ratio.median == 0.5 && rows[1].verdict == STATS_LESS,
	      "on the sender's service demand: 0.5, cheaper (%.3f)", rows[1].ratio.median);
	CHECK(fig_shown(FIG_RX_DEMAND, rows[1].groups) && rows[1].med[FIG_RX_DEMAND] == 4 &&
	      rows[1].med[FIG_RX_LOAD] == 0.25 && rows[1].med[FIG_RX_OWN] == 2,
	      "the receiver's medians");
	look.decide = COMPARE_RECEIVER;
	compare_rows(&look, rows, 2, figs, 6);
	CHECK(rows[1].ratio.median == 2 && rows[1].verdict == STATS_MORE,
	      "on the receiver's: 2, dearer (%.3f)", rows[1].ratio.median);
	look.decide = COMPARE_PATH;
	CHECK(compare_decided(&look, figs, 2, 6) == COMPARE_PATH, "both ends metered: the path");
	compare_rows(&look, rows, 2, figs, 6);
	CHECK(rows[1].ratio.median == 1 && rows[1].verdict == STATS_UNRESOLVED,
	      "on the path's: 1, ~ (%.3f)", rows[1].ratio.median);

	/* A round skipped, then one without the receiver's report. */
	keep(&figs[0], 7, 1, 4, 0, 0, 0);
	keep(&figs[1], 7, 1, 2, 0, 0, 0);
	CHECK(figs[0].n == 8 && isnan(figs[0].r[6].v[FIG_RATE]), "a skipped round holds none");
	look.decide = COMPARE_RECEIVER;
	CHECK(compare_decided(&look, figs, 2, 8) == COMPARE_SELF &&
	      !(fig_groups(figs[0].r, 8) & 1u << FIG_RX),
	      "a round without a report: the receiver falls back to the sender");
	CHECK(isnan(figs[0].r[7].v[FIG_RX_OWN]), "its receiver figure is NAN");
	fig_rounds_free(&figs[0]);
	fig_rounds_free(&figs[1]);
	return t_exit();
}
