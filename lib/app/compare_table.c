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
	line_end();
	if (out_failed())
		exit(1);
}

/* The column heads, and the coverage the intervals have (text only). */
static void head(const struct compare_look *look, const struct compare_row *rows,
		 unsigned n, int measured, const char *how)
{
	char own[64];

	snprintf(own, sizeof(own), "%s's own CPU time (us/KB)", look->self);
	out_text("\ncompare: ");
	if (rows[0].rounds == rows[n - 1].rounds)	/* else how says */
		out_text("%zu round%s, ", rows[0].rounds, rows[0].rounds == 1 ? "" : "s");
	out_text("each variant against %s on %s, %s\n", rows[0].name,
		 measured ? "service demand (us/KB)" : own, how);
	out_text("%-16s %11s", "variant", "kbytes/sec");
	if (measured)
		out_text(" %7s %13s", "load %", "demand us/KB");
	snprintf(own, sizeof(own), "%s us/KB", look->self);
	out_text(" %10s %7s %17s %6s  %s\n", own, "ratio", "interval", "agree",
		 "verdict");
}

static void row_line(const struct compare_look *look, const struct compare_row *row,
		     const struct compare_row *ref, int measured)
{
	char interval[64] = "", agree[32] = "-";

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
	if (!row->has_ratio) {
		line_text(" %7s %17s %6s  %s", "1", "-", "-", "(reference)");
		line_end();
		return;
	}
	line_str("against", ref->name, NULL);
	line_str("figure", measured ? "service_demand_us_per_kb" : "own_us_per_kb", NULL);
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

	head(look, rows, n, measured, how);
	for (unsigned i = 0; i < n; i++)
		row_line(look, &rows[i], &rows[0], measured);
	if (n > 1)	/* a lone reference row has no ratio to explain */
		out_text("ratio: the variant's %s over %s's (below 1: cheaper)\n"
			 "interval: distribution-free, %.1f%% coverage; agree: rounds on "
			 "the ratio's side of 1\n"
			 "verdict: cheaper or dearer when the whole interval is below or "
			 "above 1, ~ when it holds 1\n", measured ? "service demand" :
			 "own us/KB", rows[0].name, conf * 100);
	if (out_failed())
		exit(1);
}
