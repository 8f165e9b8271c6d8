/*
 * A comparison as every program shows it: variants (zcc's transmit
 * methods and chunk sizes, zcs's receive methods and read sizes) measured
 * round by round, each round's figures kept per variant; then a table of
 * each variant's medians and, for each after the first, its verdict
 * against the first on the figure that decides: the median of the rounds'
 * ratios with their distribution-free interval (lib/base/stats.h).
 *
 * The programs run the rounds (lib/zcc/compare.c, lib/zcs/serve_rounds.c);
 * lib/app/figures.h keeps the figures of each round; compare_figs.c
 * makes the rows and their verdicts, compare_table.c prints the round
 * lines and the table, compare_plot.c draws the chart.
 */
#ifndef ZC_APP_COMPARE_H
#define ZC_APP_COMPARE_H

#include <stddef.h>

#include "app/figures.h"
#include "base/stats.h"

#define COMPARE_MAX 64		/* variants in one comparison */

/*
 * The figure that decides: this program's (service demand when measured,
 * its own us/KB when not), the receiver's by its report (the same rule),
 * the path's: both ends' service demand added, or one named figure
 * (compare_look's fig: a round trip's percentile, us/Tran).
 */
enum compare_decide { COMPARE_SELF = 0, COMPARE_RECEIVER, COMPARE_PATH, COMPARE_FIGURE };

/* A verdict word needs an interval of this coverage or more. */
#define COMPARE_COVERAGE 0.90

/* Who compares, and how: whose own CPU time the own column is, a size's
 * key, the figure that decides, whether more rounds may come. */
struct compare_look {
	const char *self;	/* "zcc": "zcc us/KB", "zcc itself" */
	const char *size_key;	/* the JSON key of a variant's size: "chunk_bytes" */
	const char *size_name;	/* the chart's size axis: "chunk size" */
	enum compare_decide decide;
	enum fig_id fig;	/* COMPARE_FIGURE: the figure */
	int open;		/* no last round: a table's verdicts may wait */
};

/*
 * compare_deciding - the figure look->decide names, of those groups
 * (figures.h) holds: the service demand where metered, else the own
 * CPU time; with COMPARE_FIGURE, look->fig.
 */
enum fig_id compare_deciding(const struct compare_look *look, unsigned groups);

/* compare_median - the median of v[0..n), v left as it was. */
double compare_median(const double *v, size_t n);

/*
 * One row of the table: a variant's medians and, but for the reference
 * row, its ratio to the reference on the deciding figure. Paired rounds
 * (this run's variants) give agree, the rounds on the median's side of 1;
 * an unpaired comparison (another run's rounds) gives -1: no rounds pair.
 */
struct compare_row {
	const char *name;	/* "send", "send/4K", "read/1K" */
	const char *method;	/* NULL: not one of this run's variants */
	size_t size;		/* the chunk or read size, under look->size_key */
	size_t rounds;
	double med[FIG_N];	/* each figure's median; NAN where not measured */
	long agree;
	struct stats_ratio ratio;	/* median, lo, hi, conf, n */
	unsigned groups;	/* the groups every round had (figures.h) */
	int sized;		/* the method takes a size: -b lists draw against it */
	int has_ratio;
	enum stats_verdict verdict;	/* LESS: cheaper, MORE: dearer */
	char why[80];		/* "3 rounds: 5 needed": why the word is held; "" */
};

/*
 * compare_decided - what look->decide can be for the first done rounds
 * of figs[0..n): the figure asked for when every variant has it, else
 * COMPARE_SELF (the receiver's needs every round's report, the path's
 * both ends metered).
 */
enum compare_decide compare_decided(const struct compare_look *look,
				    const struct fig_rounds *figs, unsigned n, size_t done);

/*
 * compare_medians - row's medians of the rounds r[0..n), its groups, its
 * rounds, and no ratio (agree -1).
 */
void compare_medians(struct compare_row *row, const struct fig_run *r, size_t n);

/*
 * compare_rows - rows[0..n) (name, method, size and sized set by the
 * caller) from the first done rounds of figs[0..n): medians, the groups
 * all of them have, and against rows[0] the paired ratios on the
 * deciding figure (look->decide, which compare_decided has checked).
 */
void compare_rows(const struct compare_look *look, struct compare_row *rows, unsigned n,
		  const struct fig_rounds *figs, size_t done);

/*
 * compare_verdict - row's verdict word from its ratio on figure fig:
 * cheaper below 1 where lower is better (above 1 where higher is), dearer
 * the other way, only when the interval's coverage is COMPARE_COVERAGE or
 * more, else ~ with why (rounds: the paired rounds; with base, the other
 * run's, for an unpaired ratio).
 */
void compare_verdict(struct compare_row *row, enum fig_id fig, size_t rounds, size_t base);

/*
 * compare_round_line - a run's figures as the round event (text: a round
 * line): the round (of rounds; 0: no end is set), the variant's place in
 * it (at), every figure of the table r has, and with o (the run's other
 * processes, -c; NULL or not valid: none) their share: the key others_pct,
 * and in text the mark " [others PCT%]" on a round they passed
 * OTHERS_MARK in. A failed stdout is exit 1.
 */
struct others_report;
void compare_round_line(const struct compare_look *look, const struct compare_row *id,
			size_t round, size_t rounds, unsigned at, const struct fig_run *r,
			const struct others_report *o);

/*
 * compare_table - the table of rows[0..n) against rows[0]: a compare
 * event per row with -J, else a header line naming the deciding figure
 * and how the ratio was made (how), a line per row with a column per
 * figure every row has, the interval's coverage and the verdict's rule.
 * A failed stdout is exit 1.
 */
void compare_table(const struct compare_look *look, const struct compare_row *rows,
		   unsigned n, const char *how);

/*
 * compare_figure - the deciding figure (look->decide, of groups) as a
 * header says it, into text, and its JSON key, returned. Beside the
 * receiver's figures (groups has FIG_RX) the sender's figure, when it
 * decides, is said to be the sender's (in the table's head and the
 * chart's title and axis alike).
 */
const char *compare_figure(const struct compare_look *look, unsigned groups, char *text,
			   size_t len);

/* compare_word - the verdict as printed: cheaper, dearer or ~. */
const char *compare_word(enum stats_verdict v);

/*
 * compare_plot - --plot: the deciding figure's median and its interval
 * per variant of rows[0..n) (figs[i] row i's rounds), the first variant's
 * median as a line across; by_size (a -b list): against the size on a
 * log axis, a curve per method, the unsized variants only as the line
 * across. Into path; a failure is one line, exit 1.
 */
void compare_plot(const struct compare_look *look, const char *path,
		  const struct compare_row *rows, const struct fig_rounds *figs,
		  unsigned n, size_t rounds, int by_size);

#endif
