/*
 * Other processes' share over a comparison's runs (lib/app/others_out.h
 * says it of each run): how many runs of each variant it touched (over
 * OTHERS_MARK), and one line under the table. The verdict stands on the
 * rounds' ratios, which share what drifts slowly; work that came and went
 * touches some runs and not others, and then the ratios lean: the line
 * says so, so that the reader may rerun.
 */
#ifndef ZC_APP_OTHERS_TALLY_H
#define ZC_APP_OTHERS_TALLY_H

#include "meter/others.h"

#define OTHERS_TALLY_MAX 64	/* variants */

struct others_tally {
	unsigned n;
	struct {
		char name[64];
		unsigned runs, over;	/* runs with a figure; those over the mark */
		double pct_sum;
	} v[OTHERS_TALLY_MAX];
	struct others_report worst;	/* the run with the most */
};

/* others_tally_add - a run of variant's figure (not valid: left out). */
void others_tally_add(struct others_tally *t, const char *variant,
		      const struct others_report *r);

/* others_tally_over - the runs of variant the mark was passed in. */
unsigned others_tally_over(const struct others_tally *t, const char *variant);

/*
 * others_tally_uneven - the variants were touched unevenly: their counts
 * of runs over the mark differ, or their mean shares differ by more than
 * OTHERS_MARK.
 */
int others_tally_uneven(const struct others_tally *t);

/*
 * others_tally_line - under the table: with -J an others event (runs,
 * runs_over, max_pct, uneven, variants: [{variant, runs, over, mean_pct}],
 * others: the worst run's names) when any run had a figure; in text, when
 * any run passed the mark, "others: over 3% of the machine in 2 of 10 runs
 * (sendfile 2 of 5, send 0 of 5), up to 31.2% (dpkg 18.4%, ...); FIGURE
 * includes it", and when uneven "; unevenly: the verdicts may lean, rerun
 * to be sure".
 */
void others_tally_line(const struct others_tally *t, const char *figure);

#endif
