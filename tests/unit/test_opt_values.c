/*
 * lib/app/opt_values.c: comma lists of names, sizes and times, each
 * refusal one usage line naming the caller's option, and two lists
 * crossed into labelled pairs.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "t.h"
#include "app/opt_values.h"

static const char *const fruit[] = { "apple", "pear", "plum", NULL };

static const char *fruit_name(int i)
{
	return fruit[i];
}

static int pear_takes_none(int i)
{
	return i != 1;
}

static const struct opt_spec names = { .opt = 'M', .kind = OPT_NAMES, .what = "fruit",
	.name = fruit_name };
static const struct opt_spec sizes = { .opt = 'b', .kind = OPT_SIZES, .min = 1,
	.max = 1 << 20 };
static const struct opt_spec times = { .opt = 'g', .kind = OPT_TIMES, .min = 1e-6,
	.max = 10 };

/* A list under its spec. */
struct given {
	const struct opt_spec *spec;
	const char *arg;
};

static void read_list(void *arg)
{
	const struct given *g = arg;
	struct opt_value v[4];

	opt_values(g->spec, g->arg, v, 4);
}

static void refuses(const struct opt_spec *spec, const char *arg, const char *want)
{
	char line[512];
	int rc = t_child(read_list, &(struct given){ spec, arg }, T_STDERR, line, sizeof(line));

	CHECK(rc == 2 && strstr(line, want), "'%s': exit 2, '%s' (got %d '%s')", arg, want,
	      rc, line);
}

/* Three names by three sizes into room for eight pairs. */
static void nine_pairs(void *arg)
{
	struct opt_value s[3];
	struct opt_pair p[8];

	opt_values(&sizes, "1K,2K,3K", s, 3);
	opt_pairs(&names, arg, 3, &sizes, s, 3, NULL, p, 8);
}

int main(void)
{
	struct opt_value n[8], s[8], t[8];
	struct opt_pair p[16];
	unsigned nn, ns, nt, np;
	char line[512];

	nn = opt_values(&names, "plum,apple,pear", n, 8);
	CHECK(nn == 3 && n[0].index == 2 && n[1].index == 0 && strcmp(n[2].label, "pear") == 0,
	      "names: their places in the table");
	ns = opt_values(&sizes, "256,4K,1M", s, 8);
	CHECK(ns == 3 && s[1].value == 4096 && strcmp(s[1].label, "4K") == 0 &&
	      strcmp(s[2].label, "1M") == 0, "sizes: bytes and labels (%s)", s[2].label);
	nt = opt_values(&times, "10ms,100us,2", t, 8);
	CHECK(nt == 3 && fabs(t[1].value - 100e-6) < 1e-15 && strcmp(t[0].label, "10ms") == 0 &&
	      strcmp(t[1].label, "100us") == 0 && strcmp(t[2].label, "2s") == 0,
	      "times: seconds and labels (%s %s %s)", t[0].label, t[1].label, t[2].label);

	np = opt_pairs(&names, n, nn, &sizes, s, 2, pear_takes_none, p, 16);
	CHECK(np == 5 && strcmp(p[0].label, "plum/256") == 0 && strcmp(p[3].label, "apple/4K") == 0
	      && strcmp(p[4].label, "pear") == 0 && !p[4].with_value && p[4].value == &s[0],
	      "pairs: each name with each size, pear once with the first (%u)", np);
	np = opt_pairs(&names, n, 2, &sizes, s, 1, NULL, p, 16);
	CHECK(np == 2 && strcmp(p[1].label, "apple") == 0, "one size: names alone");

	refuses(&names, "apple,,pear", "-M: 'apple,,pear': an empty item");
	refuses(&names, "apple,pear,apple", "-M: 'apple' is in the list twice");
	refuses(&names, "apple,fig", "-M: 'fig': unknown fruit (apple, pear, plum)");
	refuses(&names, "apple,pear,plum,apple2,x", "-M: more than 4 items");
	refuses(&sizes, "4K,4096", "-b: '4K' and '4096' are one size, 4096 bytes");
	refuses(&sizes, "4K,2M", "-b: '2M'");
	refuses(&sizes, "4K,x", "-b: 'x'");
	refuses(&times, "1ms,0.001", "-g: '1ms' and '0.001' are one time");
	refuses(&times, "100us,0.0001", "-g: '100us' and '0.0001' are one time");
	refuses(&times, "20", "-g: '20'");
	CHECK(t_child(nine_pairs, n, T_STDERR, line, sizeof(line)) == 2 &&
	      strstr(line, "-M and -b: more than 8 variants"), "nine pairs, room for 8: %s", line);
	return t_exit();
}
