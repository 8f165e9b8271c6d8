/*
 * Inside the comparison (compare.h): each variant's figures round by
 * round, shared by the rounds (compare.c), the lines (compare_table.c)
 * and the chart (compare_plot.c).
 */
#ifndef ZC_ZCC_COMPARE_INTERNAL_H
#define ZC_ZCC_COMPARE_INTERNAL_H

#include "zcc/compare.h"

/* One variant's figures, one value a round. */
struct compare_figs {
	double *rate;		/* kbytes/sec */
	double *load;		/* 0..1 */
	double *demand;		/* service demand, us/KB */
	double *own;		/* zcc's own us/KB */
	int measured;		/* -c: load and demand are set */
};

/* compare_keep - r's figures as round's. */
void compare_keep(struct compare_figs *f, unsigned round, const struct send_result *r);

/* compare_median - the median of v[0..n), v left as it was. */
double compare_median(const double *v, size_t n);

/*
 * compare_round_line - a run's figures as the round event (text: a round
 * line): the round (of rounds), the variant's place in it (at), r's rate,
 * and when measured load and service demand; zcc's own us/KB.
 */
void compare_round_line(const struct variant *v, unsigned round, unsigned rounds,
			unsigned at, const struct send_result *r);

/*
 * compare_plot - --plot: the deciding figure's median and its interval
 * per variant, the first variant's median as a line across (against size
 * on a log axis when -b was a list), into path; a failure is one line,
 * exit 1.
 */
void compare_plot(const char *path, const struct variants *vs,
		  const struct compare_figs *figs, const struct compare_row *rows,
		  size_t rounds);

#endif
