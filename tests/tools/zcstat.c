/*
 * zcstat - the bench's statistics, from the command line: a thin front end
 * to lib/base/stats.c, so the scripts hold no arithmetic of their own.
 *
 *   zcstat [-s PREFIX]        numbers on stdin (any white space between)
 *   zcstat -c [-s PREFIX]     pairs on stdin, "A B" per line, one per round
 *   zcstat -r [-s PREFIX]     pairs likewise, judged by their ratios
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
 * -s PREFIX prints shell assignments instead, PREFIXname=value, for
 * `eval "$(zcstat -s x_ <file)"`. A figure that does not exist (the
 * interval of one value) is "nan".
 *
 * Exit: 0, 1 bad input (a word that is not a finite number, an odd pair,
 * no numbers at all; one line naming it), 2 usage error.
 */
#include <error.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/opt.h"
#include "base/stats.h"

#define MAX_VALUES 100000

static int cfg_pairs, cfg_ratios;
static const char *cfg_prefix;

static void __attribute__((noreturn)) usage(void)
{
	printf("usage: zcstat [-c | -r] [-s PREFIX] < numbers\n\n"
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

/* Reads every number on stdin into v; returns how many. */
static size_t read_values(double *v)
{
	char word[128];
	size_t n = 0;

	while (scanf("%127s", word) == 1) {
		char *end;
		double x = strtod(word, &end);

		if (*end || end == word || !isfinite(x))
			error(1, 0, "'%s': not a finite number", word);
		if (n == MAX_VALUES)
			error(1, 0, "more than %d numbers", MAX_VALUES);
		v[n++] = x;
	}
	if (n == 0)
		error(1, 0, "no numbers on standard input");
	return n;
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
	int c;
	size_t n;

	while ((c = getopt(argc, argv, ":chrs:")) != -1) {
		switch (c) {
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
	if (cfg_pairs && cfg_ratios)
		usage_error("-c and -r: one or the other");
	n = read_values(v);
	if (cfg_ratios)
		ratios(v, n);
	else if (cfg_pairs)
		compare(v, n);
	else
		put_summary("", v, n);
	return 0;
}
