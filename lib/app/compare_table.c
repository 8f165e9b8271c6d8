/*
 * The comparison's lines (compare.h): a round line per run, then the
 * table, each described once for text and -J (lib/app/out.h), their
 * figures those of the table of figures (figures.h).
 */
#include <errno.h>
#include <error.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/compare.h"
#include "app/out.h"
#include "meter/others.h"
#include "base/plural.h"

const char *compare_word(enum stats_verdict v)
{
	return v == STATS_LESS ? "cheaper" : v == STATS_MORE ? "dearer" : "~";
}

void compare_round_line(const struct compare_look *look, const struct compare_row *id,
			size_t round, size_t rounds, unsigned at, const struct fig_run *r,
			const struct others_report *o)
{
	unsigned groups = fig_groups(r, 1);

	line_begin("round");
	line_int("round", (long long)round + 1, "round %lld");
	if (rounds)
		line_int("rounds", (long long)rounds, "/%lld");
	line_int("at", at + 1, NULL);
	line_str("variant", id->name, " %s:");
	line_str("method", id->method, NULL);
	line_u64(look->size_key, id->size, NULL);
	for (int i = 0; i < FIG_N; i++) {
		const struct fig_def *d = &fig_defs[i];

		if (!d->line || !fig_shown((enum fig_id)i, groups))
			continue;
		if (d->named)
			line_text(", %s", look->self);
		line_num(d->key, fig_value(r, (enum fig_id)i) * d->scale, d->prec, d->line);
	}
	if (o && o->valid)	/* others touched this round: marked */
		line_num("others_pct", o->pct, 1, o->pct >= OTHERS_MARK ? " [others %.1f%%]" : NULL);
	line_end();
	if (out_failed())
		exit(1);
}

const char *compare_figure(const struct compare_look *look, unsigned groups, char *text,
			   size_t len)
{
	const struct fig_def *d = &fig_defs[compare_deciding(look, groups)];
	const char *title = groups & 1u << FIG_RX && d->title_rx ? d->title_rx : d->title;

	snprintf(text, len, "%s%s%s (%s)", d->named ? look->self : "", d->named ? "'s " : "",
		 title, d->unit);
	return d->key;
}

/* The figures that are columns under groups, in the table's order. */
static int columns(unsigned groups, enum fig_id *col)
{
	int n = 0;

	for (int c = 0; c < FIG_N; c++)
		for (int i = 0; i < FIG_N; i++)
			if (fig_defs[i].head && fig_defs[i].col == c &&
			    fig_shown((enum fig_id)i, groups))
				col[n++] = (enum fig_id)i;
	return n;
}

/* The column heads, and the coverage the intervals have (text only). */
static void head(const struct compare_look *look, const struct compare_row *rows,
		 unsigned n, unsigned groups, const char *how)
{
	char name[64], fig[80];
	enum fig_id col[FIG_N];
	int ncol = columns(groups, col);

	compare_figure(look, groups, fig, sizeof(fig));
	out_text("\ncompare: ");
	if (rows[0].rounds == rows[n - 1].rounds)	/* else how says */
		out_text("%zu round%s, ", rows[0].rounds, plural_s(rows[0].rounds));
	out_text("each variant against %s on %s, %s\n", rows[0].name, fig, how);
	out_text("%-16s", "variant");
	for (int c = 0; c < ncol; c++) {
		const struct fig_def *d = &fig_defs[col[c]];

		snprintf(name, sizeof(name), "%s%s%s", d->named ? look->self : "",
			 d->named ? " " : "", d->head);
		out_text(" %*s", d->width, name);
	}
	out_text(" %7s %17s %6s  %s\n", "ratio", "interval", "agree", "verdict");
}

