/*
 * A program's options, described once: each row of a table gives the short
 * letter, the GNU long name, the value's name and the help text. From it
 * come the option string and struct option array getopt_long takes, and
 * the option lines of -h; the manual pages are checked against -h by
 * tests/e2e/test_manpages.sh, so none of them can drift from the others.
 */
#ifndef ZC_OPTAB_H
#define ZC_OPTAB_H

#include <getopt.h>
#include <stdio.h>

/* The key of an option that has a long name only: above every letter. */
#define OPTAB_VERSION 256

struct optab {
	int key;		/* the short letter, or OPTAB_VERSION */
	const char *name;	/* the long name, without the "--" */
	const char *value;	/* the value's name in -h ("HOST"); NULL: none */
	const char *help;	/* -h text, wrapped to fit; '\n' breaks a line */
};

/* Rows a table may hold; a table ends with a row whose name is NULL. */
#define OPTAB_MAX 48

/* What getopt_long is given, made from a table by optab_build. */
struct optab_parser {
	const struct optab *rows;
	char shortopts[3 * OPTAB_MAX + 4];
	struct option longopts[OPTAB_MAX + 1];
	unsigned char given[OPTAB_MAX];	/* per row: opt_next returned it */
};

/*
 * optab_build - fill p from rows. mode goes first in the option string
 * ("+": stop at the first operand, "-": operands in place, "": permute);
 * a ':' follows it, so that getopt_long itself never prints. Returns 0, or
 * -1 with *why set when the table is too long or names a letter or a long
 * name twice.
 */
int optab_build(struct optab_parser *p, const struct optab *rows, const char *mode,
		const char **why);

/*
 * optab_note - key was given on the command line (opt_next calls it for
 * every option it returns); optab_given - was it? Checks that refuse one
 * option with another read the parser instead of keeping a list of their
 * own beside the table.
 */
void optab_note(struct optab_parser *p, int key);
int optab_given(const struct optab_parser *p, int key);

/* optab_find - the row of key, or NULL. */
const struct optab *optab_find(const struct optab *rows, int key);

/*
 * optab_matches - how many rows' long names begin with the len characters
 * of name; *exact is set to the row named exactly that, else NULL. One
 * match or an exact one is what getopt_long accepts; more is ambiguous.
 */
int optab_matches(const struct optab *rows, const char *name, size_t len,
		  const struct optab **exact);

/*
 * optab_help - the option lines of -h, one row each:
 *   "  -s, --server HOST     text", continued under the text at 79 columns;
 * a long-only option's line starts "      --version".
 */
void optab_help(FILE *f, const struct optab *rows);

#endif
