/*
 * SVG charts (plot.h): a frame of round-step y ticks, then curves or bars.
 * Drawn with nothing but text, so a browser opens the file as it is.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include "app/plot.h"
#include "base/err.h"

#define WIDTH 720
#define HEIGHT 440
#define LEFT 80			/* margins around the plot area */
#define RIGHT 30
#define TOP 50
#define BOTTOM 70
#define PAD 14			/* keeps the end points off the axes */

static const char *const colour[PLOT_MAX_SERIES] = {
	"#1f60c0", "#d04020", "#209040", "#9040b0", "#c08000", "#404040",
	"#10a0a0", "#a03060",
};

/* Text into SVG: the five characters XML reserves. */
static void put_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default: fputc(*s, f);
		}
	}
}

/* A round step (1, 2 or 5 times a power of ten) giving about n ticks. */
static double nice_step(double span, int n)
{
	double raw = span / n, mag = pow(10, floor(log10(raw))), r = raw / mag;

	if (r <= 1)
		return mag;
	if (r <= 2)
		return 2 * mag;
	if (r <= 5)
		return 5 * mag;
	return 10 * mag;
}

void plot_size_label(char *buf, size_t len, double v)
{
	if (v >= 1048576 && fmod(v, 1048576) == 0)
		snprintf(buf, len, "%.0fM", v / 1048576);
	else if (v >= 1024 && fmod(v, 1024) == 0)
		snprintf(buf, len, "%.0fK", v / 1024);
	else
		snprintf(buf, len, "%g", v);
}

struct scale {
	double lo, hi;		/* data range mapped onto the plot area */
	int log2;
};

static double sx(const struct scale *s, double x)
{
	double w = WIDTH - LEFT - RIGHT - 2 * PAD;

	if (s->log2)
		x = log2(x);
	return LEFT + PAD + (x - s->lo) / (s->hi - s->lo) * w;
}

static double sy(const struct scale *s, double y)
{
	double h = HEIGHT - TOP - BOTTOM;

	return HEIGHT - BOTTOM - (y - s->lo) / (s->hi - s->lo) * h;
}

/* The y range: round steps covering ymin..ymax (and 0). */
static double y_scale(struct scale *ys, double ymin, double ymax)
{
	double step;

	if (ymax == ymin)
		ymax = ymin + 1;
	step = nice_step(ymax - ymin, 5);
	ys->lo = floor(ymin / step) * step;
	ys->hi = ceil(ymax / step) * step;
	return step;
}

/* Canvas, title, y grid with its labels, the axes and their names. */
static void frame(FILE *f, const struct plot *p, const struct scale *ys, double step)
{
	int k, ticks;
	double v;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
		WIDTH, HEIGHT, WIDTH, HEIGHT);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", WIDTH, HEIGHT);
	fprintf(f, "<text x=\"%d\" y=\"28\" text-anchor=\"middle\" font-size=\"16\">",
		WIDTH / 2);
	put_text(f, p->title);
	fputs("</text>\n", f);

	/* ticks counted in integers, so no rounding drift adds or drops one */
	ticks = (int)lround((ys->hi - ys->lo) / step);
	fputs("<g class=\"yaxis\" stroke=\"#ddd\">\n", f);
	for (k = 0; k <= ticks; k++)
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n",
			LEFT, sy(ys, ys->lo + k * step), WIDTH - RIGHT, sy(ys, ys->lo + k * step));
	fputs("</g>\n<g text-anchor=\"end\">\n", f);
	for (k = 0; k <= ticks; k++) {
		v = ys->lo + k * step;
		fprintf(f, "<text x=\"%d\" y=\"%.1f\">%g</text>\n",
			LEFT - 6, sy(ys, v) + 4, fabs(v) < step / 1e6 ? 0 : v);
	}
	fputs("</g>\n", f);
	fprintf(f, "<path d=\"M%d %d V%d H%d\" fill=\"none\" stroke=\"black\"/>\n",
		LEFT, TOP, HEIGHT - BOTTOM, WIDTH - RIGHT);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
		LEFT + (WIDTH - LEFT - RIGHT) / 2, HEIGHT - 20);
	put_text(f, p->xlabel);
	fputs("</text>\n", f);
	fprintf(f, "<text transform=\"translate(20 %d) rotate(-90)\" text-anchor=\"middle\">",
		TOP + (HEIGHT - TOP - BOTTOM) / 2);
	put_text(f, p->ylabel);
	fputs("</text>\n", f);
}

/* With more than one series: a box of their names in their colours. */
static void legend(FILE *f, const struct plot *p)
{
	if (p->n_series < 2)
		return;
	fputs("<g class=\"legend\">\n", f);
	for (int i = 0; i < p->n_series; i++) {
		int y = TOP + 6 + 16 * i;

		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>\n",
			WIDTH - RIGHT - 200, y, colour[i % PLOT_MAX_SERIES]);
		fprintf(f, "<text x=\"%d\" y=\"%d\">", WIDTH - RIGHT - 185, y + 9);
		put_text(f, p->series[i]);
		fputs("</text>\n", f);
	}
	fputs("</g>\n", f);
}

