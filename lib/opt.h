/* One way to turn an option's text into a number: checked, ranged, named. */
#ifndef ZC_OPT_H
#define ZC_OPT_H

/*
 * parse_num - convert s to a decimal integer in [min, max].
 * Leading/trailing space, signs where min >= 0, empty text and trailing
 * garbage are all refused. Returns 0, or -1 with *why set to a short reason.
 */
int parse_num(const char *s, long long min, long long max, long long *out,
	      const char **why);

/*
 * opt_num - the option parser's gate: parse optarg for option letter opt or
 * die with one usage line ("prog: -n: 'abc': not a number") and exit 2.
 * The spec fixes what a bad option value means for every program, so this
 * is the one place in lib/ that exits.
 */
long long opt_num(int opt, const char *arg, long long min, long long max);

/*
 * opt_refused - what getopt refused, as one usage line, exit 2: c is
 * getopt's ':' (a value is missing) or '?' (an unknown option; optopt says
 * which). Programs start their option string with ':' (after any '+' or
 * '-') so that getopt itself stays quiet.
 */
void opt_refused(int c) __attribute__((noreturn));

/* usage_error - print "prog: message" and exit 2. */
void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
