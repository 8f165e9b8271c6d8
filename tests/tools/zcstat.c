/*
 * zcstat - the bench's statistics, from the command line: a thin front end
 * to lib/base/stats.c, so the scripts hold no arithmetic of their own.
 *
 *   zcstat [-s PREFIX]        numbers on stdin (any white space between)
 *   zcstat -c [-s PREFIX]     pairs on stdin, "A B" per line, one per round
 *   zcstat -r [-s PREFIX]     pairs likewise, judged by their ratios
 *   zcstat -g NAME            "KEY VALUE" lines: per KEY, the figure NAME
 *
 * The numbers are every word on stdin, or with -k LIST the fields LIST
 * (1-based, comma-separated: "3", or "4,10" for a pair) of each line, and
 * with -w N=TEXT only of the lines whose field N is TEXT: the columns of a
 * table the bench wrote, without a script of its own to cut them out.
 *
 * Without -c: the sample's n, median, min, max, mean, sd and the Student-t
 * 95% interval of the mean (lo, hi, half), one "name value" per line.
 * With -c: the same for A (names a_...) and for B (b_...), then
 *   ratio      median(A) / median(B)
 *   below      rounds in which A < B
 *   verdict    less | more | unresolved: "less" only when A < B in every
 *              round AND A's interval lies wholly below B's ("more" the
 *              other way round); either alone is too easily met by noise
 *   why        for unresolved: what failed
 * With -r: the paired view, each round's ratio A/B (rounds with B <= 0
 * left out): n, median, lo and hi (the distribution-free interval of the
 * median ratio: order statistics with 95% binomial coverage, or the least
 * and most ratio when there are too few rounds for that), conf (the
 * interval's coverage), above and below (rounds with a ratio above 1,
 * below 1), agree (the rounds on the median ratio's side of 1) and
 * verdict: less or more when the whole interval is below or above 1, else
 * unresolved (zcc's cheaper, dearer and ~).
 * With -g: field 1 of each line is a key, the value the field -k names
 * (default 2); per key, in the order keys first came, "KEY VALUE" with
 * VALUE the key's NAME: n, median, min, max, mean or sd.
 * -s PREFIX prints shell assignments instead, PREFIXname=value, for
 * `eval "$(zcstat -s x_ <file)"`. A figure that does not exist (the
 * interval of one value) is "nan".
 *
 * Exit: 0, 1 bad input (a word that is not a finite number, an odd pair,
 * no numbers at all; one line naming it), 2 usage error.
 */
#include <errno.h>
#include <error.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/opt.h"
#include "base/stats.h"

#define MAX_VALUES 100000


static int cfg_pairs, cfg_ratios;
static const char *cfg_prefix;
/* -g: the figure per key, 1 + its index in figures[]; 0: no -g. */
static const char *const figures[] = { "n", "median", "min", "max", "mean", "sd" };
#define N_FIGURES (int)(sizeof(figures) / sizeof(figures[0]))
static int cfg_group;
static int cfg_fields[2], cfg_nfields;	/* -k: 1-based; 0 fields: every word */
static int cfg_where;			/* -w: the field to match, 1-based; 0: none */
static const char *cfg_where_text;

static void __attribute__((noreturn)) usage(void)
{
	printf("usage: zcstat [-c | -r | -g NAME] [-k LIST] [-w N=TEXT] [-s PREFIX] < numbers\n\n"
	       "  (no -c)   summarise the numbers: n, median, min, max, mean, sd and\n"
	       "            the Student-t 95%% interval of the mean (lo, hi, half)\n"
	       "  -c        \"A B\" per line, one line per round: both summaries, the\n"
	       "            ratio of the medians and the verdict on A against B:\n"
	       "            less/more only when every round agrees in sign and the\n"
	       "            95%% intervals do not overlap, else unresolved\n"
	       "  -r        \"A B\" per line, one per round: the rounds' ratios A/B, their\n"
	       "            median, its distribution-free interval (lo, hi, conf) and\n"
	       "            the rounds with a ratio above and below 1, those that agree\n"
	       "            with the median, and the verdict (less or more when the\n"
	       "            interval is wholly below or above 1, else unresolved)\n"
	       "  -g NAME   \"KEY VALUE\" per line: per key, \"KEY FIGURE\", FIGURE the\n"
	       "            values' n, median, min, max, mean or sd\n"
	       "  -k LIST   the numbers are fields LIST of each line (\"3\", \"4,10\")\n"
	       "  -w N=TEXT only the lines whose field N is TEXT\n"
	       "  -s PREFIX shell assignments PREFIXname=value instead of \"name value\"\n"
	       "  -h        this help\n");
	exit(0);
}

