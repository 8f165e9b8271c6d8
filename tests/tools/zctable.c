/*
 * zctable - zcc's comparison table, printed again from the compare events
 * of a run zcc wrote with -J, for the bench: a part that needs the run's
 * JSON (the -W figures of each round) shows zcc's own table, with zcc's
 * own figures (the events carry every median, ratio, interval and
 * verdict as zcc worked them out, to the digits the table prints) and
 * zcc's own code to print them (lib/app/compare_table.c), rather than a
 * table of its own.
 *
 *	zctable FILE
 *
 * FILE (- for stdin) holds one zcc -J run of two or more variants. Its
 * last table is printed: the compare events after the last round event.
 * A file with none, a line that is not JSON, another program's events or
 * a table of one row: one line, exit 2.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/compare.h"
#include "app/out.h"
#include "base/jsonl.h"
#include "zcc/compare.h"

static struct compare_row rows[COMPARE_MAX];
static char names[COMPARE_MAX][2][64];	/* each row's variant and method */
static char figure[64];			/* the deciding figure's key */
static unsigned n;

static void refuse(const char *path, unsigned line, const char *why)
{
	fprintf(stderr, "zctable: %s:%u: %s\n", path, line, why);
	exit(2);
}

static double num_or_nan(const struct jsonl_obj *o, const char *key)
{
	const struct jsonl_field *f = jsonl_get(o, key);

	return f && f->type == JSONL_NUM ? jsonl_num(o, key) : NAN;
}

/* A compare event o as the next row of the table. */
static void take_row(const struct jsonl_obj *o, const char *path, unsigned line)
{
	struct compare_row *r = &rows[n];
	struct fig_run medians = fig_run_none();
	const char *word = jsonl_str(o, "verdict"), *why = jsonl_str(o, "verdict_why");
	char key[80];

	if (n == COMPARE_MAX || !jsonl_str(o, "variant"))
		refuse(path, line, n == COMPARE_MAX ? "too many rows" : "a compare event without its variant");
	memset(r, 0, sizeof(*r));
	snprintf(names[n][0], sizeof(names[n][0]), "%s", jsonl_str(o, "variant"));
	r->name = names[n][0];
	if (jsonl_str(o, "method")) {
		snprintf(names[n][1], sizeof(names[n][1]), "%s", jsonl_str(o, "method"));
		r->method = names[n][1];
	}
	r->rounds = (size_t)num_or_nan(o, "rounds");
	for (int i = 0; i < FIG_N; i++) {
		snprintf(key, sizeof(key), "%s_median", fig_defs[i].key);
		r->med[i] = num_or_nan(o, key) / fig_defs[i].scale;
		if (!fig_defs[i].of)
			medians.v[i] = r->med[i];
	}
	r->groups = fig_groups(&medians, 1);
	r->agree = -1;
	r->has_ratio = jsonl_get(o, "ratio_median") != NULL;
	if (r->has_ratio) {
		snprintf(figure, sizeof(figure), "%s", jsonl_str(o, "figure") ? jsonl_str(o, "figure") : "");
		r->ratio.median = num_or_nan(o, "ratio_median");
		r->ratio.lo = num_or_nan(o, "ratio_lo");
		r->ratio.hi = num_or_nan(o, "ratio_hi");
		r->ratio.conf = num_or_nan(o, "ratio_conf_pct") / 100;
		r->ratio.n = isnan(r->ratio.median) ? 0 : r->rounds;
		if (jsonl_get(o, "rounds_agree"))
			r->agree = (long)num_or_nan(o, "rounds_agree");
		r->verdict = word && strcmp(word, compare_word(STATS_LESS)) == 0 ? STATS_LESS :
			     word && strcmp(word, compare_word(STATS_MORE)) == 0 ? STATS_MORE :
			     STATS_UNRESOLVED;
		snprintf(r->why, sizeof(r->why), "%s", why ? why : "");
	}
	n++;
}

/* Every line of path; the rows are the compare events after the last round. */
static void read_run(const char *path)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	char *buf = NULL, err[128];
	size_t cap = 0;
	unsigned line = 0;
	struct jsonl_obj o;

	if (!f) {
		fprintf(stderr, "zctable: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	while (getline(&buf, &cap, f) > 0) {
		const char *event, *program;

		line++;
		if (jsonl_parse(buf, &o, err, sizeof(err)) < 0)
			refuse(path, line, err);
		program = jsonl_str(&o, "program");
		event = jsonl_str(&o, "event");
		if (!program || strcmp(program, "zcc") != 0 || !event)
			refuse(path, line, "not a zcc -J run");
		if (strcmp(event, "round") == 0)
			n = 0;
		else if (strcmp(event, "compare") == 0)
			take_row(&o, path, line);
	}
	free(buf);
	if (f != stdin)
		fclose(f);
	if (n < 2)
		refuse(path, line, "no table of two rows or more (a run of one variant?)");
}

int main(int argc, char **argv)
{
	struct compare_look look = compare_zcc_look;
	unsigned groups = ~0u;
	char text[80];

	if (argc != 2) {
		fprintf(stderr, "usage: zctable FILE\n");
		return 2;
	}
	read_run(argv[1]);
	out_init("zcc", 0);
	for (unsigned i = 0; i < n; i++)
		groups &= rows[i].groups;
	/* The deciding figure: the one whose key the events name. */
	for (look.decide = COMPARE_SELF; look.decide <= COMPARE_PATH; look.decide++)
		if (strcmp(compare_figure(&look, groups, text, sizeof(text)), figure) == 0)
			break;
	if (look.decide > COMPARE_PATH)
		refuse(argv[1], 0, "the deciding figure is none zcc knows");
	compare_table(&look, rows, n, "the median of the rounds' ratios");
	return out_failed() ? 1 : 0;
}