/* The reference line across the whole plot area, dashed. */
static void ref_line(FILE *f, const struct plot *p, const struct scale *ys)
{
	if (!p->has_ref)
		return;
	fprintf(f, "<line class=\"ref\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
		"stroke=\"#888\" stroke-dasharray=\"6 4\"><title>", LEFT, sy(ys, p->ref),
		WIDTH - RIGHT, sy(ys, p->ref));
	put_text(f, p->ref_label);
	fprintf(f, ": %g</title></line>\n", p->ref);
	fprintf(f, "<text class=\"ref\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#666\">",
		WIDTH - RIGHT - 4, sy(ys, p->ref) - 4);
	put_text(f, p->ref_label);
	fputs("</text>\n", f);
}

/* An error bar, centred on x, w wide at its ends. */
static void err_bar(FILE *f, double x, double w, double ylo, double yhi)
{
	fprintf(f, "<path class=\"err\" d=\"M%.1f %.1f H%.1f M%.1f %.1f V%.1f M%.1f %.1f H%.1f\" "
		"stroke=\"black\"/>\n", x - w / 2, yhi, x + w / 2, x, yhi, ylo, x - w / 2, ylo,
		x + w / 2);
}

/* x ticks: every data point's x on a log axis, round steps otherwise. */
static void x_ticks(FILE *f, const struct plot *p, const struct scale *xs)
{
	char buf[64];
	int i, k;

	fputs("<g text-anchor=\"middle\">\n", f);
	if (p->log_x) {
		for (i = 0; i < p->n_points; i++) {
			for (k = 0; k < i && p->points[k].x != p->points[i].x; k++)
				;
			if (k < i)
				continue;	/* labelled already */
			plot_size_label(buf, sizeof(buf), p->points[i].x);
			fprintf(f, "<text x=\"%.1f\" y=\"%d\">%s</text>\n",
				sx(xs, p->points[i].x), HEIGHT - BOTTOM + 18, buf);
		}
	} else {
		double xstep = nice_step(xs->hi - xs->lo, 6);
		int first = (int)lround(ceil(xs->lo / xstep - 1e-9));
		int last = (int)lround(floor(xs->hi / xstep + 1e-9));

		for (k = first; k <= last; k++)
			fprintf(f, "<text x=\"%.1f\" y=\"%d\">%g</text>\n",
				sx(xs, k * xstep), HEIGHT - BOTTOM + 18, k * xstep);
	}
	fputs("</g>\n", f);
}

/* Each series: its curve (unless scatter), then a marked point per datum. */
static void curves(FILE *f, const struct plot *p, const struct scale *xs,
		   const struct scale *ys)
{
	int i, s, first, n_series = p->n_series > 0 ? p->n_series : 1;

	for (s = 0; s < n_series; s++) {
		const char *c = colour[s % PLOT_MAX_SERIES];

		if (!p->scatter) {
			fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", c);
			first = 1;
			for (i = 0; i < p->n_points; i++) {
				if (p->points[i].series != s)
					continue;
				fprintf(f, "%s%.1f,%.1f", first ? "" : " ",
					sx(xs, p->points[i].x), sy(ys, p->points[i].y));
				first = 0;
			}
			fputs("\"/>\n", f);
		}
		fprintf(f, "<g class=\"points\" fill=\"%s\">\n", c);
		for (i = 0; i < p->n_points; i++) {
			const struct plot_point *pt = &p->points[i];

			if (pt->series != s)
				continue;
			if (pt->has_err)
				err_bar(f, sx(xs, pt->x), 8, sy(ys, pt->lo), sy(ys, pt->hi));
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\"><title>%g, %g",
				sx(xs, pt->x), sy(ys, pt->y), pt->x, pt->y);
			if (pt->has_err)
				fprintf(f, " (%g to %g)", pt->lo, pt->hi);
			fputs("</title></circle>\n", f);
		}
		fputs("</g>\n", f);
	}
}

