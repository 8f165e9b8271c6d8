/*
 * The comparison's lines (compare.h): a round line per run, then the
 * table, each described once for text and -J (lib/app/out.h).
 */
#include <errno.h>
#include <error.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/compare.h"
#include "app/out.h"

const char *compare_word(enum stats_verdict v)
{
	return v == STATS_LESS ? "cheaper" : v == STATS_MORE ? "dearer" : "~";
}

void compare_round_line(const struct compare_look *look, const struct compare_row *id,
			size_t round, size_t rounds, unsigned at, const struct compare_fig *r)
{
	char itself[64];

	line_begin("round");
	line_int("round", (long long)round + 1, "round %lld");
	if (rounds)
		line_int("rounds", (long long)rounds, "/%lld");
	line_int("at", at + 1, NULL);
	line_str("variant", id->name, " %s:");
	line_str("method", id->method, NULL);
	line_u64(look->size_key, id->size, NULL);
	line_num("kbytes_per_sec", r->rate, 0, " %.0f kbytes/sec");
	if (r->measured) {
		line_num("load_pct", r->load * 100, 1, ", load %.1f%%");
		line_num("service_demand_us_per_kb", r->demand, 3,
			 ", service demand %.3f us/KB");
	}
	snprintf(itself, sizeof(itself), ", %s itself %%.3f us/KB", look->self);
	line_num("own_us_per_kb", r->own, 3, itself);
	if (r->has_rx) {
		line_num("rx_own_us_per_kb", r->rx_own, 3, "; receiver %.3f us/KB");
		if (r->rx_measured) {
			line_num("rx_load_pct", r->rx_load * 100, 1, ", load %.1f%%");
			line_num("rx_service_demand_us_per_kb", r->rx_demand, 3,
				 ", service demand %.3f us/KB");
		}
	}
	line_end();
	if (out_failed())
		exit(1);
}

const char *compare_figure(const struct compare_look *look, const struct compare_row *ref,
			   int measured, char *text, size_t len)
{
	switch (look->decide) {
	case COMPARE_RECEIVER:
		snprintf(text, len, "the receiver's %s (us/KB)",
			 ref->rx_measured ? "service demand" : "own CPU time");
		return ref->rx_measured ? "rx_service_demand_us_per_kb" : "rx_own_us_per_kb";
	case COMPARE_PATH:
		snprintf(text, len, "both ends' service demand added (us/KB)");
		return "path_service_demand_us_per_kb";
	default:	/* beside the receiver's figures: said to be the sender's */
		if (measured)
			snprintf(text, len, "%sservice demand (us/KB)",
				 ref->has_rx ? "the sender's " : "");
		else
			snprintf(text, len, "%s's own CPU time%s (us/KB)", look->self,
				 ref->has_rx ? ", the sender's" : "");
		return measured ? "service_demand_us_per_kb" : "own_us_per_kb";
	}
}

/* The column heads, and the coverage the intervals have (text only). */
static void head(const struct compare_look *look, const struct compare_row *rows,
		 unsigned n, int measured, const char *how)
{
	char own[64], fig[80];

	compare_figure(look, &rows[0], measured, fig, sizeof(fig));
	out_text("\ncompare: ");
	if (rows[0].rounds == rows[n - 1].rounds)	/* else how says */
		out_text("%zu round%s, ", rows[0].rounds, rows[0].rounds == 1 ? "" : "s");
	out_text("each variant against %s on %s, %s\n", rows[0].name, fig, how);
	out_text("%-16s %11s", "variant", "kbytes/sec");
	if (measured)
		out_text(" %7s %13s", "load %", "demand us/KB");
	snprintf(own, sizeof(own), "%s us/KB", look->self);
	out_text(" %10s", own);
	if (rows[0].rx_measured)
		out_text(" %10s %10s", "rcv load %", "rcv demand");
	if (rows[0].has_rx)
		out_text(" %9s", "rcv us/KB");
	out_text(" %7s %17s %6s  %s\n", "ratio", "interval", "agree",
		 "verdict");
}

static void row_line(const struct compare_look *look, const struct compare_row *row,
		     const struct compare_row *ref, int measured)
{
	char interval[64] = "", agree[32] = "-", fig[80];

	line_begin("compare");
	line_str("variant", row->name, "%-16s");
	if (row->method) {
		line_str("method", row->method, NULL);
		line_u64(look->size_key, row->size, NULL);
	}
	line_int("rounds", (long long)row->rounds, NULL);
	line_num("kbytes_per_sec_median", row->rate, 0, " %11.0f");
	if (measured) {
		line_num("load_pct_median", row->load * 100, 1, " %7.1f");
		line_num("service_demand_us_per_kb_median", row->demand, 3, " %13.3f");
	}
	line_num("own_us_per_kb_median", row->own, 3, " %10.3f");
	if (row->rx_measured) {
		line_num("rx_load_pct_median", row->rx_load * 100, 1, " %10.1f");
		line_num("rx_service_demand_us_per_kb_median", row->rx_demand, 3, " %10.3f");
	}
	if (row->has_rx)
		line_num("rx_own_us_per_kb_median", row->rx_own, 3, " %9.3f");
	if (!row->has_ratio) {
		line_text(" %7s %17s %6s  %s", "1", "-", "-", "(reference)");
		line_end();
		return;
	}
	line_str("against", ref->name, NULL);
	line_str("figure", compare_figure(look, ref, measured, fig, sizeof(fig)), NULL);
	line_num("ratio_median", row->ratio.median, 3, row->ratio.n ? " %7.3f" : NULL);
	if (!row->ratio.n)
		line_text(" %7s", "-");
	line_num("ratio_lo", row->ratio.lo, 3, NULL);
	line_num("ratio_hi", row->ratio.hi, 3, NULL);
	line_num("ratio_conf_pct", row->ratio.conf * 100, 1, NULL);
	if (row->ratio.n)	/* else no ratio: a side has no round above 0 */
		snprintf(interval, sizeof(interval), "%.3f..%.3f", row->ratio.lo, row->ratio.hi);
	else
		snprintf(interval, sizeof(interval), "-");
	if (row->agree >= 0) {
		line_int("rounds_agree", row->agree, NULL);
		snprintf(agree, sizeof(agree), "%ld/%zu", row->agree, row->ratio.n);
	}
	line_text(" %17s %6s", interval, agree);
	line_str("verdict", compare_word(row->verdict), "  %s");
	line_end();
}

void compare_table(const struct compare_look *look, const struct compare_row *rows,
		   unsigned n, int measured, const char *how)
{
	double conf = n > 1 ? rows[1].ratio.conf : 0;
	static const char *const ratio_of[] = {
		[COMPARE_RECEIVER] = "receiver's ", [COMPARE_PATH] = "path's ",
	};
	const char *whose = ratio_of[look->decide] ? ratio_of[look->decide] : "";
	int demand = look->decide == COMPARE_RECEIVER ? rows[0].rx_measured :
		look->decide == COMPARE_PATH || measured;

	head(look, rows, n, measured, how);
	for (unsigned i = 0; i < n; i++)
		row_line(look, &rows[i], &rows[0], measured);
	if (n > 1)	/* a lone reference row has no ratio to explain */
		out_text("ratio: the variant's %s%s over %s's (below 1: cheaper)\n"
			 "interval: distribution-free, %.1f%% coverage; agree: rounds on "
			 "the ratio's side of 1\n"
			 "verdict: cheaper or dearer when the whole interval is below or "
			 "above 1, ~ when it holds 1\n", whose,
			 demand ? "service demand" : "own us/KB", rows[0].name, conf * 100);
	if (out_failed())
		exit(1);
}