static void put(const char *pre, const char *name, double v)
{
	if (cfg_prefix)
		printf("%s%s%s=%.6g\n", cfg_prefix, pre, name, v);
	else
		printf("%s%s %.6g\n", pre, name, v);
}

static void put_text(const char *name, const char *v)
{
	if (cfg_prefix)
		printf("%s%s='%s'\n", cfg_prefix, name, v);
	else
		printf("%s %s\n", name, v);
}

static void put_summary(const char *pre, double *v, size_t n)
{
	struct stats_sum s;

	stats_summarise(v, n, &s);
	put(pre, "n", (double)s.n);
	put(pre, "median", s.median);
	put(pre, "min", s.min);
	put(pre, "max", s.max);
	put(pre, "mean", s.mean);
	put(pre, "sd", s.sd);
	put(pre, "lo", s.lo);
	put(pre, "hi", s.hi);
	put(pre, "half", s.half);
}

static double number(const char *word)
{
	char *end;
	double x = strtod(word, &end);

	if (*end || end == word || !isfinite(x))
		error(1, 0, "'%s': not a finite number", word);
	return x;
}

/* Splits line at white space into at most max words; how many. */
static int split(char *line, char **w, int max)
{
	char *save = NULL;
	int n = 0;

	for (char *t = strtok_r(line, " \t\n", &save); t && n < max;
	     t = strtok_r(NULL, " \t\n", &save))
		w[n++] = t;
	return n;
}

/*
 * Reads the numbers on stdin into v (every word, or -k's fields of the
 * lines -w lets through); returns how many. With keys (-g), each line's
 * field 1 into keys[], one per value.
 */
static size_t read_values(double *v, char **keys)
{
	char *line = NULL, *w[64];
	size_t cap = 0, n = 0;
	long lineno = 0;

	while (getline(&line, &cap, stdin) > 0) {
		int nw = split(line, w, 64), want = cfg_nfields ? cfg_nfields : nw;

		lineno++;
		if (nw == 0)
			continue;	/* a blank line */
		if (cfg_where && (cfg_where > nw || strcmp(w[cfg_where - 1], cfg_where_text) != 0))
			continue;
		for (int i = 0; i < want; i++) {
			int f = cfg_nfields ? cfg_fields[i] : i + 1;

			if (f > nw)
				error(1, 0, "line %ld: no field %d", lineno, f);
			if (n == MAX_VALUES)
				error(1, 0, "more than %d numbers", MAX_VALUES);
			if (keys && !(keys[n] = strdup(w[0])))
				error(1, errno, "strdup");
			v[n++] = number(w[f - 1]);
		}
	}
	free(line);
	if (n == 0)
		error(1, 0, "no numbers on standard input");
	return n;
}

/* -g NAME: per key, in the order keys came, "KEY FIGURE". */
static void groups(const double *v, char **keys, size_t n)
{
	static double g[MAX_VALUES];
	static const char *seen[MAX_VALUES];	/* a key per value at most */
	size_t nkeys = 0;

	for (size_t i = 0; i < n; i++) {
		size_t k, m = 0;
		struct stats_sum s;

		for (k = 0; k < nkeys && strcmp(seen[k], keys[i]) != 0; k++)
			;
		if (k < nkeys)
			continue;
		seen[nkeys++] = keys[i];
		for (size_t j = i; j < n; j++)
			if (strcmp(keys[j], keys[i]) == 0)
				g[m++] = v[j];
		stats_summarise(g, m, &s);
		const double by[N_FIGURES] = { (double)s.n, s.median, s.min, s.max, s.mean, s.sd };

		printf("%s %.6g\n", keys[i], by[cfg_group - 1]);
	}
}

/* -k LIST: one field or a pair, each 1 to 64. */
static void parse_fields(const char *list)
{
	char *end;
	const char *p = list;

	for (cfg_nfields = 0; cfg_nfields < 2; p = end + 1) {
		long f = strtol(p, &end, 10);

		if (end == p || f < 1 || f > 64 || (*end && *end != ','))
			break;
		cfg_fields[cfg_nfields++] = (int)f;
		if (!*end)
			return;
	}
	usage_error("-k '%s': a field or two, 1 to 64, comma-separated (\"3\", \"4,10\")", list);
}

