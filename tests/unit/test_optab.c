/* lib/app/optab.c: the option table, and what getopt_long and -h get from it. */
#include <stdlib.h>
#include <string.h>

#include "app/opt.h"
#include "app/optab.h"
#include "t.h"

static const struct optab rows[] = {
	{ 's', "server", "HOST", "the server" },
	{ 'J', "json", NULL, "JSON Lines" },
	{ '1', "once", NULL, "one connection" },
	{ 'c', "cpu-load", NULL, "measure" },
	{ 'B', "cpu", "CPU", "bind" },
	{ OPTAB_VERSION, "version", NULL, "the version" },
	{ 0, NULL, NULL, NULL },
};

static void build(void)
{
	struct optab_parser p;
	const char *why = NULL;

	CHECK(optab_build(&p, rows, "+", &why) == 0, "a good table builds (%s)",
	      why ? why : "ok");
	CHECK(strcmp(p.shortopts, "+:s:J1cB:") == 0,
	      "short options: mode, ':', letters, ':' after those with a value (%s)",
	      p.shortopts);
	CHECK(optab_build(&p, rows, "", &why) == 0 && strcmp(p.shortopts, ":s:J1cB:") == 0,
	      "no mode: ':' first (%s)", p.shortopts);
	CHECK(strcmp(p.longopts[0].name, "server") == 0 &&
	      p.longopts[0].has_arg == required_argument && p.longopts[0].val == 's' &&
	      !p.longopts[0].flag, "--server takes a value and returns 's'");
	CHECK(p.longopts[1].has_arg == no_argument && p.longopts[1].val == 'J',
	      "--json takes none and returns 'J'");
	CHECK(p.longopts[5].val == OPTAB_VERSION && strcmp(p.longopts[5].name, "version") == 0,
	      "--version: a long name only, its own key");
	CHECK(!p.longopts[6].name, "the long options end with a zero row");
	CHECK(p.rows == rows, "the parser keeps its rows");
}

static void refused(void)
{
	static const struct optab twice_key[] = {
		{ 's', "server", "HOST", "x" }, { 's', "source", "ADDR", "y" },
		{ 0, NULL, NULL, NULL },
	};
	static const struct optab twice_name[] = {
		{ 's', "server", "HOST", "x" }, { 'S', "server", NULL, "y" },
		{ 0, NULL, NULL, NULL },
	};
	static struct optab many[OPTAB_MAX + 2];
	static char names[OPTAB_MAX + 1][16];
	struct optab_parser p;
	const char *why = NULL;

	CHECK(optab_build(&p, twice_key, "", &why) < 0 && why, "a letter twice is refused (%s)",
	      why ? why : "accepted");
	why = NULL;
	CHECK(optab_build(&p, twice_name, "", &why) < 0 && why,
	      "a long name twice is refused (%s)", why ? why : "accepted");
	for (int i = 0; i <= OPTAB_MAX; i++) {
		snprintf(names[i], sizeof(names[i]), "o%d", i);
		many[i] = (struct optab){ 300 + i, names[i], NULL, "x" };
	}
	why = NULL;
	CHECK(optab_build(&p, many, "", &why) < 0 && why,
	      "more than OPTAB_MAX rows is refused (%s)", why ? why : "accepted");
}

static void find(void)
{
	const struct optab *exact;

	CHECK(optab_find(rows, 'B') == &rows[4], "optab_find: by letter");
	CHECK(optab_find(rows, OPTAB_VERSION) == &rows[5], "optab_find: a long-only key");
	CHECK(!optab_find(rows, 'x'), "optab_find: none");
	CHECK(optab_matches(rows, "cpu", 3, &exact) == 2 && exact == &rows[4],
	      "\"cpu\" begins two names and is one of them exactly");
	CHECK(optab_matches(rows, "cpu-", 4, &exact) == 1 && !exact, "\"cpu-\": one");
	CHECK(optab_matches(rows, "c", 1, &exact) == 2 && !exact, "\"c\": two, none exactly");
	CHECK(optab_matches(rows, "zz", 2, &exact) == 0, "\"zz\": none");
}

static char *help_of(const struct optab *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return strdup("");
	optab_help(f, t);
	fclose(f);
	return buf;
}

static void help(void)
{
	static const struct optab t[] = {
		{ 's', "server", "HOST", "the server" },
		{ 'w', "where", NULL,
		  "one two three four five six seven eight nine ten eleven twelve "
		  "thirteen fourteen fifteen" },
		{ 'c', "cpu-load", NULL, "a line\n  cpu: load PCT% of N CPUs, as printed\nthen more" },
		{ 'f', "calibration-file-name", "FILE", "too long for the column" },
		{ OPTAB_VERSION, "version", NULL, "the version" },
		{ 0, NULL, NULL, NULL },
	};
	const char *want =
		"  -s, --server HOST  the server\n"
		"  -w, --where        one two three four five six seven eight nine ten eleven\n"
		"                     twelve thirteen fourteen fifteen\n"
		"  -c, --cpu-load     a line\n"
		"                       cpu: load PCT% of N CPUs, as printed\n"
		"                     then more\n"
		"  -f, --calibration-file-name FILE\n"
		"                     too long for the column\n"
		"      --version      the version\n";
	char *got = help_of(t);

	int same = strcmp(got, want) == 0;

	CHECK(same, "-h lines: '  -s, --server HOST', the text in one column, wrapped at 79, "
	      "an indented line kept whole, a long left part alone on its line%s%s",
	      same ? "" : ":\n", same ? "" : got);
	free(got);
}

/* optab_given: what opt_next returned is noted per option, nothing else. */
static void given(void)
{
	struct optab_parser p;
	const char *why;
	char a0[] = "prog", a1[] = "-J", a2[] = "--server=h", a3[] = "file", a4[] = "-c";
	char *argv[] = { a0, a1, a2, a3, a4, NULL };
	int n = 0;

	optab_build(&p, rows, "-", &why);
	CHECK(!optab_given(&p, 's') && !optab_given(&p, 'J'), "a fresh parser: nothing given");
	optind = 0;
	opterr = 0;
	while (opt_next(5, argv, &p) != -1)
		n++;
	CHECK(n == 4, "four keys: -J, --server, the operand, -c (%d)", n);
	CHECK(optab_given(&p, 'J') && optab_given(&p, 's') && optab_given(&p, 'c'),
	      "-J, --server (by its long name) and -c are given");
	CHECK(!optab_given(&p, 'B') && !optab_given(&p, '1') &&
	      !optab_given(&p, OPTAB_VERSION), "-B, -1 and --version are not");
	CHECK(!optab_given(&p, 'x') && !optab_given(&p, 1), "a key with no row is never given");
	optab_note(&p, 'B');
	CHECK(optab_given(&p, 'B'), "optab_note marks a row given");
	optab_build(&p, rows, "-", &why);
	CHECK(!optab_given(&p, 'J'), "optab_build starts afresh");
}

int main(void)
{
	given();
	build();
	refused();
	find();
	help();
	return t_exit();
}
