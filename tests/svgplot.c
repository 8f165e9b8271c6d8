/*
 * svgplot - draw one curve from a CSV file as an SVG image, so that the
 * benchmark's chunk-size sweep can be looked at without any plotting tool.
 *
 *     svgplot [-l] [-o out.svg] [-t title] [-x xlabel] [-y ylabel] [file.csv]
 *
 * Input: one point per line, "x,y". Blank lines and lines starting with '#'
 * are ignored; the first other line may be a header ("chunk,us_per_kb"),
 * whose names become the axis labels unless -x/-y say otherwise. Anything
 * else that is not two finite numbers is an error naming the line.
 * -l: logarithmic (base 2) x axis, for sizes that double at each step.
 * Without -o the SVG goes to stdout; with -o it is written whole or not at
 * all (temporary file, then rename).
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

#include "opt.h"

#define MAX_POINTS 4096
#define WIDTH 720
#define HEIGHT 440
#define LEFT 80			/* margins around the plot area */
#define RIGHT 30
#define TOP 50
#define BOTTOM 70
#define PAD 14			/* keeps the end points off the axes */

static int cfg_log_x;
static const char *cfg_out;
static const char *cfg_title = "";
static const char *cfg_xlabel;
static const char *cfg_ylabel;
static const char *cfg_in;

struct point {
	double x, y;
};

static struct point points[MAX_POINTS];
static int n_points;
static char header_x[64], header_y[64];

