/*
 * A comparison's rows (compare.h): each variant's medians from its
 * rounds (figures.h), and its ratio to the first and the verdict. The
 * ratios are taken round by round, so what drifts between rounds
 * (another program's load, the CPU's clock) moves both sides of a ratio
 * alike.
 */
#include <errno.h>
#include <error.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/compare.h"
#include "base/stats_unpaired.h"
#include "base/plural.h"

double compare_median(const double *v, size_t n)
{
	double *c = malloc((n ? n : 1) * sizeof(*c)), m;

	if (!c)
		error(1, errno, "memory");
	if (n)
		memcpy(c, v, n * sizeof(*c));
	m = stats_median(c, n);
	free(c);
	return m;
}

enum fig_id compare_deciding(const struct compare_look *look, unsigned groups)
{
	switch (look->decide) {
	case COMPARE_RECEIVER:
		return (groups & (1u << FIG_RX_METERED)) ? FIG_RX_DEMAND : FIG_RX_OWN;
	case COMPARE_PATH:
		return FIG_PATH;
	case COMPARE_FIGURE:
		return look->fig;
	default:
		return (groups & (1u << FIG_METERED)) ? FIG_DEMAND : FIG_OWN;
	}
}

enum compare_decide compare_decided(const struct compare_look *look,
				    const struct fig_rounds *figs, unsigned n, size_t done)
{
	unsigned need = look->decide == COMPARE_RECEIVER ? 1u << FIG_RX :
		look->decide == COMPARE_PATH ? 1u << FIG_METERED | 1u << FIG_RX_METERED :
		look->decide == COMPARE_FIGURE ? 1u << fig_defs[look->fig].group : 0;

	for (unsigned i = 0; i < n; i++)
		if ((fig_groups(figs[i].r, done) & need) != need)
			return COMPARE_SELF;
	return look->decide;
}

void compare_medians(struct compare_row *row, const struct fig_run *r, size_t n)
{
	double *v = calloc(n + 1, sizeof(*v));

	if (!v)
		error(1, errno, "memory");
	row->rounds = n;
	row->agree = -1;
	row->has_ratio = 0;
	row->why[0] = '\0';
	row->groups = fig_groups(r, n);
	for (int i = 0; i < FIG_N; i++) {
		fig_column(r, n, (enum fig_id)i, v);
		row->med[i] = fig_shown((enum fig_id)i, row->groups) ? compare_median(v, n) : NAN;
	}
	free(v);
}

/* Coverage c reaches COMPARE_COVERAGE (3 against 3 unpaired is 90% exactly). */
static int covers(double c)
{
	return c >= COMPARE_COVERAGE - 1e-9;
}

/* The least paired rounds whose interval can cover COMPARE_COVERAGE. */
static size_t paired_needed(void)
{
	size_t n = 1;

	while (!covers(stats_sign_coverage(n, 1)))
		n++;
	return n;
}

/* The least rounds against base unpaired ones that can cover it. */
static size_t unpaired_needed(size_t base)
{
	size_t n = 1;

	while (n < 1000 && !covers(stats_mw_coverage(n, base, 1)))
		n++;
	return n;
}

void compare_verdict(struct compare_row *row, enum fig_id fig, size_t rounds, size_t base)
{
	static const enum stats_verdict flipped[] = {
		[STATS_UNRESOLVED] = STATS_UNRESOLVED, [STATS_LESS] = STATS_MORE,
		[STATS_MORE] = STATS_LESS,
	};

	row->verdict = stats_ratio_verdict(&row->ratio);
	if (fig_defs[fig].better == FIG_HIGHER)	/* less of it costs more */
		row->verdict = flipped[row->verdict];
	row->why[0] = '\0';
	if (covers(row->ratio.conf) || !row->ratio.n)
		return;		/* no ratio at all: ~, and no rounds would mend it */
	row->verdict = STATS_UNRESOLVED;
	if (base)
		snprintf(row->why, sizeof(row->why), "%zu round%s against %zu: %zu needed",
			 rounds, plural_s(rounds), base, unpaired_needed(base));
	else
		snprintf(row->why, sizeof(row->why), "%zu round%s: %zu needed", rounds,
			 plural_s(rounds), paired_needed());
}

void compare_rows(const struct compare_look *look, struct compare_row *rows, unsigned n,
		  const struct fig_rounds *figs, size_t done)
{
	double *a = calloc(done + 1, sizeof(*a)), *b = calloc(done + 1, sizeof(*b));
	unsigned groups = ~0u;
	enum fig_id fig;

	if (!a || !b)
		error(1, errno, "memory");
	for (unsigned i = 0; i < n; i++) {
		compare_medians(&rows[i], figs[i].r, done);
		groups &= rows[i].groups;
	}
	fig = compare_deciding(look, groups);
	fig_column(figs[0].r, done, fig, b);
	for (unsigned i = 1; i < n; i++) {
		struct compare_row *row = &rows[i];

		fig_column(figs[i].r, done, fig, a);
		row->has_ratio = 1;
		stats_ratios(a, b, done, &row->ratio);
		row->agree = (long)stats_ratio_agree(&row->ratio);
		compare_verdict(row, fig, row->ratio.n, 0);
	}
	free(a);
	free(b);
}
