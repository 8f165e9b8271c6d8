/*
 * svgplot - draw the benchmark's figures as SVG images, so that they can be
 * looked at without any plotting tool.
 *
 *     svgplot [-lpi] [-o out.svg] [-t title] [-x xlabel] [-y ylabel] [file.csv]
 *     svgplot -G [-o out.svg] [-t title] [-x xlabel] [-y ylabel] [file.csv]
 *
 * Curves (the default): one point per line, "x,y". Blank lines and lines
 * starting with '#' are ignored; the first other line may be a header
 * ("chunk,us_per_kb"), whose names become the axis labels unless -x/-y say
 * otherwise. A header with more names, "x,a,b,...", announces that many
 * series (up to 6): each data line then has that many fields, and an empty
 * field is a point missing from that series. Several series get a legend.
 * -l: logarithmic (base 2) x axis, for sizes that double at each step.
 * -p: points only, no line through them (a scatter).
 * -i: the ideal line y = x, dashed (a meter's reading against the truth).
 *
 * Grouped bars (-G): "group,series,value[,lo,hi]" per line (a header line
 * allowed): one cluster of bars per group, in the order first seen, one bar
 * per series in it, coloured by series, with an error bar from lo to hi
 * when given (for example a 95% interval).
 *
 * Anything else that is not numbers where numbers belong is an error naming
 * the line. Every point or bar carries its values in a <title>, shown on
 * hover. Without -o the SVG goes to stdout; with -o it is written whole or
 * not at all (temporary file, then rename).
 *
 * Exit: 0 written, 1 bad data or I/O failure, 2 usage error.
 */
#include <errno.h>
#include <error.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/opt.h"

#define MAX_POINTS 4096
#define WIDTH 720
#define HEIGHT 440
#define LEFT 80			/* margins around the plot area */
#define RIGHT 30
#define TOP 50
#define BOTTOM 70
#define PAD 14			/* keeps the end points off the axes */

static int cfg_log_x, cfg_scatter, cfg_ideal, cfg_bars;
static const char *cfg_out;
static const char *cfg_title = "";
static const char *cfg_xlabel;
static const char *cfg_ylabel;
static const char *cfg_in;

#define MAX_SERIES 6
#define MAX_GROUPS 32
#define MAX_FIELDS 8
#define NAME_LEN 64

struct point {
	double x, y;
	int series;
};

struct bar {
	int group, series, has_err;
	double v, lo, hi;
};

static struct point points[MAX_POINTS];
static int n_points;
static struct bar bars[MAX_POINTS];
static int n_bars;
static int n_series = 1, n_groups;
static char header_x[NAME_LEN], header_y[NAME_LEN];
static char series_name[MAX_SERIES][NAME_LEN];
static char group_name[MAX_GROUPS][NAME_LEN];

static const char *const colour[MAX_SERIES] = {
	"#1f60c0", "#d04020", "#209040", "#9040b0", "#c08000", "#404040",
};

static void usage(FILE *f)
{
	fprintf(f, "usage: svgplot [-lpi] [-o out.svg] [-t title] [-x xlabel] [-y ylabel] [file.csv]\n"
		"       svgplot -G [-o out.svg] [-t title] [-x xlabel] [-y ylabel] [file.csv]\n"
		"  reads \"x,y\" lines (a header line and # comments allowed), writes SVG;\n"
		"  a header \"x,a,b,...\" announces several series (an empty field: no point)\n"
		"  -l  log2 x axis\n"
		"  -p  points only, no line through them\n"
		"  -i  the ideal line y = x, dashed\n"
		"  -G  grouped bars from \"group,series,value[,lo,hi]\" lines, lo-hi an error bar\n");
}

/*
 * A data value is a real number, which parse_num (integers, for options)
 * does not cover: the same strictness, for doubles.
 */
static int parse_value(const char *s, double *out)
{
	char *end;

	if (!*s)
		return -1;
	errno = 0;
	*out = strtod(s, &end);
	if (end == s || *end || errno == ERANGE || !isfinite(*out))
		return -1;
	return 0;
}

/* Cut trailing spaces, CR and newline: CSV files come from many editors. */
static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' '))
		s[--n] = '\0';
}

/* Split s at its commas, in place; returns the number of fields (at most
 * max; one more than max means "too many"). */
static int split(char *s, char **field, int max)
{
	int n = 0;

	for (;;) {
		if (n == max)
			return max + 1;
		field[n++] = s;
		s = strchr(s, ',');
		if (!s)
			return n;
		*s++ = '\0';
	}
}

/* Names are cut to NAME_LEN - 1 characters, on purpose (labels). */
static void name_copy(char *dst, const char *src)
{
	snprintf(dst, NAME_LEN, "%.*s", NAME_LEN - 1, src);
}

