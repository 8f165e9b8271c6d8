/*
 * lib/zcc/rr_rounds.c with the table of figures: a --rr run's figures
 * kept from its histogram, the CPU per transaction, the groups and
 * columns a request/response comparison shows (none of a stream's), and
 * a verdict on a percentile (lower is better) or on the rate.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "t.h"
#include "app/compare.h"
#include "zcc/rr.h"
#include "zcc/send.h"

static struct rr_figures figs;	/* a histogram: too large for a stack */

/* A run of 1000 answers of 1..1000 us in 0.5 s, its CPU as given. */
static struct send_result run_of(int measured)
{
	struct send_result r = { .ns = 500000000, .bytes = 1024000, .own = 2,
				 .measured = measured, .load = 0.25, .ncpus = 2 };

	memset(&figs, 0, sizeof(figs));
	hist_init(&figs.due, UINT64_MAX);
	for (uint64_t us = 1; us <= 1000; us++)
		hist_record(&figs.due, us * 1000);
	figs.answered = 1000;
	rr_keep(&r, &figs);
	return r;
}

static int near(double a, double b)
{
	return fabs(a - b) <= 0.01 * fabs(b);
}

static void kept(void)
{
	struct send_result r = run_of(1);
	struct fig_run f = rr_fig_of(&r);
	unsigned g = fig_groups(&f, 1);

	CHECK(r.rr.on && near(r.rr.tps, 2000), "1000 answers in 0.5 s: 2000/s (%.1f)", r.rr.tps);
	CHECK(near(r.rr.p50, 500) && near(r.rr.p99, 990) && near(r.rr.p999, 999),
	      "percentiles within 1%% (%.1f %.1f %.1f)", r.rr.p50, r.rr.p99, r.rr.p999);
	/* load 0.25 x 2 CPUs x 0.5 s = 0.25 s over 1000: 250 us each; own: 2 us/KB x 1000 KB */
	CHECK(near(r.rr.tran, 250) && near(r.rr.own_tran, 2),
	      "us/Tran: the machine's 250, zcc's 2 (%.3f, %.3f)", r.rr.tran, r.rr.own_tran);
	CHECK((g & 1u << FIG_RR) && (g & 1u << FIG_RR_METERED) && (g & 1u << FIG_LOADED) &&
	      !(g & 1u << FIG_STREAM) && !(g & 1u << FIG_METERED),
	      "measured: the rr groups and the load, none of a stream's (%x)", g);
	CHECK(fig_shown(FIG_P99, g) && !fig_shown(FIG_RATE, g) && !fig_shown(FIG_DEMAND, g),
	      "p99 a column, kbytes/sec and us/KB not");
	r = run_of(0);
	f = rr_fig_of(&r);
	g = fig_groups(&f, 1);
	CHECK(isnan(r.rr.tran) && !(g & 1u << FIG_RR_METERED) && !(g & 1u << FIG_LOADED) &&
	      (g & 1u << FIG_RR), "without -c: no us/Tran, no load (%x)", g);
}

/* Six rounds: b's p99 half a's, its rate twice. */
static void decides(void)
{
	struct compare_look look = { .self = "zcc", .decide = COMPARE_FIGURE, .fig = FIG_P99 };
	struct fig_rounds rounds[2] = { { 0 } };
	struct compare_row rows[2] = { { .name = "a" }, { .name = "b" } };
	char t[80];

	for (size_t k = 0; k < 6; k++) {
		struct fig_run a = fig_run_none(), b;

		a.v[FIG_TPS] = 1000, a.v[FIG_P50] = a.v[FIG_P90] = 10;
		a.v[FIG_P99] = 100 + (double)k, a.v[FIG_P999] = 200, a.v[FIG_OWN_TRAN] = 3;
		b = a;
		b.v[FIG_TPS] = 2000, b.v[FIG_P99] = a.v[FIG_P99] / 2;
		fig_rounds_put(&rounds[0], k, &a);
		fig_rounds_put(&rounds[1], k, &b);
	}
	CHECK(compare_decided(&look, rounds, 2, 6) == COMPARE_FIGURE, "p99 can decide");
	compare_rows(&look, rows, 2, rounds, 6);
	CHECK(near(rows[1].ratio.median, 0.5) && rows[1].verdict == STATS_LESS,
	      "p99 halved: 0.5, cheaper (%.3f %s)", rows[1].ratio.median,
	      compare_word(rows[1].verdict));
	compare_figure(&look, rows[0].groups, t, sizeof(t));
	CHECK(strcmp(t, "the round trip's p99 (us)") == 0, "said as: %s", t);
	look.fig = FIG_TPS;
	compare_rows(&look, rows, 2, rounds, 6);
	CHECK(near(rows[1].ratio.median, 2) && rows[1].verdict == STATS_LESS,
	      "twice the transactions/sec: cheaper (%.3f)", rows[1].ratio.median);
	look.fig = FIG_TRAN;
	CHECK(compare_decided(&look, rounds, 2, 6) == COMPARE_SELF,
	      "us/Tran without -c cannot decide");
	fig_rounds_free(&rounds[0]);
	fig_rounds_free(&rounds[1]);
}

int main(void)
{
	kept();
	decides();
	return t_exit();
}
