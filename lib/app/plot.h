/*
 * Charts as self-contained SVG, for zcc --plot and the bench's figures
 * (tests/tools/svgplot reads them from CSV): curves of points, or
 * clusters of bars; either with error bars from lo to hi (a 95% interval)
 * and a dashed reference line across. Every point and bar carries its
 * values in a <title>, shown on hover.
 */
#ifndef ZC_APP_PLOT_H
#define ZC_APP_PLOT_H

#include <stddef.h>
#include <stdio.h>

#define PLOT_MAX_SERIES 8
#define PLOT_MAX_GROUPS 64
#define PLOT_NAME_LEN 64

struct plot_point {
	double x, y;
	int series;
	int has_err;
	double lo, hi;
};

struct plot_bar {
	int group, series, has_err;
	double v, lo, hi;
};

struct plot {
	const char *title, *xlabel, *ylabel;
	int log_x;		/* curves: log2 x axis (sizes that double) */
	/* The bench's charts alone (tests/tools/svgplot -p, -i), zcc's never: */
	int scatter;		/* curves: points only, no line through them */
	int ideal;		/* curves: the dashed line y = x */
	int has_ref;		/* a dashed line across at y = ref */
	double ref;
	const char *ref_label;	/* its <title> */
	int n_series;		/* more than one: a legend of their names */
	char series[PLOT_MAX_SERIES][PLOT_NAME_LEN];
	int n_groups;		/* bars: the clusters, named */
	int label_every;	/* bars: only every n-th group's name on the axis (0: each) */
	char group[PLOT_MAX_GROUPS][PLOT_NAME_LEN];
	const struct plot_point *points;	/* curves */
	int n_points;
	const struct plot_bar *bars;		/* bars */
	int n_bars;
};

/* plot_svg - p as SVG on f: bars when it has any, else curves (at least
 * one point). */
void plot_svg(FILE *f, const struct plot *p);

/*
 * plot_write - p into path whole or not at all (a temporary file beside
 * it, then rename). 0, or -1 with err ("write FILE: why").
 */
int plot_write(const char *path, const struct plot *p, char *err, size_t errlen);

/* plot_size_label - 256, 4K, 64K, 1M: sizes as they are usually written. */
void plot_size_label(char *buf, size_t len, double v);

#endif