static int name_index(char names[][NAME_LEN], int *n, int max, const char *name,
		      const char *what, const char *file, int lineno)
{
	for (int i = 0; i < *n; i++)
		if (strncmp(names[i], name, NAME_LEN - 1) == 0)
			return i;
	if (*n == max)
		error(1, 0, "%s:%d: more than %d %s", file, lineno, max, what);
	name_copy(names[*n], name);
	return (*n)++;
}

/* One "x,y[,y2...]" line of a curve file. */
static void curve_line(char **f, int nf, int fields, const char *name, int lineno)
{
	double x, y;

	if (nf != fields) {
		if (fields == 2)
			error(1, 0, "%s:%d: want two fields \"x,y\"", name, lineno);
		error(1, 0, "%s:%d: want %d fields, as the header has", name, lineno, fields);
	}
	if (parse_value(f[0], &x) < 0)
		error(1, 0, "%s:%d: not a number: '%s'", name, lineno, f[0]);
	if (cfg_log_x && x <= 0)
		error(1, 0, "%s:%d: x must be above 0 on a log axis: '%s'", name, lineno, f[0]);
	for (int i = 1; i < nf; i++) {
		if (fields > 2 && !*f[i])
			continue;	/* no point of this series here */
		if (parse_value(f[i], &y) < 0)
			error(1, 0, "%s:%d: not a number: '%s'", name, lineno, f[i]);
		if (n_points == MAX_POINTS)
			error(1, 0, "%s:%d: more than %d points", name, lineno, MAX_POINTS);
		points[n_points++] = (struct point){ x, y, i - 1 };
	}
}

/* One "group,series,value[,lo,hi]" line of a bar file. */
static void bar_line(char **f, int nf, const char *name, int lineno)
{
	struct bar b = { 0 };

	if (nf != 3 && nf != 5)
		error(1, 0, "%s:%d: want \"group,series,value[,lo,hi]\"", name, lineno);
	if (parse_value(f[2], &b.v) < 0 ||
	    (nf == 5 && (parse_value(f[3], &b.lo) < 0 || parse_value(f[4], &b.hi) < 0)))
		error(1, 0, "%s:%d: not a number in '%s,%s%s%s%s%s'", name, lineno, f[0], f[1],
		      ",", f[2], nf == 5 ? "," : "", nf == 5 ? f[3] : "");
	b.has_err = nf == 5;
	b.group = name_index(group_name, &n_groups, MAX_GROUPS, f[0], "groups", name, lineno);
	b.series = name_index(series_name, &n_series, MAX_SERIES, f[1], "series", name, lineno);
	if (n_bars == MAX_POINTS)
		error(1, 0, "%s:%d: more than %d bars", name, lineno, MAX_POINTS);
	bars[n_bars++] = b;
}

/* The header line: names, not numbers. Sets how many fields a line has. */
static int header_line(char **f, int nf, const char *name, int lineno)
{
	if (cfg_bars) {
		name_copy(header_x, f[0]);
		if (nf > 2)
			name_copy(header_y, f[2]);
		return nf;
	}
	if (nf < 2 || nf > MAX_SERIES + 1)
		error(1, 0, "%s:%d: a header of 2 to %d names, got %d", name, lineno,
		      MAX_SERIES + 1, nf);
	name_copy(header_x, f[0]);
	name_copy(header_y, f[1]);
	n_series = nf - 1;
	for (int i = 1; i < nf; i++)
		name_copy(series_name[i - 1], f[i]);
	return nf;
}

static void read_data(FILE *f, const char *name)
{
	char line[512], *field[MAX_FIELDS];
	int lineno = 0, seen_data_line = 0, fields = 2, nf;
	double x;

	/* f is never NULL: main's error(1, ...) does not return. */
	// cppcheck-suppress [ctunullpointer, nullPointerRedundantCheck]
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(f))
			error(1, 0, "%s:%d: line too long", name, lineno);
		chomp(line);
		if (!line[0] || line[0] == '#')
			continue;
		nf = split(line, field, MAX_FIELDS);
		/* A first line whose leading field is no number is the header
		 * (for bars: whose value field is no number). */
		if (!seen_data_line && nf <= MAX_FIELDS &&
		    parse_value(field[cfg_bars ? (nf > 2 ? 2 : 0) : 0], &x) < 0) {
			fields = header_line(field, nf, name, lineno);
			seen_data_line = 1;
			continue;
		}
		seen_data_line = 1;
		if (cfg_bars)
			bar_line(field, nf, name, lineno);
		else
			curve_line(field, nf, fields, name, lineno);
	}
	if (ferror(f))
		error(1, errno, "read %s", name);
	if (n_points == 0 && n_bars == 0)
		error(1, 0, "%s: no data points", name);
}

