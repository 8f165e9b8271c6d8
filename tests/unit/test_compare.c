/*
 * lib/app/compare_figs.c: figures kept round by round and grown, the
 * rows' medians and ratios on each deciding figure, and the fall back
 * when a figure is missing.
 */
#include <math.h>

#include "t.h"
#include "app/compare.h"

static void keep(struct compare_figs *f, size_t round, double own, double demand,
		 double rx_own, double rx_demand, int rx)
{
	struct compare_fig r = { .rate = 1000, .own = own, .measured = 1, .load = 0.5,
				 .demand = demand, .has_rx = rx, .rx_measured = rx,
				 .rx_own = rx_own, .rx_load = 0.25, .rx_demand = rx_demand };

	compare_keep(f, round, &r);
}

int main(void)
{
	struct compare_look look = { .self = "zcc" };
	struct compare_figs *figs = compare_figs_new(2, 1);
	struct compare_row rows[2] = { { .name = "a" }, { .name = "b" } };

	/* Three rounds, grown from room for one: b's sender figure is half
	 * a's, its receiver's twice, the path's (2 + 4) / (4 + 2) = 1. */
	for (size_t k = 0; k < 3; k++) {
		if (k == figs[0].cap)
			compare_figs_grow(figs, 2, 1);
		keep(&figs[0], k, 1, 4, 1, 2, 1);
		keep(&figs[1], k, 1, 2, 2, 4, 1);
	}
	CHECK(figs[0].cap >= 3 && figs[1].demand[0] == 2 && figs[1].rx_demand[2] == 4,
	      "grown by one round at a time, the kept figures stay");
	CHECK(compare_decided(&look, figs, 2) == COMPARE_SELF, "the sender decides by default");
	compare_rows(&look, rows, 2, figs, 3);
	CHECK(rows[1].has_ratio && rows[1].ratio.median == 0.5 && rows[1].verdict == STATS_LESS,
	      "on the sender's service demand: 0.5, cheaper (%.3f)", rows[1].ratio.median);
	CHECK(rows[1].has_rx && rows[1].rx_measured && rows[1].rx_demand == 4 &&
	      rows[1].rx_load == 0.25 && rows[1].rx_own == 2, "the receiver's medians");
	look.decide = COMPARE_RECEIVER;
	compare_rows(&look, rows, 2, figs, 3);
	CHECK(rows[1].ratio.median == 2 && rows[1].verdict == STATS_MORE,
	      "on the receiver's: 2, dearer (%.3f)", rows[1].ratio.median);
	look.decide = COMPARE_PATH;
	CHECK(compare_decided(&look, figs, 2) == COMPARE_PATH, "both ends metered: the path");
	compare_rows(&look, rows, 2, figs, 3);
	CHECK(rows[1].ratio.median == 1 && rows[1].verdict == STATS_UNRESOLVED,
	      "on the path's: 1, ~ (%.3f)", rows[1].ratio.median);

	/* A round without the receiver's report: it cannot decide. */
	compare_figs_grow(figs, 2, 1);
	keep(&figs[0], 3, 1, 4, 0, 0, 0);
	keep(&figs[1], 3, 1, 2, 0, 0, 0);
	look.decide = COMPARE_RECEIVER;
	CHECK(compare_decided(&look, figs, 2) == COMPARE_SELF && !figs[0].has_rx,
	      "a round without a report: the receiver falls back to the sender");
	CHECK(isnan(figs[0].rx_own[3]), "its receiver figure is NAN");
	compare_figs_free(figs, 2);
	return t_exit();
}
