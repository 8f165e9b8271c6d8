/*
 * zcc --rr --plot FILE: the run's latency distribution as an SVG chart
 * (lib/app/plot.h), written whole or not at all as every --plot is. Bars
 * of the share of answers in each bin; bins a tenth of a decade wide (a
 * fifth, a half or a whole one when the run spans more than
 * PLOT_MAX_GROUPS of them), so equal widths on the chart are equal
 * ratios of time; the axis names the decades, each bar's title its bin.
 * One series per distribution the run has: the round trip (from due and
 * from send with --gap), and the one-way times out and back when they
 * were measured.
 */
#include <errno.h>
#include <error.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app/plot.h"
#include "zcc/rr.h"

#define BIN_Q_MAX 10		/* bins per decade at most */

struct series {
	const char *name;
	const struct hist *h;
};

/* The bin of v ns: floor(q log10 v), 0 for v below 1. */
static int bin_of(uint64_t v, int q)
{
	return v > 1 ? (int)floor(log10((double)v) * q + 1e-9) : 0;
}

/* A bin's name: its lower edge. */
static void bin_label(char *buf, size_t len, int bin, int q)
{
	double us = pow(10, (double)bin / q) / 1e3;

	if (us < 1)
		snprintf(buf, len, "%.3g ns", us * 1e3);
	else if (us < 1000)
		snprintf(buf, len, "%.3g us", us);
	else
		snprintf(buf, len, "%.3g ms", us / 1e3);
}

/* Each series' buckets into bars: the share of its answers per bin. */
static int fill_bars(struct plot *p, struct plot_bar *bars, const struct series *s, int n_s,
		     int lo, int q)
{
	struct hist_bucket b;
	size_t cursor;
	int n = 0, g, k;

	for (int i = 0; i < n_s; i++) {
		for (cursor = 0; hist_next(s[i].h, &cursor, &b);) {
			g = bin_of(b.rep, q) - lo;
			for (k = 0; k < n && !(bars[k].series == i && bars[k].group == g); k++)
				;
			if (k == n)
				bars[n++] = (struct plot_bar){ .group = g, .series = i };
			bars[k].v += 100.0 * (double)b.count / (double)hist_count(s[i].h);
		}
		snprintf(p->series[i], PLOT_NAME_LEN, "%s", s[i].name);
	}
	return n;
}

void rr_plot(const char *path, const struct rr_figures *f, int open_loop)
{
	static struct plot_bar bars[PLOT_MAX_SERIES * PLOT_MAX_GROUPS];
	struct series s[4];
	struct plot p = { .title = "zcc --rr: latency distribution",
			  .xlabel = "time (each bar a bin of a tenth, fifth, half or whole decade)",
			  .ylabel = "share of answers, %" };
	uint64_t min = UINT64_MAX, max = 0;
	int n_s = 0, q = BIN_Q_MAX, lo;
	char err[512];

	s[n_s++] = (struct series){ open_loop ? "round trip from due" : "round trip", &f->due };
	if (open_loop)
		s[n_s++] = (struct series){ "round trip from send", &f->sent_h };
	if (hist_count(&f->out)) {
		s[n_s++] = (struct series){ "one-way out", &f->out };
		s[n_s++] = (struct series){ "one-way back", &f->back };
	}
	for (int i = 0; i < n_s; i++) {
		if (hist_count(s[i].h) && hist_min(s[i].h) < min)
			min = hist_min(s[i].h);
		max = hist_max(s[i].h) > max ? hist_max(s[i].h) : max;
	}
	if (max == 0)	/* no answer: an empty chart says so */
		min = max = 1;
	/* from the decade of min: the axis names whole decades */
	while (q > 1 && bin_of(max, q) - bin_of(min, q) / q * q >= PLOT_MAX_GROUPS)
		q = q == 10 ? 5 : q == 5 ? 2 : 1;
	lo = bin_of(min, q) / q * q;
	p.label_every = q;
	p.n_groups = bin_of(max, q) - lo + 1;
	for (int g = 0; g < p.n_groups; g++)
		bin_label(p.group[g], PLOT_NAME_LEN, lo + g, q);
	p.n_series = n_s;
	p.bars = bars;
	p.n_bars = fill_bars(&p, bars, s, n_s, lo, q);
	if (p.n_bars == 0)
		bars[p.n_bars++] = (struct plot_bar){ 0 };
	if (plot_write(path, &p, err, sizeof(err)) < 0)
		error(1, 0, "--plot: %s", err);
}