/* Text into SVG: the five characters XML reserves. */
static void put_text(FILE *f, const char *s)
{
	for (; *s; s++) {
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

/* 256, 4K, 64K, 1M: how sizes are usually written. */
static void size_label(char *buf, size_t len, double v)
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
static void frame(FILE *f, const struct scale *ys, double step)
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
	put_text(f, cfg_title);
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
	put_text(f, cfg_xlabel ? cfg_xlabel : header_x);
	fputs("</text>\n", f);
	fprintf(f, "<text transform=\"translate(20 %d) rotate(-90)\" text-anchor=\"middle\">",
		TOP + (HEIGHT - TOP - BOTTOM) / 2);
	put_text(f, cfg_ylabel ? cfg_ylabel : header_y);
	fputs("</text>\n", f);
}

/* With more than one series: a box of their names in their colours. */
static void legend(FILE *f)
{
	int i;

	if (n_series < 2)
		return;
	fputs("<g class=\"legend\">\n", f);
	for (i = 0; i < n_series; i++) {
		int y = TOP + 6 + 16 * i;

		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>\n",
			WIDTH - RIGHT - 200, y, colour[i]);
		fprintf(f, "<text x=\"%d\" y=\"%d\">", WIDTH - RIGHT - 185, y + 9);
		put_text(f, series_name[i]);
		fputs("</text>\n", f);
	}
	fputs("</g>\n", f);
}

/* x ticks: every data point's x on a log axis, round steps otherwise. */
static void x_ticks(FILE *f, const struct scale *xs)
{
	char buf[64];
	int i, k;

	fputs("<g text-anchor=\"middle\">\n", f);
	if (cfg_log_x) {
		for (i = 0; i < n_points; i++) {
			for (k = 0; k < i && points[k].x != points[i].x; k++)
				;
			if (k < i)
				continue;	/* labelled already */
			size_label(buf, sizeof(buf), points[i].x);
			fprintf(f, "<text x=\"%.1f\" y=\"%d\">%s</text>\n",
				sx(xs, points[i].x), HEIGHT - BOTTOM + 18, buf);
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

/* Each series: its curve (unless -p), then a marked point per datum. */
static void curves(FILE *f, const struct scale *xs, const struct scale *ys)
{
	int i, s, first;

	for (s = 0; s < n_series; s++) {
		if (!cfg_scatter) {
			fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
				colour[s]);
			first = 1;
			for (i = 0; i < n_points; i++) {
				if (points[i].series != s)
					continue;
				fprintf(f, "%s%.1f,%.1f", first ? "" : " ",
					sx(xs, points[i].x), sy(ys, points[i].y));
				first = 0;
			}
			fputs("\"/>\n", f);
		}
		fprintf(f, "<g class=\"points\" fill=\"%s\">\n", colour[s]);
		for (i = 0; i < n_points; i++)
			if (points[i].series == s)
				fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\"><title>%g, %g</title></circle>\n",
					sx(xs, points[i].x), sy(ys, points[i].y), points[i].x, points[i].y);
		fputs("</g>\n", f);
	}
}

static void write_curves(FILE *f)
{
	struct scale xs = { .log2 = cfg_log_x }, ys = { 0 };
	double ymin = 0, ymax = 0, step;
	int i;

	xs.lo = xs.hi = cfg_log_x ? log2(points[0].x) : points[0].x;
	for (i = 0; i < n_points; i++) {
		double x = cfg_log_x ? log2(points[i].x) : points[i].x;

		xs.lo = fmin(xs.lo, x);
		xs.hi = fmax(xs.hi, x);
		ymin = fmin(ymin, points[i].y);
		ymax = fmax(ymax, points[i].y);
	}
	if (cfg_ideal) {	/* the whole ideal line in view */
		ymin = fmin(ymin, points[0].x);
		ymax = fmax(ymax, xs.hi);
	}
	if (xs.hi == xs.lo) {	/* one point, or all at one x: centre it */
		xs.lo -= 1;
		xs.hi += 1;
	}
	step = y_scale(&ys, ymin, ymax);
	frame(f, &ys, step);
	x_ticks(f, &xs);
	if (cfg_ideal)
		fprintf(f, "<line class=\"ideal\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#888\" stroke-dasharray=\"6 4\"><title>ideal: y = x</title></line>\n",
			sx(&xs, xs.lo), sy(&ys, xs.lo), sx(&xs, xs.hi), sy(&ys, xs.hi));
	curves(f, &xs, &ys);
	legend(f);
	fputs("</svg>\n", f);
}

/* Grouped bars: a cluster per group, a bar per series, error bars. */
static void write_bars(FILE *f)
{
	struct scale ys = { 0 };
	double ymin = 0, ymax = 0, step, gw, bw;
	int i;

	for (i = 0; i < n_bars; i++) {
		ymin = fmin(ymin, bars[i].has_err ? fmin(bars[i].lo, bars[i].v) : bars[i].v);
		ymax = fmax(ymax, bars[i].has_err ? fmax(bars[i].hi, bars[i].v) : bars[i].v);
	}
	step = y_scale(&ys, ymin, ymax);
	frame(f, &ys, step);
	gw = (double)(WIDTH - LEFT - RIGHT) / n_groups;
	bw = gw * 0.8 / n_series;
	fputs("<g text-anchor=\"middle\">\n", f);
	for (i = 0; i < n_groups; i++) {
		fprintf(f, "<text x=\"%.1f\" y=\"%d\">", LEFT + gw * (i + 0.5), HEIGHT - BOTTOM + 18);
		put_text(f, group_name[i]);
		fputs("</text>\n", f);
	}
	fputs("</g>\n<g class=\"bars\">\n", f);
	for (i = 0; i < n_bars; i++) {
		const struct bar *b = &bars[i];
		double x = LEFT + gw * b->group + gw * 0.1 + bw * b->series;
		double y0 = sy(&ys, 0), y1 = sy(&ys, b->v);

		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
			"<title>", x, fmin(y0, y1), bw * 0.9, fabs(y0 - y1), colour[b->series]);
		put_text(f, group_name[b->group]);
		fputs(", ", f);
		put_text(f, series_name[b->series]);
		fprintf(f, ": %g", b->v);
		if (b->has_err)
			fprintf(f, " (%g to %g)", b->lo, b->hi);
		fputs("</title></rect>\n", f);
		if (b->has_err)
			fprintf(f, "<path class=\"err\" d=\"M%.1f %.1f H%.1f M%.1f %.1f V%.1f M%.1f %.1f H%.1f\" "
				"stroke=\"black\"/>\n",
				x + bw * 0.25, sy(&ys, b->hi), x + bw * 0.65, x + bw * 0.45, sy(&ys, b->hi),
				sy(&ys, b->lo), x + bw * 0.25, sy(&ys, b->lo), x + bw * 0.65);
	}
	fputs("</g>\n", f);
	legend(f);
	fputs("</svg>\n", f);
}