static void compare(const double *v, size_t n)
{
	static double a[MAX_VALUES / 2], b[MAX_VALUES / 2];
	size_t rounds = n / 2, below = 0;
	const char *why;
	enum stats_verdict verdict;

	if (n % 2)
		error(1, 0, "%zu numbers: -c needs pairs, \"A B\" per round", n);
	for (size_t i = 0; i < rounds; i++) {
		a[i] = v[2 * i];
		b[i] = v[2 * i + 1];
		below += a[i] < b[i];
	}
	verdict = stats_compare(a, b, rounds, &why);
	put("", "below", (double)below);
	put_text("verdict", verdict == STATS_LESS ? "less" :
		 verdict == STATS_MORE ? "more" : "unresolved");
	put_text("why", why);
	put_summary("a_", a, rounds);	/* sorts a and b: after the verdict */
	put_summary("b_", b, rounds);
	put("", "ratio", stats_median(a, rounds) / stats_median(b, rounds));
}

static void ratios(const double *v, size_t n)
{
	static double a[MAX_VALUES / 2], b[MAX_VALUES / 2];
	size_t rounds = n / 2;
	struct stats_ratio r;
	enum stats_verdict verdict;

	if (n % 2)
		error(1, 0, "%zu numbers: -r needs pairs, \"A B\" per round", n);
	for (size_t i = 0; i < rounds; i++) {
		a[i] = v[2 * i];
		b[i] = v[2 * i + 1];
	}
	stats_ratios(a, b, rounds, &r);
	put("", "n", (double)r.n);
	put("", "median", r.median);
	put("", "lo", r.lo);
	put("", "hi", r.hi);
	put("", "conf", r.conf);
	put("", "above", (double)r.above);
	put("", "below", (double)r.below);
	put("", "agree", (double)stats_ratio_agree(&r));
	verdict = stats_ratio_verdict(&r);
	put_text("verdict", verdict == STATS_LESS ? "less" :
		 verdict == STATS_MORE ? "more" : "unresolved");
}

int main(int argc, char **argv)
{
	static double v[MAX_VALUES];
	static char *keys[MAX_VALUES];
	const char *eq;
	char *end;
	int c;
	size_t n;

	while ((c = getopt(argc, argv, ":cg:hk:rs:w:")) != -1) {
		switch (c) {
		case 'g':
			for (cfg_group = 0; cfg_group < N_FIGURES; cfg_group++)
				if (!strcmp(optarg, figures[cfg_group]))
					break;
			if (cfg_group == N_FIGURES)
				usage_error("-g '%s': one of n, median, min, max, mean, sd", optarg);
			cfg_group++;
			break;
		case 'k':
			parse_fields(optarg);
			break;
		case 'w':
			eq = strchr(optarg, '=');
			cfg_where = (int)strtol(optarg, &end, 10);
			if (!eq || end != eq || cfg_where < 1 || cfg_where > 64)
				usage_error("-w '%s': FIELD=TEXT, FIELD 1 to 64", optarg);
			cfg_where_text = eq + 1;
			break;
		case 'c':
			cfg_pairs = 1;
			break;
		case 'r':
			cfg_ratios = 1;
			break;
		case 's':
			if (!*optarg || strspn(optarg, "abcdefghijklmnopqrstuvwxyz"
					       "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789") != strlen(optarg))
				usage_error("-s '%s': a shell name prefix (letters, digits, _)", optarg);
			cfg_prefix = optarg;
			break;
		case 'h':
			usage();
		default:
			opt_refused(c);
		}
	}
	if (optind < argc)
		usage_error("'%s': the numbers come on standard input", argv[optind]);
	if (cfg_pairs + cfg_ratios + !!cfg_group > 1)
		usage_error("-c, -r and -g: one of them");
	if (cfg_group && cfg_nfields > 1)
		usage_error("-g: one value field (-k N)");
	if (cfg_group && !cfg_nfields)
		cfg_fields[cfg_nfields++] = 2;
	n = read_values(v, cfg_group ? keys : NULL);
	if (cfg_group) {
		groups(v, keys, n);
		for (size_t i = 0; i < n; i++)
			free(keys[i]);
	}
	else if (cfg_ratios)
		ratios(v, n);
	else if (cfg_pairs)
		compare(v, n);
	else
		put_summary("", v, n);
	return 0;
}
