/*
 * svgplot - draw the benchmark's figures as SVG images, so that they can be
 * looked at without any plotting tool. The drawing is lib/app/plot.c's,
 * the same zcc --plot uses; this reads the CSV and the options.
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

#include "app/opt.h"
#include "app/plot.h"

#define MAX_POINTS 4096

static int cfg_log_x, cfg_scatter, cfg_ideal, cfg_bars;
static const char *cfg_out;
static const char *cfg_title = "";
static const char *cfg_xlabel;
static const char *cfg_ylabel;
static const char *cfg_in;

#define MAX_SERIES 6
#define MAX_GROUPS 32
#define MAX_FIELDS 8
#define NAME_LEN PLOT_NAME_LEN

static struct plot_point points[MAX_POINTS];
static int n_points;
static struct plot_bar bars[MAX_POINTS];
static int n_bars;
static int n_series = 1, n_groups;
static char header_x[NAME_LEN], header_y[NAME_LEN];
static char series_name[PLOT_MAX_SERIES][NAME_LEN];
static char group_name[PLOT_MAX_GROUPS][NAME_LEN];

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
		points[n_points++] = (struct plot_point){ .x = x, .y = y, .series = i - 1 };
	}
}

/* One "group,series,value[,lo,hi]" line of a bar file. */
static void bar_line(char **f, int nf, const char *name, int lineno)
{
	struct plot_bar b = { 0 };

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

/* The chart from what was read and the options, drawn by lib/app/plot.c. */
static void make_plot(struct plot *p)
{
	p->title = cfg_title;
	p->xlabel = cfg_xlabel ? cfg_xlabel : header_x;
	p->ylabel = cfg_ylabel ? cfg_ylabel : header_y;
	p->log_x = cfg_log_x;
	p->scatter = cfg_scatter;
	p->ideal = cfg_ideal;
	p->n_series = n_series;
	memcpy(p->series, series_name, sizeof(series_name));
	p->n_groups = n_groups;
	memcpy(p->group, group_name, sizeof(group_name));
	p->points = points;
	p->n_points = n_points;
	p->bars = bars;
	p->n_bars = n_bars;
}

int main(int argc, char **argv)
{
	static struct plot plot;
	FILE *in = stdin;
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

	make_plot(&plot);
	if (cfg_out) {
		char err[4200];

		if (plot_write(cfg_out, &plot, err, sizeof(err)) < 0)
			error(1, 0, "%s", err);
		return 0;
	}
	plot_svg(stdout, &plot);
	if (fflush(stdout) != 0 || ferror(stdout))
		error(1, errno, "write stdout");
	return 0;
}