static void write_svg(FILE *f)
{
	/* f is never NULL: main's error(1, ...) does not return. */
	if (cfg_bars)
		write_bars(f);
	else
		write_curves(f);
}

int main(int argc, char **argv)
{
	char tmp[4096];
	FILE *in = stdin, *out = stdout;
	int c;

	while ((c = getopt(argc, argv, "Ghilo:pt:x:y:")) != -1) {
		switch (c) {
		case 'h': usage(stdout); return 0;
		case 'G': cfg_bars = 1; break;
		case 'i': cfg_ideal = 1; break;
		case 'l': cfg_log_x = 1; break;
		case 'p': cfg_scatter = 1; break;
		case 'o': cfg_out = optarg; break;
		case 't': cfg_title = optarg; break;
		case 'x': cfg_xlabel = optarg; break;
		case 'y': cfg_ylabel = optarg; break;
		default: usage(stderr); return 2;
		}
	}
	if (argc - optind > 1)
		usage_error("one input file at most (got %d)", argc - optind);
	if (cfg_out && !*cfg_out)
		usage_error("-o: empty file name");
	if (cfg_bars && (cfg_log_x || cfg_scatter || cfg_ideal))
		usage_error("-G draws bars: -l, -p and -i are for curves");
	cfg_in = optind < argc ? argv[optind] : "-";
	if (cfg_bars)
		n_series = 0;	/* named by the data */

	if (strcmp(cfg_in, "-") != 0) {
		in = fopen(cfg_in, "r");
		if (!in)
			error(1, errno, "open %s", cfg_in);
	}
	read_data(in, strcmp(cfg_in, "-") ? cfg_in : "stdin");
	if (in != stdin)
		fclose(in);

	if (cfg_out) {
		if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp%d", cfg_out, (int)getpid()) >= sizeof(tmp))
			error(1, 0, "%s: name too long", cfg_out);
		out = fopen(tmp, "w");
		if (!out)
			error(1, errno, "create %s", tmp);
	}
	write_svg(out);
	if (fflush(out) != 0 || ferror(out)) {
		int e = errno;

		if (cfg_out)
			unlink(tmp);
		error(1, e, "write %s", cfg_out ? cfg_out : "stdout");
	}
	if (cfg_out) {
		if (fclose(out) != 0) {
			int e = errno;

			unlink(tmp);
			error(1, e, "write %s", cfg_out);
		}
		if (rename(tmp, cfg_out) != 0) {
			int e = errno;

			unlink(tmp);
			error(1, e, "rename %s to %s", tmp, cfg_out);
		}
	}
	return 0;
}