static void usage(FILE *f)
{
	fprintf(f, "usage: svgplot [-l] [-o out.svg] [-t title] [-x xlabel] [-y ylabel] [file.csv]\n"
		"  reads \"x,y\" lines (a header line and # comments allowed), writes SVG\n"
		"  -l  log2 x axis\n");
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

static void read_points(FILE *f, const char *name)
{
	char line[512];
	int lineno = 0, seen_data_line = 0;

	/* f is never NULL: main's error(1, ...) does not return. */
	// cppcheck-suppress [ctunullpointer, nullPointerRedundantCheck]
	while (fgets(line, sizeof(line), f)) {
		char *comma, *xs, *ys;
		double x, y;

		lineno++;
		if (!strchr(line, '\n') && !feof(f))
			error(1, 0, "%s:%d: line too long", name, lineno);
		chomp(line);
		if (!line[0] || line[0] == '#')
			continue;
		comma = line + strcspn(line, ",");
		if (*comma != ',' || strchr(comma + 1, ','))
			error(1, 0, "%s:%d: want two fields \"x,y\": '%s'", name, lineno, line);
		*comma = '\0';
		xs = line;
		ys = comma + 1;
		if (parse_value(xs, &x) < 0 || parse_value(ys, &y) < 0) {
			if (!seen_data_line && parse_value(xs, &x) < 0) {
				/* The header: names, not numbers. */
				/* Axis labels: a long name is cut, on purpose. */
				snprintf(header_x, sizeof(header_x), "%.*s",
					 (int)sizeof(header_x) - 1, xs);
				snprintf(header_y, sizeof(header_y), "%.*s",
					 (int)sizeof(header_y) - 1, ys);
				seen_data_line = 1;
				continue;
			}
			error(1, 0, "%s:%d: not a number: '%s,%s'", name, lineno, xs, ys);
		}
		seen_data_line = 1;
		if (cfg_log_x && x <= 0)
			error(1, 0, "%s:%d: x must be above 0 on a log axis: '%s'", name, lineno, xs);
		if (n_points == MAX_POINTS)
			error(1, 0, "%s:%d: more than %d points", name, lineno, MAX_POINTS);
		points[n_points].x = x;
		points[n_points].y = y;
		n_points++;
	}
	if (ferror(f))
		error(1, errno, "read %s", name);
	if (n_points == 0)
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

static void write_svg(FILE *f)
{
	struct scale xs = { .log2 = cfg_log_x }, ys = { 0 };
	double ymin = 0, ymax = 0, step, v;
	int k, ticks;
	char buf[64];
	int i;

	xs.lo = xs.hi = cfg_log_x ? log2(points[0].x) : points[0].x;
	for (i = 0; i < n_points; i++) {
		double x = cfg_log_x ? log2(points[i].x) : points[i].x;

		xs.lo = fmin(xs.lo, x);
		xs.hi = fmax(xs.hi, x);
		ymin = fmin(ymin, points[i].y);
		ymax = fmax(ymax, points[i].y);
	}
	if (xs.hi == xs.lo) {	/* one point, or all at one x: centre it */
		xs.lo -= 1;
		xs.hi += 1;
	}
	if (ymax == ymin)
		ymax = ymin + 1;
	step = nice_step(ymax - ymin, 5);
	ys.lo = floor(ymin / step) * step;
	ys.hi = ceil(ymax / step) * step;

	/* f is never NULL: main's error(1, ...) does not return. */
	// cppcheck-suppress ctunullpointer
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
		WIDTH, HEIGHT, WIDTH, HEIGHT);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", WIDTH, HEIGHT);
	fprintf(f, "<text x=\"%d\" y=\"28\" text-anchor=\"middle\" font-size=\"16\">",
		WIDTH / 2);
	put_text(f, cfg_title);
	fputs("</text>\n", f);

	/* y grid and tick labels; ticks counted in integers, so no rounding
	 * drift adds or drops one */
	ticks = (int)lround((ys.hi - ys.lo) / step);
	fputs("<g class=\"yaxis\" stroke=\"#ddd\">\n", f);
	for (k = 0; k <= ticks; k++)
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n",
			LEFT, sy(&ys, ys.lo + k * step), WIDTH - RIGHT, sy(&ys, ys.lo + k * step));
	fputs("</g>\n<g text-anchor=\"end\">\n", f);
	for (k = 0; k <= ticks; k++) {
		v = ys.lo + k * step;
		fprintf(f, "<text x=\"%d\" y=\"%.1f\">%g</text>\n",
			LEFT - 6, sy(&ys, v) + 4, fabs(v) < step / 1e6 ? 0 : v);
	}
	fputs("</g>\n", f);

	/* x ticks: every data point's x on a log axis, round steps otherwise */
	fputs("<g text-anchor=\"middle\">\n", f);
	if (cfg_log_x) {
		for (i = 0; i < n_points; i++) {
			size_label(buf, sizeof(buf), points[i].x);
			fprintf(f, "<text x=\"%.1f\" y=\"%d\">%s</text>\n",
				sx(&xs, points[i].x), HEIGHT - BOTTOM + 18, buf);
		}
	} else {
		double xstep = nice_step(xs.hi - xs.lo, 6);
		int first = (int)lround(ceil(xs.lo / xstep - 1e-9));
		int last = (int)lround(floor(xs.hi / xstep + 1e-9));

		for (k = first; k <= last; k++)
			fprintf(f, "<text x=\"%.1f\" y=\"%d\">%g</text>\n",
				sx(&xs, k * xstep), HEIGHT - BOTTOM + 18, k * xstep);
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

	/* the curve, then a marked point (with its value on hover) per datum */
	fputs("<polyline fill=\"none\" stroke=\"#1f60c0\" stroke-width=\"2\" points=\"", f);
	for (i = 0; i < n_points; i++)
		fprintf(f, "%s%.1f,%.1f", i ? " " : "", sx(&xs, points[i].x), sy(&ys, points[i].y));
	fputs("\"/>\n<g class=\"points\" fill=\"#1f60c0\">\n", f);
	for (i = 0; i < n_points; i++)
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\"><title>%g, %g</title></circle>\n",
			sx(&xs, points[i].x), sy(&ys, points[i].y), points[i].x, points[i].y);
	fputs("</g>\n</svg>\n", f);
}

int main(int argc, char **argv)
{
	char tmp[4096];
	FILE *in = stdin, *out = stdout;
	int c;

	while ((c = getopt(argc, argv, "hlo:t:x:y:")) != -1) {
		switch (c) {
		case 'h': usage(stdout); return 0;
		case 'l': cfg_log_x = 1; break;
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
	cfg_in = optind < argc ? argv[optind] : "-";

	if (strcmp(cfg_in, "-") != 0) {
		in = fopen(cfg_in, "r");
		if (!in)
			error(1, errno, "open %s", cfg_in);
	}
	read_points(in, strcmp(cfg_in, "-") ? cfg_in : "stdin");
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
