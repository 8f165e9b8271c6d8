/*
 * A comparison as every program shows it: variants (zcc's transmit
 * methods and chunk sizes, zcs's receive methods and read sizes) measured
 * round by round, each round's figures kept per variant; then a table of
 * each variant's medians and, for each after the first, its verdict
 * against the first on the figure that decides: the median of the rounds'
 * ratios with their distribution-free interval (lib/base/stats.h).
 *
 * The programs run the rounds (lib/zcc/compare.c, lib/zcs/serve_rounds.c);
 * compare_figs.c keeps the figures and makes the rows, compare_table.c
 * prints the round lines and the table, compare_plot.c draws the chart.
 */
#ifndef ZC_APP_COMPARE_H
#define ZC_APP_COMPARE_H

#include <stddef.h>

#include "base/stats.h"

#define COMPARE_MAX 64		/* variants in one comparison */

/*
 * The figure that decides: this program's (service demand when measured,
 * its own us/KB when not), the receiver's by its report (the same rule),
 * or the path's: both ends' service demand added.
 */
enum compare_decide { COMPARE_SELF = 0, COMPARE_RECEIVER, COMPARE_PATH };

/* Who compares, and how: whose own CPU time the own column is, a size's
 * key, the figure that decides. */
struct compare_look {
	const char *self;	/* "zcc": "zcc us/KB", "zcc itself" */
	const char *size_key;	/* the JSON key of a variant's size: "chunk_bytes" */
	const char *size_name;	/* the chart's size axis: "chunk size" */
	enum compare_decide decide;
};

/* One run's figures (a round's turn of one variant). */
struct compare_fig {
	double rate;		/* kbytes/sec */
	double load, demand;	/* 0..1 and us/KB; set when measured */
	double own;		/* the program's own us/KB */
	int measured;		/* -c: load and demand are set */
	int has_rx;		/* the receiver's report: its figures below */
	int rx_measured;	/* it metered: rx_load and rx_demand are set */
	double rx_load, rx_demand, rx_own;
};

/* One variant's figures, one value a round, for cap rounds. */
struct compare_figs {
	double *rate, *load, *demand, *own;
	double *rx_load, *rx_demand, *rx_own;
	size_t cap;
	int measured;
	int has_rx, rx_measured;	/* every round so far had them */
};

/*
 * compare_figs_new - figures for n variants of rounds rounds each;
 * compare_figs_grow: room for rounds more (kept figures stay);
 * compare_figs_free. Out of memory: one line, exit 1.
 */
struct compare_figs *compare_figs_new(unsigned n, size_t rounds);
void compare_figs_grow(struct compare_figs *figs, unsigned n, size_t rounds);
void compare_figs_free(struct compare_figs *figs, unsigned n);

/* compare_keep - r's figures as round's of f (round below f->cap). */
void compare_keep(struct compare_figs *f, size_t round, const struct compare_fig *r);

/* compare_decider - the deciding figure (look->decide) of f's round. */
double compare_decider(const struct compare_look *look, const struct compare_figs *f,
		       size_t round);

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
	int sized;		/* the method takes a size: -b lists draw against it */
	size_t rounds;
	double rate, load, demand, own;	/* medians; load (0..1), demand NAN unmeasured */
	int has_rx, rx_measured;	/* the receiver's medians, as the sender's */
	double rx_load, rx_demand, rx_own;
	long agree;
	struct stats_ratio ratio;	/* median, lo, hi, conf, n */
	int has_ratio;
	enum stats_verdict verdict;	/* LESS: cheaper, MORE: dearer */
};

/*
 * compare_decided - what look->decide can be for figs[0..n): the figure
 * asked for when every variant has it, else COMPARE_SELF (the receiver's
 * needs every round's report, the path's both ends metered).
 */
enum compare_decide compare_decided(const struct compare_look *look,
				    const struct compare_figs *figs, unsigned n);

/*
 * compare_medians - row's medians of the first n rounds of f (the
 * receiver's where f has them), its rounds, and no ratio (agree -1).
 */
void compare_medians(struct compare_row *row, const struct compare_figs *f, size_t n);

/*
 * compare_rows - rows[0..n) (name, method, size and sized set by the
 * caller) from the first done rounds of figs[0..n): medians, and against
 * rows[0] the ratios on the deciding figure (look->decide, which
 * compare_decided has checked).
 */
void compare_rows(const struct compare_look *look, struct compare_row *rows, unsigned n,
		  const struct compare_figs *figs, size_t done);

/*
 * compare_round_line - a run's figures as the round event (text: a round
 * line): the round (of rounds; 0: no end is set), the variant's place in
 * it (at), r's rate, and when measured load and service demand; the
 * program's own us/KB. A failed stdout is exit 1.
 */
void compare_round_line(const struct compare_look *look, const struct compare_row *id,
			size_t round, size_t rounds, unsigned at, const struct compare_fig *r);

/*
 * compare_table - the table of rows[0..n) against rows[0]: a compare
 * event per row with -J, else a header line naming the deciding figure
 * (service demand when measured, the program's own us/KB when not) and
 * how the ratio was made (how), a line per row, the interval's coverage.
 * A failed stdout is exit 1.
 */
void compare_table(const struct compare_look *look, const struct compare_row *rows,
		   unsigned n, int measured, const char *how);

/*
 * compare_figure - the deciding figure (look->decide; measured: this
 * program's load was) as a header says it, into text, and its JSON key,
 * returned. ref: the reference row, for whether the receiver metered,
 * and whether it has the receiver's figures: then the sender's figure,
 * when it decides, is said to be the sender's (in the table's head and
 * the chart's title and axis alike).
 */
const char *compare_figure(const struct compare_look *look, const struct compare_row *ref,
			   int measured, char *text, size_t len);

/* compare_word - the verdict as printed: cheaper, dearer or ~. */
const char *compare_word(enum stats_verdict v);

/*
 * compare_plot - --plot: the deciding figure's median and its interval
 * per variant of rows[0..n), the first variant's median as a line across;
 * by_size (a -b list): against the size on a log axis, a curve per
 * method, the unsized variants only as the line across. Into path; a
 * failure is one line, exit 1.
 */
void compare_plot(const struct compare_look *look, const char *path,
		  const struct compare_row *rows, const struct compare_figs *figs,
		  unsigned n, size_t rounds, int by_size);

#endif
