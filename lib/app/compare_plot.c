/*
 * --plot: the comparison as a chart (lib/app/plot.h). Per variant the
 * deciding figure's median with the distribution-free interval of that
 * median; the first variant's median a dashed line across. A -b list is
 * drawn as the 2001 buffer-size table would be: the figure against the
 * size on a log axis, a curve per method (a method that takes no size,
 * such as one that sends whole files, shows only as the line across,
 * when first).
 */
#include <errno.h>
#include <error.h>
#include <stdlib.h>
#include <string.h>

#include "app/compare.h"
#include "app/plot.h"

/* The median of figure fig and its interval, of f's first rounds. */
static void median_and_interval(enum fig_id fig, const struct fig_rounds *f, size_t rounds,
				double *median, double *lo, double *hi)
{
	double *v = calloc(rounds + 1, sizeof(*v));

	if (!v)
		error(1, errno, "memory");
	fig_column(f->r, rounds, fig, v);
	*median = stats_median(v, rounds);	/* sorts v */
	stats_median_interval(v, rounds, lo, hi);
	free(v);
}

/* The series of a method, added when first seen. */
static int series_of(struct plot *p, const char *method)
{
	for (int s = 0; s < p->n_series; s++)
		if (strcmp(p->series[s], method) == 0)
			return s;
	if (p->n_series == PLOT_MAX_SERIES)
		return PLOT_MAX_SERIES - 1;	/* colours repeat beyond */
	snprintf(p->series[p->n_series], PLOT_NAME_LEN, "%s", method);
	return p->n_series++;
}

void compare_plot(const struct compare_look *look, const char *path,
		  const struct compare_row *rows, const struct fig_rounds *figs,
		  unsigned n, size_t rounds, int by_size)
{
	struct plot p;
	struct plot_point points[COMPARE_MAX];
	struct plot_bar bars[COMPARE_MAX];
	char title[256], ylabel[64], xlabel[64], err[4200];
	unsigned groups = ~0u;
	int n_points = 0;
	enum fig_id fig;

	for (unsigned i = 0; i < n; i++)
		groups &= rows[i].groups;
	fig = compare_deciding(look, groups);
	memset(&p, 0, sizeof(p));
	compare_figure(look, groups, ylabel, sizeof(ylabel));
	snprintf(title, sizeof(title), "%s per variant: median of %zu rounds, "
		 "distribution-free interval", ylabel, rounds);
	p.title = title;
	p.ylabel = ylabel;
	p.has_ref = 1;
	p.ref_label = rows[0].name;
	for (unsigned i = 0; i < n && i < COMPARE_MAX; i++) {
		double m, lo, hi;

		median_and_interval(fig, &figs[i], rounds, &m, &lo, &hi);
		if (i == 0)
			p.ref = m;
		if (by_size && !rows[i].sized)
			continue;	/* no size: its median is the line across, if first */
		if (by_size) {
			points[n_points++] = (struct plot_point){ .x = (double)rows[i].size, .y = m,
				.series = series_of(&p, rows[i].method),
				.has_err = 1, .lo = lo, .hi = hi };
		} else {
			bars[i] = (struct plot_bar){ .group = (int)i, .v = m, .has_err = 1,
						     .lo = lo, .hi = hi };
			snprintf(p.group[i], PLOT_NAME_LEN, "%s", rows[i].name);
		}
	}
	if (by_size) {
		snprintf(xlabel, sizeof(xlabel), "%s (-b), bytes", look->size_name);
		p.xlabel = xlabel;
		p.log_x = 1;
		p.points = points;
		p.n_points = n_points;
	} else {
		p.xlabel = "variant";
		p.n_groups = (int)n;
		p.bars = bars;
		p.n_bars = (int)n;
	}
	if (plot_write(path, &p, err, sizeof(err)) < 0)
		error(1, 0, "--plot: %s", err);
}