/* The ratio's columns of a row with one: ratio, interval, agree, verdict. */
static void ratio_cols(const struct compare_look *look, const struct compare_row *row,
		       const struct compare_row *ref, unsigned groups)
{
	char interval[64] = "-", agree[32] = "-", fig[80];

	line_str("against", ref->name, NULL);
	line_str("figure", compare_figure(look, groups, fig, sizeof(fig)), NULL);
	line_num("ratio_median", row->ratio.median, 3, row->ratio.n ? " %7.3f" : NULL);
	if (!row->ratio.n)
		line_text(" %7s", "-");
	line_num("ratio_lo", row->ratio.lo, 3, NULL);
	line_num("ratio_hi", row->ratio.hi, 3, NULL);
	line_num("ratio_conf_pct", row->ratio.conf * 100, 1, NULL);
	if (row->ratio.n)	/* else no ratio: a side has no round above 0 */
		snprintf(interval, sizeof(interval), "%.3f..%.3f", row->ratio.lo, row->ratio.hi);
	if (row->agree >= 0) {
		line_int("rounds_agree", row->agree, NULL);
		snprintf(agree, sizeof(agree), "%ld/%zu", row->agree, row->ratio.n);
	}
	line_text(" %17s %6s", interval, agree);
	line_str("verdict", compare_word(row->verdict), "  %s");
	if (row->why[0])
		line_str("verdict_why", row->why, " (%s)");
}

static void row_line(const struct compare_look *look, const struct compare_row *row,
		     const struct compare_row *ref, unsigned groups)
{
	enum fig_id col[FIG_N];
	int ncol = columns(groups, col);
	char key[80], fmt[16];

	line_begin("compare");
	line_str("variant", row->name, "%-16s");
	if (row->method) {
		line_str("method", row->method, NULL);
		line_u64(look->size_key, row->size, NULL);
	}
	line_int("rounds", (long long)row->rounds, NULL);
	for (int c = 0; c < ncol; c++) {
		const struct fig_def *d = &fig_defs[col[c]];

		snprintf(key, sizeof(key), "%s_median", d->key);
		snprintf(fmt, sizeof(fmt), " %%%d.%df", d->width, d->prec);
		line_num(key, row->med[col[c]] * d->scale, d->prec, fmt);
	}
	if (row->has_ratio)
		ratio_cols(look, row, ref, groups);
	else
		line_text(" %7s %17s %6s  %s", "1", "-", "-", "(reference)");
	line_end();
}

/* Under the table: what the ratio is, the interval's coverage, the rule. */
static void foot(const struct compare_look *look, const struct compare_row *rows,
		 unsigned n, unsigned groups)
{
	const struct fig_def *d = &fig_defs[compare_deciding(look, groups)];
	int held = 0;

	for (unsigned i = 1; i < n; i++)
		held |= rows[i].why[0] != '\0';
	out_text("ratio: the variant's %s over %s's (%s 1: cheaper)\n"
		 "interval: distribution-free, %.1f%% coverage; agree: rounds on "
		 "the ratio's side of 1\n"
		 "verdict: cheaper or dearer when the whole interval is below or "
		 "above 1 and covers %.0f%% or more, ~ when it holds 1 or covers less\n",
		 d->ratio_of, rows[0].name, d->better == FIG_HIGHER ? "above" : "below",
		 rows[1].ratio.conf * 100, COMPARE_COVERAGE * 100);
	if (held && look->open)
		out_text("round %zu: the verdicts wait for more rounds\n", rows[0].rounds);
}

void compare_table(const struct compare_look *look, const struct compare_row *rows,
		   unsigned n, const char *how)
{
	unsigned groups = ~0u;

	for (unsigned i = 0; i < n; i++)
		groups &= rows[i].groups;
	head(look, rows, n, groups, how);
	for (unsigned i = 0; i < n; i++)
		row_line(look, &rows[i], &rows[0], groups);
	if (n > 1)	/* a lone reference row has no ratio to explain */
		foot(look, rows, n, groups);
	if (out_failed())
		exit(1);
}