static void write_curves(FILE *f, const struct plot *p)
{
	struct scale xs = { .log2 = p->log_x }, ys = { 0 };
	double ymin = 0, ymax = 0, step, x0 = p->points[0].x;
	int i;

	xs.lo = xs.hi = p->log_x ? log2(x0) : x0;
	for (i = 0; i < p->n_points; i++) {
		const struct plot_point *pt = &p->points[i];
		double x = p->log_x ? log2(pt->x) : pt->x;

		xs.lo = fmin(xs.lo, x);
		xs.hi = fmax(xs.hi, x);
		ymin = fmin(ymin, pt->has_err ? fmin(pt->lo, pt->y) : pt->y);
		ymax = fmax(ymax, pt->has_err ? fmax(pt->hi, pt->y) : pt->y);
	}
	if (p->ideal) {		/* the whole ideal line in view */
		ymin = fmin(ymin, x0);
		ymax = fmax(ymax, xs.hi);
	}
	if (p->has_ref)
		ymax = fmax(ymax, p->ref);
	if (xs.hi == xs.lo) {	/* one point, or all at one x: centre it */
		xs.lo -= 1;
		xs.hi += 1;
	}
	step = y_scale(&ys, ymin, ymax);
	frame(f, p, &ys, step);
	x_ticks(f, p, &xs);
	if (p->ideal)
		fprintf(f, "<line class=\"ideal\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#888\" stroke-dasharray=\"6 4\"><title>ideal: y = x</title></line>\n",
			sx(&xs, xs.lo), sy(&ys, xs.lo), sx(&xs, xs.hi), sy(&ys, xs.hi));
	ref_line(f, p, &ys);
	curves(f, p, &xs, &ys);
	legend(f, p);
	fputs("</svg>\n", f);
}

/* Grouped bars: a cluster per group, a bar per series, error bars. */
static void write_bars(FILE *f, const struct plot *p)
{
	struct scale ys = { 0 };
	double ymin = 0, ymax = 0, step, gw, bw;
	int i, n_series = p->n_series > 0 ? p->n_series : 1;

	for (i = 0; i < p->n_bars; i++) {
		const struct plot_bar *b = &p->bars[i];

		ymin = fmin(ymin, b->has_err ? fmin(b->lo, b->v) : b->v);
		ymax = fmax(ymax, b->has_err ? fmax(b->hi, b->v) : b->v);
	}
	if (p->has_ref)
		ymax = fmax(ymax, p->ref);
	step = y_scale(&ys, ymin, ymax);
	frame(f, p, &ys, step);
	gw = (double)(WIDTH - LEFT - RIGHT) / (p->n_groups > 0 ? p->n_groups : 1);
	bw = gw * 0.8 / n_series;
	fputs("<g text-anchor=\"middle\">\n", f);
	for (i = 0; i < p->n_groups; i++) {
		if (p->label_every > 1 && i % p->label_every)
			continue;	/* named in its bars' titles alone */
		fprintf(f, "<text x=\"%.1f\" y=\"%d\">", LEFT + gw * (i + 0.5), HEIGHT - BOTTOM + 18);
		put_text(f, p->group[i]);
		fputs("</text>\n", f);
	}
	fputs("</g>\n<g class=\"bars\">\n", f);
	for (i = 0; i < p->n_bars; i++) {
		const struct plot_bar *b = &p->bars[i];
		double x = LEFT + gw * b->group + gw * 0.1 + bw * b->series;
		double y0 = sy(&ys, 0), y1 = sy(&ys, b->v);

		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
			"<title>", x, fmin(y0, y1), bw * 0.9, fabs(y0 - y1),
			colour[b->series % PLOT_MAX_SERIES]);
		put_text(f, p->group[b->group]);
		if (p->n_series > 0) {
			fputs(", ", f);
			put_text(f, p->series[b->series]);
		}
		fprintf(f, ": %g", b->v);
		if (b->has_err)
			fprintf(f, " (%g to %g)", b->lo, b->hi);
		fputs("</title></rect>\n", f);
		if (b->has_err)
			err_bar(f, x + bw * 0.45, bw * 0.4, sy(&ys, b->lo), sy(&ys, b->hi));
	}
	fputs("</g>\n", f);
	ref_line(f, p, &ys);
	legend(f, p);
	fputs("</svg>\n", f);
}

void plot_svg(FILE *f, const struct plot *p)
{
	if (p->n_bars > 0)
		write_bars(f, p);
	else
		write_curves(f, p);
}

int plot_write(const char *path, const struct plot *p, char *err, size_t errlen)
{
	char tmp[4096];
	FILE *out;
	int e;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp%d", path, (int)getpid()) >= sizeof(tmp))
		return err_fill(err, errlen, 0, "%s: name too long", path);
	out = fopen(tmp, "w");
	if (!out)
		return err_fill(err, errlen, errno, "create %s", tmp);
	plot_svg(out, p);
	if (fflush(out) != 0 || ferror(out)) {
		e = errno;
		fclose(out);
		unlink(tmp);
		return err_fill(err, errlen, e, "write %s", path);
	}
	if (fclose(out) != 0) {
		e = errno;
		unlink(tmp);
		return err_fill(err, errlen, e, "write %s", path);
	}
	if (rename(tmp, path) != 0) {
		e = errno;
		unlink(tmp);
		return err_fill(err, errlen, e, "rename %s to %s", tmp, path);
	}
	return 0;
}
